/*
 * txn.c — transactions and the lock manager of the in-memory store.
 *
 * The model (storage.h): plain INSERT/UPDATE/DELETE write a private delta
 * and claim rows (delta.c) and take a table's write lock only at commit, to
 * append their rows; bulk loads, ON CONFLICT and DDL take it at their first
 * write and keep it to the end. A commit passes it on at its WAL record,
 * while it waits for the flush ("Commit handoff" below). So one transaction
 * at a time appends to a table; readers never wait for writers. Commit
 * publishes the table's new row count; rollback truncates the rows the
 * transaction appended and removes their keys from the pk index.
 *
 * Table locks as PostgreSQL's: a transaction's reference to a table
 * (StoreTxnRef, made by its first scan or write) is its lock, held to its
 * end in every isolation level. DROP TABLE and TRUNCATE take ACCESS
 * EXCLUSIVE (wait_exclusive): queued on the table (excl_txn), they wait
 * until no other transaction holds a reference, then take the write lock.
 * Meanwhile other transactions' first uses of the table queue behind them,
 * while a transaction already holding a reference goes ahead (PostgreSQL
 * lets a holder of a conflicting lock jump the wait queue).
 *
 * Everything shared lives under one mutex, store_g.lock: each table's
 * writer, scan counts and drop state; each transaction's table references
 * (StoreTxnRef: scans open, writing or not, heap mark). Nothing that can
 * raise runs while it is held: allocation happens before, errors after.
 * Waits (for a write lock, for ACCESS EXCLUSIVE, behind a queued one, or
 * for another transaction's end: store__txn_wait_txn, roles and sequences)
 * sleep on one condition variable, broadcast whenever a lock, a scan or a
 * transaction ends, and wake every 100 ms to notice a query cancel — or
 * at the wait's lock_timeout deadline (read from the session's settings at
 * its first sleep; then 55P03, as PostgreSQL's per-wait timer).
 *
 * Savepoints: each reference remembers the savepoint level at which it was
 * made, began writing and got its exclusive lock; ROLLBACK TO releases what
 * came after the savepoint, RELEASE hands it to the enclosing level
 * (PostgreSQL's subtransaction locks).
 *
 * Deadlocks: a waiting transaction records what it waits for; before
 * sleeping it follows "waits for" edges (a writer waits for the table's
 * writer and its exclusive holder or queued requester; a scan for the
 * exclusive holder or requester; an exclusive requester for the writer and
 * every other transaction holding a reference to the table; a role's or
 * sequence's waiter for the transaction with the pending change) and
 * raises 40P01 if they lead back to itself, as PostgreSQL's deadlock
 * detector would (without its one-second delay).
 *
 * StoreTxn structs are pooled, never freed before store_close: a scan that
 * outlives its transaction (a caller bug) compares the txn's generation
 * instead of touching freed memory.
 */
#define STORE_INTERNAL
#include "storage/storage_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "common/error.h"
#include "common/guc.h"

static void free_unused_dropped(StoreTable *t);

/* The transaction most recently begun on this thread: DROP TABLE has no
 * txn argument, and uses it to recognise its own locks and scans. */
static _Thread_local StoreTxn *tl_txn;

static void txn_link_live(StoreTxn *x)
{
    x->prev_live = NULL;
    x->next_live = store_g.live_txns;
    if (store_g.live_txns)
        store_g.live_txns->prev_live = x;
    store_g.live_txns = x;
}

static void txn_unlink_live(StoreTxn *x)
{
    if (x->prev_live)
        x->prev_live->next_live = x->next_live;
    else
        store_g.live_txns = x->next_live;
    if (x->next_live)
        x->next_live->prev_live = x->prev_live;
    x->next_live = x->prev_live = NULL;
}

/* synchronous_commit's server default (the session's value arrives through
 * store_txn_set_synchronous_commit): "off" = don't wait for the flush. */
static bool store__sync_commit_default(void)
{
    if (!guc_canonical_name("synchronous_commit"))
        return true;
    return strcmp(guc_show(NULL, "synchronous_commit"), "off") != 0;
}

