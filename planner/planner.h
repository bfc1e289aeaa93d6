/*
 * planner.h — from a parsed statement to an executable Plan.
 *
 * plan_statement binds names against the catalog, resolves types with
 * PostgreSQL's rules, folds constants, pushes filters into scans, and emits
 * a physical plan (planner/plan.h) cut into pipelines. Utility statements
 * (CREATE/DROP TABLE, BEGIN/COMMIT, SET/SHOW, EXPLAIN) become plans too, so
 * the protocol layer treats every statement alike.
 */
#ifndef STRATA_PLANNER_PLANNER_H
#define STRATA_PLANNER_PLANNER_H

#include "common/arena.h"
#include "common/guc.h"
#include "common/types.h"

typedef struct Plan Plan;        /* planner/plan.h */
typedef struct RawStmt RawStmt;  /* parser/ast.h */

typedef struct PlanContext {
    MemArena *arena;          /* the plan's lifetime (statement or query) */
    const char *query_text;   /* whole text, for error positions */
    GucSet *guc;              /* search_path etc. */
    /* Parameter types from Parse: param_types[i] for $i+1, TYPE_INVALID (0) =
     * infer. The planner may infer more parameters than given. */
    const uint32_t *param_types;
    int nparams;
    /* Per-session planner state (SQL-level prepared statements): the address
     * of a pointer the caller keeps for the whole session, initially NULL,
     * released with plan_session_release() when the session ends. NULL here
     * = no session state: PREPARE/EXECUTE/DEALLOCATE raise 0A000. */
    void **session_state;
} PlanContext;

/* Raises 42P01, 42703, 42702, 42883, 42804, 42601 ... with positions. */
Plan *plan_statement(const PlanContext *ctx, const RawStmt *stmt);

/* ---- additions (planner engineer) ---- */

/*
 * As plan_statement, but the parameters are exactly ctx->nparams with the
 * given types (PostgreSQL's fixed-parameter analysis, used for the simple
 * Query protocol with nparams 0): a $n beyond them raises 42P02 "there is
 * no parameter $n" with its position, and none is inferred.
 */
Plan *plan_statement_fixed_params(const PlanContext *ctx, const RawStmt *stmt);

/*
 * Free the per-session planner state (prepared statements) kept through
 * PlanContext.session_state, and set *session_state to NULL. Idempotent.
 */
void plan_session_release(void **session_state);
/*
 * A key of the schemas a relation name is searched in now (search_path's
 * schemas that exist, "$user" resolved, the session's temporary schema
 * first once it has one), as ctx->guc sets it: equal keys, equal searches.
 * What PostgreSQL's plan cache compares before reusing a plan
 * (SearchPathMatchesCurrentEnvironment): `SET search_path` to a path that
 * finds the same schemas, or a schema created that search_path does not
 * name, keeps the plan. Uses ctx->arena for a few bytes.
 */
uint64_t plan_search_path_key(const PlanContext *ctx);

#endif
