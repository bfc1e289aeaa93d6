/*
 * test_planner.c — unit tests of planner/: binding, type resolution,
 * plan shapes, EXPLAIN text and errors (SQLSTATE, message, position), with
 * the real parser, catalog and function registry. Expected texts and
 * positions were taken from PostgreSQL 15 (psql, \set VERBOSITY verbose).
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

#define PLANNER_FIXTURE_DIR "/tmp/strata_test_planner_XXXXXX"
#define PLANNER_FIXTURE_ARENA "test_planner"
#include "planner_fixture.h"

TestSuite(planner, .init = setup, .fini = teardown);

static void expect_explain(const char *sql, const char *const *lines)
{
    Plan *p = expect_plan(sql);
    cr_assert_eq(p->utility->kind, UTIL_EXPLAIN);
    List *got = p->utility->explain_lines;
    int n = 0;
    while (lines[n])
        n++;
    for (int i = 0; i < n && i < list_len(got); i++)
        cr_expect_str_eq((const char *)list_nth(got, i), lines[i], "%s: line %d", sql, i + 1);
    cr_expect_eq(list_len(got), n, "%s: %d lines, expected %d", sql, list_len(got), n);
}

/* ---- result columns and literal types ---- */

Test(planner, literal_types_and_names)
{
    Plan *p = expect_plan("SELECT 1, 3000000000, 1.5, 'a', NULL, true, 1::text, CAST(1 AS int), "
                          "'x'::varchar(3), count(*)");
    cr_assert_eq(p->ncols, 10);
    const char *names[] = {"?column?", "?column?", "?column?", "?column?", "?column?",
                           "bool", "text", "int4", "varchar", "count"};
    uint32_t types[] = {TYPE_INT4, TYPE_INT8, TYPE_NUMERIC, TYPE_TEXT, TYPE_TEXT,
                        TYPE_BOOL, TYPE_TEXT, TYPE_INT4, TYPE_VARCHAR, TYPE_INT8};
    for (int i = 0; i < 10; i++) {
        cr_expect_str_eq(p->cols[i].name, names[i], "column %d", i + 1);
        cr_expect_eq(p->cols[i].type.oid, types[i], "column %d", i + 1);
    }
    cr_expect_eq(p->cols[8].type.typmod, 3 + 4);
}

Test(planner, table_columns_carry_origin)
{
    Plan *p = expect_plan("SELECT b, a + 1 AS x, t.* FROM t");
    cr_assert_eq(p->ncols, 6);
    cr_expect_str_eq(p->cols[0].name, "b");
    cr_expect_eq(p->cols[0].attnum, 2);
    cr_expect_neq(p->cols[0].table_oid, 0);
    cr_expect_str_eq(p->cols[1].name, "x");
    cr_expect_eq(p->cols[1].table_oid, 0);
    cr_expect_eq(p->cols[4].type.oid, TYPE_NUMERIC);
    cr_expect_eq(p->cols[4].type.typmod, ((10 << 16) | 2) + 4);
}

Test(planner, aggregate_result_types)
{
    Plan *p = expect_plan("SELECT sum(a), sum(c), avg(a), min(b), max(d), count(DISTINCT a) FROM t");
    uint32_t types[] = {TYPE_INT8, TYPE_NUMERIC, TYPE_NUMERIC, TYPE_TEXT, TYPE_DATE, TYPE_INT8};
    for (int i = 0; i < 6; i++)
        cr_expect_eq(p->cols[i].type.oid, types[i], "column %d", i + 1);
    cr_expect_eq(p->root->kind, PLAN_PROJECT);
    cr_expect_eq(p->root->left->kind, PLAN_AGG);
    cr_expect_eq(p->root->left->ngroups, 0);
}

Test(planner, type_resolution)
{
    Plan *p = expect_plan("SELECT 1 + 2::bigint, 1 = 1.5, 'a' || 'b', 2::int2 + 3, "
                          "CASE WHEN true THEN 1 ELSE 2.5 END, coalesce(NULL, 2)");
    uint32_t types[] = {TYPE_INT8, TYPE_BOOL, TYPE_TEXT, TYPE_INT4, TYPE_NUMERIC, TYPE_INT4};
    for (int i = 0; i < 6; i++)
        cr_expect_eq(p->cols[i].type.oid, types[i], "column %d", i + 1);
    cr_expect_str_eq(p->cols[4].name, "case");
    cr_expect_str_eq(p->cols[5].name, "coalesce");
}

