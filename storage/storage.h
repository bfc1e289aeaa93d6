/*
 * storage.h — tables, the catalog and transactions, as the executor and
 * planner see them.
 *
 * This is the interface the durable columnar LSM store (a later issue)
 * implements; today tables live in memory, in columnar chunks, behind it.
 *
 * Catalog: schemas hold tables; names are case-sensitive here (the parser
 * already folded unquoted identifiers to lower case). The default schema is
 * "public"; "pg_catalog" exists and is empty for now.
 *
 * Scans read chosen columns in batches of up to VEC_CAPACITY rows. Pushed
 * down predicates (StoreZoneFilter) are hints that let the store skip whole
 * chunks; the caller still filters every row it gets.
 *
 * Transactions (in-memory edition): a writer takes the table's write lock
 * at its first append and keeps it to commit/rollback; rows appended in a
 * transaction are visible to it and, after commit, to everyone; rollback
 * truncates them. Readers see the committed prefix plus their own rows.
 * DDL is not transactional yet (documented in storage/README.md).
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
/* Create a role (42710 role "x" already exists); persisted like passwords. */
void store_role_create(const char *name, bool is_superuser, const char *verifier);

#endif
