/*
 * funcs_text.c — the string functions beyond funcs_string.c's basics:
 * initcap, strpos/position, replace, translate, btrim/ltrim/rtrim (spaces
 * or a character set), lpad/rpad, left, right, repeat, reverse, split_part,
 * starts_with, ascii, chr, to_hex, md5 (OpenSSL), quote_ident,
 * quote_literal, quote_nullable, concat, concat_ws and format (%s %I %L
 * %%, argument positions, widths and the - flag).
 *
 * Semantics are PostgreSQL 15's for a UTF-8 database with the C locale:
 * positions and lengths count characters, initcap changes ASCII letters
 * only (asc_initcap). Errors use PostgreSQL's texts and SQLSTATEs.
 *
 * Kernels are row loops with direct calls; results are cut from a TextOut
 * (kernels_text.h: a few arena chunks per batch, never an allocation per
 * row) or are slices of the input (left, right, trims, split_part).
 * concat/concat_ws/format are VARIADIC "any" (FUNC_ARG_ANY: arguments of
 * other types are turned into their output text once per batch) and not
 * strict: they see NULL arguments and set their own result validity.
 */
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>
#include "common/error.h"
#include "common/types.h"
#include "common/typio.h"
#include "executor/funcs.h"
#include "executor/kernels_text.h"

