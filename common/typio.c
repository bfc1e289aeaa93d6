/*
 * typio.c — text input/output of every supported type, per value and per
 * vector, byte for byte as PostgreSQL 15 (float text lives in floatio.c,
 * dates in datetime.c, numeric in numeric.c).
 *
 * type_output_vector is the DataRow/COPY hot path: it switches on the
 * physical type once, then runs a plain loop that formats into one arena
 * chunk sized for the whole batch (no allocation per row, no indirect call
 * per row). Text-like values are not copied: out[i] points at the vector's
 * own bytes, which live at least as long as the batch.
 */
#include "common/typio.h"

#include <stdio.h>
#include <string.h>

#include "common/array.h"
#include "common/datetime.h"
#include "common/error.h"
#include "common/interval.h"
#include "common/json.h"
#include "common/numeric.h"

#define NAMEDATALEN 64

static bool typio_isspace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* ---- integers ---- */

size_t typio_format_int64(int64_t v, char *buf)
{
    char tmp[24];
    size_t n = 0, k = 0;
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    do {
        tmp[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        buf[k++] = '-';
    while (n)
        buf[k++] = tmp[--n];
    buf[k] = '\0';
    return k;
}

/*
 * PostgreSQL 15's pg_strtoint*: spaces, sign, at least one digit, digits
 * (overflow is reported as soon as it happens), trailing spaces only.
 * Returns the value; raises with type_name in the message.
 */
static int64_t typio_parse_int(const char *s, size_t len, int64_t min, int64_t max,
                               const char *type_name)
{
    size_t i = 0;
    bool neg = false;
    uint64_t acc = 0, limit;
    while (i < len && typio_isspace(s[i]))
        i++;
    if (i < len && (s[i] == '-' || s[i] == '+'))
        neg = s[i++] == '-';
    limit = neg ? (uint64_t)0 - (uint64_t)min : (uint64_t)max;
    if (i >= len || s[i] < '0' || s[i] > '9')
        goto invalid;
    /* 18 digits never overflow the accumulator: the per-digit check (a
     * multiply-high each) only from the 19th on, the range once at the end
     * (COPY parses millions of these). */
    size_t first = i;
    for (; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
        uint64_t d = (uint64_t)(s[i] - '0');
        if (i - first >= 18 && acc > (limit - d) / 10)
            goto out_of_range;
        acc = acc * 10 + d;
    }
    if (acc > limit)
        goto out_of_range;
    while (i < len && typio_isspace(s[i]))
        i++;
    if (i != len)
        goto invalid;
    return neg ? (int64_t)((uint64_t)0 - acc) : (int64_t)acc;
invalid:
    err_raise(ERRCODE_INVALID_TEXT_REPRESENTATION, "invalid input syntax for type %s: \"%.*s\"",
              type_name, (int)len, s);
out_of_range:
    /* as PostgreSQL's pg_strtoint*: an overflowing digit string is 22003
     * even when junk follows it ("99999x" for smallint) */
    err_raise(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "value \"%.*s\" is out of range for type %s", (int)len, s,
              type_name);
}

int16_t typio_parse_int16(const char *s, size_t len)
{
    return (int16_t)typio_parse_int(s, len, INT16_MIN, INT16_MAX, "smallint");
}

int32_t typio_parse_int32(const char *s, size_t len)
{
    return (int32_t)typio_parse_int(s, len, INT32_MIN, INT32_MAX, "integer");
}

int64_t typio_parse_int64(const char *s, size_t len)
{
    return typio_parse_int(s, len, INT64_MIN, INT64_MAX, "bigint");
}

/* oidin: an unsigned 32-bit value; PostgreSQL also takes negatives down to INT32_MIN. */
static uint32_t typio_parse_oid(const char *s, size_t len)
{
    int64_t v = typio_parse_int(s, len, INT64_MIN, INT64_MAX, "oid");
    if (v < INT32_MIN || v > (int64_t)UINT32_MAX)
        err_raise(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "value \"%.*s\" is out of range for type oid",
                  (int)len, s);
    return (uint32_t)v;
}

/* ---- booleans ---- */

static bool typio_prefix_ci(const char *s, size_t len, const char *word, size_t min_len)
{
    size_t wlen = strlen(word);
    if (len < min_len || len > wlen)
        return false;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c != word[i])
            return false;
    }
    return true;
}

