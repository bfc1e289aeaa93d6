/*
 * bench_agg.c — issue 7's aggregate benchmark (a program that prints
 * figures, not a test): four queries over N bigints held in memory by the
 * store, run through the whole engine below the wire (parser → planner →
 * portal), each against a hand-written AVX2 loop over the same values in
 * one array:
 *
 *   SELECT sum(x) FROM bench                  vs  vector int64 adds
 *   SELECT count(*) FROM bench WHERE x <> 0   vs  compare + popcount
 *   SELECT min(x), max(x) FROM bench          vs  compare + blend
 *   SELECT avg(x) FROM bench                  vs  vector int64 adds
 *
 * Prints the median of RUNS runs of each side and their ratio (the target
 * is ≤ 1.2×), each query once on one thread (max_parallel_workers_per_gather
 * = 0) and once with the default setting (executor/parallel.c: the leader
 * and at most one worker per other processor); the loop is one thread. Values: a multiplicative hash of the row number mod 10^6, so
 * about one row in 10^6 is 0 and sums fit an int64 for any N this machine
 * holds. The reference loops use int64 accumulators (exact here), the
 * engine PostgreSQL's result types (numeric for sum/avg of bigint).
 *
 * Usage: bench_agg [rows]   (default 500000000; ~12 GB of RAM at 500M:
 *                            8 B of value + the store's per-row stamps)
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <immintrin.h>
#include "common/error.h"
#include "common/guc.h"
#include "common/strbuf.h"
#include "common/typio.h"
#include "executor/catalog.h"
#include "executor/executor.h"
#include "parser/parser.h"
#include "planner/plan.h"
#include "planner/planner.h"
#include "storage/storage.h"
#include "executor/bench/bench_common.h"

/* ---------- the reference: one array, AVX2 loops ---------- */

typedef struct Ref {
    int64_t sum, count, min, max;
} Ref;

__attribute__((target("avx2"))) static int64_t ref_sum(const int64_t *x, uint64_t n)
{
    __m256i a0 = _mm256_setzero_si256(), a1 = a0;
    uint64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        a0 = _mm256_add_epi64(a0, _mm256_loadu_si256((const __m256i *)(x + i)));
        a1 = _mm256_add_epi64(a1, _mm256_loadu_si256((const __m256i *)(x + i + 4)));
    }
    int64_t lanes[4];
    _mm256_storeu_si256((__m256i *)lanes, _mm256_add_epi64(a0, a1));
    int64_t s = lanes[0] + lanes[1] + lanes[2] + lanes[3];
    for (; i < n; i++)
        s += x[i];
    return s;
}

__attribute__((target("avx2,popcnt"))) static int64_t ref_count_nonzero(const int64_t *x, uint64_t n)
{
    const __m256i zero = _mm256_setzero_si256();
    int64_t zeros = 0;
    uint64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256i e0 = _mm256_cmpeq_epi64(_mm256_loadu_si256((const __m256i *)(x + i)), zero);
        __m256i e1 = _mm256_cmpeq_epi64(_mm256_loadu_si256((const __m256i *)(x + i + 4)), zero);
        unsigned m = (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(e0)) |
                     ((unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(e1)) << 4);
        zeros += __builtin_popcount(m);
    }
    for (; i < n; i++)
        zeros += x[i] == 0;
    return (int64_t)n - zeros;
}

/* Two independent lo/hi pairs so the compare+blend chains overlap. */
__attribute__((target("avx2"))) static void ref_minmax(const int64_t *x, uint64_t n, int64_t *mn, int64_t *mx)
{
    __m256i lo0 = _mm256_set1_epi64x(INT64_MAX), hi0 = _mm256_set1_epi64x(INT64_MIN);
    __m256i lo1 = lo0, hi1 = hi0;
    uint64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256i v0 = _mm256_loadu_si256((const __m256i *)(x + i));
        __m256i v1 = _mm256_loadu_si256((const __m256i *)(x + i + 4));
        lo0 = _mm256_blendv_epi8(lo0, v0, _mm256_cmpgt_epi64(lo0, v0));
        hi0 = _mm256_blendv_epi8(hi0, v0, _mm256_cmpgt_epi64(v0, hi0));
        lo1 = _mm256_blendv_epi8(lo1, v1, _mm256_cmpgt_epi64(lo1, v1));
        hi1 = _mm256_blendv_epi8(hi1, v1, _mm256_cmpgt_epi64(v1, hi1));
    }
    lo0 = _mm256_blendv_epi8(lo0, lo1, _mm256_cmpgt_epi64(lo0, lo1));
    hi0 = _mm256_blendv_epi8(hi0, hi1, _mm256_cmpgt_epi64(hi1, hi0));
    int64_t l[4], h[4];
    _mm256_storeu_si256((__m256i *)l, lo0);
    _mm256_storeu_si256((__m256i *)h, hi0);
    int64_t a = l[0], b = h[0];
    for (int k = 1; k < 4; k++) {
        a = l[k] < a ? l[k] : a;
        b = h[k] > b ? h[k] : b;
    }
    for (; i < n; i++) {
        a = x[i] < a ? x[i] : a;
        b = x[i] > b ? x[i] : b;
    }
    *mn = a;
    *mx = b;
}

/* ---------- the engine: SQL through parser, planner and a portal ---------- */

