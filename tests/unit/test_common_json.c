/*
 * test_common_json.c — json and jsonb input, validation errors and jsonb's
 * canonical text (every expected text printed by PostgreSQL 15 for the
 * same input), navigation (-> ->> #> #>>) and to_json of SQL values.
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
#include "common/json.h"

#include "pgcase_fixture.h"   /* PgCase, run_cases */

static const PgCase json_cases[] = {
    {"UTC", "json", "{\"a\":1}", "OK\011{\"a\":1}"},
    {"UTC", "jsonb", "{\"a\":1}", "OK\011{\"a\": 1}"},
    {"UTC", "json", "{\"b\":1,\"a\":2}", "OK\011{\"b\":1,\"a\":2}"},
    {"UTC", "jsonb", "{\"b\":1,\"a\":2}", "OK\011{\"a\": 2, \"b\": 1}"},
    {"UTC", "json", "{\"aa\":1,\"b\":2,\"a\":3}", "OK\011{\"aa\":1,\"b\":2,\"a\":3}"},
    {"UTC", "jsonb", "{\"aa\":1,\"b\":2,\"a\":3}", "OK\011{\"a\": 3, \"b\": 2, \"aa\": 1}"},
    {"UTC", "json", "{\"a\":1,\"a\":2}", "OK\011{\"a\":1,\"a\":2}"},
    {"UTC", "jsonb", "{\"a\":1,\"a\":2}", "OK\011{\"a\": 2}"},
    {"UTC", "json", "[1, 2 ,3]", "OK\011[1, 2 ,3]"},
    {"UTC", "jsonb", "[1, 2 ,3]", "OK\011[1, 2, 3]"},
    {"UTC", "json", "  {\"a\" : [1,{\"c\":null,\"b\":true}] } ", "OK\011  {\"a\" : [1,{\"c\":null,\"b\":true}] } "},
    {"UTC", "jsonb", "  {\"a\" : [1,{\"c\":null,\"b\":true}] } ", "OK\011{\"a\": [1, {\"b\": true, \"c\": null}]}"},
    {"UTC", "json", "\"\\u00e9\"", "OK\011\"\\u00e9\""},
    {"UTC", "jsonb", "\"\\u00e9\"", "OK\011\"\303\251\""},
    {"UTC", "json", "\"\\ud83d\\ude00\"", "OK\011\"\\ud83d\\ude00\""},
    {"UTC", "jsonb", "\"\\ud83d\\ude00\"", "OK\011\"\360\237\230\200\""},
    {"UTC", "json", "1.0e2", "OK\0111.0e2"},
    {"UTC", "jsonb", "1.0e2", "OK\011100"},
    {"UTC", "json", "-0", "OK\011-0"},
    {"UTC", "jsonb", "-0", "OK\0110"},
    {"UTC", "json", "1e400", "OK\0111e400"},
    {"UTC", "jsonb", "1e400", "OK\01110000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"},
    {"UTC", "json", "0.10", "OK\0110.10"},
    {"UTC", "jsonb", "0.10", "OK\0110.10"},
    {"UTC", "json", "\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\"", "OK\011\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\""},
    {"UTC", "jsonb", "\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\"", "OK\011\"a\\\"b\\\\c/d\\b\\f\\n\\r\\t\""},
    {"UTC", "json", "\"\\u0001\"", "OK\011\"\\u0001\""},
    {"UTC", "jsonb", "\"\\u0001\"", "OK\011\"\\u0001\""},
    {"UTC", "json", "{\"a\":tru}", "ERR\01122P02\011invalid input syntax for type json"},
    {"UTC", "jsonb", "{\"a\":tru}", "ERR\01122P02\011invalid input syntax for type json"},
    {"UTC", "json", "[1,2", "ERR\01122P02\011invalid input syntax for type json"},
    {"UTC", "jsonb", "[1,2", "ERR\01122P02\011invalid input syntax for type json"},
    {"UTC", "json", "{\"a\" 1}", "ERR\01122P02\011invalid input syntax for type json"},
    {"UTC", "jsonb", "{\"a\" 1}", "ERR\01122P02\011invalid input syntax for type json"},
    {"UTC", "json", "{1:2}", "ERR\01122P02\011invalid input syntax for type json"},
    {"UTC", "jsonb", "{1:2}", "ERR\01122P02\011invalid input syntax for type json"},
    {"UTC", "json", "[1,]", "ERR\01122P02\011invalid input syntax for type json"},
    {"UTC", "jsonb", "[1,]", "ERR\01122P02\011invalid input syntax for type json"},
    {"UTC", "json", "01", "ERR\01122P02\011invalid input syntax for type json"},
    {"UTC", "jsonb", "01", "ERR\01122P02\011invalid input syntax for type json"},
    {"UTC", "json", "1.", "ERR\01122P02\011invalid input syntax for type json"},
    {"UTC", "jsonb", "1.", "ERR\01122P02\011invalid input syntax for type json"},
    {"UTC", "json", "-", "ERR\01122P02\011invalid input syntax for type json"},
    {"UTC", "jsonb", "-", "ERR\01122P02\011invalid input syntax for type json"},
    {"UTC", "json", "{\"a\":1}x", "ERR\01122P02\011invalid input syntax for type json"},
    {"UTC", "jsonb", "{\"a\":1}x", "ERR\01122P02\011invalid input syntax for type json"},
    {"UTC", "json", "\"\\x\"", "ERR\01122P02\011invalid input syntax for type json"},
    {"UTC", "jsonb", "\"\\x\"", "ERR\01122P02\011invalid input syntax for type json"},
    {"UTC", "json", "\"\\u12\"", "ERR\01122P02\011invalid input syntax for type json"},
    {"UTC", "jsonb", "\"\\u12\"", "ERR\01122P02\011invalid input syntax for type json"},
    {"UTC", "json", "\"\\ud800\"", "OK\011\"\\ud800\""},
    {"UTC", "jsonb", "\"\\ud800\"", "ERR\01122P02\011invalid input syntax for type json"},
    {"UTC", "json", "\"\\udc00\"", "OK\011\"\\udc00\""},
    {"UTC", "jsonb", "\"\\udc00\"", "ERR\01122P02\011invalid input syntax for type json"},
    {"UTC", "json", "\"\\u0000\"", "OK\011\"\\u0000\""},
    {"UTC", "jsonb", "\"\\u0000\"", "ERR\01122P05\011unsupported Unicode escape sequence"},
    {"UTC", "json", "", "ERR\01122P02\011invalid input syntax for type json"},
    {"UTC", "jsonb", "", "ERR\01122P02\011invalid input syntax for type json"},
    {"UTC", "json", "   ", "ERR\01122P02\011invalid input syntax for type json"},
    {"UTC", "jsonb", "   ", "ERR\01122P02\011invalid input syntax for type json"},
    {"UTC", "json", "nul", "ERR\01122P02\011invalid input syntax for type json"},
    {"UTC", "jsonb", "nul", "ERR\01122P02\011invalid input syntax for type json"},
    {"UTC", "json", "true", "OK\011true"},
    {"UTC", "jsonb", "true", "OK\011true"},
    {"UTC", "json", "null", "OK\011null"},
    {"UTC", "jsonb", "null", "OK\011null"},
    {"UTC", "json", "{}", "OK\011{}"},
    {"UTC", "jsonb", "{}", "OK\011{}"},
    {"UTC", "json", "[]", "OK\011[]"},
    {"UTC", "jsonb", "[]", "OK\011[]"},
    {"UTC", "json", "[[[]]]", "OK\011[[[]]]"},
    {"UTC", "jsonb", "[[[]]]", "OK\011[[[]]]"},
    {"UTC", "json", "{\"a\":{}}", "OK\011{\"a\":{}}"},
    {"UTC", "jsonb", "{\"a\":{}}", "OK\011{\"a\": {}}"},
    {"UTC", "json", "\"tab\011here\"", "ERR\01122P02\011invalid input syntax for type json"},
    {"UTC", "jsonb", "\"tab\011here\"", "ERR\01122P02\011invalid input syntax for type json"},
    {"UTC", "json", "12abc", "ERR\01122P02\011invalid input syntax for type json"},
    {"UTC", "jsonb", "12abc", "ERR\01122P02\011invalid input syntax for type json"},
    {"UTC", "json", "{\"a\":1,}", "ERR\01122P02\011invalid input syntax for type json"},
    {"UTC", "jsonb", "{\"a\":1,}", "ERR\01122P02\011invalid input syntax for type json"},
    {"UTC", "json", "[1 2]", "ERR\01122P02\011invalid input syntax for type json"},
    {"UTC", "jsonb", "[1 2]", "ERR\01122P02\011invalid input syntax for type json"},
    {"UTC", "json", "\"\001\"", "ERR\01122P02\011invalid input syntax for type json"},
    {"UTC", "jsonb", "\"\001\"", "ERR\01122P02\011invalid input syntax for type json"},
    {"UTC", "json", "{\"\303\251\":1,\"z\":2}", "OK\011{\"\303\251\":1,\"z\":2}"},
    {"UTC", "jsonb", "{\"\303\251\":1,\"z\":2}", "OK\011{\"z\": 2, \"\303\251\": 1}"},
    {"UTC", "json", "{\"b\":[3,{\"y\":1,\"x\":2}],\"a\":\"s\"}", "OK\011{\"b\":[3,{\"y\":1,\"x\":2}],\"a\":\"s\"}"},
    {"UTC", "jsonb", "{\"b\":[3,{\"y\":1,\"x\":2}],\"a\":\"s\"}", "OK\011{\"a\": \"s\", \"b\": [3, {\"x\": 2, \"y\": 1}]}"},
    {"UTC", "json", "-1.50e-3", "OK\011-1.50e-3"},
    {"UTC", "jsonb", "-1.50e-3", "OK\011-0.00150"},
    {"UTC", "json", "1E+2", "OK\0111E+2"},
    {"UTC", "jsonb", "1E+2", "OK\011100"},
    {"UTC", "json", "[true,false,null]", "OK\011[true,false,null]"},
    {"UTC", "jsonb", "[true,false,null]", "OK\011[true, false, null]"},
};

