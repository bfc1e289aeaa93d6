/*
 * upsert.c — what INSERT ... ON CONFLICT needs from storage beyond point
 * lookups (storage.h, "ON CONFLICT").
 *
 * PostgreSQL makes a conflicting insert wait for the transaction that
 * inserted the conflicting key, then re-checks. Here every writer of a
 * table holds the table's write lock until it ends, so taking that lock
 * first *is* the wait: afterwards no other transaction can add a key, and
 * under READ COMMITTED a fresh snapshot makes whatever the writer we waited
 * for committed visible to the probe (store_table_lookup_key). REPEATABLE
 * READ keeps its snapshot; a key committed after it then fails the insert
 * with 23505 (PostgreSQL: 40001).
 */
#define STORE_INTERNAL
#include "storage/storage_int.h"

void store_table_lock_for_upsert(StoreTable *t, StoreTxn *txn)
{
    store__txn_acquire_write(txn, t);
    if (txn && txn->iso == STORE_READ_COMMITTED)
        store__txn_take_snapshot(txn);
}
