/*
 * catalog_list.c — read-only enumeration of the catalog for the pg_catalog
 * and information_schema virtual tables (executor/op_catalog.c): the tables,
 * schemas, databases and roles the calling thread can see, copied into the
 * caller's arena.
 *
 * Why a separate file: catalog.c and database.c own the catalog arrays and
 * their locking; this file only reads through what they already export to
 * storage/ (store__table_visit, store__db_visit, store_schema_at, ...) plus
 * the global list of table headers, so it cannot disturb them.
 *
 * Locking: the table pointers are collected under store_g.catalog_lock
 * (shared) into a fixed buffer, with nothing that can raise inside; the
 * strings are copied into the arena after the lock is released. Table
 * headers are never freed before store_close, so the pointers stay valid.
 */
#define STORE_INTERNAL
#include "storage/storage_int.h"

#include <stdlib.h>
#include <string.h>
#include "common/error.h"

#define LIST_MAX_TABLES 4096

typedef struct TableCollect {
    uint32_t dboid;
    StoreTxn *cur;
    uint64_t snap;     /* the caller's snapshot: tables as they were then */
    StoreTable **out;
    int n;
    int max;
    bool overflow;
} TableCollect;

/* Callback of store__table_visit: runs under catalog_lock, never raises. */
static void collect_table(StoreTable *t, void *arg)
{
    TableCollect *c = arg;
    if (t->dboid != c->dboid || (t->drop_txn && t->drop_txn == c->cur) || t->create_seq > c->snap)
        return;
    if (c->n >= c->max) {
        c->overflow = true;
        return;
    }
    c->out[c->n++] = t;
}

static int by_oid(const void *a, const void *b)
{
    uint32_t x = (*(StoreTable *const *)a)->oid, y = (*(StoreTable *const *)b)->oid;
    return x < y ? -1 : x > y;
}

/* A table not in the catalog that the caller lists: its own uncommitted
 * CREATE, or one whose DROP committed after the caller's snapshot (its
 * header stays until store_close; its schema must still exist). */
static bool listed_outside_catalog(const TableCollect *c, const StoreTable *t)
{
    if (t->dboid != c->dboid)
        return false;
    if (c->cur && t->create_txn == c->cur)
        return !t->dropped;
    return t->drop_seq > c->snap && t->create_seq <= c->snap && !t->create_txn;
}

/* The tables of the session's database as the calling thread's snapshot
 * has them, as PostgreSQL's pg_class under REPEATABLE READ: committed ones
 * (store__table_visit) created at or before the snapshot, ones dropped
 * after it, plus its own uncommitted CREATEs. Names, columns and keys are
 * the latest (an ALTER after the snapshot shows). Without a transaction:
 * the latest committed state. */
static int collect_tables(StoreTable **buf, int max)
{
    StoreTxn *cur = store__txn_current();
    TableCollect c = {store__session_db(), cur, cur ? store__txn_snapshot(cur) : UINT64_MAX,
                      buf, 0, max, false};
    store__table_visit(collect_table, &c);
    int dropped_from = c.n;
    pthread_rwlock_rdlock(&store_g.catalog_lock);
    for (StoreTable *t = store_g.all_tables; t; t = t->next_all)
        if (listed_outside_catalog(&c, t)) {
            if (c.n >= max) {
                c.overflow = true;
                break;
            }
            buf[c.n++] = t;
        }
    pthread_rwlock_unlock(&store_g.catalog_lock);
    /* A dropped table whose schema went too is not listed (its own
     * creates keep their schema). */
    int kept = dropped_from;
    for (int i = dropped_from; i < c.n; i++)
        if ((cur && buf[i]->create_txn == cur) || store_schema_exists(buf[i]->schema))
            buf[kept++] = buf[i];
    c.n = kept;
    if (c.overflow)
        err_raise(ERRCODE_PROGRAM_LIMIT_EXCEEDED, "too many tables to list (at most %d)", max);
    qsort(buf, (size_t)c.n, sizeof *buf, by_oid);
    return c.n;
}

