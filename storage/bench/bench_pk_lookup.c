/*
 * bench_pk_lookup.c — issue 3's benchmark (e) at the store's level: point
 * lookups by primary key (store_table_lookup_key) with the keys in the
 * primary key's runs on disk (keyruns.c), against the same lookups with
 * every key in the in-memory hash (before any checkpoint), in one run.
 *
 * Table t(k bigint primary key, v bigint), `rows` keys loaded in `flushes`
 * transactions, each followed by a CHECKPOINT (which writes its keys as
 * key runs; older runs are merged past 8). Flush i holds the keys
 * k % flushes == i, so every run spans the whole key range and only bloom
 * filters tell runs apart; after each flush, 1% of the earlier keys are
 * updated, so newer runs shadow entries of older ones. Keys are even;
 * `lookups` random existing keys (hits) and odd ones (misses: inside every
 * run's key range, so only the bloom filters reject them), each timed. The
 * baseline: the same load into another table with no checkpoint (every key
 * in the hash), the same lookups. Prints p50 / p99 / mean per kind.
 *
 * Usage: storage_bench_pk_lookup [rows] [flushes] [lookups]   (default 4000000 10 200000)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "common/error.h"
#include "common/vector.h"
#define STORE_INTERNAL
#include "storage/storage_int.h"

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15u;
static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Insert keys 2k for k = first, first + step, ... below rows (v = k), in one transaction. */
static void load(StoreTable *t, MemArena *a, int64_t first, int64_t step, int64_t rows)
{
    SqlType ty[] = {SQLTYPE(TYPE_INT8), SQLTYPE(TYPE_INT8)};
    Batch *b = batch_create(a, 2, ty);
    StoreTxn *x = store_txn_begin();
    uint32_t n = 0;
    for (int64_t k = first; k < rows; k += step) {
        ((int64_t *)b->cols[0].data)[n] = 2 * k;  /* even keys: the odd ones are misses */
        ((int64_t *)b->cols[1].data)[n] = k;
        if (++n == VEC_CAPACITY) {
            b->count = n;
            store_table_append(t, x, b);
            n = 0;
        }
    }
    if (n) {
        b->count = n;
        store_table_append(t, x, b);
    }
    store_txn_commit(x);
}

/* Update `count` random keys 2k, k below limit (a new version each). */
static void update_some(StoreTable *t, MemArena *a, int64_t limit, int64_t count)
{
    SqlType ty[] = {SQLTYPE(TYPE_INT8), SQLTYPE(TYPE_INT8)};
    Batch *b = batch_create(a, 2, ty);
    b->count = 1;
    StoreTxn *x = store_txn_begin();
    for (int64_t i = 0; i < count; i++) {
        Value key = {.is_null = false, .u.i64 = 2 * (int64_t)(rng() % (uint64_t)limit)};
        uint64_t row, newest;
        if (!store_table_lookup_key(t, x, &key, &row))
            continue;
        ((int64_t *)b->cols[0].data)[0] = key.u.i64;
        ((int64_t *)b->cols[1].data)[0] = -key.u.i64;
        (void)store_row_update(t, x, row, b, 0, &newest);
    }
    store_txn_commit(x);
}

/* Time n lookups of random keys (hits: 2k, misses: 2k + 1); print percentiles. */
static void measure(StoreTable *t, const char *label, int64_t rows, int n, bool hits)
{
    double *us = malloc(sizeof *us * (size_t)n);
    int found = 0;
    for (int i = 0; i < n; i++) {
        int64_t k = (int64_t)(rng() % (uint64_t)rows);
        Value key = {.is_null = false, .u.i64 = hits ? 2 * k : 2 * k + 1};
        uint64_t row;
        double s = now_us();
        found += store_table_lookup_key(t, NULL, &key, &row);
        us[i] = now_us() - s;
    }
    qsort(us, (size_t)n, sizeof *us, cmp_double);
    double sum = 0;
    for (int i = 0; i < n; i++)
        sum += us[i];
    printf("(e) %-28s %d lookups: p50 %.2f us, p99 %.2f us, mean %.2f us, found %d\n", label, n,
           us[n / 2], us[(size_t)n * 99 / 100], sum / n, found);
    free(us);
}

int main(int argc, char **argv)
{
    int64_t rows = argc > 1 ? atoll(argv[1]) : 4000000;
    int flushes = argc > 2 ? atoi(argv[2]) : 10;
    int lookups = argc > 3 ? atoi(argv[3]) : 200000;
    if (rows < 1000 || flushes < 1 || lookups < 100)
        return 2;
    char dir[] = "/tmp/strata-bench-pk-XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    ErrJmp jmp;
    if (!ERR_TRY(jmp)) {
        fprintf(stderr, "bench_pk_lookup: %s\n", err_current()->message);
        return 1;
    }
    store_open(dir);
    MemArena *a = mem_arena_create("bench");
    StoreColumnDef cols[2] = {{"k", SQLTYPE(TYPE_INT8), false, NULL},
                              {"v", SQLTYPE(TYPE_INT8), false, NULL}};
    int pkey[1] = {0};
    StoreTable *mem = store_table_create("public", "in_memory", 2, cols, 1, pkey);
    for (int f = 0; f < flushes; f++) {
        load(mem, a, f, flushes, rows);
        update_some(mem, a, rows, rows / 100 / flushes);
        mem_arena_reset(a);
    }
    measure(mem, "hash (no checkpoint) hits", rows, lookups, true);
    measure(mem, "hash (no checkpoint) misses", rows, lookups, false);
    StoreTable *t = store_table_create("public", "on_disk", 2, cols, 1, pkey);
    double s = now_us();
    for (int f = 0; f < flushes; f++) {
        load(t, a, f, flushes, rows);
        update_some(t, a, rows, rows / 100 / flushes);
        store_checkpoint();
        mem_arena_reset(a);
    }
    double load_s = (now_us() - s) / 1e6;
    printf("(e) %lld keys in %d flushes (%.1f s with checkpoints): %d key runs, %llu keys in the "
           "hash\n",
           (long long)rows, flushes, load_s, t->pk.nruns, (unsigned long long)t->pk.count);
    measure(t, "key runs hits", rows, lookups, true);
    measure(t, "key runs misses", rows, lookups, false);
    store_close();
    err_pop(&jmp);
    mem_arena_destroy(a);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) != 0;
}
