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

void hg_buf_reserve(hg_buf *b, size_t more)
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

void hg_put_mem(hg_buf *b, const char *s, size_t n)
{
    memcpy(b->data + b->len, s, n);
    b->len += n;
}

void hg_put_str(hg_buf *b, const char *s)
{
    hg_put_mem(b, s, strlen(s));
}

static const char digit_pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

void hg_put_i64(hg_buf *b, int64_t v)
{
    if (v >= 0 && v < 10)
    {
        b->data[b->len++] = (char)('0' + v);
        return;
    }
    char tmp[24];
    int n = 24;
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    while (u >= 100)
    {
        unsigned d = (unsigned)(u % 100) * 2;
        u /= 100;
        tmp[--n] = digit_pairs[d + 1];
        tmp[--n] = digit_pairs[d];
    }
    if (u >= 10)
    {
        tmp[--n] = digit_pairs[u * 2 + 1];
        tmp[--n] = digit_pairs[u * 2];
    }
    else
        tmp[--n] = (char)('0' + u);
    if (v < 0)
        tmp[--n] = '-';
    memcpy(b->data + b->len, tmp + n, (size_t)(24 - n));
    b->len += (size_t)(24 - n);
}

void hg_put_text(hg_buf *b, const char *s, size_t n)
{
    char *o = b->data + b->len;
    for (size_t i = 0; i < n; i++)
    {
        char c = s[i];
        /* every byte that needs escaping is below 0x5d ('\\' is 0x5c) */
        if ((unsigned char)c > '\\' || (c != '\\' && c != '\t' && c != '\n' && c != '\r'))
        {
            *o++ = c;
            continue;
        }
        *o++ = '\\';
        *o++ = c == '\\' ? '\\' : c == '\t' ? 't' : c == '\n' ? 'n' : 'r';
    }
    b->len = (size_t)(o - b->data);
}