int store_catalog_tables(MemArena *arena, StoreRelInfo **out)
{
    StoreTable **buf = mem_alloc(arena, sizeof(StoreTable *) * LIST_MAX_TABLES);
    int n = collect_tables(buf, LIST_MAX_TABLES);
    StoreRelInfo *r = mem_calloc(arena, (size_t)(n > 0 ? n : 1), sizeof *r);
    for (int i = 0; i < n; i++) {
        StoreTable *t = buf[i];
        r[i].oid = t->oid;
        r[i].schema = mem_strdup(arena, t->schema);
        r[i].name = mem_strdup(arena, t->name);
        int ncols = t->ncols;
        r[i].ncols = ncols;
        StoreColumnDef *cols = mem_calloc(arena, (size_t)(ncols > 0 ? ncols : 1), sizeof *cols);
        for (int k = 0; k < ncols; k++) {
            cols[k] = t->cols[k];
            cols[k].name = mem_strdup(arena, t->cols[k].name);
            if (t->cols[k].default_text)
                cols[k].default_text = mem_strdup(arena, t->cols[k].default_text);
        }
        r[i].cols = cols;
        r[i].npkey = t->npkey;
        int *pk = mem_calloc(arena, (size_t)(t->npkey > 0 ? t->npkey : 1), sizeof *pk);
        for (int k = 0; k < t->npkey; k++)
            pk[k] = t->pkey[k];
        r[i].pkey = pk;
        r[i].pkey_name = t->npkey > 0 ? mem_strdup(arena, t->pkey_name) : NULL;
        r[i].rows = atomic_load_explicit(&t->committed, memory_order_acquire);
        r[i].view_sql = t->view_sql ? mem_strdup(arena, t->view_sql) : NULL;
    }
    *out = r;
    return n;
}

/* ---- schemas and databases ---- */

#define LIST_MAX_OWNERS 1024

typedef struct OwnerCollect {
    uint32_t dboid;
    int nschemas, ndbs;
    char schema[LIST_MAX_OWNERS][2][STORE_NAME_MAX];   /* name, owner */
    uint32_t db_oid[LIST_MAX_OWNERS];
    char db_owner[LIST_MAX_OWNERS][STORE_NAME_MAX];
} OwnerCollect;

static void copy_name(char *dst, const char *src)
{
    size_t n = strlen(src);
    if (n >= STORE_NAME_MAX)
        n = STORE_NAME_MAX - 1;
    memcpy(dst, src, n);
    dst[n] = 0;
}

static void owner_db(uint32_t oid, const char *name, const char *owner, void *arg)
{
    OwnerCollect *c = arg;
    (void)name;
    if (c->ndbs >= LIST_MAX_OWNERS)
        return;
    c->db_oid[c->ndbs] = oid;
    copy_name(c->db_owner[c->ndbs++], owner);
}

static void owner_schema(uint32_t dboid, const char *name, const char *owner, void *arg)
{
    OwnerCollect *c = arg;
    if (dboid != c->dboid || c->nschemas >= LIST_MAX_OWNERS)
        return;
    copy_name(c->schema[c->nschemas][0], name);
    copy_name(c->schema[c->nschemas++][1], owner);
}

static OwnerCollect *owners(void)
{
    OwnerCollect *c = calloc(1, sizeof *c);
    if (!c)
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    c->dboid = store__session_db();
    store__db_visit(owner_db, owner_schema, c);
    return c;
}

#define LIST_MAX_TEMP 256

/* The schemas of the session's database, then the temporary schemas of
 * the live sessions (pg_temp_N, owned by the bootstrap superuser as in
 * PostgreSQL, which lists every session's). */
int store_catalog_schemas(MemArena *arena, StoreSchemaInfo **out)
{
    int n = 0;
    while (store_schema_at(n))
        n++;
    char (*temp)[STORE_NAME_MAX] = mem_alloc(arena, sizeof *temp * LIST_MAX_TEMP);
    int ntemp = store__temp_schemas_live(temp, LIST_MAX_TEMP);
    StoreSchemaInfo *s = mem_calloc(arena, (size_t)(n + ntemp + 1), sizeof *s);
    OwnerCollect *c = owners();
    for (int i = 0; i < n; i++) {
        const char *name = store_schema_at(i);
        s[i].name = mem_strdup(arena, name ? name : "");
        s[i].owner = "postgres";
        for (int k = 0; k < c->nschemas; k++)
            if (strcmp(c->schema[k][0], s[i].name) == 0)
                s[i].owner = mem_strdup(arena, c->schema[k][1]);
    }
    free(c);
    for (int i = 0; i < ntemp; i++)
        s[n++] = (StoreSchemaInfo){temp[i], "postgres"};
    *out = s;
    return n;
}

int store_catalog_databases(MemArena *arena, StoreDatabaseInfo **out)
{
    int n = 0;
    uint32_t oid;
    while (store_database_at(n, &oid))
        n++;
    StoreDatabaseInfo *d = mem_calloc(arena, (size_t)(n > 0 ? n : 1), sizeof *d);
    OwnerCollect *c = owners();
    for (int i = 0; i < n; i++) {
        const char *name = store_database_at(i, &oid);
        d[i].oid = oid;
        d[i].name = mem_strdup(arena, name ? name : "");
        d[i].owner = "postgres";
        for (int k = 0; k < c->ndbs; k++)
            if (c->db_oid[k] == oid)
                d[i].owner = mem_strdup(arena, c->db_owner[k]);
    }
    free(c);
    *out = d;
    return n;
}
