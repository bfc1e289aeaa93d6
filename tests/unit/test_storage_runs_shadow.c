/*
 * test_storage_runs_shadow.c — shadow lists and the unordered scan
 * (storage/runs/run_shadow.c, RUNS.md "Shadow lists"): an unordered scan
 * that drops shadowed rows by lists built once must return exactly the rows
 * the ordered k-way merge returns (and the naive model), for every kind of
 * snapshot — all runs visible, newer runs invisible, below everything, and
 * inside a run's range (then the merge must refuse the lists and still be
 * exact) — with keys rewritten several times across runs and within a run,
 * tombstones, stretches where every row is hidden, and empty runs. Every
 * case also runs with the lists switched off (run__merge_off) and must give
 * the same rows; each asserts the path the merge took.
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
    snprintf(dir, sizeof dir, "/tmp/strata-test-runs-shadow-XXXXXX");
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

TestSuite(runs_shadow, .init = setup, .fini = teardown);

static uint64_t rng_state = 0x2545F4914F6CDD1Dull;
static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

#include "runs_model.h"

static uint32_t piece_batches; /* batches handed out without positions */

static int cmp_key(const void *a, const void *b)
{
    const Ent *x = a, *y = b;
    return x->key < y->key ? -1 : x->key > y->key;
}

/* Scan runs[0..nruns) (sources carry their lists from sh unless no_list
 * names one to leave bare) and collect (key, val) rows, checking the text
 * column and its NULLs; sorted by key when the scan was unordered. Returns
 * the row count, the plan in *plan. */
static uint32_t scan_rows(RunReader **runs, int nruns, const RunShadows *sh, int no_list,
                          uint64_t snap, bool unordered, Ent *got, uint32_t cap, unsigned *plan)
{
    MemArena *a = mem_arena_create("scan");
    MergeSource *src[16];
    for (int i = 0; i < nruns; i++) {
        src[i] = run_merge_source(runs[i], NULL, a);
        src[i]->shadow = i == no_list ? NULL : run_shadows_of(sh, runs[i]);
    }
    PhysType kt = PHYS_I64;
    MergeOptions o = {.snapshot = snap, .skip_versions = true, .unordered = unordered,
                      .gather_only = rnd() % 2 == 0,
                      .batch_max = rnd() % 3 ? VEC_CAPACITY : 1 + (uint32_t)(rnd() % VEC_CAPACITY)};
    Merge *m = merge_create(src, nruns, 1, &kt, &o, a);
    *plan = run__merge_plan(m);
    bool pieces = o.gather_only && (*plan & RUN_MERGE_PLAN_SHADOW);
    static const SqlType g_types[3] = {{TYPE_TEXT, -1}, {TYPE_INT8, -1}, {TYPE_INT8, -1}};
    Batch *b = batch_create(a, 3, g_types);
    int cols[3] = {2, 0, 1}; /* text first: gathers in any column order */
    MergeBatch mb;
    uint32_t n = 0;
    MemArena *sa = mem_arena_create("strings");
    while (merge_next(m, &mb)) {
        cr_assert_gt(mb.count, 0u);
        if (pieces) /* no positions written */
            cr_assert(mb.src == NULL && mb.row == NULL);
        else if (!o.gather_only)
            cr_assert(mb.src != NULL && mb.row != NULL);
        piece_batches += mb.src == NULL;
        mem_arena_reset(sa);
        merge_gather(m, &mb, 3, cols, b->cols, sa);
        for (uint32_t i = 0; i < mb.count; i++, n++) {
            cr_assert_lt(n, cap, "more rows than the model's %u", cap);
            int64_t val = ((int64_t *)b->cols[2].data)[i];
            got[n] = (Ent){((int64_t *)b->cols[1].data)[i], 0, false, val};
            cr_assert_eq(!vec_is_valid(&b->cols[0], i), val % 5 == 0, "row %u text null", n);
            if (val % 5) {
                char t[32];
                snprintf(t, sizeof t, "v%lld", (long long)val);
                StrRef s = ((StrRef *)b->cols[0].data)[i];
                cr_assert(s.len == strlen(t) && memcmp(s.ptr, t, s.len) == 0, "row %u text", n);
            }
        }
    }
    mem_arena_destroy(sa);
    mem_arena_destroy(a);
    if (unordered && n > 1)
        qsort(got, n, sizeof(Ent), cmp_key);
    return n;
}

