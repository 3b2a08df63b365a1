/* Breakpoints: break, tbreak, watch, condition, ignore, commands, enable,
 * disable, delete, their listing (info breakpoints) and `save`. */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/number.h"
#include "debug/state/expr.h"
#include "debug/script.h"
#include "debug/state/session_impl.h"
#include "debug/run/stop.h"
#include "exec/inspect.h"

#define CMD(id, name, aliases, kind, usage, help, longhelp) \
    ptodb_status cmd_##id(session *s, const char *args);
#include "debug/commands.def"
#undef CMD


/* Splits "LOCATION if COND": returns the condition text (or NULL) and
 * writes the location, trimmed, into loc. */
static const char *split_condition(const char *args, char *loc, size_t size)
{
    const char *cond = NULL;
    for (const char *p = args; *p; p++) {
        if ((p == args || isspace((unsigned char)p[-1])) && strncmp(p, "if", 2) == 0 &&
            (p[2] == '\0' || isspace((unsigned char)p[2]))) {
            cond = p + 2;
            break;
        }
    }
    size_t n = cond ? (size_t)(cond - 2 - args) : strlen(args);
    while (n && isspace((unsigned char)args[n - 1]))
        n--;
    if (n >= size)
        n = size - 1;
    memcpy(loc, args, n);
    loc[n] = '\0';
    if (cond)
        while (isspace((unsigned char)*cond))
            cond++;
    return cond;
}

/* Takes a trailing "rank N" off loc (a multi-rank case's breakpoint on one
 * rank): *rank N, or -1 without one. -1 on a bad one (message printed). */
static int split_rank(session *s, char *loc, int *rank)
{
    *rank = -1;
    size_t n = strlen(loc);
    char *p = loc + n;
    while (p > loc && isdigit((unsigned char)p[-1]))
        p--;
    char *num = p;
    while (p > loc && isspace((unsigned char)p[-1]))
        p--;
    if (p - loc < 4 || strncmp(p - 4, "rank", 4) != 0 || (p - 4 > loc && !isspace((unsigned char)p[-5])))
        return 0;
    if (!*num || num == p) {
        session_errorf(s, "\"rank\" needs a rank number.");
        return -1;
    }
    if (!s->kase.ranks.nranks) {
        session_errorf(s, "This case has one rank (no ranks.txt): \"rank %s\" does not apply.", num);
        return -1;
    }
    long long r;
    if (parse_int_range(num, 0, s->kase.ranks.nranks - 1, &r) != 0) {
        session_errorf(s, "No rank %s: this case has ranks 0 to %d.", num, s->kase.ranks.nranks - 1);
        return -1;
    }
    *rank = (int)r;
    p -= 4;
    while (p > loc && isspace((unsigned char)p[-1]))
        p--;
    *p = '\0';
    return 0;
}

static int all_digits(const char *p)
{
    if (!*p)
        return 0;
    for (; *p; p++)
        if (!isdigit((unsigned char)*p))
            return 0;
    return 1;
}

static int function_exists(session *s, int pass, const char *name)
{
    pass_state *p = session_load_pass(s, pass);
    if (!p->module || !p->module->program)
        return 0;
    for (uint32_t i = 0; i < p->module->program->nfuncs; i++)
        if (strcmp(p->module->program->funcs[i]->name->text, name) == 0)
            return 1;
    return 0;
}

/* Parses a condition; NULL after printing why. */
static predicate *parse_condition(session *s, const char *text)
{
    strbuf err = STRBUF_INIT;
    predicate *p = predicate_parse(text, &err);
    if (!p)
        session_errorf(s, "%s", strbuf_str(&err));
    strbuf_free(&err);
    return p;
}

/* A condition is a predicate on the produced tensor ("max_abs_diff > 1e-3")
 * when it reads as one, else gdb's: an expression over the frame's names
 * ("ib == 1", "max(abs(t)) > 2"), tested where the line is reached. Sets
 * one of *pred and *expr; 0, or -1 after an error. */
