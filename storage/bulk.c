/*
 * bulk.c — bulk loads (COPY FROM) that write their rows once: into a run
 * file as they load, with one small WAL record at COMMIT instead of the rows.
 *
 * store_table_bulk_load appends each batch to the table in memory as an
 * INSERT does (NOT NULL, primary key, undo) but writes no WAL record for
 * it. The rows of one load are contiguous, [first, end), and stay the
 * transaction's own until it ends. Once a load passes STORE_BULK_RUN_ROWS
 * rows, a run writer (storage/runs, ZSTD level 1, the checkpoint runs' layout: the
 * row number as key) is opened as checkpoint/<gen>.<oid>.run and every
 * complete store group is written to it as soon as it fills — from the
 * table's memory, so strings are read from the heap, not the COPY buffers.
 * `gen` is a bulk id at or above STORE_BULK_GEN, never a checkpoint
 * generation (remove_before leaves such files alone; cold.c unlinks one
 * that a compaction superseded; recovery removes any no table attached).
 *
 * The writer runs on a thread of its own (bulk_pipe.c): each complete
 * group goes to it as a job owning copies of the group's arrays, so the
 * COPY thread parses the next rows while the worker encodes, compresses
 * and writes; the worker never reads table memory, which a rollback frees
 * under it. Sealing waits for the queue, then finishes the file here.
 *
 * **Unread loads** (store_txn_bulk_unread: a COPY, nothing reads its rows
 * while it runs): a whole group of the load hands its
 * non-key arrays to the job instead of a copy and its chunks' data become
 * NULL at once — what a checkpoint's freeze does after COMMIT — and value
 * heap blocks holding only such rows are freed (the job copied their
 * strings). The load's memory then stays at the rows' stamps, validity
 * bits, zone maps, key columns and pk entries (~145 bytes a row of
 * ClickBench's hits instead of ~1,140); the COMMIT installs the run, which
 * serves the groups as cold ones. A rollback frees those groups (the next
 * append allocates fresh ones, free_detached_groups). Inside a block the
 * COPY's end seals the load (store_txn_bulk_end; a scan by the loading
 * transaction would too): its finished run joins t->bulk_ref, the
 * transaction's uncommitted runs of t, through which cold.c serves the
 * groups to the transaction's later statements (and to anyone between the
 * COMMIT's publication and the install). Several loads of one table in a
 * transaction chain: each run starts at the group boundary at or below the
 * previous one's end (rewriting that partial group and any rows appended
 * in between), and the COMMIT installs them oldest first.
 *
 * A load is **sealed** before any other record of the transaction, before
 * a savepoint is taken (store__wal_pos) and at COMMIT: its last rows go to
 * the writer, run_writer_finish fsyncs and renames the file, and a
 * WAL_BULK_RUN record (oid, gen, first, end) takes the rows' place in the
 * record stream — so records after it (an UPDATE of a loaded row) replay
 * after the rows exist. A load below the threshold is sealed by writing its
 * rows as ordinary INSERT records, from memory.
 *
 * A load of a table whose row count is not a multiple of 2048, or whose
 * runs end before its last row, starts its run at `run_first`, the group
 * boundary at or below the end of the table's runs: the rows
 * [run_first, first) — the runs' last partial group, rows committed since
 * the last checkpoint and the loading transaction's own rows, all in
 * memory (or, when a checkpoint froze them meanwhile, read back from its
 * run) — are written into the run first, as a checkpoint rewrites a
 * partial group, so the run continues the table's runs without a gap and
 * every store group stays in one span.
 * The record then carries run_first too (36 bytes; 28 when equal).
 *
 * After the COMMIT, with checkpoints excluded (txn.c), store__bulk_install
 * makes the run one of the table's (cold.c: the previous last span is
 * clipped at run_first, whole groups go cold, the fixed-width non-key
 * columns leave memory) when the table's runs still end within
 * [run_first, first]; otherwise the rows stay in memory and the next
 * checkpoint writes them. A span the run replaces entirely (a checkpoint's
 * run of a partial group) is closed but its file kept: the current
 * checkpoint may name it (remove_before takes it later). ROLLBACK removes
 * the files; ROLLBACK TO removes those sealed after the savepoint (their
 * rows are undone by the undo log). Replay of WAL_BULK_RUN loads rows
 * [first, end) from the file (the earlier ones exist already) and
 * attaches it under the same condition, exactly as a checkpoint's
 * TABLE_RUNS; rows are stamped by their replayed commit, never by the
 * run's versions (0).
 *
 * After a TRUNCATE of the table in the same transaction, a load at the
 * new generation's boundary T (no row appended since) writes its run with
 * row numbers - T (`base`): at COMMIT the swap (truncate.c) renumbers rows
 * T.. as 0.., then the run joins the new generation as its first span.
 * Replay loads the rows hot at the record (the TRUNCATE is pending then)
 * and attaches the run at the replayed COMMIT, after the swap, the same
 * way. Loads before a TRUNCATE of their table are never installed.
 *
 * File lifetime (the registry below): a bulk file is needed while a
 * transaction may still commit it (pending), while a table holds it as a
 * run (live, cold.c), and while a WAL record naming it may be replayed —
 * until a checkpoint whose sequence covers the commit completes. After each
 * checkpoint store__bulk_gc removes the files needed by none of these (a
 * run a TRUNCATE or DROP TABLE released, a load a TRUNCATE in the same
 * transaction hid); recovery registers the files replayed or attached and
 * removes every other bulk file (uncommitted loads, .tmp files of a crash).
 *
 * A temporary table is never bulk loaded: its COPY appends in memory as
 * INSERT does (store_table_append, which logs nothing for it), so it has
 * no run file at any time.
 */
