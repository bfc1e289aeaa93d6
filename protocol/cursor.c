/*
 * cursor.c — SQL cursors through the simple Query protocol: DECLARE, FETCH
 * and CLOSE, which psycopg2's named cursors send (`DECLARE "c" CURSOR
 * WITHOUT HOLD FOR ...`, `FETCH FORWARD 2000 FROM "c"`, `CLOSE "c"`).
 *
 * As in PostgreSQL, a SQL cursor is a portal: DECLARE plans the query and
 * creates a named ProtoPortal (the namespace the extended protocol's
 * portals use), FETCH runs it for the requested number of rows and answers
 * RowDescription, DataRows and `FETCH n`, CLOSE drops it. Cursors live in
 * the transaction block: the session drops every portal when the
 * transaction ends (simple_query.c), which is PostgreSQL's rule for
 * cursors without HOLD.
 *
 * Not yet (0A000): WITH HOLD (needs the rows kept past COMMIT), backward,
 * absolute and relative movement and MOVE (the executor's portals only run
 * forward), DECLARE through Parse/Bind (it reaches the planner).
 */
#define STRATA_PROTOCOL_INTERNAL
#include "protocol/proto_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/error.h"
#include "executor/executor.h"
#include "parser/ast.h"
#include "parser/parser.h"
#include "planner/plan.h"
#include "planner/planner.h"

static void cursor_declare(ProtoConn *c, const char *sql, const RawStmt *raw, const DeclareCursorStmt *d)
{
    ProtoSession *s = c->session;
    if (d->options & CURSOR_OPT_HOLD)
        err_raise(ERRCODE_FEATURE_NOT_SUPPORTED, "DECLARE CURSOR WITH HOLD is not supported yet");
    if (exec_session_txn_status(s->exec) != EXEC_TXN_BLOCK)
        err_raise(ERRCODE_NO_ACTIVE_SQL_TRANSACTION, "DECLARE CURSOR can only be used in transaction blocks");
    if (d->portalname[0] == '\0' || strlen(d->portalname) >= PROTO_NAME_MAX)
        err_raise(ERRCODE_INVALID_CURSOR_NAME, "invalid cursor name \"%s\"", d->portalname);
    if (proto_portal_find(s, d->portalname))
        err_raise(ERRCODE_DUPLICATE_CURSOR, "cursor \"%s\" already exists", d->portalname);
    ProtoPortal *p = calloc(1, sizeof *p);
    if (!p)
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    snprintf(p->name, sizeof p->name, "%s", d->portalname);
    p->arena = mem_arena_create("cursor");
    proto_portal_add(s, p);   /* from here on the session frees it, even after an error below */
    /* The plan points into its parse tree and text, and the Query's parse
     * arena goes when the message ends: the cursor parses its own copy of
     * the statement in its arena (as a prepared statement does). */
    size_t off = (size_t)raw->stmt_location;
    size_t len = raw->stmt_len > 0 ? (size_t)raw->stmt_len : strlen(sql + off);
    const char *text = mem_strndup(p->arena, sql + off, len);
    List *own = parse_sql(p->arena, text);
    const RawStmt *own_raw = list_nth(own, 0);
    RawStmt inner = *own_raw;
    inner.stmt = ((const DeclareCursorStmt *)own_raw->stmt)->query;
    PlanContext pc = {.arena = p->arena, .query_text = text, .guc = s->guc, .session_state = &s->plan_state};
    p->plan = plan_statement(&pc, &inner);
    if (d->options & CURSOR_OPT_BINARY) {
        p->result_formats = mem_calloc(p->arena, (size_t)p->plan->ncols, sizeof(int16_t));
        for (int i = 0; i < p->plan->ncols; i++)
            p->result_formats[i] = 1;
    }
    p->portal = exec_portal_create(s->exec, p->plan, NULL, 0, p->arena);
}

/* FETCH [FORWARD] n|ALL / NEXT: the next rows; 55000 for other directions. */
static uint64_t cursor_fetch(ProtoConn *c, const FetchStmt *f)
{
    ProtoPortal *p = proto_portal_find(c->session, f->portalname);
    if (p == NULL || p->plan == NULL || p->stmt != NULL)
        err_raise(ERRCODE_INVALID_CURSOR_NAME, "cursor \"%s\" does not exist", f->portalname);
    if (f->ismove)
        err_raise(ERRCODE_FEATURE_NOT_SUPPORTED, "MOVE is not supported yet");
    if (f->direction != FETCH_FORWARD || f->how_many < 0)
        err_raise(ERRCODE_FEATURE_NOT_SUPPORTED, "only FETCH FORWARD is supported yet");
    proto_send_row_description(c, p->plan, p->result_formats);
    if (p->done || f->how_many == 0)
        return 0;
    uint64_t rows = 0;
    uint64_t limit = f->how_many == FETCH_ALL ? 0 : (uint64_t)f->how_many;
    p->done = proto_run_portal(c, p->portal, p->plan, p->result_formats, limit, &rows);
    return rows;
}

bool proto_cursor_statement(ProtoConn *c, const char *sql, const RawStmt *raw, char *tag, size_t tag_size)
{
    const Node *n = raw->stmt;
    if (IS_A(n, DeclareCursorStmt)) {
        cursor_declare(c, sql, raw, (const DeclareCursorStmt *)n);
        snprintf(tag, tag_size, "DECLARE CURSOR");
        return true;
    }
    if (IS_A(n, FetchStmt)) {
        uint64_t rows = cursor_fetch(c, (const FetchStmt *)n);
        snprintf(tag, tag_size, "FETCH %llu", (unsigned long long)rows);
        return true;
    }
    if (IS_A(n, ClosePortalStmt)) {
        const ClosePortalStmt *cl = (const ClosePortalStmt *)n;
        if (cl->portalname == NULL) {
            proto_session_drop_portals(c->session);
        } else {
            ProtoPortal *p = proto_portal_find(c->session, cl->portalname);
            if (p == NULL || p->stmt != NULL)
                err_raise(ERRCODE_INVALID_CURSOR_NAME, "cursor \"%s\" does not exist", cl->portalname);
            proto_portal_drop(c->session, cl->portalname);
        }
        snprintf(tag, tag_size, "CLOSE CURSOR");
        return true;
    }
    return false;
}
