/*
 * recovery.c — checkpoints and crash recovery.
 *
 * Files (under the data directory):
 *     control               "strata control 1\ngen <N>\nxid <L>\n": the current
 *                           generation, the transaction id floor (control.c)
 *     wal/<N>.wal           the WAL since checkpoint N (records: wal.c)
 *     checkpoint/<N>.ckpt   the committed state at checkpoint N, in WAL
 *                           record form: databases, schemas, tables, their
 *                           rows and deletions, one COMMIT (absent for N = 1)
 *
 * CHECKPOINT holds new commits back (store__wal_block_commits waits until
 * every commit already written is published), writes checkpoint N+1 from
 * memory (rows [0, committed) of every committed table, deletions
 * committed), starts an empty wal/<N+1>.wal, switches `control` atomically,
 * then removes generation N. A crash at any point leaves `control` naming a
 * complete generation.
 *
 * Recovery (store_open): replay checkpoint N (any damage → XX001, the file
 * is named), then wal/N.wal transaction by transaction: the records of a
 * transaction are applied when its COMMIT record is read, through the same
 * code as live operations (store_g.replaying suppresses logging), so row
 * numbers come out identical. The end of the log: a short record or one
 * whose checksum fails with no valid COMMIT after it is a torn tail (a
 * write cut by the crash) and is truncated away, together with the records
 * of the unfinished transaction before it; a bad record followed by a valid
 * COMMIT, or a damaged length field (len != ~nlen) before the end, is
 * corruption: XX001 `invalid record in WAL file "…" at offset N`.
 */
#define STORE_INTERNAL
#include "storage/storage_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "common/crc32c.h"
#include "common/error.h"
#include "storage/runs/run.h"

void store__wal_set_file(int fd, uint64_t size, uint64_t last_seq);

static uint64_t ckpt_gen;   /* generation named by `control` */
static uint64_t wal_gen;    /* generation of the WAL file being written (>= ckpt_gen) */
static uint64_t replay_gen;  /* generation of the checkpoint being replayed */
static pthread_mutex_t ckpt_mu = PTHREAD_MUTEX_INITIALIZER;

static void path_of(char *buf, size_t cap, const char *kind, uint64_t gen)
{
    if (strcmp(kind, "wal") == 0)
        snprintf(buf, cap, "%s/wal/%llu.wal", store_g.data_dir, (unsigned long long)gen);
    else
        snprintf(buf, cap, "%s/checkpoint/%llu.ckpt", store_g.data_dir, (unsigned long long)gen);
}

static void fsync_dir(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
}

static void mkdir_in(const char *name)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", store_g.data_dir, name);
    if (mkdir(path, 0700) != 0 && errno != EEXIST)
        err_raise_fatal(ERRCODE_IO_ERROR, "could not create directory \"%s\": %s", path,
                        strerror(errno));
}

/* ---- record parsing ---- */

typedef enum { REC_OK, REC_END, REC_TORN, REC_CORRUPT } RecStatus;

typedef struct Rec {
    uint8_t type;
    const uint8_t *payload;
    uint32_t len;
    size_t next;
} Rec;

static uint32_t get32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static RecStatus rec_header(const uint8_t *data, size_t size, size_t off, Rec *r)
{
    if (off == size)
        return REC_END;
    if (size - off < STORE_WAL_HEADER)
        return REC_TORN;
    const uint8_t *h = data + off;
    uint32_t len = get32(h + 4);
    if ((len ^ get32(h + 8)) != UINT32_MAX) {
        for (size_t i = off; i < size; i++)
            if (data[i] != 0)
                return REC_CORRUPT;
        return REC_TORN;  /* zeros to the end: space the crash left unwritten */
    }
    if (size - off - STORE_WAL_HEADER < len)
        return REC_TORN;
    r->type = h[12];
    r->payload = h + STORE_WAL_HEADER;
    r->len = len;
    r->next = off + STORE_WAL_HEADER + len;
    return REC_OK;
}

static bool rec_crc_ok(const uint8_t *data, size_t off, const Rec *r)
{
    return get32(data + off) == crc32c(0, data + off + 4, STORE_WAL_HEADER - 4 + r->len);
}

/* Whether a valid COMMIT record follows the record at off (lengths trusted). */
static bool later_commit(const uint8_t *data, size_t size, size_t off)
{
    Rec r;
    if (rec_header(data, size, off, &r) != REC_OK)
        return false;
    for (off = r.next; rec_header(data, size, off, &r) == REC_OK; off = r.next)
        if (r.type == WAL_COMMIT && rec_crc_ok(data, off, &r))
            return true;
    return false;
}

static RecStatus rec_read(const uint8_t *data, size_t size, size_t off, Rec *r)
{
    RecStatus st = rec_header(data, size, off, r);
    if (st != REC_OK)
        return st;
    if (rec_crc_ok(data, off, r))
        return REC_OK;
    return later_commit(data, size, off) ? REC_CORRUPT : REC_TORN;
}

/* ---- applying records ---- */

typedef struct Cursor {
    const uint8_t *p, *end;
    const char *path;
} Cursor;

static _Noreturn void bad_record(const Cursor *c)
{
    err_raise(ERRCODE_DATA_CORRUPTED, "invalid record in file \"%s\"", c->path);
}

static const uint8_t *take(Cursor *c, size_t n)
{
    if ((size_t)(c->end - c->p) < n)
        bad_record(c);
    const uint8_t *p = c->p;
    c->p += n;
    return p;
}

static uint32_t take32(Cursor *c) { return get32(take(c, 4)); }
static uint64_t take64(Cursor *c)
{
    uint64_t v;
    memcpy(&v, take(c, 8), 8);
    return v;
}

/* A string into arena (NULL encoded as length UINT32_MAX). */
static char *take_str(Cursor *c, MemArena *a)
{
    uint32_t n = take32(c);
    if (n == UINT32_MAX)
        return NULL;
    return mem_strndup(a, (const char *)take(c, n), n);
}

static StoreTable *table_of(Cursor *c, uint32_t oid)
{
    StoreTable *t = store_table_lookup_oid(oid);
    if (!t)
        err_raise(ERRCODE_DATA_CORRUPTED, "WAL record in file \"%s\" names unknown table %u",
                  c->path, oid);
    return t;
}

