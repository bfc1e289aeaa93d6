/*
 * chunk_slab.c — where an in-memory column chunk's values live: one column's
 * consecutive chunks side by side in 2 MB slabs (issue 7).
 *
 * A row group used to allocate each column's 2048 values on their own, right
 * after its 48 KB header and stamps, so a scan of one column read 16 KB,
 * skipped 48 KB or more, read 16 KB... A plain loop over int64 chunks laid out
 * that way ran 2.2× slower than over one array (gaps of 4 KB: 1.6×), and
 * within 1.1× of it with the chunks back to back: hardware prefetching and
 * DRAM pages favour the contiguous stream. So once a table has a few groups,
 * each column takes its chunks from its own slab: a 2 MB-aligned mapping
 * handed out chunk after chunk (64 int8 chunks, 1024 boolean ones).
 *
 * Chunks are freed one by one, from many places (checkpoints freezing cold
 * chunks, bulk loads handing them to the run writer, DROP, ALTER): they all
 * call store__chunk_free, which finds the slab from the address (a registry
 * of slab bases: the address rounded down to 2 MB) or hands a chunk that
 * came from malloc (small tables, thawed chunks) to free(). A slab goes when
 * its last chunk does and the column has moved on to a newer slab (the
 * column's cursor holds one count). Untouched pages of a mapping are not
 * resident, so a slab costs only what is written into it.
 *
 * Not on the data path: allocation is per row group and column (2048 rows),
 * a free per chunk; the registry's mutex is taken only there.
 *
 * Validity bitmaps (256 bytes per chunk) live here too: a chunk points at
 * the shared, read-only store_all_valid until its first NULL is written,
 * and only then gets one of its own (store__chunk_validity_own, called
 * before the append changes anything). Most columns never hold a NULL:
 * ClickBench's 105 columns at 10M rows kept 131 MB of all-ones bitmaps.
 */
#define STORE_INTERNAL
#include "storage/storage_int.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "common/error.h"

#define SLAB_SHIFT 21
#define SLAB_BYTES ((size_t)1 << SLAB_SHIFT)
/* Columns of tables with fewer groups allocate with malloc: a table of a few
 * rows should not map 2 MB per column. */
#define SLAB_MIN_GROUPS 4

struct StoreChunkSlab {
    char *base;          /* SLAB_BYTES, aligned to SLAB_BYTES */
    size_t chunk_bytes;
    uint32_t used, cap;  /* chunks handed out / that fit (writer of the column only) */
    atomic_uint live;    /* chunks not freed + 1 while it is its column's cursor */
};

/* Registry: open addressing on base >> SLAB_SHIFT, under reg_mu. */
static pthread_mutex_t reg_mu = PTHREAD_MUTEX_INITIALIZER;
static StoreChunkSlab **reg_slots;
static size_t reg_cap, reg_n;

static size_t reg_hash(uintptr_t key, size_t cap)
{
    return (size_t)((key * UINT64_C(0x9E3779B97F4A7C15)) >> 20) & (cap - 1);
}

static void reg_put_locked(StoreChunkSlab *s)
{
    uintptr_t key = (uintptr_t)s->base >> SLAB_SHIFT;
    size_t i = reg_hash(key, reg_cap);
    while (reg_slots[i])
        i = (i + 1) & (reg_cap - 1);
    reg_slots[i] = s;
    reg_n++;
}

/* false when the table cannot grow (out of memory): the caller unmaps. */
static bool reg_add(StoreChunkSlab *s)
{
    pthread_mutex_lock(&reg_mu);
    if ((reg_n + 1) * 2 > reg_cap) {
        size_t ncap = reg_cap ? reg_cap * 2 : 256;
        StoreChunkSlab **old = reg_slots, **slots = calloc(ncap, sizeof *slots);
        if (!slots) {
            pthread_mutex_unlock(&reg_mu);
            return false;
        }
        size_t ocap = reg_cap;
        reg_slots = slots;
        reg_cap = ncap;
        reg_n = 0;
        for (size_t i = 0; i < ocap; i++)
            if (old[i])
                reg_put_locked(old[i]);
        free(old);
    }
    reg_put_locked(s);
    pthread_mutex_unlock(&reg_mu);
    return true;
}

static StoreChunkSlab *reg_find(const void *p)
{
    uintptr_t key = (uintptr_t)p >> SLAB_SHIFT;
    StoreChunkSlab *found = NULL;
    pthread_mutex_lock(&reg_mu);
    if (reg_cap) {
        for (size_t i = reg_hash(key, reg_cap); reg_slots[i]; i = (i + 1) & (reg_cap - 1))
            if ((uintptr_t)reg_slots[i]->base >> SLAB_SHIFT == key) {
                found = reg_slots[i];
                break;
            }
    }
    pthread_mutex_unlock(&reg_mu);
    return found;
}

