/*
 * test_storage_runs_merge.c — the scan fast paths of the batched merge
 * (storage/runs/merge.c, RUNS.md "The batched merge") against a naive model:
 * recency ties (equal keys ordered by source, versions never read) when the
 * sources' version ranges don't overlap, the direct path, the split of a big
 * source against the small ones pre-merged, and span gathers. Every case
 * also runs with all of them switched off (run__merge_off) and must give the
 * same rows; and each asserts which path the merge took, so a fast path
 * that silently stopped applying fails here.
 */
#define STRATA_RUNS_INTERNAL
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "common/error.h"
#include "common/vector.h"
#include "storage/runs/run_int.h"

static char dir[256];
static MemArena *arena;

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/strata-test-runs-merge-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    arena = mem_arena_create("test");
}

static void teardown(void)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    mem_arena_destroy(arena);
    run__merge_off = 0;
}

TestSuite(runs_merge, .init = setup, .fini = teardown);

static uint64_t rng_state = 0x5DEECE66Dull;
static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

#include "runs_model.h"

/* A scan (skip_versions) of the runs through the merge; checks every row
 * (key, value, text and its NULLs) against want; returns the merge's plan. */
static unsigned scan_check(RunReader **runs, int nruns, uint64_t snap, const Ent *want,
                           uint32_t nwant)
{
    MemArena *a = mem_arena_create("merge");
    MergeSource *src[16];
    for (int i = 0; i < nruns; i++)
        src[i] = run_merge_source(runs[i], NULL, a);
    PhysType kt = PHYS_I64;
    MergeOptions o = {.snapshot = snap, .skip_versions = true,
                      .batch_max = rnd() % 3 ? VEC_CAPACITY : 1 + (uint32_t)(rnd() % VEC_CAPACITY)};
    Merge *m = merge_create(src, nruns, 1, &kt, &o, a);
    unsigned plan = run__merge_plan(m);
    static const SqlType g_types[3] = {{TYPE_TEXT, -1}, {TYPE_INT8, -1}, {TYPE_INT8, -1}};
    Batch *b = batch_create(a, 3, g_types);
    int cols[3] = {2, 0, 1}; /* text first: gathers in any column order */
    MergeBatch mb;
    uint32_t n = 0;
    MemArena *sa = mem_arena_create("strings");
    while (merge_next(m, &mb)) {
        mem_arena_reset(sa);
        merge_gather(m, &mb, 3, cols, b->cols, sa);
        for (uint32_t i = 0; i < mb.count; i++, n++) {
            cr_assert_lt(n, nwant, "more rows than the model's %u", nwant);
            const Ent *w = &want[n];
            cr_assert_eq(((int64_t *)b->cols[1].data)[i], w->key, "row %u key", n);
            cr_assert_eq(((int64_t *)b->cols[2].data)[i], w->val,
                         "row %u (key %lld) value %lld, want %lld (off %#x plan %#x)", n,
                         (long long)w->key, (long long)((int64_t *)b->cols[2].data)[i],
                         (long long)w->val, run__merge_off, plan);
            cr_assert_eq(!vec_is_valid(&b->cols[0], i), w->val % 5 == 0, "row %u text null", n);
            if (w->val % 5) {
                char t[32];
                snprintf(t, sizeof t, "v%lld", (long long)w->val);
                StrRef s = ((StrRef *)b->cols[0].data)[i];
                cr_assert(s.len == strlen(t) && memcmp(s.ptr, t, s.len) == 0, "row %u text", n);
            }
        }
    }
    cr_assert_eq(n, nwant, "rows: got %u want %u", n, nwant);
    mem_arena_destroy(sa);
    mem_arena_destroy(a);
    return plan;
}

/* Scan with every optimisation on, then with all off: both must match. */
static unsigned check_both(RunReader **runs, int nruns, uint64_t snap, const Ent *want,
                           uint32_t nwant)
{
    run__merge_off = ~0u;
    unsigned off = scan_check(runs, nruns, snap, want, nwant);
    cr_assert_eq(off & ~RUN_MERGE_PLAN_CONCAT, 0u, "switched off, yet plan %#x", off);
    run__merge_off = 0;
    return scan_check(runs, nruns, snap, want, nwant);
}

