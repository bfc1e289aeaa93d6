/*
 * crash_ledger.c — crash-recovery test of the durable store: SIGKILL at
 * random moments during concurrent transfers, then check after restart that
 * every acknowledged commit is there and nothing unacknowledged is half
 * there.
 *
 * Setup: ledger(id bigint primary key, bal bigint) with ACCOUNTS rows of
 * 1000, history(id bigint primary key, a bigint, b bigint, amt bigint).
 * Each round forks a child that opens the store (running recovery) and runs
 * THREADS workers, each doing READ COMMITTED transfers in a loop: move amt
 * from account a to b (UPDATE by locator, following STORE_WRITE_MOVED to the
 * newest version as PostgreSQL's EvalPlanQual does), insert a history row,
 * commit, then report the history id to the parent through a pipe. One more
 * thread writes a CHECKPOINT every ~100 ms (every third one a VACUUM), so
 * crashes also hit checkpoints and VACUUM.
 * The parent kills the child with SIGKILL after a random 20–400 ms, opens
 * the store itself and checks:
 *   - ledger has ACCOUNTS rows and the total is ACCOUNTS * 1000;
 *   - every account is found by a primary-key point lookup;
 *   - every acknowledged history id is present;
 *   - every balance equals 1000 + (transfers in) − (transfers out) computed
 *     from history: no transaction is half applied.
 *
 * Usage: crash_ledger [--rounds N] [--threads T] [--seed S] [--dir DIR]
 * Exit status 0 when every round passed. Prints one summary line.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "common/error.h"
#include "common/vector.h"
#include "storage/storage.h"

#define ACCOUNTS 64
#define START_BAL 1000

static const char *dir;
static int ack_fd = -1;

static void die(const char *what)
{
    const ErrorData *e = err_current();
    fprintf(stderr, "crash_ledger: %s: %s %s\n", what, e ? e->sqlstate : "", e ? e->message : "");
    exit(1);
}

static StoreTable *table(const char *name)
{
    StoreTable *t = store_table_lookup("public", name);
    if (!t) {
        fprintf(stderr, "crash_ledger: table %s missing\n", name);
        exit(1);
    }
    return t;
}

static Batch *int_batch(MemArena *a, int ncols)
{
    SqlType ty[4] = {SQLTYPE(TYPE_INT8), SQLTYPE(TYPE_INT8), SQLTYPE(TYPE_INT8), SQLTYPE(TYPE_INT8)};
    return batch_create(a, ncols, ty);
}

static void set_row(Batch *b, const int64_t *vals)
{
    for (int c = 0; c < b->ncols; c++)
        ((int64_t *)b->cols[c].data)[0] = vals[c];
    b->count = 1;
}

static void setup_store(void)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        exit(1);
    ErrJmp jmp;
    if (!ERR_TRY(jmp))
        die("setup");
    store_open(dir);
    StoreColumnDef lc[] = {{"id", SQLTYPE(TYPE_INT8), false, NULL},
                           {"bal", SQLTYPE(TYPE_INT8), true, NULL}};
    StoreColumnDef hc[] = {{"id", SQLTYPE(TYPE_INT8), false, NULL},
                           {"a", SQLTYPE(TYPE_INT8), true, NULL},
                           {"b", SQLTYPE(TYPE_INT8), true, NULL},
                           {"amt", SQLTYPE(TYPE_INT8), true, NULL}};
    int pk[] = {0};
    StoreTable *l = store_table_create("public", "ledger", 2, lc, 1, pk);
    store_table_create("public", "history", 4, hc, 1, pk);
    MemArena *a = mem_arena_create("setup");
    Batch *b = int_batch(a, 2);
    for (int i = 0; i < ACCOUNTS; i++) {
        ((int64_t *)b->cols[0].data)[i] = i;
        ((int64_t *)b->cols[1].data)[i] = START_BAL;
    }
    b->count = ACCOUNTS;
    store_table_append(l, NULL, b);
    store_close();
    err_pop(&jmp);
    mem_arena_destroy(a);
}

/* ---- the child: transfers until killed ---- */

typedef struct Worker {
    int id;
    uint64_t round;
    unsigned seed;
} Worker;

/* Add delta to account acct inside x (READ COMMITTED re-check loop). */
static void add_to(StoreTable *l, StoreTxn *x, Batch *row, Batch *cur, int64_t acct, int64_t delta)
{
    Value k = {.is_null = false};
    k.u.i64 = acct;
    uint64_t rowid;
    if (!store_table_lookup_key(l, x, &k, &rowid))
        err_raise(ERRCODE_INTERNAL_ERROR, "account %lld missing", (long long)acct);
    int cols[] = {1};
    for (;;) {
        store_row_fetch(l, x, rowid, 1, cols, cur);
        int64_t vals[2] = {acct, ((int64_t *)cur->cols[0].data)[0] + delta};
        set_row(row, vals);
        uint64_t newest = rowid;
        StoreWriteResult r = store_row_update(l, x, rowid, row, 0, &newest);
        if (r == STORE_WRITE_OK)
            return;
        if (r == STORE_WRITE_GONE)
            err_raise(ERRCODE_INTERNAL_ERROR, "account %lld vanished", (long long)acct);
        rowid = newest;  /* MOVED: re-read the newest version and retry */
    }
}

