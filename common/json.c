/*
 * json.c — JSON parsing (PostgreSQL's lexer rules and error texts), jsonb's
 * canonical text, navigation over valid JSON text, and to_json of values.
 *
 * One recursive-descent parser serves both types: json only validates;
 * jsonb also builds a small tree in the arena (strings unescaped, numbers
 * canonicalised through numeric) and prints it canonically: keys sorted by
 * (length, bytes) with the last duplicate kept, as PostgreSQL's jsonb does.
 * Navigation never builds a tree: it walks the (already valid) text.
 */
#include "common/json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/datetime.h"
#include "common/error.h"
#include "common/numeric.h"
#include "common/typio.h"

/* string: unescaped bytes; number: canonical text; bool: "true"/"false" (json.h) */
typedef JsonNode JNode;

typedef struct JParse {
    const char *s;
    size_t len, pos;
    MemArena *arena; /* NULL: validate only */
    bool is_jsonb;
    int depth;
} JParse;

/* ---- errors ---- */

static _Noreturn void jp_fail(JParse *p, const char *detail_fmt, const char *tok, size_t toklen)
{
    ErrorData *e = err_begin(ERRCODE_INVALID_TEXT_REPRESENTATION);
    err_message(e, "invalid input syntax for type json");
    if (tok != NULL)
        err_detail(e, detail_fmt, (int)toklen, tok);
    else
        err_detail(e, "%s", detail_fmt);
    (void)p;
    err_throw();
}

static bool jp_alnum(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '$' || (unsigned char)c >= 0x80;
}