static int parse_any_condition(session *s, const char *text, predicate **pred, char **expr)
{
    *pred = NULL;
    *expr = NULL;
    strbuf perr = STRBUF_INIT, eerr = STRBUF_INIT;
    *pred = predicate_parse(text, &perr);
    int ok = *pred != NULL;
    if (!ok && expr_check(text, &eerr) == PTODB_OK) {
        *expr = xstrdup(text);
        ok = 1;
    } else if (!ok) {
        /* neither: say what each reading expected */
        session_errorf(s, "%s; as an expression: %s", strbuf_str(&perr), strbuf_str(&eerr));
    }
    strbuf_free(&perr);
    strbuf_free(&eerr);
    return ok ? 0 : -1;
}

/* "LINE" or "FILE:LINE" (FILE a pass number, stem or file name; folders and
 * ".py" dropped) into *pass and *line (*pass defaults to default_pass).
 * Returns 0, or -1 after printing why. */
static int parse_line_location(session *s, const char *loc, int default_pass, int *pass, int *line)
{
    const char *colon = strrchr(loc, ':');
    const char *num = colon ? colon + 1 : loc;
    *pass = default_pass;
    if (colon) {
        char spec[512];
        snprintf(spec, sizeof spec, "%.*s", (int)(colon - loc), loc);
        char *py = strstr(spec, ".py");
        if (py)
            *py = '\0';
        const char *base = strrchr(spec, '/');
        if ((*pass = session_find_pass(s, base ? base + 1 : spec)) < 0)
            return -1;
    }
    long long n;
    if (!all_digits(num) || parse_int_range(num, 1, INT_MAX, &n) != 0) {
        session_errorf(s, "Bad line number in \"%s\".", loc);
        return -1;
    }
    *line = (int)n;
    return 0;
}

