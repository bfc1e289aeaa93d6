/*
 * harness_run.c — run one command against a throwaway Strata server.
 *
 *   harness_run [--server-arg ARG]... -- COMMAND [ARGS...]
 *   harness_run --free-port      (print a free TCP port on 127.0.0.1; for scripts)
 *
 * Starts $STRATA_BIN through the harness (free port, fresh data directory,
 * extra server arguments from --server-arg), runs COMMAND with libpq's
 * environment pointing at it (PGHOST=127.0.0.1, PGPORT, PGUSER=postgres,
 * PGDATABASE=postgres, plus STRATA_SOCKDIR = the Unix socket directory),
 * stops the server and exits with COMMAND's exit status (1 when COMMAND
 * passed but the server crashed or its log holds a sanitizer report). This
 * is how shell tests (tests/psql/) get a server without reimplementing the
 * harness; the same script runs against PostgreSQL by setting PGHOST/PGPORT
 * by hand.
 */
#include "tests/harness/harness.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum { RUN_SERVER_ARGS_MAX = 32 };

static int usage(void)
{
    fprintf(stderr, "usage: harness_run [--server-arg ARG]... -- COMMAND [ARGS...]\n"
                    "       harness_run --free-port\n");
    return 2;
}

/* fork/exec argv with the environment set for the server; its exit status. */
static int run_command(const TestServer *s, char **argv)
{
    char port[16];
    snprintf(port, sizeof port, "%d", s->port);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "harness_run: fork: %s\n", strerror(errno));
        return 1;
    }
    if (pid == 0) {
        setenv("PGHOST", "127.0.0.1", 1);
        setenv("PGPORT", port, 1);
        setenv("PGUSER", "postgres", 1);
        setenv("PGDATABASE", "postgres", 1);
        setenv("STRATA_SOCKDIR", s->sockdir, 1);
        execvp(argv[0], argv);
        fprintf(stderr, "harness_run: exec %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR)
            return 1;
    }
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    fprintf(stderr, "harness_run: %s killed by signal %d\n", argv[0], WTERMSIG(status));
    return 128 + WTERMSIG(status);
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--free-port") == 0) {
        int port = harness_free_port();
        if (port <= 0)
            return 1;
        printf("%d\n", port);
        return 0;
    }
    const char *server_args[RUN_SERVER_ARGS_MAX + 1];
    int nserver = 0;
    int i = 1;
    for (; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) {
            i++;
            break;
        }
        if (strcmp(argv[i], "--server-arg") == 0 && i + 1 < argc && nserver < RUN_SERVER_ARGS_MAX)
            server_args[nserver++] = argv[++i];
        else
            return usage();
    }
    server_args[nserver] = NULL;
    if (i >= argc)
        return usage();

    TestServer server;
    if (harness_server_start(&server, NULL, server_args) != 0)
        return 1;
    int rc = run_command(&server, argv + i);
    if (harness_server_stop_checked(&server) != 0 && rc == 0)
        rc = 1;
    return rc;
}
