/*
 * test_storage_cold_strings.c — string columns leave memory after a
 * checkpoint (storage/cold.c, table.c's two heap chains).
 *
 * Non-key string columns of covered row groups are served from the run
 * like fixed-width ones, and the heap blocks holding their bytes are
 * released once every row whose strings they hold is cold; key columns'
 * strings stay. These tests check every value (NULLs, empty strings,
 * strings over 64 KB, a dictionary-encoded column) hot, cold and after a
 * restart; the key chain kept; UPDATE/DELETE of cold rows; row fetches
 * whose strings outlive a checkpoint; a rollback onto a released block;
 * TRUNCATE; ADD PRIMARY KEY on a cold string column; readers holding
 * batches across freezes; and that the process's memory actually drops.
 * Includes storage_int.h to look at chunk pointers and heap blocks.
 */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "common/error.h"
#include "common/vector.h"
#define STORE_INTERNAL
#include "storage/storage_int.h"

#define STORAGE_FIXTURE_TAG "coldstr"
#include "storage_fixture.h"

TestSuite(coldstr, .init = storage_setup, .fini = storage_teardown, .timeout = 180);

/* cs(id bigint, s text, c varchar, n integer): row k has
 *   s: NULL when k % 5 == 1, "" when k % 5 == 2, a string of 100,000 +
 *      k % 1000 bytes when k % 40000 == 8, else "v<k>" + "-x" × (k % 50);
 *      `tag` (0 at load) is appended as "#<tag>" when not 0 and s is not NULL;
 *   c: "c<k % 10>" (a dictionary in the run); n: k % 1000. */
#define NCOLS 4
#define CS_TYPES {SQLTYPE(TYPE_INT8), SQLTYPE(TYPE_TEXT), SQLTYPE(TYPE_VARCHAR), SQLTYPE(TYPE_INT4)}
static SqlType types[NCOLS];

__attribute__((constructor)) static void types_init(void)
{
    SqlType t[NCOLS] = CS_TYPES;
    memcpy(types, t, sizeof types);
}

static StoreTable *make_cs(const char *name, int npkey, const int *pkey)
{
    StoreColumnDef cols[NCOLS] = {
        {"id", types[0], false, NULL},
        {"s", types[1], false, NULL},
        {"c", types[2], false, NULL},
        {"n", types[3], false, NULL},
    };
    StoreTable *t = NULL;
    NO_ERROR(t = store_table_create("public", name, NCOLS, cols, npkey, pkey));
    return t;
}

/* s of row k with tag into buf (malloc'd, *len); false = NULL. */
static bool s_of(int64_t k, int tag, char **buf, uint32_t *len)
{
    if (k % 5 == 1)
        return false;
    size_t cap = 200000;
    char *p = malloc(cap);
    cr_assert_not_null(p);
    size_t n = 0;
    if (k % 5 == 2) {
        n = 0;
    } else if (k % 40000 == 8) {
        n = 100000 + (size_t)(k % 1000);
        for (size_t i = 0; i < n; i++)
            p[i] = (char)('a' + (i * 7 + (size_t)k) % 26);
    } else {
        n = (size_t)snprintf(p, cap, "v%lld", (long long)k);
        for (int i = 0; i < k % 50; i++) {
            p[n++] = '-';
            p[n++] = 'x';
        }
    }
    if (tag)
        n += (size_t)snprintf(p + n, cap - n, "#%d", tag);
    *buf = p;
    *len = (uint32_t)n;
    return true;
}

/* nonnull: s = "nul" where the formula says NULL (a key column). */
static bool nonnull;

/* noinline: inlined into a test with ERR_TRY, gcc -O3 flags its locals as
 * possibly clobbered by longjmp (-Wclobbered) though none lives across it. */
