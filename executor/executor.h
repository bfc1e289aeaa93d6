/*
 * executor.h — the executor's public interface: sessions, portals, results.
 *
 * The protocol layer drives a statement through three layers:
 *     List *stmts = parse_sql(arena, sql);                 (parser/parser.h)
 *     Plan *plan  = plan_statement(&pctx, raw_stmt);       (planner/planner.h)
 *     ExecPortal *p = exec_portal_create(session, plan, params, nparams, arena);
 *     done = exec_portal_run(p, max_rows, &sink);          (repeat while !done)
 *     exec_portal_command_tag(p, tag, sizeof tag);
 * Results reach the sink one Batch at a time; the protocol encodes DataRows
 * straight from the batch's vectors (type_output_vector).
 *
 * Transactions: every statement runs inside a transaction. Outside a
 * BEGIN block, exec_portal_create starts an implicit one, which the protocol
 * ends with exec_session_sync() at the end of a simple Query message or at
 * Sync (PostgreSQL's implicit transaction: a multi-statement Query is one
 * transaction). After a raised error the protocol calls
 * exec_session_abort(): an implicit transaction rolls back; an explicit
 * block becomes failed ('E') and every statement but ROLLBACK/COMMIT then
 * raises 25P02 until it ends.
 *
 * Errors are raised with err_raise (common/error.h); all memory of a
 * portal lives in the arena passed to exec_portal_create.
 */
#ifndef STRATA_EXECUTOR_EXECUTOR_H
#define STRATA_EXECUTOR_EXECUTOR_H

#include <stdbool.h>
#include <stdint.h>
#include "common/arena.h"
#include "common/guc.h"
#include "common/types.h"
#include "common/vector.h"

typedef struct Plan Plan;            /* planner/plan.h */
typedef struct ExecSession ExecSession;
typedef struct ExecPortal ExecPortal;

/* Transaction status as ReadyForQuery reports it. */
typedef enum ExecTxnStatus {
    EXEC_TXN_IDLE = 'I',
    EXEC_TXN_BLOCK = 'T',
    EXEC_TXN_FAILED = 'E',
} ExecTxnStatus;

/* A connection's executor state. guc is owned by the caller and outlives it. */
ExecSession *exec_session_create(const char *user, const char *database, GucSet *guc);
void exec_session_destroy(ExecSession *s);       /* rolls back an open transaction */
ExecTxnStatus exec_session_txn_status(const ExecSession *s);
GucSet *exec_session_guc(ExecSession *s);
const char *exec_session_user(const ExecSession *s);
const char *exec_session_database(const ExecSession *s);
/* End of a Query message / Sync: commit the implicit transaction, if any. */
void exec_session_sync(ExecSession *s);
/* After an error: roll back an implicit transaction or fail the block. */
void exec_session_abort(ExecSession *s);
/* A simple Query holding several statements runs them in PostgreSQL's
 * implicit transaction block: statements that refuse a block (VACUUM,
 * CREATE DATABASE, ...) raise 25001 there too. Cleared by sync and abort. */
void exec_session_set_implicit_block(ExecSession *s, bool on);
/* 25001 "<what> cannot run inside a transaction block" in a BEGIN block or
 * a multi-statement Query (PostgreSQL's PreventInTransactionBlock). */
void exec_prevent_in_block(const ExecSession *s, const char *what);

/* Receives result rows. Called once per non-empty batch; the batch's
 * columns are the plan's result columns, in order. */
typedef struct ExecSink {
    void *ctx;
    void (*on_batch)(void *ctx, const Batch *batch);
} ExecSink;

/* Bind a plan to parameter values (already converted to the plan's
 * parameter types; strings must outlive the portal) and prepare to run. */
ExecPortal *exec_portal_create(ExecSession *s, const Plan *plan,
                               const Value *params, int nparams, MemArena *arena);
/*
 * Run until max_rows rows were sent to the sink (0 = no limit) or the
 * statement finished. Returns true when finished (CommandComplete), false
 * when suspended (PortalSuspended; call again to continue).
 */
bool exec_portal_run(ExecPortal *p, uint64_t max_rows, const ExecSink *sink);
/* PostgreSQL's command tag once finished: "SELECT 3", "INSERT 0 2", "CREATE TABLE". */
void exec_portal_command_tag(const ExecPortal *p, char *buf, size_t buf_size);
/* Release resources held outside the arena (scans, locks). Idempotent. */
void exec_portal_close(ExecPortal *p);

/* Evaluate an expression that reads no columns (constant folding, LIMIT
 * values, DEFAULTs) with the given parameters; strings in arena. Raises as
 * the expression would at run time. */
typedef struct Expr Expr;   /* planner/plan.h */
void exec_eval_scalar(const Expr *e, const Value *params, int nparams, MemArena *arena, Value *out);

#endif
