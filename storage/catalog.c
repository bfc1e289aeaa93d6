/*
 * catalog.c — tables: create, drop, look up, inside the database of the
 * calling thread and the transaction of the calling thread.
 *
 * The in-memory catalog is an array of live tables under a rwlock
 * (store_g.catalog_lock): lookups share it, CREATE and DROP take it
 * exclusively, and nothing that can raise runs while it is held. Table
 * OIDs (and database OIDs) come from one counter starting at 16384
 * (PostgreSQL's FirstNormalObjectId); recovery restores it past the
 * highest OID it saw.
 *
 * Transactional DDL: CREATE TABLE joins the calling thread's transaction
 * (store_txn_begin's last active one on this thread, or a transaction of its
 * own committed at once). Until commit the table is visible to that
 * transaction only (create_txn); a DROP hides the table from its dropper
 * only (drop_txn) and takes its write lock, so nobody else writes it; at
 * commit it leaves the catalog, and its rows are freed once no scan uses
 * them. Rollback undoes both (undo log, mvcc.c). A second CREATE of a
 * name another transaction is creating (table, view or sequence) waits
 * for that transaction's end, then goes ahead or raises PostgreSQL's 23505
 * (relation_insert). Catalog changes are not
 * snapshot-versioned: a committed CREATE/DROP is seen by every statement
 * that starts after it, also inside a REPEATABLE READ transaction.
 *
 * A dropped table's header (names, columns) stays allocated until
 * store_close, so a plan that still holds the pointer reads valid memory
 * and gets 42P01 when it scans or appends.
 */
#define STORE_INTERNAL
#include "storage/storage_int.h"
#include "storage/plandeps_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/error.h"

#define STORE_FIRST_OID 16384
#define STORE_MAX_COLUMNS 1600

static StoreTable **cat_tables;  /* live tables */
static int cat_ntables;
static int cat_cap;
static _Atomic uint32_t cat_next_oid = STORE_FIRST_OID;

uint32_t store__catalog_max_oid(void) { return atomic_fetch_add(&cat_next_oid, 1); }

void store__catalog_bump_oid(uint32_t oid)
{
    uint32_t cur = atomic_load(&cat_next_oid);
    while (oid >= cur && !atomic_compare_exchange_weak(&cat_next_oid, &cur, oid + 1))
        ;
}

void store__catalog_init(void)
{
    atomic_store(&cat_next_oid, STORE_FIRST_OID);
    store__db_init();
    cat_tables = NULL;
    cat_ntables = 0;
    cat_cap = 0;
    store_g.all_tables = NULL;
}

void store__catalog_free(void)
{
    pthread_rwlock_wrlock(&store_g.catalog_lock);
    StoreTable *t = store_g.all_tables;
    while (t) {
        StoreTable *next = t->next_all;
        store__table_free(t);
        t = next;
    }
    store_g.all_tables = NULL;
    free(cat_tables);
    cat_tables = NULL;
    cat_ntables = cat_cap = 0;
    pthread_rwlock_unlock(&store_g.catalog_lock);
    store__db_free();
}

/* Whether table t is visible to the transaction cur. Lock held. */
static bool cat_visible(const StoreTable *t, const StoreTxn *cur)
{
    if (t->create_txn && t->create_txn != cur)
        return false;
    return !(t->drop_txn && t->drop_txn == cur);
}

/* Index in cat_tables, -1 when absent. Caller holds catalog_lock. */
static int cat_find(uint32_t dboid, const char *schema, const char *name, const StoreTxn *cur)
{
    for (int i = 0; i < cat_ntables; i++) {
        const StoreTable *t = cat_tables[i];
        if (t->dboid == dboid && strcmp(t->name, name) == 0 && strcmp(t->schema, schema) == 0 &&
            cat_visible(t, cur))
            return i;
    }
    return -1;
}

static _Thread_local uint64_t tl_temp_lookups;   /* store_temp_lookups */

