/*
 * plandeps.c — what a plan was made from, and whether it still holds: the
 * per-relation half of PostgreSQL's plan cache invalidation.
 *
 * store_catalog_epoch and store_stats_epoch move at every DDL and ANALYZE
 * of any table; a prepared statement that re-planned whenever they moved
 * re-planned for changes that cannot concern it. PostgreSQL re-plans a
 * cached plan only when a relation of its plan (PlannedStmt.relationOids:
 * every table and view it reads or writes, views' tables included) was
 * invalidated — DDL, ANALYZE, DROP — or when its search_path no longer
 * finds the same schemas (the planner's plan_search_path_key does that
 * half). Here:
 *
 *   - While a thread plans (store_deps_begin .. store_deps_end), every
 *     relation that catalog.c's lookups find — by name (store_table_lookup,
 *     store_view_lookup, store_relation_lookup: FROM items, INSERT /
 *     UPDATE / DELETE targets, views and the tables of their text,
 *     ::regclass literals, TRUNCATE / ALTER / VACUUM targets) or by OID —
 *     is noted by OID, and store_deps_end adds each one's version.
 *   - A name that found nothing is no dependency, as in PostgreSQL, whose
 *     documentation of PREPARE says so: a table created later under the
 *     same name in a schema earlier in search_path is not seen until
 *     something else re-plans the statement. A dropped (and perhaps
 *     re-created) relation is a change of the one the plan found, so the
 *     plan is made again and the name looked up again.
 *   - The version of a relation (store_relation_version) is a 64-bit hash
 *     of everything a plan can depend on: OID, schema and name, the
 *     transactions creating / dropping / altering it (an uncommitted DDL of
 *     another session changes it too: a harmless extra re-plan, then again
 *     at its commit or rollback), its columns (name, type, typmod, NOT
 *     NULL, DEFAULT text), primary key, view text and ANALYZE statistics;
 *     0 once it is no longer visible. A hash of the state rather than a
 *     counter, so that storage's DDL paths (alter.c, stats.c) need no hook:
 *     equal states give equal versions, and a plan made for a state holds
 *     in an equal one (a rolled-back ALTER re-plans nothing once undone).
 *     A false "unchanged" needs a 64-bit collision.
 *   - store_deps_changed compares each relation's version now with the
 *     recorded one. The protocol asks only when one of the global epochs
 *     moved since the statement was last found good, so an idle catalog
 *     costs one comparison per Bind.
 *
 * Sequences are not in the table catalog: a plan that reads one (SELECT
 * FROM a sequence, nextval('s')) names it by text that the executor
 * resolves when it runs, so no plan depends on a sequence's OID.
 *
 * Memory: the recorder is per thread (a fixed array of DEPS_MAX
 * relations in thread-local storage); store_deps_end copies it into the
 * caller's arena.
 */
#define STORE_INTERNAL
#include "storage/storage_int.h"
#include "storage/plandeps_int.h"

#include <string.h>
#include "common/arena.h"
#include "common/error.h"

typedef struct DepOid {
    uint32_t oid;
    uint64_t version;      /* store_relation_version right after planning */
} DepOid;

struct StoreDeps {
    bool always;           /* could not be recorded (more than DEPS_MAX relations): always
                            * changed */
    int noids;
    DepOid *oids;
};

_Thread_local int store__deps_recording;

/* Relations one plan may record; a plan that finds more is "always
 * changed" (re-planned whenever an epoch moves, the old rule). */
#define DEPS_MAX 128

typedef struct Recorder {
    bool always;
    int noids;
    DepOid oids[DEPS_MAX];   /* in the thread's TLS: nothing to free at its exit */
} Recorder;

static _Thread_local Recorder rec;

/* ---------- versions ---------- */

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    h *= 0xff51afd7ed558ccdULL;
    return h ^ (h >> 33);
}

static uint64_t mix_str(uint64_t h, const char *s)
{
    if (!s)
        return mix(h, 0x5bd1e995);
    uint64_t f = 0xcbf29ce484222325ULL;   /* FNV-1a */
    for (; *s; s++)
        f = (f ^ (unsigned char)*s) * 0x100000001b3ULL;
    return mix(h, f);
}

static uint64_t mix_double(uint64_t h, double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return mix(h, u);
}

/* ANALYZE's statistics as the planner reads them (store_table_stats). */
static uint64_t stats_version(StoreTable *t, uint64_t h)
{
    store__lock();
    const StoreStats *st = &t->stats;
    h = mix(h, st->valid);
    if (st->valid) {
        h = mix(mix(h, (uint64_t)st->ncols), st->rows);
        for (int c = 0; c < st->ncols && st->cols; c++) {
            const StoreColumnStats *cs = &st->cols[c];
            h = mix_double(mix_double(h, cs->null_frac), cs->n_distinct);
            h = mix(h, cs->has_minmax);
            if (cs->has_minmax) {   /* fixed-width types: the first 8 bytes hold the value */
                uint64_t lo, hi;
                memcpy(&lo, &cs->min.u, sizeof lo);
                memcpy(&hi, &cs->max.u, sizeof hi);
                h = mix(mix(h, lo), hi);
            }
        }
    }
    store__unlock();
    return h;
}

