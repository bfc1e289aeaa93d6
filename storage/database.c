/*
 * database.c — databases, schemas and the session's current database.
 *
 * Databases: "postgres" (OID 5), "template1" (1) and "template0" (4) always
 * exist; CREATE DATABASE adds one with an OID from the catalog's counter.
 * Database changes are not transactional (PostgreSQL refuses them inside a
 * transaction block): each is logged and committed at once.
 *
 * Schemas belong to a database; every database has "public" and
 * "pg_catalog". CREATE/DROP SCHEMA join the calling thread's transaction:
 * an uncommitted schema is visible to its creator only, an uncommitted drop
 * hides the schema from the dropper only; rollback undoes both. Entries are
 * never removed from the array (a dead flag), so undo entries can name
 * them by index.
 *
 * Everything here lives under store_g.catalog_lock (tables too, catalog.c).
 * Each connection thread has a current database (thread-local); the name
 * based catalog functions resolve in it.
 */
#define STORE_INTERNAL
#include "storage/storage_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/error.h"

#define DB_POSTGRES_OID 5u

typedef struct StoreDb {
    uint32_t oid;
    char name[STORE_NAME_MAX];
    char owner[STORE_NAME_MAX];
    int nsessions;
    bool dead;
} StoreDb;

typedef struct StoreSchema {
    uint32_t dboid;
    char name[STORE_NAME_MAX];
    char owner[STORE_NAME_MAX];
    bool builtin;
    bool dead;
    StoreTxn *create_txn;
    StoreTxn *drop_txn;
} StoreSchema;

static StoreDb *dbs;
static int ndbs, cap_dbs;
static StoreSchema *schemas;
static int nschemas, cap_schemas;
static _Thread_local uint32_t tl_db;      /* 0 = the default database */
static _Thread_local bool tl_attached;

/* Temporary schemas: session number N (PostgreSQL's backend id) names the
 * session's pg_temp_N, taken at its first temporary relation (lowest free
 * number from 1, under catalog_lock) and given back when the session ends
 * with its temporary relations dropped. */
#define TEMP_SLOTS 1024
static bool temp_used[TEMP_SLOTS];                 /* [0] unused */
static _Thread_local int tl_temp_id;               /* 0 = no temp schema yet */
static _Thread_local char tl_temp_name[STORE_NAME_MAX];

static void *grow(void *arr, int *cap, size_t elem)
{
    int n = *cap ? *cap * 2 : 8;
    void *p = realloc(arr, (size_t)n * elem);
    if (!p)
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    *cap = n;
    return p;
}

/* Caller holds catalog_lock exclusively (or is single-threaded). */
static int schema_add(uint32_t dboid, const char *name, const char *owner, bool builtin,
                      StoreTxn *txn)
{
    if (nschemas == cap_schemas)
        schemas = grow(schemas, &cap_schemas, sizeof *schemas);
    StoreSchema *s = &schemas[nschemas];
    memset(s, 0, sizeof *s);
    s->dboid = dboid;
    snprintf(s->name, sizeof s->name, "%s", name);
    snprintf(s->owner, sizeof s->owner, "%s", owner ? owner : "postgres");
    s->builtin = builtin;
    s->create_txn = txn;
    return nschemas++;
}

static void db_add(uint32_t oid, const char *name, const char *owner)
{
    if (ndbs == cap_dbs)
        dbs = grow(dbs, &cap_dbs, sizeof *dbs);
    StoreDb *d = &dbs[ndbs++];
    memset(d, 0, sizeof *d);
    d->oid = oid;
    snprintf(d->name, sizeof d->name, "%s", name);
    snprintf(d->owner, sizeof d->owner, "%s", owner ? owner : "postgres");
    schema_add(oid, "public", d->owner, true, NULL);
    schema_add(oid, "pg_catalog", "postgres", true, NULL);
}

