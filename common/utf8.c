/*
 * utf8.c — UTF-8 validation with PostgreSQL 15's rules (common/utf8.h):
 * every Query/Parse string, Bind parameter and COPY FROM byte goes through
 * utf8_valid_prefix, so it has to run near memory speed on the ASCII that
 * dominates real data (ClickBench's 6.7 GB TSV) without giving up a byte
 * of exactness on the rest.
 *
 * Two parts:
 *
 *  1. A window test over 64 bytes at a time (window_ok_*): true when the
 *     window holds only plain ASCII (0x01..0x7f: greater than zero as a
 *     signed char, so NUL fails too) and 2-byte characters, from three
 *     byte masks and a carry across windows — no branch between ASCII and
 *     Cyrillic/Greek/accented text. Two versions: SSE2 (the x86-64
 *     baseline) and AVX2, picked once before main by the CPU. It is not
 *     target_clones (as executor/filter_kernels.c): the test needs
 *     movemask, an intrinsic, and a clone can't use intrinsics its
 *     default target lacks; `target("avx2")` on a second copy of the loop
 *     (UTF8_PREFIX_DEFINE) and one function pointer do the same job.
 *
 *  2. A byte-exact DFA for what the window test declines (3- and 4-byte
 *     characters, errors): a "shift DFA" whose state is a bit offset, so
 *     a step is one load and one shift. Nine states: ERR (0, also the
 *     zero of every table row, so an unlisted transition is an error),
 *     ACC (between characters), T1/T2/T3 (that many continuation bytes
 *     80..BF still wanted), and the four leads whose second byte is
 *     narrower: E0 (A0..BF, no overlongs), ED (80..9F, no surrogates), F0
 *     (90..BF, no overlongs), F4 (80..8F, nothing past U+10FFFF). C0, C1
 *     and F5..FF lead nowhere. A declined window is walked 16 bytes at a
 *     time (mixed_run): with few non-plain bytes, movemask finds them and
 *     only their characters go through the DFA; with many, all 16 bytes
 *     run through it without a branch. An error found there is placed
 *     exactly by slow_scan, from the window's start.
 *
 * Measured (common/README.md): a byte-at-a-time DFA over every window
 * holding a non-ASCII byte ran ClickBench's TSV at 2.8 GB/s; an
 * all-ASCII test before a 2-byte test mispredicted on every window with
 * Cyrillic; a variable step (63 or 64, for a window ending in a lead)
 * made each window wait for the previous verdict. The carry fixes both:
 * 16.7 GB/s with AVX2, as fast as memchr.
 *
 * Where validation stops is the start of the offending character, and the
 * report prints what PostgreSQL's report_invalid_encoding prints: as many
 * bytes as the lead byte promises by pg_utf_mblen (1 for 80..BF and
 * F8..FF), no more than are left. Figures: common/README.md.
 */
#include "common/utf8.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#if defined(__x86_64__) && defined(__GNUC__) && defined(__SSE2__)
#include <immintrin.h>
#endif
#include "common/error.h"

/* x86-64 with GCC or clang: SSE2 always, AVX2 chosen at load time. */
#if defined(__x86_64__) && defined(__GNUC__) && defined(__SSE2__)
#define UTF8_X86 1
#else
#define UTF8_X86 0
#endif

enum {
    S_ERR = 0, S_ACC = 6, S_T1 = 12, S_T2 = 18, S_T3 = 24,
    S_E0 = 30, S_ED = 36, S_F0 = 42, S_F4 = 48,
};

#define TR(from, to) ((uint64_t)(to) << (from))

