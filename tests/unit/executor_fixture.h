/*
 * executor_fixture.h — the shared fixture of the executor unit tests: a
 * fresh data directory, arena, settings and executor session per test, and
 * small builders of typed expressions, plan nodes and results. Included by test_executor.c and
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

static PlanNode *node(PlanKind k, int ncols, const SqlType *types, PlanNode *left)
{
    PlanNode *n = MEM_NEW(A, PlanNode);
    n->kind = k;
    n->ncols = ncols;
    n->col_types = MEM_NEW_ARRAY(A, SqlType, ncols > 0 ? ncols : 1);
    if (ncols)
        memcpy(n->col_types, types, sizeof(SqlType) * (size_t)ncols);
    n->left = left;
    return n;
}

/* VALUES from text cells, row-major; "∅" = NULL. */
static PlanNode *values(int ncols, const SqlType *types, int nrows, const char *const *cells)
{
    PlanNode *n = node(PLAN_VALUES, ncols, types, NULL);
    n->nrows = nrows;
    n->rows = MEM_NEW_ARRAY(A, Expr **, nrows);
    for (int r = 0; r < nrows; r++) {
        n->rows[r] = MEM_NEW_ARRAY(A, Expr *, ncols);
        for (int c = 0; c < ncols; c++) {
            const char *s = cells[r * ncols + c];
            Expr *e = ex(EXPR_CONST, types[c], 0, NULL);
            if (strcmp(s, "∅") == 0)
                e->value.is_null = true;
            else
                type_input(types[c], s, strlen(s), A, &e->value);
            n->rows[r][c] = e;
        }
    }
    return n;
}

static Plan *query(PlanNode *root)
{
    Plan *p = MEM_NEW(A, Plan);
    p->kind = PLAN_STMT_QUERY;
    p->command = "SELECT";
    p->root = root;
    p->ncols = root->ncols;
    return p;
}

typedef struct Out {
    StrBuf sb;
    int batches;
} Out;

static void collect(void *ctx, const Batch *b)
{
    Out *o = ctx;
    OutputOptions opt = OUTPUT_OPTIONS_DEFAULT;
    o->batches++;
    for (uint32_t i = 0; i < b->count; i++) {
        uint32_t row = batch_row(b, i);
        for (int c = 0; c < b->ncols; c++) {
            if (c)
                strbuf_append_char(&o->sb, '|');
            Value v;
            vec_get_value(&b->cols[c], row, &v);
            if (v.is_null)
                strbuf_append_str(&o->sb, "∅");
            else
                type_output(b->cols[c].type, &v, &opt, &o->sb);
        }
        strbuf_append_char(&o->sb, '\n');
    }
}

static char last_tag[64];

/* Run a plan to completion; rows as text. */
static const char *run(const Plan *p)
{
    Out o;
    strbuf_init(&o.sb);
    strbuf_append_str(&o.sb, "");
    ExecSink sink = {&o, collect};
    ErrJmp jmp;
    ExecPortal *volatile portal = NULL;
    if (ERR_TRY(jmp)) {
        portal = exec_portal_create(S, p, NULL, 0, A);
        while (!exec_portal_run(portal, 0, &sink)) {
        }
        err_pop(&jmp);
    } else {
        strbuf_free(&o.sb);
        err_rethrow();
    }
    exec_portal_command_tag(portal, last_tag, sizeof last_tag);
    exec_portal_close(portal);
    exec_session_sync(S);
    char *r = mem_strdup(A, o.sb.data ? o.sb.data : "");
    strbuf_free(&o.sb);
    return r;
}

static const char *run_node(PlanNode *root) { return run(query(root)); }

/* Expect an error with this SQLSTATE from stmt. */
#define EXPECT_ERROR(code_, stmt)                                                  \
    do {                                                                           \
        ErrJmp jmp_;                                                               \
        if (ERR_TRY(jmp_)) {                                                       \
            stmt;                                                                  \
            err_pop(&jmp_);                                                        \
            cr_assert_fail("no error from %s", #stmt);                             \
        } else {                                                                   \
            cr_assert_str_eq(err_current()->sqlstate, code_, "got %s: %s",         \
                             err_current()->sqlstate, err_current()->message);     \
        }                                                                          \
    } while (0)

#endif
