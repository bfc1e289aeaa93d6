/*
 * test_simple.c — the simple Query protocol over libpq: start-up
 * parameters, multi-statement queries, command tags, RowDescription,
 * empty queries, errors with position, transaction status, notices and
 * ParameterStatus after SET.
 */
#include "tests/protocol/ptest.h"

#include <stdio.h>
#include <string.h>

static char last_notice[512];

static void notice_receiver(void *arg, const PGresult *r)
{
    (void)arg;
    snprintf(last_notice, sizeof last_notice, "%s", PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY));
}

static void check_startup_parameters(PGconn *c)
{
    CHECK(strncmp(PQparameterStatus(c, "server_version"), "15", 2) == 0);
    CHECK(PQserverVersion(c) >= 150000 && PQserverVersion(c) < 160000);
    CHECK_STR(PQparameterStatus(c, "server_encoding"), "UTF8");
    CHECK_STR(PQparameterStatus(c, "client_encoding"), "UTF8");
    CHECK_STR(PQparameterStatus(c, "DateStyle"), "ISO, MDY");
    CHECK_STR(PQparameterStatus(c, "integer_datetimes"), "on");
    CHECK_STR(PQparameterStatus(c, "standard_conforming_strings"), "on");
    CHECK_STR(PQparameterStatus(c, "session_authorization"), "postgres");
    CHECK_STR(PQparameterStatus(c, "is_superuser"), "on");
    CHECK_STR(PQparameterStatus(c, "application_name"), "ptest");
    CHECK(PQbackendPID(c) != 0);
    CHECK(PQtransactionStatus(c) == PQTRANS_IDLE);
}

/* Several statements in one Query: one result each, in order. */
static void check_multi_statement(PGconn *c)
{
    CHECK(PQsendQuery(c, "CREATE TABLE t (a int, b text); INSERT INTO t VALUES (1, 'x'), (2, NULL);"
                         "SELECT a, b FROM t ORDER BY a;"));
    const char *tags[] = {"CREATE TABLE", "INSERT 0 2", "SELECT 2"};
    int n = 0;
    PGresult *r;
    while ((r = PQgetResult(c)) != NULL) {
        if (n < 3)
            CHECK_STR(PQcmdStatus(r), tags[n]);
        if (n == 2) {
            CHECK(PQresultStatus(r) == PGRES_TUPLES_OK);
            CHECK(PQnfields(r) == 2 && PQntuples(r) == 2);
            CHECK_STR(PQfname(r, 0), "a");
            CHECK(PQftype(r, 0) == 23 && PQfsize(r, 0) == 4 && PQfmod(r, 0) == -1);
            CHECK(PQftype(r, 1) == 25 && PQfsize(r, 1) == -1);
            CHECK(PQfformat(r, 0) == 0);
            CHECK_STR(PQgetvalue(r, 0, 0), "1");
            CHECK_STR(PQgetvalue(r, 0, 1), "x");
            CHECK(PQgetisnull(r, 1, 1));
        }
        n++;
        PQclear(r);
    }
    CHECK(n == 3);
}

/* An error skips the rest of the string and rolls the whole Query back. */
static void check_error_mid_query(PGconn *c)
{
    CHECK(PQsendQuery(c, "SELECT 1; SELECT 1/0; SELECT 2"));
    int n = 0;
    PGresult *r;
    while ((r = PQgetResult(c)) != NULL) {
        if (n == 0)
            CHECK(PQresultStatus(r) == PGRES_TUPLES_OK);
        if (n == 1) {
            CHECK(PQresultStatus(r) == PGRES_FATAL_ERROR);
            CHECK_STR(ptest_sqlstate(r), "22012");
            CHECK_STR(PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY), "division by zero");
            CHECK_STR(PQresultErrorField(r, PG_DIAG_SEVERITY_NONLOCALIZED), "ERROR");
        }
        n++;
        PQclear(r);
    }
    CHECK(n == 2);
    CHECK(PQtransactionStatus(c) == PQTRANS_IDLE);
}

