/*
 * numeric_var.c — the arithmetic core of numeric: PostgreSQL's numeric.c
 * algorithms on unpacked base-10000 NumVars.
 *
 * These are transcriptions of PostgreSQL's add_abs/sub_abs, mul_var
 * (schoolbook with a deferred-carry int accumulator and guard digits),
 * div_var (Knuth's algorithm D in base NBASE), round_var/trunc_var and
 * select_div_scale, so that results, including the last rounded digit and
 * the display scale, are the ones PostgreSQL prints. Temporaries come from
 * the caller's arena.
 */
#define STRATA_NUMERIC_INTERNAL
#include "common/numeric.h"
#include "common/numeric_int.h"

#include <limits.h>
#include <string.h>

#include "common/error.h"

#define MUL_GUARD_DIGITS 2

static const int round_powers[4] = {0, 1000, 100, 10};

#define NUM_MAX(a, b) ((a) > (b) ? (a) : (b))
#define NUM_MIN(a, b) ((a) < (b) ? (a) : (b))

void numvar__alloc(NumVar *v, int ndigits, MemArena *arena)
{
    v->buf = mem_alloc(arena, sizeof(NumDigit) * (size_t)(ndigits + 1));
    v->buf[0] = 0; /* spare digit for rounding */
    v->digits = v->buf + 1;
    v->ndigits = ndigits;
}

void numvar__zero(NumVar *v)
{
    v->ndigits = 0;
    v->weight = 0;
    v->sign = NUM_POS;
    v->dscale = 0;
}

void numvar__strip(NumVar *v)
{
    NumDigit *digits = v->digits;
    int ndigits = v->ndigits;
    while (ndigits > 0 && *digits == 0) {
        digits++;
        v->weight--;
        ndigits--;
    }
    while (ndigits > 0 && digits[ndigits - 1] == 0)
        ndigits--;
    if (ndigits == 0) {
        v->sign = NUM_POS;
        v->weight = 0;
    }
    v->digits = digits;
    v->ndigits = ndigits;
}

/* Propagate a rounding carry leftwards from digits[ndigits]; may use the spare digit. */
static void numvar_carry(NumVar *v, int ndigits, int carry)
{
    NumDigit *digits = v->digits;
    while (carry) {
        carry += digits[--ndigits];
        if (carry >= NBASE) {
            digits[ndigits] = (NumDigit)(carry - NBASE);
            carry = 1;
        } else {
            digits[ndigits] = (NumDigit)carry;
            carry = 0;
        }
    }
    if (ndigits < 0) {
        ERR_ASSERT(ndigits == -1 && v->digits > v->buf);
        v->digits--;
        v->ndigits++;
        v->weight++;
    }
}

void numvar__round(NumVar *v, int rscale)
{
    NumDigit *digits = v->digits;
    int di, ndigits, carry;
    v->dscale = rscale;
    di = (v->weight + 1) * DEC_DIGITS + rscale;
    if (di < 0) {
        v->ndigits = 0;
        v->weight = 0;
        v->sign = NUM_POS;
        return;
    }
    ndigits = (di + DEC_DIGITS - 1) / DEC_DIGITS;
    di %= DEC_DIGITS;
    if (!(ndigits < v->ndigits || (ndigits == v->ndigits && di > 0)))
        return;
    v->ndigits = ndigits;
    if (di == 0) {
        carry = (digits[ndigits] >= HALF_NBASE) ? 1 : 0;
    } else {
        int pow10 = round_powers[di];
        int extra = digits[--ndigits] % pow10;
        digits[ndigits] = (NumDigit)(digits[ndigits] - extra);
        carry = 0;
        if (extra >= pow10 / 2) {
            pow10 += digits[ndigits];
            if (pow10 >= NBASE) {
                pow10 -= NBASE;
                carry = 1;
            }
            digits[ndigits] = (NumDigit)pow10;
        }
    }
    numvar_carry(v, ndigits, carry);
}

void numvar__trunc(NumVar *v, int rscale)
{
    int di, ndigits;
    v->dscale = rscale;
    di = (v->weight + 1) * DEC_DIGITS + rscale;
    if (di <= 0) {
        v->ndigits = 0;
        v->weight = 0;
        v->sign = NUM_POS;
        return;
    }
    ndigits = (di + DEC_DIGITS - 1) / DEC_DIGITS;
    if (ndigits <= v->ndigits) {
        v->ndigits = ndigits;
        di %= DEC_DIGITS;
        if (di > 0) {
            int pow10 = round_powers[di];
            int extra = v->digits[--ndigits] % pow10;
            v->digits[ndigits] = (NumDigit)(v->digits[ndigits] - extra);
        }
    }
}

