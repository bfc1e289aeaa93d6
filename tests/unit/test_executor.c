/*
 * test_executor.c — unit tests of executor/: expression programs (NULL
 * logic, CASE, IN, short-circuit), every operator over small inputs,
 * aggregates' results and types, sort orders with NULLs, LIMIT/OFFSET,
 * portal suspension, transactions and utility statements.
 *
 * Plans are built by hand (the executor does not depend on the planner),
 * against the real storage and the real function registry. Results are
 * rendered as text with PostgreSQL's output functions ("a|b" per row,
 * NULL as "∅") and compared as strings. Criterion runs each test in its
 * own process; each opens a fresh store in a temporary directory.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "common/error.h"
#include "common/guc.h"
#include "common/strbuf.h"
#include "common/typio.h"
#include "executor/executor.h"
#include "executor/funcs.h"
#include "planner/plan.h"
#include "storage/storage.h"

#define EXEC_FIXTURE_DIR "/tmp/strata-test-executor-XXXXXX"
#include "executor_fixture.h"

TestSuite(executor, .init = setup, .fini = teardown, .timeout = 60);
static Expr *or2(Expr *a, Expr *b) { Expr *x[2] = {a, b}; return ex(EXPR_OR, T_BOOL, 2, x); }
static Expr *not1(Expr *a) { return ex(EXPR_NOT, T_BOOL, 1, &a); }

/* Evaluate a constant expression to text ("∅" for NULL). */
static const char *eval_text(const Expr *e)
{
    Value v;
    exec_eval_scalar(e, NULL, 0, A, &v);
    if (v.is_null)
        return "∅";
    StrBuf sb;
    strbuf_init(&sb);
    OutputOptions o = OUTPUT_OPTIONS_DEFAULT;
    type_output(e->type, &v, &o, &sb);
    char *r = mem_strdup(A, sb.data);
    strbuf_free(&sb);
    return r;
}

/* ---------- plan builders ---------- */


/* ---------- expressions ---------- */

Test(executor, three_valued_logic)
{
    cr_assert_str_eq(eval_text(and2(bl(-1), bl(0))), "f");
    cr_assert_str_eq(eval_text(and2(bl(-1), bl(1))), "∅");
    cr_assert_str_eq(eval_text(and2(bl(1), bl(1))), "t");
    cr_assert_str_eq(eval_text(or2(bl(-1), bl(1))), "t");
    cr_assert_str_eq(eval_text(or2(bl(-1), bl(0))), "∅");
    cr_assert_str_eq(eval_text(or2(bl(0), bl(0))), "f");
    cr_assert_str_eq(eval_text(not1(bl(-1))), "∅");
    cr_assert_str_eq(eval_text(not1(bl(0))), "t");
    Expr *a = null_of(T_I4);
    cr_assert_str_eq(eval_text(ex(EXPR_IS_NULL, T_BOOL, 1, &a)), "t");
    cr_assert_str_eq(eval_text(ex(EXPR_IS_NOT_NULL, T_BOOL, 1, &a)), "f");
    cr_assert_str_eq(eval_text(op2("+", i4(2), i4(3))), "5");
    cr_assert_str_eq(eval_text(op2("+", i4(2), null_of(T_I4))), "∅");
    cr_assert_str_eq(eval_text(op2("<", txt("B"), txt("a"))), "t");
}

/* Per-row NULL logic over a batch: a AND b, a OR b, NOT a for all nine pairs. */
Test(executor, null_logic_over_batch)
{
    static const char *cells[] = {"t", "t", "t", "f", "t", "∅", "f", "t", "f", "f",
                                  "f", "∅", "∅", "t", "∅", "f", "∅", "∅"};
    SqlType tt[2] = {T_BOOL, T_BOOL};
    PlanNode *v = values(2, tt, 9, cells);
    SqlType ot[3] = {T_BOOL, T_BOOL, T_BOOL};
    PlanNode *p = node(PLAN_PROJECT, 3, ot, v);
    p->exprs = MEM_NEW_ARRAY(A, Expr *, 3);
    p->exprs[0] = and2(col(0, T_BOOL), col(1, T_BOOL));
    p->exprs[1] = or2(col(0, T_BOOL), col(1, T_BOOL));
    p->exprs[2] = not1(col(0, T_BOOL));
    cr_assert_str_eq(run_node(p),
                     "t|t|f\nf|t|f\n∅|t|f\nf|t|t\nf|f|t\nf|∅|t\n∅|t|∅\nf|∅|∅\n∅|∅|∅\n");
}

