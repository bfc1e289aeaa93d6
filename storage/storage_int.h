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

#define STORE_FORMAT_VERSION 3
#define STORE_NAME_MAX 64
#define STORE_ADD_COLUMN_ROOM 32  /* ADD COLUMNs a table takes without moving its arrays */  /* identifiers (PostgreSQL's NAMEDATALEN) */

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
    void *data;          /* STORE_GROUP_ROWS values of the column's phys */
    /* VEC_VALIDITY_WORDS words, bit set = not NULL, accessed with __atomic:
     * store_all_valid (shared, read only) until the chunk's first NULL, then
     * its own (store__chunk_validity_own); freed with the group. */
    uint64_t *validity;
    StoreZone zone;
} StoreChunk;

/* The validity of every chunk without a NULL: all bits set, never written. */
extern const uint64_t store_all_valid[VEC_VALIDITY_WORDS];
static inline bool store__validity_shared(const StoreChunk *ch)
{
    return __atomic_load_n(&ch->validity, __ATOMIC_ACQUIRE) == (uint64_t *)store_all_valid;
}
/* Give ch a validity bitmap of its own (a copy of the shared one; published
 * with release). May raise 53200 (nothing changed). */
void store__chunk_validity_own(StoreChunk *ch);
/* Free ch's own bitmap (the group is going). */
void store__chunk_validity_free(StoreChunk *ch);

/* MVCC stamps of one row group's rows (see mvcc.c):
 *  xmin[i]: commit sequence of the inserting transaction (written at its
 *           commit, before the table's `committed` count covers the row);
 *  xmax[i]: 0 = live; STORE_XMAX_MARK | txn id = deleted by that running
 *           transaction; otherwise the commit sequence of the deleter;
 *  next[i]: row number + 1 of the row's next version (UPDATE), 0 = none.
 * ndead counts xmax marks ever set in the group (0 = no row deleted: the
 * scan may hand the chunks out zero copy). */
#define STORE_XMAX_MARK (UINT64_C(1) << 63)
typedef struct StoreRowGroup {
    StoreChunk *chunks;  /* ncols */
    uint64_t *xmin;
    _Atomic uint64_t *xmax;
    _Atomic uint64_t *next;
    _Atomic uint32_t ndead;
    /* 1 once rows appended to the group were rolled back: its zone maps
     * may then be wider than its rows (scan_summary.c; zeroed by group_alloc,
     * read only when ndead == 0). */
    _Atomic uint32_t zone_loose;
    /* Frozen stamps (vacuum.c): claims between their freezing check and
     * their CAS, and a freeze in progress; zeroed by group_alloc. */
    _Atomic uint32_t claiming;
    atomic_bool freezing;
    int ncols_inline;    /* chunks allocated with the group; later ones (ADD COLUMN) malloc'd */
} StoreRowGroup;

/* A heap block: header and bytes are separate allocations, so a block of
 * the value chain can give its bytes back (bytes = NULL, header kept: heap
 * marks may still name it) once every row whose strings it holds is cold
 * (table.c, store__heap_release_frozen). */
typedef struct StoreHeapBlock {
    struct StoreHeapBlock *prev;
    size_t size;
    size_t used;
    uint64_t row_lo, row_hi;  /* value chain: rows [row_lo, row_hi) may point here
                                 (row_lo UINT64_MAX = none yet; a rollback leaves it wider) */
    char *bytes;              /* NULL once released (value chain only) */
} StoreHeapBlock;

/* Two chains of blocks, both filled in row order: `head` holds key
 * columns' strings (the pk index reads them; never released while the
 * table lives) and ADD COLUMN fills; `vals` holds non-key columns'
 * strings, released block by block once cold. Only the table's writer
 * allocates; `mu` orders block creation, rollback and release. */
typedef struct StoreHeap {
    StoreHeapBlock *head;  /* key chain: current block; older ones through prev */
    StoreHeapBlock *vals;  /* value chain: current block */
    uint64_t vals_pin_rows;  /* value blocks holding rows below this stay (ADD PRIMARY KEY
                                made a string column a key while its strings were here) */
    pthread_mutex_t mu;
} StoreHeap;

typedef struct StoreHeapMark {
    StoreHeapBlock *block;
    size_t used;
    StoreHeapBlock *vblock;  /* value chain */
    size_t vused;
} StoreHeapMark;

/* Primary-key index: linear probing of (hash, row) pairs; keys are
 * compared by reading the rows' values. Used by the writer only. */
typedef struct StorePkEntry {
    uint64_t hash;
    uint64_t row;  /* row number + 1; 0 = empty slot */
} StorePkEntry;

/* One run file of the primary key's index (keyruns.c): the keys of table
 * rows [first, end) sorted (storage/runs format; key columns only, version
 * = the row number, one row per key: the one the hash would name), file
 * checkpoint/<gen>.<oid>.<part>.keys. */
typedef struct StoreKeyRun {
    struct RunReader *reader;
    struct KeyGroup *_Atomic *groups;  /* decoded groups kept for lookups (keyruns.c) */
    uint64_t gen;
    uint32_t part;     /* 0: a compaction of older key runs; 1: rows flushed by checkpoint gen */
    uint64_t first, end;
} StoreKeyRun;

/* The primary key's index is an LSM of two levels: the hash below (the
 * "memtable": rows >= runs_end, in memory) and key runs on disk for the
 * rows before (keyruns.c). A key's newest row is the hash's entry if it
 * has one, else the newest key run's holding it. Writers of runs/runs_end:
 * checkpoints (install), TRUNCATE, ADD PRIMARY KEY and table drops, under
 * pk_lock exclusively; lookups share pk_lock. */
typedef struct StorePkIndex {
    StorePkEntry *slots;
    uint64_t cap;  /* power of two */
    uint64_t count;
    StoreKeyRun *runs;   /* oldest first */
    int nruns;
    uint64_t runs_end;   /* rows [0, runs_end) are indexed by runs only */
    uint64_t runs_epoch; /* moves whenever runs are dropped: a checkpoint's
                            plan made before applies only to the same epoch */
    /* Deferred (pkindex.c, "Start-up time" in README.md): recovery left the
     * index unbuilt; the first use after it builds it from the table's rows
     * (slots may already be presized, count 0). Read with acquire. */
    atomic_bool pending;
} StorePkIndex;

/* Statistics of the last ANALYZE (mvcc.c). */
typedef struct StoreStats {
    bool valid;
    int ncols;               /* columns analyzed (ADD COLUMN may come after) */
    uint64_t rows;
    StoreColumnStats *cols;  /* ncols; min/max strings not kept */
} StoreStats;

/* Cold chunks (cold.c): after a checkpoint, the non-key column data of row
 * groups fully covered by the table's runs is freed (StoreChunk.data ==
 * NULL: "read it from the run"), with the value-chain heap blocks of their
 * strings; stamps, validity, zone maps and key columns stay in memory. A
 * StoreRun is one open run file holding table rows first_row, first_row +
 * 1, ... in row order. */
typedef struct StoreRun {
    struct RunReader *reader;
    uint64_t first_row;       /* table row of run row 0 (a multiple of STORE_GROUP_ROWS) */
    uint64_t nrows;           /* rows in the file */
    bool aligned;             /* run groups are whole store groups: may serve cold data */
    uint64_t gen;             /* checkpoint generation that wrote it */
    uint32_t oid;
    int ncols_run;            /* table columns in the run (a last column holds the row number) */
    int refs;                 /* under store_g.lock: spans of StoreRunRefs naming it */
    bool unlink_at_close;     /* superseded by a finished checkpoint: last user unlinks */
    struct StoreRun *next_live;  /* every open run (store_g.lock) */
} StoreRun;

/* Table rows [first, end) are read from run (first == run->first_row; end
 * may stop short of the file's last row when a newer run rewrote them). */
typedef struct StoreRunSpan {
    StoreRun *run;
    uint64_t first, end;
} StoreRunSpan;

/* Chunk data detached by a freeze, freed once no reader can hold it. */
typedef struct StoreRetired {
    void **ptrs;
    size_t n;
    struct StoreRetired *next;
} StoreRetired;

/* A reader's reference to the table's runs: scans, row fetches and
 * checkpoints hold one while they may read chunk data. The table's current
 * ref has one extra count. Data retired onto a ref is freed when it and
 * every older ref of the table are gone (they may have loaded the pointers). */
