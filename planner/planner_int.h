/*
 * planner_int.h — the planner's internal header: binder state, the range
 * table, and the functions the planner's files share (prefix plan__).
 *
 * Not for use outside planner/: the public surface is planner/planner.h and
 * planner/plan.h.
 *
 * During binding, an EXPR_COLUMN's index is a *variable id*: rte->var_base +
 * column number, unique over the statement's range table. Plan building
 * (plan_select.c) maps variable ids to the input column positions of the
 * node an expression is placed in (plan__remap). Aggregate calls bind to
 * EXPR_AGG_RESULT with index = the aggregate's number in Binder.aggs until
 * plan_select.c rewrites them to the PLAN_AGG output position.
 */
#ifndef STRATA_PLANNER_PLANNER_INT_H
#define STRATA_PLANNER_PLANNER_INT_H

#ifndef STRATA_PLANNER_INTERNAL
#error "planner_int.h is internal to planner/"
#endif

#include <stdbool.h>
#include "common/arena.h"
#include "common/error.h"
#include "common/list.h"
#include "common/types.h"
#include "executor/funcs.h"
#include "parser/ast.h"
#include "planner/plan.h"
#include "planner/planner.h"

/* One FROM item (a table) of the statement. */
typedef struct RangeEntry {
    const char *refname;    /* alias, or the table name */
    const char *schema;     /* table's schema (for s.t.a) */
    const char *relname;    /* table's name */
    bool has_alias;
    StoreTable *table;
    int ncols;
    const char **colnames;
    SqlType *coltypes;
    int var_base;           /* variable id of column 0 */
    bool *used;             /* columns referenced anywhere */
    int location;
} RangeEntry;

/* An aggregate call found while binding. */
typedef struct BoundAgg {
    AggCall call;
    const char *display;    /* "count(*)", "sum(x)" for EXPLAIN */
    int location;
} BoundAgg;

typedef struct Binder {
    const PlanContext *ctx;
    MemArena *arena;
    const char *query_text;  /* NULL: report no positions (stored DEFAULTs) */
    RangeEntry **rtes;
    int nrtes;
    int nvars;
    bool *visible;           /* per rte: in scope for the expression being bound */
    /* parameters: types as known so far (TYPE_UNKNOWN = not yet inferred) */
    SqlType *param_types;
    int nparams;
    int param_cap;
    bool *param_fixed;       /* given by the client */
    Expr **param_nodes;      /* one shared node per $n, so inference reaches every use */
    bool params_fixed;       /* no $n beyond ctx->nparams (simple Query): 42P02 */
    /* aggregates */
    BoundAgg *aggs;
    int naggs;
    int agg_cap;
    const char *agg_forbidden; /* "WHERE", "JOIN conditions", ... NULL = allowed */
    bool in_agg;
    bool explaining;
    bool no_fold;            /* checking a DEFAULT: PostgreSQL evaluates it only at INSERT */
    PlanNode **scan_nodes;   /* per rte: its PLAN_SCAN (EXPLAIN shows aliases) */
} Binder;

