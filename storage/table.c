/*
 * table.c — a table's rows in memory: row groups of column chunks, the
 * string heap, zone maps, and appends with NOT NULL and primary-key checks.
 *
 * Layout: rows are numbered from 0; row r lives in row group r / 2048, at
 * offset r % 2048 of each of the group's column chunks. A chunk is a plain
 * array of the column's physical type (what a Vector points at, so scans
 * are zero copy; its own allocation, freed when the chunk goes cold after a
 * checkpoint, cold.c), a validity bitmap and a zone map. Row groups are found
 * through a fixed two-level directory, so appending never moves a chunk a
 * concurrent scan is reading. Strings are copied into the table's heap:
 * big blocks with a bump pointer, never one malloc per row; key columns'
 * strings in one chain of blocks (kept), the others in a second chain whose
 * blocks are released once their rows are cold ("string heap" below).
 *
 * An append runs in four steps so that a failure leaves nothing behind:
 *   1. find the first row that breaks NOT NULL (no change yet);
 *   2. reserve everything that allocates: row groups, heap space, index
 *      capacity (may raise 53200; reserved space is just unused capacity);
 *   3. insert the keys into the pk index row by row, up to that first
 *      NULL row; a duplicate (in the table or in the batch) undoes the
 *      batch's keys and raises 23505; then a NULL row raises 23502;
 *   4. copy the values (cannot fail) and publish the new row count.
 * The caller holds the table's write lock (taken through txn.c), not a
 * mutex, so raising is safe: the transaction's rollback undoes the rest.
 * Each append leaves an undo entry (rows, heap mark) and a WAL record in its
 * transaction (mvcc.c, wal.c); rows get their xmin stamp at commit.
 *
 * Recovery adds whole row groups of a checkpoint run another way
 * (store__cold_groups_*, for recovery_load.c): allocated with the key
 * columns' arrays only, filled column by column from decoded run chunks
 * (possibly by two threads), then published at once.
 */
#define STORE_INTERNAL
#include "storage/storage_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/error.h"
#include "common/strbuf.h"
#include "common/typio.h"
#include "storage/runs/run.h"

/* ---- creation and destruction ---- */

StoreTable *store__table_new(uint32_t oid, const char *schema, const char *name, int ncols,
                             const StoreColumnDef *cols, int npkey, const int *pkey)
{
    StoreTable *t = store__calloc(1, sizeof *t);
    pthread_mutex_init(&t->freeze_mu, NULL);
    pthread_mutex_init(&t->heap.mu, NULL);
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        store__run_init(t);
        t->oid = oid;
        t->schema = store__strdup(schema);
        t->name = store__strdup(name);
        t->ncols = t->ncols_committed = ncols;
        t->cap_cols = ncols + STORE_ADD_COLUMN_ROOM;
        t->cols = store__calloc((size_t)t->cap_cols, sizeof *t->cols);
        t->phys = store__calloc((size_t)t->cap_cols, sizeof *t->phys);
        t->width = store__calloc((size_t)t->cap_cols, sizeof *t->width);
        t->pkey = store__calloc((size_t)t->cap_cols, sizeof *t->pkey);
        t->dir = store__calloc(STORE_DIR_TOP, sizeof *t->dir);
        t->slab_cur = store__calloc((size_t)t->cap_cols, sizeof *t->slab_cur);
        for (int i = 0; i < ncols; i++) {
            t->cols[i] = cols[i];
            t->cols[i].name = store__strdup(cols[i].name);
            t->cols[i].default_text = cols[i].default_text ? store__strdup(cols[i].default_text) : NULL;
            t->phys[i] = type_phys(cols[i].type);
            t->width[i] = phys_size(t->phys[i]);
        }
        t->npkey = npkey;
        pthread_rwlock_init(&t->pk_lock, NULL);
        for (int i = 0; i < npkey; i++) {
            t->pkey[i] = pkey[i];
            t->cols[pkey[i]].not_null = true;  /* PRIMARY KEY implies NOT NULL */
        }
        /* PostgreSQL's ChooseRelationName: "<table>_pkey", table name cut to fit 63 bytes. */
        int keep = (int)strlen(name);
        if (keep > STORE_NAME_MAX - 1 - 5)
            keep = STORE_NAME_MAX - 1 - 5;
        snprintf(t->pkey_name, sizeof t->pkey_name, "%.*s_pkey", keep, name);
        err_pop(&jmp);
    } else {
        store__table_free(t);
        err_rethrow();
    }
    return t;
}

static void heap_free_blocks(StoreHeapBlock *b, const StoreHeapBlock *stop);

void store__groups_free(StoreTable *t, uint64_t from, uint64_t to)
{
    for (uint64_t g = from; g < to; g++) {
        StoreRowGroup *grp = t->dir[g / STORE_DIR_SEG][g % STORE_DIR_SEG];
        for (int c = grp->ncols_inline; c < t->ncols; c++)
            store__chunk_free(grp->chunks[c].data);  /* NULL when cold (cold.c) */
        for (int c = 0; c < t->cap_cols; c++)
            store__chunk_validity_free(&grp->chunks[c]);
        free(grp);  /* header, chunks and stamps are one allocation */
    }
}

void store__table_free_data(StoreTable *t)
{
    store__groups_free(t, 0, t->ngroups);
    for (int s = 0; t->dir && s < STORE_DIR_TOP && t->dir[s]; s++)
        free(t->dir[s]);
    free(t->dir);  /* the header may outlive the rows (dropped tables): keep it small */
    t->dir = NULL;
    t->ngroups = 0;
    store__chunk_slabs_release(t);
    heap_free_blocks(t->heap.head, NULL);
    heap_free_blocks(t->heap.vals, NULL);
    t->heap.head = t->heap.vals = NULL;
    store__pk_free(&t->pk);
    store__keys_drop(&t->pk);
    store__run_free_all(t);
    atomic_store(&t->nrows, 0);
    atomic_store(&t->committed, 0);
    t->data_freed = true;
}

