/*
 * cursor.c — SQL cursors: DECLARE, FETCH, MOVE and CLOSE, through the
 * simple Query protocol (psycopg2's named cursors) and through
 * Parse/Bind/Describe/Execute (psycopg 3's ServerCursor, whose DECLARE has
 * $n parameters bound at Bind), with PostgreSQL 15's semantics.
 *
 * As in PostgreSQL a SQL cursor is a named portal (ProtoPortal with a
 * ProtoCursor): DECLARE plans its query in the portal's own arena and
 * creates the executor portal. FETCH and MOVE follow pquery.c literally:
 * DoPortalFetch turns every direction (NEXT, PRIOR, FIRST, LAST, ABSOLUTE n,
 * RELATIVE n, n, ALL, FORWARD/BACKWARD [n|ALL]) into forward/backward runs
 * and rewinds (fetch_dispatch below), PortalRunSelect keeps the portal's
 * (at_start, at_end, portal_pos) and counts the rows for the tag (`FETCH n`,
 * `MOVE n`); the rows come from cursor_store.c.
 *
 * Scrolling: SCROLL cursors, and cursors declared without SCROLL / NO
 * SCROLL whose plan PostgreSQL could run backward (proto_cursor__backward_ok),
 * keep the rows they produce and may move anywhere; the others stream
 * forward and refuse backward motion and rewinds with 55000 "cursor can only
 * scan forward" (hint "Declare it with SCROLL option to enable backward
 * scan."), as PostgreSQL's.
 *
 * Lifetime: a cursor belongs to its transaction — the session drops it when
 * the transaction ends (proto_cursor_txn_ended), except a WITH HOLD cursor
 * whose transaction commits: just before the commit (a COMMIT statement, or
 * the end of the implicit transaction at the end of a Query / at Sync) its
 * remaining rows are materialised into its store and the executor portal
 * closed (PostgreSQL's PersistHoldablePortal), and it lives until CLOSE,
 * CLOSE ALL or the end of the session. A held cursor whose transaction
 * rolls back goes with it.
 *
 * The transaction-end rules of the protocol's own portals live here too,
 * since they share the savepoint bookkeeping: an error inside a block
 * fails the portals of the failing level (proto_cursor_txn_failed,
 * PostgreSQL's AtAbort_Portals / AtSubAbort_Portals), ROLLBACK TO drops
 * every portal bound after its savepoint (proto_cursor_savepoint).
 */
#define STRATA_PROTOCOL_INTERNAL
#include "protocol/cursor_int.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/error.h"
#include "executor/executor.h"
#include "parser/ast.h"
#include "parser/parser.h"
#include "planner/plan.h"
#include "planner/planner.h"

static ProtoPortal *cursor_find(ProtoSession *s, const char *name)
{
    ProtoPortal *p = proto_portal_find(s, name);
    if (p == NULL || p->cursor == NULL)
        err_raise(ERRCODE_INVALID_CURSOR_NAME, "cursor \"%s\" does not exist", name);
    return p;
}

/* ---------- DECLARE ---------- */

static void check_options(int options)
{
    if ((options & CURSOR_OPT_SCROLL) && (options & CURSOR_OPT_NO_SCROLL))
        err_raise(ERRCODE_INVALID_CURSOR_DEFINITION, "cannot specify both %s and %s", "SCROLL", "NO SCROLL");
    if ((options & CURSOR_OPT_ASENSITIVE) && (options & CURSOR_OPT_INSENSITIVE))
        err_raise(ERRCODE_INVALID_CURSOR_DEFINITION, "cannot specify both %s and %s", "ASENSITIVE",
                  "INSENSITIVE");
}

/* Bound values copied into the cursor's arena: the Bind portal they came
 * from may be replaced long before the cursor is closed. */
static Value *copy_params(MemArena *a, const Value *params, int nparams, const SqlType *types)
{
    Value *out = mem_calloc(a, (size_t)nparams + 1, sizeof(Value));
    for (int i = 0; i < nparams; i++) {
        out[i] = params[i];
        if (!params[i].is_null && type_phys(types[i]) == PHYS_STR && params[i].u.str.len > 0) {
            char *bytes = mem_alloc(a, params[i].u.str.len);
            memcpy(bytes, params[i].u.str.ptr, params[i].u.str.len);
            out[i].u.str.ptr = bytes;
        }
    }
    return out;
}

