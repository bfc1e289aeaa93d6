/*
 * numeric.c — numeric's packed form, text I/O, conversions and the public
 * arithmetic entry points (the algorithms are in numeric_var.c).
 *
 * Packed form (numeric.h): uint16 sign_dscale, int16 weight, uint16
 * digits[], little-endian, canonical (no leading/trailing zero digits, zero
 * has none and weight 0). Readers never assume alignment: a StrRef may
 * point anywhere in a storage page.
 *
 * Read-only operations (compare, hash, output, to-integer) walk the packed
 * digits directly; arithmetic unpacks into NumVars in the caller's arena
 * and packs the result there (PostgreSQL's make_result, with its overflow
 * check "value overflows numeric format").
 */
#define STRATA_NUMERIC_INTERNAL
#include "common/numeric.h"
#include "common/numeric_int.h"

#include <ctype.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/error.h"
#include "common/typio.h"

#define NUM_HDR 4
#define NUM_SIGN_SHIFT 14
#define NUM_DSCALE_MASK 0x3FFF

/* ---- packed access ---- */

static inline uint16_t num_rd16(const char *p)
{
    return (uint16_t)((unsigned char)p[0] | ((unsigned)(unsigned char)p[1] << 8));
}

static inline void num_wr16(char *p, uint16_t v)
{
    p[0] = (char)(v & 0xff);
    p[1] = (char)(v >> 8);
}

typedef struct NumPacked {
    int sign, dscale, weight, ndigits;
    const char *digits; /* ndigits little-endian uint16s */
} NumPacked;

static NumPacked num_peek(StrRef n)
{
    NumPacked p;
    uint16_t sd;
    if (n.len < NUM_HDR)
        err_raise(ERRCODE_DATA_CORRUPTED, "invalid numeric value of %u bytes", (unsigned)n.len);
    sd = num_rd16(n.ptr);
    p.sign = sd >> NUM_SIGN_SHIFT;
    p.dscale = sd & NUM_DSCALE_MASK;
    p.weight = (int16_t)num_rd16(n.ptr + 2);
    p.ndigits = (int)((n.len - NUM_HDR) / 2);
    p.digits = n.ptr + NUM_HDR;
    return p;
}

static inline int num_digit(const NumPacked *p, int i)
{
    return num_rd16(p->digits + 2 * i);
}

/* Unpack into a NumVar whose digits live in arena (with the spare digit). */
static void num_unpack(StrRef n, NumVar *v, MemArena *arena)
{
    NumPacked p = num_peek(n);
    numvar__alloc(v, p.ndigits, arena);
    for (int i = 0; i < p.ndigits; i++)
        v->digits[i] = (NumDigit)num_digit(&p, i);
    v->sign = p.sign;
    v->weight = p.weight;
    v->dscale = p.dscale;
}

/* make_result: strip, check the packed fields' ranges, write into arena. */
static StrRef num_pack(NumVar *v, MemArena *arena)
{
    char *out;
    if (v->sign == NUM_NAN) {
        v->ndigits = 0;
        v->weight = 0;
        v->dscale = 0;
    } else {
        numvar__strip(v);
    }
    if (v->weight > INT16_MAX || v->weight < INT16_MIN || v->dscale > NUMERIC_DSCALE_MAX ||
        v->dscale < 0)
        err_raise(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "value overflows numeric format");
    out = mem_alloc(arena, NUM_HDR + 2 * (size_t)v->ndigits);
    num_wr16(out, (uint16_t)((v->sign << NUM_SIGN_SHIFT) | v->dscale));
    num_wr16(out + 2, (uint16_t)(int16_t)v->weight);
    for (int i = 0; i < v->ndigits; i++)
        num_wr16(out + NUM_HDR + 2 * i, (uint16_t)v->digits[i]);
    return (StrRef){out, (uint32_t)(NUM_HDR + 2 * v->ndigits)};
}

void numvar__unpack(StrRef n, NumVar *v, MemArena *arena)
{
    num_unpack(n, v, arena);
}

StrRef numvar__pack(NumVar *v, MemArena *arena)
{
    return num_pack(v, arena);
}

static StrRef num_make_nan(MemArena *arena)
{
    NumVar v;
    numvar__zero(&v);
    v.sign = NUM_NAN;
    return num_pack(&v, arena);
}

