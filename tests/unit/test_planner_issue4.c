/*
 * test_planner_issue4.c — unit tests of the plan shapes of issue 4: outer
 * joins and USING, semi / anti joins from IN / EXISTS / NOT IN, subplans,
 * set operations, WITH RECURSIVE, window nodes, grouping sets, DISTINCT ON,
 * top-N, table functions, views, EXPLAIN ANALYZE, and their errors. (The
 * results themselves are checked by the SQL tests against PostgreSQL 15.)
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/arena.h"
#include "common/error.h"
#include "common/guc.h"
#include "parser/parser.h"
#include "planner/plan.h"
#include "planner/planner.h"
#include "storage/storage.h"

#define PLANNER_FIXTURE_DIR "/tmp/strata_test_planner4_XXXXXX"
#define PLANNER_FIXTURE_ARENA "test_planner4"
#include "planner_fixture.h"

TestSuite(planner4, .init = setup, .fini = teardown);



/* The first node below Project/Filter wrappers. */
static const PlanNode *under(const PlanNode *n)
{
    while (n && (n->kind == PLAN_PROJECT || n->kind == PLAN_FILTER || n->kind == PLAN_LIMIT))
        n = n->left;
    return n;
}

static const PlanNode *find_kind(const PlanNode *n, PlanKind k)
{
    if (!n)
        return NULL;
    if (n->kind == k)
        return n;
    const PlanNode *r = find_kind(n->left, k);
    if (!r)
        r = find_kind(n->right, k);
    if (!r && n->kind == PLAN_CTE_SCAN)
        r = find_kind(n->cte_plan, k);
    for (int i = 0; !r && i < n->nchildren; i++)
        r = find_kind(n->children[i], k);
    return r;
}

Test(planner4, outer_join_types)
{
    Plan *p = expect_plan("SELECT * FROM t LEFT JOIN u ON t.a = u.id");
    const PlanNode *j = find_kind(p->root, PLAN_HASH_JOIN);
    cr_assert_not_null(j);
    cr_expect_eq(j->join_type, PJOIN_LEFT);
    cr_expect_eq(j->nkeys, 1);
    cr_expect_eq(p->ncols, 7);
    p = expect_plan("SELECT * FROM t RIGHT JOIN u ON t.a = u.id");
    j = find_kind(p->root, PLAN_HASH_JOIN);
    cr_expect_eq(j->join_type, PJOIN_LEFT, "RIGHT JOIN is planned as LEFT with the sides swapped");
    p = expect_plan("SELECT * FROM t FULL JOIN u ON t.a = u.id AND u.name = 'x'");
    j = find_kind(p->root, PLAN_HASH_JOIN);
    cr_expect_eq(j->join_type, PJOIN_FULL);
    cr_expect_not_null(j->join_filter, "the ON residual stays on the join");
    p = expect_plan("SELECT * FROM t LEFT JOIN u ON u.id > 3");
    j = find_kind(p->root, PLAN_NESTED_LOOP);
    cr_assert_not_null(j);
    cr_expect_eq(j->join_type, PJOIN_LEFT);
    cr_expect_null(j->join_filter, "an ON condition over the nullable side alone is pushed into it");
}

Test(planner4, using_merges_columns)
{
    Plan *p = expect_plan("SELECT * FROM t JOIN u USING (a)");
    cr_assert_eq(p->ncols, 6);
    cr_expect_str_eq(p->cols[0].name, "a");
    cr_expect_str_eq(p->cols[1].name, "b");
    cr_expect_str_eq(p->cols[3].name, "d");
    cr_expect_str_eq(p->cols[4].name, "id");
    p = expect_plan("SELECT a, t.a, u.a FROM t FULL JOIN u USING (a)");
    cr_expect_eq(p->ncols, 3);
    p = expect_plan("SELECT * FROM t NATURAL JOIN u");
    cr_expect_eq(p->ncols, 6);
    expect_error("SELECT * FROM t JOIN u USING (zz)", "42703",
                 "column \"zz\" specified in USING clause does not exist in left table", -1);
    expect_error("SELECT * FROM t JOIN u USING (b)", "42703",
                 "column \"b\" specified in USING clause does not exist in right table", -1);
    expect_error("SELECT a FROM t JOIN u ON true", "42702", "column reference \"a\" is ambiguous", 8);
}

