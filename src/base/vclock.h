/* Vector clocks as FastTrack uses them (Flanagan & Freund, PLDI 2009): one
 * counter per thread; an access by thread t at epoch e (t's own counter
 * then) happens before the point whose clock is vc iff e <= vc[t]. The
 * ranks' race check (src/ranks/world.c) and the cores' GM race check of one
 * launch (src/exec/gmrace.c) both keep their clocks as plain arrays and use
 * these. */
#ifndef PTODB_BASE_VCLOCK_H
#define PTODB_BASE_VCLOCK_H

#include <stdint.h>

/* a[i] = max(a[i], b[i]) for i < n: what b's point has seen, a's sees too
 * (an acquire of what b released) */
void vclock_join(uint32_t *a, const uint32_t *b, int n);

/* thread t's access at epoch e happens before the point whose clock is vc */
static inline int vclock_covers(const uint32_t *vc, int t, uint32_t e)
{
    return e <= vc[t];
}

#endif
