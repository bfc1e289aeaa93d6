/*
 * copy_cluster.c — clustered bulk loads: a COPY FROM into a table with a
 * primary key writes its rows sorted by the key, segment by segment.
 *
 * Why: the store keeps rows in arrival order and skips 2048-row groups by
 * their zone maps (min/max per column). Rows in file order put every key
 * value in every group, so `WHERE CounterID = 62 AND EventDate BETWEEN ...`
 * (ClickBench Q36–Q42 on create-tuned.sql's key) reads every group. Row
 * order in a table is unspecified in SQL, so COPY may append its rows in
 * key order instead: then each segment's groups hold narrow key ranges.
 *
 * How: copy_in.c converts each batch of input rows straight into a batch
 * ("chunk") of the segment, its strings into the segment's arena. A
 * record or conversion error first appends the waiting chunks in file
 * order (copy_in.c raise_after_segment), so errors come in the order they
 * did before buffering. When the segment holds EXEC_CLUSTER_SEG_ROWS
 * rows or EXEC_CLUSTER_SEG_BYTES bytes, or the COPY ends, it is appended:
 *
 *   1. fewer than EXEC_CLUSTER_MIN_ROWS rows, or a NULL in a NOT NULL
 *      column → file order (the store raises 23502 for the same row as
 *      without clustering, and small COPYs see no change at all);
 *   2. sort a permutation of the rows by the key, stable (equal keys keep
 *      file order). Keys made only of integer-ordered types (bool, int2/4/8,
 *      date, time, timestamp[tz]) are normalised to order-preserving
 *      unsigned words packed into 64-bit words (CounterID and EventDate
 *      share one word) and sorted by an LSD radix sort on the first word
 *      (byte passes whose byte is the same in every row are skipped), then
 *      each run of equal words by the next word (insertion sort below 32
 *      rows, radix above), and so on. Other key types use op_sort.c's
 *      stable merge sort (exec__sort_columns) with PostgreSQL's ordering.
 *      Two equal keys (adjacent after the sort) → file order, so the
 *      store's 23505 names the first duplicate in file order;
 *   3. rearrange the segment's chunks into sorted order in place, column by
 *      column (permute_column; string bytes are copied into a second arena
 *      in key order, so the store reads them sequentially), and append the
 *      chunks as they are. A key
 *      already in the table (from before the COPY or an earlier segment)
 *      is found only by the store's 23505 on the way: the sorted append
 *      runs under a handler, which then finds the first row in file order
 *      whose key the table held before the segment (store_table_lookup_key,
 *      error path only) and appends that row alone, so the error raised is
 *      the store's own message for PostgreSQL's row. A lookup can miss a
 *      row committed by another transaction after this statement's
 *      snapshot; the store's error is then re-raised as it came.
 *
 * Memory: the chunks (vectors of 2048 rows), their line numbers, the sort
 * arrays (24 bytes per row) and one column's sorted copy are allocated
 * once per COPY and reused by every segment, so later segments do not
 * fault in fresh pages; the strings live in the segment's arena, reset
 * after each segment. Chunks plus strings stay under
 * EXEC_CLUSTER_SEG_BYTES (plus one chunk); while a segment is rearranged
 * its strings exist twice (parsed and relocated). No allocation per row.
 */
#define STRATA_EXECUTOR_INTERNAL
#include "executor/copy_cluster.h"

#include <string.h>
#include "common/error.h"
#include "executor/exec_int.h"

#define CHUNK_SHIFT 11
#define CHUNK_MASK ((UINT32_C(1) << CHUNK_SHIFT) - 1)
_Static_assert(VEC_CAPACITY == (1 << CHUNK_SHIFT), "a chunk is one batch");
#define MAX_CHUNKS (EXEC_CLUSTER_SEG_ROWS / VEC_CAPACITY)
#define SMALL_RUN 32   /* insertion sort below this many rows */
#define PREFETCH 16    /* permute_column: rows ahead whose value is prefetched */

