/*
 * listener.c — listen sockets and the accept loop.
 *
 * TCP sockets for each of listen_addresses ("*" = every IPv4 and IPv6
 * address, "" = none) and a Unix-domain socket ".s.PGSQL.<port>" in each of
 * unix_socket_directories. The accept loop polls them plus a wake-up pipe
 * (written by proto_listener_stop at shutdown) and starts one detached
 * thread per accepted connection (conn.c). A bind failure on one address
 * is logged and the others are used, as PostgreSQL does; no socket at all
 * stops the server.
 */
#define STRATA_PROTOCOL_INTERNAL
#include "protocol/proto_int.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#define LISTEN_BACKLOG 256
#define THREAD_STACK_BYTES (8u << 20)

typedef struct Listener {
    int fd;
    bool is_unix;
    char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
} Listener;

static Listener listeners[PROTO_MAX_LISTEN];
static int nlisteners;
static int wake_pipe[2] = {-1, -1};
static atomic_int active_threads;
static atomic_bool stopping;

void proto_listener_conn_ended(void)
{
    atomic_fetch_sub(&active_threads, 1);
}

int proto_listener_active(void)
{
    return atomic_load(&active_threads);
}

static void add_listener(int fd, bool is_unix, const char *path)
{
    listeners[nlisteners].fd = fd;
    listeners[nlisteners].is_unix = is_unix;
    snprintf(listeners[nlisteners].path, sizeof listeners[nlisteners].path, "%s", path ? path : "");
    nlisteners++;
}

static void open_tcp(const char *host)
{
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE};
    struct addrinfo *res = NULL;
    char port[16];
    snprintf(port, sizeof port, "%d", proto_config.port);
    int rc = getaddrinfo(strcmp(host, "*") == 0 ? NULL : host, port, &hints, &res);
    if (rc != 0) {
        proto_log("LOG", "could not translate host name \"%s\", service \"%s\" to address: %s",
                  host, port, gai_strerror(rc));
        return;
    }
    for (struct addrinfo *ai = res; ai && nlisteners < PROTO_MAX_LISTEN; ai = ai->ai_next) {
        char text[INET6_ADDRSTRLEN] = "";
        const void *a = ai->ai_family == AF_INET ? (const void *)&((struct sockaddr_in *)ai->ai_addr)->sin_addr
                                                 : (const void *)&((struct sockaddr_in6 *)ai->ai_addr)->sin6_addr;
        inet_ntop(ai->ai_family, a, text, sizeof text);
        const char *fam = ai->ai_family == AF_INET ? "IPv4" : "IPv6";
        int fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0)
            continue;
        int one = 1;
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (ai->ai_family == AF_INET6)
            setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
        if (bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 || listen(fd, LISTEN_BACKLOG) != 0) {
            proto_log("LOG", "could not bind %s address \"%s\": %s", fam, text, strerror(errno));
            close(fd);
            continue;
        }
        proto_log("LOG", "listening on %s address \"%s\", port %d", fam, text, proto_config.port);
        add_listener(fd, false, NULL);
    }
    freeaddrinfo(res);
}

static void open_unix(const char *dir)
{
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    int n = snprintf(sa.sun_path, sizeof sa.sun_path, "%s/.s.PGSQL.%d", dir, proto_config.port);
    if (n < 0 || (size_t)n >= sizeof sa.sun_path) {
        proto_log("LOG", "Unix-domain socket path \"%s/.s.PGSQL.%d\" is too long", dir, proto_config.port);
        return;
    }
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return;
    /* A socket file nobody answers on is left over from a crash: remove it. */
    if (connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0) {
        proto_log("LOG", "another server is listening on Unix socket \"%s\"", sa.sun_path);
        close(fd);
        return;
    }
    close(fd);
    unlink(sa.sun_path);
    fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(fd, LISTEN_BACKLOG) != 0) {
        proto_log("LOG", "could not create Unix socket \"%s\": %s", sa.sun_path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return;
    }
    chmod(sa.sun_path, 0777);
    proto_log("LOG", "listening on Unix socket \"%s\"", sa.sun_path);
    add_listener(fd, true, sa.sun_path);
}

