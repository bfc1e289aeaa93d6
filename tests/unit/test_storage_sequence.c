/*
 * test_storage_sequence.c — sequences in storage/sequence.c: PostgreSQL's
 * nextval arithmetic and log-ahead state (log_cnt), limits (2200H), setval
 * bounds (22003), and durability: across store_close/store_open, across a
 * checkpoint, and across a crash (a child process SIGKILLs itself after
 * taking values; the parent recovers the directory and checks that no
 * value is handed out twice).
 */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "common/error.h"
#include "common/types.h"
#include "storage/storage.h"

#define STORAGE_FIXTURE_TAG "seq"
#include "storage_fixture.h"

static StoreSeqDef def_int8(int64_t start, int64_t inc)
{
    StoreSeqDef d = {.type_oid = TYPE_INT8, .start = start, .increment = inc, .min_value = 1,
                     .max_value = INT64_MAX, .cache = 1};
    if (inc < 0) {
        d.min_value = INT64_MIN;
        d.max_value = -1;
    }
    return d;
}

static uint32_t create(const char *name, StoreSeqDef d)
{
    uint32_t oid = 0;
    NO_ERROR(oid = store_seq_create("public", name, &d));
    cr_assert_neq(oid, 0);
    return oid;
}

static int64_t next1(uint32_t oid)
{
    int64_t v = 0;
    NO_ERROR(store_seq_nextval(oid, 1, &v));
    return v;
}

TestSuite(storage_sequence, .init = storage_setup, .fini = storage_teardown);

Test(storage_sequence, nextval_and_log_cnt_as_postgresql)
{
    uint32_t oid = create("s", def_int8(1, 1));
    StoreSeqInfo in;
    cr_assert(store_seq_info(oid, &in));
    cr_assert_eq(in.last_value, 1);
    cr_assert_eq(in.is_called, false);
    cr_assert_eq(next1(oid), 1);
    cr_assert(store_seq_info(oid, &in));
    cr_assert_eq(in.log_cnt, 32);   /* PostgreSQL: last_value 1, log_cnt 32, is_called t */
    cr_assert_eq(next1(oid), 2);
    cr_assert(store_seq_info(oid, &in));
    cr_assert_eq(in.log_cnt, 31);
    int64_t v[5000];
    NO_ERROR(store_seq_nextval(oid, 5000, v));
    for (int i = 0; i < 5000; i++)
        cr_assert_eq(v[i], 3 + i);
    int64_t cur = 0;
    cr_assert(store_seq_currval(oid, &cur));
    cr_assert_eq(cur, 5002);
    uint32_t last_oid = 0;
    cr_assert(store_seq_lastval(&last_oid, &cur));
    cr_assert_eq(last_oid, oid);
    StoreSeqDef again = def_int8(1, 1);
    EXPECT_ERROR_MSG("42P07", "relation \"s\" already exists", store_seq_create("public", "s", &again));
    cr_assert_eq(store_seq_lookup("public", "s"), oid);
    cr_assert_eq(store_seq_lookup("public", "nope"), 0);
}

Test(storage_sequence, limits_cycle_and_setval)
{
    StoreSeqDef d = def_int8(1, 2);
    d.max_value = 5;
    uint32_t oid = create("lim", d);
    cr_assert_eq(next1(oid), 1);
    cr_assert_eq(next1(oid), 3);
    cr_assert_eq(next1(oid), 5);
    int64_t v;
    EXPECT_ERROR_MSG("2200H", "nextval: reached maximum value of sequence \"lim\" (5)",
                 store_seq_nextval(oid, 1, &v));
    d.cycle = true;
    NO_ERROR(store_seq_alter(oid, &d, false, 0));
    cr_assert_eq(next1(oid), 1);   /* cycles to MINVALUE */
    EXPECT_ERROR_MSG("22003", "setval: value 9 is out of bounds for sequence \"lim\" (1..5)",
                 store_seq_setval(oid, 9, true));
    NO_ERROR(store_seq_setval(oid, 4, false));
    cr_assert_eq(next1(oid), 4);
    uint32_t down = create("down", def_int8(-1, -1));
    cr_assert_eq(next1(down), -1);
    cr_assert_eq(next1(down), -2);
}