typedef struct Shape {
    int nruns;
    uint32_t per[16];       /* entries per run */
    int64_t keyspace;
    int del_pct[16];        /* tombstones per run, percent */
    bool overlap_versions;  /* versions interleaved between runs */
    bool clustered;         /* each run's keys in its own random sub-range: long stretches */
} Shape;

/* Runs of random keys (a key may repeat in a run: distinct versions) with
 * version ranges in a random order of runs (disjoint unless
 * overlap_versions); returns the entries in all[], the runs' max versions in
 * vmax[]. */
static uint32_t make_runs(const Shape *sh, RunReader **runs, Ent *all, uint64_t *vmax)
{
    int order[16];
    for (int r = 0; r < sh->nruns; r++)
        order[r] = r;
    for (int r = sh->nruns - 1; r > 0; r--) {
        int j = (int)(rnd() % (uint64_t)(r + 1)), t = order[r];
        order[r] = order[j];
        order[j] = t;
    }
    uint32_t total = 0;
    for (int r = 0; r < sh->nruns; r++)
        total += sh->per[r];
    uint32_t n = 0;
    for (int r = 0; r < sh->nruns; r++) {
        Ent *e = &all[n];
        uint64_t base = 1 + (uint64_t)order[r] * (total + 1);
        uint64_t width = sh->clustered ? 1 + rnd() % (uint64_t)sh->keyspace / 3 : (uint64_t)sh->keyspace;
        int64_t lo = sh->clustered ? (int64_t)(rnd() % (uint64_t)sh->keyspace) : 0;
        vmax[r] = 0;
        for (uint32_t i = 0; i < sh->per[r]; i++) {
            uint64_t v = sh->overlap_versions ? 1 + (uint64_t)i * (uint64_t)sh->nruns + (uint64_t)r
                                              : base + i;
            e[i] = (Ent){lo + (int64_t)(rnd() % width), v,
                         (int)(rnd() % 100) < sh->del_pct[r], (int64_t)(rnd() % 100000)};
            vmax[r] = v > vmax[r] ? v : vmax[r];
        }
        char *path = mem_printf(arena, "%s/r%d.run", dir, r);
        unlink(path);
        runs[r] = write_ents(path, e, sh->per[r], 64 + (uint32_t)(rnd() % 3000), RUN_COMP_LZ4);
        n += sh->per[r];
    }
    return n;
}

/* One shape: every snapshot kind (all visible, a run boundary so that some
 * runs are invisible, inside a run's range, below everything); returns the
 * union of the plans of the all-visible scans. */
static unsigned check_shape(const Shape *sh)
{
    RunReader *runs[16];
    uint32_t total = 0;
    for (int r = 0; r < sh->nruns; r++)
        total += sh->per[r];
    Ent *all = malloc(sizeof(Ent) * total), *want = malloc(sizeof(Ent) * total);
    uint64_t vmax[16];
    uint32_t n = make_runs(sh, runs, all, vmax);
    unsigned plans = 0;
    uint64_t snaps[4] = {UINT64_MAX, vmax[rnd() % (uint64_t)sh->nruns], vmax[0] - 1, 0};
    for (int s = 0; s < 4; s++) {
        uint32_t nw = model(all, n, snaps[s], want);
        unsigned plan = check_both(runs, sh->nruns, snaps[s], want, nw);
        if (s == 0)
            plans = plan;
        if (s == 1 && !sh->overlap_versions)
            cr_assert(plan & RUN_MERGE_PLAN_RECENCY, "a run boundary snapshot keeps recency");
        if (s == 2 && sh->per[0] > 1 && vmax[0] - 1 >= vmax[0] - sh->per[0] + 1)
            cr_assert(!(plan & RUN_MERGE_PLAN_RECENCY), "a snapshot inside a run's range");
    }
    for (int r = 0; r < sh->nruns; r++)
        run_close(runs[r]);
    free(all);
    free(want);
    return plans;
}

