/*
 * bulk_pipe.c — a bulk load's run writer on a worker thread (see
 * bulk_pipe.h): the COPY thread parses and appends rows while the worker
 * encodes, compresses and writes the previous store groups to the run.
 *
 * Why jobs own their data: the worker must never read the table's memory,
 * which the COPY thread keeps changing and a rollback frees without asking
 * anyone (txn.c undoes the rows before bulk.c aborts the load). So a job
 * carries its own arrays — handed over by the table (a load whose rows
 * leave memory once written) or copied from it — and the worker frees them
 * once run_writer_append has copied the rows into the writer's buffers.
 *
 * Errors: the worker runs each append under its own handler; the first
 * error is kept, later jobs are dropped, and the COPY thread raises that
 * error at its next put or at finish (the statement then fails and the
 * transaction rolls back, which stops the pipe). One mutex and two
 * condition variables per load; the COPY thread touches them once per
 * store group (2048 rows), never per row.
 */
#define STORE_INTERNAL
#include "storage/storage_int.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "common/error.h"
#include "storage/bulk_pipe.h"
#include "storage/runs/run.h"

struct StoreBulkPipe {
    RunWriter *w;
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t work;       /* a job was queued, or closing */
    pthread_cond_t room;       /* a job was done */
    StoreBulkJob *head, *tail; /* queued, oldest first */
    size_t queued_bytes;
    bool closing;              /* no more jobs: exit when the queue is empty */
    bool dropping;             /* abandon: drop queued jobs */
    bool failed;               /* err holds the worker's first error */
    ErrorData err;
};

StoreBulkJob *store__bulk_job_new(int ncols, uint32_t n, int cap_owned)
{
    size_t size = sizeof(StoreBulkJob) + sizeof(Vector) * (size_t)(ncols + 1) +
                  sizeof(void *) * (size_t)cap_owned + sizeof(uint64_t) * (size_t)n;
    StoreBulkJob *j = store__calloc(1, size);
    j->batch.ncols = ncols + 1;
    j->batch.count = n;
    j->batch.cols = (Vector *)(j + 1);
    j->owned = (void **)(j->batch.cols + ncols + 1);
    j->cap_owned = cap_owned;
    j->versions = (uint64_t *)(j->owned + cap_owned);  /* zero: recovery stamps the rows */
    return j;
}

void store__bulk_job_own(StoreBulkJob *j, void *p, size_t bytes)
{
    if (j->nowned == j->cap_owned) {
        free(p);
        err_raise(ERRCODE_INTERNAL_ERROR, "bulk load job has no room for another array");
    }
    j->owned[j->nowned++] = p;
    j->bytes += bytes;
}

void store__bulk_job_free(StoreBulkJob *j)
{
    if (!j)
        return;
    for (int i = 0; i < j->nowned; i++)
        store__chunk_free(j->owned[i]);  /* detached chunks and string copies */
    free(j);
}

/* Append one job under a handler of the worker's own; false on error
 * (kept in p->err). */
static bool worker_append(StoreBulkPipe *p, StoreBulkJob *j)
{
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        run_writer_append(p->w, &j->batch, j->versions, NULL);
        err_pop(&jmp);
        return true;
    }
    pthread_mutex_lock(&p->mu);
    p->err = *err_current();
    p->failed = true;
    pthread_mutex_unlock(&p->mu);
    err_clear();
    return false;
}

static void *worker_main(void *arg)
{
    StoreBulkPipe *p = arg;
    bool ok = true;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->head && !p->closing)
            pthread_cond_wait(&p->work, &p->mu);
        StoreBulkJob *j = p->head;
        if (!j)
            break;  /* closing and drained */
        p->head = j->next;
        if (!p->head)
            p->tail = NULL;
        bool skip = p->dropping || !ok;
        pthread_mutex_unlock(&p->mu);
        if (!skip)
            ok = worker_append(p, j);
        size_t bytes = j->bytes;
        store__bulk_job_free(j);
        pthread_mutex_lock(&p->mu);
        p->queued_bytes -= bytes;
        pthread_cond_signal(&p->room);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

StoreBulkPipe *store__bulk_pipe_start(RunWriter *w)
{
    StoreBulkPipe *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->w = w;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->work, NULL);
    pthread_cond_init(&p->room, NULL);
    if (pthread_create(&p->thread, NULL, worker_main, p) != 0) {
        pthread_cond_destroy(&p->room);
        pthread_cond_destroy(&p->work);
        pthread_mutex_destroy(&p->mu);
        free(p);
        return NULL;
    }
    return p;
}

/* Raise a copy of the worker's error in the calling thread. */
void store__bulk_pipe_put(StoreBulkPipe *p, StoreBulkJob *j)
{
    pthread_mutex_lock(&p->mu);
    while (!p->failed && p->head && p->queued_bytes + j->bytes > STORE_BULK_PIPE_BYTES)
        pthread_cond_wait(&p->room, &p->mu);
    if (p->failed) {
        ErrorData saved = p->err;
        pthread_mutex_unlock(&p->mu);
        store__bulk_job_free(j);
        err_throw_saved(&saved);
    }
    j->next = NULL;
    if (p->tail)
        p->tail->next = j;
    else
        p->head = j;
    p->tail = j;
    p->queued_bytes += j->bytes;
    pthread_cond_signal(&p->work);
    pthread_mutex_unlock(&p->mu);
}

/* End the thread (after the queue drained, or dropping it) and free p;
 * returns whether the worker failed, its error in *err. */
static bool pipe_end(StoreBulkPipe *p, bool drop, ErrorData *err)
{
    pthread_mutex_lock(&p->mu);
    p->closing = true;
    p->dropping = drop;
    pthread_cond_signal(&p->work);
    pthread_mutex_unlock(&p->mu);
    pthread_join(p->thread, NULL);
    bool failed = p->failed;
    if (failed && err)
        *err = p->err;
    pthread_cond_destroy(&p->room);
    pthread_cond_destroy(&p->work);
    pthread_mutex_destroy(&p->mu);
    free(p);
    return failed;
}

void store__bulk_pipe_finish(StoreBulkPipe *p)
{
    ErrorData saved;
    if (pipe_end(p, false, &saved))
        err_throw_saved(&saved);
}

void store__bulk_pipe_stop(StoreBulkPipe *p)
{
    if (p)
        pipe_end(p, true, NULL);
}