void store__table_free(StoreTable *t)
{
    if (!t)
        return;
    if (!t->data_freed)
        store__table_free_data(t);
    store__delta_pool_free(t);
    for (int i = 0; t->cols && i < t->ncols; i++) {
        free((char *)t->cols[i].name);
        free((char *)t->cols[i].default_text);
    }
    free(t->cols);
    free(t->phys);
    free(t->width);
    free(t->slab_cur);
    free(t->pkey);
    store__stats_free(t);
    pthread_rwlock_destroy(&t->pk_lock);
    pthread_mutex_destroy(&t->freeze_mu);
    pthread_mutex_destroy(&t->heap.mu);
    free(t->schema);
    free(t->name);
    free(t->view_sql);
    free(t);
}

/* ---- string heap ---- */

/* Two chains of blocks (StoreHeap): key columns' strings and ADD COLUMN
 * fills in `head`, non-key columns' strings in `vals`. Rows are appended
 * in row order (UPDATE appends its new version at the end too), so a value
 * block holds the strings of a range of rows [row_lo, row_hi); once every
 * row group of that range has its non-key string chunks cold (cold.c), no
 * chunk points into the block any more and its bytes can go (retired like
 * chunk arrays: readers that loaded a pointer before the freeze keep them
 * alive). Only the writer appends; block creation, rollback and release
 * take h->mu, never a string copy. */

StoreHeapMark store__heap_mark(const StoreHeap *h)
{
    return (StoreHeapMark){h->head, h->head ? h->head->used : 0,
                           h->vals, h->vals ? h->vals->used : 0};
}

static void heap_block_free(StoreHeapBlock *b)
{
    free(b->bytes);
    free(b);
}

static void heap_free_blocks(StoreHeapBlock *b, const StoreHeapBlock *stop)
{
    while (b && b != stop) {
        StoreHeapBlock *prev = b->prev;
        heap_block_free(b);
        b = prev;
    }
}

/* A new current block of at least `bytes` on chain *chain (may raise). */
static void heap_push_block(StoreHeap *h, StoreHeapBlock **chain, size_t bytes)
{
    size_t size = bytes > STORE_HEAP_BLOCK ? bytes : STORE_HEAP_BLOCK;
    StoreHeapBlock *b = store__malloc(sizeof *b);
    b->bytes = malloc(size);
    if (!b->bytes) {
        free(b);
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    }
    b->size = size;
    b->used = 0;
    b->row_lo = UINT64_MAX;
    b->row_hi = 0;
    pthread_mutex_lock(&h->mu);
    b->prev = *chain;
    *chain = b;
    pthread_mutex_unlock(&h->mu);
}

/* Make sure `bytes` more can be taken from the chain's current block. */
static void heap_reserve(StoreHeap *h, StoreHeapBlock **chain, size_t bytes)
{
    StoreHeapBlock *b = *chain;
    if (b && b->bytes && b->size - b->used >= bytes)
        return;
    heap_push_block(h, chain, bytes);
}

void store__heap_new_block(StoreHeap *h)
{
    heap_push_block(h, &h->head, 0);
    /* Later rows' non-key strings must not share a block with earlier ones
     * (store__heap_cut frees blocks by row); no chain yet: the first
     * append starts one. */
    if (h->vals)
        heap_push_block(h, &h->vals, 0);
}

static char *heap_take(StoreHeapBlock *b, size_t bytes)
{
    char *p = b->bytes + b->used;
    b->used += bytes;
    return p;
}

char *store__heap_alloc(StoreHeap *h, size_t n)
{
    heap_reserve(h, &h->head, n);
    return heap_take(h->head, n);
}

char *store__heap_copy(StoreHeap *h, const char *p, size_t n)
{
    char *d = store__heap_alloc(h, n);
    if (n)
        memcpy(d, p, n);
    return d;
}

bool store__col_is_key(const StoreTable *t, int c)
{
    int npkey = __atomic_load_n(&t->npkey, __ATOMIC_ACQUIRE);
    for (int k = 0; k < npkey; k++)
        if (t->pkey[k] == c)
            return true;
    return false;
}

bool store__col_held(const StoreTable *t, int c, uint64_t g)
{
    if (!store__col_is_key(t, c))
        return false;
    return !store__keys_supported(t) || (g + 1) * STORE_GROUP_ROWS > t->pk.runs_end;
}

/* Whether every row group overlapping rows [lo, hi) has all non-key string
 * columns of [0, ncols) cold. */
static bool rows_cold(const StoreTable *t, uint64_t lo, uint64_t hi, int ncols)
{
    /* The groups exist: they were reserved before the rows' strings were
     * copied, and only TRUNCATE's swap (checkpoints excluded) removes any. */
    if (hi <= lo)
        return false;
    for (uint64_t g = lo / STORE_GROUP_ROWS; g <= (hi - 1) / STORE_GROUP_ROWS; g++) {
        const StoreRowGroup *grp = store__group(t, g);
        for (int c = 0; c < ncols; c++)
            if (t->phys[c] == PHYS_STR && !store__col_is_key(t, c) &&
                __atomic_load_n(&grp->chunks[c].data, __ATOMIC_ACQUIRE))
                return false;
    }
    return true;
}

