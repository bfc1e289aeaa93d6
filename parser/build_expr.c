/*
 * build_expr.c — AST builders for the expression forms of the second wave
 * (declared in build.h): subqueries (SubLink), ANY/ALL over arrays,
 * OPERATOR(schema.op), arrays and subscripts, row constructors, COLLATE,
 * AT TIME ZONE, SIMILAR TO, aggregate decorations (ORDER BY inside the
 * call, WITHIN GROUP, FILTER, OVER), window definitions and frames,
 * grouping sets, and the interval / schema-qualified type names.
 *
 * Shapes and locations follow PostgreSQL 15's gram.y; where PostgreSQL
 * rewrites a form into a function call (AT TIME ZONE → timezone(zone, x),
 * SIMILAR TO → ~ similar_to_escape(p)), so do we, with unqualified names
 * and FuncCall.sql_syntax set.
 */
#define PARSER_INTERNAL
#include <string.h>
#include "common/error.h"
#include "parser/build.h"

/* ---------- small nodes ---------- */

Node *parse__string(ParseCtx *pc, const char *s, int location)
{
    String *n = PARSE_NEW(pc, String, location);
    n->sval = s;
    return &n->node;
}

Node *parse__a_star(ParseCtx *pc, int location) { return &PARSE_NEW(pc, A_Star, location)->node; }

Node *parse__indices(ParseCtx *pc, bool slice, Node *lower, Node *upper, int location)
{
    A_Indices *n = PARSE_NEW(pc, A_Indices, location);
    n->is_slice = slice;
    n->lidx = lower;
    n->uidx = upper;
    return &n->node;
}

/* arg followed by optional indirection: arg itself when there is none. */
Node *parse__indirect(ParseCtx *pc, Node *arg, List *indirection)
{
    if (!indirection)
        return arg;
    A_Indirection *n = PARSE_NEW(pc, A_Indirection, arg ? arg->location : -1);
    n->arg = arg;
    n->indirection = indirection;
    return &n->node;
}

/* ---------- subqueries ---------- */

Node *parse__sublink(ParseCtx *pc, SubLinkType type, Node *select, int location)
{
    SubLink *s = PARSE_NEW(pc, SubLink, location >= 0 ? location : parse__lparen_before(pc, select->location));
    s->sub_link_type = type;
    s->subselect = select;
    return &s->node;
}

/* x IN (SELECT ...) is x = ANY (SELECT ...); NOT IN is NOT over it (PG). */
Node *parse__in_sublink(ParseCtx *pc, bool negated, Node *x, Node *select, int location)
{
    SubLink *s = (SubLink *)parse__sublink(pc, ANY_SUBLINK, select, location);
    s->testexpr = x;
    s->oper_name = "=";
    return negated ? parse__bool(pc, NOT_EXPR, &s->node, NULL, location) : &s->node;
}

Node *parse__sublink_op(ParseCtx *pc, Node *x, const ParseQualOp *op, bool any, Node *select)
{
    SubLink *s = (SubLink *)parse__sublink(pc, any ? ANY_SUBLINK : ALL_SUBLINK, select, op->location);
    s->testexpr = x;
    s->oper_name = op->name;
    s->oper_schema = op->schema;
    return &s->node;
}

Node *parse__array_op(ParseCtx *pc, Node *x, const ParseQualOp *op, bool any, Node *array)
{
    A_ArrayOpExpr *e = PARSE_NEW(pc, A_ArrayOpExpr, op->location);
    e->name = op->name;
    e->opschema = op->schema;
    e->use_or = any;
    e->lexpr = x;
    e->rexpr = array;
    return &e->node;
}

ParseQualOp parse__qop(int location, const char *name, const char *schema)
{
    ParseQualOp op = {name, schema, location};
    return op;
}

/* l OPERATOR(schema.op) r, or prefix OPERATOR(op) r */
Node *parse__qual_op(ParseCtx *pc, const ParseQualOp *op, Node *l, Node *r, int location)
{
    A_Expr *e = (A_Expr *)parse__aexpr(pc, AEXPR_OP, op->name, l, r, location);
    e->opschema = op->schema;
    return &e->node;
}

/* ---------- arrays, rows, COLLATE, AT TIME ZONE, SIMILAR ---------- */

Node *parse__array(ParseCtx *pc, List *elements, int location)
{
    A_ArrayExpr *a = PARSE_NEW(pc, A_ArrayExpr, location);
    a->elements = elements;
    return &a->node;
}

/* ARRAY[...]: the outermost array is located at the ARRAY keyword. */
Node *parse__array_kw(Node *array, int location)
{
    array->location = location;
    return array;
}

