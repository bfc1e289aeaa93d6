/*
 * bind_record.c — anonymous records: ROW(...), field selection `(r).f`,
 * `(r).*` in a select list, and the information_schema function that
 * returns them, `_pg_expandarray(anyarray)` (JDBC's getPrimaryKeys and
 * getIndexInfo call it, in a select list and through a subquery column).
 *
 * Representation (why it works everywhere at once): a record value is its
 * record_out text in a PHYS_STR vector (type record, OID 2249), built by
 * the executor's row kernel (executor/funcs_record.c), so it flows through
 * projections, subqueries, CTEs, joins and the wire unchanged. What a
 * record's fields are is planner knowledge: a process-wide registry of
 * shapes (field names and types), indexed by the type's typmod — the same
 * trick as PostgreSQL's "blessed" record typmods. A typmod travels with
 * every SqlType (range-entry columns, plan columns), so `(s.keys).x` over a
 * subquery column still knows that x is the first field and a smallint.
 *
 * Field selection on the row constructor itself picks the field's
 * expression (no text round trip: `(f(a)).n` costs what n costs); on any
 * other record value it is record_field(r, i) → text, cast to the field's
 * type by the ordinary I/O cast.
 *
 * _pg_expandarray is inlined as PostgreSQL's SQL body says: x = $1[s],
 * n = s - array_lower($1, 1) + 1 over the subscripts s. In a select list
 * s is generate_subscripts($1, 1), once in x and once in n: set-returning
 * functions of one array that advance in lockstep in the ProjectSet, so
 * they pair up; in FROM it is unnest($1) WITH ORDINALITY under a
 * projection naming the columns x, n (n as integer) — the same rows for
 * one-dimensional arrays (a multidimensional one gives all its elements
 * there, where PostgreSQL gives NULLs over the first dimension).
 */
#define STRATA_PLANNER_INTERNAL
#include "planner/planner_int.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------- the registry of record shapes ---------- */

#define RECORD_SHAPES_MAX 4096   /* distinct shapes per server: a limit on everything */

static pthread_mutex_t shapes_lock = PTHREAD_MUTEX_INITIALIZER;
static PlanRecordDesc *shapes[RECORD_SHAPES_MAX];
static int nshapes;

static bool same_shape(const PlanRecordDesc *d, int n, const char *const *names, const SqlType *types)
{
    if (d->nfields != n)
        return false;
    for (int i = 0; i < n; i++)
        if (strcmp(d->names[i], names[i]) != 0 || d->types[i].oid != types[i].oid ||
            d->types[i].typmod != types[i].typmod)
            return false;
    return true;
}

/* The shape's typmod: an existing equal shape's, else a new entry (kept
 * for the life of the process; shapes are few: one per distinct row
 * constructor / function signature). */
int32_t plan__record_typmod(int n, const char *const *names, const SqlType *types)
{
    pthread_mutex_lock(&shapes_lock);
    for (int i = 0; i < nshapes; i++)
        if (same_shape(shapes[i], n, names, types)) {
            pthread_mutex_unlock(&shapes_lock);
            return i;
        }
    if (nshapes == RECORD_SHAPES_MAX) {
        pthread_mutex_unlock(&shapes_lock);
        err_raise(ERRCODE_PROGRAM_LIMIT_EXCEEDED, "too many distinct record types (limit %d)",
                  RECORD_SHAPES_MAX);
    }
    PlanRecordDesc *d = calloc(1, sizeof *d + (size_t)n * (sizeof(char *) + sizeof(SqlType)));
    if (!d) {
        pthread_mutex_unlock(&shapes_lock);
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    }
    d->nfields = n;
    d->types = (SqlType *)(d + 1);
    d->names = (const char **)(d->types + n);
    for (int i = 0; i < n; i++) {
        d->types[i] = types[i];
        d->names[i] = strdup(names[i]);
    }
    shapes[nshapes] = d;
    int32_t typmod = nshapes++;
    pthread_mutex_unlock(&shapes_lock);
    return typmod;
}