static void cursor_plan(ProtoConn *c, ProtoPortal *p, const char *sql, const RawStmt *raw,
                        const Plan *params_plan, const Value *params)
{
    ProtoSession *s = c->session;
    /* The plan points into its parse tree and text, which belong to the
     * Query's or the statement's arena: the cursor parses its own copy. */
    size_t off = (size_t)raw->stmt_location;
    size_t len = raw->stmt_len > 0 ? (size_t)raw->stmt_len : strlen(sql + off);
    const char *text = mem_strndup(p->arena, sql + off, len);
    List *own = parse_sql(p->arena, text);
    const RawStmt *own_raw = list_nth(own, 0);
    RawStmt inner = *own_raw;
    inner.stmt = ((const DeclareCursorStmt *)own_raw->stmt)->query;
    int nparams = params_plan ? params_plan->nparams : 0;
    uint32_t *oids = mem_calloc(p->arena, (size_t)nparams + 1, sizeof(uint32_t));
    for (int i = 0; i < nparams; i++)
        oids[i] = params_plan->param_types[i].oid;
    PlanContext pc = {.arena = p->arena, .query_text = text, .guc = s->guc, .param_types = oids,
                      .nparams = nparams, .session_state = &s->plan_state};
    p->plan = plan_statement(&pc, &inner);
    if (p->plan->kind != PLAN_STMT_QUERY)
        err_raise(ERRCODE_INVALID_CURSOR_DEFINITION, "cursor \"%s\" must be a SELECT", p->name);
    Value *values = nparams ? copy_params(p->arena, params, nparams, params_plan->param_types) : NULL;
    p->portal = exec_portal_create(s->exec, p->plan, values, nparams, p->arena);
}

static void cursor_declare(ProtoConn *c, const char *sql, const RawStmt *raw, const DeclareCursorStmt *d,
                           const Plan *params_plan, const Value *params)
{
    ProtoSession *s = c->session;
    check_options(d->options);
    if (!(d->options & CURSOR_OPT_HOLD) && exec_session_txn_status(s->exec) != EXEC_TXN_BLOCK)
        err_raise(ERRCODE_NO_ACTIVE_SQL_TRANSACTION, "DECLARE CURSOR can only be used in transaction blocks");
    if (d->portalname[0] == '\0')
        err_raise(ERRCODE_INVALID_CURSOR_NAME, "invalid cursor name: must not be empty");
    if (strlen(d->portalname) >= PROTO_NAME_MAX)
        err_raise(ERRCODE_INVALID_CURSOR_NAME, "invalid cursor name \"%s\"", d->portalname);
    if (proto_portal_find(s, d->portalname))
        err_raise(ERRCODE_DUPLICATE_CURSOR, "cursor \"%s\" already exists", d->portalname);
    ProtoPortal *p = calloc(1, sizeof *p);
    if (!p)
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    snprintf(p->name, sizeof p->name, "%s", d->portalname);
    p->arena = mem_arena_create("cursor");
    proto_portal_add(s, p);   /* from here on the session frees it */
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        cursor_plan(c, p, sql, raw, params_plan, params);
        err_pop(&jmp);
    } else {
        proto_portal_drop(s, d->portalname);   /* the name is free again (ROLLBACK TO SAVEPOINT) */
        err_rethrow();
    }
    ProtoCursor *cur = MEM_NEW(p->arena, ProtoCursor);
    if (d->options & CURSOR_OPT_BINARY) {
        p->result_formats = mem_calloc(p->arena, (size_t)p->plan->ncols, sizeof(int16_t));
        for (int i = 0; i < p->plan->ncols; i++)
            p->result_formats[i] = 1;
    }
    cur->scroll = (d->options & CURSOR_OPT_SCROLL) ||
                  (!(d->options & CURSOR_OPT_NO_SCROLL) && proto_cursor__backward_ok(p->plan));
    cur->hold = (d->options & CURSOR_OPT_HOLD) != 0;
    cur->in_block = exec_session_txn_status(s->exec) == EXEC_TXN_BLOCK;
    cur->sp_depth = s->cursor_savepoints ? s->cursor_savepoints->depth : 0;
    cur->at_start = true;
    cur->ncols = p->plan->ncols;
    cur->types = mem_alloc(p->arena, sizeof(SqlType) * (size_t)cur->ncols);
    for (int i = 0; i < cur->ncols; i++)
        cur->types[i] = p->plan->cols[i].type;
    p->cursor = cur;   /* last: a half-made cursor is never found by FETCH */
}

