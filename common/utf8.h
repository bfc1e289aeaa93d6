/*
 * utf8.h — UTF-8 validation of text entering the server, with
 * PostgreSQL 15's rules and message (server_encoding UTF8: pg_verify_mbstr,
 * pg_utf8_islegal, report_invalid_encoding).
 *
 * Valid: the shortest form of every code point U+0001..U+10FFFF except
 * the surrogates U+D800..U+DFFF. Invalid: NUL bytes, continuation bytes
 * alone, overlong forms (C0, C1, E0 80..9F, F0 80..8F), surrogates
 * (ED A0..BF), code points past U+10FFFF (F4 90.., F5..FF) and sequences
 * cut short. See common/README.md "UTF-8 validation" for the algorithm
 * and its speed.
 */
#ifndef STRATA_COMMON_UTF8_H
#define STRATA_COMMON_UTF8_H

#include <stdbool.h>
#include <stddef.h>

/* Length of the longest prefix of s[0..len) made of whole valid
 * characters: len when all of it is valid, else the offset of the first
 * character that is invalid or cut short by the end of the input. */
size_t utf8_valid_prefix(const char *s, size_t len);

/* Use the AVX2 window test when on and the CPU has it, else SSE2 (the
 * default is AVX2 where present; tests and the benchmark run both);
 * returns whether AVX2 is in use now. Not for use while other threads
 * validate. */
bool utf8_use_avx2(bool on);

/* True when s[0..len) (len > 0) is the beginning of a valid multibyte
 * character that more input could complete: at utf8_valid_prefix's stop
 * in a buffer that does not end the input, no error yet. */
bool utf8_incomplete(const char *s, size_t len);

/* Raise PostgreSQL's 22021 `invalid byte sequence for encoding "UTF8":
 * 0xe2 0x82 0x27` for the character at s: its lead byte and what its
 * lead promises (PostgreSQL's pg_utf_mblen), at most len bytes. */
_Noreturn void utf8_report_invalid(const char *s, size_t len);

/* Raise 22021 (utf8_report_invalid) unless s[0..len) is valid UTF-8. */
void utf8_verify(const char *s, size_t len);

#endif