static void apply_create_table(Cursor *c, MemArena *a)
{
    uint32_t dboid = take32(c), oid = take32(c);
    char *schema = take_str(c, a), *name = take_str(c, a);
    uint32_t ncols = take32(c);
    if (!schema || !name || ncols > 1600)
        bad_record(c);
    StoreColumnDef *cols = MEM_NEW_ARRAY(a, StoreColumnDef, ncols ? ncols : 1);
    for (uint32_t i = 0; i < ncols; i++) {
        cols[i].name = take_str(c, a);
        cols[i].type.oid = take32(c);
        cols[i].type.typmod = (int32_t)take32(c);
        cols[i].not_null = *take(c, 1) != 0;
        cols[i].default_text = take_str(c, a);
        if (!cols[i].name)
            bad_record(c);
    }
    uint32_t npkey = take32(c);
    if (npkey > ncols)
        bad_record(c);
    int *pkey = MEM_NEW_ARRAY(a, int, npkey ? npkey : 1);
    for (uint32_t i = 0; i < npkey; i++) {
        pkey[i] = (int)take32(c);
        if (pkey[i] < 0 || (uint32_t)pkey[i] >= ncols)
            bad_record(c);
    }
    char *view_sql = c->p < c->end ? take_str(c, a) : NULL;   /* views only */
    if (c->p < c->end && view_sql)
        bad_record(c);
    store__relation_create_oid(dboid, oid, schema, name, (int)ncols, cols, (int)npkey,
                               npkey ? pkey : NULL, view_sql);
}

static void apply_insert(Cursor *c, StoreTxn *x, MemArena *a)
{
    StoreTable *t = table_of(c, take32(c));
    uint64_t base = take64(c);
    uint32_t n = take32(c), ncols = take32(c);
    if (n == 0 || n > VEC_CAPACITY || ncols != (uint32_t)t->ncols)
        bad_record(c);
    store__txn_acquire_write(x, t);
    if (base != atomic_load(&t->nrows))
        err_raise(ERRCODE_DATA_CORRUPTED, "WAL replay of file \"%s\": row %llu of \"%s\" out of order",
                  c->path, (unsigned long long)base, t->name);
    Batch *b = MEM_NEW(a, Batch);
    b->count = n;
    b->ncols = t->ncols;
    b->cols = MEM_NEW_ARRAY(a, Vector, ncols ? ncols : 1);
    for (int col = 0; col < t->ncols; col++) {
        Vector *v = &b->cols[col];
        vec_init(v, t->cols[col].type, a);
        bool nulls = *take(c, 1) != 0;
        v->validity = NULL;
        if (nulls) {
            const uint8_t *bits = take(c, (n + 7) / 8);
            memset(v->validity_buf, 0, sizeof(uint64_t) * VEC_VALIDITY_WORDS);
            memcpy(v->validity_buf, bits, (n + 7) / 8);
            v->validity = v->validity_buf;
        }
        if (t->phys[col] == PHYS_STR) {
            StrRef *s = v->data;
            for (uint32_t i = 0; i < n; i++) {
                uint32_t len = take32(c);
                s[i] = (StrRef){(const char *)take(c, len), len};
            }
        } else {
            memcpy(v->data, take(c, t->width[col] * n), t->width[col] * n);
        }
    }
    store__append_locked(t, x, b);
}

static void apply_delete(Cursor *c, StoreTxn *x)
{
    StoreTable *t = table_of(c, take32(c));
    uint64_t row = take64(c), next = take64(c);
    store__txn_acquire_write(x, t);
    if (row >= atomic_load(&t->nrows) || atomic_load(store__xmax_of(t, row)) != 0)
        err_raise(ERRCODE_DATA_CORRUPTED, "WAL replay of file \"%s\": bad deletion of row %llu of \"%s\"",
                  c->path, (unsigned long long)row, t->name);
    store__replay_delete(t, x, row, next);
}

static void apply_catalog(Cursor *c, uint8_t type, StoreTxn *x)
{
    uint32_t oid = take32(c);
    if (type == WAL_DROP_DB) {
        store__db_drop_oid(oid);
        return;
    }
    const char *name = (const char *)c->p;
    size_t n = strnlen(name, (size_t)(c->end - c->p));
    take(c, n + 1);
    const char *owner = (const char *)c->p;
    size_t m = strnlen(owner, (size_t)(c->end - c->p));
    take(c, m + 1);
    if (type == WAL_CREATE_DB)
        store__db_create_oid(oid, name, owner);
    else if (type == WAL_CREATE_SCHEMA)
        store__schema_create_db(oid, name, owner, x);
    else
        store__schema_drop_db(oid, name, x);
}

/* Table rows [first, end) from checkpoint/<gen>.<oid>.run: the run becomes
 * one of the table's (cold.c); stamps (xmin = the checkpoint's commit,
 * deletions), validity, zone maps and keys are built in memory, the other
 * columns are read from the run (recovery_load.c); the pk index waits for
 * its first use (pkindex.c). */
static void table_run_load(Cursor *c, StoreTxn *x, MemArena *a, StoreTable *t, uint64_t gen,
                           uint64_t first, uint64_t end)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/checkpoint/%llu.%u.run", store_g.data_dir,
             (unsigned long long)gen, t->oid);
    store__txn_acquire_write(x, t);
    if (atomic_load(&t->nrows) != first || end < first)
        bad_record(c);
    store__run_attach(t, path, gen, first, end);
    store__recovery_load_run(t, x, t->run_cur->spans[t->run_cur->nspans - 1].run, path, first,
                             end, a);  /* recovery_load.c */
    store__run_trim();
}

/* TABLE_RUN (one run holding rows [0, rows), written by this checkpoint). */
static void apply_table_run(Cursor *c, StoreTxn *x, MemArena *a, uint64_t gen)
{
    StoreTable *t = table_of(c, take32(c));
    uint64_t nrows = take64(c);
    table_run_load(c, x, a, t, gen, 0, nrows);
}

/* TABLE_RUNS: rows [first, end) from the run written by checkpoint gen. */
static void apply_table_runs(Cursor *c, StoreTxn *x, MemArena *a)
{
    StoreTable *t = table_of(c, take32(c));
    uint64_t gen = take64(c), first = take64(c), end = take64(c);
    table_run_load(c, x, a, t, gen, first, end);
}