typedef struct StoreRunRef {
    StoreRunSpan *spans;      /* contiguous from row 0, ascending; malloc'd */
    int nspans;               /* 0 = the table has no run (nothing is cold) */
    int refs;                 /* under store_g.lock */
    StoreRetired *retired;
    struct StoreRunRef *older, *newer;  /* the table's live refs, under store_g.lock */
} StoreRunRef;

/* Decoded run chunks of one run group at a time (a scan's, a checkpoint's). */
typedef struct StoreColdCache {
    MemArena *arena;          /* malloc'd on first use; store__cold_cache_free */
    const StoreRun *run;
    uint32_t group;           /* run group decoded; UINT32_MAX = none */
    uint64_t first_row, end_row;
    int ncols;
    const void **vals;        /* per table column: decoded values or NULL */
    struct StoreChunkEntry **pins;  /* per column: the shared cache entry held */
    bool private_decode;      /* decode into arena, bypassing the shared cache
                                 (checkpoints: one pass over everything) */
    StoreRunRef *pend;        /* a count on the table's bulk_ref when read through it
                                 (cold.c; released by store__cold_cache_free) */
    /* What a switch to the table's current runs let go of while the batch
     * being filled may still point into it (in-memory arrays a freeze
     * retired onto the old ref, decoded chunks of the old pins): kept until
     * store__cold_cache_settle, i.e. the reader's next batch (cold.c). */
    StoreRunRef **stale_refs;
    struct StoreChunkEntry **stale_pins;
    int nstale_refs, nstale_pins, stale_refs_cap, stale_pins_cap;
} StoreColdCache;

/* chunk_cache.c: the process-wide cache of decoded run chunks (bounded,
 * LRU; entries pinned while read). get decodes on a miss; drop_run forgets
 * a run's entries when it is closed (none may be pinned then). */
typedef struct StoreChunkEntry StoreChunkEntry;
struct RunChunk;
const struct RunChunk *store__chunk_cache_get(const StoreRun *run, uint32_t group, int col,
                                              StoreChunkEntry **pin);
void store__chunk_cache_unpin(StoreChunkEntry *e);
void store__chunk_cache_drop_run(const StoreRun *run);
void store__chunk_cache_set_budget(size_t bytes);
void store__chunk_cache_stats(size_t *used, size_t *budget, uint64_t *hits, uint64_t *misses);

/* A table's summary of its final row groups (scan_summary.c, "Group
 * summaries" in README.md): groups [0, ngroups) were full, committed, never
 * deleted from (ndead 0) and not zone_loose when a walk read them after
 * reading store_g.visible_seq == seq, so every deletion committed at or
 * before seq was seen. A scan whose snapshot is <= seq and whose visible
 * rows cover the groups (and which is not the table's writer) takes their
 * count and the slots' merged zone maps at once. Inline in StoreTable
 * (calloc'd: zero = none; nothing to free), copied under summary_lock. */
#define STORE_SUMMARY_SLOTS 8
typedef struct StoreSummarySlot {
    int col;                /* table column (committed: never reused) */
    bool has_value;
    uint64_t null_count;
    int64_t min, max;
} StoreSummarySlot;
typedef struct StoreTableSummary {
    bool built;
    uint64_t seq;
    uint64_t ngroups;
    int nslots;
    unsigned evict;         /* next slot replaced when all are taken */
    StoreSummarySlot slots[STORE_SUMMARY_SLOTS];
} StoreTableSummary;

struct StoreTable {
    uint32_t oid;
    uint32_t dboid;        /* database */
    StoreTxn *create_txn;  /* under catalog_lock: uncommitted CREATE (visible to it only) */
    StoreTxn *drop_txn;    /* under catalog_lock: uncommitted DROP (invisible to it) */
    uint64_t create_seq;   /* under catalog_lock: commit sequence of its CREATE (0: before
                            * this process's start), for snapshot listings (catalog_list.c) */
    uint64_t drop_seq;     /* under catalog_lock: that of its DROP (0: not dropped, or unknown) */
    bool free_when_unused; /* under store_g.lock: dropped, data freed by the last user */
    pthread_rwlock_t pk_lock;  /* the pk index: writer exclusive, point lookups shared */
    StoreStats stats;      /* under store_g.lock */
    bool *pk_prev_not_null; /* ADD PRIMARY KEY not committed yet: NOT NULL flags before it */
    bool ckpt_pinned;      /* under the checkpoint mutex: held as a scan by a checkpoint */
    int cap_cols;          /* room in cols/phys/width (ADD COLUMN never moves them) */
    StoreTxn *alter_txn;   /* uncommitted ADD COLUMN: columns >= ncols_committed are its own */
    int ncols_committed;
    char *schema;
    char *name;
    char *view_sql;        /* a view: its query's SQL text (the planner expands it); NULL = table */
    bool temp;             /* in a temporary schema (pg_temp_N): no WAL record, no checkpoint,
                            * no run file, ever (storage/README.md "Temporary schemas") */
    int ncols;
    StoreColumnDef *cols;  /* names and default texts malloc'd with the table */
    PhysType *phys;
    size_t *width;         /* bytes per value */
    int npkey;
    int *pkey;
    char pkey_name[STORE_NAME_MAX];

    /* Under store_g.lock. */
    StoreTxn *writer;      /* holder of the write lock, NULL = none */
    uint64_t writer_first; /* the writer's first row: nrows when it took the lock (rows
                              between `committed` and here are committing predecessors') */
    uint64_t handoff_seq;  /* commit sequence of the last writer that passed the lock on
                              before its rows were published (txn.c "Commit handoff") */
    int nscans_notxn;      /* open scans without a transaction */
    bool dropping;         /* store_table_drop is waiting for users */
    bool dropped;          /* gone from the catalog; header kept until store_close */
    bool data_freed;

    /* Row counts. committed: published by commit (release). nrows: rows
     * written, including the writer's uncommitted ones (the writer's own
     * view; release-stored after each append). */
    _Atomic uint64_t committed;
    _Atomic uint64_t nrows;
    uint64_t ngroups;      /* row groups allocated (writer only) */
    StoreRowGroup ***dir;  /* STORE_DIR_TOP segment pointers; freed with the rows */
    struct StoreChunkSlab **slab_cur; /* per column (cap_cols): the slab its next chunk comes from (chunk_slab.c) */

    StoreHeap heap;
    StorePkIndex pk;
    StoreRunRef *run_cur;        /* under store_g.lock; never NULL while data is held */
    StoreRunRef *bulk_ref;       /* under store_g.lock: the writer's sealed, uncommitted bulk
                                  * runs (bulk.c), serving groups its loads left (cold.c) */
    pthread_mutex_t freeze_mu;   /* freezes vs thaws (ADD PRIMARY KEY; stamps, vacuum.c) */
    atomic_bool vacuum_full;     /* VACUUM asked: next checkpoint rewrites all rows (vacuum.c) */
    /* Uncommitted TRUNCATE (truncate.c), under store_g.lock: its transaction
     * (other transactions' scans wait), the first row of the new generation
     * (a multiple of STORE_GROUP_ROWS) and the heap block its strings start in. */
    StoreTxn *trunc_txn;
    /* ACCESS EXCLUSIVE (DROP TABLE, TRUNCATE; txn.c), under store_g.lock:
     * its holder, or while `dropping` the transaction queued for it (other
     * transactions' first uses of the table wait behind it). */
    StoreTxn *excl_txn;
    uint64_t trunc_row;
    StoreHeapBlock *trunc_block;
    struct StoreTable *next_all;  /* every table ever created, for store_close */
    _Atomic uint32_t summary_lock;  /* spin lock of `summary` (scan_summary.c) */
    StoreTableSummary summary;
    /* delta.c, under pk_lock: the open deltas of transactions writing this
     * table without its write lock, and idle shadow tables kept for reuse. */
    struct StoreDelta *deltas;
    struct StoreTable *shadow_pool;
    int nshadow_pool;
    bool is_shadow;        /* a delta's private table (delta.c): never logged, in no catalog */
};

/* Undo log entry of a transaction (txn.c, mvcc.c): what its rollback (or a
 * rollback to a savepoint) undoes, newest first; commit walks it to stamp
 * deletions and finish DDL. */
