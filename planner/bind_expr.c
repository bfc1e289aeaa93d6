/*
 * bind_expr.c — raw expressions (parser/ast.h) to typed, resolved
 * expressions (plan.h Expr), as PostgreSQL's parse_expr.c does.
 *
 * Literals: integers are int4 when they fit, else int8 (the lexer already
 * sent larger ones as numeric); decimals are numeric; strings and NULL
 * are "unknown" until a context types them (coerce.c). BETWEEN, IS
 * DISTINCT FROM and IS TRUE/FALSE are rewritten into comparisons, CASE
 * and boolean tests; IN (list) becomes EXPR_IN_LIST when the list has a
 * common type, else an OR of "=" comparisons (NOT IN: AND of "<>").
 * Aggregate calls are collected in Binder.aggs.
 */
#define STRATA_PLANNER_INTERNAL
#include "planner/planner_int.h"
#include "planner/catalog_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "common/numeric.h"
#include "storage/storage.h"

static Expr *bind_const(Binder *b, const A_Const *c)
{
    Value v = {.is_null = false};
    int loc = c->node.location;
    ConstKind kind = c->kind;
    int64_t ival = c->ival;
    if (kind == CONST_NUMERIC && c->text) {
        /* PostgreSQL's make_const: an oversize integer that still fits int64
         * after folding a minus sign (-9223372036854775808) is int8 */
        char *end;
        errno = 0;
        long long v = strtoll(c->text, &end, 10);
        if (errno == 0 && end != c->text && *end == '\0') {
            kind = CONST_INTEGER;
            ival = v;
        }
    }
    switch (kind) {
    case CONST_INTEGER:
        if (ival >= INT32_MIN && ival <= INT32_MAX) {
            v.u.i32 = (int32_t)ival;
            return plan__make_const(b->arena, SQLTYPE(TYPE_INT4), v, loc);
        }
        v.u.i64 = ival;
        return plan__make_const(b->arena, SQLTYPE(TYPE_INT8), v, loc);
    case CONST_NUMERIC:
        v.u.str = numeric_in(c->text, strlen(c->text), TYPMOD_NONE, b->arena);
        return plan__make_const(b->arena, SQLTYPE(TYPE_NUMERIC), v, loc);
    case CONST_STRING:
        v.u.str = (StrRef){c->sval, c->sval_len};
        return plan__make_const(b->arena, SQLTYPE(TYPE_UNKNOWN), v, loc);
    case CONST_BOOL:
        return plan__make_bool(b->arena, c->bval, loc);
    case CONST_NULL:
        v.is_null = true;
        return plan__make_const(b->arena, SQLTYPE(TYPE_UNKNOWN), v, loc);
    }
    ERR_ASSERT(!"unknown constant kind");
    return NULL;
}

static Expr *bind_param(Binder *b, const ParamRef *p)
{
    int loc = p->node.location;
    if (b->param_subst) {   /* EXECUTE of a prepared statement: the argument's value */
        if (p->number < 1 || p->number > b->nparam_subst)
            plan__error_at(b, ERRCODE_UNDEFINED_PARAMETER, loc, "there is no parameter $%d", p->number);
        Expr *e = plan__copy_expr(b->arena, b->param_subst[p->number - 1]);
        e->location = loc;
        return e;
    }
    if (p->number < 1 || p->number > 65535 || (b->params_fixed && p->number > b->ctx->nparams))
        plan__error_at(b, ERRCODE_UNDEFINED_PARAMETER, loc, "there is no parameter $%d", p->number);
    int idx = p->number - 1;
    if (idx >= b->param_cap) {
        int cap = idx + 16;
        b->param_types = mem_realloc(b->arena, b->param_types, sizeof(SqlType) * (size_t)b->param_cap,
                                     sizeof(SqlType) * (size_t)cap);
        b->param_fixed = mem_realloc(b->arena, b->param_fixed, sizeof(bool) * (size_t)b->param_cap,
                                     sizeof(bool) * (size_t)cap);
        b->param_nodes = mem_realloc(b->arena, b->param_nodes, sizeof(Expr *) * (size_t)b->param_cap,
                                     sizeof(Expr *) * (size_t)cap);
        for (int i = b->param_cap; i < cap; i++) {
            b->param_types[i] = SQLTYPE(TYPE_INVALID);
            b->param_fixed[i] = false;
            b->param_nodes[i] = NULL;
        }
        b->param_cap = cap;
    }
    for (int i = b->nparams; i <= idx; i++)
        if (b->param_types[i].oid == TYPE_INVALID)
            b->param_types[i] = SQLTYPE(TYPE_UNKNOWN);
    if (idx >= b->nparams)
        b->nparams = idx + 1;
    if (!b->param_nodes[idx]) {
        Expr *e = plan__make_expr(b->arena, EXPR_PARAM, b->param_types[idx], loc, 0);
        e->index = idx;
        b->param_nodes[idx] = e;
    }
    /* one node per parameter: inferring its type from one use types every use */
    return b->param_nodes[idx];
}