Test(executor, case_short_circuits_division)
{
    static const char *cells[] = {"0", "5", "∅", "-2"};
    PlanNode *v = values(1, &T_I4, 4, cells);
    /* CASE WHEN x = 0 THEN -1 ELSE 10 / x END */
    Expr *args[3] = {op2("=", col(0, T_I4), i4(0)), i4(-1), op2("/", i4(10), col(0, T_I4))};
    Expr *c = ex(EXPR_CASE, T_I4, 3, args);
    c->has_else = true;
    PlanNode *p = node(PLAN_PROJECT, 1, &T_I4, v);
    p->exprs = &c;
    cr_assert_str_eq(run_node(p), "-1\n2\n∅\n-5\n");
    /* and the same division without the guard raises 22012 */
    PlanNode *v2 = values(1, &T_I4, 4, cells);
    PlanNode *p2 = node(PLAN_PROJECT, 1, &T_I4, v2);
    Expr *d = op2("/", i4(10), col(0, T_I4));
    p2->exprs = &d;
    EXPECT_ERROR("22012", run_node(p2));
}

Test(executor, and_short_circuits)
{
    static const char *cells[] = {"0", "5", "20"};
    PlanNode *v = values(1, &T_I4, 3, cells);
    PlanNode *f = node(PLAN_FILTER, 1, &T_I4, v);
    f->predicate = and2(op2("<>", col(0, T_I4), i4(0)), op2(">", op2("/", i4(100), col(0, T_I4)), i4(10)));
    cr_assert_str_eq(run_node(f), "5\n");
}

Test(executor, in_list_with_nulls)
{
    static const char *cells[] = {"1", "2", "∅"};
    PlanNode *v = values(1, &T_I4, 3, cells);
    Expr *args[3] = {col(0, T_I4), i4(1), null_of(T_I4)};
    Expr *in = ex(EXPR_IN_LIST, T_BOOL, 3, args);
    in->func = func("=", TYPE_INT4, TYPE_INT4);
    Expr *nin = ex(EXPR_IN_LIST, T_BOOL, 3, args);
    nin->func = in->func;
    nin->negated = true;
    SqlType ot[2] = {T_BOOL, T_BOOL};
    PlanNode *p = node(PLAN_PROJECT, 2, ot, v);
    p->exprs = MEM_NEW_ARRAY(A, Expr *, 2);
    p->exprs[0] = in;
    p->exprs[1] = nin;
    cr_assert_str_eq(run_node(p), "t|f\n∅|∅\n∅|∅\n");
}

/* ---------- storage-backed helpers ---------- */

static StoreTable *make_table(const char *name, int ncols, const SqlType *types, int nrows,
                              const char *const *cells)
{
    StoreColumnDef defs[8];
    static const char *names[] = {"a", "b", "c", "d", "e", "f", "g", "h"};
    for (int c = 0; c < ncols; c++)
        defs[c] = (StoreColumnDef){.name = names[c], .type = types[c]};
    StoreTable *t = store_table_create("public", name, ncols, defs, 0, NULL);
    if (nrows) {
        PlanNode *ins = node(PLAN_INSERT, 0, NULL, values(ncols, types, nrows, cells));
        ins->target = t;
        Plan *p = MEM_NEW(A, Plan);
        p->kind = PLAN_STMT_INSERT;
        p->command = "INSERT";
        p->root = ins;
        run(p);
        char want[32];
        snprintf(want, sizeof want, "INSERT 0 %d", nrows);
        cr_assert_str_eq(last_tag, want);
    }
    return t;
}

static PlanNode *scan(StoreTable *t, int ncols, const SqlType *types)
{
    PlanNode *n = node(PLAN_SCAN, ncols, types, NULL);
    n->table = t;
    n->scan_cols = MEM_NEW_ARRAY(A, int, ncols > 0 ? ncols : 1);
    for (int c = 0; c < ncols; c++)
        n->scan_cols[c] = c;
    return n;
}

static const char *CELLS_GT[] = {"a", "1", "b", "∅", "a", "3", "∅", "4", "b", "5", "a", "∅"};

Test(executor, scan_with_filter_and_tag)
{
    SqlType tt[2] = {T_TEXT, T_I4};
    StoreTable *t = make_table("t", 2, tt, 6, CELLS_GT);
    PlanNode *s = scan(t, 2, tt);
    s->scan_filter = op2(">", col(1, T_I4), i4(2));
    cr_assert_str_eq(run_node(s), "a|3\n∅|4\nb|5\n");
    cr_assert_str_eq(last_tag, "SELECT 3");
}

static AggCall agg(const char *name, Expr *arg, bool distinct)
{
    const AggDesc *d = exec_agg_lookup(name, arg ? arg->type.oid : TYPE_INVALID);
    cr_assert_not_null(d, "aggregate %s", name);
    return (AggCall){.agg = d, .arg = arg, .distinct = distinct, .type = SQLTYPE(d->rettype)};
}

static PlanNode *sort_on(PlanNode *child, int col_idx, bool desc, bool nulls_first)
{
    PlanNode *s = node(PLAN_SORT, child->ncols, child->col_types, child);
    s->nsort = 1;
    s->sort_keys = MEM_NEW(A, SortKey);
    *s->sort_keys = (SortKey){col_idx, desc, nulls_first};
    return s;
}

