/*
 * test_extended.c — the extended query protocol over libpq: named and
 * unnamed prepared statements, parameter type inference, Describe of
 * statements, binary parameters and results, and its errors (duplicate
 * and unknown statements, wrong parameter counts).
 */
#include "tests/protocol/ptest.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

static void check_prepared(PGconn *c)
{
    PQclear(ptest_exec(c, "CREATE TABLE p (id int, name text)", PGRES_COMMAND_OK));
    Oid types[2] = {23, 25};
    PGresult *r = PQprepare(c, "ins", "INSERT INTO p VALUES ($1, $2)", 2, types);
    CHECK(PQresultStatus(r) == PGRES_COMMAND_OK);
    PQclear(r);
    for (int i = 1; i <= 3; i++) {
        char id[16], name[16];
        snprintf(id, sizeof id, "%d", i);
        snprintf(name, sizeof name, "n%d", i);
        const char *vals[2] = {id, name};
        r = PQexecPrepared(c, "ins", 2, vals, NULL, NULL, 0);
        CHECK(PQresultStatus(r) == PGRES_COMMAND_OK);
        CHECK_STR(PQcmdStatus(r), "INSERT 0 1");
        PQclear(r);
    }
    /* no types given: inferred from the comparison with an int column */
    r = PQprepare(c, "sel", "SELECT id, name FROM p WHERE id >= $1 ORDER BY id", 0, NULL);
    CHECK(PQresultStatus(r) == PGRES_COMMAND_OK);
    PQclear(r);
    r = PQdescribePrepared(c, "sel");
    CHECK(PQresultStatus(r) == PGRES_COMMAND_OK);
    CHECK(PQnparams(r) == 1 && PQparamtype(r, 0) == 23);
    CHECK(PQnfields(r) == 2 && PQftype(r, 0) == 23 && PQftype(r, 1) == 25);
    CHECK_STR(PQfname(r, 1), "name");
    PQclear(r);
    const char *two[1] = {"2"};
    r = PQexecPrepared(c, "sel", 1, two, NULL, NULL, 0);
    CHECK(PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 2);
    CHECK_STR(PQgetvalue(r, 0, 1), "n2");
    CHECK_STR(PQcmdStatus(r), "SELECT 2");
    PQclear(r);
    r = PQdescribePrepared(c, "ins");
    CHECK(PQnparams(r) == 2 && PQnfields(r) == 0);
    PQclear(r);
}

static void check_errors(PGconn *c)
{
    PGresult *r = PQprepare(c, "sel", "SELECT 1", 0, NULL);
    CHECK_STR(ptest_sqlstate(r), "42P05");
    CHECK_STR(PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY), "prepared statement \"sel\" already exists");
    PQclear(r);
    r = PQexecPrepared(c, "nosuch", 0, NULL, NULL, NULL, 0);
    CHECK_STR(ptest_sqlstate(r), "26000");
    PQclear(r);
    r = PQdescribePrepared(c, "nosuch");
    CHECK_STR(ptest_sqlstate(r), "26000");
    PQclear(r);
    r = PQexecPrepared(c, "sel", 0, NULL, NULL, NULL, 0);
    CHECK_STR(ptest_sqlstate(r), "08P01");
    CHECK_STR(PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY),
              "bind message supplies 0 parameters, but prepared statement \"sel\" requires 1");
    PQclear(r);
    const char *bad[1] = {"abc"};
    r = PQexecPrepared(c, "sel", 1, bad, NULL, NULL, 0);
    CHECK_STR(ptest_sqlstate(r), "22P02");
    PQclear(r);
    r = PQprepare(c, "two", "SELECT 1; SELECT 2", 0, NULL);
    CHECK_STR(ptest_sqlstate(r), "42601");
    PQclear(r);
    r = PQprepare(c, "", "SELECT nosuch FROM p", 0, NULL);
    CHECK_STR(ptest_sqlstate(r), "42703");
    CHECK_STR(PQresultErrorField(r, PG_DIAG_STATEMENT_POSITION), "8");
    PQclear(r);
    /* the session goes on */
    r = ptest_exec(c, "SELECT 1", PGRES_TUPLES_OK);
    PQclear(r);
    CHECK(PQtransactionStatus(c) == PQTRANS_IDLE);
}

static void check_params_and_formats(PGconn *c)
{
    /* unnamed statement with text parameters (PQexecParams) */
    const char *vals[2] = {"40", NULL};
    PGresult *r = PQexecParams(c, "SELECT $1::int + 2, $2::text IS NULL", 2, NULL, vals, NULL, NULL, 0);
    CHECK(PQresultStatus(r) == PGRES_TUPLES_OK);
    CHECK_STR(PQgetvalue(r, 0, 0), "42");
    CHECK_STR(PQgetvalue(r, 0, 1), "t");
    PQclear(r);
    /* binary int4 parameter and binary result */
    uint32_t be = htonl(41);
    const char *bvals[1] = {(const char *)&be};
    int lens[1] = {4}, fmts[1] = {1};
    Oid t[1] = {23};
    r = PQexecParams(c, "SELECT $1 + 1", 1, t, bvals, lens, fmts, 1);
    CHECK(PQresultStatus(r) == PGRES_TUPLES_OK);
    CHECK(PQfformat(r, 0) == 1 && PQgetlength(r, 0, 0) == 4);
    if (PQresultStatus(r) == PGRES_TUPLES_OK && PQgetlength(r, 0, 0) == 4) {
        uint32_t v;
        memcpy(&v, PQgetvalue(r, 0, 0), 4);
        CHECK(ntohl(v) == 42);
    }
    PQclear(r);
    /* empty statement: EmptyQueryResponse through Execute */
    r = PQexecParams(c, "", 0, NULL, NULL, NULL, NULL, 0);
    CHECK(PQresultStatus(r) == PGRES_EMPTY_QUERY);
    PQclear(r);
}

int main(void)
{
    TestServer s;
    ptest_start(&s, NULL, NULL);
    PGconn *c = ptest_connect(&s, NULL);
    if (PQstatus(c) == CONNECTION_OK) {
        check_prepared(c);
        check_errors(c);
        check_params_and_formats(c);
    }
    PQfinish(c);
    return ptest_finish(&s, "protocol-extended");
}