bool numeric_is_nan(StrRef a)
{
    return num_peek(a).sign == NUM_NAN;
}

int numeric_dscale(StrRef a)
{
    return num_peek(a).dscale;
}

/* ---- text input ---- */

/*
 * set_var_from_str: [+-] digits [. digits] [e [+-] digits] into v (no
 * spaces, no NaN). Returns the position after the number, or NULL on a
 * syntax error.
 */
static const char *num_parse(const char *cp, NumVar *v, MemArena *arena)
{
    bool have_dp = false;
    int sign = NUM_POS, dweight = -1, dscale = 0, ddigits, weight, ndigits, offset, i;
    unsigned char *dec;
    if (*cp == '+' || *cp == '-')
        sign = *cp++ == '-' ? NUM_NEG : NUM_POS;
    if (*cp == '.') {
        have_dp = true;
        cp++;
    }
    if (!isdigit((unsigned char)*cp))
        return NULL;
    dec = mem_alloc(arena, strlen(cp) + DEC_DIGITS * 2);
    memset(dec, 0, DEC_DIGITS);
    i = DEC_DIGITS;
    for (; *cp; cp++) {
        if (isdigit((unsigned char)*cp)) {
            dec[i++] = (unsigned char)(*cp - '0');
            if (!have_dp)
                dweight++;
            else
                dscale++;
        } else if (*cp == '.' && !have_dp) {
            have_dp = true;
        } else if (*cp == '.') {
            return NULL;
        } else {
            break;
        }
    }
    ddigits = i - DEC_DIGITS;
    memset(dec + i, 0, DEC_DIGITS - 1);
    if (*cp == 'e' || *cp == 'E') {
        char *end;
        long exponent = strtol(cp + 1, &end, 10);
        if (end == cp + 1)
            return NULL;
        cp = end;
        if (exponent >= INT_MAX / 2 || exponent <= -(INT_MAX / 2))
            err_raise(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "value overflows numeric format");
        dweight += (int)exponent;
        dscale -= (int)exponent;
        if (dscale < 0)
            dscale = 0;
    }
    if (dweight >= 0)
        weight = (dweight + 1 + DEC_DIGITS - 1) / DEC_DIGITS - 1;
    else
        weight = -((-dweight - 1) / DEC_DIGITS + 1);
    offset = (weight + 1) * DEC_DIGITS - (dweight + 1);
    ndigits = (ddigits + offset + DEC_DIGITS - 1) / DEC_DIGITS;
    numvar__alloc(v, ndigits, arena);
    v->sign = sign;
    v->weight = weight;
    v->dscale = dscale;
    i = DEC_DIGITS - offset;
    for (int k = 0; k < ndigits; k++, i += DEC_DIGITS)
        v->digits[k] = (NumDigit)(((dec[i] * 10 + dec[i + 1]) * 10 + dec[i + 2]) * 10 + dec[i + 3]);
    numvar__strip(v);
    return cp;
}

/* apply_typmod: round to the scale, then check the integer digits fit. */
static void num_apply_typmod(NumVar *v, int32_t typmod)
{
    int precision, scale, maxdigits, ddigits;
    if (typmod < 4 || v->sign == NUM_NAN)
        return;
    precision = ((typmod - 4) >> 16) & 0xffff;
    scale = (((typmod - 4) & 0x7ff) ^ 1024) - 1024;
    maxdigits = precision - scale;
    numvar__round(v, scale);
    if (v->dscale < 0)
        v->dscale = 0;
    if (v->weight < 0)
        return;
    ddigits = (v->weight + 1) * DEC_DIGITS;
    if (ddigits <= maxdigits)
        return;
    for (int i = 0; i < v->ndigits; i++) {
        int dig = v->digits[i];
        if (dig) {
            ddigits -= dig < 10 ? 3 : dig < 100 ? 2 : dig < 1000 ? 1 : 0;
            if (ddigits > maxdigits) {
                ErrorData *e = err_begin(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE);
                err_message(e, "numeric field overflow");
                err_detail(e,
                           "A field with precision %d, scale %d must round to an absolute "
                           "value less than %s%d.",
                           precision, scale, maxdigits ? "10^" : "", maxdigits ? maxdigits : 1);
                err_throw();
            }
            break;
        }
        ddigits -= DEC_DIGITS;
    }
}

static bool num_isspace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

