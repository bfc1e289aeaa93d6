/*
 * bulk_pipe.h — a bulk load's run writer on a thread of its own (bulk_pipe.c),
 * used by bulk.c only: the COPY thread hands over complete store groups as
 * jobs that own every array they read, a worker thread encodes, compresses
 * and writes them (run_writer_append), so parsing the next rows and
 * encoding the previous ones use both cores. Internal to storage/.
 */
#ifndef STRATA_STORAGE_BULK_PIPE_H
#define STRATA_STORAGE_BULK_PIPE_H

#ifndef STORE_INTERNAL
#error "storage/bulk_pipe.h is internal to storage/"
#endif

#include <stddef.h>
#include <stdint.h>
#include "common/vector.h"

struct RunWriter;

/* Rows for run_writer_append that belong to the job: `batch` (the table's
 * columns, then the row number) and `versions` point into memory the job
 * owns; owned[0..nowned) are malloc'd blocks freed with the job. */
typedef struct StoreBulkJob {
    Batch batch;
    uint64_t *versions;
    void **owned;
    int nowned, cap_owned;
    size_t bytes;                /* data held (the queue's bound) */
    struct StoreBulkJob *next;
} StoreBulkJob;

/* A job for n rows of ncols table columns (+ the row number), every vector
 * unset; room for cap_owned owned blocks. May raise 53200. */
StoreBulkJob *store__bulk_job_new(int ncols, uint32_t n, int cap_owned);
/* Record p (malloc'd) as the job's; frees p and raises 53200 when full. */
void store__bulk_job_own(StoreBulkJob *j, void *p, size_t bytes);
/* Free the job and what it owns (NULL: nothing). */
void store__bulk_job_free(StoreBulkJob *j);

typedef struct StoreBulkPipe StoreBulkPipe;

/* A worker thread appending jobs to w, in order. NULL when no thread could
 * be started (the caller then appends itself). w belongs to the worker
 * until store__bulk_pipe_finish or _stop returns. */
StoreBulkPipe *store__bulk_pipe_start(struct RunWriter *w);
/* Queue j (owned by the pipe from the call on, even when it raises). Waits
 * while the queue holds STORE_BULK_PIPE_BYTES; raises the worker's error
 * (the first one it met) instead when it failed. */
void store__bulk_pipe_put(StoreBulkPipe *p, StoreBulkJob *j);
/* Wait for every queued job, end the thread and free the pipe; raises the
 * worker's error when it failed (the pipe is freed either way). */
void store__bulk_pipe_finish(StoreBulkPipe *p);
/* Abandon: queued jobs are dropped, the thread ends, the pipe is freed.
 * Never raises. NULL: nothing. */
void store__bulk_pipe_stop(StoreBulkPipe *p);

/* Queue bound: 32 MB of job data (≈ 20 store groups of ClickBench's hits)
 * keeps the worker fed across a run group's encode without holding much. */
#define STORE_BULK_PIPE_BYTES ((size_t)32 << 20)

#endif
