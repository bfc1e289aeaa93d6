/*
 * hg_text.c: synthesis of hitsgen's strings: site domains, page URLs and
 * titles, search phrases, referers, phone models.
 *
 * Every string is a pure function of its key (counter, page rank, phrase
 * rank...), so the same page always has the same URL, title and hash. Latin
 * fragments are built from syllables without the letter 'g', so "google"
 * appears only where hg_google_url plants it (Q20-Q23 select those rows).
 * Cyrillic text uses 2-byte UTF-8 syllables like the obfuscated real data.
 */
#include "clickbench/hitsgen/hg.h"

#include <stdio.h>
#include <string.h>

/* Syllables packed end to end (lat: 2 bytes each, cyr: 4 bytes of UTF-8 each),
 * so a syllable is one fixed-size copy from syl + 2*i or 4*i. */
static const char lat_syl[64 * 2 + 1] =
    "katarumolinapovedesikoranimatopa"
    "saloneribazavokumedimilyskoranex"
    "stprinobfahoteulyuchshviledazebu"
    "roelarontrkrplfimunoseticewejaxo";

static const char cyr_syl[64 * 4 + 1] =
    "катонировалинест"
    "провраколенадима"
    "посетьекмилареин"
    "омзарымоченыскат"
    "бедаойусвакиенал"
    "тызошижиуюямвыох"
    "балюгищафехоцеэт"
    "юрёлийаяоеыеыхим";

/* Named sites: the biggest counters and the referer hosts of Q28. */
static const char *const named_hosts[] = {
    "go.mail.ru", "google.ru", "bonprix.ru", "e96.ru", "mysw.info",
    "svpressa.ru", "msuzie-showforumdisplay.ru", "kurortmag.ru", "vk.com",
    "yandex.ru", "odnoklassniki.ru", "avito.ru", "irr.ru", "kinopoisk.ru",
    "auto.ru", "drom.ru", "livejournal.com", "liveinternet.ru", "rambler.ru",
    "lenta.ru", "rbc.ru", "kp.ru", "mk.ru", "aif.ru", "hh.ru", "2gis.ru",
    "afisha.ru", "championat.com", "sport-express.ru", "gazeta.ru", "ria.ru",
    "video.yandex.ru", "my.mail.ru", "news.mail.ru", "otvet.mail.ru",
    "pogoda.yandex.ru", "market.yandex.ru", "maps.yandex.ru", "ozon.ru",
    "wildberries.ru", "lamoda.ru", "eldorado.ru", "mvideo.ru", "zakon.kz",
    "tut.by", "onliner.by", "ukr.net", "korrespondent.net", "fishki.net"};
#define N_NAMED (int)(sizeof named_hosts / sizeof named_hosts[0])

int hg_named_hosts(void)
{
    return N_NAMED;
}

/* Sites of the heaviest counters (hitsgen's counter ids -> host). */
static const struct
{
    uint32_t counter;
    const char *host;
} counter_hosts[] = {
    {3922, "kinopoisk.ru"}, {199550, "video.yandex.ru"}, {122612, "avito.ru"},
    {233773, "auto.ru"}, {245438, "pikabu.ru"}, {62, "irr.ru"},
    {256004, "livejournal.com"}, {186300, "lenta.ru"}, {146891, "drom.ru"},
    {38, "rbc.ru"}, {220992, "kp.ru"}, {95427, "hh.ru"}, {96948, "mk.ru"},
    {1634, "aif.ru"}, {188878, "afisha.ru"}, {77639, "2gis.ru"},
    {234004, "ozon.ru"}, {114157, "championat.com"}, {515, "gazeta.ru"},
    {786, "ria.ru"}, {230962, "rambler.ru"}, {196239, "eldorado.ru"},
    {97467, "mvideo.ru"}, {191697, "lamoda.ru"}, {249603, "fishki.net"}};
#define N_COUNTER_HOSTS (sizeof counter_hosts / sizeof counter_hosts[0])