Test(executor, group_by_aggregates_and_types)
{
    SqlType tt[2] = {T_TEXT, T_I4};
    StoreTable *t = make_table("t", 2, tt, 6, CELLS_GT);
    PlanNode *g = node(PLAN_AGG, 7, (SqlType[]){T_TEXT, T_I8, T_I8, T_I8, T_NUM, T_I4, T_I4}, scan(t, 2, tt));
    g->ngroups = 1;
    g->group_exprs = MEM_NEW_ARRAY(A, Expr *, 1);
    g->group_exprs[0] = col(0, T_TEXT);
    g->naggs = 6;
    g->aggs = MEM_NEW_ARRAY(A, AggCall, 6);
    g->aggs[0] = agg("count", NULL, false);
    g->aggs[1] = agg("count", col(1, T_I4), false);
    g->aggs[2] = agg("sum", col(1, T_I4), false);
    g->aggs[3] = agg("avg", col(1, T_I4), false);
    g->aggs[4] = agg("min", col(1, T_I4), false);
    g->aggs[5] = agg("max", col(1, T_I4), false);
    cr_assert_eq(g->aggs[2].type.oid, TYPE_INT8);
    cr_assert_eq(g->aggs[3].type.oid, TYPE_NUMERIC);
    /* sort by the group key, NULLS LAST */
    cr_assert_str_eq(run_node(sort_on(g, 0, false, false)),
                     "a|3|2|4|2.0000000000000000|1|3\n"
                     "b|2|1|5|5.0000000000000000|5|5\n"
                     "∅|1|1|4|4.0000000000000000|4|4\n");
}

Test(executor, sum_bigint_is_exact_numeric)
{
    static const char *cells[] = {"9223372036854775807", "9223372036854775807", "1"};
    StoreTable *t = make_table("t", 1, &T_I8, 3, cells);
    PlanNode *g = node(PLAN_AGG, 2, (SqlType[]){T_NUM, T_NUM}, scan(t, 1, &T_I8));
    g->naggs = 2;
    g->aggs = MEM_NEW_ARRAY(A, AggCall, 2);
    g->aggs[0] = agg("sum", col(0, T_I8), false);
    g->aggs[1] = agg("avg", col(0, T_I8), false);
    cr_assert_str_eq(run_node(g), "18446744073709551615|6148914691236517205\n");
}

Test(executor, no_groups_no_rows_gives_one_row)
{
    StoreTable *t = make_table("t", 1, &T_I4, 0, NULL);
    PlanNode *g = node(PLAN_AGG, 3, (SqlType[]){T_I8, T_I8, T_I4}, scan(t, 1, &T_I4));
    g->naggs = 3;
    g->aggs = MEM_NEW_ARRAY(A, AggCall, 3);
    g->aggs[0] = agg("count", NULL, false);
    g->aggs[1] = agg("sum", col(0, T_I4), false);
    g->aggs[2] = agg("max", col(0, T_I4), false);
    cr_assert_str_eq(run_node(g), "0|∅|∅\n");
    cr_assert_str_eq(last_tag, "SELECT 1");
}

Test(executor, count_distinct_and_float_avg)
{
    static const char *cells[] = {"1", "1.5", "2", "1.5", "2", "∅", "∅", "3"};
    SqlType tt[2] = {T_I4, T_F8};
    StoreTable *t = make_table("t", 2, tt, 4, cells);
    PlanNode *g = node(PLAN_AGG, 3, (SqlType[]){T_I8, T_I8, T_F8}, scan(t, 2, tt));
    g->naggs = 3;
    g->aggs = MEM_NEW_ARRAY(A, AggCall, 3);
    g->aggs[0] = agg("count", col(0, T_I4), true);
    g->aggs[1] = agg("sum", col(0, T_I4), true);
    g->aggs[2] = agg("avg", col(1, T_F8), false);
    cr_assert_str_eq(run_node(g), "2|3|2\n");
}

Test(executor, sort_orders_with_nulls)
{
    static const char *cells[] = {"b", "∅", "a", "B", "ab"};
    StoreTable *t = make_table("t", 1, &T_TEXT, 5, cells);
    cr_assert_str_eq(run_node(sort_on(scan(t, 1, &T_TEXT), 0, false, false)), "B\na\nab\nb\n∅\n");
    cr_assert_str_eq(run_node(sort_on(scan(t, 1, &T_TEXT), 0, true, true)), "∅\nb\nab\na\nB\n");
    cr_assert_str_eq(run_node(sort_on(scan(t, 1, &T_TEXT), 0, false, true)), "∅\nB\na\nab\nb\n");
}