void store__db_init(void)
{
    db_add(DB_POSTGRES_OID, "postgres", "postgres");
    db_add(1, "template1", "postgres");
    db_add(4, "template0", "postgres");
}

void store__db_free(void)
{
    free(dbs);
    dbs = NULL;
    ndbs = cap_dbs = 0;
    free(schemas);
    schemas = NULL;
    nschemas = cap_schemas = 0;
    tl_db = 0;
    tl_attached = false;
    memset(temp_used, 0, sizeof temp_used);
    tl_temp_id = 0;
}

uint32_t store__session_db(void) { return tl_db ? tl_db : DB_POSTGRES_OID; }

static int db_find(const char *name)
{
    for (int i = 0; i < ndbs; i++)
        if (!dbs[i].dead && strcmp(dbs[i].name, name) == 0)
            return i;
    return -1;
}

static int db_find_oid(uint32_t oid)
{
    for (int i = 0; i < ndbs; i++)
        if (!dbs[i].dead && dbs[i].oid == oid)
            return i;
    return -1;
}

/* ---- databases ---- */

void store__db_create_oid(uint32_t oid, const char *name, const char *owner)
{
    pthread_rwlock_wrlock(&store_g.catalog_lock);
    int found = db_find(name);
    if (found >= 0 && store_g.replaying && dbs[found].oid == oid) {
        /* A checkpoint may capture a database whose CREATE record follows
         * in the WAL (created between the two): replaying it again is a no-op. */
        pthread_rwlock_unlock(&store_g.catalog_lock);
        return;
    }
    bool exists = found >= 0;
    ErrJmp jmp;
    if (!exists && ERR_TRY(jmp)) {
        db_add(oid, name, owner);
        err_pop(&jmp);
    } else if (!exists) {
        pthread_rwlock_unlock(&store_g.catalog_lock);
        err_rethrow();
    }
    pthread_rwlock_unlock(&store_g.catalog_lock);
    if (exists)
        err_raise(ERRCODE_DUPLICATE_DATABASE, "database \"%s\" already exists", name);
    store__catalog_bump_oid(oid);
}

/* Log a catalog change in a transaction of its own, committed at once. */
static void log_now(uint8_t type, const void *payload, size_t len)
{
    if (store_g.replaying)
        return;
    StoreTxn *x = store_txn_begin();
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        store__wal_add(x, type, payload, len);
        err_pop(&jmp);
    } else {
        store_txn_rollback(x);
        err_rethrow();
    }
    store_txn_commit(x);
}

/* Payload: u32 oid, name NUL, owner NUL. */
static size_t db_payload(char *buf, size_t cap, uint32_t oid, const char *name, const char *owner)
{
    size_t n = strlen(name) + 1, m = strlen(owner) + 1;
    ERR_ASSERT(4 + n + m <= cap);
    memcpy(buf, &oid, 4);
    memcpy(buf + 4, name, n);
    memcpy(buf + 4 + n, owner, m);
    return 4 + n + m;
}

uint32_t store_database_create(const char *name, const char *owner)
{
    if (!owner)
        owner = "postgres";
    if (strlen(name) >= STORE_NAME_MAX || strlen(owner) >= STORE_NAME_MAX)
        err_raise(ERRCODE_NAME_TOO_LONG, "identifier too long");
    if (store_database_oid(name) != 0)
        err_raise(ERRCODE_DUPLICATE_DATABASE, "database \"%s\" already exists", name);
    uint32_t oid = store__catalog_max_oid();
    store__db_create_oid(oid, name, owner);
    char buf[4 + 2 * STORE_NAME_MAX];
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        log_now(WAL_CREATE_DB, buf, db_payload(buf, sizeof buf, oid, name, owner));
        err_pop(&jmp);
    } else {
        store__db_drop_oid(oid);
        err_rethrow();
    }
    return oid;
}

