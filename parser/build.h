/*
 * build.h — the AST builders the grammar's actions call (parser/build.c).
 *
 * Every grammar action is one call into one of these (SQLite's style), so
 * the grammar reads as grammar and the node-making code is plain C that
 * compiles with all warnings. All memory comes from the parse arena; a
 * builder that finds an error raises it (longjmp) — safe because the Lemon
 * parser itself lives in the arena too.
 */
#ifndef STRATA_PARSER_BUILD_H
#define STRATA_PARSER_BUILD_H

#include "parser/parser_int.h"

/* Grammar value types that are not nodes. */
typedef struct ParseLimit {
    Node *count;
    Node *offset;
    bool has_count;      /* LIMIT given (LIMIT ALL: count NULL) */
    bool has_offset;
} ParseLimit;

typedef struct ParseJoinQual {
    List *using_cols;    /* char * */
    Node *on;
} ParseJoinQual;

typedef struct ParseInsertRest {
    List *cols;          /* ResTarget */
    Node *select;        /* NULL: DEFAULT VALUES */
} ParseInsertRest;

typedef struct ParseAlias {
    const char *name;
    List *colnames;      /* char * */
} ParseAlias;

typedef struct ParseExplainOpts {
    bool analyze;
    bool verbose;
} ParseExplainOpts;

typedef struct ParseExplainOpt {
    ParseToken name;
    ParseToken value;    /* code 0 when absent */
} ParseExplainOpt;

typedef struct ParseFuncName {
    List *name;          /* char * */
    int location;
} ParseFuncName;

/* The "*" marker inside an indirection list (t.*). */
extern const char parse__star_marker[];

/* lists and statements */
List *parse__list1(ParseCtx *pc, void *item);
List *parse__list_append(ParseCtx *pc, List *list, void *item);
List *parse__stmt_append(ParseCtx *pc, List *stmts, int semi_offset, Node *stmt);

/* expressions */
Node *parse__const_int(ParseCtx *pc, const ParseToken *t);
Node *parse__const_numeric(ParseCtx *pc, const ParseToken *t);
Node *parse__const_string(ParseCtx *pc, const ParseToken *t);
Node *parse__const_bool(ParseCtx *pc, bool value, int location);
Node *parse__const_null(ParseCtx *pc, int location);
Node *parse__param(ParseCtx *pc, const ParseToken *t);
Node *parse__colref(ParseCtx *pc, const ParseToken *first, List *indirection);
Node *parse__star(ParseCtx *pc, int location);
Node *parse__op(ParseCtx *pc, const char *name, Node *l, Node *r, int location);
Node *parse__uminus(ParseCtx *pc, Node *arg, int location);
Node *parse__aexpr(ParseCtx *pc, A_ExprKind kind, const char *name, Node *l, Node *r, int location);
Node *parse__like(ParseCtx *pc, A_ExprKind kind, const char *name, Node *l, Node *r, Node *escape,
                  int location);
Node *parse__between(ParseCtx *pc, A_ExprKind kind, Node *x, Node *lo, Node *hi, int location);
Node *parse__in(ParseCtx *pc, bool negated, Node *x, List *items, int location);
Node *parse__bool(ParseCtx *pc, BoolExprType op, Node *l, Node *r, int location);
Node *parse__null_test(ParseCtx *pc, NullTestType type, Node *arg, int location);
Node *parse__case(ParseCtx *pc, Node *arg, List *whens, Node *defresult, int location);
Node *parse__case_when(ParseCtx *pc, Node *cond, Node *result, int location);
Node *parse__typecast(ParseCtx *pc, Node *arg, TypeName *type, int location);
Node *parse__typed_literal(ParseCtx *pc, TypeName *type, const ParseToken *str);
Node *parse__func(ParseCtx *pc, const ParseFuncName *name, List *args, bool star, bool distinct);
Node *parse__sql_value_func(ParseCtx *pc, const ParseToken *kw);
Node *parse__func_special(ParseCtx *pc, const ParseToken *kw, const char *name, List *args);
Node *parse__const_one(ParseCtx *pc, int location);
ParseFuncName parse__func_name(ParseCtx *pc, const ParseToken *first, List *indirection);
Node *parse__set_to_default(ParseCtx *pc, int location);
Node *parse__paren(ParseCtx *pc, Node *expr);