StoreTxn *store_txn_begin(void)
{
    /* First: it may raise (control.c rewrites `control` past a block). */
    uint64_t id = store__txn_id_next();
    store__lock();
    StoreTxn *x = store_g.free_txns;
    if (x)
        store_g.free_txns = x->next_free;
    store__unlock();
    if (!x)
        x = store__calloc(1, sizeof *x);
    x->active = true;
    x->thread = pthread_self();
    x->nrefs = 0;
    x->id = id;  /* never goes backwards, across restarts too (control.c) */
    x->iso = STORE_READ_COMMITTED;
    x->sync_commit = store__sync_commit_default();
    x->sync_forced = false;
    x->has_snapshot = x->stmt_started = false;
    x->snapshot = 0;
    x->nundo = x->nsaves = 0;
    x->wal_len = 0;
    x->wal_spill_ok = true;
    x->waiting_on = NULL;
    x->waiting_drop = x->waiting_scan = false;
    x->waiting_for = NULL;
    x->next_free = NULL;
    x->bulk = NULL;
    x->bulk_sealing = false;
    x->guc = NULL;
    store__lock();
    txn_link_live(x);
    store__unlock();
    tl_txn = x;
    return x;
}

/* Room for one more table reference (allocates outside the lock). */
static void txn_ref_reserve(StoreTxn *x)
{
    if (x->nrefs < x->cap_refs)
        return;
    int cap = x->cap_refs ? x->cap_refs * 2 : 8;
    StoreTxnRef *arr = store__calloc((size_t)cap, sizeof *arr);
    store__lock();
    if (x->nrefs)
        memcpy(arr, x->refs, (size_t)x->nrefs * sizeof *arr);
    StoreTxnRef *old = x->refs;
    x->refs = arr;
    x->cap_refs = cap;
    store__unlock();
    free(old);
}

/* Caller holds the lock. */
static StoreTxnRef *txn_ref_find(StoreTxn *x, const StoreTable *t)
{
    for (int i = 0; i < x->nrefs; i++)
        if (x->refs[i].table == t)
            return &x->refs[i];
    return NULL;
}

/* Caller holds the lock and reserved room. */
static StoreTxnRef *txn_ref_get(StoreTxn *x, StoreTable *t)
{
    StoreTxnRef *r = txn_ref_find(x, t);
    if (!r) {
        r = &x->refs[x->nrefs++];
        *r = (StoreTxnRef){.table = t, .level = x->nsaves};
    }
    return r;
}

/* Whether following "waits for" edges from x leads to me. Lock held. */
static bool txn_reaches(StoreTxn *me, StoreTxn *x, uint64_t epoch);

static bool txn_visit(StoreTxn *me, StoreTxn *y, uint64_t epoch)
{
    if (y == me)
        return true;
    if (y->visit == epoch)
        return false;
    y->visit = epoch;
    return txn_reaches(me, y, epoch);
}

/* Whether t's exclusive lock (held, or queued for) makes x wait: always
 * once granted; while queued, unless x already holds a reference (it goes
 * ahead, as in PostgreSQL's lock queue). Lock held. */
static bool excl_blocks(StoreTable *t, StoreTxn *x)
{
    StoreTxn *e = t->excl_txn;
    return e && e != x && (!t->dropping || !txn_ref_find(x, t));
}

static bool txn_reaches(StoreTxn *me, StoreTxn *x, uint64_t epoch)
{
    if (x->waiting_for)   /* a transaction's end: a row it holds, a pending change */
        return x->waiting_for->active && x->waiting_for->id == x->waiting_for_id &&
               txn_visit(me, x->waiting_for, epoch);  /* (the struct may serve a newer one) */
    StoreTable *t = x->waiting_on;
    if (!t)
        return false;
    if (!x->waiting_scan && t->writer && t->writer != x && txn_visit(me, t->writer, epoch))
        return true;
    if (t->trunc_txn && t->trunc_txn != x && txn_visit(me, t->trunc_txn, epoch))
        return true;
    StoreTxn *e = t->excl_txn;
    if (e && e != x && (x->waiting_drop || excl_blocks(t, x)) && txn_visit(me, e, epoch))
        return true;
    if (!x->waiting_drop)
        return false;
    for (StoreTxn *y = store_g.live_txns; y; y = y->next_live)
        if (y != x && txn_ref_find(y, t) && txn_visit(me, y, epoch))
            return true;
    return false;
}

static bool txn_deadlocked(StoreTxn *me)
{
    uint64_t epoch = ++store_g.visit_epoch;
    me->visit = epoch;
    return txn_reaches(me, me, epoch);
}