void store__db_drop_oid(uint32_t oid)
{
    pthread_rwlock_wrlock(&store_g.catalog_lock);
    int i = db_find_oid(oid);
    if (i >= 0)
        dbs[i].dead = true;
    for (int k = 0; k < nschemas; k++)
        if (schemas[k].dboid == oid)
            schemas[k].dead = true;
    pthread_rwlock_unlock(&store_g.catalog_lock);
    /* Its tables: nobody is connected to the database, so nobody uses them;
     * a running checkpoint may be reading them, so wait for it. */
    store__checkpoint_exclude(true);
    StoreTable *t;
    while ((t = store__table_any_in_db(oid)) != NULL)
        store__table_commit_drop(t, 0);
    store__checkpoint_exclude(false);
}

void store_database_drop(const char *name)
{
    pthread_rwlock_rdlock(&store_g.catalog_lock);
    int i = db_find(name);
    uint32_t oid = i >= 0 ? dbs[i].oid : 0;
    int sessions = i >= 0 ? dbs[i].nsessions : 0;
    pthread_rwlock_unlock(&store_g.catalog_lock);
    if (i < 0)
        err_raise(ERRCODE_INVALID_CATALOG_NAME, "database \"%s\" does not exist", name);
    if (tl_attached && tl_db == oid)
        err_raise(ERRCODE_OBJECT_IN_USE, "cannot drop the currently open database");
    if (sessions > 0) {
        ErrorData *e = err_begin(ERRCODE_OBJECT_IN_USE);
        err_message(e, "database \"%s\" is being accessed by other users", name);
        err_detail(e, "There %s %d other session%s using the database.",
                   sessions == 1 ? "is" : "are", sessions, sessions == 1 ? "" : "s");
        err_throw();
    }
    if (oid == DB_POSTGRES_OID && strcmp(name, "postgres") != 0)
        err_raise(ERRCODE_INTERNAL_ERROR, "unexpected database OID");
    store__db_drop_oid(oid);
    log_now(WAL_DROP_DB, &oid, sizeof oid);
}

uint32_t store_database_oid(const char *name)
{
    pthread_rwlock_rdlock(&store_g.catalog_lock);
    int i = db_find(name);
    uint32_t oid = i >= 0 ? dbs[i].oid : 0;
    pthread_rwlock_unlock(&store_g.catalog_lock);
    return oid;
}

const char *store_database_at(int idx, uint32_t *oid)
{
    const char *name = NULL;
    pthread_rwlock_rdlock(&store_g.catalog_lock);
    for (int i = 0, k = 0; i < ndbs && !name; i++) {
        if (dbs[i].dead)
            continue;
        if (k++ == idx) {
            name = dbs[i].name;  /* entries are never freed before store_close */
            if (oid)
                *oid = dbs[i].oid;
        }
    }
    pthread_rwlock_unlock(&store_g.catalog_lock);
    return name;
}

void store_session_set_database(const char *name)
{
    pthread_rwlock_wrlock(&store_g.catalog_lock);
    int i = name ? db_find(name) : -1;
    if (name && i < 0) {
        pthread_rwlock_unlock(&store_g.catalog_lock);
        err_raise(ERRCODE_INVALID_CATALOG_NAME, "database \"%s\" does not exist", name);
    }
    if (tl_attached) {
        int old = db_find_oid(tl_db);
        if (old >= 0)
            dbs[old].nsessions--;
    }
    tl_attached = name != NULL;
    tl_db = name ? dbs[i].oid : 0;
    if (name)
        dbs[i].nsessions++;
    pthread_rwlock_unlock(&store_g.catalog_lock);
}

const char *store_session_database(void)
{
    uint32_t oid = store__session_db();
    const char *name = STORE_DEFAULT_DATABASE;
    pthread_rwlock_rdlock(&store_g.catalog_lock);
    int i = db_find_oid(oid);
    if (i >= 0)
        name = dbs[i].name;
    pthread_rwlock_unlock(&store_g.catalog_lock);
    return name;
}

/* ---- temporary schemas ---- */

