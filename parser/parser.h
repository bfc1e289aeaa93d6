/*
 * parser.h — SQL text to raw parse trees (parser/ast.h).
 *
 * A hand-written lexer with PostgreSQL's lexical rules feeds a Lemon
 * grammar (parser/grammar.y, generated at build time). Syntax errors raise
 * 42601 `syntax error at or near "tok"` (or `at end of input`) with the
 * 1-based character position of the token, as PostgreSQL does.
 */
#ifndef STRATA_PARSER_PARSER_H
#define STRATA_PARSER_PARSER_H

#include "common/arena.h"
#include "common/list.h"
#include "parser/ast.h"

/* Parse a query string of zero or more ';'-separated statements into a List
 * of RawStmt (empty statements dropped; an all-empty string gives NULL). */
List *parse_sql(MemArena *arena, const char *sql);
/* Parse a single expression (stored DEFAULT texts). */
Node *parse_expression(MemArena *arena, const char *sql);
/* PostgreSQL's error position: 1-based character (UTF-8) index of byte_offset. */
int parse_char_position(const char *sql, int byte_offset);

/* Limits, in one place. A query string longer than PARSE_QUERY_LEN_MAX bytes
 * raises 54000; nesting deeper than the parser stack (PARSE_STACK_DEPTH
 * entries, about one per open parenthesis or prefix operator) raises 54001
 * `stack depth limit exceeded`. */
#define PARSE_QUERY_LEN_MAX (1 << 30)
#define PARSE_STACK_DEPTH 1000

/* A compact, deterministic S-expression of a parse tree (for tests and
 * debugging), e.g. "(select [(+ 1 2) AS x] from [t])". NULL prints "<>". */
char *parse_node_to_string(MemArena *arena, const Node *node);

#endif