/* cmp_abs_common: compare absolute values given as digit arrays with weights. */
static int numvar_cmp_abs(const NumVar *a, const NumVar *b)
{
    int i1 = 0, i2 = 0;
    int w1 = a->weight, w2 = b->weight;
    while (w1 > w2 && i1 < a->ndigits) {
        if (a->digits[i1++] != 0)
            return 1;
        w1--;
    }
    while (w2 > w1 && i2 < b->ndigits) {
        if (b->digits[i2++] != 0)
            return -1;
        w2--;
    }
    if (w1 == w2) {
        while (i1 < a->ndigits && i2 < b->ndigits) {
            int stat = a->digits[i1++] - b->digits[i2++];
            if (stat)
                return stat > 0 ? 1 : -1;
        }
    }
    while (i1 < a->ndigits)
        if (a->digits[i1++] != 0)
            return 1;
    while (i2 < b->ndigits)
        if (b->digits[i2++] != 0)
            return -1;
    return 0;
}

int numvar__cmp(const NumVar *a, const NumVar *b)
{
    if (a->ndigits == 0)
        return b->ndigits == 0 ? 0 : (b->sign == NUM_NEG ? 1 : -1);
    if (b->ndigits == 0)
        return a->sign == NUM_POS ? 1 : -1;
    if (a->sign == NUM_POS) {
        if (b->sign == NUM_NEG)
            return 1;
        return numvar_cmp_abs(a, b);
    }
    if (b->sign == NUM_POS)
        return -1;
    return numvar_cmp_abs(b, a);
}

/* |a| + |b| into r (sign left to the caller). */
static void numvar_add_abs(const NumVar *a, const NumVar *b, NumVar *r, MemArena *arena)
{
    int res_weight = NUM_MAX(a->weight, b->weight) + 1;
    int res_dscale = NUM_MAX(a->dscale, b->dscale);
    int rscale1 = a->ndigits - a->weight - 1, rscale2 = b->ndigits - b->weight - 1;
    int res_rscale = NUM_MAX(rscale1, rscale2);
    int res_ndigits = res_rscale + res_weight + 1;
    int i1, i2, carry = 0;
    NumVar res;
    if (res_ndigits <= 0)
        res_ndigits = 1;
    numvar__alloc(&res, res_ndigits, arena);
    i1 = res_rscale + a->weight + 1;
    i2 = res_rscale + b->weight + 1;
    for (int i = res_ndigits - 1; i >= 0; i--) {
        i1--;
        i2--;
        if (i1 >= 0 && i1 < a->ndigits)
            carry += a->digits[i1];
        if (i2 >= 0 && i2 < b->ndigits)
            carry += b->digits[i2];
        if (carry >= NBASE) {
            res.digits[i] = (NumDigit)(carry - NBASE);
            carry = 1;
        } else {
            res.digits[i] = (NumDigit)carry;
            carry = 0;
        }
    }
    res.weight = res_weight;
    res.dscale = res_dscale;
    res.sign = NUM_POS;
    numvar__strip(&res);
    *r = res;
}

/* |a| - |b| into r, requires |a| >= |b|. */
static void numvar_sub_abs(const NumVar *a, const NumVar *b, NumVar *r, MemArena *arena)
{
    int res_weight = a->weight;
    int res_dscale = NUM_MAX(a->dscale, b->dscale);
    int rscale1 = a->ndigits - a->weight - 1, rscale2 = b->ndigits - b->weight - 1;
    int res_rscale = NUM_MAX(rscale1, rscale2);
    int res_ndigits = res_rscale + res_weight + 1;
    int i1, i2, borrow = 0;
    NumVar res;
    if (res_ndigits <= 0)
        res_ndigits = 1;
    numvar__alloc(&res, res_ndigits, arena);
    i1 = res_rscale + a->weight + 1;
    i2 = res_rscale + b->weight + 1;
    for (int i = res_ndigits - 1; i >= 0; i--) {
        i1--;
        i2--;
        if (i1 >= 0 && i1 < a->ndigits)
            borrow += a->digits[i1];
        if (i2 >= 0 && i2 < b->ndigits)
            borrow -= b->digits[i2];
        if (borrow < 0) {
            res.digits[i] = (NumDigit)(borrow + NBASE);
            borrow = -1;
        } else {
            res.digits[i] = (NumDigit)borrow;
            borrow = 0;
        }
    }
    res.weight = res_weight;
    res.dscale = res_dscale;
    res.sign = NUM_POS;
    numvar__strip(&res);
    *r = res;
}

/* a + b where b's sign is given separately (so sub is add with a flipped sign).
 * r may be a or b: a's sign is read before r is written. */
