#include "batch/reduce_case.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/atomic_file.h"
#include "base/diag.h"
#include "base/mem.h"
#include "base/mkdirs.h"
#include "data/pt.h"

static int put(const char *dir, const char *name, const char *text, strbuf *err)
{
    strbuf p = STRBUF_INIT;
    strbuf_printf(&p, "%s/%s", dir, name);
    int rc = atomic_file_write(strbuf_str(&p), text, strlen(text));
    if (rc != 0)
        strbuf_printf(err, "cannot write %s: %s", strbuf_str(&p), strerror(errno));
    strbuf_free(&p);
    return rc;
}

static int folder(const char *dir, const char *sub, strbuf *err)
{
    strbuf p = STRBUF_INIT;
    strbuf_printf(&p, "%s/%s", dir, sub);
    int rc = mkdirs(strbuf_str(&p));
    if (rc != 0)
        strbuf_printf(err, "cannot create %s: %s", strbuf_str(&p), strerror(errno));
    strbuf_free(&p);
    return rc;
}

static int save_tensor(const char *dir, const char *sub, const char *name, const tensor *t, strbuf *err)
{
    strbuf p = STRBUF_INIT;
    strbuf_printf(&p, "%s/%s/%s.pt", dir, sub, name);
    diag_sink sink;
    diag_sink_init(&sink, 1);
    int rc = pt_save(strbuf_str(&p), t, &sink) == PTODB_OK ? 0 : -1;
    if (rc != 0) {
        char *why = diag_sink_error_text(&sink);
        strbuf_printf(err, "cannot write %s: %s", strbuf_str(&p), why ? why : "?");
        free(why);
    }
    diag_sink_free(&sink);
    strbuf_free(&p);
    return rc;
}

char *reduce_header_commit(const char *text)
{
    size_t len = strcspn(text, "\n");
    for (size_t i = 0; i < len; i++) {
        int after = (i >= 6 && strncmp(text + i - 6, "commit", 6) == 0) || (i >= 1 && text[i - 1] == '@') ||
                    (i >= 7 && strncmp(text + i - 7, "commit ", 7) == 0) ||
                    (i >= 7 && strncmp(text + i - 7, "commit=", 7) == 0) ||
                    (i >= 8 && strncmp(text + i - 8, "commit: ", 8) == 0);
        if (!after)
            continue;
        size_t n = 0;
        while (i + n < len && isxdigit((unsigned char)text[i + n]))
            n++;
        if (n >= 7 && n <= 40 && (i + n == len || !isalnum((unsigned char)text[i + n])))
            return xstrndup(text + i, n);
    }
    return NULL;
}

static void fence(strbuf *o, const char *lang, const char *text)
{
    strbuf_printf(o, "```%s\n%s%s```\n", lang, text, *text && text[strlen(text) - 1] == '\n' ? "" : "\n");
}

static void readme(const reduce_case *rc, strbuf *o)
{
    const case_info *c = rc->c;
    const case_pass *g = &c->passes[rc->good], *b = &c->passes[rc->bad];
    const reduce_fp *fp = rc->fp;
    char *commit = reduce_header_commit(rc->bad_text);
    size_t hl = strcspn(rc->bad_text, "\n");
    strbuf_printf(o, "# Pass bug: %s\n\n", b->name);
    strbuf_puts(o, "Reduced by `ptodb reduce`; the sections follow PyPTO's pass-bug template "
                   "(`.github/ISSUE_TEMPLATE/pass_bug.yml`).\n\n");
    strbuf_printf(o, "## Pass Name\n\n%s\n\n", b->name);
    strbuf_printf(o, "## Description\n\n`%s` computes other values than the IR before it: in function `%s`, the "
                     "statement assigning `%s` (op `%s`, line %d of `passes_dump/%s.py`; line %d of "
                     "`passes_dump/%s.py` before the pass) is the first whose value differs (%s), and output `%s` "
                     "fails validation against what the IR before the pass computes (`data/out`).\n\n",
                  b->name, fp->func, fp->tensor, fp->op, fp->line, b->stem, fp->good_line, g->stem, fp->kind,
                  fp->output);
    strbuf_puts(o, "## Git Commit ID\n\n");
    if (commit)
        strbuf_printf(o, "%s (from the dump's header line)\n\n", commit);
    else
        strbuf_printf(o, "Not in the dump's header line (`%.*s`): fill in the compiler's `git rev-parse HEAD`.\n\n",
                      (int)hl, rc->bad_text);
    strbuf_printf(o, "## Before IR (Input)\n\n`passes_dump/%s.py`:\n\n", g->stem);
    fence(o, "python", rc->good_text);
    strbuf_printf(o, "\n## Expected IR (After Transformation)\n\nIR that computes what the Before IR computes "
                     "(`data/out/*.pt`, written from the Before IR's run on `data/in`).\n\n");
    strbuf_printf(o, "## Actual IR or Error\n\n`passes_dump/%s.py`:\n\n", b->stem);
    fence(o, "python", rc->bad_text);
    if (rc->divergence) {
        strbuf_puts(o, "\nThe diverging statement and its values (`ptodb --batch . --bisect`):\n\n");
        fence(o, "", rc->divergence);
    }
    strbuf_printf(o, "\n## Additional Context\n\nReproduce with ptodb (exit status 1, the same divergence):\n\n"
                     "```sh\nptodb --batch <this folder> --bisect --bisect-scan\n```\n\n");
    strbuf_puts(o, "The divergence fingerprint (`fingerprint.json`): ");
    strbuf fj = STRBUF_INIT;
    reduce_fp_json(fp, &fj);
    strbuf_printf(o, "`%s`.\n\n", strbuf_str(&fj));
    strbuf_free(&fj);
    strbuf_printf(o, "Reduced from `%s` (passes %s and %s)", c->root, g->stem, b->stem);
    if (rc->command)
        strbuf_printf(o, " by `%s`", rc->command);
    strbuf_puts(o, "; `reduce.log` has the counts per transformation.\n");
    free(commit);
}

