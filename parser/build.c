/*
 * build.c — the AST builders behind the grammar's actions (see build.h).
 *
 * Each builder makes one node of parser/ast.h in the parse arena, with the
 * byte offset of its defining token as location (PostgreSQL's convention:
 * the operator for binary operators, the keyword for statements). Type
 * names are canonicalised here to PostgreSQL's internal names.
 */
#define PARSER_INTERNAL
#include <string.h>
#include "common/error.h"
#include "parser/build.h"

const char parse__star_marker[] = "*";

#define NEW_NODE(pc, T, loc) ((T *)new_node((pc), sizeof(T), T_##T, (loc)))

static Node *new_node(ParseCtx *pc, size_t size, NodeTag tag, int location)
{
    Node *n = mem_calloc(pc->arena, 1, size);
    n->tag = tag;
    n->location = location;
    return n;
}

Node *parse__new_node(ParseCtx *pc, size_t size, NodeTag tag, int location)
{
    return new_node(pc, size, tag, location);
}

/* ---------- lists and statements ---------- */

List *parse__list1(ParseCtx *pc, void *item) { return list_make1(pc->arena, item); }

List *parse__list_append(ParseCtx *pc, List *list, void *item)
{
    return list_append(pc->arena, list, item);
}

/*
 * Statement boundaries as PostgreSQL's stmtmulti: a statement after a
 * semicolon starts right after it (leading blanks included); the previous
 * statement's length ends at the semicolon; the last one's length stays 0
 * ("rest of the string").
 */
List *parse__stmt_append(ParseCtx *pc, List *stmts, int semi_offset, Node *stmt)
{
    if (semi_offset >= 0 && list_len(stmts) > 0) {
        RawStmt *last = list_nth(stmts, list_len(stmts) - 1);
        if (last->stmt_len == 0)
            last->stmt_len = semi_offset - last->stmt_location;
    }
    if (!stmt)
        return stmts;
    RawStmt *raw = NEW_NODE(pc, RawStmt, -1);
    raw->stmt = stmt;
    raw->stmt_location = semi_offset >= 0 ? semi_offset + 1 : 0;
    raw->stmt_len = 0;
    return list_append(pc->arena, stmts, raw);
}

/* ---------- constants ---------- */

Node *parse__const_int(ParseCtx *pc, const ParseToken *t)
{
    A_Const *c = NEW_NODE(pc, A_Const, t->offset);
    c->kind = CONST_INTEGER;
    c->ival = t->ival;
    c->text = t->str;
    return &c->node;
}

Node *parse__const_numeric(ParseCtx *pc, const ParseToken *t)
{
    A_Const *c = NEW_NODE(pc, A_Const, t->offset);
    c->kind = CONST_NUMERIC;
    c->text = t->str;
    return &c->node;
}

Node *parse__const_string(ParseCtx *pc, const ParseToken *t)
{
    A_Const *c = NEW_NODE(pc, A_Const, t->offset);
    c->kind = CONST_STRING;
    c->sval = t->str;
    c->sval_len = t->str_len;
    return &c->node;
}

Node *parse__const_bool(ParseCtx *pc, bool value, int location)
{
    A_Const *c = NEW_NODE(pc, A_Const, location);
    c->kind = CONST_BOOL;
    c->bval = value;
    return &c->node;
}

Node *parse__const_null(ParseCtx *pc, int location)
{
    A_Const *c = NEW_NODE(pc, A_Const, location);
    c->kind = CONST_NULL;
    return &c->node;
}

Node *parse__param(ParseCtx *pc, const ParseToken *t)
{
    ParamRef *p = NEW_NODE(pc, ParamRef, t->offset);
    p->number = (int)t->ival;
    return &p->node;
}

/* ---------- names ---------- */

/* PostgreSQL's transformColumnRef limits: at most three dotted names. */
static void check_colref_length(ParseCtx *pc, const ColumnRef *c, const ParseToken *first)
{
    int nfields = list_len(c->fields) + (c->star ? 1 : 0);
    if (nfields <= 3)
        return;
    const char *dotted = first->str;
    for (int i = 1; i < list_len(c->fields); i++)
        dotted = mem_printf(pc->arena, "%s.%s", dotted, (const char *)list_nth(c->fields, i));
    if (c->star)
        dotted = mem_printf(pc->arena, "%s.*", dotted);
    int pos = parse_char_position(pc->sql, first->offset);
    if (nfields == 4)
        err_raise_pos(ERRCODE_FEATURE_NOT_SUPPORTED, pos,
                      "cross-database references are not implemented: %s", dotted);
    err_raise_pos(ERRCODE_SYNTAX_ERROR, pos, "improper qualified name (too many dotted names): %s",
                  dotted);
}