struct ExecCopyCluster {
    StoreTable *t;
    int tcols, npk;
    const int *pkey;
    SqlType *types;
    bool *not_null;           /* per table column: NOT NULL or key column */
    bool radix;               /* every key column integer-ordered */
    int nwords;               /* 64-bit words of the normalised key */
    int *word_of, *shift_of;  /* per key column */
    MemArena *arena;          /* the COPY's: chunks, lines, sort arrays, reused per segment */
    MemArena *seg;            /* the segment's strings; reset per segment */
    MemArena *seg_next;       /* strings relocated in key order (then swapped with seg) */
    Batch *chunks[MAX_CHUNKS];    /* made on first use, reused by later segments */
    uint64_t *lines[MAX_CHUNKS];
    size_t chunk_bytes;       /* memory of one chunk's vectors */
    uint64_t *key, *tk;       /* sort arrays (EXEC_CLUSTER_SEG_ROWS), made on first sort */
    uint32_t *idx, *ti;
    void *tmp;                /* one column in sorted order (permute_column) */
    uint64_t *tmpv;
    uint32_t nchunks, nrows;  /* complete chunks (exec__cluster_add) and their rows */
    bool partial;             /* the last chunk is not full: append now */
    const void ***dptr;       /* per column, per chunk: data (built per append) */
    const uint64_t ***vptr;   /* per column, per chunk: validity or NULL */
    Batch *out;               /* the one row raised again (error path) */
    uint32_t cnt[8][256];     /* radix histograms */
    uint64_t appended;        /* rows of the segment appended so far */
    bool dup;                 /* equal keys found by the sort */
};

static bool integer_ordered(SqlType t)
{
    switch (t.oid) {
    case TYPE_BOOL: case TYPE_INT2: case TYPE_INT4: case TYPE_INT8:
    case TYPE_DATE: case TYPE_TIME: case TYPE_TIMESTAMP: case TYPE_TIMESTAMPTZ:
        return true;
    default:
        return false;
    }
}

/* Greedy packing of the key columns into 64-bit words, most significant first. */
static void plan_words(ExecCopyCluster *cc, MemArena *arena)
{
    cc->word_of = MEM_NEW_ARRAY(arena, int, cc->npk);
    cc->shift_of = MEM_NEW_ARRAY(arena, int, cc->npk);
    int word = 0, used = 0;
    for (int k = 0; k < cc->npk; k++) {
        int bits = (int)phys_size(type_phys(cc->types[cc->pkey[k]])) * 8;
        if (used + bits > 64) {
            word++;
            used = 0;
        }
        cc->word_of[k] = word;
        cc->shift_of[k] = 64 - used - bits;
        used += bits;
    }
    cc->nwords = word + 1;
}

ExecCopyCluster *exec__cluster_create(StoreTable *t, MemArena *arena)
{
    int npk = store_table_npkey(t);
    if (npk == 0)
        return NULL;
    ExecCopyCluster *cc = MEM_NEW(arena, ExecCopyCluster);
    memset(cc, 0, sizeof *cc);
    cc->t = t;
    cc->tcols = store_table_ncols(t);
    cc->npk = npk;
    cc->pkey = store_table_pkey(t);
    cc->types = MEM_NEW_ARRAY(arena, SqlType, cc->tcols);
    cc->not_null = MEM_NEW_ARRAY(arena, bool, cc->tcols);
    for (int j = 0; j < cc->tcols; j++) {
        cc->types[j] = store_table_column(t, j)->type;
        cc->not_null[j] = store_table_column(t, j)->not_null;
    }
    cc->radix = true;
    for (int k = 0; k < npk; k++) {
        cc->not_null[cc->pkey[k]] = true;
        cc->radix &= integer_ordered(cc->types[cc->pkey[k]]);
    }
    plan_words(cc, arena);
    cc->seg = mem_arena_create("copy segment");
    cc->seg_next = mem_arena_create("copy segment sorted");
    cc->arena = arena;
    for (int j = 0; j < cc->tcols; j++)
        cc->chunk_bytes += (size_t)VEC_CAPACITY * phys_size(type_phys(cc->types[j])) +
                           sizeof(uint64_t) * VEC_VALIDITY_WORDS * 2;
    return cc;
}