/* An input an earlier save wrote and the pair no longer reads (its
 * parameter went) is removed: data/in holds the case's inputs only. The
 * folder is the reducer's own (--out is refused when it holds other files). */
static void drop_stale_inputs(const char *dir, const case_info *c)
{
    strbuf p = STRBUF_INIT;
    strbuf_printf(&p, "%s/data/in", dir);
    DIR *d = opendir(strbuf_str(&p));
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        size_t len = strlen(e->d_name);
        if (len < 4 || strcmp(e->d_name + len - 3, ".pt") != 0)
            continue;
        int keep = 0;
        for (size_t k = 0; k < c->ninputs && !keep; k++)
            keep = strlen(c->inputs[k].name) == len - 3 && strncmp(c->inputs[k].name, e->d_name, len - 3) == 0;
        if (!keep) {
            strbuf f = STRBUF_INIT;
            strbuf_printf(&f, "%s/%s", strbuf_str(&p), e->d_name);
            unlink(strbuf_str(&f));
            strbuf_free(&f);
        }
    }
    if (d)
        closedir(d);
    strbuf_free(&p);
}

int reduce_case_write(const reduce_case *rc, int data, strbuf *err)
{
    const case_info *c = rc->c;
    if (mkdirs(rc->dir) != 0) {
        strbuf_printf(err, "cannot create %s: %s", rc->dir, strerror(errno));
        return -1;
    }
    if (folder(rc->dir, "passes_dump", err) != 0)
        return -1;
    strbuf name = STRBUF_INIT;
    strbuf_printf(&name, "passes_dump/%s.py", c->passes[rc->good].stem);
    int bad = put(rc->dir, strbuf_str(&name), rc->good_text, err);
    strbuf_clear(&name);
    strbuf_printf(&name, "passes_dump/%s.py", c->passes[rc->bad].stem);
    bad = bad || put(rc->dir, strbuf_str(&name), rc->bad_text, err);
    strbuf_free(&name);
    if (bad)
        return -1;
    if (data) {
        if (folder(rc->dir, "data/in", err) != 0 || folder(rc->dir, "data/out", err) != 0)
            return -1;
        for (size_t k = 0; k < c->ninputs; k++)
            if (save_tensor(rc->dir, "data/in", c->inputs[k].name, c->inputs[k].t, err) != 0)
                return -1;
        drop_stale_inputs(rc->dir, c);
        if (c->rtol.value != CASE_DEFAULT_RTOL || c->atol.value != CASE_DEFAULT_ATOL) {
            strbuf gp = STRBUF_INIT;
            strbuf_printf(&gp, "# the tolerances of %s (ptodb reduce)\nRTOL = %.17g\nATOL = %.17g\n", c->root,
                          c->rtol.value, c->atol.value);
            int r = put(rc->dir, "golden.py", strbuf_str(&gp), err);
            strbuf_free(&gp);
            if (r)
                return -1;
        }
    }
    for (size_t k = 0; rc->golden && k < c->noutputs; k++)
        if (rc->golden[k] && save_tensor(rc->dir, "data/out", c->outputs[k].name, rc->golden[k], err) != 0)
            return -1;
    strbuf o = STRBUF_INIT;
    reduce_fp_json(rc->fp, &o);
    strbuf_putc(&o, '\n');
    int r = put(rc->dir, "fingerprint.json", strbuf_str(&o), err);
    strbuf_clear(&o);
    readme(rc, &o);
    r = r || put(rc->dir, "README.md", strbuf_str(&o), err);
    strbuf_free(&o);
    if (!r && rc->log)
        r = put(rc->dir, "reduce.log", rc->log, err);
    return r ? -1 : 0;
}