/* ---------- FETCH / MOVE: pquery.c's rules ---------- */

_Noreturn static void no_scroll_error(void)
{
    ErrorData *e = err_begin(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE);
    err_message(e, "cursor can only scan forward");
    err_hint(e, "Declare it with SCROLL option to enable backward scan.");
    err_throw();
}

/* PortalRunSelect: count rows (FETCH_ALL = all) in one direction. */
static uint64_t run_select(ProtoPortal *p, bool forward, int64_t count, const CursorDest *d)
{
    ProtoCursor *cur = p->cursor;
    uint64_t n = 0;
    if (forward) {
        if (cur->at_end || count <= 0)
            return 0;
        uint64_t want = count == FETCH_ALL ? 0 : (uint64_t)count;
        n = proto_cursor__scan_forward(p, want, d);
        if (n > 0)
            cur->at_start = false;
        if (want == 0 || n < want)
            cur->at_end = true;
        cur->portal_pos += n;
        return n;
    }
    if (!cur->scroll)
        no_scroll_error();
    if (cur->at_start || count <= 0)
        return 0;
    uint64_t want = count == FETCH_ALL ? 0 : (uint64_t)count;
    n = proto_cursor__scan_backward(p, want, d);
    if (n > 0 && cur->at_end) {
        cur->at_end = false;
        cur->portal_pos++;   /* the endpoint case */
    }
    if (want == 0 || n < want) {
        cur->at_start = true;
        cur->portal_pos = 0;
    } else {
        cur->portal_pos -= n;
    }
    return n;
}

/* DoPortalRewind */
static void rewind_cursor(ProtoPortal *p)
{
    ProtoCursor *cur = p->cursor;
    if (cur->at_start && !cur->at_end)
        return;
    if (!cur->scroll)
        no_scroll_error();
    cur->scan_pos = 0;
    cur->at_start = true;
    cur->at_end = false;
    cur->portal_pos = 0;
}

static uint64_t fetch_absolute(ProtoPortal *p, int64_t count, const CursorDest *d, const CursorDest *none)
{
    ProtoCursor *cur = p->cursor;
    if (count > 0) {
        /* rewind and count, or move relative when closer to the target */
        if ((uint64_t)count - 1 <= cur->portal_pos / 2) {
            rewind_cursor(p);
            if (count > 1)
                run_select(p, true, count - 1, none);
        } else {
            int64_t pos = (int64_t)cur->portal_pos;
            if (cur->at_end)
                pos++;   /* one extra fetch when off the end */
            if (count <= pos)
                run_select(p, false, pos - count + 1, none);
            else if (count > pos + 1)
                run_select(p, true, count - pos - 1, none);
        }
        return run_select(p, true, 1, d);
    }
    if (count < 0) {
        /* to the end, back abs(count)-1 rows, return the prior row */
        run_select(p, true, FETCH_ALL, none);
        if (count < -1)
            run_select(p, false, -count - 1, none);
        return run_select(p, false, 1, d);
    }
    rewind_cursor(p);   /* ABSOLUTE 0: before the first row, no row */
    return run_select(p, true, 0, d);
}

