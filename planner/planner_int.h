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
    /* Derived FROM items (subquery, VALUES, CTE, table function): the
     * already-planned subtree producing the ncols columns; table is NULL. */
    PlanNode *derived;
    /* LATERAL derived items: values from earlier FROM items the subtree's
     * EXPR_OUTER_REF slots read (bound, variable ids of this binder). */
    int nlateral;
    Expr **lateral_args;
} RangeEntry;

/*
 * The FROM clause as a tree (bind_join.c): leaves are range entries, inner
 * nodes are joins. Each node lists the columns an unqualified name or a *
 * sees through it, in PostgreSQL's order: for USING/NATURAL joins the
 * merged columns first, then the left side's others, then the right's.
 */
typedef struct FromCol {
    const char *name;
    int rte;                /* plain column: rte and column number */
    int col;
    Expr *merged;           /* USING/NATURAL merged column (bound), else NULL */
} FromCol;

typedef struct FromNode FromNode;
struct FromNode {
    bool is_join;
    int rte;                /* leaf: range entry index */
    PlanJoinType jointype;  /* join: INNER, LEFT, RIGHT, FULL */
    FromNode *l, *r;
    List *quals;            /* join: ON / USING conditions (bound Expr, boolean) */
    uint64_t rtes;          /* range entries below */
    int ncols;
    FromCol *cols;
};

/* A WITH query visible by name (bind_join.c). */
typedef struct CteDef {
    const char *name;
    const CommonTableExpr *cte;
    bool recursive;          /* WITH RECURSIVE: may reference itself */
    /* while planning a recursive term: the worktable's shape */
    int worktable_id;        /* -1 = not inside its own recursive term */
    int ncols;
    SqlType *types;
    const char **colnames;
    /* materialised (PLAN_CTE_SCAN): MATERIALIZED, recursive, or referenced
     * more than once in FROM clauses of the owning statement */
    bool materialize;
    int cte_id;              /* -1 until planned */
    PlanNode *plan;
    const char **names;
} CteDef;

/* A window specification (bind_window.c): expressions in variable space. */
typedef struct BoundWinSpec {
    int npart;
    Expr **part;
    int norder;
    Expr **order;
    SortKey *dirs;           /* direction / nulls per order key (column unused) */
    WindowFrame frame;       /* offsets bound; bound columns filled when planned */
} BoundWinSpec;

/* A window function call found while binding. */
typedef struct BoundWin {
    WindowCall call;         /* args in variable space */
    int spec;                /* index in Binder.specs */
    int location;
} BoundWin;

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
    /* ---- issue 4 ---- */
    FromNode **from_items;   /* the FROM clause's top-level items */
    int nfrom;
    FromNode **scope;        /* nodes an unqualified name is looked up in */
    int nscope;
    struct Binder *parent;   /* enclosing query of a subquery, else NULL */
    bool allow_outer;        /* subquery in an expression: may reference parent's columns */
    Expr **outer_args;       /* correlation values (parent's bound exprs), slot = index */
    int nouter;
    List *ctes;              /* CteDef *, innermost first */
    int *counters;           /* shared by a statement's binders: [0] worktables, [1] subplans */
    List *semi_joins;        /* WHERE conjuncts planned as semi/anti joins (SemiJoin *) */
    bool keep_unknown;       /* set-operation leaf: untyped literal targets stay unknown */
    /* window functions */
    List *window_clause;     /* WINDOW w AS (...): WindowDef */
    BoundWinSpec *specs;
    int nspecs;
    BoundWin *wins;
    int nwins;
    bool in_window;          /* binding a window function's arguments / spec */
    bool win_agg;            /* binding a window aggregate: inner aggregates allowed */
    const char *win_forbidden; /* "HAVING" ...: window functions refused there */
    List *groupings;         /* GROUPING(args) calls: List * of bound args each */
    bool qualify;            /* EXPLAIN names carry the table name even with one table */
    Expr **param_subst;      /* EXECUTE: $n is replaced by param_subst[n-1] (constants) */
    int nparam_subst;
    /* set-returning functions (bind_srf.c): allowed while binding a select
     * list or ORDER BY; srf_cond names a conditional construct (CASE,
     * COALESCE) being bound, where they are refused */
    bool srf_allowed;
    const char *srf_cond;
    /* a non-LATERAL subquery or VALUES in FROM: its outer references skip
     * the parent's own FROM items and reach only the enclosing queries */
    bool outer_skip_parent;
    const char *srf_call;    /* "aggregate" / "window": binding such a call's arguments */
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
/* plan_finish.c: node_ids and the plan's counts (called by plan__finish_params). */
void plan__finish_nodes(Binder *b, Plan *plan);

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
/* ---- bind_namedarg.c: f(name => x) ---- */
bool plan__has_named_args(const FuncCall *fc);
/* The call with its arguments in parameter order and omitted ones from
 * their defaults; raises 42601 (a name twice, positional after named) or
 * 42883 (no function with those names) as PostgreSQL. */