Test(planner, constants_are_folded)
{
    Plan *p = expect_plan("SELECT 1 + 2 * 3, 'abc'::varchar(2)");
    cr_assert_eq(p->root->kind, PLAN_VALUES);
    Expr *e = p->root->rows[0][0];
    cr_assert_eq(e->kind, EXPR_CONST);
    cr_expect_eq(e->value.u.i32, 7);
    Expr *s = p->root->rows[0][1];
    cr_assert_eq(s->kind, EXPR_CONST);
    cr_expect_eq(s->value.u.str.len, 2);   /* explicit cast truncates */
}

Test(planner, unknown_literal_takes_column_type)
{
    Plan *p = expect_plan("SELECT a FROM t WHERE d > '2024-01-01'");
    PlanNode *scan = p->root->left;
    cr_assert_eq(scan->kind, PLAN_SCAN);
    cr_assert_not_null(scan->scan_filter);
    Expr *cmp = scan->scan_filter;
    cr_assert_eq(cmp->kind, EXPR_FUNC);
    cr_expect_eq(cmp->args[1]->kind, EXPR_CONST);
    cr_expect_eq(cmp->args[1]->type.oid, TYPE_DATE);
}

Test(planner, parameters_inferred)
{
    Plan *p = plan_one("SELECT a FROM t WHERE a = $1 AND b = $2", NULL, 0);
    cr_assert_eq(p->nparams, 2);
    cr_expect_eq(p->param_types[0].oid, TYPE_INT4);
    cr_expect_eq(p->param_types[1].oid, TYPE_TEXT);
    p = plan_one("SELECT $1", NULL, 0);
    cr_expect_eq(p->param_types[0].oid, TYPE_TEXT);
    uint32_t given[] = {TYPE_INT8};
    p = plan_one("SELECT $1 + 1", given, 1);
    cr_expect_eq(p->cols[0].type.oid, TYPE_INT8);
    p = plan_one("INSERT INTO u VALUES ($1, $2, $3)", NULL, 0);
    cr_expect_eq(p->param_types[2].oid, TYPE_VARCHAR);
    expect_error("SELECT $2::int", "42P18", "could not determine data type of parameter $1", 0);
}

Test(planner, simple_query_has_no_parameters)
{
    List *stmts = parse_sql(arena, "SELECT 1 + $1");
    PlanContext ctx = {.arena = arena, .query_text = "SELECT 1 + $1", .guc = guc};
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        plan_statement_fixed_params(&ctx, list_nth(stmts, 0));
        err_pop(&jmp);
        cr_assert_fail("$1 accepted without parameters");
    } else {
        cr_expect_str_eq(err_current()->sqlstate, "42P02");
        cr_expect_str_eq(err_current()->message, "there is no parameter $1");
        cr_expect_eq(err_current()->position, 12);
    }
}

Test(planner, special_forms)
{
    Plan *p = expect_plan("SELECT coalesce(NULL, 2, 3.5), nullif(1, 2), greatest(1, NULL, 3), least('b', 'a'), "
                          "'a%' LIKE 'a#%' ESCAPE '#'");
    cr_assert_eq(p->root->kind, PLAN_VALUES);
    Expr **row = p->root->rows[0];
    cr_expect_eq(row[0]->type.oid, TYPE_NUMERIC);
    cr_assert_eq(row[1]->kind, EXPR_CONST);
    cr_expect_eq(row[1]->value.u.i32, 1);
    cr_assert_eq(row[2]->kind, EXPR_CONST);
    cr_expect_eq(row[2]->value.u.i32, 3);
    cr_assert_eq(row[3]->kind, EXPR_CONST);
    cr_expect_eq(row[3]->value.u.str.ptr[0], 'a');
    cr_assert_eq(row[4]->kind, EXPR_CONST);
    cr_expect(row[4]->value.u.b);
    cr_expect_str_eq(p->cols[0].name, "coalesce");
    cr_expect_str_eq(p->cols[2].name, "greatest");
}

Test(planner, default_checked_but_not_evaluated)
{
    /* PostgreSQL evaluates a DEFAULT at INSERT: 100000 into smallint fails then, not at CREATE */
    Plan *p = expect_plan("CREATE TABLE w (a smallint DEFAULT 100000)");
    cr_expect_str_eq(p->utility->columns[0].default_text, "100000");
    expect_error("CREATE TABLE w (a int DEFAULT true)", "42804",
                 "column \"a\" is of type integer but default expression is of type boolean", 0);
}