__attribute__((noinline)) static Batch *cs_batch(int64_t first, uint32_t n, int tag)
{
    Batch *b = batch_create(arena, NCOLS, types);
    for (uint32_t r = 0; r < n; r++) {
        int64_t k = first + r;
        Value v = {.is_null = false};
        v.u.i64 = k;
        vec_set_value(&b->cols[0], r, &v);
        char *s;
        uint32_t len;
        if (s_of(k, tag, &s, &len)) {
            char *copy = mem_alloc(arena, len + 1);
            memcpy(copy, s, len);
            free(s);
            v.u.str = (StrRef){copy, len};
            vec_set_value(&b->cols[1], r, &v);
        } else if (nonnull) {
            v.u.str = (StrRef){"nul", 3};
            vec_set_value(&b->cols[1], r, &v);
        } else {
            vec_set_null(&b->cols[1], r);
        }
        char *c = mem_printf(arena, "c%d", (int)(k % 10));
        v.u.str = (StrRef){c, (uint32_t)strlen(c)};
        vec_set_value(&b->cols[2], r, &v);
        v.u.i32 = (int32_t)(k % 1000);
        vec_set_value(&b->cols[3], r, &v);
    }
    b->count = n;
    return b;
}

__attribute__((noinline)) static void append_ok(StoreTable *t, StoreTxn *x, Batch *b)
{
    NO_ERROR(store_table_append(t, x, b));
}

__attribute__((noinline)) static void checkpoint_ok(void)
{
    NO_ERROR(store_checkpoint());
}

static void load_cs(StoreTable *t, StoreTxn *x, int64_t first, uint32_t n)
{
    StoreTxn *own = x ? x : store_txn_begin();
    for (uint32_t done = 0; done < n; done += 2000) {
        uint32_t k = n - done < 2000 ? n - done : 2000;
        append_ok(t, own, cs_batch(first + done, k, 0));
        mem_arena_reset(arena);
    }
    if (!x)
        store_txn_commit(own);
}

/* Check row r of a batch of columns (id, s, c, n); tag_of(k) gives the tag. */
static void check_row(const Batch *b, uint32_t r, int (*tag_of)(int64_t))
{
    int64_t k = ((const int64_t *)b->cols[0].data)[r];
    char *want;
    uint32_t len;
    bool valid = s_of(k, tag_of ? tag_of(k) : 0, &want, &len);
    if (!valid && nonnull) {
        valid = true;
        want = strdup("nul");
        len = 3;
    }
    cr_assert_eq(vec_is_valid(&b->cols[1], r), valid, "s NULL of row %lld", (long long)k);
    if (valid) {
        StrRef s = ((const StrRef *)b->cols[1].data)[r];
        cr_assert(s.len == len && (len == 0 || memcmp(s.ptr, want, len) == 0),
                  "s of row %lld (%u bytes, want %u)", (long long)k, s.len, len);
        free(want);
    }
    char c[8];
    snprintf(c, sizeof c, "c%d", (int)(k % 10));
    StrRef cs = ((const StrRef *)b->cols[2].data)[r];
    cr_assert(vec_is_valid(&b->cols[2], r) && cs.len == strlen(c) && memcmp(cs.ptr, c, cs.len) == 0,
              "c of row %lld", (long long)k);
    cr_assert_eq(((const int32_t *)b->cols[3].data)[r], (int32_t)(k % 1000));
}

__attribute__((noinline)) static void scan_rows(StoreScan *s, int (*tag_of)(int64_t), uint64_t *n,
                                                int64_t *sum)
{
    Batch b = {0};
    while (store_scan_next(s, &b)) {
        for (uint32_t r = 0; r < b.count; r++) {
            check_row(&b, r, tag_of);
            *sum += ((const int64_t *)b.cols[0].data)[r];
        }
        *n += b.count;
    }
}

/* Scan every column, check every row; rows seen, sum of ids in *sum. */
static uint64_t scan_check(StoreTable *t, StoreTxn *x, int (*tag_of)(int64_t), int64_t *sum)
{
    int cols[NCOLS] = {0, 1, 2, 3};
    StoreScan *s = store_scan_begin(t, x, NCOLS, cols, 0, NULL, arena);
    uint64_t n = 0;
    *sum = 0;
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        scan_rows(s, tag_of, &n, sum);
        err_pop(&jmp);
    } else {
        store_scan_end(s);
        cr_assert_fail("scan raised %s: %s", err_current()->sqlstate, err_current()->message);
    }
    store_scan_end(s);
    return n;
}

