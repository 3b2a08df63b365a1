/* A small JSON reader (RFC 8259) into a tree of values, for ptodb's own
 * reports read back (--merge-reports) and the writers that work from them.
 * Every value keeps its byte span in the text so that a part of a document
 * can be copied out verbatim. */
#ifndef PTODB_BASE_JSONREAD_H
#define PTODB_BASE_JSONREAD_H

#include <stddef.h>

typedef enum { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT } json_type;

typedef struct json_value {
    json_type type;
    int boolean;
    double number;
    char *string;               /* JSON_STRING, decoded (UTF-8, NUL-terminated) */
    struct json_value *items;   /* JSON_ARRAY items, JSON_OBJECT values */
    char **keys;                /* JSON_OBJECT keys, parallel to items */
    size_t n;
    size_t start, end;          /* the value's bytes in the text: [start, end) */
} json_value;

/* Parses text[0..len) (one value, surrounded by white space only). Returns
 * 0, or -1 with "LINE:COL: what" in err. Nesting deeper than 256 is refused. */
int json_parse(const char *text, size_t len, json_value *out, char *err, size_t errsize);
void json_value_free(json_value *v);

/* The member key of obj (NULL when obj is not an object or has none). */
const json_value *json_get(const json_value *obj, const char *key);
/* Typed members: NULL / dflt when absent or of another type. */
const char *json_get_str(const json_value *obj, const char *key);
double json_get_num(const json_value *obj, const char *key, double dflt);
int json_get_bool(const json_value *obj, const char *key, int dflt);
/* The i-th item of an array member (NULL when out of range). */
const json_value *json_get_at(const json_value *obj, const char *key, size_t i);
/* Items in an array member (0 when absent or not an array). */
size_t json_get_len(const json_value *obj, const char *key);

#endif