const FuncCall *plan__named_args_positional(Binder *b, const FuncCall *fc, const char *name);
/* ---- bind_agg.c: an aggregate call → EXPR_AGG_RESULT (index = Binder.aggs slot) ---- */
Expr *plan__bind_agg(Binder *b, const FuncCall *fc);
/* The AggCall of an aggregate call (args, FILTER, ORDER BY, WITHIN GROUP). */
void plan__bind_agg_call(Binder *b, const FuncCall *fc, AggCall *call);
/* Remap an AggCall's expressions to input positions (plan_select.c). */
void plan__remap_agg_call(Binder *b, AggCall *c, const int *layout, int nlayout);

/* ---- bind_from.c ---- */
/* Add a table to the range table (42P01, 42712). */
RangeEntry *plan__add_rte(Binder *b, const RangeVar *rv);
Expr *plan__bind_column_ref(Binder *b, const ColumnRef *cr);
/* t.* or *: List of Expr for every column (marks them used). */
List *plan__expand_star(Binder *b, const ColumnRef *cr);
/* The existing schemas of search_path, in order; returns the count. */
int plan__search_schemas(Binder *b, const char **out, int max);
StoreTable *plan__lookup_table(Binder *b, const char *schema, const char *name, int location,
                               bool missing_ok);
const char *plan__creation_schema(Binder *b, const char *schema);
/* The schema a relation of persistence ('t' temporary, else permanent) is
 * created in: TEMP → the session's pg_temp_N (42P16 for another schema, at
 * location: the relation's name, -1 = none). */
const char *plan__creation_schema_p(Binder *b, const char *schema, char persistence, int location);

/* ---- plan_sequence.c (sequences) ---- */
/* CREATE/ALTER SEQUENCE, DROP SEQUENCE → UTIL_SEQUENCE. */
Plan *plan__plan_sequence(Binder *b, const Node *stmt);
/* CREATE TABLE with serial/identity columns: the rewritten statement (s
 * itself when there are none; *seq NULL then); plan__seq_wrap wraps the
 * ordinary plan of the rewritten statement with the sequences to create. */
const CreateStmt *plan__seq_rewrite_create(Binder *b, const CreateStmt *s, struct PlanSeqStmt **seq);
Plan *plan__seq_wrap(Binder *b, Plan *inner, struct PlanSeqStmt *seq);
/* TRUNCATE ... RESTART IDENTITY: inner wrapped to restart owned sequences. */
Plan *plan__seq_truncate(Binder *b, const TruncateStmt *s, Plan *inner);
/* FROM a sequence: its row (last_value, log_cnt, is_called) as a derived
 * table, or NULL when rv names no sequence. */
PlanNode *plan__seq_expand(Binder *b, const RangeVar *rv, const char ***names);

/* GROUPING(a, b): EXPR_AGG_RESULT with index PLAN_GROUPING_BASE + k (k in Binder.groupings) */
#define PLAN_GROUPING_BASE 1000000
Expr *plan__bind_grouping(Binder *b, const FuncCall *fc);

