/* Case discovery and parameter binding. */
#include "base/input_file.h"
#include "config.h"

#include "data/case.h"

#include <ctype.h>
#include <limits.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "base/mem.h"
#include "base/strbuf.h"
#include "data/mapfile.h"
#include "data/npy.h"
#include "data/pt.h"

#define CASE_MAX_GOLDEN_BYTES (4u << 20)

const char *case_tol_source_name(case_tol_source s)
{
    switch (s) {
    case CASE_TOL_DEFAULT: return "default";
    case CASE_TOL_GOLDEN: return "golden.py";
    case CASE_TOL_MANIFEST: return "manifest";
    case CASE_TOL_OPTION: return "option";
    }
    return "?";
}

int case_pass_at_or_after(const case_info *c, const char *path, const char *name)
{
    long at = -1, here = -1;
    for (size_t i = 0; c && path && i < c->npasses; i++) {
        const case_pass *p = &c->passes[i];
        if (at < 0 && p->name && strcmp(p->name, name) == 0)
            at = (long)i;
        if (here < 0 && p->path && strcmp(p->path, path) == 0)
            here = (long)i;
    }
    return at >= 0 && here >= 0 ? here >= at : -1;
}

const char *case_strip_ssa(const char *name, char *buf, size_t size)
{
    snprintf(buf, size, "%s", name);
    char *p = strstr(buf, "__ssa_v");
    while (p) {
        char *q = p + 7;
        if (isdigit((unsigned char)*q)) {
            while (isdigit((unsigned char)*q))
                q++;
            if (*q == '\0') {
                *p = '\0';
                break;
            }
        }
        p = strstr(p + 1, "__ssa_v");
    }
    return buf;
}

static char *path_join(const char *a, const char *b)
{
    size_t n = strlen(a) + strlen(b) + 2;
    char *p = xmalloc(n);
    snprintf(p, n, "%s/%s", a, b);
    return p;
}

static int is_dir(const char *p)
{
    struct stat sb;
    return stat(p, &sb) == 0 && S_ISDIR(sb.st_mode);
}

static int is_file(const char *p)
{
    struct stat sb;
    return stat(p, &sb) == 0 && S_ISREG(sb.st_mode);
}

static int has_suffix(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}

static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return xstrdup(".");
    if (slash == path)
        return xstrdup("/");
    return xstrndup(path, (size_t)(slash - path));
}

static const char *base_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* The folder above dir, relative paths kept relative ("." gives ".."). */
static char *parent_of(const char *dir)
{
    const char *b = base_of(dir);
    if (strcmp(b, ".") == 0 || strcmp(b, "..") == 0 || *b == '\0')
        return path_join(dir, "..");
    return dir_of(dir);
}

/* dir is a passes_dump/ folder, whatever it is called on the command line
 * ("." from inside it). */
static int is_passes_dump(const char *dir)
{
    char rp[PATH_MAX];
    if (!realpath(dir, rp))
        return strcmp(base_of(dir), "passes_dump") == 0;
    return strcmp(base_of(rp), "passes_dump") == 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names of regular files in dir ending in suffix; NULL-free array.
 * Other files with the suffix (FIFOs, devices, sockets) are skipped with a
 * warning to sink when sink is not NULL. */
static char **list_files(const char *dir, const char *suffix, size_t *n, diag_sink *sink)
{
    *n = 0;
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    char **names = NULL;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' || !has_suffix(e->d_name, suffix))
            continue;
        char *full = path_join(dir, e->d_name);
        struct stat sb;
        int found = stat(full, &sb) == 0, ok = found && S_ISREG(sb.st_mode);
        if (found && !ok && sink && !S_ISDIR(sb.st_mode)) {
            char why[300];
            int fd = input_file_open(full, why, sizeof why);
            if (fd >= 0)
                close(fd); /* it became a regular file since: skip it anyway */
            else
                diag_report(sink, DIAG_WARNING, (diag_loc){full, 0, 0}, NULL, "ignored: %s", why);
        }
        free(full);
        if (!ok)
            continue;
        names = xreallocarray(names, *n + 1, sizeof *names);
        names[(*n)++] = xstrdup(e->d_name);
    }
    closedir(d);
    if (*n)
        qsort(names, *n, sizeof *names, cmp_str);
    return names;
}

