/*
 * sequence.c — sequences: CREATE/ALTER/DROP SEQUENCE, nextval, setval,
 * currval/lastval, durable and not transactional (storage.h "sequences").
 *
 * State. A process-wide array of StoreSeq (per database by dboid, named in
 * the session database's schemas). Each sequence has a mutex `mu` over its
 * live state (last_value, log_cnt, is_called: PostgreSQL's sequence tuple)
 * and a second, never-blocking mutex `logmu` over its *durable image*: the
 * definition and the state a restart resumes from. Dropped sequences stay
 * allocated (dead) until the next store_open, so a caller holding a pointer
 * never touches freed memory.
 *
 * Log ahead, as PostgreSQL's nextval_internal: when the values logged ahead
 * run out (durable_left), nextval logs a state STORE_SEQ_LOG_VALS values
 * further than the last one it hands out (32 per value for a batch of n, so
 * a bulk load logs about once per 32 batches), then counts those down
 * without logging. The WAL_SEQUENCE record is committed (and fsync'd,
 * synchronous commit) in a transaction of its own *before* the values are
 * returned, so a crash can only skip values, never repeat them. A batch of
 * n values costs one lock and at most one log write. log_cnt, which `SELECT
 * * FROM seq` shows, follows PostgreSQL's arithmetic exactly (one value per
 * call, CACHE 1); for single calls the records are PostgreSQL's too.
 *
 * Checkpoints. store__seq_checkpoint runs while commits are held back and
 * takes only `logmu`; nextval may hold `mu` while its log commit waits for
 * the checkpoint, so the checkpoint must never wait for `mu`. Ordering that
 * makes this safe: the durable image is raised *before* the record is
 * committed; a checkpoint capturing it early only skips more values.
 * Creation inserts into the array before logging and drop removes before
 * logging; replay is idempotent (create = create or replace, drop of an
 * absent sequence is nothing).
 *
 * WAL_SEQUENCE payload: u8 op, u32 oid, then
 *   'c' (create or replace): u32 dboid, str schema, str name, u32 type,
 *       i64 start, increment, min, max, cache, u8 cycle, u32 owner table,
 *       i32 owner column, u8 identity, i64 last_value, u8 is_called
 *   's' (state): i64 last_value, u8 is_called
 *   'd' (drop): nothing
 * (str = u32 length | bytes.)
 *
 * Session state (currval, lastval) is thread-local: one connection is one
 * thread. PostgreSQL's per-session CACHE is not implemented: CACHE is kept
 * in the definition, every session takes values one at a time.
 */
#define STORE_INTERNAL
#include "storage/storage_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "common/error.h"

typedef struct StoreSeq {
    uint32_t oid;
    uint32_t dboid;
    char schema[STORE_NAME_MAX];
    char name[STORE_NAME_MAX];
    bool dead;                 /* under seq_list_mu */
    pthread_mutex_t mu;        /* live state */
    int64_t last_value, log_cnt;
    bool is_called;
    int64_t durable_left;      /* values that may still be handed out before logging again */
    pthread_mutex_t logmu;     /* durable image: never held across anything blocking */
    StoreSeqDef def;
    int64_t logged_value;
    bool logged_called;
    /* Transactional DDL (under seq_list_mu): an uncommitted CREATE shows the
     * sequence to its creator only, an uncommitted DROP hides it from its
     * dropper only, an uncommitted ALTER shows the new definition (and, when
     * it rewrites, the new state) to its alterer only; `base` is then the
     * committed image that others read and checkpoints write. */
    StoreTxn *create_txn, *drop_txn, *alter_txn;
    bool alter_rewrite;        /* the pending ALTER changed more than OWNED BY */
    struct SeqImage *base;     /* malloc'd while alter_txn is set */
} StoreSeq;

/* What a rollback puts back (catalog_txn.c entries) and what a pending
 * ALTER leaves for the others. */
typedef struct SeqImage {
    StoreSeqDef def;
    int64_t last_value, log_cnt;
    bool is_called;
    int64_t logged_value;
    bool logged_called;
    StoreTxn *create_txn, *drop_txn, *alter_txn;
    bool alter_rewrite;
    bool state;                /* restore the state too (a rewriting ALTER's entry) */
} SeqImage;

static pthread_cond_t seq_cond = PTHREAD_COND_INITIALIZER;  /* a pending DDL ended */
static void committed_image(const StoreSeq *s, StoreSeq *out);

static pthread_mutex_t seq_list_mu = PTHREAD_MUTEX_INITIALIZER;
static StoreSeq **seqs;
static int nseqs, cap_seqs;

#define SEQ_SESSION_SLOTS 64
typedef struct SeqSessionVal {
    uint32_t oid;
    int64_t value;
} SeqSessionVal;
static _Thread_local SeqSessionVal tl_cur[SEQ_SESSION_SLOTS];
static _Thread_local int tl_ncur, tl_evict;
static _Thread_local uint32_t tl_last_oid;
static _Thread_local int64_t tl_last_value;

/* ---- the array ---- */

void store__seq_reset(void)
{
    pthread_mutex_lock(&seq_list_mu);
    for (int i = 0; i < nseqs; i++) {
        pthread_mutex_destroy(&seqs[i]->mu);
        pthread_mutex_destroy(&seqs[i]->logmu);
        free(seqs[i]->base);
        free(seqs[i]);
    }
    free(seqs);
    seqs = NULL;
    nseqs = cap_seqs = 0;
    pthread_mutex_unlock(&seq_list_mu);
}