Node *parse__row(ParseCtx *pc, List *args, bool explicit_row, int location)
{
    RowExpr *r = PARSE_NEW(pc, RowExpr, location);
    r->args = args;
    r->explicit_row = explicit_row;
    return &r->node;
}

Node *parse__collate(ParseCtx *pc, Node *arg, List *name, int location)
{
    CollateClause *c = PARSE_NEW(pc, CollateClause, location);
    c->arg = arg;
    c->collname = name;
    return &c->node;
}

static FuncCall *sql_call(ParseCtx *pc, const char *name, List *args, int location)
{
    FuncCall *f = PARSE_NEW(pc, FuncCall, location);
    f->funcname = list_make1(pc->arena, (void *)name);
    f->args = args;
    f->sql_syntax = true;
    return f;
}

/* x AT TIME ZONE z is timezone(z, x), located at AT (PostgreSQL 15). */
Node *parse__at_time_zone(ParseCtx *pc, Node *arg, Node *zone, int location)
{
    List *args = list_append(pc->arena, list_make1(pc->arena, zone), arg);
    return &sql_call(pc, "timezone", args, location)->node;
}

/* x [NOT] SIMILAR TO p [ESCAPE e] is x ~ similar_to_escape(p[, e]) (or !~). */
Node *parse__similar(ParseCtx *pc, bool negated, Node *x, Node *pattern, Node *escape, int location)
{
    List *args = list_make1(pc->arena, pattern);
    if (escape)
        args = list_append(pc->arena, args, escape);
    FuncCall *f = sql_call(pc, "similar_to_escape", args, location);
    return parse__op(pc, negated ? "!~" : "~", x, &f->node, location);
}

/* ---------- function calls: aggregates and windows ---------- */

Node *parse__named_arg(ParseCtx *pc, const ParseToken *name, Node *arg)
{
    NamedArgExpr *n = PARSE_NEW(pc, NamedArgExpr, name->offset);
    n->name = name->str;
    n->arg = arg;
    return &n->node;
}

Node *parse__func_agg(ParseCtx *pc, const ParseFuncName *name, List *args, List *order,
                      bool distinct, bool variadic)
{
    FuncCall *f = (FuncCall *)parse__func(pc, name, args, false, distinct);
    f->agg_order = order;
    f->func_variadic = variadic;
    return &f->node;
}

/* WITHIN GROUP / FILTER / OVER on a call, with PostgreSQL's checks. */
Node *parse__func_decorate(ParseCtx *pc, Node *func, const ParseListLoc *within_group, Node *filter,
                           Node *over)
{
    FuncCall *f = (FuncCall *)func;
    if (within_group->list) {
        int at = within_group->location;
        if (f->agg_order)
            parse__error_at(pc, at, "cannot use multiple ORDER BY clauses with WITHIN GROUP");
        if (f->agg_distinct)
            parse__error_at(pc, at, "cannot use DISTINCT with WITHIN GROUP");
        if (f->func_variadic)
            parse__error_at(pc, at, "cannot use VARIADIC with WITHIN GROUP");
        f->agg_order = within_group->list;
        f->agg_within_group = true;
    }
    f->agg_filter = filter;
    f->over = (WindowDef *)over;
    return func;
}

/* ( [existing name] [PARTITION BY ...] [ORDER BY ...] [frame] ); tail NULL = () */
Node *parse__window_spec(ParseCtx *pc, const char *refname, const ParseWindowTail *tail,
                         int location)
{
    WindowDef *w = PARSE_NEW(pc, WindowDef, location);
    w->refname = refname;
    w->frame_options = FRAMEOPTION_DEFAULTS;
    if (tail) {
        w->partition_clause = tail->partition;
        w->order_clause = tail->order;
        w->frame_options = tail->frame.options;
        w->start_offset = tail->frame.start_offset;
        w->end_offset = tail->frame.end_offset;
    }
    return &w->node;
}

/* WINDOW name AS (...) */
Node *parse__window_name(ParseCtx *pc, Node *window, const ParseToken *name)
{
    (void)pc;
    WindowDef *w = (WindowDef *)window;
    w->name = name->str;
    w->node.location = name->offset;
    return window;
}

/* OVER name: PostgreSQL sets the WindowDef's name (not refname). */
Node *parse__window_ref(ParseCtx *pc, const ParseToken *name)
{
    WindowDef *w = PARSE_NEW(pc, WindowDef, name->offset);
    w->name = name->str;
    w->frame_options = FRAMEOPTION_DEFAULTS;
    return &w->node;
}