Test(executor, sort_many_rows_two_keys_stable)
{
    enum { N = 5000 };
    const char **cells = MEM_NEW_ARRAY(A, const char *, 2 * N);
    for (int i = 0; i < N; i++) {
        cells[2 * i] = mem_printf(A, "%d", i % 7);
        cells[2 * i + 1] = mem_printf(A, "%d", (i * 37) % N);
    }
    SqlType tt[2] = {T_I4, T_I4};
    StoreTable *t = make_table("t", 2, tt, N, cells);
    PlanNode *s = node(PLAN_SORT, 2, tt, scan(t, 2, tt));
    s->nsort = 2;
    s->sort_keys = MEM_NEW_ARRAY(A, SortKey, 2);
    s->sort_keys[0] = (SortKey){0, true, true};
    s->sort_keys[1] = (SortKey){1, false, false};
    const char *out = run_node(s);
    /* check the order line by line */
    int prev_a = 1 << 30, prev_b = -1, lines = 0;
    for (const char *p = out; *p; p = strchr(p, '\n') + 1) {
        int a, b;
        cr_assert_eq(sscanf(p, "%d|%d", &a, &b), 2);
        cr_assert(a < prev_a || (a == prev_a && b > prev_b), "order broken at line %d", lines);
        prev_a = a;
        prev_b = b;
        lines++;
    }
    cr_assert_eq(lines, N);
}

Test(executor, limit_offset)
{
    enum { N = 5000 };
    const char **cells = MEM_NEW_ARRAY(A, const char *, N);
    for (int i = 0; i < N; i++)
        cells[i] = mem_printf(A, "%d", i);
    StoreTable *t = make_table("t", 1, &T_I4, N, cells);
    PlanNode *l = node(PLAN_LIMIT, 1, &T_I4, scan(t, 1, &T_I4));
    l->limit = i8(3);
    l->offset = i8(2046);
    cr_assert_str_eq(run_node(l), "2046\n2047\n2048\n");
    PlanNode *l2 = node(PLAN_LIMIT, 1, &T_I4, scan(t, 1, &T_I4));
    l2->limit = i8(0);
    cr_assert_str_eq(run_node(l2), "");
    PlanNode *l3 = node(PLAN_LIMIT, 1, &T_I4, scan(t, 1, &T_I4));
    l3->limit = i8(-1);
    EXPECT_ERROR("2201W", run_node(l3));
}

Test(executor, distinct_keeps_first_occurrence_order)
{
    static const char *cells[] = {"b", "a", "b", "∅", "a", "∅", "c"};
    StoreTable *t = make_table("t", 1, &T_TEXT, 7, cells);
    PlanNode *d = node(PLAN_DISTINCT, 1, &T_TEXT, scan(t, 1, &T_TEXT));
    cr_assert_str_eq(run_node(d), "b\na\n∅\nc\n");
}

Test(executor, hash_join_with_duplicates_nulls_and_residual)
{
    static const char *lc[] = {"1", "x", "2", "y", "∅", "z", "3", "w"};
    static const char *rc[] = {"1", "10", "1", "11", "∅", "12", "3", "13", "4", "14"};
    SqlType lt[2] = {T_I4, T_TEXT}, rt[2] = {T_I4, T_I4};
    StoreTable *l = make_table("l", 2, lt, 4, lc);
    StoreTable *r = make_table("r", 2, rt, 5, rc);
    SqlType jt[4] = {T_I4, T_TEXT, T_I4, T_I4};
    PlanNode *j = node(PLAN_HASH_JOIN, 4, jt, scan(l, 2, lt));
    j->right = scan(r, 2, rt);
    j->nkeys = 1;
    j->left_keys = MEM_NEW_ARRAY(A, Expr *, 1);
    j->right_keys = MEM_NEW_ARRAY(A, Expr *, 1);
    j->left_keys[0] = col(0, T_I4);
    j->right_keys[0] = col(0, T_I4);
    cr_assert_str_eq(run_node(j), "1|x|1|10\n1|x|1|11\n3|w|3|13\n");
    PlanNode *j2 = node(PLAN_HASH_JOIN, 4, jt, scan(l, 2, lt));
    *j2 = *j;
    j2->join_filter = op2("<>", col(3, T_I4), i4(10));
    cr_assert_str_eq(run_node(j2), "1|x|1|11\n3|w|3|13\n");
}

Test(executor, nested_loop_cross_join_count)
{
    enum { N = 3000 };
    const char **cells = MEM_NEW_ARRAY(A, const char *, N);
    for (int i = 0; i < N; i++)
        cells[i] = mem_printf(A, "%d", i);
    StoreTable *t = make_table("t", 1, &T_I4, N, cells);
    SqlType jt[2] = {T_I4, T_I4};
    PlanNode *j = node(PLAN_NESTED_LOOP, 2, jt, scan(t, 1, &T_I4));
    j->right = scan(t, 1, &T_I4);
    j->join_filter = op2("<", col(0, T_I4), col(1, T_I4));
    PlanNode *g = node(PLAN_AGG, 1, &T_I8, j);
    g->naggs = 1;
    g->aggs = MEM_NEW(A, AggCall);
    g->aggs[0] = agg("count", NULL, false);
    cr_assert_str_eq(run_node(g), "4498500\n"); /* N*(N-1)/2 */
    /* small inner side: the pair-gathering shape */
    static const char *small[] = {"1", "2"};
    StoreTable *s = make_table("s", 1, &T_I4, 2, small);
    PlanNode *j2 = node(PLAN_NESTED_LOOP, 2, jt, scan(s, 1, &T_I4));
    j2->right = scan(s, 1, &T_I4);
    cr_assert_str_eq(run_node(j2), "1|1\n1|2\n2|1\n2|2\n");
}

