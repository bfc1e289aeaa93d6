/*
 * test_common_array.c — arrays (array_in/array_out quoting, lower bounds,
 * NULLs), uuid and bytea text forms (expected texts printed by PostgreSQL
 * 15 for the same inputs), the packed layout, type_compare/type_hash_value,
 * the type table (array OIDs, format_type, name lookup) and per-vector
 * output of the new types.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "common/arena.h"
#include "common/datetime.h"
#include "common/error.h"
#include "common/strbuf.h"
#include "common/typio.h"
#include "common/array.h"
#include "common/vector.h"

#include "pgcase_fixture.h"   /* PgCase, run_cases */

static const PgCase misc_cases[] = {
    {"UTC", "uuid", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "OK\011a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"},
    {"UTC", "uuid", "A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11", "OK\011a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"},
    {"UTC", "uuid", "{a0eebc99-9c0b4ef8-bb6d6bb9-bd380a11}", "OK\011a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"},
    {"UTC", "uuid", "a0eebc999c0b4ef8bb6d6bb9bd380a11", "OK\011a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"},
    {"UTC", "uuid", "a0ee-bc99-9c0b-4ef8-bb6d-6bb9-bd38-0a11", "OK\011a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"},
    {"UTC", "uuid", "{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "ERR\01122P02\011invalid input syntax for type uuid: \"{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11\""},
    {"UTC", "uuid", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1", "ERR\01122P02\011invalid input syntax for type uuid: \"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1\""},
    {"UTC", "uuid", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a111", "ERR\01122P02\011invalid input syntax for type uuid: \"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a111\""},
    {"UTC", "uuid", "g0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "ERR\01122P02\011invalid input syntax for type uuid: \"g0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11\""},
    {"UTC", "uuid", " a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "ERR\01122P02\011invalid input syntax for type uuid: \" a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11\""},
    {"UTC", "uuid", "", "ERR\01122P02\011invalid input syntax for type uuid: \"\""},
    {"UTC", "uuid", "a0eebc99--9c0b-4ef8-bb6d-6bb9bd380a11", "ERR\01122P02\011invalid input syntax for type uuid: \"a0eebc99--9c0b-4ef8-bb6d-6bb9bd380a11\""},
    {"UTC", "bytea", "\\x", "OK\011\\x"},
    {"UTC", "bytea", "\\xDEADbeef", "OK\011\\xdeadbeef"},
    {"UTC", "bytea", "\\x de ad", "OK\011\\xdead"},
    {"UTC", "bytea", "\\x1", "ERR\01122023\011invalid hexadecimal data: odd number of digits"},
    {"UTC", "bytea", "\\xzz", "ERR\01122023\011invalid hexadecimal digit: \"z\""},
    {"UTC", "bytea", "abc", "OK\011\\x616263"},
    {"UTC", "bytea", "a\\\\b", "OK\011\\x615c62"},
    {"UTC", "bytea", "a\\001b", "OK\011\\x610162"},
    {"UTC", "bytea", "\\377", "OK\011\\xff"},
    {"UTC", "bytea", "a\\b", "ERR\01122P02\011invalid input syntax for type bytea"},
    {"UTC", "bytea", "\\x0g", "ERR\01122023\011invalid hexadecimal digit: \"g\""},
    {"UTC", "bytea", "a\\00", "ERR\01122P02\011invalid input syntax for type bytea"},
    {"UTC", "bytea", "\303\251", "OK\011\\xc3a9"},
    {"UTC", "int4[]", "{1,2,NULL}", "OK\011{1,2,NULL}"},
    {"UTC", "int4[]", "{}", "OK\011{}"},
    {"UTC", "int4[]", " { 1 , 2 } ", "OK\011{1,2}"},
    {"UTC", "int4[]", "{1,2", "ERR\01122P02\011malformed array literal: \"{1,2\""},
    {"UTC", "int4[]", "1,2", "ERR\01122P02\011malformed array literal: \"1,2\""},
    {"UTC", "int4[]", "{1,a}", "ERR\01122P02\011invalid input syntax for type integer: \"a\""},
    {"UTC", "int4[]", "[0:2]={1,2,3}", "OK\011[0:2]={1,2,3}"},
    {"UTC", "int4[]", "[1:2]={1,2,3}", "ERR\01122P02\011malformed array literal: \"[1:2]={1,2,3}\""},
    {"UTC", "int4[]", "{1,2}x", "ERR\01122P02\011malformed array literal: \"{1,2}x\""},
    {"UTC", "text[]", "{a,\"b c\",NULL,\"NULL\",null,\"\"}", "OK\011{a,\"b c\",NULL,\"NULL\",NULL,\"\"}"},
    {"UTC", "text[]", "{\"a\\\"b\",\"c\\\\d\",e\\,f}", "OK\011{\"a\\\"b\",\"c\\\\d\",\"e,f\"}"},
    {"UTC", "text[]", "{ a b , c }", "OK\011{\"a b\",c}"},
    {"UTC", "text[]", "{\"{x}\",\",\",\"\\\\\"}", "OK\011{\"{x}\",\",\",\"\\\\\"}"},
    {"UTC", "text[]", "{a,,b}", "ERR\01122P02\011malformed array literal: \"{a,,b}\""},
    {"UTC", "text[]", "{\"a\"b}", "ERR\01122P02\011malformed array literal: \"{\"a\"b}\""},
    {"UTC", "text[]", "{a\"b\"}", "ERR\01122P02\011malformed array literal: \"{a\"b\"}\""},
    {"UTC", "numeric[]", "{1.50,NaN,-0.0}", "OK\011{1.50,NaN,0.0}"},
    {"UTC", "float8[]", "{1.5,Infinity,-0,NaN,1e100}", "OK\011{1.5,Infinity,-0,NaN,1e+100}"},
    {"UTC", "bool[]", "{t,f,yes,NULL}", "OK\011{t,f,t,NULL}"},
    {"UTC", "date[]", "{2013-07-15,infinity}", "OK\011{2013-07-15,infinity}"},
    {"UTC", "timestamp[]", "{\"2013-07-15 10:00\"}", "OK\011{\"2013-07-15 10:00:00\"}"},
    {"UTC", "varchar[]", "{abc,\"x y\"}", "OK\011{abc,\"x y\"}"},
    {"UTC", "int8[]", "{9223372036854775807}", "OK\011{9223372036854775807}"},
    {"UTC", "int2[]", "{40000}", "ERR\01122003\011value \"40000\" is out of range for type smallint"},
    {"UTC", "uuid[]", "{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}", "OK\011{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}"},
    {"UTC", "interval[]", "{\"1 day\",\"2 hours\"}", "OK\011{\"1 day\",02:00:00}"},
    {"UTC", "jsonb[]", "{\"{\\\"a\\\":1}\"}", "OK\011{\"{\\\"a\\\": 1}\"}"},
    {"UTC", "bytea[]", "{\"\\\\x01\"}", "OK\011{\"\\\\x01\"}"},
    {"UTC", "timestamptz[]", "{\"2013-07-15 10:00+02\"}", "OK\011{\"2013-07-15 08:00:00+00\"}"},
    {"UTC", "text[]", "{\"  \"}", "OK\011{\"  \"}"},
    {"UTC", "text[]", "{\\ a}", "OK\011{\" a\"}"},
    {"UTC", "text[]", "{\303\251,\"\303\274 x\"}", "OK\011{\303\251,\"\303\274 x\"}"},
    {"UTC", "int4[]", "[-2:-1]={5,6}", "OK\011[-2:-1]={5,6}"},
    {"UTC", "int4[]", "{ }", "OK\011{}"},
    {"UTC", "int4[]", "[2]={1,2}", "OK\011{1,2}"},
    {"UTC", "int4[]", "[08]={1,2", "ERR\01122P02\011malformed array literal: \"{1,2\""},
    {"UTC", "numeric[]", "{a:[1,{\"b\":null}]}", "ERR\01122P02\011malformed array literal: \"{a:[1,{\"b\":null}]}\""},
    {"UTC", "int4[]", "[4:1]={1}", "ERR\0112202E\011upper bound cannot be less than lower bound"},
    {"UTC", "int4[]", "{{1,2},{3,4}", "ERR\01122P02\011malformed array literal: \"{{1,2},{3,4}\""},
    {"UTC", "int4[]", "{1,\"2\"x}", "ERR\01122P02\011malformed array literal: \"{1,\"2\"x}\""},
    {"UTC", "int4[]", "{1,a} ", "ERR\01122P02\011invalid input syntax for type integer: \"a\""},
    {"UTC", "int4[]", "[1:2]={1,a}", "ERR\01122P02\011invalid input syntax for type integer: \"a\""},
    {"UTC", "int4[]", "[1:3]={1,2}", "ERR\01122P02\011malformed array literal: \"[1:3]={1,2}\""},
    {"UTC", "text[]", "{\"a\",}", "ERR\01122P02\011malformed array literal: \"{\"a\",}\""},
    {"UTC", "text[]", "{,}", "ERR\01122P02\011malformed array literal: \"{,}\""},
    {"UTC", "int4[]", "[1:2]{1,2}", "ERR\01122P02\011malformed array literal: \"[1:2]{1,2}\""},
    {"UTC", "int4[]", "[a:2]={1,2}", "ERR\01122P02\011malformed array literal: \"[a:2]={1,2}\""},
    {"UTC", "int4[]", "[1:2] = {1,2}", "OK\011{1,2}"},
};