static Expr *make_bool_op(Binder *b, ExprKind kind, Expr *l, Expr *r, int loc)
{
    Expr *e = plan__make_expr(b->arena, kind, SQLTYPE(TYPE_BOOL), loc, r ? 2 : 1);
    e->args[0] = l;
    if (r)
        e->args[1] = r;
    return plan__fold(b, e);
}

static Expr *make_case2(Binder *b, Expr *when1, Expr *then1, Expr *when2, Expr *then2, Expr *els,
                        int loc)
{
    Expr *e = plan__make_expr(b->arena, EXPR_CASE, then1->type, loc, 5);
    e->args[0] = when1;
    e->args[1] = then1;
    e->args[2] = when2;
    e->args[3] = then2;
    e->args[4] = els;
    e->has_else = true;
    if (!when2) { /* one WHEN */
        e->args[2] = els;
        e->nargs = 3;
    }
    return plan__fold(b, e);
}

static Expr *null_test(Binder *b, Expr *arg, bool is_null, int loc)
{
    return make_bool_op(b, is_null ? EXPR_IS_NULL : EXPR_IS_NOT_NULL, arg, NULL, loc);
}

/* a IS [NOT] DISTINCT FROM b, as a CASE over null tests and = / <>. */
static Expr *bind_distinct(Binder *b, const A_Expr *a, bool negated)
{
    int loc = a->node.location;
    if (IS_A(a->lexpr, RowExpr) && IS_A(a->rexpr, RowExpr))   /* pair by pair: bind_record.c */
        return plan__bind_row_distinct(b, a, negated);
    Expr *l = plan__bind_expr(b, a->lexpr);
    Expr *r = plan__bind_expr(b, a->rexpr);
    Expr *cmp = plan__make_op(b, negated ? "=" : "<>", l, r, loc);
    /* the operator applied the coercions: reuse its arguments */
    Expr *lc = cmp->kind == EXPR_FUNC ? cmp->args[0] : l;
    Expr *rc = cmp->kind == EXPR_FUNC ? cmp->args[1] : r;
    return make_case2(b, null_test(b, lc, true, loc), null_test(b, rc, negated, loc),
                      null_test(b, rc, true, loc), plan__make_bool(b->arena, negated ? false : true, loc),
                      cmp, loc);
}

static Expr *bind_between(Binder *b, const A_Expr *a)
{
    int loc = a->node.location;
    const List *bounds = (const List *)a->rexpr;
    Expr *x = plan__bind_expr(b, a->lexpr);
    Expr *lo = plan__bind_expr(b, list_nth(bounds, 0));
    Expr *hi = plan__bind_expr(b, list_nth(bounds, 1));
    bool neg = a->kind == AEXPR_NOT_BETWEEN || a->kind == AEXPR_NOT_BETWEEN_SYM;
    bool sym = a->kind == AEXPR_BETWEEN_SYM || a->kind == AEXPR_NOT_BETWEEN_SYM;
    ExprKind join = neg ? EXPR_OR : EXPR_AND;
    Expr *e = make_bool_op(b, join, plan__make_op(b, neg ? "<" : ">=", x, lo, loc),
                           plan__make_op(b, neg ? ">" : "<=", x, hi, loc), loc);
    if (sym) {
        Expr *e2 = make_bool_op(b, join, plan__make_op(b, neg ? "<" : ">=", x, hi, loc),
                                plan__make_op(b, neg ? ">" : "<=", x, lo, loc), loc);
        e = make_bool_op(b, neg ? EXPR_AND : EXPR_OR, e, e2, loc);
    }
    return e;
}