size_t store__heap_release_frozen(StoreTable *t, int ncols, void ***ptrs, size_t *n, size_t *cap)
{
    bool any = false;
    for (int c = 0; c < ncols && !any; c++)
        any = t->phys[c] == PHYS_STR && !store__col_is_key(t, c);
    if (!any)
        return 0;  /* nothing to check against: keep everything */
    StoreHeap *h = &t->heap;
    size_t released = 0;
    pthread_mutex_lock(&h->mu);
    for (StoreHeapBlock *b = h->vals ? h->vals->prev : NULL; b; b = b->prev) {
        if (!b->bytes || b->row_lo == UINT64_MAX || b->row_lo < h->vals_pin_rows ||
            !rows_cold(t, b->row_lo, b->row_hi, ncols))
            continue;
        if (*n == *cap) {
            size_t nc = *cap ? *cap * 2 : 64;
            void **p = realloc(*ptrs, nc * sizeof *p);
            if (!p)
                break;  /* keep the rest for the next freeze */
            *ptrs = p;
            *cap = nc;
        }
        (*ptrs)[(*n)++] = b->bytes;
        released += b->size;
        b->bytes = NULL;
    }
    pthread_mutex_unlock(&h->mu);
    return released;
}

/* Unlink and free the value blocks of rows below from (and empty ones)
 * but the current; renumber the others. */
static void heap_cut_vals(StoreHeap *h, uint64_t from)
{
    StoreHeapBlock **link = &h->vals;
    while (*link) {
        StoreHeapBlock *b = *link;
        bool empty = b->row_lo == UINT64_MAX;
        if (b != h->vals && (empty || b->row_lo < from)) {
            *link = b->prev;
            heap_block_free(b);
            continue;
        }
        if (empty || b->row_lo < from) {
            b->row_lo = UINT64_MAX;  /* the current block held only older rows: none now */
            b->row_hi = 0;
        } else {
            b->row_lo -= from;
            b->row_hi = b->row_hi > from ? b->row_hi - from : 0;
        }
        link = &b->prev;
    }
}

void store__heap_cut(StoreHeap *h, StoreHeapBlock *keep, uint64_t from)
{
    pthread_mutex_lock(&h->mu);
    if (keep) {
        heap_free_blocks(keep->prev, NULL);
        keep->prev = NULL;
    }
    heap_cut_vals(h, from);
    h->vals_pin_rows = h->vals_pin_rows > from ? h->vals_pin_rows - from : 0;
    pthread_mutex_unlock(&h->mu);
}

/* ---- row groups ---- */

/* A row group: header, chunk descriptors and stamps in one allocation;
 * each column's data array in its own (a checkpoint frees the arrays of
 * cold columns, cold.c), next to the column's previous ones (chunk_slab.c),
 * so ncols_inline is 0. */
static StoreRowGroup *group_alloc(StoreTable *t, bool keys_only, uint64_t gno)
{
    size_t header = sizeof(StoreRowGroup) + (size_t)t->cap_cols * sizeof(StoreChunk);
    header = (header + 63) & ~(size_t)63;
    size_t total = header + 3 * sizeof(uint64_t) * STORE_GROUP_ROWS;  /* xmin, xmax, next */
    char *mem = aligned_alloc(64, total);
    if (!mem)
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    memset(mem, 0, header);
    StoreRowGroup *g = (StoreRowGroup *)mem;
    g->chunks = (StoreChunk *)(mem + sizeof(StoreRowGroup));
    g->ncols_inline = 0;
    for (int c = 0; c < t->ncols; c++) {
        if (keys_only && !store__col_held(t, c, gno))
            continue;  /* cold from the start (store__cold_groups_begin) */
        g->chunks[c].data = store__chunk_alloc(t, c);
        if (!g->chunks[c].data) {
            for (int k = 0; k < c; k++)
                store__chunk_free(g->chunks[k].data);
            free(mem);
            err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
        }
    }
    size_t off = header;
    g->xmin = (uint64_t *)(mem + off);
    g->xmax = (_Atomic uint64_t *)(mem + off + sizeof(uint64_t) * STORE_GROUP_ROWS);
    g->next = (_Atomic uint64_t *)(mem + off + 2 * sizeof(uint64_t) * STORE_GROUP_ROWS);
    memset(mem + off, 0, 3 * sizeof(uint64_t) * STORE_GROUP_ROWS);
    atomic_init(&g->ndead, 0);
    for (int c = 0; c < t->ncols; c++) {
        g->chunks[c].validity = (uint64_t *)store_all_valid;  /* until a NULL (chunk_slab.c) */
        atomic_init(&g->chunks[c].zone.min_bits, 0);
        atomic_init(&g->chunks[c].zone.max_bits, 0);
        atomic_init(&g->chunks[c].zone.has_value, false);
        atomic_init(&g->chunks[c].zone.null_count, 0);
        atomic_init(&g->chunks[c].zone.has_nan, false);
    }
    return g;
}

/* Allocate row groups so that rows [0, rows) have a home. Pointers are
 * published with release stores before any row count that covers them. */
static void groups_reserve(StoreTable *t, uint64_t rows)
{
    uint64_t need = (rows + STORE_GROUP_ROWS - 1) / STORE_GROUP_ROWS;
    while (t->ngroups < need) {
        uint64_t g = t->ngroups;
        StoreRowGroup **seg = t->dir[g / STORE_DIR_SEG];
        if (!seg) {
            seg = store__calloc(STORE_DIR_SEG, sizeof *seg);
            __atomic_store_n(&t->dir[g / STORE_DIR_SEG], seg, __ATOMIC_RELEASE);
        }
        StoreRowGroup *grp = group_alloc(t, false, 0);
        __atomic_store_n(&seg[g % STORE_DIR_SEG], grp, __ATOMIC_RELEASE);
        t->ngroups = g + 1;
    }
}

/* ---- NOT NULL ---- */

/* Active-row index of the first row with a NULL in a NOT NULL column
 * (-1 when none); *col gets that row's first such column. */
static int64_t find_null_violation(const StoreTable *t, const Batch *b, int *col)
{
    int64_t first = -1;
    for (int c = 0; c < t->ncols; c++) {
        const Vector *v = &b->cols[c];
        if (!t->cols[c].not_null || (!v->validity && !v->is_const))
            continue;
        uint32_t limit = first >= 0 ? (uint32_t)first : b->count;
        for (uint32_t i = 0; i < limit; i++) {
            if (!vec_is_valid(v, batch_row(b, i))) {
                first = i;
                break;
            }
        }
    }
    if (first >= 0) {
        for (int c = 0; c < t->ncols; c++) {
            if (t->cols[c].not_null && !vec_is_valid(&b->cols[c], batch_row(b, (uint32_t)first))) {
                *col = c;
                break;
            }
        }
    }
    return first;
}

