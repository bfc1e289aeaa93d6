/*
 * upsert.c — what INSERT ... ON CONFLICT needs from storage beyond point
 * lookups (storage.h, "ON CONFLICT").
 *
 * PostgreSQL makes a conflicting insert wait for the transaction that
 * inserted the conflicting key, then re-checks. Here the upsert first
 * waits for the transactions with open deltas of the table (delta.c: their
 * keys are private until commit), then takes the table's write lock to its
 * end: afterwards another transaction's new key waits for it, and
 * under READ COMMITTED a fresh snapshot makes whatever the writer we waited
 * for committed visible to the probe (store_table_lookup_key). REPEATABLE
 * READ keeps its snapshot; a key committed after it then fails the insert
 * with 23505 (PostgreSQL: 40001).
 */
#define STORE_INTERNAL
#include "storage/storage_int.h"

void store_table_lock_for_upsert(StoreTable *t, StoreTxn *txn)
{
    /* Plain writers keep new keys in private deltas until they commit
     * (delta.c): wait for those open now, then take the lock (a plain
     * writer starting later meets the locked table's keys, or, adding a
     * key this one then inserts, is waited for by the insert). */
    if (txn)
        store__delta_wait_others(t, txn);
    store__txn_acquire_write(txn, t);
    if (txn && txn->iso == STORE_READ_COMMITTED)
        store__txn_take_snapshot(txn);
}