static ptodb_status set_break(session *s, const char *args, int temporary)
{
    if (!session_need_case(s))
        return PTODB_ERR_USAGE;
    char loc[512] = {0}; /* the whole buffer: strncmp below may be read as a 4-byte load */
    const char *cond_text = split_condition(args, loc, sizeof loc);
    int rank;
    if (split_rank(s, loc, &rank) != 0)
        return PTODB_ERR_USAGE;
    predicate *cond = NULL;
    char *cond_expr = NULL;
    if (cond_text && parse_any_condition(s, cond_text, &cond, &cond_expr) != 0)
        return PTODB_ERR_USAGE;
    breakpoint tmp = {0};
    int pending = 0; /* a function breakpoint no pass defines */
    tmp.rank = rank;
    tmp.watch_loaded = -1;
    tmp.cond_expr = cond_expr;
    /* a bare line is in the file on screen: the selected pass (`pass N`
     * moves it even when a finished run of another pass is kept) */
    int pass = s->cur_pass;
    if (strncmp(loc, "pass", 4) == 0 && (loc[4] == '\0' || isspace((unsigned char)loc[4]))) {
        const char *spec = loc + 4;
        while (isspace((unsigned char)*spec))
            spec++;
        if (!*spec) {
            session_errorf(s, "break pass needs a pass name or /REGEX/.");
            predicate_free(cond);
            free(cond_expr);
            return PTODB_ERR_USAGE;
        }
        tmp.kind = BP_PASS;
        size_t n = strlen(spec);
        if (n >= 2 && spec[0] == '/' && spec[n - 1] == '/') {
            char re[512];
            snprintf(re, sizeof re, "%.*s", (int)(n - 2), spec + 1);
            if (regcomp(&tmp.re, re, REG_EXTENDED | REG_NOSUB) != 0) {
                session_errorf(s, "Invalid regular expression %s.", spec);
                predicate_free(cond);
                free(cond_expr);
                return PTODB_ERR_USAGE;
            }
            tmp.has_re = 1;
        } else {
            int matches = 0;
            for (size_t i = 0; i < s->kase.npasses; i++) {
                breakpoint probe = {.spec = (char *)spec};
                matches += bp_pass_matches(&probe, &s->kase.passes[i]);
            }
            if (!matches) {
                session_errorf(s, "No pass matches \"%s\".  Try \"pass list\".", spec);
                predicate_free(cond);
                free(cond_expr);
                return PTODB_ERR_USAGE;
            }
        }
        tmp.spec = xstrdup(spec);
    } else if (strcmp(loc, "nan") == 0 || strcmp(loc, "inf") == 0) {
        tmp.kind = loc[0] == 'n' ? BP_NAN : BP_INF;
    } else if (!*loc) {
        inspect_frame f;
        if (!s->run.active || !inspect_frame_get(s->run.m, s->run.core, s->run.level, &f)) {
            session_errorf(s, "No default breakpoint location: the program is not being run.");
            predicate_free(cond);
            free(cond_expr);
            return PTODB_ERR_USAGE;
        }
        tmp.kind = BP_LINE;
        tmp.pass = s->run.pass;
        tmp.line = f.line;
    } else if (all_digits(loc) || strchr(loc, ':')) {
        int line;
        if (parse_line_location(s, loc, pass, &pass, &line) != 0) {
            predicate_free(cond);
            free(cond_expr);
            return PTODB_ERR_USAGE;
        }
        const char *src = session_pass_source(s, pass);
        int total = src ? session_count_lines(src) : 0;
        if (line < 1 || line > total) {
            session_errorf(s, "Line %d is out of range for \"%s\" (%d lines).", line,
                           session_file_name(s->kase.passes[pass].path), total);
            predicate_free(cond);
            free(cond_expr);
            return PTODB_ERR_USAGE;
        }
        tmp.kind = BP_LINE;
        tmp.pass = pass;
        tmp.line = line;
    } else {
        for (const char *p = loc; *p; p++) {
            if (!isalnum((unsigned char)*p) && *p != '_') {
                session_errorf(s, "Function \"%s\" not defined.", loc);
                predicate_free(cond);
                free(cond_expr);
                return PTODB_ERR_USAGE;
            }
        }
        if (cond) {
            session_errorf(s, "A predicate needs a tensor: it applies to line, pass and watch "
                              "breakpoints, not to a function (an expression condition does).");
            predicate_free(cond);
            free(cond_expr);
            return PTODB_ERR_USAGE;
        }
        /* gdb's pending breakpoint: a function no pass defines (yet) */
        pending = !bp_func_passes(s, loc);
        /* s->confirmed: the user said yes to making it pending */
        if (pending && !s->confirmed && !s->quiet) {
            const char *mode = session_get_string(s, SETTING_BREAKPOINT_PENDING);
            char msg[700];
            snprintf(msg, sizeof msg, "Function \"%s\" not defined in any of the %zu passes.", loc,
                     s->kase.npasses);
            if (strcmp(mode, "on") == 0) {
                session_warnf(s, "%s", msg);
            } else {
                session_errorf(s, "%s", msg);
                /* off: an error; auto: ask (no one to ask: no), a yes runs the command again */
                if (strcmp(mode, "off") != 0) {
                    strbuf again = STRBUF_INIT;
                    strbuf_printf(&again, "%s %s", temporary ? "tbreak" : "break", args);
                    session_ask(s, "Make breakpoint pending on future pass load? ", strbuf_str(&again));
                    strbuf_free(&again);
                }
                predicate_free(cond);
                free(cond_expr);
                return PTODB_ERR_USAGE;
            }
        }
        tmp.kind = BP_FUNC;
        tmp.func = xstrdup(loc);
        if (!pending && !function_exists(s, pass, loc))
            session_printf(s, "Function \"%s\" is not defined in %s; the breakpoint applies to the "
                              "passes that define it.\n", loc, s->kase.passes[pass].stem);
    }
    if (cond_text && !cond && tmp.kind != BP_LINE && tmp.kind != BP_FUNC) {
        /* pass, NaN and Inf breakpoints test tensors: a predicate only */
        predicate *again = parse_condition(s, cond_text);
        free(cond_expr);
        if (!again) {
            free(tmp.func);
            free(tmp.spec);
            if (tmp.has_re)
                regfree(&tmp.re);
            return PTODB_ERR_USAGE;
        }
        cond = again;
        tmp.cond_expr = NULL;
    }
    bp_note_also_set(s, &tmp);
    breakpoint *b = bp_new(s, tmp.kind);
    int number = b->number;
    tmp.number = number;
    tmp.enabled = 1;
    tmp.temporary = temporary;
    tmp.cond = cond;
    *b = tmp;
    const char *what = temporary ? "Temporary breakpoint" : "Breakpoint";
    char on[32] = "";
    if (b->rank >= 0)
        snprintf(on, sizeof on, " on rank %d", b->rank);
    switch (b->kind) {
    case BP_LINE:
        session_printf(s, "%s %d at %s:%d%s%s.\n", what, number, session_file_name(s->kase.passes[b->pass].path),
                       b->line, on,
                       b->cond        ? " (after the line runs, when its result satisfies the condition)"
                       : b->cond_expr ? " (when the line is reached and the expression is true)"
                                      : "");
        break;
    case BP_FUNC:
        if (pending) /* gdb's "Breakpoint 1 (foo) pending." */
            session_printf(s, "%s %d (%s)%s pending.\n", what, number, b->func, on);
        else
            session_printf(s, "%s %d at function %s%s.\n", what, number, b->func, on);
        break;
    case BP_PASS:
        session_printf(s, "%s %d at pass %s%s.\n", what, number, b->spec,
                       b->cond ? " (at its end, when the condition holds for an output)" : "");
        break;
    default:
        session_printf(s, "%s %d on %s.\n", what, number, b->kind == BP_NAN ? "NaN" : "Inf");
        break;
    }
    return PTODB_OK;
}

