/*
 * fold.c — constant folding: an immutable function, cast, CASE or IN over
 * constants becomes a constant at plan time (PostgreSQL's
 * eval_const_expressions, simplified), evaluated by the executor's own
 * kernels through exec_eval_scalar so plan-time and run-time results can
 * never differ. AND/OR/NOT and IS [NOT] NULL over constants are simplified
 * here (true AND x → x, false AND x → false ...).
 *
 * Errors raised while folding (1/0, 'x'::int) surface at plan time, as
 * they do in PostgreSQL. Stable and volatile functions are never folded.
 */
#define STRATA_PLANNER_INTERNAL
#include "planner/planner_int.h"

#include "executor/executor.h"

static bool is_const(const Expr *e) { return e->kind == EXPR_CONST; }

static bool all_const(const Expr *e)
{
    for (int i = 0; i < e->nargs; i++)
        if (!is_const(e->args[i]))
            return false;
    return true;
}

static Expr *eval(Binder *b, Expr *e)
{
    Value v;
    exec_eval_scalar(e, NULL, 0, b->arena, &v);
    Expr *c = plan__make_const(b->arena, e->type, v, e->location);
    return c;
}

static bool const_bool(const Expr *e, bool *isnull)
{
    *isnull = e->value.is_null;
    return !e->value.is_null && e->value.u.b;
}

/* AND (want = false) / OR (want = true): drop neutral constants, short-circuit. */
static Expr *fold_bool_op(Binder *b, Expr *e, bool want)
{
    int kept = 0;
    bool saw_null = false;
    for (int i = 0; i < e->nargs; i++) {
        Expr *a = e->args[i];
        if (is_const(a)) {
            bool isnull;
            bool v = const_bool(a, &isnull);
            if (!isnull && v == want)
                return plan__make_bool(b->arena, want, e->location);
            if (isnull && !saw_null) {
                saw_null = true;
                e->args[kept++] = a;
            }
            continue;
        }
        e->args[kept++] = a;
    }
    if (kept == 0)
        return plan__make_bool(b->arena, !want, e->location);
    e->nargs = kept;
    if (kept == 1 && !saw_null)
        return e->args[0];
    return e;
}

Expr *plan__fold(Binder *b, Expr *e)
{
    if (b->no_fold)
        return e;
    switch (e->kind) {
    case EXPR_FUNC:
        if (e->func->flags & (FUNC_VOLATILE | FUNC_STABLE))
            return e;
        return all_const(e) ? eval(b, e) : e;
    case EXPR_CAST:
    case EXPR_NOT:
    case EXPR_CASE:
    case EXPR_IN_LIST:
        return all_const(e) ? eval(b, e) : e;
    case EXPR_AND:
        return fold_bool_op(b, e, false);
    case EXPR_OR:
        return fold_bool_op(b, e, true);
    case EXPR_IS_NULL:
    case EXPR_IS_NOT_NULL:
        if (!is_const(e->args[0]))
            return e;
        return plan__make_bool(b->arena, e->args[0]->value.is_null == (e->kind == EXPR_IS_NULL),
                               e->location);
    default:
        return e;
    }
}