/* parse_bool_with_len: t/true, f/false, y/yes, n/no, on, of/off, 1, 0 (prefixes). */
static bool typio_bool_word(const char *s, size_t len, bool *out)
{
    if (typio_prefix_ci(s, len, "true", 1) || typio_prefix_ci(s, len, "yes", 1) ||
        typio_prefix_ci(s, len, "on", 2) || (len == 1 && s[0] == '1')) {
        *out = true;
        return true;
    }
    if (typio_prefix_ci(s, len, "false", 1) || typio_prefix_ci(s, len, "no", 1) ||
        typio_prefix_ci(s, len, "off", 2) || (len == 1 && s[0] == '0')) {
        *out = false;
        return true;
    }
    return false;
}

bool typio_parse_bool(const char *s, size_t len)
{
    size_t b = 0, e = len;
    bool v;
    while (b < e && typio_isspace(s[b]))
        b++;
    while (e > b && typio_isspace(s[e - 1]))
        e--;
    if (!typio_bool_word(s + b, e - b, &v))
        err_raise(ERRCODE_INVALID_TEXT_REPRESENTATION,
                  "invalid input syntax for type boolean: \"%.*s\"", (int)len, s);
    return v;
}

/* ---- character types ---- */

/* Byte length of the first nchars UTF-8 characters of s (or len if shorter). */
static size_t typio_utf8_clip(const char *s, size_t len, size_t nchars)
{
    size_t i = 0;
    while (i < len && nchars > 0) {
        i++;
        while (i < len && ((unsigned char)s[i] & 0xC0) == 0x80)
            i++;
        nchars--;
    }
    return i;
}

size_t typio_utf8_len(const char *s, size_t len)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++)
        n += ((unsigned char)s[i] & 0xC0) != 0x80;
    return n;
}

StrRef typio_char_typmod(SqlType t, const char *s, size_t len, bool is_explicit,
                         MemArena *arena)
{
    bool bpchar = t.oid == TYPE_BPCHAR;
    StrRef r = {s, (uint32_t)len};
    size_t maxlen, clip, nchars;
    char *p;
    if (t.typmod < 4 || (t.oid != TYPE_VARCHAR && !bpchar))
        return r;
    maxlen = (size_t)(t.typmod - 4);
    clip = typio_utf8_clip(s, len, maxlen);
    if (clip < len) {
        for (size_t j = clip; j < len && !is_explicit; j++)
            if (s[j] != ' ')
                err_raise(ERRCODE_STRING_DATA_RIGHT_TRUNCATION,
                          "value too long for type %s(%d)",
                          bpchar ? "character" : "character varying", (int)maxlen);
        r.len = (uint32_t)clip;
        return r;
    }
    if (!bpchar)
        return r;
    nchars = typio_utf8_len(s, len);
    if (nchars >= maxlen)
        return r;
    p = mem_alloc(arena, len + (maxlen - nchars));
    memcpy(p, s, len);
    memset(p + len, ' ', maxlen - nchars);
    r.ptr = p;
    r.len = (uint32_t)(len + (maxlen - nchars));
    return r;
}

static StrRef typio_copy(const char *s, size_t len, MemArena *arena)
{
    StrRef r;
    if (len > UINT32_MAX)
        err_raise(ERRCODE_PROGRAM_LIMIT_EXCEEDED, "string too long");
    r.ptr = mem_strndup(arena, s, len);
    r.len = (uint32_t)len;
    return r;
}

/* ---- bytea ---- */

static int typio_hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static StrRef typio_bytea_hex_in(const char *s, size_t len, MemArena *arena)
{
    char *out = mem_alloc(arena, len / 2 + 1);
    size_t n = 0, i = 2;
    while (i < len) {
        int hi, lo;
        if (typio_isspace(s[i])) {
            i++;
            continue;
        }
        hi = typio_hexval(s[i]);
        if (hi < 0)
            err_raise(ERRCODE_INVALID_PARAMETER_VALUE, "invalid hexadecimal digit: \"%c\"", s[i]);
        if (i + 1 >= len)
            err_raise(ERRCODE_INVALID_PARAMETER_VALUE,
                      "invalid hexadecimal data: odd number of digits");
        lo = typio_hexval(s[i + 1]);
        if (lo < 0)
            err_raise(ERRCODE_INVALID_PARAMETER_VALUE, "invalid hexadecimal digit: \"%c\"",
                      s[i + 1]);
        out[n++] = (char)(hi * 16 + lo);
        i += 2;
    }
    return (StrRef){out, (uint32_t)n};
}

