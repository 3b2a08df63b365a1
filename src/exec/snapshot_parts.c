/* The parts of a machine snapshot that belong to other components
 * (snapshot.h, machine_snapshot_part). A component with state of its own
 * in the machine (the per-core memory model) adds one entry here: save
 * returns a copy of that state, restore puts it back, drop frees it, bytes
 * sizes it and hash folds the live state into machine_state_hash. */
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

static const machine_snapshot_part parts[] = {
    {"provenance", prov_save, prov_restore, prov_drop, prov_bytes, prov_hash},
};

const machine_snapshot_part *machine_snapshot_parts(size_t *n)
{
    *n = sizeof parts / sizeof parts[0];
    return parts;
}