/* TABLE_DELS: rows deleted (committed) since the runs holding them were
 * written (a run's deleted flags are as of its own checkpoint). */
static void apply_table_dels(Cursor *c, StoreTxn *x)
{
    StoreTable *t = table_of(c, take32(c));
    uint64_t n = take64(c);
    store__txn_acquire_write(x, t);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t from = take64(c), to = take64(c);
        if (from > to || to > atomic_load(&t->nrows))
            bad_record(c);
        for (uint64_t row = from; row < to; row++)
            if (atomic_load(store__xmax_of(t, row)) == 0)
                store__replay_delete(t, x, row, 0);
    }
}

static void apply_add_pkey(Cursor *c, StoreTxn *x, MemArena *a)
{
    StoreTable *t = table_of(c, take32(c));
    uint32_t n = take32(c);
    if (n == 0 || n > (uint32_t)t->ncols)
        bad_record(c);
    int *cols = MEM_NEW_ARRAY(a, int, n);
    for (uint32_t i = 0; i < n; i++) {
        cols[i] = (int)take32(c);
        if (cols[i] < 0 || cols[i] >= t->ncols)
            bad_record(c);
    }
    store_table_add_pkey(t, x, (int)n, cols);
}

static void apply_add_column(Cursor *c, StoreTxn *x, MemArena *a)
{
    StoreTable *t = table_of(c, take32(c));
    StoreColumnDef def;
    def.name = take_str(c, a);
    def.type.oid = take32(c);
    def.type.typmod = (int32_t)take32(c);
    def.not_null = *take(c, 1) != 0;
    def.default_text = take_str(c, a);
    if (!def.name || type_info(def.type.oid) == NULL)
        bad_record(c);
    Value fill = {.is_null = true};
    if (*take(c, 1)) {
        fill.is_null = false;
        if (type_phys(def.type) == PHYS_STR) {
            uint32_t len = take32(c);
            fill.u.str = (StrRef){(const char *)take(c, len), len};
        } else {
            size_t w = phys_size(type_phys(def.type));
            memcpy(&fill.u, take(c, w), w);
        }
    }
    store_table_add_column(t, x, &def, &fill);
}

static void apply_bulk_run(Cursor *c, StoreTxn *x)
{
    StoreTable *t = table_of(c, take32(c));
    uint64_t gen = take64(c), first = take64(c), end = take64(c);
    /* Since the load may start below the runs' end: the run's first row
     * (its rows [run_first, first) rewrite the table's last partial group). */
    uint64_t run_first = c->p < c->end ? take64(c) : first;
    store__bulk_replay(t, x, gen, run_first, first, end);
}

static void apply_record(const Rec *r, const char *path, StoreTxn *x, MemArena *a)
{
    Cursor c = {r->payload, r->payload + r->len, path};
    switch (r->type) {
    case WAL_CREATE_TABLE: apply_create_table(&c, a); break;
    case WAL_DROP_TABLE: store__table_drop_txn(table_of(&c, take32(&c)), x); break;
    case WAL_INSERT: apply_insert(&c, x, a); break;
    case WAL_DELETE: apply_delete(&c, x); break;
    case WAL_ADD_PKEY: apply_add_pkey(&c, x, a); break;
    case WAL_TABLE_RUN: apply_table_run(&c, x, a, replay_gen); break;
    case WAL_TABLE_RUNS: apply_table_runs(&c, x, a); break;
    case WAL_TABLE_DELS: apply_table_dels(&c, x); break;
    case WAL_TABLE_KEYS: {
        StoreTable *t = table_of(&c, take32(&c));
        store__keys_recover(t, c.p, (size_t)(c.end - c.p), path);  /* keyruns.c */
        break;
    }
    case WAL_ADD_COLUMN: apply_add_column(&c, x, a); break;
    case WAL_CREATE_DB:
    case WAL_DROP_DB:
    case WAL_CREATE_SCHEMA:
    case WAL_DROP_SCHEMA: apply_catalog(&c, r->type, x); break;
    case WAL_SEQUENCE: store__seq_replay(r->payload, r->len); break; /* sequences */
    case WAL_TRUNCATE: store__truncate(table_of(&c, take32(&c)), x); break; /* truncate.c */
    case WAL_BULK_RUN: apply_bulk_run(&c, x); break;                        /* bulk.c */
    case WAL_ROLE: store__role_replay(r->payload, r->len); break;    /* roles (roles.c) */
    case WAL_STATS: store__stats_replay(r->payload, r->len); break;  /* ANALYZE (stats.c) */
    default: bad_record(&c);
    }
}

/* Apply records [from, to) of data as one transaction committed as seq. */
static void replay_txn(const uint8_t *data, size_t from, size_t to, uint64_t seq,
                       const char *path, MemArena *a)
{
    StoreTxn *x = store_txn_begin();
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        Rec r;
        for (size_t off = from; off < to; off = r.next) {
            if (rec_header(data, to, off, &r) != REC_OK)
                err_raise(ERRCODE_DATA_CORRUPTED, "invalid record in file \"%s\"", path);
            apply_record(&r, path, x, a);
            mem_arena_reset(a);
        }
        err_pop(&jmp);
    } else {
        store_txn_rollback(x);
        err_rethrow();
    }
    store_g.replay_seq = seq;
    store_txn_commit(x);
}

/* Replay a file; returns the offset of the end of its last complete
 * transaction. strict: any damage is corruption (checkpoint files). */
static size_t replay_file(const char *path, const uint8_t *data, size_t size, bool strict,
                          uint64_t *last_seq)
{
    MemArena *a = mem_arena_create("recovery");
    size_t off = 0, txn_start = 0;
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        for (;;) {
            Rec r;
            RecStatus st = rec_read(data, size, off, &r);
            if (st == REC_END || (st == REC_TORN && !strict))
                break;
            if (st != REC_OK)
                err_raise(ERRCODE_DATA_CORRUPTED, "invalid record in WAL file \"%s\" at offset %zu",
                          path, off);
            if (r.type == WAL_COMMIT) {
                if (r.len != 8)
                    err_raise(ERRCODE_DATA_CORRUPTED, "invalid record in WAL file \"%s\" at offset %zu",
                              path, off);
                uint64_t seq;
                memcpy(&seq, r.payload, 8);
                replay_txn(data, txn_start, off, seq, path, a);
                if (seq > *last_seq)
                    *last_seq = seq;
                txn_start = r.next;
            }
            off = r.next;
        }
        if (strict && txn_start != size)
            err_raise(ERRCODE_DATA_CORRUPTED, "checkpoint file \"%s\" is incomplete", path);
        err_pop(&jmp);
    } else {
        mem_arena_destroy(a);
        err_rethrow();
    }
    mem_arena_destroy(a);
    return txn_start;
}

