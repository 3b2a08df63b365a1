/* DAP hitCondition (hitcond.h). */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hitcond.h"

int hitcond_parse(const char *text, hitcond *out, char *err, int errsize)
{
    out->kind = HITCOND_ALWAYS;
    out->n = 0;
    if (!text)
        return 0;
    const char *p = text;
    while (*p == ' ' || *p == '\t')
        p++;
    if (!*p)
        return 0;
    hitcond_kind kind = HITCOND_EQ;
    if (p[0] == '>' && p[1] == '=')
        kind = HITCOND_GE, p += 2;
    else if (p[0] == '=' && p[1] == '=')
        kind = HITCOND_EQ, p += 2;
    else if (p[0] == '>')
        kind = HITCOND_GT, p += 1;
    else if (p[0] == '%')
        kind = HITCOND_MOD, p += 1;
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p < '0' || *p > '9') {
        snprintf(err, (size_t)errsize,
                 "hitCondition '%.60s': expected N, ==N, >=N, >N or %%N with N a positive integer", text);
        return -1;
    }
    errno = 0;
    char *end;
    long n = strtol(p, &end, 10);
    while (*end == ' ' || *end == '\t')
        end++;
    if (errno == ERANGE || *end || n < 0 || (n == 0 && kind != HITCOND_GT && kind != HITCOND_GE)) {
        snprintf(err, (size_t)errsize,
                 "hitCondition '%.60s': expected N, ==N, >=N, >N or %%N with N a positive integer", text);
        return -1;
    }
    out->kind = kind;
    out->n = n;
    return 0;
}

int hitcond_stops(const hitcond *h, long hit)
{
    switch (h->kind) {
    case HITCOND_ALWAYS: return 1;
    case HITCOND_EQ: return hit == h->n;
    case HITCOND_GE: return hit >= h->n;
    case HITCOND_GT: return hit > h->n;
    case HITCOND_MOD: return h->n > 0 && hit % h->n == 0;
    }
    return 1;
}