static void assert_rows(const Ent *got, uint32_t n, const Ent *want, uint32_t nwant,
                        const char *what)
{
    cr_assert_eq(n, nwant, "%s: %u rows, want %u (off %#x)", what, n, nwant, run__merge_off);
    for (uint32_t i = 0; i < n; i++) {
        cr_assert_eq(got[i].key, want[i].key, "%s: row %u key %lld, want %lld", what, i,
                     (long long)got[i].key, (long long)want[i].key);
        cr_assert_eq(got[i].val, want[i].val, "%s: key %lld value %lld, want %lld", what,
                     (long long)got[i].key, (long long)got[i].val, (long long)want[i].val);
    }
}

/* The unordered scan with lists, the same with the lists switched off, and
 * the ordered merge: all equal to the model. Returns the first's plan. */
static unsigned check_all(RunReader **runs, int nruns, const RunShadows *sh, uint64_t snap,
                          const Ent *want, uint32_t nwant)
{
    Ent *got = malloc(sizeof(Ent) * (nwant + 1));
    unsigned plan, p;
    uint32_t n = scan_rows(runs, nruns, sh, -1, snap, true, got, nwant + 1, &plan);
    assert_rows(got, n, want, nwant, "unordered");
    run__merge_off = RUN_MERGE_OFF_SHADOW;
    n = scan_rows(runs, nruns, sh, -1, snap, true, got, nwant + 1, &p);
    cr_assert(!(p & RUN_MERGE_PLAN_SHADOW), "lists switched off, yet plan %#x", p);
    assert_rows(got, n, want, nwant, "unordered, lists off");
    run__merge_off = 0;
    n = scan_rows(runs, nruns, sh, -1, snap, false, got, nwant + 1, &p);
    cr_assert(!(p & RUN_MERGE_PLAN_SHADOW), "an ordered scan used the lists: plan %#x", p);
    assert_rows(got, n, want, nwant, "ordered");
    free(got);
    return plan;
}

/* nruns runs with disjoint version ranges in a random age order; a run's
 * keys may repeat (several versions in one run); empty runs when per = 0. */
static uint32_t make_runs(int nruns, const uint32_t *per, int64_t keyspace, const int *del_pct,
                          RunReader **runs, Ent *all, uint64_t *vmin, uint64_t *vmax)
{
    int order[16];
    for (int r = 0; r < nruns; r++)
        order[r] = r;
    for (int r = nruns - 1; r > 0; r--) {
        int j = (int)(rnd() % (uint64_t)(r + 1)), t = order[r];
        order[r] = order[j];
        order[j] = t;
    }
    uint32_t n = 0;
    for (int r = 0; r < nruns; r++) {
        Ent *e = &all[n];
        uint64_t base = 1 + (uint64_t)order[r] * 100000;
        for (uint32_t i = 0; i < per[r]; i++)
            e[i] = (Ent){(int64_t)(rnd() % (uint64_t)keyspace), base + i,
                         (int)(rnd() % 100) < del_pct[r], (int64_t)(rnd() % 100000)};
        vmin[r] = base;
        vmax[r] = base + (per[r] ? per[r] - 1 : 0);
        char *path = mem_printf(arena, "%s/r%d.run", dir, r);
        unlink(path);
        runs[r] = write_ents(path, e, per[r], 64 + (uint32_t)(rnd() % 3000), RUN_COMP_LZ4);
        n += per[r];
    }
    return n;
}

