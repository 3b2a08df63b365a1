#include "debug/present/compare_view.h"

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "debug/state/session_impl.h"
#include "debug/present/view.h"

struct session_compare {
    char *b_root;
    view_compare_pair *pairs;
    size_t npairs;
    int first_diff, first_no_outputs;
    int a_line, b_line;
    char *func, *tensor, *how;
    unsigned generation;
};

static char *dup_or_null(const char *t)
{
    return t ? xstrdup(t) : NULL;
}

void compare_view_free(struct session_compare *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->npairs; i++) {
        view_compare_pair *p = &c->pairs[i];
        free((char *)p->name);
        free((char *)p->a_stem);
        free((char *)p->b_stem);
        free((char *)p->a_path);
        free((char *)p->b_path);
    }
    free(c->pairs);
    free(c->b_root);
    free(c->func);
    free(c->tensor);
    free(c->how);
    free(c);
}

static void side(const case_info *c, const compare_side *sd, const char **stem, const char **path, int *ok)
{
    *stem = *path = NULL;
    *ok = 0;
    if (sd->pass < 0 || (size_t)sd->pass >= c->npasses)
        return;
    *stem = xstrdup(c->passes[sd->pass].stem);
    *path = xstrdup(c->passes[sd->pass].path);
    *ok = sd->ran && sd->ok;
}

void compare_view_set(session *s, const case_info *a, const case_info *b, const compare_result *r)
{
    unsigned gen = s->compare ? s->compare->generation + 1 : 1;
    compare_view_free(s->compare);
    struct session_compare *c = xcalloc(1, sizeof *c);
    c->generation = gen;
    c->b_root = xstrdup(b->root ? b->root : "B");
    c->npairs = r->npairs;
    c->pairs = xcalloc(r->npairs ? r->npairs : 1, sizeof *c->pairs);
    for (size_t i = 0; i < r->npairs; i++) {
        const compare_pair *p = &r->pairs[i];
        view_compare_pair *v = &c->pairs[i];
        v->name = xstrdup(p->name ? p->name : "?");
        side(a, &p->a, &v->a_stem, &v->a_path, &v->a_ok);
        side(b, &p->b, &v->b_stem, &v->b_path, &v->b_ok);
        v->differs = p->differs;
        v->same_file = p->same_file;
        v->no_outputs = p->no_outputs;
    }
    c->first_diff = r->first_diff;
    c->first_no_outputs = r->first_no_outputs;
    if (r->stmt_done && r->stmt.found) {
        c->a_line = r->stmt.good_line;
        c->b_line = r->stmt.line;
        c->func = dup_or_null(r->stmt.func);
        c->tensor = dup_or_null(r->stmt.tensor);
        /* the program-point model's wording (docs/program-points.md), as the text report says it */
        c->how = xstrdup(r->stmt.region          ? "matched by region"
                         : r->stmt.by_provenance ? "matched by provenance"
                                                 : "a guess (SSA names, op, occurrence)");
    }
    s->compare = c;
    s->redraw |= SESSION_REDRAW_ALL;
}

int view_compare_get(session *s, view_compare *out)
{
    memset(out, 0, sizeof *out);
    out->first_diff = out->first_no_outputs = -1;
    const struct session_compare *c = s->compare;
    if (!c)
        return 0;
    out->b_root = c->b_root;
    out->pairs = c->pairs;
    out->npairs = c->npairs;
    out->first_diff = c->first_diff;
    out->first_no_outputs = c->first_no_outputs;
    out->a_line = c->a_line;
    out->b_line = c->b_line;
    out->func = c->func;
    out->tensor = c->tensor;
    out->how = c->how;
    out->generation = c->generation;
    return 1;
}