/* Whether s exists for transaction me (its own uncommitted DDL included). */
static bool seq_visible(const StoreSeq *s, const StoreTxn *me)
{
    return !s->dead && (!s->create_txn || s->create_txn == me) && (!s->drop_txn || s->drop_txn != me);
}

/* Live sequence by OID visible to the calling thread's transaction (NULL
 * when absent). seq_list_mu held. */
static StoreSeq *find_oid_locked(uint32_t oid)
{
    StoreTxn *me = store__txn_current();
    for (int i = 0; i < nseqs; i++)
        if (seqs[i]->oid == oid && seq_visible(seqs[i], me))
            return seqs[i];
    return NULL;
}

static StoreSeq *find_oid(uint32_t oid)
{
    pthread_mutex_lock(&seq_list_mu);
    StoreSeq *s = find_oid_locked(oid);
    pthread_mutex_unlock(&seq_list_mu);
    return s;
}

static StoreSeq *find_name_locked(uint32_t dboid, const char *schema, const char *name)
{
    StoreTxn *me = store__txn_current();
    for (int i = 0; i < nseqs; i++) {
        StoreSeq *s = seqs[i];
        if (seq_visible(s, me) && s->dboid == dboid && strcmp(s->schema, schema) == 0 &&
            strcmp(s->name, name) == 0)
            return s;
    }
    return NULL;
}

/* Insert a new sequence (memory allocated before the lock: may raise). */
static StoreSeq *seq_add(uint32_t oid, uint32_t dboid, const char *schema, const char *name,
                         const StoreSeqDef *def, int64_t last_value, bool is_called)
{
    StoreSeq *s = store__calloc(1, sizeof *s);
    s->oid = oid;
    s->dboid = dboid;
    snprintf(s->schema, sizeof s->schema, "%s", schema);
    snprintf(s->name, sizeof s->name, "%s", name);
    pthread_mutex_init(&s->mu, NULL);
    pthread_mutex_init(&s->logmu, NULL);
    s->def = *def;
    s->last_value = s->logged_value = last_value;
    s->is_called = s->logged_called = is_called;
    pthread_mutex_lock(&seq_list_mu);
    if (nseqs == cap_seqs) {
        int cap = cap_seqs ? cap_seqs * 2 : 16;
        StoreSeq **p = realloc(seqs, (size_t)cap * sizeof *p);
        if (!p) {
            pthread_mutex_unlock(&seq_list_mu);
            free(s);
            err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
        }
        seqs = p;
        cap_seqs = cap;
    }
    seqs[nseqs++] = s;
    pthread_mutex_unlock(&seq_list_mu);
    return s;
}

/* ---- records ---- */

typedef struct SeqBuf {
    uint8_t bytes[3 * STORE_NAME_MAX + 128];
    size_t len;
} SeqBuf;

static void buf_put(SeqBuf *b, const void *p, size_t n)
{
    ERR_ASSERT(b->len + n <= sizeof b->bytes);
    memcpy(b->bytes + b->len, p, n);
    b->len += n;
}
static void buf_u8(SeqBuf *b, uint8_t v) { buf_put(b, &v, 1); }
static void buf_u32(SeqBuf *b, uint32_t v) { buf_put(b, &v, 4); }
static void buf_i64(SeqBuf *b, int64_t v) { buf_put(b, &v, 8); }
static void buf_str(SeqBuf *b, const char *s)
{
    uint32_t n = (uint32_t)strlen(s);
    buf_u32(b, n);
    buf_put(b, s, n);
}

/* The 'c' record of s's durable image (logmu held or s private). */
static void rec_create(SeqBuf *b, const StoreSeq *s)
{
    buf_u8(b, 'c');
    buf_u32(b, s->oid);
    buf_u32(b, s->dboid);
    buf_str(b, s->schema);
    buf_str(b, s->name);
    const StoreSeqDef *d = &s->def;
    buf_u32(b, d->type_oid);
    buf_i64(b, d->start);
    buf_i64(b, d->increment);
    buf_i64(b, d->min_value);
    buf_i64(b, d->max_value);
    buf_i64(b, d->cache);
    buf_u8(b, d->cycle);
    buf_u32(b, d->owner_table);
    buf_u32(b, (uint32_t)d->owner_col);
    buf_u8(b, (uint8_t)d->identity);
    buf_i64(b, s->logged_value);
    buf_u8(b, s->logged_called);
}

static void rec_state(SeqBuf *b, uint32_t oid, int64_t value, bool called)
{
    buf_u8(b, 's');
    buf_u32(b, oid);
    buf_i64(b, value);
    buf_u8(b, called);
}

/* Commit one record in a transaction of its own (synchronous: durable at
 * return). Nothing during recovery. */
static void seq_log(const SeqBuf *b)
{
    if (store_g.replaying || !store_g.open)
        return;
    StoreTxn *x = store_txn_begin();
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        store__wal_add(x, WAL_SEQUENCE, b->bytes, b->len);
        err_pop(&jmp);
    } else {
        store_txn_rollback(x);
        err_rethrow();
    }
    store_txn_commit(x);
}

/* The transaction whose buffer s's state records go to: s's uncommitted
 * creator or rewriting alterer when that is the caller (the state exists
 * only if it commits; its precommit writes the final image), else NULL (a
 * transaction of their own, non-transactional as PostgreSQL's nextval). */
