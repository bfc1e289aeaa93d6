/*
 * simple_query.c — the simple Query message.
 *
 * One Query may hold several ';'-separated statements; they run in order
 * inside one implicit transaction (PostgreSQL's behaviour), each one:
 *   plan_statement → exec_portal_create → RowDescription (when the
 *   statement returns rows) → DataRows → CommandComplete → changed
 *   ParameterStatus. A COPY statement goes to proto_copy (copy.c) instead,
 *   which exchanges CopyIn/CopyOut messages with the client first.
 * An empty string answers EmptyQueryResponse. The first error sends
 * ErrorResponse, aborts the transaction (exec_session_abort) and skips the
 * rest of the string. exec_session_sync ends the implicit transaction and
 * ReadyForQuery follows in every case.
 *
 * Memory: the parse trees live in one arena for the message; each
 * statement's plan and portal live in a statement arena destroyed as soon
 * as the statement ends (or fails).
 */
#define STRATA_PROTOCOL_INTERNAL
#include "protocol/proto_int.h"

#include <stdlib.h>
#include <string.h>
#include "common/guc.h"
#include "executor/executor.h"
#include "parser/ast.h"
#include "parser/parser.h"
#include "planner/plan.h"
#include "planner/planner.h"

/* State the error handler must clean up: volatile because it changes
 * inside the ERR_TRY region. */
typedef struct QueryState {
    MemArena *volatile parse_arena;
    MemArena *volatile stmt_arena;
    ExecPortal *volatile portal;
} QueryState;

static void close_statement(QueryState *qs)
{
    ExecPortal *p = qs->portal;
    qs->portal = NULL;
    if (p)
        exec_portal_close(p);
    MemArena *a = qs->stmt_arena;
    qs->stmt_arena = NULL;
    mem_arena_destroy(a);
}

static void run_statement(ProtoConn *c, QueryState *qs, const char *sql, const RawStmt *raw)
{
    ProtoSession *s = c->session;
    qs->stmt_arena = mem_arena_create("statement");
    if (IS_A(raw->stmt, CopyStmt)) {
        char copy_tag[64];
        proto_copy(c, sql, raw, qs->stmt_arena, copy_tag, sizeof copy_tag);
        proto_send_command_complete(c, copy_tag);
        close_statement(qs);
        proto_session_report_params(c, false);
        return;
    }
    char cursor_tag[64];
    if (proto_cursor_statement(c, sql, raw, cursor_tag, sizeof cursor_tag)) {   /* cursor.c */
        proto_send_command_complete(c, cursor_tag);
        close_statement(qs);
        return;
    }
    PlanContext pc = {.arena = qs->stmt_arena, .query_text = sql, .guc = s->guc,
                      .session_state = &s->plan_state};
    const Plan *plan = plan_statement(&pc, raw);
    qs->portal = exec_portal_create(s->exec, plan, NULL, 0, qs->stmt_arena);
    if (plan->ncols > 0)
        proto_send_row_description(c, plan, NULL);
    proto_run_portal(c, qs->portal, plan, NULL, 0, NULL);
    char tag[64];
    exec_portal_command_tag(qs->portal, tag, sizeof tag);
    proto_send_command_complete(c, tag);
    close_statement(qs);
    proto_session_report_params(c, false);
}

static void run_query(ProtoConn *c, QueryState *qs, const char *sql)
{
    qs->parse_arena = mem_arena_create("query");
    List *stmts = parse_sql(qs->parse_arena, sql);
    if (list_len(stmts) == 0)
        proto_send_simple(c, 'I');   /* EmptyQueryResponse */
    exec_session_set_implicit_block(c->session->exec, list_len(stmts) > 1);
    for (int i = 0; i < list_len(stmts); i++) {
        /* statement_timeout is armed per statement, with the value a SET
         * earlier in this string may have changed (PostgreSQL's behaviour);
         * conn.c disarms after the message */
        proto_timeout_disarm(&c->interrupt);
        proto_timeout_arm(&c->interrupt, guc_get_int(c->session->guc, "statement_timeout"));
        run_statement(c, qs, sql, list_nth(stmts, i));
    }
    proto_cursor_before_sync(c);   /* WITH HOLD cursors of the implicit transaction (cursor.c) */
    exec_session_sync(c->session->exec);
}

/* After an error: clean up the statement, abort the transaction and
 * report it. Returns true when the error is FATAL (copied into e): the
 * caller rethrows it after its own cleanup and the connection closes. */
static bool query_failed(ProtoConn *c, QueryState *qs, const char *sql, ErrorData *e)
{
    *e = *err_current();
    proto_error_adjust_for_shutdown(e);
    volatile bool fatal = e->severity >= ERR_SEV_FATAL;
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        close_statement(qs);
        if (!fatal) {
            proto_cursor_txn_failed(c->session);   /* the block's portals fail (cursor.c) */
            exec_session_abort(c->session->exec);
        }
        err_pop(&jmp);
    } else if (!fatal) {
        e->severity = ERR_SEV_FATAL;   /* cannot clean up: give up the connection */
        fatal = true;
    }
    if (!fatal) {
        proto_log("ERROR", "%s", e->message);
        proto_log("STATEMENT", "%s", sql);
        proto_send_error(c, e);
    }
    return fatal;
}

void proto_simple_query(ProtoConn *c, ProtoMsg *m)
{
    const char *text = proto_msg_text(m);
    proto_msg_end(m);
    /* A copy: COPY FROM STDIN reads more messages into c->msg. */
    char *sql = strdup(text);
    if (sql == NULL)
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    ProtoSession *s = c->session;
    /* A Query destroys the unnamed statement and portal, as PostgreSQL does. */
    proto_portal_drop(s, "");
    proto_stmt_drop(s, "");
    QueryState qs = {NULL, NULL, NULL};
    static _Thread_local ErrorData e;
    bool fatal = false;
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        run_query(c, &qs, sql);
        err_pop(&jmp);
    } else {
        fatal = query_failed(c, &qs, sql, &e);
    }
    mem_arena_destroy(qs.parse_arena);
    free(sql);
    if (fatal) {
        ErrorData *f = err_begin(e.sqlstate);
        *f = e;
        err_throw();   /* the connection loop sends it and closes */
    }
    if (exec_session_txn_status(s->exec) == EXEC_TXN_IDLE)
        proto_cursor_txn_ended(s, NULL);   /* every portal but the held cursors */
    proto_session_report_params(c, false);
    proto_send_ready(c, (char)exec_session_txn_status(s->exec));
}
