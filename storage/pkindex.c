/*
 * pkindex.c — the primary-key hash index of an in-memory table.
 *
 * Open addressing with linear probing over (hash, row + 1) pairs, load
 * factor at most 3/4 (pk_fits), backward-shift deletion (no tombstones, so rollback
 * leaves the table as if the keys had never been inserted). The key itself
 * is not stored: equality reads the rows' values, from the table's chunks
 * for rows already written and from the incoming batch for rows being
 * appended (rows >= base). The table's writer changes the index holding
 * t->pk_lock exclusively; point lookups (store_table_lookup_key) share it.
 * MVCC: an entry names the newest version of its key; a key whose row is
 * deleted may be inserted again (the entry moves to the new row).
 *
 * Equality follows PostgreSQL's btree equality for the key types: -0 = 0
 * and NaN = NaN for floats, numeric by value (1.0 = 1.00), everything else
 * by bytes (char(n) is stored padded, so padding compares equal).
 *
 * Deferred build. Recovery does not maintain the index: every index change
 * while replaying (store_g.replaying) only marks it pending (store__pk_defer)
 * and the end of recovery presizes it. The first use after that — a write
 * (insert, rollback) or a point lookup, each holding pk_lock shared or
 * exclusive — builds it from the table's rows under pk_build_mu (pk_ensure),
 * so a restart does not wait for it and scans never need it. While pending,
 * no row can be appended (an append inserts keys, which builds first), so
 * the rows [0, nrows) seen under pk_lock are exactly the ones to index.
 * The build keeps, per key, a row not deleted by a committed transaction if
 * there is one, else the newest row: the entry a live index would hold
 * (an insert takes a key over only from a dead row).
 */
#define STORE_INTERNAL
#include "storage/storage_int.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "common/error.h"
#include "common/numeric.h"
#include "common/strbuf.h"
#include "common/typio.h"
#include "storage/runs/run.h"

/* Serializes deferred builds (rare: the first use of a table after a restart). */
static pthread_mutex_t pk_build_mu = PTHREAD_MUTEX_INITIALIZER;

/* Where key values come from: the table below base, the batch above. */
typedef struct PkSrc {
    const StoreTable *t;
    const Batch *b;   /* NULL: every row is in the table */
    uint64_t base;
} PkSrc;

static const void *pk_value(const PkSrc *s, int col, uint64_t row)
{
    const StoreTable *t = s->t;
    if (!s->b || row < s->base) {
        StoreRowGroup *g = store__group(t, row / STORE_GROUP_ROWS);
        return (const char *)g->chunks[col].data + (row % STORE_GROUP_ROWS) * t->width[col];
    }
    const Vector *v = &s->b->cols[col];
    uint32_t r = v->is_const ? 0 : batch_row(s->b, (uint32_t)(row - s->base));
    return (const char *)v->data + (size_t)r * t->width[col];
}

static uint64_t pk_hash_value(const StoreTable *t, int col, const void *p)
{
    switch (t->phys[col]) {
    case PHYS_BOOL: return hash_u64(*(const uint8_t *)p);
    case PHYS_I16: return hash_u64((uint64_t)(int64_t)*(const int16_t *)p);
    case PHYS_I32: return hash_u64((uint64_t)(int64_t)*(const int32_t *)p);
    case PHYS_I64: return hash_u64((uint64_t)*(const int64_t *)p);
    case PHYS_F32:
    case PHYS_F64: {
        double d = t->phys[col] == PHYS_F32 ? *(const float *)p : *(const double *)p;
        if (d == 0)
            d = 0;  /* -0 = 0 */
        if (isnan(d))
            d = NAN;
        uint64_t u;
        memcpy(&u, &d, sizeof u);
        return hash_u64(u);
    }
    case PHYS_STR: {
        const StrRef *s = p;
        if (t->cols[col].type.oid == TYPE_NUMERIC)
            return numeric_hash(*s);
        return hash_bytes(s->ptr, s->len, 0x5eed);
    }
    }
    return 0;
}