static Expr *bind_in(Binder *b, const A_Expr *a)
{
    int loc = a->node.location;
    const List *items = (const List *)a->rexpr;
    bool negated = strcmp(a->name, "<>") == 0;
    Expr *rows = IS_A(a->lexpr, RowExpr) ? plan__bind_row_in(b, a) : NULL;   /* bind_record.c */
    if (rows)
        return rows;
    int n = list_len(items) + 1;
    Expr **all = MEM_NEW_ARRAY(b->arena, Expr *, n);
    all[0] = plan__bind_expr(b, a->lexpr);
    for (int i = 1; i < n; i++)
        all[i] = plan__bind_expr(b, list_nth(items, i - 1));
    SqlType t = plan__common_type(b, all, n, NULL);
    bool ok = t.oid != TYPE_INVALID;
    for (int i = 0; ok && i < n; i++)
        ok = plan__can_coerce(all[i]->type.oid, t.oid, CAST_IMPLICIT);
    if (ok) {
        t.typmod = TYPMOD_NONE;
        plan__coerce_all(b, all, n, t, "IN");
        Expr *eq = plan__make_op(b, "=", all[0], all[1], loc);
        if (eq->kind == EXPR_FUNC && eq->args[0]->type.oid == t.oid && eq->args[1]->type.oid == t.oid) {
            Expr *e = plan__make_expr(b->arena, EXPR_IN_LIST, SQLTYPE(TYPE_BOOL), loc, n);
            memcpy(e->args, all, sizeof(Expr *) * (size_t)n);
            e->func = eq->func;
            e->negated = negated;
            e->name = eq->func->name;
            return plan__fold(b, e);
        }
    }
    Expr *acc = NULL;
    for (int i = 1; i < n; i++) {
        Expr *cmp = plan__make_op(b, a->name, all[0], all[i], loc);
        acc = acc ? make_bool_op(b, negated ? EXPR_AND : EXPR_OR, acc, cmp, loc) : cmp;
    }
    return acc;
}

static Expr *bind_aexpr(Binder *b, const A_Expr *a)
{
    int loc = a->node.location;
    switch (a->kind) {
    case AEXPR_OP:
    case AEXPR_LIKE:
    case AEXPR_ILIKE: {
        if (a->lexpr && IS_A(a->lexpr, RowExpr) && IS_A(a->rexpr, RowExpr) && !a->escape)
            return plan__bind_row_compare(b, a->name, (const RowExpr *)a->lexpr,
                                          (const RowExpr *)a->rexpr, loc);   /* bind_record.c */
        Expr *l = a->lexpr ? plan__bind_expr(b, a->lexpr) : NULL;
        Expr *r = plan__bind_expr(b, a->rexpr);
        if (a->escape) { /* x LIKE p ESCAPE e = x ~~ like_escape(p, e), as PostgreSQL */
            Expr *args[2] = {r, plan__bind_expr(b, a->escape)};
            r = plan__make_func(b, "like_escape", args, 2, a->escape->location);
        }
        return plan__make_op(b, a->name, l, r, loc);
    }
    case AEXPR_IN:
        return bind_in(b, a);
    case AEXPR_BETWEEN:
    case AEXPR_NOT_BETWEEN:
    case AEXPR_BETWEEN_SYM:
    case AEXPR_NOT_BETWEEN_SYM:
        return bind_between(b, a);
    case AEXPR_DISTINCT:
        return bind_distinct(b, a, false);
    case AEXPR_NOT_DISTINCT:
        return bind_distinct(b, a, true);
    }
    ERR_ASSERT(!"unknown A_Expr kind");
    return NULL;
}

static Expr *bind_bool(Binder *b, const BoolExpr *be)
{
    static const char *names[] = {"AND", "OR", "NOT"};
    ExprKind kind = be->boolop == AND_EXPR ? EXPR_AND : be->boolop == OR_EXPR ? EXPR_OR : EXPR_NOT;
    int n = list_len(be->args);
    Expr *e = plan__make_expr(b->arena, kind, SQLTYPE(TYPE_BOOL), be->node.location, n);
    for (int i = 0; i < n; i++)
        e->args[i] = plan__coerce_bool(b, plan__bind_expr(b, list_nth(be->args, i)), names[be->boolop]);
    return plan__fold(b, e);
}

static Expr *bind_null_test(Binder *b, const NullTest *nt)
{
    int loc = nt->node.location;
    Expr *arg = plan__bind_expr(b, nt->arg);
    if (nt->nulltesttype == IS_NULL || nt->nulltesttype == IS_UNKNOWN ||
        nt->nulltesttype == IS_NOT_NULL || nt->nulltesttype == IS_NOT_UNKNOWN) {
        if (nt->nulltesttype == IS_UNKNOWN || nt->nulltesttype == IS_NOT_UNKNOWN)
            arg = plan__coerce_bool(b, arg, nt->nulltesttype == IS_UNKNOWN ? "IS UNKNOWN" : "IS NOT UNKNOWN");
        Expr *rec = arg->type.oid == TYPE_RECORD   /* field by field: bind_record.c */
                        ? plan__record_null_test(b, arg, nt->nulltesttype == IS_NULL, loc) : NULL;
        if (rec)
            return rec;
        return null_test(b, arg, nt->nulltesttype == IS_NULL || nt->nulltesttype == IS_UNKNOWN, loc);
    }
    static const char *what[] = {"", "", "IS TRUE", "IS NOT TRUE", "IS FALSE", "IS NOT FALSE"};
    arg = plan__coerce_bool(b, arg, what[nt->nulltesttype]);
    bool want_true = nt->nulltesttype == IS_TRUE || nt->nulltesttype == IS_NOT_TRUE;
    bool negate = nt->nulltesttype == IS_NOT_TRUE || nt->nulltesttype == IS_NOT_FALSE;
    Expr *cond = want_true ? arg : make_bool_op(b, EXPR_NOT, arg, NULL, loc);
    /* x IS TRUE = CASE WHEN x THEN true ELSE false END (never NULL) */
    return make_case2(b, cond, plan__make_bool(b->arena, !negate, loc), NULL, NULL,
                      plan__make_bool(b->arena, negate, loc), loc);
}

