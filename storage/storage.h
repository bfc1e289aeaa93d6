/*
 * storage.h — tables, the catalog and transactions, as the executor and
 * planner see them.
 *
 * This is the interface of Strata's durable store (issue 3): a data
 * directory holding the catalog, a write-ahead log and the tables' data;
 * columnar tables (memtable + immutable sorted runs); MVCC transactions.
 * What is implemented today and what is not: storage/README.md ("Status").
 *
 * Catalog: databases hold schemas, schemas hold tables; names are
 * case-sensitive here (the parser already folded unquoted identifiers to
 * lower case). Every database has "public" and "pg_catalog". The name-based
 * functions (store_table_lookup, store_schema_exists, ...) resolve in the
 * calling thread's database (store_session_set_database; default
 * "postgres"). Roles are global (as in PostgreSQL).
 *
 * Scans read chosen columns in batches of up to VEC_CAPACITY rows. Pushed
 * down predicates (StoreZoneFilter) are hints that let the store skip whole
 * chunks; the caller still filters every row it gets.
 *
 * Transactions (MVCC): every row version records the transaction that
 * created it and the one that deleted it; a snapshot decides what a reader
 * sees, so readers never block writers and never see uncommitted rows.
 * READ COMMITTED takes a snapshot per statement (store_txn_statement_begin),
 * REPEATABLE READ one per transaction (at its first statement). A writer
 * that meets a row changed by a concurrent transaction waits for that
 * transaction; then READ COMMITTED gets the row's newest version back to
 * re-evaluate (STORE_WRITE_MOVED), REPEATABLE READ gets 40001.
 * DDL joins the calling thread's transaction (the last one begun on it that
 * is still active) and is undone by its rollback.
 */
#ifndef STRATA_STORAGE_STORAGE_H
#define STRATA_STORAGE_STORAGE_H

#include <stdbool.h>
#include <stdint.h>
#include "common/arena.h"
#include "common/types.h"
#include "common/vector.h"

typedef struct StoreTable StoreTable;
typedef struct StoreTxn StoreTxn;
typedef struct StoreScan StoreScan;

typedef struct StoreColumnDef {
    const char *name;
    SqlType type;
    bool not_null;
    const char *default_text;  /* SQL text of DEFAULT, NULL = none */
} StoreColumnDef;

/* ---- start-up ---- */
/* Open (create if missing) the data directory; raises on failure. */
void store_open(const char *data_dir);
void store_close(void);

/* ---- catalog ---- */
/* NULL when absent. */
StoreTable *store_table_lookup(const char *schema, const char *name);
bool store_schema_exists(const char *schema);
/* Raises 42P07 relation "x" already exists, 3F000 schema does not exist,
 * 42701 column "x" specified more than once. pkey: column indexes or NULL. */
StoreTable *store_table_create(const char *schema, const char *name, int ncols,
                               const StoreColumnDef *cols, int npkey, const int *pkey);
/* Raises 42P01 when absent (callers check IF EXISTS first). Waits for
 * readers/writers of the table to finish. */
void store_table_drop(const char *schema, const char *name);

uint32_t store_table_oid(const StoreTable *t);
const char *store_table_name(const StoreTable *t);
const char *store_table_schema(const StoreTable *t);
int store_table_ncols(const StoreTable *t);
const StoreColumnDef *store_table_column(const StoreTable *t, int idx);
/* Column index by name, -1 when absent. */
int store_table_column_index(const StoreTable *t, const char *name);
int store_table_npkey(const StoreTable *t);
const int *store_table_pkey(const StoreTable *t);

/* ---- transactions ---- */
StoreTxn *store_txn_begin(void);
void store_txn_commit(StoreTxn *txn);
void store_txn_rollback(StoreTxn *txn);

/* ---- reads ---- */
typedef enum StoreCmp { STORE_EQ, STORE_LT, STORE_LE, STORE_GT, STORE_GE, STORE_IS_NULL } StoreCmp;
typedef struct StoreZoneFilter {
    int column;        /* position within the scan's columns */
    StoreCmp cmp;
    Value value;       /* of the column's type */
} StoreZoneFilter;