static int bound_options(int kind)
{
    switch (kind) {
    case PARSE_FB_UNBOUNDED_PRECEDING: return FRAMEOPTION_START_UNBOUNDED_PRECEDING;
    case PARSE_FB_OFFSET_PRECEDING: return FRAMEOPTION_START_OFFSET_PRECEDING;
    case PARSE_FB_CURRENT_ROW: return FRAMEOPTION_START_CURRENT_ROW;
    case PARSE_FB_OFFSET_FOLLOWING: return FRAMEOPTION_START_OFFSET_FOLLOWING;
    default: return FRAMEOPTION_START_UNBOUNDED_FOLLOWING;
    }
}

_Noreturn static void window_error(ParseCtx *pc, int location, const char *msg)
{
    err_raise_pos(ERRCODE_WINDOWING_ERROR, parse_char_position(pc->sql, location), "%s", msg);
}

/* PostgreSQL's opt_frame_clause / frame_extent, errors included. */
ParseFrame parse__frame(ParseCtx *pc, int mode, const ParseFrameExtent *extent, int exclusion,
                        int location)
{
    (void)location;
    ParseFrame f = {FRAMEOPTION_DEFAULTS, NULL, NULL};
    if (!extent)
        return f;
    int start = bound_options(extent->start.kind);
    int opts;
    if (!extent->between) {
        if (start & FRAMEOPTION_START_UNBOUNDED_FOLLOWING)
            window_error(pc, extent->start.location, "frame start cannot be UNBOUNDED FOLLOWING");
        if (start & FRAMEOPTION_START_OFFSET_FOLLOWING)
            window_error(pc, extent->start.location,
                         "frame starting from following row cannot end with current row");
        opts = start | FRAMEOPTION_END_CURRENT_ROW;
    } else {
        int end = bound_options(extent->end.kind) << 1;
        opts = start | end | FRAMEOPTION_BETWEEN;
        if (opts & FRAMEOPTION_START_UNBOUNDED_FOLLOWING)
            window_error(pc, extent->start.location, "frame start cannot be UNBOUNDED FOLLOWING");
        if (opts & FRAMEOPTION_END_UNBOUNDED_PRECEDING)
            window_error(pc, extent->and_location, "frame end cannot be UNBOUNDED PRECEDING");
        if ((opts & FRAMEOPTION_START_CURRENT_ROW) && (opts & FRAMEOPTION_END_OFFSET_PRECEDING))
            window_error(pc, extent->end.location, "frame starting from current row cannot have preceding rows");
        if ((opts & FRAMEOPTION_START_OFFSET_FOLLOWING) &&
            (opts & (FRAMEOPTION_END_OFFSET_PRECEDING | FRAMEOPTION_END_CURRENT_ROW)))
            window_error(pc, extent->end.location, "frame starting from following row cannot have preceding rows");
        f.end_offset = extent->end.offset;
    }
    f.start_offset = extent->start.offset;
    f.options = opts | mode | FRAMEOPTION_NONDEFAULT | exclusion;
    return f;
}

/* A parenthesised list (a, b) inside ROLLUP/CUBE/GROUPING SETS is one
 * grouping element: a GROUPING_SET_SIMPLE of its items. */
static Node *grouping_item(ParseCtx *pc, Node *item)
{
    if (IS_A(item, RowExpr) && !((RowExpr *)item)->explicit_row)
        return parse__grouping_set(pc, GROUPING_SET_SIMPLE, ((RowExpr *)item)->args, item->location);
    return item;
}

Node *parse__grouping_set(ParseCtx *pc, GroupingSetKind kind, List *content, int location)
{
    GroupingSet *g = PARSE_NEW(pc, GroupingSet, location);
    g->kind = kind;
    for (int i = 0; i < list_len(content); i++) {
        Node *item = list_nth(content, i);
        g->content = list_append(pc->arena, g->content,
                                 kind == GROUPING_SET_SIMPLE ? item : grouping_item(pc, item));
    }
    return &g->node;
}

/* ---------- type names ---------- */

TypeName *parse__type_interval(ParseCtx *pc, int fields, const ParseToken *precision, int location)
{
    List *mods = precision ? list_make1(pc->arena, parse__const_int(pc, precision)) : NULL;
    TypeName *t = parse__type(pc, "interval", mods, location);
    t->interval_fields = fields;
    return t;
}

/* schema.type (pg_catalog.int4, pg_catalog.regclass): the name as written. */
TypeName *parse__type_qualified(ParseCtx *pc, const ParseToken *schema, const ParseToken *name,
                                List *typmods)
{
    TypeName *t = parse__type(pc, name->str, typmods, schema->offset);
    t->schemaname = schema->str;
    return t;
}