/* Random shapes, every snapshot kind. */
Test(runs_shadow, unordered_scan_matches_ordered_merge)
{
    int shadow_plans = 0;
    for (int round = 0; round < 14; round++) {
        int nruns = 1 + (int)(rnd() % 9);
        uint32_t per[16];
        int del[16];
        uint32_t total = 0;
        bool big = round % 2 == 1; /* a big run under small ones of updates */
        int64_t keyspace = 50 + (int64_t)(rnd() % (big ? 20000 : 8000));
        for (int r = 0; r < nruns; r++) {
            per[r] = rnd() % 6 == 0 ? 0 : big && r == 0 ? 20000 : 1 + (uint32_t)(rnd() % 4000);
            del[r] = (int[]){0, 0, 5, 30}[rnd() % 4];
            total += per[r];
        }
        RunReader *runs[16];
        Ent *all = malloc(sizeof(Ent) * (total + 1)), *want = malloc(sizeof(Ent) * (total + 1));
        uint64_t vmin[16], vmax[16];
        uint32_t n = make_runs(nruns, per, keyspace, del, runs, all, vmin, vmax);
        RunShadows *sh = run_shadows_build(runs, nruns);
        cr_assert_not_null(sh);
        /* listed: every entry but the newest of each key, and that one too
         * when it is a tombstone */
        cr_assert_eq(run_shadows_rows(sh), (uint64_t)n - model(all, n, UINT64_MAX, want));
        int r1 = (int)(rnd() % (uint64_t)nruns);
        uint64_t snaps[5] = {UINT64_MAX, vmax[r1], 0, vmin[r1] + (vmax[r1] - vmin[r1]) / 2,
                             vmin[r1] - 1};
        for (int s = 0; s < 5; s++) {
            uint32_t nw = model(all, n, snaps[s], want);
            unsigned plan = check_all(runs, nruns, sh, snaps[s], want, nw);
            bool inside = per[r1] > 1 && snaps[s] >= vmin[r1] && snaps[s] < vmax[r1];
            if (inside)
                cr_assert(!(plan & RUN_MERGE_PLAN_SHADOW), "snapshot inside a run: plan %#x", plan);
            else
                cr_assert(plan & RUN_MERGE_PLAN_SHADOW, "snapshot %llu: plan %#x",
                          (unsigned long long)snaps[s], plan);
            shadow_plans += (plan & RUN_MERGE_PLAN_SHADOW) != 0;
        }
        run_shadows_destroy(sh);
        for (int r = 0; r < nruns; r++)
            run_close(runs[r]);
        free(all);
        free(want);
    }
    cr_assert_geq(shadow_plans, 14 * 3);
}

/* One key rewritten in every run, the newest a tombstone; long stretches
 * where every row is hidden (whole batches empty before the next rows);
 * snapshots at each run boundary bring the older versions back. */
Test(runs_shadow, rewrites_tombstones_and_hidden_stretches)
{
    enum { N = 30000, R = 5 };
    Ent *e[R], *all = malloc(sizeof(Ent) * N * R), *want = malloc(sizeof(Ent) * N * R);
    uint32_t per[R] = {0};
    uint64_t ver = 1, vmax[R];
    RunReader *runs[R];
    uint32_t n = 0;
    for (int r = 0; r < R; r++) {
        e[r] = malloc(sizeof(Ent) * N);
        for (uint32_t k = 0; k < N; k++) {
            bool in = r == 0 || k == 7 || (r == 2 && k >= 4000 && k < 15000) ||
                      (r == 3 && k % 3 == 0) || (r == 4 && k >= 9000 && k < 9100);
            if (!in)
                continue;
            bool del = (r == 2) || (r == 4 && k == 7);
            e[r][per[r]++] = (Ent){(int64_t)k, ver++, del, (int64_t)(rnd() % 100000)};
            if (r == 3 && k % 6 == 0) /* two versions in one run */
                e[r][per[r]++] = (Ent){(int64_t)k, ver++, false, (int64_t)(rnd() % 100000)};
        }
        vmax[r] = ver - 1;
        ver += 10;
        memcpy(all + n, e[r], sizeof(Ent) * per[r]);
        n += per[r];
        runs[r] = write_ents(mem_printf(arena, "%s/w%d.run", dir, r), e[r], per[r],
                             r == 0 ? 2048 : 512, RUN_COMP_LZ4);
    }
    /* the lists don't depend on the order the runs are given in */
    RunReader *rev[R];
    for (int r = 0; r < R; r++)
        rev[r] = runs[R - 1 - r];
    RunShadows *sh = run_shadows_build(rev, R);
    cr_assert_not_null(sh);
    for (int s = -1; s < R; s++) {
        uint64_t snap = s < 0 ? 0 : vmax[s];
        uint32_t nw = model(all, n, snap, want);
        unsigned plan = check_all(rev, R, sh, snap, want, nw);
        cr_assert(plan & RUN_MERGE_PLAN_SHADOW, "plan %#x", plan);
    }
    run_shadows_destroy(sh);
    for (int r = 0; r < R; r++) {
        run_close(runs[r]);
        free(e[r]);
    }
    free(all);
    free(want);
}