uint64_t store_temp_lookups(void) { return tl_temp_lookups; }

StoreTable *store__table_lookup_db(uint32_t dboid, const char *schema, const char *name)
{
    const char *asked = schema;
    schema = store__schema_resolve(schema);   /* "pg_temp": the session's own */
    StoreTxn *cur = store__txn_current();
    pthread_rwlock_rdlock(&store_g.catalog_lock);
    int idx = cat_find(dboid, schema, name, cur);
    StoreTable *t = idx >= 0 ? cat_tables[idx] : NULL;
    pthread_rwlock_unlock(&store_g.catalog_lock);
    tl_temp_lookups += t && t->temp;
    if (store__deps_recording)   /* a plan being made depends on this answer (plandeps.c) */
        store__deps_note_name(dboid, asked, name, t);
    return t;
}

static void drop_relation(StoreTable *t);

/* Tables only: a view's entry is found by store_view_lookup. */
StoreTable *store_table_lookup(const char *schema, const char *name)
{
    StoreTable *t = store__table_lookup_db(store__session_db(), schema ? schema : "public", name);
    return t && !t->view_sql ? t : NULL;
}

StoreTable *store_table_lookup_oid(uint32_t oid)
{
    StoreTxn *cur = store__txn_current();
    StoreTable *t = NULL;
    pthread_rwlock_rdlock(&store_g.catalog_lock);
    for (int i = 0; i < cat_ntables && !t; i++)
        if (cat_tables[i]->oid == oid && cat_visible(cat_tables[i], cur))
            t = cat_tables[i];
    pthread_rwlock_unlock(&store_g.catalog_lock);
    if (store__deps_recording)
        store__deps_note_oid(oid, t);
    return t;
}

/* Name of some table of schema visible to the caller (DROP SCHEMA). */
const char *store__table_name_in_schema(uint32_t dboid, const char *schema)
{
    StoreTxn *cur = store__txn_current();
    const char *name = NULL;
    pthread_rwlock_rdlock(&store_g.catalog_lock);
    for (int i = 0; i < cat_ntables && !name; i++)
        if (cat_tables[i]->dboid == dboid && strcmp(cat_tables[i]->schema, schema) == 0 &&
            cat_visible(cat_tables[i], cur))
            name = cat_tables[i]->name;
    pthread_rwlock_unlock(&store_g.catalog_lock);
    return name;
}

/* Any table of a database (DROP DATABASE), NULL when none. */
StoreTable *store__table_any_in_db(uint32_t dboid)
{
    StoreTable *t = NULL;
    pthread_rwlock_rdlock(&store_g.catalog_lock);
    for (int i = 0; i < cat_ntables && !t; i++)
        if (cat_tables[i]->dboid == dboid)
            t = cat_tables[i];
    pthread_rwlock_unlock(&store_g.catalog_lock);
    return t;
}

/* Visit every committed table (checkpoints). */
void store__table_visit(void (*fn)(StoreTable *t, void *arg), void *arg)
{
    pthread_rwlock_rdlock(&store_g.catalog_lock);
    for (int i = 0; i < cat_ntables; i++)
        if (!cat_tables[i]->create_txn)
            fn(cat_tables[i], arg);
    pthread_rwlock_unlock(&store_g.catalog_lock);
}