StrRef numeric_in(const char *s, size_t len, int32_t typmod, MemArena *arena)
{
    char *str = mem_strndup(arena, s, len);
    const char *cp = str;
    NumVar v;
    while (num_isspace(*cp))
        cp++;
    if (strncasecmp(cp, "NaN", 3) == 0) {
        numvar__zero(&v);
        v.sign = NUM_NAN;
        cp += 3;
    } else if (strncasecmp(cp, "inf", 3) == 0 || strncasecmp(cp, "+inf", 4) == 0 ||
               strncasecmp(cp, "-inf", 4) == 0) {
        err_raise(ERRCODE_FEATURE_NOT_SUPPORTED, "numeric infinity is not supported");
    } else if ((cp = num_parse(cp, &v, arena)) == NULL) {
        goto invalid;
    }
    while (num_isspace(*cp))
        cp++;
    if (*cp != '\0' || strlen(str) != len)
        goto invalid;
    num_apply_typmod(&v, typmod);
    return num_pack(&v, arena);
invalid:
    err_raise(ERRCODE_INVALID_TEXT_REPRESENTATION, "invalid input syntax for type numeric: \"%s\"",
              str);
}

StrRef numeric_apply_typmod(StrRef num, int32_t typmod, MemArena *arena)
{
    NumVar v;
    if (typmod < 4)
        return num;
    num_unpack(num, &v, arena);
    num_apply_typmod(&v, typmod);
    return num_pack(&v, arena);
}

/* ---- text output ---- */

/* Upper bound of numeric_out's length. */
static size_t num_out_size(const NumPacked *p)
{
    return 1 + (size_t)(p->weight >= 0 ? p->weight + 1 : 1) * DEC_DIGITS + 1 +
           (size_t)p->dscale + DEC_DIGITS + 1;
}

/* get_str_from_var: all integer digits, then exactly dscale fractional digits. */
static size_t num_format(const NumPacked *p, char *out)
{
    char *cp = out;
    int d;
    if (p->sign == NUM_NAN) {
        memcpy(out, "NaN", 4);
        return 3;
    }
    if (p->sign == NUM_NEG)
        *cp++ = '-';
    if (p->weight < 0) {
        d = p->weight + 1;
        *cp++ = '0';
    } else {
        for (d = 0; d <= p->weight; d++) {
            int dig = d < p->ndigits ? num_digit(p, d) : 0;
            bool putit = d > 0;
            int d1;
            d1 = dig / 1000; dig -= d1 * 1000; putit |= d1 > 0;
            if (putit) *cp++ = (char)(d1 + '0');
            d1 = dig / 100; dig -= d1 * 100; putit |= d1 > 0;
            if (putit) *cp++ = (char)(d1 + '0');
            d1 = dig / 10; dig -= d1 * 10; putit |= d1 > 0;
            if (putit) *cp++ = (char)(d1 + '0');
            *cp++ = (char)(dig + '0');
        }
    }
    if (p->dscale > 0) {
        char *endcp;
        *cp++ = '.';
        endcp = cp + p->dscale;
        for (int i = 0; i < p->dscale; d++, i += DEC_DIGITS) {
            int dig = (d >= 0 && d < p->ndigits) ? num_digit(p, d) : 0;
            int d1;
            d1 = dig / 1000; dig -= d1 * 1000; *cp++ = (char)(d1 + '0');
            d1 = dig / 100; dig -= d1 * 100; *cp++ = (char)(d1 + '0');
            d1 = dig / 10; dig -= d1 * 10; *cp++ = (char)(d1 + '0');
            *cp++ = (char)(dig + '0');
        }
        cp = endcp;
    }
    *cp = '\0';
    return (size_t)(cp - out);
}

void numeric_out(StrRef num, StrBuf *out)
{
    NumPacked p = num_peek(num);
    size_t need = num_out_size(&p);
    strbuf_reserve(out, need);
    out->len += num_format(&p, out->data + out->len);
}

char *numeric_format_arena(StrRef num, MemArena *arena, uint32_t *len)
{
    NumPacked p = num_peek(num);
    char *buf = mem_alloc(arena, num_out_size(&p));
    *len = (uint32_t)num_format(&p, buf);
    return buf;
}

/* ---- conversions ---- */