static uint64_t table_version(StoreTable *t)
{
    uint64_t h = mix(0x243f6a8885a308d3ULL, t->oid);
    pthread_rwlock_rdlock(&store_g.catalog_lock);   /* create_txn / drop_txn */
    h = mix(mix(h, (uint64_t)(uintptr_t)t->create_txn), (uint64_t)(uintptr_t)t->drop_txn);
    pthread_rwlock_unlock(&store_g.catalog_lock);
    h = mix(h, (uint64_t)(uintptr_t)__atomic_load_n(&t->alter_txn, __ATOMIC_ACQUIRE));
    int ncols = __atomic_load_n(&t->ncols, __ATOMIC_ACQUIRE);
    h = mix(mix(h, (uint64_t)ncols), (uint64_t)t->ncols_committed);
    h = mix_str(mix_str(mix_str(h, t->schema), t->name), t->view_sql);
    for (int c = 0; c < ncols; c++) {
        const StoreColumnDef *d = &t->cols[c];
        h = mix_str(h, d->name);
        h = mix(mix(h, d->type.oid), (uint64_t)(uint32_t)d->type.typmod);
        h = mix_str(mix(h, d->not_null), d->default_text);
    }
    int npkey = __atomic_load_n(&t->npkey, __ATOMIC_ACQUIRE);
    h = mix(h, (uint64_t)npkey);
    for (int k = 0; k < npkey && t->pkey; k++)
        h = mix(h, (uint64_t)t->pkey[k]);
    h = stats_version(t, h);
    return h ? h : 1;   /* 0 is "no relation" */
}

uint64_t store_relation_version(uint32_t oid)
{
    int saved = store__deps_recording;
    store__deps_recording = 0;   /* this lookup is not the plan's */
    StoreTable *t = store_table_lookup_oid(oid);
    store__deps_recording = saved;
    return t ? table_version(t) : 0;
}

/* ---------- recording ---------- */

static void note(uint32_t oid)
{
    for (int i = 0; i < rec.noids; i++)
        if (rec.oids[i].oid == oid)
            return;
    if (rec.noids == DEPS_MAX) {
        rec.always = true;
        return;
    }
    rec.oids[rec.noids++] = (DepOid){oid, 0};   /* the version at store_deps_end: no lock
                                                 * is taken inside a lookup */
}

void store__deps_note_name(uint32_t dboid, const char *schema, const char *name, const StoreTable *found)
{
    (void)dboid;
    (void)schema;
    (void)name;
    if (found)   /* a miss is no dependency (PostgreSQL: see the top) */
        note(found->oid);
}

void store__deps_note_oid(uint32_t oid, const StoreTable *found)
{
    if (found)
        note(oid);
}

/* The version of the relation oid now (0 = none visible). */
static uint64_t version_now(uint32_t oid)
{
    StoreTable *t = store_table_lookup_oid(oid);
    return t ? table_version(t) : 0;
}

void store_deps_begin(void)
{
    if (store__deps_recording++ > 0)
        return;   /* nested (a plan planned inside another): one record */
    rec.always = false;
    rec.noids = 0;
}

StoreDeps *store_deps_end(MemArena *arena)
{
    if (store__deps_recording == 0 || --store__deps_recording > 0 || !arena)
        return NULL;
    for (int i = 0; i < rec.noids; i++)   /* recording is off: these lookups are not noted */
        rec.oids[i].version = version_now(rec.oids[i].oid);
    StoreDeps *d = mem_alloc(arena, sizeof *d);
    memset(d, 0, sizeof *d);
    d->always = rec.always;
    d->noids = rec.noids;
    d->oids = mem_alloc(arena, sizeof(DepOid) * ((size_t)rec.noids + 1));
    if (rec.noids)
        memcpy(d->oids, rec.oids, sizeof(DepOid) * (size_t)rec.noids);
    return d;
}

void store_deps_abort(void)
{
    store__deps_recording = 0;
}

/* ---------- checking ---------- */

static bool deps_changed(const StoreDeps *d)
{
    for (int i = 0; i < d->noids; i++)
        if (version_now(d->oids[i].oid) != d->oids[i].version)
            return true;
    return false;
}

bool store_deps_changed(const StoreDeps *d)
{
    if (!d || d->always)
        return true;
    int saved = store__deps_recording;
    store__deps_recording = 0;   /* these lookups are no plan's */
    bool changed = deps_changed(d);
    store__deps_recording = saved;
    return changed;
}

int store_deps_count(const StoreDeps *d)
{
    return d ? d->noids : 0;
}