/* Append v's text (clipped to maxlen bytes at a UTF-8 boundary + "..."
 * when maxlen > 0) to sb; NULL as "null". */
void store__format_value(SqlType type, const Value *v, size_t maxlen, StrBuf *sb)
{
    if (v->is_null) {
        strbuf_append_str(sb, "null");
        return;
    }
    StrBuf tmp;
    strbuf_init(&tmp);
    OutputOptions opt = OUTPUT_OPTIONS_DEFAULT;
    type_output(type, v, &opt, &tmp);
    size_t len = tmp.len;
    if (maxlen > 0 && len > maxlen) {
        len = maxlen;
        while (len > 0 && ((unsigned char)tmp.data[len] & 0xC0) == 0x80)
            len--;  /* don't cut a multibyte character */
        strbuf_append(sb, tmp.data, len);
        strbuf_append_str(sb, "...");
    } else {
        strbuf_append(sb, tmp.data, len);
    }
    strbuf_free(&tmp);
}

static _Noreturn void raise_not_null(const StoreTable *t, const Batch *b, uint32_t active, int col)
{
    /* PostgreSQL 15: ExecConstraints + ExecBuildSlotValueDescription (64-byte fields). */
    StrBuf row;
    strbuf_init(&row);
    uint32_t r = batch_row(b, active);
    for (int c = 0; c < t->ncols; c++) {
        Value v;
        vec_get_value(&b->cols[c], r, &v);
        if (c > 0)
            strbuf_append_str(&row, ", ");
        store__format_value(t->cols[c].type, &v, 64, &row);
    }
    ErrorData *e = err_begin(ERRCODE_NOT_NULL_VIOLATION);
    err_message(e, "null value in column \"%s\" of relation \"%s\" violates not-null constraint",
                t->cols[col].name, t->name);
    err_detail(e, "Failing row contains (%.*s).", (int)row.len, row.data);
    snprintf(e->schema_name, sizeof e->schema_name, "%s", t->schema);
    snprintf(e->table_name, sizeof e->table_name, "%s", t->name);
    snprintf(e->column_name, sizeof e->column_name, "%s", t->cols[col].name);
    strbuf_free(&row);
    err_throw();
}

/* ---- copying values into chunks ---- */

#define GATHER(T)                                                               \
    do {                                                                        \
        T *restrict d = (T *)dst;                                               \
        const T *restrict s = (const T *)v->data;                               \
        if (v->is_const)                                                        \
            for (uint32_t i = 0; i < n; i++) d[i] = s[0];                       \
        else if (!b->sel)                                                       \
            memcpy(d, s + first, n * sizeof(T));                                \
        else                                                                    \
            for (uint32_t i = 0; i < n; i++) d[i] = s[b->sel[first + i]];       \
    } while (0)

/* Validity bits of rows [off, off+n) of chunk ch from the batch's active
 * rows [first, first+n). Words are read and written atomically: scans of
 * committed rows in the same word may be reading them. Returns the number
 * of NULLs written. */
static uint32_t copy_validity(StoreChunk *ch, uint32_t off, const Vector *v, const Batch *b,
                              uint32_t first, uint32_t n)
{
    if (store__validity_shared(ch))
        return 0;  /* no NULL among these rows: reserve_validity checked */
    if (!v->validity && !v->is_const) {
        /* All valid: set the range's bits a word at a time. */
        for (uint32_t pos = off; pos < off + n;) {
            uint32_t bit = pos & 63, take = 64 - bit < off + n - pos ? 64 - bit : off + n - pos;
            uint64_t mask = take == 64 ? ~UINT64_C(0) : ((UINT64_C(1) << take) - 1) << bit;
            uint64_t w = __atomic_load_n(&ch->validity[pos >> 6], __ATOMIC_RELAXED);
            __atomic_store_n(&ch->validity[pos >> 6], w | mask, __ATOMIC_RELAXED);
            pos += take;
        }
        return 0;
    }
    uint32_t nulls = 0;
    uint32_t pos = off;
    uint32_t wi = pos >> 6;
    uint64_t cur = __atomic_load_n(&ch->validity[wi], __ATOMIC_RELAXED);
    for (uint32_t i = 0; i < n; i++) {
        bool valid = vec_is_valid(v, batch_row(b, first + i));
        uint64_t bit = UINT64_C(1) << (pos & 63);
        cur = valid ? (cur | bit) : (cur & ~bit);
        nulls += !valid;
        pos++;
        if ((pos & 63) == 0) {
            __atomic_store_n(&ch->validity[wi], cur, __ATOMIC_RELAXED);
            wi++;
            if (wi < VEC_VALIDITY_WORDS)
                cur = __atomic_load_n(&ch->validity[wi], __ATOMIC_RELAXED);
        }
    }
    if (pos & 63)
        __atomic_store_n(&ch->validity[wi], cur, __ATOMIC_RELAXED);
    return nulls;
}

static inline bool chunk_valid(const StoreChunk *ch, uint32_t off)
{
    return (__atomic_load_n(&ch->validity[off >> 6], __ATOMIC_RELAXED) >> (off & 63)) & 1;
}