typedef enum StoreUndoKind {
    UNDO_INSERT,        /* rows [from, to) of table appended */
    UNDO_DELETE,        /* row `from` of table got our xmax mark (and next link) */
    UNDO_CREATE_TABLE,  /* table created */
    UNDO_DROP_TABLE,    /* table marked dropped by us */
    UNDO_CREATE_SCHEMA, /* schema index `from` created */
    UNDO_DROP_SCHEMA,   /* schema index `from` marked dropped by us */
    UNDO_ADD_PKEY,      /* primary key added to table (old NOT NULL flags in pk_prev_not_null) */
    UNDO_ADD_COLUMN,    /* column added to table (ncols was `from`) */
    UNDO_TRUNCATE,      /* table truncated: rows were [0, from), padded to `to`; aux (truncate.c) */
} StoreUndoKind;

typedef struct StoreUndo {
    StoreUndoKind kind;
    StoreTable *table;
    uint64_t from, to;
    StoreHeapMark heap_mark;  /* UNDO_INSERT: heap position before the rows */
    void *aux;                /* UNDO_TRUNCATE: what its undo restores (truncate.c) */
    bool deferred;            /* UNDO_DELETE of a delta writer (delta.c): its WAL record and
                                 `next` link (`to`: its delta successor + 1) come at the flush */
} StoreUndo;

typedef struct StoreSavepointMark {
    int nundo;        /* undo entries before the savepoint */
    uint64_t wal_len; /* WAL stream position before it (store__wal_pos) */
} StoreSavepointMark;

/* A transaction's use of one table. Its existence is the transaction's
 * lock on the table, held to its end (PostgreSQL's ACCESS SHARE or
 * stronger): DROP TABLE and TRUNCATE wait for every other holder (txn.c). */
typedef struct StoreTxnRef {
    StoreTable *table;
    int nscans;
    bool writing;
    StoreHeapMark heap_mark;  /* heap position at the first append */
    bool handed_off;          /* commit passed the write lock on (txn.c); rows end at end_row */
    uint64_t end_row;         /* handed_off: t's nrows then, where this commit's rows end */
    int level;                /* savepoints open when made / writing began / the */
    int write_level;          /* exclusive lock was granted: ROLLBACK TO one of */
    int excl_level;           /* them releases what came after (txn.c) */
} StoreTxnRef;

struct StoreTxn {
    struct StoreDelta *deltas;  /* delta.c: its private deltas, one per table written
                                   without the table's write lock */
    uint64_t gen;          /* bumped when the txn ends; scans compare it */
    uint64_t id;           /* unique per begin (xmax marks) */
    StoreIsolation iso;
    bool sync_commit;
    bool sync_forced;      /* store_txn_set_synchronous_commit called: the session's setting is not read */
    bool has_snapshot;     /* a statement began: snapshot fixed */
    bool stmt_started;     /* some statement began (SET TRANSACTION too late) */
    uint64_t snapshot;     /* commit sequences <= snapshot are visible */
    atomic_bool snap_busy; /* taking a snapshot (store__txn_take_snapshot; vacuum.c reads) */
    StoreUndo *undo;       /* malloc'd log */
    int nundo, cap_undo;
    StoreSavepointMark *saves;
    int nsaves, cap_saves;
    uint8_t *wal;          /* this transaction's WAL records, written at commit */
    size_t wal_len, wal_cap;
    bool wal_spill_ok;     /* a live transaction (not a checkpoint's buffer): may spill */
    int wal_spill_fd;      /* > 0: records [0, wal_spilled) are in this unnamed file */
    uint64_t wal_spilled;  /* record bytes before wal[0] (in the spill file) */
    bool active;
    pthread_t thread;
    StoreTxnRef *refs;     /* malloc'd */
    int nrefs;
    int cap_refs;
    StoreTable *waiting_on;   /* under store_g.lock */
    bool waiting_drop;
    bool waiting_scan;        /* waiting_on: a scan queued behind an exclusive lock */
    StoreTxn *waiting_for;    /* a transaction it waits for the end of (a row it holds, a
                                 pending role or sequence change)... */
    uint64_t waiting_for_id;  /* ...with this id (the struct is reused once it ends) */
    uint64_t visit;           /* deadlock search marker */
    StoreTxn *next_live;
    StoreTxn *prev_live;
    StoreTxn *next_free;
    struct StoreBulk *bulk;   /* bulk loads writing runs (bulk.c) */
    bool bulk_sealing;
    struct StoreCatUndo *cat_undo;  /* catalog_txn.c: roles, sequences, statistics changed */
    int ncat_undo, cap_cat_undo;
    struct StoreFetchArenas *fetch;  /* mvcc.c: strings handed out by store_row_fetch */
    const struct GucSet *guc; /* session settings (lock_timeout), NULL = server defaults */
};

struct StoreScan {
    StoreTable *table;
    StoreTxn *txn;
    uint64_t txn_gen;
    uint64_t visible;      /* committed rows [0, visible) visible by xmin (fixed at begin) */
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
    uint64_t snapshot;     /* commit sequence the scan sees */
    uint64_t own_from, own_to;  /* the txn's own uncommitted rows (empty when not the writer) */
    uint64_t self_mark;    /* STORE_XMAX_MARK | txn id, 0 without a txn */
    int rowid_col;         /* position of STORE_COL_ROWID in cols, -1 = none */
    void **gather;         /* ncols buffers for groups with invisible rows */
    uint64_t *gather_validity;
    StoreRunRef *ref;      /* the run cold chunks are read from (cold.c) */
    StoreColdCache cold;
    /* Parallel scans (store_scan_share / store_scan_clone): row ranges of
     * STORE_MORSEL_ROWS taken from a counter every sharer increments. */
    struct StoreMorsels *morsels;  /* NULL = the scan reads [next_row, end) alone */
    uint64_t range_end;    /* end of the morsel being read */
    bool clone;            /* made by store_scan_clone: not registered with the txn */
    /* scan_summary.c: the table's summary was tried (first call); groups of
     * the run it handed out still to be told as empty summaries. */
    bool sum_tried;
    uint64_t sum_follow;
    bool private_scan;     /* of a delta's shadow (store__scan_begin_private): not registered */
    struct StoreScan *delta;  /* the transaction's delta rows of the table, read after its
                                 own (delta.c); NULL = none (and in clones) */
};

/* Rows per morsel of a parallel scan: one checkpoint run group or four bulk
 * ones (cold.c decodes a column's run group at a time), so no two threads
 * decode the same group. */
#define STORE_MORSEL_ROWS (64u * 1024)
/* Rows per group of a bulk load's run (bulk.c): a multiple of STORE_GROUP_ROWS
 * dividing STORE_MORSEL_ROWS (a run that starts on a morsel holds whole groups in each). */
#define STORE_BULK_GROUP_ROWS (16u * 1024)
typedef struct StoreMorsels {
    _Atomic uint64_t next; /* start of the next morsel to hand out */
    uint64_t end;          /* the scan's end row */
} StoreMorsels;

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
    /* MVCC (mvcc.c, wal.c). */
    _Atomic uint64_t visible_seq;  /* last commit sequence published */
    _Atomic uint64_t next_txn_id;
    bool replaying;             /* recovery: no WAL records are written */
    uint64_t replay_seq;        /* the sequence the replayed commit gets */
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

void store__heap_reset(StoreHeap *h, StoreHeapMark mark);
/* Copy n bytes into the heap's key chain (kept while the table lives; may
 * raise 53200). */
char *store__heap_copy(StoreHeap *h, const char *p, size_t n);
/* n bytes of the key chain, uninitialised (may raise 53200). */
char *store__heap_alloc(StoreHeap *h, size_t n);
/* Whether column c of t is a primary-key column (key strings stay in memory). */
bool store__col_is_key(const StoreTable *t, int c);
/* Cold strings: detach the bytes of value-chain blocks (not the current
 * one) all of whose rows have every non-key string column of [0, ncols)
 * cold (chunk data NULL); their pointers are appended to *ptrs (growable,
 * *n used of *cap) for the caller to retire or free. Caller holds
 * t->freeze_mu. Returns the bytes detached; never raises (stops early when
 * the array cannot grow). */
size_t store__heap_release_frozen(StoreTable *t, int ncols, void ***ptrs, size_t *n, size_t *cap);
/* TRUNCATE's swap: key blocks older than keep and value blocks of rows
 * below from go; the rest are renumbered from `from` (rows - from). */
void store__heap_cut(StoreHeap *h, StoreHeapBlock *keep, uint64_t from);