/* type names: name is PostgreSQL's internal name ("int4", "varchar"...) */
TypeName *parse__type(ParseCtx *pc, const char *name, List *typmods, int location);
TypeName *parse__type_generic(ParseCtx *pc, const ParseToken *name, List *typmods);
TypeName *parse__type_float(ParseCtx *pc, const ParseToken *precision, int location);
TypeName *parse__type_char(ParseCtx *pc, const char *name, const ParseToken *len, int location);
TypeName *parse__type_datetime(ParseCtx *pc, const char *base, const ParseToken *precision,
                               bool with_tz, int location);
TypeName *parse__type_array(ParseCtx *pc, TypeName *type);
Node *parse__typmod(ParseCtx *pc, const ParseToken *t);

/* SELECT */
Node *parse__target(ParseCtx *pc, Node *val, const char *alias);
Node *parse__select(ParseCtx *pc, int location, bool distinct, List *targets, List *from,
                    Node *where, List *group, Node *having);
Node *parse__select_tail(ParseCtx *pc, Node *select, List *sort, const ParseLimit *limit);
Node *parse__values(ParseCtx *pc, Node *values, List *row, int location);
Node *parse__sortby(ParseCtx *pc, Node *expr, SortByDir dir, SortByNulls nulls);
Node *parse__range_var(ParseCtx *pc, const ParseToken *first, const ParseToken *second);
Node *parse__range_alias(ParseCtx *pc, Node *range_var, const ParseAlias *alias);
Node *parse__join(ParseCtx *pc, JoinType type, bool natural, Node *l, Node *r,
                  const ParseJoinQual *qual, int location);
ParseLimit parse__limit(Node *count, bool has_count, Node *offset, bool has_offset);

/* other statements */
Node *parse__insert(ParseCtx *pc, Node *relation, const ParseInsertRest *rest, int location);
Node *parse__insert_col(ParseCtx *pc, const ParseToken *name);
Node *parse__create(ParseCtx *pc, Node *relation, List *elts, bool if_not_exists, int location);
Node *parse__column_def(ParseCtx *pc, const ParseToken *name, TypeName *type, List *constraints);
Node *parse__constraint(ParseCtx *pc, ConstrType type, Node *expr, List *keys, int location);
Node *parse__constraint_default(ParseCtx *pc, Node *expr, int start_offset);
Node *parse__constraint_check(ParseCtx *pc, Node *expr, int lp_offset, int rp_offset, int location);
Node *parse__constraint_name(ParseCtx *pc, Node *constraint, const ParseToken *name, int location);
Node *parse__drop(ParseCtx *pc, List *objects, bool missing_ok, bool cascade, int location);
Node *parse__transaction(ParseCtx *pc, TransactionStmtKind kind, List *options, int location);
Node *parse__set(ParseCtx *pc, VariableSetKind kind, const char *name, List *args, int location);
Node *parse__set_local(Node *stmt, bool is_local);
Node *parse__set_transaction(ParseCtx *pc, const char *prefix, const char *mode, int location);
Node *parse__show(ParseCtx *pc, const char *name, int location);
Node *parse__explain(ParseCtx *pc, Node *query, bool analyze, bool verbose, int location);
ParseExplainOpts parse__explain_option(ParseCtx *pc, const ParseExplainOpts *so_far,
                                       const ParseExplainOpt *opt);
Node *parse__alter_role(ParseCtx *pc, const ParseToken *role, const ParseToken *password,
                        int location);
const char *parse__name_join(ParseCtx *pc, const char *a, const char *b);
Node *parse__var_value(ParseCtx *pc, const ParseToken *t, bool negate);
Node *parse__var_word(ParseCtx *pc, const char *word, int location);

#endif
