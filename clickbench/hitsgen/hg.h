/*
 * hg.h: shared declarations of hitsgen, the generator of ClickBench-shaped
 * `hits` data (clickbench/README.md documents every modelled distribution).
 *
 * Everything here is deterministic: a chunk of rows is a pure function of
 * (seed, total row count, chunk index), so any number of threads produces the
 * same bytes. The random source is splitmix64 (one 64-bit state, one add and
 * a 3-step mix per draw): small, fast, and trivially seedable per chunk.
 */
#ifndef HG_H
#define HG_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Rows per chunk. Part of the output's definition: changing it changes the
 * generated data for a given seed. */
#define HG_CHUNK_ROWS 16384

/* The largest number of bytes one row can take in the TSV (checked). */
#define HG_MAX_ROW_BYTES 12288

/* ---- random numbers ---------------------------------------------------- */

typedef struct hg_rng
{
    uint64_t s;
} hg_rng;

/* hg_mix64: a bijective 64-bit finaliser (splitmix64's); used as a hash. */
static inline uint64_t hg_mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* hg_next: the next 64 random bits of the stream. */
static inline uint64_t hg_next(hg_rng *r)
{
    r->s += 0x9e3779b97f4a7c15ULL;
    return hg_mix64(r->s);
}

/* hg_seeded: a stream seeded from a key (any 64-bit value). */
static inline hg_rng hg_seeded(uint64_t key)
{
    hg_rng r = {hg_mix64(key ^ 0x5851f42d4c957f2dULL)};
    return r;
}

/* hg_below: uniform integer in [0, n), n < 2^32. */
static inline uint32_t hg_below(hg_rng *r, uint32_t n)
{
    return (uint32_t)(((hg_next(r) >> 32) * (uint64_t)n) >> 32);
}

/* hg_unit: uniform double in [0, 1). */
static inline double hg_unit(hg_rng *r)
{
    return (double)(hg_next(r) >> 11) * 0x1p-53;
}

/* hg_chance: true with probability p. Same answer as hg_unit(r) < p (k * 2^-53
 * and p * 2^53 are exact scalings), one multiplication fewer: p * 2^53 folds
 * at compile time. */
static inline int hg_chance(hg_rng *r, double p)
{
    return (double)(hg_next(r) >> 11) < p * 0x1p53;
}

/* ---- heavy-tailed ranks ------------------------------------------------ */

/* A continuous power law over ranks 1..n with exponent s (0 < s < 1):
 * P(rank <= k) = (k^(1-s) - 1) / (n^(1-s) - 1); rank 1 is the most frequent.
 * Sampled by inversion (one pow() per draw). */
typedef struct hg_zipf
{
    double a;   /* n^(1-s) - 1 */
    double inv; /* 1 / (1-s) */
    uint64_t n;
} hg_zipf;

/* hg_zipf_init: a power law over 1..n (n >= 1) with exponent s in (0, 1). */
hg_zipf hg_zipf_init(uint64_t n, double s);

/* hg_zipf_draw: one rank in 1..z->n. */
uint64_t hg_zipf_draw(const hg_zipf *z, hg_rng *r);

/* A discrete distribution over a table, sampled by binary search over
 * cumulative 32-bit thresholds. */
typedef struct hg_table
{
    int n;
    const uint32_t *cum; /* cum[i] = P(index <= i) * 2^32, last = UINT32_MAX */
} hg_table;