static uint64_t cold_chunks(StoreTable *t, int col)
{
    uint64_t n = 0, groups = (atomic_load(&t->committed) + STORE_GROUP_ROWS - 1) / STORE_GROUP_ROWS;
    for (uint64_t g = 0; g < groups; g++)
        n += __atomic_load_n(&store__group(t, g)->chunks[col].data, __ATOMIC_ACQUIRE) == NULL;
    return n;
}

/* Bytes of heap blocks still held by a chain. */
static size_t chain_bytes(const StoreHeapBlock *b)
{
    size_t n = 0;
    for (; b; b = b->prev)
        n += b->bytes ? b->size : 0;
    return n;
}

static size_t rss_kb(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    cr_assert_not_null(f);
    char line[256];
    size_t kb = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "VmRSS: %zu kB", &kb) == 1)
            break;
    fclose(f);
    return kb;
}

static int64_t tri(int64_t n) { return n * (n - 1) / 2; }

#define ROWS (73 * STORE_GROUP_ROWS)  /* 149,504 rows: whole groups, 3 run groups */

Test(coldstr, every_string_back_after_checkpoint_and_restart)
{
    StoreTable *t = make_cs("cs", 0, NULL);
    load_cs(t, NULL, 0, ROWS);
    int64_t sum;
    cr_assert_eq(scan_check(t, NULL, NULL, &sum), ROWS);
    size_t hot = chain_bytes(t->heap.vals);
    cr_assert_gt(hot, (size_t)4 << 20, "the strings are in the value chain (%zu)", hot);
    cr_assert_eq(chain_bytes(t->heap.head), 0, "no key strings");

    checkpoint_ok();
    cr_assert_eq(cold_chunks(t, 1), ROWS / STORE_GROUP_ROWS);
    cr_assert_eq(cold_chunks(t, 2), ROWS / STORE_GROUP_ROWS);
    size_t cold = chain_bytes(t->heap.vals);
    cr_assert_leq(cold, (size_t)STORE_HEAP_BLOCK, "only the current block stays (%zu of %zu)", cold, hot);
    cr_assert_eq(scan_check(t, NULL, NULL, &sum), ROWS);
    cr_assert_eq(sum, tri(ROWS));

    /* Row fetch of cold rows, long strings included. */
    int all[NCOLS] = {0, 1, 2, 3};
    Batch *many = batch_create(arena, NCOLS, types);
    for (int64_t r = 0; r < ROWS; r += 997) {
        cr_assert(store_row_fetch(t, NULL, (uint64_t)r, NCOLS, all, many));
        check_row(many, 0, NULL);
    }
    Batch *one = batch_create(arena, NCOLS, types);
    cr_assert(store_row_fetch(t, NULL, 40008, NCOLS, all, one));
    cr_assert_eq(((const StrRef *)one->cols[1].data)[0].len, 100000 + 40008 % 1000);
    check_row(one, 0, NULL);

    restart();
    t = store_table_lookup("public", "cs");
    cr_assert_eq(cold_chunks(t, 1), ROWS / STORE_GROUP_ROWS, "recovery loads strings cold");
    cr_assert_leq(chain_bytes(t->heap.vals), (size_t)2 * STORE_HEAP_BLOCK, "recovery keeps no strings");
    cr_assert_eq(scan_check(t, NULL, NULL, &sum), ROWS);
    cr_assert_eq(sum, tri(ROWS));

    /* Appends after the restart: hot, then cold at the next checkpoint. */
    load_cs(t, NULL, ROWS, 5000);
    cr_assert_eq(scan_check(t, NULL, NULL, &sum), ROWS + 5000);
    checkpoint_ok();
    cr_assert_eq(scan_check(t, NULL, NULL, &sum), ROWS + 5000);
    cr_assert_eq(sum, tri(ROWS + 5000));
}

