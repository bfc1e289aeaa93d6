/*
 * test_binary.c — binary wire formats (issue 6): numeric, timestamptz,
 * time, uuid, bytea, interval. Results requested in binary must carry
 * exactly the bytes PostgreSQL 15 sends (captured from PostgreSQL 15.20
 * with libpq's PQexecParams(..., resultFormat 1), TimeZone UTC), and the
 * same bytes sent as a binary parameter must read back as PostgreSQL's
 * text; malformed binary values get PostgreSQL's 08P01 / 22P03.
 */
#include "tests/protocol/ptest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct NumCase {
    const char *input;   /* text sent */
    const char *wire;    /* PostgreSQL's binary form, hex */
    const char *text;    /* PostgreSQL's text form of the value */
} NumCase;

static const NumCase cases[] = {
    {"0", "0000000000000000", "0"},
    {"1", "00010000000000000001", "1"},
    {"-1", "00010000400000000001", "-1"},
    {"12345.678", "0003000100000003000109291a7c", "12345.678"},
    {"0.0012", "0001ffff00000004000c", "0.0012"},
    {"100000000", "00010002000000000001", "100000000"},
    {"-0.5", "0001ffff400000011388", "-0.5"},
    {"123456789012345678901234567890.123456789", "000b000700000009000c0d801ed204d2162e23340d801ed204d2162e2328", "123456789012345678901234567890.123456789"},
    {"NaN", "00000000c0000000", "NaN"},
    {"1.000", "00010000000000030001", "1.000"},
    {"0.00", "0000000000000002", "0.00"},
    {"10000", "00010001000000000001", "10000"},
    {"9999.9999", "0002000000000004270f270f", "9999.9999"},
    {"1e-20", "0001fffb000000140001", "0.00000000000000000001"},
    {"-98765432.00001", "000400014000000526941538000003e8", "-98765432.00001"},
};

/* Other types: the query, the result type, PostgreSQL's bytes and text. */
typedef struct TypedCase {
    const char *literal;
    Oid type;
    const char *wire;
    const char *text;
} TypedCase;

static const TypedCase typed[] = {
    {"'2024-03-01 12:34:56.789+00'::timestamptz", 1184, "0002b5975f49e608", "2024-03-01 12:34:56.789+00"},
    {"'-infinity'::timestamptz", 1184, "8000000000000000", "-infinity"},
    {"'13:45:01.5'::time", 1083, "0000000b8684f260", "13:45:01.5"},
    {"'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid", 2950, "a0eebc999c0b4ef8bb6d6bb9bd380a11",
     "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"},
    {"'\\x00ff10'::bytea", 17, "00ff10", "\\x00ff10"},
    {"''::bytea", 17, "", "\\x"},
    {"'1 year 2 mons 3 days 04:05:06.7'::interval", 1186, "000000036c966ee0000000030000000e",
     "1 year 2 mons 3 days 04:05:06.7"},
    {"'-1 day -00:00:01'::interval", 1186, "fffffffffff0bdc0ffffffff00000000", "-1 days -00:00:01"},
    /* catalog types drivers meet in pg_catalog queries */
    {"'4000000000'::oid", 26, "ee6b2800", "4000000000"},
    {"'pg_class'::regclass", 2205, "000004eb", "pg_class"},
    {"'x'::\"char\"", 18, "78", "x"},
};

static void hex(const char *p, int n, char *out)
{
    for (int i = 0; i < n; i++)
        sprintf(out + 2 * i, "%02x", (unsigned char)p[i]);
    out[2 * n] = 0;
}

static int unhex(const char *h, char *out)
{
    int n = 0;
    for (; h[0] && h[1]; h += 2) {
        unsigned v;
        sscanf(h, "%2x", &v);
        out[n++] = (char)v;
    }
    return n;
}

static void check_send(PGconn *c)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *v[1] = {cases[i].input};
        PGresult *r = PQexecParams(c, "SELECT $1::numeric", 1, NULL, v, NULL, NULL, 1);
        CHECK(PQresultStatus(r) == PGRES_TUPLES_OK);
        if (PQresultStatus(r) == PGRES_TUPLES_OK) {
            char got[512];
            int n = PQgetlength(r, 0, 0);
            hex(PQgetvalue(r, 0, 0), n < 250 ? n : 250, got);
            CHECK_STR(got, cases[i].wire);
            CHECK(PQfformat(r, 0) == 1 && PQftype(r, 0) == 1700);
        }
        PQclear(r);
    }
}