/* Begin a scan of ncols columns (table column numbers in cols) as seen by txn.
 * Memory for buffers comes from arena. */
StoreScan *store_scan_begin(StoreTable *t, StoreTxn *txn, int ncols, const int *cols,
                            int nfilters, const StoreZoneFilter *filters, MemArena *arena);
/* Fill out (ncols vectors, no selection) with the next up to VEC_CAPACITY rows.
 * Vectors may point into the store's memory (zero copy): valid until the
 * next call. Returns false at the end. */
bool store_scan_next(StoreScan *scan, Batch *out);
void store_scan_end(StoreScan *scan);

/* ---- writes ---- */
/* Append the active rows of batch (columns in table order, types equal to
 * the table's). Strings are copied into the table's memory. Raises 23502
 * for NULL in a NOT NULL column and 23505 for a duplicate primary key. */
void store_table_append(StoreTable *t, StoreTxn *txn, const Batch *batch);
/* Rows visible to txn (for EXPLAIN estimates and count(*) shortcuts). */
uint64_t store_table_row_count(StoreTable *t, StoreTxn *txn);

/* ---- roles ---- */
/* The superuser "postgres" always exists. Copies the role's password
 * verifier ("SCRAM-SHA-256$..." or "md5<32 hex>", "" = no password) into
 * verifier; false when the role does not exist. */
bool store_role_get(const char *name, bool *is_superuser, char *verifier, size_t verifier_size);
/* Raises 42704 role "x" does not exist. verifier "" removes the password.
 * Persisted in the data directory (survives restarts). */
void store_role_set_password(const char *name, const char *verifier);

/* ---- additions (storage engineer) ---- */
/* The open data directory (NULL when closed). */
const char *store_data_dir(void);
/* Table by OID (plans cached across DDL can re-check theirs); NULL when absent. */
StoreTable *store_table_lookup_oid(uint32_t oid);
/* Whether t was dropped (a plan holding the pointer must re-plan). */
bool store_table_is_dropped(const StoreTable *t);
/* Row groups skipped so far by the scan's zone maps (EXPLAIN ANALYZE, tests). */
uint64_t store_scan_groups_skipped(const StoreScan *scan);
/* Parallel scans (issue 7): store_scan_share, before the scan's first
 * batch, makes it hand out its rows in morsels of 64K rows taken from a
 * shared counter; store_scan_clone makes another scan of the same
 * snapshot, columns and zone filters, to be read on another thread (each
 * scan by one thread at a time): `shared`, it takes morsels from the same
 * counter (each row is read by exactly one of the sharers, in no
 * particular order across them); otherwise it reads every row itself from
 * the first. A clone is ended with store_scan_end before its original. */
void store_scan_share(StoreScan *scan, MemArena *arena);
StoreScan *store_scan_clone(const StoreScan *scan, MemArena *arena, bool shared);
/* Rows the scan has yet to read: those of the row groups its zone filters
 * do not exclude (before visibility). One pass over the groups' zone maps. */
uint64_t store_scan_rows_left(const StoreScan *scan);
/* Create a role (42710 role "x" already exists); persisted like passwords. */
void store_role_create(const char *name, bool is_superuser, const char *verifier);

/* ---- group summaries (scan_summary.c, issue 7) ---- */
/* What one column of a row group holds, from its zone map: exact when
 * returned by store_scan_next_summary. min/max are set when has_value and
 * are the values as int64 (integer-like columns only: bool, int2, int4,
 * int8 and the types stored like them; the caller decides which types
 * order like their integers). */