static bool interrupt_pending(void)
{
    return err_interrupt_flag && atomic_load(err_interrupt_flag) != ERR_INTERRUPT_NONE;
}

void store_txn_set_settings(StoreTxn *x, const GucSet *g) { x->guc = g; }

int store__txn_lock_timeout(const StoreTxn *x)
{
    if (!guc_canonical_name("lock_timeout"))
        return 0;
    return guc_get_int(x ? x->guc : NULL, "lock_timeout");
}

_Noreturn void store__raise_lock_timeout(void)
{
    err_raise(ERRCODE_LOCK_NOT_AVAILABLE, "canceling statement due to lock timeout");
}

static void ts_add_ms(struct timespec *ts, long ms)
{
    ts->tv_sec += ms / 1000;
    ts->tv_nsec += (ms % 1000) * 1000000L;
    if (ts->tv_nsec >= 1000000000L) {
        ts->tv_sec++;
        ts->tv_nsec -= 1000000000L;
    }
}

static bool ts_before(const struct timespec *a, const struct timespec *b)
{
    return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

/* One lock wait of `me`: lock_timeout counts from its first sleep, as
 * PostgreSQL's timer armed when a backend starts sleeping on a lock. */
typedef struct LockWait {
    const StoreTxn *me;
    bool armed;                 /* deadline read (at the first sleep) */
    bool timed;                 /* lock_timeout > 0 */
    struct timespec deadline;
} LockWait;

/* Sleep on the condition variable for at most 100 ms (to notice a cancel),
 * or until the wait's deadline. Lock held. False, without sleeping, once
 * lock_timeout has passed: the caller cleans up, unlocks and raises
 * store__raise_lock_timeout. The setting is read at the first sleep only
 * (not per lock request: UPDATE asks for its table's lock per row). */
static bool txn_sleep(LockWait *w)
{
    struct timespec now, ts;
    clock_gettime(CLOCK_REALTIME, &now);
    if (!w->armed) {
        int ms = store__txn_lock_timeout(w->me);
        w->armed = true;
        w->timed = ms > 0;
        w->deadline = now;
        ts_add_ms(&w->deadline, ms);
    } else if (w->timed && !ts_before(&now, &w->deadline)) {
        return false;
    }
    ts = now;
    ts_add_ms(&ts, 100);
    if (w->timed && ts_before(&w->deadline, &ts))
        ts = w->deadline;
    pthread_cond_timedwait(&store_g.cond, &store_g.lock, &ts);
    return true;
}

static _Noreturn void raise_deadlock(const StoreTable *t)
{
    ErrorData *e = err_begin(ERRCODE_T_R_DEADLOCK_DETECTED);
    err_message(e, "deadlock detected");
    err_detail(e, "Waiting for a lock on relation \"%s\" held by a transaction that waits for this one.",
               t->name);
    err_hint(e, "See server log for query details.");
    err_throw();
}

/* Under store_g.lock: until the commits that passed t's write lock on
 * are published (txn_end broadcasts store_g.cond after each). They never
 * wait for a lock, so this cannot deadlock; as any lock wait it honours
 * cancel, statement_timeout and lock_timeout (released and raised). */
static void wait_published_locked(StoreTxn *me, StoreTable *t)
{
    LockWait w = {.me = me};
    while (t->handoff_seq > atomic_load(&store_g.visible_seq)) {
        if (interrupt_pending()) {
            store__unlock();
            err_check_interrupts();  /* raises 57014 (unless the flag just went) */
            store__lock();
            continue;
        }
        if (!txn_sleep(&w)) {
            store__unlock();
            store__raise_lock_timeout();
        }
    }
}

void store__txn_wait_published(StoreTxn *me, StoreTable *t)
{
    store__lock();
    wait_published_locked(me, t);
    store__unlock();
}

uint64_t store__txn_own_first(const StoreTable *t, const StoreTxn *x)
{
    if (!x || __atomic_load_n(&t->writer, __ATOMIC_RELAXED) != x)
        return UINT64_MAX;
    return t->writer_first;  /* written under the lock by x's own thread */
}

static void acquire_write(StoreTxn *x, StoreTable *t, bool dml);

void store__txn_acquire_write(StoreTxn *x, StoreTable *t)
{
    acquire_write(x, t, false);
    store__delta_flush(t, x);  /* its plain writes so far join the table first (delta.c) */
}
void store__txn_acquire_write_dml(StoreTxn *x, StoreTable *t) { acquire_write(x, t, true); }

static void acquire_write(StoreTxn *x, StoreTable *t, bool dml)
{
    txn_ref_reserve(x);
    LockWait w = {.me = x};
    store__lock();
    for (;;) {
        if (t->dropped || __atomic_load_n(&t->drop_txn, __ATOMIC_RELAXED) == x) {
            store__unlock();
            err_raise(ERRCODE_UNDEFINED_TABLE, "relation \"%s\" does not exist", t->name);
        }
        if ((!t->writer || t->writer == x) && !excl_blocks(t, x))
            break;
        x->waiting_on = t;
        x->waiting_drop = x->waiting_scan = false;
        if (txn_deadlocked(x) || interrupt_pending()) {
            x->waiting_on = NULL;
            store__unlock();
            err_check_interrupts();
            raise_deadlock(t);
        }
        bool slept = txn_sleep(&w);
        x->waiting_on = NULL;
        if (!slept) {
            store__unlock();
            store__raise_lock_timeout();
        }
    }
    StoreTxnRef *r = txn_ref_get(x, t);
    if (!r->writing) {
        r->writing = true;
        r->handed_off = false;
        r->write_level = x->nsaves;
        r->heap_mark = store__heap_mark(&t->heap);
        t->writer_first = atomic_load_explicit(&t->nrows, memory_order_relaxed);
        __atomic_store_n(&t->writer, x, __ATOMIC_RELAXED);
    }
    /* Only now, the lock taken: the wait sleeps (unlocking store_g.lock),
     * and a writer that came meanwhile would otherwise hold it too.
     * Committing predecessors append nothing more; raising here leaves
     * the lock x's until it ends. */
    if (!dml)
        wait_published_locked(x, t);
    store__unlock();
}

/* ---- Commit handoff ----
 * A commit holds its tables' write locks until its rows are published, and
 * publication waits for the WAL flush: one fsync per commit while the next
 * writer of the same table waits (TPC-B's every transaction writes
 * pgbench_accounts). So once the COMMIT record is written — the commit is
 * decided, only its flush and publication are left — the write locks of
 * plain INSERT/UPDATE/DELETE pass on. The next writer appends after the
 * committing rows (its own start at writer_first), and when it meets their
 * marks (an UPDATE of the same row, an INSERT of a key they deleted) waits
 * for that transaction's end (store__txn_wait_mark) and goes on as after
 * any concurrent commit. Its own commit comes later in the WAL, so it is
 * published later: `committed` still grows as a prefix. Bulk loads and
 * TRUNCATE (which install runs or swap generations after the record) and
 * ACCESS EXCLUSIVE holders keep their locks to the end. */
void store__txn_handoff(StoreTxn *x, uint64_t seq)
{
    if (x->bulk)
        return;
    store__lock();
    bool any = false;
    for (int i = 0; i < x->nrefs; i++) {
        StoreTxnRef *r = &x->refs[i];
        StoreTable *t = r->table;
        if (!r->writing || t->writer != x || t->excl_txn == x || t->trunc_txn == x)
            continue;
        r->handed_off = true;
        r->end_row = atomic_load_explicit(&t->nrows, memory_order_relaxed);
        t->handoff_seq = seq;
        __atomic_store_n(&t->writer, NULL, __ATOMIC_RELAXED);
        any = true;
    }
    if (any)
        pthread_cond_broadcast(&store_g.cond);
    store__unlock();
}

void store__txn_scan_register(StoreTxn *x, StoreTable *t)
{
    if (x)
        txn_ref_reserve(x);
    LockWait w = {.me = x};
    store__lock();
    if (t->dropped || (x && __atomic_load_n(&t->drop_txn, __ATOMIC_RELAXED) == x)) {
        store__unlock();
        err_raise(ERRCODE_UNDEFINED_TABLE, "relation \"%s\" does not exist", t->name);
    }
    while (x && ((t->trunc_txn && t->trunc_txn != x) || excl_blocks(t, x))) {
        /* An uncommitted TRUNCATE or DROP holds t exclusively, or one is
         * queued for it and x holds no reference yet (PostgreSQL's
         * ACCESS SHARE waits behind a queued ACCESS EXCLUSIVE). */
        x->waiting_on = t;
        x->waiting_drop = false;
        x->waiting_scan = true;
        if (txn_deadlocked(x) || interrupt_pending()) {
            x->waiting_on = NULL;
            x->waiting_scan = false;
            store__unlock();
            err_check_interrupts();
            raise_deadlock(t);
        }
        bool slept = txn_sleep(&w);
        x->waiting_on = NULL;
        x->waiting_scan = false;
        if (!slept) {
            store__unlock();
            store__raise_lock_timeout();
        }
        if (t->dropped) {
            store__unlock();
            err_raise(ERRCODE_UNDEFINED_TABLE, "relation \"%s\" does not exist", t->name);
        }
    }
    if (x)
        txn_ref_get(x, t)->nscans++;
    else
        t->nscans_notxn++;
    store__unlock();
}

void store__txn_scan_unregister(StoreTxn *x, uint64_t gen, StoreTable *t)
{
    store__lock();
    if (!x) {
        t->nscans_notxn--;
    } else if (x->active && x->gen == gen) {
        StoreTxnRef *r = txn_ref_find(x, t);
        if (r && r->nscans > 0)
            r->nscans--;
    }
    pthread_cond_broadcast(&store_g.cond);
    bool check = t->free_when_unused;
    store__unlock();
    if (check)
        free_unused_dropped(t);
}

/* Whether a transaction other than me scans t. Lock held. */
static bool others_scan(const StoreTable *t, const StoreTxn *me)
{
    for (StoreTxn *y = store_g.live_txns; y; y = y->next_live) {
        if (y == me)
            continue;
        StoreTxnRef *r = txn_ref_find(y, t);
        if (r && r->nscans > 0)
            return true;
    }
    return false;
}

StoreTxn *store__txn_current(void)
{
    StoreTxn *me = tl_txn;
    return me && me->active && pthread_equal(me->thread, pthread_self()) ? me : NULL;
}

static _Noreturn void raise_in_use(const StoreTable *t, const char *verb)
{
    err_raise(ERRCODE_OBJECT_IN_USE,
              "cannot %s \"%s\" because it is being used by active queries in this session", verb,
              t->name);
}

/* Whether a transaction other than me holds a reference to t (a lock to
 * its end: it scanned or wrote t). Lock held. */
static bool others_hold(const StoreTable *t, const StoreTxn *me)
{
    for (StoreTxn *y = store_g.live_txns; y; y = y->next_live)
        if (y != me && txn_ref_find(y, t))
            return true;
    return false;
}

/* What keeps me's exclusive lock on t waiting (nothing: grant it). Queues
 * me on t when no other transaction holds or waits for it. Lock held. */
static bool excl_busy(StoreTxn *me, StoreTable *t)
{
    StoreTxn *e = t->excl_txn;
    if (e && e != me) {
        /* Another DROP or TRUNCATE first. Holding a lock on t (and it none),
         * me goes ahead of it in the queue, as in PostgreSQL's; two
         * holders both queued are a deadlock (the second finds it). */
        if (!t->dropping || !txn_ref_find(me, t) || txn_ref_find(e, t))
            return true;
        t->excl_txn = me;
    }
    if (!t->excl_txn) {   /* (me may hold it already: TRUNCATE, then DROP) */
        t->excl_txn = me;
        t->dropping = true;
    }
    return (t->writer && t->writer != me) || t->nscans_notxn > 0 || others_hold(t, me);
}

/* Leave t's queue after a failed wait (deadlock, cancel, gone). Lock held. */
static void excl_dequeue(StoreTxn *me, StoreTable *t)
{
    me->waiting_on = NULL;
    me->waiting_drop = false;
    if (t->excl_txn == me && t->dropping) {
        t->excl_txn = NULL;
        t->dropping = false;
    }
    pthread_cond_broadcast(&store_g.cond);
}

/* DROP TABLE's and TRUNCATE's ACCESS EXCLUSIVE lock: queued on t, wait
 * until no other transaction holds a reference to t (scanned or wrote it
 * in its still running transaction) and no scan without a transaction
 * reads it; then t's write lock, t->excl_txn granted (others' scans and
 * writes wait until me ends) and, for TRUNCATE, t->trunc_txn = me. */
static void wait_exclusive(StoreTxn *me, StoreTable *t, const char *verb, bool truncate)
{
    txn_ref_reserve(me);
    LockWait w = {.me = me};
    store__lock();
    /* Already granted (TRUNCATE, then DROP): its savepoint level stays. */
    bool held = t->excl_txn == me && !t->dropping;
    for (;;) {
        StoreTxnRef *mine = txn_ref_find(me, t);
        bool gone = t->dropped || __atomic_load_n(&t->drop_txn, __ATOMIC_RELAXED) == me;
        if (gone || (mine && mine->nscans > 0)) {
            excl_dequeue(me, t);
            store__unlock();
            if (!gone)
                raise_in_use(t, verb);
            err_raise(ERRCODE_UNDEFINED_TABLE, "%s \"%s\" does not exist",
                      strcmp(verb, "DROP TABLE") == 0 ? "table" : "relation", t->name);
        }
        if (!excl_busy(me, t))
            break;
        me->waiting_on = t;
        me->waiting_drop = true;
        me->waiting_scan = false;
        if (txn_deadlocked(me) || interrupt_pending()) {
            excl_dequeue(me, t);
            store__unlock();
            err_check_interrupts();
            raise_deadlock(t);
        }
        if (!txn_sleep(&w)) {
            excl_dequeue(me, t);
            store__unlock();
            store__raise_lock_timeout();
        }
        me->waiting_on = NULL;
        me->waiting_drop = false;
    }
    StoreTxnRef *r = txn_ref_get(me, t);
    if (!r->writing) {
        r->writing = true;
        r->handed_off = false;
        r->write_level = me->nsaves;
        r->heap_mark = store__heap_mark(&t->heap);
        t->writer_first = atomic_load_explicit(&t->nrows, memory_order_relaxed);
        __atomic_store_n(&t->writer, me, __ATOMIC_RELAXED);
    }
    if (!held)
        r->excl_level = me->nsaves;
    t->dropping = false;  /* granted: t->excl_txn == me until me ends */
    if (truncate)
        t->trunc_txn = me;
    store__unlock();
}

void store__txn_wait_drop(StoreTxn *me, StoreTable *t)
{
    wait_exclusive(me, t, "DROP TABLE", false);
    store__delta_flush(t, me);  /* its plain writes join the table first (delta.c) */
}

void store__txn_wait_truncate(StoreTxn *me, StoreTable *t)
{
    wait_exclusive(me, t, "TRUNCATE", true);
    store__delta_flush(t, me);
}

void store__txn_wait_alter(StoreTxn *me, StoreTable *t)
{
    wait_exclusive(me, t, "ALTER TABLE", false);
    store__delta_flush(t, me);
}

static _Noreturn void raise_txn_deadlock(void)
{
    ErrorData *e = err_begin(ERRCODE_T_R_DEADLOCK_DETECTED);
    err_message(e, "deadlock detected");
    err_detail(e, "Waiting for a transaction that waits for this one.");
    err_hint(e, "See server log for query details.");
    err_throw();
}

void store__txn_wait_txn(StoreTxn *me, StoreTxn *owner, uint64_t owner_id)
{
    LockWait w = {.me = me};
    store__lock();
    while (owner->active && owner->id == owner_id) {
        if (me) {
            me->waiting_for = owner;
            me->waiting_for_id = owner_id;
            if (txn_deadlocked(me)) {
                me->waiting_for = NULL;
                store__unlock();
                raise_txn_deadlock();
            }
        }
        if (interrupt_pending()) {
            if (me)
                me->waiting_for = NULL;
            store__unlock();
            err_check_interrupts();  /* raises 57014 (unless the flag just went) */
            store__lock();
            continue;
        }
        bool slept = txn_sleep(&w);
        if (me)
            me->waiting_for = NULL;
        if (!slept) {
            store__unlock();
            store__raise_lock_timeout();
        }
    }
    store__unlock();
}

void store__txn_wait_mark(StoreTxn *me, uint64_t mark)
{
    uint64_t id = mark & ~STORE_XMAX_MARK;
    store__lock();
    StoreTxn *owner = store_g.live_txns;
    while (owner && owner->id != id)
        owner = owner->next_live;
    store__unlock();
    if (owner)
        store__txn_wait_txn(me, owner, id);  /* re-checks under the lock: it may be gone */
}

void store__txn_wait_notxn_scans(StoreTable *t)
{
    LockWait w = {.armed = true};   /* a checkpoint's short pin: no lock_timeout */
    store__lock();
    while (t->nscans_notxn > 0)
        txn_sleep(&w);
    store__unlock();
}

/* Whether anybody but `except` uses t (scans or the write lock). Lock held. */
static bool table_in_use(const StoreTable *t, const StoreTxn *except)
{
    return t->nscans_notxn > 0 || (t->writer && t->writer != except) || others_scan(t, except);
}

void store__table_release_dropped(StoreTable *t)
{
    store__lock();
    t->dropped = true;
    bool free_now = !table_in_use(t, t->writer) && !t->data_freed;
    if (!free_now)
        t->free_when_unused = true;
    store__unlock();
    if (free_now)
        store__table_free_data(t);
}

/* A scan or transaction ended: free dropped tables nobody uses any more. */
static void free_unused_dropped(StoreTable *t)
{
    bool free_now = false;
    store__lock();
    if (t->free_when_unused && !t->data_freed && !table_in_use(t, NULL)) {
        t->free_when_unused = false;
        free_now = true;
    }
    store__unlock();
    if (free_now)
        store__table_free_data(t);
}

/* The WAL commit of txn_end (stamps rows, finishes DDL; may raise before
 * any change, then the exclusion ends and the swap is dropped). */
__attribute__((noinline)) static uint64_t txn_commit_wal(StoreTxn *x, StoreTruncSwap *sw,
                                                        bool excl)
{
    uint64_t seq = 0;
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        seq = store__wal_commit(x);
        err_pop(&jmp);
    } else {
        store__truncate_abort(sw);
        if (excl)
            store__checkpoint_exclude(false);
        err_rethrow();
    }
    return seq;
}

