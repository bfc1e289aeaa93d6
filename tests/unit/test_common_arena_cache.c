/*
 * test_common_arena_cache.c — unit tests of the big-block side of
 * common/arena.c and of common/arena_cache.c: big allocations grow in place
 * (same pointer, bytes kept, limits still apply), released blocks are reused
 * by the next arena without page faults, the cache stays within its budget,
 * is emptied by trim and by the idle trimmer, serves several threads at once
 * without mixing their blocks, and (under AddressSanitizer) a use of a block
 * after its arena is gone is still reported.
 */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "common/arena.h"
#include "common/error.h"

#define MB ((size_t)1 << 20)

static long minor_faults(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_minflt;
}

/* Every test starts from an empty cache with a generous budget. */
static void setup(void)
{
    mem_cache_configure(512 * MB, 0);
    mem_cache_trim();
}

TestSuite(arena_cache, .init = setup);

Test(arena_cache, big_realloc_grows_in_place_and_keeps_bytes)
{
    MemArena *a = mem_arena_create("grow");
    size_t size = 2 * MB;
    unsigned char *p = mem_alloc(a, size);
    for (size_t i = 0; i < size; i++)
        p[i] = (unsigned char)(i * 7);
    size_t before = mem_arena_bytes(a);
    for (int step = 0; step < 2; step++) {
        unsigned char *q = mem_realloc(a, p, size, 2 * size);
        cr_assert_eq(q, p, "a big block should grow in place (step %d)", step);
        memset(q + size, 0xab, size);
        size *= 2;
    }
    for (size_t i = 0; i < 2 * MB; i++)
        cr_assert_eq(p[i], (unsigned char)(i * 7), "byte %zu changed", i);
    cr_assert_eq(p[size - 1], 0xab);
    cr_assert_geq(mem_arena_bytes(a), before + 6 * MB, "bytes must count the growth");
    mem_arena_destroy(a);
}

Test(arena_cache, big_realloc_past_the_reservation_copies)
{
    MemArena *a = mem_arena_create("grow far");
    size_t size = 2 * MB;
    uint32_t *p = mem_alloc(a, size);
    for (size_t i = 0; i < size / 4; i++)
        p[i] = (uint32_t)i;
    /* Far past any reservation (8x, at least 64 MB; 2x under ASan). */
    uint32_t *q = mem_realloc(a, p, size, 200 * MB);
    for (size_t i = 0; i < size / 4; i++)
        cr_assert_eq(q[i], (uint32_t)i);
    q[200 * MB / 4 - 1] = 42;
    /* The old allocation is not freed: its bytes stay readable. */
    if (q != p)
        cr_assert_eq(p[size / 4 - 1], (uint32_t)(size / 4 - 1));
    mem_arena_destroy(a);
}

Test(arena_cache, small_allocation_before_a_page_is_not_taken_for_a_big_block)
{
    /* An ordinary allocation whose address happens to sit where a big block's
     * payload would (48 bytes into a page) must not be grown in place over
     * its neighbours. */
    MemArena *a = mem_arena_create("lookalike");
    unsigned char *p = NULL, *next;
    for (int i = 0; i < 100000 && p == NULL; i++) {
        unsigned char *x = mem_alloc(a, 16);
        if (((uintptr_t)x & 4095) == 48)
            p = x;
    }
    cr_assert_not_null(p);
    memset(p, 0x11, 16);
    next = mem_alloc(a, 16);
    memset(next, 0x22, 16);
    unsigned char *q = mem_realloc(a, p, 16, 3 * MB);
    cr_assert_neq(q, p);
    cr_assert_eq(q[0], 0x11);
    cr_assert_eq(next[0], 0x22, "the neighbour was overwritten");
    mem_arena_destroy(a);
}

Test(arena_cache, limit_applies_to_growth_in_place)
{
    MemArena *a = mem_arena_create("ExecutorState");
    ErrJmp jmp;
    volatile int raised = 0;
    mem_arena_set_limit(a, 16 * MB);
    void *p = mem_alloc(a, 4 * MB);
    void *q = mem_realloc(a, p, 4 * MB, 8 * MB);
    cr_assert_eq(q, p);
    if (ERR_TRY(jmp)) {
        mem_realloc(a, q, 8 * MB, 32 * MB);
        err_pop(&jmp);
    } else {
        cr_assert_str_eq(err_current()->sqlstate, "53200");
        cr_assert_str_eq(err_current()->message, "out of memory");
        raised = 1;
    }
    cr_assert(raised, "growth past the limit must raise 53200");
    cr_assert_leq(mem_arena_bytes(a), 16 * MB);
    mem_arena_destroy(a);
}

Test(arena_cache, released_blocks_are_reused_without_page_faults)
{
    MemCacheStats s0, s1;
    MemArena *a = mem_arena_create("first");
    char *p = mem_alloc(a, 64 * MB);
    memset(p, 1, 64 * MB);
    mem_arena_destroy(a);
    mem_cache_stats(&s0);
    cr_assert_geq(s0.cached_bytes, 64 * MB, "the released block should be cached");

    long f0 = minor_faults();
    MemArena *b = mem_arena_create("second");
    char *q = mem_alloc(b, 64 * MB);
    memset(q, 2, 64 * MB);
    long faults = minor_faults() - f0;
    mem_cache_stats(&s1);
    cr_assert_gt(s1.hits, s0.hits, "the second arena should take the cached block");
    /* A fresh 64 MB would be 16,384 faults of 4 KB (32 with huge pages). */
    cr_assert_lt(faults, 16, "%ld page faults for reused memory", faults);
    mem_arena_destroy(b);
}

