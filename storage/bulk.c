/*
 * bulk.c — bulk loads (COPY FROM) that write their rows once: into a run
 * file as they load, with one small WAL record at COMMIT instead of the rows.
 *
 * store_table_bulk_load appends each batch to the table in memory as an
 * INSERT does (NOT NULL, primary key, undo) but writes no WAL record for
 * it. The rows of one load are contiguous, [first, end), and stay the
 * transaction's own until it ends. Once a load passes STORE_BULK_RUN_ROWS
 * rows, a run writer (storage/runs, LZ4, the checkpoint runs' layout: the
 * row number as key) is opened as checkpoint/<gen>.<oid>.run and every
 * complete store group is written to it as soon as it fills — from the
 * table's memory, so strings are read from the heap, not the COPY buffers.
 * `gen` is a bulk id at or above STORE_BULK_GEN, never a checkpoint
 * generation (remove_before leaves such files alone; cold.c unlinks one
 * that a compaction superseded; recovery removes any no table attached).
 *
 * A load is **sealed** before any other record of the transaction, before
 * a savepoint is taken (store__wal_pos) and at COMMIT: its last rows go to
 * the writer, run_writer_finish fsyncs and renames the file, and a
 * WAL_BULK_RUN record (oid, gen, first, end) takes the rows' place in the
 * record stream — so records after it (an UPDATE of a loaded row) replay
 * after the rows exist. A load below the threshold is sealed by writing its
 * rows as ordinary INSERT records, from memory.
 *
 * After the COMMIT, with checkpoints excluded (txn.c), store__bulk_install
 * makes the run one of the table's (cold.c: its whole groups go cold, the
 * fixed-width non-key columns leave memory) when the table's runs end
 * exactly at `first`; otherwise the rows stay in memory and the next
 * checkpoint writes them. ROLLBACK removes the files; ROLLBACK TO removes
 * those sealed after the savepoint (their rows are undone by the undo log).
 * Replay of WAL_BULK_RUN loads the rows from the file (and attaches it when
 * the runs end at `first`), exactly as a checkpoint's TABLE_RUNS.
 *
 * A load starts only at a row group boundary where the table's runs end
 * (a table loaded or checkpointed so far, or empty); anything else goes
 * through the memtable and the WAL as before.
 *
 * File lifetime (the registry below): a bulk file is needed while a
 * transaction may still commit it (pending), while a table holds it as a
 * run (live, cold.c), and while a WAL record naming it may be replayed —
 * until a checkpoint whose sequence covers the commit completes. After each
 * checkpoint store__bulk_gc removes the files needed by none of these (a
 * run a TRUNCATE or DROP TABLE released, a load a TRUNCATE in the same
 * transaction hid); recovery registers the files replayed or attached and
 * removes every other bulk file (uncommitted loads, .tmp files of a crash).
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
#include "storage/runs/run.h"

/* Bulk run ids: far above any checkpoint generation. */
#define STORE_BULK_GEN (UINT64_C(1) << 62)

typedef struct StoreBulk {
    StoreTable *t;
    RunWriter *w;           /* open while loading past the threshold */
    uint64_t gen;
    uint64_t first, written, end;  /* rows [first, end) loaded; [first, written) in w */
    bool sealed;
    bool run;               /* sealed into a run file (else as INSERT records) */
    bool skip;              /* a TRUNCATE of the table followed: never installed */
    int ncols;              /* table columns at the start (the run's) */
    uint64_t wal_pos;       /* sealed: stream position before its record */
    struct StoreBulk *next;
} StoreBulk;

static _Atomic uint64_t bulk_last;

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

/* Whether t's runs end exactly at row `first` (under store_g.lock). */
static bool runs_end_at(const StoreTable *t, uint64_t first)
{
    const StoreRunRef *r = t->run_cur;
    if (!r)
        return false;
    uint64_t end = r->nspans ? r->spans[r->nspans - 1].end : 0;
    return end == first;
}

/* A new load of t at its current end, or NULL when t does not qualify. */
static StoreBulk *bulk_start(StoreTable *t, StoreTxn *x)
{
    uint64_t n = atomic_load(&t->nrows);
    store__lock();
    bool ok = n % STORE_GROUP_ROWS == 0 && n == atomic_load(&t->committed) && !t->trunc_txn &&
              !t->alter_txn && t->ncols == t->ncols_committed && !t->view_sql && runs_end_at(t, n);
    store__unlock();
    if (!ok)
        return NULL;
    StoreBulk *bk = store__calloc(1, sizeof *bk);
    bk->t = t;
    bk->ncols = t->ncols;
    bk->first = bk->written = bk->end = n;
    bk->next = x->bulk;
    x->bulk = bk;
    return bk;
}