/* The DFA row of byte b: bits [s, s + 6) hold the next state from s. */
static uint64_t dfa_row(unsigned b)
{
    if (b >= 0x01 && b <= 0x7f)
        return TR(S_ACC, S_ACC);
    if (b >= 0x80 && b <= 0xbf) {
        uint64_t r = TR(S_T1, S_ACC) | TR(S_T2, S_T1) | TR(S_T3, S_T2);
        if (b >= 0xa0)
            r |= TR(S_E0, S_T1);
        else
            r |= TR(S_ED, S_T1);
        if (b >= 0x90)
            r |= TR(S_F0, S_T2);
        else
            r |= TR(S_F4, S_T2);
        return r;
    }
    if (b >= 0xc2 && b <= 0xdf)
        return TR(S_ACC, S_T1);
    if (b == 0xe0)
        return TR(S_ACC, S_E0);
    if (b == 0xed)
        return TR(S_ACC, S_ED);
    if (b >= 0xe1 && b <= 0xef)
        return TR(S_ACC, S_T2);
    if (b == 0xf0)
        return TR(S_ACC, S_F0);
    if (b == 0xf4)
        return TR(S_ACC, S_F4);
    if (b >= 0xf1 && b <= 0xf3)
        return TR(S_ACC, S_T3);
    return 0;   /* 00, C0, C1, F5..FF: an error from every state */
}

static uint64_t dfa[256];

static size_t (*prefix_impl)(const char *, size_t);   /* utf8_valid_prefix's body */
static size_t prefix_sse2(const char *s, size_t len);
#if UTF8_X86
static size_t prefix_avx2(const char *s, size_t len);
#endif

/* Before main (and before any thread): the table, and the window test
 * the CPU can run, are read-only after. */
__attribute__((constructor)) static void dfa_init(void)
{
    for (unsigned b = 0; b < 256; b++)
        dfa[b] = dfa_row(b);
#if UTF8_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2"))
        prefix_impl = prefix_avx2;
#endif
}

/* The character at s[i] (a byte other than 0x01..0x7f, len the end of
 * the input) through the DFA: its length, 0 when it is invalid or cut
 * short by the end. */
static inline size_t char_len(const unsigned char *s, size_t i, size_t len)
{
    unsigned st = (unsigned)(dfa[s[i]] >> S_ACC) & 63;
    size_t n = 1;
    for (;;) {
        if (st == S_ACC)
            return n;
        if (st == S_ERR || i + n >= len)
            return 0;
        st = (unsigned)(dfa[s[i + n]] >> st) & 63;
        n++;
    }
}

/* Bit k set when p[k] is not 0x01..0x7f, for the 16 bytes at p. */
static inline unsigned nonplain16(const char *p)
{
#if UTF8_X86
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    return (unsigned)_mm_movemask_epi8(_mm_cmpgt_epi8(v, _mm_setzero_si128())) ^ 0xffffu;
#else
    unsigned m = 0;
    for (int k = 0; k < 16; k++)
        m |= (unsigned)((signed char)p[k] <= 0) << k;
    return m;
#endif
}

/*
 * The window test (the file's part 1): true when the 64 bytes at p are
 * plain ASCII and 2-byte characters only. From three masks — non-plain
 * (signed <= 0), continuation (80..BF = -128..-65) and 2-byte lead (C2..DF
 * = -62..-33) — the window is valid exactly when every non-plain byte is
 * one of the two and the continuations are the leads shifted by one, plus
 * *carry: 1 when the previous window ended with a lead whose continuation
 * is p[0] (set here for the next window). Half the windows of dense 2-byte
 * text end in a lead; the carry keeps the step a constant 64, so the next
 * window's loads never wait for this one's verdict. One test, no branch
 * between ASCII and such text: a separate all-ASCII test first
 * mispredicted on every window of ClickBench's TSV holding Cyrillic (19 %
 * of them).
 */
static inline bool window_verdict(uint64_t nonplain, uint64_t cont, uint64_t lead, uint64_t *carry)
{
    bool ok = ((nonplain & ~(cont | lead)) | (cont ^ ((lead << 1) | *carry))) == 0;
    *carry = ok ? lead >> 63 : *carry;
    return ok;
}

