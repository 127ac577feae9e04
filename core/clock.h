/* clock.h -- seconds on a monotonic clock and of a thread's CPU, for budgets
 * and benchmarks. */
#ifndef PB_CLOCK_H
#define PB_CLOCK_H

#include <time.h>

static inline double pb_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Seconds of CPU the calling thread has used: its time on one core, the
 * same while other work shares the machine. */
static inline double pb_thread_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#endif
