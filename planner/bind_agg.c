/*
 * bind_agg.c — aggregate calls: count(*), count/sum/min/max/avg with
 * DISTINCT, resolved against the executor's aggregate table.
 *
 * An aggregate binds to an EXPR_AGG_RESULT whose index is its slot in
 * Binder.aggs (identical calls share a slot); plan_select.c places the
 * AggCalls in the PLAN_AGG node and rewrites the index to the node's output
 * column. Aggregates are refused where PostgreSQL refuses them (WHERE,
 * JOIN conditions, GROUP BY, LIMIT, VALUES, DEFAULT, nested).
 */
#define STRATA_PLANNER_INTERNAL
#include "planner/planner_int.h"

#include <stdio.h>
#include <string.h>

/* Types tried, in order, when no aggregate takes the argument's type as is. */
static const uint32_t agg_arg_types[] = {
    TYPE_INT8, TYPE_NUMERIC, TYPE_FLOAT8, TYPE_INT4, TYPE_INT2, TYPE_FLOAT4, TYPE_TEXT,
    TYPE_VARCHAR, TYPE_BPCHAR, TYPE_DATE, TYPE_TIMESTAMP, TYPE_BOOL,
};

static const AggDesc *resolve_agg(Binder *b, const char *name, Expr **arg, int loc)
{
    const AggDesc *d = exec_agg_lookup(name, (*arg)->type.oid);
    if (d)
        return d;
    for (size_t i = 0; i < sizeof agg_arg_types / sizeof agg_arg_types[0]; i++) {
        uint32_t t = agg_arg_types[i];
        if (t == (*arg)->type.oid || !plan__can_coerce((*arg)->type.oid, t, CAST_IMPLICIT))
            continue;
        d = exec_agg_lookup(name, t);
        if (d) {
            *arg = plan__coerce(b, *arg, SQLTYPE(t), CAST_IMPLICIT);
            return d;
        }
    }
    plan__error_hint(b, ERRCODE_UNDEFINED_FUNCTION, loc,
                     "No function matches the given name and argument types. You might need to add explicit type casts.",
                     "function %s(%s) does not exist", name, plan__type_name(b, SQLTYPE((*arg)->type.oid)));
}

static bool exprs_equal(Expr **x, Expr **y, int n)
{
    for (int i = 0; i < n; i++)
        if (!plan__expr_equal(x[i], y[i]))
            return false;
    return true;
}

static bool call_equal(const AggCall *o, const AggCall *c)
{
    if (o->agg != c->agg || o->distinct != c->distinct || !plan__expr_equal(o->arg, c->arg) ||
        o->nargs != c->nargs || !plan__expr_equal(o->filter, c->filter) || o->norder != c->norder ||
        !plan__expr_equal(o->direct_arg, c->direct_arg))
        return false;
    if (!exprs_equal(o->args, c->args, o->nargs) || !exprs_equal(o->order_exprs, c->order_exprs, o->norder))
        return false;
    for (int i = 0; i < o->norder; i++)
        if (o->order[i].descending != c->order[i].descending || o->order[i].nulls_first != c->order[i].nulls_first)
            return false;
    return true;
}

static int add_agg(Binder *b, const AggCall *call, int loc)
{
    for (int i = 0; i < b->naggs; i++)
        if (call_equal(&b->aggs[i].call, call))
            return i;
    if (b->naggs == b->agg_cap) {
        int cap = b->agg_cap ? 2 * b->agg_cap : 8;
        b->aggs = mem_realloc(b->arena, b->aggs, sizeof(BoundAgg) * (size_t)b->agg_cap,
                              sizeof(BoundAgg) * (size_t)cap);
        b->agg_cap = cap;
    }
    BoundAgg *ba = &b->aggs[b->naggs];
    memset(ba, 0, sizeof *ba);
    ba->call = *call;
    ba->location = loc;
    return b->naggs++;
}

