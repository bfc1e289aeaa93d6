/*
 * bench_merge.c — issue 3 benchmark (a), the turbopuffer experiment: merge
 * 100k keys spread over 64 sorted runs, (1) with a per-entry iterator (one
 * next() call per entry through a function pointer, a binary heap of
 * iterators) and (2) with the batched merge of merge.c (loser tree over
 * columnar key blocks, batches of positions). Both resolve versions (newest
 * visible wins) and produce (source, row) positions.
 *
 * Two settings: "memory" (keys already decoded: the merge algorithms alone)
 * and "files" (64 LZ4 run files: decoding the key, version and deleted
 * chunks included). Prints the median of many repetitions.
 *
 * Key placement: clusters of C consecutive keys go to a random run; C = 1
 * (every key placed on its own: the worst interleaving) and C = 512 (runs
 * that overlap in range but hold long stretches, like time-ordered data).
 *
 * usage: runs_bench_merge [keys] [runs] [reps] [cluster]
 *        (defaults 100000 64 200; both clusterings when cluster is absent)
 */
#define STRATA_RUNS_INTERNAL
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "common/error.h"
#include "storage/runs/run_int.h"

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts); /* CPU time: robust on a shared machine */
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* ---------------------------------------------------------------- data */

typedef struct Src {
    int64_t *keys;
    uint64_t *vers;
    bool *del;
    uint32_t n;
} Src;

/* ---------------------------------------------------------------- baseline */

typedef struct Iter Iter;
struct Iter {
    bool (*next)(Iter *it, int64_t *key, uint64_t *ver, bool *del, uint64_t *row);
    const Src *s;
    uint32_t pos;
    /* the head entry */
    int64_t key;
    uint64_t ver, row;
    bool del;
    int idx;
};

static bool array_next(Iter *it, int64_t *key, uint64_t *ver, bool *del, uint64_t *row)
{
    if (it->pos >= it->s->n)
        return false;
    *key = it->s->keys[it->pos];
    *ver = it->s->vers[it->pos];
    *del = it->s->del[it->pos];
    *row = it->pos++;
    return true;
}

static bool iter_less(const Iter *a, const Iter *b)
{
    if (a->key != b->key)
        return a->key < b->key;
    return a->ver > b->ver;
}

static void sift_down(Iter **h, int n, int i)
{
    for (;;) {
        int l = 2 * i + 1, r = l + 1, m = i;
        if (l < n && iter_less(h[l], h[m])) m = l;
        if (r < n && iter_less(h[r], h[m])) m = r;
        if (m == i) return;
        Iter *t = h[i]; h[i] = h[m]; h[m] = t;
        i = m;
    }
}

/* Per-entry merge; returns entries emitted (positions written to out). */
static uint32_t merge_per_entry(Iter *its, int n, uint16_t *out_src, uint64_t *out_row)
{
    Iter *heap[1024];
    int hn = 0;
    for (int i = 0; i < n; i++)
        if (its[i].next(&its[i], &its[i].key, &its[i].ver, &its[i].del, &its[i].row))
            heap[hn++] = &its[i];
    for (int i = hn / 2 - 1; i >= 0; i--)
        sift_down(heap, hn, i);
    uint32_t out = 0;
    bool have_last = false;
    int64_t last = 0;
    while (hn > 0) {
        Iter *t = heap[0];
        if (!have_last || t->key != last) { /* newest version of a new key */
            if (!t->del) {
                out_src[out] = (uint16_t)t->idx;
                out_row[out++] = t->row;
            }
            last = t->key;
            have_last = true;
        }
        if (!t->next(t, &t->key, &t->ver, &t->del, &t->row))
            heap[0] = heap[--hn];
        sift_down(heap, hn, 0);
    }
    return out;
}

/* ---------------------------------------------------------------- batched, memory */

static bool mem_next(void *ctx, MergeKeys *out)
{
    Src *s = *(Src **)ctx;
    if (!s || s->n == 0)
        return false;
    *(Src **)ctx = NULL;
    *out = (MergeKeys){.count = s->n, .keys = {s->keys}, .versions = s->vers, .deleted = s->del};
    return true;
}
static void mem_gather(void *ctx, int col, const uint64_t *rows, const uint16_t *idx, uint32_t n,
                       Vector *out, MemArena *a)
{
    (void)ctx; (void)col; (void)rows; (void)idx; (void)n; (void)out; (void)a;
}
static const MergeSourceOps mem_ops = {.next_keys = mem_next, .gather = mem_gather};

static uint32_t merge_batched(MergeSource **src, int n, MemArena *a)
{
    PhysType kt = PHYS_I64;
    MergeOptions o = {.snapshot = UINT64_MAX, .batch_max = 1024};
    Merge *m = merge_create(src, n, 1, &kt, &o, a);
    MergeBatch b;
    uint32_t total = 0;
    while (merge_next(m, &b))
        total += b.count;
    return total;
}

