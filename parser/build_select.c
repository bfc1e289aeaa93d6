/*
 * build_select.c — AST builders for the SELECT clauses of the second wave
 * (DISTINCT ON, INTO, WINDOW, WITH, set operations, FOR UPDATE, FROM
 * subqueries and functions) and for INSERT ... ON CONFLICT / RETURNING,
 * UPDATE, DELETE and TRUNCATE (declared in build.h).
 *
 * Checks PostgreSQL's grammar makes (insertSelectOptions' "multiple ...
 * clauses", alias-less subqueries in FROM, multiple-column UPDATE sources)
 * are made here with its messages and positions.
 */
#define PARSER_INTERNAL
#include <string.h>
#include "common/error.h"
#include "parser/build.h"

/* The outermost '(' just before offset (blanks skipped): PostgreSQL locates
 * a parenthesised subquery at its parenthesis, which the grammar value of
 * select_with_parens does not carry. */
int parse__lparen_before(ParseCtx *pc, int offset)
{
    int found = offset;
    for (int i = offset - 1; i >= 0; i--) {
        char c = pc->sql[i];
        if (c == '(')
            found = i;
        else if (!strchr(" \t\n\r\f", c))
            break;
    }
    return found;
}

/* ---------- SELECT ---------- */

Node *parse__select_full(ParseCtx *pc, int location, List *distinct, List *targets, Node *into,
                         List *from, Node *where, const ParseGroup *group, Node *having,
                         List *windows)
{
    SelectStmt *s = PARSE_NEW(pc, SelectStmt, location);
    if (distinct) {
        s->distinct = true;
        if (list_nth(distinct, 0) != NULL)
            s->distinct_clause = distinct;
    }
    s->target_list = targets;
    s->into_clause = (IntoClause *)into;
    s->from_clause = from;
    s->where_clause = where;
    s->group_clause = group->list;
    s->group_distinct = group->distinct;
    s->having_clause = having;
    s->window_clause = windows;
    return &s->node;
}

/* ORDER BY / LIMIT / FOR UPDATE / WITH around a select (insertSelectOptions). */
Node *parse__select_tail2(ParseCtx *pc, Node *select, List *sort, const ParseLimit *limit,
                          List *locking, Node *with)
{
    SelectStmt *s = (SelectStmt *)parse__select_tail(pc, select, sort, limit);
    s->locking_clause = list_concat(pc->arena, s->locking_clause, locking);
    if (with) {
        if (s->with_clause)
            parse__error_at(pc, with->location, "multiple WITH clauses not allowed");
        s->with_clause = (WithClause *)with;
    }
    return select;
}

/* TABLE t is SELECT * FROM t. */
Node *parse__select_table(ParseCtx *pc, Node *relation, int location)
{
    SelectStmt *s = PARSE_NEW(pc, SelectStmt, location);
    s->target_list = list_make1(pc->arena, parse__target(pc, parse__star(pc, location), NULL));
    s->from_clause = list_make1(pc->arena, relation);
    return &s->node;
}

Node *parse__setop(ParseCtx *pc, SelectSetOp op, int quantifier, Node *l, Node *r, int location)
{
    (void)location;
    SelectStmt *s = PARSE_NEW(pc, SelectStmt, l->location);
    s->op = op;
    s->all = quantifier == 1;
    s->larg = (SelectStmt *)l;
    s->rarg = (SelectStmt *)r;
    return &s->node;
}

Node *parse__with(ParseCtx *pc, List *ctes, bool recursive, int location)
{
    WithClause *w = PARSE_NEW(pc, WithClause, location);
    w->ctes = ctes;
    w->recursive = recursive;
    return &w->node;
}

Node *parse__cte(ParseCtx *pc, const ParseToken *name, List *cols, int materialized, Node *query)
{
    CommonTableExpr *c = PARSE_NEW(pc, CommonTableExpr, name->offset);
    c->ctename = name->str;
    c->aliascolnames = cols;
    c->ctematerialized = (CTEMaterialize)materialized;
    c->ctequery = query;
    return &c->node;
}

