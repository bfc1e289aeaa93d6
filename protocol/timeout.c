/*
 * timeout.c — statement_timeout: one watcher thread sets a connection's
 * interrupt flag to ERR_INTERRUPT_TIMEOUT when its statement runs past its
 * deadline; the executor's per-batch err_check_interrupts() then raises
 * 57014 "canceling statement due to statement timeout", exactly as a
 * cancel request does (common/error.h).
 *
 * Why one thread: connections are threads blocked in the executor, so the
 * deadline must be watched from outside; a single watcher sleeping until
 * the earliest deadline (pthread_cond_timedwait on CLOCK_MONOTONIC) costs
 * nothing while no statement has a timeout. The table is small and fixed
 * (one slot per connection at most); arming when it is full leaves that
 * statement without a timeout rather than failing it.
 *
 * Race: the watcher may fire just as the statement ends. proto_timeout_
 * disarm removes the slot under the mutex and then clears a TIMEOUT left in
 * the flag (compare-and-swap, so a user's cancel is kept), so a late firing
 * never cancels the next statement.
 */
#define STRATA_PROTOCOL_INTERNAL
#include "protocol/proto_int.h"

#include <pthread.h>
#include <stdatomic.h>
#include <time.h>
#include "common/error.h"

#define TIMEOUT_SLOTS 4096

typedef struct TimeoutSlot {
    atomic_int *flag;   /* NULL = free */
    struct timespec deadline;
} TimeoutSlot;

static TimeoutSlot slots[TIMEOUT_SLOTS];
static pthread_mutex_t tmo_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t tmo_cond;
static pthread_once_t tmo_once = PTHREAD_ONCE_INIT;
static atomic_bool tmo_started;

static bool ts_before(const struct timespec *a, const struct timespec *b)
{
    return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

static void *watcher(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&tmo_lock);
    for (;;) {
        struct timespec now, next = {0, 0};
        bool any = false;
        clock_gettime(CLOCK_MONOTONIC, &now);
        for (int i = 0; i < TIMEOUT_SLOTS; i++) {
            if (!slots[i].flag)
                continue;
            if (!ts_before(&now, &slots[i].deadline)) {
                atomic_store(slots[i].flag, ERR_INTERRUPT_TIMEOUT);
                slots[i].flag = NULL;
            } else if (!any || ts_before(&slots[i].deadline, &next)) {
                next = slots[i].deadline;
                any = true;
            }
        }
        if (any)
            pthread_cond_timedwait(&tmo_cond, &tmo_lock, &next);
        else
            pthread_cond_wait(&tmo_cond, &tmo_lock);
    }
    return NULL;
}

static void watcher_start(void)
{
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&tmo_cond, &attr);
    pthread_condattr_destroy(&attr);
    pthread_t t;
    if (pthread_create(&t, NULL, watcher, NULL) == 0) {
        pthread_detach(t);
        tmo_started = true;
    }
}

void proto_timeout_arm(atomic_int *flag, int timeout_ms)
{
    if (timeout_ms <= 0)
        return;
    pthread_once(&tmo_once, watcher_start);
    if (!tmo_started)
        return;
    struct timespec d;
    clock_gettime(CLOCK_MONOTONIC, &d);
    d.tv_sec += timeout_ms / 1000;
    d.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
    if (d.tv_nsec >= 1000000000L) {
        d.tv_sec++;
        d.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&tmo_lock);
    for (int i = 0; i < TIMEOUT_SLOTS; i++)
        if (!slots[i].flag) {
            slots[i].flag = flag;
            slots[i].deadline = d;
            break;
        }
    pthread_cond_signal(&tmo_cond);
    pthread_mutex_unlock(&tmo_lock);
}

void proto_timeout_disarm(atomic_int *flag)
{
    if (!tmo_started)
        return;
    pthread_mutex_lock(&tmo_lock);
    for (int i = 0; i < TIMEOUT_SLOTS; i++)
        if (slots[i].flag == flag)
            slots[i].flag = NULL;
    pthread_mutex_unlock(&tmo_lock);
    int expected = ERR_INTERRUPT_TIMEOUT;
    atomic_compare_exchange_strong(flag, &expected, ERR_INTERRUPT_NONE);
}
