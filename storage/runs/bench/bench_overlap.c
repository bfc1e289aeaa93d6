/*
 * bench_overlap.c — issue 3 benchmark (d): scan (sum of a bigint column) of
 * a table stored as 8 overlapping runs, against the same table compacted
 * into one run. Two shapes of 8 runs:
 *   interleaved — N keys, each in one of 8 runs chosen at random (every run
 *                 spans the whole key range; the worst case for a merge);
 *   updates     — a base run with all N keys plus 7 runs of updates, each
 *                 rewriting 1% of the keys at random (the usual LSM shape:
 *                 recent small runs over a big old one).
 * The compacted run is made with run_compact (ZSTD level 3; time printed).
 * Scans use the merge API with skip_versions, unordered (a sum needs no key
 * order) and gather_only (no positions read), gathering one column; the 8 runs carry shadow lists
 * (run_shadows_build, built once per shape, time printed), so the 8-run scan
 * reads the runs one after another and drops shadowed rows by the lists.
 * Times are thread CPU time, the median of `reps` repetitions (the machine
 * is shared). Then the shadow lists are switched off (run__merge_off,
 * run_int.h: the k-way merge by key runs instead, as before them), and each
 * optimisation of that merge that has a switch is turned off alone on top,
 * so every line says what it buys, measured in the same run.
 *
 * usage: runs_bench_overlap [rows] [dir] [shape] [reps] [off]
 *        (defaults 8000000 /tmp all 7; shape: all, interleaved, updates;
 *        off: time only the 8-run scan with run__merge_off = off, e.g. under
 *        valgrind --tool=callgrind --toggle-collect=scan)
 */
#define STRATA_RUNS_INTERNAL
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "common/error.h"
#include "storage/runs/run_int.h"

#define NRUNS 8

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof(double), cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

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

static int64_t scan(RunReader **runs, int n, const RunShadows *sh, uint64_t *rows, bool gather)
{
    MemArena *a = mem_arena_create("scan");
    MergeSource *src[NRUNS];
    for (int i = 0; i < n; i++) {
        src[i] = run_merge_source(runs[i], NULL, a);
        src[i]->shadow = run_shadows_of(sh, runs[i]);
    }
    PhysType kt = PHYS_I64;
    MergeOptions o = {.snapshot = UINT64_MAX, .skip_versions = true, .unordered = true,
                      .gather_only = true};
    Merge *m = merge_create(src, n, 1, &kt, &o, a);
    Vector v;
    vec_init(&v, types[1], a);
    int col = 1;
    MergeBatch b;
    int64_t sum = 0;
    *rows = 0;
    while (merge_next(m, &b)) {
        *rows += b.count;
        if (!gather)
            continue;
        merge_gather(m, &b, 1, &col, &v, NULL);
        const int64_t *d = v.data;
        for (uint32_t i = 0; i < b.count; i++)
            sum += d[i];
    }
    mem_arena_destroy(a);
    return sum;
}

#define REPS_MAX 101
static int reps = 7;
static long only_off = -1; /* >= 0: time only the 8-run scan with this run__merge_off */

/* Median CPU time of the 8-run scan with run__merge_off = off; checks the
 * result against the compacted scan's. */
static double time_merged(RunReader **runs, const RunShadows *sh, unsigned off, bool gather,
                          int64_t want_sum, uint64_t want_rows, const char *name)
{
    double t[REPS_MAX];
    run__merge_off = off;
    for (int rep = 0; rep < reps; rep++) {
        uint64_t rows;
        double t0 = now_s();
        int64_t sum = scan(runs, NRUNS, sh, &rows, gather);
        t[rep] = now_s() - t0;
        if (rows != want_rows || (gather && sum != want_sum)) {
            fprintf(stderr, "%s: results differ (off %#x)\n", name, off);
            exit(1);
        }
    }
    run__merge_off = 0;
    return median(t, reps);
}

