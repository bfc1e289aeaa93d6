/*
 * keyruns.c — the primary key's runs: the on-disk level of the pk index.
 *
 * A table's rows stay in row-number order (row numbers are locators: the
 * hidden, ever-increasing row id of the issue); what is keyed by the
 * primary key is its index, an LSM of two levels:
 *  - the hash of pkindex.c (the memtable) for rows appended since the last
 *    checkpoint (rows >= pk.runs_end);
 *  - key runs (storage/runs format) for the rows before: each checkpoint
 *    writes the keys of the rows it flushed as one run sorted by key, one
 *    entry per key (the row the hash would name: its newest row, or the
 *    newest live one when the newest's deletion committed), version = the
 *    row number; key range, per-group key ranges and bloom filters come
 *    with the format.
 * A lookup probes the hash, then the runs newest first (run_lookup: key
 * range, bloom filter, binary search in one decoded group of 2,048 keys);
 * the first hit is the key's newest row. Why that order is right: every
 * row >= runs_end is in the hash, and a newer run holds only later rows.
 * Inserts of new keys pay one bloom probe per run; updates (a key's new
 * version) find the old row in a run and put the key in the hash.
 *
 * A flush of 64K keys or more is written as two runs of disjoint key
 * ranges (the sorted keys split in halves), on two threads.
 *
 * Compaction is tiered: when a checkpoint could leave a table with more
 * than STORE_KEY_RUNS_MAX key runs, it first merges the older ones into one
 * (run_compact: the batched k-way merge, keeping each key's newest row), so
 * a lookup probes at most STORE_KEY_RUNS_MAX runs and every key is
 * rewritten about once per STORE_KEY_RUNS_MAX checkpoints.
 *
 * Lifetimes: a checkpoint writes checkpoint/<gen>.<oid>.<part>.keys in its
 * phase B, names every key run of the table it keeps in a TABLE_KEYS
 * record, and installs them once `control` names it (older runs it merged
 * are closed then). Files are removed by the first checkpoint that no
 * longer names them (recovery.c, remove_before). TRUNCATE's swap, table
 * drops and a rolled-back ADD PRIMARY KEY close the runs (store__keys_drop)
 * and move runs_epoch, so a plan made before them is not installed.
 *
 * Tables whose key has a numeric column keep the whole index in the hash:
 * numeric keys compare by value (1.0 = 1.00) but runs order them by bytes.
 */
#define STORE_INTERNAL
#include "storage/storage_int.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/error.h"
#include "storage/runs/run.h"

/* Key runs a table keeps before its older ones are merged into one. */
#define STORE_KEY_RUNS_MAX 8
/* Keys per run group: a lookup decodes one group of keys and versions. */
#define STORE_KEY_GROUP_ROWS 2048u

struct StoreKeysPlan {
    uint64_t epoch;
    int npkey;
    uint64_t rows;          /* runs_end once installed */
    StoreKeyRun *kept;      /* the table's runs at the plan, nkept of them kept as they are */
    int nold, nkept;
    StoreKeyRun made[3];    /* new runs: the merge of the older ones, the flushed rows (1–2 parts) */
    int nmade;
    bool installed;         /* made[] belong to the table now */
};

bool store__keys_supported(const StoreTable *t)
{
    if (t->temp || t->is_shadow || t->npkey <= 0 || t->npkey > RUN_KEYS_MAX)
        return false;
    for (int k = 0; k < t->npkey; k++)
        if (t->cols[t->pkey[k]].type.oid == TYPE_NUMERIC)
            return false;
    return true;
}

/* ---- lookups ---- */

static void key_run_close(StoreKeyRun *r);

void store__keys_drop(StorePkIndex *pk)
{
    for (int i = 0; i < pk->nruns; i++)
        key_run_close(&pk->runs[i]);
    free(pk->runs);
    pk->runs = NULL;
    pk->nruns = 0;
    pk->runs_end = 0;
    pk->runs_epoch++;
}

/* ---- writing ---- */

static void key_path(char *buf, size_t cap, uint64_t gen, uint32_t oid, uint32_t part)
{
    snprintf(buf, cap, "%s/checkpoint/%llu.%u.%u.keys", store_g.data_dir, (unsigned long long)gen,
             oid, part);
}

/* The key columns as a run schema: columns 0..npkey-1, all keys. */
static RunSchema key_schema(const StoreTable *t, SqlType *types, int *cols)
{
    for (int k = 0; k < t->npkey; k++) {
        types[k] = t->cols[t->pkey[k]].type;
        cols[k] = k;
    }
    return (RunSchema){.ncols = t->npkey, .types = types, .nkeys = t->npkey, .key_cols = cols};
}