static _Noreturn void no_agg(Binder *b, const char *name, Expr **args, int nargs, int loc)
{
    char sig[512] = "";
    size_t len = 0;
    for (int i = 0; i < nargs && len < sizeof sig - 1; i++)
        len += (size_t)snprintf(sig + len, sizeof sig - len, "%s%s", i ? ", " : "",
                                plan__type_name(b, SQLTYPE(args[i]->type.oid)));
    plan__error_hint(b, ERRCODE_UNDEFINED_FUNCTION, loc,
                     "No function matches the given name and argument types. You might need to add explicit type casts.",
                     "function %s(%s) does not exist", name, sig);
}

/* Two-argument aggregates: exact types, then implicit casts of either side. */
static const AggDesc *resolve_agg2(Binder *b, const char *name, Expr **args, int loc)
{
    size_t nt = sizeof agg_arg_types / sizeof agg_arg_types[0];
    for (size_t i = 0; i <= nt; i++) {
        uint32_t t0 = i == 0 ? args[0]->type.oid : agg_arg_types[i - 1];
        if (i > 0 && (t0 == args[0]->type.oid || !plan__can_coerce(args[0]->type.oid, t0, CAST_IMPLICIT)))
            continue;
        for (size_t k = 0; k <= nt; k++) {
            uint32_t t1 = k == 0 ? args[1]->type.oid : agg_arg_types[k - 1];
            if (k > 0 && (t1 == args[1]->type.oid || !plan__can_coerce(args[1]->type.oid, t1, CAST_IMPLICIT)))
                continue;
            const AggDesc *d = exec_agg_lookup2(name, t0, t1);
            if (d) {
                args[0] = plan__coerce(b, args[0], SQLTYPE(t0), CAST_IMPLICIT);
                args[1] = plan__coerce(b, args[1], SQLTYPE(t1), CAST_IMPLICIT);
                return d;
            }
        }
    }
    no_agg(b, name, args, 2, loc);
}

static void bind_agg_order(Binder *b, const FuncCall *fc, AggCall *call)
{
    int n = list_len(fc->agg_order);
    call->norder = n;
    call->order_exprs = MEM_NEW_ARRAY(b->arena, Expr *, n + 1);
    call->order = MEM_NEW_ARRAY(b->arena, SortKey, n + 1);
    for (int i = 0; i < n; i++) {
        const SortBy *sb = list_nth(fc->agg_order, i);
        call->order_exprs[i] = plan__resolve_unknown(b, plan__bind_expr(b, sb->node_expr));
        SortKey *k = &call->order[i];
        k->column = i;
        k->descending = sb->sortby_dir == SORTBY_DESC;
        k->nulls_first = sb->sortby_nulls == SORTBY_NULLS_DEFAULT ? k->descending
                                                                  : sb->sortby_nulls == SORTBY_NULLS_FIRST;
    }
}

/* percentile_cont(f) WITHIN GROUP (ORDER BY x), mode() WITHIN GROUP (ORDER BY x) */
static void bind_ordered_set(Binder *b, const FuncCall *fc, const char *name, AggCall *call, int loc)
{
    if (list_len(fc->agg_order) != 1)
        plan__error_at(b, ERRCODE_UNDEFINED_FUNCTION, loc, "function %s must have exactly one ORDER BY argument", name);
    bind_agg_order(b, fc, call);
    Expr *v = call->order_exprs[0];
    int nd = list_len(fc->args);
    if (nd > 1)
        plan__error_at(b, ERRCODE_UNDEFINED_FUNCTION, loc, "function %s has too many direct arguments", name);
    if (nd == 0) {
        call->agg = resolve_agg(b, name, &v, loc);
    } else {
        b->in_agg = false;
        Expr *f = plan__resolve_unknown(b, plan__bind_expr(b, list_nth(fc->args, 0)));
        b->in_agg = true;
        Expr *pair[2] = {v, f};
        call->agg = resolve_agg2(b, name, pair, loc);
        v = pair[0];
        call->direct_arg = pair[1];
        call->nargs = 2;
        call->args = MEM_NEW_ARRAY(b->arena, Expr *, 2);
        call->args[0] = v;
        call->args[1] = pair[1];
    }
    call->order_exprs[0] = v;
    call->arg = v;
}