static void numvar_add_signed(const NumVar *a, const NumVar *b, int bsign, NumVar *r,
                              MemArena *arena)
{
    int asign = a->sign;
    if (asign == bsign) {
        numvar_add_abs(a, b, r, arena);
        r->sign = asign;
        if (r->ndigits == 0)
            r->sign = NUM_POS;
        return;
    }
    switch (numvar_cmp_abs(a, b)) {
    case 0: {
        int dscale = NUM_MAX(a->dscale, b->dscale);
        numvar__zero(r);
        r->dscale = dscale;
        return;
    }
    case 1:
        numvar_sub_abs(a, b, r, arena);
        r->sign = r->ndigits ? asign : NUM_POS;
        return;
    default:
        numvar_sub_abs(b, a, r, arena);
        r->sign = r->ndigits ? bsign : NUM_POS;
        return;
    }
}

void numvar__add(const NumVar *a, const NumVar *b, NumVar *r, MemArena *arena)
{
    numvar_add_signed(a, b, b->sign, r, arena);
}

void numvar__sub(const NumVar *a, const NumVar *b, NumVar *r, MemArena *arena)
{
    numvar_add_signed(a, b, b->sign == NUM_POS ? NUM_NEG : NUM_POS, r, arena);
}

/* Carry-normalise an int accumulator into base-NBASE digits (right to left). */
static void numvar_normalize(int *dig, int n)
{
    int carry = 0;
    for (int i = n - 1; i >= 0; i--) {
        int newdig = dig[i] + carry;
        if (newdig >= NBASE) {
            carry = newdig / NBASE;
            newdig -= carry * NBASE;
        } else {
            carry = 0;
        }
        dig[i] = newdig;
    }
}

void numvar__mul(const NumVar *a, const NumVar *b, NumVar *r, int rscale, MemArena *arena)
{
    const NumVar *v1 = a, *v2 = b;
    int res_ndigits, res_sign, res_weight, maxdigits, maxdig = 0;
    int *dig;
    NumVar res;
    if (v1->ndigits > v2->ndigits) { /* shorter one in the outer loop */
        v1 = b;
        v2 = a;
    }
    if (v1->ndigits == 0 || v2->ndigits == 0) {
        numvar__zero(r);
        r->dscale = rscale;
        return;
    }
    res_sign = v1->sign == v2->sign ? NUM_POS : NUM_NEG;
    res_weight = v1->weight + v2->weight + 2;
    res_ndigits = v1->ndigits + v2->ndigits + 1;
    maxdigits = res_weight + 1 + (rscale + DEC_DIGITS - 1) / DEC_DIGITS + MUL_GUARD_DIGITS;
    res_ndigits = NUM_MIN(res_ndigits, maxdigits);
    if (res_ndigits < 3) {
        numvar__zero(r);
        r->dscale = rscale;
        return;
    }
    dig = mem_calloc(arena, (size_t)res_ndigits, sizeof(int));
    for (int i1 = NUM_MIN(v1->ndigits - 1, res_ndigits - 3); i1 >= 0; i1--) {
        int d1 = v1->digits[i1];
        int i2limit;
        int *dig_i1_2;
        if (d1 == 0)
            continue;
        maxdig += d1;
        if (maxdig > (INT_MAX - INT_MAX / NBASE) / (NBASE - 1)) {
            numvar_normalize(dig, res_ndigits);
            maxdig = 1 + d1;
        }
        /* digits of v2 that land inside res_ndigits; left to right so it vectorizes */
        i2limit = NUM_MIN(v2->ndigits, res_ndigits - i1 - 2);
        dig_i1_2 = &dig[i1 + 2];
        for (int i2 = 0; i2 < i2limit; i2++)
            dig_i1_2[i2] += d1 * v2->digits[i2];
    }
    numvar_normalize(dig, res_ndigits);
    numvar__alloc(&res, res_ndigits, arena);
    for (int i = 0; i < res_ndigits; i++)
        res.digits[i] = (NumDigit)dig[i];
    res.weight = res_weight;
    res.sign = res_sign;
    numvar__round(&res, rscale);
    numvar__strip(&res);
    *r = res;
}

/* One step of algorithm D: quotient digit j of dividend[j..j+n2] / divisor[0..n2]. */
static int numvar_div_step(NumDigit *dividend_j, const NumDigit *divisor, int n2)
{
    int divisor1 = divisor[1], divisor2 = divisor[2];
    int next2digits = dividend_j[0] * NBASE + dividend_j[1];
    int qhat, borrow = 0;
    if (next2digits == 0)
        return 0;
    qhat = dividend_j[0] == divisor1 ? NBASE - 1 : next2digits / divisor1;
    while (divisor2 * qhat > (next2digits - qhat * divisor1) * NBASE + dividend_j[2])
        qhat--;
    if (qhat <= 0)
        return 0;
    for (int i = n2; i >= 0; i--) {
        int tmp = dividend_j[i] - borrow - divisor[i] * qhat;
        borrow = (NBASE - 1 - tmp) / NBASE;
        dividend_j[i] = (NumDigit)(tmp + borrow * NBASE);
    }
    if (borrow) { /* qhat was one too large: add the divisor back */
        int carry = 0;
        qhat--;
        for (int i = n2; i >= 0; i--) {
            carry += dividend_j[i] + divisor[i];
            if (carry >= NBASE) {
                dividend_j[i] = (NumDigit)(carry - NBASE);
                carry = 1;
            } else {
                dividend_j[i] = (NumDigit)carry;
                carry = 0;
            }
        }
    }
    return qhat;
}