static const void *key_value(const StoreTable *t, int col, uint64_t row)
{
    const StoreChunk *c = &store__group(t, row / STORE_GROUP_ROWS)->chunks[col];
    ERR_ASSERT(c->data != NULL);  /* key columns stay in memory (cold.c) */
    return (const char *)c->data + (row % STORE_GROUP_ROWS) * t->width[col];
}

static int cmp_f64(double a, double b)
{
    bool an = a != a, bn = b != b;
    if (an || bn)
        return an == bn ? 0 : an ? 1 : -1;
    return a < b ? -1 : a > b ? 1 : 0;
}

/* The order of storage/runs (run__cmp_values): what run_writer_append checks. */
static int cmp_key_col(const StoreTable *t, int col, const void *a, const void *b)
{
    switch (t->phys[col]) {
#define CMP(T) { T x = *(const T *)a, y = *(const T *)b; return (x > y) - (x < y); }
    case PHYS_BOOL: CMP(uint8_t)
    case PHYS_I16: CMP(int16_t)
    case PHYS_I32: CMP(int32_t)
    case PHYS_I64: CMP(int64_t)
#undef CMP
    case PHYS_F32: return cmp_f64(*(const float *)a, *(const float *)b);
    case PHYS_F64: return cmp_f64(*(const double *)a, *(const double *)b);
    case PHYS_STR: {
        const StrRef *x = a, *y = b;
        int r = memcmp(x->ptr, y->ptr, x->len < y->len ? x->len : y->len);
        if (r)
            return r < 0 ? -1 : 1;
        return x->len < y->len ? -1 : x->len > y->len ? 1 : 0;
    }
    }
    return 0;
}

static int cmp_keys(const StoreTable *t, uint64_t ra, uint64_t rb)
{
    for (int k = 0; k < t->npkey; k++) {
        int col = t->pkey[k];
        int c = cmp_key_col(t, col, key_value(t, col, ra), key_value(t, col, rb));
        if (c)
            return c;
    }
    return 0;
}

/* Sorting a checkpoint's keys. Each row gets a 192-bit prefix that
 * orders as its key does: the leading key columns packed while they fit
 * (integers with the sign bit flipped, booleans; a string's first 8 bytes,
 * after which nothing more is packed). Rows with equal prefixes compare
 * their whole keys, unless the prefix holds every key column (`exact`).
 * The two halves sort on two threads, then merge. For `hits` (five
 * columns, the first four fill the prefix) the sort of 10M keys took
 * 3.3 s through a row comparator alone; storage/README.md has the rest. */
#define PREFIX_WORDS 3
#define PREFIX_BITS (64 * PREFIX_WORDS)

typedef struct SortEntry {
    uint64_t w[PREFIX_WORDS];
    uint64_t row;
} SortEntry;

typedef struct SortCtx {
    const StoreTable *t;
    bool exact;
} SortCtx;

/* Append the low `bits` bits of v (an order-preserving code, bits <= 64)
 * to the prefix at bit *used (from the top of w[0]). */
static void prefix_put(uint64_t *w, int *used, uint64_t v, int bits)
{
    if (bits < 64)
        v &= (UINT64_C(1) << bits) - 1;
    int at = *used;
    while (bits > 0) {
        int word = at / 64, room = 64 - at % 64;
        int take = bits < room ? bits : room;  /* the top `take` of the remaining bits */
        uint64_t top = take == bits ? v : v >> (bits - take);
        w[word] |= top << (room - take);
        bits -= take;
        at += take;
        if (bits)
            v &= (UINT64_C(1) << bits) - 1;
    }
    *used = at;
}

/* How the key packs: per column its bits (negative: a string's first
 * bytes, after which nothing packs), and whether the whole key fits. */
static int prefix_plan(const StoreTable *t, int *bits, bool *exact)
{
    int used = 0, n = 0;
    *exact = true;
    for (int k = 0; k < t->npkey; k++) {
        int w;
        switch (t->phys[t->pkey[k]]) {
        case PHYS_BOOL: w = 8; break;
        case PHYS_I16: w = 16; break;
        case PHYS_I32: w = 32; break;
        case PHYS_I64: w = 64; break;
        case PHYS_STR: w = -64; break;
        default: w = 0; break;  /* floats: whole-key compare */
        }
        int width = w < 0 ? -w : w;
        if (w == 0 || used + width > PREFIX_BITS) {
            *exact = false;
            break;
        }
        bits[n++] = w;
        used += width;
        if (w < 0) {
            *exact = false;
            break;
        }
    }
    return n;
}