Test(array, pg_table)
{
    run_cases(misc_cases, sizeof misc_cases / sizeof misc_cases[0]);
}

Test(array, build_and_read)
{
    MemArena *a = mem_arena_create("t");
    Value vals[3] = {{.u.i32 = 7}, {.is_null = true}, {.u.i32 = -9}}, out;
    StrRef blob = array_build(SQLTYPE(TYPE_INT4), 1, 3, vals, a);
    ArrayView v = array_view(blob);
    cr_assert_eq(v.elem_oid, TYPE_INT4);
    cr_assert_eq(v.nelems, 3);
    cr_assert_eq(v.lbound, 1);
    array_get(&v, 0, &out);
    cr_assert(!out.is_null && out.u.i32 == 7);
    array_get(&v, 1, &out);
    cr_assert(out.is_null);
    array_get(&v, 2, &out);
    cr_assert_eq(out.u.i32, -9);
    vals[0].u.str = (StrRef){"ab", 2};
    vals[2].u.str = (StrRef){"", 0};
    v = array_view(array_build(SQLTYPE(TYPE_TEXT), 0, 3, vals, a));
    array_get(&v, 0, &out);
    cr_assert(out.u.str.len == 2 && memcmp(out.u.str.ptr, "ab", 2) == 0);
    array_get(&v, 2, &out);
    cr_assert(!out.is_null && out.u.str.len == 0);
    cr_assert_eq(v.lbound, 0);
    mem_arena_destroy(a);
}

