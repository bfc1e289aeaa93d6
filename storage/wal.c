/*
 * wal.c — the write-ahead log: record encoding, CRC32C, appends, group
 * commit and the in-order publication of commits.
 *
 * A transaction collects its records (catalog changes, inserted rows,
 * deletions) in a private buffer while it runs; store__wal_commit appends
 * the buffer plus a COMMIT record to the log with one write(2) under the
 * log mutex, which also hands out the commit sequence numbers, so the
 * order of COMMIT records in the file is the commit order. Aborted work is
 * never written. A buffer past STORE_WAL_SPILL_BYTES (a big COPY or INSERT)
 * moves, at a record boundary, to an unnamed file in wal/ (O_TMPFILE); at
 * COMMIT that file is copied to the log first, under the same mutex, so the
 * transaction's records stay contiguous (a crash meanwhile leaves records
 * with no COMMIT: a torn tail). Positions in the stream (savepoints) count
 * spilled bytes too. Record layout (little endian, STORE_WAL_HEADER bytes of
 * header, then the payload):
 *
 *     u32 crc32c     over bytes 4 .. 16 + len (the rest of the header and the payload)
 *     u32 len        payload bytes
 *     u32 ~len       guards the length: a damaged length is corruption, not a torn tail
 *     u8  type       WAL_* (storage_int.h)
 *     u8  pad[3]     zero
 *
 * Group commit: after its write, a committer waits until the file is
 * fsync'd past its record. One waiter at a time runs fdatasync for everything
 * written so far; those who arrive meanwhile wait for the next round, so
 * concurrent commits share one fsync. With fsync = off the wait is skipped
 * for everyone; with synchronous_commit = off for that transaction.
 *
 * A commit that finds the log past STORE_WAL_CHECKPOINT_BYTES asks the
 * background checkpointer (recovery.c) for a checkpoint.
 *
 * Publication: commit sequence s becomes visible to new snapshots only
 * after s - 1 is visible (store_g.visible_seq); the committer stamps its
 * rows (xmin / xmax) in between. Sync commits are thus visible only once
 * durable.
 */
#define STORE_INTERNAL
#include "storage/storage_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "common/crc32c.h"
#include "common/error.h"
#include "common/guc.h"


/* ---- the transaction's record buffer ---- */

static void wal_reserve(StoreTxn *x, size_t extra)
{
    if (x->wal_len + extra <= x->wal_cap)
        return;
    size_t cap = x->wal_cap ? x->wal_cap : 4096;
    while (cap < x->wal_len + extra)
        cap *= 2;
    uint8_t *p = realloc(x->wal, cap);
    if (!p)
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    x->wal = p;
    x->wal_cap = cap;
}

/* ---- spilling a big buffer (a COPY's rows) to an unnamed file ---- */