const PlanRecordDesc *plan__record_desc(int32_t typmod)
{
    pthread_mutex_lock(&shapes_lock);
    const PlanRecordDesc *d = typmod >= 0 && typmod < nshapes ? shapes[typmod] : NULL;
    pthread_mutex_unlock(&shapes_lock);
    return d;
}

/* ---------- building and reading records ---------- */

Expr *plan__make_record(Binder *b, Expr **fields, const char *const *names, int n, int loc)
{
    const FuncDesc *f = exec_record_build(n);
    if (!f)
        plan__error_at(b, ERRCODE_FEATURE_NOT_SUPPORTED, loc,
                       "records with more than %d fields are not supported", EXEC_RECORD_MAX_FIELDS);
    SqlType types[EXEC_RECORD_MAX_FIELDS];
    Expr *e = plan__make_expr(b->arena, EXPR_FUNC, SQLTYPE(TYPE_RECORD), loc, n);
    for (int i = 0; i < n; i++) {
        e->args[i] = plan__resolve_unknown(b, fields[i]);
        types[i] = e->args[i]->type;
    }
    e->type.typmod = plan__record_typmod(n, names, types);
    e->func = f;
    e->name = "ROW";
    return e;
}

/* ROW(a, b) / (a, b): fields f1, f2, ... as PostgreSQL names them. */
Expr *plan__bind_row(Binder *b, const RowExpr *r)
{
    int n = list_len(r->args);
    if (n > EXEC_RECORD_MAX_FIELDS)
        plan__error_at(b, ERRCODE_FEATURE_NOT_SUPPORTED, r->node.location,
                       "records with more than %d fields are not supported", EXEC_RECORD_MAX_FIELDS);
    Expr *fields[EXEC_RECORD_MAX_FIELDS];
    const char *names[EXEC_RECORD_MAX_FIELDS];
    for (int i = 0; i < n; i++) {
        fields[i] = plan__bind_expr(b, list_nth(r->args, i));
        names[i] = mem_printf(b->arena, "f%d", i + 1);
    }
    return plan__make_record(b, fields, names, n, r->node.location);
}

static const PlanRecordDesc *record_shape(Binder *b, const Expr *e, const char *field, int loc)
{
    if (e->type.oid != TYPE_RECORD)
        plan__error_at(b, ERRCODE_WRONG_OBJECT_TYPE, loc,
                       "column notation .%s applied to type %s, which is not a composite type", field,
                       plan__type_name(b, e->type));
    return plan__record_desc(e->type.typmod);
}

/* Field idx of record e: the constructor's own argument, else
 * record_field(e, idx) read back as the field's type. */
static Expr *field_expr(Binder *b, Expr *e, const PlanRecordDesc *d, int idx, int loc)
{
    if (e->kind == EXPR_FUNC && e->func == exec_record_build(e->nargs))
        return plan__copy_expr(b->arena, e->args[idx]);
    Expr *f = plan__make_expr(b->arena, EXPR_FUNC, SQLTYPE(TYPE_TEXT), loc, 2);
    f->args[0] = e;
    Value v = {.is_null = false};
    v.u.i32 = idx;
    f->args[1] = plan__make_const(b->arena, SQLTYPE(TYPE_INT4), v, loc);
    f->func = exec_record_field();
    f->name = "record_field";
    SqlType t = d->types[idx];
    if (t.oid == TYPE_TEXT)
        return f;
    if (t.oid == TYPE_RECORD) {   /* a nested record's text is its value */
        f->type = t;
        return f;
    }
    Expr *c = plan__coerce(b, f, t, CAST_EXPLICIT);
    if (!c)
        plan__error_at(b, ERRCODE_FEATURE_NOT_SUPPORTED, loc, "fields of type %s are not supported in records",
                       plan__type_name(b, t));
    return c;
}

static Expr *select_field(Binder *b, Expr *e, const char *name, int loc)
{
    const PlanRecordDesc *d = record_shape(b, e, name, loc);
    for (int i = 0; d && i < d->nfields; i++)
        if (strcmp(d->names[i], name) == 0)
            return field_expr(b, e, d, i, loc);
    plan__error_at(b, ERRCODE_UNDEFINED_COLUMN, loc, "could not identify column \"%s\" in record data type", name);
}