/* Map a whole file read-only (NULL data for an empty file); -1 fd when missing. */
static int map_file(const char *path, int flags, const uint8_t **data, size_t *size)
{
    *data = NULL;
    *size = 0;
    int fd = open(path, flags | O_CLOEXEC, 0600);
    if (fd < 0) {
        if (errno == ENOENT)
            return -1;
        err_raise_fatal(ERRCODE_IO_ERROR, "could not open file \"%s\": %s", path, strerror(errno));
    }
    struct stat st;
    if (fstat(fd, &st) != 0)
        err_raise_fatal(ERRCODE_IO_ERROR, "could not stat file \"%s\": %s", path, strerror(errno));
    *size = (size_t)st.st_size;
    if (*size) {
        void *p = mmap(NULL, *size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED)
            err_raise_fatal(ERRCODE_IO_ERROR, "could not map file \"%s\": %s", path, strerror(errno));
        *data = p;
    }
    return fd;
}

/* `control` (control.c): the generation, and the transaction id floor. */
static int write_control(uint64_t gen) { return store__control_write(gen); }

static int open_wal(uint64_t gen, bool create)
{
    char path[4200];
    path_of(path, sizeof path, "wal", gen);
    int fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC | (create ? O_CREAT | O_TRUNC : 0), 0600);
    if (fd < 0)
        err_raise_fatal(ERRCODE_IO_ERROR, "could not open file \"%s\": %s", path, strerror(errno));
    return fd;
}

/* Replay wal/<g>.wal, truncating a torn tail; returns its valid length. */
static size_t replay_wal(uint64_t g, uint64_t *last_seq)
{
    char path[4200];
    const uint8_t *data;
    size_t size;
    path_of(path, sizeof path, "wal", g);
    int fd = map_file(path, O_RDWR, &data, &size);
    if (fd < 0)
        err_raise_fatal(ERRCODE_DATA_CORRUPTED, "could not open WAL file \"%s\": %s", path,
                        strerror(ENOENT));
    size_t end = replay_file(path, data, size, false, last_seq);
    if (data)
        munmap((void *)data, size);
    if (end != size && (ftruncate(fd, (off_t)end) != 0 || fsync(fd) != 0))
        err_raise_fatal(ERRCODE_IO_ERROR, "could not truncate file \"%s\": %s", path,
                        strerror(errno));
    close(fd);
    return end;
}

/* Replay checkpoint gen, then wal/<gen>.wal and any later WAL files a
 * checkpoint that did not finish had switched to (commits continue there
 * at once); the last one stays open for appends. */
static void recover_existing(uint64_t gen, uint64_t *last_seq_out)
{
    uint64_t last_seq = 0;
    char path[4200];
    const uint8_t *data;
    size_t size;
    path_of(path, sizeof path, "ckpt", gen);
    int fd = map_file(path, O_RDONLY, &data, &size);
    if (fd < 0 && gen > 1)
        err_raise_fatal(ERRCODE_DATA_CORRUPTED, "could not open checkpoint file \"%s\": %s",
                        path, strerror(ENOENT));
    if (fd >= 0) {
        replay_gen = gen;
        replay_file(path, data, size, true, &last_seq);
        if (data)
            munmap((void *)data, size);
        close(fd);
    }
    uint64_t wgen = gen;
    path_of(path, sizeof path, "wal", gen);
    if (access(path, F_OK) != 0)
        err_raise_fatal(ERRCODE_DATA_CORRUPTED, "could not open WAL file \"%s\": %s", path,
                        strerror(ENOENT));
    size_t end = 0;
    for (;;) {
        end = replay_wal(wgen, &last_seq);
        path_of(path, sizeof path, "wal", wgen + 1);
        if (access(path, F_OK) != 0)
            break;
        wgen++;
    }
    store__wal_set_file(open_wal(wgen, false), end, last_seq);
    wal_gen = wgen;
    *last_seq_out = last_seq;
}

/* Presize t's deferred pk index; *arg set on failure (out of memory: the
 * catalog lock of store__table_visit is held, so nothing raises here). */
static void pk_recovered(StoreTable *t, void *arg)
{
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        store__pk_recovered(t);
        err_pop(&jmp);
    } else {
        err_clear();
        *(bool *)arg = true;
    }
}

void store__recover(void)
{
    mkdir_in("wal");
    mkdir_in("checkpoint");
    uint64_t xid = 0;
    uint64_t gen = store__control_read(&xid);
    uint64_t last_seq = 0;
    store__txn_id_floor(xid);  /* replayed and later transactions take ids past it */
    store__seq_reset(); /* sequences */
    store__bulk_forget_all(); /* bulk.c: the registry is rebuilt by replay */
    store_g.replaying = true;
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        if (gen == 0) {
            gen = 1;
            int fd = open_wal(gen, true);
            char dir[4200];
            snprintf(dir, sizeof dir, "%s/wal", store_g.data_dir);
            fsync_dir(dir);
            int rc = write_control(gen);
            if (rc != 0)
                err_raise_fatal(ERRCODE_IO_ERROR, "could not write file \"%s/control\": %s",
                                store_g.data_dir, strerror(rc));
            store__wal_set_file(fd, 0, 0);
            wal_gen = gen;
        } else {
            recover_existing(gen, &last_seq);
        }
        err_pop(&jmp);
    } else {
        store_g.replaying = false;
        err_rethrow();
    }
    store_g.replaying = false;
    bool pk_oom = false;
    store__table_visit(pk_recovered, &pk_oom);  /* deferred pk indexes: presized, built on use */
    if (pk_oom)
        err_raise_fatal(ERRCODE_OUT_OF_MEMORY, "out of memory");
    store__txn_id_start();  /* control.c: a first block of ids past the replayed ones */
    store__bulk_cleanup();  /* bulk run files no committed record attached (bulk.c) */
    atomic_store(&store_g.visible_seq, last_seq);
    ckpt_gen = gen;
    if (wal_gen < gen)
        wal_gen = gen;
    /* Temporary tables live as long as their session, and no session
     * survives a restart. They are never logged nor checkpointed (wal.c),
     * but a directory written before that may bring some back, and their
     * sequences are logged: drop them all before any session can see
     * them. */
    store__temp_drop_all();
}

