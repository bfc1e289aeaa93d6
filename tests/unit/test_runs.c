/*
 * test_runs.c — unit tests of storage/runs/: run files round trip for every
 * physical type and encoding (with NULLs, LZ4 and ZSTD), corruption is
 * detected (flipped bytes → XX001 naming the file), bloom filter false
 * positive rate, point lookups, the batched merge against a naive model on
 * random data (integer, string and composite keys; overlapping and disjoint
 * sources; visibility hook), and compaction.
 */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "common/error.h"
#include "common/vector.h"
#define STRATA_RUNS_INTERNAL
#include "storage/runs/run_int.h"

static char dir[256];
static MemArena *arena;

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/strata-test-runs-XXXXXX");
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
}

TestSuite(runs, .init = setup, .fini = teardown);

static uint64_t rng_state = 88172645463325252ull;
static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static char *path_of(const char *name)
{
    return mem_printf(arena, "%s/%s", dir, name);
}

/* ---------------------------------------------------------------- round trip */

#define RT_COLS 12
static const SqlType rt_types[RT_COLS] = {
    {TYPE_INT8, -1},    /* 0 key: sorted, gaps → delta */
    {TYPE_BOOL, -1},    /* 1 */
    {TYPE_INT2, -1},    /* 2 small range → FOR */
    {TYPE_INT4, -1},    /* 3 long runs → RLE */
    {TYPE_INT8, -1},    /* 4 full-range random → plain */
    {TYPE_FLOAT4, -1},  /* 5 */
    {TYPE_FLOAT8, -1},  /* 6 runs → RLE */
    {TYPE_TEXT, -1},    /* 7 low cardinality → dictionary */
    {TYPE_TEXT, -1},    /* 8 distinct → plain */
    {TYPE_DATE, -1},    /* 9 */
    {TYPE_TIMESTAMP, -1}, /* 10 */
    {TYPE_INT4, -1},    /* 11 all NULL */
};

static bool rt_null(int col, uint32_t row)
{
    if (col == 0)
        return false;
    if (col == 11)
        return true;
    return (row * 7 + (uint32_t)col) % 13 == 0;
}

static void rt_value(int col, uint32_t row, Value *v, char *buf)
{
    v->is_null = rt_null(col, row);
    switch (col) {
    case 0: v->u.i64 = (int64_t)row * 3 - 5000; break;
    case 1: v->u.b = (row % 3) == 0; break;
    case 2: v->u.i16 = (int16_t)(row * 31 % 200 - 100); break;
    case 3: v->u.i32 = (int32_t)(row / 500); break;
    case 4: v->u.i64 = (int64_t)(row * 0x9E3779B97F4A7C15ull); break;
    case 5: v->u.f32 = row % 97 == 5 ? NAN : (float)row * 0.25f - 3.0f; break;  /* NaN sorts last */
    case 6: v->u.f64 = (double)(row / 300) * 1.5; break;
    case 7: snprintf(buf, 64, "city-%u", row % 17); v->u.str = (StrRef){buf, (uint32_t)strlen(buf)}; break;
    case 8: snprintf(buf, 64, "unique string number %u", row * 7919); v->u.str = (StrRef){buf, (uint32_t)strlen(buf)}; break;
    case 9: v->u.i32 = (int32_t)row - 1000; break;
    case 10: v->u.i64 = (int64_t)row * 1000000 + 12345; break;
    default: v->u.i32 = 0; break;
    }
}

static void write_rt(const char *path, uint32_t nrows, RunCompression comp, uint32_t group_rows)
{
    int key = 0;
    RunSchema sc = {RT_COLS, rt_types, 1, &key};
    RunWriteOptions o = {.group_rows = group_rows, .compression = comp, .zstd_level = 5};
    RunWriter *w = run_writer_create(path, &sc, &o);
    Batch *b = batch_create(arena, RT_COLS, rt_types);
    uint64_t vers[VEC_CAPACITY];
    bool del[VEC_CAPACITY];
    char bufs[RT_COLS][64];
    for (uint32_t start = 0; start < nrows; start += 1000) {
        uint32_t n = nrows - start < 1000 ? nrows - start : 1000;
        for (int c = 0; c < RT_COLS; c++)
            vec_set_all_valid(&b->cols[c]);
        for (uint32_t i = 0; i < n; i++) {
            for (int c = 0; c < RT_COLS; c++) {
                Value v;
                rt_value(c, start + i, &v, bufs[c]);
                if (c == 7 || c == 8) /* vec_set_value keeps the pointer: copy */
                    v.u.str.ptr = mem_strndup(arena, v.u.str.ptr, v.u.str.len);
                vec_set_value(&b->cols[c], i, &v);
            }
            vers[i] = 10 + (start + i) % 5;
            del[i] = (start + i) % 101 == 0;
        }
        b->count = n;
        run_writer_append(w, b, vers, del);
    }
    RunInfo info;
    run_writer_finish(w, &info);
    cr_assert_eq(info.nrows, nrows);
}

