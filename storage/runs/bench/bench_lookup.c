/*
 * bench_lookup.c — issue 3 benchmark (e): primary-key point lookup latency
 * (p50/p99) with 10 runs on disk, through the path the store's lookups take:
 * probe the runs newest first (key range → group key ranges → bloom filter →
 * key chunk decode + binary search), stop at the first run holding a version
 * of the key, then fetch the row's value column (run_fetch_row).
 * Two shapes of 10 runs (bigint key, bigint value, LZ4, 64K-row groups):
 *   interleaved — N keys, each in one of 10 runs chosen at random (every run
 *                 spans the whole key range: only the bloom filters stop a
 *                 probe; on average 5.5 runs reached per hit);
 *   updates     — a base run with all N keys plus 9 newer runs, each
 *                 rewriting 1% of the keys (a hit is usually in the last
 *                 run probed, after 9 bloom misses).
 * Plus misses (keys absent from every run) in the interleaved shape.
 * Latencies are wall time per lookup (CLOCK_MONOTONIC; the machine is shared,
 * so p99 includes other processes' interference), files in the page cache.
 *
 * usage: runs_bench_lookup [rows] [lookups] [dir]   (defaults 4000000 200000 /tmp)
 */
#define STRATA_RUNS_INTERNAL
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "common/error.h"
#include "storage/runs/run_int.h"

#define NRUNS 10

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static const SqlType types[2] = {{TYPE_INT8, -1}, {TYPE_INT8, -1}};
static int key_col = 0;

typedef struct Rows {
    int64_t *key, *val;
    uint64_t n;
    uint64_t ver;
} Rows;

static RunReader *write_rows(const char *path, const Rows *r)
{
    RunSchema sc = {2, types, 1, &key_col};
    RunWriteOptions o = {.compression = RUN_COMP_LZ4, .no_fsync = true};
    RunWriter *w = run_writer_create(path, &sc, &o);
    MemArena *a = mem_arena_create("w");
    Batch *b = batch_create(a, 2, types);
    uint64_t vers[VEC_CAPACITY];
    for (int i = 0; i < VEC_CAPACITY; i++)
        vers[i] = r->ver;
    for (uint64_t s = 0; s < r->n; s += VEC_CAPACITY) {
        uint32_t k = r->n - s < VEC_CAPACITY ? (uint32_t)(r->n - s) : VEC_CAPACITY;
        memcpy(b->cols[0].data, r->key + s, k * 8);
        memcpy(b->cols[1].data, r->val + s, k * 8);
        b->count = k;
        run_writer_append(w, b, vers, NULL);
    }
    run_writer_finish(w, NULL);
    mem_arena_destroy(a);
    return run_open(path);
}

/* Look key up in runs[0..n) newest (highest index) first; returns the value
 * or -1 when absent; *probed counts the runs whose lookup was called. */
static int64_t lookup(RunReader **runs, int n, int64_t key, MemArena *scratch, int *probed)
{
    Value k = {.u.i64 = key};
    int col = 1;
    for (int i = n - 1; i >= 0; i--) {
        uint64_t row, ver;
        bool del;
        (*probed)++;
        if (run_lookup(runs[i], &k, UINT64_MAX - 1, scratch, &row, &ver, &del)) {
            if (del)
                return -1;
            Value out;
            run_fetch_row(runs[i], row, 1, &col, scratch, &out);
            return out.u.i64;
        }
    }
    return -1;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Time `lookups` lookups of keys from key_of(i); check each against want(). */
static void measure(const char *name, RunReader **runs, int64_t nkeys, int lookups, bool misses,
                    const int64_t *truth)
{
    MemArena *scratch = mem_arena_create("lookup");
    double *lat = malloc(sizeof(double) * (size_t)lookups);
    int probed = 0;
    for (int i = 0; i < lookups; i++) {
        int64_t key = (int64_t)(rnd() % (uint64_t)nkeys) * 2 + (misses ? 1 : 0);
        double t0 = now_ns();
        int64_t v = lookup(runs, NRUNS, key, scratch, &probed);
        lat[i] = now_ns() - t0;
        mem_arena_reset(scratch);
        int64_t want = misses ? -1 : truth[key / 2];
        if (v != want) {
            fprintf(stderr, "%s: key %lld gave %lld, want %lld\n", name, (long long)key,
                    (long long)v, (long long)want);
            exit(1);
        }
    }
    qsort(lat, (size_t)lookups, sizeof(double), cmp_d);
    printf("(e) %-18s %d lookups over %d runs: p50 %.1f us, p99 %.1f us, mean runs probed %.2f\n",
           name, lookups, NRUNS, lat[lookups / 2] / 1e3, lat[(size_t)(lookups * 0.99)] / 1e3,
           (double)probed / lookups);
    free(lat);
    mem_arena_destroy(scratch);
}

/* Keys are even numbers 0, 2, ... 2(n-1), so odd keys are guaranteed misses
 * that still fall inside every run's key range. */
static void shape(const char *name, const char *dir, int64_t n, int lookups, bool updates)
{
    Rows parts[NRUNS];
    int64_t *truth = malloc(sizeof(int64_t) * (size_t)n);
    for (int i = 0; i < NRUNS; i++) {
        parts[i].key = malloc(sizeof(int64_t) * (size_t)n);
        parts[i].val = malloc(sizeof(int64_t) * (size_t)n);
        parts[i].n = 0;
        parts[i].ver = (uint64_t)i + 1;
    }
    for (int64_t k = 0; k < n; k++) {
        if (updates) {
            truth[k] = k;
            parts[0].key[parts[0].n] = 2 * k;
            parts[0].val[parts[0].n++] = k;
            for (int i = 1; i < NRUNS; i++) {
                if (rnd() % 100 == 0) {
                    truth[k] = k * 1000 + i;
                    parts[i].key[parts[i].n] = 2 * k;
                    parts[i].val[parts[i].n++] = truth[k];
                }
            }
        } else {
            int i = (int)(rnd() % NRUNS);
            truth[k] = k * 7;
            parts[i].key[parts[i].n] = 2 * k;
            parts[i].val[parts[i].n++] = truth[k];
        }
    }
    RunReader *runs[NRUNS];
    char path[512];
    for (int i = 0; i < NRUNS; i++) {
        snprintf(path, sizeof path, "%s/lookup-%s%d.run", dir, name, i);
        runs[i] = write_rows(path, &parts[i]);
    }
    char label[64];
    snprintf(label, sizeof label, "%s hits", name);
    measure(label, runs, n, lookups, false, truth);
    if (!updates) {
        snprintf(label, sizeof label, "%s misses", name);
        measure(label, runs, n, lookups, true, truth);
    }
    for (int i = 0; i < NRUNS; i++) {
        snprintf(path, sizeof path, "%s/lookup-%s%d.run", dir, name, i);
        run_close(runs[i]);
        unlink(path);
        free(parts[i].key);
        free(parts[i].val);
    }
    free(truth);
}

int main(int argc, char **argv)
{
    int64_t n = argc > 1 ? atoll(argv[1]) : 4000000;
    int lookups = argc > 2 ? atoi(argv[2]) : 200000;
    const char *dir = argc > 3 ? argv[3] : "/tmp";
    if (n < 1 || lookups < 1) {
        fprintf(stderr, "usage: runs_bench_lookup [rows] [lookups] [dir]\n");
        return 2;
    }
    shape("interleaved", dir, n, lookups, false);
    shape("updates", dir, n, lookups, true);
    return 0;
}