__attribute__((noinline)) static StoreTxn *state_owner(const StoreSeq *s)
{
    StoreTxn *me = store__txn_current();
    pthread_mutex_lock(&seq_list_mu);
    bool mine = me && (s->create_txn == me || (s->alter_txn == me && s->alter_rewrite));
    pthread_mutex_unlock(&seq_list_mu);
    return mine ? me : NULL;
}

/* seq_log with s->mu held: released if the log raises. */
static void seq_log_locked(StoreSeq *s, const SeqBuf *b)
{
    StoreTxn *own = state_owner(s);
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        if (own && !store_g.replaying)
            store__wal_add(own, WAL_SEQUENCE, b->bytes, b->len);
        else
            seq_log(b);
        err_pop(&jmp);
    } else {
        pthread_mutex_unlock(&s->mu);
        err_rethrow();
    }
}

typedef struct SeqCursor {
    const uint8_t *p, *end;
} SeqCursor;

static const uint8_t *take(SeqCursor *c, size_t n)
{
    if ((size_t)(c->end - c->p) < n)
        err_raise(ERRCODE_DATA_CORRUPTED, "invalid sequence record in the write-ahead log");
    const uint8_t *r = c->p;
    c->p += n;
    return r;
}
static uint8_t take_u8(SeqCursor *c) { return *take(c, 1); }
static uint32_t take_u32(SeqCursor *c)
{
    uint32_t v;
    memcpy(&v, take(c, 4), 4);
    return v;
}
static int64_t take_i64(SeqCursor *c)
{
    int64_t v;
    memcpy(&v, take(c, 8), 8);
    return v;
}
static void take_str(SeqCursor *c, char *out, size_t cap)
{
    uint32_t n = take_u32(c);
    const uint8_t *p = take(c, n);
    if (n >= cap)
        err_raise(ERRCODE_DATA_CORRUPTED, "invalid sequence record in the write-ahead log");
    memcpy(out, p, n);
    out[n] = '\0';
}

static void replay_create(SeqCursor *c, uint32_t oid)
{
    char schema[STORE_NAME_MAX], name[STORE_NAME_MAX];
    uint32_t dboid = take_u32(c);
    take_str(c, schema, sizeof schema);
    take_str(c, name, sizeof name);
    StoreSeqDef d = {0};
    d.type_oid = take_u32(c);
    d.start = take_i64(c);
    d.increment = take_i64(c);
    d.min_value = take_i64(c);
    d.max_value = take_i64(c);
    d.cache = take_i64(c);
    d.cycle = take_u8(c);
    d.owner_table = take_u32(c);
    d.owner_col = (int)take_u32(c);
    d.identity = (char)take_u8(c);
    int64_t last = take_i64(c);
    bool called = take_u8(c);
    StoreSeq *s = find_oid(oid);
    if (!s) {
        seq_add(oid, dboid, schema, name, &d, last, called);
        store__catalog_bump_oid(oid);
        return;
    }
    s->def = d;
    s->last_value = s->logged_value = last;
    s->is_called = s->logged_called = called;
    s->log_cnt = 0;
    s->durable_left = 0;
}

void store__seq_replay(const uint8_t *payload, size_t len)
{
    SeqCursor c = {payload, payload + len};
    uint8_t op = take_u8(&c);
    uint32_t oid = take_u32(&c);
    if (op == 'c') {
        replay_create(&c, oid);
        return;
    }
    StoreSeq *s = find_oid(oid);
    if (op == 'd') {
        if (s)
            s->dead = true;
        return;
    }
    if (op != 's')
        err_raise(ERRCODE_DATA_CORRUPTED, "invalid sequence record in the write-ahead log");
    int64_t v = take_i64(&c);
    bool called = take_u8(&c);
    if (s) {
        s->last_value = s->logged_value = v;
        s->is_called = s->logged_called = called;
        s->log_cnt = 0;
        s->durable_left = 0;
    }
}

void store__seq_checkpoint(StoreTxn *buf)
{
    pthread_mutex_lock(&seq_list_mu);
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        for (int i = 0; i < nseqs; i++) {
            StoreSeq *s = seqs[i];
            if (s->dead || s->create_txn)
                continue;   /* committed sequences only */
            SeqBuf b = {.len = 0};
            StoreSeq img;
            pthread_mutex_lock(&s->logmu);
            committed_image(s, &img);   /* a pending ALTER's definition is not committed */
            rec_create(&b, &img);
            pthread_mutex_unlock(&s->logmu);
            store__wal_add(buf, WAL_SEQUENCE, b.bytes, b.len);
        }
        err_pop(&jmp);
    } else {
        pthread_mutex_unlock(&seq_list_mu);
        err_rethrow();
    }
    pthread_mutex_unlock(&seq_list_mu);
}

/* ---- transactional DDL ---- */

/* Fill m (may be NULL: nothing) with s's image (under s's mutexes). */
static void image_fill(const StoreSeq *s, SeqImage *m, bool state)
{
    if (!m)
        return;
    *m = (SeqImage){.def = s->def, .last_value = s->last_value, .log_cnt = s->log_cnt,
                    .is_called = s->is_called, .logged_value = s->logged_value,
                    .logged_called = s->logged_called, .create_txn = s->create_txn,
                    .drop_txn = s->drop_txn, .alter_txn = s->alter_txn,
                    .alter_rewrite = s->alter_rewrite, .state = state};
}

/* The image others see and checkpoints write (logmu held): the committed
 * one while an ALTER is pending (its state follows the live one unless
 * that ALTER rewrites: non-rewriting ALTERs leave nextval non-transactional). */
