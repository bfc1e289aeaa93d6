/*
 * copy_cluster.h — COPY FROM's clustered bulk load (copy_cluster.c), used by
 * copy_in.c only: batches of a table with a primary key are buffered into
 * a segment and appended sorted by the key, so the store's zone maps can
 * skip row groups on key predicates. Internal to the executor.
 */
#ifndef STRATA_EXECUTOR_COPY_CLUSTER_H
#define STRATA_EXECUTOR_COPY_CLUSTER_H

#ifndef STRATA_EXECUTOR_INTERNAL
#error "copy_cluster.h is internal to executor/"
#endif

#include <stdint.h>
#include "common/arena.h"
#include "common/vector.h"
#include "storage/storage.h"

/* Segment limits: a segment is appended when it holds this many rows or
 * its arena (converted values and strings) this many bytes, whichever
 * first; a segment of fewer than EXEC_CLUSTER_MIN_ROWS rows is appended in
 * file order (small COPYs see no change). Rows: a multiple of VEC_CAPACITY. */
#define EXEC_CLUSTER_SEG_ROWS (UINT32_C(1) << 20)
#define EXEC_CLUSTER_SEG_BYTES ((size_t)512 << 20)
#define EXEC_CLUSTER_MIN_ROWS (UINT32_C(1) << 16)

typedef struct ExecCopyCluster ExecCopyCluster;

/* A clusterer for t's primary key (arena: the COPY's), NULL when t has none. */
ExecCopyCluster *exec__cluster_create(StoreTable *t, MemArena *arena);
/* Free the segment's memory (at the end of the COPY, or on error). */
void exec__cluster_destroy(ExecCopyCluster *cc);
/* The batch (table columns) the next up to VEC_CAPACITY rows are converted
 * into, and the arena their strings must be allocated in; both live until
 * the segment is appended. */
Batch *exec__cluster_next_batch(ExecCopyCluster *cc);
MemArena *exec__cluster_arena(ExecCopyCluster *cc);
/* The batch from exec__cluster_next_batch is complete (count set, no
 * selection); lines[i] is the input line of its row i. Returns true when
 * the segment is full and must be appended (exec__cluster_flush). */
bool exec__cluster_add(ExecCopyCluster *cc, const uint64_t *lines);
/* Append the buffered rows of the complete batches (key order when `sort`,
 * the segment is large and its rows pass NOT NULL and in-segment
 * uniqueness, else file order) and reset the segment. On a 23502/23505 the
 * error is PostgreSQL's for the first offending row in file order and
 * *err_line is set to its line. */
void exec__cluster_flush(ExecCopyCluster *cc, StoreTxn *txn, bool sort, uint64_t *err_line);

/* store_table_bulk_load of b; on a 23502/23505 *err_line is set to
 * lines[i] of the row the error is about (left alone when unknown). */
void exec__copy_load_batch(StoreTable *t, StoreTxn *txn, const Batch *b, const uint64_t *lines,
                           uint64_t *err_line);

#endif