/* The session number of "pg_temp_<N>", 0 for any other name. */
static int temp_number(const char *schema)
{
    if (strncmp(schema, "pg_temp_", 8) != 0 || !schema[8] || strlen(schema) > 12)
        return 0;
    int n = 0;
    for (const char *p = schema + 8; *p; p++) {
        if (*p < '0' || *p > '9')
            return 0;
        n = n * 10 + (*p - '0');
    }
    return n;
}

bool store_schema_is_temp(const char *schema)
{
    return schema && (strcmp(schema, "pg_temp") == 0 || temp_number(schema) > 0);
}

/* "pg_temp" (the alias: every session has one, created at its first use),
 * the session's own, a live session's, or any while replaying (the log
 * names the temporary schemas of sessions before a crash). */
static bool temp_schema_exists(const char *schema)
{
    int n = temp_number(schema);
    if (n == 0 || n == tl_temp_id || store_g.replaying)
        return true;
    pthread_rwlock_rdlock(&store_g.catalog_lock);
    bool used = n < TEMP_SLOTS && temp_used[n];
    pthread_rwlock_unlock(&store_g.catalog_lock);
    return used;
}

const char *store_session_temp_schema(bool create)
{
    if (tl_temp_id == 0 && create) {
        pthread_rwlock_wrlock(&store_g.catalog_lock);
        int n = 1;
        while (n < TEMP_SLOTS && temp_used[n])
            n++;
        if (n < TEMP_SLOTS)
            temp_used[n] = true;
        pthread_rwlock_unlock(&store_g.catalog_lock);
        if (n == TEMP_SLOTS)
            err_raise(ERRCODE_TOO_MANY_CONNECTIONS, "too many sessions with temporary tables");
        tl_temp_id = n;
        snprintf(tl_temp_name, sizeof tl_temp_name, "pg_temp_%d", n);
        /* As PostgreSQL's InitTempTableNamespace: what a session before a
         * crash left in this schema goes now (recovery dropped its tables
         * and their sequences, not other sequences of the schema). */
        if (store_seq_in_schema(tl_temp_name, false, NULL, 0) > 0)
            store_session_temp_drop();
    }
    return tl_temp_id ? tl_temp_name : NULL;
}

const char *store__schema_resolve(const char *schema)
{
    if (schema && strcmp(schema, "pg_temp") == 0 && tl_temp_id)
        return tl_temp_name;
    return schema;
}

int store__temp_schemas_live(char (*out)[STORE_NAME_MAX], int max)
{
    int n = 0;
    pthread_rwlock_rdlock(&store_g.catalog_lock);
    for (int i = 1; i < TEMP_SLOTS && n < max; i++)
        if (temp_used[i])
            snprintf(out[n++], STORE_NAME_MAX, "pg_temp_%d", i);
    pthread_rwlock_unlock(&store_g.catalog_lock);
    return n;
}

void store__temp_seq_drop_all(void)
{
    uint32_t saved = tl_db;
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        uint32_t db;
        for (int d = 0; store_database_at(d, &db); d++) {
            tl_db = db;   /* store_seq_in_schema looks in the thread's database */
            for (int n = 1; n < TEMP_SLOTS; n++) {
                char schema[STORE_NAME_MAX];
                snprintf(schema, sizeof schema, "pg_temp_%d", n);
                uint32_t oids[64];
                int k;
                while ((k = store_seq_in_schema(schema, false, oids, 64)) > 0)
                    for (int i = 0; i < k && i < 64; i++)
                        store_seq_drop(oids[i]);
            }
        }
        err_pop(&jmp);
    } else {
        tl_db = saved;
        err_rethrow();
    }
    tl_db = saved;
}

void store__temp_release(void)
{
    if (tl_temp_id == 0)
        return;
    pthread_rwlock_wrlock(&store_g.catalog_lock);
    temp_used[tl_temp_id] = false;
    pthread_rwlock_unlock(&store_g.catalog_lock);
    tl_temp_id = 0;
}

