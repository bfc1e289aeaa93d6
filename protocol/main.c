/*
 * main.c — the strata server process: start-up, logging, fast shutdown.
 *
 * Start-up, in order (every step before any thread exists):
 *   1. ignore SIGPIPE (a vanished client must not kill the server) and
 *      parse the command line (config.c; -c settings applied);
 *   2. open the data directory (store_open creates it on first start);
 *   3. --password-file: store postgres's password as a SCRAM verifier;
 *   4. load strata_hba.conf (written with loopback-only trust defaults on
 *      first start); refuse to start when listening beyond loopback with a
 *      trust rule for non-loopback addresses, unless --allow-remote-trust;
 *   5. TLS context when ssl=on;
 *   6. block SIGINT/SIGTERM in every thread, open the sockets, start the
 *      accept loop in its own thread, log "ready to accept connections";
 *   7. wait for SIGINT/SIGTERM (fast shutdown; SIGHUP is logged and
 *      ignored: nothing is reloaded yet): stop accepting, cancel
 *      running queries and wake every connection (each sends FATAL 57P01
 *      and closes), wait for them up to a few seconds, close the store.
 */
#define STRATA_PROTOCOL_INTERNAL
#include "protocol/proto_int.h"

#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include "common/password.h"
#include "storage/storage.h"

#define SHUTDOWN_WAIT_MS 5000

static atomic_bool shutting_down;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

bool proto_server_shutting_down(void)
{
    return atomic_load(&shutting_down);
}

void proto_error_adjust_for_shutdown(ErrorData *e)
{
    if (!proto_server_shutting_down() || strcmp(e->sqlstate, ERRCODE_QUERY_CANCELED) != 0)
        return;
    ErrorData fatal;
    memset(&fatal, 0, sizeof fatal);
    fatal.severity = ERR_SEV_FATAL;
    memcpy(fatal.sqlstate, ERRCODE_ADMIN_SHUTDOWN, sizeof fatal.sqlstate);
    snprintf(fatal.message, sizeof fatal.message, "terminating connection due to administrator command");
    *e = fatal;
}

void proto_log(const char *level, const char *fmt, ...)
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    struct tm tm;
    gmtime_r(&tv.tv_sec, &tm);
    char ts[64];
    strftime(ts, sizeof ts, "%Y-%m-%d %H:%M:%S", &tm);
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&log_lock);
    fprintf(stderr, "%s.%03d UTC [%d] %s:  %s\n", ts, (int)(tv.tv_usec / 1000), (int)getpid(), level, msg);
    pthread_mutex_unlock(&log_lock);
}

static _Noreturn void die(void)
{
    exit(1);
}

static void open_store(void)
{
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        store_open(proto_config.data_dir);
        err_pop(&jmp);
    } else {
        proto_log("FATAL", "could not open data directory \"%s\": %s", proto_config.data_dir,
                  err_current()->message);
        die();
    }
}

/* --password-file: first line of the file is postgres's password. */
static void set_superuser_password(const char *path)
{
    FILE *fp = fopen(path, "r");
    char line[1024];
    if (!fp || !fgets(line, sizeof line, fp)) {
        proto_log("FATAL", "could not read password file \"%s\": %s", path,
                  fp ? "file is empty" : strerror(errno));
        die();
    }
    fclose(fp);
    line[strcspn(line, "\r\n")] = '\0';
    if (!line[0]) {
        proto_log("FATAL", "password file \"%s\" is empty", path);
        die();
    }
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        char verifier[PASSWORD_VERIFIER_MAX];
        password_make_verifier("postgres", line, "scram-sha-256", verifier, sizeof verifier);
        store_role_set_password("postgres", verifier);
        err_pop(&jmp);
    } else {
        proto_log("FATAL", "could not set the password: %s", err_current()->message);
        die();
    }
    memset(line, 0, sizeof line);
}