#if UTF8_X86
static inline bool window_ok_sse2(const char *p, uint64_t *carry)
{
    uint64_t np = 0, ct = 0, ld = 0;
    for (int k = 0; k < 4; k++) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * k));
        __m128i lead = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8(-63)), _mm_cmplt_epi8(v, _mm_set1_epi8(-32)));
        np |= (uint64_t)((unsigned)_mm_movemask_epi8(_mm_cmpgt_epi8(v, _mm_setzero_si128())) ^ 0xffffu) << (16 * k);
        ct |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmplt_epi8(v, _mm_set1_epi8(-64))) << (16 * k);
        ld |= (uint64_t)(unsigned)_mm_movemask_epi8(lead) << (16 * k);
    }
    return window_verdict(np, ct, ld, carry);
}

__attribute__((target("avx2"))) static inline bool window_ok_avx2(const char *p, uint64_t *carry)
{
    uint64_t np = 0, ct = 0, ld = 0;
    for (int k = 0; k < 2; k++) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(p + 32 * k));
        __m256i lead = _mm256_and_si256(_mm256_cmpgt_epi8(v, _mm256_set1_epi8(-63)),
                                        _mm256_cmpgt_epi8(_mm256_set1_epi8(-32), v));
        np |= (uint64_t)~(uint32_t)_mm256_movemask_epi8(_mm256_cmpgt_epi8(v, _mm256_setzero_si256())) << (32 * k);
        ct |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpgt_epi8(_mm256_set1_epi8(-64), v)) << (32 * k);
        ld |= (uint64_t)(uint32_t)_mm256_movemask_epi8(lead) << (32 * k);
    }
    return window_verdict(np, ct, ld, carry);
}
#endif

/* From the character boundary i: the offset of the first invalid
 * character (len when none), one character at a time. Finds the exact
 * place once mixed_run knows there is an error. */
static size_t slow_scan(const unsigned char *u, size_t i, size_t len)
{
    while (i < len) {
        if (u[i] - 1u < 0x7fu) {
            i++;
            continue;
        }
        size_t n = char_len(u, i, len);
        if (n == 0)
            return i;
        i += n;
    }
    return len;
}

/* At most MIXED_SPARSE_BITS non-plain bytes in a 16-byte step: each
 * character is found by mask and checked alone; more: the 16 bytes go
 * through the DFA without a branch (on dense text of mixed lengths a
 * per-character branch mispredicts: bench_utf8's "all multibyte" ran
 * about 3x slower that way). */
#define MIXED_SPARSE_BITS 4

static inline bool few_bits(unsigned mask)
{
    for (int k = 0; k < MIXED_SPARSE_BITS; k++)
        mask &= mask - 1;
    return mask == 0;
}

/* Validate from the character boundary i to at least stop, 16 bytes a
 * step (see the file's comment). Returns the offset reached, a character
 * boundary; on an invalid or cut-short character sets *bad to it. */
static inline size_t mixed_run(const unsigned char *u, size_t i, size_t stop, size_t len, size_t *bad)
{
    size_t from = i;
    unsigned st = S_ACC;
    while (i < stop && i + 16 <= len) {
        unsigned mask = nonplain16((const char *)u + i);
        if (st == S_ACC && few_bits(mask)) {
            size_t next = i + 16;
            while (mask) {
                size_t at = i + (size_t)__builtin_ctz(mask);
                size_t n = char_len(u, at, len);
                if (n == 0) {
                    *bad = at;
                    return at;
                }
                if (at + n >= i + 16) {
                    next = at + n;   /* a character straddling the step */
                    break;
                }
                mask &= ~0u << (at + n - i);
            }
            i = next;
            continue;
        }
        /* ERR stays ERR. The shift count's "& 63" is the shift
         * instruction's own masking on x86, so the loop's dependency chain
         * is one shift per byte; the state's high bits are junk until the
         * mask after the loop. */
        uint64_t chain = st;
        for (int k = 0; k < 16; k++)
            chain = dfa[u[i + (size_t)k]] >> (chain & 63);
        st = (unsigned)chain & 63;
        i += 16;
        if (st == S_ERR)
            break;
    }
    while (st != S_ACC && st != S_ERR && i < len)   /* end the character in progress */
        st = (unsigned)(dfa[u[i++]] >> st) & 63;
    if (st != S_ACC) {
        *bad = slow_scan(u, from, len);
        return *bad;
    }
    return i;
}

