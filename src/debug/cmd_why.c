/* `why TENSOR[i, j]`: the dataflow chain of one element (src/batch/why.h,
 * docs/why.md), from the stop's moment when the pass is stopped, else from
 * the end of a run of the current pass, aligned with the last passing pass
 * before it (or `pass N`). The chain is built by the batch layer's side
 * runs; this handler only reads the words and the session's state. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/strbuf.h"
#include "batch/why.h"
#include "debug/passes.h"
#include "debug/session_impl.h"
#include "debug/validate_bg_impl.h"
#include "exec/inspect.h"

#define CMD(id, name, aliases, kind, usage, help, longhelp) \
    ptodb_status cmd_##id(session *s, const char *args);
#include "debug/commands.def"
#undef CMD

static const char WHY_USAGE[] = "Usage: why [--json] [--ulp] TENSOR[[i, j, ...]] [pass N] [depth N]";

/* "name[3, 17]" into name and the indices: the count, or -1 when bad; 0
 * without a subscript. */
static int parse_element(const char *w, char *name, size_t size, int64_t *idx)
{
    const char *lb = strchr(w, '[');
    size_t n = lb ? (size_t)(lb - w) : strlen(w);
    if (n == 0 || n >= size)
        return -1;
    memcpy(name, w, n);
    name[n] = 0;
    if (!lb)
        return 0;
    const char *p = lb + 1;
    int nd = 0;
    for (;;) {
        while (*p == ' ')
            p++;
        char *end;
        long long v = strtoll(p, &end, 10);
        if (end == p || nd >= TENSOR_MAX_DIMS || v < 0)
            return -1;
        idx[nd++] = v;
        p = end;
        while (*p == ' ')
            p++;
        if (*p == ',') {
            p++;
            continue;
        }
        if (*p == ']' && p[1] == 0)
            return nd;
        return -1;
    }
}

ptodb_status cmd_WHY(session *s, const char *args)
{
    if (!session_need_case(s))
        return PTODB_ERR_USAGE;
    char *words[12];
    char buf[1024];
    int n = session_split_words(args, words, 12, buf, sizeof buf);
    why_request q;
    memset(&q, 0, sizeof q);
    q.other = WHY_LAST_PASSING;
    q.wo.ulp = session_get_bool(s, SETTING_ULP);
    const char *elem = NULL;
    for (int i = 0; i < n; i++) {
        if (strcmp(words[i], "--json") == 0)
            q.json = 1;
        else if (strcmp(words[i], "--ulp") == 0)
            q.wo.ulp = 1;
        else if (strcmp(words[i], "pass") == 0 && i + 1 < n) {
            q.other = session_find_pass(s, words[++i]);
            if (q.other < 0)
                return PTODB_ERR_USAGE;
        } else if (strcmp(words[i], "depth") == 0 && i + 1 < n) {
            char *end;
            long d = strtol(words[++i], &end, 10);
            if (*end || d < 1 || d > 1000) {
                session_errorf(s, "why: depth must be 1 to 1000");
                return PTODB_ERR_USAGE;
            }
            q.wo.depth = (int)d;
        } else if (!elem)
            elem = words[i];
        else
            elem = NULL, n = -1;
    }
    char name[256];
    int nd = elem ? parse_element(elem, name, sizeof name, q.idx) : -1;
    if (n < 0 || !elem || nd < 0) {
        session_errorf(s, "%s", WHY_USAGE);
        return PTODB_ERR_USAGE;
    }
    q.name = name;
    q.ndim = nd ? nd : -1;
    if (!s->ops) {
        s->ops = xcalloc(IR_OP_COUNT, sizeof *s->ops);
        exec_ops_init(s->ops);
    }
    case_info c;
    session_case_with_tols(s, &c);
    runpass_options ro;
    memset(&ro, 0, sizeof ro);
    session_machine_options(s, &ro.mopt);
    ro.mopt.interrupt = &s->interrupted;
    ro.ops = s->ops;
    q.c = &c;
    q.ro = &ro;
    q.pass = s->cur_pass;
    /* stopped in this pass: the chain of the moment of the stop */
    run_state *r = &s->run;
    if (r->active && r->m && !r->finished && r->pass == s->cur_pass) {
        q.until = machine_steps(r->m);
        int is_case = 0;
        for (size_t i = 0; i < r->nbinds; i++)
            if (r->binds[i].key && strcmp(r->binds[i].key, name) == 0)
                is_case = 1;
        if (!is_case) {
            q.capture = name;
            q.capture_core = r->core;
        }
    }
    if (q.other == q.pass)
        q.other = -1;
    strbuf out = STRBUF_INIT;
    int rc = why_case(&q, &out);
    if (rc) {
        /* one line, as an error (batch mode then exits non-zero) */
        if (out.len && strbuf_str(&out)[out.len - 1] == '\n')
            out.len--;
        session_errorf(s, "%.*s", (int)out.len, strbuf_str(&out));
    } else {
        session_write(s, strbuf_str(&out), out.len);
    }
    strbuf_free(&out);
    free(c.outputs);
    if (s->interrupted) {
        s->interrupted = 0;
        session_printf(s, "Interrupted.\n");
    }
    return rc ? PTODB_ERR_NOT_FOUND : PTODB_OK;
}