static void check_recv(PGconn *c)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char bytes[256];
        int n = unhex(cases[i].wire, bytes);
        const char *v[1] = {bytes};
        int lens[1] = {n}, fmts[1] = {1};
        Oid types[1] = {1700};
        PGresult *r = PQexecParams(c, "SELECT $1::text", 1, types, v, lens, fmts, 0);
        CHECK(PQresultStatus(r) == PGRES_TUPLES_OK);
        if (PQresultStatus(r) == PGRES_TUPLES_OK)
            CHECK_STR(PQgetvalue(r, 0, 0), cases[i].text);
        PQclear(r);
    }
    /* a numeric(5,2) parameter gets its typmod applied */
    PQclear(ptest_exec(c, "CREATE TABLE nb (x numeric(5,2))", PGRES_COMMAND_OK));
    char bytes[64];
    int n = unhex("0003000100000003000109291a7c", bytes);   /* 12345.678 */
    const char *v[1] = {bytes};
    int lens[1] = {n}, fmts[1] = {1};
    PGresult *r = PQexecParams(c, "INSERT INTO nb VALUES ($1)", 1, NULL, v, lens, fmts, 0);
    CHECK_STR(ptest_sqlstate(r), "22003");
    PQclear(r);
    n = unhex("0001ffff400000011388", bytes);   /* -0.5 */
    lens[0] = n;
    r = PQexecParams(c, "INSERT INTO nb VALUES ($1)", 1, NULL, v, lens, fmts, 0);
    CHECK(PQresultStatus(r) == PGRES_COMMAND_OK);
    PQclear(r);
    r = ptest_exec(c, "SELECT x::text FROM nb", PGRES_TUPLES_OK);
    CHECK_STR(PQgetvalue(r, 0, 0), "-0.50");
    PQclear(r);
    /* malformed (PostgreSQL 15's answers): too short, fewer digit groups
     * than announced, bad sign, a group > 9999, bytes left over */
    static const char *const bad[][2] = {
        {"000100", "08P01"}, {"00020000000000000001", "08P01"}, {"00010000123400000001", "22P03"},
        {"00010000000000002710", "22P03"}, {"0001000000000000000100", "22P03"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        n = unhex(bad[i][0], bytes);
        lens[0] = n;
        Oid types[1] = {1700};
        r = PQexecParams(c, "SELECT $1::text", 1, types, v, lens, fmts, 0);
        CHECK_STR(ptest_sqlstate(r), bad[i][1]);
        PQclear(r);
    }
}

static void check_typed(PGconn *c)
{
    PQclear(ptest_exec(c, "SET TimeZone = 'UTC'", PGRES_COMMAND_OK));
    for (size_t i = 0; i < sizeof typed / sizeof typed[0]; i++) {
        char sql[256], got[256], bytes[64];
        snprintf(sql, sizeof sql, "SELECT %s", typed[i].literal);
        PGresult *r = PQexecParams(c, sql, 0, NULL, NULL, NULL, NULL, 1);
        CHECK(PQresultStatus(r) == PGRES_TUPLES_OK);
        if (PQresultStatus(r) == PGRES_TUPLES_OK) {
            hex(PQgetvalue(r, 0, 0), PQgetlength(r, 0, 0), got);
            CHECK_STR(got, typed[i].wire);
            CHECK(PQftype(r, 0) == typed[i].type);
        }
        PQclear(r);
        int n = unhex(typed[i].wire, bytes);
        const char *v[1] = {bytes};
        int lens[1] = {n}, fmts[1] = {1};
        Oid types[1] = {typed[i].type};
        r = PQexecParams(c, "SELECT $1::text", 1, types, v, lens, fmts, 0);
        CHECK(PQresultStatus(r) == PGRES_TUPLES_OK);
        if (PQresultStatus(r) == PGRES_TUPLES_OK)
            CHECK_STR(PQgetvalue(r, 0, 0), typed[i].text);
        PQclear(r);
    }
    /* uuid and interval take 16 bytes: fewer is 08P01, more 22P03 (PostgreSQL's answers) */
    static const char *const bad[][3] = {{"2950", "616263", "08P01"},
                                         {"2950", "a0eebc999c0b4ef8bb6d6bb9bd380a1111", "22P03"},
                                         {"1186", "0011", "08P01"},
                                         {"1186", "000000036c966ee0000000030000000e00", "22P03"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char bytes[64];
        int n = unhex(bad[i][1], bytes);
        const char *v[1] = {bytes};
        int lens[1] = {n}, fmts[1] = {1};
        Oid types[1] = {(Oid)atoi(bad[i][0])};
        PGresult *r = PQexecParams(c, "SELECT $1::text", 1, types, v, lens, fmts, 0);
        CHECK_STR(ptest_sqlstate(r), bad[i][2]);
        PQclear(r);
    }
}

int main(void)
{
    TestServer s;
    ptest_start(&s, NULL, NULL);
    PGconn *c = ptest_connect(&s, "");
    check_send(c);
    check_recv(c);
    check_typed(c);
    PQfinish(c);
    return ptest_finish(&s, "protocol-binary");
}
