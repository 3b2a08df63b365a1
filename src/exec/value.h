/* Runtime values of the interpreter (semantics.md §2.1): Python scalars,
 * torch tensors (0-d views from read included), tuples, None, and the enum
 * constants that reach ops as keyword values (pl.FP32, pl.Mem.Vec, ...).
 *
 * Ownership: a value owns one reference to its tensor or tuple. Copying a
 * value that must outlive the source goes through value_copy (adds a
 * reference); value_clear drops it and leaves VAL_UNBOUND. Plain C
 * assignment moves ownership. REF's "same object" (name binding, tile.move,
 * iter-arg init, passing an argument) is value_copy of a VAL_TENSOR: both
 * values point at one tensor object, so attrs and data are shared. */
#ifndef PTODB_EXEC_VALUE_H
#define PTODB_EXEC_VALUE_H

#include <stdint.h>

#include "base/status.h"
#include "tensor/tensor.h"

typedef enum {
    VAL_UNBOUND = 0, /* a slot never assigned (NameError in REF) */
    VAL_NONE,
    VAL_BOOL,   /* u.b: 0/1 */
    VAL_INT,    /* u.i: a Python int (REF's ints are unbounded; overflow is an error) */
    VAL_FLOAT,  /* u.f: a Python float (double) */
    VAL_TENSOR, /* u.t: a torch tensor, 0-d for read results */
    VAL_TUPLE,  /* u.tuple: multi-value returns, list/tuple literals */
    VAL_ENUM,   /* u.e: an ir_enum_value (ir/resolve.h): dtypes, memory spaces, ... */
    VAL_STR     /* u.s: a string constant, borrowed from the module arena */
} value_kind;

typedef struct value_tuple value_tuple;

typedef struct value {
    uint8_t kind; /* value_kind */
    union {
        int b;
        int64_t i;
        double f;
        tensor *t;
        value_tuple *tuple;
        int32_t e;
        const char *s;
    } u;
} value;

struct value_tuple {
    int refcount;
    uint32_t n;
    value items[];
};

static inline value value_none(void) { value v; v.kind = VAL_NONE; v.u.i = 0; return v; }
static inline value value_bool(int b) { value v; v.kind = VAL_BOOL; v.u.b = b != 0; return v; }
static inline value value_int(int64_t i) { value v; v.kind = VAL_INT; v.u.i = i; return v; }
static inline value value_float(double f) { value v; v.kind = VAL_FLOAT; v.u.f = f; return v; }
static inline value value_enum(int32_t e) { value v; v.kind = VAL_ENUM; v.u.e = e; return v; }
/* Takes ownership of the caller's reference to t. */
static inline value value_tensor(tensor *t) { value v; v.kind = VAL_TENSOR; v.u.t = t; return v; }

/* A tuple of n VAL_NONE items, to be filled (the tuple owns its items). */
value value_tuple_new(uint32_t n);
value value_copy(const value *v);
void value_clear(value *v);

/* Python-number view of a scalar value: VAL_BOOL/VAL_INT/VAL_FLOAT, or a
 * 0-d tensor (its element). Returns 0 and sets *out, -1 for anything else. */
int value_as_double(const value *v, double *out);
/* int(v) as REF's helpers do (truncating a float, 0-d tensors accepted).
 * Returns 0, or -1 when v is not a number. */
int value_as_int(const value *v, int64_t *out);
/* A list/tuple of ints (offsets, shapes): up to max entries. Returns the
 * count, or -1 when v is not a sequence of numbers or is too long. */
int value_as_int_list(const value *v, int64_t *out, int max);
/* The torch storage dtype of a dtype enum value (pl.BF16 -> DTYPE_BF16,
 * pl.FP8E4M3FN -> DTYPE_FP32 as REF's _DTYPE_MAP, pl.UINT16 -> DTYPE_INT32,
 * ...; semantics.md §1.1). Returns 0, or -1 when v is not a dtype enum. */
int value_as_dtype(const value *v, dtype_id *out);
/* Python truthiness (a 0-d tensor by its element). -1 when undefined. */
int value_truthy(const value *v);

const char *value_kind_name(value_kind k);

#endif