/* Appends n bytes, truncating at HG_STR_CAP - 1 (never reached by the
 * generator's strings, but part of the output's definition). */
static inline void str_addn(hg_str *o, const char *s, size_t n)
{
    if (o->len + n >= HG_STR_CAP)
        n = HG_STR_CAP - 1 - o->len;
    memcpy(o->s + o->len, s, n);
    o->len += n;
    o->s[o->len] = '\0';
}

/* With a literal, strlen is folded at compile time. */
static inline void str_add(hg_str *o, const char *s)
{
    str_addn(o, s, strlen(s));
}

static inline void str_addc(hg_str *o, char c)
{
    if (o->len + 1 >= HG_STR_CAP)
        return;
    o->s[o->len++] = c;
    o->s[o->len] = '\0';
}

static void str_num(hg_str *o, uint64_t v)
{
    char tmp[24];
    int n = hg_fmt_u64(tmp, v);
    if (o->len + (size_t)n >= HG_STR_CAP)
        return;
    if (o->len + sizeof tmp <= HG_STR_CAP)
        memcpy(o->s + o->len, tmp, sizeof tmp); /* fixed size: no libc call */
    else
        memcpy(o->s + o->len, tmp, (size_t)n);
    o->len += (size_t)n;
    o->s[o->len] = '\0';
}

/* Appends n syllables of `width` bytes each from the packed table syl (64
 * entries), drawing 6 bits per syllable from one random word. */
static inline void add_syllables(hg_str *o, const char *syl, size_t width, int n, hg_rng *r)
{
    if (o->len + (size_t)n * width >= HG_STR_CAP)
        return;
    uint64_t bits = hg_next(r);
    char *p = o->s + o->len;
    for (int i = 0; i < n; i++, bits >>= 6)
    {
        if (width == 2)
            memcpy(p, syl + (bits & 63) * 2, 2);
        else
            memcpy(p, syl + (bits & 63) * 4, 4);
        p += width;
    }
    o->len += (size_t)n * width;
    o->s[o->len] = '\0';
}

/* A Latin word of 2..4 syllables. */
static inline void lat_word(hg_str *o, hg_rng *r)
{
    add_syllables(o, lat_syl, 2, 2 + (int)hg_below(r, 3), r);
}

void hg_word(hg_str *out, hg_rng *r)
{
    add_syllables(out, cyr_syl, 4, 2 + (int)hg_below(r, 3), r);
}

static void site_domain_compute(hg_str *out, uint32_t counter)
{
    out->len = 0;
    out->s[0] = '\0';
    for (size_t i = 0; i < N_COUNTER_HOSTS; i++)
        if (counter_hosts[i].counter == counter)
        {
            str_add(out, counter_hosts[i].host);
            return;
        }
    hg_rng r = hg_seeded(0xd0d0ULL ^ ((uint64_t)counter << 20));
    if (hg_chance(&r, 0.15))
    {
        lat_word(out, &r);
        str_add(out, ".");
    }
    lat_word(out, &r);
    static const char *const tld[] = {".ru", ".ru", ".ru", ".com", ".net", ".info", ".ua", ".by", ".su"};
    str_add(out, tld[hg_below(&r, 9)]);
}

/* A per-thread memo of domains: every URL and title of a session names the
 * same site, and computing it (a table walk, a seeded stream, syllables)
 * cost as much as the rest of a short URL. Direct-mapped on the counter;
 * a pure function's memo, so it cannot change the output. */
#define DOMAIN_MEMO 256
#define DOMAIN_MEMO_LEN 48
static _Thread_local struct
{
    uint32_t counter_plus_1; /* 0: empty */
    uint32_t len;
    char s[DOMAIN_MEMO_LEN];
} domain_memo[DOMAIN_MEMO];