/* Checks that need no lock: schema, column names, key columns. */
static void cat_validate(uint32_t dboid, const char *schema, int ncols, const StoreColumnDef *cols, int npkey,
                         const int *pkey)
{
    if (!store_g.open)
        err_raise(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE, "the store is not open");
    if (!store__schema_exists_db(dboid, schema))
        err_raise(ERRCODE_INVALID_SCHEMA_NAME, "schema \"%s\" does not exist", schema);
    if (ncols > STORE_MAX_COLUMNS)
        err_raise(ERRCODE_PROGRAM_LIMIT_EXCEEDED, "tables can have at most %d columns",
                  STORE_MAX_COLUMNS);
    for (int i = 0; i < ncols; i++)
        for (int j = 0; j < i; j++)
            if (strcmp(cols[i].name, cols[j].name) == 0)
                err_raise(ERRCODE_DUPLICATE_COLUMN, "column \"%s\" specified more than once",
                          cols[i].name);
    for (int i = 0; i < npkey; i++) {
        ERR_ASSERT(pkey[i] >= 0 && pkey[i] < ncols);
        for (int j = 0; j < i; j++)
            if (pkey[i] == pkey[j])
                err_raise(ERRCODE_DUPLICATE_COLUMN,
                          "column \"%s\" appears twice in primary key constraint",
                          cols[pkey[i]].name);
    }
}

static uint32_t (*cat_nsp_oid_fn)(const char *schema);

void store_set_namespace_oid_fn(uint32_t (*fn)(const char *schema)) { cat_nsp_oid_fn = fn; }

/* A second CREATE of a relation name whose first creator committed while
 * the second waited: PostgreSQL's unique index of pg_type (both relations
 * have a row type: tables, views) or else of pg_class reports it. */
_Noreturn void store__raise_relname_taken(const char *schema, const char *name, bool type_index)
{
    uint32_t nsp = cat_nsp_oid_fn ? cat_nsp_oid_fn(schema) : 0;
    ErrorData *e = err_begin(ERRCODE_UNIQUE_VIOLATION);
    const char *index = type_index ? "pg_type_typname_nsp_index" : "pg_class_relname_nsp_index";
    err_message(e, "duplicate key value violates unique constraint \"%s\"", index);
    err_detail(e, "Key (%s, %s)=(%s, %u) already exists.", type_index ? "typname" : "relname",
               type_index ? "typnamespace" : "relnamespace", name, nsp);
    snprintf(e->schema_name, sizeof e->schema_name, "pg_catalog");
    snprintf(e->table_name, sizeof e->table_name, "%s", type_index ? "pg_type" : "pg_class");
    snprintf(e->constraint_name, sizeof e->constraint_name, "%s", index);
    err_throw();
}

/* Another transaction's uncommitted table or view named schema.name (its
 * id in *id), NULL when none. Caller holds catalog_lock. */
static StoreTxn *cat_creator(uint32_t dboid, const char *schema, const char *name,
                             const StoreTxn *cur, uint64_t *id)
{
    for (int i = 0; i < cat_ntables; i++) {
        const StoreTable *o = cat_tables[i];
        if (o->create_txn && o->create_txn != cur && o->dboid == dboid &&
            strcmp(o->name, name) == 0 && strcmp(o->schema, schema) == 0) {
            *id = o->create_txn->id;
            return o->create_txn;
        }
    }
    return NULL;
}

StoreTxn *store__relname_creator(uint32_t dboid, const char *schema, const char *name,
                                 const StoreTxn *cur, uint64_t *id)
{
    pthread_rwlock_rdlock(&store_g.catalog_lock);
    StoreTxn *o = cat_creator(dboid, schema, name, cur, id);
    pthread_rwlock_unlock(&store_g.catalog_lock);
    return o;
}

/* Insert t into the catalog unless a visible table has its name (42P07;
 * 23505 when `waited` for its creator) or another transaction is creating
 * one (false, *owner and *owner_id set: the caller waits for its end and
 * tries again, as PostgreSQL's second CREATE waits on the catalog's unique
 * index). */