static void free_list(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

/* ---- passes ------------------------------------------------------------- */

/* "NN_frontend.py" / "NN_after_Name.py" -> index and name; -1 otherwise. */
static int parse_pass_name(const char *file, char **name)
{
    const char *p = file;
    if (!isdigit((unsigned char)*p))
        return -1;
    long idx = 0;
    while (isdigit((unsigned char)*p) && idx < 100000)
        idx = idx * 10 + (*p++ - '0');
    if (*p++ != '_')
        return -1;
    size_t len = strlen(p);
    if (len < 4 || strcmp(p + len - 3, ".py") != 0)
        return -1;
    if (strcmp(p, "frontend.py") == 0) {
        *name = xstrdup("frontend");
        return (int)idx;
    }
    if (strncmp(p, "after_", 6) == 0 && len > 6 + 3) {
        *name = xstrndup(p + 6, len - 6 - 3);
        return (int)idx;
    }
    return -1;
}

static void add_pass(case_info *c, const char *dir, const char *file, diag_sink *sink)
{
    char *name = NULL;
    int idx = parse_pass_name(file, &name);
    char *path = path_join(dir, file);
    if (idx < 0) {
        diag_report(sink, DIAG_WARNING, (diag_loc){path, 0, 0}, NULL,
                    "not a pass dump name (expected NN_frontend.py or NN_after_<Pass>.py); run in name order");
        name = xstrndup(file, strlen(file) - 3);
    }
    c->passes = xreallocarray(c->passes, c->npasses + 1, sizeof *c->passes);
    case_pass *p = &c->passes[c->npasses++];
    p->index = idx;
    p->name = name;
    p->stem = xstrndup(file, strlen(file) - 3);
    p->path = path;
}

static ptodb_status scan_passes(case_info *c, diag_sink *sink)
{
    size_t n;
    char **files = list_files(c->dump_dir, ".py", &n, sink);
    if (n == 0) {
        diag_report(sink, DIAG_ERROR, (diag_loc){c->dump_dir, 0, 0}, NULL, "no .py pass dump files found");
        free_list(files, n);
        return PTODB_ERR_NOT_FOUND;
    }
    for (size_t i = 0; i < n; i++)
        add_pass(c, c->dump_dir, files[i], sink);
    free_list(files, n);
    ptodb_status st = PTODB_OK;
    int prev = -1;
    const case_pass *prevp = NULL;
    /* Gaps are listed in one warning for the folder: hand-made or trimmed
     * dump folders skip passes on purpose, and one line says it all. */
    strbuf gaps = STRBUF_INIT;
    for (size_t i = 0; i < c->npasses; i++) {
        const case_pass *p = &c->passes[i];
        if (p->index < 0)
            continue;
        if (prevp && p->index == prev) {
            diag_report(sink, DIAG_ERROR, (diag_loc){p->path, 0, 0}, NULL,
                        "duplicate pass index %02d (also %s.py): two dumps mixed in one folder?", p->index,
                        prevp->stem);
            st = PTODB_ERR_FORMAT;
        } else if (p->index != prev + 1) {
            if (gaps.len)
                strbuf_puts(&gaps, ", ");
            if (p->index == prev + 2)
                strbuf_printf(&gaps, "%02d", prev + 1);
            else
                strbuf_printf(&gaps, "%02d..%02d", prev + 1, p->index - 1);
        }
        prev = p->index;
        prevp = p;
    }
    if (gaps.len)
        diag_report(sink, DIAG_WARNING, (diag_loc){c->dump_dir, 0, 0}, NULL,
                    "gaps in pass numbering: %s missing", strbuf_str(&gaps));
    strbuf_free(&gaps);
    return st;
}

/* ---- tolerances --------------------------------------------------------- */

static void tol_set(case_tol *t, double v, case_tol_source src, const char *where)
{
    free(t->where);
    t->value = v;
    t->source = src;
    t->where = xstrdup(where);
}

/* Finds "NAME = number" at the start of a line of golden.py. Text only:
 * the file is never executed. */
static int golden_scan(const char *text, const char *name, double *v, int *line)
{
    int ln = 1;
    size_t nl = strlen(name);
    for (const char *p = text; *p; ln++) {
        if (strncmp(p, name, nl) == 0) {
            const char *q = p + nl;
            while (*q == ' ' || *q == '\t')
                q++;
            if (*q == '=' && q[1] != '=') {
                q++;
                char *end;
                errno = 0;
                double d = strtod(q, &end);
                if (end != q && !errno) {
                    while (*end == ' ' || *end == '\t' || *end == '\r')
                        end++;
                    if (*end == '\n' || *end == '#' || *end == '\0') {
                        *v = d;
                        *line = ln;
                        return 1;
                    }
                }
            }
        }
        const char *e = strchr(p, '\n');
        if (!e)
            break;
        p = e + 1;
    }
    return 0;
}

static void read_golden(case_info *c, diag_sink *sink)
{
    char *path = path_join(c->root, "golden.py");
    char why[300];
    FILE *f = input_file_fopen(path, why, sizeof why);
    if (!f) {
        if (errno != ENOENT)
            diag_report(sink, DIAG_WARNING, (diag_loc){path, 0, 0}, NULL, "ignored: %s", why);
        free(path);
        return;
    }
    c->golden_path = path;
    char *buf = xmalloc(CASE_MAX_GOLDEN_BYTES + 1);
    size_t n = fread(buf, 1, CASE_MAX_GOLDEN_BYTES, f);
    fclose(f);
    buf[n] = '\0';
    if (strlen(buf) != n)
        diag_report(sink, DIAG_WARNING, (diag_loc){path, 0, 0}, NULL, "NUL byte in golden.py; scanned up to it");
    double v;
    int line;
    char where[600];
    if (golden_scan(buf, "RTOL", &v, &line) && v >= 0) {
        snprintf(where, sizeof where, "%s:%d", path, line);
        tol_set(&c->rtol, v, CASE_TOL_GOLDEN, where);
    }
    if (golden_scan(buf, "ATOL", &v, &line) && v >= 0) {
        snprintf(where, sizeof where, "%s:%d", path, line);
        tol_set(&c->atol, v, CASE_TOL_GOLDEN, where);
    }
    free(buf);
}

/* ---- data --------------------------------------------------------------- */

static void add_tensor(case_tensor **arr, size_t *n, const char *name, const char *path, tensor *t)
{
    *arr = xreallocarray(*arr, *n + 1, sizeof **arr);
    case_tensor *ct = &(*arr)[(*n)++];
    memset(ct, 0, sizeof *ct);
    ct->name = xstrdup(name);
    ct->path = xstrdup(path);
    ct->t = t;
}

static ptodb_status scan_data_dir(const case_info *c, const char *sub, case_tensor **arr, size_t *n,
                                  diag_sink *sink)
{
    char *dir = path_join(c->root, sub);
    ptodb_status st = PTODB_OK;
    for (int pass = 0; pass < 2; pass++) {
        const char *ext = pass == 0 ? ".pt" : ".npy";
        size_t nf;
        char **files = list_files(dir, ext, &nf, sink);
        for (size_t i = 0; i < nf; i++) {
            char *name = xstrndup(files[i], strlen(files[i]) - strlen(ext));
            char *path = path_join(dir, files[i]);
            int dup = 0;
            for (size_t k = 0; k < *n; k++)
                dup |= strcmp((*arr)[k].name, name) == 0;
            if (dup) {
                diag_report(sink, DIAG_WARNING, (diag_loc){path, 0, 0}, NULL,
                            "ignored: %s.pt is used for '%s'", name, name);
            } else {
                tensor *t = NULL;
                ptodb_status s = pass == 0 ? pt_load_tensor(path, &t, sink)
                                           : npy_load(path, DTYPE_COUNT, &t, sink);
                if (s == PTODB_OK)
                    add_tensor(arr, n, name, path, t);
                else
                    st = s;
            }
            free(name);
            free(path);
        }
        free_list(files, nf);
    }
    free(dir);
    return st;
}

static ptodb_status load_manifest_data(case_info *c, const manifest *m, int outputs, diag_sink *sink)
{
    const manifest_tensor *list = outputs ? m->outputs : m->inputs;
    size_t n = outputs ? m->noutputs : m->ninputs;
    ptodb_status st = PTODB_OK;
    for (size_t i = 0; i < n; i++) {
        tensor *t;
        ptodb_status s = manifest_load_tensor(m, &list[i], &t, sink);
        if (s != PTODB_OK) {
            st = s;
            continue;
        }
        if (outputs)
            add_tensor(&c->outputs, &c->noutputs, list[i].name, list[i].file, t);
        else
            add_tensor(&c->inputs, &c->ninputs, list[i].name, list[i].file, t);
    }
    return st;
}

/* Per-output tolerances, by priority. */
static void output_tolerances(case_info *c, const manifest *m, const case_options *opt)
{
    for (size_t i = 0; i < c->noutputs; i++) {
        case_tensor *o = &c->outputs[i];
        tol_set(&o->rtol, c->rtol.value, c->rtol.source, c->rtol.where);
        tol_set(&o->atol, c->atol.value, c->atol.source, c->atol.where);
        if (!m)
            continue;
        for (size_t k = 0; k < m->noutputs; k++) {
            const manifest_tensor *mt = &m->outputs[k];
            if (strcmp(mt->name, o->name) != 0)
                continue;
            char where[600];
            snprintf(where, sizeof where, "%s:%d", m->path, mt->line);
            if (mt->has_rtol && !(opt && opt->has_rtol))
                tol_set(&o->rtol, mt->rtol, CASE_TOL_MANIFEST, where);
            if (mt->has_atol && !(opt && opt->has_atol))
                tol_set(&o->atol, mt->atol, CASE_TOL_MANIFEST, where);
        }
    }
}

/* ---- several ranks ------------------------------------------------------ */

/* A rank<R> folder in data/in or data/out that names no rank of ranks.txt
 * is a warning: its files would be silently unused otherwise. */
static void warn_stray_rank_dirs(const case_info *c, const char *sub, diag_sink *sink)
{
    char *dir = path_join(c->root, sub);
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (strncmp(e->d_name, "rank", 4) != 0)
                continue;
            char *end;
            errno = 0;
            long r = strtol(e->d_name + 4, &end, 10);
            if (e->d_name[4] && *end == '\0' && errno == 0 && r >= 0 && r < c->ranks.nranks)
                continue;
            char *full = path_join(dir, e->d_name);
            if (is_dir(full))
                diag_report(sink, DIAG_WARNING, (diag_loc){full, 0, 0}, NULL,
                            "ignored: not one of the %d ranks of %s (rank0 .. rank%d)", c->ranks.nranks,
                            c->ranks.path, c->ranks.nranks - 1);
            free(full);
        }
        closedir(d);
    }
    free(dir);
}

