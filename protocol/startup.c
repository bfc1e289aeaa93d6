/*
 * startup.c — the start of a connection, up to the first ReadyForQuery.
 *
 *   1. read the startup packet's length (8..PROTO_STARTUP_MAX, checked
 *      before the body is read) and body;
 *   2. CancelRequest → set that backend's flag, close; SSLRequest → 'S' and
 *      the TLS handshake, or 'N'; GSSENCRequest → 'N'; then back to 1;
 *   3. protocol 3.0 (3.x gets NegotiateProtocolVersion; other majors a
 *      FATAL 0A000); parameters: user (required), database (default: the
 *      user), options (-c name=value / --name=value), every other one a
 *      setting (client_encoding, DateStyle, application_name...);
 *   4. max_connections, authentication (auth.c), role check, settings,
 *      executor session;
 *   5. AuthenticationOk, ParameterStatus for every reported setting,
 *      BackendKeyData, ReadyForQuery.
 * After AuthenticationOk the connection's thread attaches to its database
 * (store_session_set_database: FATAL 3D000 when it does not exist, as
 * PostgreSQL); conn.c detaches it when the connection ends.
 */
#define STRATA_PROTOCOL_INTERNAL
#include "protocol/proto_int.h"

#include <stdio.h>
#include <string.h>
#include <openssl/ssl.h>
#include "common/guc.h"
#include "common/password.h"
#include "executor/catalog.h"
#include "executor/executor.h"
#include "storage/storage.h"

#define CODE_CANCEL 80877102
#define CODE_SSL 80877103
#define CODE_GSSENC 80877104

typedef struct StartupParams {
    const char *user;
    const char *database;
    int nsettings;
    const char *names[PROTO_MAX_STARTUP_PARAMS];
    const char *values[PROTO_MAX_STARTUP_PARAMS];
    int nunknown;                       /* _pq_.* options, for NegotiateProtocolVersion */
    const char *unknown[PROTO_MAX_STARTUP_PARAMS];
} StartupParams;

/* Read one startup packet into c->msg; false on a quiet EOF before any byte. */
static bool read_packet(ProtoConn *c)
{
    unsigned char hdr[4];
    if (c->rpos == c->rlen && !proto_conn_has_pending_input(c)) {
        /* EOF before the first byte: a port probe; close without a word */
        char b;
        ErrJmp jmp;
        if (ERR_TRY(jmp)) {
            proto_conn_read(c, &b, 1);
            err_pop(&jmp);
        } else {
            return false;
        }
        hdr[0] = (unsigned char)b;
        proto_conn_read(c, hdr + 1, 3);
    } else {
        proto_conn_read(c, hdr, 4);
    }
    uint32_t len = ((uint32_t)hdr[0] << 24) | ((uint32_t)hdr[1] << 16) | ((uint32_t)hdr[2] << 8) | hdr[3];
    if (len < 8 || len > PROTO_STARTUP_MAX)
        err_raise_fatal(ERRCODE_PROTOCOL_VIOLATION, "invalid length of startup packet");
    strbuf_reset(&c->msg);
    strbuf_reserve(&c->msg, len);
    proto_conn_read(c, c->msg.data, len - 4);
    c->msg.len = len - 4;
    return true;
}

static void send_byte(ProtoConn *c, char b)
{
    strbuf_append_char(&c->out, b);
    proto_conn_flush(c);
}

/* -c name=value and --name=value words of the "options" parameter
 * (backslash escapes a space, as in PostgreSQL's pg_split_opts). */
