/* Completion driven by the command table: the first word completes to a
 * command; later words to what the command's argument kind says: pass
 * numbers and names, function names, tensors in scope, settings, info
 * subcommands, or file names (left to the front end). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "debug/cmdtable.h"
#include "debug/script.h"
#include "debug/state/session_impl.h"
#include "exec/inspect.h"

/* The command the line starts with: its id, -1 for a user command or an
 * unknown word, -2 while the first word itself is being completed. */
static int first_command(const session *s, const char *line, int start)
{
    const char *p = line;
    while (isspace((unsigned char)*p))
        p++;
    const char *w = p;
    /* "p/x t": a command's format letters follow its name directly */
    while (*p && !isspace((unsigned char)*p) && !(*p == '/' && p > w))
        p++;
    if (p - line >= start || p == w)
        return -2;
    if (session_find_user_cmd(s, w, (size_t)(p - w)))
        return -1;
    return cmd_lookup(w, (size_t)(p - w));
}

session_completion session_completion_kind(const session *s, const char *line, int start)
{
    int id = first_command(s, line, start);
    if (id == -2)
        return COMPLETE_WORDS;
    if (id < 0)
        return COMPLETE_NOTHING;
    if (id == CMD_EXPORT) {
        /* export TENSOR FILE: the file is the second word after options */
        int words = 0;
        for (const char *p = line; p < line + start; p++)
            if (!isspace((unsigned char)*p) && (p == line || isspace((unsigned char)p[-1])) && *p != '-')
                words++;
        return words >= 3 ? COMPLETE_FILES : COMPLETE_WORDS;
    }
    switch (cmd_table[id].arg_kind) {
    case CMDARG_FILE: return COMPLETE_FILES;
    case CMDARG_NONE:
        return id == CMD_CORE || id == CMD_QUEUE ? COMPLETE_WORDS : COMPLETE_NOTHING;
    default: return COMPLETE_WORDS;
    }
}

/* The state-th entry of list[] (n items) starting with word; NULL past them. */
static const char *nth_match(const char *const *list, size_t n, const char *word, int *state)
{
    size_t len = strlen(word);
    for (size_t i = 0; i < n; i++) {
        if (strncmp(list[i], word, len) != 0)
            continue;
        if ((*state)-- == 0)
            return list[i];
    }
    return NULL;
}

static const char *complete_pass(const session *s, const char *word, int state)
{
    static const char *const subs[] = {"list", "next", "prev", "diff"};
    const char *m = nth_match(subs, 4, word, &state);
    if (m || !s->have_case)
        return m;
    size_t len = strlen(word);
    for (size_t i = 0; i < s->kase.npasses; i++) {
        const char *cand[2] = {s->kase.passes[i].stem, s->kase.passes[i].name};
        for (int k = 0; k < 2; k++)
            if (strncmp(cand[k], word, len) == 0 && state-- == 0)
                return cand[k];
    }
    return NULL;
}

static const char *complete_function(const session *s, const char *word, int *state)
{
    if (!s->have_case || !s->passes)
        return NULL;
    /* Loading the pass (once, cached) is what completion needs; the session
     * is otherwise unchanged. */
    const pass_state *p = session_load_pass((session *)s, s->run.active ? s->run.pass : s->cur_pass);
    if (!p->module || !p->module->program)
        return NULL;
    size_t len = strlen(word);
    for (uint32_t i = 0; i < p->module->program->nfuncs; i++) {
        const char *name = p->module->program->funcs[i]->name->text;
        if (strncmp(name, word, len) == 0 && (*state)-- == 0)
            return name;
    }
    return NULL;
}

/* text in the session's completion buffer (names built on the fly) */
static const char *completion_text(const session *s, const char *text)
{
    session *ms = (session *)s;
    free(ms->complete_buf);
    ms->complete_buf = xstrdup(text);
    return ms->complete_buf;
}