static uint64_t bits_of_double(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

static double double_of_bits(uint64_t u)
{
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

/* Widen ch's zone map with the non-NULL values of rows [off, off+n). */
#define ZONE_SCAN_INT(T)                                                        \
    do {                                                                        \
        const T *d = (const T *)data;                                           \
        if (all_valid && n > 0) {  /* plain loop: vectorizes */                 \
            T mn = d[off], mx = d[off];                                         \
            for (uint32_t i = off + 1; i < off + n; i++) {                      \
                mn = d[i] < mn ? d[i] : mn;                                     \
                mx = d[i] > mx ? d[i] : mx;                                     \
            }                                                                   \
            lo = (int64_t)mn;                                                   \
            hi = (int64_t)mx;                                                   \
            seen = true;                                                        \
            break;                                                              \
        }                                                                       \
        for (uint32_t i = off; i < off + n; i++) {                              \
            if (!chunk_valid(ch, i)) continue;                                  \
            int64_t x = (int64_t)d[i];                                          \
            if (!seen || x < lo) lo = x;                                        \
            if (!seen || x > hi) hi = x;                                        \
            seen = true;                                                        \
        }                                                                       \
    } while (0)
#define ZONE_SCAN_FLOAT(T)                                                      \
    do {                                                                        \
        const T *d = (const T *)data;                                           \
        for (uint32_t i = off; i < off + n; i++) {                              \
            if (!chunk_valid(ch, i)) continue;                                  \
            double x = (double)d[i];                                            \
            if (isnan(x)) { nan = true; continue; }                             \
            if (!fseen || x < flo) flo = x;                                     \
            if (!fseen || x > fhi) fhi = x;                                     \
            fseen = true;                                                       \
        }                                                                       \
    } while (0)

/* data: the values, indexed like the chunk (ch->data, or a decoded run
 * chunk's for a cold group); validity is ch's. */
static void zone_widen_from(StoreChunk *ch, const void *data, PhysType phys, uint32_t off,
                            uint32_t n, bool all_valid)
{
    StoreZone *z = &ch->zone;
    bool had = atomic_load_explicit(&z->has_value, memory_order_relaxed);
    bool seen = false, fseen = false, nan = false;
    int64_t lo = 0, hi = 0;
    double flo = 0, fhi = 0;
    switch (phys) {
    case PHYS_BOOL: ZONE_SCAN_INT(uint8_t); break;
    case PHYS_I16: ZONE_SCAN_INT(int16_t); break;
    case PHYS_I32: ZONE_SCAN_INT(int32_t); break;
    case PHYS_I64: ZONE_SCAN_INT(int64_t); break;
    case PHYS_F32: ZONE_SCAN_FLOAT(float); break;
    case PHYS_F64: ZONE_SCAN_FLOAT(double); break;
    case PHYS_STR: return;  /* no min/max for strings yet */
    }
    if (nan)
        atomic_store_explicit(&z->has_nan, true, memory_order_relaxed);
    if (fseen) {
        if (had) {
            double old_lo = double_of_bits(atomic_load_explicit(&z->min_bits, memory_order_relaxed));
            double old_hi = double_of_bits(atomic_load_explicit(&z->max_bits, memory_order_relaxed));
            flo = old_lo < flo ? old_lo : flo;
            fhi = old_hi > fhi ? old_hi : fhi;
        }
        atomic_store_explicit(&z->min_bits, bits_of_double(flo), memory_order_relaxed);
        atomic_store_explicit(&z->max_bits, bits_of_double(fhi), memory_order_relaxed);
        atomic_store_explicit(&z->has_value, true, memory_order_relaxed);
    }
    if (seen) {
        if (had) {
            int64_t old_lo = (int64_t)atomic_load_explicit(&z->min_bits, memory_order_relaxed);
            int64_t old_hi = (int64_t)atomic_load_explicit(&z->max_bits, memory_order_relaxed);
            lo = old_lo < lo ? old_lo : lo;
            hi = old_hi > hi ? old_hi : hi;
        }
        atomic_store_explicit(&z->min_bits, (uint64_t)lo, memory_order_relaxed);
        atomic_store_explicit(&z->max_bits, (uint64_t)hi, memory_order_relaxed);
        atomic_store_explicit(&z->has_value, true, memory_order_relaxed);
    }
}

static void zone_widen(StoreChunk *ch, PhysType phys, uint32_t off, uint32_t n, bool all_valid)
{
    zone_widen_from(ch, ch->data, phys, off, n, all_valid);
}

static void copy_strings(StoreTable *t, StoreChunk *ch, bool key, uint32_t off, const Vector *v,
                         const Batch *b, uint32_t first, uint32_t n)
{
    StrRef *d = (StrRef *)ch->data + off;
    const StrRef *s = (const StrRef *)v->data;
    StoreHeapBlock *blk = key ? t->heap.head : t->heap.vals;  /* reserved for the batch */
    for (uint32_t i = 0; i < n; i++) {
        uint32_t r = v->is_const ? 0 : batch_row(b, first + i);
        if (!vec_is_valid(v, r)) {
            d[i] = (StrRef){"", 0};
            continue;
        }
        char *p = heap_take(blk, s[r].len);
        if (s[r].len)
            memcpy(p, s[r].ptr, s[r].len);
        d[i] = (StrRef){p, s[r].len};
    }
}

/* Copy batch active rows [first, first+n) to chunk offset off of column c. */
static void copy_column(StoreTable *t, StoreChunk *ch, int c, uint32_t off, const Batch *b,
                        uint32_t first, uint32_t n)
{
    const Vector *v = &b->cols[c];
    void *dst = (char *)ch->data + (size_t)off * t->width[c];
    switch (t->phys[c]) {
    case PHYS_BOOL: GATHER(uint8_t); break;
    case PHYS_I16: GATHER(int16_t); break;
    case PHYS_I32: GATHER(int32_t); break;
    case PHYS_I64: GATHER(int64_t); break;
    case PHYS_F32: GATHER(float); break;
    case PHYS_F64: GATHER(double); break;
    case PHYS_STR: break;
    }
    uint32_t nulls = copy_validity(ch, off, v, b, first, n);
    if (nulls) {
        uint32_t old = atomic_load_explicit(&ch->zone.null_count, memory_order_relaxed);
        uint32_t sum = old + nulls >= old ? old + nulls : UINT32_MAX;  /* saturate: never 0 again */
        atomic_store_explicit(&ch->zone.null_count, sum, memory_order_relaxed);
    }
    if (t->phys[c] == PHYS_STR)
        copy_strings(t, ch, store__col_is_key(t, c), off, v, b, first, n);
    else
        zone_widen(ch, t->phys[c], off, n, nulls == 0);
}

static void copy_rows(StoreTable *t, const Batch *b, uint64_t base)
{
    uint32_t done = 0;
    while (done < b->count) {
        uint64_t row = base + done;
        uint32_t off = (uint32_t)(row % STORE_GROUP_ROWS);
        uint32_t n = STORE_GROUP_ROWS - off;
        if (n > b->count - done)
            n = b->count - done;
        StoreRowGroup *g = t->dir[(row / STORE_GROUP_ROWS) / STORE_DIR_SEG]
                                 [(row / STORE_GROUP_ROWS) % STORE_DIR_SEG];
        for (int c = 0; c < t->ncols; c++)
            copy_column(t, &g->chunks[c], c, off, b, done, n);
        done += n;
    }
}

/* Room in both heap chains for the batch's strings (one block each, so a
 * batch's strings never span blocks of a chain; may raise 53200). */
static void reserve_strings(StoreTable *t, const Batch *b)
{
    size_t total[2] = {0, 0};  /* [key] */
    bool has[2] = {false, false};
    for (int c = 0; c < t->ncols; c++) {
        if (t->phys[c] != PHYS_STR)
            continue;
        int key = store__col_is_key(t, c);
        has[key] = true;
        const Vector *v = &b->cols[c];
        const StrRef *s = (const StrRef *)v->data;
        for (uint32_t i = 0; i < b->count; i++) {
            uint32_t r = v->is_const ? 0 : batch_row(b, i);
            if (vec_is_valid(v, r))
                total[key] += s[r].len;
        }
    }
    if (has[1])
        heap_reserve(&t->heap, &t->heap.head, total[1]);
    if (has[0])
        heap_reserve(&t->heap, &t->heap.vals, total[0]);
}

/* Chunks about to get their first NULL get a validity bitmap of their own
 * first (may raise 53200 before anything changed; chunk_slab.c). */
static void reserve_validity(StoreTable *t, const Batch *b, uint64_t base)
{
    for (int c = 0; c < t->ncols; c++) {
        const Vector *v = &b->cols[c];
        if (!v->validity)
            continue;
        for (uint32_t done = 0; done < b->count;) {
            uint64_t row = base + done;
            uint32_t n = STORE_GROUP_ROWS - (uint32_t)(row % STORE_GROUP_ROWS);
            if (n > b->count - done)
                n = b->count - done;
            StoreChunk *ch = &store__group(t, row / STORE_GROUP_ROWS)->chunks[c];
            if (store__validity_shared(ch))
                for (uint32_t i = done; i < done + n; i++)
                    if (!vec_is_valid(v, batch_row(b, i))) {
                        store__chunk_validity_own(ch);
                        break;
                    }
            done += n;
        }
    }
}

/* The value block now also holds strings of rows [base, end). */
static void vals_cover(StoreTable *t, uint64_t base, uint64_t end)
{
    StoreHeapBlock *v = t->heap.vals;
    if (!v || end <= base)
        return;
    if (base < v->row_lo)
        v->row_lo = base;
    if (end > v->row_hi)
        v->row_hi = end;
}

static void check_batch_shape(const StoreTable *t, const Batch *b)
{
    ERR_ASSERT(b->ncols == t->ncols);
    for (int c = 0; c < t->ncols; c++)
        ERR_ASSERT(b->cols[c].phys == t->phys[c]);
}

/* One try of pk_insert_locked: true with the keys in and pk_lock held;
 * false, the lock released, with *wait_mark set. */
__attribute__((noinline)) static bool pk_insert_try(StoreTable *t, StoreTxn *x, const Batch *b,
                                                    uint64_t base, uint32_t limit,
                                                    uint64_t *wait_mark)
{
    pthread_rwlock_wrlock(&t->pk_lock);
    *wait_mark = 0;
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        store__pk_reserve(&t->pk, limit);
        /* A key in another transaction's open delta (delta.c) is decided
         * by that transaction: wait for it first. */
        if (!t->is_shadow)
            *wait_mark = store__delta_pending_key(t, x, b, limit);
        if (!*wait_mark &&
            store__pk_insert_batch(t, b, base, limit, STORE_XMAX_MARK | x->id, wait_mark))
            *wait_mark = 0;  /* 23505 leaves no key behind */
        err_pop(&jmp);
    } else {
        pthread_rwlock_unlock(&t->pk_lock);
        err_rethrow();
    }
    if (!*wait_mark)
        return true;
    pthread_rwlock_unlock(&t->pk_lock);
    return false;
}

/* Keys of the batch's rows [0, limit) into the index, taking pk_lock
 * exclusively. On success the lock is still held: the caller copies the
 * rows before releasing it, so a concurrent point lookup never compares a
 * key against a row whose values are not written yet. On error (23505)
 * the batch's keys are gone and the lock is released. A key's row held by
 * another transaction (a commit that passed the write lock on, not
 * published yet), or a key in another's open delta, waits (lock released)
 * for that transaction's end, then the batch tries again. */
static void pk_insert_locked(StoreTable *t, StoreTxn *x, const Batch *b, uint64_t base,
                             uint32_t limit)
{
    uint64_t wait_mark;
    while (!pk_insert_try(t, x, b, base, limit, &wait_mark))
        store__txn_wait_mark(x, wait_mark);
}

/* Checks, reservations, keys and copies of one append (write lock held). */
static void append_rows(StoreTable *t, StoreTxn *x, const Batch *b, uint64_t base)
{
    if (base + b->count > STORE_MAX_ROWS)
        err_raise(ERRCODE_PROGRAM_LIMIT_EXCEEDED, "table \"%s\" is full (%llu rows)", t->name,
                  (unsigned long long)STORE_MAX_ROWS);
    int null_col = -1;
    int64_t null_row = find_null_violation(t, b, &null_col);
    groups_reserve(t, base + b->count);
    reserve_strings(t, b);
    reserve_validity(t, b, base);
    uint32_t limit = null_row >= 0 ? (uint32_t)null_row : b->count;
    if (t->npkey > 0) {
        pk_insert_locked(t, x, b, base, limit);
        if (null_row >= 0) {
            store__pk_remove_batch(t, b, base, limit);
            pthread_rwlock_unlock(&t->pk_lock);
        }
    }
    if (null_row >= 0)
        raise_not_null(t, b, (uint32_t)null_row, null_col);
    copy_rows(t, b, base);
    vals_cover(t, base, base + b->count);
    /* Publish: everything above happens-before a reader that sees this count. */
    atomic_store_explicit(&t->nrows, base + b->count, memory_order_release);
    if (t->npkey > 0)
        pthread_rwlock_unlock(&t->pk_lock);
}

/* append_rows; on error the undo entry at slot is dropped (nothing appended). */
__attribute__((noinline)) static void append_try(StoreTable *t, StoreTxn *x, const Batch *b,
                                                 uint64_t base, int slot)
{
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        append_rows(t, x, b, base);
        err_pop(&jmp);
    } else {
        x->nundo = slot;
        err_rethrow();
    }
}

