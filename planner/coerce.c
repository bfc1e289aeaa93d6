/*
 * coerce.c — PostgreSQL's type coercion rules (parse_coerce.c): which casts
 * apply in which context, unknown literals and parameters typed by
 * context, select_common_type for CASE/VALUES/IN, and type names with
 * typmods.
 *
 * Casts come from the executor's registry (exec_cast_lookup) with
 * pg_cast's contexts: 'i' implicit (anywhere), 'a' assignment (INSERT
 * targets), 'e' explicit (CAST / ::). An unknown-typed literal is not cast
 * at run time: it is converted at plan time with the target type's input
 * function, as PostgreSQL does, so '2024-01-01' compared with a date
 * column is a date constant.
 */
#define STRATA_PLANNER_INTERNAL
#include "planner/planner_int.h"

#include <string.h>
#include "common/numeric.h"
#include "common/typio.h"

/* pg_type.typcategory and typispreferred, from common/types.c's table
 * (PostgreSQL's values: timestamptz is the preferred type of category D,
 * interval of T, text of S, float8 and oid of N). */
char plan__type_category(uint32_t oid)
{
    const TypeInfo *ti = type_info(oid);
    return ti ? ti->category : 'U';
}

bool plan__type_preferred(uint32_t oid)
{
    const TypeInfo *ti = type_info(oid);
    return ti && ti->preferred;
}

static bool context_allows(char cast_ctx, char wanted)
{
    if (wanted == CAST_EXPLICIT)
        return true;
    if (wanted == CAST_ASSIGNMENT)
        return cast_ctx == CAST_IMPLICIT || cast_ctx == CAST_ASSIGNMENT;
    return cast_ctx == CAST_IMPLICIT;
}

/* Array coercion (PostgreSQL's find_coercion_pathway for two array
 * types): t[] -> u[] exists wherever the element cast t -> u does, in the
 * element cast's context. 0 when there is none. */
static bool is_string_type(uint32_t t)
{
    return t == TYPE_TEXT || t == TYPE_VARCHAR || t == TYPE_BPCHAR;
}

static char array_cast_context(uint32_t from, uint32_t to)
{
    uint32_t fe = type_element_of(from), te = type_element_of(to);
    if (fe && is_string_type(to))   /* I/O conversion casts, as PostgreSQL's */
        return CAST_ASSIGNMENT;
    if (te && is_string_type(from))
        return CAST_EXPLICIT;
    if (!fe || !te)
        return 0;
    const CastDesc *ec = exec_cast_lookup(fe, te);
    return ec ? ec->context : 0;
}

/* The cast descriptor of an array coercion (plan arena: it lives as long
 * as the expression that points at it). */
static const CastDesc *array_cast_desc(Binder *b, uint32_t from, uint32_t to, char context)
{
    char ctx = array_cast_context(from, to);
    if (!ctx || !context_allows(ctx, context))
        return NULL;
    CastDesc *c = mem_alloc(b->arena, sizeof *c);
    c->source = from;
    c->target = to;
    c->context = ctx;
    if (is_string_type(to) || is_string_type(from))
        c->kernel = exec_array_io_cast_kernel(is_string_type(to));
    else
        c->kernel = exec_array_cast_kernel(context == CAST_EXPLICIT);
    return c;
}

bool plan__can_coerce(uint32_t from, uint32_t to, char context)
{
    if (from == to || from == TYPE_UNKNOWN)
        return true;
    const CastDesc *c = exec_cast_lookup(from, to);
    if (!c) {
        char ac = array_cast_context(from, to);
        return ac && context_allows(ac, context);
    }
    return c && context_allows(c->context, context);
}

/* Re-raise the current error with the literal's position when it has none. */
static _Noreturn void rethrow_with_position(const Binder *b, int location)
{
    const ErrorData *cur = err_current();
    if (cur->position != 0 || plan__pos(b, location) == 0)
        err_rethrow();
    ErrorData copy = *cur;
    err_clear();   /* we re-raise it ourselves: not a second error */
    ErrorData *e = err_begin(copy.sqlstate);
    *e = copy;
    e->position = plan__pos(b, location);
    err_throw();
}