#define STORE_INTERNAL
#include "storage/storage_int.h"

#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "common/error.h"
#include "storage/bulk_pipe.h"
#include "storage/runs/run.h"

/* Bulk run ids: far above any checkpoint generation. */
#define STORE_BULK_GEN (UINT64_C(1) << 62)

typedef struct StoreBulk {
    StoreTable *t;
    RunWriter *w;           /* open while loading past the threshold */
    uint64_t gen;
    uint64_t first, end;    /* rows [first, end) loaded by this transaction */
    uint64_t run_first;     /* the run holds [run_first, end): from the group boundary at
                             * or below where t's runs ended (committed rows before first
                             * rewritten, as a checkpoint rewrites a partial group) */
    uint64_t written;       /* [run_first, written) are in w */
    uint64_t base;          /* the run's row numbers are table rows - base: the TRUNCATE's
                             * boundary T when the load follows a TRUNCATE of t in its
                             * transaction (COMMIT renumbers rows T.. as 0..), else 0 */
    bool replayed;          /* recovery: attach at the replayed COMMIT; never unlink */
    bool sealed;
    bool run;               /* sealed into a run file (else as INSERT records) */
    bool skip;              /* a TRUNCATE of the table followed: never installed */
    bool unread;            /* nobody reads the rows before COMMIT: written groups leave
                             * memory (store_txn_bulk_unread) */
    uint64_t detached;      /* unread: groups of rows [first rounded up, detached) left */
    StoreRunRef *pend;      /* unread, sealed: the transaction's uncommitted runs of t up to
                             * this one (t->bulk_ref while it is t's newest such load) */
    StoreBulkPipe *pipe;    /* w's worker thread (NULL: appends inline) */
    int ncols;              /* table columns at the start (the run's) */
    uint64_t wal_pos;       /* sealed: stream position before its record */
    struct StoreBulk *next;
} StoreBulk;

static _Atomic uint64_t bulk_last;

/* The thread's statement whose loaded rows nobody reads before its
 * transaction ends (store_txn_bulk_unread): the transaction and its gen
 * (bumped when it ends, so a reused StoreTxn never inherits the mark). */
static _Thread_local struct {
    const StoreTxn *x;
    uint64_t gen;
} unread_txn;


/* Bulk files that exist: seq 0 = pending (its transaction is running),
 * else the commit sequence naming it (1 after recovery). */
typedef struct BulkFile {
    uint64_t gen;
    uint32_t oid;
    uint64_t seq;
    struct BulkFile *next;
} BulkFile;
static pthread_mutex_t files_mu = PTHREAD_MUTEX_INITIALIZER;
static BulkFile *files;

static void file_register(uint64_t gen, uint32_t oid, uint64_t seq)
{
    BulkFile *f = store__calloc(1, sizeof *f);
    f->gen = gen;
    f->oid = oid;
    f->seq = seq;
    pthread_mutex_lock(&files_mu);
    f->next = files;
    files = f;
    pthread_mutex_unlock(&files_mu);
}

/* seq: committed as seq; UINT64_MAX: forget the entry (the file is gone). */
static void file_set(uint64_t gen, uint64_t seq)
{
    pthread_mutex_lock(&files_mu);
    for (BulkFile **p = &files; *p; p = &(*p)->next)
        if ((*p)->gen == gen) {
            BulkFile *f = *p;
            if (seq == UINT64_MAX) {
                *p = f->next;
                free(f);
            } else {
                f->seq = seq;
            }
            break;
        }
    pthread_mutex_unlock(&files_mu);
}

static uint64_t bulk_gen_new(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t now = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
    uint64_t last = atomic_load(&bulk_last), next;
    do
        next = now > last ? now : last + 1;
    while (!atomic_compare_exchange_weak(&bulk_last, &last, next));
    return STORE_BULK_GEN | (next & (STORE_BULK_GEN - 1));
}

static void bulk_path(char *buf, size_t cap, uint64_t gen, uint32_t oid)
{
    snprintf(buf, cap, "%s/checkpoint/%llu.%u.run", store_g.data_dir, (unsigned long long)gen,
             oid);
}

/* Where t's runs end (under store_g.lock, or in recovery); UINT64_MAX
 * when t has no run ref (its data is gone). */
static uint64_t runs_end(const StoreTable *t)
{
    const StoreRunRef *r = t->run_cur;
    if (!r)
        return UINT64_MAX;
    return r->nspans ? r->spans[r->nspans - 1].end : 0;
}

/* Whether a run of rows [run_first, ...) can join t's runs now that they
 * end at e: no gap before it, nothing past the committed rows it rewrote. */
static bool run_fits(uint64_t run_first, uint64_t first, uint64_t e)
{
    return run_first % STORE_GROUP_ROWS == 0 && run_first <= e && e <= first;
}

/* A new load of t at its current end, or NULL when t does not qualify. The
 * run starts at the group boundary at or below the end of t's runs: rows
 * from there to the end (committed, in memory or in a run group) are
 * written into it again, so the run joins t's runs without a gap. */