Test(runs_merge, recency_direct_matches_model)
{
    int direct = 0;
    for (int round = 0; round < 12; round++) {
        Shape sh = {.nruns = 2 + (int)(rnd() % 8), .keyspace = 100 + (int64_t)(rnd() % 30000),
                    .clustered = round % 2 == 1};
        for (int r = 0; r < sh.nruns; r++) {
            sh.per[r] = 200 + (uint32_t)(rnd() % 4000);
            sh.del_pct[r] = (int[]){0, 0, 5, 30}[rnd() % 4];
        }
        unsigned plan = check_shape(&sh);
        cr_assert(plan & RUN_MERGE_PLAN_RECENCY, "plan %#x", plan);
        cr_assert(plan & (RUN_MERGE_PLAN_DIRECT | RUN_MERGE_PLAN_CONCAT), "plan %#x", plan);
        direct += (plan & RUN_MERGE_PLAN_DIRECT) != 0;
    }
    cr_assert_geq(direct, 8, "the direct path ran in %d rounds of 12", direct);
}

/* The usual LSM shape: one big run (any age), small runs of updates and
 * deletes over it: the split path. */
Test(runs_merge, big_run_against_small_runs_matches_model)
{
    for (int round = 0; round < 8; round++) {
        Shape sh = {.nruns = 3 + (int)(rnd() % 6), .keyspace = 2000 + (int64_t)(rnd() % 40000)};
        int big = (int)(rnd() % (uint64_t)sh.nruns);
        for (int r = 0; r < sh.nruns; r++) {
            sh.per[r] = r == big ? 30000 + (uint32_t)(rnd() % 20000) : 10 + (uint32_t)(rnd() % 1500);
            sh.del_pct[r] = r == big ? (round % 2 ? 0 : 3) : (int[]){0, 10, 50}[rnd() % 3];
        }
        unsigned plan = check_shape(&sh);
        cr_assert_eq(plan, RUN_MERGE_PLAN_RECENCY | RUN_MERGE_PLAN_DIRECT | RUN_MERGE_PLAN_SPLIT,
                     "plan %#x", plan);
    }
}

/* Versions of different runs interleaved: no recency, still exact. */
Test(runs_merge, overlapping_version_ranges_fall_back)
{
    for (int round = 0; round < 4; round++) {
        Shape sh = {.nruns = 2 + (int)(rnd() % 6), .keyspace = 100 + (int64_t)(rnd() % 5000),
                    .overlap_versions = true};
        for (int r = 0; r < sh.nruns; r++) {
            sh.per[r] = 100 + (uint32_t)(rnd() % 3000);
            sh.del_pct[r] = 10;
        }
        unsigned plan = check_shape(&sh);
        cr_assert_eq(plan & ~RUN_MERGE_PLAN_CONCAT, 0u, "plan %#x", plan);
    }
}

/* Tombstones in the newest run hide the big run's keys; a snapshot below the
 * newest run brings them back. */