/* byteain: "\x..." hex, else escape format (\\ and \ooo). */
static StrRef typio_bytea_in(const char *s, size_t len, MemArena *arena)
{
    char *out;
    size_t n = 0;
    if (len >= 2 && s[0] == '\\' && s[1] == 'x')
        return typio_bytea_hex_in(s, len, arena);
    out = mem_alloc(arena, len + 1);
    for (size_t i = 0; i < len;) {
        if (s[i] != '\\') {
            out[n++] = s[i++];
        } else if (i + 1 < len && s[i + 1] == '\\') {
            out[n++] = '\\';
            i += 2;
        } else if (i + 3 < len && s[i + 1] >= '0' && s[i + 1] <= '3' && s[i + 2] >= '0' &&
                   s[i + 2] <= '7' && s[i + 3] >= '0' && s[i + 3] <= '7') {
            out[n++] = (char)(((s[i + 1] - '0') << 6) | ((s[i + 2] - '0') << 3) | (s[i + 3] - '0'));
            i += 4;
        } else {
            err_raise(ERRCODE_INVALID_TEXT_REPRESENTATION, "invalid input syntax for type %s",
                      "bytea");
        }
    }
    return (StrRef){out, (uint32_t)n};
}

static size_t typio_bytea_hex_out(StrRef b, char *out)
{
    static const char hex[] = "0123456789abcdef";
    size_t k = 0;
    out[k++] = '\\';
    out[k++] = 'x';
    for (uint32_t i = 0; i < b.len; i++) {
        unsigned char c = (unsigned char)b.ptr[i];
        out[k++] = hex[c >> 4];
        out[k++] = hex[c & 15];
    }
    return k;
}

/* ---- uuid ---- */

StrRef uuid_in(const char *s, size_t len, MemArena *arena)
{
    unsigned char *u = mem_alloc(arena, 16);
    size_t i = 0;
    bool braces = false;
    if (len > 0 && s[0] == '{') {
        braces = true;
        i++;
    }
    for (int k = 0; k < 16; k++) {
        int hi, lo;
        if (i + 1 >= len || (hi = typio_hexval(s[i])) < 0 || (lo = typio_hexval(s[i + 1])) < 0)
            goto bad;
        u[k] = (unsigned char)(hi * 16 + lo);
        i += 2;
        if (i < len && s[i] == '-' && k % 2 == 1 && k < 15)
            i++;
    }
    if (braces) {
        if (i >= len || s[i] != '}')
            goto bad;
        i++;
    }
    if (i != len)
        goto bad;
    return (StrRef){(const char *)u, 16};
bad:
    err_raise(ERRCODE_INVALID_TEXT_REPRESENTATION, "invalid input syntax for type uuid: \"%.*s\"",
              (int)len, s);
}

size_t uuid_format(StrRef u, char *buf)
{
    static const char hex[] = "0123456789abcdef";
    size_t n = 0;
    for (uint32_t k = 0; k < 16 && k < u.len; k++) {
        unsigned char c = (unsigned char)u.ptr[k];
        if (k == 4 || k == 6 || k == 8 || k == 10)
            buf[n++] = '-';
        buf[n++] = hex[c >> 4];
        buf[n++] = hex[c & 15];
    }
    buf[n] = '\0';
    return n;
}

/* ---- reg*, "char" (catalog types) ---- */

static const TypioRegHooks *typio_reg_hooks;

void typio_set_reg_hooks(const TypioRegHooks *hooks) { typio_reg_hooks = hooks; }

/* regclassin & co: digits are the OID itself, "-" is 0, else a name. */
static uint32_t typio_reg_in(uint32_t typoid, const char *s, size_t len)
{
    size_t i = 0;
    while (i < len && s[i] >= '0' && s[i] <= '9')
        i++;
    if (len > 0 && i == len)
        return typio_parse_oid(s, len);
    if (len == 1 && s[0] == '-')
        return 0;
    if (typio_reg_hooks)
        return typio_reg_hooks->in(typoid, s, len);
    return typio_parse_oid(s, len);
}