static void *worker(void *p)
{
    Worker *w = p;
    MemArena *a = mem_arena_create("worker");
    StoreTable *l = table("ledger"), *h = table("history");
    Batch *row = int_batch(a, 2), *cur = int_batch(a, 1), *hist = int_batch(a, 4);
    for (uint64_t k = 0;; k++) {
        int64_t from = rand_r(&w->seed) % ACCOUNTS;
        int64_t to = (from + 1 + rand_r(&w->seed) % (ACCOUNTS - 1)) % ACCOUNTS;
        int64_t amt = 1 + rand_r(&w->seed) % 50;
        uint64_t id = (w->round << 40) | ((uint64_t)w->id << 32) | k;
        StoreTxn *x = store_txn_begin();
        ErrJmp jmp;
        if (ERR_TRY(jmp)) {
            store_txn_statement_begin(x);
            /* Rows in account order: row-level locks (storage/delta.c)
             * would otherwise deadlock two opposite transfers (40P01, as
             * in PostgreSQL). */
            if (from < to) {
                add_to(l, x, row, cur, from, -amt);
                add_to(l, x, row, cur, to, amt);
            } else {
                add_to(l, x, row, cur, to, amt);
                add_to(l, x, row, cur, from, -amt);
            }
            int64_t hv[4] = {(int64_t)id, from, to, amt};
            set_row(hist, hv);
            store_table_append(h, x, hist);
            err_pop(&jmp);
        } else {
            die("transfer");
        }
        store_txn_commit(x);
        if (write(ack_fd, &id, sizeof id) != (ssize_t)sizeof id)
            exit(1);
    }
    return NULL;
}

__attribute__((noinline)) static void maintain(bool vacuum)
{
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        if (vacuum)
            store_vacuum(NULL);  /* compaction + dead versions released, under transfers */
        else
            store_checkpoint();
        err_pop(&jmp);
    } else {
        die(vacuum ? "vacuum" : "checkpoint");
    }
}

static void *checkpointer(void *p)
{
    (void)p;
    for (unsigned n = 0;; n++) {
        usleep(100 * 1000);
        maintain(n % 3 == 2);
    }
    return NULL;
}

static _Noreturn void child(uint64_t round, int threads, unsigned seed)
{
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        store_open(dir);
        err_pop(&jmp);
    } else {
        die("open in child");
    }
    pthread_t th[64];
    Worker w[64];
    for (int i = 0; i < threads; i++) {
        w[i] = (Worker){i, round, seed * 7919u + (unsigned)i};
        pthread_create(&th[i], NULL, worker, &w[i]);
    }
    pthread_t ck;
    pthread_create(&ck, NULL, checkpointer, NULL);
    for (;;)
        pause();
}

/* ---- the parent: kill, recover, verify ---- */

typedef struct Ids {
    uint64_t *v;
    size_t n, cap;
} Ids;

static void ids_add(Ids *s, uint64_t id)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 4096;
        s->v = realloc(s->v, s->cap * sizeof *s->v);
        if (!s->v)
            exit(1);
    }
    s->v[s->n++] = id;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Read acknowledgements until the child is gone (EOF on the pipe). */
static void collect_acks(int fd, pid_t pid, int kill_ms, Ids *acked)
{
    struct timespec t0, now;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    bool killed = false;
    uint8_t buf[8192];
    size_t have = 0;
    for (;;) {
        clock_gettime(CLOCK_MONOTONIC, &now);
        long ms = (now.tv_sec - t0.tv_sec) * 1000 + (now.tv_nsec - t0.tv_nsec) / 1000000;
        if (!killed && ms >= kill_ms) {
            kill(pid, SIGKILL);
            killed = true;
        }
        struct pollfd pfd = {fd, POLLIN, 0};
        if (poll(&pfd, 1, 10) <= 0)
            continue;
        ssize_t n = read(fd, buf + have, sizeof buf - have);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        have += (size_t)n;
        size_t whole = have / 8 * 8;
        for (size_t i = 0; i < whole; i += 8) {
            uint64_t id;
            memcpy(&id, buf + i, 8);
            ids_add(acked, id);
        }
        memmove(buf, buf + whole, have - whole);
        have -= whole;
    }
}