static void prefix_of(const StoreTable *t, const int *bits, int n, uint64_t row, SortEntry *e)
{
    memset(e->w, 0, sizeof e->w);
    e->row = row;
    int used = 0;
    for (int k = 0; k < n; k++) {
        int col = t->pkey[k];
        const void *v = key_value(t, col, row);
        uint64_t code;
        switch (t->phys[col]) {
        case PHYS_BOOL: code = *(const uint8_t *)v; break;
        case PHYS_I16: code = (uint16_t)(*(const int16_t *)v) ^ 0x8000u; break;
        case PHYS_I32: code = (uint32_t)(*(const int32_t *)v) ^ 0x80000000u; break;
        case PHYS_I64: code = (uint64_t)(*(const int64_t *)v) ^ (UINT64_C(1) << 63); break;
        default: {  /* PHYS_STR: big-endian first 8 bytes, zero padded */
            const StrRef *sr = v;
            code = 0;
            for (uint32_t i = 0; i < 8; i++)
                code = code << 8 | (i < sr->len ? (uint8_t)sr->ptr[i] : 0);
            break;
        }
        }
        prefix_put(e->w, &used, code, bits[k] < 0 ? -bits[k] : bits[k]);
    }
}

static bool prefix_equal(const SortEntry *x, const SortEntry *y)
{
    for (int i = 0; i < PREFIX_WORDS; i++)
        if (x->w[i] != y->w[i])
            return false;
    return true;
}

/* Key ascending, then row descending (the run's newest-first order). */
static int cmp_entries(const void *a, const void *b, void *arg)
{
    const SortEntry *x = a, *y = b;
    const SortCtx *c = arg;
    for (int i = 0; i < PREFIX_WORDS; i++)
        if (x->w[i] != y->w[i])
            return x->w[i] < y->w[i] ? -1 : 1;
    int r = c->exact ? 0 : cmp_keys(c->t, x->row, y->row);
    return r ? r : (x->row < y->row) - (x->row > y->row);
}

typedef struct SortHalf {
    SortEntry *e;
    size_t n;
    SortCtx *ctx;
} SortHalf;

static void swap_entries(SortEntry *a, SortEntry *b)
{
    SortEntry t = *a;
    *a = *b;
    *b = t;
}

/* Introsort in place: no temporary array (qsort_r's merge sort allocated
 * one as large as the entries, 320 MB for 10M keys, all of it fresh
 * pages), the comparison inlined; qsort_r past the depth limit. Entries
 * are distinct (rows differ), and the pivot is a copy of the median of
 * three, so both scans stop inside the range. */
static void sort_entries(SortEntry *e, size_t n, const SortCtx *c, int depth)
{
    while (n > 16) {
        if (depth-- == 0) {
            qsort_r(e, n, sizeof *e, cmp_entries, (void *)c);
            return;
        }
        SortEntry *a = &e[0], *m = &e[n / 2], *z = &e[n - 1];
        if (cmp_entries(m, a, (void *)c) < 0)
            swap_entries(m, a);
        if (cmp_entries(z, m, (void *)c) < 0) {
            swap_entries(z, m);
            if (cmp_entries(m, a, (void *)c) < 0)
                swap_entries(m, a);
        }
        SortEntry pivot = *m;
        size_t i = 0, j = n - 1;
        for (;;) {
            while (cmp_entries(&e[i], &pivot, (void *)c) < 0)
                i++;
            while (cmp_entries(&pivot, &e[j], (void *)c) < 0)
                j--;
            if (i >= j)
                break;
            swap_entries(&e[i], &e[j]);
            i++;
            j--;
        }
        size_t left = j + 1;  /* [0, left) <= pivot <= [left, n) */
        if (left < n - left) {
            sort_entries(e, left, c, depth);
            e += left;
            n -= left;
        } else {
            sort_entries(e + left, n - left, c, depth);
            n = left;
        }
    }
    for (size_t i = 1; i < n; i++) {
        SortEntry x = e[i];
        size_t j = i;
        for (; j > 0 && cmp_entries(&x, &e[j - 1], (void *)c) < 0; j--)
            e[j] = e[j - 1];
        e[j] = x;
    }
}

static void *sort_half(void *arg)
{
    SortHalf *h = arg;
    int depth = 2;
    for (size_t n = h->n; n > 1; n >>= 1)
        depth += 2;
    sort_entries(h->e, h->n, h->ctx, depth);
    return NULL;
}