/* regclassout & co: 0 is "-", an unknown OID its number. */
static void typio_reg_out(uint32_t typoid, uint32_t oid, StrBuf *out)
{
    char buf[TYPIO_NUMBUF];
    if (oid == 0) {
        strbuf_append_char(out, '-');
        return;
    }
    if (typio_reg_hooks && typio_reg_hooks->out(typoid, oid, out))
        return;
    strbuf_append(out, buf, typio_format_int64(oid, buf));
}

/* charin: PostgreSQL 15 reads "\ooo" as an octal byte, else the first byte. */
static StrRef typio_char_in(const char *s, size_t len, MemArena *arena)
{
    char c;
    if (len == 4 && s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
        s[3] >= '0' && s[3] <= '7')
        c = (char)(((s[1] - '0') << 6) | ((s[2] - '0') << 3) | (s[3] - '0'));
    else if (len > 0)
        c = s[0];
    else
        return typio_copy("", 0, arena);
    return c == 0 ? typio_copy("", 0, arena) : typio_copy(&c, 1, arena);
}

/* charout: a high-bit byte prints as "\ooo" (it is no character alone). */
static void typio_char_out(StrRef v, StrBuf *out)
{
    if (v.len == 0)
        return;
    unsigned char c = (unsigned char)v.ptr[0];
    if (c & 0x80) {
        char buf[4] = {'\\', (char)('0' + (c >> 6)), (char)('0' + ((c >> 3) & 7)),
                       (char)('0' + (c & 7))};
        strbuf_append(out, buf, 4);
    } else {
        strbuf_append_char(out, (char)c);
    }
}

/* ---- per value ---- */

void type_input(SqlType t, const char *s, size_t len, MemArena *arena, Value *out)
{
    memset(out, 0, sizeof *out);
    switch (t.oid) {
    case TYPE_BOOL: out->u.b = typio_parse_bool(s, len); return;
    case TYPE_INT2: out->u.i16 = typio_parse_int16(s, len); return;
    case TYPE_INT4: out->u.i32 = typio_parse_int32(s, len); return;
    case TYPE_INT8: case TYPE_XID8: out->u.i64 = typio_parse_int64(s, len); return;
    case TYPE_OID: out->u.i32 = (int32_t)typio_parse_oid(s, len); return;
    case TYPE_REGCLASS: case TYPE_REGTYPE: case TYPE_REGPROC: case TYPE_REGNAMESPACE:
    case TYPE_REGPROCEDURE: case TYPE_REGROLE:
        out->u.i32 = (int32_t)typio_reg_in(t.oid, s, len);
        return;
    case TYPE_CHAR: out->u.str = typio_char_in(s, len, arena); return;
    case TYPE_VOID: out->u.str = typio_copy("", 0, arena); return;
    case TYPE_RECORD:   /* record_in needs a known row type */
        err_raise(ERRCODE_FEATURE_NOT_SUPPORTED, "input of anonymous composite types is not implemented");
    case TYPE_FLOAT4: out->u.f32 = typio_parse_float4(s, len); return;
    case TYPE_FLOAT8: out->u.f64 = typio_parse_float8(s, len); return;
    case TYPE_NUMERIC: out->u.str = numeric_in(s, len, t.typmod, arena); return;
    case TYPE_DATE: out->u.i32 = date_in(s, len); return;
    case TYPE_TIMESTAMP:
        out->u.i64 = datetime_round_typmod(timestamp_in(s, len), t.typmod);
        return;
    case TYPE_TEXT:
    case TYPE_UNKNOWN: out->u.str = typio_copy(s, len, arena); return;
    case TYPE_VARCHAR:
    case TYPE_BPCHAR: {
        StrRef r = typio_char_typmod(t, s, len, false, arena);
        out->u.str = r.ptr == s ? typio_copy(r.ptr, r.len, arena) : r;
        return;
    }
    case TYPE_NAME: {
        /* namein: silently clipped to 63 bytes, never inside a character */
        size_t clip = len;
        if (clip >= NAMEDATALEN) {
            clip = NAMEDATALEN - 1;
            while (clip > 0 && ((unsigned char)s[clip] & 0xC0) == 0x80)
                clip--;
        }
        out->u.str = typio_copy(s, clip, arena);
        return;
    }
    case TYPE_BYTEA: out->u.str = typio_bytea_in(s, len, arena); return;
    case TYPE_TIMESTAMPTZ:
        out->u.i64 = datetime_round_typmod(timestamptz_in(s, len), t.typmod);
        return;
    case TYPE_TIME: out->u.i64 = datetime_round_typmod(time_in(s, len), t.typmod); return;
    case TYPE_INTERVAL: out->u.str = interval_in(s, len, t.typmod, arena); return;
    case TYPE_UUID: out->u.str = uuid_in(s, len, arena); return;
    case TYPE_JSON: out->u.str = json_in(s, len, arena); return;
    case TYPE_JSONB: out->u.str = jsonb_in(s, len, arena); return;
    default:
        if (type_is_array(t.oid)) {
            out->u.str = array_in(t, s, len, arena);
            return;
        }
        err_raise(ERRCODE_FEATURE_NOT_SUPPORTED, "type with OID %u is not supported",
                  (unsigned)t.oid);
    }
}