static void bind_agg_args(Binder *b, const FuncCall *fc, const char *name, AggCall *call, int loc)
{
    int nargs = list_len(fc->args);
    Expr **args = MEM_NEW_ARRAY(b->arena, Expr *, nargs + 1);
    for (int i = 0; i < nargs; i++)
        args[i] = plan__resolve_unknown(b, plan__bind_expr(b, list_nth(fc->args, i)));
    if (nargs == 2) {
        call->agg = resolve_agg2(b, name, args, loc);
        call->nargs = 2;
        call->args = args;
        call->arg = args[0];
        return;
    }
    if (nargs != 1)
        no_agg(b, name, args, nargs, loc);
    Expr *arg = args[0];
    call->agg = resolve_agg(b, name, &arg, loc);
    if (call->agg->kind != AGG_COUNT && call->agg->argtype != TYPE_INVALID &&
        call->agg->argtype != arg->type.oid && !type_is_array(call->agg->argtype)) {
        Expr *c = plan__coerce(b, arg, SQLTYPE(call->agg->argtype), CAST_IMPLICIT);
        ERR_ASSERT(c != NULL);
        arg = c;
    }
    call->arg = arg;
}

/* Bind an aggregate call's AggCall (shared with window aggregates). */
void plan__bind_agg_call(Binder *b, const FuncCall *fc, AggCall *call)
{
    int loc = fc->node.location;
    const char *name = list_nth(fc->funcname, list_len(fc->funcname) - 1);
    memset(call, 0, sizeof *call);
    call->distinct = fc->agg_distinct;
    b->in_agg = !b->win_agg;   /* sum(sum(x)) OVER (): the inner one is a plain aggregate */
    const char *saved_call = b->srf_call;
    b->srf_call = b->win_agg ? "window" : "aggregate";   /* SRFs refused in the arguments */
    b->win_agg = false;
    if (fc->agg_star) {
        call->agg = exec_agg_lookup(name, TYPE_INVALID);
        if (!call->agg)
            plan__error_at(b, ERRCODE_WRONG_OBJECT_TYPE, loc,
                           "%s(*) specified, but %s is not an aggregate function", name, name);
    } else if (fc->agg_within_group) {
        bind_ordered_set(b, fc, name, call, loc);
    } else {
        bind_agg_args(b, fc, name, call, loc);
        if (fc->agg_order)
            bind_agg_order(b, fc, call);
    }
    if (call->distinct && call->norder > 0)
        for (int i = 0; i < call->norder; i++)
            if (!plan__expr_equal(call->order_exprs[i], call->arg))
                plan__error_at(b, ERRCODE_INVALID_COLUMN_REFERENCE, loc,
                               "in an aggregate with DISTINCT, ORDER BY expressions must appear in argument list");
    b->in_agg = false;
    b->srf_call = saved_call;
    if (fc->agg_filter) {
        const char *saved = b->agg_forbidden;
        b->agg_forbidden = "FILTER";
        call->filter = plan__coerce_bool(b, plan__bind_expr(b, fc->agg_filter), "FILTER");
        b->agg_forbidden = saved;
    }
    call->type = SQLTYPE(call->agg->rettype);
    if (call->agg->rettype == TYPE_INVALID && call->arg)   /* polymorphic result: the argument's type */
        call->type = call->arg->type;
}

Expr *plan__bind_agg(Binder *b, const FuncCall *fc)
{
    int loc = fc->node.location;
    const char *name = list_nth(fc->funcname, list_len(fc->funcname) - 1);
    if (b->agg_forbidden)
        plan__error_at(b, ERRCODE_GROUPING_ERROR, loc, "aggregate functions are not allowed in %s",
                       b->agg_forbidden);
    if (b->in_agg)
        plan__error_at(b, ERRCODE_GROUPING_ERROR, loc, "aggregate function calls cannot be nested");
    AggCall call;
    plan__bind_agg_call(b, fc, &call);
    int slot = add_agg(b, &call, loc);
    Expr *e = plan__make_expr(b->arena, EXPR_AGG_RESULT, call.type, loc, 0);
    e->index = slot;
    e->name = name;
    return e;
}