uint64_t store__append_nowal(StoreTable *t, StoreTxn *x, const Batch *b)
{
    uint64_t base = atomic_load_explicit(&t->nrows, memory_order_relaxed);
    store__undo_push(x, (StoreUndo){.kind = UNDO_INSERT, .table = t, .from = base, .to = base,
                                    .heap_mark = store__heap_mark(&t->heap)});
    int slot = x->nundo - 1;
    append_try(t, x, b, base, slot);
    x->undo[slot].to = base + b->count;
    return base;
}

void store__append_locked(StoreTable *t, StoreTxn *x, const Batch *b)
{
    uint64_t base = store__append_nowal(t, x, b);
    store__wal_insert(x, t, base, b, t->ncols);
}

/* ---- recovery: whole groups straight from a run ---- */

/* Column c of a new cold group from rows [off, off + STORE_GROUP_ROWS) of
 * the decoded run chunk rc (NULL: a string column without NULLs, not
 * decoded): validity, NULL count, zone map, and for a key column its
 * values (a key string still points into rc: store__cold_groups_end copies
 * it into the heap). Plain stores: the group is not published yet. */
static void cold_column(StoreTable *t, StoreChunk *sc, int c, const RunChunk *rc, uint32_t off)
{
    uint32_t nulls = 0;
    if (rc && rc->validity) {
        for (uint32_t w = 0; w < VEC_VALIDITY_WORDS; w++)
            nulls += 64 - (uint32_t)__builtin_popcountll(rc->validity[off / 64 + w]);
        if (nulls) {  /* else the shared all-valid bitmap group_alloc set */
            store__chunk_validity_own(sc);
            memcpy(sc->validity, rc->validity + off / 64, sizeof store_all_valid);
        }
    }
    atomic_store_explicit(&sc->zone.null_count, nulls, memory_order_relaxed);
    if (!rc)
        return;
    const char *src = (const char *)rc->values + (size_t)off * t->width[c];
    if (sc->data)
        memcpy(sc->data, src, t->width[c] * STORE_GROUP_ROWS);
    if (t->phys[c] != PHYS_STR)
        zone_widen_from(sc, src, t->phys[c], 0, STORE_GROUP_ROWS, nulls == 0);
}