Test(coldstr, key_strings_go_cold_with_their_key_runs)
{
    /* ks(id bigint, s text, c varchar primary key, n integer): c unique by
     * giving every row its own c? The cs formula repeats c, so key on
     * (c, id) — a string key column next to a fixed-width one. */
    int pkey[] = {2, 0};
    StoreTable *t = make_cs("ks", 2, pkey);
    load_cs(t, NULL, 0, 20 * STORE_GROUP_ROWS);
    size_t keys = chain_bytes(t->heap.head);
    cr_assert_gt(keys, 0, "key strings in the key chain");
    checkpoint_ok();
    /* The keys are in the checkpoint's key run (storage/keyruns.c): the key
     * columns' arrays go too; their strings' bytes stay in the key chain. */
    cr_assert_eq(cold_chunks(t, 1), 20, "s cold");
    cr_assert_eq(cold_chunks(t, 2), 20, "the key column with its keys in a run");
    cr_assert_eq(cold_chunks(t, 0), 20);
    cr_assert_eq(chain_bytes(t->heap.head), keys, "key chain kept");
    for (int64_t k = 3; k < 20 * STORE_GROUP_ROWS; k += 1231) {
        char c[8];
        snprintf(c, sizeof c, "c%d", (int)(k % 10));
        Value key[2] = {{.is_null = false}, {.is_null = false}};
        key[0].u.str = (StrRef){c, (uint32_t)strlen(c)};
        key[1].u.i64 = k;
        uint64_t row = 0;
        bool found = false;
        NO_ERROR(found = store_table_lookup_key(t, NULL, key, &row));
        cr_assert(found);
        cr_assert_eq(row, (uint64_t)k);
        int all[NCOLS] = {0, 1, 2, 3};
        Batch *one = batch_create(arena, NCOLS, types);
        cr_assert(store_row_fetch(t, NULL, row, NCOLS, all, one));
        check_row(one, 0, NULL);
    }
    EXPECT_ERROR("23505", store_table_append(t, NULL, cs_batch(5, 1, 0)));
    restart();
    t = store_table_lookup("public", "ks");
    cr_assert_eq(cold_chunks(t, 2), 20, "recovery leaves keys in runs cold");
    EXPECT_ERROR("23505", store_table_append(t, NULL, cs_batch(5, 1, 0)));
    int64_t sum;
    cr_assert_eq(scan_check(t, NULL, NULL, &sum), 20 * STORE_GROUP_ROWS);
}

static int tag_updated(int64_t k) { return k % 10 == 0 ? 9 : 0; }

Test(coldstr, update_delete_of_cold_strings_then_restart)
{
    StoreTable *t = make_cs("cs", 0, NULL);
    load_cs(t, NULL, 0, 30 * STORE_GROUP_ROWS);
    checkpoint_ok();
    /* UPDATE every 10th row's s (tag 9), DELETE every 13th (not 10th). */
    StoreTxn *x = store_txn_begin();
    int64_t deleted = 0;
    for (int64_t k = 0; k < 30 * STORE_GROUP_ROWS; k++) {
        uint64_t newest;
        if (k % 10 == 0) {
            Batch *b = cs_batch(k, 1, 9);
            StoreWriteResult r = STORE_WRITE_GONE;
            NO_ERROR(r = store_row_update(t, x, (uint64_t)k, b, 0, &newest));
            cr_assert_eq(r, STORE_WRITE_OK);
            mem_arena_reset(arena);
        } else if (k % 13 == 0) {
            StoreWriteResult r = STORE_WRITE_GONE;
            NO_ERROR(r = store_row_delete(t, x, (uint64_t)k, &newest));
            cr_assert_eq(r, STORE_WRITE_OK);
            deleted += k;
        }
    }
    store_txn_commit(x);
    int64_t sum;
    uint64_t live = 30 * STORE_GROUP_ROWS;
    for (int64_t k = 0; k < 30 * STORE_GROUP_ROWS; k++)
        live -= k % 10 != 0 && k % 13 == 0;
    cr_assert_eq(scan_check(t, NULL, tag_updated, &sum), live);
    cr_assert_eq(sum, tri(30 * STORE_GROUP_ROWS) - deleted);
    checkpoint_ok();
    cr_assert_eq(scan_check(t, NULL, tag_updated, &sum), live);
    restart();
    t = store_table_lookup("public", "cs");
    cr_assert_eq(scan_check(t, NULL, tag_updated, &sum), live);
    cr_assert_eq(sum, tri(30 * STORE_GROUP_ROWS) - deleted);
    checkpoint_ok();
    restart();
    t = store_table_lookup("public", "cs");
    cr_assert_eq(scan_check(t, NULL, tag_updated, &sum), live);
}