Test(storage_sequence, durable_across_restart_and_checkpoint)
{
    uint32_t oid = create("d", def_int8(10, 10));
    cr_assert_eq(next1(oid), 10);
    cr_assert_eq(next1(oid), 20);
    store_close();
    NO_ERROR(store_open(dir));
    /* PostgreSQL resumes after the logged-ahead state (32 values further). */
    int64_t v = next1(oid);
    cr_assert_gt(v, 20);
    cr_assert_leq(v, 20 + 10 * (STORE_SEQ_LOG_VALS + 2));
    NO_ERROR(store_checkpoint());
    int64_t w = next1(oid);
    store_close();
    NO_ERROR(store_open(dir));
    cr_assert_gt(next1(oid), w);
    StoreSeqInfo in;
    cr_assert(store_seq_info(oid, &in));
    cr_assert_str_eq(in.name, "d");
    cr_assert_eq(in.def.increment, 10);
    /* setval and drop are durable too */
    NO_ERROR(store_seq_setval(oid, 1000, false));
    uint32_t gone = create("gone", def_int8(1, 1));
    store_seq_drop(gone);
    store_close();
    NO_ERROR(store_open(dir));
    cr_assert_eq(next1(oid), 1000);
    cr_assert_eq(store_seq_lookup("public", "gone"), 0);
    cr_assert(!store_seq_info(gone, &in));
}

/* The child takes values and reports each on the pipe once it has it, then
 * SIGKILLs itself (no store_close). The parent recovers and checks. */
static void crash_child(int fd, int checkpoint_at)
{
    uint32_t oid = store_seq_lookup("public", "c");
    for (int i = 0; i < 200; i++) {
        int64_t v[7];
        store_seq_nextval(oid, 7, v);
        if (i == checkpoint_at)
            store_checkpoint();
        if (write(fd, v, sizeof v) != (ssize_t)sizeof v)
            _exit(2);
    }
    kill(getpid(), SIGKILL);
    _exit(3);
}

__attribute__((noinline, noreturn)) static void crash_child_main(int fd, int checkpoint_at)
{
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        store_open(dir);
        crash_child(fd, checkpoint_at);
    }
    _exit(4);
}

static void crash_round(int checkpoint_at)
{
    uint32_t oid = create("c", def_int8(1, 1));
    (void)oid;
    int p[2];
    cr_assert_eq(pipe(p), 0);
    store_close();   /* the child owns the directory while it runs */
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        close(p[0]);
        crash_child_main(p[1], checkpoint_at);
    }
    close(p[1]);
    int64_t max_seen = 0, v;
    size_t count = 0;
    while (read(p[0], &v, sizeof v) == (ssize_t)sizeof v) {
        cr_assert_gt(v, max_seen, "values increase");
        max_seen = v;
        count++;
    }
    close(p[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "child status %d", status);
    cr_assert_eq(count, 1400);
    NO_ERROR(store_open(dir));
    uint32_t again = store_seq_lookup("public", "c");
    cr_assert_neq(again, 0);
    int64_t after = next1(again);
    cr_assert_gt(after, max_seen, "a value handed out before the crash came back: %lld <= %lld",
                 (long long)after, (long long)max_seen);
    /* batches of 7 log 32 values ahead per value taken */
    cr_assert_leq(after, max_seen + 7 * STORE_SEQ_LOG_VALS + 1);
}

Test(storage_sequence, crash_never_repeats_a_value) { crash_round(-1); }

Test(storage_sequence, crash_after_checkpoint_never_repeats_a_value) { crash_round(100); }