Test(json, pg_table)
{
    run_cases(json_cases, sizeof json_cases / sizeof json_cases[0]);
}

static StrRef S(const char *s)
{
    return (StrRef){s, (uint32_t)strlen(s)};
}

static char *str(StrRef r)
{
    static char buf[256];
    snprintf(buf, sizeof buf, "%.*s", (int)r.len, r.ptr);
    return buf;
}

Test(json, navigation)
{
    MemArena *a = mem_arena_create("t");
    StrRef out, path[4];
    bool is_null;
    StrRef doc = S("{\"a\":{\"b\":[1,2,{\"c\":\"x\\\"y\"}]},\"a\":5}");
    const char *jtext = "{\"a\":{\"b\":[1,2,{\"c\":\"x\\\"y\"}]}}";
    StrRef jb = jsonb_in(jtext, strlen(jtext), a);
    cr_assert(json_object_field(doc, "a", 1, &out));
    cr_assert_str_eq(str(out), "5"); /* json: the last duplicate */
    path[0] = S("a"), path[1] = S("b"), path[2] = S("2"), path[3] = S("c");
    cr_assert(json_extract_path(jb, path, 3, &out));
    cr_assert_str_eq(str(out), "{\"c\": \"x\\\"y\"}");
    cr_assert(json_extract_path(jb, path, 4, &out));
    cr_assert_str_eq(str(json_value_text(out, a, &is_null)), "x\"y");
    path[2] = S("-1");
    cr_assert(json_extract_path(jb, path, 3, &out));
    path[1] = S("x");
    cr_assert(!json_extract_path(jb, path, 2, &out));
    cr_assert(json_array_element(S("[1,2,3]"), -1, &out));
    cr_assert_str_eq(str(out), "3");
    cr_assert(!json_array_element(S("[1,2,3]"), 3, &out));
    cr_assert(json_object_field(S("{\"a\":null}"), "a", 1, &out));
    json_value_text(out, a, &is_null);
    cr_assert(is_null);
    cr_assert(json_object_field(S("{\"a\":[1, 2]}"), "a", 1, &out));
    cr_assert_str_eq(str(json_value_text(out, a, &is_null)), "[1, 2]");
    cr_assert(json_object_field(S("{\"\\u00e9\":1}"), "\xc3\xa9", 2, &out));
    cr_assert_str_eq(json_kind_name(json_kind(S(" [1]"))), "array");
    cr_assert_str_eq(json_kind_name(json_kind(S("\"s\""))), "string");
    cr_assert_eq(json_length(S("[1,[2,3],{\"a\":4}]")), 3);
    cr_assert_eq(json_length(S("7")), -1);
    mem_arena_destroy(a);
}