static void committed_image(const StoreSeq *s, StoreSeq *out)
{
    *out = *s;
    if (s->alter_txn && s->base) {
        out->def = s->base->def;
        if (s->alter_rewrite) {
            out->last_value = s->base->last_value;
            out->log_cnt = s->base->log_cnt;
            out->is_called = s->base->is_called;
            out->logged_value = s->base->logged_value;
            out->logged_called = s->base->logged_called;
        }
    }
}

/* The end of wait_ddl's next sleep in *ts: 100 ms from now (to notice a
 * cancel), or the lock_timeout deadline (*deadline, set at the first call;
 * tv_sec -1 = no timeout) when nearer. False once the deadline passed. */
static bool seq_wait_deadline(const StoreTxn *me, struct timespec *deadline, struct timespec *ts)
{
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    if (deadline->tv_sec == 0) {
        int ms = store__txn_lock_timeout(me);
        *deadline = now;
        deadline->tv_sec = ms > 0 ? now.tv_sec + ms / 1000 : -1;
        deadline->tv_nsec += (long)(ms % 1000) * 1000000L;
        if (deadline->tv_nsec >= 1000000000L) {
            deadline->tv_sec++;
            deadline->tv_nsec -= 1000000000L;
        }
    } else if (deadline->tv_sec > 0 && (now.tv_sec > deadline->tv_sec ||
                                        (now.tv_sec == deadline->tv_sec &&
                                         now.tv_nsec >= deadline->tv_nsec))) {
        return false;
    }
    *ts = now;
    ts->tv_nsec += 100 * 1000 * 1000;
    if (ts->tv_nsec >= 1000000000L) {
        ts->tv_sec++;
        ts->tv_nsec -= 1000000000L;
    }
    if (deadline->tv_sec > 0 && (deadline->tv_sec < ts->tv_sec ||
                                 (deadline->tv_sec == ts->tv_sec && deadline->tv_nsec < ts->tv_nsec)))
        *ts = *deadline;
    return true;
}

/* Other transactions' nextval/setval wait while a DROP or ALTER of the
 * sequence is pending (PostgreSQL's lock conflict), waking every 100 ms to
 * honour a cancel. Returns the sequence (raises when it went away). */
static StoreSeq *wait_ddl(uint32_t oid)
{
    StoreTxn *me = store__txn_current();
    struct timespec deadline = {0};   /* lock_timeout, from the first sleep */
    pthread_mutex_lock(&seq_list_mu);
    for (;;) {
        StoreSeq *s = find_oid_locked(oid);
        if (!s) {
            pthread_mutex_unlock(&seq_list_mu);
            err_raise(ERRCODE_UNDEFINED_TABLE, "could not open relation with OID %u", oid);
        }
        bool busy = (s->drop_txn && s->drop_txn != me) || (s->alter_txn && s->alter_txn != me);
        if (!busy) {
            pthread_mutex_unlock(&seq_list_mu);
            return s;
        }
        pthread_mutex_unlock(&seq_list_mu);
        struct timespec ts;
        if (!seq_wait_deadline(me, &deadline, &ts))
            store__raise_lock_timeout();
        pthread_mutex_lock(&seq_list_mu);
        pthread_cond_timedwait(&seq_cond, &seq_list_mu, &ts);
        pthread_mutex_unlock(&seq_list_mu);
        err_check_interrupts();
        pthread_mutex_lock(&seq_list_mu);
    }
}

/* Another transaction's DDL on s is pending (seq_list_mu held). */
static bool ddl_busy(const StoreSeq *s, const StoreTxn *me)
{
    return (s->drop_txn && s->drop_txn != me) || (s->alter_txn && s->alter_txn != me) ||
           (s->create_txn && s->create_txn != me);
}

/* ALTER and DROP first wait while another transaction's DDL on s is
 * pending (PostgreSQL's lock on the sequence; store__txn_wait_txn: deadlock
 * detection, cancel). When that transaction dropped s and committed, the
 * waiter gets PostgreSQL's 42P01 (`verb` "relation" for ALTER, "sequence"
 * for DROP); otherwise it goes on with the state now committed. */
static void ddl_wait(StoreSeq *s, const char *verb)
{
    StoreTxn *me = store__txn_current();
    for (;;) {
        pthread_mutex_lock(&seq_list_mu);
        bool dead = s->dead;
        StoreTxn *o = NULL;
        if (!dead && ddl_busy(s, me))
            o = s->drop_txn && s->drop_txn != me ? s->drop_txn
              : s->alter_txn && s->alter_txn != me ? s->alter_txn : s->create_txn;
        uint64_t id = o ? o->id : 0;
        pthread_mutex_unlock(&seq_list_mu);
        if (dead)
            err_raise(ERRCODE_UNDEFINED_TABLE, "%s \"%s\" does not exist", verb, s->name);
        if (!o)
            return;
        store__txn_wait_txn(me, o, id);
    }
}

/* A DDL change of s in the caller's transaction x: apply runs with s->mu,
 * seq_list_mu and s->logmu held (it cannot fail) and fills the WAL record;
 * the record goes into x's buffer and the change into x's catalog log with
 * saved (the previous image, NULL for a CREATE; taken over). Another
 * transaction's DDL on s that became pending after ddl_wait → XX000 tuple
 * concurrently updated (a third transaction won the race). */
typedef bool (*SeqApply)(StoreSeq *s, StoreTxn *x, void *arg, SeqBuf *rec, SeqImage *saved);

