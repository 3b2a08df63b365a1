/* A core's frames (machine_int.h): freeing them, emptying a core. Below
 * the machine and the barrier, which both hold frames. */
#include <stdlib.h>

#include "exec/machine_int.h"

void machine_frame_free(xframe *f)
{
    for (uint32_t i = 0; i < f->fn->nslots; i++)
        value_clear(&f->slots[i]);
    free(f->slots);
    free(f->loops);
    free(f->dyns);
}

void machine_core_clear(core *c)
{
    while (c->depth > 0)
        machine_frame_free(&c->frames[--c->depth]);
    if (c->kept)
        machine_frame_free(&c->frames[0]);
    c->kept = 0;
    value_clear(&c->result);
    c->state = CORE_IDLE;
    c->nwait = 0;
    c->whole = 0;
    c->replay = 0;
    c->at_barrier = 0;
}
