/* The device's predicate tiles (semantics.h, cmp-mask): tile.cmp / tile.cmps
 * write one bit per compared element, packed into the UINT8 tile their type
 * declares, and tile.sel / tile.sels read those bits. REF's bool tensors are
 * what --semantics=ref computes; these are --semantics=device's. */
#ifndef PTODB_EXEC_PREDICATE_MASK_H
#define PTODB_EXEC_PREDICATE_MASK_H

#include "exec/op.h"
#include "tensor/tensor.h"

/* 1 when t (an op's declared result type) is a packed predicate tile: a 2-D
 * UINT8 tile. */
int exec_mask_is_packed_type(const exec_type *t);

/* bits (bool, 2-D: the compare of every element of the source) packed as
 * pto-isa's TCMP does (include/pto/cpu/TCmp.h:41-66): byte w of row r holds
 * columns 8w .. 8w+7 of the source's valid region, column 8w+k in bit k;
 * dst is type's shape, zero outside the bytes written, with type's valid
 * shape. src_valid_cols: the source's valid columns. */
ptodb_status exec_mask_pack(exec_ctx *ctx, const exec_type *type, const tensor *bits, int64_t src_valid_cols,
                            tensor **out);

/* A packed mask (UINT8, 2-D) read as pto-isa's TSEL does
 * (include/pto/cpu/TSel.hpp:21-45) for a selection over rows x cols: the
 * bits are taken in order along each mask row's valid bytes (bit 0 first),
 * row after row, over the selection's valid region vrows x vcols only (a
 * row of vcols elements takes vcols bits); *out is a bool [rows, cols]
 * tensor (0 outside the valid region and where the mask has no more bits).
 * per_row: read as TSELS does (include/pto/cpu/TSelS.hpp:33-40) instead,
 * element (i, j) is bit j % 8 of byte j / 8 of mask row i. */
ptodb_status exec_mask_unpack(exec_ctx *ctx, const tensor *mask, int64_t rows, int64_t cols, int64_t vrows,
                              int64_t vcols, int per_row, tensor **out);

#endif