/* hg_table_pick: an index in [0, t->n). */
static inline int hg_table_pick(const hg_table *t, hg_rng *r)
{
    uint32_t u = (uint32_t)(hg_next(r) >> 32);
    if (u < t->cum[0]) /* the most frequent entry comes first in most tables */
        return 0;
    int lo = 0, hi = t->n - 1; /* the answer: the first i with u < cum[i] */
    while (lo < hi)
    {
        int mid = (lo + hi) / 2;
        if (u < t->cum[mid])
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* hg_table_build: fills cum[0..n) from weights (any positive scale). */
void hg_table_build(uint32_t *cum, const double *w, int n);

/* ---- output buffer ----------------------------------------------------- */

typedef struct hg_buf
{
    char *data;
    size_t len;
    size_t cap;
} hg_buf;

/* hg_buf_reserve: makes room for `more` bytes (aborts on out of memory);
 * hg_buf_grow is its out-of-line part. */
void hg_buf_grow(hg_buf *b, size_t more);
static inline void hg_buf_reserve(hg_buf *b, size_t more)
{
    if (b->len + more > b->cap)
        hg_buf_grow(b, more);
}

/* Writers: each appends at cursor o and returns the new cursor; the caller
 * reserved room (HG_MAX_ROW_BYTES per row). A row is written through a local
 * cursor rather than through hg_buf: stores through a char pointer may alias
 * any object, so `b->data[b->len++] = c` reloaded b->data and b->len around
 * every byte (callgrind, see clickbench/README.md "Speed"). */

/* "00" "01" ... "99": two decimal digits per entry. */
extern const char hg_digit_pairs[201];

/* hg_fmt_u64: writes v's decimal digits at out (at most 20 bytes, no NUL);
 * returns their count. */
int hg_fmt_u64(char *out, uint64_t v);

/* hg_w_i64: v in decimal. Values 0..99 (most columns) take the inline path. */
char *hg__w_i64_slow(char *o, int64_t v);
static inline char *hg_w_i64(char *o, int64_t v)
{
    if ((uint64_t)v < 10)
    {
        *o = (char)('0' + v);
        return o + 1;
    }
    if ((uint64_t)v < 100)
    {
        memcpy(o, hg_digit_pairs + 2 * v, 2);
        return o + 2;
    }
    return hg__w_i64_slow(o, v);
}

/* hg_w_text: a text value with PostgreSQL COPY text escaping of \\ \t \n \r. */
char *hg_w_text(char *o, const char *s, size_t n);

/* ---- text synthesis (hg_text.c) ---------------------------------------- */

/* A scratch string with a fixed capacity (HG_STR_CAP bytes). */
#define HG_STR_CAP 2048
typedef struct hg_str
{
    size_t len;
    char s[HG_STR_CAP];
} hg_str;

/* hg_site_domain: the host name of counter (site) `counter`, e.g. "irr.ru". */
void hg_site_domain(hg_str *out, uint32_t counter);

/* hg_page_url: the URL of page `rank` of counter `counter`; target_len is the
 * counter's typical URL length in bytes (the result varies around it).
 * Rank 1 is the site's front page. Never contains "google". */
void hg_page_url(hg_str *out, uint32_t counter, uint64_t rank, int target_len);

/* hg_page_title: the page title (Cyrillic words, " - " site name). */
void hg_page_title(hg_str *out, uint32_t counter, uint64_t rank);

/* hg_phrase: search phrase number `rank` (1 = most frequent): 1-4 Cyrillic
 * words (a few Latin ones), UTF-8. */
void hg_phrase(hg_str *out, uint64_t rank);

/* hg_google_url: one of the rare URLs containing "google" (Q20-Q23). */
void hg_google_url(hg_str *out, uint64_t key);

/* hg_external_referer: a link from another site: host number `host` (0 is the
 * most frequent), page `key`. */
void hg_external_referer(hg_str *out, uint32_t host, uint64_t key);

/* hg_search_referer: the result page of search engine `engine` for a phrase
 * (percent-encoded), e.g. http://go.mail.ru/search?q=%D0%BA... */
void hg_search_referer(hg_str *out, int engine, const hg_str *phrase, uint64_t key);

/* Number of external referer hosts hg_external_referer knows by name. */
int hg_named_hosts(void);

/* hg_model_name: a generated mobile phone model for tail number `k`. */
void hg_model_name(hg_str *out, uint32_t k);

/* hg_word: a Cyrillic-like word (UTF-8) drawn from r, appended to out. */
void hg_word(hg_str *out, hg_rng *r);

/* ---- rows (hg_rows.c) -------------------------------------------------- */

typedef struct hg_config
{
    uint64_t rows; /* total rows of the file */
    uint64_t seed;
} hg_config;

/* hg_model_init: precomputes the tables that depend on the row count. Call
 * once before any hg_chunk_generate; not thread-safe itself. */
void hg_model_init(const hg_config *cfg);

/* hg_chunk_generate: appends the TSV lines of chunk `chunk` (rows
 * chunk*HG_CHUNK_ROWS .. min(+HG_CHUNK_ROWS, rows)) to out. Thread-safe;
 * the bytes depend only on (cfg, chunk). */
void hg_chunk_generate(const hg_config *cfg, uint64_t chunk, hg_buf *out);

#endif
