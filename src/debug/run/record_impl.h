/* The inside of what a run records (record.c), for program points (point.c). */
#ifndef PTODB_DEBUG_RECORD_IMPL_H
#define PTODB_DEBUG_RECORD_IMPL_H

#include "debug/run/record.h"
#include "exec/region.h"

/* One load/store statement on one core: the regions of its last two
 * arrivals and how many times its core had then arrived at a load (store)
 * of exactly that region. The last one is the arrival in progress while the
 * core is at the statement: a tile a load assigned is the previous one's. */
typedef struct region_seen {
    const void *stmt;
    int core;
    const char *func;         /* the function it is in (the program's string) */
    int have;                 /* 1: last, 2: last and prev */
    exec_region last, prev;
    uint32_t last_k, prev_k;
} region_seen;

/* The region counts' key strings, shared by a run's table and the
 * checkpoints' copies of it (timetravel.c), freed with the last of them. */
typedef struct region_keys {
    int refcount;
    char **keys;
    size_t n, cap;
} region_keys;

struct point_regions {
    struct region_count { const char *key; uint32_t n; } *counts;
    region_keys *keys;
    size_t ncounts, capcounts;
    region_seen *seen;
    size_t nseen, capseen;
    /* the record of the load/store each core arrived at in the last count */
    int arrived[EXEC_NCORES]; /* index into seen + 1; 0 none */
    /* "L|tensor" / "S|tensor" of every GM tensor read / written */
    char **touched;
    size_t ntouched;
};

/* The record of core's last arrivals at the load or store stmt, or NULL. */
region_seen *record_find_seen(const run_state *r, const void *stmt, int core);
/* 1 when the run's loads or stores touched any of region g. */
int record_touched(const run_state *r, const exec_region *g);
/* How many times core arrived at stmt, in every call. */
uint32_t record_visit_count(const run_state *r, const void *stmt, int core);

#endif
