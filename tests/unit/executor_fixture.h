/*
 * executor_fixture.h — the shared fixture of the executor unit tests: a
 * fresh data directory, arena, settings and executor session per test, and
 * small builders of typed expressions. Included by test_executor.c and
 * test_executor_ops.c (one executable each), which define EXEC_FIXTURE_DIR
 * (the mkdtemp template) first and then declare their TestSuite with
 * .init = setup, .fini = teardown.
 */
#ifndef STRATA_TESTS_EXECUTOR_FIXTURE_H
#define STRATA_TESTS_EXECUTOR_FIXTURE_H

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

static char dir[256];
static MemArena *A;
static ExecSession *S;
static GucSet *G;

static void setup(void)
{
    snprintf(dir, sizeof dir, EXEC_FIXTURE_DIR);
    cr_assert_not_null(mkdtemp(dir));
    store_open(dir);
    A = mem_arena_create("test");
    G = guc_session_create();
    S = exec_session_create("postgres", "postgres", G);
}

static void teardown(void)
{
    exec_session_destroy(S);
    guc_session_destroy(G);
    mem_arena_destroy(A);
    store_close();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
}


/* ---------- expression builders ---------- */

static const SqlType T_BOOL = {TYPE_BOOL, -1}, T_I4 = {TYPE_INT4, -1}, T_I8 = {TYPE_INT8, -1},
                     T_TEXT = {TYPE_TEXT, -1}, T_NUM = {TYPE_NUMERIC, -1}, T_F8 = {TYPE_FLOAT8, -1};

static Expr *ex(ExprKind k, SqlType t, int nargs, Expr **args)
{
    Expr *e = MEM_NEW(A, Expr);
    e->kind = k;
    e->type = t;
    e->location = -1;
    e->nargs = nargs;
    if (nargs) {
        e->args = MEM_NEW_ARRAY(A, Expr *, nargs);
        memcpy(e->args, args, sizeof(Expr *) * (size_t)nargs);
    }
    return e;
}

static Expr *col(int i, SqlType t)
{
    Expr *e = ex(EXPR_COLUMN, t, 0, NULL);
    e->index = i;
    return e;
}

static Expr *null_of(SqlType t)
{
    Expr *e = ex(EXPR_CONST, t, 0, NULL);
    e->value.is_null = true;
    return e;
}

static Expr *i4(int32_t v)
{
    Expr *e = ex(EXPR_CONST, T_I4, 0, NULL);
    e->value.u.i32 = v;
    return e;
}

static Expr *i8(int64_t v)
{
    Expr *e = ex(EXPR_CONST, T_I8, 0, NULL);
    e->value.u.i64 = v;
    return e;
}

static Expr *bl(int v) /* 0, 1, or -1 = NULL */
{
    if (v < 0)
        return null_of(T_BOOL);
    Expr *e = ex(EXPR_CONST, T_BOOL, 0, NULL);
    e->value.u.b = v != 0;
    return e;
}

static Expr *txt(const char *s)
{
    Expr *e = ex(EXPR_CONST, T_TEXT, 0, NULL);
    e->value.u.str = (StrRef){s, (uint32_t)strlen(s)};
    return e;
}

static const FuncDesc *func(const char *name, uint32_t t1, uint32_t t2)
{
    FuncCandidates c;
    exec_func_candidates(name, t2 ? 2 : 1, &c);
    for (int i = 0; i < c.count; i++)
        if (c.items[i]->argtypes[0] == t1 && (t2 == 0 || c.items[i]->argtypes[1] == t2))
            return c.items[i];
    cr_assert_fail("no function %s(%u,%u)", name, t1, t2);
    return NULL;
}

static Expr *op2(const char *name, Expr *a, Expr *b)
{
    const FuncDesc *f = func(name, a->type.oid, b->type.oid);
    Expr *args[2] = {a, b};
    Expr *e = ex(EXPR_FUNC, SQLTYPE(f->rettype), 2, args);
    e->func = f;
    e->name = name;
    return e;
}

static Expr *and2(Expr *a, Expr *b) { Expr *x[2] = {a, b}; return ex(EXPR_AND, T_BOOL, 2, x); }

#endif
