/* The on-chip memory spaces of one Ascend core and their sizes, as PyPTO's
 * SoC tables give them (src/backend/common/soc.cpp; docs/memory.md cites the
 * lines): the cube core (AIC) has Mat (L1), Left/Right (L0A/L0B), Acc (L0C),
 * Bias and, on Ascend950, LeftScale/RightScale; each vector lane (AIV) has
 * Vec (the unified buffer). */
#ifndef PTODB_MEMORY_SOC_H
#define PTODB_MEMORY_SOC_H

#include <stdint.h>

typedef enum {
    MEM_SPACE_VEC,
    MEM_SPACE_MAT,
    MEM_SPACE_LEFT,
    MEM_SPACE_RIGHT,
    MEM_SPACE_ACC,
    MEM_SPACE_BIAS,
    MEM_SPACE_LEFT_SCALE,
    MEM_SPACE_RIGHT_SCALE,
    MEM_NSPACES
} mem_space;

typedef enum { MEM_TARGET_910B, MEM_TARGET_950 } mem_target;

typedef struct mem_space_limits {
    uint64_t capacity; /* usable bytes (PyPTO's AllocateMemoryAddr limit) */
    uint64_t align;    /* a buffer's address is a multiple of this: the 32 bytes of
                          PyPTO's allocator policy (memory_allocator_policy.h:86-88) */
    uint64_t soc_align; /* the SoC table's alignment field (soc.cpp), which the
                           allocator does not apply */
} mem_space_limits;

/* 0 and *out for a space the target has; -1 when it has none (the scale
 * buffers on 910B). */
int mem_space_limits_of(mem_target t, mem_space s, mem_space_limits *out);
/* "Vec", "Mat", ... as pl.Mem.<name> prints them. */
const char *mem_space_name(mem_space s);
/* The space of a pl.Mem.<name> (name without the prefix); -1 for DDR,
 * ScalarLocal and anything that is not an on-chip tile space. */
int mem_space_from_name(const char *name);
/* A tile's block or scatter layout (PyPTO's TileLayout,
 * include/pypto/ir/type.h:246-250); MEM_LAYOUT_UNSAID where neither the
 * type nor the op says, then TileView's defaults apply: blayout row_major,
 * slayout none_box (type.h:307-308). */
typedef enum {
    MEM_LAYOUT_UNSAID = 0,
    MEM_LAYOUT_NONE_BOX,
    MEM_LAYOUT_ROW_MAJOR,
    MEM_LAYOUT_COL_MAJOR
} mem_layout;
/* The layout of "none_box" / "row_major" / "col_major", else UNSAID. */
mem_layout mem_layout_from_name(const char *name);
const char *mem_layout_name(mem_layout l);

/* 1 when space s belongs to the cube core, 0 to a vector lane. */
int mem_space_is_cube(mem_space s);
const char *mem_target_name(mem_target t);
/* The target a case's text names: "Ascend950" / "a5" / a folder name ending
 * "_950" give 950, "Ascend910B" / "_910b" 910B. Returns 0 and *out when
 * text names one, -1 otherwise. */
int mem_target_from_text(const char *text, mem_target *out);

#endif