/* The lists apply only to exactly their set of runs: a source without a
 * list, or a merge over part of the set, takes the ordered merge (a run
 * left out would still hide rows); overlapping version ranges give no lists. */
Test(runs_shadow, lists_refused_when_they_do_not_apply)
{
    enum { N = 5000 };
    Ent *a = malloc(sizeof(Ent) * N), *b = malloc(sizeof(Ent) * N);
    Ent *all = malloc(sizeof(Ent) * 2 * N), *want = malloc(sizeof(Ent) * 2 * N);
    for (uint32_t i = 0; i < N; i++) {
        a[i] = (Ent){(int64_t)i, 1 + i, false, (int64_t)(rnd() % 1000)};
        b[i] = (Ent){(int64_t)(rnd() % N), 10000 + i, i % 9 == 0, (int64_t)(rnd() % 1000)};
    }
    RunReader *runs[2];
    runs[0] = write_ents(mem_printf(arena, "%s/a.run", dir), a, N, 1024, RUN_COMP_LZ4);
    runs[1] = write_ents(mem_printf(arena, "%s/b.run", dir), b, N, 700, RUN_COMP_LZ4);
    RunShadows *sh = run_shadows_build(runs, 2);
    cr_assert_not_null(sh);
    cr_assert_null(run_shadows_of(sh, NULL));
    cr_assert_gt(run_shadows_bytes(sh), run_shadows_rows(sh) * 8);
    memcpy(all, a, sizeof(Ent) * N);
    memcpy(all + N, b, sizeof(Ent) * N);
    uint32_t nw = model(all, 2 * N, UINT64_MAX, want);
    Ent *got = malloc(sizeof(Ent) * 2 * N);
    unsigned plan;
    uint32_t n = scan_rows(runs, 2, sh, 1, UINT64_MAX, true, got, 2 * N, &plan);
    cr_assert(!(plan & RUN_MERGE_PLAN_SHADOW), "a source without its list: plan %#x", plan);
    assert_rows(got, n, want, nw, "one source bare");
    /* the old run alone: every row of it, none hidden by the run left out */
    memcpy(all, a, sizeof(Ent) * N);
    nw = model(all, N, UINT64_MAX, want);
    n = scan_rows(runs, 1, sh, -1, UINT64_MAX, true, got, 2 * N, &plan);
    cr_assert(!(plan & RUN_MERGE_PLAN_SHADOW), "part of the set: plan %#x", plan);
    assert_rows(got, n, want, nw, "part of the set");
    run_shadows_destroy(sh);
    /* versions overlapping between runs: no lists */
    for (uint32_t i = 0; i < N; i++)
        b[i].ver = 1 + 2 * i;
    RunReader *c = write_ents(mem_printf(arena, "%s/c.run", dir), b, N, 700, RUN_COMP_LZ4);
    RunReader *pair[2] = {runs[0], c};
    cr_assert_null(run_shadows_build(pair, 2));
    run_close(c);
    run_close(runs[0]);
    run_close(runs[1]);
    free(a);
    free(b);
    free(all);
    free(want);
    free(got);
}

/* gather_only on sources that don't overlap (the concatenation path): clean
 * groups go out as pieces without positions, groups with tombstones or a
 * key twice through positions; a batch is one or the other. Same rows as
 * the model, with and without gather_only, ordered or not. */
