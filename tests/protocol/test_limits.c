/*
 * test_limits.c — server-wide limits and the fast shutdown:
 * max_connections=2 lets two sessions in and refuses the third with FATAL
 * 53300 (a slot frees when a session ends); SIGTERM during a running query
 * ends that session with FATAL 57P01 and the server exits.
 */
#include "tests/protocol/ptest.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void check_max_connections(const TestServer *s)
{
    PGconn *a = ptest_connect(s, NULL);
    PGconn *b = ptest_connect(s, NULL);
    char buf[1024];
    PGconn *c = PQconnectdb(harness_conninfo(s, NULL, buf, sizeof buf));
    CHECK(PQstatus(c) == CONNECTION_BAD && strstr(PQerrorMessage(c), "sorry, too many clients already"));
    PQfinish(c);
    PQfinish(b);
    /* the slot frees when the server notices the Terminate */
    int ok = 0;
    for (int i = 0; i < 50 && !ok; i++) {
        c = PQconnectdb(harness_conninfo(s, NULL, buf, sizeof buf));
        ok = PQstatus(c) == CONNECTION_OK;
        PQfinish(c);
        if (!ok)
            usleep(20 * 1000);
    }
    CHECK(ok);
    PQclear(ptest_exec(a, "SELECT 1", PGRES_TUPLES_OK));
    PQfinish(a);
}

static void check_fast_shutdown(TestServer *s)
{
    PGconn *c = ptest_connect(s, NULL);
    PQclear(ptest_exec(c, "CREATE TABLE big (a int)", PGRES_COMMAND_OK));
    PQclear(ptest_exec(c, "INSERT INTO big VALUES (1)", PGRES_COMMAND_OK));
    for (int i = 0; i < 12; i++)
        PQclear(ptest_exec(c, "INSERT INTO big SELECT a FROM big", PGRES_COMMAND_OK));
    CHECK(PQsendQuery(c, "SELECT count(*) FROM big x, big y, big z"));
    usleep(200 * 1000);
    kill(s->pid, SIGTERM);
    PGresult *r = PQgetResult(c);
    CHECK(PQresultStatus(r) == PGRES_FATAL_ERROR);
    CHECK_STR(ptest_sqlstate(r), "57P01");
    CHECK_STR(PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY), "terminating connection due to administrator command");
    PQclear(r);
    while ((r = PQgetResult(c)) != NULL)
        PQclear(r);
    CHECK(PQstatus(c) == CONNECTION_BAD);
    PQfinish(c);
    int status = 0;
    int exited = 0;
    for (int i = 0; i < 300 && !exited; i++) {
        exited = waitpid(s->pid, &status, WNOHANG) == s->pid;
        if (!exited)
            usleep(20 * 1000);
    }
    CHECK(exited && WIFEXITED(status) && WEXITSTATUS(status) == 0);
    if (exited)
        s->pid = 0;   /* reaped: harness_server_stop must not signal it again */
}

int main(void)
{
    TestServer s;
    const char *args[] = {"-c", "max_connections=2", NULL};
    ptest_start(&s, NULL, args);
    check_max_connections(&s);
    check_fast_shutdown(&s);
    return ptest_finish(&s, "protocol-limits");
}