/* A checkpoint's rows in key order, newest first within a key. tie bit i:
 * row i's prefix equals row i-1's (only then can their keys be equal). */
typedef struct KeySorted {
    const StoreTable *t;
    uint64_t *rows;
    uint64_t *tie;
    uint64_t n;
    bool exact;
} KeySorted;

static bool tie_at(const KeySorted *ks, uint64_t i)
{
    return ks->tie[i >> 6] >> (i & 63) & 1;
}

/* Rows [first, end) sorted into ks (rows and tie allocated by the caller). */
static void sort_rows(KeySorted *ks, uint64_t first, uint64_t end)
{
    const StoreTable *t = ks->t;
    uint64_t n = end - first;
    SortEntry *e = malloc((n ? n : 1) * sizeof *e);
    if (!e)
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    int bits[RUN_KEYS_MAX];
    SortCtx ctx = {.t = t};
    int nb = prefix_plan(t, bits, &ctx.exact);
    ks->exact = ctx.exact;
    for (uint64_t i = 0; i < n; i++)
        prefix_of(t, bits, nb, first + i, &e[i]);
    SortHalf lo = {e, n / 2, &ctx}, hi = {e + n / 2, n - n / 2, &ctx};
    pthread_t th;
    bool threaded = n >= 65536 && pthread_create(&th, NULL, sort_half, &hi) == 0;
    sort_half(&lo);
    if (threaded)
        pthread_join(th, NULL);
    else
        sort_half(&hi);
    size_t a = 0, b = 0;
    const SortEntry *prev = NULL;
    memset(ks->tie, 0, sizeof(uint64_t) * ((n + 63) / 64));
    for (uint64_t o = 0; o < n; o++) {
        const SortEntry *x;
        if (a < lo.n && (b == hi.n || cmp_entries(&lo.e[a], &hi.e[b], &ctx) <= 0))
            x = &lo.e[a++];
        else
            x = &hi.e[b++];
        if (prev && prefix_equal(prev, x))
            ks->tie[o >> 6] |= UINT64_C(1) << (o & 63);
        ks->rows[o] = x->row;
        prev = x;
    }
    ks->n = n;
    free(e);
}

static bool dead_committed(const StoreTable *t, uint64_t row)
{
    uint64_t x = atomic_load(store__xmax_of(t, row));
    return x != 0 && !(x & STORE_XMAX_MARK);
}

/* The entry of the key at rows[*i], past which *i moves: the newest row
 * whose deletion has not committed, else the newest (as the hash's: a row
 * takes a key over only from a dead one, but ADD PRIMARY KEY may find a
 * deleted duplicate newer than the live row). */
static uint64_t key_entry(const KeySorted *ks, uint64_t end, uint64_t *i)
{
    const StoreTable *t = ks->t;
    uint64_t first = *i, pick = ks->rows[first];
    bool live = !dead_committed(t, pick);
    uint64_t j = first + 1;
    for (; j < end && tie_at(ks, j) && (ks->exact || cmp_keys(t, ks->rows[first], ks->rows[j]) == 0);
         j++) {
        if (!live && !dead_committed(t, ks->rows[j])) {
            pick = ks->rows[j];
            live = true;
        }
    }
    *i = j;
    return pick;
}

/* Sorted rows [from, to) (whole keys) as key run `path`, one entry per key. */
static void write_part(const KeySorted *ks, const char *path, uint64_t from, uint64_t to)
{
    const StoreTable *t = ks->t;
    MemArena *a = mem_arena_create("key run");
    RunWriter *w = NULL;
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        SqlType types[RUN_KEYS_MAX];
        int cols[RUN_KEYS_MAX];
        RunSchema schema = key_schema(t, types, cols);
        RunWriteOptions opts = {.group_rows = STORE_KEY_GROUP_ROWS,
                                .compression = RUN_COMP_LZ4};
        w = run_writer_create(path, &schema, &opts);
        Batch b = {.ncols = t->npkey, .cols = MEM_NEW_ARRAY(a, Vector, t->npkey)};
        for (int k = 0; k < t->npkey; k++) {
            int col = t->pkey[k];
            b.cols[k] = (Vector){.type = t->cols[col].type, .phys = t->phys[col],
                                 .data = mem_alloc(a, (size_t)t->width[col] * VEC_CAPACITY)};
        }
        uint64_t *versions = MEM_NEW_ARRAY(a, uint64_t, VEC_CAPACITY);
        uint64_t i = from;
        while (i < to) {
            uint32_t m = 0;
            while (i < to && m < VEC_CAPACITY) {
                uint64_t pick = key_entry(ks, to, &i);
                for (int k = 0; k < t->npkey; k++) {
                    int col = t->pkey[k];
                    memcpy((char *)b.cols[k].data + (size_t)m * t->width[col],
                           key_value(t, col, pick), t->width[col]);
                }
                versions[m++] = pick;
            }
            b.count = m;
            run_writer_append(w, &b, versions, NULL);
        }
        RunWriter *done = w;
        w = NULL;
        run_writer_finish(done, NULL);
        err_pop(&jmp);
    } else {
        run_writer_abort(w);
        mem_arena_destroy(a);
        err_rethrow();
    }
    mem_arena_destroy(a);
}