Test(planner4, sublinks_become_semi_and_anti_joins)
{
    Plan *p = expect_plan("SELECT * FROM t WHERE a IN (SELECT id FROM u)");
    const PlanNode *j = find_kind(p->root, PLAN_HASH_JOIN);
    cr_assert_not_null(j);
    cr_expect_eq(j->join_type, PJOIN_SEMI);
    cr_expect_eq(j->ncols, under(p->root)->ncols);
    p = expect_plan("SELECT * FROM t WHERE a NOT IN (SELECT id FROM u)");
    j = find_kind(p->root, PLAN_HASH_JOIN);
    cr_assert_not_null(j);
    cr_expect_eq(j->join_type, PJOIN_ANTI_NULL);
    p = expect_plan("SELECT * FROM t WHERE NOT EXISTS (SELECT 1 FROM u WHERE u.a = t.a AND u.id > 1)");
    j = find_kind(p->root, PLAN_HASH_JOIN);
    cr_assert_not_null(j, "the correlated equality is decorrelated into a hash key");
    cr_expect_eq(j->join_type, PJOIN_ANTI);
    cr_expect_eq(j->nkeys, 1);
}

Test(planner4, subplans_in_expressions)
{
    Plan *p = expect_plan("SELECT a, (SELECT max(id) FROM u WHERE u.a = t.a) FROM t");
    const PlanNode *pr = p->root;
    cr_assert_eq(pr->kind, PLAN_PROJECT);
    const Expr *e = pr->exprs[1];
    cr_assert_eq(e->kind, EXPR_SUBPLAN);
    cr_expect_eq(e->sublink, SUBLINK_SCALAR);
    cr_expect_eq(e->nargs, 1, "one correlation value: t.a");
    cr_expect_eq(e->type.oid, TYPE_INT4);
    cr_expect_eq(p->nsubplans, 1);
    cr_expect_str_eq(p->cols[1].name, "max");
    p = expect_plan("SELECT a IN (SELECT id FROM u) FROM t");
    cr_expect_eq(p->root->exprs[0]->sublink, SUBLINK_ANY);
    cr_expect_eq(p->root->exprs[0]->subplan->col_types[0].oid, TYPE_BOOL);
    expect_error("SELECT (SELECT id, a FROM u)", "42601", "subquery must return only one column", -1);
    expect_error("SELECT 1 WHERE 1 IN (SELECT id, a FROM u)", "42601", "subquery has too many columns", -1);
}

Test(planner4, set_operations)
{
    Plan *p = expect_plan("SELECT a FROM t UNION ALL SELECT id FROM u UNION ALL SELECT 1");
    cr_assert_eq(p->root->kind, PLAN_APPEND);
    cr_expect_eq(p->root->nchildren, 3, "nested UNION ALLs flatten");
    p = expect_plan("SELECT a FROM t UNION SELECT id FROM u");
    cr_expect_eq(p->root->kind, PLAN_DISTINCT);
    p = expect_plan("SELECT a FROM t EXCEPT ALL SELECT id FROM u ORDER BY 1 LIMIT 3");
    const PlanNode *s = find_kind(p->root, PLAN_SETOP);
    cr_assert_not_null(s);
    cr_expect_eq(s->setop, SETOP_EXCEPT);
    cr_expect(s->setop_all);
    cr_expect_eq(find_kind(p->root, PLAN_SORT)->sort_topn, 3);
    p = expect_plan("SELECT 1 UNION SELECT 2.5");
    cr_expect_eq(p->cols[0].type.oid, TYPE_NUMERIC);
    p = expect_plan("SELECT NULL UNION SELECT 1");
    cr_expect_eq(p->cols[0].type.oid, TYPE_INT4);
    expect_error("SELECT 1, 2 UNION SELECT 1", "42601", "each UNION query must have the same number of columns", -1);
    expect_error("SELECT a FROM t UNION SELECT b FROM t", "42804", "UNION types integer and text cannot be matched", -1);
}

Test(planner4, recursive_with)
{
    Plan *p = expect_plan("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5) SELECT i FROM n");
    const PlanNode *r = find_kind(p->root, PLAN_RECURSIVE_UNION);
    cr_assert_not_null(r);
    cr_expect(r->setop_all);
    const PlanNode *w = find_kind(r->right, PLAN_WORKTABLE_SCAN);
    cr_assert_not_null(w);
    cr_expect_eq(w->worktable_id, r->worktable_id);
    cr_expect_eq(p->nworktables, 1);
    cr_expect_eq(p->nctes, 1, "a recursive WITH query is materialised once");
    cr_expect_not_null(find_kind(p->root, PLAN_CTE_SCAN));
    p = expect_plan("WITH x AS (SELECT a FROM t) SELECT * FROM x a JOIN x b ON a.a = b.a");
    cr_expect_eq(p->nctes, 1, "referenced twice: materialised");
    p = expect_plan("WITH x AS (SELECT a FROM t) SELECT * FROM x");
    cr_expect_eq(p->nctes, 0, "referenced once: inlined");
    cr_expect_null(find_kind(p->root, PLAN_CTE_SCAN));
    expect_error("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1.5 FROM n) SELECT * FROM n", "42804",
                 "recursive query \"n\" column 1 has type integer in non-recursive term but type numeric overall", -1);
}