static bool cat_insert(StoreTable *t, const StoreTxn *cur, bool waited, StoreTxn **owner,
                       uint64_t *owner_id)
{
    pthread_rwlock_wrlock(&store_g.catalog_lock);
    int found = cat_find(t->dboid, t->schema, t->name, cur);
    bool exists = found >= 0;
    bool typed = exists && cat_tables[found]->create_txn == NULL;   /* a table or view */
    *owner = exists ? NULL : cat_creator(t->dboid, t->schema, t->name, cur, owner_id);
    if (*owner) {
        pthread_rwlock_unlock(&store_g.catalog_lock);
        return false;
    }
    bool grown = true;
    if (!exists && cat_ntables == cat_cap) {
        int cap = cat_cap ? cat_cap * 2 : 16;
        StoreTable **arr = realloc(cat_tables, (size_t)cap * sizeof *arr);
        if (arr) {
            cat_tables = arr;
            cat_cap = cap;
        } else {
            grown = false;
        }
    }
    if (!exists && grown) {
        cat_tables[cat_ntables++] = t;
        t->next_all = store_g.all_tables;
        store_g.all_tables = t;
    }
    pthread_rwlock_unlock(&store_g.catalog_lock);
    if (exists || !grown) {
        char copy[STORE_NAME_MAX * 2], schema[STORE_NAME_MAX * 2];
        snprintf(copy, sizeof copy, "%s", t->name);
        snprintf(schema, sizeof schema, "%s", t->schema);
        store__table_free(t);
        if (exists && waited)
            store__raise_relname_taken(schema, copy, typed);
        if (exists)
            err_raise(ERRCODE_DUPLICATE_TABLE, "relation \"%s\" already exists", copy);
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    }
    return true;
}

/* cat_insert (42P07 also for a sequence of t's name: one namespace),
 * first waiting for every other transaction creating a table, view or
 * sequence of t's name (store__txn_wait_txn: 40P01, cancel,
 * lock_timeout); after such a wait a committed one is 23505 (pg_type's
 * index between two relations with row types, pg_class's with a
 * sequence), a rolled back one lets t in. Frees t when it raises. */
__attribute__((noinline)) static void relation_wait(StoreTable *t, StoreTxn *x, StoreTxn *o,
                                                   uint64_t id)
{
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        store__txn_wait_txn(x, o, id);
        err_pop(&jmp);
    } else {
        store__table_free(t);
        err_rethrow();
    }
}

static void relation_insert(StoreTable *t, StoreTxn *x)
{
    bool waited = false;
    for (;;) {
        uint64_t id = 0;
        /* One namespace (not enforced on replay: a data directory from
         * before it was may hold a view named like a sequence). */
        if (!store_g.replaying && store__seq_exists(t->dboid, t->schema, t->name)) {
            char name[STORE_NAME_MAX * 2], schema[STORE_NAME_MAX * 2];
            snprintf(name, sizeof name, "%s", t->name);
            snprintf(schema, sizeof schema, "%s", t->schema);
            store__table_free(t);
            if (waited)
                store__raise_relname_taken(schema, name, false);
            err_raise(ERRCODE_DUPLICATE_TABLE, "relation \"%s\" already exists", name);
        }
        StoreTxn *o = store__seq_creator(t->dboid, t->schema, t->name, x, &id);
        if (!o && cat_insert(t, x, waited, &o, &id))
            return;
        relation_wait(t, x, o, id);
        waited = true;
    }
}

StoreTable *store__table_create_oid(uint32_t dboid, uint32_t oid, const char *schema,
                                    const char *name, int ncols, const StoreColumnDef *cols,
                                    int npkey, const int *pkey)
{
    return store__relation_create_oid(dboid, oid, schema, name, ncols, cols, npkey, pkey, NULL);
}

