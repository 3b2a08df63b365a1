/* ptodb.yaml reader (libyaml document API: every node keeps its mark). */
#include "base/input_file.h"
#include "config.h"

#include "data/manifest.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "base/mem.h"
#include "data/npy.h"
#include "data/pt.h"

typedef struct mf_ctx {
    yaml_document_t *doc;
    const char *path;
    diag_sink *sink;
    int errors;
} mf_ctx;

static void mf_error(mf_ctx *c, const yaml_node_t *n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void mf_error(mf_ctx *c, const yaml_node_t *n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_loc loc = {c->path, n ? (int)n->start_mark.line + 1 : 0, n ? (int)n->start_mark.column + 1 : 0};
    diag_vreport(c->sink, DIAG_ERROR, loc, NULL, fmt, ap);
    va_end(ap);
    c->errors++;
}

static const char *node_kind(const yaml_node_t *n)
{
    switch (n->type) {
    case YAML_SCALAR_NODE: return "a scalar";
    case YAML_SEQUENCE_NODE: return "a list";
    case YAML_MAPPING_NODE: return "a mapping";
    default: return "nothing";
    }
}

static const char *scalar(const yaml_node_t *n)
{
    return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static int get_string(mf_ctx *c, const yaml_node_t *n, const char *key, char **out)
{
    const char *s = scalar(n);
    if (!s || !*s) {
        mf_error(c, n, "'%s' must be a non-empty string, got %s", key, s ? "an empty value" : node_kind(n));
        return -1;
    }
    free(*out);
    *out = xstrdup(s);
    return 0;
}

static int get_number(mf_ctx *c, const yaml_node_t *n, const char *key, double *out)
{
    const char *s = scalar(n);
    char *end;
    errno = 0;
    double v = s ? strtod(s, &end) : 0;
    if (!s || !*s || *end || errno || !isfinite(v) || v < 0) {
        mf_error(c, n, "'%s' must be a non-negative number, got %s%s%s", key, s ? "'" : "",
                 s ? s : node_kind(n), s ? "'" : "");
        return -1;
    }
    *out = v;
    return 0;
}

static int get_int(mf_ctx *c, const yaml_node_t *n, const char *key, int64_t *out)
{
    const char *s = scalar(n);
    char *end;
    errno = 0;
    long long v = s ? strtoll(s, &end, 10) : 0;
    if (!s || !*s || *end || errno || v < 0) {
        mf_error(c, n, "'%s' must be a non-negative integer, got %s%s%s", key, s ? "'" : "",
                 s ? s : node_kind(n), s ? "'" : "");
        return -1;
    }
    *out = v;
    return 0;
}

static char *resolve_path(const char *dir, const char *file)
{
    if (file[0] == '/')
        return xstrdup(file);
    size_t n = strlen(dir) + strlen(file) + 2;
    char *p = xmalloc(n);
    snprintf(p, n, "%s/%s", dir, file);
    return p;
}

static void parse_tolerance(mf_ctx *c, manifest *m, const yaml_node_t *n)
{
    if (n->type != YAML_MAPPING_NODE) {
        mf_error(c, n, "'tolerance' must be a mapping {rtol: R, atol: A}, got %s", node_kind(n));
        return;
    }
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(c->doc, p->key), *v = yaml_document_get_node(c->doc, p->value);
        const char *ks = scalar(k);
        if (ks && strcmp(ks, "rtol") == 0) {
            m->has_rtol = get_number(c, v, "rtol", &m->rtol) == 0;
            m->rtol_line = (int)v->start_mark.line + 1;
        } else if (ks && strcmp(ks, "atol") == 0) {
            m->has_atol = get_number(c, v, "atol", &m->atol) == 0;
            m->atol_line = (int)v->start_mark.line + 1;
        } else {
            mf_error(c, k, "unknown key '%s' in 'tolerance' (expected rtol, atol)", ks ? ks : "?");
        }
    }
}

static void parse_shape(mf_ctx *c, manifest_tensor *t, const yaml_node_t *n)
{
    if (n->type != YAML_SEQUENCE_NODE) {
        mf_error(c, n, "'shape' must be a list of integers, got %s", node_kind(n));
        return;
    }
    int nd = 0;
    for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++) {
        if (nd >= TENSOR_MAX_DIMS) {
            mf_error(c, n, "'shape' has more than %d dimensions", TENSOR_MAX_DIMS);
            return;
        }
        if (get_int(c, yaml_document_get_node(c->doc, *it), "shape", &t->shape[nd]) != 0)
            return;
        nd++;
    }
    t->ndim = nd;
}