/* ---- plan shapes ---- */

Test(planner, scan_reads_only_referenced_columns)
{
    Plan *p = expect_plan("SELECT d FROM t WHERE a > 1");
    PlanNode *scan = p->root->left;
    cr_assert_eq(scan->kind, PLAN_SCAN);
    cr_assert_eq(scan->ncols, 2);
    cr_expect_eq(scan->scan_cols[0], 0);
    cr_expect_eq(scan->scan_cols[1], 3);
    p = expect_plan("SELECT count(*) FROM t");
    cr_expect_eq(p->root->left->left->ncols, 1);
}

Test(planner, join_shapes)
{
    Plan *p = expect_plan("SELECT t.a, u.name FROM t JOIN u ON t.a = u.id WHERE u.a < 5 AND t.b <> u.name");
    PlanNode *j = p->root->left;
    cr_assert_eq(j->kind, PLAN_HASH_JOIN);
    cr_expect_eq(j->nkeys, 1);
    cr_expect_not_null(j->join_filter);
    cr_expect_null(j->left->scan_filter);
    cr_expect_not_null(j->right->scan_filter);
    p = expect_plan("SELECT 1 FROM t, u WHERE t.a < u.a");
    cr_expect_eq(p->root->left->kind, PLAN_NESTED_LOOP);
    p = expect_plan("SELECT 1 FROM t CROSS JOIN u");
    cr_expect_eq(p->root->left->kind, PLAN_NESTED_LOOP);
    cr_expect_null(p->root->left->join_filter);
}

Test(planner, select_pipeline_order)
{
    Plan *p = expect_plan("SELECT DISTINCT a FROM t ORDER BY a DESC LIMIT 3 OFFSET 1");
    PlanNode *n = p->root;
    cr_assert_eq(n->kind, PLAN_LIMIT);
    cr_assert_eq(n->left->kind, PLAN_SORT);
    cr_expect(n->left->sort_keys[0].descending);
    cr_expect(n->left->sort_keys[0].nulls_first);
    cr_assert_eq(n->left->left->kind, PLAN_DISTINCT);
    cr_assert_eq(n->left->left->left->kind, PLAN_PROJECT);
    /* hidden ORDER BY column projected away at the top */
    p = expect_plan("SELECT a FROM t ORDER BY b");
    cr_assert_eq(p->root->kind, PLAN_PROJECT);
    cr_expect_eq(p->root->ncols, 1);
    cr_expect_eq(p->root->left->kind, PLAN_SORT);
    cr_expect_eq(p->root->left->ncols, 2);
}

Test(planner, group_by_forms)
{
    Plan *p = expect_plan("SELECT a AS x, count(*) FROM t GROUP BY x HAVING count(*) > 1 ORDER BY 2");
    PlanNode *agg = p->root->left->left->left;
    cr_assert_eq(p->root->left->kind, PLAN_PROJECT);
    cr_assert_eq(p->root->left->left->kind, PLAN_FILTER);
    cr_assert_eq(agg->kind, PLAN_AGG);
    cr_expect_eq(agg->ngroups, 1);
    cr_expect_eq(agg->naggs, 1);
    expect_plan("SELECT a + 1 FROM t GROUP BY a + 1");
    expect_plan("SELECT a FROM t GROUP BY 1");
}

Test(planner, explain_text)
{
    expect_explain("EXPLAIN SELECT t.a, u.name FROM t JOIN u ON t.a = u.id WHERE t.a > 1 "
                   "ORDER BY t.a DESC LIMIT 10",
                   (const char *[]){"Limit", "  ->  Sort", "        Sort Key: t.a DESC",
                                    "        ->  Hash Join", "              Hash Cond: (t.a = u.id)",
                                    "              ->  Seq Scan on t", "                    Filter: (a > 1)",
                                    "              ->  Hash", "                    ->  Seq Scan on u", NULL});
}

