/*
 * test_storage_chunk_slab.c — freed chunks of a 2 MB column slab give their
 * pages back to the OS (storage/chunk_slab.c) while the slab's other chunks
 * live on, in 64 KB blocks that lie entirely in freed chunks, and only those.
 *
 * Residency is read with mincore(2) on the slab's pages. The first tests
 * drive store__chunk_alloc / store__chunk_free on a bare StoreTable header
 * (the allocator reads only ngroups, width, cap_cols and slab_cur); the last
 * one goes through a real CHECKPOINT, which frees the frozen chunks of the
 * slab that still holds the table's in-memory tail ("Cold chunks").
 */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "common/error.h"
#include "common/vector.h"
#define STORE_INTERNAL
#include "storage/storage_int.h"

#define STORAGE_FIXTURE_TAG "chunkslab"
#include "storage_fixture.h"

TestSuite(chunkslab, .init = storage_setup, .fini = storage_teardown, .timeout = 60);

static size_t page_bytes(void) { return (size_t)sysconf(_SC_PAGESIZE); }

/* Resident pages among those holding bytes [p, p + len). */
static size_t resident_pages(const void *p, size_t len)
{
    size_t pg = page_bytes();
    uintptr_t lo = (uintptr_t)p & ~(uintptr_t)(pg - 1), hi = ((uintptr_t)p + len + pg - 1) & ~(uintptr_t)(pg - 1);
    size_t n = (hi - lo) / pg;
    unsigned char *vec = malloc(n);
    cr_assert_not_null(vec);
    cr_assert_eq(mincore((void *)lo, hi - lo, vec), 0, "mincore");
    size_t r = 0;
    for (size_t i = 0; i < n; i++)
        r += vec[i] & 1;
    free(vec);
    return r;
}

/* A table header with one column of `width` bytes per value, past the
 * group count below which chunks come from malloc. */
typedef struct FakeTable {
    StoreTable t;
    size_t width[1];
    struct StoreChunkSlab *cur[1];
} FakeTable;

static FakeTable *fake_table(size_t width)
{
    FakeTable *f = calloc(1, sizeof *f);
    cr_assert_not_null(f);
    f->width[0] = width;
    f->t.width = f->width;
    f->t.slab_cur = f->cur;
    f->t.cap_cols = 1;
    f->t.ngroups = 64;
    return f;
}

static void fill(void *p, size_t n, int seed)
{
    unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        b[i] = (unsigned char)(seed * 31 + i % 251 + 1);
}

static bool holds(const void *p, size_t n, int seed)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i] != (unsigned char)(seed * 31 + i % 251 + 1))
            return false;
    return true;
}

/* Freed pages go back in aligned blocks of 64 KB (chunk_slab.c
 * RETURN_BYTES), or of a page where pages are larger. */
static size_t block_bytes(void) { return page_bytes() > ((size_t)64 << 10) ? page_bytes() : (size_t)64 << 10; }

/* 16 KB chunks (int8 columns): a block goes once all its chunks are freed,
 * in any order; until then, and in the blocks next to it, the live
 * chunks keep their pages and their values. */