StrRef numeric_from_int64(int64_t val, MemArena *arena)
{
    NumVar v;
    uint64_t u = val < 0 ? (uint64_t)0 - (uint64_t)val : (uint64_t)val;
    NumDigit tmp[5];
    int n = 0;
    while (u) {
        tmp[n++] = (NumDigit)(u % NBASE);
        u /= NBASE;
    }
    numvar__alloc(&v, n, arena);
    for (int i = 0; i < n; i++)
        v.digits[i] = tmp[n - 1 - i];
    v.sign = val < 0 ? NUM_NEG : NUM_POS;
    v.weight = n - 1;
    v.dscale = 0;
    return num_pack(&v, arena);
}

/* The base-NBASE digits of u, least significant first, into tmp (room for
 * 10); returns how many. 128-bit divisions only while u needs them. */
static int base_digits(uint128_t u, NumDigit *tmp)
{
    int n = 0;
    while (u > UINT64_MAX) {
        tmp[n++] = (NumDigit)(u % NBASE);
        u /= NBASE;
    }
    for (uint64_t w = (uint64_t)u; w; w /= NBASE)
        tmp[n++] = (NumDigit)(w % NBASE);
    return n;
}

/* val * 10^-dscale, built in base NBASE directly: the fraction's digits are
 * padded to a multiple of DEC_DIGITS (val * 10^pad) so that groups of four
 * decimal digits line up with the point. Aggregates finish millions of
 * groups through here (avg, sum of int8). */
StrRef numeric_from_int128(int128_t val, int dscale, MemArena *arena)
{
    ERR_ASSERT(dscale >= 0);
    uint128_t u = val < 0 ? (uint128_t)0 - (uint128_t)val : (uint128_t)val;
    int pad = (DEC_DIGITS - dscale % DEC_DIGITS) % DEC_DIGITS;
    int fracgroups = (dscale + pad) / DEC_DIGITS;
    /* the padded value may not fit 128 bits */
    bool split = false;
    for (int k = 0; k < pad; k++) {
        if (u > (~(uint128_t)0) / 10) {
            split = true;
            break;
        }
        u *= 10;
    }
    if (split) {   /* rare (|val| near 2^127): the decimal way */
        char buf[64];
        char *p = buf + sizeof buf - 1;
        uint128_t w = val < 0 ? (uint128_t)0 - (uint128_t)val : (uint128_t)val;
        int ndig = 0;
        NumVar v;
        *p = '\0';
        do {
            *--p = (char)('0' + (int)(w % 10));
            w /= 10;
            ndig++;
        } while (w);
        while (ndig <= dscale) {
            *--p = '0';
            ndig++;
        }
        char tmp[80];
        snprintf(tmp, sizeof tmp, "%s%.*s.%s", val < 0 ? "-" : "", ndig - dscale, p, p + (ndig - dscale));
        ERR_ASSERT(num_parse(tmp, &v, arena) != NULL);
        return num_pack(&v, arena);
    }
    NumDigit tmp[12];   /* 2^128 < 10^39: at most 10 groups */
    int n = base_digits(u, tmp);
    NumVar v;
    numvar__alloc(&v, n, arena);
    for (int i = 0; i < n; i++)
        v.digits[i] = tmp[n - 1 - i];
    v.sign = val < 0 ? NUM_NEG : NUM_POS;
    v.weight = n - 1 - fracgroups;
    v.dscale = dscale;
    return num_pack(&v, arena);
}

/* float8_numeric: %.{digits}g text, then parsed; NaN stays NaN. */
static StrRef num_from_float(double val, int digits, MemArena *arena)
{
    char buf[64];
    NumVar v;
    if (isnan(val))
        return num_make_nan(arena);
    if (isinf(val))
        err_raise(ERRCODE_FEATURE_NOT_SUPPORTED, "cannot convert infinity to numeric");
    snprintf(buf, sizeof buf, "%.*g", digits, val);
    ERR_ASSERT(num_parse(buf, &v, arena) != NULL);
    return num_pack(&v, arena);
}

StrRef numeric_from_double(double v, MemArena *arena)
{
    return num_from_float(v, DBL_DIG, arena);
}

StrRef numeric_from_float(float v, MemArena *arena)
{
    return num_from_float((double)v, FLT_DIG, arena);
}

/*
 * numericvar_to_int64: round half away from zero to an integer; false when
 * it does not fit. Reads the packed digits, no allocation.
 */
