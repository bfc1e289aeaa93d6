/*
 * bench_sum.c — benchmark (a program, not a test): `SELECT sum(x) FROM t
 * WHERE x > k` over 100M bigints through the real executor operators
 * (scan → filter → hash aggregate, via a portal), against a plain C loop
 * over the same values in one array. Prints the median of 5 runs of each
 * and their ratio; executor/README.md records the figures.
 *
 * Usage: bench_sum [rows]    (default 100000000)
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "common/error.h"
#include "common/numeric.h"
#include "common/strbuf.h"
#include "executor/executor.h"
#include "executor/funcs.h"
#include "planner/plan.h"
#include "storage/storage.h"
#include "executor/bench/bench_common.h"

static Expr *mk_expr(MemArena *a, ExprKind kind, SqlType type)
{
    Expr *e = MEM_NEW(a, Expr);
    e->kind = kind;
    e->type = type;
    e->location = -1;
    return e;
}

static const FuncDesc *find_func(const char *name, uint32_t t1, uint32_t t2)
{
    FuncCandidates c;
    exec_func_candidates(name, 2, &c);
    for (int i = 0; i < c.count; i++)
        if (c.items[i]->argtypes[0] == t1 && c.items[i]->argtypes[1] == t2)
            return c.items[i];
    fprintf(stderr, "bench_sum: no function %s(%u, %u)\n", name, t1, t2);
    exit(1);
}

/* sum(x) over scan(t) with scan filter x > k: the plan the planner builds. */
static Plan *build_plan(MemArena *a, StoreTable *t, int64_t k)
{
    SqlType i8 = SQLTYPE(TYPE_INT8), num = SQLTYPE(TYPE_NUMERIC);
    Expr *col = mk_expr(a, EXPR_COLUMN, i8);
    Expr *cst = mk_expr(a, EXPR_CONST, i8);
    cst->value.u.i64 = k;
    Expr *gt = mk_expr(a, EXPR_FUNC, SQLTYPE(TYPE_BOOL));
    gt->nargs = 2;
    gt->args = MEM_NEW_ARRAY(a, Expr *, 2);
    gt->args[0] = col;
    gt->args[1] = cst;
    gt->func = find_func(">", TYPE_INT8, TYPE_INT8);

    PlanNode *scan = MEM_NEW(a, PlanNode);
    scan->kind = PLAN_SCAN;
    scan->ncols = 1;
    scan->col_types = MEM_NEW_ARRAY(a, SqlType, 1);
    scan->col_types[0] = i8;
    scan->table = t;
    scan->scan_cols = MEM_NEW_ARRAY(a, int, 1);
    scan->scan_filter = gt;

    PlanNode *agg = MEM_NEW(a, PlanNode);
    agg->kind = PLAN_AGG;
    agg->ncols = 1;
    agg->col_types = MEM_NEW_ARRAY(a, SqlType, 1);
    agg->col_types[0] = num;
    agg->left = scan;
    agg->naggs = 1;
    agg->aggs = MEM_NEW_ARRAY(a, AggCall, 1);
    agg->aggs[0].agg = exec_agg_lookup("sum", TYPE_INT8);
    agg->aggs[0].arg = col;
    agg->aggs[0].type = num;

    Plan *p = MEM_NEW(a, Plan);
    p->kind = PLAN_STMT_QUERY;
    p->command = "SELECT";
    p->root = agg;
    p->ncols = 1;
    p->cols = MEM_NEW_ARRAY(a, ResultColumn, 1);
    p->cols[0].name = "sum";
    p->cols[0].type = num;
    return p;
}

typedef struct Result {
    char text[64];
} Result;

static void on_batch(void *ctx, const Batch *b)
{
    Result *r = ctx;
    Value v;
    vec_get_value(&b->cols[0], batch_row(b, 0), &v);
    StrBuf sb;
    strbuf_init(&sb);
    numeric_out(v.u.str, &sb);
    snprintf(r->text, sizeof r->text, "%s", sb.data);
    strbuf_free(&sb);
}

/* The reference: the same values in one array, summed by a plain loop. */
static int128_t plain_sum(const int64_t *restrict x, uint64_t n, int64_t k)
{
    int128_t s = 0;
    for (uint64_t i = 0; i < n; i++)
        s += x[i] > k ? x[i] : 0;
    return s;
}

static void fmt_i128(int128_t v, char *buf)
{
    char tmp[64];
    int n = 0;
    bool neg = v < 0;
    uint128_t u = neg ? (uint128_t)(-v) : (uint128_t)v;
    do {
        tmp[n++] = (char)('0' + (int)(u % 10));
        u /= 10;
    } while (u);
    int j = 0;
    if (neg)
        buf[j++] = '-';
    while (n)
        buf[j++] = tmp[--n];
    buf[j] = '\0';
}

int main(int argc, char **argv)
{
    uint64_t rows = argc > 1 ? strtoull(argv[1], NULL, 10) : UINT64_C(100000000);
    int64_t k = 500000;
    char dir[] = "/tmp/strata-bench-XXXXXX";
    if (mkdtemp(dir) == NULL) {
        perror("mkdtemp");
        return 1;
    }
    store_open(dir);
    double t0 = now_sec();
    StoreTable *t = bench_load_table(rows, NULL);
    printf("loaded %" PRIu64 " rows through storage in %.2f s\n", rows, now_sec() - t0);

    ExecSession *s = exec_session_create("postgres", "postgres", NULL);
    double exec_t[RUNS], c_t[RUNS];
    Result res = {{0}};
    for (int r = 0; r < RUNS; r++) {
        MemArena *a = mem_arena_create("bench query");
        Plan *plan = build_plan(a, t, k);
        double s0 = now_sec();
        ExecPortal *p = exec_portal_create(s, plan, NULL, 0, a);
        ExecSink sink = {&res, on_batch};
        while (!exec_portal_run(p, 0, &sink)) {
        }
        exec_portal_close(p);
        exec_session_sync(s);
        exec_t[r] = now_sec() - s0;
        mem_arena_destroy(a);
    }

    int64_t *x = malloc(rows * sizeof(int64_t));
    if (x == NULL) {
        perror("malloc");
        return 1;
    }
    for (uint64_t i = 0; i < rows; i++)
        x[i] = value_at(i);
    char ref[64];
    for (int r = 0; r < RUNS; r++) {
        double s0 = now_sec();
        int128_t sum = plain_sum(x, rows, k);
        c_t[r] = now_sec() - s0;
        fmt_i128(sum, ref);
    }
    free(x);
    double e = median(exec_t), c = median(c_t);
    printf("query: SELECT sum(x) FROM bench WHERE x > %" PRId64 "  (%" PRIu64 " rows)\n", k, rows);
    printf("executor (scan+filter+sum): %8.1f ms  result %s\n", e * 1e3, res.text);
    printf("plain C loop over an array: %8.1f ms  result %s\n", c * 1e3, ref);
    printf("ratio executor / C loop:    %8.2fx\n", e / c);
    exec_session_destroy(s);
    store_close();
    char cmd[64];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "bench_sum: could not remove %s\n", dir);
    if (strcmp(res.text, ref) != 0) {
        fprintf(stderr, "bench_sum: results differ\n");
        return 1;
    }
    return 0;
}