static void parse_tensor(mf_ctx *c, manifest *m, manifest_tensor *t, const yaml_node_t *n, int output)
{
    if (n->type != YAML_MAPPING_NODE) {
        mf_error(c, n, "'%s' must be a mapping {file: PATH, ...}, got %s", t->name, node_kind(n));
        return;
    }
    char *file = NULL, *dt = NULL;
    int errors_before = c->errors;
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(c->doc, p->key), *v = yaml_document_get_node(c->doc, p->value);
        const char *ks = scalar(k);
        if (!ks) {
            mf_error(c, k, "keys must be strings");
        } else if (strcmp(ks, "file") == 0) {
            get_string(c, v, "file", &file);
        } else if (strcmp(ks, "dtype") == 0) {
            if (get_string(c, v, "dtype", &dt) == 0) {
                if (dtype_parse(dt, &t->dtype) == 0)
                    t->has_dtype = 1;
                else
                    mf_error(c, v, "unknown dtype '%s' (expected e.g. bf16, fp16, fp32, int32, int64)", dt);
            }
        } else if (strcmp(ks, "shape") == 0) {
            parse_shape(c, t, v);
        } else if (strcmp(ks, "offset") == 0) {
            int64_t off;
            if (get_int(c, v, "offset", &off) == 0)
                t->offset = (uint64_t)off;
        } else if (output && strcmp(ks, "rtol") == 0) {
            t->has_rtol = get_number(c, v, "rtol", &t->rtol) == 0;
        } else if (output && strcmp(ks, "atol") == 0) {
            t->has_atol = get_number(c, v, "atol", &t->atol) == 0;
        } else {
            mf_error(c, k, "unknown key '%s' for %s '%s' (expected file, dtype, shape, offset%s)", ks,
                     output ? "output" : "input", t->name, output ? ", rtol, atol" : "");
        }
    }
    if (!file) {
        mf_error(c, n, "%s '%s' has no 'file'", output ? "output" : "input", t->name);
    } else {
        t->file = resolve_path(m->dir, file);
        const char *ext = strrchr(file, '.');
        int self_describing = ext && (strcmp(ext, ".pt") == 0 || strcmp(ext, ".npy") == 0);
        /* only when dtype/shape were not already reported as wrong */
        if (!self_describing && (!t->has_dtype || t->ndim < 0) && c->errors == errors_before)
            mf_error(c, n, "raw data file '%s' needs both 'dtype' and 'shape'", file);
    }
    free(file);
    free(dt);
}

static void parse_tensors(mf_ctx *c, manifest *m, const yaml_node_t *n, int output)
{
    const char *what = output ? "outputs" : "inputs";
    if (n->type != YAML_MAPPING_NODE) {
        mf_error(c, n, "'%s' must be a mapping of parameter names, got %s", what, node_kind(n));
        return;
    }
    manifest_tensor **arr = output ? &m->outputs : &m->inputs;
    size_t *cnt = output ? &m->noutputs : &m->ninputs;
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(c->doc, p->key), *v = yaml_document_get_node(c->doc, p->value);
        const char *ks = scalar(k);
        if (!ks || !*ks) {
            mf_error(c, k, "parameter names in '%s' must be strings", what);
            continue;
        }
        for (size_t i = 0; i < *cnt; i++)
            if (strcmp((*arr)[i].name, ks) == 0)
                mf_error(c, k, "'%s' is listed twice in '%s'", ks, what);
        *arr = xreallocarray(*arr, *cnt + 1, sizeof **arr);
        manifest_tensor *t = &(*arr)[(*cnt)++];
        memset(t, 0, sizeof *t);
        t->name = xstrdup(ks);
        t->ndim = -1;
        t->line = (int)k->start_mark.line + 1;
        t->col = (int)k->start_mark.column + 1;
        parse_tensor(c, m, t, v, output);
    }
}

static void parse_root(mf_ctx *c, manifest *m, const yaml_node_t *root)
{
    if (!root)
        return; /* an empty manifest is valid: nothing is overridden */
    if (root->type != YAML_MAPPING_NODE) {
        mf_error(c, root, "the manifest must be a mapping (entry, tolerance, inputs, outputs), got %s",
                 node_kind(root));
        return;
    }
    for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(c->doc, p->key), *v = yaml_document_get_node(c->doc, p->value);
        const char *ks = scalar(k);
        if (ks && strcmp(ks, "entry") == 0)
            get_string(c, v, "entry", &m->entry);
        else if (ks && strcmp(ks, "tolerance") == 0)
            parse_tolerance(c, m, v);
        else if (ks && strcmp(ks, "inputs") == 0)
            parse_tensors(c, m, v, 0);
        else if (ks && strcmp(ks, "outputs") == 0)
            parse_tensors(c, m, v, 1);
        else
            mf_error(c, k, "unknown key '%s' (expected entry, tolerance, inputs, outputs)", ks ? ks : "?");
    }
}