static StoreBulk *bulk_start(StoreTable *t, StoreTxn *x)
{
    uint64_t n = atomic_load(&t->nrows);
    /* x's earlier loads of t with runs (all sealed here): this run follows
     * the last one, as it will follow it in t's runs after the COMMIT. */
    uint64_t pend = 0;
    for (const StoreBulk *o = x->bulk; o; o = o->next)
        if (o->t == t && o->run && !o->skip && o->end > pend)
            pend = o->end;
    store__lock();
    uint64_t e = runs_end(t);
    /* After x's own TRUNCATE of t (rows from its boundary T are x's): the
     * run belongs to the new generation, numbered from T (row 0 after the
     * swap). Else rows from `committed` on, if any, are x's own too (t's
     * writer). */
    bool trunc = t->trunc_txn == x && n >= t->trunc_row;
    uint64_t base = trunc ? t->trunc_row : 0;
    bool ok = !t->alter_txn && t->ncols == t->ncols_committed && !t->view_sql &&
              (trunc || (!t->trunc_txn && e <= n));
    store__unlock();
    if (!ok)
        return NULL;
    uint64_t from = pend > (trunc ? base : e) ? pend : (trunc ? base : e);
    StoreBulk *bk = store__calloc(1, sizeof *bk);
    bk->t = t;
    bk->ncols = t->ncols;
    bk->first = bk->end = n;
    bk->base = base;
    bk->run_first = bk->written = from - from % STORE_GROUP_ROWS;
    bk->unread = unread_txn.x == x && unread_txn.gen == x->gen;
    bk->next = x->bulk;
    x->bulk = bk;
    return bk;
}

void store_txn_bulk_unread(StoreTxn *txn)
{
    unread_txn.x = txn;
    unread_txn.gen = txn ? txn->gen : 0;
}

/* Whether a load of x (of t; NULL: any) is open with a run writer: its
 * whole groups may have left memory. Below the threshold every row is
 * still in memory, and the load may go on with the next COPY. */
static bool writing(const StoreTxn *x, const StoreTable *t)
{
    for (const StoreBulk *bk = x->bulk; bk; bk = bk->next)
        if (!bk->sealed && bk->w && bk->unread && (!t || bk->t == t))
            return true;
    return false;
}

void store_txn_bulk_end(StoreTxn *txn)
{
    if (unread_txn.x == txn)
        unread_txn.x = NULL;
    if (txn && !txn->bulk_sealing && writing(txn, NULL))
        store__bulk_seal(txn);  /* later statements read the runs (t->bulk_ref) */
}

void store__bulk_before_read(StoreTxn *x, StoreTable *t)
{
    if (!x->bulk_sealing && writing(x, t))
        store__bulk_seal(x);
}

/* Copy the bytes of refs[0..n) into one block owned by j and point refs at
 * it; rows whose validity bit is clear (validity non-NULL) become empty. */
static void own_strings(StoreBulkJob *j, StrRef *refs, uint32_t n, const uint64_t *validity)
{
    size_t total = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (validity && !(validity[i / 64] >> (i % 64) & 1))
            refs[i] = (StrRef){"", 0};
        total += refs[i].len;
    }
    char *buf = store__malloc(total ? total : 1);
    store__bulk_job_own(j, buf, total);
    for (uint32_t i = 0; i < n; i++) {
        memcpy(buf, refs[i].ptr, refs[i].len);
        refs[i].ptr = buf;
        buf += refs[i].len;
    }
}

/* A whole group of an unread load whose rows are all the load's: its
 * non-key arrays go to job j (the chunks' data becomes NULL, as a cold
 * group's; the run serves them once the COMMIT installs it). Key columns
 * stay: the pk index reads them. */