/* type_input, with the literal's position added to its errors. A function
 * of its own so no local is live across the setjmp. */
static void input_at(Binder *b, SqlType t, StrRef s, int location, Value *out)
{
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        type_input(t, s.ptr, s.len, b->arena, out);
        err_pop(&jmp);
    } else {
        rethrow_with_position(b, location);
    }
}

/* An unknown literal as a constant of the target type (input function). */
static Expr *const_input(Binder *b, const Expr *e, SqlType target, bool is_explicit)
{
    Value v = {.is_null = true};
    if (e->value.is_null)
        return plan__make_const(b->arena, target, v, e->location);
    /* Input errors point at the literal; typmod errors (too long, numeric
     * overflow) come from the length coercion and carry no position, as in
     * PostgreSQL. */
    bool typmod_later = target.typmod >= 0 &&
                        (target.oid == TYPE_VARCHAR || target.oid == TYPE_BPCHAR || target.oid == TYPE_NUMERIC);
    SqlType base = target;
    if (typmod_later)
        base.typmod = TYPMOD_NONE;
    input_at(b, base, e->value.u.str, e->location, &v);
    if (typmod_later && target.oid == TYPE_NUMERIC)
        v.u.str = numeric_apply_typmod(v.u.str, target.typmod, b->arena);
    else if (typmod_later) /* CAST('abcdef' AS varchar(3)) truncates, as PostgreSQL */
        v.u.str = typio_char_typmod(target, v.u.str.ptr, v.u.str.len, is_explicit, b->arena);
    return plan__make_const(b->arena, target, v, e->location);
}

static Expr *make_cast(Binder *b, Expr *e, const CastDesc *c, SqlType target)
{
    Expr *x = plan__make_expr(b->arena, EXPR_CAST, target, e->location, 1);
    x->args[0] = e;
    x->cast = c;
    char buf[128];
    const char *tn = type_format(SQLTYPE(target.oid), buf, sizeof buf);
    x->name = mem_strdup(b->arena, tn ? tn : "?");
    return x;
}

static Expr *coerce_param(Binder *b, Expr *e, SqlType target, char context)
{
    int idx = e->index;
    if (b->param_fixed[idx] || b->param_types[idx].oid != TYPE_UNKNOWN)
        return NULL;
    b->param_types[idx] = SQLTYPE(target.oid);
    e->type = SQLTYPE(target.oid);
    return plan__coerce(b, e, target, context);
}

Expr *plan__coerce(Binder *b, Expr *e, SqlType target, char context)
{
    SqlType src = e->type;
    if (src.oid == target.oid) {
        if (target.typmod < 0 || src.typmod == target.typmod || context == CAST_IMPLICIT)
            return e;
        const CastDesc *tc = context == CAST_EXPLICIT ? exec_cast_lookup_explicit(target.oid, target.oid)
                                                      : exec_cast_lookup(target.oid, target.oid);
        if (!tc)
            return e;
        return plan__fold(b, make_cast(b, e, tc, target));
    }
    if (src.oid == TYPE_UNKNOWN && e->kind == EXPR_CONST)
        return const_input(b, e, target, context == CAST_EXPLICIT);
    if (src.oid == TYPE_UNKNOWN && e->kind == EXPR_PARAM) {
        Expr *r = coerce_param(b, e, target, context);
        if (r)
            return r;
    }
    const CastDesc *c = exec_cast_lookup(src.oid, target.oid);
    if (!c && (type_is_array(src.oid) || type_is_array(target.oid))) {
        c = array_cast_desc(b, src.oid, target.oid, context);
        return c ? plan__fold(b, make_cast(b, e, c, target)) : NULL;
    }
    if (!c || !context_allows(c->context, context))
        return NULL;
    if (context == CAST_EXPLICIT)
        c = exec_cast_lookup_explicit(src.oid, target.oid);
    return plan__fold(b, make_cast(b, e, c, target));
}

