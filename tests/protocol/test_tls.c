/*
 * test_tls.c — TLS: a self-signed certificate made with `openssl req` in
 * the data directory, ssl=on, hostssl/hostnossl rules. sslmode=require
 * connects over TLS with SCRAM (libpq picks SCRAM-SHA-256-PLUS, channel
 * binding tls-server-end-point); channel_binding=require proves it; a
 * plaintext connection is refused by the hostnossl reject rule; a cancel
 * (always plaintext) still reaches a TLS session.
 */
#include "tests/protocol/ptest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char hba[] =
    "local      all  all                 trust\n"
    "hostnossl  all  all  127.0.0.1/32   reject\n"
    "hostssl    all  all  127.0.0.1/32   scram-sha-256\n";

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

int main(void)
{
    char dir[512];
    if (harness_make_datadir(dir, sizeof dir) != 0)
        return 1;
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "openssl req -x509 -newkey rsa:2048 -nodes -subj /CN=localhost -days 2 "
             "-keyout '%s/server.key' -out '%s/server.crt' >/dev/null 2>&1", dir, dir);
    if (system(cmd) != 0) {
        fprintf(stderr, "openssl req failed\n");
        return 1;
    }
    write_file(dir, "strata_hba.conf", hba);
    write_file(dir, "pw", "tls-secret\n");
    char pwflag[700];
    snprintf(pwflag, sizeof pwflag, "--password-file=%s/pw", dir);
    const char *args[] = {"-c", "ssl=on", pwflag, NULL};
    TestServer s;
    ptest_start(&s, dir, args);

    PGconn *c = ptest_connect(&s, "sslmode=require password=tls-secret");
    CHECK(PQstatus(c) == CONNECTION_OK && PQsslInUse(c));
    if (PQstatus(c) == CONNECTION_OK) {
        PGresult *r = ptest_exec(c, "SELECT 40 + 2", PGRES_TUPLES_OK);
        CHECK_STR(PQgetvalue(r, 0, 0), "42");
        PQclear(r);
        CHECK(PQsendQuery(c, "SELECT 1"));   /* a plaintext cancel reaches it (may be too late: fine) */
        PGcancel *cancel = PQgetCancel(c);
        char err[256];
        CHECK(PQcancel(cancel, err, sizeof err));
        PQfreeCancel(cancel);
        while ((r = PQgetResult(c)) != NULL)
            PQclear(r);
        PQclear(ptest_exec(c, "SELECT 2", PGRES_TUPLES_OK));
    }
    PQfinish(c);
    c = ptest_connect(&s, "sslmode=require channel_binding=require password=tls-secret");
    CHECK(PQstatus(c) == CONNECTION_OK);
    PQfinish(c);
    c = ptest_connect(&s, "sslmode=require channel_binding=disable password=tls-secret");
    CHECK(PQstatus(c) == CONNECTION_OK);
    PQfinish(c);

    char buf[1024];
    c = PQconnectdb(harness_conninfo(&s, "sslmode=require password=wrong", buf, sizeof buf));
    CHECK(PQstatus(c) == CONNECTION_BAD && strstr(PQerrorMessage(c), "password authentication failed"));
    PQfinish(c);
    c = PQconnectdb(harness_conninfo(&s, "sslmode=disable password=tls-secret", buf, sizeof buf));
    CHECK(PQstatus(c) == CONNECTION_BAD && strstr(PQerrorMessage(c), "pg_hba.conf rejects connection"));
    PQfinish(c);

    int rc = ptest_finish(&s, "protocol-tls");
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return rc;
}
