/*
 * storage_int.h — structures shared by the files of storage/ (internal).
 *
 * Only the storage/ sources and the storage unit tests include this header: it is
 * the in-memory edition's layout (row groups of column chunks, string heap,
 * primary-key hash index, transaction bookkeeping). Everything outside
 * storage/ goes through storage/storage.h, so that issue 3's durable LSM
 * store can replace these structures without touching its callers.
 *
 * Concurrency in one paragraph (details in storage/README.md):
 *  - store_g.lock (the "lock manager" mutex) guards every table's writer,
 *    scan counts and drop state, and every transaction's references. It is
 *    never held across anything that can raise.
 *  - A table's rows [0, committed) never change. Only the table's writer
 *    (holder of its write lock) touches rows >= committed, the heap and the
 *    pk index. Readers load `committed` (acquire) and read below it; the
 *    writer stores row data, chunk pointers and zone maps first and
 *    publishes the count last (release).
 */
#ifndef STRATA_STORAGE_STORAGE_INT_H
#define STRATA_STORAGE_STORAGE_INT_H

#ifndef STORE_INTERNAL
#error "storage/storage_int.h is internal to storage/: include storage/storage.h"
#endif

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include "storage/storage.h"

/* Row groups: one chunk of VEC_CAPACITY rows per column. The directory is
 * two-level and fixed, so a chunk never moves once allocated (scans read it
 * with no lock): STORE_DIR_TOP segments of STORE_DIR_SEG groups. */
#define STORE_GROUP_ROWS VEC_CAPACITY
#define STORE_DIR_SEG 1024
#define STORE_DIR_TOP 4096
#define STORE_MAX_ROWS ((uint64_t)STORE_DIR_TOP * STORE_DIR_SEG * STORE_GROUP_ROWS)

/* String heap: bump allocation from big malloc'd blocks. */
#define STORE_HEAP_BLOCK (1u << 20)

#define STORE_FORMAT_VERSION 1
#define STORE_NAME_MAX 64  /* identifiers (PostgreSQL's NAMEDATALEN) */

/* Zone map of one column chunk. Written only by the table's writer, read
 * concurrently by scans: every field is atomic and only ever widens (rows
 * rolled back leave it wider, which stays correct: it is a hint). min/max
 * hold int64 for integer types and the bits of a double for floats. */
typedef struct StoreZone {
    _Atomic uint64_t min_bits;
    _Atomic uint64_t max_bits;
    atomic_bool has_value;  /* a non-NULL value was written */
    _Atomic uint32_t null_count;  /* NULLs written; an upper bound after a rollback */
    atomic_bool has_nan;    /* floats only: NaN sorts above everything */
} StoreZone;

typedef struct StoreChunk {
    void *data;                               /* STORE_GROUP_ROWS values of the column's phys */
    uint64_t validity[VEC_VALIDITY_WORDS];    /* bit set = not NULL; accessed with __atomic */
    StoreZone zone;
} StoreChunk;

typedef struct StoreRowGroup {
    StoreChunk *chunks;  /* ncols */
} StoreRowGroup;

typedef struct StoreHeapBlock {
    struct StoreHeapBlock *prev;
    size_t size;
    size_t used;
    char bytes[];
} StoreHeapBlock;

typedef struct StoreHeap {
    StoreHeapBlock *head;  /* current block; older ones through prev */
} StoreHeap;

typedef struct StoreHeapMark {
    StoreHeapBlock *block;
    size_t used;
} StoreHeapMark;

/* Primary-key index: linear probing of (hash, row) pairs; keys are
 * compared by reading the rows' values. Used by the writer only. */
typedef struct StorePkEntry {
    uint64_t hash;
    uint64_t row;  /* row number + 1; 0 = empty slot */
} StorePkEntry;

typedef struct StorePkIndex {
    StorePkEntry *slots;
    uint64_t cap;  /* power of two */
    uint64_t count;
} StorePkIndex;

struct StoreTable {
    uint32_t oid;
    char *schema;
    char *name;
    int ncols;
    StoreColumnDef *cols;  /* names and default texts malloc'd with the table */
    PhysType *phys;
    size_t *width;         /* bytes per value */
    int npkey;
    int *pkey;
    char pkey_name[STORE_NAME_MAX];

    /* Under store_g.lock. */
    StoreTxn *writer;      /* holder of the write lock, NULL = none */
    int nscans_notxn;      /* open scans without a transaction */
    bool dropping;         /* store_table_drop is waiting for users */
    bool dropped;          /* gone from the catalog; header kept until store_close */
    bool free_at_txn_end;  /* dropped by its own writer: data freed at its end */
    bool data_freed;

    /* Row counts. committed: published by commit (release). nrows: rows
     * written, including the writer's uncommitted ones (the writer's own
     * view; release-stored after each append). */
    _Atomic uint64_t committed;
    _Atomic uint64_t nrows;
    uint64_t ngroups;      /* row groups allocated (writer only) */
    StoreRowGroup ***dir;  /* STORE_DIR_TOP segment pointers; freed with the rows */

    StoreHeap heap;
    StorePkIndex pk;
    struct StoreTable *next_all;  /* every table ever created, for store_close */
};

/* A transaction's use of one table. */
typedef struct StoreTxnRef {
    StoreTable *table;
    int nscans;
    bool writing;
    StoreHeapMark heap_mark;  /* heap position at the first append */
} StoreTxnRef;

