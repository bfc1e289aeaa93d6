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
typedef struct MemArena MemArena;  /* common/arena.h */

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
    /* ---- issue 4 additions (appended: existing values stay stable) ---- */
    EXPR_SUBPLAN,    /* a subquery evaluated as an expression: see "Subplans" below */
    EXPR_OUTER_REF,  /* inside a subplan / lateral subtree: the value of slot
                        `index` of the nearest enclosing EXPR_SUBPLAN's args (or
                        of the enclosing lateral PLAN_NESTED_LOOP's lateral_args)
                        for the outer row being evaluated; type = that arg's type */
    EXPR_ARRAY,      /* ARRAY[args...]: a one-dimensional array of `type`
                        (an array type, common/types.h); args already coerced
                        to the element type; NULL elements allowed */
    EXPR_SRF,        /* set-returning function call in a select list:
                        index = its TableFuncKind, args its arguments, type
                        = its (single) output column's type. Never reaches
                        the executor's expression compiler: the planner
                        evaluates it in a PLAN_PROJECT_SET below and reads
                        the result as a column (planner/README.md) */
} ExprKind;

/*
 * Subplans (EXPR_SUBPLAN). A subquery that stays an expression (the planner
 * turns IN/EXISTS in WHERE into semi/anti joins where it can; what is left —
 * scalar subqueries, EXISTS/IN under OR or in a select list, correlated
 * ones — becomes an EXPR_SUBPLAN):
 *   subplan   the subquery's plan (its own tree; any PlanKind);
 *   sublink   what to compute from its rows (SubLinkKind);
 *   args      the correlation values: nargs expressions over the input of the
 *             node the EXPR_SUBPLAN sits in (like any other expression).
 *             Inside `subplan`, EXPR_OUTER_REF with index i reads args[i] of
 *             the current outer row. nargs == 0: uncorrelated.
 * Execution: uncorrelated subplans run at most once per portal run (first
 * use) and their result is cached. Correlated subplans are executed for each
 * outer batch: for each active row (or each distinct combination of arg
 * values within the batch — the executor may memoise) the subplan tree is
 * re-run with the slots bound. It is NEVER re-planned. Nested subplans:
 * an inner subplan that needs a value from two levels out gets it through
 * its own args (the planner passes it down as an EXPR_OUTER_REF of the
 * middle level), so EXPR_OUTER_REF always means the nearest level.
 * Result per outer row, by sublink:
 *   SUBLINK_EXISTS  bool, never NULL: whether the subplan yields any row
 *                   (the executor may stop at the first row).
 *   SUBLINK_SCALAR  the single output column's value (type = that column's
 *                   type); NULL when no row; more than one row raises 21000
 *                   "more than one row returned by a subquery used as an
 *                   expression" (ERRCODE_CARDINALITY_VIOLATION).
 *   SUBLINK_ANY     the subplan has ONE bool output column: the planner has
 *                   already put the comparison (lhs op col) inside it, the
 *                   lhs passed as an args slot. Result = SQL OR over all
 *                   rows: true if any row is true, else NULL if any row is
 *                   NULL, else false (also false for no rows). x IN (subq)
 *                   and x op ANY (subq) use this.
 *   SUBLINK_ALL     as ANY with AND: false if any row false, else NULL if any
 *                   NULL, else true (true for no rows). x NOT IN (subq) is
 *                   NOT (x = ANY ...) and x op ALL (subq) uses this.
 *   SUBLINK_ARRAY   ARRAY(subquery): one output column; result is a
 *                   one-dimensional array (type = array of that column's
 *                   type) of all its values in the subplan's order; an empty
 *                   array for no rows.
 */
typedef enum SubLinkKind {
    SUBLINK_EXISTS,
    SUBLINK_SCALAR,
    SUBLINK_ANY,
    SUBLINK_ALL,
    SUBLINK_ARRAY,
} SubLinkKind;

typedef struct PlanNode PlanNode;

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
    /* EXPR_SUBPLAN (see "Subplans" above); args/nargs are the correlation values */
    PlanNode *subplan;
    SubLinkKind sublink;
    int subplan_id;        /* unique per Plan, 0..Plan.nsubplans-1: index for
                              the executor's per-subplan state (cache, EXPLAIN
                              ANALYZE) */
};

/* ---------- plan nodes ---------- */