Test(json, to_json)
{
    MemArena *a = mem_arena_create("t");
    StrBuf sb;
    Value v = {0};
    strbuf_init(&sb);
    /* texts printed by PostgreSQL 15's to_json with TimeZone America/New_York */
    datetime_apply_settings("America/New_York", "ISO, MDY", "postgres");
    v.u.i64 = timestamptz_in("2013-07-15 10:00:00.5+00", 24);
    json_append_value(SQLTYPE(TYPE_TIMESTAMPTZ), &v, &sb);
    cr_assert_str_eq(sb.data, "\"2013-07-15T06:00:00.5-04:00\"");
    datetime_apply_settings("UTC", "ISO, MDY", "postgres");
    strbuf_reset(&sb);
    v.u.i64 = timestamp_in("2013-07-15 10:00", 16);
    json_append_value(SQLTYPE(TYPE_TIMESTAMP), &v, &sb);
    cr_assert_str_eq(sb.data, "\"2013-07-15T10:00:00\"");
    strbuf_reset(&sb);
    type_input(SQLTYPE(TYPE_INT4_ARRAY), "{1,NULL,3}", 10, a, &v);
    json_append_value(SQLTYPE(TYPE_INT4_ARRAY), &v, &sb);
    cr_assert_str_eq(sb.data, "[1,null,3]");
    strbuf_reset(&sb);
    v.u.str = S("a\"b");
    json_append_value(SQLTYPE(TYPE_TEXT), &v, &sb);
    cr_assert_str_eq(sb.data, "\"a\\\"b\"");
    strbuf_reset(&sb);
    v.u.f64 = typio_parse_float8("NaN", 3);
    json_append_value(SQLTYPE(TYPE_FLOAT8), &v, &sb);
    cr_assert_str_eq(sb.data, "\"NaN\"");
    strbuf_reset(&sb);
    type_input(SQLTYPE(TYPE_NUMERIC), "1.50", 4, a, &v);
    json_append_value(SQLTYPE(TYPE_NUMERIC), &v, &sb);
    cr_assert_str_eq(sb.data, "1.50");
    strbuf_reset(&sb);
    {
        const char *lit = "{\"{\\\"a\\\":1}\"}";
        type_input(SQLTYPE(TYPE_JSONB_ARRAY), lit, strlen(lit), a, &v);
    }
    json_append_value(SQLTYPE(TYPE_JSONB_ARRAY), &v, &sb);
    cr_assert_str_eq(sb.data, "[{\"a\": 1}]");
    strbuf_reset(&sb);
    v.u.i64 = TS_NOBEGIN;
    json_append_value(SQLTYPE(TYPE_TIMESTAMPTZ), &v, &sb);
    cr_assert_str_eq(sb.data, "\"-infinity\"");
    strbuf_free(&sb);
    mem_arena_destroy(a);
}