static bool pwrite_all(int fd, const uint8_t *p, size_t n, uint64_t off)
{
    while (n) {
        ssize_t w = pwrite(fd, p, n, (off_t)off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        p += w;
        n -= (size_t)w;
        off += (uint64_t)w;
    }
    return true;
}

/* At a record boundary: move the buffer's records to the spill file once
 * the buffer is big. Any failure keeps them in memory (as before). */
static void wal_maybe_spill(StoreTxn *x)
{
    if (!x->wal_spill_ok || x->wal_len < STORE_WAL_SPILL_BYTES || !store_g.data_dir)
        return;
    if (x->wal_spill_fd <= 0) {
        char dir[4200];
        snprintf(dir, sizeof dir, "%s/wal", store_g.data_dir);
        int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
        if (fd <= 0) {
            if (fd == 0)
                close(fd);
            x->wal_spill_ok = false;  /* no unnamed files here: stay in memory */
            return;
        }
        x->wal_spill_fd = fd;
        x->wal_spilled = 0;
    }
    if (!pwrite_all(x->wal_spill_fd, x->wal, x->wal_len, x->wal_spilled)) {
        x->wal_spill_ok = false;  /* disk full: the rest stays in memory */
        return;
    }
    x->wal_spilled += x->wal_len;
    x->wal_len = 0;
}

uint64_t store__wal_pos(const StoreTxn *x)
{
    if (x->bulk && !x->bulk_sealing)
        store__bulk_seal((StoreTxn *)x);  /* a position after any bulk load's record */
    return x->wal_spilled + x->wal_len;
}

void store__wal_cut(StoreTxn *x, uint64_t pos)
{
    store__cat_cut(x, pos);  /* roles, sequences, statistics changed past pos (catalog_txn.c) */
    store__bulk_cut(x, pos); /* bulk loads undone: their run files go (bulk.c) */
    if (pos >= x->wal_spilled) {
        x->wal_len = (size_t)(pos - x->wal_spilled);
        return;
    }
    /* Back into the spilled records: the file shrinks (pwrite appends at
     * wal_spilled, so a failed ftruncate only leaves dead bytes past it). */
    if (ftruncate(x->wal_spill_fd, (off_t)pos) != 0) {
        /* nothing to do: bytes past wal_spilled are never read */
    }
    x->wal_spilled = pos;
    x->wal_len = 0;
}

void store__wal_spill_close(StoreTxn *x)
{
    if (x->wal_spill_fd > 0)
        close(x->wal_spill_fd);
    x->wal_spill_fd = 0;
    x->wal_spilled = 0;
}

static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }

/* Seal the record whose header starts at off (payload already in place). */
static void wal_seal(uint8_t *rec, uint8_t type, size_t len)
{
    put32(rec + 4, (uint32_t)len);
    put32(rec + 8, ~(uint32_t)len);
    rec[12] = type;
    rec[13] = rec[14] = rec[15] = 0;
    put32(rec, crc32c(0, rec + 4, STORE_WAL_HEADER - 4 + len));
}

void store__wal_add(StoreTxn *x, uint8_t type, const void *payload, size_t len)
{
    if (store_g.replaying || !x)
        return;
    if (x->bulk && !x->bulk_sealing)
        store__bulk_seal(x);  /* a bulk load's record comes before any later one */
    if (len > UINT32_MAX - 64)
        err_raise(ERRCODE_PROGRAM_LIMIT_EXCEEDED, "WAL record too large");
    wal_maybe_spill(x);
    wal_reserve(x, STORE_WAL_HEADER + len);
    uint8_t *rec = x->wal + x->wal_len;
    if (len)
        memcpy(rec + STORE_WAL_HEADER, payload, len);
    wal_seal(rec, type, len);
    x->wal_len += STORE_WAL_HEADER + len;
}

/* A payload builder over the txn's buffer: records are built in place. */
typedef struct WalPut {
    StoreTxn *x;
    size_t start;  /* header offset */
} WalPut;

static WalPut put_begin(StoreTxn *x)
{
    if (x->bulk && !x->bulk_sealing)
        store__bulk_seal(x);  /* a bulk load's record comes before any later one */
    wal_maybe_spill(x);
    wal_reserve(x, STORE_WAL_HEADER);
    WalPut w = {x, x->wal_len};
    x->wal_len += STORE_WAL_HEADER;
    return w;
}

static void put_bytes(WalPut *w, const void *p, size_t n)
{
    wal_reserve(w->x, n);
    if (n)
        memcpy(w->x->wal + w->x->wal_len, p, n);
    w->x->wal_len += n;
}

static void put_u8(WalPut *w, uint8_t v) { put_bytes(w, &v, 1); }
static void put_u32(WalPut *w, uint32_t v) { put_bytes(w, &v, 4); }
static void put_u64(WalPut *w, uint64_t v) { put_bytes(w, &v, 8); }
static void put_str(WalPut *w, const char *s)
{
    if (!s) {
        put_u32(w, UINT32_MAX);
        return;
    }
    uint32_t n = (uint32_t)strlen(s);
    put_u32(w, n);
    put_bytes(w, s, n);
}