Expr *plan__coerce_bool(Binder *b, Expr *e, const char *what)
{
    if (e->type.oid == TYPE_BOOL)
        return e;
    Expr *r = NULL;
    if (e->type.oid == TYPE_UNKNOWN)
        r = plan__coerce(b, e, SQLTYPE(TYPE_BOOL), CAST_IMPLICIT);
    if (!r)
        plan__error_at(b, ERRCODE_DATATYPE_MISMATCH, e->location,
                       "argument of %s must be type %s, not type %s", what, "boolean",
                       plan__type_name(b, e->type));
    return r;
}

Expr *plan__resolve_unknown(Binder *b, Expr *e)
{
    if (e->type.oid != TYPE_UNKNOWN)
        return e;
    Expr *r = plan__coerce(b, e, SQLTYPE(TYPE_TEXT), CAST_IMPLICIT);
    return r ? r : e;
}

/*
 * select_common_type: the first non-unknown input's type wins unless a
 * later input of the same category is one it can be implicitly cast to
 * and not back (int4 then numeric → numeric), preferred types stick.
 * All unknown → text. Categories differ: "<context> types x and y cannot
 * be matched" (42804), or TYPE_INVALID when context is NULL.
 */
SqlType plan__common_type(Binder *b, Expr **exprs, int n, const char *context)
{
    int first = -1;
    for (int i = 0; i < n; i++)
        if (exprs[i]->type.oid != TYPE_UNKNOWN) {
            first = i;
            break;
        }
    if (first < 0)
        return SQLTYPE(TYPE_TEXT);
    SqlType p = SQLTYPE(exprs[first]->type.oid);
    for (int i = first + 1; i < n; i++) {
        uint32_t t = exprs[i]->type.oid;
        if (t == TYPE_UNKNOWN || t == p.oid)
            continue;
        if (plan__type_category(t) != plan__type_category(p.oid)) {
            if (!context)
                return SQLTYPE(TYPE_INVALID);
            plan__error_at(b, ERRCODE_DATATYPE_MISMATCH, exprs[i]->location,
                           "%s types %s and %s cannot be matched", context,
                           plan__type_name(b, p), plan__type_name(b, SQLTYPE(t)));
        }
        if (!plan__type_preferred(p.oid) && plan__can_coerce(p.oid, t, CAST_IMPLICIT) &&
            !plan__can_coerce(t, p.oid, CAST_IMPLICIT))
            p = SQLTYPE(t);
    }
    /* select_common_typmod: kept only when every input has that type and typmod */
    p.typmod = exprs[0]->type.typmod;
    for (int i = 0; i < n; i++)
        if (exprs[i]->type.oid != p.oid || exprs[i]->type.typmod != p.typmod)
            p.typmod = TYPMOD_NONE;
    return p;
}

/* Coerce every expression to t (implicit), or 42846 "<context> could not convert type x to y". */
void plan__coerce_all(Binder *b, Expr **exprs, int n, SqlType t, const char *context)
{
    for (int i = 0; i < n; i++) {
        Expr *r = plan__coerce(b, exprs[i], t, CAST_IMPLICIT);
        if (!r)
            plan__error_at(b, ERRCODE_CANNOT_COERCE, exprs[i]->location,
                           "%s could not convert type %s to %s", context,
                           plan__type_name(b, exprs[i]->type), plan__type_name(b, t));
        exprs[i] = r;
    }
}

static int typmod_int(Binder *b, const TypeName *tn, int i)
{
    const Node *n = list_nth(tn->typmods, i);
    if (!IS_A(n, A_Const) || ((const A_Const *)n)->kind != CONST_INTEGER)
        plan__error_at(b, ERRCODE_SYNTAX_ERROR, n->location, "type modifiers must be simple constants or identifiers");
    int64_t v = ((const A_Const *)n)->ival;
    return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int)v;
}