/* ---- bind_window.c / plan_window.c ---- */
Expr *plan__bind_window_call(Binder *b, const FuncCall *fc);
/* Window nodes over top; rewrites the window markers in exprs (n of them,
 * positional over top). to_pos converts a bound expression to positions
 * over top. */
typedef Expr *(*PlanToPos)(Binder *b, const Expr *e, void *ctx);
PlanNode *plan__plan_windows(Binder *b, PlanNode *top, Expr **exprs, int n, PlanToPos to_pos, void *ctx);

/* ---- bind_join.c ---- */
/* Bind one FROM item into the range table and FROM tree. */
FromNode *plan__bind_from_item(Binder *b, const Node *item);
/* A binder for a subquery of b: shares arena, parameters, CTEs, counters. */
void plan__child_binder(Binder *child, Binder *parent, bool allow_outer);
/* After planning with a child binder: hand its parameter state back. */
void plan__child_done(Binder *parent, const Binder *child);
/* Mark a derived range entry LATERAL with its correlation values. */
void plan__set_lateral(Binder *b, RangeEntry *r, Expr **args, int n);
/* Add a range entry whose rows come from an already planned subtree. */
RangeEntry *plan__add_derived_rte(Binder *b, const char *refname, bool has_alias, PlanNode *node,
                                  const char **colnames, List *colaliases, int location);

/* ---- plan_view.c: views (planner-side registry) ---- */
/* The planned view a RangeVar names (names = its column names), or NULL. */
PlanNode *plan__expand_view(Binder *b, const RangeVar *rv, const char ***names);
bool plan__is_view(Binder *b, const RangeVar *rv);
Plan *plan__create_view(Binder *b, const RawStmt *raw, const ViewStmt *vs);
Plan *plan__drop_view(Binder *b, const DropStmt *s);

/* ---- bind_sublink.c ---- */
/* A WHERE sublink prepared for decorrelation (see bind_sublink.c). */
typedef struct SemiJoin {
    int subplan_id;          /* the EXPR_SUBPLAN it can replace */
    bool is_in;              /* IN (SELECT ...) rather than EXISTS */
    PlanNode *right;         /* the subquery's FROM with its uncorrelated conditions */
    int *rlayout;            /* right's variable ids (>= child_base) */
    int rn;
    int child_base;
    List *conds;             /* correlated conditions over outer and right variables */
    Expr *in_left;           /* IN: the comparison's sides (outer / right) */
    Expr *in_right;
    Expr *in_eq;
} SemiJoin;
Expr *plan__bind_sublink(Binder *b, const SubLink *s);

/* ---- bind_srf.c: set-returning functions ---- */
/* Whether name is a set-returning function, and which. */
bool plan__srf_lookup(const char *name, TableFuncKind *kind);
/* Resolve and coerce the arguments of SRF name (kind) in place; fills up
 * to nargs + 1 column types and names; returns the column count. 42883 as
 * PostgreSQL when no signature matches. */
int plan__srf_resolve(Binder *b, const char *name, TableFuncKind kind, Expr **args, int nargs, int location,
                      SqlType *col_types, const char **col_names);
/* A select-list SRF call → EXPR_SRF (0A000 where SRFs are not allowed). */
Expr *plan__bind_srf(Binder *b, const FuncCall *fc, TableFuncKind kind);
/* Whether e contains an EXPR_SRF. */
bool plan__expr_has_srf(const Expr *e);
/* PLAN_PROJECT_SET nodes over top for the SRFs in exprs (positional over
 * top), innermost first; rewrites exprs to read their results. */
PlanNode *plan__plan_srfs(Binder *b, PlanNode *top, Expr **exprs, int n);

/* ---- plan_setop.c ---- */
typedef struct SelectResult SelectResult;
SelectResult plan__plan_setop(Binder *b, const SelectStmt *s);

/* ---- fold.c ---- */
Expr *plan__fold(Binder *b, Expr *e);