/* The record an indirection list selects from, after its field names up
 * to (not including) element `upto`. */
static Expr *bind_fields(Binder *b, const A_Indirection *ind, int upto)
{
    Expr *e = plan__bind_expr(b, ind->arg);
    for (int i = 0; i < upto; i++) {
        const Node *el = list_nth(ind->indirection, i);
        if (IS_A(el, String))
            e = select_field(b, e, ((const String *)el)->sval, ind->arg->location);
        else if (IS_A(el, A_Star))
            plan__error_at(b, ERRCODE_FEATURE_NOT_SUPPORTED, ind->node.location,
                           "row expansion via \"*\" is not supported here");
        else
            plan__error_at(b, ERRCODE_FEATURE_NOT_SUPPORTED, el->location,
                           "subscripts mixed with field selections are not supported");
    }
    return e;
}

bool plan__indirection_has_fields(const A_Indirection *ind)
{
    for (int i = 0; i < list_len(ind->indirection); i++) {
        const Node *el = list_nth(ind->indirection, i);
        if (IS_A(el, String) || IS_A(el, A_Star))
            return true;
    }
    return false;
}

Expr *plan__bind_field_select(Binder *b, const A_Indirection *ind)
{
    return bind_fields(b, ind, list_len(ind->indirection));
}

List *plan__expand_record_star(Binder *b, const Node *val)
{
    if (!IS_A(val, A_Indirection))
        return NULL;
    const A_Indirection *ind = (const A_Indirection *)val;
    int n = list_len(ind->indirection);
    if (n == 0 || !IS_A(list_nth(ind->indirection, n - 1), A_Star))
        return NULL;
    Expr *e = bind_fields(b, ind, n - 1);
    const PlanRecordDesc *d = record_shape(b, e, "*", ind->arg->location);
    if (!d)
        plan__error_at(b, ERRCODE_FEATURE_NOT_SUPPORTED, ind->arg->location,
                       "record type has not been registered");
    List *out = NULL;
    for (int i = 0; i < d->nfields; i++) {
        Expr *f = field_expr(b, e, d, i, ind->arg->location);
        Expr *named = plan__make_expr(b->arena, f->kind, f->type, f->location, 0);
        *named = *f;
        named->name = d->names[i];   /* the target's column name */
        out = list_append(b->arena, out, named);
    }
    return out;
}

/* ---------- information_schema functions ---------- */

static FuncCall *make_call(Binder *b, const char *name, const Node *arg, bool with_one, int loc)
{
    FuncCall *fc = mem_alloc(b->arena, sizeof *fc);
    memset(fc, 0, sizeof *fc);
    fc->node.tag = T_FuncCall;
    fc->node.location = loc;
    fc->funcname = list_make1(b->arena, (void *)name);
    fc->args = list_make1(b->arena, (void *)arg);
    if (with_one) {
        A_Const *one = mem_alloc(b->arena, sizeof *one);
        memset(one, 0, sizeof *one);
        one->node.tag = T_A_Const;
        one->node.location = -1;
        one->kind = CONST_INTEGER;
        one->ival = 1;
        one->text = "1";
        fc->args = list_append(b->arena, fc->args, one);
    }
    return fc;
}

static _Noreturn void no_infoschema_function(Binder *b, const char *name, Expr **args, int n, int loc)
{
    char sig[512];
    size_t len = 0;
    for (int i = 0; i < n && len < sizeof sig - 64; i++)
        len += (size_t)snprintf(sig + len, sizeof sig - len, "%s%s", i ? ", " : "",
                                plan__type_name(b, args[i]->type));
    sig[len] = 0;
    plan__error_hint(b, ERRCODE_UNDEFINED_FUNCTION, loc,
                     "No function matches the given name and argument types. You might need to add explicit type casts.",
                     "function information_schema.%s(%s) does not exist", name, sig);
}

/* information_schema.f(args) is only _pg_expandarray(anyarray) today;
 * returns its argument's array expression (bound once, for checking). */
