/*
 * typio.h — text input and output of every supported type, per value and
 * per vector, byte for byte as PostgreSQL 15 prints them.
 *
 * Output rules that clients can see:
 *  - booleans "t"/"f"; integers plain decimal;
 *  - float4/float8: with extra_float_digits > 0 (the default, 1) the
 *    shortest text that reads back to the same value (PostgreSQL 12+),
 *    "Infinity", "-Infinity", "NaN", exponent form as PostgreSQL
 *    ("1e+100", "1.5e-07"); with extra_float_digits <= 0, %.*g with
 *    DBL_DIG/FLT_DIG + extra_float_digits digits;
 *  - numeric: plain notation with the value's dscale ("1.50");
 *  - date/timestamp: ISO; char(n): padded to n.
 * Input rules: leading/trailing whitespace allowed for numbers and booleans
 * (PostgreSQL's), 22P02 "invalid input syntax for type integer: \"x\"",
 * 22003 "value \"x\" is out of range for type integer", etc.
 */
#ifndef STRATA_COMMON_TYPIO_H
#define STRATA_COMMON_TYPIO_H

#include "common/arena.h"
#include "common/strbuf.h"
#include "common/types.h"
#include "common/vector.h"

typedef struct OutputOptions {
    int extra_float_digits; /* PostgreSQL's extra_float_digits, default 1 */
} OutputOptions;

#define OUTPUT_OPTIONS_DEFAULT ((OutputOptions){.extra_float_digits = 1})

/* Parse text as type t (typmod applied: varchar(n) too long → 22001
 * "value too long for type character varying(n)"; char(n) padded).
 * String bytes are copied into arena. */
void type_input(SqlType t, const char *s, size_t len, MemArena *arena, Value *out);
/* Append v's text form (v not NULL). */
void type_output(SqlType t, const Value *v, const OutputOptions *opt, StrBuf *out);

/*
 * Text of every active row of a vector, for DataRow and COPY TO:
 * out[i] for the i-th active row (sel[i] when sel, else i); out[i].ptr ==
 * NULL marks SQL NULL. One type dispatch per call; bytes live in arena
 * (the caller resets it per batch).
 */
void type_output_vector(const Vector *v, const uint16_t *sel, uint32_t count,
                        const OutputOptions *opt, MemArena *arena, StrRef *out);

/*
 * The names behind reg* values (regclass, regtype, regproc, regnamespace).
 * common/ knows no catalog, so the executor installs these once
 * (typio_set_reg_hooks). out: append the name of OID `oid` of reg type
 * `typoid` (schema-qualified when not visible), false when no object has
 * that OID (the number is printed, as PostgreSQL's regclassout). in: the
 * OID a name denotes, raising PostgreSQL's error (42P01, 42704, 42883,
 * 3F000) when it names nothing. Digits and "-" never reach the hooks.
 * Without hooks, reg* values print and read as numbers.
 */
typedef struct TypioRegHooks {
    bool (*out)(uint32_t typoid, uint32_t oid, StrBuf *out);
    uint32_t (*in)(uint32_t typoid, const char *name, size_t len);
} TypioRegHooks;
void typio_set_reg_hooks(const TypioRegHooks *hooks);

/* Scalar formatting helpers shared by casts and output. Return bytes written
 * (no NUL); buf must hold TYPIO_NUMBUF bytes. */
#define TYPIO_NUMBUF 64
size_t typio_format_int64(int64_t v, char *buf);
size_t typio_format_float8(double v, int extra_float_digits, char *buf);
size_t typio_format_float4(float v, int extra_float_digits, char *buf);

/* Scalar parsers (whole string must be consumed, whitespace allowed around).
 * Raise 22P02/22003 with PostgreSQL's messages. */
int16_t typio_parse_int16(const char *s, size_t len);
int32_t typio_parse_int32(const char *s, size_t len);
int64_t typio_parse_int64(const char *s, size_t len);
double typio_parse_float8(const char *s, size_t len);
float typio_parse_float4(const char *s, size_t len);
bool typio_parse_bool(const char *s, size_t len);

/*
 * varchar(n)/char(n) length coercion (typmod = n + 4; other types and
 * typmod -1 pass through). Longer than n characters: trailing spaces are
 * clipped silently; anything else raises 22001 "value too long for type
 * character varying(n)" — unless is_explicit (a CAST), which truncates as
 * PostgreSQL does. char(n) shorter than n is padded with spaces (allocated
 * in arena); otherwise the result points into s.
 */
StrRef typio_char_typmod(SqlType t, const char *s, size_t len, bool is_explicit,
                         MemArena *arena);
/* Number of UTF-8 characters in s (length(), char(n) padding). */
size_t typio_utf8_len(const char *s, size_t len);

/* uuid: input as PostgreSQL's string_to_uuid (32 hex digits, a hyphen
 * allowed after any group of four, optional braces; 22P02 "invalid input
 * syntax for type uuid: \"x\""); 16 bytes in arena. Output: lowercase
 * 8-4-4-4-12 into buf (37 bytes at least), returns 36. */
StrRef uuid_in(const char *s, size_t len, MemArena *arena);
size_t uuid_format(StrRef u, char *buf);

/*
 * Hash every active row of a vector with type_hash_value (types.h): hashes[i]
 * for the i-th active row (sel[i] when sel, else i). NULL hashes to a fixed
 * value. combine=false stores the hash; true mixes it into hashes[i] (for
 * multi-column keys: call once per column). One dispatch per row (slow
 * path for the types without typed kernels: interval, arrays, numeric,
 * bpchar...).
 */
void type_hash_vector(const Vector *v, const uint16_t *sel, uint32_t count, bool combine,
                      uint64_t *hashes);

/* Hashing shared by joins, aggregation and bloom filters. */
uint64_t hash_bytes(const void *data, size_t len, uint64_t seed);
static inline uint64_t hash_u64(uint64_t x)
{
    x ^= x >> 33; x *= UINT64_C(0xff51afd7ed558ccd);
    x ^= x >> 33; x *= UINT64_C(0xc4ceb93fe66aa6b5);
    x ^= x >> 33;
    return x;
}

#endif