typedef enum PlanKind {
    PLAN_SCAN,        /* read table columns; filter applied to the scan's output */
    PLAN_VALUES,      /* constant rows (SELECT without FROM, VALUES) */
    PLAN_FILTER,      /* keep rows where predicate is true */
    PLAN_PROJECT,     /* compute exprs over the child's output */
    PLAN_AGG,         /* hash aggregate: output = group keys then aggregates */
    PLAN_HASH_JOIN,   /* equi-join (join_type): build on right, probe with left */
    PLAN_NESTED_LOOP, /* join (join_type) without equi keys (incl. CROSS JOIN, LATERAL) */
    PLAN_SORT,        /* order by keys over the child's columns */
    PLAN_LIMIT,       /* skip offset rows, then pass limit rows */
    PLAN_DISTINCT,    /* SELECT DISTINCT over all child columns */
    PLAN_INSERT,      /* append child rows into a table; outputs nothing */
    /* ---- issue 4 additions (appended: existing values stay stable) ---- */
    PLAN_WINDOW,      /* window functions over a sorted child (see below) */
    PLAN_SETOP,       /* INTERSECT / EXCEPT [ALL] of left and right */
    PLAN_APPEND,      /* UNION ALL: children[0] rows, then children[1] ... */
    PLAN_CTE_SCAN,    /* read a materialised WITH query (cte_id) */
    PLAN_RECURSIVE_UNION, /* WITH RECURSIVE: left = base term, right = recursive term */
    PLAN_WORKTABLE_SCAN,  /* inside a recursive term: the previous iteration's rows */
    PLAN_FUNCTION_SCAN,   /* table function in FROM: generate_series, unnest */
    /* ---- issue 3: UPDATE / DELETE (plan_update.c); outputs nothing ---- */
    PLAN_UPDATE,      /* child: col 0 = row locator (int8), cols 1..n = the new row of
                         target in table order and types; store_row_update each */
    PLAN_DELETE,      /* child: col 0 = row locator (int8); store_row_delete each */
    /* ---- issue 4: set-returning functions in the select list ---- */
    PLAN_PROJECT_SET, /* exprs[ncols] over the child: each an EXPR_SRF (args
                         over the child's columns) or a plain expression. Per
                         input row, every SRF is started with that row's
                         argument values and they advance in lockstep; the
                         row yields max(rows of each SRF) output rows, shorter
                         SRFs padded with NULL, plain expressions repeated
                         (a row whose SRFs all yield nothing yields nothing).
                         PostgreSQL 10+'s ProjectSet. */
    /* PLAN_UPDATE / PLAN_DELETE `right` (NULL = none): the READ COMMITTED
     * re-check tree (EvalPlanQual). It is `left` with the target's PLAN_SCAN
     * replaced by a PLAN_WORKTABLE_SCAN (plus a PLAN_FILTER of the scan's
     * scan_filter) whose table / scan_cols / col_types are the scan's (the
     * locator, STORE_COL_ROWID, last): the executor fills that worktable
     * with the newest versions (store_row_fetch) of rows storage reported
     * MOVED and runs the tree to get their locators and new rows. */
    /* ---- issue 6: pg_catalog / information_schema virtual tables ---- */
    PLAN_CATALOG_SCAN, /* rows of catalog table catalog_id (executor/catalog.h),
                          computed from Strata's catalog when the scan starts;
                          all of its columns, in the table's order */
    /* RETURNING (issue 4): a PLAN_INSERT/UPDATE/DELETE with ncols > 0 outputs,
     * after writing every row, the rows it wrote in the target's column order
     * and types (new rows; old rows for DELETE, whose child then also carries
     * the old row in cols 1..n after the locator). UPDATE ... FROM / DELETE
     * ... USING: the child's columns after the target's row (the FROM
     * tables' columns of the joined row) are output after it as they are. */
} PlanKind;

/*
 * Join types of PLAN_HASH_JOIN and PLAN_NESTED_LOOP (PlanNode.join_type;
 * 0 = inner, so nodes built before this field existed keep their meaning).
 *
 * A pair (left row, right row) MATCHES when every key pair is equal (a NULL
 * key never equals anything) and join_filter (the ON condition's residual,
 * over the concatenated row) is true. Output columns: left's then right's,
 * except SEMI/ANTI/ANTI_NULL (left's only) and MARK (left's plus one bool).
 *
 *   PJOIN_INNER   every matching pair.
 *   PJOIN_LEFT    as inner, plus each left row with no match once, with all
 *                 right columns NULL.
 *   PJOIN_RIGHT   never emitted by the planner (it swaps the sides of a RIGHT
 *                 JOIN and plans a LEFT one); listed for completeness.
 *   PJOIN_FULL    as LEFT, plus each right row that matched no left row
 *                 once, with all left columns NULL (emitted after the left
 *                 side is exhausted). join_filter conditions only the match:
 *                 it never removes rows from the outer sides.
 *   PJOIN_SEMI    each left row that has at least one match, once.
 *   PJOIN_ANTI    each left row that has no match, once (NOT EXISTS).
 *   PJOIN_ANTI_NULL  null-aware anti join for `(l1..ln) NOT IN (SELECT
 *                 r1..rn ...)`: the keys are the IN's pairs, and a left row is
 *                 emitted only when the IN is FALSE for it (not NULL):
 *                 - no right row passes join_filter (right side empty for
 *                   this row): emitted, whatever its keys (NULLs too);
 *                 - else: NOT emitted if some passing right row matches, or
 *                   "might match": every key pair is equal or has a NULL on
 *                   either side (so a NULL left key with a non-empty right
 *                   side, or any all-NULL-key right row, drops the row);
 *                 - else emitted.
 *   PJOIN_MARK    each left row once, with one extra bool column (the mark):
 *                 TRUE if it has a match; otherwise, when mark_null_aware,
 *                 NULL if some right row passing join_filter "might match"
 *                 as defined for ANTI_NULL; otherwise FALSE. EXISTS under OR
 *                 uses mark_null_aware = false (never NULL); `x IN (subq)`
 *                 under OR / in a select list uses true.
 * For a hash join the right child is the build side; nested loops may be
 * any join type and keep a matched flag per right row for FULL.
 */