void type_output(SqlType t, const Value *v, const OutputOptions *opt, StrBuf *out)
{
    char buf[TYPIO_NUMBUF];
    size_t n;
    int efd = opt ? opt->extra_float_digits : 1;
    switch (t.oid) {
    case TYPE_BOOL: strbuf_append_char(out, v->u.b ? 't' : 'f'); return;
    case TYPE_INT2: n = typio_format_int64(v->u.i16, buf); break;
    case TYPE_INT4: n = typio_format_int64(v->u.i32, buf); break;
    case TYPE_INT8: case TYPE_XID8: n = typio_format_int64(v->u.i64, buf); break;
    case TYPE_OID: n = typio_format_int64((uint32_t)v->u.i32, buf); break;
    case TYPE_REGCLASS: case TYPE_REGTYPE: case TYPE_REGPROC: case TYPE_REGNAMESPACE:
    case TYPE_REGPROCEDURE: case TYPE_REGROLE:
        typio_reg_out(t.oid, (uint32_t)v->u.i32, out);
        return;
    case TYPE_CHAR: typio_char_out(v->u.str, out); return;
    case TYPE_VOID: return;
    case TYPE_RECORD: strbuf_append(out, v->u.str.ptr, v->u.str.len); return;
    case TYPE_FLOAT4: n = typio_format_float4(v->u.f32, efd, buf); break;
    case TYPE_FLOAT8: n = typio_format_float8(v->u.f64, efd, buf); break;
    case TYPE_NUMERIC: numeric_out(v->u.str, out); return;
    case TYPE_DATE: n = date_format(v->u.i32, buf); break;
    case TYPE_TIMESTAMP: n = timestamp_format(v->u.i64, buf); break;
    case TYPE_TIMESTAMPTZ: n = timestamptz_format(v->u.i64, buf); break;
    case TYPE_TIME: n = time_format(v->u.i64, buf); break;
    case TYPE_INTERVAL: interval_out(v->u.str, out); return;
    case TYPE_UUID: n = uuid_format(v->u.str, buf); break;
    case TYPE_BYTEA: {
        size_t start = out->len;
        strbuf_reserve(out, 2 + (size_t)v->u.str.len * 2);
        out->len += typio_bytea_hex_out(v->u.str, out->data + start);
        out->data[out->len] = '\0';
        return;
    }
    default:
        if (type_is_array(t.oid)) {
            array_out(v->u.str, opt, out);
            return;
        }
        /* text-like, json, jsonb (stored as its canonical text) */
        strbuf_append(out, v->u.str.ptr, v->u.str.len);
        return;
    }
    strbuf_append(out, buf, n);
}

/* ---- per vector ---- */

/* Widest text of one value per fixed-width type (with NUL room). */
static size_t typio_max_width(uint32_t oid)
{
    switch (oid) {
    case TYPE_BOOL: return 2;
    case TYPE_INT2: return 8;
    case TYPE_INT4: case TYPE_OID: return 12;
    case TYPE_INT8: case TYPE_XID8: return 21;
    case TYPE_FLOAT4: return 20;
    case TYPE_FLOAT8: return 28;
    default: return DATETIME_BUF;
    }
}

#define TYPIO_ROW(i) (sel ? sel[i] : (i))
#define TYPIO_IS_NULL(r) (!vec_is_valid(v, (r)))

/*
 * One loop per fixed-width type. FMT(val, dst) writes val's text at dst and
 * returns the length; the chunk has room for count values of max width.
 */
