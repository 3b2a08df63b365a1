/* The cross-core statement whose split= a pass changed: REF refuses a group
 * whose AIC and AIV kernels use conflicting split kwargs before any of its
 * statements runs ("Conflicting cross-core split kwargs in group G: [1, 2]");
 * under device semantics each pipe op keeps its split and the group
 * deadlocks ("ptodb: deadlock in group G: ..."). Either way no tensor
 * differs and the error names no line. */
#ifndef PTODB_BATCH_SPLIT_CHANGE_H
#define PTODB_BATCH_SPLIT_CHANGE_H

#include <stdint.h>

typedef struct split_change {
    int line;
    char *func;
    int64_t value;      /* its split= */
    char *good_values;  /* the split= values the passing pass uses there: "1" */
} split_change;

/* error: the failing pass's error. When it is that refusal or deadlock, the statement
 * of bad_path in group G's kernels (G_aic, G_aiv) whose split= value the
 * passing pass (good_path) uses nowhere in G or the functions split from
 * it; the first in the file when several. 1 found (free with
 * split_change_free), 0 not. */
int split_change_find(const char *error, const char *bad_path, const char *good_path, split_change *out);
void split_change_free(split_change *c);

#endif
