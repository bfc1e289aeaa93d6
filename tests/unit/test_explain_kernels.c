/*
 * test_explain_kernels.c — EXPLAIN ANALYZE's "Kernels:" line as the
 * planner prints it (planner/explain.c) from given PlanNodeStats: the
 * names and their order, the fused filter's phrase, the row-group counts,
 * the line's place (under the node's own properties, before its children
 * and its InitPlan/SubPlan sections), and no line for a node whose
 * counters say nothing. Which bits the executor sets is checked through
 * the server: tests/protocol/test_explain_kernels.c.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PLANNER_FIXTURE_DIR "/tmp/strata_test_explain_kernels_XXXXXX"
#define PLANNER_FIXTURE_ARENA "test_explain_kernels"
#include "planner_fixture.h"

TestSuite(explain_kernels, .init = setup, .fini = teardown);

static const PlanNode *find_kind(const PlanNode *n, PlanKind k)
{
    if (!n)
        return NULL;
    if (n->kind == k)
        return n;
    const PlanNode *r = find_kind(n->left, k);
    return r ? r : find_kind(n->right, k);
}

/* An EXPLAIN ANALYZE statement planned, with zeroed counters to fill. */
typedef struct Analyzed {
    Plan *p;
    const Plan *inner;
    PlanNodeStats *stats;
} Analyzed;

static Analyzed analyze(const char *sql)
{
    Analyzed a;
    a.p = expect_plan(sql);
    cr_assert_eq(a.p->utility->kind, UTIL_EXPLAIN_ANALYZE);
    a.inner = a.p->utility->explain_plan;
    a.stats = mem_calloc(arena, (size_t)a.inner->nnodes, sizeof(PlanNodeStats));
    return a;
}

/* Its lines, as the executor's EXPLAIN ANALYZE would return them. */
static List *format(const Analyzed *a)
{
    return a->p->utility->explain_format(a->inner, a->stats, 1.0, arena);
}

static void expect_lines(List *lines, const char *const *want, int n)
{
    cr_assert_eq(list_len(lines), n, "%d lines, expected %d", list_len(lines), n);
    for (int i = 0; i < n; i++) {
        const char *got = list_nth(lines, i);
        cr_expect(strncmp(got, want[i], strlen(want[i])) == 0, "line %d: \"%s\", expected \"%s...\"", i, got,
                  want[i]);
    }
}

Test(explain_kernels, names_order_and_place)
{
    Analyzed a = analyze("EXPLAIN ANALYZE SELECT count(*) FROM t WHERE a <> 0");
    PlanNodeStats *stats = a.stats;
    const Plan *inner = a.inner;
    const PlanNode *agg = find_kind(inner->root, PLAN_AGG), *scan = find_kind(inner->root, PLAN_SCAN);
    cr_assert(agg && scan);
    stats[agg->node_id].kernels = PLAN_KERN(PLAN_KERN_AGG_COUNT_STAR) | PLAN_KERN(PLAN_KERN_AGG_ONE_GROUP);
    stats[scan->node_id].kernels = PLAN_KERN(PLAN_KERN_FILTER_ALLPASS) | PLAN_KERN(PLAN_KERN_FILTER_AVX2) |
                                   PLAN_KERN(PLAN_KERN_CMP_I32) | PLAN_KERN(PLAN_KERN_CMP_NE);
    stats[scan->node_id].groups_skipped = 3;
    const char *want[] = {
        "Aggregate  (actual rows=0",
        "  Kernels: one group, count(*) by batch size",
        "  ->  Seq Scan on t  (actual rows=0",
        "        Filter: (a <> 0)",
        "        Kernels: avx2 filter i32 <> const, all-pass batches, zone maps skipped 3 row groups",
        "Execution Time: 1.000 ms",
    };
    List *lines = format(&a);
    expect_lines(lines, want, 6);
    cr_expect_str_eq(list_nth(lines, 1), want[1]);
    cr_expect_str_eq(list_nth(lines, 4), want[4]);
}

Test(explain_kernels, nothing_to_say_no_line)
{
    Analyzed a = analyze("EXPLAIN ANALYZE SELECT count(*) FROM t WHERE a <> 0");
    PlanNodeStats *stats = a.stats;
    const Plan *inner = a.inner;
    const PlanNode *scan = find_kind(inner->root, PLAN_SCAN);
    stats[scan->node_id].groups_summarised = 7;
    const char *want[] = {
        "Aggregate  (actual rows=0",
        "  ->  Seq Scan on t  (actual rows=0",
        "        Filter: (a <> 0)",
        "        Kernels: 7 row groups from metadata",
        "Execution Time: 1.000 ms",
    };
    expect_lines(format(&a), want, 5);
}

Test(explain_kernels, packed_filter_clone_and_initplan)
{
    Analyzed a = analyze("EXPLAIN ANALYZE SELECT a FROM t WHERE a >= (SELECT max(id) FROM u)");
    PlanNodeStats *stats = a.stats;
    const Plan *inner = a.inner;
    const PlanNode *scan = find_kind(inner->root, PLAN_SCAN);
    cr_assert(scan && scan->table != NULL);
    stats[scan->node_id].kernels = PLAN_KERN(PLAN_KERN_FILTER_PACKED) | PLAN_KERN(PLAN_KERN_CMP_I64) |
                                   PLAN_KERN(PLAN_KERN_CMP_GE) | PLAN_KERN(PLAN_KERN_FILTER_REST) |
                                   PLAN_KERN(PLAN_KERN_CLONE_DEFAULT);
    List *lines = format(&a);
    int k = -1, init = -1;
    for (int i = 0; i < list_len(lines); i++) {
        const char *l = list_nth(lines, i);
        if (strstr(l, "Kernels:"))
            k = i;
        if (strstr(l, "InitPlan 1"))
            init = i;
    }
    cr_assert_geq(k, 0);
    cr_expect_str_eq(list_nth(lines, k),
                     "  Kernels: packed filter i64 >= const, other conjuncts on selected rows, default clones");
    cr_expect(init > k, "the Kernels line precedes the InitPlan section (%d, %d)", k, init);
    cr_expect(strstr(list_nth(lines, k - 1), "Filter:") != NULL, "right after the Filter: %s",
              (const char *)list_nth(lines, k - 1));
}

Test(explain_kernels, plain_explain_unchanged)
{
    Plan *p = expect_plan("EXPLAIN SELECT count(*) FROM t WHERE a <> 0");
    cr_assert_eq(p->utility->kind, UTIL_EXPLAIN);
    cr_expect_eq(list_len(p->utility->explain_lines), 3);
    for (int i = 0; i < list_len(p->utility->explain_lines); i++)
        cr_expect(strstr(list_nth(p->utility->explain_lines, i), "Kernels") == NULL);
}

Test(explain_kernels, analyze_of_a_bad_query_fails_as_postgres)
{
    expect_error("EXPLAIN ANALYZE SELECT nope FROM t", "42703", "column \"nope\" does not exist", 24);
}