bool store__pk_value_equal(const StoreTable *t, int col, const void *a, const void *b)
{
    switch (t->phys[col]) {
    case PHYS_BOOL: return *(const uint8_t *)a == *(const uint8_t *)b;
    case PHYS_I16: return *(const int16_t *)a == *(const int16_t *)b;
    case PHYS_I32: return *(const int32_t *)a == *(const int32_t *)b;
    case PHYS_I64: return *(const int64_t *)a == *(const int64_t *)b;
    case PHYS_F32:
    case PHYS_F64: {
        double x = t->phys[col] == PHYS_F32 ? *(const float *)a : *(const double *)a;
        double y = t->phys[col] == PHYS_F32 ? *(const float *)b : *(const double *)b;
        return x == y || (isnan(x) && isnan(y));
    }
    case PHYS_STR: {
        const StrRef *x = a, *y = b;
        if (t->cols[col].type.oid == TYPE_NUMERIC)
            return numeric_cmp(*x, *y) == 0;
        return x->len == y->len && (x->len == 0 || memcmp(x->ptr, y->ptr, x->len) == 0);
    }
    }
    return false;
}

static uint64_t pk_hash(const PkSrc *s, uint64_t row)
{
    uint64_t h = 0x9e3779b97f4a7c15u;
    for (int k = 0; k < s->t->npkey; k++) {
        int col = s->t->pkey[k];
        h = hash_u64(h ^ pk_hash_value(s->t, col, pk_value(s, col, row)));
    }
    return h;
}

static bool pk_equal(const PkSrc *s, uint64_t r1, uint64_t r2)
{
    for (int k = 0; k < s->t->npkey; k++) {
        int col = s->t->pkey[k];
        if (!store__pk_value_equal(s->t, col, pk_value(s, col, r1), pk_value(s, col, r2)))
            return false;
    }
    return true;
}

uint64_t store__pk_hash_row(const StoreTable *t, uint64_t row)
{
    PkSrc s = {t, NULL, 0};
    return pk_hash(&s, row);
}

void store__pk_free(StorePkIndex *pk)
{
    free(pk->slots);
    pk->slots = NULL;
    pk->cap = pk->count = 0;
    atomic_store_explicit(&pk->pending, false, memory_order_release);
}

/* Keys ahead of a probe or a move whose slot is prefetched: a big index
 * misses the cache on every probe (10M keys: 512 MB of slots); issued
 * ahead, the misses overlap. */
#define PK_PREFETCH 16

/* pk's entries of rows >= above (slot value row + 1 > above; 0: every
 * entry) rehashed into slots (cap of them, zeroed), which become pk's. */
static void pk_move_to(StorePkIndex *pk, StorePkEntry *slots, uint64_t cap, uint64_t above)
{
    uint64_t count = 0;
    for (uint64_t i = 0; i < pk->cap; i++) {
        if (i + PK_PREFETCH < pk->cap)
            __builtin_prefetch(&slots[pk->slots[i + PK_PREFETCH].hash & (cap - 1)], 1);
        if (pk->slots[i].row <= above)
            continue;  /* empty, or (prune) a row whose key a run holds */
        uint64_t j = pk->slots[i].hash & (cap - 1);
        while (slots[j].row)
            j = (j + 1) & (cap - 1);
        slots[j] = pk->slots[i];
        count++;
    }
    free(pk->slots);
    pk->slots = slots;
    pk->cap = cap;
    pk->count = count;
}

/* Whether need entries fit in cap slots: at most 3/4 full. At 1/2 the
 * hash of a 10M-key COPY took 512 MB, 768 MB while doubling; at 3/4 it
 * takes 256 MB (storage/README.md "Primary-key runs"). A probe for a new
 * key then meets ~3.6 slots at 0.6 full instead of ~1.5: one or two cache
 * lines of 4 slots, the first prefetched. */
static bool pk_fits(uint64_t need, uint64_t cap) { return need * 4 <= cap * 3; }

void store__pk_reserve(StorePkIndex *pk, uint64_t extra)
{
    if (store_g.replaying && atomic_load_explicit(&pk->pending, memory_order_relaxed))
        return;  /* deferred: store__pk_insert_batch skips the keys */
    uint64_t need = pk->count + extra;
    if (pk->slots && pk_fits(need, pk->cap))
        return;
    uint64_t cap = pk->cap ? pk->cap : 1024;
    while (!pk_fits(need, cap))
        cap *= 2;
    pk_move_to(pk, store__calloc(cap, sizeof(StorePkEntry)), cap, 0);
}

