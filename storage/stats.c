/*
 * stats.c — ANALYZE: per-table row count and per-column null fraction,
 * distinct estimate and min/max, gathered by a full scan as the analyzing
 * transaction sees the table; and VACUUM.
 *
 * Distinct values are estimated by linear counting over a 2^20-bit bitmap
 * of value hashes (exact enough below ~1 M distinct values, an estimate
 * above; PostgreSQL samples 30 000 rows instead). The result is kept with
 * the table under store_g.lock once the analyzing transaction commits
 * (PostgreSQL's pg_statistic is transactional too): a WAL_STATS record in
 * its WAL buffer makes them durable with the commit, checkpoints write one
 * per analyzed table, recovery restores them (store__stats_replay), so the
 * planner sees the same statistics after a restart.
 */
#define STORE_INTERNAL
#include "storage/storage_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "common/error.h"

#define STATS_BITS (1u << 20)

typedef struct ColAcc {
    uint64_t nulls;
    uint64_t *bitmap;  /* STATS_BITS bits */
    bool has;
    Value min, max;
} ColAcc;

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb3f99ca6ed87ULL;
    return x ^ (x >> 33);
}

static uint64_t hash_val(PhysType p, const Vector *v, uint32_t r)
{
    switch (p) {
    case PHYS_BOOL: return mix(((const uint8_t *)v->data)[r]);
    case PHYS_I16: return mix((uint64_t)((const int16_t *)v->data)[r]);
    case PHYS_I32: return mix((uint64_t)((const int32_t *)v->data)[r]);
    case PHYS_I64: return mix((uint64_t)((const int64_t *)v->data)[r]);
    case PHYS_F32: {
        uint32_t u;
        memcpy(&u, (const float *)v->data + r, 4);
        return mix(u);
    }
    case PHYS_F64: {
        uint64_t u;
        memcpy(&u, (const double *)v->data + r, 8);
        return mix(u);
    }
    case PHYS_STR: {
        const StrRef *s = (const StrRef *)v->data + r;
        uint64_t h = 1469598103934665603ULL;
        for (uint32_t i = 0; i < s->len; i++)
            h = (h ^ (uint8_t)s->ptr[i]) * 1099511628211ULL;
        return mix(h);
    }
    }
    return 0;
}

static double as_double(PhysType p, const Value *v)
{
    switch (p) {
    case PHYS_BOOL: return v->u.b;
    case PHYS_I16: return v->u.i16;
    case PHYS_I32: return v->u.i32;
    case PHYS_I64: return (double)v->u.i64;
    case PHYS_F32: return v->u.f32;
    case PHYS_F64: return v->u.f64;
    case PHYS_STR: return 0;
    }
    return 0;
}

static void acc_batch(ColAcc *a, PhysType p, const Vector *v, uint32_t n)
{
    for (uint32_t r = 0; r < n; r++) {
        if (!vec_is_valid(v, r)) {
            a->nulls++;
            continue;
        }
        uint64_t h = hash_val(p, v, r) & (STATS_BITS - 1);
        a->bitmap[h >> 6] |= UINT64_C(1) << (h & 63);
        if (p == PHYS_STR)
            continue;
        Value x;
        vec_get_value(v, r, &x);
        double d = as_double(p, &x);
        if (isnan(d))
            continue;
        if (!a->has || d < as_double(p, &a->min))
            a->min = x;
        if (!a->has || d > as_double(p, &a->max))
            a->max = x;
        a->has = true;
    }
}

static double distinct_estimate(const uint64_t *bitmap)
{
    uint64_t zeros = 0;
    for (uint32_t w = 0; w < STATS_BITS / 64; w++)
        zeros += 64 - (uint64_t)__builtin_popcountll(bitmap[w]);
    if (zeros == 0)
        zeros = 1;
    return -(double)STATS_BITS * log((double)zeros / STATS_BITS);
}

/* Swap st in as t's statistics (its column array is taken over; the
 * struct stays the caller's). */
static void stats_install(StoreTable *t, StoreStats *st)
{
    store__lock();
    StoreColumnStats *old = t->stats.cols;
    t->stats = *st;
    t->stats.valid = true;
    store__unlock();
    free(old);
    st->cols = NULL;
}