static void detach_group(StoreTable *t, StoreRowGroup *g, StoreBulkJob *j)
{
    pthread_mutex_lock(&t->freeze_mu);
    for (int k = 0; k < t->ncols; k++) {
        void *d = g->chunks[k].data;
        if (!d || store__col_is_key(t, k))
            continue;
        j->owned[j->nowned++] = d;  /* room reserved by job_build: never raises */
        j->bytes += t->width[k] * STORE_GROUP_ROWS;
        j->batch.cols[k].data = d;
        __atomic_store_n(&g->chunks[k].data, NULL, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&t->freeze_mu);
}

/* Free the bytes of value-chain heap blocks that hold only detached rows
 * of bk (rows [lo, bk->detached), lo the load's first whole group): the
 * jobs carry copies of the strings, and no one else reads uncommitted
 * rows. Blocks shared with earlier rows are left to the freeze at COMMIT
 * (or a checkpoint's, which retires them). */
static void release_detached_strings(StoreBulk *bk)
{
    StoreTable *t = bk->t;
    uint64_t lo = (bk->first + STORE_GROUP_ROWS - 1) / STORE_GROUP_ROWS * STORE_GROUP_ROWS;
    StoreHeap *h = &t->heap;
    pthread_mutex_lock(&h->mu);
    for (StoreHeapBlock *b = h->vals ? h->vals->prev : NULL; b; b = b->prev) {
        if (b->row_lo == UINT64_MAX)
            continue;
        if (b->row_lo < lo || !b->bytes)
            break;  /* older blocks: shared, or released by an earlier call */
        if (b->row_hi > bk->detached || b->row_lo < h->vals_pin_rows)
            continue;
        free(b->bytes);
        b->bytes = NULL;
    }
    pthread_mutex_unlock(&h->mu);
}

/* Vector k of job j: n values of t's column k from vals (validity from the
 * chunk, rows off..), copied into arrays j owns. */
static void job_copy_column(StoreBulkJob *j, const StoreTable *t, int k, const StoreChunk *ch,
                            const void *vals, uint32_t off, uint32_t n)
{
    Vector *v = &j->batch.cols[k];
    void *handed = v->data;  /* the table's own array (detach_group), else NULL */
    *v = (Vector){.type = t->cols[k].type, .phys = t->phys[k], .data = handed};
    if (atomic_load(&ch->zone.null_count) != 0) {
        uint64_t *wv = store__calloc(VEC_VALIDITY_WORDS, sizeof(uint64_t));
        store__bulk_job_own(j, wv, sizeof(uint64_t) * VEC_VALIDITY_WORDS);
        for (uint32_t i = 0; i < n; i++)
            if (ch->validity[(off + i) / 64] >> ((off + i) % 64) & 1)
                wv[i / 64] |= UINT64_C(1) << (i % 64);
        v->validity = wv;
    }
    if (!v->data) {  /* not handed over by the table: a copy */
        size_t bytes = (size_t)n * t->width[k];
        void *d = store__malloc(bytes ? bytes : 1);
        store__bulk_job_own(j, d, bytes);
        memcpy(d, (const char *)vals + (size_t)off * t->width[k], bytes);
        v->data = d;
    }
    if (t->phys[k] == PHYS_STR)
        own_strings(j, v->data, n, v->validity);
}

/* Rows [from, to) (one store group at most) of t as a job owning its data:
 * from memory, or through ref from a run when a checkpoint made the group
 * cold meanwhile (rows before the load's first were committed when it
 * began). A whole group of an unread load hands its non-key arrays over. */
static StoreBulkJob *job_build(StoreBulk *bk, uint64_t from, uint64_t to, StoreRunRef **ref,
                               StoreColdCache *cc)
{
    StoreTable *t = bk->t;
    int nc = t->ncols;
    uint32_t n = (uint32_t)(to - from), off = (uint32_t)(from % STORE_GROUP_ROWS);
    StoreRowGroup *g = store__group(t, from / STORE_GROUP_ROWS);
    StoreBulkJob *j = store__bulk_job_new(nc, n, 3 * nc + 2);
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        bool detach = bk->unread && off == 0 && n == STORE_GROUP_ROWS && from >= bk->first;
        if (detach)
            detach_group(t, g, j);
        for (int k = 0; k < nc; k++) {
            const void *vals = j->batch.cols[k].data
                                   ? NULL
                                   : store__chunk_values(t, ref, cc, &g->chunks[k], k, from - off);
            job_copy_column(j, t, k, &g->chunks[k], vals, off, n);
        }
        int64_t *rowno = store__malloc(sizeof(int64_t) * n);
        store__bulk_job_own(j, rowno, sizeof(int64_t) * n);
        for (uint32_t i = 0; i < n; i++)
            rowno[i] = (int64_t)(from + i - bk->base);
        j->batch.cols[nc] = (Vector){.type = SQLTYPE(TYPE_INT8), .phys = PHYS_I64, .data = rowno};
        if (detach) {
            bk->detached = to;
            release_detached_strings(bk);
        }
        err_pop(&jmp);
    } else {
        store__bulk_job_free(j);
        err_rethrow();
    }
    return j;
}

/* Append j to w now (no worker thread) and free it. */
static void job_append_now(RunWriter *w, StoreBulkJob *j)
{
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        run_writer_append(w, &j->batch, j->versions, NULL);
        err_pop(&jmp);
    } else {
        store__bulk_job_free(j);
        err_rethrow();
    }
    store__bulk_job_free(j);
}

static void writer_open(StoreBulk *bk, MemArena *a)
{
    StoreTable *t = bk->t;
    RunSchema schema = store__table_run_schema(t, t->ncols, a);
    /* A bulk load is written once and read for long (the analytic case):
     * ZSTD level 1 makes the run about a quarter smaller than LZ4 (1M
     * ClickBench rows: 243 → 178 MB; 10M: 1.79 against 2.45 GB) at a
     * compression speed the COPY's parsing hides; hot reads come from the
     * decoded-chunk cache. Groups of STORE_BULK_GROUP_ROWS rather than 64K:
     * a chunk is decoded whole, so a selective query's first read after a
     * restart (ClickBench Q36-Q42: a few store groups out of each run group)
     * decodes a quarter as much, for 1% more bytes. */
    RunWriteOptions opts = {.compression = RUN_COMP_ZSTD, .zstd_level = 1,
                            .group_rows = STORE_BULK_GROUP_ROWS};
    char path[4200];
    uint64_t gen = bulk_gen_new();
    bulk_path(path, sizeof path, gen, t->oid);
    file_register(gen, t->oid, 0);
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        bk->w = run_writer_create(path, &schema, &opts);
        err_pop(&jmp);
    } else {
        file_set(gen, UINT64_MAX);
        err_rethrow();
    }
    bk->gen = gen;
}

/* Complete store groups loaded so far (all rows when `all`) to the writer:
 * as jobs for its worker thread (inline when it has none). */