static bool jp_ws(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static void jp_skip_ws(JParse *p)
{
    while (p->pos < p->len && jp_ws(p->s[p->pos]))
        p->pos++;
}

/* Length of the token starting at pos, as PostgreSQL reports it. */
static size_t jp_token_len(JParse *p, size_t at)
{
    size_t e = at;
    if (at >= p->len)
        return 0;
    if (p->s[at] == '"') {
        for (e = at + 1; e < p->len && p->s[e] != '"'; e++)
            if (p->s[e] == '\\')
                e++;
        return e < p->len ? e + 1 - at : p->len - at;
    }
    while (e < p->len && (jp_alnum(p->s[e]) || p->s[e] == '-' || p->s[e] == '.' ||
                          p->s[e] == '+'))
        e++;
    return e > at ? e - at : 1;
}

/* "Expected X, but found \"tok\"." or the end-of-input detail. */
static _Noreturn void jp_expected(JParse *p, const char *what)
{
    char fmt[96];
    if (p->pos >= p->len)
        jp_fail(p, "The input string ended unexpectedly.", NULL, 0);
    snprintf(fmt, sizeof fmt, "Expected %s, but found \"%%.*s\".", what);
    jp_fail(p, fmt, p->s + p->pos, jp_token_len(p, p->pos));
}

static _Noreturn void jp_bad_token(JParse *p, size_t at)
{
    jp_fail(p, "Token \"%.*s\" is invalid.", p->s + at, jp_token_len(p, at));
}

/* ---- nodes ---- */

static JNode *jn_new(JParse *p, JsonKind k)
{
    JNode *n;
    if (p->arena == NULL)
        return NULL;
    n = mem_alloc(p->arena, sizeof *n);
    memset(n, 0, sizeof *n);
    n->kind = k;
    return n;
}

static void jn_push(JParse *p, JNode *parent, uint32_t *cap, StrRef key, JNode *child)
{
    if (parent == NULL)
        return;
    if (parent->n == *cap) {
        uint32_t nc = *cap ? *cap * 2 : 8;
        JNode **items = mem_alloc(p->arena, nc * sizeof *items);
        StrRef *keys = parent->kind == JSON_OBJECT ? mem_alloc(p->arena, nc * sizeof *keys) : NULL;
        if (parent->n) {
            memcpy(items, parent->items, parent->n * sizeof *items);
            if (keys)
                memcpy(keys, parent->keys, parent->n * sizeof *keys);
        }
        parent->items = items;
        parent->keys = keys;
        *cap = nc;
    }
    if (parent->keys)
        parent->keys[parent->n] = key;
    parent->items[parent->n++] = child;
}

/* ---- strings ---- */

static int jp_hex4(const char *s)
{
    int v = 0;
    for (int i = 0; i < 4; i++) {
        char c = s[i];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

static size_t jp_utf8(unsigned cp, char *out)
{
    if (cp < 0x80) { out[0] = (char)cp; return 1; }
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

/* One "\u" escape at s (pointing at the backslash) within [s, end): the code
 * point (surrogate pairs joined) and the bytes consumed; <0 on error with
 * *why set. */
static long jp_unicode(const char *s, const char *end, size_t *used, const char **why)
{
    int hi, lo;
    if (end - s < 6 || (hi = jp_hex4(s + 2)) < 0) {
        *why = "\"\\u\" must be followed by four hexadecimal digits.";
        return -1;
    }
    *used = 6;
    if (hi >= 0xDC00 && hi <= 0xDFFF) {
        *why = "Unicode low surrogate must follow a high surrogate.";
        return -1;
    }
    if (hi < 0xD800 || hi > 0xDBFF)
        return hi;
    if (end - s < 12 || s[6] != '\\' || s[7] != 'u' || (lo = jp_hex4(s + 8)) < 0 ||
        lo < 0xDC00 || lo > 0xDFFF) {
        *why = "Unicode low surrogate must follow a high surrogate.";
        return -1;
    }
    *used = 12;
    return 0x10000 + ((long)(hi - 0xD800) << 10) + (lo - 0xDC00);
}

/* Lex a string at pos (at the quote); unescaped into *out when building. */
static void jp_string(JParse *p, StrRef *out)
{
    size_t start = ++p->pos;
    char *buf = NULL;
    size_t n = 0;
    bool build = p->arena != NULL && out != NULL;
    for (; p->pos < p->len && p->s[p->pos] != '"'; p->pos++)
        if (p->s[p->pos] == '\\')
            p->pos++;
    if (p->pos >= p->len)
        jp_fail(p, "The input string ended unexpectedly.", NULL, 0);
    if (build)
        buf = mem_alloc(p->arena, p->pos - start + 1);
    for (size_t i = start; i < p->pos;) {
        unsigned char c = (unsigned char)p->s[i];
        if (c < 0x20) {
            char d[64];
            snprintf(d, sizeof d, "Character with value 0x%02x must be escaped.", c);
            jp_fail(p, d, NULL, 0);
        }
        if (c != '\\') {
            if (build)
                buf[n++] = (char)c;
            i++;
            continue;
        }
        switch (p->s[i + 1]) {
        case '"': case '\\': case '/':
            if (build) buf[n++] = p->s[i + 1];
            i += 2;
            break;
        case 'b': if (build) buf[n++] = '\b'; i += 2; break;
        case 'f': if (build) buf[n++] = '\f'; i += 2; break;
        case 'n': if (build) buf[n++] = '\n'; i += 2; break;
        case 'r': if (build) buf[n++] = '\r'; i += 2; break;
        case 't': if (build) buf[n++] = '\t'; i += 2; break;
        case 'u': {
            size_t used = 0;
            const char *why = NULL;
            long cp = jp_unicode(p->s + i, p->s + p->pos, &used, &why);
            if (cp < 0 && !p->is_jsonb && used == 6) {
                i += 6; /* json keeps a lone surrogate as written */
                break;
            }
            if (cp < 0)
                jp_fail(p, why, NULL, 0);
            if (cp == 0 && p->is_jsonb) {
                ErrorData *e = err_begin(ERRCODE_UNTRANSLATABLE_CHARACTER);
                err_message(e, "unsupported Unicode escape sequence");
                err_detail(e, "\\u0000 cannot be converted to text.");
                err_throw();
            }
            if (build)
                n += jp_utf8((unsigned)cp, buf + n);
            i += used;
            break;
        }
        default: {
            size_t k = i + 1;
            while (k < p->pos && jp_alnum(p->s[k]) && k == i + 1)
                k++;
            jp_fail(p, "Escape sequence \"%.*s\" is invalid.", p->s + i, k - i);
        }
        }
    }
    p->pos++; /* closing quote */
    if (build) {
        out->ptr = buf;
        out->len = (uint32_t)n;
    }
}

/* ---- values ---- */

static JNode *jp_value(JParse *p);

static void jp_number(JParse *p, JNode *node)
{
    size_t at = p->pos, i = at;
    const char *s = p->s;
    if (i < p->len && s[i] == '-')
        i++;
    if (i >= p->len || !(s[i] >= '0' && s[i] <= '9'))
        jp_bad_token(p, at);
    if (s[i] == '0')
        i++;
    else
        while (i < p->len && s[i] >= '0' && s[i] <= '9')
            i++;
    if (i < p->len && s[i] == '.') {
        if (++i >= p->len || !(s[i] >= '0' && s[i] <= '9'))
            jp_bad_token(p, at);
        while (i < p->len && s[i] >= '0' && s[i] <= '9')
            i++;
    }
    if (i < p->len && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < p->len && (s[i] == '+' || s[i] == '-'))
            i++;
        if (i >= p->len || !(s[i] >= '0' && s[i] <= '9'))
            jp_bad_token(p, at);
        while (i < p->len && s[i] >= '0' && s[i] <= '9')
            i++;
    }
    if (i < p->len && jp_alnum(s[i]))
        jp_bad_token(p, at);
    p->pos = i;
    if (node != NULL) {
        StrRef num = numeric_in(s + at, i - at, -1, p->arena);
        node->text.ptr = numeric_format_arena(num, p->arena, &node->text.len);
    }
}

static JNode *jp_container(JParse *p, bool object)
{
    JNode *node = jn_new(p, object ? JSON_OBJECT : JSON_ARRAY);
    uint32_t cap = 0;
    char close = object ? '}' : ']';
    if (++p->depth > JSON_MAX_DEPTH)
        err_raise(ERRCODE_STATEMENT_TOO_COMPLEX, "stack depth limit exceeded");
    p->pos++;
    jp_skip_ws(p);
    if (p->pos < p->len && p->s[p->pos] == close) {
        p->pos++;
        p->depth--;
        return node;
    }
    for (;;) {
        StrRef key = {NULL, 0};
        JNode *child;
        jp_skip_ws(p);
        if (object) {
            if (p->pos >= p->len || p->s[p->pos] != '"')
                jp_expected(p, "string");
            jp_string(p, &key);
            jp_skip_ws(p);
            if (p->pos >= p->len || p->s[p->pos] != ':')
                jp_expected(p, "\":\"");
            p->pos++;
        }
        child = jp_value(p);
        jn_push(p, node, &cap, key, child);
        jp_skip_ws(p);
        if (p->pos < p->len && p->s[p->pos] == ',') {
            p->pos++;
            continue;
        }
        if (p->pos < p->len && p->s[p->pos] == close)
            break;
        jp_expected(p, object ? "\",\" or \"}\"" : "\",\" or \"]\"");
    }
    p->pos++;
    p->depth--;
    return node;
}

static JNode *jp_value(JParse *p)
{
    JNode *node;
    char c;
    jp_skip_ws(p);
    if (p->pos >= p->len)
        jp_fail(p, "The input string ended unexpectedly.", NULL, 0);
    c = p->s[p->pos];
    if (c == '{' || c == '[')
        return jp_container(p, c == '{');
    if (c == '"') {
        node = jn_new(p, JSON_STRING);
        jp_string(p, node ? &node->text : NULL);
        return node;
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
        node = jn_new(p, JSON_NUMBER);
        jp_number(p, node);
        return node;
    }
    if (jp_alnum(c)) {
        static const struct { const char *w; JsonKind k; } words[] = {
            {"true", JSON_BOOL}, {"false", JSON_BOOL}, {"null", JSON_NULL}};
        size_t n = 0;
        while (p->pos + n < p->len && jp_alnum(p->s[p->pos + n]))
            n++;
        for (int i = 0; i < 3; i++)
            if (n == strlen(words[i].w) && memcmp(p->s + p->pos, words[i].w, n) == 0) {
                node = jn_new(p, words[i].k);
                if (node)
                    node->text = (StrRef){words[i].w, (uint32_t)n};
                p->pos += n;
                return node;
            }
        jp_bad_token(p, p->pos);
    }
    if (c == ']' || c == '}' || c == ',' || c == ':')
        jp_expected(p, "JSON value");
    jp_bad_token(p, p->pos);
}

static JNode *jp_document(JParse *p)
{
    JNode *root = jp_value(p);
    jp_skip_ws(p);
    if (p->pos < p->len)
        jp_expected(p, "end of input");
    return root;
}

StrRef json_in(const char *s, size_t len, MemArena *arena)
{
    JParse p = {s, len, 0, NULL, false, 0};
    jp_document(&p);
    return (StrRef){mem_strndup(arena, s, len), (uint32_t)len};
}

/* ---- jsonb canonical text ---- */

static int jn_key_cmp(StrRef a, StrRef b)
{
    int c;
    if (a.len != b.len)
        return a.len < b.len ? -1 : 1;
    c = a.len ? memcmp(a.ptr, b.ptr, a.len) : 0;
    return c;
}

/* Sort members by key (stable on input order), keep the last duplicate. */
static void jn_normalize_object(JNode *n, MemArena *arena)
{
    uint32_t *idx, m = 0;
    if (n->n < 2)
        return;
    idx = mem_alloc(arena, n->n * sizeof *idx);
    for (uint32_t i = 0; i < n->n; i++) {
        uint32_t j = i;
        while (j > 0) { /* insertion with binary search would do; objects are small */
            int c = jn_key_cmp(n->keys[idx[j - 1]], n->keys[i]);
            if (c <= 0)
                break;
            idx[j] = idx[j - 1];
            j--;
        }
        idx[j] = i;
    }
    {
        JNode **items = mem_alloc(arena, n->n * sizeof *items);
        StrRef *keys = mem_alloc(arena, n->n * sizeof *keys);
        for (uint32_t i = 0; i < n->n; i++) {
            if (i + 1 < n->n && jn_key_cmp(n->keys[idx[i]], n->keys[idx[i + 1]]) == 0)
                continue; /* a later duplicate follows: it wins */
            keys[m] = n->keys[idx[i]];
            items[m++] = n->items[idx[i]];
        }
        n->items = items;
        n->keys = keys;
        n->n = m;
    }
}

static void jn_print(JNode *n, MemArena *arena, StrBuf *out)
{
    switch (n->kind) {
    case JSON_NULL: case JSON_BOOL: case JSON_NUMBER:
        strbuf_append(out, n->text.ptr, n->text.len);
        return;
    case JSON_STRING:
        json_escape_string(out, n->text.ptr, n->text.len);
        return;
    case JSON_ARRAY:
        strbuf_append_char(out, '[');
        for (uint32_t i = 0; i < n->n; i++) {
            if (i)
                strbuf_append(out, ", ", 2);
            jn_print(n->items[i], arena, out);
        }
        strbuf_append_char(out, ']');
        return;
    case JSON_OBJECT:
        jn_normalize_object(n, arena);
        strbuf_append_char(out, '{');
        for (uint32_t i = 0; i < n->n; i++) {
            if (i)
                strbuf_append(out, ", ", 2);
            json_escape_string(out, n->keys[i].ptr, n->keys[i].len);
            strbuf_append(out, ": ", 2);
            jn_print(n->items[i], arena, out);
        }
        strbuf_append_char(out, '}');
        return;
    }
}

static void jn_indent(StrBuf *out, int level)
{
    strbuf_append_char(out, '\n');
    for (int i = 0; i < level; i++)
        strbuf_append(out, "    ", 4);
}

/* PostgreSQL's JsonbToCStringIndent: containers open a line per member. */
static void jn_pretty(JNode *n, MemArena *arena, StrBuf *out, int level)
{
    if (n->kind != JSON_ARRAY && n->kind != JSON_OBJECT) {
        jn_print(n, arena, out);
        return;
    }
    bool object = n->kind == JSON_OBJECT;
    if (object)
        jn_normalize_object(n, arena);
    strbuf_append_char(out, object ? '{' : '[');
    for (uint32_t i = 0; i < n->n; i++) {
        if (i)
            strbuf_append_char(out, ',');
        jn_indent(out, level + 1);
        if (object) {
            json_escape_string(out, n->keys[i].ptr, n->keys[i].len);
            strbuf_append(out, ": ", 2);
        }
        jn_pretty(n->items[i], arena, out, level + 1);
    }
    jn_indent(out, level);   /* PostgreSQL closes even an empty container on its own line */
    strbuf_append_char(out, object ? '}' : ']');
}

StrRef jsonb_in(const char *s, size_t len, MemArena *arena)
{
    JParse p = {s, len, 0, arena, true, 0};
    JNode *root = jp_document(&p);
    StrBuf sb;
    StrRef r;
    ErrJmp jmp;
    strbuf_init(&sb);
    if (ERR_TRY(jmp)) {
        jn_print(root, arena, &sb);
        err_pop(&jmp);
    } else {
        strbuf_free(&sb);
        err_rethrow();
    }
    r.ptr = mem_strndup(arena, sb.data, sb.len);
    r.len = (uint32_t)sb.len;
    strbuf_free(&sb);
    return r;
}

/* ---- trees ---- */

JsonNode *json_tree(StrRef doc, MemArena *arena)
{
    JParse p = {doc.ptr, doc.len, 0, arena, true, 0};
    return jp_document(&p);
}

/* Print into a malloc'd StrBuf, released on error, copied into arena. */
static StrRef jn_to_arena(JNode *n, MemArena *arena, int pretty)
{
    StrBuf sb;
    StrRef r;
    ErrJmp jmp;
    strbuf_init(&sb);
    if (ERR_TRY(jmp)) {
        if (pretty)
            jn_pretty(n, arena, &sb, 0);
        else
            jn_print(n, arena, &sb);
        err_pop(&jmp);
    } else {
        strbuf_free(&sb);
        err_rethrow();
    }
    r.ptr = mem_strndup(arena, sb.data, sb.len);
    r.len = (uint32_t)sb.len;
    strbuf_free(&sb);
    return r;
}

StrRef jsonb_tree_text(JsonNode *n, MemArena *arena) { return jn_to_arena(n, arena, 0); }
StrRef jsonb_tree_pretty(JsonNode *n, MemArena *arena) { return jn_to_arena(n, arena, 1); }

/* ---- escaping and to_json ---- */

void json_escape_string(StrBuf *out, const char *s, size_t len)
{
    strbuf_append_char(out, '"');
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        switch (c) {
        case '\b': strbuf_append(out, "\\b", 2); break;
        case '\f': strbuf_append(out, "\\f", 2); break;
        case '\n': strbuf_append(out, "\\n", 2); break;
        case '\r': strbuf_append(out, "\\r", 2); break;
        case '\t': strbuf_append(out, "\\t", 2); break;
        case '"': strbuf_append(out, "\\\"", 2); break;
        case '\\': strbuf_append(out, "\\\\", 2); break;
        default:
            if (c < ' ')
                strbuf_printf(out, "\\u%04x", c);
            else
                strbuf_append_char(out, (char)c);
        }
    }
    strbuf_append_char(out, '"');
}

/* ISO 8601 with 'T' (PostgreSQL's USE_XSD_DATES) for to_json. */
static void json_datetime(SqlType t, const Value *v, StrBuf *out)
{
    char buf[DATETIME_BUF + 16];
    size_t n;
    if (t.oid == TYPE_DATE)
        n = date_format(v->u.i32, buf);
    else if (t.oid == TYPE_TIMESTAMP)
        n = timestamp_format(v->u.i64, buf);
    else
        n = timestamptz_format(v->u.i64, buf);
    if (n > 10 && buf[10] == ' ')
        buf[10] = 'T';
    if (t.oid == TYPE_TIMESTAMPTZ && v->u.i64 != TS_NOBEGIN && v->u.i64 != TS_NOEND) {
        /* XSD offsets always carry minutes: "+00:00" */
        char *sign = strrchr(buf, '+') ? strrchr(buf, '+') : strrchr(buf, '-');
        if (sign && strlen(sign) == 3) {
            memcpy(sign + 3, ":00", 4);
            n += 3;
        }
    }
    json_escape_string(out, buf, n);
}

void json_append_value(SqlType t, const Value *v, StrBuf *out)
{
    switch (t.oid) {
    case TYPE_BOOL: strbuf_append_str(out, v->u.b ? "true" : "false"); return;
    case TYPE_INT2: case TYPE_INT4: case TYPE_INT8: case TYPE_OID:
        type_output(t, v, NULL, out);
        return;
    case TYPE_FLOAT4: case TYPE_FLOAT8: case TYPE_NUMERIC: {
        size_t start = out->len;
        type_output(t, v, NULL, out);
        if (strchr("0123456789-", out->data[start]) == NULL ||
            strcmp(out->data + start, "-Infinity") == 0) {
            /* NaN, Infinity: quoted */
            char tmp[32];
            size_t n = out->len - start;
            snprintf(tmp, sizeof tmp, "%.*s", (int)n, out->data + start);
            out->len = start;
            json_escape_string(out, tmp, strlen(tmp));
        }
        return;
    }
    case TYPE_JSON: case TYPE_JSONB:
        strbuf_append(out, v->u.str.ptr, v->u.str.len);
        return;
    case TYPE_DATE: case TYPE_TIMESTAMP: case TYPE_TIMESTAMPTZ:
        json_datetime(t, v, out);
        return;
    default:
        break;
    }
    if (type_is_array(t.oid)) {   /* nested [..] per dimension, as array_to_json */
        ArrayView a = array_view(v->u.str);
        int32_t idx[ARRAY_MAX_DIMS] = {0};
        int nd = a.ndim > 0 ? a.ndim : 1;
        for (int d = 0; d < nd; d++)
            strbuf_append_char(out, '[');
        for (uint32_t i = 0; i < a.nelems; i++) {
            Value ev;
            array_get(&a, i, &ev);
            if (ev.is_null)
                strbuf_append(out, "null", 4);
            else
                json_append_value(SQLTYPE(a.elem_oid), &ev, out);
            int d = nd - 1, closed = 0;
            while (d >= 0 && ++idx[d] == a.dims[d]) {
                idx[d--] = 0;
                closed++;
                strbuf_append_char(out, ']');
            }
            if (d < 0)
                return;
            strbuf_append_char(out, ',');
            for (int k = 0; k < closed; k++)
                strbuf_append_char(out, '[');
        }
        strbuf_append_char(out, ']');   /* empty array: [] */
        return;
    }
    {
        StrBuf tmp;
        strbuf_init(&tmp);
        type_output(t, v, NULL, &tmp);
        json_escape_string(out, tmp.data, tmp.len);
        strbuf_free(&tmp);
    }
}

void json_append_key(SqlType t, const Value *v, StrBuf *out)
{
    StrBuf tmp;
    strbuf_init(&tmp);
    json_append_value(t, v, &tmp);
    if (tmp.len > 0 && tmp.data[0] == '"')
        strbuf_append(out, tmp.data, tmp.len);
    else
        json_escape_string(out, tmp.data, tmp.len);
    strbuf_free(&tmp);
}

/* ---- navigation over valid text ---- */

static size_t js_ws(StrRef d, size_t i)
{
    while (i < d.len && jp_ws(d.ptr[i]))
        i++;
    return i;
}

/* End of the value starting at i (text is valid JSON). */
static size_t js_skip(StrRef d, size_t i)
{
    int depth = 0;
    if (i >= d.len)
        return i;
    if (d.ptr[i] != '{' && d.ptr[i] != '[' && d.ptr[i] != '"') {
        while (i < d.len && !jp_ws(d.ptr[i]) && d.ptr[i] != ',' && d.ptr[i] != ']' &&
               d.ptr[i] != '}' && d.ptr[i] != ':')
            i++;
        return i;
    }
    for (; i < d.len; i++) {
        char c = d.ptr[i];
        if (c == '"') {
            for (i++; i < d.len && d.ptr[i] != '"'; i++)
                if (d.ptr[i] == '\\')
                    i++;
            if (depth == 0)
                return i + 1;
        } else if (c == '{' || c == '[') {
            depth++;
        } else if (c == '}' || c == ']') {
            if (--depth == 0)
                return i + 1;
        }
    }
    return i;
}

JsonKind json_kind(StrRef d)
{
    size_t i = js_ws(d, 0);
    if (i >= d.len)
        return JSON_NULL;
    switch (d.ptr[i]) {
    case '{': return JSON_OBJECT;
    case '[': return JSON_ARRAY;
    case '"': return JSON_STRING;
    case 't': case 'f': return JSON_BOOL;
    case 'n': return JSON_NULL;
    default: return JSON_NUMBER;
    }
}

const char *json_kind_name(JsonKind k)
{
    static const char *const names[] = {"null", "boolean", "number", "string", "array", "object"};
    return names[k];
}

bool json_next(StrRef d, size_t *pos, StrRef *key, StrRef *value)
{
    size_t i = *pos;
    bool object;
    if (i == 0) {
        i = js_ws(d, 0);
        if (i >= d.len || (d.ptr[i] != '{' && d.ptr[i] != '['))
            return false;
        i++;
    }
    i = js_ws(d, i);
    if (i < d.len && d.ptr[i] == ',')
        i = js_ws(d, i + 1);
    if (i >= d.len || d.ptr[i] == '}' || d.ptr[i] == ']')
        return false;
    object = d.ptr[i] == '"' && js_ws(d, js_skip(d, i)) < d.len &&
             d.ptr[js_ws(d, js_skip(d, i))] == ':';
    key->ptr = NULL;
    key->len = 0;
    if (object) {
        size_t e = js_skip(d, i);
        key->ptr = d.ptr + i;
        key->len = (uint32_t)(e - i);
        i = js_ws(d, js_ws(d, e) + 1);
    }
    {
        size_t e = js_skip(d, i);
        value->ptr = d.ptr + i;
        value->len = (uint32_t)(e - i);
        *pos = e;
    }
    return true;
}

/* Does the raw JSON string literal raw (quotes included) spell key? */
static bool js_key_equals(StrRef raw, const char *key, size_t key_len)
{
    size_t k = 0;
    const char *s = raw.ptr + 1, *end = raw.ptr + raw.len - 1;
    while (s < end) {
        char buf[4];
        size_t n = 1;
        if (*s != '\\') {
            buf[0] = *s++;
        } else {
            switch (s[1]) {
            case 'b': buf[0] = '\b'; s += 2; break;
            case 'f': buf[0] = '\f'; s += 2; break;
            case 'n': buf[0] = '\n'; s += 2; break;
            case 'r': buf[0] = '\r'; s += 2; break;
            case 't': buf[0] = '\t'; s += 2; break;
            case 'u': {
                size_t used = 6;
                const char *why;
                long cp = jp_unicode(s, end, &used, &why);
                n = jp_utf8(cp < 0 ? 0xFFFD : (unsigned)cp, buf);
                s += used;
                break;
            }
            default: buf[0] = s[1]; s += 2; break;
            }
        }
        if (k + n > key_len || memcmp(key + k, buf, n) != 0)
            return false;
        k += n;
    }
    return k == key_len;
}

bool json_object_field(StrRef doc, const char *key, size_t key_len, StrRef *out)
{
    size_t pos = 0;
    StrRef k, v;
    bool found = false;
    if (json_kind(doc) != JSON_OBJECT)
        return false;
    while (json_next(doc, &pos, &k, &v))
        if (js_key_equals(k, key, key_len)) {
            *out = v; /* the last duplicate wins */
            found = true;
        }
    return found;
}

int64_t json_length(StrRef doc)
{
    size_t pos = 0;
    StrRef k, v;
    int64_t n = 0;
    JsonKind kind = json_kind(doc);
    if (kind != JSON_ARRAY && kind != JSON_OBJECT)
        return -1;
    while (json_next(doc, &pos, &k, &v))
        n++;
    return n;
}

bool json_array_element(StrRef doc, int64_t idx, StrRef *out)
{
    size_t pos = 0;
    StrRef k, v;
    int64_t i = 0;
    if (json_kind(doc) != JSON_ARRAY)
        return false;
    if (idx < 0) {
        idx += json_length(doc);
        if (idx < 0)
            return false;
    }
    while (json_next(doc, &pos, &k, &v))
        if (i++ == idx) {
            *out = v;
            return true;
        }
    return false;
}

bool json_extract_path(StrRef doc, const StrRef *path, int npath, StrRef *out)
{
    StrRef cur = doc;
    for (int i = 0; i < npath; i++) {
        JsonKind k = json_kind(cur);
        if (k == JSON_OBJECT) {
            if (!json_object_field(cur, path[i].ptr, path[i].len, &cur))
                return false;
        } else if (k == JSON_ARRAY) {
            char buf[24], *end;
            long long idx;
            if (path[i].len == 0 || path[i].len >= sizeof buf)
                return false;
            memcpy(buf, path[i].ptr, path[i].len);
            buf[path[i].len] = '\0';
            idx = strtoll(buf, &end, 10);
            if (*end != '\0' || !json_array_element(cur, idx, &cur))
                return false;
        } else {
            return false;
        }
    }
    *out = cur;
    return true;
}

StrRef json_value_text(StrRef value, MemArena *arena, bool *is_null)
{
    JParse p = {value.ptr, value.len, 0, arena, false, 0};
    StrRef r = value;
    size_t i = js_ws(value, 0);
    *is_null = false;
    if (i < value.len && value.ptr[i] == 'n') {
        *is_null = true;
        return (StrRef){NULL, 0};
    }
    if (i < value.len && value.ptr[i] == '"') {
        p.pos = i;
        jp_string(&p, &r);
    }
    return r;
}

/* ---- jsonb ordering (PostgreSQL's compareJsonbContainers) ---- */

/* PostgreSQL's JsonbValue type numbers: the order between kinds. */
static int jb_rank(JsonKind k)
{
    switch (k) {
    case JSON_NULL: return 0;
    case JSON_STRING: return 1;
    case JSON_NUMBER: return 2;
    case JSON_BOOL: return 3;
    case JSON_ARRAY: return 16;
    case JSON_OBJECT: return 17;
    }
    return 0;
}

/* Next code unit of a JSON string literal body at *p (< end), escapes decoded. */
static size_t jb_str_unit(const char **p, const char *end, char *buf)
{
    const char *s = *p;
    if (*s != '\\') {
        buf[0] = *s;
        *p = s + 1;
        return 1;
    }
    switch (s[1]) {
    case 'b': buf[0] = '\b'; break;
    case 'f': buf[0] = '\f'; break;
    case 'n': buf[0] = '\n'; break;
    case 'r': buf[0] = '\r'; break;
    case 't': buf[0] = '\t'; break;
    case 'u': {
        size_t used = 6;
        const char *why;
        long cp = jp_unicode(s, end, &used, &why);
        *p = s + used;
        return jp_utf8(cp < 0 ? 0xFFFD : (unsigned)cp, buf);
    }
    default: buf[0] = s[1]; break;
    }
    *p = s + 2;
    return 1;
}

/* Two string literals (quotes included) by their decoded bytes (C collation). */
static int jb_str_cmp(StrRef a, StrRef b)
{
    const char *pa = a.ptr + 1, *ea = a.ptr + a.len - 1, *pb = b.ptr + 1, *eb = b.ptr + b.len - 1;
    char ba[4], bb[4];
    size_t na = 0, nb = 0, ia = 0, ib = 0;
    for (;;) {
        if (ia == na && pa < ea) {
            na = jb_str_unit(&pa, ea, ba);
            ia = 0;
        }
        if (ib == nb && pb < eb) {
            nb = jb_str_unit(&pb, eb, bb);
            ib = 0;
        }
        if (ia == na || ib == nb)
            return (ia == na) == (ib == nb) ? 0 : (ia == na ? -1 : 1);
        if (ba[ia] != bb[ib])
            return (unsigned char)ba[ia] < (unsigned char)bb[ib] ? -1 : 1;
        ia++;
        ib++;
    }
}

/* Two canonical numbers (numeric_out text: [-]digits[.digits]) by value. */
static int jb_num_cmp(StrRef a, StrRef b)
{
    bool na = a.len && a.ptr[0] == '-', nb = b.len && b.ptr[0] == '-';
    const char *x = a.ptr + na, *y = b.ptr + nb;
    size_t xl = a.len - na, yl = b.len - nb, xi = 0, yi = 0, k;
    int c = 0;
    while (xi < xl && x[xi] != '.')
        xi++;
    while (yi < yl && y[yi] != '.')
        yi++;
    if (na != nb)
        return na ? -1 : 1;
    if (xi != yi) {
        c = xi < yi ? -1 : 1;
    } else if ((c = memcmp(x, y, xi)) == 0) {
        for (k = 1; c == 0 && (xi + k < xl || yi + k < yl); k++) {
            char dx = xi + k < xl ? x[xi + k] : '0', dy = yi + k < yl ? y[yi + k] : '0';
            c = dx - dy;
        }
    }
    c = c < 0 ? -1 : c > 0;
    return na ? -c : c;
}

static int jb_cmp(StrRef a, StrRef b);

/* Containers of the same kind: size first, then members in stored order. */
static int jb_cmp_container(StrRef a, StrRef b, bool object)
{
    int64_t la = json_length(a), lb = json_length(b);
    size_t pa = 0, pb = 0;
    StrRef ka, va, kb, vb;
    if (la != lb)
        return la > lb ? 1 : -1;
    while (json_next(a, &pa, &ka, &va) && json_next(b, &pb, &kb, &vb)) {
        int c;
        if (object && (c = jb_str_cmp(ka, kb)) != 0)
            return c;
        if ((c = jb_cmp(va, vb)) != 0)
            return c;
    }
    return 0;
}

static int jb_cmp(StrRef a, StrRef b)
{
    JsonKind ka = json_kind(a), kb = json_kind(b);
    size_t ia = js_ws(a, 0), ib = js_ws(b, 0);
    StrRef ta = {a.ptr + ia, (uint32_t)(js_skip(a, ia) - ia)};
    StrRef tb = {b.ptr + ib, (uint32_t)(js_skip(b, ib) - ib)};
    if (ka != kb)
        return jb_rank(ka) < jb_rank(kb) ? -1 : 1;
    switch (ka) {
    case JSON_NULL: return 0;
    case JSON_BOOL: return (ta.ptr[0] == 't') - (tb.ptr[0] == 't');
    case JSON_NUMBER: return jb_num_cmp(ta, tb);
    case JSON_STRING: return jb_str_cmp(ta, tb);
    case JSON_ARRAY: return jb_cmp_container(a, b, false);
    case JSON_OBJECT: return jb_cmp_container(a, b, true);
    }
    return 0;
}

int jsonb_compare(StrRef a, StrRef b)
{
    JsonKind ka = json_kind(a), kb = json_kind(b);
    bool sa = ka != JSON_ARRAY && ka != JSON_OBJECT, sb = kb != JSON_ARRAY && kb != JSON_OBJECT;
    /* a top-level scalar is PostgreSQL's "raw scalar" one-element array */
    if (sa && sb)
        return jb_cmp(a, b);
    if (sa && kb == JSON_ARRAY) {
        int64_t n = json_length(b);
        return n != 1 ? (1 > n ? 1 : -1) : -1;
    }
    if (sb && ka == JSON_ARRAY) {
        int64_t n = json_length(a);
        return n != 1 ? (n > 1 ? 1 : -1) : 1;
    }
    if (sa || sb) /* scalar vs object: array < object */
        return sa ? -1 : 1;
    return jb_cmp(a, b);
}

/* FNV-1a over the canonical text with numbers' trailing fractional zeros
 * dropped: values jsonb_compare calls equal hash equal. */
uint64_t jsonb_hash(StrRef a)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    size_t i = 0;
    while (i < a.len) {
        char c = a.ptr[i];
        if (c == '"') { /* a string: as is */
            size_t e = js_skip(a, i);
            for (; i < e; i++)
                h = (h ^ (unsigned char)a.ptr[i]) * UINT64_C(0x100000001b3);
            continue;
        }
        if (c == '-' || (c >= '0' && c <= '9')) {
            size_t e = js_skip(a, i), end = e;
            if (memchr(a.ptr + i, '.', e - i) != NULL) {
                while (end > i && a.ptr[end - 1] == '0')
                    end--;
                if (a.ptr[end - 1] == '.')
                    end--;
            }
            for (; i < end; i++)
                h = (h ^ (unsigned char)a.ptr[i]) * UINT64_C(0x100000001b3);
            i = e;
            continue;
        }
        h = (h ^ (unsigned char)c) * UINT64_C(0x100000001b3);
        i++;
    }
    return hash_u64(h);
}