static const struct {
    unsigned bit;
    const char *what;
} switches[] = {
    {RUN_MERGE_OFF_RECENCY, "recency ties (no version/flag chunks)"},
    {RUN_MERGE_OFF_DIRECT, "direct stretches (no staging)"},
    {RUN_MERGE_OFF_SPLIT, "small runs pre-merged"},
    {RUN_MERGE_OFF_PREWIN, "window rounds (head scans instead)"},
    {RUN_MERGE_OFF_SPANS, "span gather (memcpy stretches)"},
};

static void run_shape(const char *name, Rows *parts, const char *dir)
{
    RunReader *runs[NRUNS];
    char path[512];
    for (int i = 0; i < NRUNS; i++) {
        snprintf(path, sizeof path, "%s/%s%d.run", dir, name, i);
        runs[i] = write_rows(path, &parts[i]);
    }
    snprintf(path, sizeof path, "%s/%s-compacted.run", dir, name);
    RunWriteOptions o = {.compression = RUN_COMP_ZSTD, .zstd_level = 3, .no_fsync = true};
    double t0 = now_s();
    RunInfo info;
    run_compact(runs, NRUNS, run_schema(runs[0]), path, &o, UINT64_MAX - 1, true, &info);
    double t_compact = now_s() - t0;
    RunReader *c = run_open(path);
    double tc[REPS_MAX];
    uint64_t rows_c = 0;
    int64_t sum_c = 0;
    for (int rep = 0; rep < reps; rep++) {
        t0 = now_s();
        sum_c = scan(&c, 1, NULL, &rows_c, true);
        tc[rep] = now_s() - t0;
    }
    double med_c = median(tc, reps);
    t0 = now_s();
    RunShadows *sh = run_shadows_build(runs, NRUNS);
    double t_shadow = now_s() - t0;
    if (!sh) {
        fprintf(stderr, "%s: no shadow lists (version ranges overlap)\n", name);
        exit(1);
    }
    if (only_off >= 0) {
        double t = time_merged(runs, sh, (unsigned)only_off, true, sum_c, rows_c, name);
        printf("(d) %-11s 8 runs with run__merge_off %#lx: %.4f s, compacted %.4f s, ratio %.2f\n",
               name, only_off, t, med_c, t / med_c);
        goto out;
    }
    const unsigned ord = RUN_MERGE_OFF_SHADOW; /* the ordered k-way merge */
    /* the headline pair, alternating (compacted, 8 runs) in every
     * repetition so that both meet the same load: medians of each and the
     * median of the per-repetition ratios */
    double ts[REPS_MAX], tr[REPS_MAX];
    for (int rep = 0; rep < reps; rep++) {
        uint64_t rows;
        t0 = now_s();
        scan(&c, 1, NULL, &rows, true);
        tc[rep] = now_s() - t0;
        t0 = now_s();
        int64_t sum = scan(runs, NRUNS, sh, &rows, true);
        ts[rep] = now_s() - t0;
        tr[rep] = ts[rep] / tc[rep];
        if (rows != rows_c || sum != sum_c) {
            fprintf(stderr, "%s: results differ\n", name);
            exit(1);
        }
    }
    med_c = median(tc, reps);
    double med_s = median(ts, reps), med_r = median(tr, reps);
    double med_p = time_merged(runs, sh, 0, false, sum_c, rows_c, name);
    double med_m = time_merged(runs, sh, ord, true, sum_c, rows_c, name);
    double med_k = time_merged(runs, sh, ord, false, sum_c, rows_c, name);
    uint64_t entries = 0;
    for (int i = 0; i < NRUNS; i++)
        entries += parts[i].n;
    printf("(d) %-11s %llu rows (%llu entries in %d runs): 8 runs %.4f s (merge alone "
           "%.4f s), compacted %.4f s, ratio %.2f (median of ratios %.2f; shadow lists: %llu rows, %.1f MB, built in %.3f s; compaction %.2f s, "
           "%.1f MB; median of %d)\n", name, (unsigned long long)rows_c,
           (unsigned long long)entries, NRUNS, med_s, med_p, med_c, med_s / med_c, med_r,
           (unsigned long long)run_shadows_rows(sh), run_shadows_bytes(sh) / 1e6, t_shadow,
           t_compact, info.file_bytes / 1e6, reps);
    printf("(d) %-11s   without shadow lists (k-way merge)            %.4f s, ratio %.2f: they buy "
           "%.2fx (keys merge alone %.4f s)\n", name, med_m, med_m / med_c, med_m / med_s, med_k);
    for (size_t i = 0; i < sizeof switches / sizeof switches[0]; i++) {
        double off = time_merged(runs, sh, ord | switches[i].bit, true, sum_c, rows_c, name);
        printf("(d) %-11s   k-way merge without %-38s %.4f s, ratio %.2f: it buys %.2fx\n",
               name, switches[i].what, off, off / med_c, off / med_m);
    }
    double all = time_merged(runs, sh, ~0u, true, sum_c, rows_c, name);
    printf("(d) %-11s   without all of them%*s %.4f s, ratio %.2f\n", name, 28, "", all,
           all / med_c);
out:
    run_shadows_destroy(sh);
    for (int i = 0; i < NRUNS; i++) {
        snprintf(path, sizeof path, "%s/%s%d.run", dir, name, i);
        run_close(runs[i]);
        unlink(path);
    }
    snprintf(path, sizeof path, "%s/%s-compacted.run", dir, name);
    run_close(c);
    unlink(path);
}

