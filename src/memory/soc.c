/* PyPTO's SoC memory tables (src/backend/common/soc.cpp:119-196 at the
 * mirrored commit; docs/memory.md). */
#include "memory/soc.h"

#include <string.h>

static const char *const space_names[MEM_NSPACES] = {"Vec", "Mat", "Left", "Right", "Acc", "Bias",
                                                     "LeftScale", "RightScale"};

#define KIB(n) ((uint64_t)(n) * 1024)

/* Capacities and the SoC's alignment field: soc.cpp:124-139 (910B) and :166-183 (950): Vec is the "safe" 184/240 KiB
 * that AllocateMemoryAddr enforces, not the physical 192/248 KiB. */
static const mem_space_limits limits_910b[MEM_NSPACES] = {
    [MEM_SPACE_VEC] = {KIB(184), 32, 128}, [MEM_SPACE_MAT] = {KIB(512), 32, 128},
    [MEM_SPACE_LEFT] = {KIB(64), 32, 64},  [MEM_SPACE_RIGHT] = {KIB(64), 32, 64},
    [MEM_SPACE_ACC] = {KIB(128), 32, 128}, [MEM_SPACE_BIAS] = {KIB(1), 32, 64},
};
static const mem_space_limits limits_950[MEM_NSPACES] = {
    [MEM_SPACE_VEC] = {KIB(240), 32, 128},      [MEM_SPACE_MAT] = {KIB(512), 32, 128},
    [MEM_SPACE_LEFT] = {KIB(64), 32, 64},       [MEM_SPACE_RIGHT] = {KIB(64), 32, 64},
    [MEM_SPACE_ACC] = {KIB(256), 32, 128},      [MEM_SPACE_BIAS] = {KIB(4), 32, 64},
    [MEM_SPACE_LEFT_SCALE] = {KIB(4), 32, 32},  [MEM_SPACE_RIGHT_SCALE] = {KIB(4), 32, 32},
};

int mem_space_limits_of(mem_target t, mem_space s, mem_space_limits *out)
{
    if ((unsigned)s >= MEM_NSPACES)
        return -1;
    const mem_space_limits *l = t == MEM_TARGET_950 ? &limits_950[s] : &limits_910b[s];
    if (!l->capacity)
        return -1;
    *out = *l;
    return 0;
}

const char *mem_space_name(mem_space s)
{
    return (unsigned)s < MEM_NSPACES ? space_names[s] : "?";
}

int mem_space_from_name(const char *name)
{
    for (int i = 0; i < MEM_NSPACES; i++)
        if (strcmp(name, space_names[i]) == 0)
            return i;
    return -1;
}

int mem_space_is_cube(mem_space s)
{
    return s != MEM_SPACE_VEC;
}

const char *mem_target_name(mem_target t)
{
    return t == MEM_TARGET_950 ? "Ascend950" : "Ascend910B";
}

static int has_word(const char *text, const char *w)
{
    size_t n = strlen(w);
    for (const char *p = text; (p = strstr(p, w)) != NULL; p++) {
        char after = p[n];
        int alnum_after = (after >= '0' && after <= '9') || (after >= 'a' && after <= 'z') ||
                          (after >= 'A' && after <= 'Z');
        if (!alnum_after)
            return 1;
    }
    return 0;
}

int mem_target_from_text(const char *text, mem_target *out)
{
    if (!text)
        return -1;
    if (has_word(text, "Ascend950") || has_word(text, "_950") || has_word(text, "'a5'") ||
        has_word(text, "a5sim")) {
        *out = MEM_TARGET_950;
        return 0;
    }
    if (has_word(text, "Ascend910B") || has_word(text, "_910b") || has_word(text, "_910B")) {
        *out = MEM_TARGET_910B;
        return 0;
    }
    return -1;
}

mem_layout mem_layout_from_name(const char *name)
{
    if (!name)
        return MEM_LAYOUT_UNSAID;
    if (strcmp(name, "none_box") == 0)
        return MEM_LAYOUT_NONE_BOX;
    if (strcmp(name, "row_major") == 0)
        return MEM_LAYOUT_ROW_MAJOR;
    if (strcmp(name, "col_major") == 0)
        return MEM_LAYOUT_COL_MAJOR;
    return MEM_LAYOUT_UNSAID;
}

const char *mem_layout_name(mem_layout l)
{
    switch (l) {
    case MEM_LAYOUT_NONE_BOX:
        return "none_box";
    case MEM_LAYOUT_ROW_MAJOR:
        return "row_major";
    case MEM_LAYOUT_COL_MAJOR:
        return "col_major";
    default:
        return "unsaid";
    }
}