void store__pk_defer(StoreTable *t)
{
    if (atomic_load_explicit(&t->pk.pending, memory_order_relaxed))
        return;
    store__pk_free(&t->pk);
    atomic_store_explicit(&t->pk.pending, true, memory_order_release);
}

void store__pk_recovered(StoreTable *t)
{
    if (t->npkey > 0 && atomic_load(&t->pk.pending)) {
        uint64_t n = atomic_load(&t->nrows) - t->pk.runs_end;  /* the rest is in key runs */
        store__pk_reserve(&t->pk, n ? n : 1);
    }
}

/* The key of row (a table or batch row of s) as values, for key runs. */
static void pk_key_values(const PkSrc *s, uint64_t row, Value *out)
{
    const StoreTable *t = s->t;
    for (int k = 0; k < t->npkey; k++) {
        int col = t->pkey[k];
        out[k].is_null = false;
        memcpy(&out[k].u, pk_value(s, col, row), t->width[col]);
    }
}

/* The newest row holding row's key in the table's key runs (keyruns.c). */
static bool pk_runs_find(const PkSrc *s, uint64_t row, uint64_t *found)
{
    if (s->t->pk.nruns == 0)
        return false;
    Value key[RUN_KEYS_MAX];
    pk_key_values(s, row, key);
    return store__keys_find(s->t, key, found);
}

/* Hashes of rows [row, row + n) of one store group into h, column by
 * column (the same values as pk_hash, row by row). */
static void pk_hash_group(const StoreTable *t, uint64_t row, uint32_t n, uint64_t *h)
{
    const StoreRowGroup *g = store__group(t, row / STORE_GROUP_ROWS);
    uint32_t off = (uint32_t)(row % STORE_GROUP_ROWS);
    for (uint32_t i = 0; i < n; i++)
        h[i] = 0x9e3779b97f4a7c15u;
    for (int k = 0; k < t->npkey; k++) {
        int col = t->pkey[k];
        const char *base = (const char *)g->chunks[col].data + (size_t)off * t->width[col];
        switch (t->phys[col]) {
        case PHYS_I16: {
            const int16_t *d = (const int16_t *)(const void *)base;
            for (uint32_t i = 0; i < n; i++)
                h[i] = hash_u64(h[i] ^ hash_u64((uint64_t)(int64_t)d[i]));
            break;
        }
        case PHYS_I32: {
            const int32_t *d = (const int32_t *)(const void *)base;
            for (uint32_t i = 0; i < n; i++)
                h[i] = hash_u64(h[i] ^ hash_u64((uint64_t)(int64_t)d[i]));
            break;
        }
        case PHYS_I64: {
            const int64_t *d = (const int64_t *)(const void *)base;
            for (uint32_t i = 0; i < n; i++)
                h[i] = hash_u64(h[i] ^ hash_u64((uint64_t)d[i]));
            break;
        }
        default:
            for (uint32_t i = 0; i < n; i++)
                h[i] = hash_u64(h[i] ^ pk_hash_value(t, col, base + (size_t)i * t->width[col]));
            break;
        }
    }
}

static bool pk_dead_committed(const StoreTable *t, uint64_t row)
{
    uint64_t x = atomic_load(store__xmax_of(t, row));
    return x != 0 && !(x & STORE_XMAX_MARK);
}

/* The slots of a big index (a malloc'd mapping) on 2 MB pages where the
 * kernel allows it (THP "madvise" mode): every probe is a random access,
 * and a TLB miss per probe is much of its cost. The build touches every
 * page anyway. Measured on the 10M-row `hits` (512 MB of slots), the first
 * write after a restart (build included), server CPU: median 430 ms with,
 * 890 ms without (storage/bench/restart_time.sh; 7 and 6 runs). */
static void pk_huge_pages(StorePkIndex *pk)
{
    size_t bytes = (size_t)pk->cap * sizeof *pk->slots, huge = (size_t)2 << 20;
    if (bytes < 4 * huge)
        return;
    uintptr_t lo = ((uintptr_t)pk->slots + huge - 1) & ~(uintptr_t)(huge - 1);
    uintptr_t hi = ((uintptr_t)pk->slots + bytes) & ~(uintptr_t)(huge - 1);
    if (hi > lo)
        (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);  /* advice only */
}