/* DoPortalFetch */
static uint64_t fetch_dispatch(ProtoPortal *p, FetchDirection dir, int64_t count, const CursorDest *d)
{
    ProtoCursor *cur = p->cursor;
    CursorDest none = {.c = d->c, .send = false};
    switch (dir) {
    case FETCH_FORWARD:
    case FETCH_BACKWARD:
        if (count < 0) {
            dir = dir == FETCH_FORWARD ? FETCH_BACKWARD : FETCH_FORWARD;
            count = -count;
        }
        break;
    case FETCH_ABSOLUTE:
        return fetch_absolute(p, count, d, &none);
    case FETCH_RELATIVE:
        if (count > 0) {
            if (count > 1)
                run_select(p, true, count - 1, &none);
            return run_select(p, true, 1, d);
        }
        if (count < 0) {
            if (count < -1)
                run_select(p, false, -count - 1, &none);
            return run_select(p, false, 1, d);
        }
        dir = FETCH_FORWARD;   /* RELATIVE 0 = FORWARD 0 */
        break;
    }
    bool forward = dir == FETCH_FORWARD;
    if (count == 0) {   /* re-fetch the current row, if any */
        bool on_row = !cur->at_start && !cur->at_end;
        if (!d->send)
            return on_row ? 1 : 0;   /* MOVE 0 */
        if (on_row) {
            run_select(p, false, 1, &none);
            count = 1;
            forward = true;
        }
    }
    if (!forward && count == FETCH_ALL && !d->send) {   /* MOVE BACKWARD ALL = a rewind */
        uint64_t result = cur->portal_pos;
        if (result > 0 && !cur->at_end)
            result--;
        rewind_cursor(p);
        return result;
    }
    return run_select(p, forward, count, d);
}

/* FETCH / MOVE: RowDescription first for a FETCH of the simple protocol
 * (send_desc), then the rows in formats (NULL = the cursor's own). */
static uint64_t cursor_fetch(ProtoConn *c, const FetchStmt *f, bool send_desc, const int16_t *formats,
                             bool no_flush, bool discard)
{
    ProtoPortal *volatile p = cursor_find(c->session, f->portalname);
    if (p->cursor->failed)
        err_raise(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE, "portal \"%s\" cannot be run", p->name);
    if (!formats)
        formats = p->result_formats;
    if (send_desc && !f->ismove)
        proto_send_row_description(c, p->plan, formats);
    CursorDest d = {.c = c, .send = !f->ismove && !discard, .no_flush = no_flush, .formats = formats};
    uint64_t rows;
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        rows = fetch_dispatch(p, f->direction, f->how_many, &d);
        err_pop(&jmp);
    } else {
        p->cursor->failed = true;   /* PostgreSQL's MarkPortalFailed */
        err_rethrow();
    }
    return rows;
}

/* ---------- CLOSE ---------- */

/* Drop every portal but keep (NULL = none) — CLOSE ALL through Execute
 * must not free the portal that runs it. */
static void drop_all_but(ProtoSession *s, const ProtoPortal *keep)
{
    for (;;) {
        ProtoPortal *victim = NULL;
        for (ProtoPortal *p = s->portals; p; p = p->next)
            if (p != keep) {
                victim = p;
                break;
            }
        if (!victim)
            return;
        proto_portal_drop(s, victim->name);
    }
}

static void cursor_close(ProtoConn *c, const ClosePortalStmt *cl, const ProtoPortal *self)
{
    if (cl->portalname == NULL) {
        drop_all_but(c->session, self);
        return;
    }
    ProtoPortal *p = cursor_find(c->session, cl->portalname);
    proto_portal_drop(c->session, p->name);
}

/* The SQL cursors of a transaction block that is ending (COMMIT after the
 * held ones were persisted, ROLLBACK): closed before the executor ends the
 * transaction, so their scans are released first, as PostgreSQL closes
 * them at transaction end. Protocol portals wait for the end of the message. */
static void drop_txn_cursors(ProtoSession *s)
{
    for (;;) {
        ProtoPortal *victim = NULL;
        for (ProtoPortal *p = s->portals; p; p = p->next)
            if (p->cursor && !p->cursor->persisted) {
                victim = p;
                break;
            }
        if (!victim)
            return;
        proto_portal_drop(s, victim->name);
    }
}

/* ---------- one statement, either protocol ---------- */