static void ddl_change(StoreTxn *x, StoreSeq *s, SeqImage *saved, SeqApply apply, void *arg)
{
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        store__cat_reserve(x);
        err_pop(&jmp);
    } else {
        free(saved);
        err_rethrow();
    }
    SeqBuf rec = {.len = 0};
    pthread_mutex_lock(&s->mu);
    pthread_mutex_lock(&seq_list_mu);
    pthread_mutex_lock(&s->logmu);
    bool busy = ddl_busy(s, x) || !apply(s, x, arg, &rec, saved);
    pthread_mutex_unlock(&s->logmu);
    pthread_mutex_unlock(&seq_list_mu);
    pthread_mutex_unlock(&s->mu);
    if (busy) {
        free(saved);
        err_raise(ERRCODE_INTERNAL_ERROR, "tuple concurrently updated");
    }
    uint64_t pos = store__wal_pos(x);
    if (ERR_TRY(jmp)) {
        store__wal_add(x, WAL_SEQUENCE, rec.bytes, rec.len);
        err_pop(&jmp);
    } else {
        store__seq_cat_end(s, saved, x, false);   /* applied, not logged: put it back */
        free(saved);
        err_rethrow();
    }
    store__cat_push(x, CAT_SEQ, s, saved, pos);
}

/* Run a DDL change in the caller's transaction, or in one of its own
 * (committed at once) when there is none. */
static void ddl_run(StoreSeq *s, SeqImage *saved, SeqApply apply, void *arg)
{
    StoreTxn *cur = store__txn_current();
    if (cur) {
        ddl_change(cur, s, saved, apply, arg);
        return;
    }
    if (!store_g.open || store_g.replaying) {
        SeqBuf rec = {.len = 0};
        pthread_mutex_lock(&s->mu);
        pthread_mutex_lock(&seq_list_mu);
        pthread_mutex_lock(&s->logmu);
        (void)apply(s, NULL, arg, &rec, saved);
        pthread_mutex_unlock(&s->logmu);
        pthread_mutex_unlock(&seq_list_mu);
        pthread_mutex_unlock(&s->mu);
        free(saved);
        return;
    }
    StoreTxn *x = store_txn_begin();
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        ddl_change(x, s, saved, apply, arg);
        err_pop(&jmp);
    } else {
        store_txn_rollback(x);
        err_rethrow();
    }
    store_txn_commit(x);
}

void store__seq_cat_end(void *obj, void *saved, StoreTxn *x, bool commit)
{
    StoreSeq *s = obj;
    SeqImage *m = saved;
    pthread_mutex_lock(&s->mu);
    pthread_mutex_lock(&seq_list_mu);
    pthread_mutex_lock(&s->logmu);
    SeqImage *base_gone = NULL;
    if (commit) {
        if (s->create_txn == x)
            s->create_txn = NULL;
        if (s->alter_txn == x) {
            s->alter_txn = NULL;
            base_gone = s->base;
            s->base = NULL;
        }
        if (s->drop_txn == x) {
            s->drop_txn = NULL;
            s->dead = true;
        }
    } else if (!m) {
        s->dead = true;   /* its CREATE */
    } else {
        s->def = m->def;
        if (m->state) {
            s->last_value = m->last_value;
            s->log_cnt = m->log_cnt;
            s->is_called = m->is_called;
            s->logged_value = m->logged_value;
            s->logged_called = m->logged_called;
            s->durable_left = 0;
        }
        s->create_txn = m->create_txn;
        s->drop_txn = m->drop_txn;
        s->alter_txn = m->alter_txn;
        s->alter_rewrite = m->alter_rewrite;
        if (!s->alter_txn) {
            base_gone = s->base;
            s->base = NULL;
        }
    }
    pthread_cond_broadcast(&seq_cond);
    pthread_mutex_unlock(&s->logmu);
    pthread_mutex_unlock(&seq_list_mu);
    pthread_mutex_unlock(&s->mu);
    free(base_gone);
}

void store__seq_precommit(void *obj, StoreTxn *x)
{
    StoreSeq *s = obj;
    SeqBuf b = {.len = 0};
    pthread_mutex_lock(&seq_list_mu);
    bool write = !s->dead && s->drop_txn != x && (s->create_txn == x || s->alter_txn == x);
    pthread_mutex_unlock(&seq_list_mu);
    if (!write)
        return;
    pthread_mutex_lock(&s->logmu);
    rec_create(&b, s);   /* the state the values handed out so far need */
    pthread_mutex_unlock(&s->logmu);
    store__wal_add(x, WAL_SEQUENCE, b.bytes, b.len);
}

/* ---- catalog ---- */

static bool apply_create(StoreSeq *s, StoreTxn *x, void *arg, SeqBuf *rec, SeqImage *saved)
{
    (void)arg;
    (void)x;
    (void)saved;
    rec_create(rec, s);
    return true;
}

/* Another transaction creating a sequence schema.name (seq_list_mu held). */
static StoreTxn *seq_creator_locked(uint32_t dboid, const char *schema, const char *name,
                                    const StoreTxn *me, uint64_t *id)
{
    for (int i = 0; i < nseqs; i++) {
        const StoreSeq *s = seqs[i];
        if (!s->dead && s->create_txn && s->create_txn != me && s->dboid == dboid &&
            strcmp(s->schema, schema) == 0 && strcmp(s->name, name) == 0) {
            *id = s->create_txn->id;
            return s->create_txn;
        }
    }
    return NULL;
}

