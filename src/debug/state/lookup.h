/* What a name denotes at the current stop (lookup.c). */
#ifndef PTODB_DEBUG_LOOKUP_H
#define PTODB_DEBUG_LOOKUP_H

#include "base/strbuf.h"
#include "data/case.h"
#include "debug/state/session.h"
#include "exec/value.h"
#include "tensor/tensor.h"

/* The value a name denotes at the current stop: a slot of the selected frame
 * (searched outward), an input or a golden output ("golden.NAME"). Sets
 * *golden to the matching golden output when there is one. Returns a new
 * reference, or NULL with a message printed. */
tensor *session_lookup_tensor(session *s, const char *name, const tensor **golden, int quiet);
/* The variable `name` (exact, or its SSA base) of the selected frame or the
 * frames around it on the current core: 1 with its slot name and value, 0
 * when no frame has it or no program is running. */
int session_frame_value(session *s, const char *name, const char **slot_name, const value **val);

/* The type a variable is declared with in the dump ("pl.Tile[[16, 64],
 * pl.BF16, ...]") when expr is the name of a slot of the selected frame
 * (exact or short): 1 with the text appended to out. */
int session_declared_type(session *s, const char *expr, strbuf *out);
/* When a short name could mean more than one bound variable of the frame
 * that has `taken` (the slot the name resolved to), appends a note line
 * naming the one taken and the others; appends nothing otherwise. */
void session_name_alternatives(session *s, const char *name, const char *taken, strbuf *note);
/* The tolerances output o is validated with: the manifest's per-output
 * value wins, then the session setting (which starts as the case's and
 * follows `set`). */
void session_output_tols(const session *s, const case_tensor *o, double *rtol, double *atol);
/* The golden output a tensor name corresponds to (SSA suffix dropped), or NULL. */
const case_tensor *session_golden_for(const session *s, const char *name);

#endif