/* Remove s (backward-shift deletion keeps every probe chain whole). */
static void reg_remove(StoreChunkSlab *s)
{
    pthread_mutex_lock(&reg_mu);
    size_t i = reg_hash((uintptr_t)s->base >> SLAB_SHIFT, reg_cap);
    while (reg_slots[i] != s)
        i = (i + 1) & (reg_cap - 1);
    reg_slots[i] = NULL;
    reg_n--;
    for (size_t j = (i + 1) & (reg_cap - 1); reg_slots[j]; j = (j + 1) & (reg_cap - 1)) {
        StoreChunkSlab *m = reg_slots[j];
        reg_slots[j] = NULL;
        reg_n--;
        reg_put_locked(m);
    }
    pthread_mutex_unlock(&reg_mu);
}

/* A fresh slab for chunks of chunk_bytes, or NULL (out of memory). */
static StoreChunkSlab *slab_new(size_t chunk_bytes)
{
    StoreChunkSlab *s = malloc(sizeof *s);
    if (!s)
        return NULL;
    /* Map twice the size and keep the aligned middle. */
    char *m = mmap(NULL, 2 * SLAB_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) {
        free(s);
        return NULL;
    }
    char *base = (char *)(((uintptr_t)m + SLAB_BYTES - 1) & ~(uintptr_t)(SLAB_BYTES - 1));
    if (base > m)
        munmap(m, (size_t)(base - m));
    if (base + SLAB_BYTES < m + 2 * SLAB_BYTES)
        munmap(base + SLAB_BYTES, (size_t)(m + 2 * SLAB_BYTES - (base + SLAB_BYTES)));
    s->base = base;
    s->chunk_bytes = chunk_bytes;
    s->used = 0;
    s->cap = (uint32_t)(SLAB_BYTES / chunk_bytes);
    atomic_init(&s->live, 1);
    if (!reg_add(s)) {
        munmap(base, SLAB_BYTES);
        free(s);
        return NULL;
    }
    return s;
}

static void slab_unref(StoreChunkSlab *s)
{
    if (atomic_fetch_sub_explicit(&s->live, 1, memory_order_acq_rel) != 1)
        return;
    reg_remove(s);
    munmap(s->base, SLAB_BYTES);
    free(s);
}

void *store__chunk_alloc(StoreTable *t, int c)
{
    size_t bytes = (t->width[c] * STORE_GROUP_ROWS + 63) & ~(size_t)63;
    if (t->ngroups >= SLAB_MIN_GROUPS && bytes <= SLAB_BYTES / 8 && t->slab_cur) {
        StoreChunkSlab *s = t->slab_cur[c];
        if (!s || s->used == s->cap || s->chunk_bytes != bytes) {
            StoreChunkSlab *n = slab_new(bytes);
            if (n) {
                t->slab_cur[c] = n;
                if (s)
                    slab_unref(s);  /* the column's count on the full one */
                s = n;
            } else {
                s = NULL;           /* fall back to malloc below */
            }
        }
        if (s) {
            void *p = s->base + (size_t)s->used++ * bytes;
            atomic_fetch_add_explicit(&s->live, 1, memory_order_relaxed);
            return p;
        }
    }
    return aligned_alloc(64, bytes);
}

void store__chunk_free(void *p)
{
    if (!p)
        return;
    StoreChunkSlab *s = reg_find(p);
    if (s)
        slab_unref(s);
    else
        free(p);
}

void store__chunk_slabs_release(StoreTable *t)
{
    if (!t->slab_cur)
        return;
    for (int c = 0; c < t->cap_cols; c++)
        if (t->slab_cur[c]) {
            slab_unref(t->slab_cur[c]);
            t->slab_cur[c] = NULL;
        }
}

/* ---- validity bitmaps ---- */

const uint64_t store_all_valid[VEC_VALIDITY_WORDS] = {
#define ONES8 ~UINT64_C(0), ~UINT64_C(0), ~UINT64_C(0), ~UINT64_C(0), ~UINT64_C(0), ~UINT64_C(0), ~UINT64_C(0), ~UINT64_C(0)
    ONES8, ONES8, ONES8, ONES8,
#undef ONES8
};
_Static_assert(VEC_VALIDITY_WORDS == 32, "store_all_valid's initializer");

void store__chunk_validity_own(StoreChunk *ch)
{
    if (!store__validity_shared(ch))
        return;
    uint64_t *v = malloc(sizeof store_all_valid);
    if (!v)
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    memcpy(v, store_all_valid, sizeof store_all_valid);
    __atomic_store_n(&ch->validity, v, __ATOMIC_RELEASE);
}

void store__chunk_validity_free(StoreChunk *ch)
{
    if (ch->validity != (uint64_t *)store_all_valid)
        free(ch->validity);
    ch->validity = NULL;
}
