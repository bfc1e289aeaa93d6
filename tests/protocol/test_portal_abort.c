/*
 * test_portal_abort.c — what happens to the extended protocol's portals
 * when a transaction block fails, as PostgreSQL 15's portalmem.c does it
 * (protocol/conn.c handle_error, extended.c, cursor.c):
 *
 * - an error inside a block keeps every portal (AtAbort_Portals marks the
 *   ready ones failed, AtCleanup_Portals drops them only at the block's
 *   end): Execute and a Describe of rows answer 25P02, a Describe of a
 *   portal without rows NoData, Close works, a Bind of a ROLLBACK to a
 *   taken name is 42P03, and the ROLLBACK drops them at once (an Execute
 *   after it in the same message cycle is 34000); a Bind that failed
 *   reading its values leaves an empty portal (NoData, EmptyQueryResponse);
 * - a portal bound before a savepoint survives an error after it and
 *   ROLLBACK TO, and runs on where it stopped; the portals bound after
 *   the savepoint go with it; the portal whose run raised the error is
 *   failed for good (55000 "portal ... cannot be run");
 * - outside a block an error drops them all (the transaction ended).
 *
 * The raw client sends each step's messages and a Sync and compares the
 * transcript of the answer (message types, SQLSTATEs, tags, first column
 * of DataRows) with PostgreSQL 15's: STRATA_TEST_PG_CONNINFO=... runs the
 * same program against a real PostgreSQL 15, which is how the expectations
 * were checked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/protocol/ptest.h"

static TestServer server;

static void send_parse(int fd, const char *stmt, const char *sql)
{
    RawBuf b = {.len = 0};
    rb_str(&b, stmt);
    rb_str(&b, sql);
    rb_i16(&b, 0);
    CHECK(raw_send(fd, 'P', b.data, b.len) == 0);
}

/* Bind with text parameters (NULL = none). */
static void send_bind(int fd, const char *portal, const char *stmt, const char *param)
{
    RawBuf b = {.len = 0};
    rb_str(&b, portal);
    rb_str(&b, stmt);
    rb_i16(&b, 0);
    rb_i16(&b, param ? 1 : 0);
    if (param) {
        rb_i32(&b, (int32_t)strlen(param));
        memcpy(b.data + b.len, param, strlen(param));
        b.len += strlen(param);
    }
    rb_i16(&b, 0);
    CHECK(raw_send(fd, 'B', b.data, b.len) == 0);
}

static void send_execute(int fd, const char *portal, int max_rows)
{
    RawBuf b = {.len = 0};
    rb_str(&b, portal);
    rb_i32(&b, max_rows);
    CHECK(raw_send(fd, 'E', b.data, b.len) == 0);
}

/* Describe ('D') or Close ('C') of a statement ('S') or portal ('P'). */
static void send_named(int fd, char type, char kind, const char *name)
{
    RawBuf b = {.len = 0};
    b.data[b.len++] = kind;
    rb_str(&b, name);
    CHECK(raw_send(fd, type, b.data, b.len) == 0);
}

static void send_query(int fd, const char *sql)
{
    CHECK(raw_send(fd, 'Q', sql, strlen(sql) + 1) == 0);
}

/* Send Sync (unless a Query was the last message) and read to
 * ReadyForQuery; compare the transcript with want: one word per message,
 * "E:<sqlstate>" ("E:42P03/<message>"), "C:<tag>", "D:<first column>", "Z:<status>", else the
 * type letter. */
