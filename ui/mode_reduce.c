/* ptodb reduce CASE [--pass N] [--budget 10m] [--out DIR]: the smallest
 * pair of pass files that still shows the case's divergence, as a case
 * folder (src/batch/reduce.h). Progress goes to standard error, the log to
 * standard output. Exit status: 0 the reduced case is written (also when
 * the budget or Ctrl-C ended the search: it is the best so far), 2 usage or
 * input errors, or no divergence to reduce. --fingerprint prints the case's
 * fingerprint as JSON and exits (0, or 2 when it has none). */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>

#include "base/atomic_file.h"
#include "base/mem.h"
#include "base/path_within.h"
#include "base/status.h"
#include "base/strbuf.h"
#include "batch/reduce.h"
#include "data/case.h"
#include "exec/runpass.h"
#include "modes.h"
#include "options.h"

int mode_reduce(const ptodb_cli *cli);

static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig)
{
    (void)sig;
    interrupted = 1;
}

/* "90", "90s", "10m", "1.5h" -> seconds; -1 when malformed. */
static double parse_budget(const char *s)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || errno || !(v > 0))
        return -1;
    double unit = 1;
    if (*end == 's')
        end++;
    else if (*end == 'm')
        unit = 60, end++;
    else if (*end == 'h')
        unit = 3600, end++;
    if (*end || v * unit > 1e7)
        return -1;
    return v * unit;
}

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* A folder holding passes_dump/ (or a passes_dump/ itself) at out or above
 * it: out would be inside a case folder. Returns that folder, or NULL. Out
 * itself may be an earlier reduction's case (it has fingerprint.json): it
 * is replaced. */
static char *case_above(const char *out)
{
    /* the nearest folder of out that exists (out itself when it does) */
    char *copy = xstrdup(out);
    char *p = NULL;
    int level = 0;
    for (;;) {
        p = realpath(copy, NULL);
        if (p)
            break;
        char *slash = strrchr(copy, '/');
        if (!slash) {
            strcpy(copy, ".");
        } else if (slash == copy) {
            slash[1] = '\0';
        } else {
            *slash = '\0';
        }
        level = 1; /* not out itself: an earlier reduction's folder does not count */
        if (strcmp(copy, ".") == 0 || strcmp(copy, "/") == 0) {
            p = realpath(copy, NULL);
            break;
        }
    }
    free(copy);
    if (!p)
        return NULL;
    for (;; level++) {
        strbuf pd = STRBUF_INIT, fj = STRBUF_INIT;
        strbuf_printf(&pd, "%s/passes_dump", strcmp(p, "/") == 0 ? "" : p);
        strbuf_printf(&fj, "%s/fingerprint.json", strcmp(p, "/") == 0 ? "" : p);
        const char *base = strrchr(p, '/');
        int hit = (is_dir(strbuf_str(&pd)) && !(level == 0 && is_file(strbuf_str(&fj)))) ||
                  (base && strcmp(base + 1, "passes_dump") == 0);
        strbuf_free(&pd);
        strbuf_free(&fj);
        if (hit)
            return p;
        char *slash = strrchr(p, '/');
        if (!slash || slash == p)
            break;
        *slash = '\0';
    }
    free(p);
    return NULL;
}

/* out exists and holds files that are not a reduced case's. */
static int foreign_folder(const char *out)
{
    DIR *d = opendir(out);
    if (!d)
        return 0;
    int foreign = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        const char *n = e->d_name;
        if (strcmp(n, ".") && strcmp(n, "..") && strcmp(n, "passes_dump") && strcmp(n, "data") &&
            strcmp(n, "README.md") && strcmp(n, "fingerprint.json") && strcmp(n, "reduce.log") &&
            strcmp(n, "golden.py"))
            foreign = 1;
    }
    closedir(d);
    return foreign;
}

