/*
 * run.h — immutable sorted run files and the batched k-way merge over them.
 *
 * A run is one file holding rows sorted by key (a table's primary-key
 * columns, or a hidden bigint row id for tables without one), each row
 * carrying MVCC metadata: a uint64 `version` (commit sequence number) and a
 * `deleted` flag (tombstone). Rows are stored column by column in row groups;
 * every column chunk is encoded (plain, dictionary, run-length,
 * frame-of-reference bit-packing, delta) then compressed (LZ4 for fresh runs,
 * ZSTD for compacted ones) and protected by a CRC32C. The byte layout is in
 * storage/runs/RUNS.md.
 *
 * Order inside a run: ascending key, and for equal keys descending version
 * (newest first). All versions of one key stay in one row group.
 * Key columns are never NULL.
 *
 * The merge reads N sorted sources (runs, and through MergeSourceOps the
 * memtable) and emits batches of (source, row) positions in key order with,
 * per key, only the newest version visible to a snapshot (tombstones hide the
 * key); merge_gather then fetches the wanted columns for those positions only.
 *
 * Versions are below 2^63 (zone maps compare them as bigint).
 *
 * Errors: every failure raises through common/error.h. A checksum mismatch,
 * bad magic, malformed block or truncated file raises XX001 (data_corrupted)
 * `invalid checksum in file "PATH"` with a DETAIL saying what was wrong; an
 * unknown format version raises XX001 `run file "PATH" has format version
 * N, expected 1`; I/O failures raise 58030 naming the file.
 *
 * Threads: a RunReader is immutable after run_open and may be shared by any
 * number of threads; cursors (MergeSource, Merge) belong to one thread.
 */
#ifndef STRATA_STORAGE_RUNS_RUN_H
#define STRATA_STORAGE_RUNS_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include "common/arena.h"
#include "common/types.h"
#include "common/vector.h"

#define RUN_GROUP_ROWS_DEFAULT 65536u
#define RUN_KEYS_MAX 16
#define RUN_COLS_MAX 1600  /* PostgreSQL's MaxHeapAttributeNumber */

typedef struct RunReader RunReader;
typedef struct RunWriter RunWriter;

/* The columns of a run, in table order; key_cols name the key columns in
 * key order (indexes into types). A table without a primary key passes its
 * hidden row id as an ordinary PHYS_I64 column and names it as the key. */
typedef struct RunSchema {
    int ncols;
    const SqlType *types;
    int nkeys;
    const int *key_cols;
} RunSchema;

typedef enum RunCompression {
    RUN_COMP_NONE = 0,
    RUN_COMP_LZ4 = 1,
    RUN_COMP_ZSTD = 2,
} RunCompression;

typedef struct RunWriteOptions {
    uint32_t group_rows;        /* target rows per group; 0 = RUN_GROUP_ROWS_DEFAULT */
    RunCompression compression; /* RUN_COMP_LZ4 for flushes, RUN_COMP_ZSTD for compaction */
    int zstd_level;             /* 0 = 3 */
    uint32_t bloom_bits_per_key; /* 0 = 10 (about 1% false positives) */
    bool no_fsync;              /* tests/benchmarks only: skip fsync of file and directory */
} RunWriteOptions;

/* Facts about a finished or opened run. Key values (min_key/max_key, nkeys
 * entries each) point into the reader (or writer) and live as long as it. */
typedef struct RunInfo {
    uint64_t nrows;            /* every stored row version, tombstones included */
    uint64_t ntombstones;
    uint32_t ngroups;
    uint64_t min_version, max_version;
    uint64_t file_bytes;
    const Value *min_key, *max_key; /* first and last key (NULL when nrows == 0) */
} RunInfo;

/* Zone map of one column chunk. For PHYS_STR, has_minmax is false when the
 * chunk holds a string longer than RUN_ZONE_STR_MAX bytes. */
#define RUN_ZONE_STR_MAX 256
typedef struct RunZone {
    uint32_t null_count;
    uint32_t row_count;
    bool has_minmax;      /* false: all NULL, or not recorded */
    Value min, max;
} RunZone;