struct StoreTxn {
    uint64_t gen;          /* bumped when the txn ends; scans compare it */
    bool active;
    pthread_t thread;
    StoreTxnRef *refs;     /* malloc'd */
    int nrefs;
    int cap_refs;
    StoreTable *waiting_on;   /* under store_g.lock */
    bool waiting_drop;
    uint64_t visit;           /* deadlock search marker */
    StoreTxn *next_live;
    StoreTxn *prev_live;
    StoreTxn *next_free;
};

struct StoreScan {
    StoreTable *table;
    StoreTxn *txn;
    uint64_t txn_gen;
    uint64_t visible;      /* rows visible to this scan (fixed at begin) */
    uint64_t next_row;     /* next row group start */
    uint64_t committed;    /* committed count at begin (zero-copy limit) */
    int ncols;
    int *cols;
    int nfilters;
    StoreZoneFilter *filters;
    Vector *vecs;          /* used when the caller's batch has no vectors */
    uint64_t *validity_copy;  /* ncols * VEC_VALIDITY_WORDS */
    bool ended;
    uint64_t groups_skipped;
};

/* Process-wide state of the store. */
typedef struct StoreGlobal {
    bool open;
    char *data_dir;
    int lock_fd;
    pthread_mutex_t lock;       /* lock manager */
    pthread_cond_t cond;        /* broadcast when a write lock, scan or txn ends */
    pthread_rwlock_t catalog_lock;
    StoreTxn *live_txns;
    StoreTxn *free_txns;
    uint64_t visit_epoch;
    StoreTable *all_tables;     /* under catalog_lock */
} StoreGlobal;

extern StoreGlobal store_g;

/* ---- store.c ---- */
void store__lock(void);
void store__unlock(void);
/* malloc that raises 53200 (never call while holding a mutex). */
void *store__malloc(size_t size);
void *store__calloc(size_t count, size_t size);
char *store__strdup(const char *s);
/* Write dir/name atomically (temp file, fsync, rename, fsync dir); 0 or an
 * errno value. Never raises. */
int store__write_file_atomic(const char *dir, const char *name, const char *data, size_t len);

/* ---- catalog.c ---- */
void store__catalog_init(void);
void store__catalog_free(void);

/* ---- table.c ---- */
StoreTable *store__table_new(uint32_t oid, const char *schema, const char *name, int ncols,
                             const StoreColumnDef *cols, int npkey, const int *pkey);
/* Free rows, heap and index (the header stays: plans may still point at it). */
void store__table_free_data(StoreTable *t);
void store__table_free(StoreTable *t);
/* Undo the rows appended since `committed` (writer only). */
void store__table_truncate_uncommitted(StoreTable *t, StoreHeapMark mark);
StoreHeapMark store__heap_mark(const StoreHeap *h);
static inline StoreRowGroup *store__group(const StoreTable *t, uint64_t g)
{
    StoreRowGroup **seg = __atomic_load_n(&t->dir[g / STORE_DIR_SEG], __ATOMIC_ACQUIRE);
    return __atomic_load_n(&seg[g % STORE_DIR_SEG], __ATOMIC_ACQUIRE);
}

/* Append v's text form to sb (NULL as "null"); maxlen > 0 clips it at a
 * character boundary and adds "..." (PostgreSQL's 64-byte row detail). */
struct StrBuf;
void store__format_value(SqlType type, const Value *v, size_t maxlen, struct StrBuf *sb);

/* ---- pkindex.c ---- */
/* Room for `extra` more keys (may raise 53200; changes no key). */
void store__pk_reserve(StorePkIndex *pk, uint64_t extra);
/* Insert the keys of the batch's active rows [0, limit) as rows base+i.
 * A key already present (in the table or earlier in the batch) removes the
 * batch's keys again and raises 23505. Never allocates. */
void store__pk_insert_batch(StoreTable *t, const Batch *b, uint64_t base, uint32_t limit);
/* Remove the keys of the batch's active rows [0, n) inserted as rows base+i. */
void store__pk_remove_batch(StoreTable *t, const Batch *b, uint64_t base, uint32_t n);
uint64_t store__pk_hash_row(const StoreTable *t, uint64_t row);
void store__pk_free(StorePkIndex *pk);
/* Remove the keys of rows [from, to) (rows still readable). */
void store__pk_remove_rows(StoreTable *t, uint64_t from, uint64_t to);

/* ---- txn.c ---- */
/* Take t's write lock for txn (waits; raises 40P01 on deadlock, 42P01 when
 * the table was dropped). Records the heap mark at the first append. */
void store__txn_acquire_write(StoreTxn *txn, StoreTable *t);
/* Register / unregister a scan (txn may be NULL). */
void store__txn_scan_register(StoreTxn *txn, StoreTable *t);
void store__txn_scan_unregister(StoreTxn *txn, uint64_t gen, StoreTable *t);
/* store_table_drop's wait: returns when t may be freed now (true) or must be
 * freed at the end of the caller's own transaction (false). Raises 55006
 * when the caller's transaction scans t, 40P01 on deadlock. */
bool store__txn_wait_drop(StoreTable *t);
void store__txn_free_all(void);

/* ---- roles.c ---- */
void store__roles_load(const char *data_dir);
void store__roles_free(void);

#endif