typedef struct StoreColSummary {
    uint32_t null_count;
    bool has_value;
    int64_t min, max;
} StoreColSummary;
typedef enum StoreSummaryKind {
    STORE_SUMMARY_END,    /* no more rows */
    STORE_SUMMARY_GROUP,  /* *rows and sums[] describe the next group's visible rows */
    STORE_SUMMARY_ROWS,   /* the next rows are in out, as from store_scan_next */
} StoreSummaryKind;
/* The next row group of a scan without zone filters, as a summary when that
 * is exact without reading rows: every row of the group is visible to the
 * scan (no deleted row, none outside the snapshot), and, when a column's
 * zone_cols[i] asks for its summary, the group is full and its zone maps
 * were never widened by rolled-back rows. sums has the scan's ncols entries
 * (only asked ones are filled). Otherwise the rows, as store_scan_next
 * would give them. Cold data is never decoded for a summarised group.
 * The first call may instead tell the table's run of n final groups at
 * once (*rows = n * 2048, their merged zone maps; storage/README.md "Group
 * summaries"), then n - 1 calls give empty summaries (rows 0, no value,
 * no NULL), so that a caller counting summaries counts groups. */
StoreSummaryKind store_scan_next_summary(StoreScan *scan, const bool *zone_cols, uint32_t *rows,
                                         StoreColSummary *sums, Batch *out);

/* ================= issue 3: the durable store's additions ================= */

/* ---- maintenance ---- */
/* Flush every table's committed rows to the data files and trim the WAL
 * (CHECKPOINT). Also run automatically when the WAL grows past
 * STORE_WAL_CHECKPOINT_BYTES. Raises 58030 on I/O failure. */
void store_checkpoint(void);
#define STORE_WAL_CHECKPOINT_BYTES (64u << 20)
/* Change that threshold (PostgreSQL's max_wal_size, in bytes); 0 turns
 * automatic checkpoints off (benchmarks that keep a table in memory). */
void store_set_checkpoint_wal_bytes(uint64_t bytes);
/* VACUUM: compact t's data (NULL = every table): row versions no snapshot
 * can see any more are dropped, overlapping runs merged. */
void store_vacuum(StoreTable *t);

/* ---- databases ---- */
#define STORE_DEFAULT_DATABASE "postgres"
/* Create a database (42P04 database "x" already exists); durable at return.
 * Not transactional: the executor refuses it inside a transaction block
 * (25001), as PostgreSQL. Returns its OID. */
uint32_t store_database_create(const char *name, const char *owner);
/* Drop a database and everything in it: 3D000 database "x" does not exist,
 * 55006 database "x" is being accessed by other users (a session is attached)
 * and 55006 cannot drop the currently open database (the caller's own). */
void store_database_drop(const char *name);
/* OID of a database, 0 when absent. */
uint32_t store_database_oid(const char *name);
/* Name of the i-th database (for \l / pg_database); NULL past the end. */
const char *store_database_at(int idx, uint32_t *oid);
/* Attach the calling thread (one connection) to a database: the name-based
 * catalog functions then resolve in it. Raises 3D000 database "x" does not
 * exist (the protocol sends it as FATAL). Detach with
 * store_session_set_database(NULL) when the connection ends. */
void store_session_set_database(const char *name);
/* The calling thread's database (STORE_DEFAULT_DATABASE when never set). */
const char *store_session_database(void);

/* ---- schemas (in the session's database; transactional) ---- */
/* 42P06 schema "x" already exists. */
void store_schema_create(const char *name, const char *owner);
/* 3F000 schema "x" does not exist; without cascade, 2BP01 cannot drop schema
 * x because other objects depend on it (when it holds tables); with cascade
 * its tables are dropped too. "pg_catalog" → 2BP01 (required by the database system). */
void store_schema_drop(const char *name, bool cascade);
/* Name of the i-th schema of the session's database; NULL past the end. */
const char *store_schema_at(int idx);

/* ---- temporary schemas (database.c, catalog.c) ----
 * A session's temporary relations live in its schema pg_temp_N (N: the
 * session's number, PostgreSQL's backend id, taken at its first temporary
 * relation); "pg_temp" is the session's own in every name-based function
 * (lookups, creation). Such a relation is never logged nor checkpointed
 * (its rows live in memory only, transactional through the undo log) and
 * lives only as long as its session: dropped when the session ends
 * (store_session_temp_end) and at the end of recovery. Other sessions'
 * temporary relations are listed (pg_class) but never found through
 * search_path, which lists only the session's own. */
/* "pg_temp" or "pg_temp_<N>". */
bool store_schema_is_temp(const char *schema);
/* The calling session's pg_temp_N; NULL when it has none (create: take one
 * now; 53300 when every number is taken). Valid until the session ends. */