Test(runs_merge, tombstones_in_newest_run)
{
    enum { N = 20000 };
    Ent *base = malloc(sizeof(Ent) * N), *dels = malloc(sizeof(Ent) * N);
    Ent *all = malloc(sizeof(Ent) * 2 * N), *want = malloc(sizeof(Ent) * 2 * N);
    uint32_t nd = 0;
    for (uint32_t i = 0; i < N; i++) {
        base[i] = (Ent){(int64_t)i, 1 + i, false, (int64_t)(rnd() % 1000)};
        if (i % 7 == 3 || (i >= 5000 && i < 5300)) { /* scattered deletes and one long stretch */
            dels[nd] = (Ent){(int64_t)i, 100000 + nd, true, 1};
            nd++;
        }
    }
    memcpy(all, base, sizeof(Ent) * N);
    memcpy(all + N, dels, sizeof(Ent) * nd);
    RunReader *runs[3];
    runs[0] = write_ents(mem_printf(arena, "%s/base.run", dir), base, N, 4096, RUN_COMP_LZ4);
    runs[1] = write_ents(mem_printf(arena, "%s/dels.run", dir), dels, nd, 512, RUN_COMP_LZ4);
    /* a third run of one update, older than the deletes, so that the split
     * applies (>= 3 visible runs) */
    Ent one = {42, 50000, false, 7};
    all[N + nd] = one;
    runs[2] = write_ents(mem_printf(arena, "%s/one.run", dir), &one, 1, 64, RUN_COMP_LZ4);
    uint32_t n = N + nd + 1;
    uint64_t snaps[3] = {UINT64_MAX, 100000 + nd, 99999};
    for (int s = 0; s < 3; s++) {
        uint32_t nw = model(all, n, snaps[s], want);
        if (s == 2)
            cr_assert_eq(nw, (uint32_t)N, "below the deletes everything is visible");
        else
            cr_assert_eq(nw, (uint32_t)N - nd, "deleted keys are hidden");
        unsigned plan = check_both(runs, 3, snaps[s], want, nw);
        cr_assert_eq(plan, s < 2 ? 7u : 3u, "plan %#x", plan);
    }
    for (int r = 0; r < 3; r++)
        run_close(runs[r]);
    free(base);
    free(dels);
    free(all);
    free(want);
}

/* ---------------------------------------------------------------- a memtable-like source */

/* An in-memory source as storage/ would write for its memtable: explicit
 * (non-consecutive) row positions, versions always handed over (no
 * keys_only), no gather_spans, blocks of random sizes, versions_known. */
typedef struct MemSrc {
    const Ent *e;           /* sorted */
    uint32_t n, at;
    int64_t *keys;
    uint64_t *vers, *rows;
    bool *del;
} MemSrc;

static bool mem_next(void *ctx, MergeKeys *out)
{
    MemSrc *m = ctx;
    if (m->at >= m->n)
        return false;
    uint32_t k = 1 + (uint32_t)(rnd() % 700);
    k = k < m->n - m->at ? k : m->n - m->at;
    for (uint32_t i = 0; i < k; i++) {
        const Ent *x = &m->e[m->at + i];
        m->keys[i] = x->key;
        m->vers[i] = x->ver;
        m->del[i] = x->del;
        m->rows[i] = 2 * (uint64_t)(m->at + i) + 1;
    }
    *out = (MergeKeys){.count = k, .keys = {m->keys}, .versions = m->vers, .deleted = m->del,
                       .rows = m->rows};
    m->at += k;
    return true;
}

static void mem_gather(void *ctx, int col, const uint64_t *rows, const uint16_t *idx, uint32_t n,
                       Vector *out, MemArena *str_arena)
{
    MemSrc *m = ctx;
    for (uint32_t i = 0; i < n; i++) {
        const Ent *x = &m->e[(rows[i] - 1) / 2];
        if (col == 0) {
            ((int64_t *)out->data)[idx[i]] = x->key;
        } else if (col == 1) {
            ((int64_t *)out->data)[idx[i]] = x->val;
        } else if (x->val % 5 == 0) {
            vec_set_null(out, idx[i]);
        } else {
            char *t = mem_printf(str_arena, "v%lld", (long long)x->val);
            ((StrRef *)out->data)[idx[i]] = (StrRef){t, (uint32_t)strlen(t)};
        }
    }
}

static const MergeSourceOps mem_ops = {.next_keys = mem_next, .gather = mem_gather};

/* Runs (some big, some small) plus a memtable-like source holding the newest
 * versions: recency and the direct path with explicit rows and without span
 * gathers, against the model. */
