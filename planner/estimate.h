/*
 * estimate.h — cardinality estimation (estimate.c): table rows, filter
 * selectivity, join and GROUP BY output sizes from ANALYZE's statistics,
 * with PostgreSQL's formulas and defaults where nothing is known.
 *
 * Internal to planner/ (and its unit test, tests/unit/test_planner_estimate.c):
 * the pure functions take a PlanColStats so they can be checked without a
 * catalog; the plan__est_* functions taking a Binder read the statistics
 * of the range table's tables (storage/storage.h: store_table_stats).
 */
#ifndef STRATA_PLANNER_ESTIMATE_H
#define STRATA_PLANNER_ESTIMATE_H

#ifndef STRATA_PLANNER_INTERNAL
#error "estimate.h is internal to planner/"
#endif

#include <stdbool.h>
#include "planner/plan.h"

/* PostgreSQL's defaults (utils/selfuncs.h) for when nothing is known. */
#define PLAN_EST_DEFAULT_EQ_SEL 0.005       /* col = const */
#define PLAN_EST_DEFAULT_INEQ_SEL 0.3333333333333333 /* col < const, anything else */
#define PLAN_EST_DEFAULT_MATCH_SEL 0.005    /* LIKE, regex */
#define PLAN_EST_DEFAULT_UNK_SEL 0.005      /* IS NULL */
#define PLAN_EST_DEFAULT_NUM_DISTINCT 200.0 /* n_distinct of a column never analyzed */

/* One column's statistics as the estimator sees them. */
typedef struct PlanColStats {
    double rows;        /* rows of the column's input (table rows, >= 0) */
    bool analyzed;      /* null_frac and n_distinct come from ANALYZE */
    bool unique;        /* the table's single-column primary key */
    double null_frac;   /* 0..1 (0 when not analyzed) */
    double n_distinct;  /* absolute count of distinct non-null values (analyzed) */
    bool has_minmax;    /* min/max known (analyzed fixed-width numeric-ordered types) */
    double min, max;
} PlanColStats;

/* Comparison operators of a range clause "col op const". */
typedef enum PlanEstOp { PLAN_EST_LT, PLAN_EST_LE, PLAN_EST_GT, PLAN_EST_GE } PlanEstOp;

/* ---- pure formulas (no catalog) ---- */

/* Distinct non-null values of a column: ANALYZE's n_distinct; a unique key's
 * row count; else PostgreSQL's get_variable_numdistinct default (the row
 * count below 200 rows, 200 above). Never below 1. */
double plan__est_ndistinct(const PlanColStats *s);
/* col = const (non-null const): (1 - null_frac) / n_distinct; unknown:
 * 1 / default n_distinct = 0.005. */
double plan__est_sel_eq(const PlanColStats *s);
/* col op c, linear interpolation between min and max, times (1 -
 * null_frac); 1/3 when min/max are not known (PostgreSQL's
 * DEFAULT_INEQ_SEL, also what scalarineqsel gives without a histogram). */
double plan__est_sel_range(const PlanColStats *s, PlanEstOp op, double c);
/* col IS NULL (is_null) / IS NOT NULL: null_frac / 1 - null_frac;
 * unknown: 0.005 / 0.995. */
double plan__est_sel_null(const PlanColStats *s, bool is_null);
/* l = r as a join clause (PostgreSQL's eqjoinsel without MCV lists):
 * (1 - nf_l)(1 - nf_r) / max(nd_l, nd_r), each n_distinct clamped to its
 * side's estimated rows (l_rows, r_rows). */
double plan__est_join_sel(const PlanColStats *l, const PlanColStats *r, double l_rows, double r_rows);
/* Groups of GROUP BY over n columns: the product of their n_distinct (+1
 * for a column with NULLs, the NULL group), capped by input_rows; 1 when
 * n == 0 or input_rows < 1. */
double plan__est_groups(const PlanColStats *cols, int n, double input_rows);
/* Clamp a selectivity into [0, 1] (NaN → the default 1/3). */
double plan__est_clamp(double sel);

/* ---- over a binder's range table (variable-id space expressions) ---- */
typedef struct Binder Binder;
typedef struct StoreTable StoreTable;

/* Rows of a table: its last ANALYZE's count, else the live row count
 * storage keeps (store_table_row_count, cheap). */
double plan__est_table_rows(StoreTable *t);
/* The statistics of the table column e (an EXPR_COLUMN of a base table,
 * possibly under casts); false (and defaults in *out) when e is anything
 * else. */
bool plan__est_column(const Binder *b, const Expr *e, PlanColStats *out);
/* Selectivity of a boolean clause (AND: product, OR: s1 + s2 - s1*s2,
 * NOT: 1 - s; comparisons, IN lists, IS [NOT] NULL by the formulas above). */
double plan__est_clause_sel(const Binder *b, const Expr *e);
/* Estimated groups of GROUP BY exprs (variable-id space) over input_rows. */
double plan__est_group_rows(const Binder *b, Expr *const *exprs, int n, double input_rows);

#endif