static bool is_cursor_stmt(const Node *n)
{
    return IS_A(n, DeclareCursorStmt) || IS_A(n, FetchStmt) || IS_A(n, ClosePortalStmt);
}

/* Run one cursor statement; the tag into tag, and the rows of a FETCH. */
static uint64_t run_cursor_stmt(ProtoConn *c, const char *sql, const RawStmt *raw, const Plan *params_plan,
                                const Value *params, const ProtoPortal *self, bool no_flush, char *tag,
                                size_t tag_size)
{
    uint64_t rows = 0;
    const Node *n = raw->stmt;
    if (exec_session_txn_status(c->session->exec) == EXEC_TXN_FAILED)
        err_raise(ERRCODE_IN_FAILED_SQL_TRANSACTION,
                  "current transaction is aborted, commands ignored until end of transaction block");
    if (IS_A(n, DeclareCursorStmt)) {
        cursor_declare(c, sql, raw, (const DeclareCursorStmt *)n, params_plan, params);
        snprintf(tag, tag_size, "DECLARE CURSOR");
    } else if (IS_A(n, FetchStmt)) {
        const FetchStmt *f = (const FetchStmt *)n;
        /* A FETCH portal describes the columns its cursor had at Bind: none
         * when it did not exist then (PostgreSQL counts the rows but sends
         * none); text when it was declared again with other columns. */
        const Plan *cols = self ? proto_cursor_result_plan(c->session, raw) : NULL;
        bool discard = self && self->cursor_ncols == 0;
        const int16_t *formats = self ? self->result_formats : NULL;
        if (self && cols && cols->ncols != self->cursor_ncols)
            formats = mem_calloc(self->arena, (size_t)cols->ncols + 1, sizeof(int16_t));
        rows = cursor_fetch(c, f, self == NULL, formats, no_flush, discard);
        snprintf(tag, tag_size, "%s %llu", f->ismove ? "MOVE" : "FETCH", (unsigned long long)rows);
        if (f->ismove)
            rows = 0;
    } else {
        const ClosePortalStmt *cl = (const ClosePortalStmt *)n;
        cursor_close(c, cl, self);
        snprintf(tag, tag_size, cl->portalname ? "CLOSE CURSOR" : "CLOSE CURSOR ALL");
    }
    return rows;
}

bool proto_cursor_statement(ProtoConn *c, const char *sql, const RawStmt *raw, char *tag, size_t tag_size)
{
    const Node *n = raw->stmt;
    if (IS_A(n, SavepointStmt)) {   /* runs as usual, after this */
        const SavepointStmt *sp = (const SavepointStmt *)n;
        proto_cursor_savepoint(c, sp->kind == SAVEPOINT_DEFINE ? 's' : sp->kind == SAVEPOINT_RELEASE ? 'r' : 'b',
                               sp->savepoint_name, NULL);
        return false;
    }
    if (IS_A(n, DiscardStmt) && ((const DiscardStmt *)n)->target == DISCARD_ALL) {
        proto_cursor_discard_all(c->session);   /* then DISCARD runs as usual */
        return false;
    }
    if (IS_A(n, TransactionStmt)) {   /* the statement itself runs as usual */
        TransactionStmtKind kind = ((const TransactionStmt *)n)->kind;
        if (kind != TRANS_STMT_BEGIN)
            proto_cursor_before_txn_end(c, kind == TRANS_STMT_COMMIT);
        return false;
    }
    if (!is_cursor_stmt(n))
        return false;
    run_cursor_stmt(c, sql, raw, NULL, NULL, NULL, false, tag, tag_size);
    return true;
}

/* ---------- the extended protocol ---------- */

bool proto_cursor_parse(ProtoConn *c, ProtoStmt *st, const RawStmt *raw, const uint32_t *types, int ntypes)
{
    const Node *n = raw->stmt;
    if (!is_cursor_stmt(n))
        return false;
    st->cursor_raw = raw;
    if (IS_A(n, DeclareCursorStmt)) {
        /* Planned here for its parameter types (ParameterDescription, Bind);
         * the cursor plans its own copy when the DECLARE runs. */
        check_options(((const DeclareCursorStmt *)n)->options);
        RawStmt inner = *raw;
        inner.stmt = ((const DeclareCursorStmt *)n)->query;
        PlanContext pc = {.arena = st->arena, .query_text = st->query_text, .guc = c->session->guc,
                          .param_types = types, .nparams = ntypes, .session_state = &c->session->plan_state};
        st->cursor_query = plan_statement(&pc, &inner);
    }
    return true;
}