void exec__cluster_destroy(ExecCopyCluster *cc)
{
    if (cc != NULL && cc->seg != NULL) {
        mem_arena_destroy(cc->seg);
        mem_arena_destroy(cc->seg_next);
        cc->seg = cc->seg_next = NULL;
    }
}

Batch *exec__cluster_next_batch(ExecCopyCluster *cc)
{
    ERR_ASSERT(cc->nchunks < MAX_CHUNKS && !cc->partial);
    uint32_t c = cc->nchunks;   /* counted once complete (exec__cluster_add) */
    if (cc->chunks[c] == NULL) {
        /* kept for the COPY: later segments reuse the pages (no new faults) */
        cc->chunks[c] = batch_create(cc->arena, cc->tcols, cc->types);
        cc->lines[c] = MEM_NEW_ARRAY(cc->arena, uint64_t, VEC_CAPACITY);
    }
    return cc->chunks[c];
}

MemArena *exec__cluster_arena(ExecCopyCluster *cc)
{
    return cc->seg;
}

bool exec__cluster_add(ExecCopyCluster *cc, const uint64_t *lines)
{
    const Batch *b = cc->chunks[cc->nchunks];
    ERR_ASSERT(b->sel == NULL && b->count <= VEC_CAPACITY);
    memcpy(cc->lines[cc->nchunks], lines, sizeof(uint64_t) * b->count);
    cc->nchunks++;
    cc->nrows += b->count;
    cc->partial = b->count < VEC_CAPACITY;
    return cc->partial || cc->nchunks == MAX_CHUNKS ||
           cc->nchunks * cc->chunk_bytes + mem_arena_bytes(cc->seg) >= EXEC_CLUSTER_SEG_BYTES;
}

/* ---------- checks ---------- */

/* Whether some NOT NULL column holds a NULL in the segment. */
static bool segment_has_null(const ExecCopyCluster *cc)
{
    for (uint32_t c = 0; c < cc->nchunks; c++) {
        const Batch *b = cc->chunks[c];
        for (int j = 0; j < cc->tcols; j++) {
            const uint64_t *v = b->cols[j].validity;
            if (!cc->not_null[j] || v == NULL)
                continue;
            for (uint32_t r = 0; r < b->count; r += 64) {
                uint32_t left = b->count - r;
                uint64_t want = left >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << left) - 1;
                if ((v[r >> 6] & want) != want)
                    return true;
            }
        }
    }
    return false;
}

static void row_key(const ExecCopyCluster *cc, const Batch *b, uint32_t r, Value *key)
{
    for (int k = 0; k < cc->npk; k++)
        vec_get_value(&b->cols[cc->pkey[k]], r, &key[k]);
}

/* ---------- radix sort of normalised keys ---------- */

static inline uint64_t norm_at(PhysType phys, const void *data, uint32_t r)
{
    switch (phys) {
    case PHYS_BOOL: return ((const uint8_t *)data)[r];
    case PHYS_I16: return (uint16_t)((const int16_t *)data)[r] ^ UINT64_C(0x8000);
    case PHYS_I32: return (uint32_t)((const int32_t *)data)[r] ^ UINT64_C(0x80000000);
    default: return (uint64_t)((const int64_t *)data)[r] ^ (UINT64_C(1) << 63);
    }
}