Test(planner, explain_more)
{
    expect_explain("EXPLAIN SELECT a, count(*) FROM t GROUP BY a",
                   (const char *[]){"HashAggregate", "  Group Key: a", "  ->  Seq Scan on t", NULL});
    expect_explain("EXPLAIN SELECT count(*) FROM t HAVING count(*) > 0",
                   (const char *[]){"Aggregate", "  Filter: (count(*) > 0)", "  ->  Seq Scan on t", NULL});
    expect_explain("EXPLAIN SELECT a FROM t WHERE a IN (1,2) AND b LIKE 'x%'",
                   (const char *[]){"Seq Scan on t",
                                    "  Filter: ((a = ANY ('{1,2}'::integer[])) AND (b ~~ 'x%'::text))", NULL});
    expect_explain("EXPLAIN SELECT a FROM t ORDER BY a + 1 NULLS FIRST, b",
                   (const char *[]){"Sort", "  Sort Key: ((a + 1)) NULLS FIRST, b", "  ->  Seq Scan on t", NULL});
    expect_explain("EXPLAIN SELECT 1 WHERE false",
                   (const char *[]){"Result", "  One-Time Filter: false", NULL});
}

/* ---- INSERT ---- */

Test(planner, insert_rows_in_table_order)
{
    Plan *p = expect_plan("INSERT INTO u (a, id) VALUES (1.5, 7)");
    cr_assert_eq(p->kind, PLAN_STMT_INSERT);
    cr_expect_str_eq(p->command, "INSERT");
    PlanNode *v = p->root->left;
    cr_assert_eq(v->kind, PLAN_VALUES);
    cr_assert_eq(v->ncols, 3);
    cr_expect_eq(v->rows[0][0]->value.u.i32, 7);
    cr_expect_eq(v->rows[0][1]->value.u.i32, 2);  /* numeric 1.5 rounds on assignment */
    cr_expect_eq(v->rows[0][2]->type.oid, TYPE_VARCHAR);  /* DEFAULT 'x' */
    cr_expect_eq(v->rows[0][2]->value.u.str.len, 1);
    p = expect_plan("INSERT INTO u SELECT a, a FROM t");
    cr_expect_eq(p->root->left->kind, PLAN_PROJECT);
    cr_expect_eq(p->root->left->ncols, 3);
}

Test(planner, insert_errors)
{
    expect_error("INSERT INTO t VALUES (1, 'x', 1.5, '2024-01-01', 5)", "42601",
                 "INSERT has more expressions than target columns", 50);
    expect_error("INSERT INTO u (id, a, name) VALUES (1, 2)", "42601",
                 "INSERT has more target columns than expressions", 23);
    expect_error("INSERT INTO u (id, a) VALUES ('1'::text, 2)", "42804",
                 "column \"id\" is of type integer but expression is of type text", 31);
    expect_error("INSERT INTO u (id, nope) VALUES (1, 2)", "42703",
                 "column \"nope\" of relation \"u\" does not exist", 20);
    expect_error("INSERT INTO u (id, id) VALUES (1, 2)", "42701", "column \"id\" specified more than once", 20);
}

/* ---- errors as PostgreSQL reports them ---- */

Test(planner, name_errors)
{
    expect_error("SELECT x FROM t", "42703", "column \"x\" does not exist", 8);
    expect_error("SELECT t.x FROM t", "42703", "column t.x does not exist", 8);
    expect_error("SELECT a FROM t, u", "42702", "column reference \"a\" is ambiguous", 8);
    expect_error("SELECT * FROM nope", "42P01", "relation \"nope\" does not exist", 15);
    expect_error("SELECT a FROM nope.t", "42P01", "relation \"nope.t\" does not exist", 15);
    expect_error("SELECT * FROM t, t", "42712", "table name \"t\" specified more than once", 0);
    expect_error("SELECT x.a FROM t", "42P01", "missing FROM-clause entry for table \"x\"", 8);
    expect_error("SELECT * FROM t, u JOIN t t3 ON t.a = t3.a", "42P01",
                 "invalid reference to FROM-clause entry for table \"t\"", 33);
    expect_error("SELECT *", "42601", "SELECT * with no tables specified is not valid", 8);
}

Test(planner, type_errors)
{
    expect_error("SELECT a + b FROM t", "42883", "operator does not exist: integer + text", 10);
    expect_error("SELECT 1 + true", "42883", "operator does not exist: integer + boolean", 10);
    expect_error("SELECT foo(1)", "42883", "function foo(integer) does not exist", 8);
    expect_error("SELECT '1' + '2'", "42725", "operator is not unique: unknown + unknown", 12);
    expect_error("SELECT * FROM t WHERE a", "42804", "argument of WHERE must be type boolean, not type integer", 23);
    expect_error("SELECT CASE WHEN true THEN 1 ELSE 'a'::text END", "42804",
                 "CASE types text and integer cannot be matched", 28);
    expect_error("SELECT 'x'::int", "22P02", "invalid input syntax for type integer: \"x\"", 8);
    expect_error("SELECT CAST('x' AS foo)", "42704", "type \"foo\" does not exist", 20);
    expect_error("SELECT sum(b) FROM t", "42883", "function sum(text) does not exist", 8);
}