const Plan *proto_cursor_result_plan(ProtoSession *s, const RawStmt *raw)
{
    if (!IS_A(raw->stmt, FetchStmt) || ((const FetchStmt *)raw->stmt)->ismove)
        return NULL;
    ProtoPortal *p = proto_portal_find(s, ((const FetchStmt *)raw->stmt)->portalname);
    return p && p->cursor ? p->plan : NULL;
}

/* Move the DataRows after the first max_rows of those buffered from start
 * into p's rest; returns the rows left in c->out. */
static uint64_t cut_rows(ProtoConn *c, ProtoPortal *p, size_t start, uint64_t max_rows)
{
    StrBuf *out = &c->out;
    size_t pos = start;
    uint64_t rows = 0;
    while (pos < out->len && rows < max_rows) {
        uint32_t len;
        memcpy(&len, out->data + pos + 1, 4);
        pos += 1 + ntohl(len);
        rows++;
    }
    if (pos < out->len) {
        CursorRest *rest = MEM_NEW(p->arena, CursorRest);
        rest->len = out->len - pos;
        rest->bytes = mem_alloc(p->arena, rest->len);
        memcpy(rest->bytes, out->data + pos, rest->len);
        out->len = pos;
        p->cursor_rest = rest;
    }
    return rows;
}

/* Up to max_rows (0 = all) of the rest's DataRows into c->out. */
static uint64_t send_rest(ProtoConn *c, ProtoPortal *p, uint64_t max_rows)
{
    CursorRest *rest = p->cursor_rest;
    uint64_t rows = 0;
    while (rest && rest->pos < rest->len && (max_rows == 0 || rows < max_rows)) {
        uint32_t len;
        memcpy(&len, rest->bytes + rest->pos + 1, 4);
        size_t size = 1 + (size_t)ntohl(len);
        strbuf_append(&c->out, rest->bytes + rest->pos, size);
        rest->pos += size;
        rows++;
        if (c->out.len >= PROTO_SEND_FLUSH)
            proto_conn_flush(c);
    }
    return rows;
}

void proto_cursor_execute(ProtoConn *c, ProtoPortal *p, int32_t max_rows)
{
    const Node *n = p->cursor_raw->stmt;
    bool fetch = IS_A(n, FetchStmt) && !((const FetchStmt *)n)->ismove;
    uint64_t limit = max_rows > 0 ? (uint64_t)max_rows : 0;
    uint64_t rows;
    if (!p->done) {
        size_t start = c->out.len;
        rows = run_cursor_stmt(c, p->stmt->query_text, p->cursor_raw, p->stmt->cursor_query, p->cursor_params, p,
                        fetch && limit > 0, p->tag, sizeof p->tag);
        p->done = true;
        if (!fetch) {
            proto_send_command_complete(c, p->tag);
            return;
        }
        if (limit > 0)
            rows = cut_rows(c, p, start, limit);
    } else if (fetch) {
        rows = send_rest(c, p, limit);
    } else {
        proto_send_command_complete(c, p->tag);   /* ran already: nothing more to do */
        return;
    }
    /* PostgreSQL's PortalRun of a FETCH is done unless it sent exactly the limit */
    if (limit > 0 && rows == limit) {
        proto_send_simple(c, 's');   /* PortalSuspended */
        return;
    }
    char tag[64];
    snprintf(tag, sizeof tag, "FETCH %llu", (unsigned long long)rows);
    proto_send_command_complete(c, tag);
}

