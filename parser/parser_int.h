/*
 * parser_int.h — parser-internal declarations: tokens, the lexer, the parse
 * context shared by the driver (parser.c), the Lemon grammar (grammar.y)
 * and the AST builders (build.c).
 *
 * Not part of the parser's public interface (parser/parser.h): only files
 * of parser/ include it, which PARSER_INTERNAL enforces.
 */
#ifndef STRATA_PARSER_PARSER_INT_H
#define STRATA_PARSER_PARSER_INT_H

#ifndef PARSER_INTERNAL
#error "parser_int.h is internal to parser/; include parser/parser.h instead"
#endif

#include <stdbool.h>
#include <stdint.h>
#include "common/arena.h"
#include "common/list.h"
#include "parser/ast.h"
#include "parser/parser.h"

/* ---------- tokens ---------- */

/*
 * One token. code is a TK_* value from the generated grammar.h (0 = end of
 * input). offset/len delimit the token's source text, which syntax errors
 * quote. str: identifiers and keywords (folded, NUL-terminated), string
 * literals (decoded bytes, str_len), operators (their text), numbers (their
 * spelling). ival: integer value of TK_ICONST, parameter number of TK_PARAM.
 */
typedef struct ParseToken {
    int code;
    int offset;
    int len;
    const char *str;
    uint32_t str_len;
    int64_t ival;
} ParseToken;

/* Keyword categories, as PostgreSQL's kwlist.h. */
typedef enum ParseKeywordCat {
    PARSE_KW_UNRESERVED,
    PARSE_KW_COL_NAME,
    PARSE_KW_TYPE_FUNC_NAME,
    PARSE_KW_RESERVED,
} ParseKeywordCat;

typedef struct ParseKeyword {
    const char *name;     /* lower case */
    int code;             /* TK_* */
    ParseKeywordCat cat;
} ParseKeyword;

/* Look a lower-case word up in the keyword table (binary search); NULL when
 * it is not a keyword. */
const ParseKeyword *parse__keyword_lookup(const char *word, int len);
/* The whole table (sorted by name), for tests. */
const ParseKeyword *parse__keywords(int *count);

/* ---------- lexer ---------- */

typedef struct ParseLexer {
    MemArena *arena;
    const char *sql;
    int len;
    int pos;              /* next byte to scan */
} ParseLexer;

void parse__lexer_init(ParseLexer *lx, MemArena *arena, const char *sql, int len);
/* Scan the next token into *tok (tok->code 0 at end of input). Lexical
 * errors raise 42601 with the position of the offending token. */
void parse__lexer_next(ParseLexer *lx, ParseToken *tok);

/* ---------- parse context ---------- */

typedef struct ParseCtx {
    MemArena *arena;
    const char *sql;
    int sql_len;
    List *stmts;          /* RawStmt, the result of a statement parse */
    Node *expr;           /* the result of an expression parse */
    int prev_end;         /* end offset of the token before the lookahead */
} ParseCtx;

/* Raise 42601 syntax error at tok (code 0 = end of input). */
_Noreturn void parse__syntax_error(ParseCtx *pc, const ParseToken *tok);
/* Raise 54001 (parser stack exhausted). */
_Noreturn void parse__stack_overflow(ParseCtx *pc);
/* Raise 42601 `msg` at byte offset (for errors found while building). */
_Noreturn void parse__error_at(ParseCtx *pc, int offset, const char *msg);

/* The Lemon engine (generated into grammar.c). */
void *parse__lemon_create(MemArena *arena, ParseCtx *pc);
void parse__lemon(void *parser, int code, ParseToken tok);

#endif
