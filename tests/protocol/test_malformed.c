/*
 * test_malformed.c — malformed and oversized messages over raw sockets,
 * each on its own connection while a libpq session keeps working:
 *   a startup packet cut short, a startup length of 2 GB, protocol 2.0,
 *   a message length of 2 GB, a length below 4, a small message with a
 *   huge length, an unknown message type, a body without its terminator,
 *   and a client vanishing in the middle of a message.
 * GSSENCRequest and SSLRequest without TLS are answered 'N' and the
 * startup continues on the same connection.
 * The FATAL ones get an ErrorResponse and a closed connection; the server
 * and the other session carry on.
 */
#include "tests/protocol/ptest.h"

#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static RawMsg m;

static void keeper_works(PGconn *keeper, const char *after)
{
    PGresult *r = PQexec(keeper, "SELECT 7");
    if (PQresultStatus(r) != PGRES_TUPLES_OK || strcmp(PQgetvalue(r, 0, 0), "7") != 0) {
        fprintf(stderr, "the other session failed after %s: %s", after, PQerrorMessage(keeper));
        ptest_failures++;
    }
    PQclear(r);
}

/* A fresh session past startup, or -1. */
static int session(int port)
{
    int fd = raw_connect(port);
    if (fd < 0 || raw_startup(fd, "postgres", "postgres") != 0) {
        fprintf(stderr, "raw startup failed\n");
        ptest_failures++;
        if (fd >= 0)
            close(fd);
        return -1;
    }
    return fd;
}

/* Expect a FATAL ErrorResponse with this SQLSTATE and message, then EOF. */
static void expect_fatal(int fd, const char *code, const char *msg, const char *what)
{
    int rc = raw_read(fd, &m, 5000);
    if (rc != 0 || m.type != 'E') {
        fprintf(stderr, "%s: no ErrorResponse (rc %d, type %c)\n", what, rc, rc == 0 ? m.type : '-');
        ptest_failures++;
        return;
    }
    CHECK_STR(raw_error_field(&m, 'S'), "FATAL");
    CHECK_STR(raw_error_field(&m, 'C'), code);
    CHECK_STR(raw_error_field(&m, 'M'), msg);
    if (!raw_expect_eof(fd, 3000)) {
        fprintf(stderr, "%s: connection not closed\n", what);
        ptest_failures++;
    }
}

static void send_header(int fd, char type, uint32_t len)
{
    char h[5] = {type, (char)(len >> 24), (char)(len >> 16), (char)(len >> 8), (char)len};
    CHECK(raw_write(fd, h, 5) == 0);
}

static void startup_cases(int port, PGconn *keeper)
{
    /* cut short: the length promises 100 bytes, 6 arrive, then EOF */
    int fd = raw_connect(port);
    char part[10] = {0, 0, 0, 100, 0, 3, 0, 0, 'u', 's'};
    CHECK(fd >= 0 && raw_write(fd, part, sizeof part) == 0);
    shutdown(fd, SHUT_WR);
    CHECK(raw_expect_eof(fd, 3000));
    close(fd);
    keeper_works(keeper, "a startup packet cut short");

    /* a 2 GB startup length */
    fd = raw_connect(port);
    char huge[8] = {(char)0x80, 0, 0, 0, 0, 3, 0, 0};
    CHECK(fd >= 0 && raw_write(fd, huge, sizeof huge) == 0);
    expect_fatal(fd, "08P01", "invalid length of startup packet", "2 GB startup");
    close(fd);
    keeper_works(keeper, "a 2 GB startup packet");

    /* protocol 2.0 */
    fd = raw_connect(port);
    RawBuf b = {.len = 0};
    rb_i32(&b, 0);
    rb_i32(&b, 2 << 16);
    rb_str(&b, "user");
    rb_str(&b, "postgres");
    b.data[b.len++] = '\0';
    b.data[3] = (char)b.len;   /* < 256 */
    CHECK(fd >= 0 && raw_write(fd, b.data, b.len) == 0);
    expect_fatal(fd, "0A000", "unsupported frontend protocol 2.0: server supports 3.0 to 3.0", "protocol 2.0");
    close(fd);
    keeper_works(keeper, "protocol 2.0");
}