ptodb_status cmd_BREAK(session *s, const char *args) { return set_break(s, args, 0); }

ptodb_status cmd_CATCH(session *s, const char *args)
{
    const bp_catch_event *events = bp_catch_events;
    for (size_t i = 0; i < sizeof bp_catch_events / sizeof bp_catch_events[0]; i++) {
        if (strcmp(args, events[i].event) != 0)
            continue;
        breakpoint *b = bp_new(s, events[i].kind);
        session_printf(s, "Catchpoint %d (%s)\n", b->number, events[i].what);
        if (events[i].kind != BP_CATCH_MEMORY && !s->kase.ranks.nranks)
            session_printf(s, "(a single-rank case has no windows: it never stops here)\n");
        return PTODB_OK;
    }
    session_errorf(s, "Usage: catch memory | catch race | catch fence.");
    return PTODB_ERR_USAGE;
}
ptodb_status cmd_TBREAK(session *s, const char *args) { return set_break(s, args, 1); }

/* watch, rwatch, awatch: gdb's names for what stops them. */
static const char *const watch_verbs[] = {"watch", "rwatch", "awatch"};

static ptodb_status set_watch(session *s, const char *args, watch_access access)
{
    const char *verb = watch_verbs[access];
    char spec[256];
    const char *cond_text = split_condition(args, spec, sizeof spec);
    int rank;
    if (split_rank(s, spec, &rank) != 0)
        return PTODB_ERR_USAGE;
    if (!*spec) {
        session_errorf(s, "%s needs a tensor name.", verb);
        return PTODB_ERR_USAGE;
    }
    size_t name_len = 0;
    while (isalnum((unsigned char)spec[name_len]) || spec[name_len] == '_')
        name_len++;
    const char *sub = spec + name_len;
    if (!name_len || (*sub && *sub != '[')) {
        session_errorf(s, "%s takes a variable name with an optional subscript, got \"%s\".", verb, spec);
        return PTODB_ERR_USAGE;
    }
    if (*sub) {
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)name_len, spec);
        strbuf err = STRBUF_INIT;
        int bad = stop_watch_check(s, name, sub, &err) != 0;
        if (bad)
            session_errorf(s, "%s", strbuf_str(&err));
        strbuf_free(&err);
        if (bad)
            return PTODB_ERR_USAGE;
    }
    predicate *cond = NULL;
    if (cond_text && !(cond = parse_condition(s, cond_text)))
        return PTODB_ERR_USAGE;
    breakpoint *b = bp_new(s, BP_WATCH);
    b->spec = xstrndup(spec, name_len);
    b->watch_sub = *sub ? xstrdup(sub) : NULL;
    b->cond = cond;
    b->watch_access = access;
    b->rank = rank;
    if (s->run.active && s->run.ranks)
        run_ranks_prime_watch(s, b); /* the name's value now, on every rank it watches */
    else
        stop_watch_prime(s, b);
    static const char *const titles[] = {"Watchpoint", "Hardware read watchpoint",
                                         "Hardware access (read/write) watchpoint"};
    if (rank >= 0)
        session_printf(s, "%s %d: %s on rank %d\n", titles[access], b->number, spec, rank);
    else
        session_printf(s, "%s %d: %s\n", titles[access], b->number, spec);
    return PTODB_OK;
}