/* Recovery (recovery_load.c): whole row groups served by the table's
 * current run from the start. begin allocates ngroups groups for rows
 * [nrows, nrows + ngroups * STORE_GROUP_ROWS) (nrows a multiple of it),
 * with data arrays for the key columns only (may raise; nothing kept).
 * column fills column c of every group from its decoded run chunk rc
 * (rows from 0; NULL: a string column without NULLs, not decoded):
 * validity, NULL count, zone map, key values; it never raises and may run
 * on several threads at once for distinct columns (so may const, below). end (one thread, the
 * chunks still alive) copies key strings into the heap, publishes the
 * groups and the row count, leaves an UNDO_INSERT entry (xmin at commit)
 * and defers the pk index; if it raises, nothing was published and abort
 * frees the groups. */
typedef struct StoreColdGroups {
    uint64_t base;              /* first row */
    uint32_t ngroups;
    StoreRowGroup **groups;
} StoreColdGroups;
struct RunChunk;
void store__cold_groups_begin(StoreTable *t, StoreColdGroups *cg, uint32_t ngroups);
void store__cold_groups_column(StoreTable *t, StoreColdGroups *cg, int c,
                               const struct RunChunk *rc);
/* Column c (a non-key integer or boolean column) holds v in every row of
 * the groups, no NULL: what column would fill, without decoding. */
void store__cold_groups_const(StoreTable *t, StoreColdGroups *cg, int c, int64_t v);
void store__cold_groups_end(StoreTable *t, StoreTxn *x, StoreColdGroups *cg);
void store__cold_groups_abort(StoreTable *t, StoreColdGroups *cg);

/* ---- recovery_load.c ---- */
/* Recovery: append table rows [first, end) from run (attached as the
 * table's last span; its row 0 is table row first) as x's rows: stamps,
 * validity, zone maps and key columns in memory, the rest served from the
 * run; deleted flags replayed; the pk index deferred. a: the caller's
 * arena for small allocations. XX001 on a damaged or mismatching run. */
void store__recovery_load_run(StoreTable *t, StoreTxn *x, const StoreRun *run, const char *path,
                              uint64_t first, uint64_t end, MemArena *a);

/* ---- pkindex.c ---- */
/* Point row's key at row again unless the key is present (undo of a delete). */
void store__pk_reinsert_row(StoreTable *t, uint64_t row);
/* Newest row holding key (npkey values); false when absent. */
bool store__pk_find(const StoreTable *t, const Value *key, uint64_t *row);
/* The same for the key of batch b's active row i (caller holds pk_lock),
 * and the 23505 a duplicate of it raises (PostgreSQL's detail text). */
bool store__pk_find_batch_row(const StoreTable *t, const Batch *b, uint32_t i, uint64_t *row);
_Noreturn void store__pk_raise_duplicate_batch_row(const StoreTable *t, const Batch *b, uint32_t i);
bool store__pk_row_matches(const StoreTable *t, uint64_t row, const Value *key);
/* Key column col's values at a and b equal as PostgreSQL's btree equality
 * says (-0 = 0, NaN = NaN, numeric by value, the rest by bytes). */
bool store__pk_value_equal(const StoreTable *t, int col, const void *a, const void *b);
/* Index every live row (ALTER TABLE ADD PRIMARY KEY): 23505 "could not create
 * unique index" on a duplicate. Caller holds pk_lock exclusively. */
void store__pk_build(StoreTable *t);
/* Room for `extra` more keys (may raise 53200; changes no key). */
void store__pk_reserve(StorePkIndex *pk, uint64_t extra);
/* Insert the keys of the batch's active rows [0, limit) as rows base+i.
 * A key already present (in the table or earlier in the batch) removes the
 * batch's keys again and raises 23505 — unless the row holding it is deleted
 * (committed, or by self_mark): the entry then moves to the new row. Caller
 * holds t->pk_lock exclusively; on error it is still held. Returns false,
 * with none of the batch's keys in, when a key's row is held by another
 * transaction (*wait_mark: its mark): the caller waits for its end
 * (store__txn_wait_mark) and tries again. */
bool store__pk_insert_batch(StoreTable *t, const Batch *b, uint64_t base, uint32_t limit,
                            uint64_t self_mark, uint64_t *wait_mark);
/* Remove the keys of the batch's active rows [0, n) inserted as rows base+i. */
void store__pk_remove_batch(StoreTable *t, const Batch *b, uint64_t base, uint32_t n);
uint64_t store__pk_hash_row(const StoreTable *t, uint64_t row);
void store__pk_free(StorePkIndex *pk);
/* Remove the keys of rows [from, to) (rows still readable). */
void store__pk_remove_rows(StoreTable *t, uint64_t from, uint64_t to);
/* Recovery: the table's index is left to be built on first use (a write,
 * a point lookup); every index change while replaying defers it too. */
void store__pk_defer(StoreTable *t);
/* End of recovery, single-threaded: presize a deferred index for the
 * table's rows, so its capacity does not change when it is built. */
void store__pk_recovered(StoreTable *t);

/* ---- keyruns.c: the primary key's runs ---- */
/* Whether t's key can live in key runs: a permanent table with a primary
 * key whose columns order as they compare (not numeric: 1.0 = 1.00). */
bool store__keys_supported(const StoreTable *t);
/* Whether column c of store group g keeps its array in memory once a run
 * holds the group (table.c): a key column does until every row of the group
 * has its key in key runs (the hash and the deferred build read the keys of
 * rows >= runs_end), or always when the table's key cannot be in runs. */
bool store__col_held(const StoreTable *t, int c, uint64_t g);
/* The newest row holding key (npkey values) in t's key runs, newest run
 * first (key range, bloom filter, binary search). Under pk_lock, shared. */
bool store__keys_find(const StoreTable *t, const Value *key, uint64_t *row);
/* Bytes of decoded key groups kept for lookups, all key runs together
 * (64 MB; tests lower it). */
extern size_t store__key_cache_limit;
/* Close and forget t's key runs (files stay: the last checkpoint may name
 * them; the next removes them). Under pk_lock exclusively, or no sharer. */
void store__keys_drop(StorePkIndex *pk);
/* A checkpoint's work on t's key runs: the plan (phase B: write the rows
 * [runs_end, rows) as a new run, and merge older runs into one when there
 * are STORE_KEY_RUNS_MAX of them), its record (naming every key run the
 * checkpoint keeps) and its install once the checkpoint is durable. */
typedef struct StoreKeysPlan StoreKeysPlan;
StoreKeysPlan *store__keys_flush(StoreTable *t, uint64_t gen, uint64_t rows);
void store__keys_record(StoreTxn *buf, const StoreTable *t, const StoreKeysPlan *p);
bool store__keys_names(const StoreKeysPlan *p, uint64_t gen, uint32_t part);
/* p stays the caller's; true when its runs became t's (t->pk.runs_end moved). */
bool store__keys_install(StoreTable *t, StoreKeysPlan *p);
void store__keys_plan_free(StoreKeysPlan *p);
/* Recovery: the TABLE_KEYS record of a checkpoint (payload after the oid). */
void store__keys_recover(StoreTable *t, const uint8_t *p, size_t len, const char *wal_path);
/* Drop index entries of rows below end (their keys are in runs now);
 * false, nothing changed, when memory ran out. Under pk_lock exclusively. */
bool store__pk_prune_below(StoreTable *t, uint64_t end);

/* ---- delta.c: transaction-private deltas (row-level write concurrency) ----
 * A transaction that writes a table without holding its write lock (plain
 * INSERT/UPDATE/DELETE) keeps its new rows in a private shadow table shaped
 * as the table, claims the rows it deletes with a compare-and-swap of their
 * xmax, and appends its rows to the table only when it flushes: at commit
 * (under the write lock, in commit order), or before a statement that needs
 * the write lock (COPY's bulk load, ON CONFLICT, TRUNCATE, ALTER, DROP).
 * Locators of its delta rows carry STORE_DELTA_ROW. README "Row-level
 * writes". */
#define STORE_DELTA_ROW (UINT64_C(1) << 62)
typedef struct StoreDelta StoreDelta;
/* Whether x's writes to t go to a delta (x does not hold t's write lock). */
bool store__delta_mode(const StoreTable *t, const StoreTxn *x);
/* x's unflushed delta shadow of t, or NULL. */
StoreTable *store__delta_shadow(const StoreTxn *x, const StoreTable *t);
void store__delta_insert(StoreTable *t, StoreTxn *x, const Batch *b);
StoreWriteResult store__delta_delete(StoreTable *t, StoreTxn *x, uint64_t rowid,
                                     uint64_t *newest);