/* ---------------------------------------------------------------- files */

static void write_run(const char *path, const Src *s)
{
    SqlType t[2] = {{TYPE_INT8, -1}, {TYPE_INT8, -1}};
    int key = 0;
    RunSchema sc = {2, t, 1, &key};
    RunWriteOptions o = {.compression = RUN_COMP_LZ4, .no_fsync = true};
    RunWriter *w = run_writer_create(path, &sc, &o);
    MemArena *a = mem_arena_create("w");
    Batch *b = batch_create(a, 2, t);
    for (uint32_t i = 0; i < s->n; i += VEC_CAPACITY) {
        uint32_t k = s->n - i < VEC_CAPACITY ? s->n - i : VEC_CAPACITY;
        memcpy(b->cols[0].data, s->keys + i, k * 8);
        memcpy(b->cols[1].data, s->keys + i, k * 8);
        b->count = k;
        run_writer_append(w, b, s->vers + i, s->del + i);
    }
    run_writer_finish(w, NULL);
    mem_arena_destroy(a);
}

/* Per-entry iterator over a run file: decodes a group's key/version/deleted
 * chunks (the deleted one only when the zone map says the group has a
 * tombstone, as the batched merge's run source does), then hands out one
 * entry per next() call. */
typedef struct FileIter {
    Iter it;
    RunReader *r;
    MemArena *a;
    uint32_t g;
    RunChunk kc, vc, dc;
    bool no_del;
    uint32_t pos;
    Src view;
} FileIter;

static bool file_next(Iter *it, int64_t *key, uint64_t *ver, bool *del, uint64_t *row)
{
    FileIter *f = (FileIter *)it;
    if (f->pos >= f->kc.count) {
        if (f->g >= run_group_count(f->r))
            return false;
        mem_arena_reset(f->a);
        run_chunk_read(f->r, f->g, 0, f->a, &f->kc);
        run_chunk_read(f->r, f->g, 2, f->a, &f->vc);
        RunZone dz;
        run_group_zone(f->r, f->g, 3, &dz);
        f->no_del = dz.has_minmax && !dz.max.u.b;
        if (!f->no_del)
            run_chunk_read(f->r, f->g, 3, f->a, &f->dc);
        f->g++;
        f->pos = 0;
    }
    *key = ((const int64_t *)f->kc.values)[f->pos];
    *ver = ((const uint64_t *)f->vc.values)[f->pos];
    *del = !f->no_del && ((const bool *)f->dc.values)[f->pos];
    *row = f->pos++;
    return true;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof(double), cmp_double);
    return v[n / 2];
}

static int run_case(uint32_t nkeys, int nruns, int reps, uint32_t cluster);

int main(int argc, char **argv)
{
    uint32_t nkeys = argc > 1 ? (uint32_t)atol(argv[1]) : 100000;
    int nruns = argc > 2 ? atoi(argv[2]) : 64;
    int reps = argc > 3 ? atoi(argv[3]) : 200;
    if (argc > 4)
        return run_case(nkeys, nruns, reps, (uint32_t)atol(argv[4]));
    return run_case(nkeys, nruns, reps, 1) || run_case(nkeys, nruns, reps, 512);
}

/* Keys go to runs in clusters of `cluster` consecutive keys, each cluster to
 * a random run: 1 = every key on its own (the worst interleaving). */