Test(coldstr, fetched_strings_outlive_the_checkpoint)
{
    StoreTable *t = make_cs("cs", 0, NULL);
    load_cs(t, NULL, 0, 40 * STORE_GROUP_ROWS);
    /* Hot fetches into two batches, then a checkpoint releases the heap
     * blocks they were read from: the copies stay (ASan would see a read
     * of freed memory otherwise). */
    StoreTxn *x = store_txn_begin();
    int all[NCOLS] = {0, 1, 2, 3};
    Batch *a = batch_create(arena, NCOLS, types), *b = batch_create(arena, NCOLS, types);
    cr_assert(store_row_fetch(t, x, 3, NCOLS, all, a));
    cr_assert(store_row_fetch(t, x, 40008, NCOLS, all, b));
    size_t hot = chain_bytes(t->heap.vals);
    checkpoint_ok();
    cr_assert_lt(chain_bytes(t->heap.vals), hot, "blocks released");
    check_row(a, 0, NULL);
    check_row(b, 0, NULL);
    /* Many fetches into one batch (EvalPlanQual's loop): each one's strings
     * replace the previous ones; the other batch keeps its own. */
    for (uint64_t r = 0; r < 40 * STORE_GROUP_ROWS; r += 29) {
        cr_assert(store_row_fetch(t, x, r, NCOLS, all, a));
        check_row(a, 0, NULL);
    }
    check_row(b, 0, NULL);
    store_txn_commit(x);
}

Test(coldstr, rollback_onto_a_released_block)
{
    StoreTable *t = make_cs("cs", 0, NULL);
    load_cs(t, NULL, 0, 40 * STORE_GROUP_ROWS);
    /* A transaction whose first batch does not fit the current value block
     * (its heap mark names that block); a checkpoint then releases the
     * block (all its rows are committed and cold); the rollback resets the
     * chain to it; appends afterwards must start a new one. */
    StoreTxn *x = store_txn_begin();
    Batch *big = cs_batch(40008, 20, 0);  /* 20 strings of ~101 KB: 2 MB */
    for (uint32_t r = 0; r < big->count; r++)
        ((int64_t *)big->cols[0].data)[r] = 40008;  /* every row the long one */
    for (uint32_t r = 0; r < big->count; r++) {
        char *s;
        uint32_t len;
        cr_assert(s_of(40008, 0, &s, &len));
        char *copy = mem_alloc(arena, len);
        memcpy(copy, s, len);
        free(s);
        ((StrRef *)big->cols[1].data)[r] = (StrRef){copy, len};
        ((StrRef *)big->cols[2].data)[r] = (StrRef){"c7", 2};
        ((int32_t *)big->cols[3].data)[r] = 7;
    }
    NO_ERROR(store_table_lock_write(t, x));  /* straight to the table, not a delta */
    StoreHeapBlock *before = t->heap.vals;
    append_ok(t, x, big);
    cr_assert_neq(t->heap.vals, before, "a new block for the big batch");
    checkpoint_ok();
    cr_assert_null(before->bytes, "the old current block is released");
    store_txn_rollback(x);
    cr_assert_eq(t->heap.vals, before);
    load_cs(t, NULL, 40 * STORE_GROUP_ROWS, 3000);
    cr_assert_neq(t->heap.vals, before);
    int64_t sum;
    cr_assert_eq(scan_check(t, NULL, NULL, &sum), 40 * STORE_GROUP_ROWS + 3000);
    cr_assert_eq(sum, tri(40 * STORE_GROUP_ROWS + 3000));
    checkpoint_ok();
    restart();
    t = store_table_lookup("public", "cs");
    cr_assert_eq(scan_check(t, NULL, NULL, &sum), 40 * STORE_GROUP_ROWS + 3000);
}