/* Scale divisor and dividend so the divisor's first digit is >= NBASE/2 (Knuth D1). */
static void numvar_div_normalize(NumDigit *dividend, int n1, NumDigit *divisor, int n2)
{
    int d, carry = 0;
    if (divisor[1] >= HALF_NBASE)
        return;
    d = NBASE / (divisor[1] + 1);
    for (int i = n2; i > 0; i--) {
        carry += divisor[i] * d;
        divisor[i] = (NumDigit)(carry % NBASE);
        carry = carry / NBASE;
    }
    carry = 0;
    for (int i = n1; i >= 0; i--) {
        carry += dividend[i] * d;
        dividend[i] = (NumDigit)(carry % NBASE);
        carry = carry / NBASE;
    }
}

void numvar__div(const NumVar *a, const NumVar *b, NumVar *r, int rscale, bool round,
                 MemArena *arena)
{
    int n1 = a->ndigits, n2 = b->ndigits;
    int res_ndigits, res_weight, res_sign, div_ndigits;
    NumDigit *dividend, *divisor;
    NumVar res;
    if (n2 == 0 || b->digits[0] == 0)
        err_raise(ERRCODE_DIVISION_BY_ZERO, "division by zero");
    if (n1 == 0) {
        numvar__zero(r);
        r->dscale = rscale;
        return;
    }
    res_sign = a->sign == b->sign ? NUM_POS : NUM_NEG;
    res_weight = a->weight - b->weight;
    res_ndigits = NUM_MAX(res_weight + 1 + (rscale + DEC_DIGITS - 1) / DEC_DIGITS, 1);
    if (round)
        res_ndigits++;
    /* Algorithm D wants a divisor of two digits or more: a trailing 0 digit is exact. */
    int n2w = NUM_MAX(n2, 2);
    div_ndigits = NUM_MAX(res_ndigits + n2w, n1);
    dividend = mem_calloc(arena, (size_t)(div_ndigits + n2w + 2), sizeof(NumDigit));
    divisor = dividend + (div_ndigits + 1);
    memcpy(dividend + 1, a->digits, sizeof(NumDigit) * (size_t)n1);
    memcpy(divisor + 1, b->digits, sizeof(NumDigit) * (size_t)n2);
    numvar_div_normalize(dividend, n1, divisor, n2w);
    numvar__alloc(&res, res_ndigits, arena);
    for (int j = 0; j < res_ndigits; j++)
        res.digits[j] = (NumDigit)numvar_div_step(&dividend[j], divisor, n2w);
    res.weight = res_weight;
    res.sign = res_sign;
    if (round)
        numvar__round(&res, rscale);
    else
        numvar__trunc(&res, rscale);
    numvar__strip(&res);
    *r = res;
}

void numvar__mod(const NumVar *a, const NumVar *b, NumVar *r, MemArena *arena)
{
    NumVar q, prod;
    /* mod(x, y) = x - trunc(x / y) * y */
    numvar__div(a, b, &q, 0, false, arena);
    numvar__mul(b, &q, &prod, b->dscale, arena);
    numvar__sub(a, &prod, r, arena);
}

int numvar__select_div_scale(const NumVar *a, const NumVar *b)
{
    int weight1 = 0, weight2 = 0, qweight, rscale;
    NumDigit first1 = 0, first2 = 0;
    for (int i = 0; i < a->ndigits; i++) {
        first1 = a->digits[i];
        if (first1 != 0) {
            weight1 = a->weight - i;
            break;
        }
    }
    for (int i = 0; i < b->ndigits; i++) {
        first2 = b->digits[i];
        if (first2 != 0) {
            weight2 = b->weight - i;
            break;
        }
    }
    qweight = weight1 - weight2;
    if (first1 <= first2)
        qweight--;
    rscale = NUMERIC_MIN_SIG_DIGITS - qweight * DEC_DIGITS;
    rscale = NUM_MAX(rscale, a->dscale);
    rscale = NUM_MAX(rscale, b->dscale);
    rscale = NUM_MAX(rscale, 0);
    rscale = NUM_MIN(rscale, NUMERIC_MAX_DISPLAY_SCALE);
    return rscale;
}