StoreTable *store__relation_create_oid(uint32_t dboid, uint32_t oid, const char *schema,
                                       const char *name, int ncols, const StoreColumnDef *cols,
                                       int npkey, const int *pkey, const char *view_sql)
{
    cat_validate(dboid, schema, ncols, cols, npkey, pkey);
    StoreTxn *x = store__txn_current();
    ERR_ASSERT(x != NULL);
    store__undo_push(x, (StoreUndo){.kind = UNDO_CREATE_TABLE});  /* room first */
    x->nundo--;
    if (oid == 0)
        oid = atomic_fetch_add(&cat_next_oid, 1);
    else
        store__catalog_bump_oid(oid);
    StoreTable *t = store__table_new(oid, schema, name, ncols, cols, npkey, pkey);
    t->dboid = dboid;
    t->temp = store_schema_is_temp(schema);   /* never logged from here on (wal.c) */
    if (view_sql && !(t->view_sql = strdup(view_sql))) {
        store__table_free(t);
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    }
    t->create_txn = x;
    relation_insert(t, x);
    store__undo_push(x, (StoreUndo){.kind = UNDO_CREATE_TABLE, .table = t});
    store__wal_create_table(x, t, t->ncols);
    store__catalog_epoch_bump();   /* plans of the name re-plan (store_catalog_epoch) */
    return t;
}

/* CREATE TABLE in a transaction of its own, committed at once. */
__attribute__((noinline)) static StoreTable *create_own_txn(uint32_t db, const char *schema,
                                                            const char *name, int ncols,
                                                            const StoreColumnDef *cols, int npkey,
                                                            const int *pkey, const char *view_sql)
{
    StoreTxn *x = store_txn_begin();
    StoreTable *t = NULL;
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        t = store__relation_create_oid(db, 0, schema, name, ncols, cols, npkey, pkey, view_sql);
        err_pop(&jmp);
    } else {
        store_txn_rollback(x);
        err_rethrow();
    }
    store_txn_commit(x);
    return t;
}

/* The schema a relation is created in: "pg_temp" and the session's own
 * pg_temp_N are its temporary schema (taken now when it has none yet);
 * another session's is refused as PostgreSQL does. */
static const char *creation_schema(const char *schema)
{
    if (!schema)
        return "public";
    if (!store_schema_is_temp(schema))
        return schema;
    const char *own = store_session_temp_schema(false);
    if (strcmp(schema, "pg_temp") == 0 || (own && strcmp(schema, own) == 0))
        return store_session_temp_schema(true);
    err_raise(ERRCODE_INVALID_TABLE_DEFINITION,
              "cannot create relations in temporary schemas of other sessions");
}

StoreTable *store_table_create(const char *schema, const char *name, int ncols,
                               const StoreColumnDef *cols, int npkey, const int *pkey)
{
    schema = creation_schema(schema);
    uint32_t db = store__session_db();
    cat_validate(db, schema, ncols, cols, npkey, pkey);
    if (store__txn_current())
        return store__table_create_oid(db, 0, schema, name, ncols, cols, npkey, pkey);
    return create_own_txn(db, schema, name, ncols, cols, npkey, pkey, NULL);
}

/* Views share tables' catalog entries (one namespace of relations, durable
 * and transactional DDL, OIDs): a view is a relation with columns, no rows
 * and the SQL text of its query. */
StoreTable *store_view_create(const char *schema, const char *name, int ncols,
                              const StoreColumnDef *cols, const char *sql)
{
    schema = creation_schema(schema);
    uint32_t db = store__session_db();
    cat_validate(db, schema, ncols, cols, 0, NULL);
    if (store__txn_current())
        return store__relation_create_oid(db, 0, schema, name, ncols, cols, 0, NULL, sql);
    return create_own_txn(db, schema, name, ncols, cols, 0, NULL, sql);
}

StoreTable *store_view_lookup(const char *schema, const char *name)
{
    StoreTable *t = store__table_lookup_db(store__session_db(), schema ? schema : "public", name);
    return t && t->view_sql ? t : NULL;
}

StoreTable *store_relation_lookup(const char *schema, const char *name)
{
    return store__table_lookup_db(store__session_db(), schema ? schema : "public", name);
}

const char *store_view_sql(const StoreTable *t) { return t->view_sql; }

