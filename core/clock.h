/* clock.h -- seconds on a monotonic clock, for budgets and benchmarks. */
#ifndef PB_CLOCK_H
#define PB_CLOCK_H

#include <time.h>

static inline double pb_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#endif