static void txn_end(StoreTxn *x, bool commit)
{
    if (!x || !x->active)
        return;
    if (commit) {
        /* Plain writes join their tables (delta.c): a failure there (out
         * of memory) rolls the transaction back. */
        ErrJmp jmp;
        if (ERR_TRY(jmp)) {
            store__delta_flush_all(x);
            err_pop(&jmp);
        } else {
            txn_end(x, false);
            err_rethrow();
        }
        store__bulk_seal(x);  /* bulk loads: run files fsync'd, their records (bulk.c) */
        /* Bulk runs join their tables, TRUNCATE swaps generations: both with
         * checkpoints kept out (they read and install runs), from before the
         * commit until done. */
        bool excl = x->bulk != NULL;
        if (excl)
            store__checkpoint_exclude(true);
        StoreTruncSwap *sw = store__truncate_prepare(x, &excl);  /* may raise */
        uint64_t seq = txn_commit_wal(x, sw, excl);
        store__truncate_swap(sw);
        store__bulk_install(x, seq);
        if (excl)
            store__checkpoint_exclude(false);
    } else {
        store__undo_rollback(x, 0);
        store__bulk_abort(x);  /* bulk run files go */
    }
    store__cat_end(x, commit);  /* catalog_txn.c: entries left (rollback; commit with no WAL) */
    store__delta_end(x);        /* delta.c: private rows and shadows go */
    store__fetch_free(x);       /* mvcc.c: strings store_row_fetch copied */
    x->nundo = x->nsaves = 0;
    x->wal_len = 0;
    store__wal_spill_close(x);
    if (x->wal_cap > (1u << 20)) {
        /* A big load's record buffer: don't keep it with the free txn. */
        free(x->wal);
        x->wal = NULL;
        x->wal_cap = 0;
    }
    if (x->cap_undo > (1 << 16)) {
        /* Same for a big DELETE's undo log (one entry per row, 4.5M rows =
         * 200 MB that would otherwise stay with the free txn). */
        free(x->undo);
        x->undo = NULL;
        x->cap_undo = 0;
    }
    store__lock();
    for (int i = 0; i < x->nrefs; i++) {
        StoreTable *t = x->refs[i].table;
        if (x->refs[i].writing && t->writer == x)  /* else passed on (handoff) */
            __atomic_store_n(&t->writer, NULL, __ATOMIC_RELAXED);
        if (t->excl_txn == x)
            t->excl_txn = NULL;  /* ACCESS EXCLUSIVE ends with its holder */
    }
    txn_unlink_live(x);
    x->active = false;
    x->gen++;
    pthread_cond_broadcast(&store_g.cond);
    store__unlock();
    for (int i = 0; i < x->nrefs; i++)
        if (x->refs[i].table->free_when_unused)
            free_unused_dropped(x->refs[i].table);
    x->nrefs = 0;
    store__lock();
    if (tl_txn == x) {
        /* Fall back to another open transaction of this thread, if any
         * (store_table_append's own short transaction ends inside the
         * caller's). */
        tl_txn = NULL;
        for (StoreTxn *y = store_g.live_txns; y && !tl_txn; y = y->next_live)
            if (pthread_equal(y->thread, pthread_self()))
                tl_txn = y;
    }
    x->next_free = store_g.free_txns;
    store_g.free_txns = x;
    store__unlock();
}