static void writer_catch_up(StoreBulk *bk, bool all)
{
    if (!bk->w && bk->end - bk->first < STORE_BULK_RUN_ROWS)
        return;  /* below the threshold: no file (yet) */
    MemArena *a = mem_arena_create("bulk load");
    StoreRunRef *ref = store__run_acquire(bk->t);
    StoreColdCache cc = {.group = UINT32_MAX, .private_decode = true};
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        if (!bk->w) {
            writer_open(bk, a);
            bk->pipe = store__bulk_pipe_start(bk->w);
        }
        while (bk->w && bk->written < bk->end) {
            uint64_t to = bk->written - bk->written % STORE_GROUP_ROWS + STORE_GROUP_ROWS;
            if (to > bk->end) {
                if (!all)
                    break;
                to = bk->end;
            }
            StoreBulkJob *j = job_build(bk, bk->written, to, &ref, &cc);
            bk->written = to;
            if (bk->pipe)
                store__bulk_pipe_put(bk->pipe, j);
            else
                job_append_now(bk->w, j);
        }
        err_pop(&jmp);
    } else {
        store__cold_cache_free(&cc);
        store__run_release(bk->t, ref);
        mem_arena_destroy(a);
        err_rethrow();
    }
    store__cold_cache_free(&cc);
    store__run_release(bk->t, ref);
    mem_arena_destroy(a);
}

void store_table_bulk_load(StoreTable *t, StoreTxn *x, const Batch *b)
{
    /* A temporary table's rows stay in memory as INSERT's do: no run file
     * (nothing to remove at the session's end or a restart), no record. */
    if (!x || store_g.replaying || b->count == 0 || t->temp) {
        store_table_append(t, x, b);
        return;
    }
    store__txn_acquire_write(x, t);
    StoreBulk *bk = x->bulk;
    while (bk && (bk->t != t || bk->sealed))
        bk = bk->next;
    if (bk && bk->end != atomic_load(&t->nrows))
        store__bulk_seal(x);  /* rows appended otherwise meanwhile: a new load */
    if (!bk || bk->sealed)
        bk = bulk_start(t, x);
    if (!bk) {
        store_table_append(t, x, b);
        return;
    }
    ERR_ASSERT(b->count <= VEC_CAPACITY);
    uint64_t base = store__append_nowal(t, x, b);
    bk->end = base + b->count;
    writer_catch_up(bk, false);
}

/* The sealed run of unread load bk joins the uncommitted runs its
 * transaction reads t's rows through (t->bulk_ref, cold.c), after x's
 * earlier ones. */
static void pending_push(StoreBulk *bk)
{
    StoreTable *t = bk->t;
    char path[4200];
    bulk_path(path, sizeof path, bk->gen, t->oid);
    store__lock();
    StoreRunRef *prev = t->bulk_ref;  /* changed by t's writer only: us */
    store__unlock();
    bk->pend = store__run_pending_ref(t, prev, path, bk->gen, bk->run_first, bk->end, bk->ncols);
    store__run_pending_set(t, store__run_ref_dup(bk->pend));
}

/* t->bulk_ref after x's loads of t changed (ROLLBACK TO): the runs of its
 * newest load left that has them, else none. */
static void pending_restore(StoreTxn *x, StoreTable *t)
{
    StoreBulk *bk = x->bulk;
    while (bk && (bk->t != t || !bk->pend))
        bk = bk->next;
    store__run_pending_set(t, bk ? store__run_ref_dup(bk->pend) : NULL);
}

/* Seal one load: its record (and the run file, fsync'd) or its rows as
 * INSERT records. */
static void bulk_seal_one(StoreTxn *x, StoreBulk *bk)
{
    StoreTable *t = bk->t;
    bk->wal_pos = store__wal_pos(x);
    if (bk->end - bk->first >= STORE_BULK_RUN_ROWS || bk->w) {
        writer_catch_up(bk, true);
        StoreBulkPipe *p = bk->pipe;
        bk->pipe = NULL;
        if (p)
            store__bulk_pipe_finish(p);  /* every group appended; raises the worker's error */
        RunWriter *w = bk->w;
        bk->w = NULL;
        run_writer_finish(w, NULL);  /* fsync, rename, directory fsync */
        bk->run = true;
        if (bk->unread)
            pending_push(bk);  /* its groups that left memory are read from the run */
        bk->sealed = true;
        uint8_t rec[36];
        memcpy(rec, &t->oid, 4);
        memcpy(rec + 4, &bk->gen, 8);
        memcpy(rec + 12, &bk->first, 8);
        memcpy(rec + 20, &bk->end, 8);
        memcpy(rec + 28, &bk->run_first, 8);  /* absent in older records: = first */
        store__wal_add(x, WAL_BULK_RUN, rec, bk->run_first == bk->first ? 28 : sizeof rec);
        return;
    }
    bk->sealed = true;
    MemArena *a = mem_arena_create("bulk seal");
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        for (uint64_t r = bk->first; r < bk->end;) {
            uint64_t to = r - r % STORE_GROUP_ROWS + STORE_GROUP_ROWS;
            to = to < bk->end ? to : bk->end;
            uint32_t n = (uint32_t)(to - r), off = (uint32_t)(r % STORE_GROUP_ROWS);
            const StoreRowGroup *g = store__group(t, r / STORE_GROUP_ROWS);
            Batch b = {.ncols = t->ncols, .count = n, .cols = MEM_NEW_ARRAY(a, Vector, t->ncols + 1)};
            for (int k = 0; k < t->ncols; k++) {
                const StoreChunk *ch = &g->chunks[k];
                Vector *v = &b.cols[k];
                *v = (Vector){.type = t->cols[k].type, .phys = t->phys[k],
                              .data = (char *)ch->data + (size_t)off * t->width[k]};
                uint64_t *wv = MEM_NEW_ARRAY(a, uint64_t, VEC_VALIDITY_WORDS);
                memset(wv, 0, sizeof(uint64_t) * VEC_VALIDITY_WORDS);
                for (uint32_t i = 0; i < n; i++)
                    if (ch->validity[(off + i) / 64] >> ((off + i) % 64) & 1)
                        wv[i / 64] |= UINT64_C(1) << (i % 64);
                v->validity = wv;
            }
            store__wal_insert(x, t, r, &b, t->ncols);
            mem_arena_reset(a);
            r = to;
        }
        err_pop(&jmp);
    } else {
        mem_arena_destroy(a);
        err_rethrow();
    }
    mem_arena_destroy(a);
}