typedef enum PlanJoinType {
    PJOIN_INNER = 0,
    PJOIN_LEFT,
    PJOIN_RIGHT,
    PJOIN_FULL,
    PJOIN_SEMI,
    PJOIN_ANTI,
    PJOIN_ANTI_NULL,
    PJOIN_MARK,
} PlanJoinType;

/* PLAN_SETOP operations (duplicates: m copies of a row on the left, n on
 * the right; rows compare with NULLs equal, as IS NOT DISTINCT FROM):
 *   SETOP_INTERSECT      1 copy if m > 0 and n > 0       SETOP_INTERSECT ALL  min(m, n)
 *   SETOP_EXCEPT         1 copy if m > 0 and n == 0      SETOP_EXCEPT ALL     max(m - n, 0)
 *   SETOP_UNION          1 copy if m + n > 0 (the planner emits UNION as
 *                        PLAN_APPEND under PLAN_DISTINCT; listed for completeness)
 * Output order is unspecified (the planner sorts above when asked). */
typedef enum SetOpKind { SETOP_UNION, SETOP_INTERSECT, SETOP_EXCEPT } SetOpKind;

/* Table functions of PLAN_FUNCTION_SCAN. func_args are expressions without
 * input columns (constants, parameters, EXPR_OUTER_REF when the scan is the
 * right side of a lateral nested loop or inside a subplan), evaluated once
 * per scan start. With `ordinality` one more int8 column (1, 2, ...) follows.
 *   TABLEFUNC_GENERATE_SERIES  args (start, stop[, step]) all of one type:
 *       int4 | int8 | numeric (step default 1) → one column of that type;
 *       timestamp | timestamptz (start, stop, interval step; step required)
 *       → one column of the start's type. Emits start, start+step, ... while
 *       <= stop (step > 0) or >= stop (step < 0); none when the bound is
 *       already passed; any NULL argument → no rows. step 0 raises 22023
 *       "step size cannot equal zero" (interval step 0: same text).
 *   TABLEFUNC_UNNEST  args: n >= 1 arrays → n columns (element types), row i
 *       holds element i of each array, NULL past a shorter array's end; a
 *       NULL array counts as empty.
 * col_types give the output types (the planner resolved them). */
typedef enum TableFuncKind {
    TABLEFUNC_GENERATE_SERIES,
    TABLEFUNC_UNNEST,
    /* ---- issue 4 additions; usable in FROM and (one column) in select lists ----
     * Every one is strict (a NULL argument: no rows) unless noted. */
    TABLEFUNC_REGEXP_MATCHES,   /* (text, pattern text[, flags text]) → text[]: one row per
                                   match (every match with flag 'g'), the captured groups */
    TABLEFUNC_REGEXP_SPLIT,     /* (text, pattern text[, flags text]) → text */
    TABLEFUNC_STRING_TO_TABLE,  /* (text, delimiter text[, null_string text]) → text; not
                                   strict in delimiter / null_string (PostgreSQL's rules) */
    TABLEFUNC_JSON_ELEMENTS,    /* (json | jsonb) → same type: array elements */
    TABLEFUNC_JSON_ELEMENTS_TEXT, /* (json | jsonb) → text */
    TABLEFUNC_JSON_EACH,        /* (json | jsonb) → (key text, value json | jsonb); FROM only */
    TABLEFUNC_JSON_EACH_TEXT,   /* (json | jsonb) → (key text, value text); FROM only */
    TABLEFUNC_JSON_OBJECT_KEYS, /* (json | jsonb) → text */
    TABLEFUNC_GENERATE_SUBSCRIPTS, /* (anyarray, dim int4[, reverse bool]) → int4 */
} TableFuncKind;

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
    /* ---- issue 4 additions (zero = the old meaning) ---- */
    /* All arguments when the aggregate takes more than one (string_agg(v,
     * delim), corr(y, x), ...): args[0] == arg. nargs 0 or 1: use arg. */
    int nargs;
    Expr **args;
    /* FILTER (WHERE f): bool over the same input as arg; a row counts only
     * when it is TRUE (NULL/false rows are skipped). NULL = no filter. */
    Expr *filter;
    /* ORDER BY inside the call (string_agg(x, ',' ORDER BY y DESC)) and the
     * WITHIN GROUP (ORDER BY x) of ordered-set aggregates: the rows of each
     * group are fed to the aggregate in this order. norder sort keys whose
     * `column` indexes order_exprs (expressions over the aggregate's input).
     * With distinct, the order expressions are the arguments (PostgreSQL
     * requires it) and DISTINCT removes duplicates of args. */
    int norder;
    Expr **order_exprs;
    SortKey *order;
    /* Ordered-set aggregates (percentile_cont(0.5) WITHIN GROUP (ORDER BY
     * x), mode()): the direct argument, an expression without columns
     * (constant or parameter), evaluated once per execution. NULL = none.
     * For them `arg` is the ordered value (= order_exprs[0]). */
    Expr *direct_arg;
} AggCall;

/* ---------- window functions (PLAN_WINDOW) ---------- */