/* ---- plan_select.c / plan_join.c ---- */
struct SelectResult {
    PlanNode *root;
    int ncols;
    ResultColumn *cols;
};
SelectResult plan__plan_select(Binder *b, const SelectStmt *s);
PlanNode *plan__new_node(MemArena *a, PlanKind kind, int ncols);
/* Copy e with variable ids rewritten to positions in layout (nlayout
 * variable ids; layout NULL = keep column indexes) and parameters given
 * their final types. */
Expr *plan__remap(Binder *b, const Expr *e, const int *layout, int nlayout);
/* The joined FROM clause with WHERE conjuncts placed; *layout gets the
 * output's variable ids. */
PlanNode *plan__plan_from(Binder *b, List *conjuncts, int **layout, int *nlayout);
/* WITH queries and table functions in FROM (plan_cte.c) */
PlanNode *plan__plan_cte(Binder *b, CteDef *c, const char ***names);
PlanNode *plan__plan_table_function(Binder *b, const RangeFunction *rf, const char ***names, Expr ***largs,
                                     int *nl);
/* WITH clause of a SELECT: push its queries into b->ctes */
void plan__bind_with(Binder *b, const WithClause *w, const SelectStmt *owner);

/* Distinct → Sort → Limit over top (plan_select.c). */
PlanNode *plan__plan_tail(Binder *b, PlanNode *top, const SortKey *sort, int nsort, Expr *limit,
                          Expr *offset, bool distinct);
/* ORDER BY of VALUES / set operations: ordinals and output names only. */
SortKey *plan__sort_by_output(Binder *b, const List *sort_clause, int ncols, const char **names,
                              bool setop);

/* ---- plan_prepare.c: PREPARE / EXECUTE / DEALLOCATE ---- */
Plan *plan__prepare(Binder *b, const RawStmt *raw, const PrepareStmt *s);
Plan *plan__execute(Binder *b, const ExecuteStmt *s);
Plan *plan__deallocate(Binder *b, const DeallocateStmt *s);
/* planner.c: plan one statement with b (what plan_statement does). */
Plan *plan__plan_raw(Binder *b, const RawStmt *stmt);

/* ---- plan_insert.c / plan_utility.c ---- */
Plan *plan__plan_insert(Binder *b, const InsertStmt *s);
/* A column's DEFAULT (NULL constant when none) as an assigned, var-free
 * expression; identity and serial columns give their nextval(). */
typedef struct StoreColumnDef StoreColumnDef;   /* storage/storage.h */
Expr *plan__column_default(Binder *b, const StoreColumnDef *col);
/* Per column of t: 'a' (GENERATED ALWAYS identity), 'd' (BY DEFAULT), 0. */
char *plan__identity_columns(Binder *b, StoreTable *t);
/* ---- plan_update.c ---- */
Plan *plan__plan_update(Binder *b, const UpdateStmt *s);
/* The value node of an UPDATE / DO UPDATE SET item (the row element of
 * SET (a, b) = ROW(…)); NULL for DEFAULT; 0A000 for a sub-SELECT source. */
const Node *plan__set_item_value(Binder *b, const ResTarget *rt);
/* 428C9: column c of t is GENERATED ALWAYS AS IDENTITY and takes only DEFAULT. */
_Noreturn void plan__identity_not_default(StoreTable *t, int c);
Plan *plan__plan_delete(Binder *b, const DeleteStmt *s);
/* ---- plan_ctas.c: CREATE TABLE ... AS, SELECT ... INTO ---- */
Plan *plan__plan_ctas(Binder *b, const CreateTableAsStmt *s);
/* The INTO of SELECT ... INTO (on the first leaf of set operations), NULL = none. */
const IntoClause *plan__select_into(const SelectStmt *s);
Plan *plan__plan_select_into(Binder *b, const SelectStmt *s);
/* ---- plan_returning.c ---- */
/* With a RETURNING list: make p->root (a modify node) output the written
 * rows of t and put a projection of the list above it; p's result columns
 * describe it. No-op when returning is NULL. */
