/*
 * test_planner_estimate.c — the planner's cardinality estimator
 * (planner/estimate.c): PostgreSQL's selectivity formulas on hand-made
 * statistics, then end to end on a real table before and after ANALYZE
 * (scan estimates, GROUP BY estimates, the hash join's build side).
 */
#define PLANNER_FIXTURE_DIR "/tmp/strata-plan-est-XXXXXX"
#define PLANNER_FIXTURE_ARENA "test-planner-estimate"
#include <math.h>
#include "planner_fixture.h"

#define STRATA_PLANNER_INTERNAL
#include "planner/estimate.h"

TestSuite(planner_estimate, .init = setup, .fini = teardown);

#define NEAR(a, b) (fabs((a) - (b)) < 1e-9)

static PlanColStats analyzed(double rows, double null_frac, double nd)
{
    PlanColStats s = {.rows = rows, .analyzed = true, .null_frac = null_frac, .n_distinct = nd};
    return s;
}

Test(planner_estimate, equality_and_defaults)
{
    PlanColStats unknown = {.rows = 1000};
    cr_expect(NEAR(plan__est_sel_eq(&unknown), 0.005));
    PlanColStats s = analyzed(1000, 0.2, 4);
    cr_expect(NEAR(plan__est_sel_eq(&s), 0.8 / 4));
    PlanColStats key = {.rows = 500, .unique = true};
    cr_expect(NEAR(plan__est_sel_eq(&key), 1.0 / 500));
    /* estimation runs after binding: binder errors are unchanged */
    expect_error("SELECT * FROM u WHERE nosuch = 1", "42703", "column \"nosuch\" does not exist", 23);
    /* n_distinct defaults: the rows below 200, 200 above */
    PlanColStats small = {.rows = 50};
    cr_expect(NEAR(plan__est_ndistinct(&small), 50));
    cr_expect(NEAR(plan__est_ndistinct(&unknown), 200));
}

Test(planner_estimate, ranges_interpolate_between_min_and_max)
{
    PlanColStats s = analyzed(1000, 0.5, 100);
    s.has_minmax = true;
    s.min = 0;
    s.max = 100;
    cr_expect(NEAR(plan__est_sel_range(&s, PLAN_EST_LT, 25), 0.25 * 0.5));
    cr_expect(NEAR(plan__est_sel_range(&s, PLAN_EST_GE, 25), 0.75 * 0.5));
    cr_expect(NEAR(plan__est_sel_range(&s, PLAN_EST_GT, 1000), 0));
    cr_expect(NEAR(plan__est_sel_range(&s, PLAN_EST_LE, 1000), 0.5));
    cr_expect(NEAR(plan__est_sel_range(&s, PLAN_EST_LT, -5), 0));
    s.has_minmax = false;
    cr_expect(NEAR(plan__est_sel_range(&s, PLAN_EST_LT, 25), 1.0 / 3));
    PlanColStats one = analyzed(10, 0, 1);
    one.has_minmax = true;
    one.min = one.max = 7;
    cr_expect(NEAR(plan__est_sel_range(&one, PLAN_EST_LT, 7), 0.5));
}

Test(planner_estimate, nulls_joins_groups)
{
    PlanColStats unknown = {.rows = 1000};
    PlanColStats s = analyzed(1000, 0.25, 10);
    cr_expect(NEAR(plan__est_sel_null(&s, true), 0.25));
    cr_expect(NEAR(plan__est_sel_null(&s, false), 0.75));
    cr_expect(NEAR(plan__est_sel_null(&unknown, true), 0.005));
    cr_expect(NEAR(plan__est_sel_null(&unknown, false), 0.995));
    /* eqjoinsel: (1 - nf1)(1 - nf2) / max(nd1, nd2), nd clamped to the side's rows */
    PlanColStats k = analyzed(1000, 0, 1000);
    cr_expect(NEAR(plan__est_join_sel(&s, &k, 1000, 1000), 0.75 / 1000));
    cr_expect(NEAR(plan__est_join_sel(&s, &k, 1000, 40), 0.75 / 40));
    /* groups: product of n_distinct (+1 for NULLs), capped by the input */
    PlanColStats g[2] = {analyzed(1000, 0, 10), analyzed(1000, 0.1, 5)};
    cr_expect(NEAR(plan__est_groups(g, 2, 1000), 60));
    cr_expect(NEAR(plan__est_groups(g, 2, 30), 30));
    cr_expect(NEAR(plan__est_groups(g, 0, 30), 1));
    cr_expect(NEAR(plan__est_clamp(NAN), 1.0 / 3));
    cr_expect(NEAR(plan__est_clamp(2), 1));
}