static Expr *bind_case(Binder *b, const CaseExpr *c)
{
    int loc = c->node.location;
    int nw = list_len(c->args);
    Expr *arg = c->arg ? plan__bind_expr(b, c->arg) : NULL;
    Expr *e = plan__make_expr(b->arena, EXPR_CASE, SQLTYPE(TYPE_UNKNOWN), loc, 2 * nw + 1);
    Expr **results = MEM_NEW_ARRAY(b->arena, Expr *, nw + 1);
    const char *saved_cond = b->srf_cond;
    b->srf_cond = "CASE";
    for (int i = 0; i < nw; i++) {
        const CaseWhen *w = list_nth(c->args, i);
        Expr *cond = plan__bind_expr(b, w->expr);
        if (arg)
            cond = plan__make_op(b, "=", arg, cond, w->expr->location);
        e->args[2 * i] = plan__coerce_bool(b, cond, "CASE/WHEN");
        results[i] = plan__bind_expr(b, w->result);
    }
    Value null = {.is_null = true};
    results[nw] = c->defresult ? plan__bind_expr(b, c->defresult)
                               : plan__make_const(b->arena, SQLTYPE(TYPE_UNKNOWN), null, loc);
    b->srf_cond = saved_cond;
    /* PostgreSQL resolves the ELSE result first, then the THENs in order */
    Expr **order = MEM_NEW_ARRAY(b->arena, Expr *, nw + 1);
    order[0] = results[nw];
    memcpy(order + 1, results, sizeof(Expr *) * (size_t)nw);
    SqlType t = plan__common_type(b, order, nw + 1, "CASE");
    plan__coerce_all(b, order, nw + 1, t, "CASE");
    results[nw] = order[0];
    memcpy(results, order + 1, sizeof(Expr *) * (size_t)nw);
    for (int i = 0; i < nw; i++)
        e->args[2 * i + 1] = results[i];
    e->args[2 * nw] = results[nw];
    e->has_else = true;
    e->type = t;
    return plan__fold(b, e);
}

static Expr *bind_typecast(Binder *b, const TypeCast *tc)
{
    if (IS_A(tc->arg, A_ArrayExpr) && list_len(((const A_ArrayExpr *)tc->arg)->elements) == 0) {
        SqlType at = plan__resolve_type_name(b, tc->type_name);   /* ARRAY[]::int[] */
        if (!type_is_array(at.oid))
            plan__error_at(b, ERRCODE_CANNOT_COERCE, tc->node.location, "cannot cast type %s to %s",
                           "integer[]", plan__type_name(b, at));
        Expr *e = plan__make_expr(b->arena, EXPR_ARRAY, at, tc->node.location, 0);
        e->name = "array";
        return e;
    }
    Expr *reg = plan__catalog_regcast(b, tc);   /* ::regclass & co (issue 6, catalog_tables.c) */
    if (reg)
        return reg;
    Expr *arg = plan__bind_expr(b, tc->arg);
    SqlType t = plan__resolve_type_name(b, tc->type_name);
    Expr *r = plan__coerce(b, arg, t, CAST_EXPLICIT);
    if (!r)
        plan__error_at(b, ERRCODE_CANNOT_COERCE, tc->node.location, "cannot cast type %s to %s",
                       plan__type_name(b, SQLTYPE(arg->type.oid)), plan__type_name(b, t));
    if (r == arg || r->location < 0)
        return r;
    if (r->kind == EXPR_CAST)
        r->location = tc->node.location;
    return r;
}

/* COALESCE(a, b, ...) = CASE WHEN a IS NOT NULL THEN a ... ELSE last END,
 * with the arguments' common type ("COALESCE types x and y cannot be matched"). */
