/*
 * test_common_arena.c — unit tests of common/arena.c, strbuf.c, list.c and
 * vector.c: alignment, growth, big blocks, reset reuse, limits (53200 with
 * PostgreSQL's detail), string building and slow-path vector access.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "common/arena.h"
#include "common/error.h"
#include "common/list.h"
#include "common/strbuf.h"
#include "common/vector.h"

Test(arena, alignment_and_zero_size)
{
    MemArena *a = mem_arena_create("test");
    for (size_t sz = 0; sz < 100; sz++) {
        void *p = mem_alloc(a, sz);
        cr_assert_not_null(p);
        cr_assert_eq((uintptr_t)p % 16, 0, "size %zu not 16-aligned", sz);
    }
    mem_arena_destroy(a);
}

Test(arena, many_small_and_big_allocations_keep_their_bytes)
{
    MemArena *a = mem_arena_create("test");
    unsigned char *ptrs[200];
    size_t sizes[200];
    for (int i = 0; i < 200; i++) {
        sizes[i] = (i % 10 == 0) ? 100000 + (size_t)i : (size_t)(i * 37 % 500 + 1);
        ptrs[i] = mem_alloc(a, sizes[i]);
        memset(ptrs[i], i & 0xff, sizes[i]);
    }
    for (int i = 0; i < 200; i++)
        for (size_t k = 0; k < sizes[i]; k += 97)
            cr_assert_eq(ptrs[i][k], (unsigned char)(i & 0xff));
    cr_assert_gt(mem_arena_bytes(a), 20 * 100000);
    mem_arena_destroy(a);
}

Test(arena, reset_keeps_first_block_only)
{
    MemArena *a = mem_arena_create("test");
    size_t initial = mem_arena_bytes(a);
    for (int i = 0; i < 1000; i++)
        mem_alloc(a, 1000);
    cr_assert_gt(mem_arena_bytes(a), initial);
    mem_arena_reset(a);
    cr_assert_eq(mem_arena_bytes(a), initial);
    char *s = mem_strdup(a, "still works");
    cr_assert_str_eq(s, "still works");
    mem_arena_destroy(a);
}

Test(arena, calloc_realloc_printf)
{
    MemArena *a = mem_arena_create("test");
    int *z = MEM_NEW_ARRAY(a, int, 1000);
    for (int i = 0; i < 1000; i++)
        cr_assert_eq(z[i], 0);
    char *p = mem_strndup(a, "abcdef", 3);
    cr_assert_str_eq(p, "abc");
    char *q = mem_realloc(a, p, 4, 5000);
    cr_assert_str_eq(q, "abc");
    char *f = mem_printf(a, "%s-%d-%s", "x", 42, "a long tail to exceed nothing");
    cr_assert_str_eq(f, "x-42-a long tail to exceed nothing");
    char big[600];
    memset(big, 'y', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    cr_assert_str_eq(mem_printf(a, "%s", big), big);
    mem_arena_destroy(a);
}

Test(arena, limit_raises_out_of_memory_with_detail)
{
    MemArena *a = mem_arena_create("ExecutorState");
    ErrJmp jmp;
    volatile bool raised = false;
    mem_arena_set_limit(a, 64 * 1024);
    if (ERR_TRY(jmp)) {
        for (int i = 0; i < 100; i++)
            mem_alloc(a, 4096);
        err_pop(&jmp);
    } else {
        raised = true;
        cr_assert_str_eq(err_current()->sqlstate, "53200");
        cr_assert_str_eq(err_current()->message, "out of memory");
        cr_assert_str_eq(err_current()->detail,
                         "Failed on request of size 4096 in memory context \"ExecutorState\".");
    }
    cr_assert(raised);
    mem_arena_destroy(a);
}

Test(arena, destroy_null_is_noop)
{
    mem_arena_destroy(NULL);
}

Test(strbuf, append_printf_and_be)
{
    StrBuf sb;
    strbuf_init(&sb);
    cr_assert_str_eq(sb.data, "");
    strbuf_append_str(&sb, "hello");
    strbuf_append_char(&sb, ' ');
    strbuf_printf(&sb, "%d-%s", 7, "world");
    cr_assert_str_eq(sb.data, "hello 7-world");
    strbuf_reset(&sb);
    cr_assert_eq(sb.len, 0);
    strbuf_append_be16(&sb, 0x0102);
    strbuf_append_be32(&sb, 0);
    strbuf_put_be32_at(&sb, 2, 0xA0B0C0D0u);
    cr_assert_eq(sb.len, 6);
    const unsigned char want[6] = {1, 2, 0xA0, 0xB0, 0xC0, 0xD0};
    cr_assert_eq(memcmp(sb.data, want, 6), 0);
    for (int i = 0; i < 10000; i++)
        strbuf_printf(&sb, "%05d", i);
    cr_assert_eq(sb.len, 6 + 50000);
    cr_assert_eq(memcmp(sb.data + 6 + 5 * 9999, "09999", 5), 0);
    strbuf_free(&sb);
}

Test(list, append_concat_nth)
{
    MemArena *a = mem_arena_create("test");
    List *l = NULL;
    int vals[100];
    cr_assert_eq(list_len(l), 0);
    for (int i = 0; i < 100; i++) {
        vals[i] = i;
        l = list_append(a, l, &vals[i]);
    }
    cr_assert_eq(list_len(l), 100);
    cr_assert_eq(*(int *)list_nth(l, 57), 57);
    List *m = list_make1(a, &vals[5]);
    m = list_concat(a, m, l);
    cr_assert_eq(list_len(m), 101);
    cr_assert_eq(*(int *)list_nth(m, 0), 5);
    cr_assert_eq(*(int *)list_nth(m, 100), 99);
    cr_assert_eq(list_concat(a, NULL, NULL), NULL);
    mem_arena_destroy(a);
}

Test(vector, nulls_values_and_batches)
{
    MemArena *a = mem_arena_create("test");
    SqlType types[2] = {SQLTYPE(TYPE_INT8), SQLTYPE(TYPE_TEXT)};
    Batch *b = batch_create(a, 2, types);
    Value v = {0}, out;
    cr_assert_eq(b->ncols, 2);
    cr_assert_eq(b->cols[0].phys, PHYS_I64);
    cr_assert_eq(b->cols[1].phys, PHYS_STR);
    for (uint32_t i = 0; i < VEC_CAPACITY; i++) {
        v.u.i64 = (int64_t)i * 3;
        vec_set_value(&b->cols[0], i, &v);
    }
    cr_assert_null(b->cols[0].validity);
    vec_set_null(&b->cols[0], 70);
    cr_assert(!vec_is_valid(&b->cols[0], 70));
    cr_assert(vec_is_valid(&b->cols[0], 69));
    cr_assert(vec_is_valid(&b->cols[0], 2047));
    vec_get_value(&b->cols[0], 70, &out);
    cr_assert(out.is_null);
    vec_get_value(&b->cols[0], 71, &out);
    cr_assert(!out.is_null);
    cr_assert_eq(out.u.i64, 213);
    v.u.i64 = 5;
    vec_set_value(&b->cols[0], 70, &v);
    cr_assert(vec_is_valid(&b->cols[0], 70));
    v.u.str = (StrRef){"abc", 3};
    vec_set_value(&b->cols[1], 3, &v);
    vec_get_value(&b->cols[1], 3, &out);
    cr_assert_eq(out.u.str.len, 3);
    cr_assert_eq(memcmp(out.u.str.ptr, "abc", 3), 0);
    b->cols[1].is_const = true;
    v.u.str = (StrRef){"k", 1};
    vec_set_value(&b->cols[1], 0, &v);
    vec_get_value(&b->cols[1], 1999, &out);
    cr_assert_eq(out.u.str.ptr[0], 'k');
    mem_arena_destroy(a);
}
