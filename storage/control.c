/*
 * control.c — the `control` file, and transaction ids that never go
 * backwards.
 *
 * `control` names the current checkpoint generation (recovery.c switches
 * it atomically when a checkpoint is complete) and, since issue 3's second
 * round, a floor for transaction ids:
 *
 *     strata control 1
 *     gen <N>
 *     xid <L>            every transaction id handed out so far is < L
 *
 * (a file without the xid line, written before, reads as L = 0).
 *
 * Transaction ids (StoreTxn.id: txid_current(), xmax marks of running
 * transactions) come from store_g.next_txn_id. PostgreSQL's never go
 * backwards, across restarts and crashes, so clients may compare them and
 * anything stamped with one is never confused with a later transaction's.
 * Here ids are reserved in blocks, as PostgreSQL logs OIDs and sequence
 * values ahead: before an id at or past the durable limit L is handed out,
 * `control` is rewritten with L = next + STORE_XID_BLOCK (temp file, fsync,
 * rename, directory fsync — store__write_file_atomic). The rewrite starts
 * when half the block is used, by whichever begin finds the mutex free, so
 * other begins keep going on the ids still below L; only a begin past L
 * waits for it. A crash therefore restarts at L: ids jump by at most one
 * block, never repeat. A clean store_close writes L = next exactly, so a
 * restart continues with the very next id; checkpoints write the current L
 * along with their generation.
 *
 * Recovery (store__recover) raises next_txn_id to L - 1 before replaying:
 * replayed transactions take ids from there (their marks live only while
 * they replay; rows are stamped with commit sequences, not ids), and once
 * replay is done store__txn_id_start reserves a first block past them.
 */
#define STORE_INTERNAL
#include "storage/storage_int.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "common/error.h"

/* Ids reserved per rewrite of `control`: at most this many are skipped by
 * a crash. A rewrite (two fsyncs and a rename, a few ms, in one begin)
 * comes every half block: at 10,000 transactions per second every ~1.6 s. */
#define STORE_XID_BLOCK (UINT64_C(1) << 15)

static pthread_mutex_t control_mu = PTHREAD_MUTEX_INITIALIZER;
static uint64_t control_gen;         /* under control_mu: the generation on disk */
static _Atomic uint64_t xid_limit;   /* ids below it may be handed out (durable) */
static _Atomic bool xid_on;          /* reservations run (between recovery and close) */

/* control_mu held. Returns 0 or an errno value; never raises. */
static int control_write_locked(uint64_t gen, uint64_t xid)
{
    char text[96];
    int len = snprintf(text, sizeof text, "strata control 1\ngen %llu\nxid %llu\n",
                       (unsigned long long)gen, (unsigned long long)xid);
    int rc = store__write_file_atomic(store_g.data_dir, "control", text, (size_t)len);
    if (rc == 0)
        control_gen = gen;
    return rc;
}

uint64_t store__control_read(uint64_t *xid_out)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/control", store_g.data_dir);
    *xid_out = 0;
    FILE *f = fopen(path, "re");
    if (!f) {
        if (errno == ENOENT)
            return 0;
        err_raise_fatal(ERRCODE_IO_ERROR, "could not open file \"%s\": %s", path, strerror(errno));
    }
    unsigned long long gen = 0, xid = 0;
    int ok = fscanf(f, "strata control 1\ngen %llu\nxid %llu", &gen, &xid);
    fclose(f);
    if (ok < 1 || gen == 0)
        err_raise_fatal(ERRCODE_DATA_CORRUPTED, "invalid control file \"%s\"", path);
    pthread_mutex_lock(&control_mu);
    control_gen = gen;
    pthread_mutex_unlock(&control_mu);
    *xid_out = ok == 2 ? xid : 0;
    return gen;
}

int store__control_write(uint64_t gen)
{
    pthread_mutex_lock(&control_mu);
    int rc = control_write_locked(gen, atomic_load(&xid_limit));
    pthread_mutex_unlock(&control_mu);
    return rc;
}

void store__txn_id_floor(uint64_t xid)
{
    uint64_t cur = atomic_load(&store_g.next_txn_id);
    while (xid > 0 && cur < xid - 1 &&
           !atomic_compare_exchange_weak(&store_g.next_txn_id, &cur, xid - 1))
        ;
    if (atomic_load(&xid_limit) < xid)
        atomic_store(&xid_limit, xid);
}

/* Move the durable limit past id (and every id handed out meanwhile).
 * Only a caller whose id is at or past the limit must wait for it. */
static void xid_reserve(uint64_t id)
{
    bool must = id >= atomic_load(&xid_limit);
    if (must)
        pthread_mutex_lock(&control_mu);
    else if (pthread_mutex_trylock(&control_mu) != 0)
        return;  /* another begin is moving the limit; ours is below it */
    int rc = 0;
    if (atomic_load(&xid_on) && atomic_load(&xid_limit) <= id + STORE_XID_BLOCK / 2) {
        uint64_t want = atomic_load(&store_g.next_txn_id) + STORE_XID_BLOCK;
        rc = control_write_locked(control_gen, want);
        if (rc == 0)
            atomic_store(&xid_limit, want);
    }
    pthread_mutex_unlock(&control_mu);
    if (rc != 0 && id >= atomic_load(&xid_limit))
        err_raise(ERRCODE_IO_ERROR, "could not write file \"%s/control\": %s", store_g.data_dir,
                  strerror(rc));
}

uint64_t store__txn_id_next(void)
{
    uint64_t id = atomic_fetch_add(&store_g.next_txn_id, 1) + 1;
    if (atomic_load(&xid_on) && id + STORE_XID_BLOCK / 2 >= atomic_load(&xid_limit))
        xid_reserve(id);
    return id;
}

void store__txn_id_start(void)
{
    pthread_mutex_lock(&control_mu);
    uint64_t want = atomic_load(&store_g.next_txn_id) + 1 + STORE_XID_BLOCK;
    int rc = control_write_locked(control_gen, want);
    if (rc == 0) {
        atomic_store(&xid_limit, want);
        atomic_store(&xid_on, true);
    }
    pthread_mutex_unlock(&control_mu);
    if (rc != 0)
        err_raise_fatal(ERRCODE_IO_ERROR, "could not write file \"%s/control\": %s",
                        store_g.data_dir, strerror(rc));
}

void store__txn_id_stop(void)
{
    pthread_mutex_lock(&control_mu);
    if (atomic_load(&xid_on)) {
        atomic_store(&xid_on, false);
        /* Exact: the next start continues with the next id. A failed write
         * leaves the reserved limit on disk, larger, so still safe. */
        uint64_t next = atomic_load(&store_g.next_txn_id) + 1;
        if (control_write_locked(control_gen, next) == 0)
            atomic_store(&xid_limit, next);
    }
    pthread_mutex_unlock(&control_mu);
    /* A store opened again in this process starts from the file, as a new
     * process would. */
    atomic_store(&store_g.next_txn_id, 0);
    atomic_store(&xid_limit, 0);
}

uint64_t store__txn_id_limit(void) { return atomic_load(&xid_limit); }