/* ---- CHECKPOINT ---- */

/* A table captured while commits were held back: its rows [0, rows) and
 * columns [0, ncols) are what the checkpoint holds. */
typedef struct CkptTable {
    StoreTable *t;
    uint64_t rows;
    int ncols;
    bool wrote;      /* phase B wrote a run of rows [first, rows) (cold.c installs it) */
    bool compact;    /* that run rewrites rows earlier runs held (compaction): ZSTD */
    uint64_t first;
    StoreKeysPlan *keys;  /* the primary key's runs this checkpoint names (keyruns.c) */
} CkptTable;

/* Incremental flush: a checkpoint writes only the rows appended since the
 * table's last run; when the table already has this many runs (or its
 * columns changed) it rewrites all rows as one run instead (compaction). */
#define STORE_RUNS_MAX 8

typedef struct Ckpt {
    StoreTxn *buf;  /* a private record buffer (not a live transaction) */
    CkptTable *tables;
    int n, cap;
    bool oom;
    uint64_t seq, gen;
    uint64_t horizon;  /* store__vacuum_horizon at capture: deletions at or before it are dead */
} Ckpt;

static void ckpt_catalog_rec(Ckpt *c, uint8_t type, uint32_t oid, const char *name,
                             const char *owner)
{
    char buf[4 + 2 * STORE_NAME_MAX];
    size_t n = strlen(name) + 1, m = strlen(owner) + 1;
    memcpy(buf, &oid, 4);
    memcpy(buf + 4, name, n);
    memcpy(buf + 4 + n, owner, m);
    store__wal_add(c->buf, type, buf, 4 + n + m);
}

static void ckpt_db(uint32_t oid, const char *name, const char *owner, void *arg)
{
    ckpt_catalog_rec(arg, WAL_CREATE_DB, oid, name, owner);
}

static void ckpt_schema(uint32_t dboid, const char *name, const char *owner, void *arg)
{
    ckpt_catalog_rec(arg, WAL_CREATE_SCHEMA, dboid, name, owner);
}

static void collect_table(StoreTable *t, void *arg)
{
    Ckpt *c = arg;
    if (t->temp)
        return;  /* temporary: never in a checkpoint, no run file (wal.c) */
    if (c->n == c->cap) {
        int cap = c->cap ? c->cap * 2 : 16;
        CkptTable *p = realloc(c->tables, (size_t)cap * sizeof *p);
        if (!p) {
            c->oom = true;
            return;
        }
        c->tables = p;
        c->cap = cap;
    }
    c->tables[c->n++] = (CkptTable){.t = t, .rows = atomic_load(&t->committed),
                                   .ncols = t->ncols_committed};
}

/* Phase A, commits held back: the catalog records, the tables to write
 * (pinned as scans, so a DROP committed meanwhile cannot free them). */
static void ckpt_capture(Ckpt *c)
{
    store__db_visit(ckpt_db, ckpt_schema, c);
    store__seq_checkpoint(c->buf); /* sequences */
    store__table_visit(collect_table, c);
    if (c->oom)
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    for (int i = 0; i < c->n; i++) {
        store__wal_create_table(c->buf, c->tables[i].t, c->tables[i].ncols);
        store__txn_scan_register(NULL, c->tables[i].t);
        c->tables[i].t->ckpt_pinned = true;  /* under ckpt_mu */
    }
    store__stats_checkpoint(c->buf);  /* ANALYZE statistics (stats.c), after the tables */
    store__role_checkpoint(c->buf);   /* roles (roles.c) */
}

static void ckpt_unpin(Ckpt *c)
{
    for (int i = 0; i < c->n; i++) {
        store__keys_plan_free(c->tables[i].keys);
        c->tables[i].keys = NULL;
        if (!c->tables[i].t->ckpt_pinned)
            continue;
        c->tables[i].t->ckpt_pinned = false;
        store__txn_scan_unregister(NULL, 0, c->tables[i].t);
    }
}

static bool ckpt_is_key(const StoreTable *t, int col)
{
    int npkey = __atomic_load_n(&t->npkey, __ATOMIC_ACQUIRE);
    for (int k = 0; k < npkey; k++)
        if (t->pkey[k] == col)
            return true;
    return false;
}

/* VACUUM (vacuum.c): column k's values of the rows flagged dead[0..n)
 * become NULL (zero / empty when the column is NOT NULL) in a copy at
 * scratch; validity goes to wv. Nobody reads a dead row's values again. */
static void ckpt_blank(const StoreTable *t, int k, Vector *v, const bool *dead, uint32_t n,
                       void *scratch, uint64_t *wv)
{
    static const char empty[1] = "";
    size_t w = t->width[k];
    memcpy(scratch, v->data, w * n);
    bool nullable = !t->cols[k].not_null;
    if (nullable && !v->validity)
        memset(wv, 0xff, sizeof(uint64_t) * ((n + 63) / 64));
    for (uint32_t i = 0; i < n; i++) {
        if (!dead[i])
            continue;
        char *slot = (char *)scratch + i * w;
        if (t->phys[k] == PHYS_STR)
            *(StrRef *)(void *)slot = (StrRef){.ptr = empty, .len = 0};
        else
            memset(slot, 0, w);
        if (nullable)
            wv[i >> 6] &= ~(UINT64_C(1) << (i & 63));
    }
    v->data = scratch;
    if (nullable)
        v->validity = wv;
}

/* Phase B: table rows [first, rows) as a run file (storage/runs) named
 * checkpoint/<gen>.<oid>.run. The run's key is the row number (an extra
 * last column), version = xmin, deleted = deletion committed at or before
 * the checkpoint's sequence. Commits flow again: rows [0, rows) never
 * change except their xmax, read atomically; validity words are copied with
 * atomic loads (a writer may be setting bits of later rows in the same
 * words); cold groups are read back from the table's runs through ref. */