/* Does any listen address reach beyond loopback? */
static bool listens_beyond_loopback(void)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", proto_config.listen_addresses);
    char *save = NULL;
    for (char *tok = strtok_r(buf, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
        if (strcmp(tok, "*") == 0)
            return true;
        struct addrinfo hints = {.ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE};
        struct addrinfo *res = NULL;
        if (getaddrinfo(tok, NULL, &hints, &res) != 0)
            continue;
        for (struct addrinfo *ai = res; ai; ai = ai->ai_next) {
            bool loop = ai->ai_family == AF_INET
                ? (ntohl(((struct sockaddr_in *)ai->ai_addr)->sin_addr.s_addr) >> 24) == 127
                : IN6_IS_ADDR_LOOPBACK(&((struct sockaddr_in6 *)ai->ai_addr)->sin6_addr);
            if (!loop) {
                freeaddrinfo(res);
                return true;
            }
        }
        freeaddrinfo(res);
    }
    return false;
}

static void check_hba(void)
{
    if (!proto_hba_load(proto_config.data_dir)) {
        proto_log("FATAL", "could not load strata_hba.conf");
        die();
    }
    if (listens_beyond_loopback() && proto_hba_has_remote_trust() && !proto_config.allow_remote_trust) {
        proto_log("FATAL", "trust authentication is configured for non-loopback addresses in "
                           "\"%s/strata_hba.conf\" while listening on \"%s\"",
                  proto_config.data_dir, proto_config.listen_addresses);
        proto_log("HINT", "Use scram-sha-256 for remote hosts, listen on loopback only, "
                          "or start with --allow-remote-trust.");
        die();
    }
}

static void *listener_main(void *arg)
{
    (void)arg;
    proto_listener_run();
    return NULL;
}

static void shutdown_server(pthread_t listener)
{
    atomic_store(&shutting_down, true);
    proto_listener_stop();
    pthread_join(listener, NULL);
    proto_listener_close();
    proto_log("LOG", "aborting any active transactions");
    proto_cancel_shutdown_all();
    for (int waited = 0; proto_listener_active() > 0 && waited < SHUTDOWN_WAIT_MS; waited += 10) {
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
        if (waited % 500 == 0)
            proto_cancel_shutdown_all();   /* sessions that registered meanwhile */
    }
    proto_log("LOG", "shutting down");
    if (proto_listener_active() == 0) {
        ErrJmp jmp;
        if (ERR_TRY(jmp)) {
            store_close();
            err_pop(&jmp);
        } else {
            proto_log("LOG", "error while closing the store: %s", err_current()->message);
        }
    }
    proto_log("LOG", "database system is shut down");
    if (proto_listener_active() > 0)
        _exit(0);   /* threads still stuck in I/O: don't run exit handlers under them */
}

int main(int argc, char **argv)
{
    signal(SIGPIPE, SIG_IGN);
    proto_config_parse(argc, argv);
    open_store();
    if (proto_config.password_file)
        set_superuser_password(proto_config.password_file);
    check_hba();
    if (proto_config.ssl && !proto_tls_init())
        die();

    sigset_t sigs;
    sigemptyset(&sigs);
    sigaddset(&sigs, SIGINT);
    sigaddset(&sigs, SIGTERM);
    sigaddset(&sigs, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &sigs, NULL);   /* inherited by every thread */
    proto_log("LOG", "starting strata (PostgreSQL) %s", PROTO_VERSION_STRING);
    if (!proto_listener_open())
        die();
    pthread_t listener;
    if (pthread_create(&listener, NULL, listener_main, NULL) != 0) {
        proto_log("FATAL", "could not start the listener thread");
        die();
    }
    proto_log("LOG", "database system is ready to accept connections");

    int sig = 0;
    while (sigwait(&sigs, &sig) == 0 && sig == SIGHUP)
        proto_log("LOG", "received SIGHUP: settings and strata_hba.conf are read at start only; "
                         "restart the server to apply changes");
    proto_log("LOG", "received %s shutdown request", "fast");
    shutdown_server(listener);
    return 0;
}