static void cold_groups_free(StoreTable *t, StoreColdGroups *cg)
{
    for (uint32_t i = 0; cg->groups && i < cg->ngroups; i++) {
        if (!cg->groups[i])
            continue;
        for (int c = 0; c < t->ncols; c++) {
            store__chunk_free(cg->groups[i]->chunks[c].data);
            store__chunk_validity_free(&cg->groups[i]->chunks[c]);
        }
        free(cg->groups[i]);
    }
    free(cg->groups);
    cg->groups = NULL;
    cg->ngroups = 0;
}

void store__cold_groups_begin(StoreTable *t, StoreColdGroups *cg, uint32_t ngroups)
{
    cg->base = atomic_load_explicit(&t->nrows, memory_order_relaxed);
    ERR_ASSERT(store_g.replaying && cg->base % STORE_GROUP_ROWS == 0 &&
               t->ngroups == cg->base / STORE_GROUP_ROWS);
    cg->ngroups = ngroups;
    cg->groups = store__calloc(ngroups ? ngroups : 1, sizeof *cg->groups);
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        for (uint32_t i = 0; i < ngroups; i++)
            cg->groups[i] = group_alloc(t, true, cg->base / STORE_GROUP_ROWS + i);
        err_pop(&jmp);
    } else {
        cold_groups_free(t, cg);
        err_rethrow();
    }
}

void store__cold_groups_column(StoreTable *t, StoreColdGroups *cg, int c,
                               const struct RunChunk *rc)
{
    for (uint32_t i = 0; i < cg->ngroups; i++)
        cold_column(t, &cg->groups[i]->chunks[c], c, rc, i * STORE_GROUP_ROWS);
}

void store__cold_groups_const(StoreTable *t, StoreColdGroups *cg, int c, int64_t v)
{
    (void)t;
    for (uint32_t i = 0; i < cg->ngroups; i++) {
        StoreChunk *sc = &cg->groups[i]->chunks[c];  /* validity: the shared all-valid one */
        atomic_store_explicit(&sc->zone.null_count, 0, memory_order_relaxed);
        /* What zone_widen stores for integers: the value widened to int64. */
        atomic_store_explicit(&sc->zone.min_bits, (uint64_t)v, memory_order_relaxed);
        atomic_store_explicit(&sc->zone.max_bits, (uint64_t)v, memory_order_relaxed);
        atomic_store_explicit(&sc->zone.has_value, true, memory_order_relaxed);
    }
}

