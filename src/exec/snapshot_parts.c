/* The parts of a machine snapshot that belong to other components
 * (snapshot.h, machine_snapshot_part). A component with state of its own
 * in the machine (the per-core memory model) adds one entry here: save
 * returns a copy of that state, restore puts it back, drop frees it, bytes
 * sizes it and hash folds the live state into machine_state_hash. */
#include "exec/gmrace.h"
#include "exec/memcheck.h"
#include "exec/state_walk.h"

static void *prov_save(const machine *m)
{
    return m->prov ? exec_prov_save(m->prov) : NULL;
}

static void prov_restore(machine *m, const void *saved)
{
    if (m->prov && saved)
        exec_prov_restore(m->prov, saved);
}

static void prov_drop(void *saved)
{
    exec_prov_saved_free(saved);
}

static size_t prov_bytes(const void *saved)
{
    return exec_prov_saved_bytes(saved);
}

static uint64_t prov_hash(const machine *m, uint64_t h)
{
    return m->prov ? exec_prov_state_hash(m->prov, h) : h;
}

static void *mem_save(const machine *m)
{
    return m->mem ? exec_memcheck_save(m->mem) : NULL;
}

static void mem_restore(machine *m, const void *saved)
{
    if (m->mem && saved)
        exec_memcheck_restore(m->mem, saved);
}

static size_t mem_bytes(const void *saved)
{
    return exec_memcheck_saved_bytes(saved);
}

static uint64_t mem_hash(const machine *m, uint64_t h)
{
    return m->mem ? exec_memcheck_state_hash(m->mem, h) : h;
}

static void *tasks_save(const machine *m)
{
    return m->taskgraph ? exec_tasks_save(m->taskgraph) : NULL;
}

static void tasks_restore(machine *m, const void *saved)
{
    if (m->taskgraph && saved)
        exec_tasks_restore(m->taskgraph, saved);
}

static size_t tasks_bytes(const void *saved)
{
    (void)saved;
    return 16;
}

static uint64_t tasks_hash(const machine *m, uint64_t h)
{
    return m->taskgraph ? exec_tasks_state_hash(m->taskgraph, h) : h;
}

static void *race_save(const machine *m)
{
    return m->race ? exec_gmrace_save(m->race) : NULL;
}

static void race_restore(machine *m, const void *saved)
{
    if (m->race && saved)
        exec_gmrace_restore(m->race, saved);
}

static uint64_t race_hash(const machine *m, uint64_t h)
{
    (void)m; /* what it recorded shows in the machine's verdicts, not in its state */
    return h;
}

static uint64_t barrier_hash(const machine *m, uint64_t h)
{
    /* the parked frames' values are in machine_walk_values; where they are */
    const spmd_barrier *b = &m->bar;
    uint64_t w[4] = {(uint64_t)b->active, (uint64_t)b->n - b->first, b->head, (uint64_t)b->depth};
    for (int i = 0; i < 4; i++)
        h = (h ^ w[i]) * 0x100000001b3ull;
    for (size_t i = b->first; i < b->n; i++)
        for (int j = 0; j < b->parks[i].nframes; j++)
            h = (h ^ b->parks[i].frames[j].pc ^ ((uint64_t)b->parks[i].frames[j].block_idx << 32)) * 0x100000001b3ull;
    return h;
}

static const machine_snapshot_part parts[] = {
    {"provenance", prov_save, prov_restore, prov_drop, prov_bytes, prov_hash},
    {"memory model", mem_save, mem_restore, exec_memcheck_saved_free, mem_bytes, mem_hash},
    {"task graph", tasks_save, tasks_restore, exec_tasks_saved_free, tasks_bytes, tasks_hash},
    {"GM race check", race_save, race_restore, exec_gmrace_saved_free, exec_gmrace_saved_bytes, race_hash},
    {"spmd barrier", spmd_barrier_save, spmd_barrier_restore, spmd_barrier_saved_free, spmd_barrier_saved_bytes,
     barrier_hash},
};

const machine_snapshot_part *machine_snapshot_parts(size_t *n)
{
    *n = sizeof parts / sizeof parts[0];
    return parts;
}
