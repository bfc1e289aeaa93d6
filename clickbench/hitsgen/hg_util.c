/*
 * hg_util.c: hitsgen's small building blocks: power-law and table samplers,
 * and the output buffer with PostgreSQL COPY text formatting.
 */
#include "clickbench/hitsgen/hg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

hg_zipf hg_zipf_init(uint64_t n, double s)
{
    hg_zipf z;
    z.n = n < 1 ? 1 : n;
    z.a = pow((double)z.n + 1.0, 1.0 - s) - 1.0;
    z.inv = 1.0 / (1.0 - s);
    return z;
}

uint64_t hg_zipf_draw(const hg_zipf *z, hg_rng *r)
{
    double x = pow(z->a * hg_unit(r) + 1.0, z->inv);
    uint64_t k = (uint64_t)x;
    if (k < 1)
        k = 1;
    if (k > z->n)
        k = z->n;
    return k;
}

void hg_table_build(uint32_t *cum, const double *w, int n)
{
    double total = 0, acc = 0;
    for (int i = 0; i < n; i++)
        total += w[i];
    for (int i = 0; i < n; i++)
    {
        acc += w[i];
        double c = acc / total * 4294967296.0;
        cum[i] = c >= 4294967295.0 ? UINT32_MAX : (uint32_t)c;
    }
    cum[n - 1] = UINT32_MAX;
}

void hg_buf_grow(hg_buf *b, size_t more)
{
    if (b->len + more <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : (size_t)1 << 20;
    while (cap < b->len + more)
        cap *= 2;
    char *p = realloc(b->data, cap);
    if (!p)
    {
        fprintf(stderr, "hitsgen: out of memory\n");
        exit(1);
    }
    b->data = p;
    b->cap = cap;
}

const char hg_digit_pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/* Writes exactly 8 digits of x < 10^8 (leading zeros kept). 32-bit
 * arithmetic only: the divisions by constants become multiplications. */
static inline void put8(char *p, uint32_t x)
{
    uint32_t hi = x / 10000, lo = x % 10000;
    memcpy(p, hg_digit_pairs + 2 * (hi / 100), 2);
    memcpy(p + 2, hg_digit_pairs + 2 * (hi % 100), 2);
    memcpy(p + 4, hg_digit_pairs + 2 * (lo / 100), 2);
    memcpy(p + 6, hg_digit_pairs + 2 * (lo % 100), 2);
}

/* Writes x < 10^8 without leading zeros; returns the digit count. */
static inline int put_small(char *p, uint32_t x)
{
    int n = x < 10000 ? (x < 100 ? (x < 10 ? 1 : 2) : (x < 1000 ? 3 : 4))
                      : (x < 1000000 ? (x < 100000 ? 5 : 6) : (x < 10000000 ? 7 : 8));
    char *e = p + n;
    while (x >= 100)
    {
        e -= 2;
        memcpy(e, hg_digit_pairs + 2 * (x % 100), 2);
        x /= 100;
    }
    if (x >= 10)
        memcpy(e - 2, hg_digit_pairs + 2 * x, 2);
    else
        e[-1] = (char)('0' + x);
    return n;
}

/* A 64-bit value is cut into 8-digit pieces (at most 4 + 8 + 8 digits), each
 * formatted with 32-bit arithmetic and written straight to its place: ~70
 * instructions for a 19-digit id instead of ~150 with 64-bit pairs. */
int hg_fmt_u64(char *out, uint64_t v)
{
    if (v < 100000000)
        return put_small(out, (uint32_t)v);
    if (v < 10000000000000000ULL)
    {
        int n = put_small(out, (uint32_t)(v / 100000000));
        put8(out + n, (uint32_t)(v % 100000000));
        return n + 8;
    }
    uint64_t rest = v % 10000000000000000ULL;
    int n = put_small(out, (uint32_t)(v / 10000000000000000ULL));
    put8(out + n, (uint32_t)(rest / 100000000));
    put8(out + n + 8, (uint32_t)(rest % 100000000));
    return n + 16;
}

char *hg__w_i64_slow(char *o, int64_t v)
{
    uint64_t u = (uint64_t)v;
    if (v < 0)
    {
        *o++ = '-';
        u = (uint64_t)0 - u;
    }
    return o + hg_fmt_u64(o, u);
}

/* Is any byte of x one that COPY text escapes (\\ 0x5c, \t 0x09, \n 0x0a,
 * \r 0x0d)? Exact for "any" (the classic has-zero-byte / has-less-than tricks):
 * it flags every byte below 0x0e, and the slow path then sorts them out. */
static inline int word_needs_escape(uint64_t x)
{
    const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    uint64_t bs = x ^ (ones * 0x5c);
    uint64_t has_bs = (bs - ones) & ~bs & highs;
    uint64_t has_low = (x - ones * 0x0e) & ~x & highs;
    return (has_bs | has_low) != 0;
}

static inline char *put_text_byte(char *o, char c)
{
    if (c != '\\' && c != '\t' && c != '\n' && c != '\r')
    {
        *o++ = c;
        return o;
    }
    *o++ = '\\';
    *o++ = c == '\\' ? '\\' : c == '\t' ? 't' : c == '\n' ? 'n' : 'r';
    return o;
}

/* Eight bytes at a time: generated text almost never needs escaping, so a
 * word is checked with a few ALU operations and copied whole (~0.5
 * instructions per byte instead of ~7 for the byte loop it replaced). The
 * last partial word is done as one overlapping word when nothing before it
 * was escaped. No 8-byte store passes the end of the escaped output. */
char *hg_w_text(char *o, const char *s, size_t n)
{
    char *o0 = o;
    size_t i = 0;
    for (; i + 8 <= n; i += 8)
    {
        uint64_t w;
        memcpy(&w, s + i, 8);
        if (!word_needs_escape(w))
        {
            memcpy(o, &w, 8);
            o += 8;
            continue;
        }
        for (size_t k = 0; k < 8; k++)
            o = put_text_byte(o, s[i + k]);
    }
    if (i < n && n >= 8 && o == o0 + i)
    {
        uint64_t w;
        memcpy(&w, s + n - 8, 8);
        if (!word_needs_escape(w))
        {
            memcpy(o0 + n - 8, &w, 8);
            return o0 + n;
        }
    }
    for (; i < n; i++)
        o = put_text_byte(o, s[i]);
    return o;
}
