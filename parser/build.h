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
    int override;        /* OVERRIDING_* or 0 */
} ParseInsertRest;

typedef struct ParseAlias {
    const char *name;
    List *colnames;      /* char * */
    List *coldefs;       /* AS t(a int, ...): ColumnDef (functions in FROM) */
} ParseAlias;

typedef struct ParseGroup {
    List *list;
    bool distinct;       /* GROUP BY DISTINCT */
} ParseGroup;

/* One window frame bound. */
enum {
    PARSE_FB_UNBOUNDED_PRECEDING,
    PARSE_FB_OFFSET_PRECEDING,
    PARSE_FB_CURRENT_ROW,
    PARSE_FB_OFFSET_FOLLOWING,
    PARSE_FB_UNBOUNDED_FOLLOWING,
};
typedef struct ParseFrameBound {
    int kind;            /* PARSE_FB_*, -1 = absent (no BETWEEN) */
    Node *offset;
    int location;
} ParseFrameBound;

typedef struct ParseFrameExtent {
    ParseFrameBound start, end;
    bool between;
    int and_location;    /* BETWEEN ... AND: the AND (PostgreSQL's position for one error) */
} ParseFrameExtent;

typedef struct ParseFrame {
    int options;         /* FRAMEOPTION_* */
    Node *start_offset;
    Node *end_offset;
} ParseFrame;

typedef struct ParseListLoc {
    List *list;
    int location;        /* of the clause's first keyword, -1 when absent */
} ParseListLoc;

typedef struct ParseWindowTail {
    List *partition;
    List *order;
    ParseFrame frame;
} ParseWindowTail;

/* An operator name, possibly schema-qualified (OPERATOR(pg_catalog.~)). */
typedef struct ParseQualOp {
    const char *name;
    const char *schema;
    int location;
} ParseQualOp;

typedef struct ParseIndexOpts {
    List *collation;
    List *opclass;
    SortByDir dir;
    SortByNulls nulls;
} ParseIndexOpts;

typedef struct ParseFetch {
    FetchDirection direction;
    int64_t how_many;
    const char *portal;
} ParseFetch;

typedef struct ParseGrantTarget {
    ObjectType type;
    List *objects;       /* RangeVar, or char * when names */
    bool names;
} ParseGrantTarget;

typedef struct ParseFuncName {
    List *name;          /* char * */
    int location;
} ParseFuncName;

/* The "*" marker inside an indirection list (t.*). */
extern const char parse__star_marker[];

/* A zeroed node of the given tag in the parse arena. */
Node *parse__new_node(ParseCtx *pc, size_t size, NodeTag tag, int location);
#define PARSE_NEW(pc, T, loc) ((T *)parse__new_node((pc), sizeof(T), T_##T, (loc)))

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
Node *parse__sql_value_func(ParseCtx *pc, const ParseToken *kw, const ParseToken *precision);
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
Node *parse__select_tail(ParseCtx *pc, Node *select, List *sort, const ParseLimit *limit);
Node *parse__values(ParseCtx *pc, Node *values, List *row, int location);
Node *parse__sortby(ParseCtx *pc, Node *expr, SortByDir dir, SortByNulls nulls);
Node *parse__range_var(ParseCtx *pc, const ParseToken *first, const ParseToken *second);
Node *parse__range_alias(ParseCtx *pc, Node *range_var, const ParseAlias *alias);
Node *parse__join(ParseCtx *pc, JoinType type, bool natural, Node *l, Node *r,
                  const ParseJoinQual *qual, int location);
ParseLimit parse__limit(Node *count, bool has_count, Node *offset, bool has_offset);

