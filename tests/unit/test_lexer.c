/*
 * test_lexer.c — unit tests of the SQL lexer (parser/lexer.c) and keyword
 * table: every lexical rule of parser/README.md, token offsets, and the
 * lexical errors with PostgreSQL 15's messages and positions.
 */
#define PARSER_INTERNAL
#include <criterion/criterion.h>
#include <string.h>
#include "common/error.h"
#include "parser/parser_int.h"
#include "parser/grammar.h"

#define MAX_TOKENS 64

typedef struct Lexed {
    int n;
    ParseToken tok[MAX_TOKENS];
} Lexed;

static MemArena *arena;

static void setup(void) { arena = mem_arena_create("test_lexer"); }
static void teardown(void) { mem_arena_destroy(arena); }

TestSuite(lexer, .init = setup, .fini = teardown);

/* Lex all of sql; the end token is not stored. */
static Lexed lex(const char *sql)
{
    Lexed out = {0};
    ParseLexer lx;
    parse__lexer_init(&lx, arena, sql, (int)strlen(sql));
    for (;;) {
        ParseToken t;
        parse__lexer_next(&lx, &t);
        if (t.code == 0)
            break;
        cr_assert_lt(out.n, MAX_TOKENS);
        out.tok[out.n++] = t;
    }
    return out;
}

/* Lex sql expecting an error; returns a copy of it. */
static ErrorData lex_error(const char *sql)
{
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        lex(sql);
        err_pop(&jmp);
        cr_assert_fail("no error for <%s>", sql);
    }
    return *err_current();
}

static void assert_error(const char *sql, const char *message, int position)
{
    ErrorData e = lex_error(sql);
    cr_assert_str_eq(e.sqlstate, "42601", "<%s>: sqlstate %s", sql, e.sqlstate);
    cr_assert_str_eq(e.message, message);
    cr_assert_eq(e.position, position, "<%s>: position %d, want %d", sql, e.position, position);
}

static void assert_token(const ParseToken *t, int code, const char *str, int offset, int len)
{
    cr_assert_eq(t->code, code, "token at %d: code %d, want %d", t->offset, t->code, code);
    if (str)
        cr_assert_str_eq(t->str, str);
    cr_assert_eq(t->offset, offset, "offset %d, want %d", t->offset, offset);
    cr_assert_eq(t->len, len, "len %d, want %d", t->len, len);
}

Test(lexer, keyword_table_sorted_and_found)
{
    int n;
    const ParseKeyword *kw = parse__keywords(&n);
    cr_assert_gt(n, 100);
    for (int i = 1; i < n; i++)
        cr_assert_lt(strcmp(kw[i - 1].name, kw[i].name), 0, "%s >= %s", kw[i - 1].name, kw[i].name);
    for (int i = 0; i < n; i++)
        cr_assert_eq(parse__keyword_lookup(kw[i].name, (int)strlen(kw[i].name)), &kw[i]);
    cr_assert_null(parse__keyword_lookup("selec", 5));
    cr_assert_null(parse__keyword_lookup("selectx", 7));
    cr_assert_eq(parse__keyword_lookup("select", 6)->cat, PARSE_KW_RESERVED);
    cr_assert_eq(parse__keyword_lookup("left", 4)->cat, PARSE_KW_TYPE_FUNC_NAME);
    cr_assert_eq(parse__keyword_lookup("integer", 7)->cat, PARSE_KW_COL_NAME);
    cr_assert_eq(parse__keyword_lookup("begin", 5)->cat, PARSE_KW_UNRESERVED);
}

Test(lexer, identifiers_fold_and_keywords)
{
    Lexed l = lex("SELECT FooBar _x1$ \"MiXed\" \"a\"\"b\" Ünï");
    cr_assert_eq(l.n, 6);
    assert_token(&l.tok[0], TK_SELECT, "select", 0, 6);
    assert_token(&l.tok[1], TK_ID, "foobar", 7, 6);
    assert_token(&l.tok[2], TK_ID, "_x1$", 14, 4);
    assert_token(&l.tok[3], TK_ID, "MiXed", 19, 7);
    assert_token(&l.tok[4], TK_ID, "a\"b", 27, 6);
    /* only ASCII letters fold, as PostgreSQL in UTF8 */
    assert_token(&l.tok[5], TK_ID, "Ünï", 34, 5);
}

Test(lexer, quoted_keyword_is_identifier)
{
    Lexed l = lex("\"select\" select");
    assert_token(&l.tok[0], TK_ID, "select", 0, 8);
    assert_token(&l.tok[1], TK_SELECT, NULL, 9, 6);
}

Test(lexer, long_identifier_truncated)
{
    char sql[100];
    memset(sql, 'a', 70);
    sql[70] = '\0';
    Lexed l = lex(sql);
    cr_assert_eq(strlen(l.tok[0].str), 63);
    cr_assert_eq(l.tok[0].len, 70);
}

