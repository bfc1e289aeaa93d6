/*
 * binary_numeric.c — the binary wire formats that are not a type's
 * in-memory form: numeric (PostgreSQL's numeric_send / numeric_recv) and
 * interval, plus the raw-byte parameters (uuid, bytea), which JDBC,
 * node-postgres and psycopg use when they ask for binary results or send
 * binary parameters. (bool, integers, floats, date, time, timestamp[tz]
 * are their in-memory value in network byte order: results.c/extended.c.)
 *
 * The wire form is base-10000: int16 ndigits, int16 weight (of the first
 * digit group, in powers of 10000), int16 sign (0x0000 +, 0x4000 -,
 * 0xC000 NaN, 0xD000 +Infinity, 0xF000 -Infinity), int16 dscale (decimal
 * digits after the point), then ndigits int16 groups, leading and trailing
 * zero groups stripped. Strata's numeric has its own packed form
 * (common/numeric.h), so both directions go through the canonical text
 * form, which numeric_out / numeric_in define exactly: one conversion per
 * value, only on the extended protocol's binary path.
 */
#define STRATA_PROTOCOL_INTERNAL
#include "protocol/proto_int.h"

#include <string.h>
#include "common/error.h"
#include "common/types.h"
#include "common/numeric.h"

#define NBASE_DIGITS 4
#define NUMERIC_POS 0x0000
#define NUMERIC_NEG 0x4000
#define NUMERIC_NAN 0xC000
#define NUMERIC_PINF 0xD000
#define NUMERIC_NINF 0xF000
#define NUMERIC_MAX_GROUPS 40000   /* > numeric's 131072 + 16383 digits / 4 */

static void put16(char *p, uint16_t v)
{
    p[0] = (char)(v >> 8);
    p[1] = (char)(v & 0xff);
}

static uint16_t get16(const char *p) { return (uint16_t)(((uint8_t)p[0] << 8) | (uint8_t)p[1]); }

/* Value of the decimal digits s[from, from+4) (outside [0, len) = '0'). */
static int group_at(const char *s, int len, int from)
{
    int g = 0;
    for (int k = 0; k < NBASE_DIGITS; k++) {
        int i = from + k;
        g = g * 10 + (i >= 0 && i < len ? s[i] - '0' : 0);
    }
    return g;
}

StrRef proto_numeric_send(StrRef num, MemArena *arena)
{
    uint32_t tlen;
    const char *t = numeric_format_arena(num, arena, &tlen);
    char *out;
    if (strcmp(t, "NaN") == 0 || strcmp(t, "Infinity") == 0 || strcmp(t, "-Infinity") == 0) {
        out = mem_calloc(arena, 8, 1);
        put16(out + 4, t[0] == 'N' ? NUMERIC_NAN : t[0] == 'I' ? NUMERIC_PINF : NUMERIC_NINF);
        if (t[0] != 'N')
            put16(out + 6, 0x20);   /* what PostgreSQL 15 sends as the infinities' dscale */
        return (StrRef){out, 8};
    }
    bool neg = t[0] == '-';
    const char *digits = t + (neg ? 1 : 0);
    const char *dot = strchr(digits, '.');
    int int_len = dot ? (int)(dot - digits) : (int)strlen(digits);
    int frac_len = dot ? (int)strlen(dot + 1) : 0;
    /* one digit string, the point at int_len; groups aligned on it */
    char *all = mem_alloc(arena, (size_t)(int_len + frac_len) + 1);
    memcpy(all, digits, (size_t)int_len);
    if (dot)
        memcpy(all + int_len, dot + 1, (size_t)frac_len);
    int len = int_len + frac_len;
    int int_groups = (int_len + NBASE_DIGITS - 1) / NBASE_DIGITS;
    int frac_groups = (frac_len + NBASE_DIGITS - 1) / NBASE_DIGITS;
    int ngroups = int_groups + frac_groups;
    int start = int_len - int_groups * NBASE_DIGITS;   /* <= 0: left padding */
    int16_t *g = mem_alloc(arena, sizeof(int16_t) * (size_t)(ngroups > 0 ? ngroups : 1));
    for (int i = 0; i < ngroups; i++)
        g[i] = (int16_t)group_at(all, len, start + i * NBASE_DIGITS);
    int first = 0, last = ngroups;
    while (first < last && g[first] == 0)
        first++;
    while (last > first && g[last - 1] == 0)
        last--;
    int weight = int_groups - 1 - first;
    int n = last - first;
    if (n == 0)
        weight = 0;
    out = mem_alloc(arena, 8 + 2 * (size_t)n);
    put16(out, (uint16_t)n);
    put16(out + 2, (uint16_t)(int16_t)weight);
    put16(out + 4, n == 0 ? NUMERIC_POS : neg ? NUMERIC_NEG : NUMERIC_POS);
    put16(out + 6, (uint16_t)frac_len);
    for (int i = 0; i < n; i++)
        put16(out + 8 + 2 * i, (uint16_t)g[first + i]);
    return (StrRef){out, 8 + 2 * (uint32_t)n};
}