/* other statements */
Node *parse__insert_col(ParseCtx *pc, const ParseToken *name);
Node *parse__column_def(ParseCtx *pc, const ParseToken *name, TypeName *type, List *constraints);
Node *parse__constraint(ParseCtx *pc, ConstrType type, Node *expr, List *keys, int location);
Node *parse__constraint_default(ParseCtx *pc, Node *expr, int start_offset);
Node *parse__constraint_check(ParseCtx *pc, Node *expr, int lp_offset, int rp_offset, int location);
Node *parse__constraint_name(ParseCtx *pc, Node *constraint, const ParseToken *name, int location);
Node *parse__transaction(ParseCtx *pc, TransactionStmtKind kind, List *options, int location);
Node *parse__set(ParseCtx *pc, VariableSetKind kind, const char *name, List *args, int location);
Node *parse__set_local(Node *stmt, bool is_local);
Node *parse__set_transaction(ParseCtx *pc, const char *prefix, List *modes, int location);
Node *parse__show(ParseCtx *pc, const char *name, int location);
Node *parse__explain(ParseCtx *pc, Node *query, bool analyze, bool verbose, int location);
const char *parse__name_join(ParseCtx *pc, const char *a, const char *b);
Node *parse__var_value(ParseCtx *pc, const ParseToken *t, bool negate);
Node *parse__var_word(ParseCtx *pc, const char *word, int location);

/* second wave: expressions (build_expr.c) */
Node *parse__string(ParseCtx *pc, const char *s, int location);
Node *parse__a_star(ParseCtx *pc, int location);
Node *parse__indices(ParseCtx *pc, bool slice, Node *lower, Node *upper, int location);
Node *parse__indirect(ParseCtx *pc, Node *arg, List *indirection);
Node *parse__sublink(ParseCtx *pc, SubLinkType type, Node *select, int location);
Node *parse__in_sublink(ParseCtx *pc, bool negated, Node *x, Node *select, int location);
Node *parse__sublink_op(ParseCtx *pc, Node *x, const ParseQualOp *op, bool any, Node *select);
Node *parse__array_op(ParseCtx *pc, Node *x, const ParseQualOp *op, bool any, Node *array);
ParseQualOp parse__qop(int location, const char *name, const char *schema);
Node *parse__qual_op(ParseCtx *pc, const ParseQualOp *op, Node *l, Node *r, int location);
Node *parse__array(ParseCtx *pc, List *elements, int location);
Node *parse__array_kw(Node *array, int location);
Node *parse__row(ParseCtx *pc, List *args, bool explicit_row, int location);
Node *parse__collate(ParseCtx *pc, Node *arg, List *name, int location);
Node *parse__at_time_zone(ParseCtx *pc, Node *arg, Node *zone, int location);
Node *parse__similar(ParseCtx *pc, bool negated, Node *x, Node *pattern, Node *escape, int location);
Node *parse__named_arg(ParseCtx *pc, const ParseToken *name, Node *arg);
Node *parse__func_agg(ParseCtx *pc, const ParseFuncName *name, List *args, List *order,
                      bool distinct, bool variadic);
Node *parse__func_decorate(ParseCtx *pc, Node *func, const ParseListLoc *within_group, Node *filter,
                           Node *over);
Node *parse__window_spec(ParseCtx *pc, const char *refname, const ParseWindowTail *tail,
                         int location);
Node *parse__window_name(ParseCtx *pc, Node *window, const ParseToken *name);
Node *parse__window_ref(ParseCtx *pc, const ParseToken *name);
ParseFrame parse__frame(ParseCtx *pc, int mode, const ParseFrameExtent *extent, int exclusion,
                        int location);
Node *parse__grouping_set(ParseCtx *pc, GroupingSetKind kind, List *content, int location);
TypeName *parse__type_interval(ParseCtx *pc, int fields, const ParseToken *precision, int location);
TypeName *parse__type_qualified(ParseCtx *pc, const ParseToken *schema, const ParseToken *name,
                                List *typmods);

/* second wave: SELECT clauses and DML (build_select.c) */
/* The outermost '(' right before offset (blanks between), else offset. */
int parse__lparen_before(ParseCtx *pc, int offset);
Node *parse__select_full(ParseCtx *pc, int location, List *distinct, List *targets, Node *into,
                         List *from, Node *where, const ParseGroup *group, Node *having,
                         List *windows);
Node *parse__select_tail2(ParseCtx *pc, Node *select, List *sort, const ParseLimit *limit,
                          List *locking, Node *with);
