/*
 * test_cancel.c — CancelRequest stops a long query: a cross-join count
 * over 4096^3 rows is cancelled with PQcancel (a new connection carrying
 * the BackendKeyData) and must fail with 57014 within a second; the
 * session then works. A cancel with a wrong key does nothing (the query
 * is still running half a second later).
 */
#include "tests/protocol/ptest.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* 4096 rows by doubling. */
static void fill(PGconn *c)
{
    PQclear(ptest_exec(c, "CREATE TABLE big (a int)", PGRES_COMMAND_OK));
    PQclear(ptest_exec(c, "INSERT INTO big VALUES (1)", PGRES_COMMAND_OK));
    for (int i = 0; i < 12; i++)
        PQclear(ptest_exec(c, "INSERT INTO big SELECT a + 1 FROM big", PGRES_COMMAND_OK));
    PGresult *r = ptest_exec(c, "SELECT count(*) FROM big", PGRES_TUPLES_OK);
    CHECK_STR(PQgetvalue(r, 0, 0), "4096");
    PQclear(r);
}

/* A CancelRequest with a wrong key: the server closes it and changes nothing. */
static void cancel_wrong_key(int port, int pid)
{
    int fd = raw_connect(port);
    RawBuf b = {.len = 0};
    rb_i32(&b, 16);
    rb_i32(&b, 80877102);
    rb_i32(&b, pid);
    rb_i32(&b, 12345);
    CHECK(fd >= 0 && raw_write(fd, b.data, b.len) == 0);
    CHECK(raw_expect_eof(fd, 2000));
    close(fd);
}

int main(void)
{
    TestServer s;
    ptest_start(&s, NULL, NULL);
    PGconn *c = ptest_connect(&s, NULL);
    if (PQstatus(c) == CONNECTION_OK) {
        fill(c);
        CHECK(PQsendQuery(c, "SELECT count(*) FROM big x, big y, big z"));
        usleep(200 * 1000);
        cancel_wrong_key(s.port, PQbackendPID(c));
        usleep(500 * 1000);
        CHECK(PQconsumeInput(c));
        CHECK(PQisBusy(c));   /* still running */
        PGcancel *cancel = PQgetCancel(c);
        char err[256];
        double t0 = now_s();
        CHECK(PQcancel(cancel, err, sizeof err));
        PQfreeCancel(cancel);
        PGresult *r = PQgetResult(c);
        double elapsed = now_s() - t0;
        CHECK(PQresultStatus(r) == PGRES_FATAL_ERROR);
        CHECK_STR(ptest_sqlstate(r), "57014");
        CHECK_STR(PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY), "canceling statement due to user request");
        if (elapsed > 1.0) {
            fprintf(stderr, "cancel took %.3f s\n", elapsed);
            ptest_failures++;
        }
        PQclear(r);
        while ((r = PQgetResult(c)) != NULL)
            PQclear(r);
        CHECK(PQtransactionStatus(c) == PQTRANS_IDLE);
        r = ptest_exec(c, "SELECT count(*) FROM big", PGRES_TUPLES_OK);
        CHECK_STR(PQgetvalue(r, 0, 0), "4096");
        PQclear(r);
    }
    PQfinish(c);
    return ptest_finish(&s, "protocol-cancel");
}