/* One part written on a thread of its own; its error, if any, in err. */
typedef struct FreshPart {
    const KeySorted *ks;
    char path[4200];
    uint64_t from, to;
    bool failed;
    ErrorData err;
} FreshPart;

static void *part_main(void *arg)
{
    FreshPart *p = arg;
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        write_part(p->ks, p->path, p->from, p->to);
        err_pop(&jmp);
    } else {
        p->err = *err_current();
        err_clear();
        p->failed = true;
    }
    return NULL;
}

/* Write the keys of rows [first, end) as key runs <gen>.<oid>.1.keys and,
 * past 64K rows, <gen>.<oid>.2.keys: the sorted keys split in two halves
 * (at a key boundary) written on two threads (the run writer's encoding,
 * bloom filters and compression are most of the cost: 10M `hits` keys,
 * 1.6 s to sort and 3.1 s to write on one thread). Returns the parts. */
static int write_fresh(const StoreTable *t, uint64_t gen, uint64_t first, uint64_t end)
{
    uint64_t n = end - first;
    KeySorted ks = {.t = t, .rows = malloc((n ? n : 1) * sizeof(uint64_t)),
                    .tie = malloc(sizeof(uint64_t) * ((n + 63) / 64 + 1))};
    FreshPart *parts = calloc(2, sizeof *parts);
    int nparts = 0;
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        if (!ks.rows || !ks.tie || !parts)
            err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
        sort_rows(&ks, first, end);
        uint64_t mid = n;
        if (n >= 65536) {
            mid = n / 2;
            while (mid < n && tie_at(&ks, mid) &&
                   (ks.exact || cmp_keys(t, ks.rows[mid - 1], ks.rows[mid]) == 0))
                mid++;  /* a key's rows stay in one part */
        }
        nparts = mid < n ? 2 : 1;
        for (int i = 0; i < nparts; i++) {
            parts[i] = (FreshPart){.ks = &ks, .from = i ? mid : 0, .to = i ? n : mid};
            key_path(parts[i].path, sizeof parts[i].path, gen, t->oid, (uint32_t)(i + 1));
        }
        pthread_t th;
        bool threaded = nparts == 2 && pthread_create(&th, NULL, part_main, &parts[1]) == 0;
        part_main(&parts[0]);
        if (threaded)
            pthread_join(th, NULL);
        else if (nparts == 2)
            part_main(&parts[1]);
        for (int i = 0; i < nparts; i++)
            if (parts[i].failed)
                err_throw_saved(&parts[i].err);
        err_pop(&jmp);
    } else {
        free(ks.rows);
        free(ks.tie);
        free(parts);
        err_rethrow();
    }
    free(ks.rows);
    free(ks.tie);
    free(parts);
    return nparts;
}

/* ---- lookups ---- */

/* A key run's decoded group kept for later lookups: its keys (one array
 * per key column, strings in the arena) and versions (table rows). */
typedef struct KeyGroup {
    void *keys[RUN_KEYS_MAX];
    const uint64_t *versions;
    uint32_t count;
    size_t bytes;
    MemArena *arena;
} KeyGroup;

/* Decoded groups of every key run together stay under this many bytes
 * (e.g. 2,000 groups of a bigint key: 4M keys); past it a lookup decodes
 * a group for itself alone, as run_lookup does. A hit in a kept group
 * costs a binary search; decoding one costs ~6 µs (storage/README.md). */
size_t store__key_cache_limit = (size_t)64 << 20;
static _Atomic size_t key_cache_bytes;