Test(executor, portal_suspends_and_resumes)
{
    enum { N = 3000 };
    const char **cells = MEM_NEW_ARRAY(A, const char *, N);
    for (int i = 0; i < N; i++)
        cells[i] = mem_printf(A, "%d", i);
    StoreTable *t = make_table("t", 1, &T_I4, N, cells);
    ExecPortal *p = exec_portal_create(S, query(scan(t, 1, &T_I4)), NULL, 0, A);
    Out o;
    strbuf_init(&o.sb);
    ExecSink sink = {&o, collect};
    int runs = 0;
    while (!exec_portal_run(p, 1000, &sink))
        runs++;
    cr_assert_eq(runs, 3); /* 1000, 2000, 3000 rows: suspended three times, then done */
    char tag[64];
    exec_portal_command_tag(p, tag, sizeof tag);
    cr_assert_str_eq(tag, "SELECT 3000");
    int lines = 0;
    for (size_t i = 0; i < o.sb.len; i++)
        lines += o.sb.data[i] == '\n';
    cr_assert_eq(lines, N);
    cr_assert(strncmp(o.sb.data, "0\n1\n", 4) == 0);
    strbuf_free(&o.sb);
    exec_portal_close(p);
    exec_session_sync(S);
}

/* ---------- transactions and utility statements ---------- */

static Plan *utility(UtilityKind k, const char *tag)
{
    Plan *p = MEM_NEW(A, Plan);
    p->kind = PLAN_STMT_UTILITY;
    p->command = tag;
    p->utility = MEM_NEW(A, UtilityStmt);
    p->utility->kind = k;
    return p;
}

static ErrorData notices[8];
static int nnotices;
static void on_notice(void *ctx, const ErrorData *n)
{
    (void)ctx;
    if (nnotices < 8)
        notices[nnotices++] = *n;
}

Test(executor, transaction_block_failure_and_rollback_tag)
{
    err_set_notice_hook(on_notice, NULL);
    SqlType tt[1] = {T_I4};
    StoreTable *t = make_table("t", 1, tt, 0, NULL);
    run(utility(UTIL_BEGIN, "BEGIN"));
    cr_assert_eq(exec_session_txn_status(S), EXEC_TXN_BLOCK);
    run(utility(UTIL_BEGIN, "BEGIN"));
    cr_assert_eq(nnotices, 1);
    cr_assert_str_eq(notices[0].sqlstate, "25001");
    cr_assert_str_eq(notices[0].message, "there is already a transaction in progress");
    static const char *one[] = {"7"};
    PlanNode *ins = node(PLAN_INSERT, 0, NULL, values(1, tt, 1, one));
    ins->target = t;
    Plan *ip = MEM_NEW(A, Plan);
    ip->kind = PLAN_STMT_INSERT;
    ip->root = ins;
    run(ip);
    /* an error inside the block */
    PlanNode *bad = node(PLAN_PROJECT, 1, tt, values(1, tt, 1, one));
    Expr *d = op2("/", i4(1), i4(0));
    bad->exprs = &d;
    EXPECT_ERROR("22012", run_node(bad));
    exec_session_abort(S);
    cr_assert_eq(exec_session_txn_status(S), EXEC_TXN_FAILED);
    EXPECT_ERROR("25P02", run_node(scan(t, 1, tt)));
    run(utility(UTIL_COMMIT, "COMMIT"));
    cr_assert_str_eq(last_tag, "ROLLBACK");
    cr_assert_eq(exec_session_txn_status(S), EXEC_TXN_IDLE);
    cr_assert_str_eq(run_node(scan(t, 1, tt)), ""); /* the insert was rolled back */
    run(utility(UTIL_COMMIT, "COMMIT"));
    cr_assert_str_eq(notices[nnotices - 1].sqlstate, "25P01");
    cr_assert_str_eq(notices[nnotices - 1].message, "there is no transaction in progress");
    /* a committed block keeps its rows */
    run(utility(UTIL_BEGIN, "START TRANSACTION"));
    cr_assert_str_eq(last_tag, "START TRANSACTION");
    run(ip);
    run(utility(UTIL_COMMIT, "COMMIT"));
    cr_assert_str_eq(last_tag, "COMMIT");
    cr_assert_str_eq(run_node(scan(t, 1, tt)), "7\n");
}