void store__bulk_seal(StoreTxn *x)
{
    if (!x->bulk || x->bulk_sealing)
        return;
    x->bulk_sealing = true;
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        /* Oldest first (the list is newest first): the log keeps load order. */
        for (;;) {
            StoreBulk *oldest = NULL;
            for (StoreBulk *bk = x->bulk; bk; bk = bk->next)
                if (!bk->sealed)
                    oldest = bk;
            if (!oldest)
                break;
            bulk_seal_one(x, oldest);
        }
        err_pop(&jmp);
    } else {
        x->bulk_sealing = false;
        err_rethrow();
    }
    x->bulk_sealing = false;
}

/* An unread load rolled back (the undo log cut the rows back to its
 * first): its whole groups gave their non-key arrays to the writer, so
 * they go, as if never allocated; the next append allocates fresh ones.
 * Nobody else reads groups past the committed rows; t's writer is still
 * this transaction. */
static void free_detached_groups(StoreBulk *bk)
{
    StoreTable *t = bk->t;
    uint64_t g0 = (bk->first + STORE_GROUP_ROWS - 1) / STORE_GROUP_ROWS;
    if (!bk->unread || bk->detached <= g0 * STORE_GROUP_ROWS || t->data_freed ||
        atomic_load(&t->nrows) > g0 * STORE_GROUP_ROWS || t->ngroups <= g0)
        return;
    uint64_t ng = t->ngroups;
    store__groups_free(t, g0, ng);
    for (uint64_t g = g0; g < ng; g++)
        __atomic_store_n(&t->dir[g / STORE_DIR_SEG][g % STORE_DIR_SEG], NULL, __ATOMIC_RELEASE);
    t->ngroups = g0;
}

/* store_close frees live transactions with store_g.lock held, after
 * store__txn_id_stop zeroed the id counter (never 0 while the store is
 * open: ids start at 1); t->bulk_ref goes with t's data then. */
static bool store_closing(void)
{
    return atomic_load(&store_g.next_txn_id) == 0;
}

static void bulk_drop(StoreBulk *bk)
{
    free_detached_groups(bk);
    if (store_closing())
        store__run_release_locked(bk->pend);
    else
        store__run_release(bk->t, bk->pend);  /* t->bulk_ref no longer names it */
    char path[4200];
    store__bulk_pipe_stop(bk->pipe);  /* before the writer it appends to goes */
    bk->pipe = NULL;
    if (bk->w) {
        run_writer_abort(bk->w);
        file_set(bk->gen, UINT64_MAX);
    } else if (bk->run && !bk->replayed) {
        bulk_path(path, sizeof path, bk->gen, bk->t->oid);
        unlink(path);
        file_set(bk->gen, UINT64_MAX);
    }
    free(bk);
}

void store__bulk_truncated(StoreTxn *x, StoreTable *t)
{
    store__bulk_seal(x);
    for (StoreBulk *bk = x->bulk; bk; bk = bk->next)
        if (bk->t == t)
            bk->skip = true;
}

void store__bulk_abort(StoreTxn *x)
{
    StoreBulk *bk = x->bulk;
    if (!bk)
        return;  /* every commit comes here: no trim without a load */
    x->bulk = NULL;
    for (StoreBulk *o = bk; o && !store_closing(); o = o->next)
        if (o->pend)
            store__run_pending_set(o->t, NULL);
    while (bk) {
        StoreBulk *next = bk->next;
        bulk_drop(bk);
        bk = next;
    }
}

void store__bulk_cut(StoreTxn *x, uint64_t pos)
{
    StoreBulk **p = &x->bulk, *gone = NULL;
    while (*p) {
        StoreBulk *bk = *p;
        if (!bk->sealed || bk->wal_pos >= pos) {
            *p = bk->next;
            bk->next = gone;
            gone = bk;
        } else {
            p = &bk->next;
        }
    }
    for (StoreBulk *bk = gone; bk; bk = bk->next)
        if (bk->pend)
            pending_restore(x, bk->t);  /* before the runs of the loads cut go */
    /* Newest first (gone is oldest first): each frees its groups past the
     * older ones'. */
    StoreBulk *rev = NULL;
    while (gone) {
        StoreBulk *next = gone->next;
        gone->next = rev;
        rev = gone;
        gone = next;
    }
    while (rev) {
        StoreBulk *next = rev->next;
        bulk_drop(rev);
        rev = next;
    }
}

/* An unread load whose run cannot join t (never expected: nobody else
 * writes t meanwhile, checkpoints write committed rows only): its groups
 * that left memory come back from the run through t->bulk_ref, still set,
 * so the rows stay readable. Numbered as before the COMMIT: not after a
 * TRUNCATE's swap renumbered them. */