static void check_rt(const char *path, uint32_t nrows, bool *seen_enc)
{
    RunReader *r = run_open(path);
    RunInfo info;
    run_info(r, &info);
    cr_assert_eq(info.nrows, nrows);
    cr_assert_eq(info.min_key[0].u.i64, -5000);
    cr_assert_eq(info.max_key[0].u.i64, (int64_t)(nrows - 1) * 3 - 5000);
    char buf[64];
    for (uint32_t g = 0; g < run_group_count(r); g++) {
        uint64_t first = run_group_first_row(r, g);
        for (int c = 0; c < RT_COLS + RUN_META_COLS; c++) {
            mem_arena_reset(arena);
            RunChunk ch;
            run_chunk_read(r, g, c, arena, &ch);
            const uint8_t *blk = r->map + r->groups[g].chunks[c].offset;
            seen_enc[blk[1]] = true;
            RunZone z;
            run_group_zone(r, g, c, &z);
            uint32_t nulls = 0;
            bool min_seen = false, max_seen = false;  /* the zone is tight, not just a bound */
            for (uint32_t i = 0; i < ch.count; i++) {
                uint32_t row = (uint32_t)(first + i);
                bool valid = !ch.validity || ((ch.validity[i >> 6] >> (i & 63)) & 1);
                Value got;
                if (c == RT_COLS) {
                    cr_assert_eq(((const uint64_t *)ch.values)[i], 10 + row % 5);
                    continue;
                }
                if (c == RT_COLS + 1) {
                    cr_assert_eq(((const bool *)ch.values)[i], row % 101 == 0);
                    continue;
                }
                Value want;
                rt_value(c, row, &want, buf);
                cr_assert_eq(!valid, want.is_null, "col %d row %u null", c, row);
                if (!valid) {
                    nulls++;
                    continue;
                }
                run__elem_to_value(ch.phys, ch.values, i, &got);
                cr_assert_eq(run__cmp_values(ch.phys, &got, &want), 0, "col %d row %u", c, row);
                if (z.has_minmax) {
                    cr_assert(run__cmp_values(ch.phys, &z.min, &got) <= 0);
                    cr_assert(run__cmp_values(ch.phys, &z.max, &got) >= 0);
                    min_seen |= run__cmp_values(ch.phys, &z.min, &got) == 0;
                    max_seen |= run__cmp_values(ch.phys, &z.max, &got) == 0;
                }
            }
            if (c < RT_COLS) {
                cr_assert_eq(z.null_count, nulls, "col %d zone nulls", c);
                cr_assert_eq(z.has_minmax, nulls < ch.count, "col %d zone present", c);
                cr_assert(!z.has_minmax || (min_seen && max_seen), "col %d zone tight", c);
            }
        }
    }
    run_close(r);
}

Test(runs, round_trip_every_type_and_encoding)
{
    RunCompression comps[] = {RUN_COMP_NONE, RUN_COMP_LZ4, RUN_COMP_ZSTD};
    bool seen[8] = {0};
    for (int i = 0; i < 3; i++) {
        char *p = path_of(mem_printf(arena, "rt%d.run", i));
        write_rt(p, 20000, comps[i], 4096);
        check_rt(p, 20000, seen);
    }
    cr_assert(seen[RUN_ENC_PLAIN] && seen[RUN_ENC_FOR] && seen[RUN_ENC_DELTA]);
    cr_assert(seen[RUN_ENC_RLE] && seen[RUN_ENC_DICT]);
}

Test(runs, single_row_and_tiny_groups)
{
    char *p = path_of("tiny.run");
    write_rt(p, 1, RUN_COMP_LZ4, 1);
    bool seen[8] = {0};
    check_rt(p, 1, seen);
    p = path_of("tiny2.run");
    write_rt(p, 37, RUN_COMP_ZSTD, 5);
    check_rt(p, 37, seen);
}

Test(runs, chunk_to_vector_keeps_nulls)
{
    char *p = path_of("vec.run");
    write_rt(p, 5000, RUN_COMP_LZ4, 5000);
    RunReader *r = run_open(p);
    RunChunk ch;
    run_chunk_read(r, 0, 2, arena, &ch);
    Vector v;
    vec_init(&v, rt_types[2], arena);
    run_chunk_to_vector(&ch, 100, 2000, &v);
    char buf[64];
    for (uint32_t i = 0; i < 2000; i++) {
        Value want;
        rt_value(2, 100 + i, &want, buf);
        cr_assert_eq(!vec_is_valid(&v, i), want.is_null);
        if (!want.is_null)
            cr_assert_eq(((int16_t *)v.data)[i], want.u.i16);
    }
    run_close(r);
}

/* ---------------------------------------------------------------- errors */

static ErrorData caught;

/* Open the run and decode every chunk and bloom; true when it raised. */
static bool read_all_raises(const char *path)
{
    ErrJmp jmp;
    RunReader *volatile r = NULL;
    if (ERR_TRY(jmp)) {
        r = run_open(path);
        for (uint32_t g = 0; g < run_group_count(r); g++) {
            for (int c = 0; c < r->schema.ncols + RUN_META_COLS; c++) {
                RunChunk ch;
                run_chunk_read(r, g, c, arena, &ch);
            }
            Value k = {.u.i64 = r->groups[g].first_key[0].u.i64};
            (void)run_bloom_maybe(r, &k);
        }
        mem_arena_reset(arena);
        err_pop(&jmp);
        run_close(r);
        return false;
    }
    caught = *err_current();
    err_clear();
    run_close(r);
    mem_arena_reset(arena);
    return true;
}

Test(runs, flipped_bytes_are_reported)
{
    char *p = path_of("flip.run");
    char *q = path_of("flipped.run");
    write_rt(p, 6000, RUN_COMP_LZ4, 2000);
    cr_assert(!read_all_raises(p));
    struct stat st;
    cr_assert_eq(stat(p, &st), 0);
    FILE *f = fopen(p, "rb");
    uint8_t *bytes = malloc((size_t)st.st_size);
    cr_assert_eq(fread(bytes, 1, (size_t)st.st_size, f), (size_t)st.st_size);
    fclose(f);
    /* every byte of the head and tail, and random ones in between */
    for (int t = 0; t < 400; t++) {
        size_t at = t < 60 ? (size_t)t : t < 120 ? (size_t)st.st_size - 1 - (size_t)(t - 60)
                                                : rnd() % (size_t)st.st_size;
        uint8_t mask = (uint8_t)(1u << (rnd() % 8));
        bytes[at] ^= mask;
        f = fopen(q, "wb");
        fwrite(bytes, 1, (size_t)st.st_size, f);
        fclose(f);
        bytes[at] ^= mask;
        cr_assert(read_all_raises(q), "flip at %zu of %lld went unnoticed", at, (long long)st.st_size);
        cr_assert_str_eq(caught.sqlstate, "XX001");
        cr_assert(strstr(caught.message, q) != NULL, "message names the file: %s", caught.message);
    }
    /* a truncated file */
    f = fopen(q, "wb");
    fwrite(bytes, 1, (size_t)st.st_size - 7, f);
    fclose(f);
    cr_assert(read_all_raises(q));
    cr_assert_str_eq(caught.sqlstate, "XX001");
    free(bytes);
}