static ptodb_status open_ranks(case_info *c, const char *ranks_path, diag_sink *sink)
{
    ptodb_status st = case_ranks_load(ranks_path, &c->ranks, sink);
    if (st != PTODB_OK) {
        case_ranks_free(&c->ranks);
        return st;
    }
    c->rank_data = xcalloc((size_t)c->ranks.nranks, sizeof *c->rank_data);
    for (int r = 0; r < c->ranks.nranks; r++) {
        case_rank_data *rd = &c->rank_data[r];
        char sub[64];
        snprintf(sub, sizeof sub, "data/in/rank%d", r);
        ptodb_status s = scan_data_dir(c, sub, &rd->inputs, &rd->ninputs, sink);
        if (s != PTODB_OK)
            st = s;
        snprintf(sub, sizeof sub, "data/out/rank%d", r);
        s = scan_data_dir(c, sub, &rd->outputs, &rd->noutputs, sink);
        if (s != PTODB_OK)
            st = s;
        for (size_t i = 0; i < rd->noutputs; i++) {
            tol_set(&rd->outputs[i].rtol, c->rtol.value, c->rtol.source, c->rtol.where);
            tol_set(&rd->outputs[i].atol, c->atol.value, c->atol.source, c->atol.where);
        }
    }
    warn_stray_rank_dirs(c, "data/in", sink);
    warn_stray_rank_dirs(c, "data/out", sink);
    return st;
}

