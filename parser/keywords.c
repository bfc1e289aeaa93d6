/*
 * keywords.c — the SQL keyword table, looked up by binary search.
 *
 * Categories follow PostgreSQL 15's kwlist.h (pg_get_keywords()): reserved
 * words can never be identifiers without quotes; type/function-name words
 * can name functions and types but not columns; column-name words can name
 * columns but not functions or types; unreserved words are identifiers
 * wherever the grammar cannot shift them as keywords (Lemon's %fallback).
 *
 * Only keywords the grammar uses are listed, plus every reserved and
 * type/function-name keyword (so that `create table user (...)` fails as in
 * PostgreSQL). An unreserved word not listed here is simply an identifier,
 * which is what PostgreSQL makes of it too.
 *
 * The table MUST stay sorted by name (strcmp order); test_lexer.c checks it.
 */
#define PARSER_INTERNAL
#include <string.h>
#include "parser/parser_int.h"
#include "grammar.h"

#define U PARSE_KW_UNRESERVED
#define C PARSE_KW_COL_NAME
#define T PARSE_KW_TYPE_FUNC_NAME
#define R PARSE_KW_RESERVED

static const ParseKeyword keywords[] = {
    {"abort", TK_ABORT, U},
    {"all", TK_ALL, R},
    {"alter", TK_ALTER, U},
    {"analyse", TK_ANALYZE, R},
    {"analyze", TK_ANALYZE, R},
    {"and", TK_AND, R},
    {"any", TK_ANY, R},
    {"array", TK_ARRAY, R},
    {"as", TK_AS, R},
    {"asc", TK_ASC, R},
    {"asymmetric", TK_ASYMMETRIC, R},
    {"authorization", TK_AUTHORIZATION, T},
    {"begin", TK_BEGIN, U},
    {"between", TK_BETWEEN, C},
    {"bigint", TK_BIGINT, C},
    {"binary", TK_BINARY, T},
    {"boolean", TK_BOOLEAN, C},
    {"both", TK_BOTH, R},
    {"by", TK_BY, U},
    {"cascade", TK_CASCADE, U},
    {"case", TK_CASE, R},
    {"cast", TK_CAST, R},
    {"char", TK_CHAR, C},
    {"character", TK_CHARACTER, C},
    {"characteristics", TK_CHARACTERISTICS, U},
    {"check", TK_CHECK, R},
    {"collate", TK_COLLATE, R},
    {"collation", TK_COLLATION, T},
    {"column", TK_COLUMN, R},
    {"commit", TK_COMMIT, U},
    {"committed", TK_COMMITTED, U},
    {"concurrently", TK_CONCURRENTLY, T},
    {"constraint", TK_CONSTRAINT, R},
    {"create", TK_CREATE, R},
    {"cross", TK_CROSS, T},
    {"current_catalog", TK_CURRENT_CATALOG, R},
    {"current_date", TK_CURRENT_DATE, R},
    {"current_role", TK_CURRENT_ROLE, R},
    {"current_schema", TK_CURRENT_SCHEMA, T},
    {"current_time", TK_CURRENT_TIME, R},
    {"current_timestamp", TK_CURRENT_TIMESTAMP, R},
    {"current_user", TK_CURRENT_USER, R},
    {"dec", TK_DEC, C},
    {"decimal", TK_DECIMAL, C},
    {"default", TK_DEFAULT, R},
    {"deferrable", TK_DEFERRABLE, R},
    {"desc", TK_DESC, R},
    {"distinct", TK_DISTINCT, R},
    {"do", TK_DO, R},
    {"double", TK_DOUBLE, U},
    {"drop", TK_DROP, U},
    {"else", TK_ELSE, R},
    {"encrypted", TK_ENCRYPTED, U},
    {"end", TK_END, R},
    {"escape", TK_ESCAPE, U},
    {"except", TK_EXCEPT, R},
    {"exists", TK_EXISTS, C},
    {"explain", TK_EXPLAIN, U},
    {"extract", TK_EXTRACT, C},
    {"false", TK_FALSE, R},
    {"fetch", TK_FETCH, R},
    {"first", TK_FIRST, U},
    {"float", TK_FLOAT, C},
    {"for", TK_FOR, R},
    {"foreign", TK_FOREIGN, R},
    {"freeze", TK_FREEZE, T},
    {"from", TK_FROM, R},
    {"full", TK_FULL, T},
    {"grant", TK_GRANT, R},
    {"group", TK_GROUP, R},
    {"having", TK_HAVING, R},
    {"if", TK_IF, U},
    {"ilike", TK_ILIKE, T},
    {"in", TK_IN, R},
    {"initially", TK_INITIALLY, R},
    {"inner", TK_INNER, T},
    {"insert", TK_INSERT, U},
    {"int", TK_INT, C},
    {"integer", TK_INTEGER, C},
    {"intersect", TK_INTERSECT, R},
    {"interval", TK_INTERVAL, C},
    {"into", TK_INTO, R},
    {"is", TK_IS, T},
    {"isnull", TK_ISNULL, T},
    {"isolation", TK_ISOLATION, U},
    {"join", TK_JOIN, T},
    {"key", TK_KEY, U},
    {"last", TK_LAST, U},
    {"lateral", TK_LATERAL, R},
    {"leading", TK_LEADING, R},
    {"left", TK_LEFT, T},
    {"level", TK_LEVEL, U},
    {"like", TK_LIKE, T},
    {"limit", TK_LIMIT, R},
    {"local", TK_LOCAL, U},
    {"localtime", TK_LOCALTIME, R},
    {"localtimestamp", TK_LOCALTIMESTAMP, R},
    {"names", TK_NAMES, U},
    {"natural", TK_NATURAL, T},
    {"not", TK_NOT, R},
    {"notnull", TK_NOTNULL, T},
    {"null", TK_NULL, R},
    {"nulls", TK_NULLS, U},
    {"numeric", TK_NUMERIC, C},
    {"offset", TK_OFFSET, R},
    {"on", TK_ON, R},
    {"only", TK_ONLY, R},
    {"or", TK_OR, R},
    {"order", TK_ORDER, R},
    {"outer", TK_OUTER, T},
    {"overlaps", TK_OVERLAPS, T},
    {"password", TK_PASSWORD, U},
    {"placing", TK_PLACING, R},
    {"position", TK_POSITION, C},
    {"precision", TK_PRECISION, C},
    {"primary", TK_PRIMARY, R},
    {"read", TK_READ, U},
    {"real", TK_REAL, C},
    {"references", TK_REFERENCES, R},
    {"repeatable", TK_REPEATABLE, U},
    {"reset", TK_RESET, U},
    {"restrict", TK_RESTRICT, U},
    {"returning", TK_RETURNING, R},
    {"right", TK_RIGHT, T},
    {"role", TK_ROLE, U},
    {"rollback", TK_ROLLBACK, U},
    {"select", TK_SELECT, R},
    {"serializable", TK_SERIALIZABLE, U},
    {"session", TK_SESSION, U},
    {"session_user", TK_SESSION_USER, R},
    {"set", TK_SET, U},
    {"show", TK_SHOW, U},
    {"similar", TK_SIMILAR, T},
    {"smallint", TK_SMALLINT, C},
    {"some", TK_SOME, R},
    {"start", TK_START, U},
    {"substring", TK_SUBSTRING, C},
    {"symmetric", TK_SYMMETRIC, R},
    {"table", TK_TABLE, R},
    {"tablesample", TK_TABLESAMPLE, T},
    {"then", TK_THEN, R},
    {"time", TK_TIME, C},
    {"timestamp", TK_TIMESTAMP, C},
    {"to", TK_TO, R},
    {"trailing", TK_TRAILING, R},
    {"transaction", TK_TRANSACTION, U},
    {"trim", TK_TRIM, C},
    {"true", TK_TRUE, R},
    {"uncommitted", TK_UNCOMMITTED, U},
    {"union", TK_UNION, R},
    {"unique", TK_UNIQUE, R},
    {"unknown", TK_UNKNOWN, U},
    {"user", TK_USER, R},
    {"using", TK_USING, R},
    {"values", TK_VALUES, C},
    {"varchar", TK_VARCHAR, C},
    {"variadic", TK_VARIADIC, R},
    {"varying", TK_VARYING, U},
    {"verbose", TK_VERBOSE, T},
    {"when", TK_WHEN, R},
    {"where", TK_WHERE, R},
    {"window", TK_WINDOW, R},
    {"with", TK_WITH, R},
    {"without", TK_WITHOUT, U},
    {"work", TK_WORK, U},
    {"write", TK_WRITE, U},
    {"zone", TK_ZONE, U},
};

#undef U
#undef C
#undef T
#undef R

#define KEYWORD_LEN_MAX 20 /* "current_timestamp" is the longest, 17 */

const ParseKeyword *parse__keyword_lookup(const char *word, int len)
{
    if (len <= 0 || len > KEYWORD_LEN_MAX)
        return NULL;
    int lo = 0, hi = (int)(sizeof keywords / sizeof keywords[0]) - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        const char *name = keywords[mid].name;
        int cmp = strncmp(word, name, (size_t)len);
        if (cmp == 0 && name[len] != '\0')
            cmp = -1; /* word is a proper prefix of name: it sorts first */
        if (cmp == 0)
            return &keywords[mid];
        if (cmp < 0)
            hi = mid - 1;
        else
            lo = mid + 1;
    }
    return NULL;
}

const ParseKeyword *parse__keywords(int *count)
{
    *count = (int)(sizeof keywords / sizeof keywords[0]);
    return keywords;
}
