/*
 * build_util.c — AST builders for the utility statements of the second
 * wave (declared in build.h): CHECKPOINT, PREPARE/EXECUTE/DEALLOCATE,
 * DISCARD, LISTEN/UNLISTEN/NOTIFY, cursors (DECLARE, FETCH/MOVE, CLOSE),
 * COMMENT ON, GRANT/REVOKE, LOCK, savepoints, COMMIT/ROLLBACK AND CHAIN
 * and EXPLAIN (options) with PostgreSQL's option checks.
 */
#define PARSER_INTERNAL
#include <string.h>
#include <strings.h>
#include "common/error.h"
#include "parser/build.h"

Node *parse__checkpoint(ParseCtx *pc, int location)
{
    return &PARSE_NEW(pc, CheckPointStmt, location)->node;
}

Node *parse__prepare(ParseCtx *pc, const ParseToken *name, List *types, Node *query, int location)
{
    PrepareStmt *s = PARSE_NEW(pc, PrepareStmt, location);
    s->name = name->str;
    s->argtypes = types;
    s->query = query;
    return &s->node;
}

Node *parse__execute(ParseCtx *pc, const ParseToken *name, List *params, int location)
{
    ExecuteStmt *s = PARSE_NEW(pc, ExecuteStmt, location);
    s->name = name->str;
    s->params = params;
    return &s->node;
}

Node *parse__deallocate(ParseCtx *pc, const char *name, int location)
{
    DeallocateStmt *s = PARSE_NEW(pc, DeallocateStmt, location);
    s->name = name;
    return &s->node;
}

Node *parse__discard(ParseCtx *pc, DiscardMode mode, int location)
{
    DiscardStmt *s = PARSE_NEW(pc, DiscardStmt, location);
    s->target = mode;
    return &s->node;
}

/* LISTEN / UNLISTEN (channel NULL = *) / NOTIFY [, 'payload'] */
Node *parse__listen(ParseCtx *pc, NodeTag tag, const char *channel, const ParseToken *payload,
                    int location)
{
    if (tag == T_ListenStmt) {
        ListenStmt *s = PARSE_NEW(pc, ListenStmt, location);
        s->conditionname = channel;
        return &s->node;
    }
    if (tag == T_UnlistenStmt) {
        UnlistenStmt *s = PARSE_NEW(pc, UnlistenStmt, location);
        s->conditionname = channel;
        return &s->node;
    }
    NotifyStmt *s = PARSE_NEW(pc, NotifyStmt, location);
    s->conditionname = channel;
    s->payload = payload ? payload->str : NULL;
    return &s->node;
}

Node *parse__declare_cursor(ParseCtx *pc, const ParseToken *name, int options, Node *query,
                            int location)
{
    DeclareCursorStmt *s = PARSE_NEW(pc, DeclareCursorStmt, location);
    s->portalname = name->str;
    s->options = options;
    s->query = query;
    return &s->node;
}

ParseFetch parse__fetch_args(FetchDirection direction, int64_t how_many, const ParseToken *portal)
{
    ParseFetch f = {direction, how_many, portal->str};
    return f;
}

Node *parse__fetch(ParseCtx *pc, const ParseFetch *args, bool move, int location)
{
    FetchStmt *s = PARSE_NEW(pc, FetchStmt, location);
    s->direction = args->direction;
    s->how_many = args->how_many;
    /* FORWARD/BACKWARD with a negative count flip direction, as PostgreSQL */
    if (s->how_many < 0 && s->how_many != FETCH_ALL &&
        (s->direction == FETCH_FORWARD || s->direction == FETCH_BACKWARD)) {
        s->how_many = -s->how_many;
        s->direction = s->direction == FETCH_FORWARD ? FETCH_BACKWARD : FETCH_FORWARD;
    }
    s->portalname = args->portal;
    s->ismove = move;
    return &s->node;
}

Node *parse__close(ParseCtx *pc, const char *name, int location)
{
    ClosePortalStmt *s = PARSE_NEW(pc, ClosePortalStmt, location);
    s->portalname = name;
    return &s->node;
}

Node *parse__comment(ParseCtx *pc, ObjectType type, List *name, const char *comment, int location)
{
    CommentStmt *s = PARSE_NEW(pc, CommentStmt, location);
    s->objtype = type;
    s->object = name;
    s->comment = comment;
    return &s->node;
}