StoreTxn *store__seq_creator(uint32_t dboid, const char *schema, const char *name,
                             const StoreTxn *me, uint64_t *id)
{
    pthread_mutex_lock(&seq_list_mu);
    StoreTxn *o = seq_creator_locked(dboid, schema, name, me, id);
    pthread_mutex_unlock(&seq_list_mu);
    return o;
}

bool store__seq_exists(uint32_t dboid, const char *schema, const char *name)
{
    pthread_mutex_lock(&seq_list_mu);
    bool found = find_name_locked(dboid, schema, name) != NULL;
    pthread_mutex_unlock(&seq_list_mu);
    return found;
}

/* CREATE SEQUENCE's name check: 42P07 for a relation of the name; while
 * another transaction creates one (sequence, table or view), wait for its
 * end as PostgreSQL's second insertion into pg_class's unique index does:
 * then 23505 if it committed, go ahead if it rolled back. */
static void seq_name_check(uint32_t db, const char *schema, const char *name, StoreTxn *me)
{
    bool waited = false;
    for (;;) {
        uint64_t id = 0;
        pthread_mutex_lock(&seq_list_mu);
        bool exists = find_name_locked(db, schema, name) != NULL;
        StoreTxn *o = exists ? NULL : seq_creator_locked(db, schema, name, me, &id);
        pthread_mutex_unlock(&seq_list_mu);
        if (!exists && !o) {
            exists = store_relation_lookup(schema, name) != NULL;
            if (!exists)
                o = store__relname_creator(db, schema, name, me, &id);
        }
        if (exists && waited)
            store__raise_relname_taken(schema, name, false);
        if (exists)
            err_raise(ERRCODE_DUPLICATE_TABLE, "relation \"%s\" already exists", name);
        if (!o)
            return;
        store__txn_wait_txn(me, o, id);
        waited = true;
    }
}

uint32_t store_seq_create(const char *schema, const char *name, const StoreSeqDef *def)
{
    if (strlen(name) >= STORE_NAME_MAX)
        err_raise(ERRCODE_NAME_TOO_LONG, "identifier too long");
    if (!store_schema_exists(schema))
        err_raise(ERRCODE_INVALID_SCHEMA_NAME, "schema \"%s\" does not exist", schema);
    uint32_t db = store__session_db();
    StoreTxn *me = store__txn_current();
    seq_name_check(db, schema, name, me);
    uint32_t oid = store__catalog_max_oid();
    StoreSeq *s = seq_add(oid, db, schema, name, def, def->start, false);
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        if (me) {
            pthread_mutex_lock(&seq_list_mu);
            s->create_txn = me;   /* visible to me only until it commits */
            pthread_mutex_unlock(&seq_list_mu);
        }
        ddl_run(s, NULL, apply_create, NULL);
        err_pop(&jmp);
    } else {
        s->dead = true;
        err_rethrow();
    }
    return oid;
}

uint32_t store_seq_lookup(const char *schema, const char *name)
{
    pthread_mutex_lock(&seq_list_mu);
    StoreSeq *s = find_name_locked(store__session_db(), schema, name);
    uint32_t oid = s ? s->oid : 0;
    pthread_mutex_unlock(&seq_list_mu);
    return oid;
}

bool store_seq_info(uint32_t oid, StoreSeqInfo *out)
{
    StoreTxn *me = store__txn_current();
    StoreSeq *s = find_oid(oid);
    if (!s)
        return false;
    out->oid = oid;
    snprintf(out->schema, sizeof out->schema, "%s", s->schema);
    snprintf(out->name, sizeof out->name, "%s", s->name);
    pthread_mutex_lock(&s->mu);
    pthread_mutex_lock(&seq_list_mu);
    StoreSeq img;
    if (s->alter_txn && s->alter_txn != me) {
        pthread_mutex_lock(&s->logmu);
        committed_image(s, &img);   /* another transaction's ALTER is not ours to see */
        pthread_mutex_unlock(&s->logmu);
    } else {
        img = *s;
    }
    pthread_mutex_unlock(&seq_list_mu);
    out->def = img.def;
    out->last_value = img.last_value;
    out->log_cnt = img.log_cnt;
    out->is_called = img.is_called;
    pthread_mutex_unlock(&s->mu);
    return true;
}

static StoreSeq *must_find(uint32_t oid)
{
    StoreSeq *s = find_oid(oid);
    if (!s)
        err_raise(ERRCODE_UNDEFINED_TABLE, "could not open relation with OID %u", oid);
    return s;
}

typedef struct AlterArg {
    const StoreSeqDef *def;
    bool restart, rewrite;
    int64_t restart_value;
    bool callers;   /* in the caller's transaction (not one of our own, committed at once) */
} AlterArg;

/* False (nothing changed) when the committed image has no room: another
 * transaction's ALTER took it meanwhile (the caller raises XX000). */