static Expr *bind_coalesce(Binder *b, Expr **args, int n, int loc)
{
    SqlType t = plan__common_type(b, args, n, "COALESCE");
    plan__coerce_all(b, args, n, t, "COALESCE");
    Expr *e = plan__make_expr(b->arena, EXPR_CASE, t, loc, 2 * (n - 1) + 1);
    for (int i = 0; i < n - 1; i++) {
        e->args[2 * i] = null_test(b, args[i], false, loc);
        e->args[2 * i + 1] = args[i];
    }
    e->args[2 * (n - 1)] = args[n - 1];
    e->has_else = true;
    return plan__fold(b, e);
}

/* NULLIF(a, b) = CASE WHEN a = b THEN NULL ELSE a END (type of a). */
static Expr *bind_nullif(Binder *b, Expr **args, int loc)
{
    Expr *eq = plan__make_op(b, "=", args[0], args[1], loc);
    Expr *a = eq->kind == EXPR_FUNC ? eq->args[0] : plan__resolve_unknown(b, args[0]);
    Value null = {.is_null = true};
    Expr *e = plan__make_expr(b->arena, EXPR_CASE, a->type, loc, 3);
    e->args[0] = eq;
    e->args[1] = plan__make_const(b->arena, a->type, null, loc);
    e->args[2] = a;
    e->has_else = true;
    return plan__fold(b, e);
}

/*
 * GREATEST/LEAST, NULLs ignored as PostgreSQL's MinMaxExpr:
 *   CASE WHEN x1 IS NOT NULL AND (x1 >= x2 OR x2 IS NULL) AND ... THEN x1
 *        WHEN x2 IS NOT NULL AND ... THEN x2 ... END
 * (quadratic in the argument count, which is at most 16, never exponential).
 */
static Expr *bind_minmax(Binder *b, Expr **args, int n, bool greatest, int loc)
{
    const char *what = greatest ? "GREATEST" : "LEAST";
    SqlType t = plan__common_type(b, args, n, what);
    plan__coerce_all(b, args, n, t, what);
    Value null = {.is_null = true};
    Expr *e = plan__make_expr(b->arena, EXPR_CASE, t, loc, 2 * n + 1);
    for (int i = 0; i < n; i++) {
        Expr *cond = plan__make_expr(b->arena, EXPR_AND, SQLTYPE(TYPE_BOOL), loc, n);
        cond->args[0] = null_test(b, args[i], false, loc);
        for (int j = 0, k = 1; j < n; j++) {
            if (j == i)
                continue;
            Expr *cmp = plan__make_op(b, greatest ? ">=" : "<=", args[i], args[j], loc);
            cond->args[k++] = make_bool_op(b, EXPR_OR, cmp, null_test(b, args[j], true, loc), loc);
        }
        e->args[2 * i] = plan__fold(b, cond);
        e->args[2 * i + 1] = args[i];
    }
    e->args[2 * n] = plan__make_const(b->arena, t, null, loc);
    e->has_else = true;
    return plan__fold(b, e);
}

static Expr *bind_func(Binder *b, const FuncCall *fc)
{
    int n = list_len(fc->funcname);
    const char *name = list_nth(fc->funcname, n - 1);
    if (plan__is_infoschema_call(fc))   /* _pg_expandarray: bind_record.c */
        return plan__bind_infoschema_func(b, fc);
    if (n > 1 && strcmp(list_nth(fc->funcname, 0), "pg_catalog") != 0)
        plan__error_at(b, ERRCODE_INVALID_SCHEMA_NAME, fc->node.location, "schema \"%s\" does not exist",
                       (const char *)list_nth(fc->funcname, 0));
    if (plan__has_named_args(fc))
        fc = plan__named_args_positional(b, fc, name);
    if (fc->over)
        return plan__bind_window_call(b, fc);
    if (n == 1 && strcmp(name, "grouping") == 0)
        return plan__bind_grouping(b, fc);
    if (exec_is_aggregate_name(name))
        return plan__bind_agg(b, fc);
    TableFuncKind srf;
    if (plan__srf_lookup(name, &srf))
        return plan__bind_srf(b, fc, srf);
    if (fc->agg_star || fc->agg_distinct)
        plan__error_at(b, ERRCODE_WRONG_OBJECT_TYPE, fc->node.location,
                       "%s specified, but %s is not an aggregate function",
                       fc->agg_star ? "*" : "DISTINCT", name);
    int nargs = list_len(fc->args);
    if (nargs > FUNC_MAX_ARGS * 4)
        plan__error_at(b, ERRCODE_PROGRAM_LIMIT_EXCEEDED, fc->node.location,
                       "cannot pass more than %d arguments to a function", FUNC_MAX_ARGS * 4);
    Expr **args = MEM_NEW_ARRAY(b->arena, Expr *, nargs + 1);
    const char *saved_cond = b->srf_cond;
    if (n == 1 && strcmp(name, "coalesce") == 0)
        b->srf_cond = "COALESCE";
    for (int i = 0; i < nargs; i++)
        args[i] = plan__bind_expr(b, list_nth(fc->args, i));
    b->srf_cond = saved_cond;
    int loc = fc->node.location;
    if (n == 1 && nargs >= 1 && strcmp(name, "coalesce") == 0)
        return bind_coalesce(b, args, nargs, loc);
    if (n == 1 && nargs == 2 && strcmp(name, "nullif") == 0)
        return bind_nullif(b, args, loc);
    if (n == 1 && nargs >= 1 && (strcmp(name, "greatest") == 0 || strcmp(name, "least") == 0))
        return bind_minmax(b, args, nargs, name[0] == 'g', loc);
    return plan__make_func(b, name, args, nargs, loc);
}