static void put_end(WalPut *w, uint8_t type)
{
    size_t len = w->x->wal_len - w->start - STORE_WAL_HEADER;
    wal_seal(w->x->wal + w->start, type, len);
}

/* A column definition (CREATE_TABLE, ADD_COLUMN). */
static void put_coldef(WalPut *w, const StoreColumnDef *c)
{
    put_str(w, c->name);
    put_u32(w, c->type.oid);
    put_u32(w, (uint32_t)c->type.typmod);
    put_u8(w, c->not_null);
    put_str(w, c->default_text);
}

/* Temporary tables (t->temp, in pg_temp_N) are never logged, as
 * PostgreSQL never WAL-logs temporary relations: they live in memory only,
 * their changes are undone through the undo log alone, and no session
 * survives a restart to miss them. Every per-table record below returns
 * at once for one; checkpoints skip them too (recovery.c). */

void store__wal_create_table(StoreTxn *x, const StoreTable *t, int ncols)
{
    if (store_g.replaying || t->temp)
        return;
    WalPut w = put_begin(x);
    put_u32(&w, t->dboid);
    put_u32(&w, t->oid);
    put_str(&w, t->schema);
    put_str(&w, t->name);
    /* A checkpoint while an ADD PRIMARY KEY is uncommitted records the table
     * as it was before (its ADD_PKEY record follows in the WAL at commit). */
    const bool *prev = t->pk_prev_not_null;
    put_u32(&w, (uint32_t)ncols);
    for (int i = 0; i < ncols; i++) {
        StoreColumnDef c = t->cols[i];
        if (prev)
            c.not_null = prev[i];
        put_coldef(&w, &c);
    }
    int npkey = prev ? 0 : t->npkey;
    put_u32(&w, (uint32_t)npkey);
    for (int i = 0; i < npkey; i++)
        put_u32(&w, (uint32_t)t->pkey[i]);
    if (t->view_sql)   /* a view: its query text last (absent for tables, older records) */
        put_str(&w, t->view_sql);
    put_end(&w, WAL_CREATE_TABLE);
}

void store__wal_drop_table(StoreTxn *x, const StoreTable *t)
{
    if (t->temp)
        return;
    uint32_t oid = t->oid;
    store__wal_add(x, WAL_DROP_TABLE, &oid, sizeof oid);
}

void store__wal_delete(StoreTxn *x, const StoreTable *t, uint64_t row, uint64_t next)
{
    if (store_g.replaying || t->temp)
        return;
    uint8_t buf[20];
    memcpy(buf, &t->oid, 4);
    memcpy(buf + 4, &row, 8);
    memcpy(buf + 12, &next, 8);
    store__wal_add(x, WAL_DELETE, buf, sizeof buf);
}

/* Column c of the batch's active rows: validity bits then values. */
static void put_column(WalPut *w, const StoreTable *t, int c, const Batch *b)
{
    const Vector *v = &b->cols[c];
    uint32_t n = b->count;
    bool nulls = false;
    for (uint32_t i = 0; i < n && !nulls; i++)
        nulls = !vec_is_valid(v, batch_row(b, i));
    put_u8(w, nulls);
    if (nulls) {
        uint8_t bits[VEC_CAPACITY / 8] = {0};
        for (uint32_t i = 0; i < n; i++)
            if (vec_is_valid(v, batch_row(b, i)))
                bits[i >> 3] |= (uint8_t)(1u << (i & 7));
        put_bytes(w, bits, (n + 7) / 8);
    }
    if (t->phys[c] == PHYS_STR) {
        const StrRef *s = v->data;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t r = v->is_const ? 0 : batch_row(b, i);
            uint32_t len = vec_is_valid(v, r) ? s[r].len : 0;
            put_u32(w, len);
            put_bytes(w, s[r].ptr, len);
        }
        return;
    }
    size_t width = t->width[c];
    if (!v->is_const && !b->sel) {
        put_bytes(w, v->data, width * n);
        return;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t r = v->is_const ? 0 : batch_row(b, i);
        put_bytes(w, (const char *)v->data + (size_t)r * width, width);
    }
}