const char *store_session_temp_schema(bool create);
/* DISCARD TEMP: drop the session's temporary relations (and their
 * sequences) in the calling thread's transaction, or one of its own. */
void store_session_temp_drop(void);
/* Session end: store_session_temp_drop in a transaction of its own, then
 * the session's number is free again. Call with no transaction open. */
void store_session_temp_end(void);
/* How many lookups by name (store_table_lookup, store_view_lookup,
 * store_relation_lookup) on the calling thread have found a temporary
 * relation so far: compared before and after planning a query, whether it
 * names one (CREATE VIEW: PostgreSQL's isQueryUsingTempRelation). */
uint64_t store_temp_lookups(void);

/* ---- roles (global, durable, transactional: storage/roles.c) ---- */
/* Attributes of a role. In store_role_alter, -1 / NULL fields stay as they
 * are; in store_role_create_ex they take PostgreSQL's defaults (no
 * superuser, no login unless the caller says so). */
typedef struct StoreRoleAttrs {
    int superuser;         /* 1, 0, -1 = unchanged/default */
    int login;
    int createdb;
    int createrole;
    const char *verifier;  /* "SCRAM-SHA-256$..." / "md5..." ; "" = no password; NULL = unchanged */
} StoreRoleAttrs;
/* 42710 role "x" already exists. The verifier is stored, never a clear password. */
void store_role_create_ex(const char *name, const StoreRoleAttrs *attrs);
/* 42704 role "x" does not exist. */
void store_role_alter(const char *name, const StoreRoleAttrs *attrs);
/* 42704 role "x" does not exist; 55006 for the bootstrap superuser "postgres"
 * (the executor refuses the current/session user itself). */
void store_role_drop(const char *name);
/* Full attributes (verifier copied into verifier/verifier_size, may be NULL);
 * false when absent. */
bool store_role_get_attrs(const char *name, StoreRoleAttrs *attrs, char *verifier,
                          size_t verifier_size);
/* Name of the i-th role (pg_roles); NULL past the end. */
const char *store_role_at(int idx);
/* pg_authid's idx-th row as the calling thread's transaction's snapshot
 * sees it (PostgreSQL's catalog views read with the transaction's
 * snapshot: under REPEATABLE READ a role created after it is absent, a
 * dropped one still listed, attributes as they were then; the
 * transaction's own changes shown): its name (valid until store_close)
 * and attributes (verifier NULL); NULL past the end. store_role_at and
 * store_role_get_attrs read the latest committed state instead, as
 * PostgreSQL's name lookups and permission checks do. */
const char *store_role_snapshot_at(int idx, StoreRoleAttrs *attrs);

/* ---- transactions ---- */
typedef enum StoreIsolation {
    STORE_READ_COMMITTED,
    STORE_REPEATABLE_READ,  /* SERIALIZABLE maps here (as snapshot isolation) */
} StoreIsolation;
/* Set the isolation level; only before the transaction's first statement
 * (else 25001 SET TRANSACTION ISOLATION LEVEL must be called before any query). */
void store_txn_set_isolation(StoreTxn *txn, StoreIsolation iso);
StoreIsolation store_txn_isolation(const StoreTxn *txn);
/* Read-only (issue 6, txid_current): the transaction's id — fixed for its
 * life, larger for every later begin, across restarts and crashes too
 * (storage/control.c) — and whether it has written anything yet. */
uint64_t store_txn_id(const StoreTxn *txn);
bool store_txn_has_writes(const StoreTxn *txn);
/* synchronous_commit for this transaction (default on): when false, COMMIT
 * returns once its WAL records are written, without waiting for the fsync
 * (a crash may lose it, never half of it). */
void store_txn_set_synchronous_commit(StoreTxn *txn, bool on);
/* The session's settings the store reads while txn runs (NULL: the server
 * defaults): lock_timeout (ms, 0 = none) at every lock wait — a wait longer
 * than it raises 55P03 canceling statement due to lock timeout. g must
 * outlive txn. */