/* Deferred build: index rows [runs_end, nrows) in row order (the rows
 * before are in key runs). A key met again
 * moves to the later row unless that row's deletion committed while the
 * earlier one's did not (see the top of the file). Hashes a store group
 * at a time and prefetches slots PK_PREFETCH keys ahead: the probes are
 * random reads of a table far larger than the caches (10M keys: 512 MB),
 * one miss each; issued ahead they overlap (README.md "Start-up time"). */
static void pk_build_deferred(StoreTable *t)
{
    PkSrc s = {t, NULL, 0};
    StorePkIndex *pk = &t->pk;
    uint64_t n = atomic_load_explicit(&t->nrows, memory_order_acquire);
    if (pk->count) {  /* an earlier attempt failed part way */
        memset(pk->slots, 0, pk->cap * sizeof *pk->slots);
        pk->count = 0;
    }
    uint64_t from = pk->runs_end;
    store__pk_reserve(pk, n > from ? n - from : 1);
    pk_huge_pages(pk);
    uint64_t mask = pk->cap - 1;
    uint64_t h[STORE_GROUP_ROWS];
    for (uint64_t row = from; row < n;) {
        /* A store group at a time (the first may start inside one). */
        uint32_t off = (uint32_t)(row % STORE_GROUP_ROWS);
        uint32_t m = n - row < STORE_GROUP_ROWS - off ? (uint32_t)(n - row) : STORE_GROUP_ROWS - off;
        pk_hash_group(t, row, m, h);
        for (uint32_t i = 0; i < m && i < PK_PREFETCH; i++)
            __builtin_prefetch(&pk->slots[h[i] & mask], 1);
        for (uint32_t i = 0; i < m; i++) {
            if (i + PK_PREFETCH < m)
                __builtin_prefetch(&pk->slots[h[i + PK_PREFETCH] & mask], 1);
            uint64_t r = row + i, j = h[i] & mask;
            for (; pk->slots[j].row; j = (j + 1) & mask)
                if (pk->slots[j].hash == h[i] && pk_equal(&s, pk->slots[j].row - 1, r))
                    break;
            if (!pk->slots[j].row) {
                pk->slots[j] = (StorePkEntry){h[i], r + 1};
                pk->count++;
            } else if (!pk_dead_committed(t, r) || pk_dead_committed(t, pk->slots[j].row - 1)) {
                pk->slots[j].row = r + 1;
            }
        }
        row += m;
    }
}

/* Make a deferred index usable: build it (caller holds pk_lock, shared or
 * exclusive; shared holders race here, pk_build_mu picks one builder and
 * the others find it built). Its memory is the table's, hence the cast in
 * the const callers. May raise 53200 (the index stays pending). */
static void pk_ensure(StoreTable *t)
{
    StorePkIndex *pk = &t->pk;
    if (!atomic_load_explicit(&pk->pending, memory_order_acquire))
        return;
    pthread_mutex_lock(&pk_build_mu);
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        if (atomic_load_explicit(&pk->pending, memory_order_relaxed)) {
            pk_build_deferred(t);
            atomic_store_explicit(&pk->pending, false, memory_order_release);
        }
        err_pop(&jmp);
    } else {
        pthread_mutex_unlock(&pk_build_mu);
        err_rethrow();
    }
    pthread_mutex_unlock(&pk_build_mu);
}

/* An index change: deferred while replaying (false: skip it), else the
 * index is built first if it was deferred. */
static bool pk_change_begin(StoreTable *t)
{
    if (store_g.replaying) {
        store__pk_defer(t);
        return false;
    }
    pk_ensure(t);
    return true;
}

/* Remove the entry of row (whose key hashes to h); backward shift keeps
 * every remaining entry reachable from its home slot. */
