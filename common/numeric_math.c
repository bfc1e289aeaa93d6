/*
 * numeric_math.c — numeric functions beyond the four operations: trunc,
 * floor, ceil, sqrt, exp, ln, log, power, div, sign, gcd, lcm, trim_scale,
 * with PostgreSQL 15's result scales (its numeric.c) and errors.
 *
 * The result scale (rscale) is chosen exactly as PostgreSQL chooses it; the
 * value is then computed with guard digits by textbook methods (Newton for
 * sqrt; Taylor series after halving for exp; repeated square roots and the
 * atanh series for ln) and rounded once to rscale, so the printed digits
 * are PostgreSQL's whenever the true value is not within ~1e-8 units of
 * the last place of a rounding midpoint. Integer powers follow PostgreSQL's
 * power_var_int step by step (its working scales included).
 */
#define STRATA_NUMERIC_INTERNAL
#include "common/numeric.h"
#include "common/numeric_int.h"

#include <limits.h>
#include <math.h>
#include <string.h>

#include "common/error.h"

#define NM_MAX(a, b) ((a) > (b) ? (a) : (b))
#define NM_MIN(a, b) ((a) < (b) ? (a) : (b))
#define NM_MAX_ITER 200

/* ---- small helpers ---- */

static void nm_set_int(NumVar *v, int64_t x, MemArena *a)
{
    uint64_t u = x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
    NumDigit tmp[5];
    int n = 0;
    while (u) {
        tmp[n++] = (NumDigit)(u % NBASE);
        u /= NBASE;
    }
    numvar__alloc(v, n, a);
    for (int i = 0; i < n; i++)
        v->digits[i] = tmp[n - 1 - i];
    v->weight = n - 1;
    v->sign = x < 0 ? NUM_NEG : NUM_POS;
    v->dscale = 0;
    if (n == 0) {
        v->weight = 0;
        v->sign = NUM_POS;
    }
}

/* 10^e as a NumVar (any integer e). */
static void nm_pow10(NumVar *v, int e, MemArena *a)
{
    int w = e >= 0 ? e / DEC_DIGITS : -((-e + DEC_DIGITS - 1) / DEC_DIGITS);
    int r = e - w * DEC_DIGITS;
    static const int p[4] = {1, 10, 100, 1000};
    numvar__alloc(v, 1, a);
    v->digits[0] = (NumDigit)p[r];
    v->weight = w;
    v->sign = NUM_POS;
    v->dscale = e < 0 ? -e : 0;
}

/* log10(|v|) from the leading digits (v not zero). */
static double nm_log10(const NumVar *v)
{
    double f = v->digits[0];
    int p = v->weight * DEC_DIGITS;
    for (int i = 1; i < v->ndigits && i * DEC_DIGITS < 16; i++) {
        f = f * NBASE + v->digits[i];
        p -= DEC_DIGITS;
    }
    return log10(f) + p;
}

/* The value as a double, clamped to +/-1e300 (numericvar_to_double_no_overflow). */
static double nm_to_double(const NumVar *v)
{
    double l;
    if (v->ndigits == 0)
        return 0.0;
    l = nm_log10(v);
    if (l > 300)
        return v->sign == NUM_NEG ? -1e300 : 1e300;
    return (v->sign == NUM_NEG ? -1 : 1) * pow(10.0, l);
}

static bool nm_is_zero(const NumVar *v)
{
    return v->ndigits == 0;
}

static int nm_clamp_scale(int rscale)
{
    rscale = NM_MAX(rscale, 0);
    return NM_MIN(rscale, NUMERIC_MAX_DISPLAY_SCALE);
}

/* Is v an integer (no fractional digits)? */
static bool nm_is_integer(const NumVar *v)
{
    return v->ndigits == 0 || v->ndigits <= v->weight + 1;
}

/* Exact integer value of an integral v when it fits in int64. */
static bool nm_to_int64(const NumVar *v, int64_t *out)
{
    int64_t acc = 0;
    if (v->weight > 4)
        return false;
    for (int i = 0; i <= v->weight; i++)
        acc = acc * NBASE + (i < v->ndigits ? v->digits[i] : 0);
    *out = v->sign == NUM_NEG ? -acc : acc;
    return true;
}

