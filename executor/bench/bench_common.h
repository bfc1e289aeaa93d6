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
#include "common/arena.h"
#include "common/vector.h"
#include "storage/storage.h"

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

/* Table public.bench (x bigint) with value_at(0 .. rows - 1), appended
 * through storage in one transaction; copy, when not NULL, receives the
 * same values (the reference loops' array). */
static inline StoreTable *bench_load_table(uint64_t rows, int64_t *copy)
{
    StoreColumnDef col = {.name = "x", .type = SQLTYPE(TYPE_INT8)};
    StoreTable *t = store_table_create("public", "bench", 1, &col, 0, NULL);
    MemArena *a = mem_arena_create("bench load");
    SqlType i8 = SQLTYPE(TYPE_INT8);
    Batch *b = batch_create(a, 1, &i8);
    StoreTxn *txn = store_txn_begin();
    for (uint64_t pos = 0; pos < rows; pos += VEC_CAPACITY) {
        uint32_t n = rows - pos < VEC_CAPACITY ? (uint32_t)(rows - pos) : VEC_CAPACITY;
        int64_t *d = b->cols[0].data;
        for (uint32_t i = 0; i < n; i++)
            d[i] = value_at(pos + i);
        if (copy)
            for (uint32_t i = 0; i < n; i++)
                copy[pos + i] = d[i];
        b->cols[0].validity = NULL;
        b->count = n;
        b->sel = NULL;
        store_table_append(t, txn, b);
    }
    store_txn_commit(txn);
    mem_arena_destroy(a);
    return t;
}

#endif