static void ckpt_write_run(Ckpt *c, const CkptTable *ct, MemArena *a, StoreRunRef **ref,
                           StoreColdCache *cc)
{
    StoreTable *t = ct->t;
    int nc = ct->ncols;
    RunSchema schema = store__table_run_schema(t, nc, a);
    char path[4200];
    snprintf(path, sizeof path, "%s/checkpoint/%llu.%u.run", store_g.data_dir,
             (unsigned long long)c->gen, t->oid);
    /* Fresh rows: LZ4 (fast to write and to read back). A compaction's run
     * replaces older ones and is read for long: ZSTD, a third smaller. */
    RunWriteOptions opts = {.compression = ct->compact ? RUN_COMP_ZSTD : RUN_COMP_LZ4};
    RunWriter *w = run_writer_create(path, &schema, &opts);
    Batch b = {.ncols = nc + 1, .cols = MEM_NEW_ARRAY(a, Vector, nc + 1)};
    int64_t *rowno = MEM_NEW_ARRAY(a, int64_t, STORE_GROUP_ROWS);
    bool *deleted = MEM_NEW_ARRAY(a, bool, STORE_GROUP_ROWS);
    bool *dead = MEM_NEW_ARRAY(a, bool, STORE_GROUP_ROWS);
    void **scratch = mem_calloc(a, (size_t)(nc ? nc : 1), sizeof *scratch);
    uint64_t *bits = MEM_NEW_ARRAY(a, uint64_t, (size_t)(nc ? nc : 1) * VEC_VALIDITY_WORDS);
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        for (uint64_t start = ct->first; start < ct->rows; start += STORE_GROUP_ROWS) {
            uint32_t n = ct->rows - start < STORE_GROUP_ROWS ? (uint32_t)(ct->rows - start)
                                                             : STORE_GROUP_ROWS;
            const StoreRowGroup *g = store__group(t, start / STORE_GROUP_ROWS);
            for (int k = 0; k < nc; k++) {
                Vector *v = &b.cols[k];
                const void *vals = store__chunk_values(t, ref, cc, &g->chunks[k], k, start);
                *v = (Vector){.type = t->cols[k].type, .phys = t->phys[k], .data = (void *)vals};
                if (atomic_load(&g->chunks[k].zone.null_count) == 0)
                    continue;
                uint64_t *wv = bits + (size_t)k * VEC_VALIDITY_WORDS;
                for (uint32_t i = 0; i < (n + 63) / 64; i++)
                    wv[i] = __atomic_load_n(&g->chunks[k].validity[i], __ATOMIC_RELAXED);
                v->validity = wv;
            }
            uint32_t ndead = 0;
            for (uint32_t i = 0; i < n; i++) {
                rowno[i] = (int64_t)(start + i);
                uint64_t xm = atomic_load(&g->xmax[i]);
                deleted[i] = xm != 0 && !(xm & STORE_XMAX_MARK) && xm <= c->seq;
                dead[i] = store__xmax_dead(xm, c->horizon);
                ndead += dead[i];
            }
            for (int k = 0; ndead && k < nc; k++)
                if (!ckpt_is_key(t, k))
                    ckpt_blank(t, k, &b.cols[k], dead, n,
                               scratch[k] ? scratch[k]
                                          : (scratch[k] = mem_alloc(a, t->width[k] * STORE_GROUP_ROWS)),
                               bits + (size_t)k * VEC_VALIDITY_WORDS);
            b.cols[nc] = (Vector){.type = SQLTYPE(TYPE_INT8), .phys = PHYS_I64, .data = rowno};
            b.count = n;
            run_writer_append(w, &b, g->xmin, deleted);
        }
        run_writer_finish(w, NULL);
        err_pop(&jmp);
    } else {
        run_writer_abort(w);
        err_rethrow();
    }
}

static void ckpt_span_rec(Ckpt *c, uint32_t oid, uint64_t gen, uint64_t first, uint64_t end)
{
    uint8_t rec[28];
    memcpy(rec, &oid, 4);
    memcpy(rec + 4, &gen, 8);
    memcpy(rec + 12, &first, 8);
    memcpy(rec + 20, &end, 8);
    store__wal_add(c->buf, WAL_TABLE_RUNS, rec, sizeof rec);
}

/* TABLE_DELS for rows [0, end) (held by older runs): ranges of rows whose
 * deletion committed at or before the checkpoint. */
static void ckpt_dels_rec(Ckpt *c, StoreTable *t, uint64_t end, MemArena *a)
{
    size_t cap = 64, len = 12;
    uint8_t *buf = mem_alloc(a, cap);
    uint64_t n = 0;
    for (uint64_t r = 0; r < end;) {
        uint64_t xm = atomic_load(store__xmax_of(t, r));
        if (xm == 0 || (xm & STORE_XMAX_MARK) || xm > c->seq) {
            r++;
            continue;
        }
        uint64_t from = r++;
        while (r < end) {
            xm = atomic_load(store__xmax_of(t, r));
            if (xm == 0 || (xm & STORE_XMAX_MARK) || xm > c->seq)
                break;
            r++;
        }
        if (len + 16 > cap) {
            buf = mem_realloc(a, buf, cap, cap * 2);
            cap *= 2;
        }
        memcpy(buf + len, &from, 8);
        memcpy(buf + len + 8, &r, 8);
        len += 16;
        n++;
    }
    if (!n)
        return;
    memcpy(buf, &t->oid, 4);
    memcpy(buf + 4, &n, 8);
    store__wal_add(c->buf, WAL_TABLE_DELS, buf, len);
}

/* Phase B for one table: decide what to write (incremental flush or a
 * rewrite of all rows), write it, and reference the table's runs from the
 * checkpoint file (TABLE_RUNS records, then TABLE_DELS for older runs). */
