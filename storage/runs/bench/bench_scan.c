/*
 * bench_scan.c — issue 3 benchmark (c): full-scan sum over N bigint values
 * (default 100M) stored in one run file, against the same values in a plain
 * in-memory array. The run has a hidden row id key (0..N-1) and one bigint
 * column of random values in [0, 10^6) (FOR bit-packed, 20 bits, then LZ4
 * when it pays). Three scans of the file, each summing the column:
 *   chunks  — decode each row group's chunk, read it as 2048-row vectors;
 *   merge   — the merge API (one source: concatenation, skip_versions:
 *             clean row groups pass through without decoding keys) + gather
 *             per batch, the path a table scan takes;
 * and the array sum. The file is read from the page cache (warm).
 *
 * usage: runs_bench_scan [rows] [dir] [reps]   (defaults 100000000 /tmp 3)
 */
#define STRATA_RUNS_INTERNAL
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "common/error.h"
#include "storage/runs/run_int.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts); /* CPU time: robust on a shared machine */
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* Decode each group's chunk into buffers allocated once (as a scan
 * operator would), read it as 2048-row vectors. */
static int64_t scan_chunks(RunReader *r, MemArena *a)
{
    int64_t sum = 0;
    Vector v;
    vec_init(&v, (SqlType){TYPE_INT8, -1}, a);
    void *values = mem_alloc(a, (size_t)r->max_group_rows * 8 + 8);
    uint64_t *validity = mem_alloc(a, ((size_t)r->max_group_rows + 63) / 64 * 8);
    uint8_t *raw = mem_alloc(a, (size_t)r->max_raw_len + 8);
    for (uint32_t g = 0; g < run_group_count(r); g++) {
        RunChunk c;
        run__chunk_decode(r, g, 1, values, validity, raw, &c);
        for (uint32_t s = 0; s < c.count; s += VEC_CAPACITY) {
            uint32_t n = c.count - s < VEC_CAPACITY ? c.count - s : VEC_CAPACITY;
            run_chunk_to_vector(&c, s, n, &v);
            const int64_t *d = v.data;
            for (uint32_t i = 0; i < n; i++)
                sum += d[i];
        }
    }
    return sum;
}

static int64_t scan_merge(RunReader *r)
{
    MemArena *a = mem_arena_create("merge");
    MergeSource *s = run_merge_source(r, NULL, a);
    PhysType kt = PHYS_I64;
    MergeOptions o = {.snapshot = UINT64_MAX, .skip_versions = true};
    Merge *m = merge_create(&s, 1, 1, &kt, &o, a);
    Vector v;
    vec_init(&v, (SqlType){TYPE_INT8, -1}, a);
    int col = 1;
    MergeBatch b;
    int64_t sum = 0;
    while (merge_next(m, &b)) {
        merge_gather(m, &b, 1, &col, &v, NULL);
        const int64_t *d = v.data;
        for (uint32_t i = 0; i < b.count; i++)
            sum += d[i];
    }
    mem_arena_destroy(a);
    return sum;
}

int main(int argc, char **argv)
{
    uint64_t n = argc > 1 ? (uint64_t)atoll(argv[1]) : 100000000ull;
    const char *base = argc > 2 ? argv[2] : "/tmp";
    char path[512];
    snprintf(path, sizeof path, "%s/strata-bench-scan-%d.run", base, (int)getpid());
    int64_t *arr = malloc(n * 8);
    for (uint64_t i = 0; i < n; i++)
        arr[i] = (int64_t)(rnd() % 1000000);

    SqlType t[2] = {{TYPE_INT8, -1}, {TYPE_INT8, -1}};
    int key = 0;
    RunSchema sc = {2, t, 1, &key};
    RunWriteOptions o = {.compression = RUN_COMP_LZ4, .no_fsync = true};
    MemArena *a = mem_arena_create("bench");
    Batch *b = batch_create(a, 2, t);
    uint64_t *vers = malloc(VEC_CAPACITY * 8);
    for (int i = 0; i < VEC_CAPACITY; i++)
        vers[i] = 1;
    double t0 = now_s();
    RunWriter *w = run_writer_create(path, &sc, &o);
    for (uint64_t s = 0; s < n; s += VEC_CAPACITY) {
        uint32_t k = n - s < VEC_CAPACITY ? (uint32_t)(n - s) : VEC_CAPACITY;
        for (uint32_t i = 0; i < k; i++)
            ((int64_t *)b->cols[0].data)[i] = (int64_t)(s + i);
        memcpy(b->cols[1].data, arr + s, k * 8);
        b->count = k;
        run_writer_append(w, b, vers, NULL);
    }
    RunInfo info;
    run_writer_finish(w, &info);
    double t_write = now_s() - t0;
    printf("(c) wrote %llu rows in %.2f s (%.1f M rows/s), file %.1f MB (%.2f bytes/row)\n",
           (unsigned long long)n, t_write, n / t_write / 1e6, info.file_bytes / 1e6,
           (double)info.file_bytes / (double)n);

    RunReader *r = run_open(path);
    double best_arr = 1e9, best_chunks = 1e9, best_merge = 1e9;
    int64_t s_arr = 0, s_chunks = 0, s_merge = 0;
    int reps = argc > 3 ? atoi(argv[3]) : 3;
    for (int rep = 0; rep < reps; rep++) {
        t0 = now_s();
        int64_t s = 0;
        for (uint64_t i = 0; i < n; i++)
            s += arr[i];
        s_arr = s;
        double t = now_s() - t0;
        best_arr = t < best_arr ? t : best_arr;
        t0 = now_s();
        s_chunks = scan_chunks(r, a);
        t = now_s() - t0;
        best_chunks = t < best_chunks ? t : best_chunks;
        t0 = now_s();
        s_merge = scan_merge(r);
        t = now_s() - t0;
        best_merge = t < best_merge ? t : best_merge;
    }
    if (s_arr != s_chunks || s_arr != s_merge) {
        fprintf(stderr, "sums differ: %lld %lld %lld\n", (long long)s_arr, (long long)s_chunks,
                (long long)s_merge);
        return 1;
    }
    printf("(c) sum of %llu bigint: array %.3f s, run (chunks) %.3f s = %.2fx, "
           "run (merge+gather) %.3f s = %.2fx\n", (unsigned long long)n, best_arr, best_chunks,
           best_chunks / best_arr, best_merge, best_merge / best_arr);
    run_close(r);
    unlink(path);
    free(arr);
    free(vers);
    mem_arena_destroy(a);
    return 0;
}
