/*
 * planner_fixture.h — the shared fixture of the planner unit tests: a fresh
 * data directory and catalog per test, and helpers that parse and plan SQL
 * and check errors. Included by test_planner.c and test_planner_issue4.c
 * (one executable each), which define PLANNER_FIXTURE_DIR (the mkdtemp
 * template) and PLANNER_FIXTURE_ARENA (the arena's name) first and then
 * declare their TestSuite with .init = setup, .fini = teardown.
 */
#ifndef STRATA_TESTS_PLANNER_FIXTURE_H
#define STRATA_TESTS_PLANNER_FIXTURE_H

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

static MemArena *arena;
static GucSet *guc;
static char datadir[] = PLANNER_FIXTURE_DIR;

static Plan *plan_one(const char *sql, const uint32_t *ptypes, int nparams)
{
    List *stmts = parse_sql(arena, sql);
    cr_assert_eq(list_len(stmts), 1, "one statement: %s", sql);
    PlanContext ctx = {.arena = arena, .query_text = sql, .guc = guc, .param_types = ptypes, .nparams = nparams};
    return plan_statement(&ctx, list_nth(stmts, 0));
}

/* Plan sql; on error return its ErrorData copy in *err and NULL. */
static Plan *try_plan(const char *sql, ErrorData *err)
{
    ErrJmp jmp;
    Plan *volatile p = NULL;
    if (ERR_TRY(jmp)) {
        p = plan_one(sql, NULL, 0);
        err_pop(&jmp);
    } else {
        *err = *err_current();
    }
    return p;
}

static void expect_error(const char *sql, const char *sqlstate, const char *message, int position)
{
    ErrorData e;
    memset(&e, 0, sizeof e);
    Plan *p = try_plan(sql, &e);
    cr_assert_null(p, "expected an error for: %s", sql);
    cr_expect_str_eq(e.sqlstate, sqlstate, "%s: sqlstate %s (%s)", sql, e.sqlstate, e.message);
    cr_expect_str_eq(e.message, message, "%s", sql);
    if (position >= 0) /* -1: our own error, position is the parser's node location */
        cr_expect_eq(e.position, position, "%s: position %d, expected %d", sql, e.position, position);
}

static Plan *expect_plan(const char *sql)
{
    ErrorData e;
    memset(&e, 0, sizeof e);
    Plan *p = try_plan(sql, &e);
    cr_assert_not_null(p, "%s: unexpected error %s %s", sql, e.sqlstate, e.message);
    return p;
}

/* Create a table straight through the catalog (as the executor would). */
static void create(const char *sql)
{
    Plan *p = expect_plan(sql);
    UtilityStmt *u = p->utility;
    cr_assert_eq(u->kind, UTIL_CREATE_TABLE);
    StoreColumnDef defs[32];
    for (int i = 0; i < u->ncolumns; i++) {
        defs[i].name = u->columns[i].name;
        defs[i].type = u->columns[i].type;
        defs[i].not_null = u->columns[i].not_null;
        defs[i].default_text = u->columns[i].default_text;
    }
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        store_table_create(u->schema_name, u->table_name, u->ncolumns, defs, u->npkey, u->pkey_columns);
        err_pop(&jmp);
    } else {
        cr_assert_fail("store_table_create: %s", err_current()->message);
    }
}

static void setup(void)
{
    ErrJmp jmp;
    if (!ERR_TRY(jmp))
        cr_assert_fail("setup: %s", err_current()->message);
    cr_assert_not_null(mkdtemp(datadir));
    store_open(datadir);
    guc = guc_session_create();
    arena = mem_arena_create(PLANNER_FIXTURE_ARENA);
    err_pop(&jmp);
    create("CREATE TABLE t (a int, b text, c numeric(10,2), d date)");
    create("CREATE TABLE u (id int PRIMARY KEY, a int NOT NULL, name varchar(20) DEFAULT 'x')");
}

static void teardown(void)
{
    mem_arena_destroy(arena);
    guc_session_destroy(guc);
    store_close();
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", datadir);
    cr_expect_eq(system(cmd), 0);
}


#endif