/* ---------------------------------------------------------------- writer */

/* Start a run at `path` (written to "PATH.tmp", renamed by finish). The
 * schema is copied. Raises 58030 when the file cannot be created. */
RunWriter *run_writer_create(const char *path, const RunSchema *schema,
                             const RunWriteOptions *opts);
/* Append batch->count rows (the batch's active rows, honouring sel) whose
 * columns are in schema order; versions[i] and deleted[i] belong to the i-th
 * active row (deleted may be NULL = none deleted). Rows must continue the
 * run's order (key ascending, version descending): raises XX000 otherwise. */
void run_writer_append(RunWriter *w, const Batch *batch, const uint64_t *versions,
                       const bool *deleted);
/* Write the last group, bloom filter and footer, fsync the file, rename it to
 * its final name and fsync the directory. Frees the writer; fills *info
 * when non-NULL (key pointers are then invalid: re-open to read). */
void run_writer_finish(RunWriter *w, RunInfo *info);
/* Forget the run: close and unlink the temporary file, free the writer.
 * Call it from an error handler when a write was abandoned. NULL: no-op. */
void run_writer_abort(RunWriter *w);

/* ---------------------------------------------------------------- reader */

/* Open and validate a run (magic, version, footer checksum); the file is
 * mmap'd read-only. Block checksums are verified when a block is decoded. */
RunReader *run_open(const char *path);
/* The same for a run only point lookups read (a primary key's runs): each
 * group's bloom block is checked when a lookup first probes it, not at
 * open (checking them all maps the whole file in: for a key run, whose
 * groups are small, every page), and the mapping is read without
 * readahead. */
RunReader *run_open_for_lookups(const char *path);
void run_close(RunReader *r);
const char *run_path(const RunReader *r);
void run_info(const RunReader *r, RunInfo *out);
/* The run's schema (pointers live as long as the reader). */
const RunSchema *run_schema(const RunReader *r);

uint32_t run_group_count(const RunReader *r);
/* First row (run-wide row number) and row count of group g. */
uint64_t run_group_first_row(const RunReader *r, uint32_t g);
uint32_t run_group_rows(const RunReader *r, uint32_t g);
/* Zone map of column `col` in group g. */
void run_group_zone(const RunReader *r, uint32_t g, int col, RunZone *out);

/* Bloom filter probe: false means the key is certainly absent. key: nkeys
 * values of the key columns' types. */
bool run_bloom_maybe(const RunReader *r, const Value *key);
/* The group that may hold key (key range, group key ranges, its bloom
 * filter), or -1: the first step of run_lookup, for callers that keep
 * decoded groups of their own (storage/keyruns.c). */
int64_t run_find_group(const RunReader *r, const Value *key);

/* A decoded column chunk: all rows of one group of one column. */
typedef struct RunChunk {
    PhysType phys;
    uint32_t count;
    void *values;       /* count values of phys (StrRef for PHYS_STR, pointing into
                           the chunk's arena memory) */
    uint64_t *validity; /* NULL = no NULLs; else bit i set = row i valid */
} RunChunk;
/* Decode column `col` of group g into arena memory (verifies the block's
 * checksum). col == run_schema()->ncols gives the versions (PHYS_I64, as
 * uint64), ncols + 1 the deleted flags (PHYS_BOOL). */
void run_chunk_read(RunReader *r, uint32_t g, int col, MemArena *arena, RunChunk *out);
/* Point vector v at rows [start, start+count) of a chunk (count <=
 * VEC_CAPACITY): zero copy for data; the validity bits are copied into
 * v->validity_buf when the chunk has NULLs. */
void run_chunk_to_vector(const RunChunk *c, uint32_t start, uint32_t count, Vector *v);

/* Point lookup: the newest version of `key` with version <= snapshot. Returns
 * false when the run holds no such version; else *row is the run-wide row
 * number and *version / *deleted its metadata (a tombstone is returned as
 * found with *deleted = true: the key is deleted as of that version). Uses
 * bloom filter, key range, per-group key ranges and a binary search in the
 * decoded key chunk. scratch holds decoded chunks (reset it afterwards). */