/*
 * name followed by indirection items (String .name, A_Star .*, A_Indices
 * [i]): the leading names and star make the ColumnRef (PostgreSQL's
 * makeColumnRef); from the first subscript on, the rest wraps it in an
 * A_Indirection.
 */
Node *parse__colref(ParseCtx *pc, const ParseToken *first, List *indirection)
{
    ColumnRef *c = NEW_NODE(pc, ColumnRef, first->offset);
    c->fields = list_make1(pc->arena, (void *)first->str);
    int i = 0;
    for (; i < list_len(indirection); i++) {
        const Node *el = list_nth(indirection, i);
        if (IS_A(el, A_Indices))
            break;
        if (c->star)
            parse__error_at(pc, first->offset, "improper use of \"*\"");
        if (IS_A(el, A_Star))
            c->star = true;
        else
            c->fields = list_append(pc->arena, c->fields, (void *)((const String *)el)->sval);
    }
    check_colref_length(pc, c, first);
    if (i == list_len(indirection))
        return &c->node;
    A_Indirection *ind = NEW_NODE(pc, A_Indirection, first->offset);
    ind->arg = &c->node;
    for (; i < list_len(indirection); i++)
        ind->indirection = list_append(pc->arena, ind->indirection, list_nth(indirection, i));
    return &ind->node;
}

Node *parse__star(ParseCtx *pc, int location)
{
    ColumnRef *c = NEW_NODE(pc, ColumnRef, location);
    c->star = true;
    return &c->node;
}

ParseFuncName parse__func_name(ParseCtx *pc, const ParseToken *first, List *indirection)
{
    ParseFuncName fn = {list_make1(pc->arena, (void *)first->str), first->offset};
    for (int i = 0; i < list_len(indirection); i++) {
        const Node *el = list_nth(indirection, i);
        if (!IS_A(el, String)) /* PostgreSQL's check_func_name */
            parse__error_at(pc, el->location, IS_A(el, A_Star) ? "syntax error at or near \"*\""
                                                               : "syntax error at or near \"[\"");
        fn.name = list_append(pc->arena, fn.name, (void *)((const String *)el)->sval);
    }
    return fn;
}

const char *parse__name_join(ParseCtx *pc, const char *a, const char *b)
{
    return mem_printf(pc->arena, "%s.%s", a, b);
}

/* ---------- operators ---------- */

Node *parse__aexpr(ParseCtx *pc, A_ExprKind kind, const char *name, Node *l, Node *r, int location)
{
    A_Expr *e = NEW_NODE(pc, A_Expr, location);
    e->kind = kind;
    e->name = name;
    e->lexpr = l;
    e->rexpr = r;
    return &e->node;
}

Node *parse__op(ParseCtx *pc, const char *name, Node *l, Node *r, int location)
{
    return parse__aexpr(pc, AEXPR_OP, name, l, r, location);
}

/* Unary minus folds into a numeric constant (PostgreSQL's doNegate), so
 * -9223372036854775808 and -2147483648 keep their intended widths. */
Node *parse__uminus(ParseCtx *pc, Node *arg, int location)
{
    if (IS_A(arg, A_Const)) {
        A_Const *c = (A_Const *)arg;
        if (c->kind == CONST_INTEGER || c->kind == CONST_NUMERIC) {
            c->node.location = location;
            if (c->kind == CONST_INTEGER)
                c->ival = -c->ival;
            c->text = c->text[0] == '-' ? c->text + 1 : mem_printf(pc->arena, "-%s", c->text);
            return arg;
        }
    }
    return parse__op(pc, "-", NULL, arg, location);
}

Node *parse__like(ParseCtx *pc, A_ExprKind kind, const char *name, Node *l, Node *r, Node *escape,
                  int location)
{
    A_Expr *e = (A_Expr *)parse__aexpr(pc, kind, name, l, r, location);
    e->escape = escape;
    return &e->node;
}

Node *parse__between(ParseCtx *pc, A_ExprKind kind, Node *x, Node *lo, Node *hi, int location)
{
    List *bounds = list_make1(pc->arena, lo);
    bounds = list_append(pc->arena, bounds, hi);
    const char *name = kind == AEXPR_BETWEEN ? "BETWEEN"
                       : kind == AEXPR_NOT_BETWEEN ? "NOT BETWEEN"
                       : kind == AEXPR_BETWEEN_SYM ? "BETWEEN SYMMETRIC"
                                                   : "NOT BETWEEN SYMMETRIC";
    return parse__aexpr(pc, kind, name, x, (Node *)bounds, location);
}

Node *parse__in(ParseCtx *pc, bool negated, Node *x, List *items, int location)
{
    return parse__aexpr(pc, AEXPR_IN, negated ? "<>" : "=", x, (Node *)items, location);
}