Test(lexer, identifier_errors)
{
    assert_error("select \"\"", "zero-length delimited identifier at or near \"\"\"\"", 8);
    assert_error("select \"abc", "unterminated quoted identifier at or near \"\"abc\"", 8);
}

Test(lexer, strings)
{
    Lexed l = lex("'it''s' '' 'a'\n  'b' 'c' -- x\n'd'");
    cr_assert_eq(l.n, 4);
    assert_token(&l.tok[0], TK_SCONST, "it's", 0, 7);
    assert_token(&l.tok[1], TK_SCONST, "", 8, 2);
    /* 'a' newline 'b' is one literal; 'c' on the same line is not joined */
    assert_token(&l.tok[2], TK_SCONST, "ab", 11, 9);
    /* a comment may sit between the parts when a newline follows it */
    assert_token(&l.tok[3], TK_SCONST, "cd", 21, 12);
    Lexed same_line = lex("'a' 'b'");
    cr_assert_eq(same_line.n, 2);
    Lexed backslash = lex("'a\\nb'");
    cr_assert_str_eq(backslash.tok[0].str, "a\\nb"); /* standard_conforming_strings */
}

Test(lexer, escape_strings)
{
    Lexed l = lex("E'a\\nb\\t\\\\\\'\\x41\\101\\u00e9\\U0001F600' e'x''y' E'\\q\\x'");
    cr_assert_eq(l.n, 3);
    cr_assert_str_eq(l.tok[0].str, "a\nb\t\\'AA\xc3\xa9\xf0\x9f\x98\x80");
    cr_assert_eq(l.tok[0].offset, 0);
    cr_assert_str_eq(l.tok[1].str, "x'y");
    cr_assert_str_eq(l.tok[2].str, "qx");
    Lexed pair = lex("E'\\uD83D\\uDE00'");
    cr_assert_str_eq(pair.tok[0].str, "\xf0\x9f\x98\x80");
}

Test(lexer, escape_string_errors)
{
    ErrorData bad = lex_error("select E'\\u00'");
    cr_assert_str_eq(bad.sqlstate, "22025");
    cr_assert_str_eq(bad.message, "invalid Unicode escape");
    cr_assert_str_eq(bad.hint, "Unicode escapes must be \\uXXXX or \\UXXXXXXXX.");
    cr_assert_eq(bad.position, 10);
    assert_error("select E'\\uD83D'", "invalid Unicode surrogate pair at or near \"'\"", 16);
    assert_error("select E'\\u0000'", "invalid Unicode escape value at or near \"\\u0000\"", 10);
    ErrorData e = lex_error("select E'\\xff'");
    cr_assert_str_eq(e.sqlstate, "22021");
    cr_assert_str_eq(e.message, "invalid byte sequence for encoding \"UTF8\": 0xff");
}

Test(lexer, dollar_quoting)
{
    Lexed l = lex("$$a'b$$ $tag$x$$y$tag$ $a1$$a1$");
    cr_assert_eq(l.n, 3);
    assert_token(&l.tok[0], TK_SCONST, "a'b", 0, 7);
    assert_token(&l.tok[1], TK_SCONST, "x$$y", 8, 14);
    assert_token(&l.tok[2], TK_SCONST, "", 23, 8);
    assert_error("select $$abc", "unterminated dollar-quoted string at or near \"$$abc\"", 8);
    assert_error("select $q$abc$$", "unterminated dollar-quoted string at or near \"$q$abc$$\"", 8);
    /* a $ that starts no delimiter is a token of its own (a syntax error later) */
    Lexed bad = lex("$a");
    assert_token(&bad.tok[0], TK_OTHER, "$", 0, 1);
    assert_token(&bad.tok[1], TK_ID, "a", 1, 1);
}

Test(lexer, unterminated_strings)
{
    assert_error("select 'abc", "unterminated quoted string at or near \"'abc\"", 8);
    assert_error("select 'a''", "unterminated quoted string at or near \"'a''\"", 8);
    assert_error("select E'a\\'", "unterminated quoted string at or near \"E'a\\'\"", 8);
}

Test(lexer, numbers)
{
    Lexed l = lex("42 1.5 .5 1e3 1.5E-3 5. 9223372036854775807 9223372036854775808 1..2");
    cr_assert_eq(l.n, 11);
    assert_token(&l.tok[0], TK_ICONST, "42", 0, 2);
    cr_assert_eq(l.tok[0].ival, 42);
    assert_token(&l.tok[1], TK_FCONST, "1.5", 3, 3);
    assert_token(&l.tok[2], TK_FCONST, ".5", 7, 2);
    assert_token(&l.tok[3], TK_FCONST, "1e3", 10, 3);
    assert_token(&l.tok[4], TK_FCONST, "1.5E-3", 14, 6);
    assert_token(&l.tok[5], TK_FCONST, "5.", 21, 2);
    assert_token(&l.tok[6], TK_ICONST, "9223372036854775807", 24, 19);
    cr_assert_eq(l.tok[6].ival, INT64_MAX);
    assert_token(&l.tok[7], TK_FCONST, "9223372036854775808", 44, 19);
    assert_token(&l.tok[8], TK_ICONST, "1", 64, 1);
    assert_token(&l.tok[9], TK_DOT_DOT, NULL, 65, 2);
    assert_token(&l.tok[10], TK_ICONST, "2", 67, 1);
}

