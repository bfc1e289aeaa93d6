/*
 * colname.c — result column names as PostgreSQL's FigureColname: a column
 * reference gives its column name, a function call its function name, a
 * cast the cast's argument name or else the type's name (x::text → "x",
 * 1::text → "text", CAST(1 AS int) → "int4"), CASE gives "case", boolean
 * literals "bool" (PostgreSQL parses TRUE as 'true'::bool), anything else
 * "?column?".
 */
#define STRATA_PLANNER_INTERNAL
#include "planner/planner_int.h"

/* Strength: 0 = no name, 1 = weak (type name, case), 2 = strong. */
static int figure(const Node *n, const char **name)
{
    if (!n)
        return 0;
    switch (n->tag) {
    case T_ColumnRef: {
        const ColumnRef *c = (const ColumnRef *)n;
        if (c->star || list_len(c->fields) == 0)
            return 0;
        *name = list_nth(c->fields, list_len(c->fields) - 1);
        return 2;
    }
    case T_FuncCall: {
        const FuncCall *f = (const FuncCall *)n;
        *name = list_nth(f->funcname, list_len(f->funcname) - 1);
        return 2;
    }
    case T_TypeCast: {
        const TypeCast *t = (const TypeCast *)n;
        int s = figure(t->arg, name);
        if (s <= 1) {
            *name = t->type_name->name;
            return 1;
        }
        return s;
    }
    case T_CaseExpr: {
        const CaseExpr *c = (const CaseExpr *)n;
        int s = figure(c->defresult, name);
        if (s <= 1) {
            *name = "case";
            return 1;
        }
        return s;
    }
    case T_SubLink: {
        const SubLink *sl = (const SubLink *)n;
        if (sl->sub_link_type == EXISTS_SUBLINK) {
            *name = "exists";
            return 2;
        }
        if (sl->sub_link_type == ARRAY_SUBLINK) {
            *name = "array";
            return 2;
        }
        if (sl->sub_link_type == EXPR_SUBLINK && IS_A(sl->subselect, SelectStmt)) {
            const SelectStmt *s = (const SelectStmt *)sl->subselect;
            while (s->op != SELECT_SETOP_NONE && s->larg)
                s = s->larg;
            if (list_len(s->target_list) < 1)
                return 0;
            const ResTarget *rt = list_nth(s->target_list, 0);
            if (rt->name) {
                *name = rt->name;
                return 2;
            }
            return figure(rt->val, name);
        }
        return 0;
    }
    case T_A_ArrayExpr:
        *name = "array";
        return 2;
    case T_A_Indirection: {   /* a[1], (f(x))[1:2]: the name of what is subscripted; (r).f: f */
        const A_Indirection *ind = (const A_Indirection *)n;
        const Node *last = list_len(ind->indirection) ? list_nth(ind->indirection, list_len(ind->indirection) - 1) : NULL;
        if (last && IS_A(last, String)) {
            *name = ((const String *)last)->sval;
            return 2;
        }
        return figure(ind->arg, name);
    }
    case T_RowExpr:
        *name = "row";
        return 2;
    case T_A_Const:
        if (((const A_Const *)n)->kind == CONST_BOOL) {
            *name = "bool";
            return 1;
        }
        return 0;
    default:
        return 0;
    }
}

const char *plan__figure_colname(const Node *n)
{
    const char *name = NULL;
    if (figure(n, &name) > 0 && name)
        return name;
    return "?column?";
}