/* AND/OR chains flatten into one BoolExpr, as PostgreSQL's makeAndExpr. */
Node *parse__bool(ParseCtx *pc, BoolExprType op, Node *l, Node *r, int location)
{
    if (op != NOT_EXPR && IS_A(l, BoolExpr) && ((BoolExpr *)l)->boolop == op) {
        BoolExpr *b = (BoolExpr *)l;
        b->args = list_append(pc->arena, b->args, r);
        return l;
    }
    BoolExpr *b = NEW_NODE(pc, BoolExpr, location);
    b->boolop = op;
    b->args = list_make1(pc->arena, l);
    if (r)
        b->args = list_append(pc->arena, b->args, r);
    return &b->node;
}

Node *parse__null_test(ParseCtx *pc, NullTestType type, Node *arg, int location)
{
    NullTest *t = NEW_NODE(pc, NullTest, location);
    t->arg = arg;
    t->nulltesttype = type;
    return &t->node;
}

/* Parentheses leave no node (AND/OR flattening is PostgreSQL's makeAndExpr,
 * which looks through them too). */
Node *parse__paren(ParseCtx *pc, Node *expr)
{
    (void)pc;
    return expr;
}

/* ---------- CASE, casts, functions ---------- */

Node *parse__case(ParseCtx *pc, Node *arg, List *whens, Node *defresult, int location)
{
    CaseExpr *c = NEW_NODE(pc, CaseExpr, location);
    c->arg = arg;
    c->args = whens;
    c->defresult = defresult;
    return &c->node;
}

Node *parse__case_when(ParseCtx *pc, Node *cond, Node *result, int location)
{
    CaseWhen *w = NEW_NODE(pc, CaseWhen, location);
    w->expr = cond;
    w->result = result;
    return &w->node;
}

Node *parse__typecast(ParseCtx *pc, Node *arg, TypeName *type, int location)
{
    TypeCast *t = NEW_NODE(pc, TypeCast, location);
    t->arg = arg;
    t->type_name = type;
    return &t->node;
}

/* type 'literal': a cast of the string, located at the type name. A char
 * with no length is unrestricted here (PostgreSQL's ConstCharacter). */
Node *parse__typed_literal(ParseCtx *pc, TypeName *type, const ParseToken *str)
{
    if (strcmp(type->name, "bpchar") == 0 && list_len(type->typmods) == 1 &&
        ((Node *)list_nth(type->typmods, 0))->location == -1)
        type->typmods = NULL;
    return parse__typecast(pc, parse__const_string(pc, str), type, type->node.location);
}

Node *parse__func(ParseCtx *pc, const ParseFuncName *name, List *args, bool star, bool distinct)
{
    FuncCall *f = NEW_NODE(pc, FuncCall, name->location);
    f->funcname = name->name;
    f->args = args;
    f->agg_star = star;
    f->agg_distinct = distinct;
    return &f->node;
}

/* CURRENT_DATE, CURRENT_TIMESTAMP[(p)], USER...: PostgreSQL's
 * SQLValueFunction, here a FuncCall of the keyword's name (sql_syntax set)
 * with no arguments, or the precision as its one integer argument. */
Node *parse__sql_value_func(ParseCtx *pc, const ParseToken *kw, const ParseToken *precision)
{
    FuncCall *f = NEW_NODE(pc, FuncCall, kw->offset);
    const char *name = strcmp(kw->str, "user") == 0 ? "current_user" : kw->str;
    f->funcname = list_make1(pc->arena, (void *)name);
    f->sql_syntax = true;
    if (precision)
        f->args = list_make1(pc->arena, parse__const_int(pc, precision));
    return &f->node;
}

/* EXTRACT(f FROM x), POSITION(a IN b), SUBSTRING(x FROM a FOR b), TRIM(...):
 * a call of PostgreSQL's function for it, located at the keyword. */
Node *parse__func_special(ParseCtx *pc, const ParseToken *kw, const char *name, List *args)
{
    FuncCall *f = NEW_NODE(pc, FuncCall, kw->offset);
    f->funcname = list_make1(pc->arena, (void *)name);
    f->args = args;
    f->sql_syntax = true;
    return &f->node;
}

/* The integer 1 (substring(x FOR n) starts at 1). */
Node *parse__const_one(ParseCtx *pc, int location)
{
    A_Const *c = NEW_NODE(pc, A_Const, location);
    c->kind = CONST_INTEGER;
    c->ival = 1;
    c->text = "1";
    return &c->node;
}

Node *parse__set_to_default(ParseCtx *pc, int location)
{
    return &NEW_NODE(pc, SetToDefault, location)->node;
}