StoreWriteResult store__delta_update(StoreTable *t, StoreTxn *x, uint64_t rowid,
                                     const Batch *values, uint32_t row, uint64_t *newest);
/* A locator of x's as the table row it names now: a delta row after its
 * flush becomes the table row it went to; *shadow set (and the shadow row
 * returned) while it is still in the delta. */
uint64_t store__delta_locate(StoreTable *t, const StoreTxn *x, uint64_t rowid, StoreTable **shadow);
/* Flush x's delta of t into t (x holds t's write lock; no-op without one). */
void store__delta_flush(StoreTable *t, StoreTxn *x);
/* Commit: take each written table's write lock and flush its delta. */
void store__delta_flush_all(StoreTxn *x);
/* ROLLBACK TO a savepoint at WAL position wal_pos: a flush after it is
 * undone (its rows, records and write lock went), its delta open again. */
void store__delta_rollback_to(StoreTxn *x, uint64_t wal_pos);
/* Transaction end (after commit or the undo of a rollback): deltas go. */
void store__delta_end(StoreTxn *x);
/* Under t->pk_lock: the mark of another transaction whose open delta has
 * one of the keys of b's rows [0, limit) (0: none) — a direct writer of t
 * waits for it rather than add the key twice. */
uint64_t store__delta_pending_key(StoreTable *t, const StoreTxn *x, const Batch *b, uint32_t limit);
/* store_close with x still open: its deltas freed, their tables left
 * alone (they are being freed too). */
void store__delta_discard(StoreTxn *x);
/* The table's idle shadows (store_close, DROP). */
void store__delta_pool_free(StoreTable *t);

/* mvcc.c: claim row for x — compare-and-swap of its xmax from 0 to x's
 * mark, waiting for a transaction that holds it (store__txn_wait_mark);
 * READ COMMITTED follows a committed update to its newest version (MOVED,
 * not claimed), REPEATABLE READ raises 40001. ndead counted on success. */
StoreWriteResult store__row_claim(StoreTable *t, StoreTxn *x, uint64_t row, uint64_t *newest);
/* The same with its undo entry (deferred: a delta's, logged at the flush). */
StoreWriteResult store__row_claim_logged(StoreTable *t, StoreTxn *x, uint64_t row,
                                         uint64_t *newest, bool deferred);
/* unseen[i]: x's snapshot does not see table row rows[i] (a delta row,
 * x's own, is seen). mvcc.c; ON CONFLICT's check of the rows its keys met. */
void store__rows_unseen(StoreTable *t, StoreTxn *x, const uint64_t *rows, uint32_t n, bool *unseen);
/* Whether x has a delta of t (flushed or not). */
bool store__delta_has(const StoreTxn *x, const StoreTable *t);

/* scan.c: a scan of a delta's shadow for its transaction (every column
 * asked, no zone filter), not registered with the transaction. */
StoreScan *store__scan_begin_private(StoreTable *shadow, StoreTxn *x, int ncols, const int *cols,
                                     MemArena *arena);

/* ---- txn.c ---- */
/* Wait until the transaction whose xmax mark is `mark` has ended (40P01 on
 * a deadlock, 57014 on cancel, 55P03 past lock_timeout). */
void store__txn_wait_mark(StoreTxn *me, uint64_t mark);
/* Take t's write lock for txn (waits; raises 40P01 on deadlock, 42P01 when
 * the table was dropped). Records the heap mark and first row at the first
 * append. store__txn_acquire_write also waits until the rows of commits that
 * passed the lock on are published (bulk loads, VACUUM, ON CONFLICT, replay
 * need rows >= `committed` to be their own); the _dml form (INSERT, UPDATE,
 * DELETE) does not: it waits only where it meets such a commit's marks
 * (store__txn_wait_mark). */
void store__txn_acquire_write(StoreTxn *txn, StoreTable *t);
/* Wait until the commits that passed t's write lock on are published, so
 * every row of theirs is below `committed` (ON CONFLICT reads the row its
 * key conflicts with). Honours cancel and lock_timeout. */
void store__txn_wait_published(StoreTxn *me, StoreTable *t);
void store__txn_acquire_write_dml(StoreTxn *txn, StoreTable *t);
/* Commit handoff (txn.c): after x's COMMIT record is written (sequence
 * seq) and before it is flushed and published, pass the write locks of
 * its plain DML on, so the next writer of a table works while this commit
 * waits for its fsync — its flush can then be shared (group commit). */
void store__txn_handoff(StoreTxn *x, uint64_t seq);
/* First row of t that x appended while holding its write lock
 * (UINT64_MAX when x is not t's writer). */
uint64_t store__txn_own_first(const StoreTable *t, const StoreTxn *x);
/* Register / unregister a scan (txn may be NULL). */
void store__txn_scan_register(StoreTxn *txn, StoreTable *t);
void store__txn_scan_unregister(StoreTxn *txn, uint64_t gen, StoreTable *t);
/* store_table_drop's wait: t's ACCESS EXCLUSIVE lock for me (its write
 * lock, once no other transaction has used t: readers and writers hold
 * their use to their end). Raises 55006 when me scans t, 40P01 on deadlock. */
void store__txn_wait_drop(StoreTxn *me, StoreTable *t);
/* The same ACCESS EXCLUSIVE lock for ALTER TABLE ADD COLUMN / ADD PRIMARY
 * KEY (55006 "cannot ALTER TABLE", 42P01 "relation ... does not exist"). */
void store__txn_wait_alter(StoreTxn *me, StoreTable *t);
/* Wait until transaction owner, seen running with id owner_id (read under
 * the lock of the object it has a pending change of), has ended: a second
 * change of a role or sequence waits for the first's transaction, as
 * PostgreSQL's wait on a row's xmax. Raises 40P01 when owner waits for me,
 * 57014 on cancel. The caller then looks the object up again. */
void store__txn_wait_txn(StoreTxn *me, StoreTxn *owner, uint64_t owner_id);
/* lock_timeout of x's session in ms (0 = none; x NULL: the server
 * default), and its error: 55P03 canceling statement due to lock timeout. */
int store__txn_lock_timeout(const StoreTxn *x);
_Noreturn void store__raise_lock_timeout(void);
/* Savepoints and table locks (mvcc.c's store_txn_release/_rollback_to):
 * locks taken inside a released savepoint belong to the level below; a
 * ROLLBACK TO savepoint `level` releases the table references, write locks
 * and exclusive locks first taken after it (PostgreSQL's subtransaction
 * locks), except references with scans still open. */
void store__txn_refs_release(StoreTxn *x, int level);
void store__txn_refs_rollback_to(StoreTxn *x, int level);
/* A second CREATE of a relation name (catalog.c, sequence.c): another
 * transaction creating a table or view / a sequence of that name (its id
 * in *id; NULL when none); whether a sequence of it exists for the caller;
 * PostgreSQL's 23505 for a name whose creator committed while the second
 * CREATE waited (pg_type's index when both have row types, else pg_class's). */
StoreTxn *store__relname_creator(uint32_t dboid, const char *schema, const char *name,
                                 const StoreTxn *cur, uint64_t *id);
StoreTxn *store__seq_creator(uint32_t dboid, const char *schema, const char *name,
                             const StoreTxn *me, uint64_t *id);
bool store__seq_exists(uint32_t dboid, const char *schema, const char *name);
_Noreturn void store__raise_relname_taken(const char *schema, const char *name, bool type_index);
/* The calling thread's active transaction (last begun), NULL when none. */
StoreTxn *store__txn_current(void);
void store__txn_free_all(void);

/* ---- mvcc.c ---- */
/* The txn's snapshot for a scan or write (takes one when none). */
uint64_t store__txn_snapshot(StoreTxn *txn);
/* Take a fresh snapshot for x (visible_seq), flagged so that
 * store__vacuum_horizon never misses one being taken. */