bool run_lookup(RunReader *r, const Value *key, uint64_t snapshot, MemArena *scratch,
                uint64_t *row, uint64_t *version, bool *deleted);
/* Copy the values of run-wide row `row` for columns cols[0..ncols) into
 * out[0..ncols) (strings copied into arena). Columns past the run's ncols
 * (added by ALTER TABLE ADD COLUMN after it was written) read as NULL. */
void run_fetch_row(RunReader *r, uint64_t row, int ncols, const int *cols, MemArena *arena,
                   Value *out);

/* ---------------------------------------------------------------- merge */

/* A block of consecutive entries of one sorted source, columnar: keys[k] is
 * an array of count values of key column k's physical type (StrRef for
 * strings), never NULL. rows[i] is the source's own position of entry i
 * (passed back to gather; must increase within a source). deleted may be
 * NULL: no tombstone in the block. versions may be NULL only after the merge
 * called MergeSourceOps.keys_only. */
typedef struct MergeKeys {
    uint32_t count;
    const void *keys[RUN_KEYS_MAX];
    const uint64_t *versions;
    const bool *deleted;
    const uint64_t *rows;    /* NULL = rows first_row, first_row+1, ... */
    uint64_t first_row;
    bool distinct;           /* no key twice in the block (false is always safe) */
} MergeKeys;

/* A stretch of consecutive rows of one source in a merge batch. */
typedef struct MergeSpan {
    uint64_t row;
    uint16_t out_at;
    uint16_t len;
} MergeSpan;

typedef struct MergeSourceOps {
    /* Fill *out with the source's next block (count >= 1) in key order;
     * return false at the end. The block stays valid until the next call. */
    bool (*next_keys)(void *ctx, MergeKeys *out);
    /* Write column `col` (table column numbering) of source rows rows[0..n)
     * into out at indexes out_idx[0..n) (rows increase; strings are copied
     * into str_arena). Called only for rows of blocks already returned;
     * those rows must stay fetchable for the merge's whole life. */
    void (*gather)(void *ctx, int col, const uint64_t *rows, const uint16_t *out_idx,
                   uint32_t n, Vector *out, MemArena *str_arena);
    /* Optional (may be NULL): when the source's next block is "clean" — no
     * key twice, none of its keys in another block of the source, every
     * version <= snapshot, no tombstone — skip it without
     * handing over its keys: return its entry count and set *first_row (its
     * rows are first_row, first_row+1, ...). Return 0 otherwise, leaving the
     * source where it was. Used only when reading sources one after another
     * with MergeOptions.skip_versions. */
    uint32_t (*next_clean)(void *ctx, uint64_t snapshot, uint64_t *first_row);
    /* Optional: the merge will not read MergeKeys.versions from now on (it
     * orders equal keys by source recency, see MergeSource.versions_known):
     * next_keys may leave versions NULL and skip decoding them. Called once,
     * before the first next_keys. */
    void (*keys_only)(void *ctx);
    /* Optional: like gather, for n spans of consecutive rows: span i is
     * rows spans[i].row .. + len - 1 (of blocks already returned), written
     * to out at indexes spans[i].out_at .. + len - 1; spans in row order.
     * Without it the merge calls gather. */
    void (*gather_spans)(void *ctx, int col, const MergeSpan *spans, uint32_t n,
                         Vector *out, MemArena *str_arena);
    /* Optional: skip the source's next block without decoding anything:
     * return its entry count and set *first_row (its rows are first_row,
     * first_row+1, ...); 0 at the end. Used only by the unordered scan
     * (MergeOptions.unordered with shadow lists, see MergeSource.shadow),
     * which decides from the lists alone which rows survive. */
    uint32_t (*next_rows)(void *ctx, uint64_t *first_row);
    /* Optional, with next_rows: write column `col` of rows first_row ..
     * first_row + n - 1 (all of one block from next_rows) except those at
     * offsets skip[0..nskip) (ascending, < n) to out at indexes out_at,
     * out_at + 1, ... (strings copied into str_arena). Pieces of a batch
     * come in output order, so a piece may write past its own last index
     * (up to VEC_CAPACITY): the next piece overwrites it. */
    void (*gather_skip)(void *ctx, int col, uint64_t first_row, uint32_t n, const uint16_t *skip,
                        uint32_t nskip, uint32_t out_at, Vector *out, MemArena *str_arena);
    /* Optional: the source will be read after from_ctx's, a source with
     * the same ops, whose reading is over (gathers of the current batch
     * aside): it may reuse from_ctx's decode buffers, staying correct if
     * the two still alternate. Called by the unordered scan. */
    void (*adopt_buffers)(void *ctx, void *from_ctx);
} MergeSourceOps;

