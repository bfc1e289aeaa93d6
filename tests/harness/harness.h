/*
 * harness.h — start and stop a Strata server for tests.
 *
 * Each test gets its own server: a free TCP port on 127.0.0.1, a fresh
 * temporary data directory, and its Unix socket in that directory. The
 * strata binary comes from $STRATA_BIN (meson sets it for every test).
 */
#ifndef STRATA_TESTS_HARNESS_H
#define STRATA_TESTS_HARNESS_H

#include <stddef.h>
#include <sys/types.h>

typedef struct TestServer {
    int port;
    char datadir[512];    /* removed by harness_server_stop when created by the harness */
    char sockdir[512];    /* Unix socket directory (= datadir) */
    pid_t pid;
    int owns_datadir;
} TestServer;

/* A fresh empty temporary directory for a data directory (to write
 * strata_hba.conf, certificates... before the first start). 0 on success. */
int harness_make_datadir(char *out, size_t size);
/*
 * Start the server. datadir NULL = make a fresh one. extra_args: more
 * command-line arguments (NULL-terminated array, or NULL). Waits up to 10 s
 * until a connection succeeds. Returns 0 on success, -1 (with a message on
 * stderr) on failure.
 */
int harness_server_start(TestServer *s, const char *datadir, const char *const *extra_args);
/* SIGTERM, wait, and remove the data directory if the harness made it. */
void harness_server_stop(TestServer *s);
/*
 * Like harness_server_stop, and also checks how the server ended: 0 when it
 * exited with status 0 (or died of the SIGTERM itself) and its log holds no
 * AddressSanitizer / LeakSanitizer / UBSan report; -1 otherwise, with the
 * server log printed on stderr. Tests call it last to fail on server-side
 * sanitizer findings that no client could see.
 */
int harness_server_stop_checked(TestServer *s);
/* libpq conninfo for TCP: "host=127.0.0.1 port=N user=postgres dbname=postgres <extra>". */
const char *harness_conninfo(const TestServer *s, const char *extra, char *buf, size_t size);
/* A TCP port on 127.0.0.1 nobody listens on right now. */
int harness_free_port(void);

#endif