/* Word 0 of every row, column at a time over the chunks. */
static void fill_word0(const ExecCopyCluster *cc, uint64_t *key)
{
    memset(key, 0, sizeof(uint64_t) * cc->nrows);
    for (int k = 0; k < cc->npk && cc->word_of[k] == 0; k++) {
        int col = cc->pkey[k], sh = cc->shift_of[k];
        PhysType phys = type_phys(cc->types[col]);
        for (uint32_t c = 0; c < cc->nchunks; c++) {
            const Batch *b = cc->chunks[c];
            uint64_t *dst = key + ((size_t)c << CHUNK_SHIFT);
            switch (phys) {
#define NORM_LOOP(EXPR) for (uint32_t r = 0; r < b->count; r++) dst[r] |= (EXPR) << sh; break;
            case PHYS_BOOL: { const uint8_t *s = b->cols[col].data; NORM_LOOP((uint64_t)s[r]) }
            case PHYS_I16: { const int16_t *s = b->cols[col].data;
                NORM_LOOP((uint64_t)((uint16_t)s[r] ^ 0x8000u)) }
            case PHYS_I32: { const int32_t *s = b->cols[col].data;
                NORM_LOOP((uint64_t)((uint32_t)s[r] ^ 0x80000000u)) }
            default: { const int64_t *s = b->cols[col].data;
                NORM_LOOP((uint64_t)s[r] ^ (UINT64_C(1) << 63)) }
#undef NORM_LOOP
            }
        }
    }
}

/* Word w of the rows idx[lo..hi) into key[lo..hi). */
static void fill_word(const ExecCopyCluster *cc, int w, const uint32_t *idx, uint64_t *key,
                      uint32_t lo, uint32_t hi)
{
    for (uint32_t i = lo; i < hi; i++)
        key[i] = 0;
    for (int k = 0; k < cc->npk; k++) {
        if (cc->word_of[k] != w)
            continue;
        int col = cc->pkey[k], sh = cc->shift_of[k];
        PhysType phys = type_phys(cc->types[col]);
        for (uint32_t i = lo; i < hi; i++) {
            uint32_t p = idx[i];
            key[i] |= norm_at(phys, cc->chunks[p >> CHUNK_SHIFT]->cols[col].data, p & CHUNK_MASK) << sh;
        }
    }
}

static void insertion_sort(uint64_t *key, uint32_t *idx, uint32_t lo, uint32_t hi)
{
    for (uint32_t i = lo + 1; i < hi; i++) {
        uint64_t k = key[i];
        uint32_t x = idx[i], j = i;
        while (j > lo && key[j - 1] > k) {
            key[j] = key[j - 1];
            idx[j] = idx[j - 1];
            j--;
        }
        key[j] = k;
        idx[j] = x;
    }
}

/* Stable LSD radix sort of (key, idx)[lo..hi) using tk/ti as scratch;
 * byte passes that would not move anything are skipped. */
static void radix_range(ExecCopyCluster *cc, uint64_t *key, uint32_t *idx, uint64_t *tk,
                        uint32_t *ti, uint32_t lo, uint32_t hi)
{
    uint32_t n = hi - lo;
    if (n <= SMALL_RUN) {
        insertion_sort(key, idx, lo, hi);
        return;
    }
    memset(cc->cnt, 0, sizeof cc->cnt);
    for (uint32_t i = lo; i < hi; i++)
        for (int d = 0; d < 8; d++)
            cc->cnt[d][(key[i] >> (8 * d)) & 0xFF]++;
    uint64_t *sk = key + lo, *dk = tk + lo;
    uint32_t *si = idx + lo, *di = ti + lo;
    for (int d = 0; d < 8; d++) {
        uint32_t *cnt = cc->cnt[d];
        if (cnt[(sk[0] >> (8 * d)) & 0xFF] == n)
            continue;   /* every row has the same byte here */
        err_check_interrupts();
        uint32_t sum = 0;
        for (int v = 0; v < 256; v++) {
            uint32_t c = cnt[v];
            cnt[v] = sum;
            sum += c;
        }
        for (uint32_t i = 0; i < n; i++) {
            uint32_t at = cnt[(sk[i] >> (8 * d)) & 0xFF]++;
            dk[at] = sk[i];
            di[at] = si[i];
        }
        uint64_t *t64 = sk; sk = dk; dk = t64;
        uint32_t *t32 = si; si = di; di = t32;
    }
    if (sk != key + lo) {
        memcpy(key + lo, sk, sizeof(uint64_t) * n);
        memcpy(idx + lo, si, sizeof(uint32_t) * n);
    }
}