/* Rows [from, to) (one store group at most) of t to w, from memory. */
static void write_rows(StoreTable *t, RunWriter *w, uint64_t from, uint64_t to, MemArena *a)
{
    int nc = t->ncols;
    uint32_t n = (uint32_t)(to - from), off = (uint32_t)(from % STORE_GROUP_ROWS);
    const StoreRowGroup *g = store__group(t, from / STORE_GROUP_ROWS);
    Batch b = {.ncols = nc + 1, .count = n, .cols = MEM_NEW_ARRAY(a, Vector, nc + 1)};
    int64_t *rowno = MEM_NEW_ARRAY(a, int64_t, n);
    uint64_t *versions = MEM_NEW_ARRAY(a, uint64_t, n);
    for (uint32_t i = 0; i < n; i++) {
        rowno[i] = (int64_t)(from + i);
        versions[i] = 0;  /* recovery stamps rows with their commit, not this */
    }
    for (int k = 0; k < nc; k++) {
        const StoreChunk *ch = &g->chunks[k];
        Vector *v = &b.cols[k];
        *v = (Vector){.type = t->cols[k].type, .phys = t->phys[k],
                      .data = (char *)ch->data + (size_t)off * t->width[k]};
        if (atomic_load(&ch->zone.null_count) == 0)
            continue;
        uint64_t *wv = MEM_NEW_ARRAY(a, uint64_t, VEC_VALIDITY_WORDS);
        memset(wv, 0, sizeof(uint64_t) * VEC_VALIDITY_WORDS);
        for (uint32_t i = 0; i < n; i++)
            if (ch->validity[(off + i) / 64] >> ((off + i) % 64) & 1)
                wv[i / 64] |= UINT64_C(1) << (i % 64);
        v->validity = wv;
    }
    b.cols[nc] = (Vector){.type = SQLTYPE(TYPE_INT8), .phys = PHYS_I64, .data = rowno};
    run_writer_append(w, &b, versions, NULL);
}

static void writer_open(StoreBulk *bk, MemArena *a)
{
    StoreTable *t = bk->t;
    int nc = t->ncols;
    SqlType *types = MEM_NEW_ARRAY(a, SqlType, nc + 1);
    for (int k = 0; k < nc; k++)
        types[k] = t->cols[k].type;
    types[nc] = SQLTYPE(TYPE_INT8);
    int key = nc;
    RunSchema schema = {.ncols = nc + 1, .types = types, .nkeys = 1, .key_cols = &key};
    RunWriteOptions opts = {.compression = RUN_COMP_LZ4};
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

/* Complete store groups loaded so far (all rows when `all`) to the writer. */
static void writer_catch_up(StoreBulk *bk, bool all)
{
    if (!bk->w && bk->end - bk->first < STORE_BULK_RUN_ROWS)
        return;  /* below the threshold: no file (yet) */
    MemArena *a = mem_arena_create("bulk load");
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        if (!bk->w)
            writer_open(bk, a);
        while (bk->w && bk->written < bk->end) {
            uint64_t to = bk->written - bk->written % STORE_GROUP_ROWS + STORE_GROUP_ROWS;
            if (to > bk->end) {
                if (!all)
                    break;
                to = bk->end;
            }
            write_rows(bk->t, bk->w, bk->written, to, a);
            bk->written = to;
            mem_arena_reset(a);
        }
        err_pop(&jmp);
    } else {
        mem_arena_destroy(a);
        err_rethrow();
    }
    mem_arena_destroy(a);
}