void store__cold_groups_abort(StoreTable *t, StoreColdGroups *cg)
{
    cold_groups_free(t, cg);
}

/* Key strings of the groups, still pointing into decoded run chunks, into
 * the heap's key chain (reserved, one block). */
static size_t cold_key_bytes(const StoreTable *t, const StoreColdGroups *cg)
{
    size_t bytes = 0;
    for (int c = 0; c < t->ncols; c++) {
        if (t->phys[c] != PHYS_STR || !store__col_is_key(t, c))
            continue;
        for (uint32_t i = 0; i < cg->ngroups; i++) {
            const StrRef *s = cg->groups[i]->chunks[c].data;
            for (uint32_t r = 0; s && r < STORE_GROUP_ROWS; r++)
                bytes += s[r].len;
        }
    }
    return bytes;
}

static void cold_key_copy(StoreTable *t, StoreColdGroups *cg)
{
    for (int c = 0; c < t->ncols; c++) {
        if (t->phys[c] != PHYS_STR || !store__col_is_key(t, c))
            continue;
        for (uint32_t i = 0; i < cg->ngroups; i++) {
            StrRef *s = cg->groups[i]->chunks[c].data;
            for (uint32_t r = 0; s && r < STORE_GROUP_ROWS; r++) {
                char *p = heap_take(t->heap.head, s[r].len);
                if (s[r].len)
                    memcpy(p, s[r].ptr, s[r].len);
                s[r].ptr = p;
            }
        }
    }
}

/* Everything of store__cold_groups_end that may raise. */
static void cold_groups_reserve(StoreTable *t, StoreTxn *x, StoreColdGroups *cg)
{
    size_t key_bytes = cold_key_bytes(t, cg);
    if (key_bytes)
        heap_reserve(&t->heap, &t->heap.head, key_bytes);
    uint64_t g_end = t->ngroups + cg->ngroups;
    for (uint64_t s = t->ngroups / STORE_DIR_SEG; s * STORE_DIR_SEG < g_end; s++)
        if (!t->dir[s])
            __atomic_store_n(&t->dir[s], store__calloc(STORE_DIR_SEG, sizeof **t->dir),
                             __ATOMIC_RELEASE);
    store__undo_push(x, (StoreUndo){.kind = UNDO_INSERT, .table = t, .from = cg->base,
                                    .to = cg->base + (uint64_t)cg->ngroups * STORE_GROUP_ROWS,
                                    .heap_mark = store__heap_mark(&t->heap)});
}

void store__cold_groups_end(StoreTable *t, StoreTxn *x, StoreColdGroups *cg)
{
    cold_groups_reserve(t, x, cg);
    cold_key_copy(t, cg);
    for (uint32_t i = 0; i < cg->ngroups; i++) {
        uint64_t g = t->ngroups;
        __atomic_store_n(&t->dir[g / STORE_DIR_SEG][g % STORE_DIR_SEG], cg->groups[i],
                         __ATOMIC_RELEASE);
        t->ngroups = g + 1;
    }
    if (t->npkey > 0)
        store__pk_defer(t);  /* built on first use (pkindex.c) */
    atomic_store_explicit(&t->nrows, cg->base + (uint64_t)cg->ngroups * STORE_GROUP_ROWS,
                          memory_order_release);
    free(cg->groups);
    cg->groups = NULL;
    cg->ngroups = 0;
}

void store_table_append(StoreTable *t, StoreTxn *txn, const Batch *b)
{
    if (b->count == 0)
        return;
    check_batch_shape(t, b);
    if (!txn) {
        /* No transaction: one of its own, committed at once. */
        StoreTxn *own = store_txn_begin();
        ErrJmp jmp;
        if (ERR_TRY(jmp)) {
            store_table_append(t, own, b);
            err_pop(&jmp);
        } else {
            store_txn_rollback(own);
            err_rethrow();
        }
        store_txn_commit(own);
        return;
    }
    ERR_ASSERT(b->count <= VEC_CAPACITY);  /* one WAL record per batch */
    if (store__delta_mode(t, txn)) {
        store__delta_insert(t, txn, b);  /* private until commit (delta.c) */
        return;
    }
    store__txn_acquire_write_dml(txn, t);
    store__append_locked(t, txn, b);
}

uint64_t store_table_row_count(StoreTable *t, StoreTxn *txn)
{
    /* Row versions, deleted ones included: an estimate (exact counts scan). */
    StoreTable *shadow = store__delta_shadow(txn, t);
    uint64_t own = shadow ? atomic_load_explicit(&shadow->nrows, memory_order_relaxed) : 0;
    if (txn && __atomic_load_n(&t->writer, __ATOMIC_RELAXED) == txn)
        return atomic_load_explicit(&t->nrows, memory_order_acquire) + own;
    return atomic_load_explicit(&t->committed, memory_order_acquire) + own;
}

void store__heap_reset(StoreHeap *h, StoreHeapMark mark)
{
    /* Strings of rolled-back rows: only this writer could see them. A
     * value block released meanwhile (bytes NULL) stays so: the next
     * reservation starts a new one. */
    pthread_mutex_lock(&h->mu);
    if (mark.block || h->head) {
        heap_free_blocks(h->head, mark.block);
        h->head = mark.block;
        if (mark.block)
            mark.block->used = mark.used;
    }
    if (mark.vblock || h->vals) {
        heap_free_blocks(h->vals, mark.vblock);
        h->vals = mark.vblock;
        if (mark.vblock)
            mark.vblock->used = mark.vused;
    }
    pthread_mutex_unlock(&h->mu);
}
