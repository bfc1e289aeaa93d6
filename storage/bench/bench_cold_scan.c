/*
 * bench_cold_scan.c — cold chunks figure (storage/README.md, "Cold chunks"):
 * a 5-column table of N rows (bigint a, bigint b, integer c, double d,
 * bigint e; no primary key) is loaded with automatic checkpoints held off,
 * then `sum(b)` and `sum(d)` are scanned hot (all in memory), after a
 * CHECKPOINT (cold: decoded from the run) and after a restart (recovery
 * loads the run cold). Prints the process RSS at each point and the best of
 * 3 scan times, and what a CHECKPOINT costs with no change and after
 * appending 1% more rows (incremental flush).
 *
 * Usage: storage_bench_cold_scan [rows]   (default 10000000)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "common/error.h"
#include "common/vector.h"
#define STORE_INTERNAL
#include "storage/storage_int.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static long rss_mb(void)
{
    long pages = 0, rss = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        if (fscanf(f, "%ld %ld", &pages, &rss) != 2)
            rss = 0;
        fclose(f);
    }
    return rss * sysconf(_SC_PAGESIZE) / (1024 * 1024);
}

static void load(StoreTable *t, int64_t rows, MemArena *a)
{
    SqlType ty[5] = {SQLTYPE(TYPE_INT8), SQLTYPE(TYPE_INT8), SQLTYPE(TYPE_INT4),
                     SQLTYPE(TYPE_FLOAT8), SQLTYPE(TYPE_INT8)};
    Batch *b = batch_create(a, 5, ty);
    StoreTxn *x = store_txn_begin();
    store_txn_set_synchronous_commit(x, false);
    for (int64_t first = 0; first < rows; first += VEC_CAPACITY) {
        uint32_t n = rows - first < VEC_CAPACITY ? (uint32_t)(rows - first) : VEC_CAPACITY;
        for (uint32_t i = 0; i < n; i++) {
            int64_t k = first + i + 1;
            ((int64_t *)b->cols[0].data)[i] = k;
            ((int64_t *)b->cols[1].data)[i] = k * 2;
            ((int32_t *)b->cols[2].data)[i] = (int32_t)(k % 1000);
            ((double *)b->cols[3].data)[i] = (double)k / 3.0;
            ((int64_t *)b->cols[4].data)[i] = k % 7;
        }
        b->count = n;
        store_table_append(t, x, b);
    }
    store_txn_commit(x);
}

/* Best of 3 full scans summing column col; *sum gets the total. */
static double scan_sum(StoreTable *t, int col, double *sum, MemArena *a)
{
    double best = 1e9;
    for (int rep = 0; rep < 3; rep++) {
        double t0 = now_s(), total = 0;
        StoreScan *s = store_scan_begin(t, NULL, 1, &col, 0, NULL, a);
        Batch b = {0};
        while (store_scan_next(s, &b)) {
            if (b.cols[0].phys == PHYS_F64) {
                const double *v = b.cols[0].data;
                for (uint32_t i = 0; i < b.count; i++)
                    total += v[i];
            } else {
                const int64_t *v = b.cols[0].data;
                int64_t part = 0;
                for (uint32_t i = 0; i < b.count; i++)
                    part += v[i];
                total += (double)part;
            }
        }
        store_scan_end(s);
        mem_arena_reset(a);
        double dt = now_s() - t0;
        best = dt < best ? dt : best;
        *sum = total;
    }
    return best;
}

static void report(const char *when, StoreTable *t, MemArena *a)
{
    double sb, sd;
    double tb = scan_sum(t, 1, &sb, a), td = scan_sum(t, 3, &sd, a);
    printf("%-26s RSS %5ld MB   sum(b) %7.1f ms   sum(d) %7.1f ms   (%.0f, %.0f)\n", when,
           rss_mb(), tb * 1e3, td * 1e3, sb, sd);
}

int main(int argc, char **argv)
{
    int64_t rows = argc > 1 ? atoll(argv[1]) : 10000000;
    char dir[] = "/tmp/strata-bench-cold-XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    ErrJmp jmp;
    if (!ERR_TRY(jmp)) {
        fprintf(stderr, "error: %s\n", err_current()->message);
        return 1;
    }
    MemArena *a = mem_arena_create("bench");
    store_open(dir);
    StoreColumnDef cols[5] = {
        {"a", SQLTYPE(TYPE_INT8), false, NULL}, {"b", SQLTYPE(TYPE_INT8), false, NULL},
        {"c", SQLTYPE(TYPE_INT4), false, NULL}, {"d", SQLTYPE(TYPE_FLOAT8), false, NULL},
        {"e", SQLTYPE(TYPE_INT8), false, NULL},
    };
    StoreTable *t = store_table_create("public", "t", 5, cols, 0, NULL);
    printf("%lld rows, 5 columns (bigint, bigint, integer, double, bigint)\n", (long long)rows);
    store__checkpoint_exclude(true);  /* no automatic checkpoint: measure hot first */
    load(t, rows, a);
    mem_arena_reset(a);
    report("hot (in memory)", t, a);
    store__checkpoint_exclude(false);
    double t0 = now_s();
    store_checkpoint();
    printf("CHECKPOINT %.2f s\n", now_s() - t0);
    report("cold (after CHECKPOINT)", t, a);
    t0 = now_s();
    store_checkpoint();
    printf("CHECKPOINT, no change %.3f s (runs: %d)\n", now_s() - t0, t->run_cur->nspans);
    double t1 = now_s();
    load(t, rows / 100, a);
    mem_arena_reset(a);
    t0 = now_s();
    store_checkpoint();
    printf("append %lld rows %.2f s, CHECKPOINT %.3f s (runs: %d)\n", (long long)(rows / 100),
           t0 - t1, now_s() - t0, t->run_cur->nspans);
    store_close();
    t0 = now_s();
    store_open(dir);
    printf("restart (recovery) %.2f s\n", now_s() - t0);
    t = store_table_lookup("public", "t");
    report("cold (after restart)", t, a);
    store_close();
    err_pop(&jmp);
    mem_arena_destroy(a);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : 1;
}
