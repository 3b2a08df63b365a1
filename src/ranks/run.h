/* Running one pass file of a multi-rank case (docs/multirank.md): the host
 * orchestrator (the dump's level=HOST function) runs first on a machine of
 * its own with the full host tensors, queueing each `device=` dispatch and
 * host collective on that device's FIFO; then one machine per rank runs its
 * FIFO, one task at a time, under one deterministic global schedule: fixed
 * (the lowest rank that can run, until it parks at a wait or finishes its
 * task) or, with --schedule random:SEED, a seeded choice of rank after
 * every statement. Every output is compared per rank with
 * data/out/rank<R>/ (keys "rank<R>.<name>"), so every report format shows
 * a verdict per rank and output. A state where no rank can move is a
 * deadlock, reported at the parked wait with every rank's cell, expected
 * and current value and its last notifier. */
#ifndef PTODB_RANKS_RUN_H
#define PTODB_RANKS_RUN_H

#include "exec/runpass.h"

/* runpass_file for a case with c->ranks.nranks > 0. Never prints. */
void ranks_run_file(const char *path, const case_info *c, const runpass_options *o, runpass_result *r);

/* The same for a program already built from path (p borrowed): fuzzers
 * and the debugger build it once. r must be zeroed (or hold a ref_note). */
void ranks_run_program(const char *path, const xprogram *p, const case_info *c, const runpass_options *o,
                       runpass_result *r);
/* Parses, checks and builds path's program (o->ops): 0 with *mod and *p
 * (the caller frees both; p borrows mod) and REF's refusal as r's
 * ref_note, or -1 with r's status and message. */
int ranks_build_file(const char *path, const runpass_options *o, ir_module **mod, xprogram **p, runpass_result *r);
/* 0, with r's message, when p cannot run at all (an op ptodb does not
 * implement); else 1, with REF's refusal as r's ref_note. */
int ranks_program_runnable(const char *path, const xprogram *p, runpass_result *r);

/* The one entry point above exec: ranks_run_file for a multi-rank case,
 * runpass_file otherwise. */
void ranks_or_single_run_file(const char *path, const case_info *c, const runpass_options *o, runpass_result *r);

#endif