/* ---- locating the case -------------------------------------------------- */

static ptodb_status locate(const char *path, case_info *c, int *single, const char **manifest_arg,
                           diag_sink *sink)
{
    diag_loc loc = {path, 0, 0};
    *single = 0;
    if (is_dir(path)) {
        char *pd = path_join(path, "passes_dump");
        if (is_dir(pd)) {
            c->root = xstrdup(path);
            c->dump_dir = pd;
            return PTODB_OK;
        }
        free(pd);
        c->dump_dir = xstrdup(path);
        c->root = parent_of(path);
        if (!is_passes_dump(path)) {
            /* a folder of dumps that is not called passes_dump: data beside it */
            size_t n;
            char **files = list_files(path, ".py", &n, NULL);
            free_list(files, n);
            if (n == 0) {
                diag_report(sink, DIAG_ERROR, loc, NULL,
                            "no passes_dump/ folder and no .py dump files here (compile with dump_passes=True)");
                return PTODB_ERR_NOT_FOUND;
            }
        }
        return PTODB_OK;
    }
    struct stat sb;
    if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
        char why[300];
        int fd = input_file_open(path, why, sizeof why); /* fails: says which kind of file */
        if (fd >= 0)
            close(fd);
        diag_report(sink, DIAG_ERROR, loc, NULL, "%s", why);
        return PTODB_ERR_IO;
    }
    if (!is_file(path)) {
        diag_report(sink, DIAG_ERROR, loc, NULL, "no such file or folder");
        return PTODB_ERR_NOT_FOUND;
    }
    if (has_suffix(path, ".yaml") || has_suffix(path, ".yml")) {
        c->root = dir_of(path);
        char *pd = path_join(c->root, "passes_dump");
        c->dump_dir = is_dir(pd) ? pd : xstrdup(c->root);
        if (c->dump_dir != pd)
            free(pd);
        *manifest_arg = path;
        return PTODB_OK;
    }
    if (!has_suffix(path, ".py")) {
        diag_report(sink, DIAG_ERROR, loc, NULL,
                    "not a case: expected a passes_dump/ folder, a build folder, a .py dump file or ptodb.yaml");
        return PTODB_ERR_NOT_FOUND;
    }
    *single = 1;
    c->dump_dir = dir_of(path);
    c->root = is_passes_dump(c->dump_dir) ? parent_of(c->dump_dir) : xstrdup(c->dump_dir);
    return PTODB_OK;
}