Test(chunkslab, freed_chunk_blocks_leave_memory)
{
    FakeTable *f = fake_table(8);
    size_t cb = 8 * STORE_GROUP_ROWS, blk = block_bytes();
    int per = (int)(blk / cb), n = 2 * per;   /* chunks of two blocks */
    cr_assert(per >= 2, "the test wants several chunks a block");
    char **c = malloc((size_t)n * sizeof *c);
    cr_assert_not_null(c);
    for (int i = 0; i < n; i++) {
        c[i] = store__chunk_alloc(&f->t, 0);
        fill(c[i], cb, i);
    }
    cr_assert_eq(c[n - 1], c[0] + (size_t)(n - 1) * cb, "consecutive chunks of one slab");
    cr_assert_eq((uintptr_t)c[0] % blk, 0, "the slab starts a block");
    cr_assert_eq(resident_pages(c[0], 2 * blk), 2 * blk / page_bytes());
    for (int i = per - 1; i >= 1; i--)   /* all of block 0 but chunk 0, back to front */
        store__chunk_free(c[i]);
    cr_assert_eq(resident_pages(c[0], blk), blk / page_bytes(), "chunk 0 still lives in the block");
    cr_assert(holds(c[0], cb, 0));
    store__chunk_free(c[0]);
    cr_assert_eq(resident_pages(c[0], blk), 0, "the block is returned with its last chunk");
    cr_assert_eq(resident_pages(c[per], blk), blk / page_bytes(), "the next block is untouched");
    for (int i = per; i < n; i++)
        cr_assert(holds(c[i], cb, i), "chunk %d keeps its values", i);
    for (int i = per; i < n - 1; i++)
        store__chunk_free(c[i]);
    cr_assert_eq(resident_pages(c[per], blk), blk / page_bytes());
    cr_assert(holds(c[n - 1], cb, n - 1));
    store__chunk_free(c[n - 1]);
    cr_assert_eq(resident_pages(c[0], 2 * blk), 0);
    store__chunk_slabs_release(&f->t);   /* the last count: unmapped */
    free(c);
    free(f);
}

/* 2 KB chunks (boolean columns), two to a page: the block goes only with
 * the last of its chunks, whichever that is, here one in its middle. */
Test(chunkslab, block_goes_with_its_last_chunk)
{
    FakeTable *f = fake_table(1);
    size_t cb = STORE_GROUP_ROWS, blk = block_bytes();
    int per = (int)(blk / cb);
    char **c = malloc((size_t)(per + 1) * sizeof *c);
    cr_assert_not_null(c);
    for (int i = 0; i <= per; i++) {
        c[i] = store__chunk_alloc(&f->t, 0);
        fill(c[i], cb, i);
    }
    int mid = per / 2 + 1;   /* odd: it shares its page with chunk mid - 1 */
    for (int i = 0; i < per; i++)
        if (i != mid)
            store__chunk_free(c[i]);
    cr_assert_eq(resident_pages(c[0], blk), blk / page_bytes(), "chunk %d keeps the block", mid);
    cr_assert(holds(c[mid], cb, mid) && holds(c[per], cb, per));
    store__chunk_free(c[mid]);
    cr_assert_eq(resident_pages(c[0], blk), 0);
    cr_assert_eq(resident_pages(c[per], cb), 1, "the chunk after the block keeps its page");
    cr_assert(holds(c[per], cb, per));
    store__chunk_free(c[per]);
    store__chunk_slabs_release(&f->t);
    free(c);
    free(f);
}

/* Two threads free alternate 2 KB chunks of a full slab at once: every
 * page (and block) has chunks from each, and every one must still be
 * returned. */
typedef struct FreeJob {
    char **chunks;
    int from, n;
} FreeJob;

static void *free_alternate(void *arg)
{
    FreeJob *j = arg;
    for (int i = j->from; i < j->n; i += 2)
        store__chunk_free(j->chunks[i]);
    return NULL;
}

Test(chunkslab, racing_frees_of_page_neighbours)
{
    FakeTable *f = fake_table(1);
    size_t cb = STORE_GROUP_ROWS;
    int n = (int)((size_t)2 << 20) / (int)cb;   /* one slab's worth */
    char **c = malloc((size_t)n * sizeof *c);
    cr_assert_not_null(c);
    for (int i = 0; i < n; i++) {
        c[i] = store__chunk_alloc(&f->t, 0);
        memset(c[i], 0x5a, cb);
    }
    cr_assert_eq(c[n - 1], c[0] + (size_t)(n - 1) * cb, "all from one slab");
    FreeJob a = {c, 0, n}, b = {c, 1, n};
    pthread_t ta, tb;
    cr_assert_eq(pthread_create(&ta, NULL, free_alternate, &a), 0);
    cr_assert_eq(pthread_create(&tb, NULL, free_alternate, &b), 0);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    cr_assert_eq(resident_pages(c[0], (size_t)n * cb), 0, "the cursor keeps it mapped, no page resident");
    store__chunk_slabs_release(&f->t);
    free(c);
    free(f);
}