void store__txn_take_snapshot(StoreTxn *x);
/* Rows of t visible by their xmin at snapshot seq (a prefix of [0, committed)). */
uint64_t store__visible_prefix(const StoreTable *t, uint64_t committed, uint64_t snap);
/* Whether row r with xmax x is visible to snapshot snap (self = own mark). */
static inline bool store__xmax_visible(uint64_t x, uint64_t snap, uint64_t self)
{
    if (x == 0)
        return true;
    if (x & STORE_XMAX_MARK)
        return x != self;
    return x > snap;
}
static inline _Atomic uint64_t *store__xmax_of(const StoreTable *t, uint64_t row)
{
    /* The pointer moves when the group is frozen or thawed (vacuum.c). */
    _Atomic uint64_t *xmax =
        __atomic_load_n(&store__group(t, row / STORE_GROUP_ROWS)->xmax, __ATOMIC_ACQUIRE);
    return &xmax[row % STORE_GROUP_ROWS];
}
/* Append an undo entry (may raise 53200 before anything changes). */
void store__undo_push(StoreTxn *txn, StoreUndo u);
/* Undo entries [keep, nundo) newest first; the txn holds its write locks. */
void store__undo_rollback(StoreTxn *txn, int keep);
/* Commit stamps: xmin of rows [committed, nrows) of written tables and xmax
 * of deleted rows get seq (caller publishes visible_seq afterwards). */
void store__undo_commit(StoreTxn *txn, uint64_t seq);
/* Append rows of b as store_table_append does, with the write lock held. */
void store__append_locked(StoreTable *t, StoreTxn *txn, const Batch *b);
/* The same without its WAL record (bulk.c logs the rows); returns the first row. */
uint64_t store__append_nowal(StoreTable *t, StoreTxn *txn, const Batch *b);
void store__stats_free(StoreTable *t);
/* Recovery: mark row deleted by x with successor next + 1 (0 = none). */
void store__replay_delete(StoreTable *t, StoreTxn *x, uint64_t row, uint64_t next_plus1);
/* Free the string copies store_row_fetch made for x (transaction end). */
void store__fetch_free(StoreTxn *x);

/* ---- catalog.c / database.c ---- */
/* Table visible to the calling thread (its database, uncommitted DDL). */
StoreTable *store__table_lookup_db(uint32_t dboid, const char *schema, const char *name);
/* Create with a given OID (recovery) or 0 = next. */
StoreTable *store__table_create_oid(uint32_t dboid, uint32_t oid, const char *schema,
                                    const char *name, int ncols, const StoreColumnDef *cols,
                                    int npkey, const int *pkey);
/* The same for a view (view_sql non-NULL): a relation with columns and no rows. */
StoreTable *store__relation_create_oid(uint32_t dboid, uint32_t oid, const char *schema,
                                       const char *name, int ncols, const StoreColumnDef *cols,
                                       int npkey, const int *pkey, const char *view_sql);
/* Finish DDL at commit / rollback (txn.c). */
/* The commit (sequence seq; 0 when unknown) of t's CREATE / DROP. */
void store__table_commit_create(StoreTable *t, uint64_t seq);
void store__table_commit_drop(StoreTable *t, uint64_t seq);
void store__table_undo_create(StoreTable *t);
void store__table_undo_drop(StoreTable *t);
/* Free t's data now if no scan or writer uses it, else when the last ends. */
void store__table_release_dropped(StoreTable *t);
uint32_t store__session_db(void);
const char *store__table_name_in_schema(uint32_t dboid, const char *schema);
StoreTable *store__table_any_in_db(uint32_t dboid);
void store__table_visit(void (*fn)(StoreTable *t, void *arg), void *arg);
void store__table_drop_txn(StoreTable *t, StoreTxn *x);
void store__db_init(void);
void store__db_free(void);
/* Recovery: apply catalog records. */
void store__db_create_oid(uint32_t oid, const char *name, const char *owner);
void store__db_drop_oid(uint32_t oid);
void store__schema_create_db(uint32_t dboid, const char *name, const char *owner, StoreTxn *txn);
void store__schema_drop_db(uint32_t dboid, const char *name, StoreTxn *txn);
void store__schema_commit(int idx, bool dropped);
void store__schema_undo(int idx, bool was_drop);
/* Catalog iteration for checkpoints (committed objects only). */
typedef void (*StoreDbVisit)(uint32_t oid, const char *name, const char *owner, void *arg);
typedef void (*StoreSchemaVisit)(uint32_t dboid, const char *name, const char *owner, void *arg);
void store__db_visit(StoreDbVisit db, StoreSchemaVisit sch, void *arg);
bool store__schema_exists_db(uint32_t dboid, const char *schema);
/* Temporary schemas (database.c): "pg_temp" → the session's pg_temp_N
 * (unchanged when it has none, or for any other name); the names of the
 * live sessions' temporary schemas (pg_namespace); the session's number
 * given back. store__temp_drop_all (catalog.c): recovery's end drops
 * every table of a temporary schema left by the sessions before it. */
const char *store__schema_resolve(const char *schema);
int store__temp_schemas_live(char (*out)[STORE_NAME_MAX], int max);
void store__temp_release(void);
void store__temp_drop_all(void);
/* Recovery's end, after store__temp_drop_all (database.c): the sequences
 * sessions before the restart left in pg_temp_N of any database go (the
 * WAL logs sequences, never their temporary owning tables). */
void store__temp_seq_drop_all(void);
uint32_t store__catalog_max_oid(void);
void store__catalog_bump_oid(uint32_t oid);

/* ---- wal.c ---- */
enum {
    WAL_CREATE_TABLE = 1,
    WAL_DROP_TABLE,
    WAL_INSERT,
    WAL_DELETE,
    WAL_COMMIT,
    WAL_CREATE_DB,
    WAL_DROP_DB,
    WAL_CREATE_SCHEMA,
    WAL_DROP_SCHEMA,
    WAL_ADD_PKEY,      /* u32 oid, u32 npkey, npkey × u32 column */
    WAL_ADD_COLUMN,    /* u32 oid, column def as in CREATE_TABLE, u8 has_fill, fill value */
    WAL_TABLE_RUN,     /* checkpoints only: u32 oid, u64 rows in checkpoint/<gen>.<oid>.run */
    WAL_TABLE_RUNS,    /* checkpoints only: u32 oid, u64 gen, u64 first, u64 end (cold.c spans) */
    WAL_TABLE_DELS,    /* checkpoints only: u32 oid, u64 n, n × (u64 from, u64 to) deleted rows */
    WAL_TABLE_KEYS,    /* checkpoints only: u32 oid, u32 n, n × (u64 gen, u32 part, u64 first,
                        * u64 end): the primary key's runs (keyruns.c) */
    /* sequences: a fixed number, clear of additions above; payload in sequence.c */
    WAL_SEQUENCE = 40,
    WAL_ROLE = 41,     /* roles.c: u8 op ('c' create or replace, 'd' drop, 'R' reset), payload there */
    WAL_STATS = 42,    /* stats.c: ANALYZE's statistics of one table, payload there */
    WAL_TRUNCATE = 50, /* truncate.c: u32 oid; the table's rows go at COMMIT */
    WAL_BULK_RUN = 51, /* bulk.c: u32 oid, u64 gen, u64 first, u64 end[, u64 run_first]:
                        * rows [first, end) loaded, the run holds [run_first, end) */
};
/* Add a record to txn's WAL buffer (nothing during recovery). */
void store__wal_add(StoreTxn *txn, uint8_t type, const void *payload, size_t len);
/* Serialize the active rows of b appended as rows [base, ...) of t. */
void store__wal_insert(StoreTxn *txn, const StoreTable *t, uint64_t base, const Batch *b,
                       int ncols);
void store__wal_delete(StoreTxn *txn, const StoreTable *t, uint64_t row, uint64_t next);
/* Position in txn's record stream (spilled bytes + buffer) and a cut back
 * to one (savepoints, a failed UPDATE). */
uint64_t store__wal_pos(const StoreTxn *txn);
void store__wal_cut(StoreTxn *txn, uint64_t pos);
/* Drop txn's spill file (transaction end). */
void store__wal_spill_close(StoreTxn *txn);
/* A record buffer past this many bytes moves to an unnamed file in wal/
 * (a big COPY's rows are not all held in memory until COMMIT). */
#define STORE_WAL_SPILL_BYTES (16u << 20)
void store__wal_create_table(StoreTxn *txn, const StoreTable *t, int ncols);
void store__wal_add_column(StoreTxn *txn, const StoreTable *t, int col, const Value *fill);
void store__wal_drop_table(StoreTxn *txn, const StoreTable *t);
/* Commit txn: write its records + COMMIT, wait for the flush (group commit),
 * publish in sequence order. Returns the commit sequence (0: nothing written). */