/* DROP VIEW: as DROP TABLE (waits for nobody: views have no scans). */
void store_view_drop(const char *schema, const char *name)
{
    StoreTable *const t = store_view_lookup(schema, name);
    if (!t)
        err_raise(ERRCODE_UNDEFINED_TABLE, "view \"%s\" does not exist", name);
    drop_relation(t);
}

/* t leaves the catalog; drop_seq (0: unknown) set in the same hold of the
 * lock, so a listing sees it either there or as dropped, never both. */
static void cat_remove(StoreTable *t, uint64_t drop_seq)
{
    pthread_rwlock_wrlock(&store_g.catalog_lock);
    t->drop_seq = drop_seq;
    for (int i = 0; i < cat_ntables; i++) {
        if (cat_tables[i] == t) {
            cat_tables[i] = cat_tables[--cat_ntables];
            break;
        }
    }
    pthread_rwlock_unlock(&store_g.catalog_lock);
}

void store__table_commit_create(StoreTable *t, uint64_t seq)
{
    pthread_rwlock_wrlock(&store_g.catalog_lock);
    t->create_txn = NULL;
    t->create_seq = store_g.replaying ? 0 : seq;
    pthread_rwlock_unlock(&store_g.catalog_lock);
    store__catalog_epoch_bump();
}

void store__table_commit_drop(StoreTable *t, uint64_t seq)
{
    cat_remove(t, store_g.replaying ? 0 : seq);
    store__catalog_epoch_bump();
    store__table_release_dropped(t);
}

void store__table_undo_create(StoreTable *t)
{
    cat_remove(t, 0);
    store__catalog_epoch_bump();
    store__table_release_dropped(t);
}

void store__table_undo_drop(StoreTable *t)
{
    pthread_rwlock_wrlock(&store_g.catalog_lock);
    __atomic_store_n(&t->drop_txn, NULL, __ATOMIC_RELAXED);
    pthread_rwlock_unlock(&store_g.catalog_lock);
    store__catalog_epoch_bump();
}

/* DROP of t by transaction x (write lock and waits in txn.c). */
void store__table_drop_txn(StoreTable *t, StoreTxn *x)
{
    store__undo_push(x, (StoreUndo){.kind = UNDO_DROP_TABLE});  /* room first */
    x->nundo--;
    store__txn_wait_drop(x, t);
    pthread_rwlock_wrlock(&store_g.catalog_lock);
    __atomic_store_n(&t->drop_txn, x, __ATOMIC_RELAXED);
    pthread_rwlock_unlock(&store_g.catalog_lock);
    store__undo_push(x, (StoreUndo){.kind = UNDO_DROP_TABLE, .table = t});
    store__wal_drop_table(x, t);
    store__catalog_epoch_bump();
}

void store_table_drop(const char *schema, const char *name)
{
    StoreTable *const t = store_table_lookup(schema ? schema : "public", name);
    if (!t)
        err_raise(ERRCODE_UNDEFINED_TABLE, "table \"%s\" does not exist", name);
    drop_relation(t);
}

/* fn(arg, x) in the calling thread's transaction, or in one of its own
 * (committed after, rolled back on an error) when it has none. */
static void in_txn(void (*fn)(void *arg, StoreTxn *x), void *arg)
{
    StoreTxn *x = store__txn_current();
    bool own = x == NULL;
    if (own)
        x = store_txn_begin();
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        fn(arg, x);
        err_pop(&jmp);
    } else {
        if (own)
            store_txn_rollback(x);
        err_rethrow();
    }
    if (own)
        store_txn_commit(x);
}

static void drop_relation_in(void *t, StoreTxn *x)
{
    store__table_drop_txn(t, x);
}

static void drop_relation(StoreTable *const t)
{
    in_txn(drop_relation_in, t);
}

bool store_table_is_dropped(const StoreTable *t)
{
    store__lock();
    bool dropped = t->dropped;
    store__unlock();
    return dropped;
}

