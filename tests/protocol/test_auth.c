/*
 * test_auth.c — authentication chosen by strata_hba.conf rules written
 * before the first start: SCRAM-SHA-256 (password from --password-file),
 * cleartext password, md5 (after ALTER ROLE stores an md5 verifier), the
 * md5 rule falling back to SCRAM for a SCRAM verifier, reject, no matching
 * rule, unknown role; wrong passwords fail with 28P01.
 */
#include "tests/protocol/ptest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char hba[] =
    "local     all       all                  trust\n"
    "host      md5db     all   127.0.0.1/32   md5\n"
    "host      pwdb      all   127.0.0.0 255.0.0.0   password\n"
    "host      rejectdb  all   127.0.0.1/32   reject\n"
    "host      postgres  all   127.0.0.1/32   scram-sha-256\n";

static void write_file(const char *dir, const char *name, const char *text)
{
    char path[700];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
        fprintf(stderr, "cannot write %s\n", path);
        exit(1);
    }
}

/* Connect and report whether it worked; error text in err. */
static int try_connect(const TestServer *s, const char *extra, char *err, size_t size)
{
    char buf[1024];
    PGconn *c = PQconnectdb(harness_conninfo(s, extra, buf, sizeof buf));
    int ok = PQstatus(c) == CONNECTION_OK;
    snprintf(err, size, "%s", PQerrorMessage(c));
    PQfinish(c);
    return ok;
}

/* pwdb and md5db must exist (a missing database is FATAL 3D000): created
 * over the Unix socket, where strata_hba.conf trusts. */
static void create_databases(const TestServer *s)
{
    char conninfo[1024];
    snprintf(conninfo, sizeof conninfo, "host=%s port=%d user=postgres dbname=postgres", s->sockdir, s->port);
    PGconn *u = PQconnectdb(conninfo);
    CHECK(PQstatus(u) == CONNECTION_OK);
    if (PQstatus(u) == CONNECTION_OK) {
        PQclear(ptest_exec(u, "CREATE DATABASE pwdb", PGRES_COMMAND_OK));
        PQclear(ptest_exec(u, "CREATE DATABASE md5db", PGRES_COMMAND_OK));
    }
    PQfinish(u);
    snprintf(conninfo, sizeof conninfo, "host=%s port=%d user=postgres dbname=nosuchdb", s->sockdir, s->port);
    u = PQconnectdb(conninfo);
    CHECK(PQstatus(u) == CONNECTION_BAD && strstr(PQerrorMessage(u), "database \"nosuchdb\" does not exist"));
    PQfinish(u);
}

static void expect_ok(const TestServer *s, const char *extra)
{
    char err[1024];
    if (!try_connect(s, extra, err, sizeof err)) {
        fprintf(stderr, "connect (%s) should work: %s", extra, err);
        ptest_failures++;
    }
}

static void expect_fail(const TestServer *s, const char *extra, const char *text)
{
    char err[1024];
    if (try_connect(s, extra, err, sizeof err) || !strstr(err, text)) {
        fprintf(stderr, "connect (%s) should fail with \"%s\": %s\n", extra, text, err);
        ptest_failures++;
    }
}

/* Cleartext password over a raw socket: the SQLSTATE of a wrong one. */
static void check_password_sqlstate(int port)
{
    int fd = raw_connect(port);
    RawBuf b = {.len = 0};
    rb_i32(&b, 0);
    rb_i32(&b, 3 << 16);
    rb_str(&b, "user");
    rb_str(&b, "postgres");
    rb_str(&b, "database");
    rb_str(&b, "pwdb");
    b.data[b.len++] = '\0';
    b.data[3] = (char)b.len;   /* length < 256: only the low byte is non-zero */
    CHECK(fd >= 0 && raw_write(fd, b.data, b.len) == 0);
    static RawMsg m;
    CHECK(raw_read(fd, &m, 5000) == 0 && m.type == 'R' && m.body[3] == 3);
    raw_send(fd, 'p', "wrong", 6);
    CHECK(raw_read(fd, &m, 5000) == 0 && m.type == 'E');
    CHECK_STR(raw_error_field(&m, 'C'), "28P01");
    CHECK_STR(raw_error_field(&m, 'S'), "FATAL");
    CHECK_STR(raw_error_field(&m, 'M'), "password authentication failed for user \"postgres\"");
    CHECK(raw_expect_eof(fd, 2000));
    close(fd);
}

static const char *wrong_pw = "password authentication failed for user \"postgres\"";

int main(void)
{
    char dir[512];
    if (harness_make_datadir(dir, sizeof dir) != 0)
        return 1;
    write_file(dir, "strata_hba.conf", hba);
    write_file(dir, "pw", "secret-pw\n");
    char pwflag[700];
    snprintf(pwflag, sizeof pwflag, "--password-file=%s/pw", dir);
    const char *args[] = {pwflag, NULL};
    TestServer s;
    ptest_start(&s, dir, args);
    create_databases(&s);

    expect_ok(&s, "password=secret-pw");
    expect_ok(&s, "password=secret-pw channel_binding=disable");
    expect_fail(&s, "password=wrong", wrong_pw);
    expect_ok(&s, "dbname=pwdb password=secret-pw");
    expect_fail(&s, "dbname=pwdb password=wrong", wrong_pw);
    expect_ok(&s, "dbname=md5db password=secret-pw");   /* SCRAM verifier: md5 rule uses SCRAM */
    expect_fail(&s, "dbname=rejectdb password=secret-pw", "pg_hba.conf rejects connection");
    expect_fail(&s, "dbname=otherdb password=secret-pw",
                "no pg_hba.conf entry for host \"127.0.0.1\", user \"postgres\", database \"otherdb\", no encryption");
    check_password_sqlstate(s.port);

    /* Over the Unix socket (trust): unknown role, then an md5 verifier. */
    char conninfo[1024];
    snprintf(conninfo, sizeof conninfo, "host=%s port=%d user=nobody dbname=postgres", s.sockdir, s.port);
    PGconn *u = PQconnectdb(conninfo);
    CHECK(PQstatus(u) == CONNECTION_BAD && strstr(PQerrorMessage(u), "role \"nobody\" does not exist"));
    PQfinish(u);
    snprintf(conninfo, sizeof conninfo, "host=%s port=%d user=postgres dbname=postgres", s.sockdir, s.port);
    u = PQconnectdb(conninfo);
    CHECK(PQstatus(u) == CONNECTION_OK);
    if (PQstatus(u) == CONNECTION_OK) {
        char *md5 = PQencryptPasswordConn(u, "secret-pw", "postgres", "md5");
        char sql[256];
        snprintf(sql, sizeof sql, "ALTER ROLE postgres PASSWORD '%s'", md5 ? md5 : "");
        PQfreemem(md5);
        PQclear(ptest_exec(u, sql, PGRES_COMMAND_OK));
    }
    PQfinish(u);
    expect_ok(&s, "dbname=md5db password=secret-pw");
    expect_fail(&s, "dbname=md5db password=wrong", wrong_pw);
    expect_ok(&s, "dbname=pwdb password=secret-pw");
    /* SCRAM cannot use an md5 verifier, as in PostgreSQL */
    expect_fail(&s, "password=secret-pw", wrong_pw);

    int rc = ptest_finish(&s, "protocol-auth");
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return rc;
}
