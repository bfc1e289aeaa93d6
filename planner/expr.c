/*
 * expr.c — building, comparing and walking bound expressions (plan.h Expr).
 *
 * Shared by the binder (which builds), the aggregate/ORDER BY matcher
 * (which compares) and plan building (which asks which tables an
 * expression reads).
 */
#define STRATA_PLANNER_INTERNAL
#include "planner/planner_int.h"

#include <string.h>

Expr *plan__make_expr(MemArena *a, ExprKind kind, SqlType type, int location, int nargs)
{
    Expr *e = MEM_NEW(a, Expr);
    e->kind = kind;
    e->type = type;
    e->location = location;
    e->nargs = nargs;
    e->args = nargs > 0 ? MEM_NEW_ARRAY(a, Expr *, nargs) : NULL;
    e->index = -1;
    return e;
}

Expr *plan__make_const(MemArena *a, SqlType type, Value v, int location)
{
    Expr *e = plan__make_expr(a, EXPR_CONST, type, location, 0);
    e->value = v;
    return e;
}

Expr *plan__make_bool(MemArena *a, bool v, int location)
{
    Value val = {.is_null = false};
    val.u.b = v;
    return plan__make_const(a, SQLTYPE(TYPE_BOOL), val, location);
}

static bool value_equal(SqlType t, const Value *x, const Value *y)
{
    if (x->is_null || y->is_null)
        return x->is_null == y->is_null;
    switch (type_phys(t)) {
    case PHYS_BOOL: return x->u.b == y->u.b;
    case PHYS_I16: return x->u.i16 == y->u.i16;
    case PHYS_I32: return x->u.i32 == y->u.i32;
    case PHYS_I64: return x->u.i64 == y->u.i64;
    case PHYS_F32: return memcmp(&x->u.f32, &y->u.f32, sizeof(float)) == 0;
    case PHYS_F64: return memcmp(&x->u.f64, &y->u.f64, sizeof(double)) == 0;
    case PHYS_STR:
        return x->u.str.len == y->u.str.len &&
               (x->u.str.len == 0 || memcmp(x->u.str.ptr, y->u.str.ptr, x->u.str.len) == 0);
    }
    return false;
}

/* Structural equality (GROUP BY / ORDER BY matching, as PostgreSQL's equal()). */
bool plan__expr_equal(const Expr *x, const Expr *y)
{
    if (x == y)
        return true;
    if (!x || !y)
        return false;
    if (x->kind != y->kind || x->type.oid != y->type.oid || x->type.typmod != y->type.typmod ||
        x->nargs != y->nargs || x->func != y->func || x->cast != y->cast ||
        x->has_else != y->has_else || x->negated != y->negated || x->subplan != y->subplan ||
        x->sublink != y->sublink)
        return false;
    if (x->kind == EXPR_SRF && x->index != y->index)
        return false;
    switch (x->kind) {
    case EXPR_CONST:
        return value_equal(x->type, &x->value, &y->value);
    case EXPR_COLUMN:
    case EXPR_PARAM:
    case EXPR_AGG_RESULT:
    case EXPR_OUTER_REF:
        return x->index == y->index;
    default:
        break;
    }
    for (int i = 0; i < x->nargs; i++)
        if (!plan__expr_equal(x->args[i], y->args[i]))
            return false;
    return true;
}

bool plan__expr_has_vars(const Expr *e)
{
    if (!e)
        return false;
    if (e->kind == EXPR_COLUMN || e->kind == EXPR_AGG_RESULT)
        return true;
    for (int i = 0; i < e->nargs; i++)
        if (plan__expr_has_vars(e->args[i]))
            return true;
    return false;
}

bool plan__expr_has_aggs(const Expr *e)
{
    if (!e)
        return false;
    if (e->kind == EXPR_AGG_RESULT)
        return true;
    for (int i = 0; i < e->nargs; i++)
        if (plan__expr_has_aggs(e->args[i]))
            return true;
    return false;
}

int plan__var_rte(const Binder *b, int var)
{
    for (int i = 0; i < b->nrtes; i++) {
        const RangeEntry *r = b->rtes[i];
        if (var >= r->var_base && var < r->var_base + r->ncols)
            return i;
    }
    ERR_ASSERT(!"variable id outside the range table");
    return -1;
}

uint64_t plan__expr_rtes(const Binder *b, const Expr *e)
{
    if (!e)
        return 0;
    uint64_t set = 0;
    if (e->kind == EXPR_COLUMN)
        set |= UINT64_C(1) << plan__var_rte(b, e->index);
    for (int i = 0; i < e->nargs; i++)
        set |= plan__expr_rtes(b, e->args[i]);
    return set;
}

Expr *plan__copy_expr(MemArena *a, const Expr *e)
{
    if (!e)
        return NULL;
    Expr *c = MEM_NEW(a, Expr);
    *c = *e;
    if (e->nargs > 0) {
        c->args = MEM_NEW_ARRAY(a, Expr *, e->nargs);
        for (int i = 0; i < e->nargs; i++)
            c->args[i] = plan__copy_expr(a, e->args[i]);
    }
    return c;
}
