/*
 * test_common_array_md.c — multidimensional arrays in common/array.c: the
 * packed layout (one-dimensional blobs byte for byte the format written
 * before ARRAY_FLAG_DIMS existed, so stored arrays stay readable), the
 * dimension block, nested text input/output and PostgreSQL 15's errors
 * (expected texts and SQLSTATEs printed by PostgreSQL 15), stacking
 * sub-arrays (ARRAY[ARRAY[..]]) and ordering across shapes.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "common/arena.h"
#include "common/array.h"
#include "common/error.h"
#include "common/strbuf.h"
#include "common/typio.h"

static StrRef in_int(MemArena *a, const char *s)
{
    return array_in(SQLTYPE(TYPE_INT4_ARRAY), s, strlen(s), a);
}

static void assert_out(StrRef blob, const char *want)
{
    StrBuf sb;
    strbuf_init(&sb);
    array_out(blob, NULL, &sb);
    cr_assert_str_eq(sb.data, want);
    strbuf_free(&sb);
}

/* The error a text input raises: "SQLSTATE message|detail". */
static void assert_in_error(const char *s, const char *want)
{
    MemArena *a = mem_arena_create("t");
    ErrJmp jmp;
    char got[512] = "no error";
    if (ERR_TRY(jmp)) {
        in_int(a, s);
        err_pop(&jmp);
    } else {
        const ErrorData *e = err_current();
        snprintf(got, sizeof got, "%.5s %.200s|%.200s", e->sqlstate, e->message, e->detail);
        err_clear();
    }
    cr_assert_str_eq(got, want, "input %s", s);
    mem_arena_destroy(a);
}

Test(array_md, one_dimensional_layout_unchanged)
{
    MemArena *a = mem_arena_create("t");
    StrRef blob = in_int(a, "{5,6}");
    uint32_t hdr[4];
    cr_assert_eq(blob.len, ARRAY_HEADER_SIZE + 8);
    memcpy(hdr, blob.ptr, sizeof hdr);
    cr_assert_eq(hdr[0], TYPE_INT4);
    cr_assert_eq(hdr[1], 1);
    cr_assert_eq(hdr[2], 2);
    cr_assert_eq(hdr[3], 0);   /* no ARRAY_FLAG_DIMS */
    ArrayView v = array_view(blob);
    cr_assert_eq(v.ndim, 1);
    cr_assert_eq(v.dims[0], 2);
    cr_assert_eq(array_view(in_int(a, "{}")).ndim, 0);
    mem_arena_destroy(a);
}

Test(array_md, two_dimensional_round_trip)
{
    MemArena *a = mem_arena_create("t");
    StrRef blob = in_int(a, "[0:1][1:2]={{1,2},{3,NULL}}");
    ArrayView v = array_view(blob);
    Value x;
    cr_assert_eq(v.ndim, 2);
    cr_assert_eq(v.nelems, 4);
    cr_assert(v.dims[0] == 2 && v.dims[1] == 2 && v.lbs[0] == 0 && v.lbs[1] == 1);
    array_get(&v, 2, &x);
    cr_assert_eq(x.u.i32, 3);
    array_get(&v, 3, &x);
    cr_assert(x.is_null);
    assert_out(blob, "[0:1][1:2]={{1,2},{3,NULL}}");
    assert_out(in_int(a, " { { 1 , 2 } , { \"3\" , 4 } } "), "{{1,2},{3,4}}");
    assert_out(in_int(a, "{{{1}},{{2}}}"), "{{{1}},{{2}}}");
    StrRef t = array_in(SQLTYPE(TYPE_TEXT_ARRAY), "{{\"a b\",NULL},{\"\",c}}", 21, a);
    assert_out(t, "{{\"a b\",NULL},{\"\",c}}");
    mem_arena_destroy(a);
}

Test(array_md, input_errors_as_postgresql)
{
    assert_in_error("{{1,2},{3}}", "22P02 malformed array literal: \"{{1,2},{3}}\"|Multidimensional arrays "
                                   "must have sub-arrays with matching dimensions.");
    assert_in_error("{{1,2},3}", "22P02 malformed array literal: \"{{1,2},3}\"|Unexpected array element.");
    assert_in_error("{1,{2}}", "22P02 malformed array literal: \"{1,{2}}\"|Unexpected \"{\" character.");
    assert_in_error("{{1,2}", "22P02 malformed array literal: \"{{1,2}\"|Unexpected end of input.");
    assert_in_error("{{}}", "22P02 malformed array literal: \"{{}}\"|Unexpected \"}\" character.");
    assert_in_error("{,}", "22P02 malformed array literal: \"{,}\"|Unexpected \",\" character.");
    assert_in_error("[0:1]={{1,2},{3,4}}", "22P02 malformed array literal: \"[0:1]={{1,2},{3,4}}\"|"
                                           "Specified array dimensions do not match array contents.");
    assert_in_error("[1:2]{1,2}", "22P02 malformed array literal: \"[1:2]{1,2}\"|Missing \"=\" after array dimensions.");
    assert_in_error("{{{{{{{1}}}}}}}", "54000 number of array dimensions (7) exceeds the maximum allowed (6)|");
}

Test(array_md, nested_build_and_order)
{
    MemArena *a = mem_arena_create("t");
    Value subs[3] = {{.u.str = in_int(a, "{1,2}")}, {.u.str = in_int(a, "{3,4}")}, {.is_null = true}};
    StrRef m = array_build_nested(SQLTYPE(TYPE_INT4), 2, subs, a);
    assert_out(m, "{{1,2},{3,4}}");
    cr_assert_eq(array_compare(m, in_int(a, "{{1,2},{3,4}}")), 0);
    cr_assert_eq(array_hash(m), array_hash(in_int(a, "{{1,2},{3,4}}")));
    cr_assert_gt(array_compare(m, in_int(a, "{1,2,3,4}")), 0);   /* more dimensions sorts later */
    cr_assert_lt(array_compare(m, in_int(a, "{{1,2},{3,5}}")), 0);
    Value empty[2] = {{.is_null = true}, {.u.str = in_int(a, "{}")}};
    assert_out(array_build_nested(SQLTYPE(TYPE_INT4), 2, empty, a), "{}");
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        array_build_nested(SQLTYPE(TYPE_INT4), 3, subs, a);   /* a NULL next to non-empty ones */
        err_pop(&jmp);
        cr_assert_fail("no error");
    } else {
        cr_assert_str_eq(err_current()->sqlstate, "2202E");
        err_clear();
    }
    mem_arena_destroy(a);
}