static ptodb_status case_open_folder(const char *path, const case_options *opt, case_info *c, diag_sink *sink)
{
    memset(c, 0, sizeof *c);
    tol_set(&c->rtol, CASE_DEFAULT_RTOL, CASE_TOL_DEFAULT, "PyPTO validate default");
    tol_set(&c->atol, CASE_DEFAULT_ATOL, CASE_TOL_DEFAULT, "PyPTO validate default");
    int single;
    const char *manifest_arg = opt ? opt->manifest : NULL;
    ptodb_status st = locate(path, c, &single, &manifest_arg, sink), s;
    if (st != PTODB_OK)
        return st;
    if (single)
        add_pass(c, c->dump_dir, base_of(path), sink);
    else if ((s = scan_passes(c, sink)) != PTODB_OK)
        st = s;

    read_golden(c, sink);

    manifest m;
    int have_manifest = 0;
    char *mpath = manifest_arg ? xstrdup(manifest_arg) : path_join(c->root, "ptodb.yaml");
    if (manifest_arg || is_file(mpath)) {
        c->manifest_path = mpath;
        s = manifest_load(mpath, &m, sink);
        if (s != PTODB_OK) {
            st = s;
            manifest_free(&m);
        } else {
            have_manifest = 1;
        }
    } else {
        free(mpath);
    }
    if (have_manifest) {
        char where[600];
        if (m.entry)
            c->entry = xstrdup(m.entry);
        if (m.has_rtol) {
            snprintf(where, sizeof where, "%s:%d", m.path, m.rtol_line);
            tol_set(&c->rtol, m.rtol, CASE_TOL_MANIFEST, where);
        }
        if (m.has_atol) {
            snprintf(where, sizeof where, "%s:%d", m.path, m.atol_line);
            tol_set(&c->atol, m.atol, CASE_TOL_MANIFEST, where);
        }
    }
    if (opt && opt->has_rtol)
        tol_set(&c->rtol, opt->rtol, CASE_TOL_OPTION, "--rtol");
    if (opt && opt->has_atol)
        tol_set(&c->atol, opt->atol, CASE_TOL_OPTION, "--atol");

    if (have_manifest && m.ninputs)
        s = load_manifest_data(c, &m, 0, sink);
    else
        s = scan_data_dir(c, "data/in", &c->inputs, &c->ninputs, sink);
    if (s != PTODB_OK)
        st = s;
    if (have_manifest && m.noutputs)
        s = load_manifest_data(c, &m, 1, sink);
    else
        s = scan_data_dir(c, "data/out", &c->outputs, &c->noutputs, sink);
    if (s != PTODB_OK)
        st = s;
    output_tolerances(c, have_manifest ? &m : NULL, opt);
    if (have_manifest)
        manifest_free(&m);
    char *ranks_path = path_join(c->root, "ranks.txt");
    if (is_file(ranks_path) && (s = open_ranks(c, ranks_path, sink)) != PTODB_OK)
        st = s;
    free(ranks_path);
    return st;
}