typedef enum FrameMode { FRAME_RANGE = 0, FRAME_ROWS, FRAME_GROUPS } FrameMode;
typedef enum FrameBoundKind {
    BOUND_UNBOUNDED_PRECEDING = 0,
    BOUND_OFFSET_PRECEDING,   /* offset rows / groups / range before */
    BOUND_CURRENT_ROW,        /* ROWS: this row; RANGE/GROUPS: its first (start) or last (end) peer */
    BOUND_OFFSET_FOLLOWING,
    BOUND_UNBOUNDED_FOLLOWING,
} FrameBoundKind;
typedef enum FrameExclusion {
    EXCLUDE_NO_OTHERS = 0,
    EXCLUDE_CURRENT_ROW,      /* drop the current row from its frame */
    EXCLUDE_GROUP,            /* drop the current row and its peers */
    EXCLUDE_TIES,             /* drop its peers but keep the row itself */
} FrameExclusion;

/*
 * A frame: always explicit (the planner fills PostgreSQL's default, RANGE
 * BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW, which with no ORDER BY makes
 * every partition row a peer, i.e. the whole partition).
 * Offsets:
 *   ROWS / GROUPS: start_offset / end_offset are int8 expressions without
 *     columns (constant or parameter), evaluated once per execution. NULL
 *     raises 22004 "frame starting offset must not be null" ("ending" for
 *     the end); negative raises 22013 "frame starting offset must not be
 *     negative" / "frame ending offset must not be negative".
 *   RANGE with an offset: the window has exactly one ORDER BY key. The
 *     planner precomputes, as child columns, the bound each row's frame
 *     reaches: start_bound_col holds, for every row, the ORDER BY value at
 *     which the frame starts (key - offset for ASC PRECEDING, key + offset
 *     for DESC PRECEDING, and so on), end_bound_col likewise (-1 when that
 *     side has no offset). The ORDER BY key column itself is already of a
 *     type wide enough for key ± offset not to overflow (the planner casts
 *     int2/int4 → int8, int8 → numeric, float4 → float8, date → timestamp),
 *     and both bound columns have exactly the key column's type.
 *     The frame starts at the first row of the partition whose key is >=
 *     (ASC; <= for DESC) the start bound and ends at the last row whose key
 *     is <= (ASC; >= for DESC) the end bound. When the current row's key is
 *     NULL the offset bounds mean "its peers" (the NULL rows), as PostgreSQL.
 *     start_offset / end_offset are still set (for EXPLAIN and the
 *     executor's check: NULL → 22004 as above, negative → 22013 "invalid
 *     preceding or following size in window function").
 */
typedef struct WindowFrame {
    FrameMode mode;
    FrameBoundKind start_kind;
    FrameBoundKind end_kind;
    Expr *start_offset;
    Expr *end_offset;
    int start_bound_col;      /* RANGE offsets only, else -1 */
    int end_bound_col;
    FrameExclusion exclusion;
} WindowFrame;

typedef enum WinFuncKind {
    WIN_AGG = 0,        /* `agg` over the frame (any aggregate; FILTER allowed) */
    WIN_ROW_NUMBER,     /* int8: 1, 2, ... within the partition */
    WIN_RANK,           /* int8: 1 + rows before the first peer */
    WIN_DENSE_RANK,     /* int8: 1 + distinct peer groups before */
    WIN_PERCENT_RANK,   /* float8: (rank - 1) / (partition rows - 1), 0 if 1 row */
    WIN_CUME_DIST,      /* float8: (rows up to the last peer) / partition rows */
    WIN_NTILE,          /* int4: args[0] int4 bucket count, evaluated per row;
                           NULL → NULL; <= 0 raises 22014 "argument of ntile
                           must be greater than zero" */
    WIN_LAG,            /* args[0] value, args[1] int4 offset (absent = 1; NULL
                           → NULL result), args[2] default (absent = NULL; same
                           type as value): value offset rows before in the
                           partition (ignores the frame), default past the edge */
    WIN_LEAD,           /* the same, after */
    WIN_FIRST_VALUE,    /* args[0] at the frame's first row (NULL: empty frame) */
    WIN_LAST_VALUE,     /* args[0] at the frame's last row */
    WIN_NTH_VALUE,      /* args[0] at the frame's args[1]-th row (int4, 1-based;
                           NULL when the frame is shorter); args[1] <= 0 raises
                           22016 "argument of nth_value must be greater than zero" */
} WinFuncKind;

/* One window function call. Its arguments (and agg's arg/args/filter) are
 * EXPR_COLUMN over the PLAN_WINDOW's child or expressions without columns
 * (constants, parameters): the planner projects anything else below. */
typedef struct WindowCall {
    WinFuncKind kind;
    int nargs;
    Expr **args;
    AggCall agg;              /* WIN_AGG only; agg.norder == 0, !agg.distinct */
    SqlType type;             /* result type */
    const char *display;      /* "row_number()", "sum(x)": EXPLAIN */
} WindowCall;

typedef struct PlanNodeStats PlanNodeStats;

