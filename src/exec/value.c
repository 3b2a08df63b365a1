#include "exec/value.h"

#include <math.h>
#include <stdlib.h>

#include "base/mem.h"
#include "ir/resolve.h"

value value_tuple_new(uint32_t n)
{
    value_tuple *t = xmalloc(sizeof *t + (size_t)n * sizeof(value));
    t->refcount = 1;
    t->n = n;
    for (uint32_t i = 0; i < n; i++)
        t->items[i] = value_none();
    value v;
    v.kind = VAL_TUPLE;
    v.u.tuple = t;
    return v;
}

value value_copy(const value *v)
{
    value c = *v;
    if (v->kind == VAL_TENSOR)
        tensor_ref(v->u.t);
    else if (v->kind == VAL_TUPLE)
        v->u.tuple->refcount++;
    return c;
}

void value_clear(value *v)
{
    if (v->kind == VAL_TENSOR) {
        tensor_unref(v->u.t);
    } else if (v->kind == VAL_TUPLE) {
        value_tuple *t = v->u.tuple;
        if (--t->refcount == 0) {
            for (uint32_t i = 0; i < t->n; i++)
                value_clear(&t->items[i]);
            free(t);
        }
    }
    v->kind = VAL_UNBOUND;
    v->u.i = 0;
}

int value_as_double(const value *v, double *out)
{
    switch (v->kind) {
    case VAL_BOOL: *out = v->u.b; return 0;
    case VAL_INT: *out = (double)v->u.i; return 0;
    case VAL_FLOAT: *out = v->u.f; return 0;
    case VAL_TENSOR:
        if (v->u.t->ndim != 0)
            return -1;
        *out = tensor_get(v->u.t, NULL);
        return 0;
    default: return -1;
    }
}

int value_as_int(const value *v, int64_t *out)
{
    switch (v->kind) {
    case VAL_BOOL: *out = v->u.b; return 0;
    case VAL_INT: *out = v->u.i; return 0;
    case VAL_FLOAT:
        if (!isfinite(v->u.f) || fabs(v->u.f) >= 9.2e18)
            return -1;
        *out = (int64_t)v->u.f; /* int() truncates toward zero */
        return 0;
    case VAL_TENSOR:
        if (v->u.t->ndim != 0)
            return -1;
        if (dtype_is_float(v->u.t->dtype)) {
            double d = tensor_get(v->u.t, NULL);
            if (!isfinite(d) || fabs(d) >= 9.2e18)
                return -1;
            *out = (int64_t)d;
        } else {
            *out = tensor_get_i64(v->u.t, NULL);
        }
        return 0;
    default: return -1;
    }
}

int value_as_int_list(const value *v, int64_t *out, int max)
{
    if (v->kind != VAL_TUPLE)
        return -1;
    const value_tuple *t = v->u.tuple;
    if (t->n > (uint32_t)max)
        return -1;
    for (uint32_t i = 0; i < t->n; i++)
        if (value_as_int(&t->items[i], &out[i]) != 0)
            return -1;
    return (int)t->n;
}

int value_as_dtype(const value *v, dtype_id *out)
{
    if (v->kind != VAL_ENUM)
        return -1;
    switch (v->u.e) {
    case IR_EV_DTYPE_BOOL: *out = DTYPE_BOOL; return 0;
    case IR_EV_DTYPE_INT8: *out = DTYPE_INT8; return 0;
    case IR_EV_DTYPE_INT16: *out = DTYPE_INT16; return 0;
    case IR_EV_DTYPE_INT32: *out = DTYPE_INT32; return 0;
    case IR_EV_DTYPE_INT64: *out = DTYPE_INT64; return 0;
    case IR_EV_DTYPE_INDEX: *out = DTYPE_INT64; return 0;
    case IR_EV_DTYPE_UINT8: *out = DTYPE_UINT8; return 0;
    case IR_EV_DTYPE_UINT16: *out = DTYPE_INT32; return 0;
    case IR_EV_DTYPE_UINT32: *out = DTYPE_INT64; return 0;
    case IR_EV_DTYPE_UINT64: *out = DTYPE_INT64; return 0;
    case IR_EV_DTYPE_FP16: *out = DTYPE_FP16; return 0;
    case IR_EV_DTYPE_BF16: *out = DTYPE_BF16; return 0;
    case IR_EV_DTYPE_FP32: *out = DTYPE_FP32; return 0;
    default: break;
    }
    const ir_enum_info *info = ir_enum_info_get(v->u.e);
    if (info && info->group == IR_EG_DTYPE) {
        *out = DTYPE_FP32; /* FP8*, FP4, HF*, INT4, UINT4, FP64: REF's fallback */
        return 0;
    }
    return -1;
}

int value_truthy(const value *v)
{
    double d;
    switch (v->kind) {
    case VAL_NONE: return 0;
    case VAL_BOOL: return v->u.b;
    case VAL_INT: return v->u.i != 0;
    case VAL_FLOAT: return v->u.f != 0.0;
    case VAL_TUPLE: return v->u.tuple->n != 0;
    case VAL_TENSOR:
        if (value_as_double(v, &d) != 0)
            return -1; /* bool() of a multi-element tensor raises in torch */
        return d != 0.0;
    default: return -1;
    }
}

const char *value_kind_name(value_kind k)
{
    static const char *const names[] = {"unbound", "None", "bool", "int", "float",
                                        "tensor", "tuple", "enum", "str"};
    return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "?";
}
