#include "batch/merge.h"

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

typedef struct merged_case {
    const json_value *v;
    const report_doc *doc;
    size_t from;          /* input index, to name it and to keep the sort stable */
} merged_case;

static int by_path(const void *a, const void *b)
{
    const merged_case *x = a, *y = b;
    int c = strcmp(report_case_path(x->v), report_case_path(y->v));
    return c ? c : x->from < y->from ? -1 : x->from > y->from;
}

static int check_shards(const report_doc *docs, const char *const *names, size_t n, strbuf *err)
{
    int count = 0;
    for (size_t i = 0; i < n; i++)
        if (docs[i].shard_count)
            count = docs[i].shard_count;
    if (!count)
        return 0;
    char *seen = xcalloc((size_t)count + 1, 1);
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        const report_doc *d = &docs[i];
        if (!d->shard_count) {
            strbuf_printf(err, "%s is not a shard report, the others are shards of %d", names[i], count);
            rc = -1;
        } else if (d->shard_count != count) {
            strbuf_printf(err, "%s is shard %d/%d, the others are shards of %d", names[i], d->shard_index,
                          d->shard_count, count);
            rc = -1;
        } else if (seen[d->shard_index]++) {
            strbuf_printf(err, "%s: shard %d/%d is given twice", names[i], d->shard_index, count);
            rc = -1;
        }
    }
    for (int k = 1; k <= count && rc == 0; k++)
        if (!seen[k]) {
            strbuf_printf(err, "shard %d/%d is missing (no report of it is given)", k, count);
            rc = -1;
        }
    free(seen);
    return rc;
}

int report_merge(const report_doc *docs, const char *const *names, size_t n, strbuf *out, strbuf *err)
{
    if (check_shards(docs, names, n, err) != 0)
        return -1;
    size_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += docs[i].ncases;
    merged_case *cases = xcalloc(total ? total : 1, sizeof *cases);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < docs[i].ncases; k++)
            cases[m++] = (merged_case){docs[i].cases[k], &docs[i], i};
    qsort(cases, m, sizeof *cases, by_path);
    for (size_t i = 1; i < m; i++)
        if (strcmp(report_case_path(cases[i - 1].v), report_case_path(cases[i].v)) == 0) {
            strbuf_printf(err, "case %s is in %s and in %s", report_case_path(cases[i].v), names[cases[i - 1].from],
                          names[cases[i].from]);
            free(cases);
            return -1;
        }
    /* the folder they came from when they agree on it */
    const char *path = n && docs[0].path ? docs[0].path : "";
    for (size_t i = 1; i < n; i++)
        if (!docs[i].path || strcmp(docs[i].path, path) != 0)
            path = "(merged reports)";
    char **texts = xcalloc(m ? m : 1, sizeof *texts);
    for (size_t i = 0; i < m; i++)
        texts[i] = xstrndup(cases[i].doc->text + cases[i].v->start, cases[i].v->end - cases[i].v->start);
    report_cases_json(path, 0, 0, texts, m, out);
    for (size_t i = 0; i < m; i++)
        free(texts[i]);
    free(texts);
    free(cases);
    return 0;
}