/* The rows of one run that newer versions shadow (its own older versions,
 * its tombstones, and its keys rewritten by newer runs), built once per set
 * of runs by run_shadows_build; see RUNS.md "Shadow lists". */
typedef struct MergeShadow MergeShadow;

/* A sorted source. min_key/max_key (nkeys values each) are optional bounds
 * on its keys (NULL = unknown); sources whose bounds don't overlap are read
 * one after another with no merging.
 *
 * Optional facts (zero = unknown), filled by run_merge_source:
 * versions_known with min_version..max_version bound every entry's version.
 * When all sources have them, the ranges pairwise don't overlap (the normal
 * LSM case: a newer run's versions are all above an older run's) and each
 * source is either wholly visible or wholly invisible to the snapshot, a
 * scan (skip_versions, no visibility hook, not compaction) orders equal keys
 * by source recency and never reads versions. entries is the number of
 * entries (a hint: a source much bigger than the others is merged against
 * the others pre-merged). */
typedef struct MergeSource {
    const MergeSourceOps *ops;
    void *ctx;
    const Value *min_key, *max_key;
    bool versions_known;
    uint64_t min_version, max_version;
    uint64_t entries;
    /* Optional (NULL = none): the source's shadow list (run_shadows_of).
     * When every source of a merge has one, from the same set, and the
     * sources are exactly that set's runs, an unordered scan reads them one
     * after another and drops shadowed rows by the lists. */
    const MergeShadow *shadow;
} MergeSource;

/* A MergeSource over a whole run, its decode buffers in arena. skip_groups
 * (optional, run_group_count entries, copied) marks row groups to leave out
 * entirely: only correct when no other source holds versions of the keys in
 * those groups (e.g. zone-map pruning when the merge has a single source or
 * the sources don't overlap). */
MergeSource *run_merge_source(RunReader *r, const bool *skip_groups, MemArena *arena);

/* Per-block visibility hook (optional): set visible[i] for versions[0..n).
 * Runs with it as well as with the snapshot test. */
typedef void (*MergeVisibilityFn)(void *ctx, const uint64_t *versions, uint32_t n,
                                  bool *visible);

typedef struct MergeOptions {
    uint64_t snapshot;         /* versions > snapshot are invisible (UINT64_MAX: all visible) */
    MergeVisibilityFn visible; /* NULL = snapshot test only */
    void *visible_ctx;
    /* Compaction mode: emit every version > snapshot (the oldest live
     * snapshot) plus, per key, the newest version <= snapshot; tombstones
     * are emitted too, unless drop_tombstones (bottom level) where a
     * tombstone <= snapshot is dropped with everything older. */
    bool compact;
    bool drop_tombstones;
    uint32_t batch_max;        /* entries per batch, <= VEC_CAPACITY; 0 = VEC_CAPACITY */
    /* The caller doesn't read MergeBatch.version/deleted (scans): they may be
     * NULL, and clean blocks of non-overlapping sources are passed through
     * without decoding their keys (see MergeSourceOps.next_clean). */
    bool skip_versions;
    /* The caller doesn't need key order (an analytic scan: sums, filters,
     * hash aggregates). With skip_versions and shadow lists on every source
     * (MergeSource.shadow), the merge then reads the sources one after
     * another and drops shadowed rows by the lists — no key merge at all;
     * without them it merges as usual (the output is then in key order
     * anyway). Rows come out in an unspecified order. */
    bool unordered;
    /* The caller reads no positions, it only calls merge_gather (a table
     * scan): MergeBatch.src/row may then be NULL. Batches of clean blocks
     * and of the unordered scan are then gathered piece by piece
     * (MergeSourceOps.gather_skip) without writing a position per row. */
    bool gather_only;
} MergeOptions;