static void ckpt_run(Ckpt *c, CkptTable *ct, MemArena *a)
{
    StoreTable *t = ct->t;
    /* Only checkpoints (serialized by ckpt_mu) change a table's runs. */
    StoreRunRef *ref = store__run_acquire(t);
    StoreColdCache cc = {.group = UINT32_MAX, .private_decode = true};
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        int ns = ref ? ref->nspans : 0;
        uint64_t prev_end = ns ? ref->spans[ns - 1].end : 0;
        bool vacuum = atomic_exchange(&t->vacuum_full, false);  /* VACUUM: compact (vacuum.c) */
        bool full = vacuum || ns == 0 || ns >= STORE_RUNS_MAX || prev_end > ct->rows;
        for (int i = 0; i < ns && !full; i++)
            full = ref->spans[i].run->ncols_run != ct->ncols;
        ct->first = full ? 0 : prev_end - prev_end % STORE_GROUP_ROWS;
        ct->compact = full && ns > 0;
        ct->wrote = full || ct->rows > prev_end;
        uint64_t kept_end = ct->wrote ? ct->first : prev_end;
        if (ct->wrote)
            ckpt_write_run(c, ct, a, &ref, &cc);
        /* The key's runs before the spans: recovery then knows, when it
         * loads a group, whether its key columns stay in memory. */
        ct->keys = store__keys_flush(t, c->gen, ct->rows);
        if (ct->keys)
            store__keys_record(c->buf, t, ct->keys);
        for (int i = 0; i < ns && ref->spans[i].first < kept_end; i++) {
            const StoreRunSpan *sp = &ref->spans[i];
            ckpt_span_rec(c, t->oid, sp->run->gen, sp->first,
                          sp->end < kept_end ? sp->end : kept_end);
        }
        if (ct->wrote)
            ckpt_span_rec(c, t->oid, c->gen, ct->first, ct->rows);
        ckpt_dels_rec(c, t, kept_end, a);
        err_pop(&jmp);
    } else {
        store__cold_cache_free(&cc);
        store__run_release(t, ref);
        err_rethrow();
    }
    store__cold_cache_free(&cc);
    store__run_release(t, ref);
}

static void write_all_or_raise(int fd, const uint8_t *p, size_t n, const char *path)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            err_raise(ERRCODE_IO_ERROR, "could not write file \"%s\": %s", path,
                      strerror(w < 0 ? errno : EIO));
        p += w;
        n -= (size_t)w;
    }
}

/* Phase B: the runs, then checkpoint/<gen>.ckpt (tmp, fsync, rename). */
static void ckpt_write_files(Ckpt *c)
{
    MemArena *a = mem_arena_create("checkpoint");
    char path[4200], tmp[4300];
    path_of(path, sizeof path, "ckpt", c->gen);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    int fd = -1;
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        for (int i = 0; i < c->n; i++) {
            if (c->tables[i].rows)
                ckpt_run(c, &c->tables[i], a);
            mem_arena_reset(a);
        }
        store__wal_add(c->buf, WAL_COMMIT, &c->seq, 8);
        fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        if (fd < 0)
            err_raise(ERRCODE_IO_ERROR, "could not create file \"%s\": %s", tmp, strerror(errno));
        write_all_or_raise(fd, c->buf->wal, c->buf->wal_len, tmp);
        if (fsync(fd) != 0)
            err_raise(ERRCODE_IO_ERROR, "could not fsync file \"%s\": %s", tmp, strerror(errno));
        close(fd);
        fd = -1;
        if (rename(tmp, path) != 0)
            err_raise(ERRCODE_IO_ERROR, "could not rename file \"%s\": %s", tmp, strerror(errno));
        snprintf(tmp, sizeof tmp, "%s/checkpoint", store_g.data_dir);
        fsync_dir(tmp);
        err_pop(&jmp);
    } else {
        if (fd >= 0)
            close(fd);
        unlink(tmp);
        mem_arena_destroy(a);
        err_rethrow();
    }
    mem_arena_destroy(a);
}

/* Whether checkpoint c names key run <g>.<oid>.<part>.keys. */
static bool ckpt_names_keys(const Ckpt *c, uint64_t g, uint32_t oid, uint32_t part)
{
    for (int i = 0; i < c->n; i++)
        if (c->tables[i].t->oid == oid && c->tables[i].keys &&
            store__keys_names(c->tables[i].keys, g, part))
            return true;
    return false;
}

/* Remove the files of generations before c's: WAL, checkpoint, runs, and
 * key runs c does not name. */
static void remove_before(const Ckpt *c)
{
    uint64_t gen = c->gen;
    static const char *const dirs[] = {"wal", "checkpoint"};
    for (int d = 0; d < 2; d++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", store_g.data_dir, dirs[d]);
        DIR *dir = opendir(path);
        if (!dir)
            continue;
        struct dirent *e;
        while ((e = readdir(dir)) != NULL) {
            unsigned long long g = 0;
            char rest[64] = "";
            if (sscanf(e->d_name, "%llu.%63s", &g, rest) != 2 || g >= gen)
                continue;
            unsigned koid = 0, part = 0;
            char ext[8] = "";
            if (sscanf(rest, "%u.%u.%7s", &koid, &part, ext) == 3 && strcmp(ext, "keys") == 0) {
                if (!ckpt_names_keys(c, g, koid, part)) {
                    snprintf(path, sizeof path, "%s/%s/%s", store_g.data_dir, dirs[d], e->d_name);
                    unlink(path);
                }
                continue;
            }
            if (strcmp(rest, "wal") != 0 && strcmp(rest, "ckpt") != 0 &&
                strstr(rest, "run") == NULL)
                continue;
            unsigned oid = 0;
            if (sscanf(rest, "%u.run", &oid) == 1 && store__run_is_live(g, oid))
                continue;  /* a table's current run, or one still read: cold.c unlinks it */
            snprintf(path, sizeof path, "%s/%s/%s", store_g.data_dir, dirs[d], e->d_name);
            unlink(path);
        }
        closedir(dir);
    }
}

static void install_run(const Ckpt *c, const CkptTable *ct);

/* After `control` names the checkpoint: each run written becomes its
 * table's run and the covered chunks go cold (cold.c). A failure leaves
 * that table in memory, as before. */
static void ckpt_install_runs(Ckpt *c)
{
    for (int i = 0; i < c->n; i++) {
        const CkptTable *ct = &c->tables[i];
        /* runs_end changes only here (checkpoints are serialized) and
         * where checkpoints are excluded (TRUNCATE, ADD PRIMARY KEY). */
        uint64_t keys_from = ct->t->pk.runs_end;
        bool keys_in = store__keys_install(ct->t, ct->keys);  /* the key's runs (keyruns.c) */
        if (ct->wrote)
            install_run(c, ct);
        /* Then the key columns of groups whose data runs came earlier
         * (bulk loads' runs, installed at their COMMIT). */
        if (keys_in)
            store__run_freeze_keys(ct->t, keys_from, ct->t->pk.runs_end);
        /* Groups every snapshot sees whole share one stamp array (vacuum.c). */
        store__freeze_stamps_live(ct->t, ct->rows, c->horizon);
    }
}