/* ---- schemas ---- */

/* Index of the schema visible to cur in dboid, -1 when none. Lock held. */
static int schema_find(uint32_t dboid, const char *name, const StoreTxn *cur)
{
    for (int i = 0; i < nschemas; i++) {
        StoreSchema *s = &schemas[i];
        if (s->dead || s->dboid != dboid || strcmp(s->name, name) != 0)
            continue;
        if (s->create_txn && s->create_txn != cur)
            continue;
        if (s->drop_txn && s->drop_txn == cur)
            continue;
        return i;
    }
    return -1;
}

bool store__schema_exists_db(uint32_t dboid, const char *schema)
{
    if (store_schema_is_temp(schema))
        return temp_schema_exists(schema);
    StoreTxn *cur = store__txn_current();
    pthread_rwlock_rdlock(&store_g.catalog_lock);
    bool found = schema_find(dboid, schema, cur) >= 0;
    pthread_rwlock_unlock(&store_g.catalog_lock);
    return found;
}

bool store_schema_exists(const char *schema)
{
    return store__schema_exists_db(store__session_db(), schema);
}

const char *store_schema_at(int idx)
{
    uint32_t db = store__session_db();
    StoreTxn *cur = store__txn_current();
    const char *name = NULL;
    pthread_rwlock_rdlock(&store_g.catalog_lock);
    for (int i = 0, k = 0; i < nschemas && !name; i++) {
        if (schema_find(db, schemas[i].name, cur) != i)
            continue;
        if (k++ == idx)
            name = schemas[i].name;
    }
    pthread_rwlock_unlock(&store_g.catalog_lock);
    return name;
}

static void schema_payload(StoreTxn *x, uint8_t type, uint32_t dboid, const char *name,
                           const char *owner)
{
    char buf[4 + 2 * STORE_NAME_MAX];
    store__wal_add(x, type, buf, db_payload(buf, sizeof buf, dboid, name, owner ? owner : ""));
}

void store__schema_create_db(uint32_t dboid, const char *name, const char *owner, StoreTxn *x)
{
    if (strlen(name) >= STORE_NAME_MAX)
        err_raise(ERRCODE_NAME_TOO_LONG, "identifier too long");
    store__undo_push(x, (StoreUndo){.kind = UNDO_CREATE_SCHEMA});  /* room first */
    x->nundo--;
    pthread_rwlock_wrlock(&store_g.catalog_lock);
    bool exists = false;
    for (int i = 0; i < nschemas && !exists; i++)
        exists = !schemas[i].dead && schemas[i].dboid == dboid &&
                 strcmp(schemas[i].name, name) == 0 && schemas[i].drop_txn != x;
    int idx = -1;
    ErrJmp jmp;
    if (!exists && ERR_TRY(jmp)) {
        idx = schema_add(dboid, name, owner, false, x);
        err_pop(&jmp);
    } else if (!exists) {
        pthread_rwlock_unlock(&store_g.catalog_lock);
        err_rethrow();
    }
    pthread_rwlock_unlock(&store_g.catalog_lock);
    if (exists)
        err_raise(ERRCODE_DUPLICATE_SCHEMA, "schema \"%s\" already exists", name);
    store__undo_push(x, (StoreUndo){.kind = UNDO_CREATE_SCHEMA, .from = (uint64_t)idx});
    schema_payload(x, WAL_CREATE_SCHEMA, dboid, name, owner);
    store__catalog_epoch_bump();
}