void proto_cursor_execute_cursor(ProtoConn *c, ProtoPortal *p, int32_t max_rows)
{
    const FetchStmt f = {.direction = FETCH_FORWARD, .how_many = max_rows > 0 ? max_rows : FETCH_ALL,
                         .portalname = p->name};
    uint64_t rows = cursor_fetch(c, &f, false, p->result_formats, false, false);
    if (!p->cursor->at_end) {
        proto_send_simple(c, 's');   /* PortalSuspended: PostgreSQL's PortalRun is done iff atEnd */
        return;
    }
    char tag[64];
    snprintf(tag, sizeof tag, "SELECT %llu", (unsigned long long)rows);
    proto_send_command_complete(c, tag);
}

/* ---------- transaction ends ---------- */

static void ignore_batch(void *ctx, const Batch *b)
{
    (void)ctx;
    (void)b;
}

/* End the session's block with a ROLLBACK (after a failed COMMIT). */
static void rollback_block(ProtoConn *c)
{
    ProtoSession *s = c->session;
    MemArena *volatile a = mem_arena_create("cursor rollback");
    ExecPortal *volatile ep = NULL;
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        static const char text[] = "ROLLBACK";
        List *l = parse_sql(a, text);
        PlanContext pc = {.arena = a, .query_text = text, .guc = s->guc, .session_state = &s->plan_state};
        const Plan *plan = plan_statement(&pc, list_nth(l, 0));
        ep = exec_portal_create(s->exec, plan, NULL, 0, a);
        ExecSink none = {.ctx = NULL, .on_batch = ignore_batch};
        exec_portal_run(ep, 0, &none);
        err_pop(&jmp);
    } else {
        if (ep)
            exec_portal_close(ep);
        mem_arena_destroy(a);
        err_rethrow();
    }
    exec_portal_close(ep);
    mem_arena_destroy(a);
}

void proto_cursor_before_txn_end(ProtoConn *c, bool commit)
{
    ProtoSession *s = c->session;
    ExecTxnStatus st = exec_session_txn_status(s->exec);
    if (st == EXEC_TXN_IDLE)
        return;   /* no block: COMMIT/ROLLBACK only warns */
    if (s->cursor_savepoints)
        memset(s->cursor_savepoints, 0, sizeof *s->cursor_savepoints);
    if (commit && st == EXEC_TXN_BLOCK) {   /* COMMIT of a failed block rolls back */
        ErrJmp jmp;
        if (ERR_TRY(jmp)) {
            for (ProtoPortal *p = s->portals; p; p = p->next)
                if (p->cursor && p->cursor->hold && !p->cursor->persisted)
                    proto_cursor__persist(p);
            err_pop(&jmp);
        } else {
            /* PostgreSQL: an error while persisting fails the COMMIT and
             * the transaction rolls back — the session is idle after it */
            static _Thread_local ErrorData e;
            e = *err_current();
            drop_txn_cursors(s);
            exec_session_abort(s->exec);
            rollback_block(c);
            ErrorData *f = err_begin(e.sqlstate);
            *f = e;
            err_throw();
        }
    }
    drop_txn_cursors(s);
}

void proto_cursor_before_sync(ProtoConn *c)
{
    ProtoSession *s = c->session;
    if (exec_session_txn_status(s->exec) != EXEC_TXN_IDLE)
        return;
    /* the implicit transaction is about to commit: its held cursors (one
     * declared in a block that ended here went with its ROLLBACK) */
    for (ProtoPortal *p = s->portals; p; p = p->next)
        if (p->cursor && p->cursor->hold && !p->cursor->persisted && !p->cursor->in_block)
            proto_cursor__persist(p);
}

/* The stack index of savepoint name (innermost first), -1 when unknown. */
static int savepoint_find(const CursorSavepoints *sp, const char *name)
{
    if (sp->overflow)
        return -1;
    for (int i = sp->depth - 1; i >= 0; i--)
        if (strcmp(sp->names[i], name) == 0)
            return i;
    return -1;
}

int proto_cursor_savepoint_depth(const ProtoSession *s)
{
    return s->cursor_savepoints ? s->cursor_savepoints->depth : 0;
}

/* Where the savepoint depth of a portal is kept (a SQL cursor's own). */
static int *portal_sp_depth(ProtoPortal *p)
{
    return p->cursor ? &p->cursor->sp_depth : &p->sp_depth;
}

