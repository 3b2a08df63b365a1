/* The monotonic clock, for durations and deadlines. */
#ifndef PTODB_BASE_CLOCK_H
#define PTODB_BASE_CLOCK_H

/* Seconds on CLOCK_MONOTONIC (an arbitrary origin). */
double clock_seconds(void);

#endif