/* utf8_valid_prefix for one window test (an instruction set): windows
 * of 64 bytes while they pass, mixed_run over one that does not. */
#define UTF8_PREFIX_DEFINE(name, attr, window_ok)                         \
    attr static size_t name(const char *s, size_t len)                    \
    {                                                                     \
        const unsigned char *u = (const unsigned char *)s;                \
        size_t i = 0, bad = SIZE_MAX;                                     \
        for (;;) {                                                        \
            uint64_t carry = 0;                                           \
            while (i + 64 <= len && window_ok(s + i, &carry))             \
                i += 64;                                                  \
            i -= carry; /* back to the lead of a straddling character */  \
            i = mixed_run(u, i, i + 64, len, &bad);                       \
            if (bad != SIZE_MAX)                                          \
                return bad;                                               \
            if (i + 16 > len)                                             \
                break;                                                    \
        }                                                                 \
        return slow_scan(u, i, len); /* the last 0..15 bytes */          \
    }

#if UTF8_X86
UTF8_PREFIX_DEFINE(prefix_sse2, , window_ok_sse2)
UTF8_PREFIX_DEFINE(prefix_avx2, __attribute__((target("avx2"))), window_ok_avx2)
#else
static inline bool window_ok_none(const char *p, uint64_t *carry)
{
    (void)p;
    (void)carry;
    return false;
}
UTF8_PREFIX_DEFINE(prefix_sse2, , window_ok_none)
#endif

/* Chosen once, before main, by the CPU (as target_clones' ifunc would:
 * target_clones cannot carry intrinsics, and movemask has no portable
 * vector-extension form). */
static size_t (*prefix_impl)(const char *, size_t) = prefix_sse2;

bool utf8_use_avx2(bool on)
{
#if UTF8_X86
    prefix_impl = on && __builtin_cpu_supports("avx2") ? prefix_avx2 : prefix_sse2;
#else
    (void)on;
#endif
    return prefix_impl != prefix_sse2;
}

size_t utf8_valid_prefix(const char *s, size_t len)
{
    return prefix_impl(s, len);
}

bool utf8_incomplete(const char *s, size_t len)
{
    const unsigned char *u = (const unsigned char *)s;
    if (len == 0 || len >= 4)
        return false;
    unsigned st = (unsigned)(dfa[u[0]] >> S_ACC) & 63;
    for (size_t k = 1; k < len && st != S_ERR && st != S_ACC; k++)
        st = (unsigned)(dfa[u[k]] >> st) & 63;
    return st != S_ERR && st != S_ACC;
}

void utf8_report_invalid(const char *s, size_t len)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t l = 1;   /* PostgreSQL's pg_utf_mblen */
    if (len > 0) {
        if ((u[0] & 0xe0) == 0xc0)
            l = 2;
        else if ((u[0] & 0xf0) == 0xe0)
            l = 3;
        else if ((u[0] & 0xf8) == 0xf0)
            l = 4;
    }
    if (l > len)
        l = len;
    char buf[4 * 5 + 1] = "";
    size_t n = 0;
    for (size_t j = 0; j < l; j++)
        n += (size_t)snprintf(buf + n, sizeof buf - n, j + 1 < l ? "0x%02x " : "0x%02x", u[j]);
    err_raise(ERRCODE_CHARACTER_NOT_IN_REPERTOIRE, "invalid byte sequence for encoding \"UTF8\": %s", buf);
}

void utf8_verify(const char *s, size_t len)
{
    size_t ok = utf8_valid_prefix(s, len);
    if (ok != len)
        utf8_report_invalid(s + ok, len - ok);
}