/* One output batch of the merge: count entries in key order. */
typedef struct MergeBatch {
    uint32_t count;
    const uint16_t *src;      /* source index per entry (NULL possible with gather_only) */
    const uint64_t *row;      /* the source's row position per entry (likewise) */
    const uint64_t *version;  /* NULL possible with MergeOptions.skip_versions */
    const bool *deleted;      /* (only compaction mode emits tombstones) */
} MergeBatch;

typedef struct Merge Merge;

/* Merge sources[0..nsources) whose keys are the key_types (nkeys). Everything
 * lives in arena; nothing to free. */
Merge *merge_create(MergeSource *const *sources, int nsources, int nkeys,
                    const PhysType *key_types, const MergeOptions *opts, MemArena *arena);
/* Next batch; false (and out->count 0) at the end. Arrays valid until the
 * next call. */
bool merge_next(Merge *m, MergeBatch *out);
/* Fill out[0..ncols) (vectors of the columns' types with their own buffers,
 * from vec_init — not vectors pointed at a chunk by run_chunk_to_vector)
 * with columns cols[] of the last batch's entries, at indexes 0..count.
 * Call it before the next merge_next. Strings are copied into str_arena. */
void merge_gather(Merge *m, const MergeBatch *b, int ncols, const int *cols, Vector *out,
                  MemArena *str_arena);
/* True when the merge reads its sources one after another (no overlap). */
bool merge_is_concat(const Merge *m);

/* ---------------------------------------------------------------- shadow lists */

/* Shadow lists of a set of runs: for each run, the sorted rows that a newer
 * version hides — a later version of the key in the same run, a tombstone
 * (always dropped from scans), or the key in a newer run (then tagged with
 * the oldest such run: dropped only when the snapshot sees that run). Built
 * with one k-way merge over the runs' keys, versions and flags (RUNS.md
 * "Shadow lists"); the runs' version ranges must be pairwise disjoint
 * (each run one flush or one compaction) — returns NULL otherwise, and
 * scans then take the ordered merge. The set refers to the readers (keep
 * them open while it lives); immutable once built, shareable between
 * threads. Raises like the merge on a damaged file. */
typedef struct RunShadows RunShadows;
RunShadows *run_shadows_build(RunReader *const *runs, int nruns);
void run_shadows_destroy(RunShadows *sh);
/* Run r's list in the set (NULL when r is not one of its runs), for
 * MergeSource.shadow. */
const MergeShadow *run_shadows_of(const RunShadows *sh, const RunReader *r);
/* Rows listed over all runs, and the bytes the lists take in memory. */
uint64_t run_shadows_rows(const RunShadows *sh);
uint64_t run_shadows_bytes(const RunShadows *sh);

/* ---------------------------------------------------------------- compaction */

/* Merge runs[0..nruns) into one new run at out_path written with opts
 * (normally RUN_COMP_ZSTD), keeping what snapshots >= oldest_snapshot may
 * see; bottom: drop tombstones too. All runs must have `schema` (as their
 * first columns: ADD COLUMN'd columns missing in older runs read as NULL).
 * Returns the number of rows written; fills *info if non-NULL. */
uint64_t run_compact(RunReader *const *runs, int nruns, const RunSchema *schema,
                     const char *out_path, const RunWriteOptions *opts,
                     uint64_t oldest_snapshot, bool bottom, RunInfo *info);

#endif