static void key_run_open(StoreKeyRun *r, const char *path)
{
    r->reader = run_open_for_lookups(path);
    uint32_t n = run_group_count(r->reader);
    r->groups = calloc(n ? n : 1, sizeof *r->groups);
    if (!r->groups) {
        run_close(r->reader);
        r->reader = NULL;
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    }
}

static void key_group_free(KeyGroup *g)
{
    if (!g)
        return;
    atomic_fetch_sub(&key_cache_bytes, g->bytes);
    mem_arena_destroy(g->arena);
    free(g);
}

/* Callers hold pk_lock exclusively, or the run was never shared. */
static void key_run_close(StoreKeyRun *r)
{
    for (uint32_t g = 0; r->groups && g < run_group_count(r->reader); g++)
        key_group_free(atomic_load_explicit(&r->groups[g], memory_order_relaxed));
    free(r->groups);
    r->groups = NULL;
    run_close(r->reader);
    r->reader = NULL;
}

/* Group g of r decoded into arena a (keys, then versions). */
static void group_decode(const StoreTable *t, StoreKeyRun *r, uint32_t g, MemArena *a, KeyGroup *out)
{
    RunChunk c;
    for (int k = 0; k < t->npkey; k++) {
        run_chunk_read(r->reader, g, k, a, &c);
        if (c.phys != t->phys[t->pkey[k]] || c.count != run_group_rows(r->reader, g))
            err_raise(ERRCODE_DATA_CORRUPTED, "key run \"%s\" does not match table \"%s\"",
                      run_path(r->reader), t->name);
        out->keys[k] = c.values;
    }
    run_chunk_read(r->reader, g, t->npkey, a, &c);  /* the versions */
    out->versions = c.values;
    out->count = c.count;
}

/* group_decode into kg's own arena; kg freed when that raises. */
__attribute__((noinline)) static void group_decode_kept(const StoreTable *t, StoreKeyRun *r,
                                                        uint32_t g, KeyGroup *kg)
{
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        group_decode(t, r, g, kg->arena, kg);
        err_pop(&jmp);
    } else {
        mem_arena_destroy(kg->arena);
        free(kg);
        err_rethrow();
    }
}

/* Group g of r decoded; kept for later lookups when the budget allows,
 * else *temp is set and the caller frees it (key_group_free). */
static const KeyGroup *group_get(const StoreTable *t, StoreKeyRun *r, uint32_t g, KeyGroup **temp)
{
    KeyGroup *kg = atomic_load_explicit(&r->groups[g], memory_order_acquire);
    if (kg)
        return kg;
    kg = calloc(1, sizeof *kg);
    MemArena *a = kg ? mem_arena_create("key run group") : NULL;
    if (!a) {
        free(kg);
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    }
    kg->arena = a;
    group_decode_kept(t, r, g, kg);
    kg->bytes = mem_arena_bytes(a) + sizeof *kg;
    atomic_fetch_add(&key_cache_bytes, kg->bytes);
    if (atomic_load_explicit(&key_cache_bytes, memory_order_relaxed) > store__key_cache_limit) {
        *temp = kg;  /* past the budget: this lookup's only */
        return kg;
    }
    KeyGroup *none = NULL;
    if (!atomic_compare_exchange_strong_explicit(&r->groups[g], &none, kg, memory_order_acq_rel,
                                                 memory_order_acquire)) {
        key_group_free(kg);  /* another lookup kept it first */
        return none;
    }
    return kg;
}

/* key against entry i of group kg, in run order. */
static int cmp_entry(const StoreTable *t, const KeyGroup *kg, uint32_t i, const Value *key)
{
    for (int k = 0; k < t->npkey; k++) {
        int col = t->pkey[k];
        int c = cmp_key_col(t, col, (const char *)kg->keys[k] + (size_t)i * t->width[col],
                            &key[k].u);
        if (c)
            return c;
    }
    return 0;
}

/* The row r's entry for key names, if r holds it. Key runs keep one
 * entry per key, so the first entry not below the key is the only one. */