static void expect_answer(int fd, bool sync, const char *want, int line)
{
    static RawMsg m;
    char got[1024];
    size_t len = 0;
    got[0] = '\0';
    if (sync)
        CHECK(raw_send(fd, 'S', "", 0) == 0);
    for (;;) {
        if (raw_read(fd, &m, 5000) != 0) {
            len += (size_t)snprintf(got + len, sizeof got - len, "%s<eof>", len ? " " : "");
            break;
        }
        if (m.type == 'N' || m.type == 'S')
            continue;   /* notices, ParameterStatus */
        char word[128];
        if (m.type == 'E')
            snprintf(word, sizeof word, "E:%s%s%.60s", raw_error_field(&m, 'C'),
                     strcmp(raw_error_field(&m, 'C'), "42P03") == 0 ? "/" : "",
                     strcmp(raw_error_field(&m, 'C'), "42P03") == 0 ? raw_error_field(&m, 'M') : "");
        else if (m.type == 'C')
            snprintf(word, sizeof word, "C:%.60s", m.body);
        else if (m.type == 'Z')
            snprintf(word, sizeof word, "Z:%c", m.body[0]);
        else if (m.type == 'D') {
            int32_t n = (int32_t)(((uint32_t)(unsigned char)m.body[2] << 24) |
                                  ((uint32_t)(unsigned char)m.body[3] << 16) |
                                  ((uint32_t)(unsigned char)m.body[4] << 8) | (unsigned char)m.body[5]);
            snprintf(word, sizeof word, "D:%.*s", n < 0 ? 4 : n > 40 ? 40 : n, n < 0 ? "null" : m.body + 6);
        } else
            snprintf(word, sizeof word, "%c", m.type);
        if (len < sizeof got)
            len += (size_t)snprintf(got + len, sizeof got - len, "%s%s", len ? " " : "", word);
        if (m.type == 'Z')
            break;
    }
    if (strcmp(got, want) != 0) {
        fprintf(stderr, "line %d: got \"%s\", expected \"%s\"\n", line, got, want);
        ptest_failures++;
    }
}

#define ANSWER(fd, want) expect_answer(fd, true, want, __LINE__)
#define QUERY(fd, sql, want)                       \
    do {                                           \
        send_query(fd, sql);                       \
        expect_answer(fd, false, want, __LINE__);  \
    } while (0)

/* Parse, Bind and Execute of the unnamed statement, which fails while it
 * runs (1/0 would fail PostgreSQL's planning, at Bind). */
static void send_failing(int fd)
{
    send_parse(fd, "", "SELECT 1/(a-1) FROM pa ORDER BY a");
    send_bind(fd, "", "", NULL);
    send_execute(fd, "", 0);
}

/* An error in a block without savepoints: the portals stay, failed,
 * until the block ends. */