/* ---- planner.c ---- */
void plan__binder_init(Binder *b, const PlanContext *ctx);
int plan__pos(const Binder *b, int location);
_Noreturn void plan__error_at(const Binder *b, const char *sqlstate, int location,
                              const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Same with a HINT (hint NULL = none). */
_Noreturn void plan__error_hint(const Binder *b, const char *sqlstate, int location,
                                const char *hint, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
const char *plan__type_name(const Binder *b, SqlType t);
Plan *plan__new_plan(Binder *b, PlanStmtKind kind, const char *command);
void plan__finish_params(Binder *b, Plan *plan);

/* ---- expr.c: building and walking bound expressions ---- */
Expr *plan__make_expr(MemArena *a, ExprKind kind, SqlType type, int location, int nargs);
Expr *plan__make_const(MemArena *a, SqlType type, Value v, int location);
Expr *plan__make_bool(MemArena *a, bool v, int location);
bool plan__expr_equal(const Expr *x, const Expr *y);
/* Whether the expression reads columns / aggregate results / parameters. */
bool plan__expr_has_vars(const Expr *e);
bool plan__expr_has_aggs(const Expr *e);
/* Set of rtes referenced (bitmask, bit i = rte i; rtes are limited to 64). */
uint64_t plan__expr_rtes(const Binder *b, const Expr *e);
int plan__var_rte(const Binder *b, int var);
Expr *plan__copy_expr(MemArena *a, const Expr *e);

/* ---- coerce.c ---- */
bool plan__can_coerce(uint32_t from, uint32_t to, char context);
/* NULL when no coercion exists in that context. */
Expr *plan__coerce(Binder *b, Expr *e, SqlType target, char context);
/* Coerce to boolean or raise 42804 "argument of <what> must be type boolean, not type x". */
Expr *plan__coerce_bool(Binder *b, Expr *e, const char *what);
/* Common type of n expressions (PostgreSQL's select_common_type); coerce them all. */
SqlType plan__common_type(Binder *b, Expr **exprs, int n, const char *context);
void plan__coerce_all(Binder *b, Expr **exprs, int n, SqlType t, const char *context);
/* Unknown-typed output (literals, NULL) becomes text. */
Expr *plan__resolve_unknown(Binder *b, Expr *e);
SqlType plan__resolve_type_name(Binder *b, const TypeName *tn);
char plan__type_category(uint32_t oid);
bool plan__type_preferred(uint32_t oid);

/* ---- func_select.c ---- */
/* Operator by name over one or two bound args (l may be NULL: prefix). */
Expr *plan__make_op(Binder *b, const char *name, Expr *l, Expr *r, int location);
Expr *plan__make_func(Binder *b, const char *name, Expr **args, int nargs, int location);

/* ---- bind_expr.c ---- */
Expr *plan__bind_expr(Binder *b, const Node *n);
/* ---- bind_agg.c: an aggregate call → EXPR_AGG_RESULT (index = Binder.aggs slot) ---- */
Expr *plan__bind_agg(Binder *b, const FuncCall *fc);

/* ---- bind_from.c ---- */
/* Add a table to the range table (42P01, 42712). */
RangeEntry *plan__add_rte(Binder *b, const RangeVar *rv);
Expr *plan__bind_column_ref(Binder *b, const ColumnRef *cr);
/* t.* or *: List of Expr for every column (marks them used). */
List *plan__expand_star(Binder *b, const ColumnRef *cr);
StoreTable *plan__lookup_table(Binder *b, const char *schema, const char *name, int location,
                               bool missing_ok);
const char *plan__creation_schema(Binder *b, const char *schema);

/* ---- fold.c ---- */
Expr *plan__fold(Binder *b, Expr *e);

/* ---- plan_select.c / plan_join.c ---- */
typedef struct SelectResult {
    PlanNode *root;
    int ncols;
    ResultColumn *cols;
} SelectResult;
SelectResult plan__plan_select(Binder *b, const SelectStmt *s);
PlanNode *plan__new_node(MemArena *a, PlanKind kind, int ncols);
/* Copy e with variable ids rewritten to positions in layout (nlayout
 * variable ids; layout NULL = keep column indexes) and parameters given
 * their final types. */
Expr *plan__remap(Binder *b, const Expr *e, const int *layout, int nlayout);
/* The joined FROM clause with WHERE conjuncts placed; *layout gets the
 * output's variable ids. */
PlanNode *plan__plan_from(Binder *b, List *conjuncts, int **layout, int *nlayout);

/* ---- plan_insert.c / plan_utility.c ---- */
Plan *plan__plan_insert(Binder *b, const InsertStmt *s);
Plan *plan__plan_utility(Binder *b, const RawStmt *raw, const Node *stmt);

/* ---- explain.c ---- */
List *plan__explain(Binder *b, const Plan *plan);
char *plan__deparse(MemArena *a, const Expr *e, const char *const *colnames);

/* ---- colname.c ---- */
const char *plan__figure_colname(const Node *n);

#endif