struct PlanNode;
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
    /* PLAN_INSERT ... ON CONFLICT (seq, plan_insert.c / op_insert.c): 'n' DO
     * NOTHING ('a': without a conflict target), 'u' DO UPDATE, 0 none. Conflicts are on the primary key. For
     * 'u', `right` is the update tree: it reads worktable `worktable_id`
     * (columns: the existing row, the proposed row (excluded), the existing
     * row's locator) and yields locator + the new row for the rows its
     * WHERE keeps. */
    char on_conflict;

    /* ---------------- issue 4 additions (zero = old meaning) ---------------- */

    /* Every node: a number unique within its Plan (0..Plan.nnodes-1, subplan
     * and CTE trees included) indexing EXPLAIN ANALYZE's PlanNodeStats. */
    int node_id;

    /* PLAN_HASH_JOIN / PLAN_NESTED_LOOP: see PlanJoinType. */
    PlanJoinType join_type;
    bool mark_null_aware;       /* PJOIN_MARK only */
    /* PLAN_NESTED_LOOP, LATERAL: nlateral expressions over the left child's
     * columns; the right subtree is re-run (not re-planned) for each left
     * row with its EXPR_OUTER_REFs bound to these values. 0 = not lateral. */
    int nlateral;
    Expr **lateral_args;

    /* PLAN_SORT: top-N hint. 0 = sort everything; n > 0 = only the first n
     * rows in sort order will be read (a PLAN_LIMIT above still applies
     * LIMIT/OFFSET; n = limit + offset), so the sort may keep a bounded heap. */
    int64_t sort_topn;

    /* PLAN_DISTINCT: DISTINCT ON. ndistinct_on == 0: distinct over all
     * columns (the old meaning). > 0: keep the FIRST row in input order of
     * each combination of the distinct_on child columns (NULLs equal);
     * the planner sorts the child by those keys first (then by the rest of
     * ORDER BY), so equal keys arrive adjacent. Output = child's columns. */
    int ndistinct_on;
    int *distinct_on;

    /* PLAN_AGG grouping sets. ngsets == 0: plain GROUP BY (old meaning).
     * > 0: gsets[i] is a bitmask over group_exprs (bit k = group_exprs[k];
     * so ngroups <= 64) of the keys set i groups by; rows are grouped per set
     * independently and the outputs of all sets concatenated (order
     * unspecified). Output: ngroups key columns (NULL where the key is not in
     * the row's set), naggs aggregates, then ONE extra int4 column: the index
     * i of the set the row belongs to (the planner derives GROUPING() and
     * drops it above). A set with no keys (mask 0) emits exactly one row even
     * on empty input, as GROUP BY () does. Duplicate sets emit duplicate rows. */
    int ngsets;
    uint64_t *gsets;

    /* PLAN_WINDOW: the child is sorted by (partition keys, order keys). Rows
     * with equal partition columns (NULLs equal) form a partition; within
     * it, rows equal on every order key are peers. Output = the child's
     * columns followed by one column per call (in order), for every input
     * row in input order. All calls share the one window definition. */
    int npartition;
    int *partition_cols;        /* child columns */
    int nwin_order;
    SortKey *win_order;         /* child columns + direction, as the child is sorted */
    WindowFrame frame;
    int nwincalls;
    WindowCall *wincalls;

    /* PLAN_SETOP: left and right have the same column types (the planner
     * casts); output = left's columns. */
    SetOpKind setop;
    bool setop_all;

    /* PLAN_APPEND: nchildren >= 1 children, identical column types; output
     * all rows of children[0], then children[1], ... (left/right unused). */
    int nchildren;
    PlanNode **children;

    /* PLAN_CTE_SCAN: reads WITH query number cte_id (0..Plan.nctes-1) whose
     * plan is cte_plan (the same pointer in every scan of that CTE). The
     * executor runs cte_plan at most once per portal run (on first read) into
     * a materialised buffer that every scan of cte_id reads from the start;
     * ncols/col_types are cte_plan's. Inside subplans the CTE is shared with
     * the outer query (same run). */
    int cte_id;
    PlanNode *cte_plan;

    /* PLAN_RECURSIVE_UNION (left = non-recursive term, right = recursive
     * term) and PLAN_WORKTABLE_SCAN (inside right): worktable_id
     * (0..Plan.nworktables-1) ties them. Evaluation: run left, emit its rows
     * (for UNION, i.e. !setop_all: skip rows equal — NULLs equal — to a row
     * already emitted), and make them the worktable; then repeatedly run
     * right, whose WORKTABLE_SCANs read the current worktable; its emitted
     * (deduplicated for UNION) rows become the next worktable; stop when an
     * iteration emits nothing. Recursion guard: more than
     * PLAN_MAX_RECURSION iterations raise 54001 "WITH RECURSIVE query
     * exceeded %d iterations" (PostgreSQL loops forever). Both children have
     * the node's column types. */
    int worktable_id;

    /* PLAN_FUNCTION_SCAN (see TableFuncKind) */
    TableFuncKind func_kind;
    int nfunc_args;
    Expr **func_args;
    bool ordinality;            /* WITH ORDINALITY: extra last int8 column */

    /* EXPLAIN only: the FROM item's name (CTE, function and worktable scans); may be NULL */
    const char *alias;

    /* PLAN_CATALOG_SCAN: ExecCatTable.id (executor/catalog.h) */
    int catalog_id;

    /* PLAN_SORT, late materialisation (issue 7; nlate == 0: the old
     * meaning). The child carries the sort keys, the computed columns and
     * a row locator (child column late_rowid, from a STORE_COL_ROWID scan
     * column); for the rows the sort emits it fetches table columns
     * late_cols[0..nlate) of late_table by locator (planner/plan_late.c).
     * Output column i is child column late_map[i] when >= 0, else fetched
     * column -1 - late_map[i]; ncols / col_types describe the output. */
    int nlate;
    int *late_cols;
    int *late_map;
    int late_rowid;
    StoreTable *late_table;

    /* PLAN_PROJECT made by plan_select.c agg_derived (issue 7): right above
     * its PLAN_AGG, exprs = every GROUP BY item (some computed per group)
     * then the aggregates; EXPLAIN prints the items as the Group Key. */
    bool agg_derived;
};

