/*
 * test_suspend.c — Execute with a row limit, byte by byte: Parse, Bind,
 * Execute(max 2) + Flush gives 2 DataRows and PortalSuspended; the portal
 * survives the Flush and the next Executes continue where it stopped
 * until CommandComplete; Describe portal/statement; Close; Sync.
 */
#include "tests/protocol/ptest.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static RawMsg m;

/* Read the next message and check its type. */
static void expect(int fd, char type)
{
    int rc = raw_read(fd, &m, 5000);
    CHECK(rc == 0);
    if (rc == 0 && m.type != type) {
        fprintf(stderr, "expected message '%c', got '%c' (%s)\n", type, m.type,
                m.type == 'E' ? raw_error_field(&m, 'M') : "");
        ptest_failures++;
    }
}

static void send_execute(int fd, const char *portal, int max_rows)
{
    RawBuf b = {.len = 0};
    rb_str(&b, portal);
    rb_i32(&b, max_rows);
    raw_send(fd, 'E', b.data, b.len);
}

int main(void)
{
    TestServer s;
    ptest_start(&s, NULL, NULL);
    PGconn *c = ptest_connect(&s, NULL);
    PQclear(ptest_exec(c, "CREATE TABLE r (a int); INSERT INTO r VALUES (1), (2), (3), (4), (5)",
                       PGRES_COMMAND_OK));
    int fd = raw_connect(s.port);
    CHECK(fd >= 0 && raw_startup(fd, "postgres", "postgres") == 0);

    RawBuf b = {.len = 0};
    rb_str(&b, "st");
    rb_str(&b, "SELECT a FROM r ORDER BY a");
    rb_i16(&b, 0);
    raw_send(fd, 'P', b.data, b.len);
    b.len = 0;
    rb_str(&b, "cur");       /* portal */
    rb_str(&b, "st");        /* statement */
    rb_i16(&b, 0);           /* parameter formats */
    rb_i16(&b, 0);           /* parameters */
    rb_i16(&b, 0);           /* result formats */
    raw_send(fd, 'B', b.data, b.len);
    b.len = 0;
    b.data[b.len++] = 'P';
    rb_str(&b, "cur");
    raw_send(fd, 'D', b.data, b.len);
    send_execute(fd, "cur", 2);
    raw_send(fd, 'H', NULL, 0);   /* Flush: answers must arrive without Sync */
    expect(fd, '1');
    expect(fd, '2');
    expect(fd, 'T');
    expect(fd, 'D');
    expect(fd, 'D');
    expect(fd, 's');
    send_execute(fd, "cur", 2);
    raw_send(fd, 'H', NULL, 0);
    expect(fd, 'D');
    CHECK(m.len >= 7 && memcmp(m.body + 6, "3", 1) == 0);
    expect(fd, 'D');
    expect(fd, 's');
    send_execute(fd, "cur", 2);
    raw_send(fd, 'S', NULL, 0);
    expect(fd, 'D');
    expect(fd, 'C');
    CHECK_STR(m.body, "SELECT 1");
    expect(fd, 'Z');

    /* Describe statement: ParameterDescription + RowDescription; Close. */
    b.len = 0;
    b.data[b.len++] = 'S';
    rb_str(&b, "st");
    raw_send(fd, 'D', b.data, b.len);
    raw_send(fd, 'C', b.data, b.len);   /* Close statement "st" (same body) */
    raw_send(fd, 'D', b.data, b.len);   /* now unknown: 26000 */
    send_execute(fd, "", 0);            /* skipped until Sync */
    raw_send(fd, 'S', NULL, 0);
    expect(fd, 't');
    expect(fd, 'T');
    expect(fd, '3');
    expect(fd, 'E');
    CHECK_STR(raw_error_field(&m, 'C'), "26000");
    expect(fd, 'Z');
    CHECK(m.body[0] == 'I');
    raw_send(fd, 'X', NULL, 0);
    CHECK(raw_expect_eof(fd, 2000));
    close(fd);
    PQfinish(c);
    return ptest_finish(&s, "protocol-suspend");
}