/* ---- trunc, floor, ceil ---- */

StrRef numeric_trunc(StrRef num, int scale, MemArena *arena)
{
    NumVar v;
    numvar__unpack(num, &v, arena);
    if (v.sign == NUM_NAN)
        return num;
    scale = NM_MAX(scale, -NUMERIC_MAX_RESULT_SCALE);
    scale = NM_MIN(scale, NUMERIC_MAX_RESULT_SCALE);
    numvar__trunc(&v, scale);
    if (scale < 0)
        v.dscale = 0;
    return numvar__pack(&v, arena);
}

/* floor (dir -1) or ceil (dir +1): truncate, then step away when inexact. */
static StrRef nm_floor_ceil(StrRef num, int dir, MemArena *arena)
{
    NumVar v, t, one;
    numvar__unpack(num, &v, arena);
    if (v.sign == NUM_NAN)
        return num;
    numvar__unpack(num, &t, arena);
    numvar__trunc(&t, 0);
    if (numvar__cmp(&v, &t) != 0 && (dir > 0 ? v.sign == NUM_POS : v.sign == NUM_NEG)) {
        nm_set_int(&one, dir, arena);
        numvar__add(&t, &one, &t, arena);
    }
    t.dscale = 0;
    return numvar__pack(&t, arena);
}

StrRef numeric_floor(StrRef num, MemArena *arena) { return nm_floor_ceil(num, -1, arena); }
StrRef numeric_ceil(StrRef num, MemArena *arena) { return nm_floor_ceil(num, 1, arena); }

/* ---- sqrt ---- */

/* sqrt of x > 0 to ws digits after the point (not rounded to a final scale). */
static void nm_sqrt_ws(const NumVar *x, NumVar *r, int ws, MemArena *a)
{
    NumVar g, q, half, diff, m;
    double l = nm_log10(x) / 2, fl = floor(l);
    StrRef seed = numeric_from_double(pow(10.0, l - fl), a);
    numvar__unpack(seed, &m, a);
    nm_pow10(&q, (int)fl, a);
    numvar__mul(&m, &q, &g, ws + 4, a);
    numvar__unpack(numeric_from_double(0.5, a), &half, a);
    for (int i = 0; i < NM_MAX_ITER; i++) {
        NumVar next;
        numvar__div(x, &g, &q, ws + 2, true, a);
        numvar__add(&g, &q, &next, a);
        numvar__mul(&next, &half, &next, ws + 2, a);
        numvar__sub(&next, &g, &diff, a);
        g = next;
        numvar__round(&diff, ws + 1);
        numvar__strip(&diff);
        if (nm_is_zero(&diff))
            break;
    }
    *r = g;
}

StrRef numeric_sqrt(StrRef num, MemArena *arena)
{
    NumVar x, r;
    int sweight, rscale;
    numvar__unpack(num, &x, arena);
    if (x.sign == NUM_NAN)
        return num;
    if (x.sign == NUM_NEG && !nm_is_zero(&x))
        err_raise(ERRCODE_INVALID_ARGUMENT_FOR_POWER_FUNCTION,
                  "cannot take square root of a negative number");
    sweight = (x.weight + 1) * DEC_DIGITS / 2 - 1;
    rscale = NUMERIC_MIN_SIG_DIGITS - sweight;
    rscale = NM_MAX(rscale, x.dscale);
    rscale = nm_clamp_scale(rscale);
    if (nm_is_zero(&x)) {
        numvar__zero(&r);
        r.dscale = rscale;
        return numvar__pack(&r, arena);
    }
    nm_sqrt_ws(&x, &r, rscale + 8, arena);
    numvar__round(&r, rscale);
    return numvar__pack(&r, arena);
}

/* ---- exp ---- */