static const Node *expandarray_arg(Binder *b, const FuncCall *fc)
{
    const char *name = list_nth(fc->funcname, list_len(fc->funcname) - 1);
    int n = list_len(fc->args);
    Expr *args[FUNC_MAX_ARGS * 4];
    for (int i = 0; i < n && i < FUNC_MAX_ARGS * 4; i++)
        args[i] = plan__bind_expr(b, list_nth(fc->args, i));
    if (strcmp(name, "_pg_expandarray") != 0 || n != 1 || fc->over || fc->agg_star || fc->agg_distinct)
        no_infoschema_function(b, name, args, n < FUNC_MAX_ARGS * 4 ? n : FUNC_MAX_ARGS * 4, fc->node.location);
    if (args[0]->type.oid == TYPE_UNKNOWN)
        plan__error_at(b, ERRCODE_DATATYPE_MISMATCH, -1,
                       "could not determine polymorphic type because input has type unknown");
    if (!type_element_of(args[0]->type.oid))
        no_infoschema_function(b, name, args, 1, fc->node.location);
    return list_nth(fc->args, 0);
}

Expr *plan__bind_infoschema_func(Binder *b, const FuncCall *fc)
{
    if (list_len(fc->funcname) != 2)
        plan__error_at(b, ERRCODE_FEATURE_NOT_SUPPORTED, fc->node.location,
                       "cross-database references are not implemented");
    const Node *arr = expandarray_arg(b, fc);
    int loc = fc->node.location;
    /* x = $1[s]: one subscript, so a multidimensional array gives NULLs
     * over its first dimension, as PostgreSQL's SQL body */
    A_Indices *ix = mem_alloc(b->arena, sizeof *ix);
    memset(ix, 0, sizeof *ix);
    ix->node.tag = T_A_Indices;
    ix->node.location = loc;
    ix->uidx = (Node *)make_call(b, "generate_subscripts", arr, true, loc);
    A_Indirection *sub = mem_alloc(b->arena, sizeof *sub);
    memset(sub, 0, sizeof *sub);
    sub->node.tag = T_A_Indirection;
    sub->node.location = loc;
    sub->arg = (Node *)arr;
    sub->indirection = list_make1(b->arena, ix);
    Expr *x = plan__bind_expr(b, (const Node *)sub);
    Expr *s = plan__bind_srf(b, make_call(b, "generate_subscripts", arr, true, loc),
                             TABLEFUNC_GENERATE_SUBSCRIPTS);
    Expr *lower = plan__bind_expr(b, (const Node *)make_call(b, "array_lower", arr, true, loc));
    Value one = {.is_null = false};
    one.u.i32 = 1;
    Expr *n = plan__make_op(b, "+", plan__make_op(b, "-", s, lower, loc),
                            plan__make_const(b->arena, SQLTYPE(TYPE_INT4), one, loc), loc);
    Expr *fields[2] = {x, n};
    static const char *const names[2] = {"x", "n"};
    return plan__make_record(b, fields, names, 2, loc);
}

bool plan__is_infoschema_call(const FuncCall *fc)
{
    return list_len(fc->funcname) > 1 && strcmp(list_nth(fc->funcname, 0), "information_schema") == 0;
}