ptodb_status manifest_load(const char *path, manifest *m, diag_sink *sink)
{
    memset(m, 0, sizeof *m);
    m->path = xstrdup(path);
    const char *slash = strrchr(path, '/');
    m->dir = slash ? xstrndup(path, (size_t)(slash - path) + (slash == path)) : xstrdup(".");
    char why[300];
    FILE *f = input_file_fopen(path, why, sizeof why);
    if (!f) {
        diag_report(sink, DIAG_ERROR, (diag_loc){path, 0, 0}, NULL, "%s", why);
        return PTODB_ERR_IO;
    }
    yaml_parser_t parser;
    yaml_document_t doc;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_file(&parser, f);
    ptodb_status st = PTODB_OK;
    if (!yaml_parser_load(&parser, &doc)) {
        diag_report(sink, DIAG_ERROR,
                    (diag_loc){path, (int)parser.problem_mark.line + 1, (int)parser.problem_mark.column + 1},
                    NULL, "YAML syntax error: %s%s%s", parser.problem ? parser.problem : "unknown problem",
                    parser.context ? " " : "", parser.context ? parser.context : "");
        st = PTODB_ERR_FORMAT;
    } else {
        mf_ctx c = {&doc, path, sink, 0};
        parse_root(&c, m, yaml_document_get_root_node(&doc));
        if (c.errors)
            st = PTODB_ERR_FORMAT;
        yaml_document_delete(&doc);
    }
    yaml_parser_delete(&parser);
    fclose(f);
    return st;
}

static void manifest_tensor_free(manifest_tensor *t)
{
    free(t->name);
    free(t->file);
}

void manifest_free(manifest *m)
{
    for (size_t i = 0; i < m->ninputs; i++)
        manifest_tensor_free(&m->inputs[i]);
    for (size_t i = 0; i < m->noutputs; i++)
        manifest_tensor_free(&m->outputs[i]);
    free(m->inputs);
    free(m->outputs);
    free(m->entry);
    free(m->path);
    free(m->dir);
    memset(m, 0, sizeof *m);
}

static int has_ext(const char *p, const char *ext)
{
    size_t a = strlen(p), b = strlen(ext);
    return a >= b && strcmp(p + a - b, ext) == 0;
}

ptodb_status manifest_load_tensor(const manifest *m, const manifest_tensor *mt, tensor **out,
                                  diag_sink *sink)
{
    ptodb_status st;
    diag_loc loc = {m->path, mt->line, mt->col};
    *out = NULL;
    if (has_ext(mt->file, ".pt")) {
        st = pt_load_tensor(mt->file, out, sink);
        if (st == PTODB_OK && mt->has_dtype && (*out)->dtype != mt->dtype &&
            !(mt->dtype == DTYPE_INDEX && (*out)->dtype == DTYPE_INT64)) {
            diag_report(sink, DIAG_ERROR, loc, NULL, "'%s': %s holds %s data, the manifest says %s",
                        mt->name, mt->file, dtype_name((*out)->dtype), dtype_name(mt->dtype));
            tensor_unref(*out);
            *out = NULL;
            return PTODB_ERR_FORMAT;
        }
    } else if (has_ext(mt->file, ".npy")) {
        st = npy_load(mt->file, mt->has_dtype ? mt->dtype : DTYPE_COUNT, out, sink);
    } else {
        st = raw_load(mt->file, mt->dtype, mt->ndim, mt->shape, mt->offset, out, sink);
    }
    if (st == PTODB_OK && mt->ndim >= 0 &&
        ((*out)->ndim != mt->ndim ||
         memcmp((*out)->shape, mt->shape, (size_t)mt->ndim * sizeof(int64_t)) != 0)) {
        char a[160], b[160];
        tensor_format_shape((*out)->ndim, (*out)->shape, a, sizeof a);
        tensor_format_shape(mt->ndim, mt->shape, b, sizeof b);
        diag_report(sink, DIAG_ERROR, loc, NULL, "'%s': %s has shape %s, the manifest says %s", mt->name,
                    mt->file, a, b);
        tensor_unref(*out);
        *out = NULL;
        return PTODB_ERR_SHAPE;
    }
    return st;
}