Test(executor, create_drop_notices_and_tags)
{
    err_set_notice_hook(on_notice, NULL);
    Plan *c = utility(UTIL_CREATE_TABLE, "CREATE TABLE");
    c->utility->table_name = "t1";
    c->utility->ncolumns = 1;
    c->utility->columns = MEM_NEW(A, ColumnSpec);
    c->utility->columns[0] = (ColumnSpec){.name = "a", .type = T_I4};
    run(c);
    cr_assert_str_eq(last_tag, "CREATE TABLE");
    cr_assert_not_null(store_table_lookup("public", "t1"));
    EXPECT_ERROR("42P07", run(c));
    exec_session_abort(S);
    c->utility->if_not_exists = true;
    run(c);
    cr_assert_str_eq(notices[nnotices - 1].message, "relation \"t1\" already exists, skipping");
    Plan *d = utility(UTIL_DROP_TABLE, "DROP TABLE");
    d->utility->table_name = "t1";
    run(d);
    cr_assert_str_eq(last_tag, "DROP TABLE");
    cr_assert_null(store_table_lookup("public", "t1"));
    EXPECT_ERROR("42P01", run(d));
    exec_session_abort(S);
    d->utility->missing_ok = true;
    run(d);
    cr_assert_str_eq(notices[nnotices - 1].message, "table \"t1\" does not exist, skipping");
}

Test(executor, set_local_lasts_until_transaction_end)
{
    const char *orig = mem_strdup(A, guc_show(G, "extra_float_digits"));
    run(utility(UTIL_BEGIN, "BEGIN"));
    Plan *s = utility(UTIL_SET, "SET");
    s->utility->name = "extra_float_digits";
    s->utility->value = "3";
    s->utility->is_local = true;
    run(s);
    cr_assert_str_eq(guc_show(G, "extra_float_digits"), "3");
    Plan *show = utility(UTIL_SHOW, "SHOW");
    show->utility->name = "extra_float_digits";
    show->ncols = 1;
    cr_assert_str_eq(run(show), "3\n");
    run(utility(UTIL_COMMIT, "COMMIT"));
    cr_assert_str_eq(guc_show(G, "extra_float_digits"), orig);
    /* plain SET survives commit but not rollback */
    s->utility->is_local = false;
    run(utility(UTIL_BEGIN, "BEGIN"));
    run(s);
    run(utility(UTIL_ROLLBACK, "ROLLBACK"));
    cr_assert_str_eq(guc_show(G, "extra_float_digits"), orig);
    run(s);
    cr_assert_str_eq(guc_show(G, "extra_float_digits"), "3");
}
/* Many groups (> one batch) keyed on the constant left column of the window shape. */
Test(executor, nested_loop_grouped_counts)
{
    enum { N = 3000 };
    const char **cells = MEM_NEW_ARRAY(A, const char *, N);
    for (int i = 0; i < N; i++)
        cells[i] = mem_printf(A, "%d", i);
    StoreTable *t = make_table("t", 1, &T_I4, N, cells);
    SqlType jt[2] = {T_I4, T_I4};
    PlanNode *j = node(PLAN_NESTED_LOOP, 2, jt, scan(t, 1, &T_I4));
    j->right = scan(t, 1, &T_I4);
    j->join_filter = op2("<", col(0, T_I4), col(1, T_I4));
    PlanNode *g = node(PLAN_AGG, 2, (SqlType[]){T_I4, T_I8}, j);
    g->ngroups = 1; g->group_exprs = MEM_NEW(A, Expr *); g->group_exprs[0] = col(0, T_I4);
    g->naggs = 1;
    g->aggs = MEM_NEW(A, AggCall);
    g->aggs[0] = agg("count", NULL, false);
    const char *out = run_node(g);
    int lines = 0;
    for (const char *p = out; *p; p = strchr(p, '\n') + 1) {
        int a, b;
        cr_assert_eq(sscanf(p, "%d|%d", &a, &b), 2);
        cr_assert_eq(b, N - 1 - a, "left %d count %d", a, b);
        lines++;
    }
    cr_assert_eq(lines, N - 1); /* the largest left value matches nothing */
}

/* Exact int8 sums with negatives and NULLs (the register fast path), numeric
 * sum/avg scales, bytewise text min/max, float4 sum. */
Test(executor, sums_negative_nulls_numeric_text)
{
    static const char *cells[] = {
        "-5",                   "1.50", "pear",  "1.5",
        "∅",                    "2.25", "apple", "2.25",
        "-9223372036854775808", "∅",    "Zoo",   "∅",
        "3",                    "∅",    "∅",     "∅",
    };
    SqlType f4 = SQLTYPE(TYPE_FLOAT4);
    SqlType tt[4] = {T_I8, T_NUM, T_TEXT, f4};
    PlanNode *g = node(PLAN_AGG, 6, (SqlType[]){T_NUM, T_NUM, T_NUM, T_TEXT, T_TEXT, f4},
                       values(4, tt, 4, cells));
    g->naggs = 6;
    g->aggs = MEM_NEW_ARRAY(A, AggCall, 6);
    g->aggs[0] = agg("sum", col(0, T_I8), false);
    g->aggs[1] = agg("sum", col(1, T_NUM), false);
    g->aggs[2] = agg("avg", col(1, T_NUM), false);
    g->aggs[3] = agg("min", col(2, T_TEXT), false);
    g->aggs[4] = agg("max", col(2, T_TEXT), false);
    g->aggs[5] = agg("sum", col(3, f4), false);
    cr_assert_eq(g->aggs[5].type.oid, TYPE_FLOAT4);
    cr_assert_str_eq(run_node(g), "-9223372036854775810|3.75|1.8750000000000000|Zoo|pear|3.75\n");
}