/* GSSENCRequest and SSLRequest (no TLS configured) get 'N'; the client
 * goes on in plaintext on the same connection. */
static void negotiation_cases(int port)
{
    int fd = raw_connect(port);
    char gss[8] = {0, 0, 0, 8, 0x04, (char)0xd2, 0x16, 0x30};   /* 80877104 */
    char ssl[8] = {0, 0, 0, 8, 0x04, (char)0xd2, 0x16, 0x2f};   /* 80877103 */
    char answer = 0;
    CHECK(fd >= 0 && raw_write(fd, gss, sizeof gss) == 0);
    CHECK(recv(fd, &answer, 1, 0) == 1 && answer == 'N');
    CHECK(raw_write(fd, ssl, sizeof ssl) == 0);
    CHECK(recv(fd, &answer, 1, 0) == 1 && answer == 'N');
    CHECK(raw_startup(fd, "postgres", "postgres") == 0);
    CHECK(raw_send(fd, 'Q', "SELECT 1", 9) == 0);
    CHECK(raw_read(fd, &m, 5000) == 0 && m.type == 'T');
    close(fd);
}

static void message_cases(int port, PGconn *keeper)
{
    int fd = session(port);
    send_header(fd, 'Q', 0x80000000u);
    expect_fatal(fd, "08P01", "invalid message length", "2 GB Query");
    close(fd);
    keeper_works(keeper, "a 2 GB message length");

    fd = session(port);
    send_header(fd, 'Q', 2);
    expect_fatal(fd, "08P01", "invalid message length", "length 2");
    close(fd);
    keeper_works(keeper, "a length below 4");

    fd = session(port);
    send_header(fd, 'S', 1000000);   /* Sync has no body: 10000 bytes at most */
    expect_fatal(fd, "08P01", "invalid message length", "huge Sync");
    close(fd);
    keeper_works(keeper, "an oversized Sync");

    fd = session(port);
    send_header(fd, 'z', 4);
    expect_fatal(fd, "08P01", "invalid frontend message type 122", "unknown type");
    close(fd);
    keeper_works(keeper, "an unknown message type");

    /* a Query without its terminating NUL: an ERROR, the session goes on */
    fd = session(port);
    CHECK(raw_send(fd, 'Q', "SELECT 1", 8) == 0);
    CHECK(raw_read(fd, &m, 5000) == 0 && m.type == 'E');
    CHECK_STR(raw_error_field(&m, 'C'), "08P01");
    CHECK(raw_read(fd, &m, 5000) == 0 && m.type == 'Z');
    CHECK(raw_send(fd, 'Q', "SELECT 1", 9) == 0);
    CHECK(raw_read(fd, &m, 5000) == 0 && m.type == 'T');
    close(fd);
    keeper_works(keeper, "a Query without terminator");

    /* the client vanishes in the middle of a message body */
    fd = session(port);
    send_header(fd, 'Q', 1000);
    CHECK(raw_write(fd, "SELECT", 6) == 0);
    close(fd);
    keeper_works(keeper, "a message cut short");
}

int main(void)
{
    TestServer s;
    ptest_start(&s, NULL, NULL);
    PGconn *keeper = ptest_connect(&s, NULL);
    if (PQstatus(keeper) == CONNECTION_OK) {
        startup_cases(s.port, keeper);
        negotiation_cases(s.port);
        message_cases(s.port, keeper);
        /* new sessions still start */
        PGconn *c = ptest_connect(&s, NULL);
        CHECK(PQstatus(c) == CONNECTION_OK);
        PQfinish(c);
    }
    PQfinish(keeper);
    return ptest_finish(&s, "protocol-malformed");
}
