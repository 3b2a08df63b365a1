/* ranks.txt: the rank count, the device ids and the comm domains of a
 * multi-rank case (docs/multirank.md, "Case layout").
 *
 * The file is line based. Recognised lines (anything else is prose and is
 * skipped, as the fixtures' explanations in parentheses are):
 *
 *   ranks: P                       required, 1 <= P <= CASE_MAX_RANKS
 *   device_ids: D0 D1 ...          optional (default 0 .. P-1), P distinct ids
 *   world_size: P                  optional, must equal ranks
 *   domains: N                     optional count, checked against the lines below
 *     NAME ... devices [D, ...] ...; window buffers: BUF (BYTES B), ...
 *                                  one domain (indented, an identifier first);
 *                                  a device's rank in it is its index in the list
 *       device D -> rank R in NAME cross-check of that index
 *
 * The device list is what PyPTO's generated host_orch.py passes to
 * allocate_domain(workers=[...]): pld.rank(get_comm_ctx(x)) on device D is
 * workers.index(D) (simpler docs/comm-domain.md). */
#ifndef PTODB_DATA_RANKS_H
#define PTODB_DATA_RANKS_H

#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "base/status.h"

/* simpler's CommContext holds at most 64 ranks (pypto
 * include/pypto/codegen/distributed/comm_layout.h:36-52). */
#define CASE_MAX_RANKS 64

typedef struct case_window_buffer {
    char *name;    /* the host orchestrator's name, "signal_buf" (no __ssa_vN) */
    int64_t bytes; /* as ranks.txt gives it; -1 when not given */
} case_window_buffer;

typedef struct case_domain {
    char *name;               /* "comm_d0" */
    int line;                 /* in ranks.txt */
    int devices[CASE_MAX_RANKS]; /* workers: devices[k] has rank k in the domain */
    size_t ndevices;
    case_window_buffer *buffers;
    size_t nbuffers;
} case_domain;

typedef struct case_ranks {
    char *path;
    int nranks;
    int device_ids[CASE_MAX_RANKS]; /* device of host rank r (data/in/rank<r>) */
    case_domain *domains;
    size_t ndomains;
} case_ranks;

/* Reads path; errors go to sink at path:line:col and return ERR_FORMAT
 * (ERR_IO when unreadable). *r is usable for case_ranks_free either way. */
ptodb_status case_ranks_load(const char *path, case_ranks *r, diag_sink *sink);
/* The same over text in memory (len bytes, NUL bytes are an error). */
ptodb_status case_ranks_parse(const char *path, const char *text, size_t len, case_ranks *r, diag_sink *sink);
void case_ranks_free(case_ranks *r);

/* The rank of device in d, or -1 when it is not a member. */
int case_domain_rank(const case_domain *d, int device);
/* The domain that owns window buffer name (its __ssa_vN dropped first), or
 * NULL. */
const case_domain *case_ranks_buffer_domain(const case_ranks *r, const char *name);

#endif