static Value in(MemArena *a, uint32_t oid, const char *s)
{
    Value v;
    type_input(SQLTYPE(oid), s, strlen(s), a, &v);
    return v;
}

Test(array, compare_and_hash)
{
    MemArena *a = mem_arena_create("t");
    SqlType ia = SQLTYPE(TYPE_INT4_ARRAY);
    Value x = in(a, TYPE_INT4_ARRAY, "{1,2}"), y = in(a, TYPE_INT4_ARRAY, "{1,2,3}");
    Value z = in(a, TYPE_INT4_ARRAY, "{1,NULL}"), w = in(a, TYPE_INT4_ARRAY, "{1,2}");
    Value n1 = in(a, TYPE_NUMERIC, "1.5"), n2 = in(a, TYPE_NUMERIC, "1.50");
    Value c1 = in(a, TYPE_BPCHAR, "ab"), c2 = in(a, TYPE_BPCHAR, "ab  ");
    Value f1 = {.u.f64 = 0.0}, f2 = {.u.f64 = -0.0};
    /* PostgreSQL: '{1,2}' < '{1,2,3}', '{1,NULL}' > '{1,2}' */
    cr_assert_lt(type_compare(ia, &x, &y), 0);
    cr_assert_gt(type_compare(ia, &z, &x), 0);
    cr_assert_eq(type_compare(ia, &x, &w), 0);
    cr_assert_eq(type_hash_value(ia, &x), type_hash_value(ia, &w));
    cr_assert_neq(type_hash_value(ia, &x), type_hash_value(ia, &y));
    cr_assert_eq(type_compare(SQLTYPE(TYPE_NUMERIC), &n1, &n2), 0);
    cr_assert_eq(type_hash_value(SQLTYPE(TYPE_NUMERIC), &n1),
                 type_hash_value(SQLTYPE(TYPE_NUMERIC), &n2));
    cr_assert_eq(type_compare(SQLTYPE(TYPE_BPCHAR), &c1, &c2), 0);
    cr_assert_eq(type_hash_value(SQLTYPE(TYPE_BPCHAR), &c1),
                 type_hash_value(SQLTYPE(TYPE_BPCHAR), &c2));
    cr_assert_eq(type_compare(SQLTYPE(TYPE_FLOAT8), &f1, &f2), 0);
    cr_assert_eq(type_hash_value(SQLTYPE(TYPE_FLOAT8), &f1),
                 type_hash_value(SQLTYPE(TYPE_FLOAT8), &f2));
    f2.u.f64 = typio_parse_float8("NaN", 3);
    cr_assert_lt(type_compare(SQLTYPE(TYPE_FLOAT8), &f1, &f2), 0);
    mem_arena_destroy(a);
}