/*
 * x op ANY|ALL (array). A literal ARRAY[...] becomes IN / NOT IN or an
 * OR / AND of comparisons (the same three-valued result). Any other array
 * becomes a subplan over unnest(array) comparing each element — correlated
 * through two slots (the array, x) — with NULL for a NULL array.
 */
static Expr *bind_array_op(Binder *b, const A_ArrayOpExpr *a)
{
    int loc = a->node.location;
    if (IS_A(a->rexpr, A_ArrayExpr) && list_len(((const A_ArrayExpr *)a->rexpr)->elements) > 0) {
        List *elems = ((const A_ArrayExpr *)a->rexpr)->elements;
        bool eq_any = a->use_or && strcmp(a->name, "=") == 0;
        bool ne_all = !a->use_or && strcmp(a->name, "<>") == 0;
        if (eq_any || ne_all) {
            A_Expr in = {{T_A_Expr, loc}, AEXPR_IN, a->name, a->lexpr, (Node *)elems, NULL, NULL};
            return bind_in(b, &in);
        }
        Expr *l = plan__bind_expr(b, a->lexpr);
        Expr *acc = NULL;
        for (int i = 0; i < list_len(elems); i++) {
            Expr *cmp = plan__make_op(b, a->name, l, plan__bind_expr(b, list_nth(elems, i)), loc);
            acc = acc ? make_bool_op(b, a->use_or ? EXPR_OR : EXPR_AND, acc, cmp, loc) : cmp;
        }
        return plan__fold(b, acc);
    }
    Expr *l = plan__bind_expr(b, a->lexpr);
    Expr *arr = plan__bind_expr(b, a->rexpr);
    uint32_t et = type_element_of(arr->type.oid);
    if (!et)
        plan__error_at(b, ERRCODE_WRONG_OBJECT_TYPE, loc, "op ANY/ALL (array) requires array on right side");
    Binder child;
    plan__child_binder(&child, b, true);
    PlanNode *f = plan__new_node(b->arena, PLAN_FUNCTION_SCAN, 1);
    f->func_kind = TABLEFUNC_UNNEST;
    f->nfunc_args = 1;
    f->func_args = MEM_NEW_ARRAY(b->arena, Expr *, 1);
    Expr *slot0 = plan__make_expr(b->arena, EXPR_OUTER_REF, arr->type, loc, 0);
    slot0->index = 0;
    f->func_args[0] = slot0;
    f->col_types[0] = SQLTYPE(et);
    f->col_names[0] = "unnest";
    Expr *slot1 = plan__make_expr(b->arena, EXPR_OUTER_REF, l->type, loc, 0);
    slot1->index = 1;
    Expr *col = plan__make_expr(b->arena, EXPR_COLUMN, SQLTYPE(et), loc, 0);
    col->index = 0;
    col->name = "unnest";
    Expr *cmp = plan__make_op(&child, a->name, slot1, col, loc);
    plan__child_done(b, &child);
    if (cmp->type.oid != TYPE_BOOL)
        plan__error_at(b, ERRCODE_DATATYPE_MISMATCH, loc, "op ANY/ALL (array) requires operator to yield boolean");
    PlanNode *p = plan__new_node(b->arena, PLAN_PROJECT, 1);
    p->left = f;
    p->exprs = MEM_NEW_ARRAY(b->arena, Expr *, 1);
    p->exprs[0] = cmp;
    p->col_types[0] = cmp->type;
    p->col_names[0] = "?column?";
    Expr *sp = plan__make_expr(b->arena, EXPR_SUBPLAN, SQLTYPE(TYPE_BOOL), loc, 2);
    sp->args[0] = arr;
    sp->args[1] = l;
    sp->subplan = p;
    sp->sublink = a->use_or ? SUBLINK_ANY : SUBLINK_ALL;
    if (!b->counters)
        b->counters = MEM_NEW_ARRAY(b->arena, int, 4);
    sp->subplan_id = b->counters[1]++;
    sp->name = a->use_or ? "any" : "all";
    /* CASE WHEN arr IS NULL THEN NULL ELSE subplan END */
    Expr *c = plan__make_expr(b->arena, EXPR_CASE, SQLTYPE(TYPE_BOOL), loc, 3);
    c->args[0] = null_test(b, plan__copy_expr(b->arena, arr), true, loc);
    Value null = {.is_null = true};
    c->args[1] = plan__make_const(b->arena, SQLTYPE(TYPE_BOOL), null, loc);
    c->args[2] = sp;
    c->has_else = true;
    return c;
}

