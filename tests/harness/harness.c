/*
 * harness.c — start and stop a throwaway Strata server for one test.
 *
 * Every test that talks to a server (the sqllogictest runner, the protocol
 * tests, the psql test) gets its own process: a free TCP port on 127.0.0.1,
 * a fresh mkdtemp() data directory that also holds the Unix socket and the
 * server's log, and a readiness wait that polls a TCP connect. This is what
 * lets meson run the SQL files in parallel without them seeing each other.
 *
 * The binary comes from $STRATA_BIN; its command line is PostgreSQL's:
 *   $STRATA_BIN -D dir -p port -h 127.0.0.1 -k dir [extra args...]
 * stdout and stderr go to dir/server.log, printed on stderr when the server
 * fails to come up, so a failing start explains itself.
 */
#include "tests/harness/harness.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum {
    HARNESS_START_TIMEOUT_MS = 10000, /* the server must accept within this */
    HARNESS_STOP_TIMEOUT_MS = 5000,   /* after SIGTERM, before SIGKILL */
    HARNESS_POLL_MS = 20,
    HARNESS_ARGS_MAX = 64,
};

static void sleep_ms(int ms)
{
    struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int harness_free_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    struct sockaddr_in addr;
    memset(&addr, 0, sizeof addr);
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0; /* the kernel picks a free one */
    socklen_t len = sizeof addr;
    int port = -1;
    if (bind(fd, (struct sockaddr *)&addr, sizeof addr) == 0
        && getsockname(fd, (struct sockaddr *)&addr, &len) == 0)
        port = ntohs(addr.sin_port);
    close(fd);
    return port;
}

int harness_make_datadir(char *out, size_t size)
{
    const char *tmp = getenv("TMPDIR");
    if (tmp == NULL || tmp[0] == '\0')
        tmp = "/tmp";
    int n = snprintf(out, size, "%s/strata-test-XXXXXX", tmp);
    if (n < 0 || (size_t)n >= size) {
        fprintf(stderr, "harness: temp directory path too long\n");
        return -1;
    }
    if (mkdtemp(out) == NULL) {
        fprintf(stderr, "harness: mkdtemp(%s): %s\n", out, strerror(errno));
        return -1;
    }
    return 0;
}

/* rm -r path; best effort, errors ignored (a leftover temp dir is harmless). */
static void remove_tree(const char *path)
{
    DIR *d = opendir(path);
    if (d != NULL) {
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            char child[1024];
            int n = snprintf(child, sizeof child, "%s/%s", path, e->d_name);
            if (n < 0 || (size_t)n >= sizeof child)
                continue;
            struct stat st;
            if (lstat(child, &st) == 0 && S_ISDIR(st.st_mode))
                remove_tree(child);
            else
                unlink(child);
        }
        closedir(d);
    }
    rmdir(path);
}

/* 1 when something accepts a TCP connection on 127.0.0.1:port. */
static int port_accepts(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return 0;
    struct sockaddr_in addr;
    memset(&addr, 0, sizeof addr);
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons((uint16_t)port);
    int ok = connect(fd, (struct sockaddr *)&addr, sizeof addr) == 0;
    close(fd);
    return ok;
}

/* Copy the server log to stderr so a failed start explains itself. */
static void dump_log(const TestServer *s)
{
    char path[600];
    snprintf(path, sizeof path, "%s/server.log", s->datadir);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return;
    fprintf(stderr, "---- %s ----\n", path);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        fwrite(buf, 1, n, stderr);
    fprintf(stderr, "---- end of server log ----\n");
    fclose(f);
}

/* In the child: redirect output to the log and exec the server. Never returns. */
static void exec_server(const char *bin, const TestServer *s, const char *const *extra)
{
    char path[600], port[16];
    snprintf(path, sizeof path, "%s/server.log", s->datadir);
    snprintf(port, sizeof port, "%d", s->port);
    /* If the test dies (a meson timeout kills it), take the server along
     * instead of leaving it running. Tied to the forking thread: start
     * servers from a thread that outlives them (normally the main one). */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() == 1)
        _exit(1); /* the parent died before prctl took effect */
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0600);
    if (fd >= 0) {
        dup2(fd, STDOUT_FILENO);
        dup2(fd, STDERR_FILENO);
        close(fd);
    }
    const char *argv[HARNESS_ARGS_MAX + 12];
    int argc = 0;
    argv[argc++] = bin;
    argv[argc++] = "-D";
    argv[argc++] = s->datadir;
    argv[argc++] = "-p";
    argv[argc++] = port;
    argv[argc++] = "-h";
    argv[argc++] = "127.0.0.1";
    argv[argc++] = "-k";
    argv[argc++] = s->sockdir;
    for (int i = 0; extra != NULL && extra[i] != NULL && i < HARNESS_ARGS_MAX; i++)
        argv[argc++] = extra[i];
    argv[argc] = NULL;
    execv(bin, (char *const *)argv);
    fprintf(stderr, "harness: exec %s: %s\n", bin, strerror(errno));
    _exit(127);
}