/* A join over more rows than one batch, with a string key and GROUP BY on top. */
Test(executor, hash_join_many_rows_text_keys)
{
    enum { N = 5000 };
    const char **lc = MEM_NEW_ARRAY(A, const char *, N);
    const char **rc = MEM_NEW_ARRAY(A, const char *, 2 * 100);
    for (int i = 0; i < N; i++)
        lc[i] = mem_printf(A, "k%d", i % 100);
    for (int i = 0; i < 100; i++) {
        rc[2 * i] = mem_printf(A, "k%d", i);
        rc[2 * i + 1] = mem_printf(A, "%d", i);
    }
    SqlType rt[2] = {T_TEXT, T_I4};
    StoreTable *l = make_table("l", 1, &T_TEXT, N, lc);
    StoreTable *r = make_table("r", 2, rt, 100, rc);
    SqlType jt[3] = {T_TEXT, T_TEXT, T_I4};
    PlanNode *j = node(PLAN_HASH_JOIN, 3, jt, scan(l, 1, &T_TEXT));
    j->right = scan(r, 2, rt);
    j->nkeys = 1;
    j->left_keys = MEM_NEW_ARRAY(A, Expr *, 1);
    j->right_keys = MEM_NEW_ARRAY(A, Expr *, 1);
    j->left_keys[0] = col(0, T_TEXT);
    j->right_keys[0] = col(0, T_TEXT);
    PlanNode *g = node(PLAN_AGG, 2, (SqlType[]){T_I8, T_I8}, j);
    g->naggs = 2;
    g->aggs = MEM_NEW_ARRAY(A, AggCall, 2);
    g->aggs[0] = agg("count", NULL, false);
    g->aggs[1] = agg("sum", col(2, T_I4), false);
    cr_assert_str_eq(run_node(g), "5000|247500\n"); /* 50 * (0 + ... + 99) */
}

/* $1 parameters become constants; flipped `const op col` and IS NULL
 * conjuncts go to storage as zone hints and still filter every row. */
Test(executor, parameters_and_zone_hints)
{
    enum { N = 5000 };
    const char **cells = MEM_NEW_ARRAY(A, const char *, N);
    for (int i = 0; i < N; i++)
        cells[i] = i % 1000 == 0 ? "∅" : mem_printf(A, "%d", i);
    StoreTable *t = make_table("t", 1, &T_I8, N, cells);
    PlanNode *s = scan(t, 1, &T_I8);
    Expr *p1 = ex(EXPR_PARAM, T_I8, 0, NULL);
    p1->index = 0;
    s->scan_filter = and2(op2("<", p1, col(0, T_I8)), op2("<=", col(0, T_I8), i8(4003)));
    Value params[1] = {{.is_null = false, .u.i64 = 3997}};
    Plan *plan = query(s);
    ExecPortal *portal = exec_portal_create(S, plan, params, 1, A);
    Out o;
    strbuf_init(&o.sb);
    ExecSink sink = {&o, collect};
    while (!exec_portal_run(portal, 0, &sink)) {
    }
    cr_assert_str_eq(o.sb.data, "3998\n3999\n4001\n4002\n4003\n");
    strbuf_free(&o.sb);
    exec_portal_close(portal);
    exec_session_sync(S);
    PlanNode *s2 = scan(t, 1, &T_I8);
    Expr *c0 = col(0, T_I8);
    s2->scan_filter = ex(EXPR_IS_NULL, T_BOOL, 1, &c0);
    PlanNode *g = node(PLAN_AGG, 1, &T_I8, s2);
    g->naggs = 1;
    g->aggs = MEM_NEW(A, AggCall);
    g->aggs[0] = agg("count", NULL, false);
    cr_assert_str_eq(run_node(g), "5\n");
    /* a parameter that is not supplied */
    Expr *p2 = ex(EXPR_PARAM, T_I8, 0, NULL);
    p2->index = 1;
    Value v;
    EXPECT_ERROR("42P02", exec_eval_scalar(p2, params, 1, A, &v));
    exec_eval_scalar(p1, params, 1, A, &v);
    cr_assert_eq(v.u.i64, 3997);
}

/* ORDER BY k DESC LIMIT 10 OFFSET 5 over many ties: the top-N path must
 * give exactly the rows of the full stable sort. */