struct GucSet;
void store_txn_set_settings(StoreTxn *txn, const struct GucSet *g);
/* How the executor numbers schemas (pg_namespace.oid), for the store's
 * errors that show one: a second CREATE of a name whose first creator
 * committed meanwhile (23505, "Key (typname, typnamespace)=(t, 2200) ..."). */
void store_set_namespace_oid_fn(uint32_t (*fn)(const char *schema));
/* Start of a statement: READ COMMITTED takes a fresh snapshot; REPEATABLE
 * READ takes its snapshot at the first statement and keeps it. Scans begun
 * without a statement having started take a snapshot at store_scan_begin
 * (the walking skeleton's behaviour). */
void store_txn_statement_begin(StoreTxn *txn);
/* Savepoints (subtransactions). store_txn_savepoint returns a level (>= 1);
 * release forgets the level and every deeper one, keeping their changes;
 * rollback_to undoes every change made since the level was set (the level
 * stays, as PostgreSQL's ROLLBACK TO). The executor maps names to levels. */
int store_txn_savepoint(StoreTxn *txn);
void store_txn_release(StoreTxn *txn, int level);
void store_txn_rollback_to(StoreTxn *txn, int level);

/* ---- row identity, updates, deletes ---- */
/* In the cols of store_scan_begin, STORE_COL_ROWID asks for each row's
 * locator: an int8 (TYPE_INT8, PHYS_I64) vector, never NULL. A locator
 * names one row version of one table; it stays valid for the transaction. */
#define STORE_COL_ROWID (-1)
typedef enum StoreWriteResult {
    STORE_WRITE_OK,     /* applied */
    STORE_WRITE_GONE,   /* the row was deleted by a concurrent committed transaction
                           (READ COMMITTED: skip it) */
    STORE_WRITE_MOVED,  /* the row was updated by a concurrent committed transaction
                           (READ COMMITTED): *newest is the locator of its newest
                           version; re-read it (store_row_fetch), re-check the
                           WHERE clause and retry with that locator */
} StoreWriteResult;
/* Delete the row version `rowid` (a tombstone: older snapshots still see it).
 * If a concurrent transaction holds it, waits for that transaction (40P01 on
 * deadlock, 57014 on cancel); if it changed the row and committed, READ
 * COMMITTED gets GONE/MOVED, REPEATABLE READ raises 40001 could not serialize
 * access due to concurrent update (also when the change committed after the
 * transaction's snapshot). Deleting a row the transaction itself already
 * deleted/updated returns GONE. */
StoreWriteResult store_row_delete(StoreTable *t, StoreTxn *txn, uint64_t rowid,
                                  uint64_t *newest);
/* Update: delete `rowid` as above, then insert the active row `row` (an
 * index into the vectors) of `values` (every column, table order, the
 * table's types) as its new version. Raises 23502/23505 as
 * store_table_append (a primary-key change to a key already present). */
StoreWriteResult store_row_update(StoreTable *t, StoreTxn *txn, uint64_t rowid,
                                  const Batch *values, uint32_t row, uint64_t *newest);
/* Read columns cols[0..ncols) of the row version `rowid` into row 0 of
 * out's vectors (strings are copies owned by the store: valid until the
 * next fetch into the same out batch or the end of the transaction; without
 * a transaction, until the thread's next fetch into out). Returns false
 * when rowid names no row. Ignores the
 * snapshot (EvalPlanQual re-reads the newest version). */
bool store_row_fetch(StoreTable *t, StoreTxn *txn, uint64_t rowid, int ncols, const int *cols,
                     Batch *out);
/* Point lookup by primary key: key[i] is the value of pkey column i. The
 * locator of the version visible to txn's snapshot, false when none. */
bool store_table_lookup_key(StoreTable *t, StoreTxn *txn, const Value *key, uint64_t *rowid);
/* TRUNCATE: every row goes, transactionally (a rollback restores them): the
 * table is held exclusively until the transaction ends (other transactions'
 * scans wait), and at commit a new, empty generation replaces its rows, index
 * and runs (storage/truncate.c). */