Test(runs_merge, memtable_like_source_with_runs)
{
    for (int round = 0; round < 6; round++) {
        Shape sh = {.nruns = 2 + (int)(rnd() % 4), .keyspace = 500 + (int64_t)(rnd() % 20000)};
        for (int r = 0; r < sh.nruns; r++) {
            sh.per[r] = r == 0 && round % 2 ? 20000 : 100 + (uint32_t)(rnd() % 3000);
            sh.del_pct[r] = (int[]){0, 10}[rnd() % 2];
        }
        RunReader *runs[16];
        uint32_t total = 0;
        for (int r = 0; r < sh.nruns; r++)
            total += sh.per[r];
        uint32_t nmem = 50 + (uint32_t)(rnd() % 3000);
        Ent *all = malloc(sizeof(Ent) * (total + nmem)), *want = malloc(sizeof(Ent) * (total + nmem));
        Ent *mem = malloc(sizeof(Ent) * nmem);
        uint64_t vmax[16], top = 0;
        uint32_t n = make_runs(&sh, runs, all, vmax);
        for (int r = 0; r < sh.nruns; r++)
            top = vmax[r] > top ? vmax[r] : top;
        for (uint32_t i = 0; i < nmem; i++)
            mem[i] = (Ent){(int64_t)(rnd() % (uint64_t)sh.keyspace), top + 1 + i, rnd() % 4 == 0,
                           (int64_t)(rnd() % 100000)};
        qsort(mem, nmem, sizeof(Ent), ent_cmp);
        memcpy(all + n, mem, sizeof(Ent) * nmem);
        uint64_t snaps[2] = {UINT64_MAX, top + nmem / 2}; /* the second: inside the memtable */
        for (int s = 0; s < 2; s++) {
            uint32_t nw = model(all, n + nmem, snaps[s], want);
            for (int off = 0; off < 2; off++) {
                run__merge_off = off ? ~0u : 0;
                MemArena *a = mem_arena_create("merge");
                MergeSource *src[17];
                for (int r = 0; r < sh.nruns; r++)
                    src[r] = run_merge_source(runs[r], NULL, a);
                MemSrc ms = {mem, nmem, 0, mem_alloc(a, 8 * 700), mem_alloc(a, 8 * 700),
                             mem_alloc(a, 8 * 700), mem_alloc(a, 700)};
                MergeSource msrc = {.ops = &mem_ops, .ctx = &ms, .versions_known = true,
                                    .min_version = top + 1, .max_version = top + nmem,
                                    .entries = nmem};
                src[sh.nruns] = &msrc;
                PhysType kt = PHYS_I64;
                MergeOptions o = {.snapshot = snaps[s], .skip_versions = true};
                Merge *m = merge_create(src, sh.nruns + 1, 1, &kt, &o, a);
                unsigned plan = run__merge_plan(m);
                if (!off)
                    cr_assert_eq(plan & RUN_MERGE_PLAN_RECENCY, s == 0 ? RUN_MERGE_PLAN_RECENCY : 0u,
                                 "plan %#x", plan);
                static const SqlType g_types[3] = {{TYPE_TEXT, -1}, {TYPE_INT8, -1}, {TYPE_INT8, -1}};
                Batch *b = batch_create(a, 3, g_types);
                int cols[3] = {2, 0, 1};
                MergeBatch mb;
                uint32_t got = 0;
                while (merge_next(m, &mb)) {
                    merge_gather(m, &mb, 3, cols, b->cols, a);
                    for (uint32_t i = 0; i < mb.count; i++, got++) {
                        cr_assert_lt(got, nw);
                        cr_assert_eq(((int64_t *)b->cols[1].data)[i], want[got].key, "row %u key", got);
                        cr_assert_eq(((int64_t *)b->cols[2].data)[i], want[got].val, "row %u val", got);
                        cr_assert_eq(!vec_is_valid(&b->cols[0], i), want[got].val % 5 == 0);
                    }
                }
                cr_assert_eq(got, nw, "rows: got %u want %u (off %d)", got, nw, off);
                mem_arena_destroy(a);
            }
        }
        run__merge_off = 0;
        for (int r = 0; r < sh.nruns; r++)
            run_close(runs[r]);
        free(all);
        free(want);
        free(mem);
    }
}