static bool num_to_int64(const NumPacked *p, int64_t *out)
{
    uint64_t acc = 0;
    const uint64_t limit = p->sign == NUM_NEG ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    if (p->ndigits == 0 || p->weight < -1) {
        *out = 0;
        return true;
    }
    if (p->weight > 4)
        return false;
    for (int d = 0; d <= p->weight; d++) {
        uint64_t dig = d < p->ndigits ? (uint64_t)num_digit(p, d) : 0;
        if (acc > (limit - dig) / NBASE)
            return false;
        acc = acc * NBASE + dig;
    }
    if (p->weight + 1 < p->ndigits && num_digit(p, p->weight + 1) >= HALF_NBASE) {
        if (acc >= limit)
            return false;
        acc++;
    }
    *out = p->sign == NUM_NEG ? (int64_t)((uint64_t)0 - acc) : (int64_t)acc;
    return true;
}

static int64_t num_to_int_checked(StrRef num, int64_t min, int64_t max, const char *type_name)
{
    NumPacked p = num_peek(num);
    int64_t v;
    if (p.sign == NUM_NAN)
        err_raise(ERRCODE_FEATURE_NOT_SUPPORTED, "cannot convert NaN to %s", type_name);
    if (!num_to_int64(&p, &v) || v < min || v > max)
        err_raise(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "%s out of range", type_name);
    return v;
}

int64_t numeric_to_int64(StrRef num)
{
    return num_to_int_checked(num, INT64_MIN, INT64_MAX, "bigint");
}

int32_t numeric_to_int32(StrRef num)
{
    return (int32_t)num_to_int_checked(num, INT32_MIN, INT32_MAX, "integer");
}

int16_t numeric_to_int16(StrRef num)
{
    return (int16_t)num_to_int_checked(num, INT16_MIN, INT16_MAX, "smallint");
}

double numeric_to_double(StrRef num)
{
    NumPacked p = num_peek(num);
    char small[128];
    MemArena *tmp;
    ErrJmp jmp;
    double d = 0;
    if (p.sign == NUM_NAN)
        return NAN;
    if (num_out_size(&p) <= sizeof small) {
        size_t n = num_format(&p, small);
        return typio_parse_float8(small, n);
    }
    /* numeric_float8 goes through float8in; long text needs a scratch arena,
     * freed before an out-of-range error travels on. */
    tmp = mem_arena_create("numeric_to_double");
    if (ERR_TRY(jmp)) {
        uint32_t n;
        char *text = numeric_format_arena(num, tmp, &n);
        d = typio_parse_float8(text, n);
        err_pop(&jmp);
    } else {
        mem_arena_destroy(tmp);
        err_rethrow();
    }
    mem_arena_destroy(tmp);
    return d;
}

bool numeric_to_int128_scaled(StrRef num, int scale, int128_t *out)
{
    NumPacked p = num_peek(num);
    uint128_t acc = 0;
    const uint128_t limit = ((uint128_t)1 << 126); /* leave room for sums */
    int first_exp10, last_exp10;
    if (p.sign == NUM_NAN || scale < 0 || scale > 36)
        return false;
    if (p.ndigits == 0) {
        *out = 0;
        return true;
    }
    /* digit i stands for digit * 10^(4 * (weight - i)); it must not go below 10^-scale */
    last_exp10 = DEC_DIGITS * (p.weight - (p.ndigits - 1));
    first_exp10 = DEC_DIGITS * p.weight;
    if (first_exp10 + scale > 36)
        return false;
    for (int i = 0; i < p.ndigits; i++) {
        acc = acc * NBASE + (uint128_t)num_digit(&p, i);
        if (acc >= limit)
            return false;
    }
    /* acc = value * 10^-last_exp10; shift to value * 10^scale */
    int shift = last_exp10 + scale;
    for (; shift > 0; shift--) {
        acc *= 10;
        if (acc >= limit)
            return false;
    }
    for (; shift < 0; shift++) {
        if (acc % 10 != 0)
            return false;
        acc /= 10;
    }
    *out = p.sign == NUM_NEG ? -(int128_t)acc : (int128_t)acc;
    return true;
}

/* ---- arithmetic ---- */

typedef enum NumOp { NUM_OP_ADD, NUM_OP_SUB, NUM_OP_MUL, NUM_OP_DIV, NUM_OP_MOD } NumOp;

