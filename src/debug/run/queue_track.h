/* Who pushed each tile still in a queue (queue_track.c). */
#ifndef PTODB_DEBUG_QUEUE_TRACK_H
#define PTODB_DEBUG_QUEUE_TRACK_H

#include "debug/run/run.h"

/* queue_track.c: after a push (push != 0) or pop statement at line on
 * core, follows the queues' depths; the origin of item k (front first) of
 * the queue id inspect_queues gave with that depth: 1 with the producer's
 * core and line and the pushed variable's name, 0 when not known. */
void run_track_queues(session *s, int core, int line, int push);
int run_queue_item_origin(session *s, const void *id, int depth, int k, int *core, int *line, const char **name);
void run_track_free(run_state *r);

#endif