PlanNode *plan__plan_infoschema_from(Binder *b, const RangeFunction *rf, const char ***names,
                                     Expr ***largs, int *nl)
{
    const FuncCall *fc = list_nth(rf->functions, 0);
    {   /* check the name and the argument in a scratch binder (lateral refs allowed) */
        Binder scratch;
        plan__child_binder(&scratch, b, true);
        (void)expandarray_arg(&scratch, fc);
    }
    if (rf->ordinality)
        plan__error_at(b, ERRCODE_FEATURE_NOT_SUPPORTED, rf->node.location,
                       "WITH ORDINALITY on _pg_expandarray is not supported");
    RangeFunction un = *rf;
    un.functions = list_make1(b->arena, make_call(b, "unnest", list_nth(fc->args, 0), false, fc->node.location));
    un.ordinality = true;
    un.alias = NULL;
    un.colaliases = NULL;
    const char **inner_names = NULL;
    PlanNode *scan = plan__plan_table_function(b, &un, &inner_names, largs, nl);
    PlanNode *p = plan__new_node(b->arena, PLAN_PROJECT, 2);
    p->left = scan;
    p->exprs = MEM_NEW_ARRAY(b->arena, Expr *, 2);
    p->exprs[0] = plan__make_expr(b->arena, EXPR_COLUMN, scan->col_types[0], -1, 0);
    p->exprs[0]->index = 0;
    Expr *ord = plan__make_expr(b->arena, EXPR_COLUMN, scan->col_types[1], -1, 0);
    ord->index = 1;
    p->exprs[1] = plan__coerce(b, ord, SQLTYPE(TYPE_INT4), CAST_ASSIGNMENT);
    const char **nm = MEM_NEW_ARRAY(b->arena, const char *, 2);
    nm[0] = "x";
    nm[1] = "n";
    for (int i = 0; i < 2; i++) {
        p->col_types[i] = p->exprs[i]->type;
        p->col_names[i] = nm[i];
    }
    p->est_rows = scan->est_rows;
    *names = nm;
    return p;
}

/* ---------- row comparisons ---------- */

static Expr *bool_op(Binder *b, ExprKind kind, Expr *l, Expr *r, int loc)
{
    Expr *e = plan__make_expr(b->arena, kind, SQLTYPE(TYPE_BOOL), loc, 2);
    e->args[0] = l;
    e->args[1] = r;
    return e;
}

/*
 * ROW(a1, .., an) op ROW(b1, .., bn), PostgreSQL's RowCompareExpr: `=` is
 * the AND of the pairs' `=`, `<>` the OR of their `<>`; `<` `<=` `>` `>=`
 * compare lexicographically: (a1 < b1) OR (a1 = b1 AND (rest)), the last
 * pair with op itself — which gives PostgreSQL's NULL results (the first
 * pair that is not equal decides; a NULL before that makes it NULL). Each
 * pair is typed on its own, so unknown literals take the other side's type.
 */
Expr *plan__bind_row_compare(Binder *b, const char *op, const RowExpr *l, const RowExpr *r, int loc)
{
    int n = list_len(l->args);
    if (n != list_len(r->args))
        plan__error_at(b, ERRCODE_SYNTAX_ERROR, loc, "unequal number of entries in row expressions");
    if (n == 0)
        plan__error_at(b, ERRCODE_FEATURE_NOT_SUPPORTED, loc, "cannot compare rows of zero length");
    bool eq = strcmp(op, "=") == 0, ne = strcmp(op, "<>") == 0;
    bool less = strcmp(op, "<") == 0 || strcmp(op, "<=") == 0;
    bool greater = strcmp(op, ">") == 0 || strcmp(op, ">=") == 0;
    Expr **le = MEM_NEW_ARRAY(b->arena, Expr *, n), **re = MEM_NEW_ARRAY(b->arena, Expr *, n);
    for (int i = 0; i < n; i++) {
        le[i] = plan__bind_expr(b, list_nth(l->args, i));
        re[i] = plan__bind_expr(b, list_nth(r->args, i));
    }
    if (!eq && !ne && !less && !greater) {   /* PostgreSQL resolves the pairs' operator first */
        Expr *first = plan__make_op(b, op, le[0], re[0], loc);
        if (first->type.oid != TYPE_BOOL)
            plan__error_at(b, ERRCODE_DATATYPE_MISMATCH, loc,
                           "row comparison operator must yield type boolean, not type %s",
                           plan__type_name(b, first->type));
        plan__error_hint(b, ERRCODE_UNDEFINED_FUNCTION, loc,
                         "Row comparison operators must be associated with btree operator families.",
                         "could not determine interpretation of row comparison operator %s", op);
    }
    Expr *acc = plan__make_op(b, op, le[n - 1], re[n - 1], loc);
    for (int i = n - 2; i >= 0; i--) {
        Expr *pair = plan__make_op(b, eq || ne ? op : less ? "<" : ">", le[i], re[i], loc);
        if (eq)
            acc = bool_op(b, EXPR_AND, pair, acc, loc);
        else if (ne)
            acc = bool_op(b, EXPR_OR, pair, acc, loc);
        else
            acc = bool_op(b, EXPR_OR, pair,
                          bool_op(b, EXPR_AND, plan__make_op(b, "=", le[i], re[i], loc), acc, loc), loc);
    }
    return plan__fold(b, acc);
}