static int32_t char_typmod(Binder *b, const TypeName *tn, const char *sqlname)
{
    int ntm = list_len(tn->typmods);
    if (ntm == 0)
        return strcmp(tn->name, "bpchar") == 0 ? 1 + 4 : TYPMOD_NONE; /* char = char(1) */
    if (ntm > 1)
        plan__error_at(b, ERRCODE_INVALID_PARAMETER_VALUE, tn->node.location,
                       "invalid type modifier");
    int n = typmod_int(b, tn, 0);
    if (n < 1)
        plan__error_at(b, ERRCODE_INVALID_PARAMETER_VALUE, tn->node.location,
                       "length for type %s must be at least 1", sqlname);
    if (n > 10485760)
        plan__error_at(b, ERRCODE_INVALID_PARAMETER_VALUE, tn->node.location,
                       "length for type %s cannot exceed %d", sqlname, 10485760);
    return n + 4;
}

static int32_t numeric_typmod(Binder *b, const TypeName *tn)
{
    int ntm = list_len(tn->typmods);
    if (ntm == 0)
        return TYPMOD_NONE;
    if (ntm > 2)
        plan__error_at(b, ERRCODE_INVALID_PARAMETER_VALUE, tn->node.location,
                       "invalid NUMERIC type modifier");
    int p = typmod_int(b, tn, 0);
    int s = ntm == 2 ? typmod_int(b, tn, 1) : 0;
    if (p < 1 || p > NUMERIC_MAX_PRECISION)
        plan__error_at(b, ERRCODE_INVALID_PARAMETER_VALUE, tn->node.location,
                       "NUMERIC precision %d must be between 1 and %d", p, NUMERIC_MAX_PRECISION);
    if (s < -1000 || s > 1000)
        plan__error_at(b, ERRCODE_INVALID_PARAMETER_VALUE, tn->node.location,
                       "NUMERIC scale %d must be between %d and %d", s, -1000, 1000);
    return (int32_t)(((uint32_t)p << 16) | ((uint32_t)s & 0x7ff)) + 4;
}

/* TypeName → SqlType with typmod; 42704 for unknown names. */
SqlType plan__resolve_type_name(Binder *b, const TypeName *tn)
{
    if (tn->array_bounds > 0) {   /* T[] : one-dimensional arrays of the element type */
        TypeName elem = *tn;
        elem.array_bounds = 0;
        SqlType et = plan__resolve_type_name(b, &elem);
        uint32_t at = type_array_of(et.oid);
        if (!at)
            plan__error_at(b, ERRCODE_UNDEFINED_OBJECT, tn->node.location, "type \"%s[]\" does not exist",
                           tn->name);
        return SQLTYPE(at);
    }
    /* the parser spells the keyword char "bpchar": a name "char" was quoted */
    uint32_t oid = type_lookup_name(strcmp(tn->name, "char") == 0 ? "\"char\"" : tn->name);
    if (oid == TYPE_INVALID || oid == TYPE_UNKNOWN || !type_info(oid))
        plan__error_at(b, ERRCODE_UNDEFINED_OBJECT, tn->node.location, "type \"%s\" does not exist",
                       tn->name);
    SqlType t = SQLTYPE(oid);
    switch (oid) {
    case TYPE_VARCHAR: t.typmod = char_typmod(b, tn, "varchar"); break;
    case TYPE_BPCHAR: t.typmod = char_typmod(b, tn, "char"); break;
    case TYPE_NUMERIC: t.typmod = numeric_typmod(b, tn); break;
    case TYPE_TIMESTAMP:
        /* timestamp(p): precision accepted, fractional rounding not yet applied */
        if (list_len(tn->typmods) > 1)
            plan__error_at(b, ERRCODE_SYNTAX_ERROR, tn->node.location, "invalid type modifier");
        break;
    default:
        if (list_len(tn->typmods) > 0)
            plan__error_at(b, ERRCODE_SYNTAX_ERROR, tn->node.location,
                           "type modifier is not allowed for type \"%s\"", tn->name);
    }
    return t;
}