static StrRef num_binary(StrRef a, StrRef b, NumOp op, MemArena *arena)
{
    NumVar x, y, r;
    int rscale;
    num_unpack(a, &x, arena);
    num_unpack(b, &y, arena);
    if (x.sign == NUM_NAN || y.sign == NUM_NAN)
        return num_make_nan(arena);
    switch (op) {
    case NUM_OP_ADD: numvar__add(&x, &y, &r, arena); break;
    case NUM_OP_SUB: numvar__sub(&x, &y, &r, arena); break;
    case NUM_OP_MUL:
        numvar__mul(&x, &y, &r, x.dscale + y.dscale, arena);
        if (r.dscale > NUMERIC_DSCALE_MAX) /* PostgreSQL rounds to the largest dscale it can store */
            numvar__round(&r, NUMERIC_DSCALE_MAX);
        break;
    case NUM_OP_DIV:
        rscale = numvar__select_div_scale(&x, &y);
        numvar__div(&x, &y, &r, rscale, true, arena);
        break;
    case NUM_OP_MOD: numvar__mod(&x, &y, &r, arena); break;
    }
    return num_pack(&r, arena);
}

StrRef numeric_add(StrRef a, StrRef b, MemArena *arena) { return num_binary(a, b, NUM_OP_ADD, arena); }
StrRef numeric_sub(StrRef a, StrRef b, MemArena *arena) { return num_binary(a, b, NUM_OP_SUB, arena); }
StrRef numeric_mul(StrRef a, StrRef b, MemArena *arena) { return num_binary(a, b, NUM_OP_MUL, arena); }
StrRef numeric_div(StrRef a, StrRef b, MemArena *arena) { return num_binary(a, b, NUM_OP_DIV, arena); }
StrRef numeric_mod(StrRef a, StrRef b, MemArena *arena) { return num_binary(a, b, NUM_OP_MOD, arena); }

StrRef numeric_div_int64(StrRef sum, int64_t count, MemArena *arena)
{
    return numeric_div(sum, numeric_from_int64(count, arena), arena);
}

/* Weight and first digit of integer u in base NBASE (0: weight 0, digit 0). */
static void int_base_digits(uint128_t u, int *weight, NumDigit *first)
{
    NumDigit tmp[12];
    int n = base_digits(u, tmp);
    *weight = n > 0 ? n - 1 : 0;
    *first = n > 0 ? tmp[n - 1] : 0;
}

/* t / c with its remainder, c > 0: on x86-64 two 64-bit divides (the
 * second a 128/64 `divq`, its quotient fits because the high part's
 * remainder is below c) instead of the generic 128-bit __udivmodti4. */
static inline uint128_t div128_by64(uint128_t t, uint64_t c, uint64_t *rem)
{
#if defined(__x86_64__) && defined(__GNUC__)
    uint64_t hi = (uint64_t)(t >> 64), lo = (uint64_t)t;
    uint64_t qhi = hi / c, r = hi % c, qlo;
    __asm__("divq %4" : "=a"(qlo), "=d"(r) : "a"(lo), "d"(r), "rm"(c));
    *rem = r;
    return ((uint128_t)qhi << 64) | qlo;
#else
    *rem = (uint64_t)(t % c);
    return t / c;
#endif
}

StrRef numeric_avg_int128(int128_t sum, int64_t count, MemArena *arena)
{
    ERR_ASSERT(count > 0);
    uint128_t u = sum < 0 ? (uint128_t)0 - (uint128_t)sum : (uint128_t)sum;
    /* PostgreSQL's select_div_scale for two integers (dscale 0) */
    int w1, w2;
    NumDigit f1, f2;
    int_base_digits(u, &w1, &f1);
    int_base_digits((uint128_t)count, &w2, &f2);
    int qweight = w1 - w2 - (f1 <= f2 ? 1 : 0);
    int rscale = NUMERIC_MIN_SIG_DIGITS - qweight * DEC_DIGITS;
    if (rscale < 0)
        rscale = 0;
    if (rscale > NUMERIC_MAX_DISPLAY_SCALE)
        rscale = NUMERIC_MAX_DISPLAY_SCALE;
    /* u * 10^rscale / count rounded half away from zero, as div_var's
     * exact digits rounded at rscale; the general path when it overflows */
    uint128_t t = u;
    for (int k = 0; k < rscale; k++) {
        if (t > (~(uint128_t)0) / 10)
            return numeric_div_int64(numeric_from_int128(sum, 0, arena), count, arena);
        t *= 10;
    }
    uint64_t r;
    uint128_t q = div128_by64(t, (uint64_t)count, &r);
    if (r >= (uint64_t)count - r)   /* r / count >= 1/2 */
        q++;
    if (q >> 127)   /* does not fit int128 */
        return numeric_div_int64(numeric_from_int128(sum, 0, arena), count, arena);
    int128_t sq = sum < 0 ? -(int128_t)q : (int128_t)q;
    return numeric_from_int128(sq, rscale, arena);
}

