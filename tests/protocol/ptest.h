/*
 * ptest.h — helpers shared by the protocol tests (tests/protocol/test_*.c).
 *
 * Each test is a plain program: it starts its own server through the
 * harness, runs its checks, prints one line per failed CHECK and exits
 * non-zero when any failed. Besides libpq, a tiny raw client speaks the
 * v3 protocol byte by byte so tests can send what libpq never would
 * (malformed messages, Execute with a row limit).
 */
#ifndef STRATA_TESTS_PTEST_H
#define STRATA_TESTS_PTEST_H

#include <libpq-fe.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "tests/harness/harness.h"

extern int ptest_failures;

#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
            ptest_failures++;                                                        \
        }                                                                            \
    } while (0)

#define CHECK_STR(a, b)                                                                    \
    do {                                                                                   \
        const char *a_ = (a), *b_ = (b);                                                   \
        if (!a_ || !b_ || strcmp(a_, b_) != 0) {                                           \
            fprintf(stderr, "%s:%d: CHECK_STR failed: %s = \"%s\", expected \"%s\"\n",      \
                    __FILE__, __LINE__, #a, a_ ? a_ : "(null)", b_ ? b_ : "(null)");        \
            ptest_failures++;                                                              \
        }                                                                                  \
    } while (0)

/* Start a server (datadir NULL = fresh) or exit(1). */
void ptest_start(TestServer *s, const char *datadir, const char *const *extra_args);
/* Connect over TCP with extra conninfo; exits on failure when must_work. */
PGconn *ptest_connect(const TestServer *s, const char *extra);
/* Run sql, expect status; returns the result (caller clears). */
PGresult *ptest_exec(PGconn *c, const char *sql, ExecStatusType want);
/* The SQLSTATE of a result ("" when none). */
const char *ptest_sqlstate(const PGresult *r);
/* Finish: stop the server, print the verdict, return the exit status. */
int ptest_finish(TestServer *s, const char *name);

/* A growing text buffer (COPY input built in memory); free(data) when done. */
typedef struct PtestBuf {
    char *data;
    size_t len, cap;
} PtestBuf;
void ptest_buf_printf(PtestBuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Start sql on c without waiting for its result (a failure to send counts
 * as a test failure); whether that query is still running after ms
 * milliseconds (two-session lock tests). */
void ptest_send_async(PGconn *c, const char *sql);
bool ptest_still_busy(PGconn *c, int ms);

/* ---------- raw protocol client ---------- */

typedef struct RawMsg {
    char type;
    uint32_t len;          /* body length */
    char body[65536];      /* truncated past this (len keeps the true length) */
} RawMsg;

/* TCP connect to 127.0.0.1:port; -1 on failure. */
int raw_connect(int port);
/* Send raw bytes; 0 on success. */
int raw_write(int fd, const void *buf, size_t len);
/* Send a StartupMessage (3.0, user, database) and read until
 * ReadyForQuery; 0 when the session is ready. */
int raw_startup(int fd, const char *user, const char *database);
/* Send a typed message with this body. */
int raw_send(int fd, char type, const void *body, size_t len);
/* Read one message within timeout_ms; 0 ok, -1 EOF/error, -2 timeout. */
int raw_read(int fd, RawMsg *m, int timeout_ms);
/* A field (e.g. 'C', 'M', 'S') of an ErrorResponse body; "" when absent. */
const char *raw_error_field(const RawMsg *m, char field);
/* True when the peer closed the connection (EOF) within timeout_ms. */
int raw_expect_eof(int fd, int timeout_ms);

/* Builders for message bodies (big-endian integers, C strings). */
typedef struct RawBuf {
    char data[8192];
    size_t len;
} RawBuf;
void rb_i16(RawBuf *b, int v);
void rb_i32(RawBuf *b, int32_t v);
void rb_str(RawBuf *b, const char *s);

#endif