Test(array, type_table)
{
    char buf[64];
    cr_assert_eq(type_array_of(TYPE_INT4), TYPE_INT4_ARRAY);
    cr_assert_eq(type_array_of(TYPE_JSONB), TYPE_JSONB_ARRAY);
    cr_assert_eq(type_array_of(TYPE_INT4_ARRAY), TYPE_INVALID);
    cr_assert_eq(type_element_of(TYPE_TEXT_ARRAY), TYPE_TEXT);
    cr_assert_eq(type_element_of(TYPE_TEXT), TYPE_INVALID);
    cr_assert_eq(type_lookup_name("integer[]"), TYPE_INT4_ARRAY);
    cr_assert_eq(type_lookup_name("int4 []"), TYPE_INT4_ARRAY);
    cr_assert_eq(type_lookup_name("_text"), TYPE_TEXT_ARRAY);
    cr_assert_eq(type_lookup_name("timestamp with time zone"), TYPE_TIMESTAMPTZ);
    cr_assert_eq(type_lookup_name("timestamptz"), TYPE_TIMESTAMPTZ);
    cr_assert_eq(type_lookup_name("double precision[]"), TYPE_FLOAT8_ARRAY);
    cr_assert_eq(type_lookup_name("interval"), TYPE_INTERVAL);
    cr_assert_eq(type_lookup_name("nosuch[]"), TYPE_INVALID);
    /* format_type as PostgreSQL 15 prints it */
    cr_assert_str_eq(type_format(SQLTYPE(TYPE_INT4_ARRAY), buf, sizeof buf), "integer[]");
    cr_assert_str_eq(type_format((SqlType){TYPE_VARCHAR_ARRAY, 14}, buf, sizeof buf),
                     "character varying(10)[]");
    cr_assert_str_eq(type_format((SqlType){TYPE_TIMESTAMPTZ, 3}, buf, sizeof buf),
                     "timestamp(3) with time zone");
    cr_assert_str_eq(type_format(SQLTYPE(TYPE_TIMESTAMPTZ), buf, sizeof buf),
                     "timestamp with time zone");
    cr_assert_eq(type_phys(SQLTYPE(TYPE_TIMESTAMPTZ)), PHYS_I64);
    cr_assert_eq(type_phys(SQLTYPE(TYPE_INTERVAL)), PHYS_STR);
    cr_assert_eq(type_phys(SQLTYPE(TYPE_INT4_ARRAY)), PHYS_STR);
    cr_assert_eq(type_info(TYPE_UUID)->typlen, 16);
    cr_assert_eq(type_info(TYPE_INT4_ARRAY)->category, 'A');
    /* the table's typarray/typelem agree with type_array_of/type_element_of */
    static const uint32_t scalars[] = {TYPE_BOOL, TYPE_BYTEA, TYPE_INT2, TYPE_INT4, TYPE_INT8,
                                       TYPE_TEXT, TYPE_BPCHAR, TYPE_VARCHAR, TYPE_FLOAT4,
                                       TYPE_FLOAT8, TYPE_TIMESTAMP, TYPE_DATE, TYPE_TIME,
                                       TYPE_TIMESTAMPTZ, TYPE_INTERVAL, TYPE_NUMERIC, TYPE_UUID,
                                       TYPE_JSON, TYPE_JSONB};
    for (size_t i = 0; i < sizeof scalars / sizeof scalars[0]; i++) {
        uint32_t arr = type_array_of(scalars[i]);
        cr_assert_eq(type_info(scalars[i])->array, arr, "%u", scalars[i]);
        cr_assert_not_null(type_info(arr), "%u", arr);
        cr_assert_eq(type_info(arr)->elem, scalars[i]);
        cr_assert_eq(type_element_of(arr), scalars[i]);
        cr_assert_eq(type_info(arr)->phys, PHYS_STR);
    }
    cr_assert_eq(type_array_of(TYPE_NAME), TYPE_NAME_ARRAY);
    cr_assert_eq(type_array_of(TYPE_REGCLASS), TYPE_INVALID);
}

