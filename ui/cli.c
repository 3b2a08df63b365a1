#include "config.h"

#include "options.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/mem.h"
#include "base/number.h"
#include "batch/worker_pool.h"
#include "data/case.h"

const ptodb_option_info ptodb_options[OPT_COUNT] = {
#define PTODB_OPTION_INFO(id, name, short_name, kind, arg, modes, help) \
    {name, short_name, OPTARG_##kind, arg, modes, help},
    PTODB_OPTION_LIST(PTODB_OPTION_INFO)
#undef PTODB_OPTION_INFO
};

/* getopt_long returns this plus the option index for long-only options. */
enum { LONG_ONLY_BASE = 256 };

int ptodb_cli_parse(ptodb_cli *cli, int argc, char **argv)
{
    struct option longopts[OPT_COUNT + 1];
    char shortopts[3 * OPT_COUNT + 2];
    size_t ns = 0;

    memset(cli, 0, sizeof *cli);
    cli->prog = argc > 0 ? argv[0] : "ptodb";
    shortopts[ns++] = ':'; /* report missing arguments distinctly */
    for (int i = 0; i < OPT_COUNT; i++) {
        const ptodb_option_info *o = &ptodb_options[i];
        longopts[i].name = o->name;
        longopts[i].has_arg = o->kind == OPTARG_NONE ? no_argument : required_argument;
        longopts[i].flag = NULL;
        longopts[i].val = o->short_name ? o->short_name : LONG_ONLY_BASE + i;
        if (o->short_name) {
            shortopts[ns++] = (char)o->short_name;
            if (o->kind != OPTARG_NONE)
                shortopts[ns++] = ':';
        }
    }
    memset(&longopts[OPT_COUNT], 0, sizeof longopts[OPT_COUNT]);
    shortopts[ns] = '\0';

    opterr = 0;
    optind = 1;
    for (;;) {
        /* _only: gdb users type -ex and -nx with one dash. */
        int c = getopt_long_only(argc, argv, shortopts, longopts, NULL);
        if (c == -1)
            break;
        int id = -1;
        if (c >= LONG_ONLY_BASE) {
            id = c - LONG_ONLY_BASE;
        } else if (c == '?' || c == ':') {
            const char *what = argv[optind - 1];
            if (c == ':')
                fprintf(stderr, "ptodb: option '%s' needs an argument\n", what);
            else
                fprintf(stderr, "ptodb: unknown option '%s'\n", what);
            fputs("Try 'ptodb --help' for more information.\n", stderr);
            ptodb_cli_free(cli);
            return -1;
        } else {
            for (int i = 0; i < OPT_COUNT; i++)
                if (ptodb_options[i].short_name == c)
                    id = i;
        }
        if (id < 0)
            continue;
        cli->order = xreallocarray(cli->order, (size_t)cli->norder + 1, sizeof *cli->order);
        cli->order[cli->norder].id = (ptodb_option_id)id;
        cli->order[cli->norder].value = ptodb_options[id].kind != OPTARG_NONE ? optarg : NULL;
        cli->norder++;
        int n = cli->given[id]++;
        if (ptodb_options[id].kind != OPTARG_NONE) {
            cli->values[id] = xreallocarray(cli->values[id], (size_t)n + 1, sizeof(char *));
            cli->values[id][n] = optarg;
        }
    }
    cli->npaths = argc - optind;
    cli->paths = (const char **)(argv + optind);
    return 0;
}

void ptodb_cli_free(ptodb_cli *cli)
{
    for (int i = 0; i < OPT_COUNT; i++) {
        free(cli->values[i]);
        cli->values[i] = NULL;
    }
    free(cli->order);
    cli->order = NULL;
    cli->norder = 0;
}

const char *ptodb_cli_case_path(const ptodb_cli *cli, const char *mode)
{
    if (cli->npaths == 1)
        return cli->paths[0];
    if (cli->npaths == 0)
        fprintf(stderr, "ptodb: %s needs a PATH: a build folder, its passes_dump/, a dump file or a ptodb.yaml\n",
                mode);
    else
        fprintf(stderr, "ptodb: %s takes one PATH, got %d: '%s', '%s'%s\n", mode, cli->npaths, cli->paths[0],
                cli->paths[1], cli->npaths > 2 ? ", ..." : "");
    fputs("Try 'ptodb --help' for more information.\n", stderr);
    return NULL;
}

static int parse_tolerance(const char *option, const char *text, int *has, double *out)
{
    if (!text)
        return 0;
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (!*text || *end || errno || !(v >= 0)) {
        fprintf(stderr, "ptodb: %s needs a non-negative number, got '%s'\n", option, text);
        return -1;
    }
    *has = 1;
    *out = v;
    return 0;
}

int ptodb_cli_int(const ptodb_cli *cli, ptodb_option_id id, const char *what, long long lo, long long hi,
                  long long *out)
{
    const char *text = ptodb_cli_value(cli, id);
    if (!text)
        return 0;
    if (parse_int_range(text, lo, hi, out) != 0) {
        fprintf(stderr, "ptodb: --%s: expected %s from %lld to %lld, got '%s'\n", ptodb_options[id].name, what, lo,
                hi, text);
        return -1;
    }
    return 1;
}

int ptodb_cli_jobs(const ptodb_cli *cli, int default_jobs, int *jobs)
{
    long long n;
    int given = ptodb_cli_int(cli, OPT_JOBS, "a number", 1, WORKER_POOL_MAX_JOBS, &n);
    if (given < 0)
        return -1;
    *jobs = given ? (int)n : default_jobs;
    return 0;
}

int ptodb_check_output_dir(const char *option, const char *dir)
{
    struct stat sb;
    if (stat(dir, &sb) != 0) {
        fprintf(stderr, "ptodb: %s: %s: %s\n", option, dir, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(sb.st_mode)) {
        fprintf(stderr, "ptodb: %s: %s: not a directory\n", option, dir);
        return -1;
    }
    if (access(dir, W_OK | X_OK) != 0) {
        fprintf(stderr, "ptodb: %s: %s: %s\n", option, dir, strerror(errno));
        return -1;
    }
    return 0;
}

int ptodb_cli_tolerances(const ptodb_cli *cli, case_options *opt)
{
    if (parse_tolerance("--rtol", ptodb_cli_value(cli, OPT_RTOL), &opt->has_rtol, &opt->rtol) != 0 ||
        parse_tolerance("--atol", ptodb_cli_value(cli, OPT_ATOL), &opt->has_atol, &opt->atol) != 0)
        return -1;
    return 0;
}

int ptodb_open_case(const char *path, const case_options *opt, case_info *c)
{
    diag_sink sink;
    diag_sink_init(&sink, 50);
    ptodb_status st = case_open(path, opt, c, &sink);
    int ok = st == PTODB_OK && c->npasses > 0;
    if (!ok) {
        diag_sink_print(&sink, stderr, 1);
        if (st == PTODB_OK)
            fprintf(stderr, "ptodb: %s: no pass files found\n", path);
        case_free(c);
    }
    diag_sink_free(&sink);
    return ok ? 0 : -1;
}

const char *ptodb_cli_value(const ptodb_cli *cli, ptodb_option_id id)
{
    if (!cli->given[id] || !cli->values[id])
        return NULL;
    return cli->values[id][cli->given[id] - 1];
}

static const struct {
    const char *key;  /* "ptodb --batch PATH" */
    const char *with; /* "--batch" */
    const char *name; /* "--batch" */
} mode_names[PTODB_MODE_COUNT] = {
#define PTODB_MODE_NAMES(id, key, with, name) {key, with, name},
    PTODB_MODE_LIST(PTODB_MODE_NAMES)
#undef PTODB_MODE_NAMES
};

const char *ptodb_mode_name(ptodb_mode mode)
{
    return mode_names[mode].name;
}

int ptodb_option_is_mode(ptodb_option_id id)
{
    switch (id) {
    case OPT_INFO: case OPT_CHECK: case OPT_PRINT: case OPT_LIST_OPS: case OPT_LIST_SEMANTICS: case OPT_RUN:
    case OPT_BATCH: case OPT_MERGE_REPORTS: case OPT_COMPARE: case OPT_DAP: case OPT_DAP_PORT:
        return 1;
    default:
        return 0;
    }
}

/* How messages and the lists by mode spell option id: gdb's -ex and -x,
 * else --name. */
static const char *option_spelling(ptodb_option_id id, char *buf, size_t size)
{
    if (id == OPT_EX)
        snprintf(buf, size, "-ex");
    else if (id == OPT_COMMAND_FILE)
        snprintf(buf, size, "-x");
    else
        snprintf(buf, size, "--%s", ptodb_options[id].name);
    return buf;
}

/* key ("ptodb --batch PATH -ex CMD") names option --name. */
static int names_option(const char *key, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = strstr(key, "--"); p; p = strstr(p + 2, "--"))
        if (strncmp(p + 2, name, n) == 0 && (p[2 + n] == ' ' || p[2 + n] == '\0'))
            return 1;
    return 0;
}

int ptodb_cli_check_mode(const ptodb_cli *cli, ptodb_mode mode)
{
    for (int k = 0; k < cli->norder; k++) {
        ptodb_option_id id = cli->order[k].id;
        unsigned modes = ptodb_options[id].modes;
        if (modes & (1u << mode))
            continue;
        char opt[64];
        option_spelling(id, opt, sizeof opt);
        if (ptodb_option_is_mode(id)) {
            /* the option that chose the mode: the first given that applies to it */
            char chose[64];
            snprintf(chose, sizeof chose, "%s", mode_names[mode].with);
            for (int j = 0; j < cli->norder; j++) {
                ptodb_option_id c = cli->order[j].id;
                if (ptodb_option_is_mode(c) && (ptodb_options[c].modes & (1u << mode))) {
                    option_spelling(c, chose, sizeof chose);
                    break;
                }
            }
            fprintf(stderr, "ptodb: %s and %s are two modes: give one\n", opt, chose);
            return -1;
        }
        const char *names[PTODB_MODE_COUNT];
        int n = 0;
        for (int m = 0; m < PTODB_MODE_COUNT; m++)
            if (modes & (1u << m))
                names[n++] = mode_names[m].with;
        fprintf(stderr, "ptodb: %s does not apply to %s; it applies to ", opt, mode_names[mode].name);
        for (int j = 0; j < n; j++)
            fprintf(stderr, "%s%s", j == 0 ? "" : j == n - 1 ? " and " : ", ", names[j]);
        fputs("\n", stderr);
        return -1;
    }
    return 0;
}

void ptodb_cli_print_help(FILE *out)
{
    fputs("Usage: ptodb [OPTION]... [PATH]\n"
          "       ptodb reduce CASE [--pass N] [--budget 10m] [--out DIR]\n"
          "A debugger for PyPTO pass dumps: parse, run and validate every pass of a\n"
          "PyPTO build folder (build_output/<case>/ or its passes_dump/).\n\n"
          "Options:\n",
          out);
    for (int i = 0; i < OPT_COUNT; i++) {
        const ptodb_option_info *o = &ptodb_options[i];
        char left[64];
        const char *arg = o->arg_name ? o->arg_name : "", *space = o->arg_name ? " " : "";
        if (i == OPT_EX)
            snprintf(left, sizeof left, "-ex, --%s%s%s", o->name, space, arg);
        else if (o->short_name)
            snprintf(left, sizeof left, "-%c, --%s%s%s", o->short_name, o->name, space, arg);
        else
            snprintf(left, sizeof left, "    --%s%s%s", o->name, space, arg);
        fprintf(out, "  %-26s ", left);
        /* an option of some modes only says which */
        if (!ptodb_option_is_mode((ptodb_option_id)i) && o->modes != M_ALL && !(o->modes & M_(DEBUGGER))) {
            const char *sep = "with ";
            for (int m = 0; m < PTODB_MODE_COUNT; m++) {
                if (o->modes & (1u << m)) {
                    fprintf(out, "%s%s", sep, mode_names[m].with);
                    sep = "/";
                }
            }
            fputs(": ", out);
        }
        fprintf(out, "%s\n", o->help);
    }
    fputs("\nWhere each option applies (an option given to another mode is refused):\n", out);
    for (int m = 0; m < PTODB_MODE_COUNT; m++) {
        fprintf(out, "  %s:", mode_names[m].key);
        for (int i = 0; i < OPT_COUNT; i++) {
            const ptodb_option_info *o = &ptodb_options[i];
            if (!(o->modes & (1u << m)) || o->modes == M_ALL)
                continue;
            /* the option that chooses the mode is in its name */
            if (ptodb_option_is_mode((ptodb_option_id)i) && names_option(mode_names[m].key, o->name))
                continue;
            char opt[64];
            fprintf(out, " %s", option_spelling((ptodb_option_id)i, opt, sizeof opt));
        }
        fputs("\n", out);
    }
    /* the options of every mode, --help, --version, --nx */
    fputs("  every mode:", out);
    for (int i = 0; i < OPT_COUNT; i++) {
        char opt[64];
        if (ptodb_options[i].modes == M_ALL)
            fprintf(out, " %s", option_spelling((ptodb_option_id)i, opt, sizeof opt));
    }
    fputs("\n"
          "\nExit status:\n"
          "  0  success (every validated pass passed)\n"
          "  1  validation found a failing pass\n"
          "  2  usage or input error\n\n"
          "See ptodb(1) and ptodbrc(5).\n",
          out);
}