/* e^x rounded to rscale; 22003 when the result overflows numeric. */
static void nm_exp(const NumVar *x, NumVar *r, int rscale, MemArena *a)
{
    double xv = nm_to_double(x);
    int k = 0, W, ws;
    NumVar z, sum, term, n, two_k;
    if (fabs(xv) >= NUMERIC_MAX_RESULT_SCALE * 3) {
        if (xv > 0)
            err_raise(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "value overflows numeric format");
        numvar__zero(r);
        r->dscale = rscale;
        return;
    }
    while (fabs(xv) / ldexp(1.0, k) > 0.01)
        k++;
    W = (int)(xv * 0.434294481903252);
    ws = rscale + NM_MAX(W, 0) + k + 10;
    nm_set_int(&two_k, INT64_C(1) << k, a);
    numvar__div(x, &two_k, &z, ws + 4, true, a);
    nm_set_int(&sum, 1, a);
    nm_set_int(&term, 1, a);
    for (int i = 1; i < 10 * NM_MAX_ITER; i++) {
        nm_set_int(&n, i, a);
        numvar__mul(&term, &z, &term, ws + 4, a);
        numvar__div(&term, &n, &term, ws + 4, true, a);
        numvar__strip(&term);
        if (nm_is_zero(&term))
            break;
        numvar__add(&sum, &term, &sum, a);
    }
    for (int i = 0; i < k; i++)
        numvar__mul(&sum, &sum, &sum, ws + 4, a);
    numvar__round(&sum, rscale);
    *r = sum;
}

StrRef numeric_exp(StrRef num, MemArena *arena)
{
    NumVar x, r;
    double val;
    int rscale;
    numvar__unpack(num, &x, arena);
    if (x.sign == NUM_NAN)
        return num;
    val = nm_to_double(&x) * 0.434294481903252;
    val = NM_MAX(val, -NUMERIC_MAX_RESULT_SCALE);
    val = NM_MIN(val, NUMERIC_MAX_RESULT_SCALE);
    rscale = NUMERIC_MIN_SIG_DIGITS - (int)val;
    rscale = NM_MAX(rscale, x.dscale);
    rscale = nm_clamp_scale(rscale);
    nm_exp(&x, &r, rscale, arena);
    return numvar__pack(&r, arena);
}

/* ---- ln and log ---- */

/* PostgreSQL's estimate_ln_dweight: decimal weight of ln(x), x > 0. */
static int nm_ln_dweight(const NumVar *x, MemArena *a)
{
    NumVar lo, hi, one, d;
    numvar__unpack(numeric_from_double(0.9, a), &lo, a);
    numvar__unpack(numeric_from_double(1.1, a), &hi, a);
    if (x->sign != NUM_POS || nm_is_zero(x))
        return 0;
    if (numvar__cmp(x, &lo) >= 0 && numvar__cmp(x, &hi) <= 0) {
        nm_set_int(&one, 1, a);
        numvar__sub(x, &one, &d, a);
        numvar__strip(&d);
        if (d.ndigits == 0)
            return 0;
        return d.weight * DEC_DIGITS + (int)log10(d.digits[0]);
    }
    {
        double digits = x->digits[0], lnv;
        int dweight = x->weight * DEC_DIGITS;
        if (x->ndigits > 1) {
            digits = digits * NBASE + x->digits[1];
            dweight -= DEC_DIGITS;
        }
        lnv = log(digits) + dweight * 2.302585092994046;
        return (int)log10(fabs(lnv));
    }
}