/* Poll until the port accepts, the child dies, or the timeout passes. */
static int wait_ready(TestServer *s)
{
    long long deadline = now_ms() + HARNESS_START_TIMEOUT_MS;
    while (now_ms() < deadline) {
        int status;
        pid_t r = waitpid(s->pid, &status, WNOHANG);
        if (r == s->pid) {
            if (WIFEXITED(status))
                fprintf(stderr, "harness: server exited during start-up with status %d\n",
                        WEXITSTATUS(status));
            else
                fprintf(stderr, "harness: server killed by signal %d during start-up\n",
                        WIFSIGNALED(status) ? WTERMSIG(status) : 0);
            s->pid = 0;
            return -1;
        }
        if (port_accepts(s->port))
            return 0;
        sleep_ms(HARNESS_POLL_MS);
    }
    fprintf(stderr, "harness: server did not accept on port %d within %d ms\n", s->port,
            HARNESS_START_TIMEOUT_MS);
    return -1;
}

int harness_server_start(TestServer *s, const char *datadir, const char *const *extra_args)
{
    memset(s, 0, sizeof *s);
    const char *bin = getenv("STRATA_BIN");
    if (bin == NULL || bin[0] == '\0') {
        fprintf(stderr, "harness: STRATA_BIN is not set\n");
        return -1;
    }
    if (datadir == NULL) {
        if (harness_make_datadir(s->datadir, sizeof s->datadir) != 0)
            return -1;
        s->owns_datadir = 1;
    } else if ((size_t)snprintf(s->datadir, sizeof s->datadir, "%s", datadir) >= sizeof s->datadir) {
        fprintf(stderr, "harness: data directory path too long\n");
        return -1;
    }
    snprintf(s->sockdir, sizeof s->sockdir, "%s", s->datadir);
    s->port = harness_free_port();
    if (s->port <= 0) {
        fprintf(stderr, "harness: no free port: %s\n", strerror(errno));
        harness_server_stop(s);
        return -1;
    }
    fflush(NULL); /* don't let the child flush our buffered output twice */
    s->pid = fork();
    if (s->pid < 0) {
        fprintf(stderr, "harness: fork: %s\n", strerror(errno));
        s->pid = 0;
        harness_server_stop(s);
        return -1;
    }
    if (s->pid == 0)
        exec_server(bin, s, extra_args);
    if (wait_ready(s) != 0) {
        dump_log(s);
        harness_server_stop(s);
        return -1;
    }
    return 0;
}

/* waitpid with a deadline; 1 when the child was reaped (its wait status in
 * *status, or -1 when it was already gone). */
static int reap_within(pid_t pid, int timeout_ms, int *status)
{
    long long deadline = now_ms() + timeout_ms;
    for (;;) {
        pid_t r = waitpid(pid, status, WNOHANG);
        if (r == pid)
            return 1;
        if (r < 0 && errno == ECHILD) {
            *status = -1;
            return 1;
        }
        if (now_ms() >= deadline)
            return 0;
        sleep_ms(HARNESS_POLL_MS);
    }
}

/* SIGTERM (then SIGKILL) and reap. 0 when the server ended cleanly: exit
 * status 0, or death by the SIGTERM itself. */
static int terminate(TestServer *s)
{
    if (s->pid <= 0)
        return 0;
    int status = 0, clean = 1;
    kill(s->pid, SIGTERM);
    if (!reap_within(s->pid, HARNESS_STOP_TIMEOUT_MS, &status)) {
        fprintf(stderr, "harness: server %d ignored SIGTERM for %d ms, killing it\n",
                (int)s->pid, HARNESS_STOP_TIMEOUT_MS);
        kill(s->pid, SIGKILL);
        reap_within(s->pid, HARNESS_STOP_TIMEOUT_MS, &status);
        clean = 0;
    } else if (status != -1 && WIFEXITED(status) && WEXITSTATUS(status) != 0) {
        fprintf(stderr, "harness: server exited with status %d\n", WEXITSTATUS(status));
        clean = 0;
    } else if (status != -1 && WIFSIGNALED(status) && WTERMSIG(status) != SIGTERM) {
        fprintf(stderr, "harness: server killed by signal %d\n", WTERMSIG(status));
        clean = 0;
    }
    s->pid = 0;
    return clean ? 0 : -1;
}

/* 1 when the server log holds a sanitizer report (ASan, LSan, UBSan). */
static int log_has_sanitizer_report(const TestServer *s)
{
    char path[600], line[1024];
    snprintf(path, sizeof path, "%s/server.log", s->datadir);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return 0;
    int found = 0;
    while (!found && fgets(line, sizeof line, f) != NULL)
        found = strstr(line, "ERROR: AddressSanitizer") != NULL
             || strstr(line, "ERROR: LeakSanitizer") != NULL
             || strstr(line, "runtime error:") != NULL;
    fclose(f);
    return found;
}

static void remove_owned_datadir(TestServer *s)
{
    if (s->owns_datadir && s->datadir[0] != '\0') {
        remove_tree(s->datadir);
        s->owns_datadir = 0;
    }
}

void harness_server_stop(TestServer *s)
{
    terminate(s);
    remove_owned_datadir(s);
}

int harness_server_stop_checked(TestServer *s)
{
    int rc = terminate(s);
    if (log_has_sanitizer_report(s)) {
        fprintf(stderr, "harness: the server log holds a sanitizer report\n");
        rc = -1;
    }
    if (rc != 0)
        dump_log(s);
    remove_owned_datadir(s);
    return rc;
}

const char *harness_conninfo(const TestServer *s, const char *extra, char *buf, size_t size)
{
    snprintf(buf, size, "host=127.0.0.1 port=%d user=postgres dbname=postgres%s%s", s->port,
             extra != NULL && extra[0] != '\0' ? " " : "", extra != NULL ? extra : "");
    return buf;
}