/* ARRAY[e, ...]: a one-dimensional array of the elements' common type;
 * when that type is an array type (ARRAY[ARRAY[1,2], ARRAY[3,4]],
 * ARRAY[[1,2],[3,4]], ARRAY[a, b] over int[] columns) one more dimension
 * of the same array type, as PostgreSQL's multidims ArrayExpr. */
static Expr *bind_array(Binder *b, const A_ArrayExpr *a)
{
    int n = list_len(a->elements);
    int loc = a->node.location;
    if (n == 0)
        plan__error_hint(b, ERRCODE_INDETERMINATE_DATATYPE, loc,
                         "Explicitly cast to the desired type, for example ARRAY[]::integer[].",
                         "cannot determine type of empty array");
    Expr *e = plan__make_expr(b->arena, EXPR_ARRAY, SQLTYPE(TYPE_UNKNOWN), loc, n);
    for (int i = 0; i < n; i++) {
        const Node *x = list_nth(a->elements, i);
        e->args[i] = plan__bind_expr(b, x);
    }
    SqlType t = plan__common_type(b, e->args, n, "ARRAY");
    plan__coerce_all(b, e->args, n, t, "ARRAY");
    uint32_t at = type_is_array(t.oid) ? t.oid : type_array_of(t.oid);
    if (!at)
        plan__error_at(b, ERRCODE_UNDEFINED_OBJECT, loc, "could not find array type for data type %s",
                       plan__type_name(b, t));
    e->type = SQLTYPE(at);
    e->name = "array";
    return e;
}

/* One subscript bound and coerced to int4 (assignment rules, as
 * PostgreSQL's transformArraySubscripts); NULL = omitted slice bound. */
static Expr *bind_subscript(Binder *b, const Node *n, int32_t omitted)
{
    if (!n) {
        Value v = {.is_null = false};
        v.u.i32 = omitted;
        return plan__make_const(b->arena, SQLTYPE(TYPE_INT4), v, -1);
    }
    Expr *e = plan__bind_expr(b, n);
    Expr *c = plan__coerce(b, e, SQLTYPE(TYPE_INT4), CAST_ASSIGNMENT);
    if (!c)
        plan__error_at(b, ERRCODE_DATATYPE_MISMATCH, n->location, "array subscript must have type integer");
    return c;
}

/* a[i], a[i:j], a[:j], a[i:] on any array expression: the functions "[]"
 * and "[:]" of executor/funcs_array.c; several subscripts (a[i][j],
 * a[1:2][1:1]) pass them as int4[] arguments of "[][]" / "[:][:]". A
 * subscript count other than the array's dimensions gives NULL. */
