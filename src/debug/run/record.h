/* What a run records as it goes (record.c): the tensors of the last step,
 * the arrivals at statements, the GM regions loads and stores touched. */
#ifndef PTODB_DEBUG_RECORD_H
#define PTODB_DEBUG_RECORD_H

#include "debug/run/run.h"
#include "tensor/tensor.h"

/* The machines' write and read hooks (ud: the run_state): the step's lists. */
void run_write_hook(void *ud, int core, const tensor *t);
void run_read_hook(void *ud, int core, const tensor *t);
/* Drops the last step's written and read tensors (their references). */
void run_clear_step_lists(run_state *r);
/* "aiv0", or "rank 1, aiv0" in a multi-rank case (rank -1: the selected). */
const char *run_core_label(const session *s, int rank, int core, char *buf, size_t n);
/* Counts the arrivals of the cores that moved since the last count (the
 * stepped one, and any whose innermost frame changed: a group start puts
 * frames on several cores) at the statements they are now about to run,
 * and notes the moment of each (run_state.arrive_step: a position's +D).
 * Every run, the user's and the side runs in other passes, counts this way,
 * so equal counts name the same visit. stepped: a core id, or -1 at start. */
void run_note_arrivals(run_state *r, int stepped);
/* Which half along `axis` a vector lane's tile of extent h there holds,
 * from the GM regions the stop's core loaded or stored in its current
 * function: 0 the first, 1 the second, -1 not known (its regions do not
 * say). `region` gets the region it went by ("c[16:32, 0:64]"). */
int point_lane_half(session *s, int axis, int64_t h, char *region, size_t size);
/* Frees what run_note_arrivals kept of a run's load/store regions. */
void point_regions_free(run_state *r);
/* A copy of a run's load/store regions (a checkpoint's, timetravel.c), and
 * its release. */
struct point_regions *point_regions_copy(const struct point_regions *pr);
void point_regions_drop(struct point_regions *pr);
/* The how-manieth arrival of core at stmt in call `activation` of its
 * function (from 1; 0 none yet): the position's iteration. */
uint32_t run_visit_iteration(const run_state *r, const void *stmt, int core, uint32_t activation);
/* A vector lane's tile against another pass's whole tensor b (before a
 * lane split, one core did both halves): when exactly one dim of b is
 * twice a's and the run's current core is AIV0 or AIV1, that lane's half of
 * b (by position, a guess: the event lane_share_taken says which half it
 * took and why), a new reference; NULL otherwise. pass: the other pass. */
tensor *session_lane_share(session *s, const tensor *a, const tensor *b, int pass);
/* The half session_lane_share took (lane_share_taken). */
typedef struct run_lane_share {
    int core;           /* the lane: AIV0 or AIV1 */
    int axis, ndim;     /* the dim halved, of ndim */
    int64_t lo, hi;     /* the half's range along axis */
    int pass;           /* the other pass */
    const char *region; /* the region the lane's own loads and stores cover, or NULL: by the lane's index */
    int64_t lane;       /* the half: 0 or 1 */
} run_lane_share;

#endif