Test(coldstr, truncate_drops_old_value_blocks)
{
    StoreTable *t = make_cs("cs", 0, NULL);
    load_cs(t, NULL, 0, 20 * STORE_GROUP_ROWS);
    load_cs(t, NULL, 20 * STORE_GROUP_ROWS, 1000);  /* a hot partial group */
    checkpoint_ok();
    StoreTxn *x = store_txn_begin();
    NO_ERROR(store_table_truncate(t, x));
    load_cs(t, x, 100000, 4000);
    store_txn_commit(x);
    int64_t sum;
    cr_assert_eq(scan_check(t, NULL, NULL, &sum), 4000);
    cr_assert_eq(sum, tri(104000) - tri(100000));
    int nblocks = 0;
    for (StoreHeapBlock *b = t->heap.vals; b; b = b->prev) {
        nblocks++;
        cr_assert(b->row_lo == UINT64_MAX || b->row_hi <= 4000, "renumbered");
    }
    cr_assert_leq(nblocks, 2, "only the new rows' blocks");
    checkpoint_ok();
    cr_assert_eq(scan_check(t, NULL, NULL, &sum), 4000);
    restart();
    t = store_table_lookup("public", "cs");
    cr_assert_eq(scan_check(t, NULL, NULL, &sum), 4000);
    cr_assert_eq(sum, tri(104000) - tri(100000));
}

Test(coldstr, add_primary_key_on_a_cold_string_column)
{
    /* s is unique where not NULL/empty; key on (id, s) is unique and
     * NOT NULL needs every s set: use rows whose s is never NULL. */
    StoreTable *t = make_cs("cs", 0, NULL);
    nonnull = true;
    load_cs(t, NULL, 0, 12 * STORE_GROUP_ROWS);
    checkpoint_ok();
    cr_assert_eq(cold_chunks(t, 1), 12);
    StoreTxn *x = store_txn_begin();
    int pkey[] = {1, 0};
    NO_ERROR(store_table_add_pkey(t, x, 2, pkey));
    store_txn_commit(x);
    cr_assert_eq(cold_chunks(t, 1), 0, "the key column is back in memory");
    load_cs(t, NULL, 12 * STORE_GROUP_ROWS, 2 * STORE_GROUP_ROWS);  /* key strings: key chain */
    checkpoint_ok();
    /* The key run holds every key now (storage/keyruns.c): the key column
     * leaves memory in the groups this checkpoint wrote and, since their
     * data is in the earlier run, in the ones ADD PRIMARY KEY reloaded. */
    cr_assert_eq(cold_chunks(t, 1), 14, "the key column of every whole group");
    cr_assert_gt(cold_chunks(t, 2), 0);
    char *s;
    uint32_t len;
    cr_assert(s_of(8, 0, &s, &len));  /* the long one */
    Value key[2] = {{.is_null = false}, {.is_null = false}};
    key[0].u.str = (StrRef){s, len};
    key[1].u.i64 = 8;
    uint64_t row = 0;
    bool found = false;
    NO_ERROR(found = store_table_lookup_key(t, NULL, key, &row));
    free(s);
    cr_assert(found && row == 8);
    int64_t sum;
    cr_assert_eq(scan_check(t, NULL, NULL, &sum), 14 * STORE_GROUP_ROWS);
    restart();
    t = store_table_lookup("public", "cs");
    cr_assert_eq(cold_chunks(t, 1), 14, "recovery leaves keys in runs cold");
    cr_assert(s_of(3, 0, &s, &len));
    key[0].u.str = (StrRef){s, len};
    key[1].u.i64 = 3;
    NO_ERROR(found = store_table_lookup_key(t, NULL, key, &row));
    free(s);
    cr_assert(found && row == 3);
    cr_assert_eq(scan_check(t, NULL, NULL, &sum), 14 * STORE_GROUP_ROWS);
    cr_assert_eq(sum, tri(14 * STORE_GROUP_ROWS));
}