static void pk_remove(StorePkIndex *pk, uint64_t h, uint64_t row)
{
    uint64_t mask = pk->cap - 1;
    uint64_t i = h & mask;
    while (pk->slots[i].row != row + 1) {
        if (!pk->slots[i].row)
            return;  /* not present */
        i = (i + 1) & mask;
    }
    uint64_t j = i;
    for (;;) {
        j = (j + 1) & mask;
        if (!pk->slots[j].row)
            break;
        uint64_t home = pk->slots[j].hash & mask;
        /* Move j back into the hole at i unless j's home lies in (i, j]. */
        bool in_between = i <= j ? (home > i && home <= j) : (home > i || home <= j);
        if (!in_between) {
            pk->slots[i] = pk->slots[j];
            i = j;
        }
    }
    pk->slots[i] = (StorePkEntry){0, 0};
    pk->count--;
}

void store__pk_remove_batch(StoreTable *t, const Batch *b, uint64_t base, uint32_t n)
{
    if (!pk_change_begin(t))
        return;
    PkSrc s = {t, b, base};
    for (uint32_t i = 0; i < n; i++)
        pk_remove(&t->pk, pk_hash(&s, base + i), base + i);
}

void store__pk_remove_rows(StoreTable *t, uint64_t from, uint64_t to)
{
    if (!pk_change_begin(t))
        return;
    PkSrc s = {t, NULL, 0};
    for (uint64_t r = from; r < to; r++)
        pk_remove(&t->pk, pk_hash(&s, r), r);
}