void store_table_truncate(StoreTable *t, StoreTxn *txn);
/* COPY FROM: append a batch as store_table_append does (same checks); a
 * load past 64K rows (into any table with no ADD COLUMN / ADD PRIMARY KEY
 * pending) writes its rows into a run file and logs one small record
 * instead of the rows (storage/bulk.c); a temporary table's rows stay in
 * memory, unlogged, as its INSERTs'. */
void store_table_bulk_load(StoreTable *t, StoreTxn *txn, const Batch *batch);
/* Nothing reads the rows the statement about to run in txn (on this
 * thread) bulk-loads while it runs (a COPY): such a load's written store
 * groups leave memory at once (their non-key data is read from the run:
 * by txn's later statements once store_txn_bulk_end sealed it, by everyone
 * after COMMIT), so its memory does not grow with the rows. Ends with
 * store_txn_bulk_end or txn. */
void store_txn_bulk_unread(StoreTxn *txn);
/* The COPY that called store_txn_bulk_unread finished: its loads are
 * sealed (run files written and fsync'd, their records logged) so txn's
 * later statements read the rows; may raise (I/O, the run writer's error). */
void store_txn_bulk_end(StoreTxn *txn);

/* ---- ALTER TABLE ---- */
/* ADD COLUMN (42701 column "x" of relation "t" already exists). Existing rows
 * read the default (given as a constant value, NULL when none). */
void store_table_add_column(StoreTable *t, StoreTxn *txn, const StoreColumnDef *col,
                            const Value *fill);
/* ADD PRIMARY KEY (42P16 multiple primary keys for table "t" are not
 * allowed; 23505 could not create unique index "t_pkey" when rows collide;
 * 23502 column "a" of relation "t" contains null values). */
void store_table_add_pkey(StoreTable *t, StoreTxn *txn, int npkey, const int *pkey);

/* ---- statistics (ANALYZE) ---- */
typedef struct StoreColumnStats {
    double null_frac;      /* 0..1 */
    double n_distinct;     /* > 0: estimate; < 0: -(fraction of rows), as pg_stats */
    bool has_minmax;       /* fixed-width types only */
    Value min, max;
} StoreColumnStats;
/* ANALYZE t as seen by txn: row count, per column null fraction, distinct
 * estimate, min/max; kept with the table once txn commits (at once when
 * txn is NULL), durable (WAL, checkpoints). */
void store_table_analyze(StoreTable *t, StoreTxn *txn);
/* Statistics of the last ANALYZE; false when never analyzed. *rows the row
 * count then. */
bool store_table_stats(StoreTable *t, int col, StoreColumnStats *out, uint64_t *rows);
/* A counter that grows whenever an ANALYZE's statistics are committed (of
 * any table): a plan made when it was lower may now be chosen differently
 * (protocol/extended.c re-plans a prepared statement then, as PostgreSQL's
 * plan cache after an ANALYZE). */
uint64_t store_stats_epoch(void);
/* A counter that grows whenever the catalog changes in a way a plan may
 * depend on: a table, view, schema or sequence created or dropped, a
 * column or primary key added — at the DDL itself (so the transaction
 * that made it re-plans at once) and again when that transaction commits
 * or rolls back (so every session does). A plan made when it was lower
 * may name a relation that is gone or changed: protocol/extended.c and
 * planner/plan_prepare.c re-plan then, as PostgreSQL's plan cache after
 * the invalidation DDL sends. */
uint64_t store_catalog_epoch(void);

/* ---- plan dependencies (storage/plandeps.c) ----
 * What a plan was made from, so that a cached plan re-plans only when a
 * relation it uses changed (PostgreSQL's per-relation invalidation), not
 * at every DDL or ANALYZE (the epochs above). Between store_deps_begin and
 * store_deps_end the calling thread records every relation its lookups
 * find, by name (store_table_lookup, store_view_lookup,
 * store_relation_lookup) or by OID; store_deps_end adds each one's
 * version (store_relation_version) and copies the record into arena (NULL
 * arena: discard). A name that found nothing is no dependency (as in
 * PostgreSQL). Nested begin/end pairs make one record. After an error
 * while recording, store_deps_abort. */