static void phase_block(int fd)
{
    QUERY(fd, "BEGIN", "C:BEGIN Z:T");
    send_parse(fd, "sa", "SELECT a FROM pa ORDER BY a");
    send_bind(fd, "p1", "sa", NULL);
    send_bind(fd, "p2", "sa", NULL);
    send_parse(fd, "si", "INSERT INTO pa VALUES (9)");
    send_bind(fd, "pi", "si", NULL);
    send_execute(fd, "p1", 1);
    send_failing(fd);
    send_execute(fd, "p1", 1);   /* skipped to Sync */
    ANSWER(fd, "1 2 2 1 2 D:1 s 1 2 E:22012 Z:E");
    send_named(fd, 'D', 'P', "p1");
    ANSWER(fd, "E:25P02 Z:E");
    send_execute(fd, "p1", 0);
    ANSWER(fd, "E:25P02 Z:E");
    send_execute(fd, "p2", 0);
    ANSWER(fd, "E:25P02 Z:E");
    send_named(fd, 'D', 'P', "pi");   /* no rows: described even now */
    ANSWER(fd, "n Z:E");
    send_named(fd, 'D', 'P', "");     /* the unnamed portal that failed */
    ANSWER(fd, "E:25P02 Z:E");
    send_execute(fd, "nope", 0);
    ANSWER(fd, "E:34000 Z:E");
    /* the names are still taken: a ROLLBACK bound to one is 42P03 */
    send_parse(fd, "sr", "ROLLBACK");
    send_bind(fd, "p2", "sr", NULL);
    ANSWER(fd, "1 E:42P03/cursor \"p2\" already exists Z:E");
    send_named(fd, 'C', 'P', "p2");
    send_named(fd, 'C', 'P', "p2");   /* closing an absent portal is no error */
    ANSWER(fd, "3 3 Z:E");
    /* the ROLLBACK drops the block's portals at once */
    send_bind(fd, "p2", "sr", NULL);
    send_execute(fd, "p2", 0);
    send_execute(fd, "p1", 0);
    ANSWER(fd, "2 C:ROLLBACK E:34000 Z:I");
    send_execute(fd, "pi", 0);
    ANSWER(fd, "E:34000 Z:I");
    /* an error after a Sync inside the block, and a simple ROLLBACK */
    QUERY(fd, "BEGIN", "C:BEGIN Z:T");
    send_bind(fd, "p3", "sa", NULL);
    ANSWER(fd, "2 Z:T");
    send_failing(fd);
    ANSWER(fd, "1 2 E:22012 Z:E");
    send_execute(fd, "p3", 2);
    ANSWER(fd, "E:25P02 Z:E");
    QUERY(fd, "ROLLBACK", "C:ROLLBACK Z:I");
    send_execute(fd, "p3", 0);
    ANSWER(fd, "E:34000 Z:I");
    /* a COMMIT of the failed block (bound after the error) drops them too */
    QUERY(fd, "BEGIN", "C:BEGIN Z:T");
    send_bind(fd, "p4", "sa", NULL);
    send_failing(fd);
    ANSWER(fd, "2 1 2 E:22012 Z:E");
    send_parse(fd, "sc", "COMMIT");
    send_bind(fd, "pc", "sc", NULL);
    send_execute(fd, "pc", 0);
    send_execute(fd, "p4", 0);
    ANSWER(fd, "1 2 C:ROLLBACK E:34000 Z:I");
    /* a Bind that fails in a block leaves a portal that was never
     * planned: NoData, EmptyQueryResponse, its name taken (PostgreSQL
     * creates the portal before it reads the values) */
    QUERY(fd, "BEGIN", "C:BEGIN Z:T");
    send_parse(fd, "sx", "SELECT $1::int");
    send_bind(fd, "px", "sx", "abc");
    ANSWER(fd, "1 E:22P02 Z:E");
    send_named(fd, 'D', 'P', "px");
    ANSWER(fd, "n Z:E");
    send_execute(fd, "px", 0);
    ANSWER(fd, "I Z:E");
    send_bind(fd, "px", "sr", NULL);
    ANSWER(fd, "E:42P03/cursor \"px\" already exists Z:E");
    send_bind(fd, "py", "sx", "1");   /* no parameters in a failed block */
    ANSWER(fd, "E:25P02 Z:E");
    QUERY(fd, "ROLLBACK", "C:ROLLBACK Z:I");
    QUERY(fd, "BEGIN", "C:BEGIN Z:T");
    QUERY(fd, "SAVEPOINT s", "C:SAVEPOINT Z:T");
    send_bind(fd, "pz", "sx", "abc");
    ANSWER(fd, "E:22P02 Z:E");
    QUERY(fd, "ROLLBACK TO s", "C:ROLLBACK Z:T");
    send_named(fd, 'D', 'P', "pz");
    ANSWER(fd, "E:34000 Z:E");
    QUERY(fd, "ROLLBACK", "C:ROLLBACK Z:I");
}