void hg_site_domain(hg_str *out, uint32_t counter)
{
    unsigned slot = (counter ^ (counter >> 8)) % DOMAIN_MEMO;
    if (domain_memo[slot].counter_plus_1 == counter + 1)
    {
        out->len = domain_memo[slot].len;
        memcpy(out->s, domain_memo[slot].s, DOMAIN_MEMO_LEN);
        return;
    }
    site_domain_compute(out, counter);
    if (out->len < DOMAIN_MEMO_LEN)
    {
        domain_memo[slot].counter_plus_1 = counter + 1;
        domain_memo[slot].len = (uint32_t)out->len;
        memcpy(domain_memo[slot].s, out->s, out->len + 1);
    }
}

/* Path segments typical of 2013 Russian sites. */
static const char *const path_seg[] = {
    "/catalog/", "/news/", "/item/", "/forum/showthread.php?t=", "/index.php?id=",
    "/film/", "/cars/", "/kvartiry/", "/board/", "/search/?text=", "/video/",
    "/page/", "/articles/", "/user/", "/photo/", "/shop/"};
#define N_SEG (sizeof path_seg / sizeof path_seg[0])

void hg_page_url(hg_str *out, uint32_t counter, uint64_t rank, int target_len)
{
    hg_str dom;
    hg_site_domain(&dom, counter);
    out->len = 0;
    out->s[0] = '\0';
    hg_rng r = hg_seeded(((uint64_t)counter << 40) ^ rank ^ 0x0badcafeULL);
    str_add(out, hg_chance(&r, 0.93) ? "http://" : "https://");
    if (rank > 1 && hg_chance(&r, 0.2))
        str_add(out, "www.");
    str_addn(out, dom.s, dom.len);
    if (rank == 1)
    {
        str_add(out, "/");
        return;
    }
    /* length varies between 0.4x and 1.6x of the counter's typical length */
    size_t want = (size_t)((double)target_len * (0.4 + 1.2 * hg_unit(&r)));
    if (want > HG_STR_CAP - 64)
        want = HG_STR_CAP - 64;
    str_add(out, path_seg[hg_below(&r, N_SEG)]);
    str_num(out, rank * 7919 % 1000003);
    while (out->len < want)
    {
        str_addc(out, hg_chance(&r, 0.6) ? '/' : (hg_chance(&r, 0.5) ? '&' : '-'));
        if (hg_chance(&r, 0.3))
        {
            lat_word(out, &r);
            str_addc(out, '=');
            str_num(out, hg_next(&r) % 100000);
        }
        else
            lat_word(out, &r);
    }
    if (hg_chance(&r, 0.3))
        str_add(out, ".html");
}

void hg_page_title(hg_str *out, uint32_t counter, uint64_t rank)
{
    hg_str dom;
    hg_site_domain(&dom, counter);
    out->len = 0;
    out->s[0] = '\0';
    hg_rng r = hg_seeded(((uint64_t)counter << 40) ^ rank ^ 0x717e717eULL);
    int words = 2 + (int)hg_below(&r, 6);
    for (int i = 0; i < words; i++)
    {
        if (i)
            str_add(out, " ");
        hg_word(out, &r);
        if (hg_chance(&r, 0.05))
            str_num(out, hg_below(&r, 2014));
    }
    str_add(out, " - ");
    str_addn(out, dom.s, dom.len);
}

static const char *const top_phrases[] = {
    "карелки", "смотреть онлайн", "ведомосквы вместу", "смотреть онлайн бесплатно",
    "galaxy table", "ст погода", "фильмы онлайн", "одноклассники", "вконтакте",
    "мультфильмы"};

void hg_phrase(hg_str *out, uint64_t rank)
{
    out->len = 0;
    out->s[0] = '\0';
    if (rank <= sizeof top_phrases / sizeof top_phrases[0])
    {
        str_add(out, top_phrases[rank - 1]);
        return;
    }
    hg_rng r = hg_seeded(rank ^ 0x5ea4c4ULL);
    int words = 1 + (int)hg_below(&r, 4);
    for (int i = 0; i < words; i++)
    {
        if (i)
            str_add(out, " ");
        if (hg_chance(&r, 0.06))
            lat_word(out, &r);
        else
            hg_word(out, &r);
    }
}