static inline char asc_lower(char c) { return (c >= 'A' && c <= 'Z') ? (char)(c + 32) : c; }
static inline char asc_upper(char c) { return (c >= 'a' && c <= 'z') ? (char)(c - 32) : c; }
static inline bool asc_alnum(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* Total bytes of a string argument over the active valid rows. */
static size_t txt_total(const FuncCallCtx *ctx, const Vector *v, const Vector *result)
{
    const StrRef *a = (const StrRef *)v->data;
    uint32_t am = v->is_const ? 0 : UINT32_MAX;
    size_t t = 0;
    TXT_FOR_ACTIVE_VALID(ctx, result, row) t += a[row & am].len;
    return t;
}

/* ---------- initcap ---------- */

static void k_initcap(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    TXT_ARG(args, 0, a, am);
    StrRef *r = (StrRef *)result->data;
    char *buf = mem_alloc(ctx->arena, txt_total(ctx, args[0], result) + 1);
    TXT_FOR_ACTIVE_VALID(ctx, result, row) {
        StrRef s = a[row & am];
        bool was_alnum = false;
        for (uint32_t j = 0; j < s.len; j++) {
            char c = s.ptr[j];
            buf[j] = was_alnum ? asc_lower(c) : asc_upper(c);
            was_alnum = asc_alnum(c);
        }
        r[row] = (StrRef){buf, s.len};
        buf += s.len;
    }
}

/* ---------- strpos / position ---------- */

/* Byte offset of needle in hay, or -1. */
static int64_t txt_find(StrRef hay, StrRef needle, uint32_t from)
{
    if (needle.len == 0) return from;
    if (hay.len < from || hay.len - from < needle.len) return -1;
    const char *p = memmem(hay.ptr + from, hay.len - from, needle.ptr, needle.len);
    return p ? p - hay.ptr : -1;
}

static int32_t strpos_one(StrRef hay, StrRef needle)
{
    int64_t off = txt_find(hay, needle, 0);
    if (off < 0) return 0;
    return (int32_t)txt_count((StrRef){hay.ptr, (uint32_t)off}) + 1;
}

KERNEL_ROWS_BINARY(k_strpos, StrRef, StrRef, int32_t, r[row] = strpos_one(a[ia], b[ib]))
KERNEL_ROWS_BINARY(k_starts_with, StrRef, StrRef, uint8_t,
                   r[row] = (uint8_t)(a[ia].len >= b[ib].len &&
                                      (b[ib].len == 0 || memcmp(a[ia].ptr, b[ib].ptr, b[ib].len) == 0)))

/* ---------- replace / translate ---------- */

static void k_replace(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    TXT_ARG(args, 0, a, am);
    TXT_ARG(args, 1, b, bm);
    TXT_ARG(args, 2, c, cm);
    StrRef *r = (StrRef *)result->data;
    TextOut out;
    text_out_init(&out, ctx->arena, txt_total(ctx, args[0], result));
    TXT_FOR_ACTIVE_VALID(ctx, result, row) {
        StrRef s = a[row & am], from = b[row & bm], to = c[row & cm];
        if (from.len == 0 || s.len == 0) {
            r[row] = s;
            continue;
        }
        uint32_t pos = 0;
        int64_t hit;
        while ((hit = txt_find(s, from, pos)) >= 0) {
            text_out_append(&out, s.ptr + pos, (size_t)hit - pos);
            text_out_append(&out, to.ptr, to.len);
            pos = (uint32_t)hit + from.len;
        }
        text_out_append(&out, s.ptr + pos, s.len - pos);
        r[row] = text_out_finish(&out);
    }
}

/* Index (in characters) of the character ch (cl bytes) in set, or -1. */
static int64_t char_index(StrRef set, const char *ch, uint32_t cl, uint32_t *byte_off)
{
    int64_t idx = 0;
    for (uint32_t off = 0; off < set.len; idx++) {
        uint32_t l = txt_char_at(set, off);
        if (l == cl && memcmp(set.ptr + off, ch, cl) == 0) {
            if (byte_off) *byte_off = off;
            return idx;
        }
        off += l;
    }
    return -1;
}

static StrRef translate_one(TextOut *out, StrRef s, StrRef from, StrRef to)
{
    for (uint32_t off = 0; off < s.len;) {
        uint32_t cl = txt_char_at(s, off);
        int64_t idx = char_index(from, s.ptr + off, cl, NULL);
        if (idx < 0) {
            text_out_append(out, s.ptr + off, cl);
        } else {
            uint32_t toff = txt_offset(to, idx);
            if (toff < to.len) text_out_append(out, to.ptr + toff, txt_char_at(to, toff));
        }
        off += cl;
    }
    return text_out_finish(out);
}

static void k_translate(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    TXT_ARG(args, 0, a, am);
    TXT_ARG(args, 1, b, bm);
    TXT_ARG(args, 2, c, cm);
    StrRef *r = (StrRef *)result->data;
    TextOut out;
    text_out_init(&out, ctx->arena, txt_total(ctx, args[0], result));
    TXT_FOR_ACTIVE_VALID(ctx, result, row)
        r[row] = translate_one(&out, a[row & am], b[row & bm], c[row & cm]);
}

/* ---------- trims ---------- */

enum { TRIM_LEFT = 1, TRIM_RIGHT = 2, TRIM_BOTH = 3 };

static StrRef trim_chars(StrRef s, StrRef set, int how)
{
    if (how & TRIM_LEFT) {
        while (s.len > 0) {
            uint32_t cl = txt_char_at(s, 0);
            if (char_index(set, s.ptr, cl, NULL) < 0) break;
            s.ptr += cl, s.len -= cl;
        }
    }
    if (how & TRIM_RIGHT) {
        while (s.len > 0) {
            uint32_t start = s.len - 1;
            while (start > 0 && ((unsigned char)s.ptr[start] & 0xC0) == 0x80) start--;
            if (char_index(set, s.ptr + start, s.len - start, NULL) < 0) break;
            s.len = start;
        }
    }
    return s;
}

static const StrRef space_set = {" ", 1};

KERNEL_ROWS_UNARY(k_btrim1, StrRef, StrRef, r[row] = trim_chars(a[ia], space_set, TRIM_BOTH))
KERNEL_ROWS_UNARY(k_ltrim1, StrRef, StrRef, r[row] = trim_chars(a[ia], space_set, TRIM_LEFT))
KERNEL_ROWS_UNARY(k_rtrim1, StrRef, StrRef, r[row] = trim_chars(a[ia], space_set, TRIM_RIGHT))
KERNEL_ROWS_BINARY(k_btrim2, StrRef, StrRef, StrRef, r[row] = trim_chars(a[ia], b[ib], TRIM_BOTH))
KERNEL_ROWS_BINARY(k_ltrim2, StrRef, StrRef, StrRef, r[row] = trim_chars(a[ia], b[ib], TRIM_LEFT))
KERNEL_ROWS_BINARY(k_rtrim2, StrRef, StrRef, StrRef, r[row] = trim_chars(a[ia], b[ib], TRIM_RIGHT))

/* ---------- left / right / reverse / repeat ---------- */

static StrRef left_one(StrRef s, int32_t n)
{
    if (n < 0) {
        int64_t keep = txt_count(s) + n;
        return (StrRef){s.ptr, keep <= 0 ? 0 : txt_offset(s, keep)};
    }
    return (StrRef){s.ptr, txt_offset(s, n)};
}

static StrRef right_one(StrRef s, int32_t n)
{
    int64_t skip = n < 0 ? -(int64_t)n : txt_count(s) - n;
    if (skip < 0) skip = 0;
    uint32_t off = txt_offset(s, skip);
    return (StrRef){s.ptr + off, s.len - off};
}

KERNEL_ROWS_BINARY(k_left, StrRef, int32_t, StrRef, r[row] = left_one(a[ia], b[ib]))
KERNEL_ROWS_BINARY(k_right, StrRef, int32_t, StrRef, r[row] = right_one(a[ia], b[ib]))

static void k_reverse(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    TXT_ARG(args, 0, a, am);
    StrRef *r = (StrRef *)result->data;
    char *buf = mem_alloc(ctx->arena, txt_total(ctx, args[0], result) + 1);
    TXT_FOR_ACTIVE_VALID(ctx, result, row) {
        StrRef s = a[row & am];
        for (uint32_t off = 0; off < s.len;) {
            uint32_t cl = txt_char_at(s, off);
            memcpy(buf + s.len - off - cl, s.ptr + off, cl);
            off += cl;
        }
        r[row] = (StrRef){buf, s.len};
        buf += s.len;
    }
}

static void k_repeat(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    TXT_ARG(args, 0, a, am);
    const int32_t *b = (const int32_t *)args[1]->data;
    uint32_t bm = args[1]->is_const ? 0 : UINT32_MAX;
    StrRef *r = (StrRef *)result->data;
    TextOut out;
    text_out_init(&out, ctx->arena, 0);
    TXT_FOR_ACTIVE_VALID(ctx, result, row) {
        StrRef s = a[row & am];
        int64_t n = b[row & bm] < 0 ? 0 : b[row & bm];
        if ((int64_t)s.len * n > INT32_MAX - 4) text_too_long();
        char *dst = text_out_reserve(&out, (size_t)(s.len * n));
        for (int64_t k = 0; k < n; k++) memcpy(dst + k * s.len, s.ptr, s.len);
        out.used += (size_t)(s.len * n);
        r[row] = text_out_finish(&out);
    }
}

/* ---------- lpad / rpad ---------- */

static StrRef pad_one(TextOut *out, StrRef s, int32_t len, StrRef fill, bool left)
{
    if (len < 0) len = 0;
    if ((int64_t)len * 4 > (int64_t)TEXT_MAX_BYTES) text_too_long();
    int64_t slen = txt_count(s);
    if (slen >= len || fill.len == 0) return (StrRef){s.ptr, txt_offset(s, len)};
    int64_t need = len - slen;
    if (!left) text_out_append(out, s.ptr, s.len);
    for (uint32_t off = 0; need > 0; need--) {
        uint32_t cl = txt_char_at(fill, off);
        text_out_append(out, fill.ptr + off, cl);
        off += cl;
        if (off >= fill.len) off = 0;
    }
    if (left) text_out_append(out, s.ptr, s.len);
    return text_out_finish(out);
}

static void pad_kernel(const FuncCallCtx *ctx, Vector *const *args, Vector *result, int nargs,
                       bool left)
{
    TXT_ARG(args, 0, a, am);
    const int32_t *b = (const int32_t *)args[1]->data;
    uint32_t bm = args[1]->is_const ? 0 : UINT32_MAX;
    const StrRef *c = nargs > 2 ? (const StrRef *)args[2]->data : &space_set;
    uint32_t cm = nargs > 2 && !args[2]->is_const ? UINT32_MAX : 0;
    StrRef *r = (StrRef *)result->data;
    TextOut out;
    text_out_init(&out, ctx->arena, 0);
    TXT_FOR_ACTIVE_VALID(ctx, result, row)
        r[row] = pad_one(&out, a[row & am], b[row & bm], c[row & cm], left);
}
static void k_lpad2(const FuncCallCtx *c, Vector *const *a, Vector *r) { pad_kernel(c, a, r, 2, true); }
static void k_lpad3(const FuncCallCtx *c, Vector *const *a, Vector *r) { pad_kernel(c, a, r, 3, true); }
static void k_rpad2(const FuncCallCtx *c, Vector *const *a, Vector *r) { pad_kernel(c, a, r, 2, false); }
static void k_rpad3(const FuncCallCtx *c, Vector *const *a, Vector *r) { pad_kernel(c, a, r, 3, false); }

/* ---------- split_part ---------- */

static StrRef split_part_one(StrRef s, StrRef delim, int32_t n)
{
    if (n == 0) err_raise(ERRCODE_INVALID_PARAMETER_VALUE, "field position must not be zero");
    if (s.len == 0) return s;
    if (delim.len == 0) return (n == 1 || n == -1) ? s : (StrRef){s.ptr, 0};
    /* Count fields when counting from the end. */
    if (n < 0) {
        int64_t fields = 1;
        for (int64_t p = 0; (p = txt_find(s, delim, (uint32_t)p)) >= 0; p += delim.len) fields++;
        if (-(int64_t)n > fields) return (StrRef){s.ptr, 0};
        n = (int32_t)(fields + n + 1);
    }
    uint32_t start = 0;
    for (int32_t k = 1; k < n; k++) {
        int64_t hit = txt_find(s, delim, start);
        if (hit < 0) return (StrRef){s.ptr, 0};
        start = (uint32_t)hit + delim.len;
    }
    int64_t end = txt_find(s, delim, start);
    return (StrRef){s.ptr + start, (uint32_t)(end < 0 ? s.len : (uint32_t)end) - start};
}

static void k_split_part(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    TXT_ARG(args, 0, a, am);
    TXT_ARG(args, 1, b, bm);
    const int32_t *c = (const int32_t *)args[2]->data;
    uint32_t cm = args[2]->is_const ? 0 : UINT32_MAX;
    StrRef *r = (StrRef *)result->data;
    TXT_FOR_ACTIVE_VALID(ctx, result, row) r[row] = split_part_one(a[row & am], b[row & bm], c[row & cm]);
}

/* ---------- ascii / chr / to_hex / md5 ---------- */

static int32_t ascii_one(StrRef s)
{
    if (s.len == 0) return 0;
    unsigned char c = (unsigned char)s.ptr[0];
    uint32_t cl = txt_char_at(s, 0);
    if (cl == 1) return c;
    int32_t v = c & (0xFF >> (cl + 1));
    for (uint32_t k = 1; k < cl; k++) v = (v << 6) | ((unsigned char)s.ptr[k] & 0x3F);
    return v;
}
KERNEL_ROWS_UNARY(k_ascii, StrRef, int32_t, r[row] = ascii_one(a[ia]))

/* UTF-8 encoding of code point v into buf; returns its length. */
static uint32_t chr_encode(int32_t v, char *buf)
{
    if (v < 0) err_raise(ERRCODE_PROGRAM_LIMIT_EXCEEDED, "character number must be positive");
    if (v == 0) err_raise(ERRCODE_PROGRAM_LIMIT_EXCEEDED, "null character not permitted");
    uint32_t c = (uint32_t)v;
    if (c > 0x10FFFF)
        err_raise(ERRCODE_PROGRAM_LIMIT_EXCEEDED, "requested character too large for encoding: %u", c);
    if (c >= 0xD800 && c <= 0xDFFF)
        err_raise(ERRCODE_PROGRAM_LIMIT_EXCEEDED, "requested character not valid for encoding: %u", c);
    if (c < 0x80) return buf[0] = (char)c, 1;
    if (c < 0x800) {
        buf[0] = (char)(0xC0 | (c >> 6)), buf[1] = (char)(0x80 | (c & 0x3F));
        return 2;
    }
    if (c < 0x10000) {
        buf[0] = (char)(0xE0 | (c >> 12)), buf[1] = (char)(0x80 | ((c >> 6) & 0x3F));
        buf[2] = (char)(0x80 | (c & 0x3F));
        return 3;
    }
    buf[0] = (char)(0xF0 | (c >> 18)), buf[1] = (char)(0x80 | ((c >> 12) & 0x3F));
    buf[2] = (char)(0x80 | ((c >> 6) & 0x3F)), buf[3] = (char)(0x80 | (c & 0x3F));
    return 4;
}

static void k_chr(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    const int32_t *a = (const int32_t *)args[0]->data;
    uint32_t am = args[0]->is_const ? 0 : UINT32_MAX;
    StrRef *r = (StrRef *)result->data;
    char *buf = mem_alloc(ctx->arena, 4 * (size_t)ctx->count + 1);
    TXT_FOR_ACTIVE_VALID(ctx, result, row) {
        uint32_t n = chr_encode(a[row & am], buf);
        r[row] = (StrRef){buf, n};
        buf += n;
    }
}

static uint32_t hex_u64(uint64_t v, char *buf)
{
    char tmp[16];
    uint32_t n = 0;
    do tmp[n++] = "0123456789abcdef"[v & 15], v >>= 4;
    while (v);
    for (uint32_t k = 0; k < n; k++) buf[k] = tmp[n - 1 - k];
    return n;
}

static void to_hex_kernel(const FuncCallCtx *ctx, Vector *const *args, Vector *result, bool wide)
{
    const int32_t *a4 = (const int32_t *)args[0]->data;
    const int64_t *a8 = (const int64_t *)args[0]->data;
    uint32_t am = args[0]->is_const ? 0 : UINT32_MAX;
    StrRef *r = (StrRef *)result->data;
    char *buf = mem_alloc(ctx->arena, 16 * (size_t)ctx->count + 1);
    TXT_FOR_ACTIVE_VALID(ctx, result, row) {
        uint64_t v = wide ? (uint64_t)a8[row & am] : (uint64_t)(uint32_t)a4[row & am];
        uint32_t n = hex_u64(v, buf);
        r[row] = (StrRef){buf, n};
        buf += n;
    }
}
static void k_to_hex4(const FuncCallCtx *c, Vector *const *a, Vector *r) { to_hex_kernel(c, a, r, false); }
static void k_to_hex8(const FuncCallCtx *c, Vector *const *a, Vector *r) { to_hex_kernel(c, a, r, true); }

static void k_md5(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    TXT_ARG(args, 0, a, am);
    StrRef *r = (StrRef *)result->data;
    char *buf = mem_alloc(ctx->arena, 32 * (size_t)ctx->count + 1);
    /* one digest context per batch (EVP_Digest would allocate one per row) */
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    if (md == NULL) err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    TXT_FOR_ACTIVE_VALID(ctx, result, row) {
        unsigned char dig[EVP_MAX_MD_SIZE];
        unsigned int dlen = 0;
        StrRef s = a[row & am];
        if (!EVP_DigestInit_ex(md, EVP_md5(), NULL) || !EVP_DigestUpdate(md, s.ptr ? s.ptr : "", s.len) ||
            !EVP_DigestFinal_ex(md, dig, &dlen) || dlen != 16) {
            EVP_MD_CTX_free(md);
            err_raise(ERRCODE_INTERNAL_ERROR, "could not compute MD5 hash");
        }
        for (unsigned k = 0; k < 16; k++) {
            buf[2 * k] = "0123456789abcdef"[dig[k] >> 4];
            buf[2 * k + 1] = "0123456789abcdef"[dig[k] & 15];
        }
        r[row] = (StrRef){buf, 32};
        buf += 32;
    }
    EVP_MD_CTX_free(md);
}

/* ---------- quoting ---------- */

/* PostgreSQL 15's keywords that are not UNRESERVED (quote_ident quotes them). */
static const char *const quoted_keywords[] = {
    "all", "analyse", "analyze", "and", "any", "array", "as", "asc", "asymmetric", "authorization",
    "between", "bigint", "binary", "bit", "boolean", "both", "case", "cast", "char", "character",
    "check", "coalesce", "collate", "collation", "column", "concurrently", "constraint", "create",
    "cross", "current_catalog", "current_date", "current_role", "current_schema", "current_time",
    "current_timestamp", "current_user", "dec", "decimal", "default", "deferrable", "desc",
    "distinct", "do", "else", "end", "except", "exists", "extract", "false", "fetch", "float", "for",
    "foreign", "freeze", "from", "full", "grant", "greatest", "group", "grouping", "having", "ilike",
    "in", "initially", "inner", "inout", "int", "integer", "intersect", "interval", "into", "is",
    "isnull", "join", "lateral", "leading", "least", "left", "like", "limit", "localtime",
    "localtimestamp", "national", "natural", "nchar", "none", "normalize", "not", "notnull", "null",
    "nullif", "numeric", "offset", "on", "only", "or", "order", "out", "outer", "overlaps", "overlay",
    "placing", "position", "precision", "primary", "real", "references", "returning", "right", "row",
    "select", "session_user", "setof", "similar", "smallint", "some", "substring", "symmetric",
    "table", "tablesample", "then", "time", "timestamp", "to", "trailing", "treat", "trim", "true",
    "union", "unique", "user", "using", "values", "varchar", "variadic", "verbose", "when", "where",
    "window", "with", "xmlattributes", "xmlconcat", "xmlelement", "xmlexists", "xmlforest",
    "xmlnamespaces", "xmlparse", "xmlpi", "xmlroot", "xmlserialize", "xmltable",
};

static bool is_quoted_keyword(StrRef s)
{
    int lo = 0, hi = (int)(sizeof quoted_keywords / sizeof quoted_keywords[0]);
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        const char *k = quoted_keywords[mid];
        size_t kl = strlen(k);
        int c = memcmp(k, s.ptr, kl < s.len ? kl : s.len);
        if (c == 0) c = (kl > s.len) - (kl < s.len);
        if (c == 0) return true;
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return false;
}

/* PostgreSQL's quote_identifier. */
static void quote_ident_into(TextOut *out, StrRef s)
{
    bool safe = s.len > 0 && ((s.ptr[0] >= 'a' && s.ptr[0] <= 'z') || s.ptr[0] == '_');
    for (uint32_t k = 0; safe && k < s.len; k++) {
        char c = s.ptr[k];
        safe = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    }
    if (safe && !is_quoted_keyword(s)) {
        text_out_append(out, s.ptr, s.len);
        return;
    }
    text_out_char(out, '"');
    for (uint32_t k = 0; k < s.len; k++) {
        if (s.ptr[k] == '"') text_out_char(out, '"');
        text_out_char(out, s.ptr[k]);
    }
    text_out_char(out, '"');
}

/* PostgreSQL's quote_literal_internal: E'' when there is a backslash. */
static void quote_literal_into(TextOut *out, StrRef s)
{
    if (memchr(s.ptr, '\\', s.len) != NULL) text_out_char(out, 'E');
    text_out_char(out, '\'');
    for (uint32_t k = 0; k < s.len; k++) {
        if (s.ptr[k] == '\'' || s.ptr[k] == '\\') text_out_char(out, s.ptr[k]);
        text_out_char(out, s.ptr[k]);
    }
    text_out_char(out, '\'');
}

static void quote_kernel(const FuncCallCtx *ctx, Vector *const *args, Vector *result, int how)
{
    TXT_ARG(args, 0, a, am);
    StrRef *r = (StrRef *)result->data;
    TextOut out;
    text_out_init(&out, ctx->arena, txt_total(ctx, args[0], result) + 4 * (size_t)ctx->count);
    for (uint32_t i = 0; i < ctx->count; i++) {
        uint32_t row = ctx->sel ? ctx->sel[i] : i;
        if (!vec_is_valid(args[0], row)) {
            if (how == 2) r[row] = (StrRef){"NULL", 4};   /* quote_nullable */
            else vec_set_null(result, row);
            continue;
        }
        if (how == 0) quote_ident_into(&out, a[row & am]);
        else quote_literal_into(&out, a[row & am]);
        r[row] = text_out_finish(&out);
    }
}
static void k_quote_ident(const FuncCallCtx *c, Vector *const *a, Vector *r) { quote_kernel(c, a, r, 0); }
static void k_quote_literal(const FuncCallCtx *c, Vector *const *a, Vector *r) { quote_kernel(c, a, r, 1); }
static void k_quote_nullable(const FuncCallCtx *c, Vector *const *a, Vector *r) { quote_kernel(c, a, r, 2); }

/* ---------- concat / concat_ws (not strict: NULL arguments are skipped) ---------- */


/*
 * PostgreSQL's VARIADIC "any" (concat, concat_ws, format): every argument
 * that is not already text is replaced, for this batch, by a text vector of
 * its output function's text (type_output_vector, one type dispatch per
 * argument and batch), so the kernels below read StrRefs only. tmp holds
 * the replacement vectors; returns the argument array to use.
 */
static Vector *const *any_as_text(const FuncCallCtx *ctx, Vector *const *args, int n,
                                  Vector *tmp, Vector **out)
{
    OutputOptions opt = OUTPUT_OPTIONS_DEFAULT;
    for (int k = 0; k < n; k++) {
        uint32_t t = args[k]->type.oid;
        out[k] = args[k];
        if (t == TYPE_TEXT || t == TYPE_VARCHAR || t == TYPE_UNKNOWN || t == TYPE_NAME) continue;
        Vector *v = &tmp[k];
        *v = *args[k];
        v->type = SQLTYPE(TYPE_TEXT);
        v->phys = type_phys(v->type);
        uint32_t cnt = args[k]->is_const ? 1 : ctx->count;
        const uint16_t *sel = args[k]->is_const ? NULL : ctx->sel;
        StrRef *dense = mem_alloc(ctx->arena, sizeof(StrRef) * cnt);
        type_output_vector(args[k], sel, cnt, &opt, ctx->arena, dense);
        StrRef *data = args[k]->is_const ? dense : mem_alloc(ctx->arena, sizeof(StrRef) * VEC_CAPACITY);
        if (!args[k]->is_const)
            for (uint32_t i = 0; i < cnt; i++) data[sel ? sel[i] : i] = dense[i];
        v->data = data;
        out[k] = v;
    }
    return out;
}

/* quote_literal(anyelement) / quote_nullable(anyelement): SQL functions in
 * PostgreSQL over the value's text. */
static void k_quote_literal_any(const FuncCallCtx *c, Vector *const *a, Vector *r)
{
    Vector tmp[1], *conv[1];
    quote_kernel(c, any_as_text(c, a, 1, tmp, conv), r, 1);
}
static void k_quote_nullable_any(const FuncCallCtx *c, Vector *const *a, Vector *r)
{
    Vector tmp[1], *conv[1];
    quote_kernel(c, any_as_text(c, a, 1, tmp, conv), r, 2);
}

static void concat_kernel(const FuncCallCtx *ctx, Vector *const *in, Vector *result, bool ws,
                          int n)
{
    Vector tmp[FUNC_MAX_ARGS * 4], *conv[FUNC_MAX_ARGS * 4];
    Vector *const *args = any_as_text(ctx, in, n, tmp, conv);
    StrRef *r = (StrRef *)result->data;
    TextOut out;
    text_out_init(&out, ctx->arena, 0);
    for (uint32_t i = 0; i < ctx->count; i++) {
        uint32_t row = ctx->sel ? ctx->sel[i] : i;
        StrRef sep = {"", 0};
        if (ws) {
            if (!vec_is_valid(args[0], row)) {
                vec_set_null(result, row);
                continue;
            }
            sep = ((const StrRef *)args[0]->data)[args[0]->is_const ? 0 : row];
        }
        bool first = true;
        for (int k = ws ? 1 : 0; k < n; k++) {
            if (!vec_is_valid(args[k], row)) continue;
            StrRef v = ((const StrRef *)args[k]->data)[args[k]->is_const ? 0 : row];
            if (!first) text_out_append(&out, sep.ptr, sep.len);
            text_out_append(&out, v.ptr, v.len);
            first = false;
        }
        r[row] = text_out_finish(&out);
    }
}

/* ---------- format ---------- */

static _Noreturn void format_error(const char *msg, bool hint)
{
    ErrorData *e = err_begin(ERRCODE_INVALID_PARAMETER_VALUE);
    err_message(e, "%s", msg);
    if (hint) err_hint(e, "For a single \"%%\" use \"%%%%\".");
    err_throw();
}

/* Parse digits at *p (bounded by end); -1 when there are none. */
static int64_t format_digits(const char **p, const char *end)
{
    if (*p >= end || **p < '0' || **p > '9') return -1;
    int64_t v = 0;
    while (*p < end && **p >= '0' && **p <= '9') {
        v = v * 10 + (**p - '0');
        if (v > INT32_MAX) err_raise(ERRCODE_INVALID_PARAMETER_VALUE, "number is out of range");
        (*p)++;
    }
    return v;
}

typedef struct FormatArgs {
    Vector *const *args;   /* args[0] is the format string */
    int nargs;             /* including the format */
    uint32_t row;
} FormatArgs;

/* Argument number k (1-based) of a format() call: is_null / value. */
static bool format_arg(const FormatArgs *fa, int64_t k, StrRef *v)
{
    if (k < 1 || k >= fa->nargs) format_error("too few arguments for format()", false);
    const Vector *a = fa->args[k];
    if (!vec_is_valid(a, fa->row)) return false;
    *v = ((const StrRef *)a->data)[a->is_const ? 0 : fa->row];
    return true;
}

/* Append v padded to width (negative/left-justified with '-'). */
static void format_padded(TextOut *out, StrRef v, int64_t width, bool left)
{
    int64_t chars = width > 0 ? txt_count(v) : 0;
    if (!left) for (int64_t k = chars; k < width; k++) text_out_char(out, ' ');
    text_out_append(out, v.ptr, v.len);
    if (left) for (int64_t k = chars; k < width; k++) text_out_char(out, ' ');
}

/* One conversion starting after '%'; returns the position after it. */
static const char *format_spec(TextOut *out, const FormatArgs *fa, const char *p, const char *end,
                               int64_t *next_arg)
{
    const char *unterminated = "unterminated format() type specifier";
    int64_t argpos = -1, width = 0;
    bool left = false;
    const char *save = p;
    int64_t d = format_digits(&p, end);
    if (d >= 0 && p < end && *p == '$') {
        if (d == 0) format_error("format specifies argument 0, but arguments are numbered from 1", false);
        argpos = d, p++;
    } else {
        p = save;
    }
    while (p < end && *p == '-') left = true, p++;
    if (p < end && *p == '*') {
        p++;
        int64_t wpos = *next_arg;
        const char *s2 = p;
        int64_t d2 = format_digits(&p, end);
        if (d2 >= 0 && p < end && *p == '$') {
            if (d2 == 0) format_error("format specifies argument 0, but arguments are numbered from 1", false);
            wpos = d2, p++;
        } else {
            p = s2, (*next_arg)++;
        }
        StrRef wv;
        if (format_arg(fa, wpos, &wv)) {
            width = strtol(mem_strndup(out->arena, wv.ptr, wv.len), NULL, 10);
            if (width < 0) left = true, width = -width;
        }
    } else {
        int64_t w = format_digits(&p, end);
        if (w >= 0) width = w;
    }
    if (p >= end) format_error(unterminated, true);
    char type = *p++;
    if (type != 's' && type != 'I' && type != 'L') {
        char msg[64];
        snprintf(msg, sizeof msg, "unrecognized format() type specifier \"%c\"", type);
        format_error(msg, true);
    }
    if (argpos < 0) argpos = (*next_arg)++;
    else *next_arg = argpos + 1;
    StrRef v = {"", 0};
    bool valid = format_arg(fa, argpos, &v);
    TextOut tmp;
    text_out_init(&tmp, out->arena, v.len * 2 + 8);
    if (type == 'I') {
        if (!valid)
            err_raise(ERRCODE_NULL_VALUE_NOT_ALLOWED, "null values cannot be formatted as an SQL identifier");
        quote_ident_into(&tmp, v);
        v = text_out_finish(&tmp);
    } else if (type == 'L') {
        if (valid) quote_literal_into(&tmp, v), v = text_out_finish(&tmp);
        else v = (StrRef){"NULL", 4};
    }
    format_padded(out, v, width, left);
    return p;
}

static StrRef format_one(TextOut *out, const FormatArgs *fa, StrRef fmt)
{
    const char *p = fmt.ptr, *end = fmt.ptr + fmt.len;
    int64_t next_arg = 1;
    while (p < end) {
        const char *pct = memchr(p, '%', (size_t)(end - p));
        if (pct == NULL) {
            text_out_append(out, p, (size_t)(end - p));
            break;
        }
        text_out_append(out, p, (size_t)(pct - p));
        p = pct + 1;
        if (p >= end) format_error("unterminated format() type specifier", true);
        if (*p == '%') {
            text_out_char(out, '%');
            p++;
            continue;
        }
        p = format_spec(out, fa, p, end, &next_arg);
    }
    return text_out_finish(out);
}

static void format_kernel(const FuncCallCtx *ctx, Vector *const *in, Vector *result, int n)
{
    Vector tmp[FUNC_MAX_ARGS * 4], *conv[FUNC_MAX_ARGS * 4];
    Vector *const *args = any_as_text(ctx, in, n, tmp, conv);
    FormatArgs fa = {args, n, 0};
    StrRef *r = (StrRef *)result->data;
    TextOut out;
    text_out_init(&out, ctx->arena, 0);
    for (uint32_t i = 0; i < ctx->count; i++) {
        uint32_t row = ctx->sel ? ctx->sel[i] : i;
        if (!vec_is_valid(args[0], row)) {
            vec_set_null(result, row);
            continue;
        }
        fa.row = row;
        r[row] = format_one(&out, &fa, ((const StrRef *)args[0]->data)[args[0]->is_const ? 0 : row]);
    }
}

/*
 * Variadic kernels need their argument count, which FuncCallCtx does not
 * carry: each variadic function has one instance per arity (1..16, the
 * executor's limit), each a FuncDesc whose kernel knows its count.
 * exec__variadic_instance() hands the planner the instance for the call's
 * arity (funcs.c does it in exec_func_candidates), so nothing outside the
 * registry sees the difference.
 */
#define VARIADIC_MAX (FUNC_MAX_ARGS * 4)
#define ARITIES(X) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) \
    X(14) X(15) X(16)
#define X_KERNELS(N)                                                                          \
    static void k_concat_##N(const FuncCallCtx *c, Vector *const *a, Vector *r)              \
    { concat_kernel(c, a, r, false, N); }                                                     \
    static void k_concat_ws_##N(const FuncCallCtx *c, Vector *const *a, Vector *r)           \
    { concat_kernel(c, a, r, true, N); }                                                      \
    static void k_format_##N(const FuncCallCtx *c, Vector *const *a, Vector *r)              \
    { format_kernel(c, a, r, N); }
ARITIES(X_KERNELS)
#undef X_KERNELS

#define TX TYPE_TEXT
#define ANY FUNC_ARG_ANY
#define CONCAT_DESC(N) {"concat", 1, {ANY, 0, 0, 0}, TX, FUNC_VARIADIC, k_concat_##N, 3058}
#define CONCAT_WS_DESC(N) {"concat_ws", 2, {TX, ANY, 0, 0}, TX, FUNC_VARIADIC, k_concat_ws_##N, 3059}
#define FORMAT_DESC(N) {"format", 2, {TX, ANY, 0, 0}, TX, FUNC_VARIADIC, k_format_##N, 3539}
#define X_CONCAT(N) [N] = CONCAT_DESC(N),
#define X_CONCAT_WS(N) [N] = CONCAT_WS_DESC(N),
#define X_FORMAT(N) [N] = FORMAT_DESC(N),
static const FuncDesc concat_inst[VARIADIC_MAX + 1] = {ARITIES(X_CONCAT)};
static const FuncDesc concat_ws_inst[VARIADIC_MAX + 1] = {ARITIES(X_CONCAT_WS)};
static const FuncDesc format_inst[VARIADIC_MAX + 1] = {ARITIES(X_FORMAT)};

const FuncDesc *exec__variadic_instance(const FuncDesc *f, int nargs)
{
    if (nargs < 1 || nargs > VARIADIC_MAX) return f;
    const FuncDesc *j = exec__json_variadic_instance(f, nargs);
    if (j) return j;
    const FuncDesc *inst = f->oid == 3058 ? concat_inst : f->oid == 3059 ? concat_ws_inst
                           : f->oid == 3539 ? format_inst : NULL;
    return inst && inst[nargs].kernel ? &inst[nargs] : f;
}

/* ---------- the table ---------- */

#define T1(nm, a0, ret, kern, id) {(nm), 1, {(a0), 0, 0, 0}, (ret), FUNC_STRICT, (kern), (id)}
#define T2(nm, a0, a1, ret, kern, id) {(nm), 2, {(a0), (a1), 0, 0}, (ret), FUNC_STRICT, (kern), (id)}
#define T3(nm, a0, a1, a2, ret, kern, id) \
    {(nm), 3, {(a0), (a1), (a2), 0}, (ret), FUNC_STRICT, (kern), (id)}
#define TI TYPE_INT4

const FuncDesc exec__funcs_text[] = {
    T1("initcap", TX, TX, k_initcap, 872),
    T2("strpos", TX, TX, TI, k_strpos, 868),
    T2("position", TX, TX, TI, k_strpos, 849),
    T2("starts_with", TX, TX, TYPE_BOOL, k_starts_with, 3696),
    T2("^@", TX, TX, TYPE_BOOL, k_starts_with, 3696),
    T3("replace", TX, TX, TX, TX, k_replace, 2087),
    T3("translate", TX, TX, TX, TX, k_translate, 878),
    T1("btrim", TX, TX, k_btrim1, 885),
    T2("btrim", TX, TX, TX, k_btrim2, 884),
    T1("ltrim", TX, TX, k_ltrim1, 881),
    T2("ltrim", TX, TX, TX, k_ltrim2, 875),
    T1("rtrim", TX, TX, k_rtrim1, 882),
    T2("rtrim", TX, TX, TX, k_rtrim2, 876),
    T2("left", TX, TI, TX, k_left, 3060),
    T2("right", TX, TI, TX, k_right, 3061),
    T1("reverse", TX, TX, k_reverse, 3062),
    T2("repeat", TX, TI, TX, k_repeat, 1622),
    T2("lpad", TX, TI, TX, k_lpad2, 879),
    T3("lpad", TX, TI, TX, TX, k_lpad3, 873),
    T2("rpad", TX, TI, TX, k_rpad2, 880),
    T3("rpad", TX, TI, TX, TX, k_rpad3, 874),
    T3("split_part", TX, TX, TI, TX, k_split_part, 2088),
    T1("ascii", TX, TI, k_ascii, 1620),
    T1("chr", TI, TX, k_chr, 1621),
    T1("to_hex", TI, TX, k_to_hex4, 2089),
    T1("to_hex", TYPE_INT8, TX, k_to_hex8, 2090),
    T1("md5", TX, TX, k_md5, 2311),
    T1("quote_ident", TX, TX, k_quote_ident, 1282),
    T1("quote_literal", TX, TX, k_quote_literal, 1283),
    {"quote_nullable", 1, {TX, 0, 0, 0}, TX, 0, k_quote_nullable, 1289},
    T1("quote_literal", ANY, TX, k_quote_literal_any, 1285),
    {"quote_nullable", 1, {ANY, 0, 0, 0}, TX, 0, k_quote_nullable_any, 1290},
    CONCAT_DESC(1),
    CONCAT_WS_DESC(2),
    {"format", 1, {TX, 0, 0, 0}, TX, 0, k_format_1, 3540},
    FORMAT_DESC(2),
};
const int exec__funcs_text_count = (int)(sizeof exec__funcs_text / sizeof exec__funcs_text[0]);