int main(int argc, char **argv)
{
    uint64_t n = argc > 1 ? (uint64_t)atoll(argv[1]) : 8000000ull;
    char dir[600];
    snprintf(dir, sizeof dir, "%s/strata-bench-overlap-XXXXXX", argc > 2 ? argv[2] : "/tmp");
    const char *shape = argc > 3 ? argv[3] : "all";
    reps = argc > 4 ? atoi(argv[4]) : 7;
    reps = reps < 1 ? 1 : reps > REPS_MAX ? REPS_MAX : reps;
    only_off = argc > 5 ? strtol(argv[5], NULL, 0) : -1;
    if (!mkdtemp(dir))
        return 1;
    Rows parts[NRUNS];
    /* interleaved */
    for (int i = 0; i < NRUNS; i++) {
        parts[i] = (Rows){malloc(n * 8), malloc(n * 8), 0, (uint64_t)i + 1};
    }
    for (uint64_t k = 0; k < n; k++) {
        Rows *p = &parts[rnd() % NRUNS];
        p->key[p->n] = (int64_t)k;
        p->val[p->n++] = (int64_t)(rnd() % 1000000);
    }
    if (strcmp(shape, "updates") != 0)
        run_shape("interleaved", parts, dir);
    /* updates: base + 7 runs of 1% updates (sorted, distinct keys per run) */
    parts[0].n = n;
    parts[0].ver = 1;
    for (uint64_t k = 0; k < n; k++) {
        parts[0].key[k] = (int64_t)k;
        parts[0].val[k] = (int64_t)(rnd() % 1000000);
    }
    for (int i = 1; i < NRUNS; i++) {
        parts[i].n = 0;
        parts[i].ver = (uint64_t)i + 1;
        for (uint64_t k = 0; k < n; k++)
            if (rnd() % 100 == 0) {
                parts[i].key[parts[i].n] = (int64_t)k;
                parts[i].val[parts[i].n++] = (int64_t)(rnd() % 1000000);
            }
    }
    if (strcmp(shape, "interleaved") != 0)
        run_shape("updates", parts, dir);
    rmdir(dir);
    for (int i = 0; i < NRUNS; i++) {
        free(parts[i].key);
        free(parts[i].val);
    }
    return 0;
}