int mode_reduce(const ptodb_cli *cli)
{
    const char *path = ptodb_cli_case_path(cli, "reduce");
    if (!path)
        return PTODB_EXIT_USAGE;
    reduce_options o;
    memset(&o, 0, sizeof o);
    o.pass = -1;
    long long pass;
    int got = ptodb_cli_int(cli, OPT_PASS, "a pass number", 0, 9999, &pass);
    if (got < 0)
        return PTODB_EXIT_USAGE;
    if (got)
        o.pass = (int)pass;
    o.budget = 600;
    const char *budget = ptodb_cli_value(cli, OPT_BUDGET);
    if (budget && (o.budget = parse_budget(budget)) < 0) {
        fprintf(stderr, "ptodb: --budget: expected a time above 0 (seconds, or with s, m or h: 90, 10m, 1h), got "
                        "'%s'\n", budget);
        return PTODB_EXIT_USAGE;
    }
    machine_options_init(&o.ro.mopt);
    if (parse_run_options(cli, &o.ro.mopt) != 0)
        return PTODB_EXIT_USAGE;
    if (!ptodb_cli_value(cli, OPT_TIMEOUT))
        o.ro.mopt.time_limit = 20; /* a candidate whose loop no longer ends is invalid, not a hang */
    o.lines_baseline = cli->given[OPT_DDMIN_LINES] > 0;
    case_options copt;
    memset(&copt, 0, sizeof copt);
    if (ptodb_cli_tolerances(cli, &copt) != 0)
        return PTODB_EXIT_USAGE;
    case_info c;
    if (ptodb_open_case(path, &copt, &c) != 0)
        return PTODB_EXIT_USAGE;
    op_fn *ops = xcalloc(IR_OP_COUNT, sizeof *ops);
    exec_ops_init(ops);
    o.ro.ops = ops;
    o.ro.mopt.interrupt = &interrupted;
    o.stop = &interrupted;
    /* Ctrl-C, kill and a closed terminal all end the search between two
     * steps: the folder keeps the best case, the work folder goes */
    signal(SIGINT, on_interrupt);
    signal(SIGTERM, on_interrupt);
    signal(SIGHUP, on_interrupt);
    int code = PTODB_EXIT_OK;
    if (cli->given[OPT_FINGERPRINT]) {
        o.fingerprint_only = 1;
        reduce_result r;
        if (reduce_run(&c, &o, &r) != 0) {
            fprintf(stderr, "ptodb: reduce: %s\n", r.error ? r.error : "failed");
            code = PTODB_EXIT_USAGE;
        } else {
            strbuf j = STRBUF_INIT;
            reduce_fp_json(&r.fp, &j);
            printf("%s\n", strbuf_str(&j));
            strbuf_free(&j);
        }
        reduce_result_free(&r);
        goto done;
    }
    strbuf out = STRBUF_INIT;
    const char *given = ptodb_cli_value(cli, OPT_OUT);
    if (given && !*given) {
        fprintf(stderr, "ptodb: reduce: --out needs a folder name\n");
        strbuf_free(&out);
        code = PTODB_EXIT_USAGE;
        goto done;
    }
    /* a relative folder is the working folder's ("./NAME": path_within judges it) */
    if (!given || given[0] != '/')
        strbuf_puts(&out, given && strncmp(given, "./", 2) == 0 ? "" : "./");
    if (given) {
        strbuf_puts(&out, given);
    } else {
        char *real = realpath(c.root, NULL);
        const char *root = real ? real : c.root, *slash = strrchr(root, '/');
        const char *name = slash && slash[1] ? slash + 1 : root;
        if (strcmp(name, "passes_dump") == 0 || strcmp(name, ".") == 0 || !*name)
            name = "case";
        strbuf_printf(&out, "%s-reduced", name);
        free(real);
    }
    char *inside = case_above(strbuf_str(&out));
    if (!inside && path_within(strbuf_str(&out), c.root) == 1)
        inside = xstrdup(c.root);
    if (inside) {
        fprintf(stderr, "ptodb: reduce: --out %s is inside the case folder %s: ptodb never writes inside a case "
                        "folder; choose another --out\n", strbuf_str(&out), inside);
        free(inside);
        strbuf_free(&out);
        code = PTODB_EXIT_USAGE;
        goto done;
    }
    if (foreign_folder(strbuf_str(&out))) {
        fprintf(stderr, "ptodb: reduce: --out %s holds files that are not a reduced case's; choose an empty or new "
                        "folder\n", strbuf_str(&out));
        strbuf_free(&out);
        code = PTODB_EXIT_USAGE;
        goto done;
    }
    o.out_dir = strbuf_str(&out);
    strbuf cmd = STRBUF_INIT;
    strbuf_printf(&cmd, "ptodb reduce %s", path);
    if (o.pass >= 0)
        strbuf_printf(&cmd, " --pass %d", o.pass);
    if (budget)
        strbuf_printf(&cmd, " --budget %s", budget);
    if (o.lines_baseline)
        strbuf_puts(&cmd, " --ddmin-lines");
    o.command = strbuf_str(&cmd);
    o.progress = stderr;
    reduce_result r;
    if (reduce_run(&c, &o, &r) != 0) {
        fprintf(stderr, "ptodb: reduce: %s\n", r.error ? r.error : "failed");
        code = PTODB_EXIT_USAGE;
    } else {
        strbuf rep = STRBUF_INIT;
        reduce_report_text(&r, &rep);
        fputs(strbuf_str(&rep), stdout);
        printf("reduce: the reduced case is %s (ptodb --batch %s --bisect --bisect-scan shows it)\n", o.out_dir,
               o.out_dir);
        strbuf_free(&rep);
    }
    reduce_result_free(&r);
    strbuf_free(&cmd);
    strbuf_free(&out);
done:
    free(ops);
    case_free(&c);
    return code;
}
