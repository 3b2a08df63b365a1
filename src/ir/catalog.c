/* The static tables behind resolve.h: ops, builtins, enum constants. */
#include "ir/resolve.h"

#include <string.h>

static const ir_op_info op_table[] = {
#define IR_OP(id, name, fam, lo, hi, src, ref, test) {name, IR_OPFAM_##fam, lo, hi, IR_OPSRC_##src, ref, test},
#include "ir/ops.def"
#undef IR_OP
};

static const char *const family_names[] = {
#define IR_OPFAM_NAME(f) #f,
    IR_OPFAM_LIST(IR_OPFAM_NAME)
#undef IR_OPFAM_NAME
};

static const struct {
    const char *name;
    int lo, hi;
} builtin_table[] = {
#define IR_BUILTIN(id, name, lo, hi) {name, lo, hi},
#include "ir/builtins.def"
#undef IR_BUILTIN
};

static const ir_enum_info enum_table[] = {
#define IR_ENUM(g, v, full, name) {IR_EG_##g, full, name},
#include "ir/enums.def"
#undef IR_ENUM
};

/* strcmp order between a counted string and a C string. */
static int cmp_counted(const char *s, size_t len, const char *z)
{
    size_t zl = strlen(z);
    int c = memcmp(s, z, len < zl ? len : zl);
    if (c)
        return c;
    return len < zl ? -1 : len > zl;
}

#define BSEARCH_BODY(table, field)                                       \
    size_t lo = 0, hi = sizeof table / sizeof table[0];                  \
    while (lo < hi) {                                                    \
        size_t mid = lo + (hi - lo) / 2;                                 \
        int c = cmp_counted(name, len, table[mid].field);                \
        if (c == 0)                                                      \
            return (int)mid;                                             \
        if (c < 0)                                                       \
            hi = mid;                                                    \
        else                                                             \
            lo = mid + 1;                                                \
    }                                                                    \
    return -1;

const ir_op_info *ir_op_info_get(int id)
{
    return id >= 0 && id < IR_OP_COUNT ? &op_table[id] : NULL;
}

int ir_op_lookup(const char *name, size_t len)
{
    BSEARCH_BODY(op_table, name)
}

const char *ir_op_family_name(ir_op_family fam)
{
    return (unsigned)fam < IR_OPFAM_COUNT ? family_names[fam] : "?";
}

int ir_op_family_multi_rank(ir_op_family fam)
{
    return fam == IR_OPFAM_PLD_SYSTEM || fam == IR_OPFAM_PLD_TENSOR || fam == IR_OPFAM_PLD_TILE ||
           fam == IR_OPFAM_BUILTIN_TENSOR || fam == IR_OPFAM_DIST;
}

const char *ir_op_source_name(ir_op_source src)
{
    static const char *const names[] = {
#define IR_OPSRC_NAME(id, label) label,
        IR_OPSRC_LIST(IR_OPSRC_NAME)
#undef IR_OPSRC_NAME
    };
    return (unsigned)src < IR_OPSRC_COUNT ? names[src] : "?";
}

const char *ir_builtin_name(int id)
{
    return id >= 0 && id < IR_BUILTIN_COUNT ? builtin_table[id].name : NULL;
}

int ir_builtin_lookup(const char *name, size_t len)
{
    BSEARCH_BODY(builtin_table, name)
}

void ir_builtin_arity(int id, int *lo, int *hi)
{
    *lo = *hi = -1;
    if (id >= 0 && id < IR_BUILTIN_COUNT) {
        *lo = builtin_table[id].lo;
        *hi = builtin_table[id].hi;
    }
}

const ir_enum_info *ir_enum_info_get(int value)
{
    return value >= 0 && value < IR_EV_COUNT ? &enum_table[value] : NULL;
}

int ir_enum_lookup(const char *name, size_t len)
{
    BSEARCH_BODY(enum_table, printed)
}
