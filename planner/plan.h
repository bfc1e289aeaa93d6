/*
 * plan.h — the physical plan: the contract between planner and executor.
 *
 * A Plan is a tree of PlanNodes. Every node produces batches whose columns
 * are described by (ncols, col_types); expressions (Expr) refer to the
 * columns of their node's input by index (EXPR_COLUMN.index): for unary
 * nodes the child's output, for joins the left child's columns followed by
 * the right child's. Expressions are fully typed; every implicit cast the
 * SQL needs is an explicit EXPR_CAST here, and every function/operator is
 * resolved to one FuncDesc (executor/funcs.h).
 *
 * Pipelines: the executor cuts the tree at pipeline breakers (hash join
 * build side, aggregate, sort); see executor/README.md.
 *
 * A Plan is immutable once built and may be executed many times (prepared
 * statements); all its memory is in the PlanContext arena.
 */
#ifndef STRATA_PLANNER_PLAN_H
#define STRATA_PLANNER_PLAN_H

#include <stdbool.h>
#include <stdint.h>
#include "common/list.h"
#include "common/types.h"

typedef struct FuncDesc FuncDesc;   /* executor/funcs.h */
typedef struct CastDesc CastDesc;   /* executor/funcs.h */
typedef struct AggDesc AggDesc;     /* executor/funcs.h */
typedef struct StoreTable StoreTable; /* storage/storage.h */

/* ---------- expressions ---------- */

typedef enum ExprKind {
    EXPR_CONST,      /* value */
    EXPR_COLUMN,     /* input column index */
    EXPR_PARAM,      /* $n, param_index = n - 1 */
    EXPR_FUNC,       /* func(args): operators and functions alike */
    EXPR_CAST,       /* cast(args[0]) to type, via cast */
    EXPR_AND,        /* args[0..nargs): SQL three-valued AND */
    EXPR_OR,
    EXPR_NOT,        /* args[0] */
    EXPR_IS_NULL,    /* args[0] IS NULL */
    EXPR_IS_NOT_NULL,
    EXPR_CASE,       /* args: when0, then0, when1, then1, ..., [else]; has_else */
    EXPR_IN_LIST,    /* args[0] IN (args[1..]) — all of one comparable type;
                        cmp_func is the equality FuncDesc; negated for NOT IN */
    EXPR_AGG_RESULT, /* only inside a PLAN_AGG's parent: = EXPR_COLUMN (kept for EXPLAIN) */
} ExprKind;

typedef struct Expr Expr;
struct Expr {
    ExprKind kind;
    SqlType type;          /* result type */
    int location;          /* byte offset in query text, -1 unknown (errors) */
    int nargs;
    Expr **args;
    Value value;           /* EXPR_CONST */
    int index;             /* EXPR_COLUMN: input column; EXPR_PARAM: parameter index */
    const FuncDesc *func;  /* EXPR_FUNC; EXPR_IN_LIST: equality function */
    const CastDesc *cast;  /* EXPR_CAST */
    bool has_else;         /* EXPR_CASE */
    bool negated;          /* EXPR_IN_LIST */
    const char *name;      /* EXPLAIN: column name or function/operator name */
};

/* ---------- plan nodes ---------- */

typedef enum PlanKind {
    PLAN_SCAN,        /* read table columns; filter applied to the scan's output */
    PLAN_VALUES,      /* constant rows (SELECT without FROM, VALUES) */
    PLAN_FILTER,      /* keep rows where predicate is true */
    PLAN_PROJECT,     /* compute exprs over the child's output */
    PLAN_AGG,         /* hash aggregate: output = group keys then aggregates */
    PLAN_HASH_JOIN,   /* inner equi-join: build on right, probe with left */
    PLAN_NESTED_LOOP, /* inner join without equi keys (incl. CROSS JOIN) */
    PLAN_SORT,        /* order by keys over the child's columns */
    PLAN_LIMIT,       /* skip offset rows, then pass limit rows */
    PLAN_DISTINCT,    /* SELECT DISTINCT over all child columns */
    PLAN_INSERT,      /* append child rows into a table; outputs nothing */
} PlanKind;

typedef struct SortKey {
    int column;        /* child column */
    bool descending;
    bool nulls_first;  /* PostgreSQL default: NULLS LAST for ASC, FIRST for DESC */
} SortKey;

typedef struct AggCall {
    const AggDesc *agg;
    Expr *arg;         /* NULL for count(*) */
    bool distinct;
    SqlType type;      /* result type */
} AggCall;