static void bulk_thaw(const StoreBulk *bk)
{
    StoreTable *t = bk->t;
    if (bk->base != 0) {
        fprintf(stderr, "WARNING:  bulk run of \"%s\" not installed: its rows are read from "
                        "it after a restart\n", t->name);
        return;
    }
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        store__run_thaw_rows(t, bk->first, bk->detached);
        err_pop(&jmp);
    } else {
        fprintf(stderr, "WARNING:  bulk run of \"%s\" not installed nor read back (%s): its "
                        "rows are read from it after a restart\n", t->name,
                err_current()->message);
        err_clear();
    }
}

__attribute__((noinline)) static void bulk_install_one(const StoreBulk *bk)
{
    StoreTable *t = bk->t;
    /* After a TRUNCATE's swap (base > 0) the table's rows are numbered from
     * its boundary: the run's rows are then rows [run_first - base, ...). */
    uint64_t run_first = bk->run_first - bk->base, first = bk->first - bk->base;
    store__lock();
    /* Columns added after the load (ADD COLUMN in its transaction) stay in
     * memory: the run serves the load's own (as runs written before an
     * ADD COLUMN do). */
    bool ok = bk->run && !bk->skip && !t->data_freed && !t->dropped && !t->trunc_txn &&
              t->ncols_committed >= bk->ncols && run_fits(run_first, first, runs_end(t));
    store__unlock();
    if (!ok) {
        /* The rows stay in memory; the next checkpoint writes them. */
        if (bk->unread && bk->detached > bk->first && !bk->skip && !t->data_freed &&
            !t->dropped)
            bulk_thaw(bk);
        return;
    }
    char path[4200];
    bulk_path(path, sizeof path, bk->gen, t->oid);
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        /* A checkpoint that ran during the load may have written rows
         * [run_first, first) as a run of its own: ours replaces it in t's
         * runs; the file stays for the current checkpoint (cold.c). */
        store__run_install_bulk(t, path, bk->gen, run_first, bk->end - bk->base, bk->ncols);
        err_pop(&jmp);
    } else {
        /* The rows stay in memory; the WAL record still names the file. */
        fprintf(stderr, "WARNING:  could not read run \"%s\" back: %s\n", path,
                err_current()->message);
        err_clear();
    }
}

void store__bulk_install(StoreTxn *x, uint64_t seq)
{
    StoreBulk *bk = x->bulk;
    if (!bk)
        return;  /* every commit comes here: no trim without a load */
    x->bulk = NULL;
    StoreBulk *rev = NULL;  /* oldest first: each load's run follows the previous one's */
    while (bk) {
        StoreBulk *next = bk->next;
        bk->next = rev;
        rev = bk;
        bk = next;
    }
    for (StoreBulk *o = rev; o; o = o->next) {
        if (o->run)
            file_set(o->gen, seq ? seq : 1);
        bulk_install_one(o);
    }
    /* Only now: readers of the committed rows find them through t's runs
     * (published by the installs) or, until then, through bulk_ref. */
    for (StoreBulk *o = rev; o; o = o->next)
        if (o->pend)
            store__run_pending_set(o->t, NULL);
    while (rev) {
        StoreBulk *next = rev->next;
        store__run_release(rev->t, rev->pend);
        free(rev);
        rev = next;
    }
    store__run_trim();
}

/* ---- recovery ---- */

/* Rows [first, end) of run r (its row 0 is table row run_first <= first:
 * the rows before first exist already; its row numbers are table rows -
 * rowbase) appended to t as x's rows; with `cold`, the non-key fixed-width
 * arrays of each run group are freed once loaded. */
static void load_rows(StoreTable *t, StoreTxn *x, RunReader *r, const char *path,
                      uint64_t run_first, uint64_t first, uint64_t end, uint64_t rowbase,
                      bool cold)
{
    int nc = t->ncols;
    if (run_schema(r)->ncols != nc + 1)
        err_raise(ERRCODE_DATA_CORRUPTED, "run file \"%s\" does not match table \"%s\"", path,
                  t->name);
    MemArena *a = mem_arena_create("bulk replay"), *ga = mem_arena_create("bulk replay group");
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        Batch *b = MEM_NEW(a, Batch);
        b->ncols = nc;
        b->cols = MEM_NEW_ARRAY(a, Vector, nc ? nc : 1);
        for (int col = 0; col < nc; col++)
            vec_init(&b->cols[col], t->cols[col].type, a);
        for (uint32_t g = 0; g < run_group_count(r) && atomic_load(&t->nrows) < end; g++) {
            uint64_t g_first = run_first + run_group_first_row(r, g);
            if (g_first + run_group_rows(r, g) <= first)
                continue;  /* rows that were in the table before the load */
            RunChunk *ch = mem_alloc(ga, sizeof(RunChunk) * (size_t)(nc + 1));
            for (int col = 0; col < nc + 1; col++)
                run_chunk_read(r, g, col, ga, &ch[col]);
            const int64_t *rowno = ch[nc].values;
            uint32_t off0 = first > g_first ? (uint32_t)(first - g_first) : 0;
            for (uint32_t off = off0; off < ch[0].count;) {
                uint64_t base = atomic_load(&t->nrows);
                uint32_t n = ch[0].count - off < VEC_CAPACITY ? ch[0].count - off : VEC_CAPACITY;
                if (base >= end)
                    break;
                n = n > end - base ? (uint32_t)(end - base) : n;
                if ((uint64_t)rowno[off] + rowbase != base)
                    err_raise(ERRCODE_DATA_CORRUPTED, "run file \"%s\": row %lld out of order",
                              path, (long long)rowno[off]);
                for (int col = 0; col < nc; col++)
                    run_chunk_to_vector(&ch[col], off, n, &b->cols[col]);
                b->count = n;
                store__append_locked(t, x, b);
                off += n;
            }
            mem_arena_reset(ga);
            if (cold)
                store__run_freeze_now(t, run_first, atomic_load(&t->nrows), nc);
        }
        if (atomic_load(&t->nrows) != end)
            err_raise(ERRCODE_DATA_CORRUPTED, "run file \"%s\" holds %llu rows, expected %llu",
                      path, (unsigned long long)(atomic_load(&t->nrows) - first),
                      (unsigned long long)(end - first));
        err_pop(&jmp);
    } else {
        mem_arena_destroy(a);
        mem_arena_destroy(ga);
        err_rethrow();
    }
    mem_arena_destroy(a);
    mem_arena_destroy(ga);
}