/* Order each run of equal word-w keys in [lo, hi) by the next word; equal
 * on the last word = equal keys. */
static void refine(ExecCopyCluster *cc, uint64_t *key, uint32_t *idx, uint64_t *tk, uint32_t *ti,
                   uint32_t lo, uint32_t hi, int w)
{
    for (uint32_t a = lo; a < hi && !cc->dup;) {
        uint32_t b = a + 1;
        while (b < hi && key[b] == key[a])
            b++;
        if (b - a > 1) {
            if (w + 1 == cc->nwords) {
                cc->dup = true;
                return;
            }
            fill_word(cc, w + 1, idx, key, a, b);
            radix_range(cc, key, idx, tk, ti, a, b);
            refine(cc, key, idx, tk, ti, a, b, w + 1);
        }
        a = b;
    }
}

static uint32_t *radix_sort(ExecCopyCluster *cc)
{
    uint32_t n = cc->nrows;
    if (cc->key == NULL) {
        cc->key = MEM_NEW_ARRAY(cc->arena, uint64_t, EXEC_CLUSTER_SEG_ROWS);
        cc->tk = MEM_NEW_ARRAY(cc->arena, uint64_t, EXEC_CLUSTER_SEG_ROWS);
        cc->idx = MEM_NEW_ARRAY(cc->arena, uint32_t, EXEC_CLUSTER_SEG_ROWS);
        cc->ti = MEM_NEW_ARRAY(cc->arena, uint32_t, EXEC_CLUSTER_SEG_ROWS);
    }
    uint64_t *key = cc->key, *tk = cc->tk;
    uint32_t *idx = cc->idx, *ti = cc->ti;
    fill_word0(cc, key);
    for (uint32_t i = 0; i < n; i++)
        idx[i] = i;
    radix_range(cc, key, idx, tk, ti, 0, n);
    cc->dup = false;
    refine(cc, key, idx, tk, ti, 0, n, 0);
    return cc->dup ? NULL : idx;
}

/* Other key types: op_sort.c's stable merge sort over copies of the key
 * columns; equal neighbours by type_compare (conservative: any two keys
 * the ordering calls equal send the segment to file order). */
static uint32_t *compare_sort(ExecCopyCluster *cc)
{
    uint32_t n = cc->nrows;
    ExecColumn *kc = MEM_NEW_ARRAY(cc->seg, ExecColumn, cc->npk);
    SortKey *keys = MEM_NEW_ARRAY(cc->seg, SortKey, cc->npk);
    for (int k = 0; k < cc->npk; k++) {
        int col = cc->pkey[k];
        exec__col_init(&kc[k], cc->types[col], cc->seg, n);
        for (uint32_t c = 0; c < cc->nchunks; c++)
            exec__col_append(&kc[k], cc->seg, &cc->chunks[c]->cols[col], exec__identity_sel,
                             cc->chunks[c]->count);
        keys[k] = (SortKey){.column = k, .descending = false, .nulls_first = false};
    }
    uint32_t *perm = exec__sort_columns(kc, cc->npk, keys, cc->npk, n, cc->seg);
    for (uint32_t i = 1; i < n; i++) {
        bool eq = true;
        for (int k = 0; k < cc->npk && eq; k++) {
            Value a, b;
            exec__col_get(&kc[k], perm[i - 1], &a);
            exec__col_get(&kc[k], perm[i], &b);
            eq = type_compare(kc[k].type, &a, &b) == 0;
        }
        if (eq)
            return NULL;
    }
    return perm;
}

/* ---------- appends ---------- */

