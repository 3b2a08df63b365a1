/* Program points across passes (point.c, docs/program-points.md). */
#ifndef PTODB_DEBUG_POINT_H
#define PTODB_DEBUG_POINT_H

#include "base/status.h"
#include "debug/run/run.h"
#include "tensor/tensor.h"

/* Moves a stopped run to the corresponding program point of another pass:
 * the same function (or its outlined/split twin) and the statement with the
 * same SSA base names and op, reached the same number of times. */
ptodb_status run_seek_point(session *s, int pass);
/* The tensor `name` of pass `pass` at the point corresponding to where the
 * current run stopped (a side run, kept for the next call; the current run
 * is untouched). The mapping is exact where the stop's function is
 * unchanged in that pass (same core, call and statement count), otherwise
 * by statement keys and said to be a guess. flags: POINT_SAY_MATCH prints
 * which tensor was taken and how it was matched; POINT_QUIET_MISSING keeps
 * "no such tensor there" quiet (NULL is returned all the same). */
enum { POINT_SAY_MATCH = 1, POINT_QUIET_MISSING = 2 };
/* A box of the variable's own tensor (ndim 0: all of it): where `name` is
 * a whole GM tensor matched by the region its core stored, only that region
 * compares (the rest is other cores' work, at other moments); the tensor
 * returned is already that box of the counterpart. */
typedef struct point_share {
    int ndim;
    int64_t lo[TENSOR_MAX_DIMS], len[TENSOR_MAX_DIMS];
} point_share;
tensor *session_tensor_in_pass(session *s, int pass, const char *name, int flags, point_share *own);
/* The share of t a point_share names (a new reference; t itself when the
 * share is all of it). */
tensor *point_share_of(tensor *t, const point_share *own);
/* How the last session_tensor_in_pass mapped the point: exact (the stop's
 * function unchanged in that pass), a guess (by statement keys) or not at
 * all; *how (may be NULL) gets the sentence `diff` prints ("same point:
 * ...", "a guess: ..."), valid until the next call. */
typedef enum { POINT_MATCH_NONE, POINT_MATCH_EXACT, POINT_MATCH_GUESS } point_match_quality;
point_match_quality point_last_match(const session *s, const char **how);
/* Ends the side run session_tensor_in_pass keeps. */
void point_side_kill(session *s);

#endif
