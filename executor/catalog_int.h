/*
 * catalog_int.h — the catalog-scan operator (op_catalog.c), internal to
 * executor/: pipeline.c builds it for PLAN_CATALOG_SCAN.
 */
#ifndef STRATA_EXECUTOR_CATALOG_INT_H
#define STRATA_EXECUTOR_CATALOG_INT_H

#ifndef STRATA_EXECUTOR_INTERNAL
#error "executor/catalog_int.h is internal to executor/"
#endif

#include "executor/exec_int.h"

/* Source operator: the rows of catalog table n->catalog_id, computed when
 * the scan starts (each (re)start recomputes them), in batches. */
ExecOp *exec__op_catalog_scan(ExecQuery *q, const PlanNode *n);

#endif