Test(arena_cache, cache_stays_within_budget_and_trim_empties_it)
{
    MemCacheStats s;
    mem_cache_configure(8 * MB, 0);
    for (int i = 0; i < 10; i++) {
        MemArena *a = mem_arena_create("budget");
        for (int k = 0; k < 3; k++)
            memset(mem_alloc(a, 3 * MB), k, 3 * MB);
        mem_arena_destroy(a);
        mem_cache_stats(&s);
        cr_assert_leq(s.cached_bytes, 8 * MB, "cache holds %zu bytes past its budget", s.cached_bytes);
    }
    cr_assert_gt(s.cached_blocks, 0);
    mem_cache_trim();
    mem_cache_stats(&s);
    cr_assert_eq(s.cached_bytes, 0);
    cr_assert_eq(s.cached_blocks, 0);

    mem_cache_configure(0, 0);
    MemArena *a = mem_arena_create("no cache");
    memset(mem_alloc(a, 3 * MB), 1, 3 * MB);
    mem_arena_destroy(a);
    mem_cache_stats(&s);
    cr_assert_eq(s.cached_bytes, 0, "budget 0 caches nothing");
}

Test(arena_cache, idle_cache_is_released)
{
    MemCacheStats s;
    mem_cache_configure(64 * MB, 200);
    MemArena *a = mem_arena_create("idle");
    memset(mem_alloc(a, 4 * MB), 1, 4 * MB);
    mem_arena_destroy(a);
    mem_cache_stats(&s);
    cr_assert_gt(s.cached_bytes, 0);
    for (int i = 0; i < 40 && s.cached_bytes > 0; i++) {
        usleep(100 * 1000);
        mem_cache_stats(&s);
    }
    cr_assert_eq(s.cached_bytes, 0, "after 4 s idle the cache still holds %zu bytes", s.cached_bytes);
}

Test(arena_cache, regular_blocks_reset_and_reuse_keep_contents_apart)
{
    /* Reset gives the big regular blocks (1..8 MB) back; the arena then
     * takes them again: every round must see only its own bytes. */
    MemArena *a = mem_arena_create("reset");
    for (int round = 0; round < 5; round++) {
        unsigned char *ptrs[64];
        for (int i = 0; i < 64; i++) {
            ptrs[i] = mem_alloc(a, 300000);
            memset(ptrs[i], round * 64 + i, 300000);
        }
        for (int i = 0; i < 64; i++)
            for (size_t k = 0; k < 300000; k += 4093)
                cr_assert_eq(ptrs[i][k], (unsigned char)(round * 64 + i));
        mem_arena_reset(a);
    }
    mem_arena_destroy(a);
}

/* Each thread builds arenas with growing big arrays tagged with its id. */
static void *churn(void *arg)
{
    uintptr_t id = (uintptr_t)arg;
    for (int round = 0; round < 20; round++) {
        MemArena *a = mem_arena_create("thread");
        size_t n = MB / 8;
        uint64_t *v = mem_alloc(a, n * 8);
        for (size_t i = 0; i < n; i++)
            v[i] = id << 32 | i;
        for (int g = 0; g < 3; g++) {
            v = mem_realloc(a, v, n * 8, 2 * n * 8);
            for (size_t i = n; i < 2 * n; i++)
                v[i] = id << 32 | i;
            n *= 2;
        }
        memset(mem_alloc(a, 2 * MB), (int)id, 2 * MB);
        for (size_t i = 0; i < n; i++)
            if (v[i] != (id << 32 | i))
                return (void *)1;
        mem_arena_destroy(a);
    }
    return NULL;
}

Test(arena_cache, threads_share_the_cache_safely)
{
    pthread_t t[4];
    void *rc;
    mem_cache_configure(48 * MB, 0);
    for (uintptr_t i = 0; i < 4; i++)
        pthread_create(&t[i], NULL, churn, (void *)(i + 1));
    for (int i = 0; i < 4; i++) {
        pthread_join(t[i], &rc);
        cr_assert_null(rc, "thread %d saw another thread's bytes", i);
    }
    MemCacheStats s;
    mem_cache_stats(&s);
    cr_assert_leq(s.cached_bytes, 48 * MB);
    cr_assert_gt(s.hits, 0);
}

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TEST_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define TEST_ASAN 1
#endif

#ifdef TEST_ASAN
#include <sanitizer/common_interface_defs.h>
#include <unistd.h>

/* ASan's report ends the process through this, before it exits or — with
 * ASAN_OPTIONS=abort_on_error=1, as dev.sh's CI runs — aborts: either way
 * the test sees status 1. */
static void asan_died(void)
{
    _exit(1);
}

/* ASan reports and exits with status 1: a cached block is poisoned. */
Test(arena_cache, use_after_destroy_is_reported_under_asan, .exit_code = 1)
{
    __sanitizer_set_death_callback(asan_died);
    MemArena *a = mem_arena_create("asan");
    volatile char *p = mem_alloc(a, 4 * MB);
    p[100] = 1;
    mem_arena_destroy(a);
    p[100] = 2;                  /* use after destroy: must not get here */
    cr_assert_fail("ASan did not report a use of a released block");
}

Test(arena_cache, overflow_past_a_big_block_is_reported_under_asan, .exit_code = 1)
{
    __sanitizer_set_death_callback(asan_died);
    MemArena *a = mem_arena_create("asan");
    volatile char *p = mem_alloc(a, 4 * MB);
    p[4 * MB + 64] = 1;          /* in the reserved tail: poisoned */
    cr_assert_fail("ASan did not report a write past a big block");
    mem_arena_destroy(a);
}
#endif