Test(runs_shadow, gather_only_concatenation)
{
    enum { R = 4, N = 6000 };
    Ent *e[R], *all = malloc(sizeof(Ent) * N * R), *want = malloc(sizeof(Ent) * N * R);
    RunReader *runs[R];
    uint32_t n = 0;
    uint64_t ver = 1;
    for (int r = 0; r < R; r++) {
        e[r] = malloc(sizeof(Ent) * N);
        for (uint32_t i = 0; i < N; i++) {
            uint32_t k = (uint32_t)r * N + i / 2; /* each run its own key range */
            bool twice = i % 2 == 1 && (k % 1500) < 200; /* some groups hold a key twice */
            bool del = (k % 1500) >= 400 && (k % 1500) < 450 && i % 2 == 0; /* 1050 clean keys */
            e[r][i] = (Ent){twice || i % 2 == 0 ? (int64_t)k : -1, ver++, del,
                            (int64_t)(rnd() % 100000)};
        }
        uint32_t m = 0;
        for (uint32_t i = 0; i < N; i++)
            if (e[r][i].key >= 0)
                e[r][m++] = e[r][i];
        memcpy(all + n, e[r], sizeof(Ent) * m);
        n += m;
        runs[r] = write_ents(mem_printf(arena, "%s/c%d.run", dir, r), e[r], m,
                             128 + (uint32_t)(rnd() % 700), RUN_COMP_LZ4);
    }
    uint32_t nw = model(all, n, UINT64_MAX, want);
    RunShadows *sh = run_shadows_build(runs, R);
    cr_assert_not_null(sh);
    Ent *got = malloc(sizeof(Ent) * (nw + 1));
    piece_batches = 0;
    for (int round = 0; round < 12; round++) {
        unsigned plan;
        bool unordered = round % 2 == 1, bare = round % 4 < 2;
        uint32_t k = scan_rows(runs, R, bare ? NULL : sh, -1, UINT64_MAX, unordered, got, nw + 1,
                               &plan);
        if (!unordered && k > 1)
            for (uint32_t i = 1; i < k; i++)
                cr_assert_lt(got[i - 1].key, got[i].key, "key order");
        assert_rows(got, k, want, nw, "concatenation"); /* unordered: sorted by scan_rows */
        cr_assert(plan & (RUN_MERGE_PLAN_CONCAT | RUN_MERGE_PLAN_SHADOW), "plan %#x", plan);
    }
    cr_assert_gt(piece_batches, 10u, "batches without positions: %u", piece_batches);
    run_shadows_destroy(sh);
    for (int r = 0; r < R; r++) {
        run_close(runs[r]);
        free(e[r]);
    }
    free(all);
    free(want);
    free(got);
}

/* String keys (the build's merge goes through the loser tree, not the
 * integer fast path): runs of (key text "k000123", val bigint); results
 * compared by key number with the model, unordered with lists, lists off,
 * and ordered. */
static RunReader *write_str_run(const char *path, Ent *e, uint32_t n)
{
    static const SqlType st[2] = {{TYPE_TEXT, -1}, {TYPE_INT8, -1}};
    if (n > 0)
        qsort(e, n, sizeof(Ent), ent_cmp);
    int key = 0;
    RunSchema sc = {2, st, 1, &key};
    RunWriteOptions o = {.group_rows = 300, .compression = RUN_COMP_LZ4, .no_fsync = true};
    RunWriter *w = run_writer_create(path, &sc, &o);
    MemArena *a = mem_arena_create("write");
    Batch *b = batch_create(a, 2, st);
    uint64_t vers[VEC_CAPACITY];
    bool del[VEC_CAPACITY];
    for (uint32_t s = 0; s < n; s += VEC_CAPACITY) {
        uint32_t k = n - s < VEC_CAPACITY ? n - s : VEC_CAPACITY;
        for (uint32_t i = 0; i < k; i++) {
            char *t = mem_printf(a, "k%06lld", (long long)e[s + i].key);
            ((StrRef *)b->cols[0].data)[i] = (StrRef){t, (uint32_t)strlen(t)};
            ((int64_t *)b->cols[1].data)[i] = e[s + i].val;
            vers[i] = e[s + i].ver;
            del[i] = e[s + i].del;
        }
        b->count = k;
        run_writer_append(w, b, vers, del);
    }
    run_writer_finish(w, NULL);
    mem_arena_destroy(a);
    return run_open(path);
}