ptodb_status cmd_WATCH(session *s, const char *args) { return set_watch(s, args, WATCH_WRITE); }
ptodb_status cmd_RWATCH(session *s, const char *args) { return set_watch(s, args, WATCH_READ); }
ptodb_status cmd_AWATCH(session *s, const char *args) { return set_watch(s, args, WATCH_ACCESS); }

static breakpoint *bp_arg(session *s, const char *word)
{
    if (strcmp(word, "$bpnum") == 0) { /* gdb's: the last breakpoint set */
        breakpoint *b = bp_find(s, s->next_bp);
        if (!b)
            session_errorf(s, "No breakpoint number %d.", s->next_bp);
        return b;
    }
    long long n;
    if (parse_int_range(word, 1, INT_MAX, &n) != 0) {
        session_errorf(s, "Bad breakpoint number \"%s\" (1 to %d).", word, INT_MAX);
        return NULL;
    }
    breakpoint *b = bp_find(s, (int)n);
    if (!b)
        session_errorf(s, "No breakpoint number %lld.", n);
    return b;
}

ptodb_status cmd_CONDITION(session *s, const char *args)
{
    char word[64];
    const char *p = args;
    size_t n = 0;
    while (*p && !isspace((unsigned char)*p) && n + 1 < sizeof word)
        word[n++] = *p++;
    word[n] = '\0';
    if (!n) {
        session_errorf(s, "Argument required (breakpoint number).");
        return PTODB_ERR_USAGE;
    }
    breakpoint *b = bp_arg(s, word);
    if (!b)
        return PTODB_ERR_USAGE;
    while (isspace((unsigned char)*p))
        p++;
    if (!*p) {
        predicate_free(b->cond);
        b->cond = NULL;
        free(b->cond_expr);
        b->cond_expr = NULL;
        session_printf(s, "Breakpoint %d now unconditional.\n", b->number);
        return PTODB_OK;
    }
    if (b->kind == BP_NAN || b->kind == BP_INF) {
        session_errorf(s, "Breakpoint %d cannot take a condition: conditions apply to line, function, pass "
                          "and watch breakpoints.", b->number);
        return PTODB_ERR_USAGE;
    }
    predicate *c = NULL;
    char *e = NULL;
    if (b->kind == BP_LINE || b->kind == BP_FUNC) {
        if (parse_any_condition(s, p, &c, &e) != 0)
            return PTODB_ERR_USAGE;
        if (c && b->kind == BP_FUNC) {
            session_errorf(s, "A predicate needs a tensor; a function breakpoint takes an expression condition.");
            predicate_free(c);
            return PTODB_ERR_USAGE;
        }
    } else if (!(c = parse_condition(s, p))) {
        return PTODB_ERR_USAGE;
    }
    predicate_free(b->cond);
    free(b->cond_expr);
    b->cond = c;
    b->cond_expr = e;
    return PTODB_OK;
}

ptodb_status cmd_IGNORE(session *s, const char *args)
{
    char *words[3];
    char buf[256];
    if (session_split_words(args, words, 3, buf, sizeof buf) != 2) {
        session_errorf(s, "Usage: ignore N COUNT");
        return PTODB_ERR_USAGE;
    }
    breakpoint *b = bp_arg(s, words[0]);
    if (!b)
        return PTODB_ERR_USAGE;
    long long c;
    if (parse_int_range(words[1], 0, LONG_MAX, &c) != 0) {
        session_errorf(s, "Bad count \"%s\" (0 to %ld).", words[1], LONG_MAX);
        return PTODB_ERR_USAGE;
    }
    b->ignore = c;
    if (c == 0)
        session_printf(s, "Will stop next time breakpoint %d is reached.\n", b->number);
    else
        session_printf(s, "Will ignore next %lld crossings of breakpoint %d.\n", c, b->number);
    return PTODB_OK;
}

ptodb_status cmd_COMMANDS(session *s, const char *args)
{
    breakpoint *b;
    if (!*args) {
        b = s->nbps ? &s->bps[s->nbps - 1] : NULL;
        if (!b) {
            session_errorf(s, "No breakpoints specified.");
            return PTODB_ERR_USAGE;
        }
    } else if (!(b = bp_arg(s, args))) {
        return PTODB_ERR_USAGE;
    }
    s->collect_bp = b->number;
    session_begin_collect(s, COLLECT_COMMANDS, "commands");
    return PTODB_OK;
}