/* Recursion guard for PLAN_RECURSIVE_UNION (iterations of the recursive term). */
#define PLAN_MAX_RECURSION 1000000

/*
 * EXPLAIN ANALYZE counters: one per PlanNode (index node_id), filled by the
 * executor while running the plan. rows/batches = rows and non-empty
 * batches the node emitted (summed over loops); loops = times the node was
 * (re)started (1, or per outer row in subplans/lateral sides); time_ms =
 * wall time spent inside the node and its children, summed over loops.
 * Times are approximate in fused pipelines (the executor documents how).
 */
struct PlanNodeStats {
    uint64_t rows;
    uint64_t batches;
    uint64_t loops;
    double time_ms;
    /* a sink whose pipeline ran on several threads (executor/parallel.c):
     * how many workers besides the leader, and how ("morsels",
     * "partitioned"); 0 / NULL = one thread. Counters above are summed
     * over the threads (loops counts each thread). */
    int workers;
    const char *parallel_mode;
    /* ---- issue 7: which specialised paths ran (EXPLAIN ANALYZE's
     * "Kernels:" line; executor/README.md "Kernels in EXPLAIN ANALYZE").
     * Set once per batch or per operator start, never per row; OR-ed /
     * summed over loops and threads. */
    uint64_t kernels;           /* PlanKernel bits */
    uint64_t groups_skipped;    /* scan: row groups its zone maps excluded */
    uint64_t groups_summarised; /* scan: row groups answered from metadata (zone maps, counts) */
};

/* PlanNodeStats.kernels bits. The printer (planner/explain.c) composes
 * them in this order; never renumber (tests match the text, not bits). */