static uint32_t scan_str(RunReader **runs, int nruns, const RunShadows *sh, uint64_t snap,
                         bool unordered, Ent *got, uint32_t cap, unsigned *plan)
{
    MemArena *a = mem_arena_create("scan");
    MergeSource *src[8];
    for (int i = 0; i < nruns; i++) {
        src[i] = run_merge_source(runs[i], NULL, a);
        src[i]->shadow = run_shadows_of(sh, runs[i]);
    }
    PhysType kt = PHYS_STR;
    MergeOptions o = {.snapshot = snap, .skip_versions = true, .unordered = unordered,
                      .gather_only = rnd() % 2 == 0};
    Merge *m = merge_create(src, nruns, 1, &kt, &o, a);
    *plan = run__merge_plan(m);
    static const SqlType st[2] = {{TYPE_TEXT, -1}, {TYPE_INT8, -1}};
    Batch *b = batch_create(a, 2, st);
    int cols[2] = {0, 1};
    MergeBatch mb;
    uint32_t n = 0;
    while (merge_next(m, &mb)) {
        merge_gather(m, &mb, 2, cols, b->cols, a);
        for (uint32_t i = 0; i < mb.count; i++, n++) {
            cr_assert_lt(n, cap);
            StrRef s = ((StrRef *)b->cols[0].data)[i];
            cr_assert(s.len == 7 && s.ptr[0] == 'k');
            got[n] = (Ent){atoll(mem_strndup(a, s.ptr + 1, 6)), 0, false,
                           ((int64_t *)b->cols[1].data)[i]};
        }
    }
    mem_arena_destroy(a);
    if (unordered && n > 1)
        qsort(got, n, sizeof(Ent), cmp_key);
    return n;
}

Test(runs_shadow, string_keys)
{
    enum { R = 4, N = 3000 };
    Ent *e = malloc(sizeof(Ent) * N * R), *all = malloc(sizeof(Ent) * N * R);
    Ent *want = malloc(sizeof(Ent) * N * R), *got = malloc(sizeof(Ent) * N * R);
    RunReader *runs[R];
    uint64_t vmax[R];
    uint32_t n = 0;
    for (int r = 0; r < R; r++) {
        uint32_t per = r == 0 ? N : 1 + (uint32_t)(rnd() % (N / 3));
        for (uint32_t i = 0; i < per; i++)
            e[n + i] = (Ent){(int64_t)(rnd() % 2500), 1 + (uint64_t)r * 10000 + i,
                             r > 0 && rnd() % 5 == 0, (int64_t)(rnd() % 100000)};
        vmax[r] = (uint64_t)r * 10000 + per;
        memcpy(all + n, e + n, sizeof(Ent) * per);
        runs[r] = write_str_run(mem_printf(arena, "%s/s%d.run", dir, r), e + n, per);
        n += per;
    }
    RunShadows *sh = run_shadows_build(runs, R);
    cr_assert_not_null(sh);
    cr_assert_eq(run_shadows_rows(sh), (uint64_t)n - model(all, n, UINT64_MAX, want));
    for (int s = 0; s <= R; s++) {
        uint64_t snap = s == R ? UINT64_MAX : vmax[s];
        uint32_t nw = model(all, n, snap, want);
        for (int way = 0; way < 3; way++) {
            unsigned plan;
            run__merge_off = way == 1 ? RUN_MERGE_OFF_SHADOW : 0;
            uint32_t k = scan_str(runs, R, sh, snap, way < 2, got, N * R, &plan);
            cr_assert_eq(!!(plan & RUN_MERGE_PLAN_SHADOW), way == 0, "way %d plan %#x", way, plan);
            assert_rows(got, k, want, nw, "string keys");
        }
        run__merge_off = 0;
    }
    run_shadows_destroy(sh);
    for (int r = 0; r < R; r++)
        run_close(runs[r]);
    free(e);
    free(all);
    free(want);
    free(got);
}