void store__wal_insert(StoreTxn *x, const StoreTable *t, uint64_t base, const Batch *b, int ncols)
{
    if (store_g.replaying || b->count == 0 || t->temp)
        return;
    ERR_ASSERT(b->count <= VEC_CAPACITY);
    WalPut w = put_begin(x);
    put_u32(&w, t->oid);
    put_u64(&w, base);
    put_u32(&w, b->count);
    put_u32(&w, (uint32_t)ncols);
    for (int c = 0; c < ncols; c++)
        put_column(&w, t, c, b);
    put_end(&w, WAL_INSERT);
}

void store__wal_add_column(StoreTxn *x, const StoreTable *t, int col, const Value *fill)
{
    if (store_g.replaying || t->temp)
        return;
    WalPut w = put_begin(x);
    put_u32(&w, t->oid);
    put_coldef(&w, &t->cols[col]);
    put_u8(&w, fill && !fill->is_null);
    if (fill && !fill->is_null) {
        if (t->phys[col] == PHYS_STR) {
            put_u32(&w, fill->u.str.len);
            put_bytes(&w, fill->u.str.ptr, fill->u.str.len);
        } else {
            put_bytes(&w, &fill->u, t->width[col]);
        }
    }
    put_end(&w, WAL_ADD_COLUMN);
}

/* ---- the log file ---- */

/* WAL bytes past which a commit asks for a checkpoint (0 = never). */
static _Atomic uint64_t checkpoint_wal_bytes = STORE_WAL_CHECKPOINT_BYTES;

void store_set_checkpoint_wal_bytes(uint64_t bytes)
{
    atomic_store_explicit(&checkpoint_wal_bytes, bytes, memory_order_relaxed);
}

static struct {
    pthread_mutex_t mu;
    pthread_cond_t cond;
    int fd;
    bool open;
    uint64_t written;   /* bytes in the file */
    uint64_t flushed;   /* bytes known durable */
    bool flushing;      /* a committer runs fdatasync */
    uint64_t next_seq;  /* last commit sequence handed out */
    int blocked;        /* a checkpoint holds commits back */
    uint64_t fsyncs, commits;
    bool broken;        /* a write failed: no commit may proceed */
    uint64_t file_gen;  /* moves at every switch of file (store__wal_set_file) */
} wal = {.mu = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER, .fd = -1};

/* fsync setting: PostgreSQL's server parameter when common/guc knows it. */
static bool wal_fsync_enabled(void)
{
    if (!guc_canonical_name("fsync"))
        return true;
    return guc_get_bool(NULL, "fsync");
}

/* Open/switch the log file (recovery.c, checkpoint): path, size so far,
 * last commit sequence. */
void store__wal_set_file(int fd, uint64_t size, uint64_t last_seq);
void store__wal_set_file(int fd, uint64_t size, uint64_t last_seq)
{
    pthread_mutex_lock(&wal.mu);
    /* Not under a running fdatasync of the old file (the checkpointer's
     * flush of asynchronous commits may be one): it would sync a closed
     * or reused descriptor and count its bytes as flushed in the new. */
    while (wal.flushing)
        pthread_cond_wait(&wal.cond, &wal.mu);
    int old = wal.fd;
    wal.fd = fd;
    wal.written = wal.flushed = size;
    wal.file_gen++;
    pthread_cond_broadcast(&wal.cond);  /* waiters for the old file's flush end */
    if (last_seq > wal.next_seq)
        wal.next_seq = last_seq;
    wal.open = fd >= 0;
    pthread_mutex_unlock(&wal.mu);
    if (old >= 0 && old != fd)
        close(old);
}

void store__wal_open(void) {}

void store__wal_close(void)
{
    store__wal_set_file(-1, 0, 0);
    pthread_mutex_lock(&wal.mu);
    wal.next_seq = 0;
    wal.broken = false;
    wal.fsyncs = wal.commits = 0;
    pthread_mutex_unlock(&wal.mu);
}