static void check_errors_and_status(PGconn *c)
{
    PGresult *r = ptest_exec(c, "SELECT 1 FROM", PGRES_FATAL_ERROR);
    CHECK_STR(ptest_sqlstate(r), "42601");
    CHECK(PQresultErrorField(r, PG_DIAG_STATEMENT_POSITION) != NULL);
    PQclear(r);
    r = ptest_exec(c, "SELECT nosuch FROM t", PGRES_FATAL_ERROR);
    CHECK_STR(ptest_sqlstate(r), "42703");
    CHECK_STR(PQresultErrorField(r, PG_DIAG_STATEMENT_POSITION), "8");
    PQclear(r);
    PQclear(ptest_exec(c, "", PGRES_EMPTY_QUERY));
    PQclear(ptest_exec(c, ";", PGRES_EMPTY_QUERY));
    PQclear(ptest_exec(c, "BEGIN", PGRES_COMMAND_OK));
    CHECK(PQtransactionStatus(c) == PQTRANS_INTRANS);
    PQclear(ptest_exec(c, "INSERT INTO t VALUES (3, 'y')", PGRES_COMMAND_OK));
    PQclear(ptest_exec(c, "SELECT 1/0", PGRES_FATAL_ERROR));
    CHECK(PQtransactionStatus(c) == PQTRANS_INERROR);
    r = ptest_exec(c, "SELECT 1", PGRES_FATAL_ERROR);
    CHECK_STR(ptest_sqlstate(r), "25P02");
    PQclear(r);
    r = ptest_exec(c, "ROLLBACK", PGRES_COMMAND_OK);
    CHECK_STR(PQcmdStatus(r), "ROLLBACK");
    PQclear(r);
    CHECK(PQtransactionStatus(c) == PQTRANS_IDLE);
    r = ptest_exec(c, "SELECT count(*) FROM t", PGRES_TUPLES_OK);
    CHECK_STR(PQgetvalue(r, 0, 0), "2");
    CHECK(PQftype(r, 0) == 20);
    PQclear(r);
}

static void check_set_and_notice(PGconn *c)
{
    PGresult *r = ptest_exec(c, "SET application_name = 'renamed'", PGRES_COMMAND_OK);
    CHECK_STR(PQcmdStatus(r), "SET");
    PQclear(r);
    CHECK_STR(PQparameterStatus(c, "application_name"), "renamed");
    r = ptest_exec(c, "SHOW application_name", PGRES_TUPLES_OK);
    CHECK_STR(PQgetvalue(r, 0, 0), "renamed");
    PQclear(r);
    /* Settings restored by ROLLBACK and by the end of SET LOCAL are
     * reported too (PostgreSQL 15: inblock, ptest... as checked against
     * it); the server compares reported values only after a setting was
     * stored, so each of these must still reach the client. */
    PQclear(ptest_exec(c, "BEGIN", PGRES_COMMAND_OK));
    PQclear(ptest_exec(c, "SET application_name = 'inblock'", PGRES_COMMAND_OK));
    CHECK_STR(PQparameterStatus(c, "application_name"), "inblock");
    PQclear(ptest_exec(c, "ROLLBACK", PGRES_COMMAND_OK));
    CHECK_STR(PQparameterStatus(c, "application_name"), "renamed");
    PQclear(ptest_exec(c, "BEGIN", PGRES_COMMAND_OK));
    PQclear(ptest_exec(c, "SET LOCAL application_name = 'loc'", PGRES_COMMAND_OK));
    CHECK_STR(PQparameterStatus(c, "application_name"), "loc");
    PQclear(ptest_exec(c, "COMMIT", PGRES_COMMAND_OK));
    CHECK_STR(PQparameterStatus(c, "application_name"), "renamed");
    /* the extended protocol (Parse/Bind/Execute/Sync) reports it as well */
    r = PQexecParams(c, "SELECT set_config('application_name', $1, false)", 1, NULL,
                     (const char *const[]){"viaparam"}, NULL, NULL, 0);
    CHECK(PQresultStatus(r) == PGRES_TUPLES_OK);
    PQclear(r);
    CHECK_STR(PQparameterStatus(c, "application_name"), "viaparam");
    r = PQexecParams(c, "SELECT 1", 0, NULL, NULL, NULL, NULL, 0);
    CHECK(PQresultStatus(r) == PGRES_TUPLES_OK);
    PQclear(r);
    CHECK_STR(PQparameterStatus(c, "application_name"), "viaparam");
    PQsetNoticeReceiver(c, notice_receiver, NULL);
    PQclear(ptest_exec(c, "DROP TABLE IF EXISTS nosuch", PGRES_COMMAND_OK));
    CHECK_STR(last_notice, "table \"nosuch\" does not exist, skipping");
}

