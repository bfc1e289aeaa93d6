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

/* a + b where b's sign is given separately (so sub is add with a flipped sign). */
static void numvar_add_signed(const NumVar *a, const NumVar *b, int bsign, NumVar *r,
                              MemArena *arena)
{
    if (a->sign == bsign) {
        numvar_add_abs(a, b, r, arena);
        r->sign = a->sign;
        if (r->ndigits == 0)
            r->sign = NUM_POS;
        return;
    }
    switch (numvar_cmp_abs(a, b)) {
    case 0:
        numvar__zero(r);
        r->dscale = NUM_MAX(a->dscale, b->dscale);
        return;
    case 1:
        numvar_sub_abs(a, b, r, arena);
        r->sign = r->ndigits ? a->sign : NUM_POS;
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