Node *parse__grant(ParseCtx *pc, bool grant, List *privileges, const ParseGrantTarget *target,
                   List *grantees, bool grant_option, bool cascade, int location)
{
    GrantStmt *s = PARSE_NEW(pc, GrantStmt, location);
    s->is_grant = grant;
    s->objtype = target->type;
    for (int i = 0; i < list_len(target->objects); i++) {
        const char *name = target->names ? list_nth(target->objects, i)
                                         : ((const RangeVar *)list_nth(target->objects, i))->relname;
        s->objects = list_append(pc->arena, s->objects, (void *)name);
    }
    s->privileges = privileges;
    s->grantees = grantees;
    s->grant_option = grant_option;
    s->cascade = cascade;
    return &s->node;
}

Node *parse__create_enum(ParseCtx *pc, List *name, List *labels, int location)
{
    CreateEnumStmt *s = PARSE_NEW(pc, CreateEnumStmt, location);
    s->type_name = name;
    s->vals = labels;
    return &s->node;
}

Node *parse__lock(ParseCtx *pc, List *relations, int mode, bool nowait, int location)
{
    LockStmt *s = PARSE_NEW(pc, LockStmt, location);
    s->relations = relations;
    s->mode = mode;
    s->nowait = nowait;
    return &s->node;
}

Node *parse__savepoint(ParseCtx *pc, SavepointStmtKind kind, const ParseToken *name, int location)
{
    SavepointStmt *s = PARSE_NEW(pc, SavepointStmt, location);
    s->kind = kind;
    s->savepoint_name = name->str;
    return &s->node;
}

Node *parse__transaction_chain(ParseCtx *pc, TransactionStmtKind kind, bool chain, int location)
{
    TransactionStmt *s = (TransactionStmt *)parse__transaction(pc, kind, NULL, location);
    s->chain = chain;
    return &s->node;
}

/* ---------- EXPLAIN (options) ---------- */

/* PostgreSQL's defGetBoolean: absent = true, 0/1, true/false/on/off. */
static bool option_bool(const DefElem *d)
{
    const A_Const *c = (const A_Const *)d->arg;
    if (!c)
        return true;
    if (c->kind == CONST_INTEGER && (c->ival == 0 || c->ival == 1))
        return c->ival == 1;
    if (c->kind == CONST_STRING) {
        static const char *const yes[] = {"true", "on"};
        static const char *const no[] = {"false", "off"};
        for (size_t i = 0; i < 2; i++) {
            if (strcasecmp(c->sval, yes[i]) == 0)
                return true;
            if (strcasecmp(c->sval, no[i]) == 0)
                return false;
        }
    }
    err_raise(ERRCODE_SYNTAX_ERROR, "%s requires a Boolean value", d->defname);
}

static void explain_format(ParseCtx *pc, const DefElem *d)
{
    static const char *const formats[] = {"text", "xml", "json", "yaml"};
    const A_Const *c = (const A_Const *)d->arg;
    const char *v = c && c->kind == CONST_STRING ? c->sval : c ? c->text : "";
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
        if (strcmp(v, formats[i]) == 0)
            return;
    err_raise_pos(ERRCODE_INVALID_PARAMETER_VALUE, parse_char_position(pc->sql, d->node.location),
                  "unrecognized value for EXPLAIN option \"%s\": \"%s\"", d->defname, v);
}

/* EXPLAIN (option [value], ...): PostgreSQL's ExplainQuery checks. */
Node *parse__explain_opts(ParseCtx *pc, Node *query, List *options, int location)
{
    static const char *const bools[] = {"analyze", "verbose", "costs", "settings", "buffers",
                                        "wal", "timing", "summary"};
    bool analyze = false, verbose = false, timing_set = false, timing = false, wal = false;
    for (int i = 0; i < list_len(options); i++) {
        const DefElem *d = list_nth(options, i);
        size_t k = 0;
        while (k < sizeof bools / sizeof bools[0] && strcmp(d->defname, bools[k]) != 0)
            k++;
        if (k < sizeof bools / sizeof bools[0]) {
            bool v = option_bool(d);
            analyze = k == 0 ? v : analyze;
            verbose = k == 1 ? v : verbose;
            wal = k == 5 ? v : wal;
            if (k == 6) {
                timing_set = true;
                timing = v;
            }
        } else if (strcmp(d->defname, "format") == 0) {
            explain_format(pc, d);
        } else {
            err_raise_pos(ERRCODE_SYNTAX_ERROR, parse_char_position(pc->sql, d->node.location),
                          "unrecognized EXPLAIN option \"%s\"", d->defname);
        }
    }
    if (wal && !analyze)
        err_raise(ERRCODE_INVALID_PARAMETER_VALUE, "EXPLAIN option WAL requires ANALYZE");
    if (timing_set && timing && !analyze)
        err_raise(ERRCODE_INVALID_PARAMETER_VALUE, "EXPLAIN option TIMING requires ANALYZE");
    ExplainStmt *s = (ExplainStmt *)parse__explain(pc, query, analyze, verbose, location);
    s->options = options;
    return &s->node;
}
