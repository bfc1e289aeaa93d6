/*
 * session.c — a connection's session state: user, settings, executor
 * session, prepared statements, portals, and the reported parameters.
 *
 * Memory: the session's own strings live in its arena (freed with the
 * session); each prepared statement and each portal owns an arena that is
 * destroyed when it is closed, replaced (unnamed ones) or dropped at the end
 * of the transaction (portals). A portal keeps its statement alive through
 * a reference count: closing a statement that still has portals defers
 * the free until the last portal goes, as PostgreSQL's plan cache does.
 */
#define STRATA_PROTOCOL_INTERNAL
#include "protocol/proto_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/guc.h"
#include "executor/catalog.h"
#include "executor/executor.h"
#include "planner/planner.h"

static void cache_value(ProtoSession *s, int idx, const char *value)
{
    free(s->reported_values[idx]);
    s->reported_values[idx] = strdup(value);
}

/* Called after every statement and at every Sync: when no setting was
 * stored since the last full comparison (guc_generation unchanged) nothing
 * can differ, and the ~14 lookups and comparisons are skipped (they cost
 * ~9,000 instructions, 14 % of a prepared TPC-B transaction).
 * session_authorization and is_superuser never change after startup. */
void proto_session_report_params(ProtoConn *c, bool all)
{
    ProtoSession *s = c->session;
    uint64_t gen = guc_generation(s->guc);
    if (!all && s->reported_valid && s->reported_generation == gen)
        return;
    s->reported_valid = false;
    const char *name, *value;
    for (int idx = 0; guc_reported_at(s->guc, idx, &name, &value); idx++) {
        if (strcmp(name, "session_authorization") == 0)
            value = s->user;
        else if (strcmp(name, "is_superuser") == 0)
            value = s->is_superuser ? "on" : "off";
        int slot = -1;
        for (int i = 0; i < s->nreported; i++)
            if (strcmp(s->reported_names[i], name) == 0)
                slot = i;
        if (slot < 0) {
            if (s->nreported == (int)(sizeof s->reported_names / sizeof s->reported_names[0]))
                continue;
            slot = s->nreported++;
            s->reported_names[slot] = strdup(name);
            s->reported_values[slot] = NULL;
        }
        if (all || !s->reported_values[slot] || strcmp(s->reported_values[slot], value) != 0) {
            proto_send_parameter_status(c, name, value);
            cache_value(s, slot, value);
        }
    }
    for (int i = 0; i < s->nreported; i++)
        if (s->reported_values[i] == NULL)
            return;   /* a failed strdup: compare again next time */
    s->reported_generation = gen;
    s->reported_valid = true;
}

ProtoStmt *proto_stmt_find(ProtoSession *s, const char *name)
{
    for (ProtoStmt *st = s->stmts; st; st = st->next)
        if (strcmp(st->name, name) == 0)
            return st;
    return NULL;
}

static void stmt_free(ProtoStmt *st)
{
    mem_arena_destroy(st->arena);
    free(st);
}

void proto_stmt_release(ProtoStmt *st)
{
    if (--st->refcount == 0)
        stmt_free(st);
}

void proto_stmt_drop(ProtoSession *s, const char *name)
{
    for (ProtoStmt **pp = &s->stmts; *pp; pp = &(*pp)->next) {
        if (strcmp((*pp)->name, name) == 0) {
            ProtoStmt *st = *pp;
            *pp = st->next;
            proto_stmt_release(st);
            return;
        }
    }
}

void proto_stmt_add(ProtoSession *s, ProtoStmt *st)
{
    st->refcount = 1;
    st->next = s->stmts;
    s->stmts = st;
}

ProtoPortal *proto_portal_find(ProtoSession *s, const char *name)
{
    for (ProtoPortal *p = s->portals; p; p = p->next)
        if (strcmp(p->name, name) == 0)
            return p;
    return NULL;
}

/* Close the executor portal (may raise: callers are inside a handler). */
static void portal_free(ProtoPortal *p)
{
    ExecPortal *ep = p->portal;
    p->portal = NULL;
    if (ep) {
        ErrJmp jmp;
        if (ERR_TRY(jmp)) {
            exec_portal_close(ep);
            err_pop(&jmp);
        } else {
            proto_log("LOG", "error while closing a portal: %s", err_current()->message);
        }
    }
    mem_arena_destroy(p->arena);
    if (p->stmt)
        proto_stmt_release(p->stmt);
    free(p);
}

void proto_portal_drop(ProtoSession *s, const char *name)
{
    for (ProtoPortal **pp = &s->portals; *pp; pp = &(*pp)->next) {
        if (strcmp((*pp)->name, name) == 0) {
            ProtoPortal *p = *pp;
            *pp = p->next;
            portal_free(p);
            return;
        }
    }
}

void proto_portal_add(ProtoSession *s, ProtoPortal *p)
{
    p->next = s->portals;
    s->portals = p;
}

void proto_session_drop_portals(ProtoSession *s)
{
    while (s->portals) {
        ProtoPortal *p = s->portals;
        s->portals = p->next;
        portal_free(p);
    }
}

ProtoSession *proto_session_create(const char *user, const char *database, bool is_superuser)
{
    ProtoSession *s = calloc(1, sizeof *s);
    if (!s)
        err_raise_fatal(ERRCODE_OUT_OF_MEMORY, "out of memory");
    s->arena = mem_arena_create("session");
    s->batch_arena = mem_arena_create("result batch text");
    s->user = mem_strdup(s->arena, user);
    s->database = mem_strdup(s->arena, database);
    s->is_superuser = is_superuser;
    s->guc = guc_session_create();
    return s;
}

void proto_session_destroy(ProtoSession *s)
{
    proto_session_drop_portals(s);
    while (s->stmts) {
        ProtoStmt *st = s->stmts;
        s->stmts = st->next;
        proto_stmt_release(st);
    }
    plan_session_release(&s->plan_state);
    if (s->exec) {
        if (exec_catalog_session() == s->exec)
            exec_catalog_set_session(NULL);
        exec_session_destroy(s->exec);
    }
    if (s->guc)
        guc_session_destroy(s->guc);
    for (int i = 0; i < s->nreported; i++) {
        free(s->reported_names[i]);
        free(s->reported_values[i]);
    }
    mem_arena_destroy(s->batch_arena);
    mem_arena_destroy(s->arena);
    free(s);
}