/* Applies fn to the breakpoints named in args (all when empty). */
static ptodb_status for_each_bp(session *s, const char *args, void (*fn)(session *, breakpoint *))
{
    char *words[64];
    char buf[1024];
    int n = session_split_words(args, words, 64, buf, sizeof buf);
    if (n < 0) {
        session_errorf(s, "Too many arguments.");
        return PTODB_ERR_USAGE;
    }
    if (n == 0) {
        for (size_t i = s->nbps; i-- > 0;)
            fn(s, &s->bps[i]);
        return PTODB_OK;
    }
    ptodb_status st = PTODB_OK;
    for (int i = 0; i < n; i++) {
        breakpoint *b = bp_arg(s, words[i]);
        if (!b) {
            st = PTODB_ERR_USAGE;
            continue;
        }
        fn(s, b);
    }
    return st;
}

static void do_enable(session *s, breakpoint *b) { (void)s; b->enabled = 1; }
static void do_disable(session *s, breakpoint *b) { (void)s; b->enabled = 0; }
ptodb_status cmd_ENABLE(session *s, const char *args)
{
    session_mark_redraw(s, SESSION_REDRAW_SOURCE);
    return for_each_bp(s, args, do_enable);
}

ptodb_status cmd_DISABLE(session *s, const char *args)
{
    session_mark_redraw(s, SESSION_REDRAW_SOURCE);
    return for_each_bp(s, args, do_disable);
}

ptodb_status cmd_DELETE(session *s, const char *args)
{
    session_mark_redraw(s, SESSION_REDRAW_SOURCE);
    return for_each_bp(s, args, bp_delete);
}

ptodb_status cmd_CLEAR(session *s, const char *args)
{
    if (!session_need_case(s))
        return PTODB_ERR_USAGE;
    int pass = s->run.active ? s->run.pass : s->cur_pass, line = -1;
    const char *func = NULL;
    if (!*args) {
        inspect_frame f;
        if (!s->run.active || !inspect_frame_get(s->run.m, s->run.core, s->run.level, &f)) {
            session_errorf(s, "No source line specified: the program is not being run.");
            return PTODB_ERR_USAGE;
        }
        line = f.line;
    } else if (all_digits(args) || strchr(args, ':')) {
        if (parse_line_location(s, args, pass, &pass, &line) != 0)
            return PTODB_ERR_USAGE;
    } else {
        func = args;
    }
    strbuf deleted = STRBUF_INIT;
    int n = 0;
    for (size_t i = 0; i < s->nbps;) {
        breakpoint *b = &s->bps[i];
        int at = func ? b->kind == BP_FUNC && strcmp(b->func, func) == 0
                      : b->kind == BP_LINE && b->pass == pass && b->line == line;
        if (!at) {
            i++;
            continue;
        }
        strbuf_printf(&deleted, "%s%d", n++ ? " " : "", b->number);
        bp_delete(s, b); /* the next one moves into slot i */
    }
    if (!n) {
        session_errorf(s, "No breakpoint at %s.", *args ? args : "this line");
        strbuf_free(&deleted);
        return PTODB_ERR_NOT_FOUND;
    }
    session_printf(s, "Deleted breakpoint%s %s\n", n > 1 ? "s" : "", strbuf_str(&deleted));
    strbuf_free(&deleted);
    session_mark_redraw(s, SESSION_REDRAW_SOURCE);
    return PTODB_OK;
}

ptodb_status cmd_SAVE(session *s, const char *args)
{
    char *words[3];
    char buf[2048];
    int n = session_split_words(args, words, 3, buf, sizeof buf);
    if (n != 2 || (strcmp(words[0], "session") != 0 && strcmp(words[0], "breakpoints") != 0)) {
        session_errorf(s, "Usage: save session|breakpoints FILE");
        return PTODB_ERR_USAGE;
    }
    int displays = strcmp(words[0], "session") == 0;
    ptodb_status st = session_save_script(s, words[1], displays);
    if (st == PTODB_OK)
        session_printf(s, "Saved %zu breakpoint%s%s to %s.\n", s->nbps, s->nbps == 1 ? "" : "s",
                       displays ? " and the displays" : "", words[1]);
    return st;
}