/* ln(x), x > 0, rounded to rscale. */
static void nm_ln(const NumVar *x, NumVar *r, int rscale, MemArena *a)
{
    NumVar v = *x, lo, hi, one, num, den, z, z2, term, t, sum, n, f;
    int64_t fact = 1;
    int ws = rscale + 24;
    numvar__unpack(numeric_from_double(0.9, a), &lo, a);
    numvar__unpack(numeric_from_double(1.1, a), &hi, a);
    nm_set_int(&one, 1, a);
    while (numvar__cmp(&v, &lo) < 0 || numvar__cmp(&v, &hi) > 0) {
        nm_sqrt_ws(&v, &v, ws, a);
        fact *= 2;
    }
    numvar__sub(&v, &one, &num, a);
    numvar__add(&v, &one, &den, a);
    numvar__div(&num, &den, &z, ws, true, a);
    numvar__mul(&z, &z, &z2, ws, a);
    sum = z;
    term = z;
    for (int i = 3; i < 100 * NM_MAX_ITER; i += 2) {
        numvar__mul(&term, &z2, &term, ws, a);
        nm_set_int(&n, i, a);
        numvar__div(&term, &n, &t, ws, true, a);
        numvar__strip(&t);
        if (nm_is_zero(&t))
            break;
        numvar__add(&sum, &t, &sum, a);
    }
    nm_set_int(&f, fact * 2, a);
    numvar__mul(&sum, &f, &sum, ws, a);
    numvar__round(&sum, rscale);
    *r = sum;
}

static void nm_check_log_arg(const NumVar *x)
{
    if (nm_is_zero(x))
        err_raise(ERRCODE_INVALID_ARGUMENT_FOR_LOG, "cannot take logarithm of zero");
    if (x->sign == NUM_NEG)
        err_raise(ERRCODE_INVALID_ARGUMENT_FOR_LOG, "cannot take logarithm of a negative number");
}

StrRef numeric_ln(StrRef num, MemArena *arena)
{
    NumVar x, r;
    int rscale;
    numvar__unpack(num, &x, arena);
    if (x.sign == NUM_NAN)
        return num;
    nm_check_log_arg(&x);
    rscale = NUMERIC_MIN_SIG_DIGITS - nm_ln_dweight(&x, arena);
    rscale = NM_MAX(rscale, x.dscale);
    rscale = nm_clamp_scale(rscale);
    nm_ln(&x, &r, rscale, arena);
    return numvar__pack(&r, arena);
}

StrRef numeric_log(StrRef base, StrRef num, MemArena *arena)
{
    NumVar b, x, lb, lx, r;
    int rscale, db, dx;
    numvar__unpack(base, &b, arena);
    numvar__unpack(num, &x, arena);
    if (b.sign == NUM_NAN)
        return base;
    if (x.sign == NUM_NAN)
        return num;
    nm_check_log_arg(&b);
    nm_check_log_arg(&x);
    db = nm_ln_dweight(&b, arena);
    dx = nm_ln_dweight(&x, arena);
    rscale = NUMERIC_MIN_SIG_DIGITS - (dx - db);
    rscale = NM_MAX(rscale, b.dscale);
    rscale = NM_MAX(rscale, x.dscale);
    rscale = nm_clamp_scale(rscale);
    /* log_var: both logarithms with extra digits, then one rounded division */
    nm_ln(&b, &lb, NM_MAX(rscale - db + 10, 0) + 10, arena);
    nm_ln(&x, &lx, NM_MAX(rscale + dx - 2 * db + 10, 0) + 10, arena);
    numvar__div(&lx, &lb, &r, rscale, true, arena);
    return numvar__pack(&r, arena);
}

/* ---- power ---- */