ptodb_status case_open(const char *path, const case_options *opt, case_info *c, diag_sink *sink)
{
    int where = mem_where_push("opening the case", path);
    ptodb_status st = case_open_folder(path, opt, c, sink);
    mem_where_pop(where);
    return st;
}

static void free_tensors(case_tensor *arr, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(arr[i].name);
        free(arr[i].path);
        free(arr[i].rtol.where);
        free(arr[i].atol.where);
        tensor_unref(arr[i].t);
    }
    free(arr);
}

void case_free(case_info *c)
{
    for (size_t i = 0; i < c->npasses; i++) {
        free(c->passes[i].name);
        free(c->passes[i].stem);
        free(c->passes[i].path);
    }
    free(c->passes);
    free_tensors(c->inputs, c->ninputs);
    free_tensors(c->outputs, c->noutputs);
    for (int r = 0; c->rank_data && r < c->ranks.nranks; r++) {
        free_tensors(c->rank_data[r].inputs, c->rank_data[r].ninputs);
        free_tensors(c->rank_data[r].outputs, c->rank_data[r].noutputs);
    }
    free(c->rank_data);
    case_ranks_free(&c->ranks);
    free(c->rtol.where);
    free(c->atol.where);
    free(c->root);
    free(c->dump_dir);
    free(c->manifest_path);
    free(c->golden_path);
    free(c->entry);
    memset(c, 0, sizeof *c);
}

/* ---- binding ------------------------------------------------------------ */

static const case_tensor *find_tensor(const case_tensor *arr, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(arr[i].name, name) == 0)
            return &arr[i];
    return NULL;
}

static void available_keys(const case_info *c, strbuf *sb)
{
    size_t n = c->ninputs;
    const char **keys = xcalloc(n ? n : 1, sizeof *keys);
    for (size_t i = 0; i < n; i++)
        keys[i] = c->inputs[i].name;
    qsort(keys, n, sizeof *keys, cmp_str);
    strbuf_putc(sb, '[');
    for (size_t i = 0; i < n; i++)
        strbuf_printf(sb, "%s'%s'", i ? ", " : "", keys[i]);
    strbuf_putc(sb, ']');
    free(keys);
}

static int static_shape(const case_param *p)
{
    if (p->ndim < 0)
        return 0;
    for (int d = 0; d < p->ndim; d++)
        if (p->shape[d] < 0)
            return 0;
    return 1;
}

/* REF's fresh clone of an input for one pass: a copy-on-write mapping of
 * the file's bytes where the input is a whole mapped storage, else a copy. */
static tensor *fresh_copy(const tensor *t, ptodb_status *st)
{
    if (tensor_is_contiguous(t) && t->offset == 0 &&
        (size_t)tensor_numel(t) * dtype_size(t->dtype) == t->storage->nbytes) {
        tensor_storage *s = mapfile_storage_cow(t->storage);
        if (s) {
            tensor *c = tensor_from_storage(s, t->dtype, t->ndim, t->shape, t->strides, 0, NULL);
            tensor_storage_unref(s);
            if (c) {
                tensor_copy_attrs(c, t);
                return c;
            }
        }
    }
    return tensor_clone_status(t, st);
}