typedef struct Answer {
    char text[128];
} Answer;

static void on_batch(void *ctx, const Batch *b)
{
    Answer *r = ctx;
    StrBuf sb;
    strbuf_init(&sb);
    for (int c = 0; c < b->ncols; c++) {
        Value v;
        vec_get_value(&b->cols[c], batch_row(b, 0), &v);
        if (c > 0)
            strbuf_append(&sb, " ", 1);
        OutputOptions o = OUTPUT_OPTIONS_DEFAULT;
        if (v.is_null)
            strbuf_append_str(&sb, "NULL");
        else
            type_output(b->cols[c].type, &v, &o, &sb);
    }
    snprintf(r->text, sizeof r->text, "%s", sb.data ? sb.data : "");
    strbuf_free(&sb);
}

static double run_sql(ExecSession *s, GucSet *guc, const char *sql, Answer *ans)
{
    MemArena *a = mem_arena_create("bench statement");
    double t0 = now_sec();
    List *stmts = parse_sql(a, sql);
    PlanContext pc = {.arena = a, .query_text = sql, .guc = guc};
    const Plan *plan = plan_statement(&pc, list_nth(stmts, 0));
    ExecPortal *p = exec_portal_create(s, plan, NULL, 0, a);
    ExecSink sink = {.ctx = ans, .on_batch = on_batch};
    while (!exec_portal_run(p, 0, &sink)) {
    }
    exec_portal_close(p);
    exec_session_sync(s);
    double t = now_sec() - t0;
    mem_arena_destroy(a);
    return t;
}

typedef struct Case {
    const char *sql;
    const char *label;
} Case;

static void ref_answer(int which, const int64_t *x, uint64_t n, char *buf, size_t size)
{
    switch (which) {
    case 0: snprintf(buf, size, "%" PRId64, ref_sum(x, n)); break;
    case 1: snprintf(buf, size, "%" PRId64, ref_count_nonzero(x, n)); break;
    case 2: {
        int64_t mn, mx;
        ref_minmax(x, n, &mn, &mx);
        snprintf(buf, size, "%" PRId64 " %" PRId64, mn, mx);
        break;
    }
    default: {
        int64_t s = ref_sum(x, n);
        snprintf(buf, size, "%.4f", (double)s / (double)n);
        break;
    }
    }
}

int main(int argc, char **argv)
{
    uint64_t rows = argc > 1 ? strtoull(argv[1], NULL, 10) : UINT64_C(500000000);
    if (!__builtin_cpu_supports("avx2")) {
        fprintf(stderr, "bench_agg: the reference loops need AVX2\n");
        return 1;
    }
    char dir[] = "/tmp/strata-bench-XXXXXX";
    if (mkdtemp(dir) == NULL) {
        perror("mkdtemp");
        return 1;
    }
    store_open(dir);
    store_set_checkpoint_wal_bytes(0);   /* the table stays in memory: no automatic checkpoint */
    int64_t *arr = malloc(rows * sizeof *arr);
    if (!arr) {
        fprintf(stderr, "bench_agg: out of memory for %" PRIu64 " rows\n", rows);
        return 1;
    }
    double t0 = now_sec();
    bench_load_table(rows, arr);
    printf("loaded %" PRIu64 " rows through storage in %.2f s (in memory, no checkpoint)\n", rows,
           now_sec() - t0);
    GucSet *guc = guc_session_create();
    ExecSession *s = exec_session_create("postgres", "postgres", guc);
    exec_catalog_set_session(s);   /* the settings parallel pipelines read */
    static const Case cases[] = {
        {"SELECT sum(x) FROM bench", "sum(x)"},
        {"SELECT count(*) FROM bench WHERE x <> 0", "count(*) WHERE x <> 0"},
        {"SELECT min(x), max(x) FROM bench", "min(x), max(x)"},
        {"SELECT avg(x) FROM bench", "avg(x)"},
    };
    printf("%-24s %8s %12s %12s %8s   %s\n", "query", "threads", "engine ms", "AVX2 ms", "ratio",
           "answers (engine | loop)");
    for (int c = 0; c < 8; c++) {
        /* each query on one thread, then with the default
         * max_parallel_workers_per_gather (executor/parallel.c); the
         * reference loop runs on one thread either way */
        const char *threads = c % 2 == 0 ? "1" : "default";
        guc_set(guc, "max_parallel_workers_per_gather", c % 2 == 0 ? "0" : "2");
        double e[RUNS], r[RUNS];
        Answer ans = {{0}};
        char ref[128] = "";
        for (int k = 0; k < RUNS; k++) {
            e[k] = run_sql(s, guc, cases[c / 2].sql, &ans);
            double t1 = now_sec();
            ref_answer(c / 2, arr, rows, ref, sizeof ref);
            r[k] = now_sec() - t1;
        }
        double me = median(e) * 1e3, mr = median(r) * 1e3;
        printf("%-24s %8s %12.1f %12.1f %7.2fx   %s | %s\n", cases[c / 2].label, threads, me, mr, me / mr,
               ans.text, ref);
    }
    exec_session_destroy(s);
    free(arr);
    store_close();
    char cmd[64];   /* the data directory (3.8 GB at 500M rows) goes, as bench_sum's */
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "bench_agg: could not remove %s\n", dir);
    return 0;
}