/* A multi-statement Query is PostgreSQL's implicit transaction block:
 * VACUUM, CREATE/DROP DATABASE and DISCARD ALL refuse it (25001) and the
 * statements before them roll back; alone they run. */
static void check_implicit_block(PGconn *c)
{
    const char *refused[][2] = {
        {"CREATE TABLE ib (a int); CREATE DATABASE ibdb", "CREATE DATABASE"},
        {"CREATE TABLE ib (a int); VACUUM", "VACUUM"},
        {"CREATE TABLE ib (a int); DISCARD ALL", "DISCARD ALL"},
        {"DROP DATABASE IF EXISTS ibdb; CREATE TABLE ib (a int)", "DROP DATABASE"},
    };
    for (int i = 0; i < 4; i++) {
        CHECK(PQsendQuery(c, refused[i][0]));
        PGresult *r;
        int errors = 0;
        while ((r = PQgetResult(c)) != NULL) {
            if (PQresultStatus(r) == PGRES_FATAL_ERROR) {
                char want[96];
                snprintf(want, sizeof want, "%s cannot run inside a transaction block", refused[i][1]);
                CHECK_STR(ptest_sqlstate(r), "25001");
                CHECK_STR(PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY), want);
                errors++;
            }
            PQclear(r);
        }
        CHECK(errors == 1);
        PQclear(ptest_exec(c, "SELECT 1 FROM pg_class WHERE relname = 'ib'", PGRES_TUPLES_OK));
    }
    PGresult *r = ptest_exec(c, "SELECT count(*) FROM pg_class WHERE relname = 'ib'", PGRES_TUPLES_OK);
    CHECK_STR(PQgetvalue(r, 0, 0), "0");
    PQclear(r);
    PQclear(ptest_exec(c, "VACUUM", PGRES_COMMAND_OK));
    PQclear(ptest_exec(c, "CREATE DATABASE ibdb", PGRES_COMMAND_OK));
    PQclear(ptest_exec(c, "DROP DATABASE ibdb", PGRES_COMMAND_OK));
}

int main(void)
{
    TestServer s;
    ptest_start(&s, NULL, NULL);
    PGconn *c = ptest_connect(&s, "application_name=ptest");
    if (PQstatus(c) == CONNECTION_OK) {
        check_startup_parameters(c);
        check_multi_statement(c);
        check_error_mid_query(c);
        check_errors_and_status(c);
        check_set_and_notice(c);
        check_implicit_block(c);
    }
    PQfinish(c);
    /* The Unix socket in the data directory works too. */
    char conninfo[1024];
    snprintf(conninfo, sizeof conninfo, "host=%s port=%d user=postgres dbname=postgres", s.sockdir, s.port);
    PGconn *u = PQconnectdb(conninfo);
    CHECK(PQstatus(u) == CONNECTION_OK);
    if (PQstatus(u) == CONNECTION_OK)
        PQclear(ptest_exec(u, "SELECT 1", PGRES_TUPLES_OK));
    PQfinish(u);
    return ptest_finish(&s, "protocol-simple");
}