void plan__plan_returning(Binder *b, Plan *p, const RangeVar *rv, StoreTable *t, const List *returning);
/* The same for UPDATE ... FROM / DELETE ... USING: sources are the range entries
 * (RangeEntry *) of the FROM / USING items, whose columns follow the target's in
 * the modify node's output; star_pairs (nstar (source, column) pairs, or NULL)
 * is what an unqualified * lists after the target's columns. */
void plan__plan_returning_from(Binder *b, Plan *p, const RangeVar *rv, StoreTable *t, const List *returning,
                               const List *sources, const int *star_pairs, int nstar);
Plan *plan__plan_utility(Binder *b, const RawStmt *raw, const Node *stmt);
/* TRUNCATE / VACUUM / ANALYZE / CHECKPOINT (plan_ddl3.c); NULL for other statements. */
Plan *plan__plan_ddl3(Binder *b, const RawStmt *raw, const Node *stmt);
/* BEGIN modes / SET TRANSACTION (plan_ddl3.c): the isolation level of modes
 * (DefElem list) into u->ddl3_name, NULL when none. */
void plan__ddl3_txn_modes(const List *modes, UtilityStmt *u);

/* ---- explain.c ---- */
List *plan__explain(Binder *b, const Plan *plan);
/* EXPLAIN ANALYZE: make u run inner and format its counters. */
void plan__explain_analyze(Binder *b, const Plan *inner, UtilityStmt *u);
char *plan__deparse(MemArena *a, const Expr *e, const char *const *colnames);

/* ---- colname.c ---- */
const char *plan__figure_colname(const Node *n);

/* ---- bind_record.c: anonymous records (issue 6) ---- */
/* A record shape: field names and types. The typmod of a TYPE_RECORD
 * SqlType indexes the process-wide registry of shapes (-1 = unknown). */
typedef struct PlanRecordDesc {
    int nfields;
    const char **names;
    SqlType *types;
} PlanRecordDesc;
int32_t plan__record_typmod(int n, const char *const *names, const SqlType *types);
const PlanRecordDesc *plan__record_desc(int32_t typmod);
/* The record of fields[0..n) named names (unknown fields become text). */
Expr *plan__make_record(Binder *b, Expr **fields, const char *const *names, int n, int loc);
Expr *plan__bind_row(Binder *b, const RowExpr *r);
/* (r).f, (r).f.g: for indirection lists that hold field names or `*`
 * (`*` outside a select list is 0A000, as PostgreSQL). */
bool plan__indirection_has_fields(const A_Indirection *ind);
Expr *plan__bind_field_select(Binder *b, const A_Indirection *ind);
/* A select-list item `(r).*`: its fields as expressions named after them
 * (Expr.name); NULL when val is not such an item. */
List *plan__expand_record_star(Binder *b, const Node *val);
/* information_schema.f(...) (only _pg_expandarray): in expressions, and
 * as a FROM item (plan__plan_table_function's contract). */
bool plan__is_infoschema_call(const FuncCall *fc);
Expr *plan__bind_infoschema_func(Binder *b, const FuncCall *fc);
PlanNode *plan__plan_infoschema_from(Binder *b, const RangeFunction *rf, const char ***names,
                                     Expr ***largs, int *nl);
/* ROW(..) op ROW(..) for = <> < <= > >= (RowCompareExpr), and ROW(..)
 * [NOT] IN (ROW(..), ...) (NULL when an item is not a row constructor). */
Expr *plan__bind_row_compare(Binder *b, const char *op, const RowExpr *l, const RowExpr *r, int loc);
Expr *plan__bind_row_in(Binder *b, const A_Expr *a);
/* Record IS [NOT] NULL field by field (NULL when the shape is unknown);
 * ROW(..) IS [NOT] DISTINCT FROM ROW(..) pair by pair. */
Expr *plan__record_null_test(Binder *b, Expr *arg, bool is_null, int loc);
Expr *plan__bind_row_distinct(Binder *b, const A_Expr *a, bool negated);

#endif