Test(executor, top_n_matches_full_stable_sort)
{
    enum { N = 20000 };
    const char **cells = MEM_NEW_ARRAY(A, const char *, 2 * N);
    for (int i = 0; i < N; i++) {
        cells[2 * i] = mem_printf(A, "%d", (i * 7919) % 7);
        cells[2 * i + 1] = mem_printf(A, "%d", i);
    }
    SqlType tt[2] = {T_I4, T_I4};
    StoreTable *t = make_table("t", 2, tt, N, cells);
    PlanNode *l = node(PLAN_LIMIT, 2, tt, sort_on(scan(t, 2, tt), 0, true, true));
    l->limit = i8(10);
    l->offset = i8(5);
    const char *top = run_node(l);
    /* expected: the rows with key 6 in input order, from the 6th on */
    StrBuf want;
    strbuf_init(&want);
    int seen = 0;
    for (int i = 0; i < N && seen < 15; i++) {
        if ((i * 7919) % 7 == 6) {
            if (seen >= 5)
                strbuf_printf(&want, "6|%d\n", i);
            seen++;
        }
    }
    cr_assert_str_eq(top, want.data);
    strbuf_free(&want);
    /* and the full sort agrees on the same window */
    PlanNode *full = sort_on(scan(t, 2, tt), 0, true, true);
    const char *all = run_node(full);
    const char *p = all;
    for (int i = 0; i < 5; i++)
        p = strchr(p, '\n') + 1;
    cr_assert(strncmp(p, top, strlen(top)) == 0);
}

/* Top-N against the full sort for many LIMIT/OFFSET windows, keys mostly
 * distinct with some duplicates and NULLs. */
Test(executor, top_n_windows_match_full_sort)
{
    enum { N = 10000 };
    const char **cells = MEM_NEW_ARRAY(A, const char *, 2 * N);
    for (int i = 0; i < N; i++) {
        cells[2 * i] = i % 97 == 0 ? "∅" : mem_printf(A, "%d", (i * 7919) % 5003);
        cells[2 * i + 1] = mem_printf(A, "%d", i);
    }
    SqlType tt[2] = {T_I4, T_I4};
    StoreTable *t = make_table("t", 2, tt, N, cells);
    const char *all = run_node(sort_on(scan(t, 2, tt), 0, false, false));
    static const int64_t windows[][2] = {{1, 0}, {3, 0}, {10, 5}, {17, 0}, {100, 33}, {1000, 4000}, {5, 9998}};
    for (size_t w = 0; w < sizeof windows / sizeof windows[0]; w++) {
        PlanNode *l = node(PLAN_LIMIT, 2, tt, sort_on(scan(t, 2, tt), 0, false, false));
        l->limit = i8(windows[w][0]);
        l->offset = i8(windows[w][1]);
        const char *top = run_node(l);
        const char *p = all;
        for (int i = 0; i < windows[w][1]; i++)
            p = strchr(p, '\n') + 1;
        cr_assert(strncmp(p, top, strlen(top)) == 0, "window %zu differs", w);
        int lines = 0;
        for (const char *q = top; *q; q++)
            lines += *q == '\n';
        int64_t expect = N - windows[w][1] < windows[w][0] ? N - windows[w][1] : windows[w][0];
        cr_assert_eq(lines, expect, "window %zu: %d lines", w, lines);
    }
}

/* GROUP BY numeric groups by value (1.0 = 1.00, the first spelling kept),
 * with count(DISTINCT) per group; an empty build side yields no rows. */
Test(executor, group_numeric_by_value_distinct_per_group)
{
    static const char *cells[] = {"1.0", "a", "1.00", "b", "2", "a", "1", "a", "∅", "c", "∅", "c"};
    SqlType tt[2] = {T_NUM, T_TEXT};
    PlanNode *g = node(PLAN_AGG, 3, (SqlType[]){T_NUM, T_I8, T_I8}, values(2, tt, 6, cells));
    g->ngroups = 1;
    g->group_exprs = MEM_NEW(A, Expr *);
    g->group_exprs[0] = col(0, T_NUM);
    g->naggs = 2;
    g->aggs = MEM_NEW_ARRAY(A, AggCall, 2);
    g->aggs[0] = agg("count", NULL, false);
    g->aggs[1] = agg("count", col(1, T_TEXT), true);
    cr_assert_str_eq(run_node(sort_on(g, 0, false, false)), "1.0|3|2\n2|1|1\n∅|2|1\n");
    StoreTable *e = make_table("e", 1, &T_NUM, 0, NULL);
    SqlType jt[4] = {T_NUM, T_TEXT, T_NUM};
    PlanNode *j = node(PLAN_HASH_JOIN, 3, jt, values(2, tt, 6, cells));
    j->right = scan(e, 1, &T_NUM);
    j->nkeys = 1;
    j->left_keys = MEM_NEW(A, Expr *);
    j->right_keys = MEM_NEW(A, Expr *);
    j->left_keys[0] = col(0, T_NUM);
    j->right_keys[0] = col(0, T_NUM);
    cr_assert_str_eq(run_node(j), "");
    cr_assert_str_eq(last_tag, "SELECT 0");
}