Node *parse__into(ParseCtx *pc, Node *relation, char persistence)
{
    IntoClause *i = PARSE_NEW(pc, IntoClause, relation->location);
    i->rel = (RangeVar *)relation;
    i->rel->relpersistence = persistence;
    return &i->node;
}

/* ---------- FROM items ---------- */

Node *parse__func_table(ParseCtx *pc, Node *func, bool ordinality)
{
    RangeFunction *r = PARSE_NEW(pc, RangeFunction, func->location);
    r->functions = list_make1(pc->arena, func);
    r->ordinality = ordinality;
    return &r->node;
}

Node *parse__range_func(ParseCtx *pc, Node *func_table, const ParseAlias *alias, bool lateral)
{
    (void)pc;
    RangeFunction *r = (RangeFunction *)func_table;
    r->lateral = lateral;
    r->alias = alias->name;
    r->colaliases = alias->colnames;
    r->coldeflist = alias->coldefs;
    return func_table;
}

/* PostgreSQL 15 requires an alias on a FROM subquery. */
Node *parse__range_subselect(ParseCtx *pc, Node *select, const ParseAlias *alias, bool lateral)
{
    if (!alias->name) {
        int pos = parse_char_position(pc->sql, parse__lparen_before(pc, select->location));
        bool values = ((SelectStmt *)select)->values_lists != NULL;
        ErrorData *e = err_begin(ERRCODE_SYNTAX_ERROR);
        err_message(e, values ? "VALUES in FROM must have an alias" : "subquery in FROM must have an alias");
        err_hint(e, values ? "For example, FROM (VALUES ...) [AS] foo." : "For example, FROM (SELECT ...) [AS] foo.");
        e->position = pos;
        err_throw();
    }
    RangeSubselect *r = PARSE_NEW(pc, RangeSubselect, parse__lparen_before(pc, select->location));
    r->lateral = lateral;
    r->subquery = select;
    r->alias = alias->name;
    r->colaliases = alias->colnames;
    return &r->node;
}

Node *parse__join_alias(ParseCtx *pc, Node *join, const ParseAlias *alias)
{
    (void)pc;
    JoinExpr *j = (JoinExpr *)join;
    j->alias = alias->name;
    j->colaliases = alias->colnames;
    return join;
}

Node *parse__range_only(ParseCtx *pc, Node *range_var)
{
    (void)pc;
    ((RangeVar *)range_var)->only = true;
    return range_var;
}

Node *parse__range_set_alias(ParseCtx *pc, Node *range_var, const ParseToken *alias)
{
    (void)pc;
    ((RangeVar *)range_var)->alias = alias->str;
    return range_var;
}

Node *parse__locking(ParseCtx *pc, int strength, List *rels, int wait)
{
    LockingClause *l = PARSE_NEW(pc, LockingClause, -1);
    l->strength = (LockClauseStrength)strength;
    l->locked_rels = rels;
    l->wait_policy = (LockWaitPolicy)wait;
    return &l->node;
}

/* ORDER BY x USING < / > is ASC / DESC; other operators are not supported. */
Node *parse__sortby_using(ParseCtx *pc, Node *expr, const ParseQualOp *op, SortByNulls nulls)
{
    SortByDir dir = SORTBY_ASC;
    if (strcmp(op->name, ">") == 0)
        dir = SORTBY_DESC;
    else if (strcmp(op->name, "<") != 0)
        err_raise_pos(ERRCODE_FEATURE_NOT_SUPPORTED, parse_char_position(pc->sql, op->location),
                      "ORDER BY USING with operator %s is not supported", op->name);
    return parse__sortby(pc, expr, dir, nulls);
}

List *parse__list_concat(ParseCtx *pc, List *a, List *b) { return list_concat(pc->arena, a, b); }

/* ---------- INSERT / UPDATE / DELETE / TRUNCATE ---------- */

Node *parse__insert2(ParseCtx *pc, Node *relation, const ParseInsertRest *rest, Node *with,
                     Node *on_conflict, List *returning, int location)
{
    InsertStmt *s = PARSE_NEW(pc, InsertStmt, location);
    s->relation = (RangeVar *)relation;
    s->cols = rest->cols;
    s->select_stmt = (SelectStmt *)rest->select;
    s->override = rest->override;
    s->with_clause = (WithClause *)with;
    s->on_conflict = (OnConflictClause *)on_conflict;
    s->returning_list = returning;
    return &s->node;
}