static void build_pointers(ExecCopyCluster *cc)
{
    if (cc->dptr == NULL) {   /* at the first append: a small COPY never needs them */
        cc->dptr = MEM_NEW_ARRAY(cc->arena, const void **, cc->tcols);
        cc->vptr = MEM_NEW_ARRAY(cc->arena, const uint64_t **, cc->tcols);
        for (int j = 0; j < cc->tcols; j++) {
            cc->dptr[j] = MEM_NEW_ARRAY(cc->arena, const void *, MAX_CHUNKS);
            cc->vptr[j] = MEM_NEW_ARRAY(cc->arena, const uint64_t *, MAX_CHUNKS);
        }
    }
    for (int j = 0; j < cc->tcols; j++)
        for (uint32_t c = 0; c < cc->nchunks; c++) {
            cc->dptr[j][c] = cc->chunks[c]->cols[j].data;
            cc->vptr[j][c] = cc->chunks[c]->cols[j].validity;
        }
}

/* out rows 0..m = segment rows pos[0..m) (error path: one row). */
static void gather(ExecCopyCluster *cc, const uint32_t *pos, uint32_t m, Batch *out)
{
    for (int j = 0; j < cc->tcols; j++) {
        Vector *o = &out->cols[j];
        const void **dp = cc->dptr[j];
        const uint64_t **vp = cc->vptr[j];
        size_t elem = phys_size(o->phys);
        o->is_const = false;
        o->validity = NULL;
        memset(o->validity_buf, 0, sizeof(uint64_t) * VEC_VALIDITY_WORDS);
        bool any_null = false;
        for (uint32_t i = 0; i < m; i++) {
            uint32_t p = pos[i], r = p & CHUNK_MASK;
            const uint64_t *v = vp[p >> CHUNK_SHIFT];
            memcpy((char *)o->data + i * elem, (const char *)dp[p >> CHUNK_SHIFT] + r * elem, elem);
            uint64_t valid = v == NULL ? 1 : (v[r >> 6] >> (r & 63)) & 1;
            o->validity_buf[i >> 6] |= valid << (i & 63);
            any_null |= !valid;
        }
        if (any_null)
            o->validity = o->validity_buf;
    }
    out->count = m;
    out->sel = NULL;
}

/*
 * Column j of the segment rearranged in place into sorted order (row i of
 * the chunks = row perm[i] before): gathered into cc->tmp, then copied back
 * chunk by chunk. One column at a time keeps the random reads inside that
 * column's few MB, which stay cached for the whole pass; gathering whole
 * 2048-row batches through the permutation instead touched every column of
 * the segment per batch and measured 4x slower (missing cache and TLB).
 */
/* Copy the bytes of s[0..n) (sorted order) into one block of cc->seg_next,
 * so the store reads them sequentially when it copies the rows: read in
 * key order from where they were parsed, they cost it a cache miss each. */
static void relocate_strings(ExecCopyCluster *cc, StrRef *s, uint32_t n)
{
    size_t total = 0;
    for (uint32_t i = 0; i < n; i++)
        total += s[i].len;
    if (total == 0)
        return;
    char *buf = mem_alloc(cc->seg_next, total);
    for (uint32_t i = 0; i < n; i++) {
        __builtin_prefetch(s[i + PREFETCH < n ? i + PREFETCH : i].ptr);
        if (s[i].len)
            memcpy(buf, s[i].ptr, s[i].len);
        s[i].ptr = buf;
        buf += s[i].len;
    }
}