typedef enum PlanKernel {
    /* scan filter `column op constant` (executor/filter_kernels.c) */
    PLAN_KERN_FILTER_AVX2 = 0,   /* explicit AVX2 compare + movemask */
    PLAN_KERN_FILTER_PACKED,     /* compare into bytes + multiply pack (a target_clones kernel) */
    PLAN_KERN_FILTER_LENGTH,     /* text = '' / <> '': a length test */
    PLAN_KERN_CMP_I16, PLAN_KERN_CMP_I32, PLAN_KERN_CMP_I64, PLAN_KERN_CMP_TEXT,
    PLAN_KERN_CMP_EQ, PLAN_KERN_CMP_NE, PLAN_KERN_CMP_LT, PLAN_KERN_CMP_LE, PLAN_KERN_CMP_GT,
    PLAN_KERN_CMP_GE,
    PLAN_KERN_FILTER_REST,       /* the other conjuncts, on the rows the kernel selected */
    PLAN_KERN_FILTER_EXPR,       /* general path: expression program + selection */
    PLAN_KERN_FILTER_ALLPASS,    /* a batch where every row passed (no selection vector) */
    PLAN_KERN_SCAN_LOOKUP,       /* primary-key point lookup */
    PLAN_KERN_SCAN_SUMMARY,      /* summary mode: groups folded from metadata */
    /* aggregation (executor/op_agg.c, grouptab.c) */
    PLAN_KERN_AGG_ONE_GROUP,     /* no GROUP BY */
    PLAN_KERN_AGG_HASH_FIXED,    /* group table, fixed-width keys only */
    PLAN_KERN_AGG_HASH_STR,      /* group table with string keys */
    PLAN_KERN_AGG_GSETS,         /* grouping sets */
    PLAN_KERN_AGG_COUNT_STAR,    /* count(*) added by batch size */
    PLAN_KERN_AGG_REG_COUNT,     /* one group: count(x) from validity words */
    PLAN_KERN_AGG_REG_SUM,       /* one group: int2/int4 sum in registers */
    PLAN_KERN_AGG_SUM64_FAST,    /* one group: int8 sum, batch checked free of overflow */
    PLAN_KERN_AGG_SUM64_EXACT,   /* one group: int8 sum through the exact 32-bit split */
    PLAN_KERN_AGG_REG_MINMAX,    /* one group: integer min/max in registers */
    PLAN_KERN_AGG_REG_FSUM,      /* one group: float sum in row order, in a register */
    PLAN_KERN_AGG_SCATTER,       /* per-group update loops (state[group[i]] += x) */
    PLAN_KERN_AGG_DISTINCT,      /* DISTINCT through a (group, value) set */
    PLAN_KERN_AGG_FILTER,        /* FILTER (WHERE ...) selection */
    PLAN_KERN_AGG_ORDERED,       /* ORDER BY inside the call: rows buffered and sorted */
    PLAN_KERN_AGG_GENERIC,       /* a registry aggregate (AggImpl) */
    PLAN_KERN_AGG_SHARED,        /* sums of one column share one state */
    PLAN_KERN_AGG_ADD_CONST,     /* sum(x + c) folded to sum(x) + c * count(x) */
    PLAN_KERN_AGG_METADATA,      /* states folded from scan metadata (summary mode) */
    /* sort (executor/op_sort.c) */
    PLAN_KERN_SORT_FULL,         /* stable merge sort of every row */
    PLAN_KERN_SORT_TOPN,         /* top-N: quickselect prunes to N */
    PLAN_KERN_SORT_BOUND,        /* top-N bound filter, key by key */
    PLAN_KERN_SORT_BOUND_ONE,    /* top-N bound filter, one branch-free integer key */
    PLAN_KERN_SORT_LATE,         /* late materialisation by row locator */
    /* hash join (executor/op_hashjoin.c) */
    PLAN_KERN_HJ_CHAINS,         /* bucket chains, candidate pairs verified column-wise */
    PLAN_KERN_HJ_FIRST_MATCH,    /* semi/anti: first-match rounds */
    PLAN_KERN_HJ_NULL_CHECK,     /* NOT IN / MARK: might-match check against NULL keys */
    /* which target_clones clone the ifunc picked (one process-wide answer) */
    PLAN_KERN_CLONE_AVX2,
    PLAN_KERN_CLONE_DEFAULT,
    PLAN_KERN_COUNT
} PlanKernel;
#define PLAN_KERN(k) (UINT64_C(1) << (k))

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
    /* ---- issue 4 additions ---- */
    UTIL_EXPLAIN_ANALYZE, /* run explain_plan, then rows of explain_format(...) */
    UTIL_NOOP,       /* the planner did all the work (CREATE VIEW, PREPARE,
                        DEALLOCATE kept in planner/): only the command tag */
    /* ---- issue 3 additions (planner/plan_ddl3.c, executor/utility_ddl3.c) ---- */
    UTIL_TRUNCATE,    /* store_table_truncate each of ddl3_tables */
    UTIL_MAINTENANCE, /* ddl3_op 'v' VACUUM / 'a' ANALYZE (ddl3_tables, NULL = all) / 'c' CHECKPOINT */
    UTIL_SAVEPOINT,   /* ddl3_op 's' SAVEPOINT / 'r' RELEASE / 'b' ROLLBACK TO, of ddl3_name */
    UTIL_ALTER_TABLE, /* ddl3_cmds (PlanAlterCmd) on the first of ddl3_tables (none: IF EXISTS, absent) */
    UTIL_SCHEMA,      /* ddl3_op 'c' CREATE SCHEMA ddl3_name (missing_ok = IF NOT EXISTS) /
                         'd' DROP SCHEMA ddl3_names (missing_ok = IF EXISTS, ddl3_cascade) */
    UTIL_ROLE,        /* ddl3_op 'c' CREATE / 'a' ALTER ROLE ddl3_name with ddl3_role /
                         'd' DROP ROLE ddl3_names (missing_ok = IF EXISTS) */
    UTIL_DATABASE,    /* ddl3_op 'c' CREATE / 'd' DROP DATABASE ddl3_name (missing_ok = IF EXISTS) */
    UTIL_SEQUENCE,    /* sequences: `seq` (planner/plan_sequence.c, executor/utility_seq.c) */
    UTIL_CREATE_TABLE_AS, /* CREATE TABLE ... AS / SELECT ... INTO (planner/plan_ctas.c): create the
                         table as UTIL_CREATE_TABLE, then (unless ctas_skip_data) insert the rows of
                         ctas_plan (a PLAN_STMT_QUERY whose result columns are the table's) */
    UTIL_VIEW,        /* ddl3_op 'c' CREATE VIEW schema_name.table_name (columns, view_sql; 'r' = OR
                         REPLACE of an existing one) / 'd' DROP VIEW view_drops (executor/utility_view.c) */
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
    /* UTIL_EXPLAIN_ANALYZE: the executor runs explain_plan (a
     * PLAN_STMT_QUERY or PLAN_STMT_INSERT plan) to completion with the
     * portal's parameters, discarding its rows but filling stats[node_id]
     * (explain_plan->nnodes entries, zeroed first) and measuring total_ms;
     * then returns, as the EXPLAIN's rows (one text column "QUERY PLAN"),
     * the lines of explain_format(explain_plan, stats, total_ms, arena).
     * explain_format is set by the planner (a pointer, so the executor
     * does not link against planner/). */
    const struct Plan *explain_plan;
    List *(*explain_format)(const struct Plan *plan, const PlanNodeStats *stats,
                            double total_ms, MemArena *arena);
    /* ---- issue 3 additions ---- */
    List *ddl3_tables;          /* UTIL_TRUNCATE / UTIL_MAINTENANCE: StoreTable * each */
    char ddl3_op;               /* UTIL_MAINTENANCE: 'v', 'a', 'b' (both) or 'c'; UTIL_SAVEPOINT: 's', 'r', 'b';
                                 * UTIL_SET: 't' = SET TRANSACTION */
    const char *ddl3_name;      /* UTIL_SAVEPOINT: the savepoint's name; UTIL_BEGIN: isolation level or NULL */
    List *ddl3_cmds;            /* UTIL_ALTER_TABLE: PlanAlterCmd each, in order */
    List *ddl3_names;           /* UTIL_SCHEMA 'd': schema names (char *) */
    bool ddl3_cascade;          /* UTIL_SCHEMA 'd': CASCADE */
    struct {                    /* UTIL_ROLE 'c' / 'a': 1 / 0, -1 = not given */
        int superuser, login, createdb, createrole;
        bool has_password;
        const char *password;   /* clear text from the statement; NULL = PASSWORD NULL */
    } ddl3_role;
    struct PlanSeqStmt *seq;    /* UTIL_SEQUENCE */
    /* ---- UTIL_CREATE_TABLE_AS ---- */
    const struct Plan *ctas_plan;
    bool ctas_skip_data;        /* WITH NO DATA */
    int on_commit;              /* CREATE TEMP TABLE ... ON COMMIT: 0 none / PRESERVE ROWS,
                                   2 DELETE ROWS, 3 DROP (executor/temp.c) */
    /* ---- UTIL_RESET with ddl3_op 'D': DISCARD ALL also drops the session's
     * prepared statements through discard_prepared(discard_slot) (the
     * planner's plan_session_release; a pointer, as explain_format) ---- */
    void (*discard_prepared)(void **session_state);
    void **discard_slot;
    /* ---- UTIL_VIEW ---- */
    const char *view_sql;       /* the view's query text */
    List *view_drops;           /* 'd': schema, name, schema, name, ... (const char *) */
} UtilityStmt;

