/*
 * bind_srf.c — set-returning functions: their signatures (shared by FROM
 * items, plan_cte.c, and select lists), the placement rules, and the
 * PLAN_PROJECT_SET nodes that evaluate them in a select list.
 *
 * PostgreSQL 10+ semantics: the SRFs of a select list are evaluated after
 * grouping and window functions and before DISTINCT / ORDER BY / LIMIT, by
 * ProjectSet nodes. Several SRFs at the same level advance in lockstep
 * (shorter ones padded with NULL); an SRF inside another SRF's arguments
 * is evaluated by a lower ProjectSet first; an SRF inside an expression
 * (`generate_series(1,3) + 1`) becomes a column of the ProjectSet that the
 * Project above computes with. SRFs in GROUP BY run in ProjectSets below
 * the aggregate instead, and the grouping keys read their columns. Refused (0A000, PostgreSQL's texts): inside
 * aggregate or window function arguments, CASE, COALESCE, and in WHERE,
 * HAVING, JOIN conditions, LIMIT/OFFSET, VALUES, window definitions.
 * Multi-column ones (json_each, unnest of several arrays) only in FROM.
 */
#define STRATA_PLANNER_INTERNAL
#include "planner/planner_int.h"

#include <stdio.h>
#include <string.h>

static const struct {
    const char *name;
    TableFuncKind kind;
} srf_names[] = {
    {"generate_series", TABLEFUNC_GENERATE_SERIES},
    {"unnest", TABLEFUNC_UNNEST},
    {"regexp_matches", TABLEFUNC_REGEXP_MATCHES},
    {"regexp_split_to_table", TABLEFUNC_REGEXP_SPLIT},
    {"string_to_table", TABLEFUNC_STRING_TO_TABLE},
    {"json_array_elements", TABLEFUNC_JSON_ELEMENTS},
    {"jsonb_array_elements", TABLEFUNC_JSON_ELEMENTS},
    {"json_array_elements_text", TABLEFUNC_JSON_ELEMENTS_TEXT},
    {"jsonb_array_elements_text", TABLEFUNC_JSON_ELEMENTS_TEXT},
    {"json_each", TABLEFUNC_JSON_EACH},
    {"jsonb_each", TABLEFUNC_JSON_EACH},
    {"json_each_text", TABLEFUNC_JSON_EACH_TEXT},
    {"jsonb_each_text", TABLEFUNC_JSON_EACH_TEXT},
    {"json_object_keys", TABLEFUNC_JSON_OBJECT_KEYS},
    {"jsonb_object_keys", TABLEFUNC_JSON_OBJECT_KEYS},
    {"generate_subscripts", TABLEFUNC_GENERATE_SUBSCRIPTS},
};

bool plan__srf_lookup(const char *name, TableFuncKind *kind)
{
    for (size_t i = 0; i < sizeof srf_names / sizeof srf_names[0]; i++)
        if (strcmp(srf_names[i].name, name) == 0) {
            *kind = srf_names[i].kind;
            return true;
        }
    return false;
}

static _Noreturn void no_function(Binder *b, const char *name, Expr **args, int n, int loc)
{
    char sig[512];
    size_t len = 0;
    for (int i = 0; i < n && len < sizeof sig - 64; i++)
        len += (size_t)snprintf(sig + len, sizeof sig - len, "%s%s", i ? ", " : "",
                                plan__type_name(b, args[i]->type));
    sig[len] = 0;
    plan__error_hint(b, ERRCODE_UNDEFINED_FUNCTION, loc,
                     "No function matches the given name and argument types. You might need to add explicit type casts.",
                     "function %s(%s) does not exist", name, sig);
}

static bool is_datetime(uint32_t t)
{
    return t == TYPE_TIMESTAMP || t == TYPE_TIMESTAMPTZ || t == TYPE_DATE;
}

/* generate_series(int4|int8|numeric, ..[, step]) or (timestamp[tz], ..,
 * interval); dates resolve to timestamptz (PostgreSQL's preferred type). */