/* PostgreSQL 15's power_var_int: base ^ exp for an int exponent. */
static void nm_power_int(const NumVar *base, int exp, NumVar *r, int rscale, MemArena *a)
{
    NumVar prod, res, one;
    double f;
    int sig;
    bool neg;
    unsigned mask;
    nm_set_int(&one, 1, a);
    switch (exp) {
    case 0: *r = one; r->dscale = rscale; return;
    case 1: *r = *base; numvar__round(r, rscale); return;
    case -1: numvar__div(&one, base, r, rscale, true, a); return;
    case 2: numvar__mul(base, base, r, rscale, a); return;
    default: break;
    }
    if (nm_is_zero(base)) {
        if (exp < 0)
            err_raise(ERRCODE_DIVISION_BY_ZERO, "division by zero");
        numvar__zero(r);
        r->dscale = rscale;
        return;
    }
    f = exp * nm_log10(base);
    if (f > 3 * SHRT_MAX * DEC_DIGITS)
        err_raise(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "value overflows numeric format");
    if (f + 1 < -rscale) {
        numvar__zero(r);
        r->dscale = rscale;
        return;
    }
    sig = 1 + rscale + (int)f;
    sig += (int)log(fabs((double)exp)) + 8;
    neg = exp < 0;
    mask = exp < 0 ? (unsigned)0 - (unsigned)exp : (unsigned)exp;
    prod = *base;
    res = (mask & 1) ? *base : one;
    while ((mask >>= 1) > 0) {
        int ls = sig - 2 * prod.weight * DEC_DIGITS;
        ls = NM_MIN(ls, 2 * prod.dscale);
        numvar__mul(&prod, &prod, &prod, NM_MAX(ls, 0), a);
        if (mask & 1) {
            ls = sig - (prod.weight + res.weight) * DEC_DIGITS;
            ls = NM_MIN(ls, prod.dscale + res.dscale);
            numvar__mul(&prod, &res, &res, NM_MAX(ls, 0), a);
        }
        if (prod.weight > SHRT_MAX || res.weight > SHRT_MAX) {
            if (!neg)
                err_raise(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "value overflows numeric format");
            numvar__zero(&res);
            neg = false;
            break;
        }
    }
    if (neg)
        numvar__div(&one, &res, &res, rscale, true, a);
    else
        numvar__round(&res, rscale);
    *r = res;
}

/* power_var for a non-integer (or huge) exponent: exp(y * ln(x)). */
static void nm_power_real(const NumVar *x, const NumVar *y, NumVar *r, MemArena *a)
{
    NumVar lnx, prod;
    int dw, ls, rscale, sig;
    double val;
    if (nm_is_zero(x)) {
        numvar__zero(r);
        r->dscale = NUMERIC_MIN_SIG_DIGITS;
        return;
    }
    dw = nm_ln_dweight(x, a);
    ls = NM_MAX(8 - dw, 0);
    nm_ln(x, &lnx, ls, a);
    numvar__mul(&lnx, y, &prod, ls, a);
    val = nm_to_double(&prod);
    if (fabs(val) > NUMERIC_MAX_RESULT_SCALE * 3.01) {
        if (val > 0)
            err_raise(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "value overflows numeric format");
        numvar__zero(r);
        r->dscale = NUMERIC_MAX_DISPLAY_SCALE;
        return;
    }
    val *= 0.434294481903252;
    rscale = NUMERIC_MIN_SIG_DIGITS - (int)val;
    rscale = NM_MAX(rscale, x->dscale);
    rscale = NM_MAX(rscale, y->dscale);
    rscale = nm_clamp_scale(rscale);
    sig = NM_MAX(rscale + (int)val, 0);
    ls = NM_MAX(sig - dw + 8, 0);
    nm_ln(x, &lnx, ls, a);
    numvar__mul(&lnx, y, &prod, ls, a);
    nm_exp(&prod, r, rscale, a);
}

StrRef numeric_power(StrRef base, StrRef expo, MemArena *arena)
{
    NumVar x, y, r, one;
    int64_t iexp;
    numvar__unpack(base, &x, arena);
    numvar__unpack(expo, &y, arena);
    nm_set_int(&one, 1, arena);
    if (x.sign == NUM_NAN || y.sign == NUM_NAN) {
        /* 1 ^ NaN = 1 and NaN ^ 0 = 1, as PostgreSQL */
        if (y.sign != NUM_NAN && nm_is_zero(&y))
            return numeric_from_int64(1, arena);
        if (x.sign != NUM_NAN && numvar__cmp(&x, &one) == 0)
            return numeric_from_int64(1, arena);
        return x.sign == NUM_NAN ? base : expo;
    }
    if (nm_is_zero(&x) && y.sign == NUM_NEG && !nm_is_zero(&y))
        err_raise(ERRCODE_INVALID_ARGUMENT_FOR_POWER_FUNCTION,
                  "zero raised to a negative power is undefined");
    if (x.sign == NUM_NEG && !nm_is_zero(&x) && !nm_is_integer(&y))
        err_raise(ERRCODE_INVALID_ARGUMENT_FOR_POWER_FUNCTION,
                  "a negative number raised to a non-integer power yields a complex result");
    if (nm_is_integer(&y) && nm_to_int64(&y, &iexp) && iexp >= INT32_MIN && iexp <= INT32_MAX) {
        int rscale = nm_clamp_scale(NM_MAX(NUMERIC_MIN_SIG_DIGITS, x.dscale));
        nm_power_int(&x, (int)iexp, &r, rscale, arena);
    } else {
        nm_power_real(&x, &y, &r, arena);
    }
    return numvar__pack(&r, arena);
}