static bool apply_alter(StoreSeq *s, StoreTxn *x, void *arg, SeqBuf *rec, SeqImage *saved)
{
    const AlterArg *a = arg;
    if (a->callers && s->create_txn != x && s->alter_txn != x && !s->base)
        return false;
    image_fill(s, saved, a->rewrite);
    if (a->callers && s->create_txn != x && s->alter_txn != x) {
        /* First change of a committed sequence: keep the committed image
         * (s->base was allocated by store_seq_alter_ex). */
        image_fill(s, s->base, true);
        s->alter_txn = x;
        s->alter_rewrite = false;
    }
    if (x && s->alter_txn == x && a->rewrite && !s->alter_rewrite && s->base) {
        /* Until now the state was not transactional (OWNED BY only): what
         * it is now is the committed state; the committed definition stays. */
        StoreSeqDef committed = s->base->def;
        image_fill(s, s->base, true);
        s->base->def = committed;
        s->alter_rewrite = true;
    }
    s->def = *a->def;
    if (!a->rewrite) {
        /* OWNED BY only: PostgreSQL leaves the sequence's tuple alone */
        rec_create(rec, s);
        return true;
    }
    if (a->restart) {
        s->logged_value = a->restart_value;
        s->logged_called = false;
    } else if (s->log_cnt > 0 || s->logged_value != s->last_value) {
        /* the state restarts from what was handed out, not from the look-ahead */
        s->logged_value = s->last_value;
        s->logged_called = s->is_called;
    }
    rec_create(rec, s);
    if (a->restart) {
        s->last_value = a->restart_value;
        s->is_called = false;
    }
    s->log_cnt = 0;
    s->durable_left = 0;
    return true;
}

void store_seq_alter_ex(uint32_t oid, const StoreSeqDef *def, bool restart, int64_t restart_value,
                        bool rewrite)
{
    StoreSeq *s = must_find(oid);
    StoreTxn *me = store__txn_current();
    if (store_g.open && !store_g.replaying)
        ddl_wait(s, "relation");
    /* Room for the committed image (apply_alter runs under mutexes). */
    SeqImage *room = store__malloc(sizeof *room);
    pthread_mutex_lock(&s->mu);
    pthread_mutex_lock(&seq_list_mu);
    if (!s->base && me && s->create_txn != me && s->alter_txn != me) {
        s->base = room;
        room = NULL;
    }
    pthread_mutex_unlock(&seq_list_mu);
    pthread_mutex_unlock(&s->mu);
    free(room);
    SeqImage *saved = store__malloc(sizeof *saved);
    AlterArg a = {def, restart, rewrite || restart, restart_value, me != NULL};
    ddl_run(s, saved, apply_alter, &a);
}

void store_seq_alter(uint32_t oid, const StoreSeqDef *def, bool restart, int64_t restart_value)
{
    store_seq_alter_ex(oid, def, restart, restart_value, true);
}

static bool apply_drop(StoreSeq *s, StoreTxn *x, void *arg, SeqBuf *rec, SeqImage *saved)
{
    (void)arg;
    image_fill(s, saved, false);
    if (x)
        s->drop_txn = x;   /* hidden from x; dead at its commit */
    else
        s->dead = true;
    buf_u8(rec, 'd');
    buf_u32(rec, s->oid);
    return true;
}

void store_seq_drop(uint32_t oid)
{
    StoreSeq *s = find_oid(oid);
    if (!s)
        return;
    if (store_g.open && !store_g.replaying)
        ddl_wait(s, "sequence");
    ddl_run(s, store__malloc(sizeof(SeqImage)), apply_drop, NULL);
}

int store_seq_in_schema(const char *schema, bool unowned_only, uint32_t *oids, int max)
{
    uint32_t db = store__session_db();
    StoreTxn *me = store__txn_current();
    int n = 0;
    pthread_mutex_lock(&seq_list_mu);
    for (int i = 0; i < nseqs; i++) {
        const StoreSeq *q = seqs[i];
        if (!seq_visible(q, me) || q->dboid != db || strcmp(q->schema, schema) != 0 ||
            (unowned_only && q->def.owner_table != 0))
            continue;
        if (n < max)
            oids[n] = q->oid;
        n++;
    }
    pthread_mutex_unlock(&seq_list_mu);
    return n;
}

int store_seq_owned_by(uint32_t table_oid, uint32_t *oids, int max)
{
    StoreTxn *me = store__txn_current();
    int n = 0;
    pthread_mutex_lock(&seq_list_mu);
    for (int i = 0; i < nseqs; i++) {
        if (!seq_visible(seqs[i], me) || seqs[i]->def.owner_table != table_oid || table_oid == 0)
            continue;
        if (n < max)
            oids[n] = seqs[i]->oid;
        n++;
    }
    pthread_mutex_unlock(&seq_list_mu);
    return n;
}

/* ---- values ---- */

static void session_remember(uint32_t oid, int64_t value, bool last)
{
    if (last) {
        tl_last_oid = oid;
        tl_last_value = value;
    }
    for (int i = 0; i < tl_ncur; i++) {
        if (tl_cur[i].oid == oid) {
            tl_cur[i].value = value;
            return;
        }
    }
    int slot = tl_ncur < SEQ_SESSION_SLOTS ? tl_ncur++ : (tl_evict++ % SEQ_SESSION_SLOTS);
    tl_cur[slot] = (SeqSessionVal){oid, value};
}

void store_seq_discard_session(void)
{
    tl_ncur = 0;
    tl_evict = 0;
    tl_last_oid = 0;
    tl_last_value = 0;
}

bool store_seq_currval(uint32_t oid, int64_t *value)
{
    for (int i = 0; i < tl_ncur; i++) {
        if (tl_cur[i].oid == oid) {
            *value = tl_cur[i].value;
            return true;
        }
    }
    return false;
}

bool store_seq_lastval(uint32_t *oid, int64_t *value)
{
    if (tl_last_oid == 0)
        return false;
    *oid = tl_last_oid;
    *value = tl_last_value;
    return true;
}

/* The fetch state of one batch (PostgreSQL's nextval_internal locals). */
typedef struct SeqFetch {
    int64_t last, log;
    bool called;
    bool overflow;       /* stopped at the limit: raise after saving */
    bool at_max;
    int64_t limit;
} SeqFetch;