/* Sequence options as written (CREATE/ALTER SEQUENCE, identity columns);
 * the executor applies them to the current definition with PostgreSQL's
 * init_params rules and checks. has_* = given; no_min/no_max = NO MINVALUE
 * / NO MAXVALUE; restart without value: has_restart && !restart_value_given. */
typedef struct PlanSeqOptions {
    uint32_t type_oid;          /* AS type; 0 = not given */
    bool has_increment, has_start, has_restart, restart_value_given, has_min, has_max;
    bool has_cache, has_cycle, has_owned, no_min, no_max, owned_none;
    int64_t increment, start, restart, min_value, max_value, cache;
    bool cycle;
    uint32_t owned_table;       /* OWNED BY t.c: table OID and column index */
    int owned_col;
} PlanSeqOptions;

/* A sequence a CREATE TABLE makes for a serial or identity column. */
typedef struct PlanSeqOwned {
    int column;                 /* index in the table's columns */
    const char *seq_name;       /* in the table's schema */
    char identity;              /* 'a' ALWAYS, 'd' BY DEFAULT, 's' serial */
    PlanSeqOptions options;     /* identity (seq options); type_oid = the column's */
} PlanSeqOwned;

/* UTIL_SEQUENCE: op 'c' CREATE SEQUENCE, 'a' ALTER SEQUENCE, 'd' DROP
 * SEQUENCE (names), 't' CREATE TABLE with serial/identity columns,
 * 'r' TRUNCATE … RESTART IDENTITY, 'x' DISCARD SEQUENCES. */
typedef struct PlanSeqStmt {
    char op;
    const char *schema;         /* 'c': resolved; 'a': as written (NULL = search_path) */
    const char *name;
    bool if_not_exists;         /* 'c' IF NOT EXISTS, 'a'/'d' IF EXISTS */
    PlanSeqOptions options;
    List *names;                /* 'd': RangeVar-like pairs: char * schema (NULL) then name */
    struct UtilityStmt *create_table;  /* 't': the UTIL_CREATE_TABLE to run */
    int nowned;
    PlanSeqOwned *owned;
} PlanSeqStmt;

/* One ALTER TABLE subcommand (issue 3). */
typedef struct PlanAlterCmd {
    char op;                    /* 'c' ADD COLUMN, 'p' ADD PRIMARY KEY */
    ColumnSpec column;          /* 'c' */
    bool if_not_exists;         /* 'c': ADD COLUMN IF NOT EXISTS */
    struct Expr *fill;          /* 'c': DEFAULT for existing rows (no columns), NULL = NULL */
    int npkey;                  /* 'p' */
    int *pkey;                  /* 'p': table column indexes */
} PlanAlterCmd;

/* ---------- the plan ---------- */

typedef enum PlanStmtKind {
    PLAN_STMT_QUERY,     /* SELECT: root produces the result rows */
    PLAN_STMT_INSERT,    /* root is PLAN_INSERT, or PLAN_UPDATE / PLAN_DELETE (command
                            "UPDATE" / "DELETE"; tag "<command> n") */
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
    /* ---- issue 4 additions ---- */
    int nnodes;                  /* node_ids are 0..nnodes-1 (all trees) */
    int nctes;                   /* PLAN_CTE_SCAN cte_ids are 0..nctes-1 */
    int nworktables;             /* worktable_ids are 0..nworktables-1 */
    int nsubplans;               /* EXPR_SUBPLAN subplan_ids are 0..nsubplans-1 */
    const void *planner_private; /* planner's own data (EXPLAIN ANALYZE text); executor ignores it */
} Plan;

#endif
