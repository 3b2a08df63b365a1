/* The memory model's bytes for front ends (view.h): where a tile lives
 * and what its core's space holds (src/memory, exec/memcheck.c), read
 * without changing anything. */
#include <string.h>

#include "debug/state/session_impl.h"
#include "debug/present/view.h"
#include "exec/machine.h"
#include "memory/memmap.h"

int view_tensor_place(session *s, const tensor *t, view_mem_place *out)
{
    memset(out, 0, sizeof *out);
    if (!s->run.active || !s->run.m || !t || !t->mem_tile || t->mem_core < 0 || t->mem_core > 2)
        return 0;
    /* tensor.mem_core counts the cores with memory: AIC, AIV0, AIV1 */
    int core = EXEC_CORE_AIC + t->mem_core;
    const mem_core *mc = machine_mem_core(s->run.m, core);
    const mem_tile *tl = mc ? mem_tile_get(mc, t->mem_tile) : NULL;
    if (!tl || tl->unplaced)
        return 0;
    out->core = core;
    out->space = tl->space;
    out->space_name = mem_space_name((mem_space)tl->space);
    out->addr = tl->addr;
    out->size = tl->size;
    out->extent = mem_space_extent(mc, (mem_space)tl->space);
    return 1;
}

int64_t view_memory_read(session *s, int core, int space, uint64_t addr, void *buf, uint64_t n)
{
    if (!s->run.active || !s->run.m || space < 0 || space >= MEM_NSPACES)
        return -1;
    const mem_core *mc = machine_mem_core(s->run.m, core);
    if (!mc || !mem_space_extent(mc, (mem_space)space))
        return -1;
    return (int64_t)mem_space_read(mc, (mem_space)space, addr, buf, n);
}

int view_memory_space(const char *name)
{
    for (int sp = 0; sp < MEM_NSPACES; sp++)
        if (strcmp(mem_space_name((mem_space)sp), name) == 0)
            return sp;
    return -1;
}