void proto_cursor_savepoint(ProtoConn *c, char op, const char *name, ProtoPortal *self)
{
    ProtoSession *s = c->session;
    ExecTxnStatus st = exec_session_txn_status(s->exec);
    if (s->cursor_savepoints == NULL)
        s->cursor_savepoints = MEM_NEW(s->arena, CursorSavepoints);
    CursorSavepoints *sp = s->cursor_savepoints;
    if (op == 's') {
        if (st != EXEC_TXN_BLOCK)
            return;   /* the statement fails */
        if (sp->depth < CURSOR_SAVEPOINTS_MAX)
            snprintf(sp->names[sp->depth], PROTO_NAME_MAX, "%s", name);
        else
            sp->overflow = true;
        sp->depth++;
        return;
    }
    int idx = savepoint_find(sp, name);
    if (idx < 0 || st == EXEC_TXN_IDLE || (op == 'r' && st != EXEC_TXN_BLOCK))
        return;   /* the statement fails, or a name past the tracked ones */
    /* portals bound after savepoint idx have sp_depth > idx; the portal
     * running this statement is the outer level's from now on (PostgreSQL
     * drops it at its cleanup, after it ran) */
    for (;;) {
        ProtoPortal *victim = NULL;
        for (ProtoPortal *p = s->portals; p; p = p->next) {
            if ((p->cursor && p->cursor->persisted) || *portal_sp_depth(p) <= idx)
                continue;
            if (op == 'r' || p == self) {
                *portal_sp_depth(p) = idx;   /* RELEASE: now the outer level's */
                continue;
            }
            victim = p;
            break;
        }
        if (!victim)
            break;
        proto_portal_drop(s, victim->name);
    }
    sp->depth = op == 'b' ? idx + 1 : idx;   /* ROLLBACK TO keeps the savepoint itself */
}

void proto_cursor_discard_all(ProtoSession *s)
{
    if (exec_session_txn_status(s->exec) != EXEC_TXN_IDLE)
        return;   /* DISCARD ALL fails inside a block (25001) */
    for (;;) {
        ProtoPortal *victim = NULL;
        for (ProtoPortal *p = s->portals; p && !victim; p = p->next)
            if (p->cursor)
                victim = p;
        if (!victim)
            return;
        proto_portal_drop(s, victim->name);
    }
}

void proto_cursor_txn_ended(ProtoSession *s, const ProtoPortal *keep)
{
    /* In a block (an error before its abort) the SQL cursors stay: they go
     * with the block's ROLLBACK, or survive a ROLLBACK TO an older savepoint */
    bool in_block = exec_session_txn_status(s->exec) != EXEC_TXN_IDLE;
    if (s->cursor_savepoints && !in_block)
        memset(s->cursor_savepoints, 0, sizeof *s->cursor_savepoints);
    for (;;) {
        ProtoPortal *victim = NULL;
        for (ProtoPortal *p = s->portals; p; p = p->next)
            if (p != keep && !(p->cursor && (p->cursor->persisted || in_block))) {
                victim = p;
                break;
            }
        if (!victim)
            return;
        proto_portal_drop(s, victim->name);
    }
}

void proto_cursor_txn_failed(ProtoSession *s)
{
    ExecTxnStatus st = exec_session_txn_status(s->exec);
    if (st == EXEC_TXN_IDLE) {
        proto_cursor_txn_ended(s, NULL);   /* release scans before the rollback; held cursors stay */
        return;
    }
    if (st == EXEC_TXN_FAILED)
        return;   /* already aborted: PostgreSQL's AbortCurrentTransaction does nothing more */
    int depth = s->cursor_savepoints ? s->cursor_savepoints->depth : 0;
    for (ProtoPortal *p = s->portals; p; p = p->next) {
        if (p->cursor || p->sp_depth < depth || !p->portal)
            continue;
        ExecPortal *ep = p->portal;
        p->portal = NULL;
        p->failed = true;   /* PostgreSQL's MarkPortalFailed of a READY portal */
        exec_portal_close(ep);
    }
}