Test(planner, grouping_errors)
{
    expect_error("SELECT b FROM t GROUP BY a", "42803",
                 "column \"t.b\" must appear in the GROUP BY clause or be used in an aggregate function", 8);
    expect_error("SELECT * FROM t WHERE count(*) > 1", "42803", "aggregate functions are not allowed in WHERE", 23);
    expect_error("SELECT sum(count(*)) FROM t", "42803", "aggregate function calls cannot be nested", 12);
    expect_error("SELECT count(*) FROM t GROUP BY 5", "42P10", "GROUP BY position 5 is not in select list", 33);
    expect_error("SELECT DISTINCT a FROM t ORDER BY b", "42P10",
                 "for SELECT DISTINCT, ORDER BY expressions must appear in select list", 35);
    expect_error("SELECT a FROM t LIMIT a", "42P10", "argument of LIMIT must not contain variables", 23);
    expect_error("SELECT a FROM t LIMIT -1", "2201W", "LIMIT must not be negative", 0);
}

/* ---- utility statements ---- */

Test(planner, create_table)
{
    Plan *p = expect_plan("CREATE TABLE w (a varchar(5) NOT NULL, b numeric(4,1) DEFAULT 1, c int, PRIMARY KEY (c))");
    UtilityStmt *u = p->utility;
    cr_expect_str_eq(p->command, "CREATE TABLE");
    cr_assert_eq(u->ncolumns, 3);
    cr_expect_eq(u->columns[0].type.typmod, 9);
    cr_expect(u->columns[0].not_null);
    cr_expect_eq(u->columns[1].type.typmod, ((4 << 16) | 1) + 4);
    cr_expect_str_eq(u->columns[1].default_text, "1");
    cr_expect_eq(u->npkey, 1);
    cr_expect_eq(u->pkey_columns[0], 2);
    cr_expect(u->columns[2].not_null);
    expect_error("CREATE TABLE w (a int, a text)", "42701", "column \"a\" specified more than once", 0);
    expect_error("CREATE TABLE w (a int PRIMARY KEY, b int, PRIMARY KEY (b))", "42P16",
                 "multiple primary keys for table \"w\" are not allowed", 43);
    expect_error("CREATE TABLE w (a foo)", "42704", "type \"foo\" does not exist", 19);
    expect_error("CREATE TABLE w (a varchar(0))", "22023", "length for type varchar must be at least 1", 19);
    expect_error("CREATE TABLE w (a int DEFAULT 'x')", "22P02", "invalid input syntax for type integer: \"x\"", 31);
}

Test(planner, session_statements)
{
    Plan *p = expect_plan("SET search_path TO \"$user\", public");
    cr_expect_eq(p->utility->kind, UTIL_SET);
    cr_expect_str_eq(p->utility->value, "\"$user\", public");
    p = expect_plan("SHOW timezone");
    cr_expect_str_eq(p->command, "SHOW");
    cr_assert_eq(p->ncols, 1);
    cr_expect_str_eq(p->cols[0].name, "TimeZone");
    p = expect_plan("SHOW ALL");
    cr_expect_eq(p->ncols, 3);
    cr_expect_str_eq(expect_plan("START TRANSACTION")->command, "START TRANSACTION");
    cr_expect_str_eq(expect_plan("BEGIN")->command, "BEGIN");
    cr_expect_str_eq(expect_plan("END")->command, "COMMIT");
    cr_expect_str_eq(expect_plan("RESET ALL")->command, "RESET");
    p = expect_plan("DROP TABLE IF EXISTS zz, t");
    cr_assert_eq(list_len(p->utility->drop_tables), 2);
    cr_expect_str_eq((const char *)list_nth(p->utility->drop_tables, 1), "public.t");
    expect_error("DROP TABLE zz", "42P01", "table \"zz\" does not exist", 0);
    p = expect_plan("ALTER ROLE postgres PASSWORD 'pw'");
    cr_expect_eq(p->utility->kind, UTIL_ALTER_ROLE);
    cr_expect_str_eq(p->utility->password, "pw");
}