static SqlType series_types(Binder *b, Expr **args, int n, int loc)
{
    if (n < 2 || n > 3)
        no_function(b, "generate_series", args, n, loc);
    if (is_datetime(args[0]->type.oid) || is_datetime(args[1]->type.oid)) {
        uint32_t t = args[0]->type.oid == TYPE_TIMESTAMP || args[1]->type.oid == TYPE_TIMESTAMP
                         ? TYPE_TIMESTAMP : TYPE_TIMESTAMPTZ;
        if (n != 3)
            no_function(b, "generate_series", args, n, loc);
        Expr *c0 = plan__coerce(b, args[0], SQLTYPE(t), CAST_IMPLICIT);
        Expr *c1 = plan__coerce(b, args[1], SQLTYPE(t), CAST_IMPLICIT);
        Expr *c2 = plan__coerce(b, args[2], SQLTYPE(TYPE_INTERVAL), CAST_IMPLICIT);
        if (!c0 || !c1 || !c2)
            no_function(b, "generate_series", args, n, loc);
        args[0] = c0;
        args[1] = c1;
        args[2] = c2;
        return SQLTYPE(t);
    }
    for (int i = 0; i < n; i++)
        if (plan__type_category(args[i]->type.oid) != 'N' && args[i]->type.oid != TYPE_UNKNOWN)
            no_function(b, "generate_series", args, n, loc);
    SqlType t = plan__common_type(b, args, n, "generate_series");
    if (t.oid == TYPE_INT2 || t.oid == TYPE_UNKNOWN)
        t = SQLTYPE(TYPE_INT4);
    if (t.oid == TYPE_FLOAT4 || t.oid == TYPE_FLOAT8)
        t = SQLTYPE(TYPE_NUMERIC);   /* PostgreSQL: float args resolve to the numeric version */
    t.typmod = TYPMOD_NONE;
    plan__coerce_all(b, args, n, t, "generate_series");
    return t;
}

/* Coerce args[i] to type t implicitly or raise 42883 for the call. */
static void want(Binder *b, const char *name, Expr **args, int n, int i, uint32_t t, int loc)
{
    Expr *c = plan__coerce(b, args[i], SQLTYPE(t), CAST_IMPLICIT);
    if (!c)
        no_function(b, name, args, n, loc);
    args[i] = c;
}

static uint32_t array_elem(Binder *b, const char *name, Expr **args, int n, int i, int loc)
{
    if (args[i]->type.oid == TYPE_UNKNOWN)
        plan__error_at(b, ERRCODE_INDETERMINATE_DATATYPE, args[i]->location,
                       "could not determine polymorphic type because input has type unknown");
    uint32_t et = type_element_of(args[i]->type.oid);
    if (!et)
        no_function(b, name, args, n, loc);
    return et;
}

int plan__srf_resolve(Binder *b, const char *name, TableFuncKind kind, Expr **args, int n, int loc,
                      SqlType *col_types, const char **col_names)
{
    col_names[0] = name;
    switch (kind) {
    case TABLEFUNC_GENERATE_SERIES:
        col_types[0] = series_types(b, args, n, loc);
        return 1;
    case TABLEFUNC_UNNEST:
        if (n < 1)
            no_function(b, name, args, n, loc);
        if (n == 1 && args[0]->type.oid == TYPE_UNKNOWN)   /* unnest(anyarray | tsvector | anymultirange) */
            plan__error_hint(b, ERRCODE_AMBIGUOUS_FUNCTION, loc,
                             "Could not choose a best candidate function. You might need to add explicit type casts.",
                             "function unnest(unknown) is not unique");
        for (int i = 0; i < n; i++) {
            col_types[i] = SQLTYPE(array_elem(b, name, args, n, i, loc));
            col_names[i] = name;
        }
        return n;
    case TABLEFUNC_GENERATE_SUBSCRIPTS:
        if (n < 2 || n > 3)
            no_function(b, name, args, n, loc);
        (void)array_elem(b, name, args, n, 0, loc);
        want(b, name, args, n, 1, TYPE_INT4, loc);
        if (n > 2)
            want(b, name, args, n, 2, TYPE_BOOL, loc);
        col_types[0] = SQLTYPE(TYPE_INT4);
        return 1;
    case TABLEFUNC_REGEXP_MATCHES: case TABLEFUNC_REGEXP_SPLIT: case TABLEFUNC_STRING_TO_TABLE:
        if (n < 2 || n > 3)
            no_function(b, name, args, n, loc);
        for (int i = 0; i < n; i++)
            want(b, name, args, n, i, TYPE_TEXT, loc);
        col_types[0] = SQLTYPE(kind == TABLEFUNC_REGEXP_MATCHES ? TYPE_TEXT_ARRAY : TYPE_TEXT);
        return 1;
    default: {   /* the json ones: one json or jsonb argument, by the name */
        uint32_t jt = strncmp(name, "jsonb", 5) == 0 ? TYPE_JSONB : TYPE_JSON;
        if (n != 1)
            no_function(b, name, args, n, loc);
        want(b, name, args, n, 0, jt, loc);
        bool text = kind != TABLEFUNC_JSON_ELEMENTS && kind != TABLEFUNC_JSON_EACH;
        if (kind == TABLEFUNC_JSON_EACH || kind == TABLEFUNC_JSON_EACH_TEXT) {
            col_types[0] = SQLTYPE(TYPE_TEXT);
            col_types[1] = SQLTYPE(text ? TYPE_TEXT : jt);
            col_names[0] = "key";
            col_names[1] = "value";
            return 2;
        }
        col_types[0] = SQLTYPE(text ? TYPE_TEXT : jt);
        if (kind == TABLEFUNC_JSON_ELEMENTS || kind == TABLEFUNC_JSON_ELEMENTS_TEXT)
            col_names[0] = "value";
        return 1;
    }
    }
}