static StrRef num_with_sign(StrRef a, int mode, MemArena *arena)
{
    NumVar v;
    num_unpack(a, &v, arena);
    if (v.sign != NUM_NAN && v.ndigits > 0)
        v.sign = mode == 0 ? (v.sign == NUM_POS ? NUM_NEG : NUM_POS) : NUM_POS;
    return num_pack(&v, arena);
}

StrRef numeric_neg(StrRef a, MemArena *arena) { return num_with_sign(a, 0, arena); }
StrRef numeric_abs(StrRef a, MemArena *arena) { return num_with_sign(a, 1, arena); }

StrRef numeric_round(StrRef a, int scale, MemArena *arena)
{
    NumVar v;
    num_unpack(a, &v, arena);
    if (v.sign == NUM_NAN)
        return a;
    if (scale < -NUMERIC_MAX_RESULT_SCALE)
        scale = -NUMERIC_MAX_RESULT_SCALE;
    if (scale > NUMERIC_MAX_RESULT_SCALE)
        scale = NUMERIC_MAX_RESULT_SCALE;
    numvar__round(&v, scale);
    if (scale < 0)
        v.dscale = 0;
    return num_pack(&v, arena);
}

int numeric_min_scale(StrRef num)
{
    NumPacked p = num_peek(num);
    int scale, d;
    if (p.sign == NUM_NAN)
        return -1;
    if (p.ndigits == 0)
        return 0;
    scale = (p.ndigits - 1 - p.weight) * DEC_DIGITS;
    if (scale <= 0)
        return 0;
    for (d = num_digit(&p, p.ndigits - 1); d % 10 == 0; d /= 10)
        scale--;
    return scale;
}

/* ---- comparison and hashing (no allocation) ---- */

static int num_cmp_abs_packed(const NumPacked *a, const NumPacked *b)
{
    int i1 = 0, i2 = 0, w1 = a->weight, w2 = b->weight;
    /* both canonical: first digits non-zero, so a larger weight means a larger value */
    if (w1 != w2)
        return w1 > w2 ? 1 : -1;
    while (i1 < a->ndigits && i2 < b->ndigits) {
        int d = num_digit(a, i1++) - num_digit(b, i2++);
        if (d)
            return d > 0 ? 1 : -1;
    }
    if (i1 < a->ndigits)
        return 1;
    if (i2 < b->ndigits)
        return -1;
    return 0;
}

int numeric_cmp(StrRef a, StrRef b)
{
    NumPacked x = num_peek(a), y = num_peek(b);
    if (x.sign == NUM_NAN || y.sign == NUM_NAN)
        return x.sign == y.sign ? 0 : x.sign == NUM_NAN ? 1 : -1;
    if (x.ndigits == 0 || y.ndigits == 0) {
        if (x.ndigits == 0 && y.ndigits == 0)
            return 0;
        if (x.ndigits == 0)
            return y.sign == NUM_NEG ? 1 : -1;
        return x.sign == NUM_NEG ? -1 : 1;
    }
    if (x.sign != y.sign)
        return x.sign == NUM_NEG ? -1 : 1;
    return x.sign == NUM_NEG ? -num_cmp_abs_packed(&x, &y) : num_cmp_abs_packed(&x, &y);
}

uint64_t numeric_hash(StrRef a)
{
    NumPacked p = num_peek(a);
    uint64_t seed = (uint64_t)p.sign * UINT64_C(0x9E3779B97F4A7C15);
    if (p.sign == NUM_NAN)
        return hash_u64(UINT64_C(0x4e614e));
    /* weight and digits, not dscale: 1.50 and 1.5 hash equal */
    return hash_bytes(a.ptr + 2, a.len - 2, seed);
}