typedef struct StoreDeps StoreDeps;
void store_deps_begin(void);
StoreDeps *store_deps_end(MemArena *arena);
void store_deps_abort(void);
/* Whether a relation d recorded has another version now (dropped
 * included; NULL d: true), as the calling thread's transaction sees the
 * catalog. */
bool store_deps_changed(const StoreDeps *d);
/* How many relations d recorded (tests). */
int store_deps_count(const StoreDeps *d);
/* A value that changes whenever relation oid changes in a way a plan may
 * depend on — its name, columns, primary key, view text, statistics, a
 * pending CREATE / DROP / ADD COLUMN — and is the same for the same state;
 * 0 when oid names no relation visible to the caller. */
uint64_t store_relation_version(uint32_t oid);

/* ---- sequences (storage/sequence.c; issue 4) ----
 * Relations of their own kind, per database, named in the same namespace as
 * tables. CREATE/ALTER/DROP SEQUENCE join the calling thread's transaction
 * (undone by its rollback, invisible to others until it commits; others'
 * nextval/setval wait while an ALTER or DROP is pending), while
 * nextval/setval are not transactional, as PostgreSQL's.
 * Durable: every change is logged; nextval logs ahead (STORE_SEQ_LOG_VALS
 * values per WAL record, as PostgreSQL's SEQ_LOG_VALS), so no value is ever
 * handed out twice, across restarts and crashes. */
#define STORE_SEQ_LOG_VALS 32
typedef struct StoreSeqDef {
    uint32_t type_oid;        /* TYPE_INT2 / TYPE_INT4 / TYPE_INT8 */
    int64_t start, increment, min_value, max_value, cache;
    bool cycle;
    uint32_t owner_table;     /* OWNED BY / serial / identity: table OID, 0 = none */
    int owner_col;            /* its column index */
    char identity;            /* owned identity sequence: 'a' ALWAYS, 'd' BY DEFAULT, 0 = not */
} StoreSeqDef;
typedef struct StoreSeqInfo {
    uint32_t oid;
    char schema[64], name[64];
    StoreSeqDef def;
    int64_t last_value, log_cnt;
    bool is_called;
} StoreSeqInfo;
/* Create in the session's database: 42P07 relation "s" already exists (a
 * table or sequence of that name), 3F000 schema does not exist. Returns the
 * OID. The definition is not validated here (the executor does PostgreSQL's
 * checks first). */
uint32_t store_seq_create(const char *schema, const char *name, const StoreSeqDef *def);
/* OID of schema.name in the session's database, 0 when absent. */
uint32_t store_seq_lookup(const char *schema, const char *name);
/* Definition and state; false when oid names no (live) sequence. */
bool store_seq_info(uint32_t oid, StoreSeqInfo *out);
/* Replace the definition; restart: last_value = restart_value, is_called false. */
void store_seq_alter(uint32_t oid, const StoreSeqDef *def, bool restart, int64_t restart_value);
void store_seq_drop(uint32_t oid);
/* ALTER SEQUENCE in the caller's transaction: rewrite = an option other
 * than OWNED BY was given, so a rollback also restores the state
 * (last_value, is_called) as it was before, as PostgreSQL's new relfilenode;
 * without it only the definition goes back. store_seq_alter = rewrite. */
void store_seq_alter_ex(uint32_t oid, const StoreSeqDef *def, bool restart, int64_t restart_value,
                        bool rewrite);
/* The next n values into out (logged ahead before they are returned);
 * 2200H nextval: reached maximum/minimum value of sequence "s" (N). Sets
 * the calling thread's (session's) currval of oid and lastval. */
void store_seq_nextval(uint32_t oid, uint32_t n, int64_t *out);
/* setval: 22003 setval: value N is out of bounds for sequence "s" (a..b). */
void store_seq_setval(uint32_t oid, int64_t value, bool is_called);
/* The session's (thread's) last value of oid / of any sequence; false when none yet. */
bool store_seq_currval(uint32_t oid, int64_t *value);
bool store_seq_lastval(uint32_t *oid, int64_t *value);
/* DISCARD SEQUENCES: forget the session's currval/lastval values. */
void store_seq_discard_session(void);
/* Sequences owned by table_oid (serial, identity, OWNED BY) into oids (at
 * most max); returns how many there are. */