/* Readers holding batches while checkpoints freeze their groups. */
static StoreTable *conc_table;
static atomic_bool conc_stop;
static _Atomic uint64_t conc_scans;

static void *conc_reader(void *arg)
{
    (void)arg;
    MemArena *a = mem_arena_create("reader");
    while (!atomic_load(&conc_stop)) {
        StoreTxn *x = store_txn_begin();
        int cols[NCOLS] = {0, 1, 2, 3};
        StoreScan *s = store_scan_begin(conc_table, x, NCOLS, cols, 0, NULL, a);
        Batch b = {0};
        while (store_scan_next(s, &b)) {
            usleep(200);  /* hold the batch while a freeze may run */
            for (uint32_t r = 0; r < b.count; r++)
                check_row(&b, r, NULL);
        }
        store_scan_end(s);
        store_txn_commit(x);
        mem_arena_reset(a);
        atomic_fetch_add(&conc_scans, 1);
    }
    mem_arena_destroy(a);
    return NULL;
}

Test(coldstr, scans_during_freezes_are_safe)
{
    conc_table = make_cs("cs", 0, NULL);
    load_cs(conc_table, NULL, 0, 10 * STORE_GROUP_ROWS);
    pthread_t th[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&th[i], NULL, conc_reader, NULL);
    for (int round = 0; round < 5; round++) {
        load_cs(conc_table, NULL, (10 + 5 * round) * STORE_GROUP_ROWS, 5 * STORE_GROUP_ROWS);
        checkpoint_ok();
    }
    atomic_store(&conc_stop, true);
    for (int i = 0; i < 2; i++)
        pthread_join(th[i], NULL);
    cr_assert_gt(atomic_load(&conc_scans), 0);
    int64_t sum;
    cr_assert_eq(scan_check(conc_table, NULL, NULL, &sum), 35 * STORE_GROUP_ROWS);
    cr_assert_leq(chain_bytes(conc_table->heap.vals), (size_t)STORE_HEAP_BLOCK);
}

Test(coldstr, memory_actually_drops)
{
    /* ~300K rows × ~80 bytes of strings = ~24 MB in the heap, plus 5 MB of
     * StrRef arrays; after the checkpoint both go back to the OS. */
    StoreTable *t = make_cs("cs", 0, NULL);
    store__chunk_cache_set_budget(0);
    load_cs(t, NULL, 0, 150 * STORE_GROUP_ROWS);
    size_t hot = rss_kb(), hot_heap = chain_bytes(t->heap.vals);
    checkpoint_ok();
    size_t cold = rss_kb(), cold_heap = chain_bytes(t->heap.vals);
    cr_assert_lt(cold_heap + ((size_t)10 << 20), hot_heap, "heap %zu hot, %zu cold", hot_heap, cold_heap);
#if defined(__SANITIZE_ADDRESS__)
    (void)hot, (void)cold;  /* ASan's quarantine and shadow memory: RSS says nothing */
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    (void)hot, (void)cold;
#else
    cr_assert_lt(cold + 15 * 1024, hot, "RSS %zu kB hot, %zu kB cold", hot, cold);
#endif
#else
    cr_assert_lt(cold + 15 * 1024, hot, "RSS %zu kB hot, %zu kB cold", hot, cold);
#endif
    restart();
    t = store_table_lookup("public", "cs");
    int64_t sum;
    cr_assert_eq(scan_check(t, NULL, NULL, &sum), 150 * STORE_GROUP_ROWS);
}
