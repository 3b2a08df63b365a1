/* The `display` list: expressions shown at every stop (display.c). */
#ifndef PTODB_DEBUG_DISPLAY_H
#define PTODB_DEBUG_DISPLAY_H

#include <stdint.h>

#include "debug/state/session.h"

typedef struct display_item {
    int number;
    char *expr;
    uint64_t hash;      /* of the value at the last stop */
    int has_hash;
    char *summary;      /* the last text shown */
    char *detail;       /* display/FMT: the elements in that format, or NULL */
    int changed;
} display_item;

/* The `display` list at a stop. */
void display_show_all(session *s, int only_changed);
void display_free_all(session *s);
/* A new display of expr (display/FMT EXPR's text, checked), shown now. */
void display_add(session *s, const char *expr);
/* Deletes display `number`: 0, or -1 when there is none. */
int display_delete(session *s, long number);

#endif