/* ---- WAL_STATS: u32 oid, u64 rows, u32 ncols, per column: f64 null_frac,
 * f64 n_distinct, u8 has_minmax, 8 bytes min, 8 bytes max (the Value
 * union's first 8 bytes: every fixed-width type) ---- */

#define STATS_COL_BYTES (8 + 8 + 1 + 8 + 8)

static size_t stats_encode(uint8_t **out, uint32_t oid, const StoreStats *st)
{
    size_t len = 16 + (size_t)st->ncols * STATS_COL_BYTES;
    uint8_t *p = store__malloc(len);
    *out = p;
    uint32_t n = (uint32_t)st->ncols;
    memcpy(p, &oid, 4);
    memcpy(p + 4, &st->rows, 8);
    memcpy(p + 12, &n, 4);
    p += 16;
    for (int c = 0; c < st->ncols; c++) {
        const StoreColumnStats *s = &st->cols[c];
        memcpy(p, &s->null_frac, 8);
        memcpy(p + 8, &s->n_distinct, 8);
        p[16] = s->has_minmax;
        memcpy(p + 17, &s->min.u, 8);
        memcpy(p + 25, &s->max.u, 8);
        p += STATS_COL_BYTES;
    }
    return len;
}

void store__stats_replay(const uint8_t *payload, size_t len)
{
    uint32_t oid, n;
    uint64_t rows;
    if (len < 16)
        err_raise(ERRCODE_DATA_CORRUPTED, "invalid statistics record in the write-ahead log");
    memcpy(&oid, payload, 4);
    memcpy(&rows, payload + 4, 8);
    memcpy(&n, payload + 12, 4);
    if (n > 100000 || len != 16 + (size_t)n * STATS_COL_BYTES)
        err_raise(ERRCODE_DATA_CORRUPTED, "invalid statistics record in the write-ahead log");
    StoreTable *t = store_table_lookup_oid(oid);
    if (!t)
        return;  /* dropped later in the same log: nothing to restore */
    StoreStats *st = store__calloc(1, sizeof *st);
    st->cols = store__calloc(n ? n : 1, sizeof *st->cols);
    st->ncols = (int)n;
    st->rows = rows;
    const uint8_t *p = payload + 16;
    for (uint32_t c = 0; c < n; c++, p += STATS_COL_BYTES) {
        StoreColumnStats *s = &st->cols[c];
        memcpy(&s->null_frac, p, 8);
        memcpy(&s->n_distinct, p + 8, 8);
        s->has_minmax = p[16];
        memcpy(&s->min.u, p + 17, 8);
        memcpy(&s->max.u, p + 25, 8);
    }
    stats_install(t, st);
    free(st);
}

typedef struct StatsCkpt {
    StoreTxn *buf;
    bool oom;
} StatsCkpt;

static void ckpt_table(StoreTable *t, void *arg)
{
    StatsCkpt *c = arg;
    if (c->oom || t->view_sql)
        return;
    store__lock();
    StoreStats copy = t->stats;
    StoreColumnStats *cols = copy.valid ? malloc((size_t)(copy.ncols ? copy.ncols : 1) * sizeof *cols) : NULL;
    if (cols)
        memcpy(cols, copy.cols, (size_t)copy.ncols * sizeof *cols);
    store__unlock();
    if (!copy.valid)
        return;
    if (!cols) {
        c->oom = true;
        return;
    }
    copy.cols = cols;
    uint8_t *rec = NULL;
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        size_t len = stats_encode(&rec, t->oid, &copy);
        store__wal_add(c->buf, WAL_STATS, rec, len);
        err_pop(&jmp);
    } else {
        c->oom = true;
        err_clear();
    }
    free(rec);
    free(cols);
}

void store__stats_checkpoint(StoreTxn *buf)
{
    StatsCkpt c = {buf, false};
    store__table_visit(ckpt_table, &c);
    if (c.oom)
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
}

void store__stats_cat_end(void *obj, void *saved, StoreTxn *x, bool commit)
{
    (void)x;
    StoreStats *st = saved;   /* the struct is freed by catalog_txn.c */
    if (commit && !((StoreTable *)obj)->data_freed)
        stats_install(obj, st);
    free(st->cols);
}

typedef struct StatsLog {
    uint8_t *rec;
    StoreStats *st;   /* NULL once the transaction's log owns it */
} StatsLog;