uint64_t store__wal_size(void)
{
    pthread_mutex_lock(&wal.mu);
    uint64_t n = wal.written;
    pthread_mutex_unlock(&wal.mu);
    return n;
}

static void wal_wait_flushed(uint64_t end);

void store__wal_sync(void)
{
    pthread_mutex_lock(&wal.mu);
    if (wal.open && wal_fsync_enabled())
        wal_wait_flushed(wal.written);
    pthread_mutex_unlock(&wal.mu);
}

uint64_t store__wal_fsyncs(void) { return __atomic_load_n(&wal.fsyncs, __ATOMIC_RELAXED); }
uint64_t store__wal_commits(void) { return __atomic_load_n(&wal.commits, __ATOMIC_RELAXED); }

void store__wal_block_commits(void)
{
    pthread_mutex_lock(&wal.mu);
    wal.blocked++;
    /* Every commit that got a sequence must be published first. */
    while (atomic_load(&store_g.visible_seq) != wal.next_seq)
        pthread_cond_wait(&wal.cond, &wal.mu);
    pthread_mutex_unlock(&wal.mu);
}

void store__wal_unblock_commits(void)
{
    pthread_mutex_lock(&wal.mu);
    wal.blocked--;
    pthread_cond_broadcast(&wal.cond);
    pthread_mutex_unlock(&wal.mu);
}

static _Noreturn void wal_panic(const char *what, int e)
{
    /* PostgreSQL PANICs when it cannot write or flush WAL: the state of the
     * log is unknown, only a restart (recovery) can continue. */
    fprintf(stderr, "PANIC:  could not %s write-ahead log file in \"%s\": %s\n", what,
            store_g.data_dir ? store_g.data_dir : "?", strerror(e));
    abort();
}

static void write_all(int fd, const uint8_t *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            wal_panic("write", w < 0 ? errno : EIO);
        p += w;
        n -= (size_t)w;
    }
}

/* Wait until the log is durable up to `end` (group commit). Lock held.
 * A switch to a new file ends the wait: `end` was a position in the old
 * one, which the switch made durable first (a checkpoint syncs the log
 * with commits held back before it switches), and the new file's
 * positions start again from 0 (waiting for them to reach `end` hung the
 * checkpointer thread's flush of asynchronous commits, and store_close
 * joining it: CI, unit-storage_runs_read). */
static void wal_wait_flushed(uint64_t end)
{
    uint64_t gen = wal.file_gen;
    while (wal.flushed < end && wal.file_gen == gen) {
        if (wal.flushing) {
            pthread_cond_wait(&wal.cond, &wal.mu);
            continue;
        }
        wal.flushing = true;
        uint64_t target = wal.written;
        int fd = wal.fd;
        pthread_mutex_unlock(&wal.mu);
        int rc = fdatasync(fd);
        int e = errno;
        pthread_mutex_lock(&wal.mu);
        if (rc != 0)
            wal_panic("fsync", e);
        wal.fsyncs++;
        if (target > wal.flushed)
            wal.flushed = target;
        wal.flushing = false;
        pthread_cond_broadcast(&wal.cond);
    }
}

#define WAL_COPY_BYTES (1u << 20)

/* The spilled records go to the log first (under the log mutex, so they
 * stay contiguous with the rest and the COMMIT; a crash in between leaves
 * records without a COMMIT, which recovery drops as a torn tail). */
static void wal_copy_spilled(StoreTxn *x, uint8_t *buf)
{
    for (uint64_t off = 0; off < x->wal_spilled;) {
        size_t n = x->wal_spilled - off < WAL_COPY_BYTES ? (size_t)(x->wal_spilled - off)
                                                         : WAL_COPY_BYTES;
        ssize_t r = pread(x->wal_spill_fd, buf, n, (off_t)off);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            wal_panic("read spilled", r < 0 ? errno : EIO);
        write_all(wal.fd, buf, (size_t)r);
        off += (uint64_t)r;
    }
}