static void permute_column(ExecCopyCluster *cc, int j, const uint32_t *perm)
{
    uint32_t n = cc->nrows;
    const void **dp = cc->dptr[j];
    const uint64_t **vp = cc->vptr[j];
    size_t elem = phys_size(type_phys(cc->types[j]));
    switch (elem) {
#define GATHER(CT) { CT *d = cc->tmp;                                                  \
        for (uint32_t i = 0; i < n; i++) {                                              \
            uint32_t p = perm[i], q = perm[i + PREFETCH < n ? i + PREFETCH : i];        \
            __builtin_prefetch((const CT *)dp[q >> CHUNK_SHIFT] + (q & CHUNK_MASK));    \
            d[i] = ((const CT *)dp[p >> CHUNK_SHIFT])[p & CHUNK_MASK]; } break; }
    case 1: GATHER(uint8_t)
    case 2: GATHER(int16_t)
    case 4: GATHER(int32_t)
    case 8: GATHER(int64_t)
    default: GATHER(StrRef)
#undef GATHER
    }
    if (elem == sizeof(StrRef))
        relocate_strings(cc, cc->tmp, n);
    for (uint32_t c = 0; c < cc->nchunks; c++)
        memcpy(cc->chunks[c]->cols[j].data, (const char *)cc->tmp + ((size_t)c << CHUNK_SHIFT) * elem,
               cc->chunks[c]->count * elem);
    bool any_null = false;
    for (uint32_t c = 0; c < cc->nchunks && !any_null; c++)
        any_null = vp[c] != NULL;
    if (!any_null)
        return;
    uint64_t *bits = cc->tmpv;
    memset(bits, 0, sizeof(uint64_t) * ((n + 63) / 64));
    for (uint32_t i = 0; i < n; i++) {
        uint32_t p = perm[i], r = p & CHUNK_MASK;
        const uint64_t *v = vp[p >> CHUNK_SHIFT];
        uint64_t valid = v == NULL ? 1 : (v[r >> 6] >> (r & 63)) & 1;
        bits[i >> 6] |= valid << (i & 63);
    }
    for (uint32_t c = 0; c < cc->nchunks; c++) {
        Vector *v = &cc->chunks[c]->cols[j];
        memcpy(v->validity_buf, bits + ((size_t)c << CHUNK_SHIFT) / 64,
               sizeof(uint64_t) * VEC_VALIDITY_WORDS);
        v->validity = v->validity_buf;
    }
}

/* Copy *err_current() and raise it again (lookups in between may end it). */
/* The sorted append raised: for a 23505, raise it for the first row in
 * file order whose key the table held before the segment. The chunks are
 * in sorted order now: file row p sits at sorted position inv[p]. */
static _Noreturn void sorted_append_failed(ExecCopyCluster *cc, StoreTxn *txn, const uint32_t *perm,
                                           uint64_t *err_line)
{
    ErrorData saved = *err_current();
    if (strcmp(saved.sqlstate, ERRCODE_UNIQUE_VIOLATION) != 0)
        err_throw_saved(&saved);
    uint64_t base = store_table_row_count(cc->t, txn) - cc->appended;
    uint32_t *inv = MEM_NEW_ARRAY(cc->seg, uint32_t, cc->nrows);
    for (uint32_t i = 0; i < cc->nrows; i++)
        inv[perm[i]] = i;
    build_pointers(cc);
    Value key[64];
    ERR_ASSERT(cc->npk <= 64);
    for (uint32_t p = 0; p < cc->nrows; p++) {
        if ((p & 0xFFFF) == 0)
            err_check_interrupts();
        uint32_t at = inv[p];
        row_key(cc, cc->chunks[at >> CHUNK_SHIFT], at & CHUNK_MASK, key);
        uint64_t rowid;
        if (store_table_lookup_key(cc->t, txn, key, &rowid) && rowid < base) {
            *err_line = cc->lines[p >> CHUNK_SHIFT][p & CHUNK_MASK];
            cc->out = batch_create(cc->seg, cc->tcols, cc->types);
            gather(cc, &at, 1, cc->out);
            store_table_bulk_load(cc->t, txn, cc->out);   /* raises the store's 23505 */
            break;
        }
    }
    err_throw_saved(&saved);
}