/* True when run_open alone (no chunk decode, no bloom probe) raised. */
static bool open_raises(const char *path)
{
    ErrJmp jmp;
    RunReader *volatile r = NULL;
    if (ERR_TRY(jmp)) {
        r = run_open(path);
        err_pop(&jmp);
        run_close(r);
        return false;
    }
    caught = *err_current();
    err_clear();
    return true;
}

/* Damage inside a bloom filter block is found when the run is opened, not
 * only at the first point lookup that probes it (recovery and scans never
 * probe filters). */
Test(runs, flipped_bloom_bytes_are_reported_at_open)
{
    char *p = path_of("bloomflip.run");
    char *q = path_of("bloomflipped.run");
    write_rt(p, 6000, RUN_COMP_LZ4, 2000);
    RunReader *r = run_open(p);
    uint32_t ngroups = run_group_count(r);
    cr_assert_gt(ngroups, 1);
    uint64_t offs[16];
    uint32_t lens[16];
    for (uint32_t g = 0; g < ngroups && g < 16; g++) {
        offs[g] = r->groups[g].bloom_offset;
        lens[g] = r->groups[g].bloom_len;
    }
    run_close(r);
    struct stat st;
    cr_assert_eq(stat(p, &st), 0);
    FILE *f = fopen(p, "rb");
    uint8_t *bytes = malloc((size_t)st.st_size);
    cr_assert_eq(fread(bytes, 1, (size_t)st.st_size, f), (size_t)st.st_size);
    fclose(f);
    int flips = 0;
    for (uint32_t g = 0; g < ngroups && g < 16; g++) {
        for (uint32_t i = 0; i < lens[g]; i += 1 + lens[g] / 97) {
            size_t at = (size_t)offs[g] + i;
            uint8_t mask = (uint8_t)(1u << (rnd() % 8));
            bytes[at] ^= mask;
            f = fopen(q, "wb");
            fwrite(bytes, 1, (size_t)st.st_size, f);
            fclose(f);
            bytes[at] ^= mask;
            cr_assert(open_raises(q), "bloom flip at %zu (group %u) went unnoticed", at, g);
            cr_assert_str_eq(caught.sqlstate, "XX001");
            cr_assert(strstr(caught.message, q) != NULL, "message names the file: %s",
                      caught.message);
            flips++;
        }
    }
    cr_assert_gt(flips, 100);
    free(bytes);
}

Test(runs, out_of_order_append_raises)
{
    int key = 0;
    SqlType t[1] = {{TYPE_INT4, -1}};
    RunSchema sc = {1, t, 1, &key};
    RunWriter *volatile w = run_writer_create(path_of("ooo.run"), &sc, NULL);
    Batch *b = batch_create(arena, 1, t);
    int32_t vals[3] = {1, 3, 2};
    uint64_t vers[3] = {1, 1, 1};
    memcpy(b->cols[0].data, vals, sizeof vals);
    b->count = 3;
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        run_writer_append(w, b, vers, NULL);
        err_pop(&jmp);
        cr_assert_fail("no error");
    }
    cr_assert_str_eq(err_current()->sqlstate, "XX000");
    err_clear();
    run_writer_abort(w);
    cr_assert_neq(access(mem_printf(arena, "%s/ooo.run.tmp", dir), F_OK), 0);
}

/* Appends first, then second (versions 1), to a run of a bigint key with
 * groups of 2 rows; whether that raised XX000 (else the run is finished). */
static bool append_two_raises(const int64_t *first, const int64_t *second, const uint64_t *vers)
{
    int key = 0;
    SqlType t[1] = {{TYPE_INT8, -1}};
    RunSchema sc = {1, t, 1, &key};
    RunWriteOptions o = {.group_rows = 2};  /* the second append follows a flush */
    RunWriter *volatile w = run_writer_create(path_of("ooo8.run"), &sc, &o);
    Batch *b = batch_create(arena, 1, t);
    b->count = 3;
    uint64_t ones[3] = {1, 1, 1};
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        memcpy(b->cols[0].data, first, 3 * sizeof *first);
        run_writer_append(w, b, vers, NULL);
        memcpy(b->cols[0].data, second, 3 * sizeof *second);
        run_writer_append(w, b, ones, NULL);
        err_pop(&jmp);
        RunInfo info;
        run_writer_finish(w, &info);
        cr_assert_eq(info.nrows, 6);
        return false;
    }
    cr_assert_str_eq(err_current()->sqlstate, "XX000");
    err_clear();
    run_writer_abort(w);
    return true;
}

/* A bigint key (a table run's row number) is checked in one typed loop:
 * a smaller key, or an equal key with a newer version, within a batch and
 * across appends and group flushes, raises as the general check does. */