typedef struct PlanNode PlanNode;
struct PlanNode {
    PlanKind kind;
    int ncols;
    SqlType *col_types;
    const char **col_names;     /* for EXPLAIN and result descriptions; may be NULL */
    PlanNode *left;             /* the child of unary nodes; probe side of joins */
    PlanNode *right;            /* build side of joins */
    double est_rows;            /* for EXPLAIN */

    /* PLAN_SCAN */
    StoreTable *table;
    int *scan_cols;             /* table column numbers, ncols of them */
    Expr *scan_filter;          /* over the scan's output columns; NULL = none */

    /* PLAN_VALUES: nrows rows of ncols constant-foldable exprs (no input) */
    int nrows;
    Expr ***rows;

    /* PLAN_FILTER */
    Expr *predicate;

    /* PLAN_PROJECT: ncols exprs */
    Expr **exprs;

    /* PLAN_AGG: ngroups key exprs, naggs aggregates (output: keys then aggs).
     * With ngroups == 0 the node emits exactly one row, even on no input. */
    int ngroups;
    Expr **group_exprs;
    int naggs;
    AggCall *aggs;

    /* PLAN_HASH_JOIN: nkeys pairs of keys, left_keys over left child columns,
     * right_keys over right child columns; residual over the joined row. */
    int nkeys;
    Expr **left_keys;
    Expr **right_keys;
    Expr *join_filter;          /* hash join residual / nested loop condition */

    /* PLAN_SORT */
    int nsort;
    SortKey *sort_keys;

    /* PLAN_LIMIT: NULL = none; int8 valued (constant or parameter) */
    Expr *limit;
    Expr *offset;

    /* PLAN_INSERT: child produces rows in the target table's column order,
     * already cast to the column types (defaults and NULLs filled in). */
    StoreTable *target;
};

/* ---------- utility statements ---------- */

typedef enum UtilityKind {
    UTIL_NONE,
    UTIL_CREATE_TABLE,
    UTIL_DROP_TABLE,
    UTIL_BEGIN,
    UTIL_COMMIT,
    UTIL_ROLLBACK,
    UTIL_SET,        /* SET name = value / SET name TO DEFAULT (value NULL) */
    UTIL_RESET,      /* RESET name; name NULL = RESET ALL */
    UTIL_SHOW,       /* SHOW name: one text column named after the parameter */
    UTIL_EXPLAIN,    /* rows of text in explain_lines, column "QUERY PLAN" */
    UTIL_ALTER_ROLE, /* role_name, password (NULL = remove) */
} UtilityKind;

typedef struct ColumnSpec {
    const char *name;
    SqlType type;
    bool not_null;
    const char *default_text;   /* SQL text of the DEFAULT expression, or NULL */
} ColumnSpec;

typedef struct UtilityStmt {
    UtilityKind kind;
    /* CREATE TABLE / DROP TABLE */
    const char *schema_name;    /* NULL = first schema of search_path */
    const char *table_name;
    bool if_not_exists;         /* CREATE ... IF NOT EXISTS */
    bool missing_ok;            /* DROP ... IF EXISTS */
    int ncolumns;
    ColumnSpec *columns;
    int npkey;
    int *pkey_columns;          /* indexes into columns */
    List *drop_tables;          /* DROP TABLE a, b: list of const char * "schema.name" or "name" */
    /* SET / RESET / SHOW */
    const char *name;
    const char *value;
    bool is_local;
    /* ALTER ROLE */
    const char *role_name;
    const char *password;
    /* EXPLAIN */
    List *explain_lines;        /* const char * each */
} UtilityStmt;

/* ---------- the plan ---------- */

typedef enum PlanStmtKind {
    PLAN_STMT_QUERY,     /* SELECT: root produces the result rows */
    PLAN_STMT_INSERT,    /* root is PLAN_INSERT */
    PLAN_STMT_UTILITY,
} PlanStmtKind;

/* One column of RowDescription. */
typedef struct ResultColumn {
    const char *name;
    SqlType type;
    uint32_t table_oid;   /* 0 when not a plain table column */
    int16_t attnum;       /* 0 when not a plain table column */
} ResultColumn;

typedef struct Plan {
    PlanStmtKind kind;
    const char *command;         /* tag stem: "SELECT", "INSERT", "CREATE TABLE", "SET", "SHOW" ... */
    PlanNode *root;              /* QUERY / INSERT */
    UtilityStmt *utility;        /* UTILITY */
    int ncols;                   /* result columns (0: no RowDescription, NoData) */
    ResultColumn *cols;
    int nparams;                 /* parameter types, inferred where not given */
    SqlType *param_types;
    const char *query_text;
} Plan;

#endif
