/* A pickle reader for the subset torch.save writes (protocol 2; the few
 * protocol 4 opcodes torch 2.x may use are accepted too). It never runs
 * code: GLOBAL names must be on the caller's whitelist, and REDUCE only
 * records "call F with ARGS" as a value for the caller to interpret, except
 * for collections.OrderedDict(), which becomes a plain dict. Every length,
 * memo index and the stack depth are bounded. */
#ifndef PTODB_DATA_PICKLE_H
#define PTODB_DATA_PICKLE_H

#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"

typedef enum {
    PK_NONE,
    PK_BOOL,
    PK_INT,
    PK_FLOAT,
    PK_STR,    /* str or bytes */
    PK_TUPLE,
    PK_LIST,
    PK_DICT,   /* items[2k] = key, items[2k+1] = value, insertion order */
    PK_GLOBAL, /* str = "module.name" */
    PK_PERSID, /* items[0] = the persistent id */
    PK_CALL,   /* items[0] = callable (a PK_GLOBAL), items[1] = args tuple */
    PK_MARK    /* internal: never in a result */
} pk_kind;

typedef struct pk_value {
    pk_kind kind;
    int refcount;
    int64_t i;   /* PK_BOOL, PK_INT */
    double f;    /* PK_FLOAT */
    char *str;   /* PK_STR, PK_GLOBAL (NUL-terminated; len for embedded NULs) */
    size_t len;
    struct pk_value **items;
    size_t count, cap;
    int depth;  /* nesting below this value (0 for leaves) */
    int frozen; /* already an item of another value: no longer mutable */
} pk_value;

/* Runs the pickle program data[0..size). allowed lists the permitted
 * "module.name" globals (NULL-terminated). On success *out is the value
 * STOP returned (one reference). Errors go to sink as
 * "path: error: what: ..." (what names the record, e.g. "a/data.pkl"). */
ptodb_status pk_load(const unsigned char *data, size_t size, const char *const *allowed,
                     const char *path, const char *what, pk_value **out, diag_sink *sink);

pk_value *pk_ref(pk_value *v);
void pk_unref(pk_value *v);

/* Dict lookup by string key, or NULL. */
pk_value *pk_dict_get(const pk_value *dict, const char *key);
const char *pk_kind_name(pk_kind k);

#endif
