/*
 * lexer.c — the hand-written SQL lexer, with PostgreSQL 15's lexical rules
 * (src/backend/parser/scan.l), one token per call.
 *
 * Why by hand: the rules are few but full of special cases (the trailing
 * +/- rule of operators, string continuation across newlines, numeric
 * "junk"), and a direct loop over the bytes is easy to follow, needs no
 * generator beyond lemon, and costs nothing per token but the scan itself.
 *
 * Every token records its byte offset and length in the query text; string
 * and identifier values are decoded into the parse arena. Errors raise
 * 42601 with PostgreSQL's messages and the token's character position.
 * README.md lists the rules.
 */
#define PARSER_INTERNAL
#include <limits.h>
#include <string.h>
#include "common/error.h"
#include "parser/parser_int.h"
#include "grammar.h"

#define NAMEDATALEN 64 /* PostgreSQL's identifier limit: 63 bytes */

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

static bool is_ident_start(char c)
{
    unsigned char u = (unsigned char)c;
    return (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || u == '_' || u >= 0x80;
}

static bool is_ident_cont(char c) { return is_ident_start(c) || is_digit(c) || c == '$'; }

static bool is_op_char(char c) { return c != '\0' && strchr("~!@#^&|`?+-*/%<>=", c) != NULL; }

static int hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Raise `msg at or near "text"` where text runs from offset for len bytes
 * (len < 0: to the end of the query, as PostgreSQL's unterminated cases). */
static _Noreturn void lex_error(ParseLexer *lx, int offset, int len, const char *msg)
{
    if (len < 0)
        len = lx->len - offset;
    err_raise_pos(ERRCODE_SYNTAX_ERROR, parse_char_position(lx->sql, offset),
                  "%s at or near \"%.*s\"", msg, len, lx->sql + offset);
}

/* Skip whitespace and comments; raise on an unterminated block comment. */
static void skip_space(ParseLexer *lx)
{
    const char *s = lx->sql;
    for (;;) {
        while (lx->pos < lx->len && is_space(s[lx->pos]))
            lx->pos++;
        if (lx->pos + 1 < lx->len && s[lx->pos] == '-' && s[lx->pos + 1] == '-') {
            while (lx->pos < lx->len && s[lx->pos] != '\n' && s[lx->pos] != '\r')
                lx->pos++;
            continue;
        }
        if (lx->pos + 1 < lx->len && s[lx->pos] == '/' && s[lx->pos + 1] == '*') {
            int start = lx->pos, depth = 1;
            lx->pos += 2;
            while (depth > 0) {
                if (lx->pos + 1 >= lx->len)
                    lex_error(lx, start, -1, "unterminated /* comment");
                if (s[lx->pos] == '/' && s[lx->pos + 1] == '*') {
                    depth++;
                    lx->pos += 2;
                } else if (s[lx->pos] == '*' && s[lx->pos + 1] == '/') {
                    depth--;
                    lx->pos += 2;
                } else {
                    lx->pos++;
                }
            }
            continue;
        }
        return;
    }
}

/* Clip a name to NAMEDATALEN-1 bytes at a UTF-8 character boundary, with
 * PostgreSQL's NOTICE. */
static void truncate_identifier(char *name, int *len)
{
    if (*len < NAMEDATALEN)
        return;
    int cut = NAMEDATALEN - 1;
    while (cut > 0 && ((unsigned char)name[cut] & 0xC0) == 0x80)
        cut--;
    err_notice(ERR_SEV_NOTICE, ERRCODE_NAME_TOO_LONG, "identifier \"%s\" will be truncated to \"%.*s\"",
               name, cut, name);
    name[cut] = '\0';
    *len = cut;
}

static void scan_identifier(ParseLexer *lx, ParseToken *tok)
{
    int start = lx->pos;
    while (lx->pos < lx->len && is_ident_cont(lx->sql[lx->pos]))
        lx->pos++;
    int len = lx->pos - start;
    char *name = mem_strndup(lx->arena, lx->sql + start, (size_t)len);
    for (int i = 0; i < len; i++)
        if (name[i] >= 'A' && name[i] <= 'Z')
            name[i] = (char)(name[i] + ('a' - 'A'));
    tok->len = len;
    const ParseKeyword *kw = parse__keyword_lookup(name, len);
    if (kw) {
        tok->code = kw->code;
        tok->str = kw->name;
        tok->str_len = (uint32_t)strlen(kw->name);
        return;
    }
    truncate_identifier(name, &len);
    tok->code = TK_ID;
    tok->str = name;
    tok->str_len = (uint32_t)len;
}

static void scan_quoted_identifier(ParseLexer *lx, ParseToken *tok)
{
    int start = lx->pos;
    char *buf = mem_alloc(lx->arena, (size_t)(lx->len - start) + 1);
    int n = 0;
    lx->pos++;
    for (;;) {
        if (lx->pos >= lx->len)
            lex_error(lx, start, -1, "unterminated quoted identifier");
        char c = lx->sql[lx->pos++];
        if (c == '"') {
            if (lx->pos < lx->len && lx->sql[lx->pos] == '"') {
                buf[n++] = '"';
                lx->pos++;
                continue;
            }
            break;
        }
        buf[n++] = c;
    }
    buf[n] = '\0';
    if (n == 0)
        lex_error(lx, start, lx->pos - start, "zero-length delimited identifier");
    truncate_identifier(buf, &n);
    tok->code = TK_ID;
    tok->len = lx->pos - start;
    tok->str = buf;
    tok->str_len = (uint32_t)n;
}

/*
 * After a closing quote at lx->pos - 1: PostgreSQL joins 'a' <newline> 'b'
 * into one literal when only whitespace containing a newline (and --
 * comments) separates them. Returns true and moves past the next opening
 * quote when that is the case.
 */
static bool string_continues(ParseLexer *lx)
{
    const char *s = lx->sql;
    int p = lx->pos;
    bool newline = false;
    while (p < lx->len) {
        char c = s[p];
        if (c == '\n' || c == '\r') {
            newline = true;
            p++;
        } else if (is_space(c)) {
            p++;
        } else if (c == '-' && p + 1 < lx->len && s[p + 1] == '-') {
            while (p < lx->len && s[p] != '\n' && s[p] != '\r')
                p++;
        } else {
            break;
        }
    }
    if (!newline || p >= lx->len || s[p] != '\'')
        return false;
    lx->pos = p + 1;
    return true;
}

/* Append code point cp as UTF-8. */
static int put_utf8(char *out, uint32_t cp)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* Read exactly ndigits hex digits at p; -1 when they are not all there. */
static int64_t read_hex(ParseLexer *lx, int p, int ndigits)
{
    int64_t v = 0;
    for (int i = 0; i < ndigits; i++) {
        int h = p + i < lx->len ? hex_value(lx->sql[p + i]) : -1;
        if (h < 0)
            return -1;
        v = v * 16 + h;
    }
    return v;
}

/* \uXXXX or \UXXXXXXXX at lx->pos (the backslash), with surrogate pairs. */
static int scan_unicode_escape(ParseLexer *lx, char *out)
{
    int esc = lx->pos;
    int ndigits = lx->sql[esc + 1] == 'u' ? 4 : 8;
    int64_t cp = read_hex(lx, esc + 2, ndigits);
    if (cp < 0) {
        ErrorData *e = err_begin(ERRCODE_INVALID_ESCAPE_SEQUENCE);
        err_message(e, "invalid Unicode escape");
        err_hint(e, "Unicode escapes must be \\uXXXX or \\UXXXXXXXX.");
        e->position = parse_char_position(lx->sql, esc);
        err_throw();
    }
    lx->pos = esc + 2 + ndigits;
    if (cp >= 0xD800 && cp <= 0xDBFF) {
        int64_t lo = -1;
        if (lx->pos + 1 < lx->len && lx->sql[lx->pos] == '\\') {
            char u = lx->sql[lx->pos + 1];
            int nd = u == 'u' ? 4 : u == 'U' ? 8 : 0;
            lo = nd ? read_hex(lx, lx->pos + 2, nd) : -1;
            if (lo >= 0xDC00 && lo <= 0xDFFF)
                lx->pos += 2 + nd;
        }
        if (lo < 0xDC00 || lo > 0xDFFF) /* PostgreSQL points after the first half */
            lex_error(lx, lx->pos, lx->pos < lx->len ? 1 : 0, "invalid Unicode surrogate pair");
        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
    } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
        lex_error(lx, esc, lx->pos - esc, "invalid Unicode surrogate pair");
    }
    if (cp == 0 || cp > 0x10FFFF)
        lex_error(lx, esc, lx->pos - esc, "invalid Unicode escape value");
    return put_utf8(out, (uint32_t)cp);
}

/* One backslash escape of an E'' string at lx->pos; returns bytes written. */
static int scan_escape(ParseLexer *lx, int start, char *out)
{
    if (lx->pos + 1 >= lx->len)
        lex_error(lx, start, -1, "unterminated quoted string");
    char d = lx->sql[lx->pos + 1];
    switch (d) {
    case 'b': lx->pos += 2; *out = '\b'; return 1;
    case 'f': lx->pos += 2; *out = '\f'; return 1;
    case 'n': lx->pos += 2; *out = '\n'; return 1;
    case 'r': lx->pos += 2; *out = '\r'; return 1;
    case 't': lx->pos += 2; *out = '\t'; return 1;
    case 'u':
    case 'U': return scan_unicode_escape(lx, out);
    default: break;
    }
    if (d >= '0' && d <= '7') {
        int v = 0, p = lx->pos + 1;
        for (int i = 0; i < 3 && p < lx->len && lx->sql[p] >= '0' && lx->sql[p] <= '7'; i++, p++)
            v = v * 8 + (lx->sql[p] - '0');
        lx->pos = p;
        *out = (char)(v & 0xFF);
        return 1;
    }
    if (d == 'x' && lx->pos + 2 < lx->len && hex_value(lx->sql[lx->pos + 2]) >= 0) {
        int p = lx->pos + 2, v = 0;
        for (int i = 0; i < 2 && p < lx->len && hex_value(lx->sql[p]) >= 0; i++, p++)
            v = v * 16 + hex_value(lx->sql[p]);
        lx->pos = p;
        *out = (char)v;
        return 1;
    }
    lx->pos += 2; /* \\ \' and any other character stand for themselves */
    *out = d;
    return 1;
}

/* Raise 22021 unless buf[0..n) is valid UTF-8 without NUL (E'' escapes can
 * produce arbitrary bytes). */
static void check_utf8(const char *buf, int n)
{
    int i = 0;
    while (i < n) {
        unsigned char c = (unsigned char)buf[i];
        int need = c < 0x80 ? 0 : (c & 0xE0) == 0xC0 ? 1 : (c & 0xF0) == 0xE0 ? 2 : (c & 0xF8) == 0xF0 ? 3 : -1;
        bool ok = c != 0 && need >= 0 && i + need < n;
        for (int k = 1; ok && k <= need; k++)
            ok = i + k < n && ((unsigned char)buf[i + k] & 0xC0) == 0x80;
        if (!ok)
            err_raise(ERRCODE_CHARACTER_NOT_IN_REPERTOIRE,
                      "invalid byte sequence for encoding \"UTF8\": 0x%02x", c);
        i += need + 1;
    }
}

/* 'string' or E'string' (escape = true); lx->pos is at the opening quote. */
static void scan_string(ParseLexer *lx, ParseToken *tok, int start, bool escape)
{
    char *buf = mem_alloc(lx->arena, (size_t)(lx->len - start) + 1);
    int n = 0;
    lx->pos++;
    for (;;) {
        if (lx->pos >= lx->len)
            lex_error(lx, start, -1, "unterminated quoted string");
        char c = lx->sql[lx->pos];
        if (c == '\'') {
            if (lx->pos + 1 < lx->len && lx->sql[lx->pos + 1] == '\'') {
                buf[n++] = '\'';
                lx->pos += 2;
                continue;
            }
            lx->pos++;
            if (string_continues(lx))
                continue;
            break;
        }
        if (escape && c == '\\') {
            n += scan_escape(lx, start, buf + n);
            continue;
        }
        buf[n++] = c;
        lx->pos++;
    }
    buf[n] = '\0';
    if (escape)
        check_utf8(buf, n);
    tok->code = TK_SCONST;
    tok->len = lx->pos - start;
    tok->str = buf;
    tok->str_len = (uint32_t)n;
}

/* $tag$...$tag$ when a valid delimiter starts at lx->pos; false otherwise. */
static bool scan_dollar_string(ParseLexer *lx, ParseToken *tok)
{
    const char *s = lx->sql;
    int start = lx->pos, p = start + 1;
    if (p < lx->len && is_ident_start(s[p]))
        while (p < lx->len && (is_ident_start(s[p]) || is_digit(s[p])))
            p++;
    if (p >= lx->len || s[p] != '$')
        return false;
    int delim_len = p + 1 - start;
    int body = p + 1;
    for (int q = body; q + delim_len <= lx->len; q++) {
        if (s[q] == '$' && memcmp(s + q, s + start, (size_t)delim_len) == 0) {
            tok->code = TK_SCONST;
            tok->str = mem_strndup(lx->arena, s + body, (size_t)(q - body));
            tok->str_len = (uint32_t)(q - body);
            lx->pos = q + delim_len;
            tok->len = lx->pos - start;
            return true;
        }
    }
    lex_error(lx, start, -1, "unterminated dollar-quoted string");
}

/* Trailing identifier characters after a number or parameter are an error
 * that quotes the number together with the identifier, as PostgreSQL 15. */
static void check_junk(ParseLexer *lx, int start, const char *msg)
{
    if (lx->pos < lx->len && is_ident_start(lx->sql[lx->pos])) {
        int p = lx->pos;
        while (p < lx->len && is_ident_cont(lx->sql[p]))
            p++;
        lex_error(lx, start, p - start, msg);
    }
}

static void scan_param(ParseLexer *lx, ParseToken *tok)
{
    int start = lx->pos;
    int64_t v = 0;
    lx->pos++;
    while (lx->pos < lx->len && is_digit(lx->sql[lx->pos])) {
        if (v <= INT_MAX)
            v = v * 10 + (lx->sql[lx->pos] - '0');
        lx->pos++;
    }
    check_junk(lx, start, "trailing junk after parameter");
    if (v > INT_MAX)
        lex_error(lx, start, lx->pos - start, "parameter number too large");
    tok->code = TK_PARAM;
    tok->ival = v;
    tok->len = lx->pos - start;
}

/* Integer literal value, or false when it does not fit int64. */
static bool parse_int64(const char *s, int len, int64_t *out)
{
    uint64_t v = 0;
    for (int i = 0; i < len; i++) {
        uint64_t d = (uint64_t)(s[i] - '0');
        if (v > (UINT64_C(9223372036854775807) - d) / 10)
            return false;
        v = v * 10 + d;
    }
    *out = (int64_t)v;
    return true;
}

static void scan_number(ParseLexer *lx, ParseToken *tok)
{
    const char *s = lx->sql;
    int start = lx->pos;
    bool integer = true;
    while (lx->pos < lx->len && is_digit(s[lx->pos]))
        lx->pos++;
    /* "1..5" is the integer 1 followed by "..": leave the dots alone */
    if (lx->pos < lx->len && s[lx->pos] == '.' && !(lx->pos + 1 < lx->len && s[lx->pos + 1] == '.')) {
        integer = false;
        lx->pos++;
        while (lx->pos < lx->len && is_digit(s[lx->pos]))
            lx->pos++;
    }
    if (lx->pos < lx->len && (s[lx->pos] == 'e' || s[lx->pos] == 'E')) {
        int p = lx->pos + 1;
        if (p < lx->len && (s[p] == '+' || s[p] == '-'))
            p++;
        if (p < lx->len && is_digit(s[p])) {
            integer = false;
            while (p < lx->len && is_digit(s[p]))
                p++;
            lx->pos = p;
        } else if (p > lx->pos + 1) {
            lex_error(lx, start, p - start, "trailing junk after numeric literal");
        }
    }
    check_junk(lx, start, "trailing junk after numeric literal");
    tok->len = lx->pos - start;
    tok->str = mem_strndup(lx->arena, s + start, (size_t)tok->len);
    tok->str_len = (uint32_t)tok->len;
    tok->code = integer && parse_int64(s + start, tok->len, &tok->ival) ? TK_ICONST : TK_FCONST;
}

/* Length of the operator starting at lx->pos under PostgreSQL's rules. */
static int operator_length(ParseLexer *lx)
{
    const char *s = lx->sql;
    int start = lx->pos, end = start;
    while (end < lx->len && is_op_char(s[end])) {
        /* a comment starts inside the run: the operator ends before it */
        if (end > start && end + 1 < lx->len &&
            ((s[end] == '/' && s[end + 1] == '*') || (s[end] == '-' && s[end + 1] == '-')))
            break;
        end++;
    }
    int n = end - start;
    if (n > 1 && (s[start + n - 1] == '+' || s[start + n - 1] == '-')) {
        int ic;
        for (ic = n - 2; ic >= 0; ic--)
            if (strchr("~!@#^&|`?%", s[start + ic]))
                break;
        if (ic < 0) /* only + - * / < > = : strip trailing + and - */
            while (n > 1 && (s[start + n - 1] == '+' || s[start + n - 1] == '-'))
                n--;
    }
    return n;
}

static int single_char_token(char c)
{
    switch (c) {
    case ',': return TK_COMMA;
    case '(': return TK_LP;
    case ')': return TK_RP;
    case '[': return TK_LBRACKET;
    case ']': return TK_RBRACKET;
    case '.': return TK_DOT;
    case ';': return TK_SEMI;
    case ':': return TK_COLON;
    case '+': return TK_PLUS;
    case '-': return TK_MINUS;
    case '*': return TK_STAR;
    case '/': return TK_SLASH;
    case '%': return TK_PERCENT;
    case '^': return TK_CARET;
    case '<': return TK_LT;
    case '>': return TK_GT;
    case '=': return TK_EQ;
    default: return 0;
    }
}

static void scan_operator(ParseLexer *lx, ParseToken *tok)
{
    int start = lx->pos, n = operator_length(lx);
    const char *s = lx->sql + start;
    lx->pos += n;
    tok->len = n;
    tok->str = mem_strndup(lx->arena, s, (size_t)n);
    tok->str_len = (uint32_t)n;
    if (n == 1 && single_char_token(*s)) {
        tok->code = single_char_token(*s);
        return;
    }
    if (n == 2) {
        if (memcmp(s, "<=", 2) == 0) { tok->code = TK_LE; return; }
        if (memcmp(s, ">=", 2) == 0) { tok->code = TK_GE; return; }
        if (memcmp(s, "=>", 2) == 0) { tok->code = TK_EQUALS_GREATER; return; }
        if (memcmp(s, "<>", 2) == 0 || memcmp(s, "!=", 2) == 0) {
            tok->code = TK_NE;
            tok->str = "<>";
            return;
        }
    }
    if (n >= NAMEDATALEN)
        lex_error(lx, start, n, "operator too long");
    tok->code = TK_OP;
}

/* Tokens that start with punctuation other than operator characters. */
static bool scan_punct(ParseLexer *lx, ParseToken *tok)
{
    const char *s = lx->sql + lx->pos;
    int rest = lx->len - lx->pos;
    int code = 0, n = 1;
    if (rest >= 2 && s[0] == ':' && s[1] == ':')
        code = TK_TYPECAST, n = 2;
    else if (rest >= 2 && s[0] == ':' && s[1] == '=')
        code = TK_COLON_EQUALS, n = 2;
    else if (rest >= 2 && s[0] == '.' && s[1] == '.')
        code = TK_DOT_DOT, n = 2;
    else if (strchr(",()[].;:", s[0]))
        code = single_char_token(s[0]);
    if (!code)
        return false;
    tok->code = code;
    tok->len = n;
    tok->str = mem_strndup(lx->arena, s, (size_t)n);
    tok->str_len = (uint32_t)n;
    lx->pos += n;
    return true;
}

void parse__lexer_init(ParseLexer *lx, MemArena *arena, const char *sql, int len)
{
    lx->arena = arena;
    lx->sql = sql;
    lx->len = len;
    lx->pos = 0;
}

void parse__lexer_next(ParseLexer *lx, ParseToken *tok)
{
    memset(tok, 0, sizeof *tok);
    skip_space(lx);
    tok->offset = lx->pos;
    if (lx->pos >= lx->len)
        return; /* code 0: end of input */
    const char *s = lx->sql;
    char c = s[lx->pos];
    char next = lx->pos + 1 < lx->len ? s[lx->pos + 1] : '\0';
    if ((c == 'e' || c == 'E') && next == '\'') {
        lx->pos++;
        scan_string(lx, tok, tok->offset, true);
    } else if ((c == 'n' || c == 'N') && next == '\'') {
        /* N'...': as PostgreSQL, the type name nchar (= bpchar) then the string,
         * which the grammar reads as the typed literal bpchar '...' */
        lx->pos++;
        tok->code = TK_ID;
        tok->len = 1;
        tok->str = "bpchar";
        tok->str_len = 6;
    } else if (strchr("bBxXuU", c) && (next == '\'' || ((c == 'u' || c == 'U') && next == '&' &&
                                                        lx->pos + 2 < lx->len &&
                                                        strchr("'\"", s[lx->pos + 2])))) {
        err_raise_pos(ERRCODE_FEATURE_NOT_SUPPORTED, parse_char_position(s, lx->pos),
                      "%s are not supported yet",
                      c == 'u' || c == 'U' ? "Unicode escape literals (U&'...')"
                                           : "bit-string literals (B'...', X'...')");
    } else if (is_ident_start(c)) {
        scan_identifier(lx, tok);
    } else if (c == '\'') {
        scan_string(lx, tok, tok->offset, false);
    } else if (c == '"') {
        scan_quoted_identifier(lx, tok);
    } else if (is_digit(c) || (c == '.' && is_digit(next))) {
        scan_number(lx, tok);
    } else if (c == '$' && is_digit(next)) {
        scan_param(lx, tok);
    } else if (c == '$' && scan_dollar_string(lx, tok)) {
        /* done */
    } else if (is_op_char(c)) {
        scan_operator(lx, tok);
    } else if (!scan_punct(lx, tok)) {
        /* any other byte is a token of its own that no rule accepts,
         * so the grammar reports `syntax error at or near "$"` */
        int n = 1;
        while (lx->pos + n < lx->len && ((unsigned char)s[lx->pos + n] & 0xC0) == 0x80)
            n++;
        tok->code = TK_OTHER;
        tok->len = n;
        tok->str = mem_strndup(lx->arena, s + lx->pos, (size_t)n);
        tok->str_len = (uint32_t)n;
        lx->pos += n;
    }
}