static void stats_log_try(StoreTable *t, StoreTxn *x, StatsLog *h)
{
    store__cat_reserve(x);
    size_t len = stats_encode(&h->rec, t->oid, h->st);
    uint64_t pos = store__wal_pos(x);
    store__wal_add(x, WAL_STATS, h->rec, len);
    store__cat_push(x, CAT_STATS, t, h->st, pos);
    h->st = NULL;
}

/* Log st (taken over) in x's buffer and install it at x's commit. */
static void stats_log(StoreTable *t, StoreTxn *x, StoreStats *st)
{
    StatsLog h = {NULL, st};
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        stats_log_try(t, x, &h);
        err_pop(&jmp);
    } else {
        free(h.rec);
        if (h.st)
            free(h.st->cols);
        free(h.st);
        err_rethrow();
    }
    free(h.rec);
}

/* The statistics gathered (malloc'd) become t's at txn's commit: logged in
 * its WAL buffer, installed by store__stats_cat_end (PostgreSQL's
 * pg_statistic rows are transactional too). Without a transaction (or
 * during recovery), installed at once and logged in one of their own. */
static void publish(StoreTable *t, StoreTxn *txn, ColAcc *acc, uint64_t rows)
{
    StoreStats *st = store__calloc(1, sizeof *st);
    st->cols = calloc((size_t)(t->ncols ? t->ncols : 1), sizeof *st->cols);
    if (!st->cols) {
        free(st);
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    }
    st->ncols = t->ncols;
    st->rows = rows;
    st->valid = true;
    for (int c = 0; c < t->ncols; c++) {
        StoreColumnStats *s = &st->cols[c];
        s->null_frac = rows ? (double)acc[c].nulls / (double)rows : 0;
        double nd = rows > acc[c].nulls ? distinct_estimate(acc[c].bitmap) : 0;
        uint64_t nonnull = rows - acc[c].nulls;
        if (nd > (double)nonnull)
            nd = (double)nonnull;
        /* pg_stats convention: a negative value when distinct grows with the table. */
        s->n_distinct = nonnull > 0 && nd > 0.1 * (double)rows ? -(nd / (double)rows) : nd;
        s->has_minmax = acc[c].has;
        s->min = acc[c].min;
        s->max = acc[c].max;
    }
    if (store_g.replaying || !store_g.open) {
        stats_install(t, st);
        free(st);
        return;
    }
    if (txn && txn->active) {
        stats_log(t, txn, st);
        return;
    }
    StoreTxn *x = store_txn_begin();
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        stats_log(t, x, st);
        err_pop(&jmp);
    } else {
        store_txn_rollback(x);
        err_rethrow();
    }
    store_txn_commit(x);
}

void store_table_analyze(StoreTable *t, StoreTxn *txn)
{
    MemArena *arena = mem_arena_create("analyze");
    ColAcc *acc = NULL;
    int ncols = t->ncols;
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        acc = MEM_NEW_ARRAY(arena, ColAcc, ncols ? ncols : 1);
        int *cols = MEM_NEW_ARRAY(arena, int, ncols ? ncols : 1);
        for (int c = 0; c < ncols; c++) {
            cols[c] = c;
            acc[c].bitmap = mem_calloc(arena, STATS_BITS / 64, sizeof(uint64_t));
        }
        StoreScan *s = store_scan_begin(t, txn, ncols, cols, 0, NULL, arena);
        Batch b = {0};
        uint64_t rows = 0;
        while (store_scan_next(s, &b)) {
            for (int c = 0; c < ncols; c++)
                acc_batch(&acc[c], t->phys[c], &b.cols[c], b.count);
            rows += b.count;
            err_check_interrupts();
        }
        store_scan_end(s);
        publish(t, txn, acc, rows);
        err_pop(&jmp);
    } else {
        mem_arena_destroy(arena);
        err_rethrow();
    }
    mem_arena_destroy(arena);
}

bool store_table_stats(StoreTable *t, int col, StoreColumnStats *out, uint64_t *rows)
{
    store__lock();
    bool ok = t->stats.valid && col >= 0 && col < t->stats.ncols;
    if (ok) {
        *out = t->stats.cols[col];
        if (rows)
            *rows = t->stats.rows;
    }
    store__unlock();
    return ok;
}

void store__stats_free(StoreTable *t)
{
    free(t->stats.cols);
    t->stats.cols = NULL;
    t->stats.valid = false;
}

/* store_vacuum lives in vacuum.c. */