int store_seq_owned_by(uint32_t table_oid, uint32_t *oids, int max);
/* Sequences of the session database's schema (unowned_only: not owned by a
 * table column) into oids (at most max); returns how many there are. */
int store_seq_in_schema(const char *schema, bool unowned_only, uint32_t *oids, int max);

/* Take t's write lock for txn now (waiting for the writer holding it):
 * txn's writes to t then go straight to the table instead of through a
 * private delta (storage/delta.c), and other transactions' commits that
 * wrote t wait for txn's end. What a transaction does by itself once its
 * delta of t passes STORE_DELTA_ESCALATE_ROWS rows (a bulk INSERT). */
void store_table_lock_write(StoreTable *t, StoreTxn *txn);

/* ---- ON CONFLICT (storage/delta.c; issue 4) ---- */
/* The rows of a batch whose key a live row holds: their batch rows, the
 * locators of those rows, and whether txn's snapshot does not see them
 * (committed after it), in the batch's order. */
typedef struct StoreConflicts {
    uint32_t count;
    uint16_t rows[VEC_CAPACITY];
    uint64_t ids[VEC_CAPACITY];
    bool unseen[VEC_CAPACITY];
} StoreConflicts;
/* INSERT ... ON CONFLICT's insert, PostgreSQL's speculative insertion: the
 * rows of b whose key no live row holds are appended as store_table_append
 * appends them; a row whose key a live row holds — txn's own, or a
 * committed one, also one committed after txn's snapshot — is not, and
 * goes to *cf with that row's locator (readable with store_row_fetch). A
 * key that an open transaction holds (inserted, or its row deleted) is
 * waited for first, as PostgreSQL waits for a conflicting inserter; its
 * end decides. Row-level: no table write lock is taken, other keys never
 * wait. The batch's keys must be distinct. */
void store_table_insert_or_conflict(StoreTable *t, StoreTxn *txn, const Batch *b, StoreConflicts *cf);

/* ---- catalog listing for pg_catalog (catalog_list.c; read-only) ---- */
/* A table as the virtual catalog tables show it; everything in the arena. */
typedef struct StoreRelInfo {
    uint32_t oid;
    const char *schema;
    const char *name;
    int ncols;
    const StoreColumnDef *cols;
    int npkey;
    const int *pkey;           /* column indexes of the primary key */
    const char *pkey_name;     /* NULL without a primary key */
    uint64_t rows;             /* committed row versions (an estimate) */
    const char *view_sql;      /* a view's query text; NULL for a table */
} StoreRelInfo;
typedef struct StoreSchemaInfo {
    const char *name;
    const char *owner;
} StoreSchemaInfo;
typedef struct StoreDatabaseInfo {
    uint32_t oid;
    const char *name;
    const char *owner;
} StoreDatabaseInfo;
/* The tables / schemas of the session's database visible to the calling
 * thread (its own uncommitted DDL included), tables in OID order; and every
 * database. Copied into arena; return the count. */
int store_catalog_tables(MemArena *arena, StoreRelInfo **out);
int store_catalog_schemas(MemArena *arena, StoreSchemaInfo **out);
int store_catalog_databases(MemArena *arena, StoreDatabaseInfo **out);

/* ---- views (catalog.c): relations with columns, no rows, and the SQL text
 * of their query; durable and transactional like tables, in the same
 * namespace (a table and a view cannot share a name: 42P07). ---- */
StoreTable *store_view_create(const char *schema, const char *name, int ncols,
                              const StoreColumnDef *cols, const char *sql);
/* NULL when absent (store_table_lookup never returns a view). */
StoreTable *store_view_lookup(const char *schema, const char *name);
/* A table or a view (catalog functions, regclass); NULL when absent. */
StoreTable *store_relation_lookup(const char *schema, const char *name);
const char *store_view_sql(const StoreTable *t);   /* NULL for a table */
/* Raises 42P01 when absent. */
void store_view_drop(const char *schema, const char *name);

#endif