/* Call fn on each trimmed element of a comma list. */
static void each_item(const char *list, void (*fn)(const char *))
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", list);
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        while (*tok == ' ')
            tok++;
        char *end = tok + strlen(tok);
        while (end > tok && end[-1] == ' ')
            *--end = '\0';
        if (*tok)
            fn(tok);
    }
}

bool proto_listener_open(void)
{
    each_item(proto_config.listen_addresses, open_tcp);
    int ntcp = nlisteners;
    if (proto_config.listen_addresses[0] && ntcp == 0) {
        proto_log("FATAL", "could not create any TCP/IP sockets");
        return false;
    }
    each_item(proto_config.socket_dirs, open_unix);
    if (proto_config.socket_dirs[0] && nlisteners == ntcp) {
        proto_log("FATAL", "could not create any Unix-domain sockets");
        return false;
    }
    if (nlisteners == 0) {
        proto_log("FATAL", "no socket created for listening");
        return false;
    }
    if (pipe2(wake_pipe, O_CLOEXEC) != 0) {
        proto_log("FATAL", "could not create pipe: %s", strerror(errno));
        return false;
    }
    return true;
}

static void start_connection(int fd, const struct sockaddr_storage *peer, bool is_unix)
{
    /* Connections past max_connections still get a thread so they can
     * receive their 53300 error; a hard cap protects the process. */
    if (atomic_load(&active_threads) >= proto_config.max_connections * 2 + 16) {
        close(fd);
        return;
    }
    ProtoConn *c = calloc(1, sizeof *c);
    if (!c) {
        close(fd);
        return;
    }
    c->fd = fd;
    c->is_local = is_unix;
    c->peer = *peer;
    if (is_unix) {
        snprintf(c->peer_text, sizeof c->peer_text, "[local]");
    } else {
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof one);
        getnameinfo((const struct sockaddr *)peer, sizeof *peer, c->peer_text, sizeof c->peer_text,
                    NULL, 0, NI_NUMERICHOST);
    }
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attr, THREAD_STACK_BYTES);
    pthread_t tid;
    atomic_fetch_add(&active_threads, 1);
    if (pthread_create(&tid, &attr, proto_conn_main, c) != 0) {
        atomic_fetch_sub(&active_threads, 1);
        proto_log("LOG", "could not create connection thread");
        close(fd);
        free(c);
    }
    pthread_attr_destroy(&attr);
}

void proto_listener_run(void)
{
    struct pollfd pfd[PROTO_MAX_LISTEN + 1];
    for (int i = 0; i < nlisteners; i++)
        pfd[i] = (struct pollfd){.fd = listeners[i].fd, .events = POLLIN};
    pfd[nlisteners] = (struct pollfd){.fd = wake_pipe[0], .events = POLLIN};
    while (!atomic_load(&stopping)) {
        int n = poll(pfd, (nfds_t)nlisteners + 1, -1);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            proto_log("LOG", "poll() failed: %s", strerror(errno));
            break;
        }
        if (pfd[nlisteners].revents)
            break;
        for (int i = 0; i < nlisteners; i++) {
            if (!(pfd[i].revents & POLLIN))
                continue;
            struct sockaddr_storage peer;
            socklen_t plen = sizeof peer;
            memset(&peer, 0, sizeof peer);
            int fd = accept4(listeners[i].fd, (struct sockaddr *)&peer, &plen, SOCK_CLOEXEC);
            if (fd < 0) {
                if (errno == EMFILE || errno == ENFILE)
                    usleep(10000);   /* out of descriptors: don't spin */
                continue;            /* keep serving the others */
            }
            start_connection(fd, &peer, listeners[i].is_unix);
        }
    }
}

void proto_listener_stop(void)
{
    atomic_store(&stopping, true);
    if (wake_pipe[1] >= 0) {
        char b = 1;
        ssize_t rc = write(wake_pipe[1], &b, 1);
        (void)rc;
    }
}

/* Close listen sockets and remove socket files (after the loop returned). */
void proto_listener_close(void)
{
    for (int i = 0; i < nlisteners; i++) {
        close(listeners[i].fd);
        if (listeners[i].is_unix)
            unlink(listeners[i].path);
    }
    nlisteners = 0;
}