Test(lexer, numeric_junk)
{
    /* PostgreSQL 15 quotes the number with the identifier that follows it */
    assert_error("select 123abc", "trailing junk after numeric literal at or near \"123abc\"", 8);
    assert_error("select 123abc from t", "trailing junk after numeric literal at or near \"123abc\"", 8);
    assert_error("select 1e", "trailing junk after numeric literal at or near \"1e\"", 8);
    assert_error("select 1e+", "trailing junk after numeric literal at or near \"1e+\"", 8);
    assert_error("select 1.5ex + 1", "trailing junk after numeric literal at or near \"1.5ex\"", 8);
    assert_error("select $1abc", "trailing junk after parameter at or near \"$1abc\"", 8);
}

Test(lexer, params_and_typecast)
{
    Lexed l = lex("$1::int $12");
    cr_assert_eq(l.n, 4);
    assert_token(&l.tok[0], TK_PARAM, NULL, 0, 2);
    cr_assert_eq(l.tok[0].ival, 1);
    assert_token(&l.tok[1], TK_TYPECAST, NULL, 2, 2);
    assert_token(&l.tok[2], TK_INT, NULL, 4, 3);
    assert_token(&l.tok[3], TK_PARAM, NULL, 8, 3);
    cr_assert_eq(l.tok[3].ival, 12);
}

Test(lexer, operators)
{
    Lexed l = lex("<> != <= >= || => @- +- *- a+/*c*/b 1--x\n2 ~~* ! ?| <");
    int codes[] = {TK_NE, TK_NE, TK_LE, TK_GE, TK_OP, TK_EQUALS_GREATER, TK_OP, TK_PLUS, TK_MINUS,
                   TK_STAR, TK_MINUS, TK_ID, TK_PLUS, TK_ID, TK_ICONST, TK_ICONST, TK_OP, TK_OP,
                   TK_OP, TK_LT};
    cr_assert_eq(l.n, (int)(sizeof codes / sizeof codes[0]), "n = %d", l.n);
    for (int i = 0; i < l.n; i++)
        cr_assert_eq(l.tok[i].code, codes[i], "token %d: %d, want %d", i, l.tok[i].code, codes[i]);
    cr_assert_str_eq(l.tok[0].str, "<>");
    cr_assert_str_eq(l.tok[1].str, "<>"); /* != is <> */
    cr_assert_str_eq(l.tok[4].str, "||");
    cr_assert_str_eq(l.tok[6].str, "@-"); /* contains @: the trailing - stays */
    cr_assert_str_eq(l.tok[16].str, "~~*");
    cr_assert_str_eq(l.tok[18].str, "?|");
}

Test(lexer, punctuation)
{
    Lexed l = lex("(a,b)[1].c;:");
    int codes[] = {TK_LP, TK_ID, TK_COMMA, TK_ID, TK_RP, TK_LBRACKET, TK_ICONST, TK_RBRACKET,
                   TK_DOT, TK_ID, TK_SEMI, TK_COLON};
    cr_assert_eq(l.n, 12);
    for (int i = 0; i < l.n; i++) {
        cr_assert_eq(l.tok[i].code, codes[i]);
        cr_assert_eq(l.tok[i].offset, i);
    }
}

Test(lexer, comments)
{
    Lexed l = lex("/* a /* nested */ still */ x -- to the end\n y /**/z");
    cr_assert_eq(l.n, 3);
    assert_token(&l.tok[0], TK_ID, "x", 27, 1);
    assert_token(&l.tok[1], TK_ID, "y", 44, 1);
    assert_token(&l.tok[2], TK_ID, "z", 50, 1);
    assert_error("select /* x", "unterminated /* comment at or near \"/* x\"", 8);
    assert_error("select /* a /* b */", "unterminated /* comment at or near \"/* a /* b */\"", 8);
}

Test(lexer, error_position_counts_characters)
{
    /* 'é' is two bytes but one character */
    assert_error("select 'é', 'x", "unterminated quoted string at or near \"'x\"", 13);
}

Test(lexer, unsupported_literal_forms)
{
    ErrorData e = lex_error("select B'101'");
    cr_assert_str_eq(e.sqlstate, "0A000");
    cr_assert_eq(e.position, 8);
    e = lex_error("select u&'x'");
    cr_assert_str_eq(e.sqlstate, "0A000");
    Lexed l = lex("b 'x' u & 'y' ab'z'");
    cr_assert_eq(l.n, 7);
}

