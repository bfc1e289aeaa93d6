/*
 * ptest.c — helpers of the protocol tests: server start through the
 * harness, libpq shortcuts, and a raw v3 client for byte-level tests.
 */
#include "tests/protocol/ptest.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int ptest_failures;

void ptest_start(TestServer *s, const char *datadir, const char *const *extra_args)
{
    if (harness_server_start(s, datadir, extra_args) != 0) {
        fprintf(stderr, "could not start the server\n");
        exit(1);
    }
}

PGconn *ptest_connect(const TestServer *s, const char *extra)
{
    char buf[1024];
    PGconn *c = PQconnectdb(harness_conninfo(s, extra, buf, sizeof buf));
    if (PQstatus(c) != CONNECTION_OK) {
        fprintf(stderr, "connect (%s) failed: %s", buf, PQerrorMessage(c));
        ptest_failures++;
    }
    return c;
}

PGresult *ptest_exec(PGconn *c, const char *sql, ExecStatusType want)
{
    PGresult *r = PQexec(c, sql);
    if (PQresultStatus(r) != want) {
        fprintf(stderr, "\"%s\": status %s, expected %s: %s", sql, PQresStatus(PQresultStatus(r)),
                PQresStatus(want), PQresultErrorMessage(r));
        ptest_failures++;
    }
    return r;
}

const char *ptest_sqlstate(const PGresult *r)
{
    const char *s = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
    return s ? s : "";
}

int ptest_finish(TestServer *s, const char *name)
{
    harness_server_stop(s);
    if (ptest_failures) {
        fprintf(stderr, "%s: %d check(s) failed\n", name, ptest_failures);
        return 1;
    }
    printf("%s: ok\n", name);
    return 0;
}

/* ---------- raw client ---------- */

int raw_connect(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons((uint16_t)port);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

int raw_write(int fd, const void *buf, size_t len)
{
    const char *p = buf;
    while (len > 0) {
        ssize_t n = send(fd, p, len, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

void rb_i16(RawBuf *b, int v)
{
    b->data[b->len++] = (char)((v >> 8) & 0xff);
    b->data[b->len++] = (char)(v & 0xff);
}

void rb_i32(RawBuf *b, int32_t v)
{
    uint32_t u = (uint32_t)v;
    for (int i = 3; i >= 0; i--)
        b->data[b->len++] = (char)((u >> (8 * i)) & 0xff);
}

void rb_str(RawBuf *b, const char *s)
{
    size_t n = strlen(s) + 1;
    memcpy(b->data + b->len, s, n);
    b->len += n;
}

int raw_send(int fd, char type, const void *body, size_t len)
{
    char hdr[5];
    uint32_t l = (uint32_t)len + 4;
    hdr[0] = type;
    hdr[1] = (char)(l >> 24);
    hdr[2] = (char)(l >> 16);
    hdr[3] = (char)(l >> 8);
    hdr[4] = (char)l;
    if (raw_write(fd, hdr, 5) != 0)
        return -1;
    return len ? raw_write(fd, body, len) : 0;
}

/* Read exactly len bytes within timeout_ms: 0, -1 EOF, -2 timeout. */
static int read_full(int fd, char *buf, size_t len, int timeout_ms)
{
    while (len > 0) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        int rc = poll(&p, 1, timeout_ms);
        if (rc == 0)
            return -2;
        if (rc < 0 && errno == EINTR)
            continue;
        ssize_t n = recv(fd, buf, len, 0);
        if (n <= 0)
            return -1;
        buf += n;
        len -= (size_t)n;
    }
    return 0;
}

int raw_read(int fd, RawMsg *m, int timeout_ms)
{
    char hdr[5];
    int rc = read_full(fd, hdr, 5, timeout_ms);
    if (rc != 0)
        return rc;
    m->type = hdr[0];
    m->len = (((uint32_t)(unsigned char)hdr[1] << 24) | ((uint32_t)(unsigned char)hdr[2] << 16) |
              ((uint32_t)(unsigned char)hdr[3] << 8) | (unsigned char)hdr[4]) - 4;
    size_t keep = m->len < sizeof m->body - 1 ? m->len : sizeof m->body - 1;
    rc = read_full(fd, m->body, keep, timeout_ms);
    if (rc != 0)
        return rc;
    m->body[keep] = '\0';
    for (size_t skipped = keep; skipped < m->len; skipped++) {
        char c;
        if (read_full(fd, &c, 1, timeout_ms) != 0)
            return -1;
    }
    return 0;
}

const char *raw_error_field(const RawMsg *m, char field)
{
    size_t pos = 0;
    while (pos < m->len && m->body[pos]) {
        char f = m->body[pos];
        const char *val = m->body + pos + 1;
        if (f == field)
            return val;
        pos += strlen(val) + 2;
    }
    return "";
}

int raw_startup(int fd, const char *user, const char *database)
{
    RawBuf b = {.len = 0};
    rb_i32(&b, 0);              /* length, back-filled */
    rb_i32(&b, 3 << 16);
    rb_str(&b, "user");
    rb_str(&b, user);
    rb_str(&b, "database");
    rb_str(&b, database);
    b.data[b.len++] = '\0';
    uint32_t l = (uint32_t)b.len;
    b.data[0] = (char)(l >> 24);
    b.data[1] = (char)(l >> 16);
    b.data[2] = (char)(l >> 8);
    b.data[3] = (char)l;
    if (raw_write(fd, b.data, b.len) != 0)
        return -1;
    static RawMsg m;
    for (;;) {
        if (raw_read(fd, &m, 5000) != 0 || m.type == 'E')
            return -1;
        if (m.type == 'Z')
            return 0;
    }
}

int raw_expect_eof(int fd, int timeout_ms)
{
    char buf[256];
    for (;;) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        int rc = poll(&p, 1, timeout_ms);
        if (rc <= 0)
            return 0;
        ssize_t n = recv(fd, buf, sizeof buf, 0);
        if (n <= 0)
            return 1;
    }
}

/* ---------- shared by the COPY and lock tests ---------- */

void ptest_buf_printf(PtestBuf *b, const char *fmt, ...)
{
    if (b->data == NULL) {
        b->cap = 1 << 20;
        b->data = malloc(b->cap);
    }
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(b->data + b->len, b->cap - b->len, fmt, ap);
        va_end(ap);
        if ((size_t)n < b->cap - b->len) {
            b->len += (size_t)n;
            return;
        }
        b->cap *= 2;
        b->data = realloc(b->data, b->cap);
    }
}

void ptest_send_async(PGconn *c, const char *sql)
{
    if (!PQsendQuery(c, sql)) {
        fprintf(stderr, "send \"%s\": %s", sql, PQerrorMessage(c));
        ptest_failures++;
    }
}

bool ptest_still_busy(PGconn *c, int ms)
{
    for (int waited = 0; waited < ms; waited += 10) {
        usleep(10 * 1000);
        if (!PQconsumeInput(c) || !PQisBusy(c))
            return false;
    }
    return true;
}