static int run_case(uint32_t nkeys, int nruns, int reps, uint32_t cluster)
{
    Src *src = calloc((size_t)nruns, sizeof(Src));
    for (int r = 0; r < nruns; r++) {
        src[r].keys = malloc(nkeys * 8);
        src[r].vers = malloc(nkeys * 8);
        src[r].del = calloc(nkeys, 1);
    }
    Src *s = NULL;
    for (uint32_t k = 0; k < nkeys; k++) { /* clusters to random runs, in key order */
        if (k % cluster == 0)
            s = &src[rnd() % (uint64_t)nruns];
        s->keys[s->n] = k;
        s->vers[s->n++] = 1;
    }
    uint16_t *osrc = malloc(nkeys * 2);
    uint64_t *orow = malloc(nkeys * 8);
    double *t1 = malloc(sizeof(double) * (size_t)reps), *t2 = malloc(sizeof(double) * (size_t)reps);
    Iter *its = calloc((size_t)nruns, sizeof(Iter));
    MemArena *a = mem_arena_create("bench");
    uint32_t got1 = 0, got2 = 0;
    for (int rep = 0; rep < reps; rep++) {
        for (int r = 0; r < nruns; r++)
            its[r] = (Iter){.next = array_next, .s = &src[r], .idx = r};
        double t = now_us();
        got1 = merge_per_entry(its, nruns, osrc, orow);
        t1[rep] = now_us() - t;
        mem_arena_reset(a);
        MergeSource **ms = mem_alloc(a, sizeof(MergeSource *) * (size_t)nruns);
        for (int r = 0; r < nruns; r++) {
            Src **ctx = mem_alloc(a, sizeof(Src *));
            *ctx = &src[r];
            ms[r] = MEM_NEW(a, MergeSource);
            *ms[r] = (MergeSource){.ops = &mem_ops, .ctx = ctx};
        }
        t = now_us();
        got2 = merge_batched(ms, nruns, a);
        t2[rep] = now_us() - t;
    }
    if (got1 != nkeys || got2 != nkeys) {
        fprintf(stderr, "wrong counts %u %u\n", got1, got2);
        return 1;
    }
    double m1 = median(t1, reps), m2 = median(t2, reps);
    printf("(a) merge %u keys over %d runs (clusters of %u), keys in memory: per-entry iterator "
           "%.0f us, batched %.0f us, ratio %.1fx\n", nkeys, nruns, cluster, m1, m2, m1 / m2);

    /* the same from run files */
    char dir[] = "/tmp/strata-bench-merge-XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    RunReader **rd = malloc(sizeof(RunReader *) * (size_t)nruns);
    for (int r = 0; r < nruns; r++) {
        char path[300];
        snprintf(path, sizeof path, "%s/r%d.run", dir, r);
        write_run(path, &src[r]);
        rd[r] = run_open(path);
    }
    FileIter *fit = calloc((size_t)nruns, sizeof(FileIter));
    for (int r = 0; r < nruns; r++)
        fit[r].a = mem_arena_create("it");
    for (int rep = 0; rep < reps; rep++) {
        for (int r = 0; r < nruns; r++) {
            MemArena *keep = fit[r].a;
            memset(&fit[r], 0, sizeof fit[r]);
            fit[r].a = keep;
            fit[r].r = rd[r];
            fit[r].it = (Iter){.next = file_next, .idx = r};
        }
        Iter *ip[1024];
        for (int r = 0; r < nruns; r++)
            ip[r] = &fit[r].it;
        double t = now_us();
        /* merge_per_entry takes an array of Iter: copy pointers' targets in place */
        {
            Iter *heap[1024];
            int hn = 0;
            for (int i = 0; i < nruns; i++)
                if (ip[i]->next(ip[i], &ip[i]->key, &ip[i]->ver, &ip[i]->del, &ip[i]->row))
                    heap[hn++] = ip[i];
            for (int i = hn / 2 - 1; i >= 0; i--)
                sift_down(heap, hn, i);
            uint32_t out = 0;
            int64_t last = -1;
            while (hn > 0) {
                Iter *x = heap[0];
                if (x->key != last) {
                    if (!x->del) {
                        osrc[out] = (uint16_t)x->idx;
                        orow[out++] = x->row;
                    }
                    last = x->key;
                }
                if (!x->next(x, &x->key, &x->ver, &x->del, &x->row))
                    heap[0] = heap[--hn];
                sift_down(heap, hn, 0);
            }
            got1 = out;
        }
        t1[rep] = now_us() - t;
        mem_arena_reset(a);
        MergeSource **ms = mem_alloc(a, sizeof(MergeSource *) * (size_t)nruns);
        for (int r = 0; r < nruns; r++) /* opening the sources is not timed */
            ms[r] = run_merge_source(rd[r], NULL, a);
        t = now_us();
        got2 = merge_batched(ms, nruns, a);
        t2[rep] = now_us() - t;
    }
    if (got1 != nkeys || got2 != nkeys) {
        fprintf(stderr, "wrong counts %u %u\n", got1, got2);
        return 1;
    }
    m1 = median(t1, reps);
    m2 = median(t2, reps);
    printf("(a) merge %u keys over %d run files (clusters of %u; LZ4, decode included): per-entry "
           "iterator %.0f us, batched %.0f us, ratio %.1fx\n", nkeys, nruns, cluster, m1, m2, m1 / m2);
    for (int r = 0; r < nruns; r++) {
        char path[300];
        snprintf(path, sizeof path, "%s/r%d.run", dir, r);
        run_close(rd[r]);
        unlink(path);
        mem_arena_destroy(fit[r].a);
    }
    rmdir(dir);
    for (int r = 0; r < nruns; r++) {
        free(src[r].keys);
        free(src[r].vers);
        free(src[r].del);
    }
    free(src);
    free(osrc);
    free(orow);
    free(t1);
    free(t2);
    free(its);
    free(rd);
    free(fit);
    mem_arena_destroy(a);
    return 0;
}
