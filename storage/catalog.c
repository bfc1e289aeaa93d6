/*
 * catalog.c — schemas and tables: create, drop, look up.
 *
 * The in-memory catalog is an array of live tables under a rwlock
 * (store_g.catalog_lock): lookups share it, CREATE and DROP take it
 * exclusively, and nothing that can raise runs while it is held. Schemas
 * are fixed for now ("public", "pg_catalog"). Table OIDs come from one
 * counter starting at 16384 (PostgreSQL's FirstNormalObjectId), stable for
 * the life of the process.
 *
 * A dropped table leaves the catalog at once, but its header (names,
 * columns) stays allocated until store_close, so a plan that still holds
 * the pointer reads valid memory and gets 42P01 when it scans or appends.
 * Its rows are freed as soon as no scan or writer uses them.
 */
#define STORE_INTERNAL
#include "storage/storage_int.h"

#include <stdlib.h>
#include <string.h>
#include "common/error.h"

#define STORE_FIRST_OID 16384
#define STORE_MAX_COLUMNS 1600

static const char *const store_schemas[] = {"public", "pg_catalog"};

static StoreTable **cat_tables;  /* live tables */
static int cat_ntables;
static int cat_cap;
static _Atomic uint32_t cat_next_oid = STORE_FIRST_OID;

void store__catalog_init(void)
{
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
}

bool store_schema_exists(const char *schema)
{
    for (size_t i = 0; i < sizeof store_schemas / sizeof store_schemas[0]; i++)
        if (strcmp(schema, store_schemas[i]) == 0)
            return true;
    return false;
}

/* Index in cat_tables, -1 when absent. Caller holds catalog_lock. */
static int cat_find(const char *schema, const char *name)
{
    for (int i = 0; i < cat_ntables; i++)
        if (strcmp(cat_tables[i]->name, name) == 0 && strcmp(cat_tables[i]->schema, schema) == 0)
            return i;
    return -1;
}

StoreTable *store_table_lookup(const char *schema, const char *name)
{
    if (!schema)
        schema = "public";
    pthread_rwlock_rdlock(&store_g.catalog_lock);
    int idx = cat_find(schema, name);
    StoreTable *t = idx >= 0 ? cat_tables[idx] : NULL;
    pthread_rwlock_unlock(&store_g.catalog_lock);
    return t;
}

StoreTable *store_table_lookup_oid(uint32_t oid)
{
    StoreTable *t = NULL;
    pthread_rwlock_rdlock(&store_g.catalog_lock);
    for (int i = 0; i < cat_ntables && !t; i++)
        if (cat_tables[i]->oid == oid)
            t = cat_tables[i];
    pthread_rwlock_unlock(&store_g.catalog_lock);
    return t;
}

/* Checks that need no lock: schema, column names, key columns. */
static void cat_validate(const char *schema, int ncols, const StoreColumnDef *cols, int npkey,
                         const int *pkey)
{
    if (!store_g.open)
        err_raise(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE, "the store is not open");
    if (!store_schema_exists(schema))
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

StoreTable *store_table_create(const char *schema, const char *name, int ncols,
                               const StoreColumnDef *cols, int npkey, const int *pkey)
{
    if (!schema)
        schema = "public";
    cat_validate(schema, ncols, cols, npkey, pkey);
    uint32_t oid = atomic_fetch_add(&cat_next_oid, 1);
    StoreTable *t = store__table_new(oid, schema, name, ncols, cols, npkey, pkey);

    pthread_rwlock_wrlock(&store_g.catalog_lock);
    bool exists = cat_find(schema, name) >= 0;
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
        store__table_free(t);
        if (exists)
            err_raise(ERRCODE_DUPLICATE_TABLE, "relation \"%s\" already exists", name);
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    }
    return t;
}

void store_table_drop(const char *schema, const char *name)
{
    if (!schema)
        schema = "public";
    StoreTable *t = store_table_lookup(schema, name);
    if (!t)
        err_raise(ERRCODE_UNDEFINED_TABLE, "table \"%s\" does not exist", name);
    /* Waits until no other transaction scans or writes t; marks it dropped. */
    bool free_now = store__txn_wait_drop(t);

    pthread_rwlock_wrlock(&store_g.catalog_lock);
    for (int i = 0; i < cat_ntables; i++) {
        if (cat_tables[i] == t) {
            cat_tables[i] = cat_tables[--cat_ntables];
            break;
        }
    }
    pthread_rwlock_unlock(&store_g.catalog_lock);
    if (free_now)
        store__table_free_data(t);
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
int store_table_ncols(const StoreTable *t) { return t->ncols; }
int store_table_npkey(const StoreTable *t) { return t->npkey; }
const int *store_table_pkey(const StoreTable *t) { return t->pkey; }

const StoreColumnDef *store_table_column(const StoreTable *t, int idx)
{
    ERR_ASSERT(idx >= 0 && idx < t->ncols);
    return &t->cols[idx];
}

int store_table_column_index(const StoreTable *t, const char *name)
{
    for (int i = 0; i < t->ncols; i++)
        if (strcmp(t->cols[i].name, name) == 0)
            return i;
    return -1;
}