/* PostgreSQL's check_srf_call_placement, for the contexts the binder tracks. */
static void check_placement(Binder *b, int loc)
{
    const char *hint = "You might be able to move the set-returning function into a LATERAL FROM item.";
    if (b->srf_call)
        plan__error_hint(b, ERRCODE_FEATURE_NOT_SUPPORTED, loc, hint,
                         "%s function calls cannot contain set-returning function calls", b->srf_call);
    if (b->in_agg)
        plan__error_hint(b, ERRCODE_FEATURE_NOT_SUPPORTED, loc, hint,
                         "aggregate function calls cannot contain set-returning function calls");
    if (b->in_window)
        plan__error_hint(b, ERRCODE_FEATURE_NOT_SUPPORTED, loc, hint,
                         "window function calls cannot contain set-returning function calls");
    if (b->srf_cond)
        plan__error_hint(b, ERRCODE_FEATURE_NOT_SUPPORTED, loc, hint,
                         "set-returning functions are not allowed in %s", b->srf_cond);
    if (b->agg_forbidden && strcmp(b->agg_forbidden, "FILTER") == 0)
        plan__error_at(b, ERRCODE_FEATURE_NOT_SUPPORTED, loc, "set-returning functions are not allowed in FILTER");
    if (b->srf_allowed)
        return;
    const char *where = b->win_forbidden ? b->win_forbidden : b->agg_forbidden;
    if (where && strcmp(where, "GROUP BY") == 0)
        return;   /* evaluated below the aggregate (plan_select.c make_agg) */
    if (where && strcmp(where, "window definition") == 0)
        where = "window definitions";
    if (where)
        plan__error_at(b, ERRCODE_FEATURE_NOT_SUPPORTED, loc, "set-returning functions are not allowed in %s",
                       where);
    plan__error_at(b, ERRCODE_FEATURE_NOT_SUPPORTED, loc, "set-returning functions are not allowed here");
}

Expr *plan__bind_srf(Binder *b, const FuncCall *fc, TableFuncKind kind)
{
    int loc = fc->node.location;
    const char *name = list_nth(fc->funcname, list_len(fc->funcname) - 1);
    check_placement(b, loc);
    if (fc->agg_star || fc->agg_distinct || fc->agg_order || fc->agg_filter)
        plan__error_at(b, ERRCODE_WRONG_OBJECT_TYPE, loc, "%s specified, but %s is not an aggregate function",
                       fc->agg_star ? "*" : fc->agg_distinct ? "DISTINCT" : fc->agg_order ? "ORDER BY" : "FILTER",
                       name);
    int n = list_len(fc->args);
    Expr *e = plan__make_expr(b->arena, EXPR_SRF, SQLTYPE(TYPE_UNKNOWN), loc, n);
    for (int i = 0; i < n; i++)
        e->args[i] = plan__fold(b, plan__bind_expr(b, list_nth(fc->args, i)));
    SqlType types[FUNC_MAX_ARGS * 4 + 2];
    const char *names[FUNC_MAX_ARGS * 4 + 2];
    if (n > FUNC_MAX_ARGS * 4)
        no_function(b, name, e->args, n, loc);
    if (kind == TABLEFUNC_UNNEST && n != 1)
        no_function(b, name, e->args, n, loc);   /* several arrays: only in FROM */
    int ncols = plan__srf_resolve(b, name, kind, e->args, n, loc, types, names);
    if (ncols != 1)
        plan__error_at(b, ERRCODE_FEATURE_NOT_SUPPORTED, loc,
                       "%s() returns a record: call it in FROM (records are not supported in a select list)",
                       name);
    e->type = types[0];
    e->index = (int)kind;
    e->name = name;
    return e;
}

