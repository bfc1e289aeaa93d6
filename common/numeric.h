/*
 * numeric.h — arbitrary-precision decimal numbers with PostgreSQL's rules.
 *
 * Values travel as StrRef blobs in the packed format below, so numeric
 * columns use the same vector and storage machinery as text. Arithmetic
 * unpacks into NumericVar (base-10000 digits, as PostgreSQL's numeric.c),
 * computes, and packs the result into the caller's arena.
 *
 * Packed format (little-endian, 2-byte aligned fields):
 *   uint16 sign_dscale  bits 14-15: 0 = positive, 1 = negative, 2 = NaN,
 *                       3 = reserved (+/-Infinity later); bits 0-13: dscale
 *   int16  weight       weight of the first digit (base 10000 exponent)
 *   uint16 digits[n]    base-10000 digits, first non-zero; no trailing zeros
 * Zero has no digits. The packed form of a value is canonical (except
 * dscale, which is kept as PostgreSQL keeps it: 1.50 prints as 1.50), so
 * numeric_cmp and numeric_hash ignore dscale and equal values hash equal.
 *
 * Result scales follow PostgreSQL: add/sub → max(dscale), mul → sum of
 * dscales, div → select_div_scale (at least 16 significant digits, at least
 * the inputs' dscales, at most 1000). Errors: 22012 division by zero,
 * 22003 for out-of-range conversions and typmod overflow, 22P02 bad input.
 */
#ifndef STRATA_COMMON_NUMERIC_H
#define STRATA_COMMON_NUMERIC_H

#include <stdint.h>
#include "common/arena.h"
#include "common/strbuf.h"
#include "common/types.h"

#define NUMERIC_MAX_PRECISION 1000
#define NUMERIC_MAX_DISPLAY_SCALE 1000

/* Text in/out. typmod -1 = unconstrained. Raises 22P02 ("invalid input syntax
 * for type numeric: \"x\"") and 22003 ("numeric field overflow"). */
StrRef numeric_in(const char *s, size_t len, int32_t typmod, MemArena *arena);
void numeric_out(StrRef num, StrBuf *out);
/* numeric_out's text in arena (no NUL counted in *len; NUL added). */
char *numeric_format_arena(StrRef num, MemArena *arena, uint32_t *len);
/* Round and check against numeric(p,s); raises 22003 with PostgreSQL's detail. */
StrRef numeric_apply_typmod(StrRef num, int32_t typmod, MemArena *arena);

/* Conversions. To integers: round half away from zero; raise 22003
 * ("smallint out of range", "integer out of range", "bigint out of range"). */
StrRef numeric_from_int64(int64_t v, MemArena *arena);
StrRef numeric_from_int128(int128_t v, int dscale, MemArena *arena); /* v * 10^-dscale */
StrRef numeric_from_double(double v, MemArena *arena); /* as float8_numeric: 15 significant digits */
StrRef numeric_from_float(float v, MemArena *arena);   /* as float4_numeric: 6 significant digits */
int64_t numeric_to_int64(StrRef num);
int32_t numeric_to_int32(StrRef num);
int16_t numeric_to_int16(StrRef num);
double numeric_to_double(StrRef num);   /* as numeric_float8 */
/* Exact value * 10^scale as int128 when it fits and has no more than scale
 * fractional digits; false otherwise (caller falls back to NumericVar math). */
bool numeric_to_int128_scaled(StrRef num, int scale, int128_t *out);
/* avg of integers: sum / count (count > 0) as PostgreSQL's numeric_div
 * gives it (select_div_scale, last digit rounded), without building the
 * operands: integer arithmetic whenever sum * 10^scale fits 128 bits. */
StrRef numeric_avg_int128(int128_t sum, int64_t count, MemArena *arena);

/* Arithmetic with PostgreSQL's result scales. */
StrRef numeric_add(StrRef a, StrRef b, MemArena *arena);
StrRef numeric_sub(StrRef a, StrRef b, MemArena *arena);
StrRef numeric_mul(StrRef a, StrRef b, MemArena *arena);
StrRef numeric_div(StrRef a, StrRef b, MemArena *arena);
StrRef numeric_mod(StrRef a, StrRef b, MemArena *arena);
StrRef numeric_neg(StrRef a, MemArena *arena);
StrRef numeric_abs(StrRef a, MemArena *arena);
StrRef numeric_round(StrRef a, int scale, MemArena *arena);
/* avg() finisher: sum / count with numeric_div's scale rules (count > 0). */
StrRef numeric_div_int64(StrRef sum, int64_t count, MemArena *arena);

/*
 * Functions with PostgreSQL 15's result scales (numeric_math.c):
 * trunc(x, s) (dscale max(s, 0)), floor/ceil (dscale 0); sqrt, exp, ln,
 * log(base, x) and power choose rscale as PostgreSQL (at least 16
 * significant digits, at least the inputs' dscales; power with an integer
 * exponent: max(16, dscale of the base), so 2^10 = 1024.0000000000000000).
 * Errors: 2201F cannot take square root of a negative number / zero raised
 * to a negative power is undefined / a negative number raised to a
 * non-integer power yields a complex result; 2201E cannot take logarithm of
 * zero / of a negative number; 22003 value overflows numeric format; 22012
 * for log base 1 and 0 ^ negative integer. NaN in → NaN out (1^NaN and
 * NaN^0 are 1).
 */
StrRef numeric_trunc(StrRef num, int scale, MemArena *arena);
StrRef numeric_floor(StrRef num, MemArena *arena);
StrRef numeric_ceil(StrRef num, MemArena *arena);
StrRef numeric_sqrt(StrRef num, MemArena *arena);
StrRef numeric_exp(StrRef num, MemArena *arena);
StrRef numeric_ln(StrRef num, MemArena *arena);
StrRef numeric_log(StrRef base, StrRef num, MemArena *arena);
StrRef numeric_power(StrRef base, StrRef expo, MemArena *arena);
/* div(a, b): the quotient truncated toward zero, dscale 0 (22012 on zero);
 * sign: -1, 0 or 1; gcd/lcm with dscale max of the inputs' (lcm(x, 0) = 0);
 * min_scale: fractional digits needed (1.500 → 1; -1 for NaN, where SQL's
 * min_scale is NULL); trim_scale: the value with that dscale. */
StrRef numeric_div_trunc(StrRef a, StrRef b, MemArena *arena);
StrRef numeric_sign(StrRef num, MemArena *arena);
StrRef numeric_gcd(StrRef a, StrRef b, MemArena *arena);
StrRef numeric_lcm(StrRef a, StrRef b, MemArena *arena);
int numeric_min_scale(StrRef num);
StrRef numeric_trim_scale(StrRef num, MemArena *arena);

int numeric_cmp(StrRef a, StrRef b);       /* -1, 0, 1; NaN sorts above all */
uint64_t numeric_hash(StrRef a);           /* equal values → equal hashes */
bool numeric_is_nan(StrRef a);
int numeric_dscale(StrRef a);

#endif