/* $, $$, $1 .. $N of the value history and $NAME convenience variables */
static const char *complete_dollar(const session *s, const char *word, int *state)
{
    size_t len = strlen(word);
    char buf[160];
    static const char *const last[] = {"$", "$$"};
    for (size_t i = 0; i < 2 && i < s->nhistory; i++)
        if (strncmp(last[i], word, len) == 0 && (*state)-- == 0)
            return last[i];
    for (size_t i = 0; i < s->nhistory; i++) {
        snprintf(buf, sizeof buf, "$%zu", i + 1);
        if (strncmp(buf, word, len) == 0 && (*state)-- == 0)
            return completion_text(s, buf);
    }
    for (size_t i = 0; i < s->nconvs; i++) {
        snprintf(buf, sizeof buf, "$%s", s->convs[i].name);
        if (s->convs[i].t && strncmp(buf, word, len) == 0 && (*state)-- == 0)
            return completion_text(s, buf);
    }
    return NULL;
}

static const char *complete_tensor(const session *s, const char *word, int *state)
{
    size_t len = strlen(word);
    if (word[0] == '$')
        return complete_dollar(s, word, state);
    const run_state *r = &s->run;
    if (r->active && r->m) {
        inspect_frame f;
        if (inspect_frame_get(r->m, r->core, r->level, &f)) {
            for (int i = 0; i < f.nslots; i++) {
                const char *name;
                const value *v;
                if (inspect_slot(r->m, r->core, r->level, i, &name, &v) && v->kind != VAL_UNBOUND &&
                    strncmp(name, word, len) == 0 && (*state)-- == 0)
                    return name;
            }
        }
    }
    if (!s->have_case)
        return NULL;
    for (size_t k = 0; k < s->kase.ninputs; k++)
        if (strncmp(s->kase.inputs[k].name, word, len) == 0 && (*state)-- == 0)
            return s->kase.inputs[k].name;
    /* golden.NAME: built in a small per-session buffer. */
    for (size_t k = 0; k < s->kase.noutputs; k++) {
        static const char prefix[] = "golden.";
        size_t pl = sizeof prefix - 1;
        size_t common = len < pl ? len : pl;
        if (strncmp(word, prefix, common) != 0)
            continue;
        if (len > pl && strncmp(s->kase.outputs[k].name, word + pl, len - pl) != 0)
            continue;
        if ((*state)-- == 0) {
            char buf[300];
            snprintf(buf, sizeof buf, "%s%s", prefix, s->kase.outputs[k].name);
            return completion_text(s, buf);
        }
    }
    return NULL;
}

const char *session_complete_word(const session *s, const char *line, int start,
                                  const char *word, int state)
{
    int id = first_command(s, line, start);
    if (id == -2)
        return session_complete_command(s, word, state);
    if (id < 0)
        return NULL;
    switch (id) {
    case CMD_INFO: {
        static const char *const subs[] = {"args", "breakpoints", "case", "display", "frame",
                                           "locals", "memory", "ops", "passes", "ranks", "semantics"};
        return nth_match(subs, sizeof subs / sizeof subs[0], word, &state);
    }
    case CMD_CORE: {
        static const char *const subs[] = {"aic", "aiv0", "aiv1", "host", "list"};
        return nth_match(subs, 5, word, &state);
    }
    case CMD_QUEUE: {
        static const char *const subs[] = {"show"};
        return nth_match(subs, 1, word, &state);
    }
    case CMD_SET: {
        /* set $name = ..., set var EXPR = ...: values, not settings */
        const char *args = line;
        while (isspace((unsigned char)*args))
            args++;
        args += strcspn(args, " \t");
        args += strspn(args, " \t");
        int var = (strncmp(args, "var ", 4) == 0 || strncmp(args, "variable ", 9) == 0) &&
                  args - line < start;
        if (word[0] == '$' || var)
            return complete_tensor(s, word, &state);
        break;
    }
    case CMD_DIFF: {
        const char *m = complete_tensor(s, word, &state);
        if (m)
            return m;
        static const char *const subs[] = {"golden"};
        return nth_match(subs, 1, word, &state);
    }
    default: break;
    }
    switch (cmd_table[id].arg_kind) {
    case CMDARG_COMMAND: return session_complete_command(s, word, state);
    case CMDARG_OPTION: return session_complete_setting(s, word, state);
    case CMDARG_PASS: return complete_pass(s, word, state);
    case CMDARG_TENSOR: return complete_tensor(s, word, &state);
    case CMDARG_FUNC: return complete_function(s, word, &state);
    case CMDARG_LOCATION: {
        static const char *const subs[] = {"inf", "nan", "pass"};
        const char *m = nth_match(subs, 3, word, &state);
        return m ? m : complete_function(s, word, &state);
    }
    default: return NULL;
    }
}