static void parse_options(MemArena *a, const char *opts, StartupParams *sp)
{
    const char *p = opts;
    bool want_c = false;
    while (*p) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p)
            break;
        char *word = mem_alloc(a, strlen(p) + 1);
        size_t n = 0;
        for (; *p && *p != ' ' && *p != '\t'; p++) {
            if (*p == '\\' && p[1])
                p++;
            word[n++] = *p;
        }
        word[n] = '\0';
        const char *setting = NULL;
        if (want_c) {
            setting = word;
            want_c = false;
        } else if (strcmp(word, "-c") == 0) {
            want_c = true;
            continue;
        } else if (strncmp(word, "-c", 2) == 0) {
            setting = word + 2;
        } else if (strncmp(word, "--", 2) == 0) {
            setting = word + 2;
        }
        char *eq = setting ? strchr(setting, '=') : NULL;
        if (!eq || sp->nsettings == PROTO_MAX_STARTUP_PARAMS) {
            ErrorData *e = err_begin(ERRCODE_SYNTAX_ERROR);
            e->severity = ERR_SEV_FATAL;
            err_message(e, "invalid command-line argument for server process: %s", word);
            err_hint(e, "Try \"strata --help\" for more information.");
            err_throw();
        }
        *eq = '\0';
        sp->names[sp->nsettings] = setting;
        sp->values[sp->nsettings++] = eq + 1;
    }
}

/* Parse a 3.x StartupMessage body (after the version) into sp; strings are
 * copied to the session-to-be arena a. */
static void parse_startup(MemArena *a, ProtoMsg *m, StartupParams *sp)
{
    for (;;) {
        const char *name = proto_msg_string(m);
        if (!name[0])
            break;
        const char *value = mem_strdup(a, proto_msg_string(m));
        name = mem_strdup(a, name);
        if (strcmp(name, "user") == 0)
            sp->user = value;
        else if (strcmp(name, "database") == 0)
            sp->database = value;
        else if (strcmp(name, "options") == 0)
            parse_options(a, value, sp);
        else if (strcmp(name, "replication") == 0)
            err_raise_fatal(ERRCODE_FEATURE_NOT_SUPPORTED, "replication connections are not supported");
        else if (strncmp(name, "_pq_.", 5) == 0) {
            if (sp->nunknown < PROTO_MAX_STARTUP_PARAMS)
                sp->unknown[sp->nunknown++] = name;
        } else if (sp->nsettings < PROTO_MAX_STARTUP_PARAMS) {
            sp->names[sp->nsettings] = name;
            sp->values[sp->nsettings++] = value;
        }
    }
    if (m->pos != m->len)
        err_raise_fatal(ERRCODE_PROTOCOL_VIOLATION,
                        "invalid startup packet layout: expected terminator as last byte");
}

static void negotiate_version(ProtoConn *c, const StartupParams *sp)
{
    size_t start = proto_msg_begin(&c->out, 'v');
    strbuf_append_be32(&c->out, 0);                 /* newest minor version we support */
    strbuf_append_be32(&c->out, (uint32_t)sp->nunknown);
    for (int i = 0; i < sp->nunknown; i++)
        proto_msg_put_string(&c->out, sp->unknown[i]);
    proto_msg_finish(&c->out, start);
}

/* Steps 1-3: negotiate until a StartupMessage; false = close quietly. */
static bool read_startup(ProtoConn *c, MemArena *a, StartupParams *sp)
{
    bool negotiated = false;
    for (;;) {
        if (!read_packet(c))
            return false;
        ProtoMsg m = {.data = c->msg.data, .len = c->msg.len, .pos = 0};
        uint32_t code = (uint32_t)proto_msg_int32(&m);
        if (code == CODE_CANCEL && c->msg.len == 12) {
            int32_t pid = proto_msg_int32(&m), key = proto_msg_int32(&m);
            proto_cancel_request(pid, key);
            return false;
        }
        if ((code == CODE_SSL || code == CODE_GSSENC) && !negotiated) {
            bool tls = code == CODE_SSL && proto_tls_enabled() && !c->is_local;
            send_byte(c, tls ? 'S' : 'N');
            if (tls) {
                if (proto_conn_has_pending_input(c))
                    err_raise_fatal(ERRCODE_PROTOCOL_VIOLATION, "received unencrypted data after SSL request");
                c->ssl = proto_tls_accept(c->fd);
                if (!c->ssl)
                    return false;
                negotiated = true;
            }
            continue;
        }
        uint32_t major = code >> 16, minor = code & 0xffff;
        if (major != 3)
            err_raise_fatal(ERRCODE_FEATURE_NOT_SUPPORTED,
                            "unsupported frontend protocol %u.%u: server supports 3.0 to 3.0", major, minor);
        parse_startup(a, &m, sp);
        if (minor > 0 || sp->nunknown > 0)
            negotiate_version(c, sp);
        return true;
    }
}