uint64_t store__wal_commit(StoreTxn *txn);
/* Open the WAL after recovery / close it. */
void store__wal_open(void);
void store__wal_close(void);
/* Commits are blocked while the checkpoint holds this (wal.c). */
void store__wal_block_commits(void);
void store__wal_unblock_commits(void);
uint64_t store__wal_size(void);
/* Make everything written so far durable (checkpoints, before switching files). */
void store__wal_sync(void);
/* Statistics for tests: fsyncs done, commits written. */
uint64_t store__wal_fsyncs(void);
uint64_t store__wal_commits(void);

/* ---- recovery.c ---- */
/* Load the last checkpoint and replay the WAL (store_open). */
void store__recover(void);
uint64_t store__checkpoint_gen(void);
/* control.c: the `control` file (generation, transaction id floor) and
 * transaction ids that never go backwards, reserved in blocks. */
uint64_t store__control_read(uint64_t *xid_out);  /* 0 when missing; fatal when invalid */
int store__control_write(uint64_t gen);           /* 0 or an errno value */
void store__txn_id_floor(uint64_t xid);           /* recovery: ids from xid on */
void store__txn_id_start(void);                   /* after replay: reserve, start */
void store__txn_id_stop(void);                    /* store_close: exact floor, reset */
uint64_t store__txn_id_next(void);                /* a new id (may raise 58030) */
uint64_t store__txn_id_limit(void);               /* the durable limit (tests) */
/* The background checkpointer (store_open starts it, store_close stops it);
 * a request makes it checkpoint soon. */
void store__checkpointer_start(void);
void store__checkpointer_stop(void);
void store__checkpoint_request(void);
/* Ask the background checkpointer for a checkpoint; nothing when it is not
 * running (recovery, store_close). Never checkpoints in the caller. */
void store__checkpoint_request_async(void);
/* Keep checkpoints out (true) / let them run again (false): for changes
 * that free table data outside a commit (DROP DATABASE). */
void store__checkpoint_exclude(bool lock);
/* Sizes used by recovery and tests. */
#define STORE_WAL_HEADER 16

/* ---- sequence.c (sequences) ---- */
/* Recovery: forget every sequence (store__recover calls it first), apply one
 * WAL_SEQUENCE record. Checkpoint (commits held back): a WAL_SEQUENCE record
 * per live sequence into buf, with its logged-ahead state. */
void store__seq_reset(void);
void store__seq_replay(const uint8_t *payload, size_t len);
void store__seq_checkpoint(StoreTxn *buf);

/* ---- alter.c ---- */
void store__undo_add_pkey(StoreTable *t);
void store__commit_add_pkey(StoreTable *t);
void store__undo_add_column(StoreTable *t, int old_ncols);
void store__commit_add_column(StoreTable *t);

/* ---- cold.c ---- */
/* The table's first (run-less) ref, at creation (may raise 53200). */
void store__run_init(StoreTable *t);
/* Take / drop a reference to t's current run (store_g.lock inside). */
StoreRunRef *store__run_acquire(StoreTable *t);
void store__run_release(StoreTable *t, StoreRunRef *r);
/* Another reference to r (a parallel scan's clone reads the same run). */
StoreRunRef *store__run_ref_dup(StoreRunRef *r);
/* Chunk data of column col of the store group starting at row `start`:
 * the in-memory array, or values decoded from the run (through *ref,
 * upgraded to the table's current ref when it does not cover the group).
 * Raises XX001 naming the run file on a damaged block. */
const void *store__chunk_values(StoreTable *t, StoreRunRef **ref, StoreColdCache *cc,
                                const StoreChunk *ch, int col, uint64_t start);
void store__cold_cache_free(StoreColdCache *cc);
/* Release what switches kept for the previous batch (StoreColdCache.stale_*):
 * call when no pointer from an earlier batch is in use any more. */
void store__cold_cache_settle(StoreColdCache *cc);
/* Recovery: table rows [first, end) of t are read from checkpoint run
 * `path` (written at gen; its row 0 is table row first): appended to t's runs. */
void store__run_attach(StoreTable *t, const char *path, uint64_t gen, uint64_t first,
                       uint64_t end);
/* Checkpoint gen wrote table rows [first, rows) (columns [0, ncols)) as
 * `path`: t's runs become those before `first` plus it; then the groups it
 * covers go cold. */
void store__run_install(StoreTable *t, const char *path, uint64_t gen, uint64_t first,
                        uint64_t rows, int ncols);
/* The same for a bulk load's run (bulk.c), which may start below the end
 * of t's runs (at a group boundary): runs it leaves out are closed by their
 * last reader but not removed (the current checkpoint may name them). */
/* The layout of a table's run files (checkpoints and bulk loads alike):
 * columns [0, ncols) of t, then the row number (int8) as the only key.
 * Arrays in arena. */
struct RunSchema store__table_run_schema(const StoreTable *t, int ncols, MemArena *arena);
void store__run_install_bulk(StoreTable *t, const char *path, uint64_t gen, uint64_t first,
                             uint64_t rows, int ncols);
/* Uncommitted bulk runs (bulk.c): a new ref, not published, naming prev's
 * spans (NULL: none) clipped at first plus the run at path for rows
 * [first, end); the caller holds its only count. May raise. */
StoreRunRef *store__run_pending_ref(StoreTable *t, StoreRunRef *prev, const char *path,
                                    uint64_t gen, uint64_t first, uint64_t end, int ncols);
/* t->bulk_ref = r (the caller's count passes to t; NULL clears); the
 * previous one loses t's count (readers holding it keep it). */
void store__run_pending_set(StoreTable *t, StoreRunRef *r);
/* store__run_release with store_g.lock held (store_close: store__txn_free_all). */
void store__run_release_locked(StoreRunRef *r);
/* Copy the non-key data of groups inside [from, to) whose arrays are NULL
 * back into memory, reading them as any reader does (a bulk load that could
 * not be installed). May raise. */
void store__run_thaw_rows(StoreTable *t, uint64_t from, uint64_t to);
/* Recovery: free the non-key data of groups inside [from, to) at once. */
void store__run_freeze_now(StoreTable *t, uint64_t from, uint64_t to, int ncols);
/* Checkpoint, after its key runs came to cover [from, to): the key columns
 * of the groups inside it that a data run already serves (a bulk load's,
 * installed at its COMMIT while the keys were still in the hash) leave
 * memory, retired as a freeze's arrays are. */
void store__run_freeze_keys(StoreTable *t, uint64_t from, uint64_t to);
/* Give freed pages back to the OS (glibc keeps them otherwise). */
void store__run_trim(void);
/* Reload cold chunks of columns cols[0..n) (ADD PRIMARY KEY); caller holds
 * t->freeze_mu. */
void store__run_thaw(StoreTable *t, int n, const int *cols);
/* Drop t's runs with its data (dropped table or store_close). */
void store__run_free_all(StoreTable *t);
/* Whether checkpoint/<gen>.<oid>.run is open (must not be removed). */
bool store__run_is_live(uint64_t gen, uint32_t oid);

/* ---- truncate.c ---- */
/* TRUNCATE t in x (also WAL replay): waits like DROP TABLE, hides every row
 * from x, logs WAL_TRUNCATE; the rows go at commit. */
void store__truncate(StoreTable *t, StoreTxn *x);
void store__undo_truncate(StoreTable *t, StoreUndo *u);
void store__truncate_undo_free(StoreUndo *u);
/* Commit of a transaction with UNDO_TRUNCATE entries: prepare (excludes
 * checkpoints unless *excluded, sets it; waits, allocates; may raise, and
 * then ends the exclusion; NULL = no TRUNCATE) before the WAL commit, swap
 * the new generations in after it (never raises); the caller ends the
 * exclusion after the swap (abort: after a failed WAL commit). */
typedef struct StoreTruncSwap StoreTruncSwap;
StoreTruncSwap *store__truncate_prepare(StoreTxn *x, bool *excluded);
void store__truncate_swap(StoreTruncSwap *sw);
void store__truncate_abort(StoreTruncSwap *sw);
/* txn.c: TRUNCATE's wait: t's write lock, no other transaction scanning
 * (55006 when me does); then t->trunc_txn = me: others' scans wait. */
