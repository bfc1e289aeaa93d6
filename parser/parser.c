/*
 * parser.c — the parser's entry points: drive the lexer into the Lemon
 * engine, turn errors into PostgreSQL's messages and positions.
 *
 * Control flow: parse_sql → run_parser → (lexer token → one lookahead
 * rewrite → parse__lemon) until end of input. The grammar's actions build
 * the AST (build.c); errors longjmp out through err_raise, which is safe
 * because the engine and every node live in the caller's arena.
 */
#define PARSER_INTERNAL
#include <string.h>
#include "common/error.h"
#include "parser/parser_int.h"
#include "grammar.h"

int parse_char_position(const char *sql, int byte_offset)
{
    int chars = 0;
    for (int i = 0; i < byte_offset && sql[i] != '\0'; i++)
        if (((unsigned char)sql[i] & 0xC0) != 0x80)
            chars++;
    return chars + 1;
}

_Noreturn void parse__syntax_error(ParseCtx *pc, const ParseToken *tok)
{
    int pos = parse_char_position(pc->sql, tok->offset);
    if (tok->code == 0)
        err_raise_pos(ERRCODE_SYNTAX_ERROR, pos, "syntax error at end of input");
    err_raise_pos(ERRCODE_SYNTAX_ERROR, pos, "syntax error at or near \"%.*s\"", tok->len,
                  pc->sql + tok->offset);
}

_Noreturn void parse__stack_overflow(ParseCtx *pc)
{
    (void)pc;
    ErrorData *e = err_begin(ERRCODE_STATEMENT_TOO_COMPLEX);
    err_message(e, "stack depth limit exceeded");
    err_hint(e, "The statement nests more than the parser's %d levels; simplify it.",
             PARSE_STACK_DEPTH);
    err_throw();
}

_Noreturn void parse__error_at(ParseCtx *pc, int offset, const char *msg)
{
    int pos = offset >= 0 ? parse_char_position(pc->sql, offset) : 0;
    err_raise_pos(ERRCODE_SYNTAX_ERROR, pos, "%s", msg);
}

/*
 * PostgreSQL's one-token lookahead (parser.c base_yylex): NOT followed by
 * BETWEEN, IN, LIKE, ILIKE or SIMILAR becomes NOT_LA, which binds as those
 * operators do, so `a = b NOT LIKE c` groups as `a = (b NOT LIKE c)`;
 * WITH followed by TIME or ORDINALITY becomes WITH_LA, so `timestamp WITH
 * TIME ZONE` and `f() WITH ORDINALITY` do not clash with WITH clauses and
 * options; NULLS followed by FIRST or LAST becomes NULLS_LA, so `(a NULLS
 * FIRST)` in CREATE INDEX is not an operator class named nulls. And the
 * unreserved keywords whose rules always continue with a fixed token
 * (OPERATOR, CUBE, ROLLUP and GROUPING with '(' , GROUPING with SETS, AT
 * with TIME) are plain identifiers otherwise, so `select operator from t`
 * and `group by cube` work as in PostgreSQL (Lemon would shift the keyword
 * and never fall back to ID). Returns the code the token is given.
 */
static int lookahead_code(int code, int next)
{
    if (code == TK_NOT && (next == TK_BETWEEN || next == TK_IN || next == TK_LIKE ||
                           next == TK_ILIKE || next == TK_SIMILAR))
        return TK_NOT_LA;
    if (code == TK_WITH && (next == TK_TIME || next == TK_ORDINALITY))
        return TK_WITH_LA;
    if (code == TK_NULLS && (next == TK_FIRST || next == TK_LAST))
        return TK_NULLS_LA;
    if ((code == TK_OPERATOR || code == TK_CUBE || code == TK_ROLLUP) && next != TK_LP)
        return TK_ID;
    if (code == TK_GROUPING && next != TK_LP && next != TK_SETS)
        return TK_ID;
    if (code == TK_AT && next != TK_TIME)
        return TK_ID;
    return code;
}

static bool needs_lookahead(int code)
{
    return code == TK_NOT || code == TK_WITH || code == TK_NULLS || code == TK_OPERATOR ||
           code == TK_CUBE || code == TK_ROLLUP || code == TK_GROUPING || code == TK_AT;
}

static void run_parser(ParseCtx *pc, bool expression)
{
    size_t len = strlen(pc->sql);
    if (len > PARSE_QUERY_LEN_MAX)
        err_raise(ERRCODE_PROGRAM_LIMIT_EXCEEDED, "query string is too long (%zu bytes, limit %d)",
                  len, PARSE_QUERY_LEN_MAX);
    pc->sql_len = (int)len;
    ParseLexer lx;
    parse__lexer_init(&lx, pc->arena, pc->sql, pc->sql_len);
    void *engine = parse__lemon_create(pc->arena, pc);
    ParseToken tok, ahead;
    bool have_ahead = false;
    if (expression) {
        memset(&tok, 0, sizeof tok);
        tok.code = TK_MODE_EXPR;
        parse__lemon(engine, TK_MODE_EXPR, tok);
    }
    pc->prev_end = 0;
    for (;;) {
        if (have_ahead) {
            tok = ahead;
            have_ahead = false;
        } else {
            parse__lexer_next(&lx, &tok);
        }
        if (needs_lookahead(tok.code)) {
            parse__lexer_next(&lx, &ahead);
            have_ahead = true;
            tok.code = lookahead_code(tok.code, ahead.code);
        }
        parse__lemon(engine, tok.code, tok);
        if (tok.code == 0)
            break;
        pc->prev_end = tok.offset + tok.len;
    }
}

List *parse_sql(MemArena *arena, const char *sql)
{
    ParseCtx pc = {.arena = arena, .sql = sql};
    run_parser(&pc, false);
    return pc.stmts;
}

Node *parse_expression(MemArena *arena, const char *sql)
{
    ParseCtx pc = {.arena = arena, .sql = sql};
    run_parser(&pc, true);
    return pc.expr;
}