Test(planner4, window_nodes)
{
    Plan *p = expect_plan("SELECT a, row_number() OVER (PARTITION BY b ORDER BY a), sum(a) OVER (PARTITION BY b ORDER BY a), "
                          "rank() OVER (ORDER BY a) FROM t");
    const PlanNode *w = find_kind(p->root, PLAN_WINDOW);
    cr_assert_not_null(w);
    int nwin = 0, ncalls = 0;
    for (const PlanNode *n = p->root; n; n = n->left)
        if (n->kind == PLAN_WINDOW) {
            nwin++;
            ncalls += n->nwincalls;
        }
    cr_expect_eq(nwin, 2, "two distinct window specifications");
    cr_expect_eq(ncalls, 3);
    cr_expect_eq(p->cols[1].type.oid, TYPE_INT8);
    p = expect_plan("SELECT sum(a) OVER (ORDER BY a RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM t");
    w = find_kind(p->root, PLAN_WINDOW);
    cr_expect_eq(w->frame.mode, FRAME_RANGE);
    cr_expect_eq(w->frame.start_kind, BOUND_OFFSET_PRECEDING);
    cr_expect_geq(w->frame.start_bound_col, 0);
    cr_expect_eq(w->left->left->col_types[w->frame.start_bound_col].oid, TYPE_INT8);
    expect_error("SELECT a FROM t WHERE row_number() OVER () > 1", "42P20",
                 "window functions are not allowed in WHERE", -1);
    expect_error("SELECT sum(a) OVER w FROM t", "42704", "window \"w\" does not exist", -1);
}

Test(planner4, grouping_sets_and_distinct_on)
{
    Plan *p = expect_plan("SELECT a, b, count(*), GROUPING(a, b) FROM t GROUP BY ROLLUP (a, b)");
    const PlanNode *agg = find_kind(p->root, PLAN_AGG);
    cr_assert_not_null(agg);
    cr_expect_eq(agg->ngsets, 3);
    cr_expect_eq(agg->gsets[0], 3u);
    cr_expect_eq(agg->gsets[2], 0u);
    cr_expect_eq(agg->ncols, 2 + 1 + 1, "keys, aggregates, set index");
    p = expect_plan("SELECT count(*) FROM t GROUP BY CUBE (a, b)");
    cr_expect_eq(find_kind(p->root, PLAN_AGG)->ngsets, 4);
    p = expect_plan("SELECT DISTINCT ON (b) b, a FROM t ORDER BY b, a DESC");
    const PlanNode *d = find_kind(p->root, PLAN_DISTINCT);
    cr_assert_not_null(d);
    cr_expect_eq(d->ndistinct_on, 1);
    cr_expect_eq(d->left->kind, PLAN_SORT);
    expect_error("SELECT DISTINCT ON (b) b, a FROM t ORDER BY a", "42P10",
                 "SELECT DISTINCT ON expressions must match initial ORDER BY expressions", -1);
}

Test(planner4, table_functions)
{
    Plan *p = expect_plan("SELECT * FROM generate_series(1, 10, 2) WITH ORDINALITY AS g(x, n)");
    const PlanNode *f = find_kind(p->root, PLAN_FUNCTION_SCAN);
    cr_assert_not_null(f);
    cr_expect_eq(f->func_kind, TABLEFUNC_GENERATE_SERIES);
    cr_expect_eq(f->nfunc_args, 3);
    cr_expect(f->ordinality);
    cr_expect_str_eq(p->cols[0].name, "x");
    cr_expect_eq(p->cols[1].type.oid, TYPE_INT8);
    p = expect_plan("SELECT * FROM generate_series(1, 3) g");
    cr_expect_str_eq(p->cols[0].name, "g");
    expect_error("SELECT * FROM generate_series('a'::text, 'b'::text)", "42883",
                 "function generate_series(text, text) does not exist", -1);
}

/* Carry out a planned CREATE / DROP VIEW in the store, as the executor's
 * UTIL_VIEW does (executor/utility_view.c). */
static void run_view(const Plan *p)
{
    const UtilityStmt *u = p->utility;
    cr_assert_eq(u->kind, UTIL_VIEW);
    if (u->ddl3_op == 'd') {
        for (int i = 0; i + 1 < list_len(u->view_drops); i += 2)
            if (list_nth(u->view_drops, i))   /* NULL: absent, DROP VIEW IF EXISTS */
                store_view_drop(list_nth(u->view_drops, i), list_nth(u->view_drops, i + 1));
        return;
    }
    StoreColumnDef defs[32];
    cr_assert_leq(u->ncolumns, 32);
    for (int i = 0; i < u->ncolumns; i++)
        defs[i] = (StoreColumnDef){.name = u->columns[i].name, .type = u->columns[i].type};
    store_view_create(u->schema_name, u->table_name, u->ncolumns, defs, u->view_sql);
}