#define TYPIO_FIXED_LOOP(CTYPE, FMT)                                             \
    do {                                                                         \
        const CTYPE *d = (const CTYPE *)v->data;                                 \
        for (uint32_t i = 0; i < count; i++) {                                   \
            uint32_t r = v->is_const ? 0 : TYPIO_ROW(i);                         \
            if (TYPIO_IS_NULL(r)) {                                              \
                out[i].ptr = NULL;                                               \
                out[i].len = 0;                                                  \
                continue;                                                        \
            }                                                                    \
            size_t n_ = FMT(d[r], p);                                            \
            out[i].ptr = p;                                                      \
            out[i].len = (uint32_t)n_;                                           \
            p += n_;                                                             \
        }                                                                        \
    } while (0)

static size_t typio_fmt_bool(uint8_t b, char *p) { *p = b ? 't' : 'f'; return 1; }
static size_t typio_fmt_i16(int16_t x, char *p) { return typio_format_int64(x, p); }
static size_t typio_fmt_i32(int32_t x, char *p) { return typio_format_int64(x, p); }
static size_t typio_fmt_oid(int32_t x, char *p) { return typio_format_int64((uint32_t)x, p); }
static size_t typio_fmt_i64(int64_t x, char *p) { return typio_format_int64(x, p); }

static void typio_vector_fixed(const Vector *v, const uint16_t *sel, uint32_t count, int efd,
                               MemArena *arena, StrRef *out)
{
    char *p = mem_alloc(arena, (size_t)count * typio_max_width(v->type.oid) + 1);
#define TYPIO_F4(x, dst) typio_format_float4((x), efd, (dst))
#define TYPIO_F8(x, dst) typio_format_float8((x), efd, (dst))
    switch (v->type.oid) {
    case TYPE_BOOL: TYPIO_FIXED_LOOP(uint8_t, typio_fmt_bool); break;
    case TYPE_INT2: TYPIO_FIXED_LOOP(int16_t, typio_fmt_i16); break;
    case TYPE_INT4: TYPIO_FIXED_LOOP(int32_t, typio_fmt_i32); break;
    case TYPE_OID: TYPIO_FIXED_LOOP(int32_t, typio_fmt_oid); break;
    case TYPE_INT8: case TYPE_XID8: TYPIO_FIXED_LOOP(int64_t, typio_fmt_i64); break;
    case TYPE_FLOAT4: TYPIO_FIXED_LOOP(float, TYPIO_F4); break;
    case TYPE_FLOAT8: TYPIO_FIXED_LOOP(double, TYPIO_F8); break;
    case TYPE_DATE: TYPIO_FIXED_LOOP(int32_t, date_format); break;
    case TYPE_TIMESTAMP: TYPIO_FIXED_LOOP(int64_t, timestamp_format); break;
    case TYPE_TIMESTAMPTZ: TYPIO_FIXED_LOOP(int64_t, timestamptz_format); break;
    case TYPE_TIME: TYPIO_FIXED_LOOP(int64_t, time_format); break;
    default: ERR_ASSERT(!"fixed-width output of an unexpected type");
    }
#undef TYPIO_F4
#undef TYPIO_F8
}

/* numeric and bytea: formatted through a scratch buffer, copied to the arena. */
static void typio_vector_var(const Vector *v, const uint16_t *sel, uint32_t count,
                             const OutputOptions *opt, StrBuf *scratch, MemArena *arena,
                             StrRef *out)
{
    const StrRef *d = (const StrRef *)v->data;
    bool is_numeric = v->type.oid == TYPE_NUMERIC;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t r = v->is_const ? 0 : TYPIO_ROW(i);
        if (TYPIO_IS_NULL(r)) {
            out[i].ptr = NULL;
            out[i].len = 0;
            continue;
        }
        if (is_numeric) {
            char *p = numeric_format_arena(d[r], arena, &out[i].len);
            out[i].ptr = p;
        } else if (v->type.oid != TYPE_BYTEA) {
            /* interval, uuid, arrays, reg*, "char", void: the per-value
             * formatter, copied out */
            Value val;
            memset(&val, 0, sizeof val);
            if (type_phys(v->type) == PHYS_I32)
                val.u.i32 = ((const int32_t *)v->data)[r];
            else
                val.u.str = d[r];
            strbuf_reset(scratch);
            type_output(v->type, &val, opt, scratch);
            out[i].ptr = mem_strndup(arena, scratch->data, scratch->len);
            out[i].len = (uint32_t)scratch->len;
        } else {
            char *p = mem_alloc(arena, 2 + (size_t)d[r].len * 2);
            out[i].len = (uint32_t)typio_bytea_hex_out(d[r], p);
            out[i].ptr = p;
        }
    }
}

