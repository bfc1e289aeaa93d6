/*
 * bench_commit.c — group commit figure: T threads each run N single-row
 * INSERT transactions (own table each, so they never wait for a table
 * lock; with `same`, all into one table, whose write lock a commit passes
 * on once its record is written: storage/txn.c "Commit handoff") against a
 * fresh data directory with fsync on; prints commits/s and how many fsyncs
 * the commits shared.
 *
 * Usage: storage_bench_commit [threads] [commits per thread] [same]   (default 8 200)
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "common/error.h"
#include "common/vector.h"
#include "storage/storage.h"

uint64_t store__wal_fsyncs(void);
uint64_t store__wal_commits(void);

static int per_thread = 200;
static bool same;  /* every thread into one table */

static void *run(void *p)
{
    StoreTable *t = p;
    MemArena *a = mem_arena_create("bench");
    SqlType ty[] = {SQLTYPE(TYPE_INT8)};
    Batch *b = batch_create(a, 1, ty);
    b->count = 1;
    for (int i = 0; i < per_thread; i++) {
        ((int64_t *)b->cols[0].data)[0] = i;
        StoreTxn *x = store_txn_begin();
        store_table_append(t, x, b);
        store_txn_commit(x);
    }
    mem_arena_destroy(a);
    return NULL;
}

int main(int argc, char **argv)
{
    int threads = argc > 1 ? atoi(argv[1]) : 8;
    per_thread = argc > 2 ? atoi(argv[2]) : 200;
    same = argc > 3 && strcmp(argv[3], "same") == 0;
    if (threads < 1 || threads > 256 || per_thread < 1)
        return 2;
    char dir[] = "/tmp/strata-bench-commit-XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    ErrJmp jmp;
    if (!ERR_TRY(jmp)) {
        fprintf(stderr, "bench_commit: %s\n", err_current()->message);
        return 1;
    }
    store_open(dir);
    StoreTable **t = calloc((size_t)threads, sizeof *t);
    StoreColumnDef col = {"v", SQLTYPE(TYPE_INT8), false, NULL};
    for (int i = 0; i < threads; i++) {
        char name[32];
        snprintf(name, sizeof name, "t%d", i);
        t[i] = same && i > 0 ? t[0] : store_table_create("public", name, 1, &col, 0, NULL);
    }
    uint64_t f0 = store__wal_fsyncs(), c0 = store__wal_commits();
    struct timespec s, e;
    clock_gettime(CLOCK_MONOTONIC, &s);
    pthread_t *th = calloc((size_t)threads, sizeof *th);
    for (int i = 0; i < threads; i++)
        pthread_create(&th[i], NULL, run, t[i]);
    for (int i = 0; i < threads; i++)
        pthread_join(th[i], NULL);
    clock_gettime(CLOCK_MONOTONIC, &e);
    double secs = (double)(e.tv_sec - s.tv_sec) + (double)(e.tv_nsec - s.tv_nsec) / 1e9;
    uint64_t commits = store__wal_commits() - c0, fsyncs = store__wal_fsyncs() - f0;
    printf("bench_commit: %d threads x %d commits%s: %llu commits, %llu fsyncs (%.1f commits per "
           "fsync), %.0f commits/s\n",
           threads, per_thread, same ? " into one table" : "", (unsigned long long)commits,
           (unsigned long long)fsyncs,
           fsyncs ? (double)commits / (double)fsyncs : 0.0, (double)commits / secs);
    store_close();
    err_pop(&jmp);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        return 1;
    free(th);
    free(t);
    return 0;
}