Node *parse__select_table(ParseCtx *pc, Node *relation, int location);
Node *parse__setop(ParseCtx *pc, SelectSetOp op, int quantifier, Node *l, Node *r, int location);
Node *parse__with(ParseCtx *pc, List *ctes, bool recursive, int location);
Node *parse__cte(ParseCtx *pc, const ParseToken *name, List *cols, int materialized, Node *query);
Node *parse__into(ParseCtx *pc, Node *relation, char persistence);
Node *parse__range_func(ParseCtx *pc, Node *func_table, const ParseAlias *alias, bool lateral);
Node *parse__range_subselect(ParseCtx *pc, Node *select, const ParseAlias *alias, bool lateral);
Node *parse__func_table(ParseCtx *pc, Node *func, bool ordinality);
Node *parse__join_alias(ParseCtx *pc, Node *join, const ParseAlias *alias);
Node *parse__range_only(ParseCtx *pc, Node *range_var);
Node *parse__range_set_alias(ParseCtx *pc, Node *range_var, const ParseToken *alias);
Node *parse__locking(ParseCtx *pc, int strength, List *rels, int wait);
Node *parse__sortby_using(ParseCtx *pc, Node *expr, const ParseQualOp *op, SortByNulls nulls);
List *parse__list_concat(ParseCtx *pc, List *a, List *b);
Node *parse__insert2(ParseCtx *pc, Node *relation, const ParseInsertRest *rest, Node *with,
                     Node *on_conflict, List *returning, int location);
Node *parse__on_conflict(ParseCtx *pc, OnConflictAction action, Node *infer, List *targets,
                         Node *where, int location);
Node *parse__infer(ParseCtx *pc, List *elems, Node *where, const char *conname, int location);
Node *parse__update(ParseCtx *pc, Node *relation, List *targets, List *from, Node *where,
                    List *returning, Node *with, int location);
Node *parse__set_target(ParseCtx *pc, const ParseToken *name, List *indirection);
Node *parse__set_target_value(ParseCtx *pc, Node *target, Node *value);
List *parse__multi_assign(ParseCtx *pc, List *targets, Node *source);
Node *parse__delete(ParseCtx *pc, Node *relation, List *using_clause, Node *where,
                    List *returning, Node *with, int location);
Node *parse__truncate(ParseCtx *pc, List *relations, bool restart, bool cascade, int location);
Node *parse__index_elem(ParseCtx *pc, const char *name, Node *expr, const ParseIndexOpts *opts,
                        int location);

/* second wave: DDL and utility statements (build_ddl.c, build_util.c) */
Node *parse__create2(ParseCtx *pc, Node *relation, List *elts, bool if_not_exists, char persistence,
                     List *options, int oncommit, int location);
Node *parse__into_target(ParseCtx *pc, Node *relation, List *cols, List *options, int oncommit);
Node *parse__create_as(ParseCtx *pc, Node *into, char persistence, Node *query, bool skip_data,
                       bool if_not_exists, ObjectType type, int location);
Node *parse__constraint_collate(ParseCtx *pc, List *name, int location);
Node *parse__constraint_identity(ParseCtx *pc, char when, List *options, int location);
Node *parse__constraint_generated(ParseCtx *pc, const ParseToken *when, Node *expr, int lp_offset,
                                  int rp_offset, int location);
Node *parse__constraint_fk(ParseCtx *pc, List *fk_cols, Node *pktable, List *pk_cols, char match,
                           int actions, int location);
Node *parse__drop2(ParseCtx *pc, ObjectType type, List *objects, bool missing_ok, bool cascade,
                   bool concurrent, int location);
Node *parse__drop_names(ParseCtx *pc, ObjectType type, List *names, bool missing_ok, bool cascade,
                        int location);
Node *parse__alter_table(ParseCtx *pc, ObjectType type, Node *relation, List *cmds, bool missing_ok,
                         int location);
Node *parse__at_cmd(ParseCtx *pc, AlterTableType type, const char *name, Node *def, bool cascade,
                    bool missing_ok, int location);
Node *parse__at_type(ParseCtx *pc, const ParseToken *col, TypeName *type, Node *using_expr,
                     int location);
Node *parse__rename(ParseCtx *pc, ObjectType type, ObjectType rel_type, Node *relation,
                    const ParseToken *old_name, const ParseToken *new_name, bool missing_ok,
                    int location);
Node *parse__rename_name(ParseCtx *pc, ObjectType type, const ParseToken *old_name,
                         const ParseToken *new_name, int location);