__attribute__((noinline)) static void append_ok(StoreTable *t, StoreTxn *x, Batch *b)
{
    NO_ERROR(store_table_append(t, x, b));
}

/* Rows k = 0..rows-1 of (id, a) = (k, 3k), one transaction. */
static void load_rows(StoreTable *t, uint32_t rows)
{
    SqlType ty[2] = {SQLTYPE(TYPE_INT8), SQLTYPE(TYPE_INT8)};
    StoreTxn *x = store_txn_begin();
    for (uint32_t first = 0; first < rows; first += VEC_CAPACITY) {
        uint32_t k = rows - first < VEC_CAPACITY ? rows - first : VEC_CAPACITY;
        Batch *b = batch_create(arena, 2, ty);
        for (uint32_t r = 0; r < k; r++) {
            ((int64_t *)b->cols[0].data)[r] = first + r;
            ((int64_t *)b->cols[1].data)[r] = 3 * (int64_t)(first + r);
        }
        b->count = k;
        append_ok(t, x, b);
        mem_arena_reset(arena);
    }
    store_txn_commit(x);
}

/* Through a checkpoint: t(id bigint, a bigint), 12 full groups and a
 * partial one. Groups 4.. of column a lie side by side from the start of
 * the slab that is still the column's cursor; the checkpoint freezes the
 * full groups, and their pages (two whole 64 KB blocks: 8 chunks of 16 KB)
 * leave memory while the hot tail's stay. */
Test(chunkslab, checkpoint_returns_frozen_chunks_of_the_tail_slab)
{
    StoreColumnDef cols[2] = {
        {"id", SQLTYPE(TYPE_INT8), false, NULL},
        {"a", SQLTYPE(TYPE_INT8), false, NULL},
    };
    StoreTable *t = NULL;
    NO_ERROR(t = store_table_create("public", "t", 2, cols, 0, NULL));
    const uint32_t full = 12, rows = full * STORE_GROUP_ROWS + 100;
    load_rows(t, rows);
    size_t cb = 8 * STORE_GROUP_ROWS;
    char *a[13];
    for (uint32_t g = 0; g <= full; g++)
        a[g] = store__group(t, g)->chunks[1].data;
    for (uint32_t g = 5; g <= full; g++)
        cr_assert_eq(a[g], a[4] + (g - 4) * cb, "group %u's chunk follows group 4's in one slab", g);
    cr_assert_eq((uintptr_t)a[4] % ((size_t)2 << 20), 0, "group 4's chunk starts the slab");
    cr_assert_eq(resident_pages(a[4], (full - 4) * cb), (full - 4) * cb / page_bytes(), "written, so resident");
    cr_assert_eq(resident_pages(a[full], 100 * 8), 1, "the partial group's first 100 values");
    NO_ERROR(store_checkpoint());
    for (uint32_t g = 0; g < full; g++)
        cr_assert_null(store__group(t, g)->chunks[1].data, "group %u cold", g);
    cr_assert_eq(store__group(t, full)->chunks[1].data, a[full], "the partial group stays hot");
    cr_assert_eq(resident_pages(a[4], (full - 4) * cb), 0, "frozen chunks' pages returned");
    cr_assert_eq(resident_pages(a[full], 100 * 8), 1, "the hot tail stays");
    int col = 1;
    StoreScan *s = store_scan_begin(t, NULL, 1, &col, 0, NULL, arena);
    Batch b = {0};
    int64_t sum = 0, n = 0;
    while (store_scan_next(s, &b)) {
        for (uint32_t r = 0; r < b.count; r++)
            sum += ((const int64_t *)b.cols[0].data)[b.sel ? b.sel[r] : r];
        n += b.count;
    }
    store_scan_end(s);
    cr_assert_eq(n, rows);
    cr_assert_eq(sum, 3 * ((int64_t)rows * (rows - 1) / 2), "cold and hot values read back");
}