/* typio_vector_var with its malloc'd scratch buffer freed on error too. */
static void typio_vector_var_safe(const Vector *v, const uint16_t *sel, uint32_t count,
                                  const OutputOptions *opt, StrBuf *scratch, MemArena *arena,
                                  StrRef *out)
{
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        typio_vector_var(v, sel, count, opt, scratch, arena, out);
        err_pop(&jmp);
        strbuf_free(scratch);
    } else {
        strbuf_free(scratch);
        err_rethrow();
    }
}

/* Text-like: the vector's own bytes, no copy. */
static void typio_vector_text(const Vector *v, const uint16_t *sel, uint32_t count, StrRef *out)
{
    const StrRef *d = (const StrRef *)v->data;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t r = v->is_const ? 0 : TYPIO_ROW(i);
        if (TYPIO_IS_NULL(r)) {
            out[i].ptr = NULL;
            out[i].len = 0;
        } else {
            out[i] = d[r];
            if (out[i].ptr == NULL) /* an empty string may carry no pointer */
                out[i].ptr = "";
        }
    }
}

void type_output_vector(const Vector *v, const uint16_t *sel, uint32_t count,
                        const OutputOptions *opt, MemArena *arena, StrRef *out)
{
    int efd = opt ? opt->extra_float_digits : 1;
    switch (v->type.oid) {
    case TYPE_NUMERIC:
    case TYPE_BYTEA:
    case TYPE_INTERVAL:
    case TYPE_UUID:
    case TYPE_REGCLASS: case TYPE_REGTYPE: case TYPE_REGPROC: case TYPE_REGNAMESPACE:
    case TYPE_REGPROCEDURE: case TYPE_REGROLE:
    case TYPE_CHAR:
    case TYPE_VOID: {
        StrBuf scratch;
        strbuf_init(&scratch);
        typio_vector_var_safe(v, sel, count, opt, &scratch, arena, out);
        return;
    }
    case TYPE_JSON:
    case TYPE_JSONB:
    case TYPE_TEXT:
    case TYPE_VARCHAR:
    case TYPE_BPCHAR:
    case TYPE_NAME:
    case TYPE_UNKNOWN:
    case TYPE_RECORD:
        typio_vector_text(v, sel, count, out);
        return;
    default:
        if (type_is_array(v->type.oid)) {
            StrBuf scratch;
            strbuf_init(&scratch);
            typio_vector_var_safe(v, sel, count, opt, &scratch, arena, out);
            return;
        }
        typio_vector_fixed(v, sel, count, efd, arena, out);
        return;
    }
}

/* ---- hashing ---- */

static inline uint64_t hash_mix(uint64_t a, uint64_t b)
{
    uint128_t r = (uint128_t)a * b;
    return (uint64_t)r ^ (uint64_t)(r >> 64);
}

static inline uint64_t hash_read64(const unsigned char *p)
{
    uint64_t x;
    memcpy(&x, p, 8);
    return x;
}

/* A wyhash-style mix: 16 bytes per multiply, then the tail; seed in every round. */
uint64_t hash_bytes(const void *data, size_t len, uint64_t seed)
{
    const unsigned char *p = data;
    const uint64_t k0 = UINT64_C(0xa0761d6478bd642f), k1 = UINT64_C(0xe7037ed1a0b428db);
    uint64_t h = seed ^ hash_mix(seed ^ k0, k1 ^ (uint64_t)len);
    size_t i = 0;
    for (; i + 16 <= len; i += 16)
        h = hash_mix(hash_read64(p + i) ^ k1, hash_read64(p + i + 8) ^ h);
    if (i < len) {
        unsigned char tail[16] = {0};
        memcpy(tail, p + i, len - i);
        h = hash_mix(hash_read64(tail) ^ k1, hash_read64(tail + 8) ^ h ^ (uint64_t)(len - i));
    }
    return hash_u64(h ^ (uint64_t)len);
}