void store__schema_drop_db(uint32_t dboid, const char *name, StoreTxn *x)
{
    store__undo_push(x, (StoreUndo){.kind = UNDO_DROP_SCHEMA});  /* room first */
    x->nundo--;
    pthread_rwlock_wrlock(&store_g.catalog_lock);
    int idx = schema_find(dboid, name, x);
    if (idx >= 0)
        schemas[idx].drop_txn = x;
    pthread_rwlock_unlock(&store_g.catalog_lock);
    if (idx < 0)
        err_raise(ERRCODE_INVALID_SCHEMA_NAME, "schema \"%s\" does not exist", name);
    store__undo_push(x, (StoreUndo){.kind = UNDO_DROP_SCHEMA, .from = (uint64_t)idx});
    schema_payload(x, WAL_DROP_SCHEMA, dboid, name, NULL);
    store__catalog_epoch_bump();
}

void store__schema_commit(int idx, bool dropped)
{
    pthread_rwlock_wrlock(&store_g.catalog_lock);
    if (dropped)
        schemas[idx].dead = true;
    else
        schemas[idx].create_txn = NULL;
    pthread_rwlock_unlock(&store_g.catalog_lock);
    store__catalog_epoch_bump();   /* plans resolving names through it re-plan */
}

void store__schema_undo(int idx, bool was_drop)
{
    pthread_rwlock_wrlock(&store_g.catalog_lock);
    if (was_drop)
        schemas[idx].drop_txn = NULL;
    else
        schemas[idx].dead = true;
    pthread_rwlock_unlock(&store_g.catalog_lock);
    store__catalog_epoch_bump();
}

/* Run fn inside the caller's transaction, or one of its own. */
#define WITH_TXN(x, body)                                                      \
    do {                                                                        \
        StoreTxn *x = store__txn_current();                                     \
        bool own_ = x == NULL;                                                  \
        if (own_)                                                               \
            x = store_txn_begin();                                              \
        ErrJmp jmp_;                                                            \
        if (ERR_TRY(jmp_)) {                                                    \
            body;                                                               \
            err_pop(&jmp_);                                                     \
        } else {                                                                \
            if (own_)                                                           \
                store_txn_rollback(x);                                          \
            err_rethrow();                                                      \
        }                                                                       \
        if (own_)                                                               \
            store_txn_commit(x);                                                \
    } while (0)

void store_schema_create(const char *name, const char *owner)
{
    uint32_t db = store__session_db();
    WITH_TXN(x, store__schema_create_db(db, name, owner, x));
}

void store_schema_drop(const char *name, bool cascade)
{
    uint32_t db = store__session_db();
    if (strcmp(name, "pg_catalog") == 0)
        err_raise(ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST,
                  "cannot drop schema %s because it is required by the database system", name);
    if (!store_schema_exists(name))
        err_raise(ERRCODE_INVALID_SCHEMA_NAME, "schema \"%s\" does not exist", name);
    const char *first = store__table_name_in_schema(db, name);
    if (first && !cascade) {
        ErrorData *e = err_begin(ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST);
        err_message(e, "cannot drop schema %s because other objects depend on it", name);
        err_detail(e, "table %s.%s depends on schema %s", name, first, name);
        err_hint(e, "Use DROP ... CASCADE to drop the dependent objects too.");
        err_throw();
    }
    WITH_TXN(x, {
        const char *tn;
        while ((tn = store__table_name_in_schema(db, name)) != NULL)
            store_table_drop(name, tn);
        store__schema_drop_db(db, name, x);
    });
}

/* ---- checkpoint iteration ---- */

void store__db_visit(StoreDbVisit dbf, StoreSchemaVisit sch, void *arg)
{
    pthread_rwlock_rdlock(&store_g.catalog_lock);
    for (int i = 0; i < ndbs; i++)
        if (!dbs[i].dead && dbs[i].oid != DB_POSTGRES_OID && dbs[i].oid != 1 && dbs[i].oid != 4)
            dbf(dbs[i].oid, dbs[i].name, dbs[i].owner, arg);
    for (int i = 0; i < nschemas; i++)
        if (!schemas[i].dead && !schemas[i].builtin && !schemas[i].create_txn)
            sch(schemas[i].dboid, schemas[i].name, schemas[i].owner, arg);
    pthread_rwlock_unlock(&store_g.catalog_lock);
}