static bool key_run_find(const StoreTable *t, StoreKeyRun *r, const Value *key, uint64_t *row)
{
    int64_t g = run_find_group(r->reader, key);
    if (g < 0)
        return false;
    KeyGroup *temp = NULL;
    const KeyGroup *kg = group_get(t, r, (uint32_t)g, &temp);
    uint32_t lo = 0, hi = kg->count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (cmp_entry(t, kg, mid, key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    bool found = lo < kg->count && cmp_entry(t, kg, lo, key) == 0;
    if (found)
        *row = kg->versions[lo];  /* a key run's version is the table row */
    key_group_free(temp);
    return found;
}

bool store__keys_find(const StoreTable *t, const Value *key, uint64_t *row)
{
    const StorePkIndex *pk = &t->pk;
    for (int i = pk->nruns - 1; i >= 0; i--)  /* the kept groups are the table's memory */
        if (key_run_find(t, (StoreKeyRun *)&pk->runs[i], key, row))
            return true;
    return false;
}

void store__keys_plan_free(StoreKeysPlan *p)
{
    if (!p)
        return;
    for (int i = 0; i < p->nmade && !p->installed; i++)
        key_run_close(&p->made[i]);
    free(p->kept);
    free(p);
}

/* Open a run just written (XX001/58030 as any run). */
static void made_open(StoreKeysPlan *p, const StoreTable *t, uint64_t gen, uint32_t part,
                      uint64_t first, uint64_t end)
{
    char path[4200];
    key_path(path, sizeof path, gen, t->oid, part);
    p->made[p->nmade] = (StoreKeyRun){.gen = gen, .part = part, .first = first, .end = end};
    key_run_open(&p->made[p->nmade], path);
    p->nmade++;
}

/* Merge the plan's older runs into checkpoint/<gen>.<oid>.0.keys. */
static void merge_older(StoreKeysPlan *p, const StoreTable *t, uint64_t gen)
{
    RunReader **in = store__malloc(sizeof *in * (size_t)p->nold);
    for (int i = 0; i < p->nold; i++)
        in[i] = p->kept[i].reader;
    SqlType types[RUN_KEYS_MAX];
    int cols[RUN_KEYS_MAX];
    RunSchema schema = key_schema(t, types, cols);
    RunWriteOptions opts = {.group_rows = STORE_KEY_GROUP_ROWS, .compression = RUN_COMP_LZ4};
    char path[4200];
    key_path(path, sizeof path, gen, t->oid, 0);
    /* Every key's newest entry only: no snapshot reads key runs. */
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        run_compact(in, p->nold, &schema, path, &opts, UINT64_MAX, true, NULL);
        err_pop(&jmp);
    } else {
        free(in);
        err_rethrow();
    }
    free(in);
    made_open(p, t, gen, 0, p->kept[0].first, p->kept[p->nold - 1].end);
    p->nkept = 0;
}

StoreKeysPlan *store__keys_flush(StoreTable *t, uint64_t gen, uint64_t rows)
{
    if (!store__keys_supported(t) || t->pk_prev_not_null)
        return NULL;  /* no key runs, or an ADD PRIMARY KEY not committed yet */
    StoreKeysPlan *p = store__calloc(1, sizeof *p);
    pthread_rwlock_rdlock(&t->pk_lock);
    p->epoch = t->pk.runs_epoch;
    p->npkey = t->npkey;
    uint64_t from = t->pk.runs_end;
    p->nold = p->nkept = t->pk.nruns;
    p->kept = malloc(sizeof *p->kept * (size_t)(p->nold ? p->nold : 1));
    if (p->kept && p->nold)  /* runs is NULL when there are none */
        memcpy(p->kept, t->pk.runs, sizeof *p->kept * (size_t)p->nold);
    pthread_rwlock_unlock(&t->pk_lock);
    p->rows = rows;
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        if (!p->kept)
            err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
        if (from > rows || p->npkey != t->npkey) {
            /* Rows went since the runs were written (cannot happen: only a
             * TRUNCATE removes rows, and it drops the runs): index anew. */
            store__keys_plan_free(p);
            return NULL;
        }
        if (from < rows) {
            if (p->nold + 2 > STORE_KEY_RUNS_MAX)  /* a flush adds up to two */
                merge_older(p, t, gen);
            int nparts = write_fresh(t, gen, from, rows);
            for (int i = 1; i <= nparts; i++)
                made_open(p, t, gen, (uint32_t)i, from, rows);
        }
        err_pop(&jmp);
    } else {
        store__keys_plan_free(p);
        err_rethrow();
    }
    return p;
}

void store__keys_record(StoreTxn *buf, const StoreTable *t, const StoreKeysPlan *p)
{
    uint32_t n = (uint32_t)(p->nkept + p->nmade);
    if (n == 0)
        return;
    size_t len = 8 + (size_t)n * 28;
    uint8_t *rec = store__malloc(len), *q = rec + 8;
    memcpy(rec, &t->oid, 4);
    memcpy(rec + 4, &n, 4);
    for (uint32_t i = 0; i < n; i++) {
        const StoreKeyRun *r = i < (uint32_t)p->nkept ? &p->kept[i] : &p->made[i - p->nkept];
        memcpy(q, &r->gen, 8);
        memcpy(q + 8, &r->part, 4);
        memcpy(q + 12, &r->first, 8);
        memcpy(q + 20, &r->end, 8);
        q += 28;
    }
    store__wal_add(buf, WAL_TABLE_KEYS, rec, len);
    free(rec);
}