/* RELEASE SAVEPOINT `level`: what was taken inside it now belongs to the
 * enclosing level, as PostgreSQL's subtransaction locks pass to the parent
 * (a later ROLLBACK TO an outer savepoint still releases them). */
void store__txn_refs_release(StoreTxn *x, int level)
{
    store__lock();
    for (int i = 0; i < x->nrefs; i++) {
        StoreTxnRef *r = &x->refs[i];
        if (r->level >= level)
            r->level = level - 1;
        if (r->write_level >= level)
            r->write_level = level - 1;
        if (r->excl_level >= level)
            r->excl_level = level - 1;
    }
    store__unlock();
}

/* ROLLBACK TO savepoint `level`, after the undo log rolled back what came
 * after it: the exclusive locks and write locks granted after it end, and
 * the references made after it go unless a scan still uses them (an open
 * cursor's). A DROP or TRUNCATE waiting for them then goes ahead. */
void store__txn_refs_rollback_to(StoreTxn *x, int level)
{
    int kept = 0;
    store__lock();
    for (int i = 0; i < x->nrefs; i++) {
        StoreTxnRef r = x->refs[i];
        StoreTable *t = r.table;
        bool excl = t->excl_txn == x && !t->dropping;
        if (excl && r.excl_level >= level) {
            t->excl_txn = NULL;
            excl = false;
        }
        if (r.writing && r.write_level >= level) {
            r.writing = false;
            if (t->writer == x)
                __atomic_store_n(&t->writer, NULL, __ATOMIC_RELAXED);
        }
        /* Kept ones move to the front in order; the released ones end up
         * in [kept, n), read below for dropped tables to free. */
        x->refs[i] = r;
        if (r.level < level || r.nscans > 0 || r.writing || excl) {
            x->refs[i] = x->refs[kept];
            x->refs[kept++] = r;
        }
    }
    int n = x->nrefs;
    x->nrefs = kept;
    pthread_cond_broadcast(&store_g.cond);
    store__unlock();
    for (int i = kept; i < n; i++)
        if (x->refs[i].table->free_when_unused)
            free_unused_dropped(x->refs[i].table);
}