Node *parse__defelem(ParseCtx *pc, const char *ns, const ParseToken *name, Node *arg);
Node *parse__defelem_node(ParseCtx *pc, const char *name, Node *arg, int location);
Node *parse__defelem_list(ParseCtx *pc, const char *name, List *names, int location);
Node *parse__at_options(ParseCtx *pc, List *options, int location);
Node *parse__defelem_str(ParseCtx *pc, const char *name, const ParseToken *value, int location);
Node *parse__defelem_word(ParseCtx *pc, const char *name, const char *word, int location);
Node *parse__copy(ParseCtx *pc, Node *relation, Node *query, List *cols, bool is_from,
                  bool is_program, const ParseToken *file, List *options, Node *where,
                  int location);
Node *parse__copy_where(ParseCtx *pc, Node *copy, int where_offset);
List *parse__copy_opts(ParseCtx *pc, bool binary, Node *delimiter, List *options);
Node *parse__createdb(ParseCtx *pc, const ParseToken *name, List *options, int location);
Node *parse__dropdb(ParseCtx *pc, const ParseToken *name, bool missing_ok, bool force, int location);
Node *parse__create_schema(ParseCtx *pc, const ParseToken *name, const ParseToken *role,
                           bool if_not_exists, int location);
Node *parse__role_opt_str(ParseCtx *pc, const char *name, const ParseToken *value, int location);
Node *parse__role_opt_node(ParseCtx *pc, const char *name, Node *value, int location);
Node *parse__role_opt_word(ParseCtx *pc, const ParseToken *word);
Node *parse__create_role(ParseCtx *pc, int type, const ParseToken *name, List *options, int location);
Node *parse__alter_role2(ParseCtx *pc, const ParseToken *name, List *options, int location);
Node *parse__drop_role(ParseCtx *pc, List *names, bool missing_ok, int location);
List *parse__vacuum_flags(ParseCtx *pc, bool full, bool freeze, bool verbose, bool analyze);
Node *parse__vacuum(ParseCtx *pc, bool is_vacuum, List *options, List *rels, int location);
Node *parse__vacuum_rel(ParseCtx *pc, Node *relation, List *cols);
Node *parse__checkpoint(ParseCtx *pc, int location);
Node *parse__index(ParseCtx *pc, bool unique, bool concurrent, const char *name, bool if_not_exists,
                   Node *relation, const char *method, List *params, List *include, List *options,
                   Node *where, int location);
Node *parse__view(ParseCtx *pc, bool replace, char persistence, Node *relation, List *cols,
                  List *options, Node *query, int check_option, int location);
Node *parse__create_seq(ParseCtx *pc, char persistence, Node *relation, List *options,
                        bool if_not_exists, int location);
Node *parse__alter_seq(ParseCtx *pc, Node *relation, List *options, bool missing_ok, int location);
Node *parse__prepare(ParseCtx *pc, const ParseToken *name, List *types, Node *query, int location);
Node *parse__execute(ParseCtx *pc, const ParseToken *name, List *params, int location);
Node *parse__deallocate(ParseCtx *pc, const char *name, int location);
Node *parse__discard(ParseCtx *pc, DiscardMode mode, int location);
Node *parse__listen(ParseCtx *pc, NodeTag tag, const char *channel, const ParseToken *payload,
                    int location);
Node *parse__declare_cursor(ParseCtx *pc, const ParseToken *name, int options, Node *query,
                            int location);
ParseFetch parse__fetch_args(FetchDirection direction, int64_t how_many, const ParseToken *portal);
Node *parse__fetch(ParseCtx *pc, const ParseFetch *args, bool move, int location);
Node *parse__close(ParseCtx *pc, const char *name, int location);
Node *parse__comment(ParseCtx *pc, ObjectType type, List *name, const char *comment, int location);
Node *parse__grant(ParseCtx *pc, bool grant, List *privileges, const ParseGrantTarget *target,
                   List *grantees, bool grant_option, bool cascade, int location);
Node *parse__lock(ParseCtx *pc, List *relations, int mode, bool nowait, int location);
Node *parse__savepoint(ParseCtx *pc, SavepointStmtKind kind, const ParseToken *name, int location);
Node *parse__transaction_chain(ParseCtx *pc, TransactionStmtKind kind, bool chain, int location);
Node *parse__create_enum(ParseCtx *pc, List *name, List *labels, int location);
Node *parse__explain_opts(ParseCtx *pc, Node *query, List *options, int location);

#endif