bool store__keys_names(const StoreKeysPlan *p, uint64_t gen, uint32_t part)
{
    for (int i = 0; i < p->nkept; i++)
        if (p->kept[i].gen == gen && p->kept[i].part == part)
            return true;
    for (int i = 0; i < p->nmade; i++)
        if (p->made[i].gen == gen && p->made[i].part == part)
            return true;
    return false;
}

bool store__keys_install(StoreTable *t, StoreKeysPlan *p)
{
    if (!p)
        return false;
    StoreKeyRun *runs = malloc(sizeof *runs * (size_t)(p->nkept + p->nmade + 1));
    pthread_rwlock_wrlock(&t->pk_lock);
    bool same = runs && !t->data_freed && t->pk.runs_epoch == p->epoch && t->npkey == p->npkey &&
                t->pk.nruns == p->nold;
    /* The hash first: if it cannot shrink (memory), nothing is installed
     * and the hash keeps naming those rows (their key columns stay). */
    if (same && p->nmade > 0 && store__pk_prune_below(t, p->rows)) {
        if (p->nkept)  /* t->pk.runs is NULL when there are none */
            memcpy(runs, t->pk.runs, sizeof *runs * (size_t)p->nkept);
        memcpy(runs + p->nkept, p->made, sizeof *runs * (size_t)p->nmade);
        for (int i = p->nkept; i < t->pk.nruns; i++)
            key_run_close(&t->pk.runs[i]);  /* merged into made[0] */
        free(t->pk.runs);
        t->pk.runs = runs;
        runs = NULL;
        t->pk.nruns = p->nkept + p->nmade;
        t->pk.runs_end = p->rows;
        p->installed = true;  /* the table's now */
    }
    pthread_rwlock_unlock(&t->pk_lock);
    free(runs);
    return p->installed;
}

/* ---- recovery ---- */

static uint64_t get64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

void store__keys_recover(StoreTable *t, const uint8_t *p, size_t len, const char *wal_path)
{
    uint32_t n;
    if (len < 4 || (memcpy(&n, p, 4), len != 4 + (size_t)n * 28))
        err_raise(ERRCODE_DATA_CORRUPTED, "invalid record in file \"%s\"", wal_path);
    if (!store__keys_supported(t))
        return;  /* an ADD PRIMARY KEY the checkpoint saw before its commit */
    store__keys_drop(&t->pk);
    StoreKeyRun *runs = store__calloc(n ? n : 1, sizeof *runs);
    uint64_t end = 0;
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        for (uint32_t i = 0; i < n; i++) {
            const uint8_t *q = p + 4 + (size_t)i * 28;
            StoreKeyRun *r = &runs[i];
            uint32_t part;
            memcpy(&part, q + 8, 4);
            *r = (StoreKeyRun){.gen = get64(q), .part = part, .first = get64(q + 12),
                               .end = get64(q + 20)};
            bool sibling = i > 0 && r->gen == runs[i - 1].gen && r->first == runs[i - 1].first &&
                           r->end == runs[i - 1].end;  /* a second part of one flush */
            if ((r->first != end && !sibling) || r->end <= r->first)
                err_raise(ERRCODE_DATA_CORRUPTED, "invalid record in file \"%s\"", wal_path);
            char path[4200];
            key_path(path, sizeof path, r->gen, t->oid, r->part);
            key_run_open(r, path);
            const RunSchema *s = run_schema(r->reader);
            bool ok = s->ncols == t->npkey && s->nkeys == t->npkey;
            for (int k = 0; ok && k < t->npkey; k++)
                ok = s->types[k].oid == t->cols[t->pkey[k]].type.oid;
            if (!ok)
                err_raise(ERRCODE_DATA_CORRUPTED,
                          "key run \"%s\" does not match the primary key of table \"%s\"", path,
                          t->name);
            end = r->end;
        }
        err_pop(&jmp);
    } else {
        for (uint32_t i = 0; i < n; i++)
            if (runs[i].reader)
                key_run_close(&runs[i]);
        free(runs);
        err_rethrow();
    }
    t->pk.runs = runs;
    t->pk.nruns = (int)n;
    t->pk.runs_end = end;
}