/* Savepoints: ROLLBACK TO keeps the portals bound before it. */
static void phase_savepoint(int fd)
{
    QUERY(fd, "BEGIN", "C:BEGIN Z:T");
    send_parse(fd, "sd", "SELECT 1/(a-1) FROM pa ORDER BY a");
    send_bind(fd, "q1", "sa", NULL);
    send_bind(fd, "q3", "sd", NULL);
    ANSWER(fd, "1 2 2 Z:T");
    QUERY(fd, "SAVEPOINT s", "C:SAVEPOINT Z:T");
    send_bind(fd, "q2", "sa", NULL);
    send_execute(fd, "q1", 1);
    send_execute(fd, "q3", 0);
    ANSWER(fd, "2 D:1 s E:22012 Z:E");
    send_execute(fd, "q1", 1);
    ANSWER(fd, "E:25P02 Z:E");
    QUERY(fd, "ROLLBACK TO s", "C:ROLLBACK Z:T");
    send_execute(fd, "q1", 1);   /* goes on where it stopped */
    ANSWER(fd, "D:2 s Z:T");
    send_named(fd, 'D', 'P', "q3");
    ANSWER(fd, "T Z:T");
    send_execute(fd, "q3", 0);   /* failed while running */
    ANSWER(fd, "E:55000 Z:E");
    /* ROLLBACK TO through Execute, bound after the error */
    send_parse(fd, "sb", "ROLLBACK TO s");
    send_bind(fd, "", "sb", NULL);
    send_execute(fd, "", 0);
    send_execute(fd, "q1", 0);
    ANSWER(fd, "1 2 C:ROLLBACK D:3 C:SELECT 1 Z:T");
    send_execute(fd, "q2", 0);   /* bound after the savepoint: gone */
    ANSWER(fd, "E:34000 Z:E");
    QUERY(fd, "ROLLBACK TO s", "C:ROLLBACK Z:T");
    /* RELEASE hands the inner portals to the outer level */
    QUERY(fd, "SAVEPOINT t", "C:SAVEPOINT Z:T");
    send_bind(fd, "q4", "sa", NULL);
    ANSWER(fd, "2 Z:T");
    QUERY(fd, "RELEASE t", "C:RELEASE Z:T");
    QUERY(fd, "SAVEPOINT u", "C:SAVEPOINT Z:T");
    QUERY(fd, "SELECT 1/0", "E:22012 Z:E");
    QUERY(fd, "ROLLBACK TO u", "C:ROLLBACK Z:T");
    send_execute(fd, "q4", 1);
    ANSWER(fd, "D:1 s Z:T");
    QUERY(fd, "COMMIT", "C:COMMIT Z:I");
    send_execute(fd, "q4", 1);
    ANSWER(fd, "E:34000 Z:I");
}

/* Outside a block an error ends the transaction: every portal goes. */
static void phase_implicit(int fd)
{
    send_bind(fd, "r1", "sa", NULL);
    send_execute(fd, "r1", 1);
    send_failing(fd);
    ANSWER(fd, "2 D:1 s 1 2 E:22012 Z:I");
    send_execute(fd, "r1", 1);
    ANSWER(fd, "E:34000 Z:I");
}

int main(void)
{
    const char *pg = getenv("STRATA_TEST_PG_CONNINFO");
    if (!pg)
        ptest_start(&server, NULL, NULL);
    PGconn *o = pg ? PQconnectdb(pg) : ptest_connect(&server, "");
    if (PQstatus(o) != CONNECTION_OK) {
        fprintf(stderr, "connect failed: %s", PQerrorMessage(o));
        return 1;
    }
    PQclear(ptest_exec(o, "DROP TABLE IF EXISTS pa", PGRES_COMMAND_OK));
    PQclear(ptest_exec(o, "CREATE TABLE pa (a int)", PGRES_COMMAND_OK));
    PQclear(ptest_exec(o, "INSERT INTO pa VALUES (1), (2), (3)", PGRES_COMMAND_OK));
    int fd = raw_connect(pg ? atoi(PQport(o)) : server.port);
    CHECK(fd >= 0 && raw_startup(fd, PQuser(o), PQdb(o)) == 0);
    phase_block(fd);
    phase_savepoint(fd);
    phase_implicit(fd);
    CHECK(raw_send(fd, 'X', "", 0) == 0);
    PQclear(ptest_exec(o, "DROP TABLE pa", PGRES_COMMAND_OK));
    PQfinish(o);
    if (pg) {
        printf("portal_abort (PostgreSQL): %s\n", ptest_failures ? "FAILED" : "ok");
        return ptest_failures ? 1 : 0;
    }
    return ptest_finish(&server, "portal_abort");
}
