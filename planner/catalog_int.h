/*
 * catalog_int.h — binding pg_catalog / information_schema relation names
 * to the executor's virtual catalog tables (catalog_tables.c). Internal to
 * planner/.
 */
#ifndef STRATA_PLANNER_CATALOG_INT_H
#define STRATA_PLANNER_CATALOG_INT_H

#ifndef STRATA_PLANNER_INTERNAL
#error "planner/catalog_int.h is internal to planner/"
#endif

#include "planner/planner_int.h"

/*
 * The range entry of a virtual catalog table when rv names one: qualified
 * `pg_catalog.x` / `information_schema.x`, or an unqualified `x` that is a
 * pg_catalog table (pg_catalog is implicitly first in search_path, as in
 * PostgreSQL). NULL when rv names no catalog table (the caller then looks
 * in the store). The entry is a derived one over a PLAN_CATALOG_SCAN.
 */
RangeEntry *plan__catalog_rte(Binder *b, const RangeVar *rv);

/* x::regclass / regtype / regproc / regprocedure / regnamespace / regrole:
 * an integer OID (a literal name resolved now, as PostgreSQL's input
 * functions: 42P01, 42704, 3F000, 42883 when it names nothing); NULL when
 * tc's type is not one of these. */
Expr *plan__catalog_regcast(Binder *b, const TypeCast *tc);

/* The system column tableoid of FROM item r (a table or a catalog
 * relation): an oid constant, its pg_class OID. NULL for other items
 * (subqueries, VALUES, functions), which have no system columns. */
Expr *plan__catalog_tableoid(Binder *b, const RangeEntry *r, int location);

#endif
