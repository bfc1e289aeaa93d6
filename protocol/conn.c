/*
 * conn.c — one connection: its thread, buffered socket I/O, message
 * framing and the main message loop.
 *
 * The loop, as PostgreSQL's PostgresMain, in numbered steps:
 *   1. flush whatever is buffered for the client, unless more input is
 *      already buffered (pipelined messages are answered in one write);
 *   2. read the message type and refuse an unknown type (FATAL 08P01);
 *   3. read the length and check it against that type's limit BEFORE
 *      reading the body (a 2 GB length is refused, never allocated);
 *   4. read the body, clear the interrupt flag (a cancel that came while
 *      idle cancels nothing) and dispatch; after an extended-protocol
 *      error, skip everything until Sync;
 *   5. on ERROR: send ErrorResponse, abort the transaction, go on; on FATAL
 *      (or a broken socket): send if possible and close this connection only.
 *
 * Every error of the connection is caught here (ERR_TRY), so nothing a
 * client sends can take the server down.
 */
#define STRATA_PROTOCOL_INTERNAL
#include "protocol/proto_int.h"

#include <stdio.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>
#include <openssl/ssl.h>
#include "common/guc.h"
#include "executor/executor.h"
#include "storage/storage.h"

/* ---------- raw I/O ---------- */

static _Noreturn void conn_lost(ProtoConn *c)
{
    if (proto_server_shutting_down() && !c->broken)
        err_raise_fatal(ERRCODE_ADMIN_SHUTDOWN, "terminating connection due to administrator command");
    c->broken = true;
    err_raise_fatal(ERRCODE_CONNECTION_FAILURE, "could not receive data from client");
}

/* Read at least 1 byte into buf (up to len). */
static size_t io_recv(ProtoConn *c, void *buf, size_t len)
{
    for (;;) {
        if (c->broken)
            conn_lost(c);
        if (c->ssl) {
            int n = SSL_read(c->ssl, buf, len > INT32_MAX ? INT32_MAX : (int)len);
            if (n > 0)
                return (size_t)n;
            conn_lost(c);
        }
        ssize_t n = recv(c->fd, buf, len, 0);
        if (n > 0)
            return (size_t)n;
        if (n < 0 && errno == EINTR)
            continue;
        conn_lost(c);
    }
}

void proto_conn_read(ProtoConn *c, void *buf, size_t len)
{
    char *dst = buf;
    while (len > 0) {
        if (c->rpos < c->rlen) {
            size_t n = c->rlen - c->rpos;
            if (n > len)
                n = len;
            memcpy(dst, c->rbuf + c->rpos, n);
            c->rpos += n;
            dst += n;
            len -= n;
        } else if (len >= sizeof c->rbuf) {
            size_t n = io_recv(c, dst, len);   /* large body: straight into place */
            dst += n;
            len -= n;
        } else {
            c->rpos = 0;
            c->rlen = io_recv(c, c->rbuf, sizeof c->rbuf);
        }
    }
}