/* One value, exactly as PostgreSQL's nextval with CACHE 1. False at the limit. */
static bool fetch_one(const StoreSeqDef *d, SeqFetch *f, int64_t *result)
{
    int64_t inc = d->increment, maxv = d->max_value, minv = d->min_value;
    int64_t next = f->last;
    int64_t fetch = 1, rescnt = 0, log = f->log;
    *result = next;
    if (!f->called) {
        rescnt++;
        fetch--;
    }
    if (log < fetch || !f->called) {
        fetch = log = fetch + STORE_SEQ_LOG_VALS;
    }
    while (fetch) {
        if (inc > 0) {
            if ((maxv >= 0 && next > maxv - inc) || (maxv < 0 && next + inc > maxv)) {
                if (rescnt > 0)
                    break;
                if (!d->cycle) {
                    f->overflow = true;
                    f->at_max = true;
                    f->limit = maxv;
                    return false;
                }
                next = minv;
            } else {
                next += inc;
            }
        } else {
            if ((minv < 0 && next < minv - inc) || (minv >= 0 && next + inc < minv)) {
                if (rescnt > 0)
                    break;
                if (!d->cycle) {
                    f->overflow = true;
                    f->limit = minv;
                    return false;
                }
                next = maxv;
            } else {
                next += inc;
            }
        }
        fetch--;
        if (rescnt < 1) {
            log--;
            rescnt++;
            f->last = next;
            *result = next;
        }
    }
    log -= fetch;
    f->log = log;
    f->called = true;
    return true;
}

/* The value `steps` increments after v (wrapping when the sequence cycles,
 * stopping at the limit otherwise); *taken gets the steps made. */
static int64_t step_ahead(const StoreSeqDef *d, int64_t v, int64_t steps, int64_t *taken)
{
    int64_t k = 0;
    for (; k < steps; k++) {
        bool over = d->increment > 0 ? v > d->max_value - d->increment : v < d->min_value - d->increment;
        if (over && !d->cycle)
            break;
        v = over ? (d->increment > 0 ? d->min_value : d->max_value) : v + d->increment;
    }
    *taken = k;
    return v;
}

/* s with its mu held and no other transaction's DDL pending on it (nextval
 * and setval wait for that transaction to end, as PostgreSQL's lock). */
static StoreSeq *lock_for_values(uint32_t oid)
{
    StoreTxn *me = store__txn_current();
    for (;;) {
        StoreSeq *s = wait_ddl(oid);
        pthread_mutex_lock(&s->mu);
        pthread_mutex_lock(&seq_list_mu);
        bool busy = (s->drop_txn && s->drop_txn != me) || (s->alter_txn && s->alter_txn != me);
        pthread_mutex_unlock(&seq_list_mu);
        if (!busy)
            return s;
        pthread_mutex_unlock(&s->mu);
    }
}

void store_seq_nextval(uint32_t oid, uint32_t n, int64_t *out)
{
    StoreSeq *s = lock_for_values(oid);
    SeqFetch f = {.last = s->last_value, .log = s->log_cnt, .called = s->is_called};
    uint32_t got = 0;
    while (got < n && fetch_one(&s->def, &f, &out[got]))
        got++;
    if (got > s->durable_left) {
        /* Log ahead before handing out: STORE_SEQ_LOG_VALS values past the
         * last one for a single call (PostgreSQL's record), 32 per value
         * for a batch, so a bulk load logs once per ~32 batches. */
        int64_t ahead = (int64_t)STORE_SEQ_LOG_VALS * got, taken = 0;
        int64_t to = step_ahead(&s->def, out[got - 1], ahead, &taken);
        SeqBuf b = {.len = 0};
        rec_state(&b, oid, to, true);
        pthread_mutex_lock(&s->logmu);  /* raised before the record: see the top comment */
        s->logged_value = to;
        s->logged_called = true;
        pthread_mutex_unlock(&s->logmu);
        seq_log_locked(s, &b);
        s->durable_left = taken + got;
    }
    s->durable_left -= got;
    s->last_value = f.last;
    s->log_cnt = f.log;
    s->is_called = f.called;
    pthread_mutex_unlock(&s->mu);
    if (got > 0)
        session_remember(oid, out[got - 1], true);
    if (f.overflow)
        err_raise(ERRCODE_SEQUENCE_GENERATOR_LIMIT_EXCEEDED,
                  "nextval: reached %s value of sequence \"%s\" (%lld)", f.at_max ? "maximum" : "minimum",
                  s->name, (long long)f.limit);
}

void store_seq_setval(uint32_t oid, int64_t value, bool is_called)
{
    StoreSeq *s = lock_for_values(oid);
    if (value < s->def.min_value || value > s->def.max_value) {
        int64_t lo = s->def.min_value, hi = s->def.max_value;
        pthread_mutex_unlock(&s->mu);
        err_raise(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
                  "setval: value %lld is out of bounds for sequence \"%s\" (%lld..%lld)",
                  (long long)value, s->name, (long long)lo, (long long)hi);
    }
    SeqBuf b = {.len = 0};
    rec_state(&b, oid, value, is_called);
    pthread_mutex_lock(&s->logmu);
    s->logged_value = value;
    s->logged_called = is_called;
    pthread_mutex_unlock(&s->logmu);
    seq_log_locked(s, &b);
    s->last_value = value;
    s->is_called = is_called;
    s->log_cnt = 0;
    s->durable_left = 0;
    pthread_mutex_unlock(&s->mu);
    if (is_called)
        session_remember(oid, value, false);
}
