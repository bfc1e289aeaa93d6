/*
 * test_planner_issue7.c — the plan shapes of two issue-7 rewrites, which
 * the SQL tests (whose answers must not change) cannot see:
 *   - GROUP BY items that depend on plain-column items leave the
 *     aggregate's key (planner/bind_group.c plan__group_derived) only
 *     where that is safe (ORDER BY / window above, no grouping sets, no
 *     volatile function, identity-equality types);
 *   - top-N over a wide scan is late-materialised (planner/plan_late.c):
 *     narrow scan + locator, fetch list on the Sort, output unchanged.
 * Answers are in tests/sql/aggregates/group_by_fd.test and
 * tests/sql/select/order_by_topn.test.
 */
#define PLANNER_FIXTURE_DIR "/tmp/strata-plan-i7-XXXXXX"
#define PLANNER_FIXTURE_ARENA "test-planner-issue7"
#include "planner_fixture.h"

TestSuite(planner_issue7, .init = setup, .fini = teardown);

static const PlanNode *find(const PlanNode *n, PlanKind kind)
{
    if (!n)
        return NULL;
    if (n->kind == kind)
        return n;
    const PlanNode *f = find(n->left, kind);
    return f ? f : find(n->right, kind);
}

static int agg_keys(const char *sql)
{
    const PlanNode *a = find(expect_plan(sql)->root, PLAN_AGG);
    cr_assert_not_null(a, "%s", sql);
    return a->ngroups;
}

Test(planner_issue7, dependent_group_items)
{
    /* t (a int, b text, c numeric(10,2), d date) */
    cr_expect_eq(agg_keys("SELECT a, a - 1, a - 2, count(*) FROM t GROUP BY a, a - 1, a - 2 ORDER BY 4 DESC LIMIT 3"), 1);
    cr_expect_eq(agg_keys("SELECT b, upper(b), length(b) FROM t GROUP BY b, upper(b), length(b) ORDER BY 1"), 1);
    cr_expect_eq(agg_keys("SELECT a, b, a + length(b) FROM t GROUP BY a, b, a + length(b) ORDER BY 1"), 2);
    cr_expect_eq(agg_keys("SELECT a, a + 1, rank() OVER (ORDER BY a) FROM t GROUP BY a, a + 1"), 1);
    /* HAVING and ORDER BY over the dependent item still bind */
    cr_expect_eq(agg_keys("SELECT a - 1 FROM t GROUP BY a, a - 1 HAVING a - 1 > 0 ORDER BY a - 1"), 1);
    /* not rewritten */
    cr_expect_eq(agg_keys("SELECT a, a - 1 FROM t GROUP BY a, a - 1"), 2, "nothing reads every group first");
    cr_expect_eq(agg_keys("SELECT a, a - 1 FROM t GROUP BY a, a - 1 LIMIT 1"), 2, "a LIMIT alone stops early");
    cr_expect_eq(agg_keys("SELECT a, a + 1 FROM t GROUP BY ROLLUP (a, a + 1) ORDER BY 1"), 2);
    cr_expect_eq(agg_keys("SELECT a FROM t GROUP BY a, a + random() ORDER BY 1"), 2, "volatile");
    cr_expect_eq(agg_keys("SELECT a FROM t GROUP BY a, now() + a * interval '1 day' ORDER BY 1"), 2, "stable");
    cr_expect_eq(agg_keys("SELECT c, c::text FROM t GROUP BY c, c::text ORDER BY 1"), 2, "numeric: 1.0 = 1.00");
    cr_expect_eq(agg_keys("SELECT a + 1, a + 2 FROM t GROUP BY a + 1, a + 2 ORDER BY 1"), 2, "no plain column");
    cr_expect_eq(agg_keys("SELECT a, b FROM t GROUP BY a, b ORDER BY 1"), 2);
    /* an expression of a column that is grouped only inside another item is still 42803 */
    expect_error("SELECT a - 2 FROM t GROUP BY a - 1 ORDER BY 1", "42803",
                 "column \"t.a\" must appear in the GROUP BY clause or be used in an aggregate function", 8);
}

/* A table with n rows of (k int, v text, w bigint, x text, y date). */
static StoreTable *make_wide(int n)
{
    create("CREATE TABLE wide (k int, v text, w bigint, x text, y date)");
    StoreTable *t = store_table_lookup("public", "wide");
    cr_assert_not_null(t);
    SqlType types[] = {SQLTYPE(TYPE_INT4), SQLTYPE(TYPE_TEXT), SQLTYPE(TYPE_INT8), SQLTYPE(TYPE_TEXT),
                       SQLTYPE(TYPE_DATE)};
    for (int first = 0; first < n; first += VEC_CAPACITY) {
        Batch *b = batch_create(arena, 5, types);
        uint32_t cnt = (uint32_t)(n - first < VEC_CAPACITY ? n - first : VEC_CAPACITY);
        for (uint32_t i = 0; i < cnt; i++) {
            Value v = {.is_null = false};
            v.u.i32 = first + (int)i;
            vec_set_value(&b->cols[0], i, &v);
            vec_set_value(&b->cols[4], i, &v);
            v.u.i64 = first + (int)i;
            vec_set_value(&b->cols[2], i, &v);
            v.u.str = (StrRef){"text", 4};
            vec_set_value(&b->cols[1], i, &v);
            vec_set_value(&b->cols[3], i, &v);
        }
        b->count = cnt;
        store_table_append(t, NULL, b);
    }
    return t;
}

Test(planner_issue7, late_materialisation)
{
    make_wide(5000);
    Plan *p = expect_plan("SELECT * FROM wide WHERE v LIKE '%e%' ORDER BY w DESC LIMIT 10");
    const PlanNode *sort = find(p->root, PLAN_SORT), *scan = find(p->root, PLAN_SCAN);
    cr_assert_not_null(sort);
    cr_expect_eq(sort->nlate, 3, "k, x, y fetched; v is read by the filter, w is the key");
    cr_expect_eq(sort->ncols, 5, "the output keeps every column");
    cr_expect_eq(p->root->ncols, 5);
    cr_expect_eq(scan->ncols, 3, "v, w and the locator");
    cr_expect_eq(scan->scan_cols[scan->ncols - 1], STORE_COL_ROWID);
    cr_expect_eq(sort->late_rowid, sort->left->ncols - 1);
    cr_expect_eq(sort->left->ncols, 3, "v (an output), w (the key), the locator");
    int fetched = 0;
    for (int i = 0; i < sort->ncols; i++)
        fetched += sort->late_map[i] < 0;
    cr_expect_eq(fetched, 3);
    cr_expect_eq(sort->late_map[0], -1, "k is the first fetched column");
    cr_expect_eq(sort->late_cols[0], 0);

    /* not rewritten */
    const char *keep[] = {
        "SELECT * FROM wide ORDER BY w LIMIT 100",        /* 5000 rows < 64 per emitted row */
        "SELECT * FROM wide ORDER BY w",                  /* no LIMIT */
        "SELECT k, w FROM wide ORDER BY w LIMIT 5",       /* one column to fetch */
        "SELECT k + 1, x || y FROM wide ORDER BY w LIMIT 5", /* computed outputs */
        "SELECT DISTINCT k, v, x FROM wide ORDER BY k LIMIT 5",
    };
    for (size_t i = 0; i < sizeof keep / sizeof keep[0]; i++) {
        const PlanNode *s = find(expect_plan(keep[i])->root, PLAN_SORT);
        cr_assert_not_null(s, "%s", keep[i]);
        cr_expect_eq(s->nlate, 0, "%s", keep[i]);
    }
}