/* Startup settings are FATAL when wrong, as in PostgreSQL. */
static void apply_settings(ProtoSession *s, const StartupParams *sp)
{
    for (int i = 0; i < sp->nsettings; i++) {
        ErrJmp jmp;
        if (ERR_TRY(jmp)) {
            guc_set(s->guc, sp->names[i], sp->values[i]);
            err_pop(&jmp);
        } else {
            ErrorData copy = *err_current();
            ErrorData *e = err_begin(copy.sqlstate);
            *e = copy;
            e->severity = ERR_SEV_FATAL;
            err_throw();
        }
    }
}

/* Steps 4-5. */
static void start_session(ProtoConn *c, MemArena *a, StartupParams *sp)
{
    (void)a;
    if (!sp->user || !sp->user[0])
        err_raise_fatal(ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION,
                        "no PostgreSQL user name specified in startup packet");
    if (!sp->database || !sp->database[0])
        sp->database = sp->user;
    if (proto_cancel_count() >= proto_config.max_connections)
        err_raise_fatal(ERRCODE_TOO_MANY_CONNECTIONS, "sorry, too many clients already");
    if (!proto_cancel_register(&c->interrupt, &c->pid, &c->key))
        err_raise_fatal(ERRCODE_TOO_MANY_CONNECTIONS, "sorry, too many clients already");
    c->registered = true;
    proto_cancel_set_fd(c->pid, c->fd);
    if (proto_server_shutting_down())
        err_raise_fatal(ERRCODE_ADMIN_SHUTDOWN, "the database system is shutting down");

    proto_auth(c, sp->user, sp->database);
    bool superuser = false;
    char verifier[PASSWORD_VERIFIER_MAX];
    if (!store_role_get(sp->user, &superuser, verifier, sizeof verifier))
        err_raise_fatal(ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION, "role \"%s\" does not exist", sp->user);
    memset(verifier, 0, sizeof verifier);
    proto_send_auth(c, 0, NULL, 0);
    /* after authentication, as PostgreSQL: FATAL 3D000 database "x" does not exist */
    store_session_set_database(sp->database);

    c->session = proto_session_create(sp->user, sp->database, superuser);
    apply_settings(c->session, sp);
    c->session->exec = exec_session_create(c->session->user, c->session->database, c->session->guc);
    exec_catalog_set_session(c->session->exec);   /* pg_settings, current_user, ... (this thread) */
    exec_catalog_set_backend_pid(c->pid);
    proto_session_report_params(c, true);
    size_t start = proto_msg_begin(&c->out, 'K');
    strbuf_append_be32(&c->out, (uint32_t)c->pid);
    strbuf_append_be32(&c->out, (uint32_t)c->key);
    proto_msg_finish(&c->out, start);
    proto_send_ready(c, (char)exec_session_txn_status(c->session->exec));
    proto_conn_flush(c);
    proto_conn_set_timeout(c, 0);   /* authenticated: idle sessions may wait forever */
}

bool proto_startup(ProtoConn *c)
{
    MemArena *volatile a = NULL;
    volatile bool ok = false;
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        a = mem_arena_create("startup");
        StartupParams sp;
        memset(&sp, 0, sizeof sp);
        if (read_startup(c, a, &sp)) {
            start_session(c, a, &sp);
            ok = true;
        }
        err_pop(&jmp);
    } else {
        /* Every error before the first ReadyForQuery ends the connection. */
        static _Thread_local ErrorData e;
        e = *err_current();
        e.severity = ERR_SEV_FATAL;
        if (!c->broken) {
            proto_log("FATAL", "%s", e.message);
            proto_send_error(c, &e);
            if (ERR_TRY(jmp)) {
                proto_conn_flush(c);
                err_pop(&jmp);
            }
        } else if (c->rpos > 0 || c->rlen > 0) {
            proto_log("LOG", "incomplete startup packet");
        }
    }
    mem_arena_destroy(a);
    return ok;
}