void store_table_bulk_load(StoreTable *t, StoreTxn *x, const Batch *b)
{
    if (!x || store_g.replaying || b->count == 0) {
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

/* Seal one load: its record (and the run file, fsync'd) or its rows as
 * INSERT records. */
static void bulk_seal_one(StoreTxn *x, StoreBulk *bk)
{
    StoreTable *t = bk->t;
    bk->wal_pos = store__wal_pos(x);
    if (bk->end - bk->first >= STORE_BULK_RUN_ROWS || bk->w) {
        writer_catch_up(bk, true);
        RunWriter *w = bk->w;
        bk->w = NULL;
        run_writer_finish(w, NULL);  /* fsync, rename, directory fsync */
        bk->run = true;
        bk->sealed = true;
        uint8_t rec[28];
        memcpy(rec, &t->oid, 4);
        memcpy(rec + 4, &bk->gen, 8);
        memcpy(rec + 12, &bk->first, 8);
        memcpy(rec + 20, &bk->end, 8);
        store__wal_add(x, WAL_BULK_RUN, rec, sizeof rec);
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

static void bulk_drop(StoreBulk *bk)
{
    char path[4200];
    if (bk->w) {
        run_writer_abort(bk->w);
        file_set(bk->gen, UINT64_MAX);
    } else if (bk->run) {
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
    while (bk) {
        StoreBulk *next = bk->next;
        bulk_drop(bk);
        bk = next;
    }
}

void store__bulk_cut(StoreTxn *x, uint64_t pos)
{
    StoreBulk **p = &x->bulk;
    while (*p) {
        StoreBulk *bk = *p;
        if (!bk->sealed || bk->wal_pos >= pos) {
            *p = bk->next;
            bulk_drop(bk);
        } else {
            p = &bk->next;
        }
    }
}

__attribute__((noinline)) static void bulk_install_one(const StoreBulk *bk)
{
    StoreTable *t = bk->t;
    store__lock();
    bool ok = bk->run && !bk->skip && !t->data_freed && !t->dropped &&
              t->ncols_committed == bk->ncols && runs_end_at(t, bk->first);
    store__unlock();
    if (!ok)
        return;  /* the rows stay in memory; the next checkpoint writes them */
    char path[4200];
    bulk_path(path, sizeof path, bk->gen, t->oid);
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        store__run_install(t, path, bk->gen, bk->first, bk->end, t->ncols_committed);
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
    while (bk) {
        StoreBulk *next = bk->next;
        if (bk->run)
            file_set(bk->gen, seq ? seq : 1);
        bulk_install_one(bk);
        free(bk);
        bk = next;
    }
    store__run_trim();
}

/* ---- recovery ---- */

/* Rows [first, end) of run r (its row 0 is table row first) appended to t
 * as x's rows; with `cold`, the non-key fixed-width arrays of each run
 * group are freed once loaded. */
static void load_rows(StoreTable *t, StoreTxn *x, RunReader *r, const char *path, uint64_t first,
                      uint64_t end, bool cold)
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
            RunChunk *ch = mem_alloc(ga, sizeof(RunChunk) * (size_t)(nc + 1));
            for (int col = 0; col < nc + 1; col++)
                run_chunk_read(r, g, col, ga, &ch[col]);
            const int64_t *rowno = ch[nc].values;
            for (uint32_t off = 0; off < ch[0].count; off += VEC_CAPACITY) {
                uint64_t base = atomic_load(&t->nrows);
                uint32_t n = ch[0].count - off < VEC_CAPACITY ? ch[0].count - off : VEC_CAPACITY;
                if (base >= end)
                    break;
                n = n > end - base ? (uint32_t)(end - base) : n;
                if ((uint64_t)rowno[off] != base)
                    err_raise(ERRCODE_DATA_CORRUPTED, "run file \"%s\": row %lld out of order",
                              path, (long long)rowno[off]);
                for (int col = 0; col < nc; col++)
                    run_chunk_to_vector(&ch[col], off, n, &b->cols[col]);
                b->count = n;
                store__append_locked(t, x, b);
            }
            mem_arena_reset(ga);
            if (cold)
                store__run_freeze_now(t, first, atomic_load(&t->nrows), nc);
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

void store__bulk_replay(StoreTable *t, StoreTxn *x, uint64_t gen, uint64_t first, uint64_t end)
{
    char path[4200];
    bulk_path(path, sizeof path, gen, t->oid);
    file_register(gen, t->oid, 1);  /* named by the WAL until the next checkpoint */
    store__txn_acquire_write(x, t);
    if (atomic_load(&t->nrows) != first || end < first || gen < STORE_BULK_GEN)
        err_raise(ERRCODE_DATA_CORRUPTED, "WAL replay: bad bulk run record for \"%s\"", t->name);
    if (first % STORE_GROUP_ROWS == 0 && runs_end_at(t, first)) {
        store__run_attach(t, path, gen, first, end);
        RunReader *r = t->run_cur->spans[t->run_cur->nspans - 1].run->reader;
        load_rows(t, x, r, path, first, end, true);
    } else {
        RunReader *r = run_open(path);
        ErrJmp jmp;
        if (ERR_TRY(jmp)) {
            load_rows(t, x, r, path, first, end, false);
            err_pop(&jmp);
        } else {
            run_close(r);
            err_rethrow();
        }
        run_close(r);
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