uint32_t store_table_oid(const StoreTable *t) { return t->oid; }
const char *store_table_name(const StoreTable *t) { return t->name; }
const char *store_table_schema(const StoreTable *t) { return t->schema; }
int store_table_ncols(const StoreTable *t)
{
    /* An uncommitted ADD COLUMN is seen by its own transaction only. */
    StoreTxn *alter = __atomic_load_n(&((StoreTable *)t)->alter_txn, __ATOMIC_ACQUIRE);
    if (alter && alter != store__txn_current())
        return t->ncols_committed;
    return __atomic_load_n(&((StoreTable *)t)->ncols, __ATOMIC_ACQUIRE);
}
int store_table_npkey(const StoreTable *t) { return t->npkey; }
const int *store_table_pkey(const StoreTable *t) { return t->pkey; }

const StoreColumnDef *store_table_column(const StoreTable *t, int idx)
{
    ERR_ASSERT(idx >= 0 && idx < t->ncols);
    return &t->cols[idx];
}

int store_table_column_index(const StoreTable *t, const char *name)
{
    int n = store_table_ncols(t);
    for (int i = 0; i < n; i++)
        if (strcmp(t->cols[i].name, name) == 0)
            return i;
    return -1;
}

/* ---- temporary relations (database.c numbers the schemas) ---- */

/* Drop t and the sequences it owns (serial columns) in transaction x. */
static void temp_drop_one(StoreTable *t, StoreTxn *x)
{
    uint32_t oids[32];
    int n;
    while ((n = store_seq_owned_by(t->oid, oids, 32)) > 0)
        for (int k = 0; k < n && k < 32; k++)
            store_seq_drop(oids[k]);
    store__table_drop_txn(t, x);
}

/* The relations of the session's temporary schema, then its sequences,
 * dropped in x (the caller's transaction). */
static void temp_drop_in(const char *schema, StoreTxn *x)
{
    uint32_t db = store__session_db();
    const char *name;
    while ((name = store__table_name_in_schema(db, schema)) != NULL) {
        StoreTable *t = store__table_lookup_db(db, schema, name);
        if (!t)
            break;
        temp_drop_one(t, x);
    }
    uint32_t oids[64];
    int n;
    while ((n = store_seq_in_schema(schema, false, oids, 64)) > 0)
        for (int k = 0; k < n && k < 64; k++)
            store_seq_drop(oids[k]);
}

static void temp_drop_cb(void *schema, StoreTxn *x)
{
    temp_drop_in(schema, x);
}

void store_session_temp_drop(void)
{
    const char *schema = store_session_temp_schema(false);
    if (schema)
        in_txn(temp_drop_cb, (void *)schema);
}

void store_session_temp_end(void)
{
    if (!store_session_temp_schema(false) || !store_g.open)
        return;
    store_session_temp_drop();   /* raises: the number stays taken, the tables hidden */
    store__temp_release();
}

/* Every table of a temporary schema, at most max, into out. */
static int temp_collect(StoreTable **out, int max)
{
    int n = 0;
    pthread_rwlock_rdlock(&store_g.catalog_lock);
    for (int i = 0; i < cat_ntables && n < max; i++)
        if (store_schema_is_temp(cat_tables[i]->schema))
            out[n++] = cat_tables[i];
    pthread_rwlock_unlock(&store_g.catalog_lock);
    return n;
}

void store__temp_drop_all(void)
{
    StoreTable *batch[64];
    int n;
    while ((n = temp_collect(batch, 64)) > 0) {
        StoreTxn *x = store_txn_begin();
        ErrJmp jmp;
        if (ERR_TRY(jmp)) {
            for (int i = 0; i < n; i++)
                temp_drop_one(batch[i], x);
            err_pop(&jmp);
        } else {
            store_txn_rollback(x);
            err_rethrow();
        }
        store_txn_commit(x);
    }
    store__temp_seq_drop_all();   /* temporary tables' sequences: logged, the tables not */
}