void store__txn_wait_truncate(StoreTxn *me, StoreTable *t);
/* txn.c: wait until no scan without a transaction reads t. */
void store__txn_wait_notxn_scans(StoreTable *t);
/* table.c: start a new heap block (later strings apart from older ones);
 * free row groups [from, to) of t (headers and data arrays). */
void store__heap_new_block(StoreHeap *h);
void store__groups_free(StoreTable *t, uint64_t from, uint64_t to);

/* chunk_slab.c: memory for a column chunk's STORE_GROUP_ROWS values —
 * consecutive chunks of one column side by side in 2 MB slabs once the table
 * has a few groups (scans stream them), malloc before. alloc: NULL when out
 * of memory; called by the table's writer (or under ACCESS EXCLUSIVE).
 * free: any chunk data pointer, or any other malloc'd pointer (it is
 * free()d), NULL ignored; thread-safe. slabs_release: the table's cursors
 * (when its rows are freed). */
typedef struct StoreChunkSlab StoreChunkSlab;
void *store__chunk_alloc(StoreTable *t, int c);
void store__chunk_free(void *p);
void store__chunk_slabs_release(StoreTable *t);

/* ---- bulk.c ---- */
/* A COPY past STORE_BULK_RUN_ROWS rows writes its rows to a run file as it
 * loads, and the WAL gets one WAL_BULK_RUN record instead of the rows. */
#define STORE_BULK_RUN_ROWS (64u * 1024)
/* Finish x's open bulk loads: write their records (run file fsync'd, or the
 * rows as INSERT records when small). Before any other record of x, a
 * savepoint and COMMIT (may raise). */
void store__bulk_seal(StoreTxn *x);
/* x is about to read t (a scan): its loads of t whose groups left memory
 * are sealed first, so their runs serve them (bulk.c). */
void store__bulk_before_read(StoreTxn *x, StoreTable *t);
/* After the commit as seq (checkpoints excluded): the runs join their tables. */
void store__bulk_install(StoreTxn *x, uint64_t seq);
/* TRUNCATE of t in x: x's loads of t are sealed and never installed. */
void store__bulk_truncated(StoreTxn *x, StoreTable *t);
/* After a checkpoint of sequence seq: remove bulk files nothing needs. */
void store__bulk_gc(uint64_t seq);
/* Recovery, first: forget the file registry (replay rebuilds it). */
void store__bulk_forget_all(void);
/* Rollback: every bulk run file of x goes; cut: those logged at or after pos. */
void store__bulk_abort(StoreTxn *x);
void store__bulk_cut(StoreTxn *x, uint64_t pos);
/* Recovery: WAL_BULK_RUN; at the end, run files no table attached go. */
void store__bulk_replay(StoreTable *t, StoreTxn *x, uint64_t gen, uint64_t run_first,
                        uint64_t first, uint64_t end);
void store__bulk_cleanup(void);

/* ---- vacuum.c ---- */
/* The oldest snapshot any running transaction holds or any later one can
 * take: a deletion committed at or before it is seen by nobody ("dead"). */
uint64_t store__vacuum_horizon(void);
/* Whether row stamps say dead at horizon h. */
static inline bool store__xmax_dead(uint64_t xmax, uint64_t h)
{
    return xmax != 0 && !(xmax & STORE_XMAX_MARK) && xmax <= h;
}
/* Release the stamps of t's row groups whose rows are all dead at horizon
 * (writers excluded by the caller: t's write lock, or recovery). Returns
 * the number of groups released. */
uint64_t store__vacuum_groups(StoreTable *t, uint64_t horizon);
/* Whether group g's stamps were released (every row dead). */
bool store__group_vacuumed(const StoreRowGroup *g);
/* Frozen stamps (vacuum.c): the whole groups of rows [0, rows) of t whose
 * rows all committed at or before horizon and are live and never updated
 * point their stamps at one shared all-zero array, their own pages given
 * back. Recovery freezes every table (store__freeze_stamps), checkpoints
 * the tables they wrote. Returns the number of groups frozen. */
uint64_t store__freeze_stamps(StoreTable *t);
uint64_t store__freeze_stamps_live(StoreTable *t, uint64_t rows, uint64_t horizon);
/* Whether group g's stamps are the shared frozen ones (never write them). */
bool store__group_frozen(const StoreRowGroup *g);
/* Group gno of t with stamps of its own again (zeroed: xmax 0, next 0).
 * Every writer of a committed row's stamps comes here first
 * (store__row_claim, TRUNCATE). */
void store__group_thaw(StoreTable *t, uint64_t gno);
/* CAS xmax of row i of group gno from 0 to self, or not: a frozen group is
 * thawed first; a claim meeting a freeze in progress waits for it. Returns
 * the xmax the claim met (0 when it took the row). */
uint64_t store__group_claim(StoreTable *t, uint64_t gno, uint32_t i, uint64_t self);

/* ---- cold.c (vacuum) ---- */
/* Free ptrs[0..n) (malloc'd; the array too) once no reader that may have
 * loaded them remains: publishes a copy of t's current ref and retires
 * them onto the old one. Takes ownership even on error. */
void store__run_retire(StoreTable *t, void **ptrs, size_t n);

/* ---- roles.c ---- */
void store__roles_load(const char *data_dir);
void store__roles_free(void);
/* Recovery: apply a WAL_ROLE record. Checkpoint (commits held back): the
 * committed roles as WAL_ROLE records into buf. */
void store__role_replay(const uint8_t *payload, size_t len);
void store__role_checkpoint(StoreTxn *buf);

/* ---- catalog_txn.c: transactional roles, sequences and statistics ----
 * A change to one of those objects inside a transaction pushes an entry
 * (the object, a malloc'd image of what it was, the txn's WAL position
 * before the change's record); commit finishes the entries in order,
 * rollback (or ROLLBACK TO: the WAL cut back past an entry's position)
 * undoes them newest first. The hooks below are one-line calls in wal.c
 * and txn.c. */
typedef enum StoreCatKind { CAT_ROLE, CAT_SEQ, CAT_STATS } StoreCatKind;
typedef struct StoreCatUndo {
    StoreCatKind kind;
    uint64_t wal_pos;
    void *obj;
    void *saved;   /* malloc'd; freed when the entry ends */
} StoreCatUndo;
/* Room for one more entry (may raise 53200): call before changing anything.
 * Then push (cannot fail) once the change and its WAL record are done; pos
 * is store__wal_pos before the record; saved (malloc'd or NULL) is owned by
 * the log from then on. */
void store__cat_reserve(StoreTxn *x);
void store__cat_push(StoreTxn *x, StoreCatKind kind, void *obj, void *saved, uint64_t pos);
/* store__wal_commit, before the records are written: final records (sequences). */
void store__cat_precommit(StoreTxn *x);
/* store__wal_commit, after the write, before publication: finish every entry. */
void store__cat_commit(StoreTxn *x);
/* Inside store__cat_commit's hooks: the commit sequence of the transaction
 * being committed (0 during recovery, seen by every snapshot). */
uint64_t store__cat_commit_seq(void);
/* Grow store_catalog_epoch (catalog_txn.c): call after the change is visible. */
void store__catalog_epoch_bump(void);
/* txn end: entries still there are undone (rollback) or finished (a commit
 * that wrote no WAL: the store is not open). */
void store__cat_end(StoreTxn *x, bool commit);
/* store__wal_cut: undo the entries logged at or past pos (ROLLBACK TO). */
void store__cat_cut(StoreTxn *x, uint64_t pos);
/* store_close (store__txn_free_all): free the log and its images, undoing nothing. */
void store__cat_free(StoreTxn *x);
/* Per module (roles.c, sequence.c, stats.c): finish / undo one entry. */
void store__role_cat_end(void *obj, void *saved, StoreTxn *x, bool commit);
void store__seq_cat_end(void *obj, void *saved, StoreTxn *x, bool commit);
void store__seq_precommit(void *obj, StoreTxn *x);
void store__stats_cat_end(void *obj, void *saved, StoreTxn *x, bool commit);
/* stats.c: recovery applies a WAL_STATS record; checkpoints write one per
 * analyzed committed table (after the CREATE_TABLE records). */
void store__stats_replay(const uint8_t *payload, size_t len);
void store__stats_checkpoint(StoreTxn *buf);

#endif