/* jsonb ordering: each expected sign is PostgreSQL 15's a < b / a = b for
 * the same pair (a sample of 1,500 random pairs checked while developing). */
static const struct { const char *a, *b; int cmp; } jb_pairs[] = {
    {"\"\303\251\"", "{\"b\": {\"\": {}, \"ab\": false}}", -1},
    {"10", "10", 0},
    {"{\"a\": {}, \"\": [[], 0, {\"aa\": \"\303\251\", \"ab\": false, \"\": null}], \"aa\": [0, \"a\\\"b\", null]}", "1.5", 1},
    {"[{\"\": [\"\", 1.5], \"b\": 10}, 1, {\"\": null}]", "true", 1},
    {"\"b\"", "\"b\"", 0},
    {"true", "\"b\"", 1},
    {"[{}, [[\"\303\251\", null, 1.5], {}, [\"a\", 1, \"a\"]], 0]", "2", 1},
    {"2", "[[], {\"a\": {\"b\": false, \"ab\": \"ab\", \"\": 10}, \"aa\": false}, [[], 1, \"\"]]", -1},
    {"1", "[]", 1},
    {"\"a\"", "\"a\\\"b\"", -1},
    {"\"ab\"", "\"ab\"", 0},
    {"[]", "\"a\\\"b\"", -1},
    {"{}", "false", 1},
    {"\"\303\251\"", "\"b\"", 1},
    {"-1", "[]", 1},
    {"{}", "[{\"\": [\"a\", 2, 1.5]}, [{\"\": 1}]]", 1},
    {"\"\303\251\"", "{\"\": {\"ab\": 1}}", -1},
    {"{}", "[null]", 1},
    {"false", "{\"ab\": false, \"a\": {\"\": [], \"ab\": 0}}", -1},
    {"false", "2", 1},
    {"10", "10", 0},
    {"[\"b\"]", "\"\"", 1},
    {"[\"\303\251\", \"a\\\"b\", -1]", "[{\"b\": [\"a\", 0, null], \"aa\": 0}, \"A\"]", 1},
    {"{\"a\": \"A\", \"ab\": 0}", "{\"a\": \"A\", \"ab\": 0}", 0},
    {"[]", "\"A\"", -1},
    {"{\"\": [0, -1, []], \"b\": [10, null], \"aa\": null}", "2", 1},
    {"true", "1.5", 1},
    {"\"b\"", "\"b\"", 0},
    {"1.0", "10", -1},
    {"\"A\"", "[\"b\", {\"a\": [2, 1], \"aa\": true}, \"a\"]", -1},
    {"0", "\"\"", 1},
    {"\"ab\"", "{\"a\": 2, \"\": 1, \"aa\": \"A\"}", -1},
    {"{\"b\": {\"a\": [-1]}}", "false", 1},
    {"{\"aa\": false, \"ab\": 1}", "[]", 1},
    {"0", "2", -1},
    {"{\"a\": \"a\"}", "[[1.5, 1.5], {\"b\": {}, \"aa\": {}}]", 1},
    {"{\"ab\": [[true, \"a\\\"b\"], [\"b\", null, -1]], \"b\": {}}", "1.5", 1},
    {"[]", "[{}, \"a\\\"b\"]", -1},
    {"{\"ab\": 10}", "{\"aa\": {\"ab\": {}, \"\": {\"ab\": \"A\"}}, \"b\": {\"aa\": [\"b\"], \"\": [1.5]}, \"a\": \"A\"}", -1},
    {"10", "{}", -1},
    {"[\"a\\\"b\"]", "[\"a\\\"b\"]", 0},
    {"[{\"a\": 0, \"\": 1.5}, [[]], \"\"]", "{}", -1},
    {"false", "false", 0},
    {"-1", "-1", 0},
    {"[{}, null, {\"ab\": \"a\"}]", "1.5", 1},
    {"false", "[\"1.0\", true, [{\"aa\": 10, \"\": 0}, true, [\"1.0\", \"A\"]]]", -1},
    {"{\"a\": [{}, \"\303\251\"], \"\": \"1.0\"}", "{\"ab\": \"ab\", \"b\": {}}", -1},
    {"[{\"a\": 2, \"b\": \"ab\", \"\": []}, {\"\": [-1, \"a\\\"b\"], \"aa\": [\"A\", \"\"]}, {\"ab\": false, \"a\": \"A\"}]", "0", 1},
    {"2", "{\"aa\": {}, \"\": 1.5, \"a\": 2}", -1},
    {"\"\"", "{\"a\": {\"a\": 1}}", -1},
    {"-1", "-1", 0},
    {"[[]]", "\"\303\251\"", 1},
    {"[]", "\"A\"", -1},
    {"10", "\"ab\"", 1},
    {"\"b\"", "\"a\\\"b\"", 1},
    {"10", "[false, 2, null]", -1},
    {"{\"\": null}", "{\"a\": {\"aa\": \"1.0\"}, \"aa\": {}}", -1},
    {"{\"\": {\"ab\": \"A\"}, \"a\": \"a\"}", "{\"\": {\"ab\": \"A\"}, \"a\": \"a\"}", 0},
    {"{}", "{}", 0},
    {"\"b\"", "{\"ab\": \"1.0\"}", -1},
    {"{\"\": {\"a\": \"ab\"}}", "\"a\"", 1},
    {"{\"\": false}", "2", 1},
    {"{\"a\": {}}", "null", 1},
    {"-1", "[null]", -1},
    {"1.5", "{\"aa\": {}, \"ab\": [{}], \"a\": {\"ab\": \"1.0\", \"\": []}}", -1},
    {"[{}]", "[]", 1},
    {"\"a\\\"b\"", "2", -1},
    {"false", "\"\"", 1},
    {"[]", "[]", 0},
    {"[\"A\"]", "{\"a\": \"1.0\", \"b\": \"1.0\"}", -1},
    {"[{\"b\": {\"\": true, \"a\": 1}, \"ab\": [\"ab\", \"\", -1]}, {\"ab\": [\"a\"]}, \"1.0\"]", "\"b\"", 1},
    {"[[], [[false, \"ab\"]], [\"\", \"A\"]]", "[[], [[false, \"ab\"]], [\"\", \"A\"]]", 0},
    {"1", "[\"b\"]", -1},
    {"{\"\": \"b\", \"aa\": [{\"b\": -1}], \"ab\": [\"a\\\"b\", 0, 10]}", "\"a\"", 1},
    {"-1", "{\"\": \"a\\\"b\", \"ab\": \"a\\\"b\", \"a\": \"\303\251\"}", -1},
    {"{\"a\": \"a\", \"b\": [-1, [\"1.0\", \"A\", \"a\\\"b\"]]}", "{\"ab\": \"\303\251\"}", 1},
    {"\"\303\251\"", "false", -1},
    {"false", "\"a\"", 1},
    {"[{}, null]", "null", 1},
    {"\"a\\\"b\"", "\"a\\\"b\"", 0},
    {"\"\303\251\"", "0", -1},
    {"{\"a\": \"\303\251\", \"\": true}", "{}", 1},
    {"[[-1, {\"a\": true}, \"\"]]", "[[-1, {\"a\": true}, \"\"]]", 0},
    {"{}", "[[\"\", 1]]", 1},
    {"2", "[]", 1},
    {"{\"b\": {\"b\": [], \"aa\": {}}, \"ab\": 1.5}", "null", 1},
    {"true", "[\"a\"]", -1},
    {"{\"\": true, \"a\": {\"b\": \"b\", \"\": -1, \"a\": {}}, \"b\": {}}", "1.5", 1},
    {"\"a\\\"b\"", "[]", 1},
    {"true", "{\"a\": {\"a\": []}}", -1},
    {"\"b\"", "null", 1},
    {"{}", "{}", 0},
    {"\"A\"", "{\"\": 1.5}", -1},
    {"[true, [], [[\"a\\\"b\"], {}]]", "\"ab\"", 1},
    {"\"ab\"", "[0, [2, [\"1.0\"]], {\"aa\": {}}]", -1},
    {"10", "[[1, {\"b\": 2}, -1], 1.5, []]", -1},
    {"\"\303\251\"", "[\"\303\251\"]", -1},
    {"{\"aa\": [{\"aa\": \"b\"}, \"\303\251\"], \"a\": [[-1, false], {\"aa\": false}], \"ab\": {\"\": [\"a\"]}}", "{\"aa\": [{\"aa\": \"b\"}, \"\303\251\"], \"a\": [[-1, false], {\"aa\": false}], \"ab\": {\"\": [\"a\"]}}", 0},
    {"10", "null", 1},
    {"true", "[[1, {\"\": \"\", \"aa\": 1}, []], \"ab\", null]", -1},
    {"{\"a\": {\"\": [\"\", 1, 1]}}", "[{\"ab\": 2}]", 1},
    {"1", "\"\"", 1},
    {"\"a\\\"b\"", "true", -1},
    {"[{\"ab\": [-1], \"aa\": {\"aa\": \"b\", \"a\": \"b\"}, \"\": {}}]", "[{\"ab\": [-1], \"aa\": {\"aa\": \"b\", \"a\": \"b\"}, \"\": {}}]", 0},
    {"{\"\": \"1.0\", \"a\": \"b\", \"b\": \"ab\"}", "{\"\": \"1.0\", \"a\": \"b\", \"b\": \"ab\"}", 0},
    {"\"\303\251\"", "\"\"", 1},
    {"{}", "{}", 0},
    {"-1", "\"a\\\"b\"", 1},
    {"10", "{\"ab\": null, \"\": {\"aa\": \"a\"}, \"aa\": {\"\": \"a\\\"b\"}}", -1},
    {"1.0", "{}", -1},
    {"1.5", "true", -1},
    {"1.0", "1.0", 0},
    {"false", "\"ab\"", 1},
    {"{\"ab\": [[\"\"], []], \"b\": 2, \"aa\": \"A\"}", "\"\"", 1},
    {"[{\"ab\": \"1.0\", \"b\": \"A\", \"a\": true}, \"a\\\"b\"]", "{}", -1},
    {"[true, {\"b\": [\"\"]}, {}]", "{\"a\": 0, \"\": 10, \"aa\": \"b\"}", -1},
    {"{\"ab\": {\"a\": {\"aa\": \"\", \"\": null, \"b\": -1}, \"\": 1}, \"a\": 2}", "{\"aa\": \"A\"}", 1},
    {"[0, {\"\": {}}]", "{\"\": [\"\", {\"aa\": 2, \"a\": \"a\", \"\": true}]}", -1},
    {"\"a\\\"b\"", "[{\"aa\": [2, null], \"ab\": {\"a\": 1.5, \"b\": true}}]", -1},
    {"\"ab\"", "[-1, \"b\"]", -1},
    {"[]", "{\"aa\": 2}", -1},
    {"{\"b\": [2], \"aa\": {\"ab\": 1, \"\": {\"b\": \"A\"}, \"aa\": 10}}", "false", 1},
    {"2", "2", 0},
    {"[{}, [[1.5, -1]]]", "{\"aa\": 1, \"b\": \"1.0\"}", -1},
    {"\"\303\251\"", "{\"ab\": {}}", -1},
    {"[1.5]", "{\"a\": 0, \"b\": [\"b\", [], 0]}", -1},
    {"[]", "[]", 0},
    {"10", "10", 0},
    {"{\"ab\": -1, \"b\": [\"a\", {\"ab\": true}, {}], \"aa\": {\"ab\": [0]}}", "0", 1},
    {"\"A\"", "1.5", -1},
    {"{\"aa\": 1.5, \"a\": [], \"\": []}", "[[[]], {\"aa\": 0, \"\": [\"a\\\"b\"]}, \"A\"]", 1},
    {"2", "true", -1},
    {"-1", "-1", 0},
    {"{\"aa\": \"\303\251\", \"b\": \"1.0\", \"\": {}}", "[false]", 1},
    {"{\"a\": \"\", \"b\": []}", "[1.5]", 1},
    {"[0, {\"ab\": {\"a\": \"a\", \"b\": 0}, \"b\": \"ab\"}, -1]", "[\"b\"]", 1},
    {"false", "[]", 1},
    {"\"A\"", "[1, {\"a\": [\"b\", \"b\"], \"aa\": null}]", -1},
    {"{\"ab\": [\"A\"]}", "\"a\"", 1},
    {"-1", "-1", 0},
    {"{}", "\"a\"", 1},
    {"{}", "2", 1},
    {"\"\"", "\"a\"", -1},
    {"\"a\"", "{}", -1},
    {"{\"a\": \"A\", \"aa\": [{}, {\"b\": 2, \"\": -1}], \"b\": null}", "{\"a\": 1, \"ab\": {\"ab\": {\"a\": \"1.0\", \"b\": \"ab\"}}}", 1},
    {"{\"\": {\"b\": \"1.0\"}}", "{}", 1},
    {"{\"aa\": {}}", "{\"ab\": [1], \"\": 10}", -1},
    {"{\"\": [{\"b\": 1, \"aa\": 2}, false], \"a\": \"a\"}", "\"a\\\"b\"", 1},
    {"\"a\\\"b\"", "\"a\\\"b\"", 0},
    {"[{\"ab\": {\"ab\": \"a\"}, \"b\": 1, \"\": \"\"}, [], \"b\"]", "[{\"ab\": {\"ab\": \"a\"}, \"b\": 1, \"\": \"\"}, [], \"b\"]", 0},
    {"1", "[]", 1},
    {"[[1]]", "[{}]", -1},
    {"1", "[]", 1},
    {"1", "[1]", -1},
    {"1", "[1,2]", -1},
    {"[]", "1", -1},
    {"\"a\"", "{}", -1},
    {"1.0", "1", 0},
    {"[1.0]", "[1]", 0},
    {"{\"a\":1.50}", "{\"a\":1.5}", 0},
    {"null", "\"a\"", -1},
    {"true", "1", 1},
    {"[[1]]", "[{}]", -1},
    {"{\"b\":1}", "{\"aa\":1}", 1},
    {"{\"a\":1}", "{\"b\":0}", -1},
};

Test(json, jsonb_ordering)
{
    MemArena *a = mem_arena_create("t");
    for (size_t i = 0; i < sizeof jb_pairs / sizeof jb_pairs[0]; i++) {
        Value x = {0}, y = {0};
        int c;
        type_input(SQLTYPE(TYPE_JSONB), jb_pairs[i].a, strlen(jb_pairs[i].a), a, &x);
        type_input(SQLTYPE(TYPE_JSONB), jb_pairs[i].b, strlen(jb_pairs[i].b), a, &y);
        c = type_compare(SQLTYPE(TYPE_JSONB), &x, &y);
        cr_expect_eq(c < 0 ? -1 : c > 0, jb_pairs[i].cmp, "%s vs %s", jb_pairs[i].a, jb_pairs[i].b);
        if (c == 0)
            cr_expect_eq(type_hash_value(SQLTYPE(TYPE_JSONB), &x),
                         type_hash_value(SQLTYPE(TYPE_JSONB), &y), "%s", jb_pairs[i].a);
    }
    mem_arena_destroy(a);
}