/* The run the checkpoint wrote for ct's rows becomes its table's. */
static void install_run(const Ckpt *c, const CkptTable *ct)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/checkpoint/%llu.%u.run", store_g.data_dir,
             (unsigned long long)c->gen, ct->t->oid);
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        store__run_install(ct->t, path, c->gen, ct->first, ct->rows, ct->ncols);
        err_pop(&jmp);
    } else {
        fprintf(stderr, "WARNING:  could not read run \"%s\" back: %s\n", path,
                err_current()->message);
        err_clear();
    }
}

/* Phase A (caller holds commits back): capture, then switch to a new WAL
 * file wal/<gen>.wal that starts exactly at the checkpoint's sequence. The
 * old file is made durable first: recovery reads it before the new one. */
static void ckpt_switch(Ckpt *c)
{
    ckpt_capture(c);
    store__wal_sync();
    int fd = open_wal(c->gen, true);
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/wal", store_g.data_dir);
    fsync_dir(dir);
    store__wal_set_file(fd, 0, c->seq);
    wal_gen = c->gen;
}

void store_checkpoint(void)
{
    if (!store_g.open)
        err_raise(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE, "the store is not open");
    pthread_mutex_lock(&ckpt_mu);
    Ckpt c = {.buf = calloc(1, sizeof(StoreTxn)), .gen = wal_gen + 1};
    ErrJmp jmp;
    if (c.buf && ERR_TRY(jmp)) {
        store__wal_block_commits();
        c.seq = atomic_load(&store_g.visible_seq);
        c.horizon = store__vacuum_horizon();  /* <= seq: commits are held back */
        ErrJmp inner;
        if (ERR_TRY(inner)) {
            ckpt_switch(&c);
            err_pop(&inner);
        } else {
            store__wal_unblock_commits();
            err_rethrow();
        }
        store__wal_unblock_commits();
        ckpt_write_files(&c);
        int rc = write_control(c.gen);
        if (rc != 0)
            err_raise(ERRCODE_IO_ERROR, "could not write file \"%s/control\": %s",
                      store_g.data_dir, strerror(rc));
        ckpt_gen = c.gen;
        ckpt_install_runs(&c);
        remove_before(&c);
        store__bulk_gc(c.seq);  /* bulk.c: run files nothing needs any more */
        err_pop(&jmp);
    } else {
        ckpt_unpin(&c);
        if (c.buf)
            free(c.buf->wal);
        free(c.buf);
        free(c.tables);
        pthread_mutex_unlock(&ckpt_mu);
        if (!c.buf)
            err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
        err_rethrow();
    }
    ckpt_unpin(&c);
    free(c.buf->wal);
    free(c.buf);
    free(c.tables);
    pthread_mutex_unlock(&ckpt_mu);
}

uint64_t store__checkpoint_gen(void) { return ckpt_gen; }

void store__checkpoint_exclude(bool lock)
{
    if (lock)
        pthread_mutex_lock(&ckpt_mu);
    else
        pthread_mutex_unlock(&ckpt_mu);
}

/* ---- the background checkpointer ---- */

/* Automatic checkpoints (the WAL grew past STORE_WAL_CHECKPOINT_BYTES) run
 * in a thread of their own, started by store_open and stopped by
 * store_close, so the commit that crossed the limit does not wait for it. */
static struct {
    pthread_mutex_t mu;
    pthread_cond_t cond;
    pthread_t thread;
    bool running, request, stop;
} bg = {.mu = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER};

static void bg_checkpoint_once(void)
{
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        store_checkpoint();
        err_pop(&jmp);
    } else {
        fprintf(stderr, "WARNING:  automatic checkpoint failed: %s\n", err_current()->message);
        err_clear();
    }
}

/* Asynchronous commits (synchronous_commit = off) don't flush the WAL:
 * the thread flushes what they wrote every STORE_WAL_WRITER_DELAY_MS, as
 * PostgreSQL's WAL writer (wal_writer_delay, 200 ms), so such a commit is
 * durable at most a few hundred ms after it was acknowledged. */
#define STORE_WAL_WRITER_DELAY_MS 200

static void bg_wait(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_nsec += STORE_WAL_WRITER_DELAY_MS * 1000000L;
    if (ts.tv_nsec >= 1000000000L) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000L;
    }
    while (!bg.request && !bg.stop)
        if (pthread_cond_timedwait(&bg.cond, &bg.mu, &ts) == ETIMEDOUT) {
            pthread_mutex_unlock(&bg.mu);
            store__wal_sync();  /* no-op when everything written is flushed */
            pthread_mutex_lock(&bg.mu);
            return;
        }
}

static void *bg_main(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&bg.mu);
    for (;;) {
        while (!bg.request && !bg.stop)
            bg_wait();
        if (bg.stop)
            break;
        bg.request = false;
        pthread_mutex_unlock(&bg.mu);
        bg_checkpoint_once();
        pthread_mutex_lock(&bg.mu);
    }
    pthread_mutex_unlock(&bg.mu);
    return NULL;
}

void store__checkpointer_start(void)
{
    pthread_mutex_lock(&bg.mu);
    bg.request = bg.stop = false;
    bg.running = pthread_create(&bg.thread, NULL, bg_main, NULL) == 0;
    pthread_mutex_unlock(&bg.mu);
}

void store__checkpointer_stop(void)
{
    pthread_mutex_lock(&bg.mu);
    bool running = bg.running;
    bg.stop = true;
    bg.running = false;
    pthread_cond_broadcast(&bg.cond);
    pthread_mutex_unlock(&bg.mu);
    if (running)
        pthread_join(bg.thread, NULL);
}

void store__checkpoint_request_async(void)
{
    pthread_mutex_lock(&bg.mu);
    if (bg.running) {
        bg.request = true;
        pthread_cond_signal(&bg.cond);
    }
    pthread_mutex_unlock(&bg.mu);
}

void store__checkpoint_request(void)
{
    pthread_mutex_lock(&bg.mu);
    bool running = bg.running;
    if (running) {
        bg.request = true;
        pthread_cond_signal(&bg.cond);
    }
    pthread_mutex_unlock(&bg.mu);
    if (!running)
        bg_checkpoint_once();  /* no thread (could not start): do it here */
}
