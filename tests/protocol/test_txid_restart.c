/*
 * test_txid_restart.c — txid_current() never goes backwards across server
 * restarts (storage/control.c): after a clean stop (SIGTERM), after kill -9
 * with no checkpoint, and after kill -9 following a CHECKPOINT; the rows
 * committed before each stop are still there. PostgreSQL's transaction ids
 * only grow; before this change Strata's restarted at 1.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "tests/protocol/ptest.h"

static TestServer server;
static char datadir[512];

static long long txid(PGconn *c)
{
    PGresult *r = ptest_exec(c, "SELECT txid_current()", PGRES_TUPLES_OK);
    long long v = PQntuples(r) == 1 ? atoll(PQgetvalue(r, 0, 0)) : -1;
    PQclear(r);
    return v;
}

static long long count_rows(PGconn *c)
{
    PGresult *r = ptest_exec(c, "SELECT count(*) FROM t", PGRES_TUPLES_OK);
    long long v = PQntuples(r) == 1 ? atoll(PQgetvalue(r, 0, 0)) : -1;
    PQclear(r);
    return v;
}

/* Some transactions (read-only last); returns the largest id seen. */
static long long work(PGconn *c, int k)
{
    long long last = 0;
    char sql[128];
    snprintf(sql, sizeof sql, "INSERT INTO t SELECT i FROM generate_series(1, %d) i", k);
    PQclear(ptest_exec(c, "BEGIN", PGRES_COMMAND_OK));
    PQclear(ptest_exec(c, sql, PGRES_COMMAND_OK));
    long long in_txn = txid(c);
    CHECK(txid(c) == in_txn);  /* the same id for the whole transaction */
    PQclear(ptest_exec(c, "COMMIT", PGRES_COMMAND_OK));
    for (int i = 0; i < 20; i++) {
        long long v = txid(c);
        CHECK(v > last && v > in_txn);
        last = v;
    }
    return last;
}

static void kill9(void)
{
    kill(server.pid, SIGKILL);
    waitpid(server.pid, NULL, 0);
}

int main(void)
{
    if (harness_make_datadir(datadir, sizeof datadir) != 0)
        return 1;
    ptest_start(&server, datadir, NULL);
    PGconn *c = ptest_connect(&server, NULL);
    PQclear(ptest_exec(c, "CREATE TABLE t (a int)", PGRES_COMMAND_OK));
    long long last = work(c, 10);
    PQfinish(c);

    harness_server_stop(&server);  /* clean: SIGTERM */
    ptest_start(&server, datadir, NULL);
    c = ptest_connect(&server, NULL);
    long long after = txid(c);
    fprintf(stderr, "clean stop: last %lld, after restart %lld\n", last, after);
    CHECK(after > last);
    CHECK(count_rows(c) == 10);
    last = work(c, 5);
    PQfinish(c);

    kill9();  /* no checkpoint since the start */
    ptest_start(&server, datadir, NULL);
    c = ptest_connect(&server, NULL);
    after = txid(c);
    fprintf(stderr, "kill -9: last %lld, after restart %lld\n", last, after);
    CHECK(after > last);
    CHECK(count_rows(c) == 15);
    PQclear(ptest_exec(c, "CHECKPOINT", PGRES_COMMAND_OK));
    last = work(c, 7);
    PQfinish(c);

    kill9();  /* after a checkpoint */
    ptest_start(&server, datadir, NULL);
    c = ptest_connect(&server, NULL);
    after = txid(c);
    fprintf(stderr, "kill -9 after CHECKPOINT: last %lld, after restart %lld\n", last, after);
    CHECK(after > last);
    CHECK(count_rows(c) == 22);
    PQfinish(c);
    int rc = ptest_finish(&server, "txid_restart");
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", datadir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", datadir);
    return rc;
}