/* Append the COMMIT record, write the buffer; returns the sequence and the
 * end offset. Lock held. */
static uint64_t wal_append_commit(StoreTxn *x, uint8_t *copy_buf, uint64_t *end)
{
    while (wal.blocked)
        pthread_cond_wait(&wal.cond, &wal.mu);
    if (!wal.open || wal.broken)
        wal_panic("append to", EBADF);
    uint64_t seq = ++wal.next_seq;
    uint8_t *rec = x->wal + x->wal_len;
    memcpy(rec + STORE_WAL_HEADER, &seq, 8);
    wal_seal(rec, WAL_COMMIT, 8);
    x->wal_len += STORE_WAL_HEADER + 8;
    wal_copy_spilled(x, copy_buf);
    write_all(wal.fd, x->wal, x->wal_len);
    wal.written += x->wal_spilled + x->wal_len;
    wal.commits++;
    *end = wal.written;
    return seq;
}

/* Whether x's commit waits for the flush: synchronous_commit of x's
 * session (any value but "off", as PostgreSQL without standbys), unless
 * store_txn_set_synchronous_commit said otherwise. */
static bool txn_sync_commit(const StoreTxn *x)
{
    if (x->sync_forced || !x->guc || !guc_canonical_name("synchronous_commit"))
        return x->sync_commit;
    return strcmp(guc_show(x->guc, "synchronous_commit"), "off") != 0;
}

uint64_t store__wal_commit(StoreTxn *x)
{
    if (store_g.replaying) {
        uint64_t seq = store_g.replay_seq;
        store__undo_commit(x, seq);
        atomic_store(&store_g.visible_seq, seq);
        return seq;
    }
    store__cat_precommit(x);  /* final sequence records (catalog_txn.c) */
    if (store__wal_pos(x) == 0 && x->nundo == 0)
        return 0;
    wal_reserve(x, STORE_WAL_HEADER + 8);  /* before the lock: may raise */
    uint8_t *copy_buf = x->wal_spilled ? store__malloc(WAL_COPY_BYTES) : NULL;
    /* Nothing logged but the COMMIT (only temporary tables changed: they are
     * never logged): no flush to wait for, as PostgreSQL's commit of a
     * transaction that wrote no WAL. The record still hands out the
     * sequence that stamps the rows. */
    bool sync = store__wal_pos(x) != 0 && txn_sync_commit(x);
    pthread_mutex_lock(&wal.mu);
    uint64_t end = 0;
    uint64_t seq = wal_append_commit(x, copy_buf, &end);
    pthread_mutex_unlock(&wal.mu);
    free(copy_buf);
    /* Decided: the next writers of x's tables may go on (txn.c "Commit
     * handoff"); their commits can share this one's flush. */
    store__txn_handoff(x, seq);
    pthread_mutex_lock(&wal.mu);
    if (sync && wal_fsync_enabled())
        wal_wait_flushed(end);
    else if (wal.flushed < end && !wal_fsync_enabled())
        wal.flushed = end;
    /* Publish in sequence order. */
    while (atomic_load(&store_g.visible_seq) != seq - 1)
        pthread_cond_wait(&wal.cond, &wal.mu);
    pthread_mutex_unlock(&wal.mu);
    store__undo_commit(x, seq);  /* cannot fail */
    store__cat_commit(x);        /* roles, sequences, statistics: before publication */
    pthread_mutex_lock(&wal.mu);
    atomic_store(&store_g.visible_seq, seq);
    pthread_cond_broadcast(&wal.cond);
    uint64_t limit = atomic_load_explicit(&checkpoint_wal_bytes, memory_order_relaxed);
    bool big = limit != 0 && wal.written > limit && !wal.blocked;
    pthread_mutex_unlock(&wal.mu);
    x->wal_len = 0;
    store__wal_spill_close(x);
    if (big)
        store__checkpoint_request();  /* the background checkpointer does it */
    return seq;
}