Test(planner4, views_and_explain_analyze)
{
    Plan *p = expect_plan("CREATE VIEW v4 (k) AS SELECT a FROM t WHERE a > 1");
    cr_expect_eq(p->utility->ddl3_op, 'c');
    cr_expect_str_eq(p->utility->view_sql, "SELECT a FROM t WHERE a > 1");
    expect_error("SELECT k FROM v4", "42P01", "relation \"v4\" does not exist", 15);   /* not yet executed */
    run_view(p);
    p = expect_plan("SELECT k FROM v4");
    cr_expect_str_eq(p->cols[0].name, "k");
    expect_error("CREATE VIEW v4 AS SELECT 1", "42P07", "relation \"v4\" already exists", -1);
    p = expect_plan("EXPLAIN ANALYZE SELECT k FROM v4 ORDER BY k LIMIT 1");
    cr_assert_eq(p->utility->kind, UTIL_EXPLAIN_ANALYZE);
    const Plan *inner = p->utility->explain_plan;
    cr_assert_not_null(inner);
    cr_expect_gt(inner->nnodes, 2);
    PlanNodeStats stats[32];
    memset(stats, 0, sizeof stats);
    stats[0].rows = 1;
    stats[0].loops = 1;
    List *lines = p->utility->explain_format(inner, stats, 1.5, arena);
    cr_assert_gt(list_len(lines), 1);
    cr_expect(strstr(list_nth(lines, 0), "Limit  (actual rows=1 loops=1") != NULL, "%s",
              (const char *)list_nth(lines, 0));
    cr_expect_str_eq(list_nth(lines, list_len(lines) - 1), "Execution Time: 1.500 ms");
    run_view(expect_plan("DROP VIEW v4"));
    expect_error("SELECT * FROM v4", "42P01", "relation \"v4\" does not exist", 15);
}

/* PREPARE / EXECUTE / DEALLOCATE with a session slot, as the protocol
 * layer would pass it. */
static void *session_slot;

static Plan *plan_in_session(const char *sql, ErrorData *err)
{
    ErrJmp jmp;
    Plan *volatile p = NULL;
    if (ERR_TRY(jmp)) {
        List *stmts = parse_sql(arena, sql);
        PlanContext ctx = {.arena = arena, .query_text = sql, .guc = guc, .session_state = &session_slot};
        p = plan_statement(&ctx, list_nth(stmts, 0));
        err_pop(&jmp);
    } else {
        *err = *err_current();
    }
    return p;
}

Test(planner4, prepared_statements)
{
    ErrorData e;
    memset(&e, 0, sizeof e);
    Plan *p = plan_in_session("PREPARE q (int) AS SELECT a, b FROM t WHERE a > $1", &e);
    cr_assert_not_null(p, "%s", e.message);
    cr_expect_str_eq(p->command, "PREPARE");
    cr_expect_null(plan_in_session("PREPARE q AS SELECT 1", &e));
    cr_expect_str_eq(e.sqlstate, "42P05");
    p = plan_in_session("EXECUTE q (5)", &e);
    cr_assert_not_null(p, "%s", e.message);
    cr_expect_eq(p->kind, PLAN_STMT_QUERY);
    cr_expect_eq(p->nparams, 0, "the argument's value replaces $1");
    cr_expect_eq(p->ncols, 2);
    cr_expect_null(plan_in_session("EXECUTE q", &e));
    cr_expect_str_eq(e.sqlstate, "42601");
    cr_expect_str_eq(e.message, "wrong number of parameters for prepared statement \"q\"");
    cr_expect_null(plan_in_session("EXECUTE q ('x')", &e));
    cr_expect_str_eq(e.sqlstate, "22P02");
    p = plan_in_session("DEALLOCATE q", &e);
    cr_assert_not_null(p, "%s", e.message);
    cr_expect_null(plan_in_session("EXECUTE q (1)", &e));
    cr_expect_str_eq(e.sqlstate, "26000");
    cr_expect_null(plan_in_session("DEALLOCATE q", &e));
    cr_expect_str_eq(e.sqlstate, "26000");
    cr_assert_not_null(plan_in_session("PREPARE r AS SELECT count(*) FROM u", &e));
    cr_assert_not_null(plan_in_session("DEALLOCATE ALL", &e));
    plan_session_release(&session_slot);
    cr_expect_null(session_slot);
    expect_error("PREPARE z AS SELECT 1", "0A000", "PREPARE is not supported in this context", -1);
}