/* big(k int, x int): k = 0..n-1, x = k % 2, NULL when k % 10 == 9. */
static StoreTable *make_big(int n)
{
    create("CREATE TABLE big (k int, x int)");
    StoreTable *t = store_table_lookup("public", "big");
    cr_assert_not_null(t);
    SqlType types[] = {SQLTYPE(TYPE_INT4), SQLTYPE(TYPE_INT4)};
    for (int first = 0; first < n; first += VEC_CAPACITY) {
        Batch *b = batch_create(arena, 2, types);
        uint32_t cnt = (uint32_t)(n - first < VEC_CAPACITY ? n - first : VEC_CAPACITY);
        for (uint32_t i = 0; i < cnt; i++) {
            Value v = {.is_null = false};
            v.u.i32 = first + (int)i;
            vec_set_value(&b->cols[0], i, &v);
            v.u.i32 = (first + (int)i) % 2;
            if ((first + (int)i) % 10 == 9)
                vec_set_null(&b->cols[1], i);
            else
                vec_set_value(&b->cols[1], i, &v);
        }
        b->count = cnt;
        store_table_append(t, NULL, b);
    }
    return t;
}

static const PlanNode *find(const PlanNode *n, PlanKind kind)
{
    if (!n)
        return NULL;
    if (n->kind == kind)
        return n;
    const PlanNode *f = find(n->left, kind);
    return f ? f : find(n->right, kind);
}

Test(planner_estimate, analyze_changes_estimates_and_build_side)
{
    StoreTable *big = make_big(30000);
    StoreTable *u = store_table_lookup("public", "u");
    SqlType types[] = {SQLTYPE(TYPE_INT4), SQLTYPE(TYPE_INT4), {TYPE_VARCHAR, 24}};
    Batch *b = batch_create(arena, 3, types);
    for (uint32_t i = 0; i < 100; i++) {
        Value v = {.is_null = false};
        v.u.i32 = (int32_t)i;
        vec_set_value(&b->cols[0], i, &v);
        vec_set_value(&b->cols[1], i, &v);
        v.u.str = (StrRef){"x", 1};
        vec_set_value(&b->cols[2], i, &v);
    }
    b->count = 100;
    store_table_append(u, NULL, b);
    const char *join = "SELECT u.a, big.k FROM u JOIN big ON big.k = u.id WHERE big.x = 1";

    /* never analyzed: live row count, default equality selectivity */
    const PlanNode *hj = find(expect_plan(join)->root, PLAN_HASH_JOIN);
    cr_assert_not_null(hj);
    cr_expect_eq(hj->right->table, big, "small estimate (30000 * 0.005): big stays the build side");
    cr_expect(NEAR(hj->right->est_rows, 30000 * 0.005), "%g", hj->right->est_rows);
    const PlanNode *agg = find(expect_plan("SELECT x, count(*) FROM big GROUP BY x")->root, PLAN_AGG);
    cr_expect(NEAR(agg->est_rows, 200), "default n_distinct: %g", agg->est_rows);

    store_table_analyze(big, NULL);
    store_table_analyze(u, NULL);
    hj = find(expect_plan(join)->root, PLAN_HASH_JOIN);
    cr_assert_not_null(hj);
    cr_expect_eq(hj->right->table, u, "after ANALYZE x = 1 keeps 45%% of big: u builds");
    cr_expect_eq(hj->left->table, big);
    cr_expect(fabs(hj->left->est_rows - 30000 * 0.9 / 2) < 1, "%g", hj->left->est_rows);
    /* join: 100 * 13500 / max(100, 13500 clamp of 30000 distinct k) */
    cr_expect(fabs(hj->est_rows - 100) < 1, "join rows %g", hj->est_rows);
    agg = find(expect_plan("SELECT x, count(*) FROM big GROUP BY x")->root, PLAN_AGG);
    cr_expect(fabs(agg->est_rows - 3) < 0.01, "two values and NULL: %g", agg->est_rows);
    const PlanNode *scan = find(expect_plan("SELECT k FROM big WHERE k < 7500 AND x IS NULL")->root, PLAN_SCAN);
    cr_expect(fabs(scan->est_rows - 30000 * 0.25 * 0.1) < 1, "%g", scan->est_rows);
    scan = find(expect_plan("SELECT k FROM big WHERE k = 5 OR x IN (0, 1)")->root, PLAN_SCAN);
    double s1 = 1.0 / 30000, s2 = 0.9;
    cr_expect(fabs(scan->est_rows - 30000 * (s1 + s2 - s1 * s2)) < 1, "%g", scan->est_rows);
}

/* The executor's pre-sizing from est_rows is bounded whatever the estimate. */
#define STRATA_EXECUTOR_INTERNAL
#include "executor/exec_int.h"

Test(planner_estimate, presize_is_bounded)
{
    cr_expect_eq(exec__presize(0, 1), 1024);
    cr_expect_eq(exec__presize(NAN, 1), 1024);
    cr_expect_eq(exec__presize(-5, 1), 1024);
    cr_expect_eq(exec__presize(5000, 2), 8192);
    cr_expect_eq(exec__presize(1e12, 2), EXEC_PRESIZE_MAX);
    cr_expect_eq(exec__presize(1e12, 64), EXEC_PRESIZE_CELLS / 64);
    cr_expect_eq(exec__presize(1e12, 5000), 1024, "never below the old fixed size");
}