void store__bulk_replay(StoreTable *t, StoreTxn *x, uint64_t gen, uint64_t run_first,
                        uint64_t first, uint64_t end)
{
    char path[4200];
    bulk_path(path, sizeof path, gen, t->oid);
    file_register(gen, t->oid, 1);  /* named by the WAL until the next checkpoint */
    store__txn_acquire_write(x, t);
    /* After x's TRUNCATE of t: the run holds the new generation's rows,
     * numbered from the boundary; it joins t at the replayed COMMIT, after
     * the swap, as it did live (store__bulk_install). */
    bool trunc = t->trunc_txn == x && run_first >= t->trunc_row;
    if (atomic_load(&t->nrows) != first || end < first || run_first > first ||
        gen < STORE_BULK_GEN)
        err_raise(ERRCODE_DATA_CORRUPTED, "WAL replay: bad bulk run record for \"%s\"", t->name);
    /* The runs replayed so far may end elsewhere than when the load ran
     * (a checkpoint during the load): attach whenever no gap is left. */
    if (!t->trunc_txn && run_fits(run_first, first, runs_end(t))) {
        store__run_attach(t, path, gen, run_first, end);
        RunReader *r = t->run_cur->spans[t->run_cur->nspans - 1].run->reader;
        load_rows(t, x, r, path, run_first, first, end, 0, true);
    } else {
        RunReader *r = run_open(path);
        ErrJmp jmp;
        if (ERR_TRY(jmp)) {
            load_rows(t, x, r, path, run_first, first, end, trunc ? t->trunc_row : 0, false);
            err_pop(&jmp);
        } else {
            run_close(r);
            err_rethrow();
        }
        run_close(r);
    }
    if (trunc) {
        StoreBulk *bk = store__calloc(1, sizeof *bk);
        *bk = (StoreBulk){.t = t, .gen = gen, .first = first, .end = end, .run_first = run_first,
                          .written = end, .base = t->trunc_row, .replayed = true, .sealed = true,
                          .run = true, .ncols = t->ncols, .next = x->bulk};
        x->bulk = bk;
    }
    store__run_trim();
}

static bool file_known(uint64_t gen)
{
    pthread_mutex_lock(&files_mu);
    bool known = false;
    for (BulkFile *f = files; f && !known; f = f->next)
        known = f->gen == gen;
    pthread_mutex_unlock(&files_mu);
    return known;
}

void store__bulk_gc(uint64_t seq)
{
    /* Candidates first (files_mu is never held with store_g.lock taken
     * inside); a committed file becomes live only by an install, which runs
     * with checkpoints excluded, as this does, or in recovery. */
    pthread_mutex_lock(&files_mu);
    size_t n = 0;
    for (BulkFile *f = files; f; f = f->next)
        n += f->seq != 0 && f->seq <= seq;
    BulkFile *cand = n ? malloc(n * sizeof *cand) : NULL;
    n = 0;
    for (BulkFile *f = files; f && cand; f = f->next)
        if (f->seq != 0 && f->seq <= seq)
            cand[n++] = *f;
    pthread_mutex_unlock(&files_mu);
    for (size_t i = 0; i < n; i++) {
        if (store__run_is_live(cand[i].gen, cand[i].oid))
            continue;
        char path[4200];
        bulk_path(path, sizeof path, cand[i].gen, cand[i].oid);
        unlink(path);
        file_set(cand[i].gen, UINT64_MAX);
    }
    free(cand);
}

void store__bulk_forget_all(void)
{
    pthread_mutex_lock(&files_mu);
    while (files) {
        BulkFile *next = files->next;
        free(files);
        files = next;
    }
    pthread_mutex_unlock(&files_mu);
}

void store__bulk_cleanup(void)
{
    char dirpath[4200];
    snprintf(dirpath, sizeof dirpath, "%s/checkpoint", store_g.data_dir);
    DIR *d = opendir(dirpath);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        unsigned long long g = 0;
        unsigned oid = 0;
        char rest[16] = "";
        if (sscanf(e->d_name, "%llu.%u.%15s", &g, &oid, rest) != 3 || g < STORE_BULK_GEN)
            continue;
        if (strcmp(rest, "run") == 0 && file_known(g))
            continue;  /* named by a replayed record */
        if (strcmp(rest, "run") == 0 && store__run_is_live(g, oid)) {
            file_register(g, oid, 1);  /* attached (checkpoint): gc once released */
            continue;
        }
        char path[4600];
        snprintf(path, sizeof path, "%s/%s", dirpath, e->d_name);
        unlink(path);  /* never committed, superseded, or a .tmp left by a crash */
    }
    closedir(d);
}