/* Quote an identifier as PostgreSQL's quote_identifier does (keywords aside). */
static void append_ident(StrBuf *sb, const char *name)
{
    bool plain = (name[0] >= 'a' && name[0] <= 'z') || name[0] == '_';
    for (const char *p = name; *p && plain; p++)
        plain = (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_';
    if (plain) {
        strbuf_append_str(sb, name);
        return;
    }
    strbuf_append_char(sb, '"');
    for (const char *p = name; *p; p++) {
        if (*p == '"')
            strbuf_append_char(sb, '"');
        strbuf_append_char(sb, *p);
    }
    strbuf_append_char(sb, '"');
}

static _Noreturn void raise_dup(const PkSrc *s, uint64_t row, bool build);

static _Noreturn void raise_duplicate(const PkSrc *s, uint64_t row)
{
    raise_dup(s, row, false);
}

/* 23505 for an INSERT (build false) or ALTER TABLE ADD PRIMARY KEY (true). */
static _Noreturn void raise_dup(const PkSrc *s, uint64_t row, bool build)
{
    const StoreTable *t = s->t;
    StrBuf names, vals;
    strbuf_init(&names);
    strbuf_init(&vals);
    for (int k = 0; k < t->npkey; k++) {
        int col = t->pkey[k];
        Value v = {.is_null = false};
        memcpy(&v.u, pk_value(s, col, row), t->width[col]);
        if (k > 0) {
            strbuf_append_str(&names, ", ");
            strbuf_append_str(&vals, ", ");
        }
        append_ident(&names, t->cols[col].name);
        store__format_value(t->cols[col].type, &v, 0, &vals);
    }
    ErrorData *e = err_begin(ERRCODE_UNIQUE_VIOLATION);
    if (build) {
        err_message(e, "could not create unique index \"%s\"", t->pkey_name);
        err_detail(e, "Key (%.*s)=(%.*s) is duplicated.", (int)names.len, names.data,
                   (int)vals.len, vals.data);
    } else {
        err_message(e, "duplicate key value violates unique constraint \"%s\"", t->pkey_name);
        err_detail(e, "Key (%.*s)=(%.*s) already exists.", (int)names.len, names.data,
                   (int)vals.len, vals.data);
    }
    snprintf(e->schema_name, sizeof e->schema_name, "%s", t->schema);
    snprintf(e->table_name, sizeof e->table_name, "%s", t->name);
    snprintf(e->constraint_name, sizeof e->constraint_name, "%s", t->pkey_name);
    strbuf_free(&names);
    strbuf_free(&vals);
    err_throw();
}

/* Whether the row holding an indexed key is deleted for an inserter with
 * mark self (a committed deletion, or its own). */
static bool pk_row_dead(const StoreTable *t, uint64_t row, uint64_t self)
{
    uint64_t x = atomic_load(store__xmax_of(t, row));
    return x != 0 && (!(x & STORE_XMAX_MARK) || x == self);
}

/* Whether the row holding an indexed key is held by another transaction
 * than self: a commit that passed the write lock on (txn.c), or a writer
 * that claimed it without the lock (delta.c). */
static bool pk_row_committing(const StoreTable *t, uint64_t row, uint64_t self)
{
    uint64_t x = atomic_load(store__xmax_of(t, row));
    return (x & STORE_XMAX_MARK) && x != self;
}

bool store__pk_insert_batch(StoreTable *t, const Batch *b, uint64_t base, uint32_t limit,
                            uint64_t self_mark, uint64_t *wait_mark)
{
    if (!pk_change_begin(t))
        return true;  /* replay: history already checked; the index is built later */
    store__pk_reserve(&t->pk, limit);  /* again: a deferred build just sized it */
    PkSrc s = {t, b, base};
    StorePkIndex *pk = &t->pk;
    uint64_t mask = pk->cap - 1;
    uint64_t *moved = NULL;  /* (slot index, old row + 1) pairs, undone on error */
    uint32_t nmoved = 0;
    /* Hashes first, then each probe with the slot PK_PREFETCH rows ahead
     * already on its way. */
    uint64_t hashes[VEC_CAPACITY];
    ERR_ASSERT(limit <= VEC_CAPACITY);
    for (uint32_t i = 0; i < limit; i++)
        hashes[i] = pk_hash(&s, base + i);
    for (uint32_t i = 0; i < limit; i++) {
        if (i + PK_PREFETCH < limit)
            __builtin_prefetch(&pk->slots[hashes[i + PK_PREFETCH] & mask], 1);
        uint64_t row = base + i;
        uint64_t h = hashes[i];
        uint64_t j = h & mask;
        bool in_hash = false;
        uint64_t other = 0;
        for (; pk->slots[j].row; j = (j + 1) & mask) {
            if (pk->slots[j].hash == h && pk_equal(&s, pk->slots[j].row - 1, row)) {
                other = pk->slots[j].row - 1;
                in_hash = true;
                break;
            }
        }
        /* Not in the hash: the key's newest row may be in a key run
         * (then it is an older row than any in the hash, below base). */
        bool held = in_hash || pk_runs_find(&s, row, &other);
        if (held && other < base && pk_row_dead(t, other, self_mark)) {
            if (in_hash) {
                if (!moved)
                    moved = malloc(sizeof *moved * 2 * limit);
                if (!moved) {
                    store__pk_remove_batch(t, b, base, i);
                    err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
                }
                moved[2 * nmoved] = j;
                moved[2 * nmoved + 1] = pk->slots[j].row;
                nmoved++;
                pk->slots[j].row = row + 1;  /* the new version takes the key */
                continue;
            }
            held = false;  /* the key run's row is dead: a new entry in the hash */
        }
        if (held) {
            /* Undo: the batch's own keys, then the entries it moved. */
            for (uint32_t m = nmoved; m-- > 0;)
                pk->slots[moved[2 * m]].row = moved[2 * m + 1];
            free(moved);
            store__pk_remove_batch(t, b, base, i);
            if (other < base && pk_row_committing(t, other, self_mark)) {
                *wait_mark = atomic_load(store__xmax_of(t, other));
                return false;
            }
            raise_duplicate(&s, row);
        }
        pk->slots[j] = (StorePkEntry){h, row + 1};
        pk->count++;
    }
    free(moved);
    return true;
}

void store__pk_reinsert_row(StoreTable *t, uint64_t row)
{
    if (!pk_change_begin(t))
        return;
    PkSrc s = {t, NULL, 0};
    StorePkIndex *pk = &t->pk;
    if (row < pk->runs_end)
        return;  /* its key run still names it (no later row took the key in a run) */
    store__pk_reserve(pk, 1);
    uint64_t mask = pk->cap - 1;
    uint64_t h = pk_hash(&s, row);
    uint64_t j = h & mask;
    while (pk->slots[j].row) {
        if (pk->slots[j].hash == h && pk_equal(&s, pk->slots[j].row - 1, row))
            return;
        j = (j + 1) & mask;
    }
    pk->slots[j] = (StorePkEntry){h, row + 1};
    pk->count++;
}

static uint64_t pk_hash_key(const StoreTable *t, const Value *key)
{
    uint64_t h = 0x9e3779b97f4a7c15u;
    for (int k = 0; k < t->npkey; k++)
        h = hash_u64(h ^ pk_hash_value(t, t->pkey[k], &key[k].u));
    return h;
}

bool store__pk_row_matches(const StoreTable *t, uint64_t row, const Value *key)
{
    PkSrc s = {t, NULL, 0};
    for (int k = 0; k < t->npkey; k++) {
        int col = t->pkey[k];
        if (!store__pk_value_equal(t, col, pk_value(&s, col, row), &key[k].u))
            return false;
    }
    return true;
}

bool store__pk_find(const StoreTable *t, const Value *key, uint64_t *row)
{
    pk_ensure((StoreTable *)t);  /* a deferred build writes the table's index */
    const StorePkIndex *pk = &t->pk;
    if (pk->slots) {
        uint64_t mask = pk->cap - 1;
        uint64_t h = pk_hash_key(t, key);
        for (uint64_t j = h & mask; pk->slots[j].row; j = (j + 1) & mask) {
            if (pk->slots[j].hash == h && store__pk_row_matches(t, pk->slots[j].row - 1, key)) {
                *row = pk->slots[j].row - 1;
                return true;
            }
        }
    }
    return store__keys_find(t, key, row);
}

/* Batch rows sit above every table row in a PkSrc. */
#define PK_BATCH_BASE (UINT64_C(1) << 61)

bool store__pk_find_batch_row(const StoreTable *t, const Batch *b, uint32_t i, uint64_t *row)
{
    pk_ensure((StoreTable *)t);
    const StorePkIndex *pk = &t->pk;
    PkSrc s = {t, b, PK_BATCH_BASE};
    if (pk->slots) {
        uint64_t mask = pk->cap - 1;
        uint64_t h = pk_hash(&s, PK_BATCH_BASE + i);
        for (uint64_t j = h & mask; pk->slots[j].row; j = (j + 1) & mask) {
            if (pk->slots[j].hash == h &&
                pk_equal(&s, pk->slots[j].row - 1, PK_BATCH_BASE + i)) {
                *row = pk->slots[j].row - 1;
                return true;
            }
        }
    }
    return pk_runs_find(&s, PK_BATCH_BASE + i, row);
}

_Noreturn void store__pk_raise_duplicate_batch_row(const StoreTable *t, const Batch *b, uint32_t i)
{
    PkSrc s = {t, b, PK_BATCH_BASE};
    raise_duplicate(&s, PK_BATCH_BASE + i);
}

void store__pk_build(StoreTable *t)
{
    if (store_g.replaying) {
        store__pk_defer(t);  /* ADD PRIMARY KEY replayed: validated then */
        return;
    }
    PkSrc s = {t, NULL, 0};
    uint64_t n = atomic_load(&t->nrows);
    store__pk_free(&t->pk);
    store__keys_drop(&t->pk);  /* none: the table had no key */
    store__pk_reserve(&t->pk, n ? n : 1);
    StorePkIndex *pk = &t->pk;
    uint64_t mask = pk->cap - 1;
    for (uint64_t row = 0; row < n; row++) {
        if (atomic_load(store__xmax_of(t, row)) != 0)
            continue;  /* deleted versions are not indexed */
        uint64_t h = pk_hash(&s, row);
        uint64_t j = h & mask;
        while (pk->slots[j].row) {
            if (pk->slots[j].hash == h && pk_equal(&s, pk->slots[j].row - 1, row))
                raise_dup(&s, row, true);
            j = (j + 1) & mask;
        }
        pk->slots[j] = (StorePkEntry){h, row + 1};
        pk->count++;
    }
}

bool store__pk_prune_below(StoreTable *t, uint64_t end)
{
    StorePkIndex *pk = &t->pk;
    if (atomic_load_explicit(&pk->pending, memory_order_relaxed) || !pk->slots)
        return true;  /* a deferred build starts at runs_end */
    uint64_t keep = 0;
    for (uint64_t i = 0; i < pk->cap; i++)
        keep += pk->slots[i].row > end;
    uint64_t cap = 1024;
    while (!pk_fits(keep, cap))
        cap *= 2;
    StorePkEntry *slots = calloc(cap, sizeof *slots);
    if (!slots)
        return false;
    pk_move_to(pk, slots, cap, end);
    return true;
}