void store_txn_commit(StoreTxn *txn) { txn_end(txn, true); }
void store_txn_rollback(StoreTxn *txn) { txn_end(txn, false); }

void store__txn_free_all(void)
{
    /* Open transactions' deltas first, without the lock: freeing a shadow
     * table takes it (store_close: nothing else runs). */
    for (StoreTxn *x = store_g.live_txns; x; x = x->next_live)
        store__delta_discard(x);
    store__lock();
    StoreTxn *x = store_g.live_txns;
    while (x) {
        StoreTxn *next = x->next_live;
        store__bulk_abort(x);  /* an open load's run file (recovery would remove it) */
        for (int i = 0; i < x->nundo; i++)
            if (x->undo[i].kind == UNDO_TRUNCATE)
                store__truncate_undo_free(&x->undo[i]);
        free(x->refs);
        free(x->undo);
        free(x->saves);
        free(x->wal);
        store__wal_spill_close(x);
        store__cat_free(x);   /* catalog_txn.c */
        store__fetch_free(x); /* mvcc.c */
        free(x);
        x = next;
    }
    store_g.live_txns = NULL;
    x = store_g.free_txns;
    while (x) {
        StoreTxn *next = x->next_free;
        store__bulk_abort(x);  /* an open load's run file (recovery would remove it) */
        for (int i = 0; i < x->nundo; i++)
            if (x->undo[i].kind == UNDO_TRUNCATE)
                store__truncate_undo_free(&x->undo[i]);
        free(x->refs);
        free(x->undo);
        free(x->saves);
        free(x->wal);
        store__wal_spill_close(x);
        store__cat_free(x);   /* catalog_txn.c */
        store__fetch_free(x); /* mvcc.c */
        free(x);
        x = next;
    }
    store_g.free_txns = NULL;
    store__unlock();
    tl_txn = NULL;
}
