/*
 * stats.c — ANALYZE: per-table row count and per-column null fraction,
 * distinct estimate and min/max, gathered by a full scan as the analyzing
 * transaction sees the table; and VACUUM.
 *
 * Distinct values are estimated by linear counting over a 2^20-bit bitmap
 * of value hashes (exact enough below ~1 M distinct values, an estimate
 * above; PostgreSQL samples 30 000 rows instead). The result is kept with
 * the table under store_g.lock (not durable: ANALYZE again after a
 * restart).
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

static void publish(StoreTable *t, ColAcc *acc, uint64_t rows)
{
    StoreColumnStats *cols = store__calloc((size_t)(t->ncols ? t->ncols : 1), sizeof *cols);
    for (int c = 0; c < t->ncols; c++) {
        StoreColumnStats *s = &cols[c];
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
    store__lock();
    StoreColumnStats *old = t->stats.cols;
    t->stats.cols = cols;
    t->stats.rows = rows;
    t->stats.valid = true;
    store__unlock();
    free(old);
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
        publish(t, acc, rows);
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
    bool ok = t->stats.valid && col >= 0 && col < t->ncols;
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
