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

static int add_agg(Binder *b, const AggCall *call, int loc)
{
    for (int i = 0; i < b->naggs; i++) {
        const AggCall *o = &b->aggs[i].call;
        if (o->agg == call->agg && o->distinct == call->distinct && plan__expr_equal(o->arg, call->arg))
            return i;
    }
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

Expr *plan__bind_agg(Binder *b, const FuncCall *fc)
{
    int loc = fc->node.location;
    const char *name = list_nth(fc->funcname, list_len(fc->funcname) - 1);
    if (b->agg_forbidden)
        plan__error_at(b, ERRCODE_GROUPING_ERROR, loc, "aggregate functions are not allowed in %s",
                       b->agg_forbidden);
    if (b->in_agg)
        plan__error_at(b, ERRCODE_GROUPING_ERROR, loc, "aggregate function calls cannot be nested");
    AggCall call = {.distinct = fc->agg_distinct};
    if (fc->agg_star) {
        call.agg = exec_agg_lookup(name, TYPE_INVALID);
        if (!call.agg)
            plan__error_at(b, ERRCODE_WRONG_OBJECT_TYPE, loc,
                           "%s(*) specified, but %s is not an aggregate function", name, name);
    } else {
        int nargs = list_len(fc->args);
        if (nargs != 1) {
            char sig[512] = "";
            size_t len = 0;
            b->in_agg = true;
            for (int i = 0; i < nargs && len < sizeof sig; i++) {
                Expr *a = plan__bind_expr(b, list_nth(fc->args, i));
                len += (size_t)snprintf(sig + len, sizeof sig - len, "%s%s", i ? ", " : "",
                                        plan__type_name(b, SQLTYPE(a->type.oid)));
            }
            b->in_agg = false;
            plan__error_hint(b, ERRCODE_UNDEFINED_FUNCTION, loc,
                             "No function matches the given name and argument types. You might need to add explicit type casts.",
                             "function %s(%s) does not exist", name, sig);
        }
        b->in_agg = true;
        Expr *arg = plan__bind_expr(b, list_nth(fc->args, 0));
        b->in_agg = false;
        arg = plan__resolve_unknown(b, arg);
        call.agg = resolve_agg(b, name, &arg, loc);
        if (call.agg->kind != AGG_COUNT && call.agg->argtype != TYPE_INVALID &&
            call.agg->argtype != arg->type.oid) {
            Expr *c = plan__coerce(b, arg, SQLTYPE(call.agg->argtype), CAST_IMPLICIT);
            ERR_ASSERT(c != NULL);
            arg = c;
        }
        call.arg = arg;
    }
    call.type = SQLTYPE(call.agg->rettype);
    int slot = add_agg(b, &call, loc);
    Expr *e = plan__make_expr(b->arena, EXPR_AGG_RESULT, call.type, loc, 0);
    e->index = slot;
    e->name = name;
    return e;
}
