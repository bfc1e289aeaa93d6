/*
 * test_common_utf8.c — common/utf8.c against a reference decoder written
 * the slow, obvious way (decode the code point, then check it: shortest
 * form, not a surrogate, at most U+10FFFF, not NUL), over every class of
 * invalid sequence at every offset around the 64-byte blocks of the fast
 * path and over random inputs; the 22021 messages are PostgreSQL 15's.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "common/error.h"
#include "common/utf8.h"

/* Length of the valid character at s (len bytes left), 0 when invalid. */
static size_t ref_char(const unsigned char *s, size_t len)
{
    unsigned c = s[0];
    size_t n;
    uint32_t cp;
    if (c == 0)
        return 0;
    if (c < 0x80)
        return 1;
    if ((c & 0xe0) == 0xc0) {
        n = 2;
        cp = c & 0x1f;
    } else if ((c & 0xf0) == 0xe0) {
        n = 3;
        cp = c & 0x0f;
    } else if ((c & 0xf8) == 0xf0) {
        n = 4;
        cp = c & 0x07;
    } else {
        return 0;
    }
    if (n > len)
        return 0;
    for (size_t k = 1; k < n; k++) {
        if ((s[k] & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[k] & 0x3f);
    }
    static const uint32_t min_cp[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min_cp[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return n;
}

static size_t ref_prefix(const unsigned char *s, size_t len)
{
    size_t i = 0;
    while (i < len) {
        size_t n = ref_char(s + i, len - i);
        if (n == 0)
            return i;
        i += n;
    }
    return len;
}

/* True when s[0..n) can be completed into a valid character: the
 * second byte is the only one with a lead-dependent range, so trying its
 * 64 values (other missing bytes 0x80) covers every completion. */
static bool ref_incomplete(const unsigned char *s, size_t n)
{
    for (unsigned b = 0x80; b <= 0xbf; b++) {
        unsigned char full[4] = {0x80, 0x80, 0x80, 0x80};
        memcpy(full, s, n);
        if (n == 1)
            full[1] = (unsigned char)b;
        size_t got = ref_char(full, 4);
        if (got > n)
            return true;
    }
    return false;
}

/* The message utf8_verify raises for s, or "" when it accepts s. */
static const char *verify_message(const char *s, size_t len)
{
    static char msg[1100];
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        utf8_verify(s, len);
        err_pop(&jmp);
        return "";
    }
    const ErrorData *e = err_current();
    cr_assert_str_eq(e->sqlstate, "22021");
    snprintf(msg, sizeof msg, "%s", e->message);
    err_clear();
    return msg;
}

#define BAD(bytes) "invalid byte sequence for encoding \"UTF8\": " bytes

static const struct {
    const char *seq, *msg;   /* msg "" = valid */
} classes[] = {
    {"\x7f", ""},
    {"\xc2\x80", ""},
    {"\xdf\xbf", ""},
    {"\xe0\xa0\x80", ""},
    {"\xed\x9f\xbf", ""},
    {"\xee\x80\x80", ""},
    {"\xef\xbf\xbf", ""},
    {"\xf0\x90\x80\x80", ""},
    {"\xf4\x8f\xbf\xbf", ""},
    {"\x80", BAD("0x80")},                        /* continuation bytes alone */
    {"\xbf\x80", BAD("0xbf")},
    {"\xc0\x80", BAD("0xc0 0x80")},               /* overlongs */
    {"\xc1\xbf", BAD("0xc1 0xbf")},
    {"\xe0\x9f\xbf", BAD("0xe0 0x9f 0xbf")},
    {"\xf0\x8f\xbf\xbf", BAD("0xf0 0x8f 0xbf 0xbf")},
    {"\xed\xa0\x80", BAD("0xed 0xa0 0x80")},      /* surrogates */
    {"\xed\xbf\xbf", BAD("0xed 0xbf 0xbf")},
    {"\xf4\x90\x80\x80", BAD("0xf4 0x90 0x80 0x80")},  /* past U+10FFFF */
    {"\xf5\x80\x80\x80", BAD("0xf5 0x80 0x80 0x80")},
    {"\xf8\x88\x80\x80\x80", BAD("0xf8")},
    {"\xfe", BAD("0xfe")},
    {"\xff", BAD("0xff")},
    {"\xc3", BAD("0xc3")},                        /* cut short by the end */
    {"\xe2\x82", BAD("0xe2 0x82")},
    {"\xf0\x9d\x84", BAD("0xf0 0x9d 0x84")},
    {"\xe2\x82'", BAD("0xe2 0x82 0x27")},         /* cut short by ASCII */
    {"\xc3\xc3\xa9", BAD("0xc3 0xc3")},
};

/* Each class after `pad` ASCII bytes (across the 64-byte blocks) and
 * before a tail: the message and utf8_valid_prefix's offset. */
static void classes_at_every_offset(void)
{
    char buf[256];
    for (size_t k = 0; k < sizeof classes / sizeof classes[0]; k++) {
        size_t n = strlen(classes[k].seq);
        bool valid = classes[k].msg[0] == '\0';
        for (size_t pad = 0; pad < 140; pad++) {
            memset(buf, 'a', pad);
            memcpy(buf + pad, classes[k].seq, n);
            cr_assert_str_eq(verify_message(buf, pad + n), classes[k].msg, "class %zu pad %zu", k, pad);
            cr_assert_eq(utf8_valid_prefix(buf, pad + n), valid ? pad + n : pad, "class %zu pad %zu", k, pad);
            memset(buf + pad + n, 'b', 70);
            size_t total = pad + n + 70;
            cr_assert_eq(utf8_valid_prefix(buf, total), ref_prefix((unsigned char *)buf, total));
            /* after 2-byte text, which the window test accepts */
            for (size_t j = 0; j + 1 < pad; j += 2)
                memcpy(buf + j, "\xd0\xb6", 2);
            cr_assert_eq(utf8_valid_prefix(buf, total), ref_prefix((unsigned char *)buf, total),
                         "class %zu pad %zu after 2-byte text", k, pad);
        }
    }
}

/* Both window tests (SSE2 and, where the CPU has it, AVX2) give the same
 * answers: each test runs under each. */
#define BOTH_ISAS(name)                         \
    Test(utf8, name##_sse2)                     \
    {                                           \
        utf8_use_avx2(false);                   \
        name();                                 \
    }                                           \
    Test(utf8, name##_avx2)                     \
    {                                           \
        utf8_use_avx2(true);                    \
        name();                                 \
    }

BOTH_ISAS(classes_at_every_offset)

Test(utf8, nul_bytes)
{
    cr_assert_str_eq(verify_message("ab\0cd", 5), BAD("0x00"));
    char buf[200];
    memset(buf, 'x', sizeof buf);
    for (size_t at = 0; at < sizeof buf; at++) {
        buf[at] = '\0';
        cr_assert_eq(utf8_valid_prefix(buf, sizeof buf), at);
        buf[at] = 'x';
    }
    cr_assert_eq(utf8_valid_prefix(buf, sizeof buf), sizeof buf);
    cr_assert_eq(utf8_valid_prefix(buf, 0), 0);
}

Test(utf8, incomplete)
{
    cr_assert(utf8_incomplete("\xe2", 1));
    cr_assert(utf8_incomplete("\xe2\x82", 2));
    cr_assert(utf8_incomplete("\xf0\x9d\x84", 3));
    cr_assert(!utf8_incomplete("\xe2\x28", 2));
    cr_assert(!utf8_incomplete("\xed\xa0", 2));       /* a surrogate can't be completed */
    cr_assert(!utf8_incomplete("\xf4\x90", 2));
    cr_assert(!utf8_incomplete("\xff", 1));
    cr_assert(!utf8_incomplete("\x80", 1));
    cr_assert(!utf8_incomplete("\0", 1));
}

/* A tiny deterministic generator (xorshift64*). */
static uint64_t rng = 0x9e3779b97f4a7c15ULL;
static uint32_t next_rand(void)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return (uint32_t)((rng * 0x2545f4914f6cdd1dULL) >> 32);
}

/* Random inputs in three mixes: any byte; mostly ASCII with rare
 * interesting bytes (the fast path's blocks); valid characters of every
 * length, or ASCII and 2-byte characters only (the window test's shape),
 * with a rare corrupted byte. */
static void random_against_reference(void)
{
    static const unsigned char edge[] = {0x00, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1,
                                         0xc2, 0xdf, 0xe0, 0xe1, 0xec, 0xed, 0xee, 0xef, 0xf0, 0xf1,
                                         0xf3, 0xf4, 0xf5, 0xf7, 0xf8, 0xfe, 0xff};
    static const char *valid[] = {"a", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9d\x84\x9e", "\xed\x9f\xbf",
                                  "\xf4\x8f\xbf\xbf", "\xe0\xa0\x80", "\xf0\x90\x80\x80"};
    static const char *two[] = {"a", " ", "\xd0\x9f", "\xd1\x80", "\xc3\xa9", "\xdf\xbf", "\xc2\x80"};
    unsigned char buf[600];
    size_t invalid_seen = 0;
    for (int iter = 0; iter < 200000; iter++) {
        size_t len = next_rand() % sizeof buf;
        int mix = iter % 4;
        size_t i = 0;
        while (i < len) {
            uint32_t r = next_rand();
            if (mix == 0) {
                buf[i++] = (unsigned char)r;
            } else if (mix == 1) {
                buf[i++] = r % 500 == 0 ? edge[(r >> 9) % sizeof edge] : (unsigned char)(0x20 + r % 90);
            } else {
                const char *v = mix == 2 ? valid[r % 8] : two[r % 7];
                size_t n = strlen(v);
                if (i + n > len)
                    n = len - i;
                memcpy(buf + i, v, n);
                if ((r >> 8) % 400 == 0)
                    buf[i] = edge[(r >> 16) % sizeof edge];
                i += n;
            }
        }
        size_t want = ref_prefix(buf, len);
        size_t got = utf8_valid_prefix((const char *)buf, len);
        cr_assert_eq(got, want, "iter %d mix %d len %zu: got %zu want %zu", iter, mix, len, got, want);
        invalid_seen += want != len;
        if (want != len && len - want < 4)
            cr_assert_eq(utf8_incomplete((const char *)buf + want, len - want),
                         ref_incomplete(buf + want, len - want), "iter %d", iter);
    }
    cr_assert(invalid_seen > 50000 && invalid_seen < 190000, "mixes too uniform: %zu", invalid_seen);
}

BOTH_ISAS(random_against_reference)
