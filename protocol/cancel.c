/*
 * cancel.c — the backend registry: (pid, secret key) → the session's
 * interrupt flag and socket.
 *
 * Every session gets a "pid" (a unique number: connections are threads, not
 * processes) and a random 32-bit secret key, sent in BackendKeyData. A
 * CancelRequest arrives on a new connection with both; when they match a
 * registered backend its interrupt flag is set to ERR_INTERRUPT_CANCEL,
 * and the executor raises 57014 at its next batch boundary
 * (err_check_interrupts). A wrong key is ignored silently, as in
 * PostgreSQL. The registry also counts sessions (max_connections) and lets
 * a fast shutdown wake every connection.
 */
#define STRATA_PROTOCOL_INTERNAL
#include "protocol/proto_int.h"

#include <pthread.h>
#include <string.h>
#include <unistd.h>
#include <openssl/rand.h>

#define CANCEL_SLOTS 4096

typedef struct Backend {
    int32_t pid;          /* 0 = free slot */
    int32_t key;
    atomic_int *flag;
    int fd;
} Backend;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static Backend slots[CANCEL_SLOTS];
static int32_t next_pid;
static int count;

bool proto_cancel_register(atomic_int *flag, int32_t *pid, int32_t *key)
{
    int32_t k;
    if (RAND_bytes((unsigned char *)&k, sizeof k) != 1)
        return false;
    bool ok = false;
    pthread_mutex_lock(&lock);
    if (next_pid == 0)
        next_pid = (int32_t)(getpid() % 100000) * 10 + 1;
    for (int i = 0; i < CANCEL_SLOTS; i++) {
        if (slots[i].pid != 0)
            continue;
        if (next_pid <= 0)
            next_pid = 1;
        slots[i] = (Backend){.pid = next_pid++, .key = k, .flag = flag, .fd = -1};
        *pid = slots[i].pid;
        *key = k;
        count++;
        ok = true;
        break;
    }
    pthread_mutex_unlock(&lock);
    return ok;
}

void proto_cancel_unregister(int32_t pid)
{
    pthread_mutex_lock(&lock);
    for (int i = 0; i < CANCEL_SLOTS; i++)
        if (slots[i].pid == pid) {
            memset(&slots[i], 0, sizeof slots[i]);
            count--;
            break;
        }
    pthread_mutex_unlock(&lock);
}

void proto_cancel_set_fd(int32_t pid, int fd)
{
    pthread_mutex_lock(&lock);
    for (int i = 0; i < CANCEL_SLOTS; i++)
        if (slots[i].pid == pid)
            slots[i].fd = fd;
    pthread_mutex_unlock(&lock);
}

void proto_cancel_request(int32_t pid, int32_t key)
{
    pthread_mutex_lock(&lock);
    for (int i = 0; i < CANCEL_SLOTS; i++)
        if (slots[i].pid == pid && pid != 0) {
            if (slots[i].key == key)
                atomic_store(slots[i].flag, ERR_INTERRUPT_CANCEL);
            break;
        }
    pthread_mutex_unlock(&lock);
}

void proto_cancel_shutdown_all(void)
{
    pthread_mutex_lock(&lock);
    for (int i = 0; i < CANCEL_SLOTS; i++)
        if (slots[i].pid != 0) {
            atomic_store(slots[i].flag, ERR_INTERRUPT_CANCEL);
            if (slots[i].fd >= 0)
                shutdown(slots[i].fd, SHUT_RD);
        }
    pthread_mutex_unlock(&lock);
}

int proto_cancel_count(void)
{
    pthread_mutex_lock(&lock);
    int n = count;
    pthread_mutex_unlock(&lock);
    return n;
}