Test(runs, out_of_order_bigint_keys_raise)
{
    static const struct {
        int64_t first[3], second[3];
        uint64_t vers[3];
        bool raises;
    } cases[] = {
        {{1, 3, 2}, {4, 5, 6}, {1, 1, 1}, true},   /* within the first batch */
        {{1, 2, 3}, {3, 4, 5}, {1, 1, 1}, false},  /* equal key across appends, same version */
        {{1, 2, 3}, {2, 4, 5}, {1, 1, 1}, true},   /* smaller key across appends */
        {{1, 2, 2}, {3, 4, 5}, {1, 1, 2}, true},   /* equal key with a newer version */
        {{1, 2, 2}, {3, 4, 5}, {1, 2, 1}, false},  /* equal key, older version after */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        cr_assert_eq(append_two_raises(cases[k].first, cases[k].second, cases[k].vers),
                     cases[k].raises, "case %zu", k);
}

/* ---------------------------------------------------------------- model runs */

#include "runs_model.h"

typedef struct Got {
    int64_t key, val;
    bool txt_null;
    char txt[32];
} Got;

static uint32_t run_merge(RunReader **runs, int nruns, uint64_t snap, Got *out, bool *concat,
                          MergeVisibilityFn vis, void *vis_ctx)
{
    MemArena *a = mem_arena_create("merge");
    MergeSource **src = mem_alloc(a, sizeof(MergeSource *) * (size_t)nruns);
    for (int i = 0; i < nruns; i++)
        src[i] = run_merge_source(runs[i], NULL, a);
    PhysType kt = PHYS_I64;
    MergeOptions o = {.snapshot = snap, .visible = vis, .visible_ctx = vis_ctx,
                      .batch_max = 1 + (uint32_t)(rnd() % VEC_CAPACITY)};
    Merge *m = merge_create(src, nruns, 1, &kt, &o, a);
    if (concat)
        *concat = merge_is_concat(m);
    Batch *b = batch_create(a, 3, m_types);
    int cols[3] = {0, 1, 2};
    MergeBatch mb;
    uint32_t n = 0;
    MemArena *sa = mem_arena_create("strings");
    while (merge_next(m, &mb)) {
        mem_arena_reset(sa);
        merge_gather(m, &mb, 3, cols, b->cols, sa);
        for (uint32_t i = 0; i < mb.count; i++, n++) {
            out[n].key = ((int64_t *)b->cols[0].data)[i];
            out[n].val = ((int64_t *)b->cols[1].data)[i];
            out[n].txt_null = !vec_is_valid(&b->cols[2], i);
            StrRef s = ((StrRef *)b->cols[2].data)[i];
            snprintf(out[n].txt, sizeof out[n].txt, "%.*s", (int)s.len, s.ptr);
        }
    }
    mem_arena_destroy(sa);
    mem_arena_destroy(a);
    return n;
}

static void check_merge(const Ent *want, uint32_t nwant, const Got *got, uint32_t ngot)
{
    cr_assert_eq(ngot, nwant, "rows: got %u want %u", ngot, nwant);
    for (uint32_t i = 0; i < nwant; i++) {
        cr_assert_eq(got[i].key, want[i].key, "row %u key", i);
        cr_assert_eq(got[i].val, want[i].val, "row %u val", i);
        cr_assert_eq(got[i].txt_null, want[i].val % 5 == 0);
        if (!got[i].txt_null) {
            char t[32];
            snprintf(t, sizeof t, "v%lld", (long long)want[i].val);
            cr_assert_str_eq(got[i].txt, t);
        }
    }
}

/* nruns runs of random entries over keys [0, keyspace); versions unique. */
static uint32_t make_random_runs(RunReader **runs, int nruns, uint32_t per_run, int64_t keyspace,
                                 Ent *all, bool disjoint)
{
    uint32_t n = 0;
    uint64_t ver = 1;
    for (int r = 0; r < nruns; r++) {
        Ent *e = &all[n];
        for (uint32_t i = 0; i < per_run; i++) {
            int64_t k = (int64_t)(rnd() % (uint64_t)keyspace);
            if (disjoint)
                k = k % (keyspace / nruns) + r * (keyspace / nruns);
            e[i] = (Ent){k, ver++, rnd() % 10 == 0, (int64_t)(rnd() % 100000)};
        }
        /* versions of one key within a run must be distinct: they are */
        runs[r] = write_ents(path_of(mem_printf(arena, "r%d.run", r)), e, per_run,
                             64 + (uint32_t)(rnd() % 2000), r % 2 ? RUN_COMP_LZ4 : RUN_COMP_ZSTD);
        n += per_run;
    }
    return n;
}

Test(runs, merge_matches_model)
{
    for (int round = 0; round < 6; round++) {
        int nruns = 1 + (int)(rnd() % 12);
        uint32_t per = 200 + (uint32_t)(rnd() % 3000);
        int64_t keyspace = 50 + (int64_t)(rnd() % 20000);
        RunReader *runs[16];
        Ent *all = malloc(sizeof(Ent) * nruns * per), *want = malloc(sizeof(Ent) * nruns * per);
        Got *got = malloc(sizeof(Got) * nruns * per);
        uint32_t n = make_random_runs(runs, nruns, per, keyspace, all, false);
        for (int s = 0; s < 3; s++) {
            uint64_t snap = s == 0 ? UINT64_MAX : rnd() % (n + 1);
            uint32_t nw = model(all, n, snap, want);
            uint32_t ng = run_merge(runs, nruns, snap, got, NULL, NULL, NULL);
            check_merge(want, nw, got, ng);
        }
        for (int r = 0; r < nruns; r++)
            run_close(runs[r]);
        free(all);
        free(want);
        free(got);
    }
}

Test(runs, disjoint_runs_are_concatenated)
{
    RunReader *runs[6];
    Ent *all = malloc(sizeof(Ent) * 6 * 3000), *want = malloc(sizeof(Ent) * 6 * 3000);
    Got *got = malloc(sizeof(Got) * 6 * 3000);
    uint32_t n = make_random_runs(runs, 6, 3000, 60000, all, true);
    bool concat = false;
    uint32_t nw = model(all, n, n / 2, want);
    uint32_t ng = run_merge(runs, 6, n / 2, got, &concat, NULL, NULL);
    cr_assert(concat);
    check_merge(want, nw, got, ng);
    for (int r = 0; r < 6; r++)
        run_close(runs[r]);
    free(all);
    free(want);
    free(got);
}

static void odd_invisible(void *ctx, const uint64_t *v, uint32_t n, bool *vis)
{
    (void)ctx;
    for (uint32_t i = 0; i < n; i++)
        vis[i] = v[i] % 2 == 0;
}

Test(runs, visibility_hook)
{
    RunReader *runs[4];
    Ent *all = malloc(sizeof(Ent) * 4 * 2000), *want = malloc(sizeof(Ent) * 4 * 2000);
    Got *got = malloc(sizeof(Got) * 4 * 2000);
    uint32_t n = make_random_runs(runs, 4, 2000, 3000, all, false);
    /* model: drop odd versions, then resolve */
    Ent *even = malloc(sizeof(Ent) * n);
    uint32_t ne = 0;
    for (uint32_t i = 0; i < n; i++)
        if (all[i].ver % 2 == 0)
            even[ne++] = all[i];
    uint32_t nw = model(even, ne, UINT64_MAX, want);
    uint32_t ng = run_merge(runs, 4, UINT64_MAX, got, NULL, odd_invisible, NULL);
    check_merge(want, nw, got, ng);
    for (int r = 0; r < 4; r++)
        run_close(runs[r]);
    free(all);
    free(want);
    free(got);
    free(even);
}

Test(runs, point_lookup_matches_model)
{
    RunReader *runs[5];
    Ent *all = malloc(sizeof(Ent) * 5 * 4000);
    uint32_t n = make_random_runs(runs, 5, 4000, 30000, all, false);
    for (int t = 0; t < 3000; t++) {
        int64_t key = (int64_t)(rnd() % 32000);
        uint64_t snap = t % 2 ? UINT64_MAX : rnd() % (n + 1);
        /* model: newest version <= snap over all runs */
        const Ent *best = NULL;
        for (uint32_t i = 0; i < n; i++)
            if (all[i].key == key && all[i].ver <= snap && (!best || all[i].ver > best->ver))
                best = &all[i];
        /* store: newest run first; versions grow with the run index */
        bool found = false, del = false;
        int64_t val = 0;
        for (int r = 4; r >= 0 && !found; r--) {
            Value k = {.u.i64 = key};
            uint64_t row, ver;
            if (run_lookup(runs[r], &k, snap, arena, &row, &ver, &del)) {
                found = true;
                int col = 1;
                Value v;
                run_fetch_row(runs[r], row, 1, &col, arena, &v);
                val = v.u.i64;
                cr_assert_eq(ver, best ? best->ver : 0);
            }
            mem_arena_reset(arena);
        }
        cr_assert_eq(found, best != NULL, "key %lld", (long long)key);
        if (best) {
            cr_assert_eq(del, best->del);
            cr_assert_eq(val, best->val);
        }
    }
    for (int r = 0; r < 5; r++)
        run_close(runs[r]);
    free(all);
}

Test(runs, bloom_false_positive_rate)
{
    uint32_t n = 100000;
    Ent *e = malloc(sizeof(Ent) * n);
    for (uint32_t i = 0; i < n; i++)
        e[i] = (Ent){(int64_t)i * 2, 1, false, 1};
    RunReader *r = write_ents(path_of("bloom.run"), e, n, 65536, RUN_COMP_LZ4);
    uint32_t fp = 0;
    for (uint32_t i = 0; i < n; i++) {
        Value k = {.u.i64 = (int64_t)i * 2};
        cr_assert(run_bloom_maybe(r, &k), "false negative");
        k.u.i64 = (int64_t)i * 2 + 1;
        fp += run_bloom_maybe(r, &k);
    }
    double rate = (double)fp / n;
    cr_log_info("bloom false positive rate %.4f", rate);
    cr_assert(rate < 0.02, "false positive rate %.4f", rate);
    Value out = {.u.i64 = -7};
    cr_assert(!run_bloom_maybe(r, &out));
    run_close(r);
    free(e);
}

Test(runs, compaction_keeps_what_snapshots_see)
{
    RunReader *runs[6];
    Ent *all = malloc(sizeof(Ent) * 6 * 3000), *want = malloc(sizeof(Ent) * 6 * 3000);
    Got *got = malloc(sizeof(Got) * 6 * 3000);
    uint32_t n = make_random_runs(runs, 6, 3000, 4000, all, false);
    uint64_t oldest = n / 2;
    RunSchema sc = *run_schema(runs[0]);
    RunWriteOptions o = {.compression = RUN_COMP_ZSTD, .zstd_level = 3, .group_rows = 1000};
    for (int bottom = 0; bottom < 2; bottom++) {
        char *p = path_of(mem_printf(arena, "compact%d.run", bottom));
        RunInfo info;
        uint64_t rows = run_compact(runs, 6, &sc, p, &o, oldest, bottom, &info);
        cr_assert_lt(rows, n);
        cr_assert_eq(rows, info.nrows);
        RunReader *c = run_open(p);
        if (bottom)
            for (uint32_t g = 0; g < run_group_count(c); g++) {
                RunChunk dc, vc;
                run_chunk_read(c, g, 3 + 1, arena, &dc);
                run_chunk_read(c, g, 3, arena, &vc);
                for (uint32_t i = 0; i < dc.count; i++)
                    cr_assert(!((bool *)dc.values)[i] || ((uint64_t *)vc.values)[i] > oldest);
            }
        for (int s = 0; s < 4; s++) {
            uint64_t snap = s == 0 ? UINT64_MAX : oldest + rnd() % (n - oldest + 1);
            uint32_t nw = model(all, n, snap, want);
            uint32_t ng = run_merge(&c, 1, snap, got, NULL, NULL, NULL);
            check_merge(want, nw, got, ng);
        }
        run_close(c);
    }
    for (int r = 0; r < 6; r++)
        run_close(runs[r]);
    free(all);
    free(want);
    free(got);
}

/* ---------------------------------------------------------------- generic keys */

/* Composite key (text, int4) over several runs: merge and lookups. */
Test(runs, composite_string_keys)
{
    SqlType t[3] = {{TYPE_TEXT, -1}, {TYPE_INT4, -1}, {TYPE_INT8, -1}};
    int keys[2] = {0, 1};
    RunSchema sc = {3, t, 2, keys};
    enum { NR = 4, PER = 1500 };
    RunReader *runs[NR];
    /* model: key (name%d, k) → (ver, val); entries generated sorted per run */
    static int64_t best_ver[50][100], best_val[50][100];
    memset(best_ver, 0, sizeof best_ver);
    uint64_t ver = 1;
    for (int r = 0; r < NR; r++) {
        RunWriteOptions o = {.group_rows = 200, .compression = RUN_COMP_LZ4, .no_fsync = true};
        RunWriter *w = run_writer_create(path_of(mem_printf(arena, "s%d.run", r)), &sc, &o);
        Batch *b = batch_create(arena, 3, t);
        uint32_t n = 0;
        uint64_t vers[VEC_CAPACITY];
        /* a sorted walk over the key space, each key present with prob 1/3 */
        for (int a = 0; a < 50; a++)
            for (int k = 0; k < 100; k++) {
                if (rnd() % 3)
                    continue;
                char *s = mem_printf(arena, "name%02d", a);
                ((StrRef *)b->cols[0].data)[n] = (StrRef){s, (uint32_t)strlen(s)};
                ((int32_t *)b->cols[1].data)[n] = k;
                ((int64_t *)b->cols[2].data)[n] = (int64_t)(rnd() % 1000);
                vers[n] = ver++;
                best_ver[a][k] = (int64_t)vers[n];
                best_val[a][k] = ((int64_t *)b->cols[2].data)[n];
                if (++n == VEC_CAPACITY) {
                    b->count = n;
                    run_writer_append(w, b, vers, NULL);
                    n = 0;
                }
            }
        b->count = n;
        run_writer_append(w, b, vers, NULL);
        run_writer_finish(w, NULL);
        runs[r] = run_open(path_of(mem_printf(arena, "s%d.run", r)));
    }
    MergeSource *src[NR];
    for (int r = 0; r < NR; r++)
        src[r] = run_merge_source(runs[r], NULL, arena);
    PhysType kt[2] = {PHYS_STR, PHYS_I32};
    MergeOptions o = {.snapshot = UINT64_MAX, .batch_max = 333};
    Merge *m = merge_create(src, NR, 2, kt, &o, arena);
    cr_assert(!merge_is_concat(m));
    Batch *b = batch_create(arena, 3, t);
    int cols[3] = {0, 1, 2};
    MergeBatch mb;
    int expect_a = 0, expect_k = -1, total = 0;
    while (merge_next(m, &mb)) {
        merge_gather(m, &mb, 3, cols, b->cols, arena);
        for (uint32_t i = 0; i < mb.count; i++) {
            /* advance the model to the next present key */
            do {
                if (++expect_k == 100) {
                    expect_k = 0;
                    expect_a++;
                }
            } while (expect_a < 50 && best_ver[expect_a][expect_k] == 0);
            StrRef s = ((StrRef *)b->cols[0].data)[i];
            char name[16];
            snprintf(name, sizeof name, "name%02d", expect_a);
            cr_assert_eq(s.len, strlen(name));
            cr_assert_eq(memcmp(s.ptr, name, s.len), 0);
            cr_assert_eq(((int32_t *)b->cols[1].data)[i], expect_k);
            cr_assert_eq(((int64_t *)b->cols[2].data)[i], best_val[expect_a][expect_k]);
            total++;
        }
    }
    int present = 0;
    for (int a = 0; a < 50; a++)
        for (int k = 0; k < 100; k++)
            present += best_ver[a][k] != 0;
    cr_assert_eq(total, present);
    /* lookups of every present key in the newest run that has it */
    for (int a = 0; a < 50; a += 7)
        for (int k = 0; k < 100; k += 3) {
            Value key[2];
            char *s = mem_printf(arena, "name%02d", a);
            key[0] = (Value){.u.str = {s, (uint32_t)strlen(s)}};
            key[1] = (Value){.u.i32 = k};
            bool found = false, del;
            uint64_t row, v = 0;
            for (int r = NR - 1; r >= 0 && !found; r--)
                found = run_lookup(runs[r], key, UINT64_MAX, arena, &row, &v, &del);
            cr_assert_eq(found, best_ver[a][k] != 0);
            if (found)
                cr_assert_eq((int64_t)v, best_ver[a][k]);
        }
    for (int r = 0; r < NR; r++)
        run_close(runs[r]);
}

Test(runs, columns_added_later_read_as_null)
{
    Ent e[10];
    for (int i = 0; i < 10; i++)
        e[i] = (Ent){i, 1, false, i};
    RunReader *r = write_ents(path_of("old.run"), e, 10, 100, RUN_COMP_LZ4);
    MergeSource *s = run_merge_source(r, NULL, arena);
    PhysType kt = PHYS_I64;
    MergeOptions o = {.snapshot = UINT64_MAX};
    Merge *m = merge_create(&s, 1, 1, &kt, &o, arena);
    MergeBatch mb;
    cr_assert(merge_next(m, &mb));
    cr_assert_eq(mb.count, 10);
    Vector v;
    vec_init(&v, (SqlType){TYPE_INT4, -1}, arena);
    int col = 3;
    merge_gather(m, &mb, 1, &col, &v, arena);
    for (uint32_t i = 0; i < 10; i++)
        cr_assert(!vec_is_valid(&v, i));
    cr_assert(!merge_next(m, &mb));
    run_close(r);
}

/* Disjoint runs, some groups clean (distinct keys, no tombstones, all
 * visible), others not: skip_versions passes clean groups through. */
Test(runs, clean_groups_pass_through)
{
    enum { NR = 4, PER = 5000 };
    RunReader *runs[NR];
    Ent *all = malloc(sizeof(Ent) * NR * PER), *want = malloc(sizeof(Ent) * NR * PER);
    uint32_t n = 0;
    uint64_t ver = 1;
    for (int r = 0; r < NR; r++) {
        Ent *e = &all[n];
        for (uint32_t i = 0; i < PER; i++) {
            /* run 0: clean; 1: a few tombstones; 2: some duplicate keys; 3: clean */
            int64_t k = (int64_t)r * 100000 + (r == 2 ? (int64_t)(i - i % 3 * (i % 500 == 0)) : (int64_t)i);
            e[i] = (Ent){k, ver++, r == 1 && i % 1700 == 0, (int64_t)(rnd() % 100000)};
        }
        runs[r] = write_ents(path_of(mem_printf(arena, "c%d.run", r)), e, PER, 1000, RUN_COMP_LZ4);
        n += PER;
    }
    for (int s = 0; s < 3; s++) {
        uint64_t snap = s == 0 ? UINT64_MAX : s == 1 ? n - 100 : 2500;
        uint32_t nw = model(all, n, snap, want);
        MemArena *a = mem_arena_create("m");
        MergeSource *src[NR];
        for (int r = 0; r < NR; r++)
            src[r] = run_merge_source(runs[NR - 1 - r], NULL, a); /* out of order on purpose */
        PhysType kt = PHYS_I64;
        MergeOptions o = {.snapshot = snap, .skip_versions = true, .batch_max = 700};
        Merge *m = merge_create(src, NR, 1, &kt, &o, a);
        cr_assert(merge_is_concat(m));
        Batch *b = batch_create(a, 3, m_types);
        int cols[2] = {0, 1};
        MergeBatch mb;
        uint32_t got = 0;
        while (merge_next(m, &mb)) {
            cr_assert_null(mb.version);
            merge_gather(m, &mb, 2, cols, b->cols, a);
            for (uint32_t i = 0; i < mb.count; i++, got++) {
                cr_assert(got < nw);
                cr_assert_eq(((int64_t *)b->cols[0].data)[i], want[got].key, "row %u", got);
                cr_assert_eq(((int64_t *)b->cols[1].data)[i], want[got].val);
            }
        }
        cr_assert_eq(got, nw);
        mem_arena_destroy(a);
    }
    for (int r = 0; r < NR; r++)
        run_close(runs[r]);
    free(all);
    free(want);
}

/* The loser-tree path (string keys) against the model, with tombstones,
 * duplicate versions and snapshots: keys are zero-padded numbers, so their
 * byte order is the numeric order of Ent.key. */
static const SqlType s_types[2] = {{TYPE_TEXT, -1}, {TYPE_INT8, -1}};

static RunReader *write_ents_str(const char *path, Ent *e, uint32_t n, uint32_t group_rows)
{
    qsort(e, n, sizeof(Ent), ent_cmp);
    int key = 0;
    RunSchema sc = {2, s_types, 1, &key};
    RunWriteOptions o = {.group_rows = group_rows, .compression = RUN_COMP_ZSTD, .no_fsync = true};
    RunWriter *w = run_writer_create(path, &sc, &o);
    MemArena *a = mem_arena_create("write");
    Batch *b = batch_create(a, 2, s_types);
    uint64_t vers[VEC_CAPACITY];
    bool del[VEC_CAPACITY];
    for (uint32_t s = 0; s < n; s += VEC_CAPACITY) {
        uint32_t k = n - s < VEC_CAPACITY ? n - s : VEC_CAPACITY;
        for (uint32_t i = 0; i < k; i++) {
            char *t = mem_printf(a, "key%08lld", (long long)e[s + i].key);
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

Test(runs, string_key_merge_matches_model)
{
    for (int round = 0; round < 4; round++) {
        int nruns = 2 + (int)(rnd() % 6);
        uint32_t per = 100 + (uint32_t)(rnd() % 1500);
        int64_t keyspace = 20 + (int64_t)(rnd() % 3000);
        RunReader *runs[8];
        Ent *all = malloc(sizeof(Ent) * nruns * per), *want = malloc(sizeof(Ent) * nruns * per);
        uint32_t n = 0;
        uint64_t ver = 1;
        for (int r = 0; r < nruns; r++) {
            Ent *e = &all[n];
            for (uint32_t i = 0; i < per; i++)
                e[i] = (Ent){(int64_t)(rnd() % (uint64_t)keyspace), ver++, rnd() % 8 == 0,
                             (int64_t)(rnd() % 100000)};
            runs[r] = write_ents_str(path_of(mem_printf(arena, "t%d.run", r)), e, per,
                                     50 + (uint32_t)(rnd() % 500));
            n += per;
        }
        for (int s = 0; s < 3; s++) {
            uint64_t snap = s == 0 ? UINT64_MAX : rnd() % (n + 1);
            uint32_t nw = model(all, n, snap, want);
            MemArena *a = mem_arena_create("m");
            MergeSource *src[8];
            for (int r = 0; r < nruns; r++)
                src[r] = run_merge_source(runs[r], NULL, a);
            PhysType kt = PHYS_STR;
            MergeOptions o = {.snapshot = snap, .batch_max = 1 + (uint32_t)(rnd() % VEC_CAPACITY)};
            Merge *m = merge_create(src, nruns, 1, &kt, &o, a);
            Batch *b = batch_create(a, 2, s_types);
            int cols[2] = {0, 1};
            MergeBatch mb;
            uint32_t got = 0;
            while (merge_next(m, &mb)) {
                merge_gather(m, &mb, 2, cols, b->cols, a);
                for (uint32_t i = 0; i < mb.count; i++, got++) {
                    cr_assert(got < nw, "too many rows");
                    char k[32];
                    snprintf(k, sizeof k, "key%08lld", (long long)want[got].key);
                    StrRef sk = ((StrRef *)b->cols[0].data)[i];
                    cr_assert(sk.len == strlen(k) && memcmp(sk.ptr, k, sk.len) == 0, "row %u", got);
                    cr_assert_eq(((int64_t *)b->cols[1].data)[i], want[got].val);
                }
            }
            cr_assert_eq(got, nw);
            mem_arena_destroy(a);
        }
        for (int r = 0; r < nruns; r++)
            run_close(runs[r]);
        free(all);
        free(want);
    }
}

/* Zone-map pruning of a single source: skipped groups are left out. */
Test(runs, skip_groups_leave_groups_out)
{
    Ent e[5000];
    for (int i = 0; i < 5000; i++)
        e[i] = (Ent){i, 1, false, i};
    RunReader *r = write_ents(path_of("skip.run"), e, 5000, 1000, RUN_COMP_LZ4);
    cr_assert_eq(run_group_count(r), 5);
    bool skip[5] = {false, true, false, true, true};
    MergeSource *s = run_merge_source(r, skip, arena);
    PhysType kt = PHYS_I64;
    MergeOptions o = {.snapshot = UINT64_MAX, .skip_versions = true};
    Merge *m = merge_create(&s, 1, 1, &kt, &o, arena);
    Vector v;
    vec_init(&v, m_types[0], arena);
    int col = 0;
    MergeBatch mb;
    int64_t expect = 0;
    uint32_t total = 0;
    while (merge_next(m, &mb)) {
        merge_gather(m, &mb, 1, &col, &v, arena);
        for (uint32_t i = 0; i < mb.count; i++, total++) {
            if (expect == 1000)
                expect = 2000;
            cr_assert_eq(((int64_t *)v.data)[i], expect++);
        }
    }
    cr_assert_eq(total, 2000);
    RunZone z;
    run_group_zone(r, 2, 0, &z);
    cr_assert(z.has_minmax && z.min.u.i64 == 2000 && z.max.u.i64 == 2999 && z.null_count == 0);
    run_close(r);
}

Test(runs, empty_run)
{
    RunReader *r = write_ents(path_of("empty.run"), NULL, 0, 100, RUN_COMP_ZSTD);
    RunInfo info;
    run_info(r, &info);
    cr_assert_eq(info.nrows, 0);
    cr_assert_eq(run_group_count(r), 0);
    cr_assert_null(info.min_key);
    Value k = {.u.i64 = 1};
    uint64_t row, ver;
    bool del;
    cr_assert(!run_bloom_maybe(r, &k));
    cr_assert(!run_lookup(r, &k, UINT64_MAX, arena, &row, &ver, &del));
    MergeSource *s = run_merge_source(r, NULL, arena);
    PhysType kt = PHYS_I64;
    MergeOptions o = {.snapshot = UINT64_MAX};
    Merge *m = merge_create(&s, 1, 1, &kt, &o, arena);
    MergeBatch mb;
    cr_assert(!merge_next(m, &mb));
    cr_assert_eq(mb.count, 0);
    run_close(r);
}

/* Readers are shared: 4 threads merge and look up in the same ZSTD runs at
 * once (per-thread ZSTD contexts, bloom verification flags) and must all
 * get the single-threaded answer. */
typedef struct ThreadJob {
    RunReader **runs;
    int nruns;
    uint64_t sum, lookups_found;
    bool failed;
} ThreadJob;

static void *thread_job(void *arg)
{
    ThreadJob *j = arg;
    ErrJmp jmp;
    MemArena *a = mem_arena_create("thread");
    if (ERR_TRY(jmp)) {
        for (int rep = 0; rep < 3; rep++) {
            mem_arena_reset(a);
            MergeSource *src[8];
            for (int r = 0; r < j->nruns; r++)
                src[r] = run_merge_source(j->runs[r], NULL, a);
            PhysType kt = PHYS_I64;
            MergeOptions o = {.snapshot = UINT64_MAX};
            Merge *m = merge_create(src, j->nruns, 1, &kt, &o, a);
            Vector v;
            vec_init(&v, m_types[1], a);
            int col = 1;
            MergeBatch mb;
            uint64_t sum = 0;
            while (merge_next(m, &mb)) {
                merge_gather(m, &mb, 1, &col, &v, a);
                for (uint32_t i = 0; i < mb.count; i++)
                    sum += (uint64_t)((int64_t *)v.data)[i];
            }
            uint64_t found = 0;
            for (int64_t k = 0; k < 3000; k += 7) {
                Value key = {.u.i64 = k};
                uint64_t row, ver;
                bool del;
                for (int r = j->nruns - 1; r >= 0; r--)
                    if (run_lookup(j->runs[r], &key, UINT64_MAX, a, &row, &ver, &del)) {
                        found += !del;
                        break;
                    }
            }
            if (rep > 0 && (sum != j->sum || found != j->lookups_found))
                j->failed = true;
            j->sum = sum;
            j->lookups_found = found;
        }
        err_pop(&jmp);
    } else {
        j->failed = true;
    }
    mem_arena_destroy(a);
    return NULL;
}

Test(runs, readers_shared_between_threads)
{
    RunReader *runs[4];
    Ent *all = malloc(sizeof(Ent) * 4 * 4000);
    uint32_t n = 0;
    uint64_t ver = 1;
    for (int r = 0; r < 4; r++) {
        Ent *e = &all[n];
        for (uint32_t i = 0; i < 4000; i++)
            e[i] = (Ent){(int64_t)(rnd() % 3000), ver++, rnd() % 10 == 0, (int64_t)(rnd() % 1000)};
        runs[r] = write_ents(path_of(mem_printf(arena, "mt%d.run", r)), e, 4000, 500, RUN_COMP_ZSTD);
        n += 4000;
    }
    ThreadJob ref = {runs, 4, 0, 0, false};
    thread_job(&ref);
    cr_assert(!ref.failed);
    /* the model's answer for the sum */
    Ent *want = malloc(sizeof(Ent) * n);
    uint32_t nw = model(all, n, UINT64_MAX, want);
    uint64_t msum = 0;
    for (uint32_t i = 0; i < nw; i++)
        msum += (uint64_t)want[i].val;
    cr_assert_eq(ref.sum, msum);
    pthread_t th[4];
    ThreadJob jobs[4];
    for (int t = 0; t < 4; t++) {
        jobs[t] = (ThreadJob){runs, 4, 0, 0, false};
        cr_assert_eq(pthread_create(&th[t], NULL, thread_job, &jobs[t]), 0);
    }
    for (int t = 0; t < 4; t++) {
        pthread_join(th[t], NULL);
        cr_assert(!jobs[t].failed);
        cr_assert_eq(jobs[t].sum, ref.sum);
        cr_assert_eq(jobs[t].lookups_found, ref.lookups_found);
    }
    for (int r = 0; r < 4; r++)
        run_close(runs[r]);
    free(all);
    free(want);
}
