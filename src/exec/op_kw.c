/* The keyword ids of op calls (op.h, EXEC_KWARG_LIST) and their names: a
 * leaf of its own, so that the lowering, provenance and the ops can name a
 * keyword without reaching the op table (ops.c). */
#include "exec/op.h"

#include <string.h>

static const char *const kw_names[EXEC_KW_COUNT] = {
#define EXEC_KW_NAME(id, name) name,
    EXEC_KWARG_LIST(EXEC_KW_NAME)
#undef EXEC_KW_NAME
    "?",
};

exec_kw exec_kw_lookup(const char *name)
{
    for (int i = 0; i < EXEC_KW_OTHER; i++)
        if (strcmp(kw_names[i], name) == 0)
            return (exec_kw)i;
    return EXEC_KW_OTHER;
}

const char *exec_kw_name(exec_kw kw)
{
    return (unsigned)kw < EXEC_KW_COUNT ? kw_names[kw] : "?";
}