/* ---- div, sign, gcd, lcm, scales ---- */

StrRef numeric_div_trunc(StrRef a, StrRef b, MemArena *arena)
{
    NumVar x, y, r;
    numvar__unpack(a, &x, arena);
    numvar__unpack(b, &y, arena);
    if (x.sign == NUM_NAN)
        return a;
    if (y.sign == NUM_NAN)
        return b;
    numvar__div(&x, &y, &r, 0, false, arena);
    return numvar__pack(&r, arena);
}

StrRef numeric_sign(StrRef num, MemArena *arena)
{
    NumVar x;
    numvar__unpack(num, &x, arena);
    if (x.sign == NUM_NAN)
        return num;
    return numeric_from_int64(nm_is_zero(&x) ? 0 : x.sign == NUM_NEG ? -1 : 1, arena);
}

/* Euclid with mod on |a|, |b| (PostgreSQL's gcd_var); dscale left to the caller. */
static void nm_gcd(const NumVar *a, const NumVar *b, NumVar *r, MemArena *arena)
{
    NumVar x = *a, y = *b, t;
    x.sign = NUM_POS;
    y.sign = NUM_POS;
    while (!nm_is_zero(&y)) {
        numvar__mod(&x, &y, &t, arena);
        numvar__strip(&t);
        x = y;
        y = t;
    }
    *r = x;
}

StrRef numeric_gcd(StrRef a, StrRef b, MemArena *arena)
{
    NumVar x, y, r;
    numvar__unpack(a, &x, arena);
    numvar__unpack(b, &y, arena);
    if (x.sign == NUM_NAN)
        return a;
    if (y.sign == NUM_NAN)
        return b;
    nm_gcd(&x, &y, &r, arena);
    r.dscale = NM_MAX(x.dscale, y.dscale);
    return numvar__pack(&r, arena);
}

StrRef numeric_lcm(StrRef a, StrRef b, MemArena *arena)
{
    NumVar x, y, g, q, r;
    int dscale;
    numvar__unpack(a, &x, arena);
    numvar__unpack(b, &y, arena);
    if (x.sign == NUM_NAN)
        return a;
    if (y.sign == NUM_NAN)
        return b;
    dscale = NM_MAX(x.dscale, y.dscale);
    if (nm_is_zero(&x) || nm_is_zero(&y)) {
        numvar__zero(&r);
    } else {
        /* lcm = |x| / gcd * |y|, exact */
        nm_gcd(&x, &y, &g, arena);
        x.sign = NUM_POS;
        y.sign = NUM_POS;
        numvar__div(&x, &g, &q, 0, false, arena);
        numvar__mul(&q, &y, &r, y.dscale, arena);
    }
    r.dscale = dscale;
    return numvar__pack(&r, arena);
}

/* Fractional digits needed to show the value exactly (PostgreSQL's min_scale). */
static int nm_min_scale(const NumVar *v)
{
    int last, scale;
    NumDigit d;
    if (v->ndigits == 0)
        return 0;
    last = v->ndigits - 1;
    scale = (last - v->weight) * DEC_DIGITS;
    if (scale <= 0)
        return 0;
    for (d = v->digits[last]; d % 10 == 0; d /= 10)
        scale--;
    return scale;
}

StrRef numeric_trim_scale(StrRef num, MemArena *arena)
{
    NumVar x;
    numvar__unpack(num, &x, arena);
    if (x.sign == NUM_NAN)
        return num;
    x.dscale = nm_min_scale(&x);
    return numvar__pack(&x, arena);
}