Node *parse__on_conflict(ParseCtx *pc, OnConflictAction action, Node *infer, List *targets,
                         Node *where, int location)
{
    OnConflictClause *c = PARSE_NEW(pc, OnConflictClause, location);
    c->action = action;
    c->infer = (InferClause *)infer;
    c->target_list = targets;
    c->where_clause = where;
    return &c->node;
}

Node *parse__infer(ParseCtx *pc, List *elems, Node *where, const char *conname, int location)
{
    InferClause *i = PARSE_NEW(pc, InferClause, location);
    i->index_elems = elems;
    i->where_clause = where;
    i->conname = conname;
    return &i->node;
}

Node *parse__update(ParseCtx *pc, Node *relation, List *targets, List *from, Node *where,
                    List *returning, Node *with, int location)
{
    UpdateStmt *s = PARSE_NEW(pc, UpdateStmt, location);
    s->relation = (RangeVar *)relation;
    s->target_list = targets;
    s->from_clause = from;
    s->where_clause = where;
    s->returning_list = returning;
    s->with_clause = (WithClause *)with;
    return &s->node;
}

Node *parse__set_target(ParseCtx *pc, const ParseToken *name, List *indirection)
{
    ResTarget *r = PARSE_NEW(pc, ResTarget, name->offset);
    r->name = name->str;
    r->indirection = indirection;
    return &r->node;
}

Node *parse__set_target_value(ParseCtx *pc, Node *target, Node *value)
{
    (void)pc;
    ((ResTarget *)target)->val = value;
    return target;
}

/* SET (a, b) = source: one ResTarget per column with a MultiAssignRef;
 * the source checks of PostgreSQL's transformMultiAssignRef. */
List *parse__multi_assign(ParseCtx *pc, List *targets, Node *source)
{
    int n = list_len(targets);
    int pos = parse_char_position(pc->sql, source->location);
    if (IS_A(source, SubLink) && ((SubLink *)source)->sub_link_type == EXPR_SUBLINK) {
        ((SubLink *)source)->sub_link_type = MULTIEXPR_SUBLINK;
    } else if (IS_A(source, RowExpr)) {
        if (list_len(((RowExpr *)source)->args) != n)
            err_raise_pos(ERRCODE_SYNTAX_ERROR, pos, "number of columns does not match number of values");
    } else {
        err_raise_pos(ERRCODE_FEATURE_NOT_SUPPORTED, pos,
                      "source for a multiple-column UPDATE item must be a sub-SELECT or ROW() expression");
    }
    for (int i = 0; i < n; i++) {
        MultiAssignRef *m = PARSE_NEW(pc, MultiAssignRef, source->location);
        m->source = source;
        m->colno = i + 1;
        m->ncolumns = n;
        ((ResTarget *)list_nth(targets, i))->val = &m->node;
    }
    return targets;
}

Node *parse__delete(ParseCtx *pc, Node *relation, List *using_clause, Node *where,
                    List *returning, Node *with, int location)
{
    DeleteStmt *s = PARSE_NEW(pc, DeleteStmt, location);
    s->relation = (RangeVar *)relation;
    s->using_clause = using_clause;
    s->where_clause = where;
    s->returning_list = returning;
    s->with_clause = (WithClause *)with;
    return &s->node;
}

Node *parse__truncate(ParseCtx *pc, List *relations, bool restart, bool cascade, int location)
{
    TruncateStmt *s = PARSE_NEW(pc, TruncateStmt, location);
    s->relations = relations;
    s->restart_seqs = restart;
    s->cascade = cascade;
    return &s->node;
}

Node *parse__index_elem(ParseCtx *pc, const char *name, Node *expr, const ParseIndexOpts *opts,
                        int location)
{
    IndexElem *e = PARSE_NEW(pc, IndexElem, location);
    e->name = name;
    e->expr = expr;
    e->collation = opts->collation;
    e->opclass = opts->opclass;
    e->ordering = opts->dir;
    e->nulls_ordering = opts->nulls;
    return &e->node;
}