void hg_google_url(hg_str *out, uint64_t key)
{
    static const char *const g[] = {
        "http://www.google.ru/search?q=", "https://www.google.com/url?sa=t&url=",
        "http://maps.google.ru/maps?q=", "http://images.google.ru/imgres?imgurl=",
        "http://video.yandex.ru/search?text=google+", "http://translate.google.ru/#ru/en/"};
    hg_rng r = hg_seeded(key ^ 0x600613ULL);
    out->len = 0;
    out->s[0] = '\0';
    str_add(out, g[hg_below(&r, 6)]);
    int n = 1 + (int)hg_below(&r, 4);
    for (int i = 0; i < n; i++)
    {
        if (i)
            str_add(out, "+");
        lat_word(out, &r);
    }
}

void hg_external_referer(hg_str *out, uint32_t host, uint64_t key)
{
    hg_rng r = hg_seeded(((uint64_t)host << 40) ^ key ^ 0x4efe4e4ULL);
    out->len = 0;
    out->s[0] = '\0';
    str_add(out, "http://");
    if (host < (uint32_t)N_NAMED)
    {
        if (hg_chance(&r, 0.3))
            str_add(out, "www.");
        str_add(out, named_hosts[host]);
    }
    else
    {
        hg_site_domain(out, 1000000 + host);
        memmove(out->s + 7, out->s, out->len + 1);
        memcpy(out->s, "http://", 7);
        out->len += 7;
    }
    str_add(out, path_seg[hg_below(&r, N_SEG)]);
    str_num(out, key % 1000003);
    int extra = (int)hg_below(&r, 1 + (host * 37 % 9));
    for (int i = 0; i < extra; i++)
    {
        str_add(out, "/");
        lat_word(out, &r);
    }
}

static const char *const engines[] = {
    "", "http://yandex.ru/yandsearch?text=", "http://go.mail.ru/search?q=",
    "http://google.ru/search?q=", "http://nova.rambler.ru/search?query=",
    "http://search.qip.ru/search?query=", "http://www.bing.com/search?q="};

void hg_search_referer(hg_str *out, int engine, const hg_str *phrase, uint64_t key)
{
    static const char hex[] = "0123456789ABCDEF";
    out->len = 0;
    out->s[0] = '\0';
    str_add(out, engines[engine >= 1 && engine <= 6 ? engine : 2]);
    for (size_t i = 0; i < phrase->len && out->len + 4 < HG_STR_CAP - 64; i++)
    {
        unsigned char c = (unsigned char)phrase->s[i];
        if (c == ' ')
            out->s[out->len++] = '+';
        else if (c < 0x80)
            out->s[out->len++] = (char)c;
        else
        {
            out->s[out->len++] = '%';
            out->s[out->len++] = hex[c >> 4];
            out->s[out->len++] = hex[c & 15];
        }
    }
    out->s[out->len] = '\0';
    str_add(out, "&clid=");
    str_num(out, key % 100000);
}

void hg_model_name(hg_str *out, uint32_t k)
{
    static const char *const brand[] = {"GT-", "SM-", "LG-", "HTC ", "Lumia ", "SGH-", "Xperia ", "MT"};
    hg_rng r = hg_seeded(0x30de1ULL ^ k);
    out->len = 0;
    out->s[0] = '\0';
    str_add(out, brand[hg_below(&r, 8)]);
    char tmp[16];
    char letter = (char)('A' + hg_below(&r, 26)); /* two statements: draws in a fixed order */
    unsigned number = 100 + hg_below(&r, 9900);
    snprintf(tmp, sizeof tmp, "%c%u", letter, number);
    str_add(out, tmp);
}