static void append_sorted(ExecCopyCluster *cc, StoreTxn *txn, const uint32_t *perm, uint64_t *err_line)
{
    if (cc->tmp == NULL) {
        cc->tmp = mem_alloc(cc->arena, (size_t)EXEC_CLUSTER_SEG_ROWS * sizeof(StrRef));
        cc->tmpv = MEM_NEW_ARRAY(cc->arena, uint64_t, EXEC_CLUSTER_SEG_ROWS / 64);
    }
    for (int j = 0; j < cc->tcols; j++) {
        err_check_interrupts();
        permute_column(cc, j, perm);
    }
    /* every string now lives in seg_next: the parsed copies can go */
    MemArena *old = cc->seg;
    cc->seg = cc->seg_next;
    cc->seg_next = old;
    mem_arena_reset(cc->seg_next);
    cc->appended = 0;
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        for (uint32_t c = 0; c < cc->nchunks; c++) {
            store_table_bulk_load(cc->t, txn, cc->chunks[c]);
            cc->appended += cc->chunks[c]->count;
        }
        err_pop(&jmp);
    } else {
        sorted_append_failed(cc, txn, perm, err_line);
    }
}

void exec__cluster_flush(ExecCopyCluster *cc, StoreTxn *txn, bool sort, uint64_t *err_line)
{
    if (cc->nchunks == 0)
        return;
    uint32_t *perm = NULL;
    if (sort && cc->nrows >= EXEC_CLUSTER_MIN_ROWS && !segment_has_null(cc))
        perm = cc->radix ? radix_sort(cc) : compare_sort(cc);
    if (perm != NULL) {
        build_pointers(cc);
        append_sorted(cc, txn, perm, err_line);
    } else {
        for (uint32_t c = 0; c < cc->nchunks; c++)
            exec__copy_load_batch(cc->t, txn, cc->chunks[c], cc->lines[c], err_line);
    }
    mem_arena_reset(cc->seg);
    cc->nchunks = cc->nrows = 0;
    cc->partial = false;
}

/* ---------- file-order loads and the row an error is about ---------- */

/* Row of b (no selection) that the store's 23502/23505 is about, -1 when
 * not found: the first row with a NULL in a NOT NULL column, or the first
 * whose key is in the table or on an earlier row of b (b's rows were not
 * added: the store undoes a failed batch). Error path only: quadratic. */
static int64_t failing_row(StoreTable *t, StoreTxn *txn, const Batch *b, const char *sqlstate)
{
    int ncols = store_table_ncols(t), npk = store_table_npkey(t);
    const int *pkey = store_table_pkey(t);
    if (strcmp(sqlstate, ERRCODE_NOT_NULL_VIOLATION) == 0) {
        for (uint32_t r = 0; r < b->count; r++)
            for (int j = 0; j < ncols; j++)
                if (store_table_column(t, j)->not_null && !vec_is_valid(&b->cols[j], r))
                    return r;
        return -1;
    }
    if (strcmp(sqlstate, ERRCODE_UNIQUE_VIOLATION) != 0 || npk == 0 || npk > 64)
        return -1;
    Value key[64], other[64];
    for (uint32_t r = 0; r < b->count; r++) {
        for (int k = 0; k < npk; k++)
            vec_get_value(&b->cols[pkey[k]], r, &key[k]);
        uint64_t rowid;
        if (store_table_lookup_key(t, txn, key, &rowid))
            return r;
        for (uint32_t q = 0; q < r; q++) {
            bool eq = true;
            for (int k = 0; k < npk && eq; k++) {
                vec_get_value(&b->cols[pkey[k]], q, &other[k]);
                eq = !key[k].is_null && !other[k].is_null &&
                     type_compare(store_table_column(t, pkey[k])->type, &key[k], &other[k]) == 0;
            }
            if (eq)
                return r;
        }
    }
    return -1;
}

void exec__copy_load_batch(StoreTable *t, StoreTxn *txn, const Batch *b, const uint64_t *lines,
                           uint64_t *err_line)
{
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        store_table_bulk_load(t, txn, b);
        err_pop(&jmp);
        return;
    }
    ErrorData saved = *err_current();
    int64_t r = failing_row(t, txn, b, saved.sqlstate);
    if (r >= 0)
        *err_line = lines[r];
    err_throw_saved(&saved);
}