bool plan__expr_has_srf(const Expr *e)
{
    if (!e)
        return false;
    if (e->kind == EXPR_SRF)
        return true;
    for (int i = 0; i < e->nargs; i++)
        if (plan__expr_has_srf(e->args[i]))
            return true;
    return false;
}

typedef struct SrfLevel {
    const Expr **found;      /* SRFs without SRFs in their arguments */
    int n, cap;
} SrfLevel;

static void collect_innermost(Binder *b, const Expr *e, SrfLevel *lv)
{
    if (!e)
        return;
    bool inner = false;
    for (int i = 0; i < e->nargs; i++) {
        inner |= plan__expr_has_srf(e->args[i]);
        collect_innermost(b, e->args[i], lv);
    }
    if (e->kind != EXPR_SRF || inner)
        return;
    if (lv->n == lv->cap) {
        int cap = lv->cap ? lv->cap * 2 : 8;
        lv->found = mem_realloc(b->arena, lv->found, sizeof(Expr *) * (size_t)lv->cap, sizeof(Expr *) * (size_t)cap);
        lv->cap = cap;
    }
    lv->found[lv->n++] = e;
}

/* Copy of e with each collected SRF replaced by its ProjectSet column. */
static Expr *replace_srfs(Binder *b, const Expr *e, const SrfLevel *lv, int base)
{
    for (int j = 0; j < lv->n; j++)
        if (lv->found[j] == e) {
            Expr *c = plan__make_expr(b->arena, EXPR_COLUMN, e->type, e->location, 0);
            c->index = base + j;
            c->name = e->name;
            return c;
        }
    Expr *c = MEM_NEW(b->arena, Expr);
    *c = *e;
    if (e->nargs > 0) {
        c->args = MEM_NEW_ARRAY(b->arena, Expr *, e->nargs);
        for (int i = 0; i < e->nargs; i++)
            c->args[i] = replace_srfs(b, e->args[i], lv, base);
    }
    return c;
}

PlanNode *plan__plan_srfs(Binder *b, PlanNode *top, Expr **exprs, int n)
{
    for (;;) {
        SrfLevel lv = {NULL, 0, 0};
        for (int i = 0; i < n; i++)
            collect_innermost(b, exprs[i], &lv);
        if (lv.n == 0)
            return top;
        int base = top->ncols;
        PlanNode *ps = plan__new_node(b->arena, PLAN_PROJECT_SET, base + lv.n);
        ps->left = top;
        ps->exprs = MEM_NEW_ARRAY(b->arena, Expr *, base + lv.n);
        for (int c = 0; c < base; c++) {
            Expr *col = plan__make_expr(b->arena, EXPR_COLUMN, top->col_types[c], -1, 0);
            col->index = c;
            ps->exprs[c] = col;
            ps->col_types[c] = top->col_types[c];
            ps->col_names[c] = top->col_names[c];
        }
        for (int j = 0; j < lv.n; j++) {
            ps->exprs[base + j] = (Expr *)lv.found[j];
            ps->col_types[base + j] = lv.found[j]->type;
            ps->col_names[base + j] = plan__deparse(b->arena, lv.found[j], top->col_names);
        }
        ps->est_rows = top->est_rows * 10;
        for (int i = 0; i < n; i++)
            exprs[i] = replace_srfs(b, exprs[i], &lv, base);
        top = ps;
    }
}
