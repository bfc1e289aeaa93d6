/*
 * bench_common.h — what the executor's benchmark programs share: a
 * monotonic clock, the median of RUNS timings, and the values they load
 * (a multiplicative hash of the row number mod 10^6, about one row in 10^6
 * zero). Header-only: each benchmark is one program.
 */
#ifndef STRATA_EXECUTOR_BENCH_COMMON_H
#define STRATA_EXECUTOR_BENCH_COMMON_H

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#define RUNS 5

static inline double now_sec(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static inline int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of RUNS timings (sorts v). */
static inline double median(double *v)
{
    qsort(v, RUNS, sizeof *v, cmp_double);
    return v[RUNS / 2];
}

static inline int64_t value_at(uint64_t i)
{
    return (int64_t)((i * UINT64_C(2654435761)) % UINT64_C(1000000));
}

#endif