static Expr *bind_indirection(Binder *b, const A_Indirection *ind)
{
    if (plan__indirection_has_fields(ind))   /* (r).f, (r).*: bind_record.c */
        return plan__bind_field_select(b, ind);
    Expr *base = plan__bind_expr(b, ind->arg);
    int nsub = list_len(ind->indirection);
    bool slice = false;
    for (int i = 0; i < nsub; i++) {
        const Node *el = list_nth(ind->indirection, i);
        if (!IS_A(el, A_Indices))
            plan__error_at(b, ERRCODE_FEATURE_NOT_SUPPORTED, el->location,
                           "field selection from a composite value is not supported");
        slice |= ((const A_Indices *)el)->is_slice;
    }
    uint32_t et = type_element_of(base->type.oid);
    if (!et)
        plan__error_at(b, ERRCODE_DATATYPE_MISMATCH, ind->arg->location,
                       "cannot subscript type %s because it does not support subscripting",
                       plan__type_name(b, base->type));
    const A_Indices *ix = list_nth(ind->indirection, 0);
    if (nsub > 6)
        plan__error_at(b, ERRCODE_PROGRAM_LIMIT_EXCEEDED, ind->node.location,
                       "number of array dimensions (%d) exceeds the maximum allowed (%d)", nsub, 6);
    int nargs = slice ? 3 : 2;
    Expr *e = plan__make_expr(b->arena, EXPR_FUNC, slice ? base->type : SQLTYPE(et), ind->node.location, nargs);
    e->args[0] = base;
    if (nsub > 1) {   /* "[][]" (array, int4[]) / "[:][:]" (array, int4[] lower, int4[] upper) */
        for (int k = 1; k < nargs; k++) {
            e->args[k] = plan__make_expr(b->arena, EXPR_ARRAY, SQLTYPE(TYPE_INT4_ARRAY), ind->node.location, nsub);
            e->args[k]->name = "array";
        }
        for (int i = 0; i < nsub; i++) {
            const A_Indices *x = list_nth(ind->indirection, i);
            if (!slice) {
                e->args[1]->args[i] = bind_subscript(b, x->uidx, 0);
                continue;
            }   /* in a slice a plain subscript i means 1:i, as PostgreSQL */
            e->args[1]->args[i] = x->is_slice ? bind_subscript(b, x->lidx, INT32_MIN) : bind_subscript(b, NULL, 1);
            e->args[2]->args[i] = bind_subscript(b, x->uidx, INT32_MAX);
        }
    } else if (slice) {
        e->args[1] = bind_subscript(b, ix->lidx, INT32_MIN);
        e->args[2] = bind_subscript(b, ix->uidx, INT32_MAX);
    } else {
        e->args[1] = bind_subscript(b, ix->uidx, 0);
    }
    FuncCandidates fc;
    exec_func_candidates(nsub > 1 ? (slice ? "[:][:]" : "[][]") : slice ? "[:]" : "[]", nargs, &fc);
    for (int i = 0; i < fc.count && !e->func; i++)
        if (fc.items[i]->argtypes[0] == base->type.oid)
            e->func = fc.items[i];
    if (!e->func)
        plan__error_at(b, ERRCODE_FEATURE_NOT_SUPPORTED, ind->node.location,
                       "subscripts of type %s are not supported", plan__type_name(b, base->type));
    e->name = e->func->name;
    return plan__fold(b, e);
}

/* expr COLLATE name: Strata compares strings bytewise, which is the "C",
 * "POSIX" and (for its C-locale databases) "default" collations; psql's
 * \d patterns write COLLATE pg_catalog.default. (issue 6) */
static Expr *bind_collate(Binder *b, const CollateClause *c)
{
    Expr *e = plan__bind_expr(b, c->arg);
    const char *name = list_nth(c->collname, list_len(c->collname) - 1);
    if (strcmp(name, "default") != 0 && strcmp(name, "C") != 0 && strcmp(name, "POSIX") != 0)
        plan__error_at(b, ERRCODE_UNDEFINED_OBJECT, c->node.location, "collation \"%s\" for encoding \"UTF8\" does not exist", name);
    if (e->type.oid != TYPE_UNKNOWN && plan__type_category(e->type.oid) != 'S')
        plan__error_at(b, ERRCODE_DATATYPE_MISMATCH, c->node.location, "collations are not supported by type %s",
                       plan__type_name(b, e->type));
    return e;
}

Expr *plan__bind_expr(Binder *b, const Node *n)
{
    ERR_ASSERT(n != NULL);
    switch (n->tag) {
    case T_A_Const: return bind_const(b, (const A_Const *)n);
    case T_ColumnRef: return plan__bind_column_ref(b, (const ColumnRef *)n);
    case T_ParamRef: return bind_param(b, (const ParamRef *)n);
    case T_A_Expr: return bind_aexpr(b, (const A_Expr *)n);
    case T_BoolExpr: return bind_bool(b, (const BoolExpr *)n);
    case T_NullTest: return bind_null_test(b, (const NullTest *)n);
    case T_CaseExpr: return bind_case(b, (const CaseExpr *)n);
    case T_TypeCast: return bind_typecast(b, (const TypeCast *)n);
    case T_FuncCall: return bind_func(b, (const FuncCall *)n);
    case T_SubLink: return plan__bind_sublink(b, (const SubLink *)n);
    case T_A_ArrayExpr: return bind_array(b, (const A_ArrayExpr *)n);
    case T_A_ArrayOpExpr: return bind_array_op(b, (const A_ArrayOpExpr *)n);
    case T_A_Indirection: return bind_indirection(b, (const A_Indirection *)n);
    case T_CollateClause: return bind_collate(b, (const CollateClause *)n);
    case T_RowExpr: return plan__bind_row(b, (const RowExpr *)n);
    case T_SetToDefault:
        plan__error_at(b, ERRCODE_SYNTAX_ERROR, n->location, "DEFAULT is not allowed in this context");
    default:
        plan__error_at(b, ERRCODE_SYNTAX_ERROR, n->location, "unexpected expression here");
    }
}