void proto_conn_set_timeout(ProtoConn *c, int seconds)
{
    struct timeval tv = {.tv_sec = seconds, .tv_usec = 0};
    setsockopt(c->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
}

bool proto_conn_has_pending_input(const ProtoConn *c)
{
    return c->rpos < c->rlen || (c->ssl && SSL_pending(c->ssl) > 0);
}

void proto_conn_flush(ProtoConn *c)
{
    size_t off = 0;
    while (off < c->out.len && !c->broken) {
        size_t left = c->out.len - off;
        if (c->ssl) {
            int n = SSL_write(c->ssl, c->out.data + off, left > INT32_MAX ? INT32_MAX : (int)left);
            if (n <= 0)
                c->broken = true;
            else
                off += (size_t)n;
            continue;
        }
        ssize_t n = send(c->fd, c->out.data + off, left, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            c->broken = true;
        else
            off += (size_t)n;
    }
    strbuf_reset(&c->out);
    if (c->broken)
        err_raise_fatal(ERRCODE_CONNECTION_FAILURE, "could not send data to client");
}

/* ---------- framing ---------- */

/* Largest body for a message type, or 0 when the type is unknown here. */
static uint32_t message_limit(char type, bool in_auth)
{
    if (in_auth)
        return type == 'p' ? PROTO_AUTH_MSG_MAX : 0;
    switch (type) {
    case 'Q': case 'P': case 'B': case 'F': case 'd':
        return PROTO_LARGE_MSG_MAX;
    case 'D': case 'C': case 'E': case 'S': case 'H': case 'X': case 'c': case 'f':
        return PROTO_SMALL_MSG_MAX;
    default:
        return 0;
    }
}

char proto_conn_read_message(ProtoConn *c, bool in_auth)
{
    unsigned char hdr[4];
    char type;
    proto_conn_read(c, &type, 1);
    uint32_t limit = message_limit(type, in_auth);
    if (limit == 0) {
        if (in_auth)
            err_raise_fatal(ERRCODE_PROTOCOL_VIOLATION,
                            "expected password response, got message type %d", type);
        err_raise_fatal(ERRCODE_PROTOCOL_VIOLATION, "invalid frontend message type %d", type);
    }
    proto_conn_read(c, hdr, 4);
    uint32_t len = ((uint32_t)hdr[0] << 24) | ((uint32_t)hdr[1] << 16) | ((uint32_t)hdr[2] << 8) | hdr[3];
    if (len < 4 || len - 4 > limit)
        err_raise_fatal(ERRCODE_PROTOCOL_VIOLATION, "invalid message length");
    len -= 4;
    /* Don't keep a huge buffer alive for an idle session. */
    if (c->msg.cap > PROTO_MSG_KEEP_BYTES && len < PROTO_MSG_KEEP_BYTES) {
        strbuf_free(&c->msg);
        strbuf_init(&c->msg);
    }
    strbuf_reset(&c->msg);
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        strbuf_reserve(&c->msg, len + 1);
        err_pop(&jmp);
    } else {
        /* the body can't be skipped reliably: the stream is lost */
        err_raise_fatal(ERRCODE_OUT_OF_MEMORY, "out of memory");
    }
    proto_conn_read(c, c->msg.data, len);
    c->msg.len = len;
    c->msg.data[len] = '\0';
    return type;
}

/* ---------- the message loop ---------- */

static void dispatch(ProtoConn *c, char type)
{
    ProtoMsg m = {.data = c->msg.data, .len = c->msg.len, .pos = 0};
    ProtoSession *s = c->session;
    if (s->ignore_till_sync && type != 'S' && type != 'X')
        return;
    switch (type) {
    case 'Q': proto_simple_query(c, &m); break;
    case 'P': proto_ext_parse(c, &m); break;
    case 'B': proto_ext_bind(c, &m); break;
    case 'D': proto_ext_describe(c, &m); break;
    case 'E': proto_ext_execute(c, &m); break;
    case 'C': proto_ext_close(c, &m); break;
    case 'S': proto_msg_end(&m); proto_ext_sync(c); break;
    case 'H': proto_msg_end(&m); proto_conn_flush(c); break;
    case 'X': c->terminate = true; break;
    case 'd': case 'c': case 'f':
        break;   /* COPY messages outside COPY are ignored, as PostgreSQL does */
    case 'F':
        err_raise(ERRCODE_FEATURE_NOT_SUPPORTED, "function call messages are not supported");
    default:
        err_raise_fatal(ERRCODE_PROTOCOL_VIOLATION, "invalid frontend message type %d", type);
    }
}

/* After an ERROR in an extended-protocol message or a FATAL anywhere. */
static void handle_error(ProtoConn *c, char type)
{
    static _Thread_local ErrorData e;
    e = *err_current();
    proto_error_adjust_for_shutdown(&e);
    if (e.severity >= ERR_SEV_FATAL) {
        c->terminate = true;
        if (!c->broken) {
            proto_log("FATAL", "%s", e.message);
            proto_send_error(c, &e);
        }
        return;
    }
    proto_log("ERROR", "%s", e.message);
    proto_send_error(c, &e);
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        proto_cursor_txn_failed(c->session);   /* portals: dropped, or failed in a block (cursor.c) */
        exec_session_abort(c->session->exec);
        err_pop(&jmp);
    } else {
        c->terminate = true;
        return;
    }
    /* A failed Query already ended with its ReadyForQuery (simple_query.c
     * catches per statement); here the error came from an extended message. */
    if (type != 'Q')
        c->session->ignore_till_sync = true;
    else
        proto_send_ready(c, (char)exec_session_txn_status(c->session->exec));
}

static void message_loop(ProtoConn *c)
{
    while (!c->terminate && !c->broken) {
        volatile char type = 0;
        ErrJmp jmp;
        if (ERR_TRY(jmp)) {
            if (c->out.len > 0 && !proto_conn_has_pending_input(c))
                proto_conn_flush(c);
            type = proto_conn_read_message(c, false);
            /* A cancel that arrived while we waited for this message cancels
             * nothing (PostgreSQL ignores it while reading a command). */
            atomic_store(&c->interrupt, ERR_INTERRUPT_NONE);
            if (type == 'E')   /* statement_timeout (Query messages arm it per statement) */
                proto_timeout_arm(&c->interrupt, guc_get_int(c->session->guc, "statement_timeout"));
            dispatch(c, type);
            proto_timeout_disarm(&c->interrupt);
            err_pop(&jmp);
        } else {
            proto_timeout_disarm(&c->interrupt);
            handle_error(c, type);
        }
    }
}

static void conn_cleanup(ProtoConn *c)
{
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        if (c->out.len > 0 && !c->broken)
            proto_conn_flush(c);
        err_pop(&jmp);
    }
    if (ERR_TRY(jmp)) {
        if (c->session)
            proto_session_destroy(c->session);
        err_pop(&jmp);
    } else {
        proto_log("LOG", "error while closing a session: %s", err_current()->message);
    }
    c->session = NULL;
    store_session_set_database(NULL);   /* detach this thread from its database */
    if (c->registered)
        proto_cancel_unregister(c->pid);
    if (c->ssl)
        proto_tls_close(c->ssl);
    close(c->fd);
    strbuf_free(&c->msg);
    strbuf_free(&c->out);
}

static void notice_hook(void *ctx, const ErrorData *notice)
{
    proto_send_notice((ProtoConn *)ctx, notice);
}

void *proto_conn_main(void *arg)
{
    ProtoConn *c = arg;
    strbuf_init(&c->msg);
    strbuf_init(&c->out);
    proto_conn_set_timeout(c, PROTO_AUTH_TIMEOUT_S);
    err_set_interrupt_flag(&c->interrupt);
    err_set_notice_hook(notice_hook, c);
    if (proto_startup(c))
        message_loop(c);
    err_set_notice_hook(NULL, NULL);
    err_set_interrupt_flag(NULL);
    conn_cleanup(c);
    free(c);
    proto_listener_conn_ended();
    return NULL;
}
