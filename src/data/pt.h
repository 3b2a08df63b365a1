/* torch .pt files (torch.save's ZIP + pickle format, semantics.md §9).
 *
 * The reader maps the file once, checks every CRC-32, runs the pickle
 * subset with a whitelist of globals (nothing in a file can make ptodb run
 * code), and builds tensors whose storages point straight into the private
 * mapping (copied only when misaligned): no per-element parsing. Storages
 * shared between tensors in the file stay shared. */
#ifndef PTODB_DATA_PT_H
#define PTODB_DATA_PT_H

#include "base/diag.h"
#include "tensor/tensor.h"

typedef enum { PT_SINGLE, PT_DICT, PT_LIST } pt_kind;

typedef struct pt_item {
    char *name; /* dict key; "0", "1", ... for a list; NULL for a single tensor */
    tensor *t;  /* one reference */
} pt_item;

typedef struct pt_file {
    pt_kind kind;
    pt_item *items;
    size_t count;
} pt_file;

/* torch's float4_e2m1fn_x2 tensors (two FP4 E2M1 codes a byte) load as
 * float32 of the logical shape, last dim doubled (ptodb has no 4-bit
 * storage; float32 holds every FP4 value exactly). */
/* Loads every tensor of a .pt file. Errors go to sink ("path: error: ...")
 * and return ERR_IO (cannot read) or ERR_FORMAT (malformed/unsupported). */
ptodb_status pt_load(const char *path, pt_file *out, diag_sink *sink);
void pt_file_free(pt_file *f);

/* Loads a file that holds exactly one tensor (a bare tensor, or a dict/list
 * of one). */
ptodb_status pt_load_tensor(const char *path, tensor **out, diag_sink *sink);

/* Loads from memory (the bytes are copied when tensors must outlive them). */
ptodb_status pt_load_mem(const unsigned char *data, size_t size, const char *path, pt_file *out,
                         diag_sink *sink);

/* Writes one tensor as torch.save(t, path) would (torch 1.13/2.x layout:
 * _rebuild_tensor_v2, legacy storage class, 64-byte aligned records, Zip64
 * end records). The archive prefix is the file stem, as torch's. The FP8
 * dtypes go as torch 2.x writes them: _rebuild_tensor_v3 over an
 * UntypedStorage plus the dtype. Other dtypes without a legacy storage class
 * (uint16/32/64) are refused. ERR_IO on write errors. */
ptodb_status pt_save(const char *path, const tensor *t, diag_sink *sink);

#endif