/* ROW(..) [NOT] IN (ROW(..), ...): the OR of row equalities (NOT IN: the
 * AND of row `<>`), as PostgreSQL; NULL when the list has an item that is
 * not a row constructor (the caller's ordinary path then reports it). */
Expr *plan__bind_row_in(Binder *b, const A_Expr *a)
{
    const List *items = (const List *)a->rexpr;
    for (int i = 0; i < list_len(items); i++)
        if (!IS_A(list_nth(items, i), RowExpr))
            return NULL;
    bool negated = strcmp(a->name, "<>") == 0;
    Expr *acc = NULL;
    for (int i = 0; i < list_len(items); i++) {
        Expr *c = plan__bind_row_compare(b, negated ? "<>" : "=", (const RowExpr *)a->lexpr,
                                         list_nth(items, i), a->node.location);
        acc = acc ? bool_op(b, negated ? EXPR_AND : EXPR_OR, acc, c, a->node.location) : c;
    }
    return plan__fold(b, acc);
}

/* r IS [NOT] NULL on a record (PostgreSQL's row null test): IS NULL when
 * every field is NULL, IS NOT NULL when none is — so ROW(1, NULL) is
 * neither. A NULL record value has only NULL fields. */
Expr *plan__record_null_test(Binder *b, Expr *arg, bool is_null, int loc)
{
    const PlanRecordDesc *d = plan__record_desc(arg->type.typmod);
    if (!d)
        return NULL;
    Expr *acc = NULL;
    for (int i = 0; i < d->nfields; i++) {
        Expr *t = plan__make_expr(b->arena, is_null ? EXPR_IS_NULL : EXPR_IS_NOT_NULL, SQLTYPE(TYPE_BOOL),
                                  loc, 1);
        t->args[0] = field_expr(b, arg, d, i, loc);
        acc = acc ? bool_op(b, EXPR_AND, acc, t, loc) : t;
    }
    return plan__fold(b, acc ? acc : plan__make_bool(b->arena, true, loc));
}

/* ROW(..) IS [NOT] DISTINCT FROM ROW(..): the OR of the pairs' IS DISTINCT
 * FROM (its negation), as PostgreSQL's make_row_distinct_op. */
Expr *plan__bind_row_distinct(Binder *b, const A_Expr *a, bool negated)
{
    const RowExpr *l = (const RowExpr *)a->lexpr, *r = (const RowExpr *)a->rexpr;
    int loc = a->node.location, n = list_len(l->args);
    if (n != list_len(r->args))
        plan__error_at(b, ERRCODE_SYNTAX_ERROR, loc, "unequal number of entries in row expressions");
    Expr *acc = NULL;
    for (int i = 0; i < n; i++) {
        A_Expr *pair = mem_alloc(b->arena, sizeof *pair);
        memset(pair, 0, sizeof *pair);
        pair->node.tag = T_A_Expr;
        pair->node.location = loc;
        pair->kind = AEXPR_DISTINCT;
        pair->name = "=";
        pair->lexpr = list_nth(l->args, i);
        pair->rexpr = list_nth(r->args, i);
        Expr *d = plan__bind_expr(b, (const Node *)pair);
        acc = acc ? bool_op(b, EXPR_OR, acc, d, loc) : d;
    }
    if (!acc)
        acc = plan__make_bool(b->arena, false, loc);
    if (negated) {
        Expr *not = plan__make_expr(b->arena, EXPR_NOT, SQLTYPE(TYPE_BOOL), loc, 1);
        not->args[0] = acc;
        acc = not;
    }
    return plan__fold(b, acc);
}