/* The dtype the interpreter holds a data file's dtype in: FP8 data (torch
 * float8 tensors) as float32, which holds every FP8 value exactly, since
 * REF's _DTYPE_MAP gives FP8 tiles float32; every other dtype as it is. */
static dtype_id working_dtype(dtype_id dt)
{
    return dt == DTYPE_FP8E4M3FN || dt == DTYPE_FP8E5M2 || dt == DTYPE_FP8E8M0 ? DTYPE_FP32 : dt;
}

/* fresh_copy, widened to the working dtype. */
static tensor *working_copy(const tensor *t, ptodb_status *st)
{
    tensor *c = fresh_copy(t, st);
    if (c && working_dtype(c->dtype) != c->dtype) {
        tensor *w = tensor_cast(c, working_dtype(c->dtype));
        if (w)
            tensor_copy_attrs(w, c);
        else if (st)
            *st = PTODB_ERR_NOMEM;
        tensor_unref(c);
        c = w;
    }
    return c;
}

ptodb_status case_bind(const case_info *c, const case_param *params, size_t n, case_binding *out,
                       diag_sink *sink)
{
    ptodb_status st = PTODB_OK;
    memset(out, 0, n * sizeof *out);
    for (size_t i = 0; i < n; i++) {
        const case_param *p = &params[i];
        char stripped[256];
        const char *key = p->name;
        const case_tensor *in = find_tensor(c->inputs, c->ninputs, key);
        const case_tensor *gold = find_tensor(c->outputs, c->noutputs, key);
        if (!in && !gold) {
            key = case_strip_ssa(p->name, stripped, sizeof stripped);
            in = find_tensor(c->inputs, c->ninputs, key);
            gold = find_tensor(c->outputs, c->noutputs, key);
        }
        out[i].key = xstrdup(key);
        out[i].golden = gold;
        ptodb_status ast;
        if (in) {
            out[i].t = working_copy(in->t, &ast);
        } else if (gold) {
            out[i].t = tensor_zeros(working_dtype(gold->t->dtype), gold->t->ndim, gold->t->shape, &ast);
            out[i].zeros = 1;
        } else if (p->is_tensor && p->dir == CASE_PARAM_OUT && static_shape(p)) {
            out[i].t = tensor_zeros(working_dtype(p->dtype), p->ndim, p->shape, &ast);
            out[i].zeros = 1;
        } else {
            strbuf sb = STRBUF_INIT;
            available_keys(c, &sb);
            diag_report(sink, DIAG_ERROR, (diag_loc){NULL, 0, 0}, NULL,
                        "Cannot resolve tensor for parameter '%s'. Available keys: %s", p->name,
                        strbuf_str(&sb));
            strbuf_free(&sb);
            st = PTODB_ERR_RESOLVE;
            continue;
        }
        if (!out[i].t) {
            /* the working copy: within the limit when loaded, but the memory
             * may not be there (or a zero-filled output may be too large) */
            const case_tensor *src = in ? in : gold;
            uint64_t bytes = src ? tensor_shape_bytes(src->t->dtype, src->t->ndim, src->t->shape)
                                 : tensor_shape_bytes(p->dtype, p->ndim, p->shape);
            diag_report(sink, DIAG_ERROR, (diag_loc){src ? src->path : NULL, 0, 0}, NULL,
                        "cannot allocate %llu bytes for the working copy of '%s'%s", (unsigned long long)bytes,
                        p->name, bytes > tensor_max_bytes() ? " (beyond --max-tensor-bytes)" : ": out of memory");
            st = PTODB_ERR_NOMEM;
            continue;
        }
        if (p->is_tensor && dtype_torch_storage(p->dtype) != out[i].t->dtype)
            diag_report(sink, DIAG_WARNING, (diag_loc){NULL, 0, 0}, NULL,
                        "parameter '%s' is %s but its data '%s' is %s (REF's dtype assertion would fail)",
                        p->name, dtype_pl_name(p->dtype), key, dtype_name(out[i].t->dtype));
    }
    return st;
}

void case_bindings_free(case_binding *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(b[i].key);
        tensor_unref(b[i].t);
    }
}
