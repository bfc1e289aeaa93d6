/*
 * numeric_int.h — common/-internal: NumVar, the unpacked form of numeric,
 * and the arithmetic core shared by numeric.c and numeric_var.c.
 *
 * Only numeric.c and numeric_var.c include this file.
 */
#ifndef STRATA_COMMON_NUMERIC_INT_H
#define STRATA_COMMON_NUMERIC_INT_H

#ifndef STRATA_NUMERIC_INTERNAL
#error "numeric_int.h is internal to common/numeric*.c"
#endif

#include "common/arena.h"
#include "common/types.h"

#define NBASE 10000
#define HALF_NBASE 5000
#define DEC_DIGITS 4
#define NUMERIC_MIN_SIG_DIGITS 16
#define NUMERIC_MAX_RESULT_SCALE (NUMERIC_MAX_PRECISION * 2)
#define NUMERIC_DSCALE_MAX 0x3FFF

#define NUM_POS 0
#define NUM_NEG 1
#define NUM_NAN 2

typedef int16_t NumDigit;

/*
 * As PostgreSQL's NumericVar: value = sign * sum(digits[i] * NBASE^(weight - i)).
 * digits points into buf with at least one spare digit before it (rounding
 * may carry into it). All memory comes from the arena of the operation.
 */
typedef struct NumVar {
    int ndigits;
    int weight;
    int sign;    /* NUM_POS, NUM_NEG, NUM_NAN */
    int dscale;  /* display scale: decimal digits after the point */
    NumDigit *buf;
    NumDigit *digits;
} NumVar;

void numvar__alloc(NumVar *v, int ndigits, MemArena *arena);
void numvar__zero(NumVar *v);
void numvar__strip(NumVar *v);
void numvar__round(NumVar *v, int rscale);
void numvar__trunc(NumVar *v, int rscale);
int numvar__cmp(const NumVar *a, const NumVar *b);        /* NaN-free */
void numvar__add(const NumVar *a, const NumVar *b, NumVar *r, MemArena *arena);
void numvar__sub(const NumVar *a, const NumVar *b, NumVar *r, MemArena *arena);
void numvar__mul(const NumVar *a, const NumVar *b, NumVar *r, int rscale, MemArena *arena);
/* Raises 22012 on a zero divisor. round=false truncates. */
void numvar__div(const NumVar *a, const NumVar *b, NumVar *r, int rscale, bool round,
                 MemArena *arena);
void numvar__mod(const NumVar *a, const NumVar *b, NumVar *r, MemArena *arena);
int numvar__select_div_scale(const NumVar *a, const NumVar *b);
/* Packed form <-> NumVar (numeric.c): unpack into arena; pack = make_result
 * (strip, range check "value overflows numeric format", write into arena). */
void numvar__unpack(StrRef n, NumVar *v, MemArena *arena);
StrRef numvar__pack(NumVar *v, MemArena *arena);

#endif