static uint64_t verify(const Ids *acked, uint64_t *history_rows)
{
    ErrJmp jmp;
    if (!ERR_TRY(jmp))
        die("verify");
    store_open(dir);
    MemArena *a = mem_arena_create("verify");
    int64_t bal[ACCOUNTS], expect[ACCOUNTS];
    int lcols[] = {0, 1};
    StoreScan *s = store_scan_begin(table("ledger"), NULL, 2, lcols, 0, NULL, a);
    Batch b = {0};
    int n = 0;
    int64_t total = 0;
    while (store_scan_next(s, &b))
        for (uint32_t i = 0; i < b.count; i++, n++) {
            int64_t id = ((int64_t *)b.cols[0].data)[i];
            if (id < 0 || id >= ACCOUNTS)
                exit(1);
            bal[id] = ((int64_t *)b.cols[1].data)[i];
            total += bal[id];
        }
    store_scan_end(s);
    if (n != ACCOUNTS || total != (int64_t)ACCOUNTS * START_BAL) {
        fprintf(stderr, "crash_ledger: ledger has %d rows, total %lld\n", n, (long long)total);
        exit(1);
    }
    /* The primary-key index after recovery: every account by point lookup. */
    for (int i = 0; i < ACCOUNTS; i++) {
        Value k = {.is_null = false};
        k.u.i64 = i;
        uint64_t rowid;
        if (!store_table_lookup_key(table("ledger"), NULL, &k, &rowid)) {
            fprintf(stderr, "crash_ledger: account %d not found by its key\n", i);
            exit(1);
        }
    }
    for (int i = 0; i < ACCOUNTS; i++)
        expect[i] = START_BAL;
    Ids hist = {0};
    int hcols[] = {0, 1, 2, 3};
    Batch hb = {0};
    s = store_scan_begin(table("history"), NULL, 4, hcols, 0, NULL, a);
    while (store_scan_next(s, &hb))
        for (uint32_t i = 0; i < hb.count; i++) {
            int64_t *c0 = hb.cols[0].data, *c1 = hb.cols[1].data, *c2 = hb.cols[2].data,
                    *c3 = hb.cols[3].data;
            ids_add(&hist, (uint64_t)c0[i]);
            expect[c1[i]] -= c3[i];
            expect[c2[i]] += c3[i];
        }
    store_scan_end(s);
    for (int i = 0; i < ACCOUNTS; i++)
        if (expect[i] != bal[i]) {
            fprintf(stderr, "crash_ledger: account %d has %lld, history says %lld\n", i,
                    (long long)bal[i], (long long)expect[i]);
            exit(1);
        }
    qsort(hist.v, hist.n, sizeof *hist.v, cmp_u64);
    for (size_t i = 0; i < acked->n; i++)
        if (!bsearch(&acked->v[i], hist.v, hist.n, sizeof *hist.v, cmp_u64)) {
            fprintf(stderr, "crash_ledger: acknowledged commit %llx lost\n",
                    (unsigned long long)acked->v[i]);
            exit(1);
        }
    *history_rows = hist.n;
    free(hist.v);
    mem_arena_destroy(a);
    store_close();
    err_pop(&jmp);
    return acked->n;
}

int main(int argc, char **argv)
{
    int rounds = 20, threads = 4;
    unsigned seed = (unsigned)time(NULL);
    dir = "/tmp/strata-crash-ledger";
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--rounds") == 0)
            rounds = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--threads") == 0)
            threads = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--seed") == 0)
            seed = (unsigned)strtoul(argv[i + 1], NULL, 10);
        else if (strcmp(argv[i], "--dir") == 0)
            dir = argv[i + 1];
    }
    if (threads < 1 || threads > 64)
        threads = 4;
    char own_dir[256];
    if (strcmp(dir, "/tmp/strata-crash-ledger") == 0) {
        snprintf(own_dir, sizeof own_dir, "/tmp/strata-crash-ledger-%d", (int)getpid());
        dir = own_dir;
    }
    srand(seed);
    setup_store();
    Ids acked = {0};
    uint64_t history = 0;
    for (int r = 1; r <= rounds; r++) {
        int fds[2];
        if (pipe(fds) != 0)
            return 1;
        pid_t pid = fork();
        if (pid == 0) {
            close(fds[0]);
            ack_fd = fds[1];
            child((uint64_t)r, threads, seed + (unsigned)r);
        }
        close(fds[1]);
        collect_acks(fds[0], pid, 20 + rand() % 380, &acked);
        close(fds[0]);
        int status;
        waitpid(pid, &status, 0);
        if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGKILL) {
            fprintf(stderr, "crash_ledger: round %d: child exited with status %d\n", r, status);
            return 1;
        }
        verify(&acked, &history);
    }
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        return 1;
    printf("crash_ledger: %d rounds (seed %u, %d threads): %zu acknowledged commits all present, "
           "%llu history rows, ledger total constant\n",
           rounds, seed, threads, acked.n, (unsigned long long)history);
    free(acked.v);
    return 0;
}