static _Noreturn void bad_numeric(int idx)   /* 22P03, PostgreSQL's text for any type */
{
    err_raise(ERRCODE_INVALID_BINARY_REPRESENTATION, "incorrect binary data format in bind parameter %d",
              idx + 1);
}

void proto_numeric_recv(const char *data, size_t len, int32_t typmod, int idx, MemArena *arena, Value *out)
{
    int n = len >= 2 ? get16(data) : 0;
    if (len < 8 || len < 8 + 2 * (size_t)n)   /* PostgreSQL reads past the value: pq_getmsgint's error */
        err_raise(ERRCODE_PROTOCOL_VIOLATION, "insufficient data left in message");
    int weight = (int16_t)get16(data + 2);
    uint16_t sign = get16(data + 4);
    int dscale = get16(data + 6);
    if (n > NUMERIC_MAX_GROUPS || dscale > 0x3FFF)
        err_raise(ERRCODE_INVALID_BINARY_REPRESENTATION, "invalid length in external \"numeric\" value");
    const char *special = sign == NUMERIC_NAN ? "NaN" : sign == NUMERIC_PINF ? "Infinity"
                        : sign == NUMERIC_NINF ? "-Infinity" : NULL;
    if (!special && sign != NUMERIC_POS && sign != NUMERIC_NEG)
        err_raise(ERRCODE_INVALID_BINARY_REPRESENTATION, "invalid sign in external \"numeric\" value");
    StrBuf sb;
    strbuf_init(&sb);
    if (special) {
        strbuf_append_str(&sb, special);
    } else {
        if (sign == NUMERIC_NEG)
            strbuf_append_char(&sb, '-');
        for (int i = 0; i < n; i++)
            if (get16(data + 8 + 2 * i) > 9999) {
                strbuf_free(&sb);
                err_raise(ERRCODE_INVALID_BINARY_REPRESENTATION, "invalid digit in external \"numeric\" value");
            }
        /* integer part: groups 0..weight */
        if (weight < 0)
            strbuf_append_char(&sb, '0');
        for (int i = 0; i <= weight; i++) {
            int gv = i < n ? get16(data + 8 + 2 * i) : 0;
            strbuf_printf(&sb, i == 0 ? "%d" : "%04d", gv);
        }
        if (dscale > 0) {
            strbuf_append_char(&sb, '.');
            for (int d = 0; d < dscale; d++) {
                int gi = weight + 1 + d / NBASE_DIGITS;   /* group index of this fraction digit */
                int gv = gi >= 0 && gi < n ? get16(data + 8 + 2 * gi) : 0;
                static const int div[] = {1000, 100, 10, 1};
                strbuf_append_char(&sb, (char)('0' + gv / div[d % NBASE_DIGITS] % 10));
            }
        }
    }
    if (len != 8 + 2 * (size_t)n) {   /* bytes left over: the caller's check in PostgreSQL */
        strbuf_free(&sb);
        bad_numeric(idx);
    }
    out->is_null = false;
    out->u.str = numeric_in(sb.data, sb.len, typmod, arena);
    strbuf_free(&sb);
}

/* ---------- interval, uuid, bytea ---------- */

static void put32(char *p, uint32_t v)
{
    put16(p, (uint16_t)(v >> 16));
    put16(p + 2, (uint16_t)v);
}

static uint32_t get32(const char *p) { return ((uint32_t)get16(p) << 16) | get16(p + 2); }

StrRef proto_interval_send(StrRef iv, MemArena *arena)
{
    Interval v = interval_get(iv);
    char *out = mem_alloc(arena, 16);
    put32(out, (uint32_t)((uint64_t)v.micros >> 32));
    put32(out + 4, (uint32_t)(uint64_t)v.micros);
    put32(out + 8, (uint32_t)v.days);
    put32(out + 12, (uint32_t)v.months);
    return (StrRef){out, 16};
}

void proto_binary_bytes_recv(uint32_t type_oid, const char *data, size_t len, int idx, MemArena *arena,
                             Value *out)
{
    if ((type_oid == TYPE_UUID || type_oid == TYPE_INTERVAL) && len < 16)
        err_raise(ERRCODE_PROTOCOL_VIOLATION, "insufficient data left in message");
    if ((type_oid == TYPE_UUID || type_oid == TYPE_INTERVAL) && len > 16)
        bad_numeric(idx);   /* the same 22P03 text for every type */
    char *mem = mem_alloc(arena, len > 0 ? len : 1);
    out->is_null = false;
    if (type_oid == TYPE_INTERVAL) {
        Interval v;
        v.micros = (int64_t)(((uint64_t)get32(data) << 32) | get32(data + 4));
        v.days = (int32_t)get32(data + 8);
        v.months = (int32_t)get32(data + 12);
        out->u.str = interval_put(v, mem);
        return;
    }
    if (len > 0)
        memcpy(mem, data, len);
    out->u.str = (StrRef){mem, (uint32_t)len};
}