static const char *str3(StrRef r)
{
    static char buf[4][128];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%.*s", (int)r.len, r.ptr);
    return buf[k];
}

Test(array, output_vector)
{
    MemArena *a = mem_arena_create("t");
    Vector v;
    StrRef out[3];
    Value x;
    vec_init(&v, SQLTYPE(TYPE_TEXT_ARRAY), a);
    x = in(a, TYPE_TEXT_ARRAY, "{a,\"b c\",NULL}");
    vec_set_value(&v, 0, &x);
    vec_set_null(&v, 1);
    x = in(a, TYPE_TEXT_ARRAY, "{}");
    vec_set_value(&v, 2, &x);
    type_output_vector(&v, NULL, 3, NULL, a, out);
    cr_assert_str_eq(str3(out[0]), "{a,\"b c\",NULL}");
    cr_assert_null(out[1].ptr);
    cr_assert_str_eq(str3(out[2]), "{}");
    vec_init(&v, SQLTYPE(TYPE_INTERVAL), a);
    x = in(a, TYPE_INTERVAL, "1 day 02:00");
    vec_set_value(&v, 0, &x);
    x = in(a, TYPE_INTERVAL, "-1 mon");
    vec_set_value(&v, 1, &x);
    type_output_vector(&v, NULL, 2, NULL, a, out);
    cr_assert_str_eq(str3(out[0]), "1 day 02:00:00");
    cr_assert_str_eq(str3(out[1]), "-1 mons");
    vec_init(&v, SQLTYPE(TYPE_TIMESTAMPTZ), a);
    x = in(a, TYPE_TIMESTAMPTZ, "2013-07-15 10:20:30.5+02");
    vec_set_value(&v, 0, &x);
    type_output_vector(&v, NULL, 1, NULL, a, out);
    cr_assert_str_eq(str3(out[0]), "2013-07-15 08:20:30.5+00");
    mem_arena_destroy(a);
}

Test(array, hash_vector)
{
    MemArena *a = mem_arena_create("t");
    Vector v, w;
    Value x;
    uint64_t h[3], g[3];
    uint16_t sel[2] = {2, 0};
    vec_init(&v, SQLTYPE(TYPE_INTERVAL), a);
    x = in(a, TYPE_INTERVAL, "1 mon");
    vec_set_value(&v, 0, &x);
    x = in(a, TYPE_INTERVAL, "30 days");
    vec_set_value(&v, 1, &x);
    vec_set_null(&v, 2);
    type_hash_vector(&v, NULL, 3, false, h);
    cr_assert_eq(h[0], h[1]); /* '1 mon' = '30 days' */
    cr_assert_neq(h[0], h[2]);
    type_hash_vector(&v, sel, 2, false, g);
    cr_assert_eq(g[0], h[2]);
    cr_assert_eq(g[1], h[0]);
    vec_init(&w, SQLTYPE(TYPE_INT4), a);
    x.is_null = false;
    x.u.i32 = 5;
    vec_set_value(&w, 0, &x);
    vec_set_value(&w, 1, &x);
    vec_set_value(&w, 2, &x);
    type_hash_vector(&w, NULL, 3, true, h);
    cr_assert_eq(h[0], h[1]);
    cr_assert_neq(h[0], h[2]);
    mem_arena_destroy(a);
}
