/*
 * hg_rows.c: hitsgen's model of a page view, and the TSV writer of a chunk.
 *
 * A chunk is a sequence of sessions (one user, one site, one IP, a run of
 * consecutive hits a few seconds apart). Per-user attributes (region, OS,
 * screen, phone) come from a stream seeded by the user's rank, so a user is
 * the same person wherever it appears. Across the file, SearchPhrase follows
 * an alternating process of empty runs (mean 12.4 rows) and search runs
 * (mean 1.9 rows, one phrase each), as measured on the real file. Constants
 * that ClickBench's queries filter on are planted (see README.md).
 */
#include "clickbench/hitsgen/hg.h"

#include <math.h>
#include <string.h>

#define REAL_ROWS 99997497.0
#define SECONDS (30 * 86400) /* 2013-07-02 00:00:00 .. 2013-07-31 23:59:59 */

/* Constants of ClickBench's queries. */
#define Q19_USER 435090932899640449LL
#define Q40_REFERER_HASH 3594120000172545465LL
#define Q41_URL_HASH 2868770270353813622LL
#define Q40_REFERER "http://irr.ru/index.php?showalbum/login-leniya7777294,938303130"

/* ---- tables ------------------------------------------------------------ */

/* Counters with their rows in the real file (Q27) and URL lengths. */
static const struct
{
    uint32_t id;
    double rows;
    int url_len;
} top_counters[] = {
    {3922, 8527069, 88}, {199550, 7115413, 110}, {122612, 3574007, 239},
    {233773, 2938865, 469}, {245438, 2510103, 272}, {256004, 858171, 125},
    {186300, 802561, 84}, {62, 738172, 93}, {146891, 605286, 78},
    {38, 507770, 76}, {220992, 494614, 106}, {96948, 396093, 93},
    {95427, 374306, 120}, {1634, 323229, 198}, {188878, 311998, 92},
    {77639, 253961, 75}, {234004, 238660, 204}, {114157, 216408, 143},
    {230962, 169223, 76}, {196239, 163797, 98}, {515, 146907, 126},
    {97467, 131178, 84}, {191697, 124664, 87}, {786, 120528, 187},
    {249603, 120325, 92}};
#define N_TOP_COUNTERS (int)(sizeof top_counters / sizeof top_counters[0])

static const struct
{
    int32_t id;
    double share;
} top_regions[] = {{229, 18.30}, {2, 6.69}, {208, 4.26}, {169, 3.32}, {32, 1.84},
                   {34, 1.79}, {184, 1.76}, {42, 1.54}, {107, 1.52}, {51, 1.44}};
#define N_TOP_REGIONS (int)(sizeof top_regions / sizeof top_regions[0])

/* AdvEngineID histogram of Q7; index 0 is AdvEngineID 0. */
static const struct
{
    int id;
    double rows;
} adv_engines[] = {{0, 99367000}, {2, 404602}, {27, 113167}, {13, 45631}, {45, 38960},
                   {44, 9730}, {3, 6896}, {62, 5266}, {52, 3554}, {50, 938}, {28, 836},
                   {53, 350}, {25, 343}, {61, 158}, {21, 38}, {42, 20}, {16, 7}, {7, 3}, {22, 1}};
#define N_ADV (int)(sizeof adv_engines / sizeof adv_engines[0])

static const struct
{
    int w, h;
    double share;
} screens[] = {{1366, 768, .15}, {1920, 1080, .27}, {1280, 1024, .10}, {1280, 800, .06},
               {1440, 900, .07}, {1600, 900, .06}, {1680, 1050, .06}, {1024, 768, .06},
               {1360, 768, .04}, {2560, 1440, .03}, {1920, 1200, .03}, {320, 480, .02},
               {0, 0, .01}, {1536, 864, .04}};
#define N_SCREENS (int)(sizeof screens / sizeof screens[0])

/* Phone models by share of users (Q10/Q11) and their MobilePhone codes. */
static const struct
{
    const char *model;
    double share;
    int phone;
} models[] = {{"", 92.9, 0}, {"iPad", 6.18, 1}, {"iPhone", 0.26, 6}, {"A500", 0.091, 118},
              {"N8-00", 0.032, 44}, {"iPho", 0.019, 26}, {"ONE TOUCH 6030A", 0.016, 7},
              {"GT-P7300B", 0.011, 13}, {"3110000", 0.011, 5}, {"GT-I9500", 0.009, 6},
              {"eagle75", 0.008, 32}, {NULL, 0.4, 0}};
#define N_MODELS (int)(sizeof models / sizeof models[0])

static const double engine_w[] = {0, 8, 55, 30, 3, 2, 2}; /* SearchEngineID in search runs */
static const int oses[] = {2, 56, 44, 3, 106, 12, 115, 98, 126, 1};
static const double os_w[] = {30, 18, 12, 9, 8, 6, 5, 5, 4, 3};
static const int agents[] = {7, 3, 2, 4, 62, 49, 22, 73, 42, 1};
static const double agent_w[] = {28, 20, 15, 10, 8, 6, 5, 4, 2, 2};

static uint32_t counter_cum[N_TOP_COUNTERS + 1], region_cum[N_TOP_REGIONS + 1];
static uint32_t adv_cum[N_ADV], screen_cum[N_SCREENS], model_cum[N_MODELS];
static uint32_t engine_cum[7], os_cum[10], agent_cum[10], day_cum[30], minute_cum[1440];
static hg_table t_counter, t_region, t_adv, t_screen, t_model, t_engine, t_os, t_agent, t_day, t_minute;
static hg_zipf z_user, z_ip, z_phrase, z_counter_tail, z_region_tail, z_host;
static uint64_t q19_count;
static char date_str[80][11]; /* 2013-06-22 + i */

/* ---- init -------------------------------------------------------------- */

static void init_tables(void)
{
    double w[1440];
    double top = 0;
    for (int i = 0; i < N_TOP_COUNTERS; i++)
        top += (w[i] = top_counters[i].rows);
    w[N_TOP_COUNTERS] = REAL_ROWS - top;
    hg_table_build(counter_cum, w, N_TOP_COUNTERS + 1);
    t_counter = (hg_table){N_TOP_COUNTERS + 1, counter_cum};
    top = 0;
    for (int i = 0; i < N_TOP_REGIONS; i++)
        top += (w[i] = top_regions[i].share);
    w[N_TOP_REGIONS] = 100.0 - top;
    hg_table_build(region_cum, w, N_TOP_REGIONS + 1);
    t_region = (hg_table){N_TOP_REGIONS + 1, region_cum};
    for (int i = 0; i < N_ADV; i++)
        w[i] = adv_engines[i].rows;
    hg_table_build(adv_cum, w, N_ADV);
    t_adv = (hg_table){N_ADV, adv_cum};
    for (int i = 0; i < N_SCREENS; i++)
        w[i] = screens[i].share;
    hg_table_build(screen_cum, w, N_SCREENS);
    t_screen = (hg_table){N_SCREENS, screen_cum};
    for (int i = 0; i < N_MODELS; i++)
        w[i] = models[i].share;
    hg_table_build(model_cum, w, N_MODELS);
    t_model = (hg_table){N_MODELS, model_cum};
    hg_table_build(engine_cum, engine_w, 7);
    t_engine = (hg_table){7, engine_cum};
    hg_table_build(os_cum, os_w, 10);
    t_os = (hg_table){10, os_cum};
    hg_table_build(agent_cum, agent_w, 10);
    t_agent = (hg_table){10, agent_cum};
    for (int d = 0; d < 30; d++) /* 2013-07-06 was a Saturday */
        w[d] = ((d + 2) % 7 == 6 || (d + 2) % 7 == 0) ? 0.8 : 1.0;
    hg_table_build(day_cum, w, 30);
    t_day = (hg_table){30, day_cum};
    for (int m = 0; m < 1440; m++) /* daily rhythm: low at 04:00, peak mid-afternoon */
        w[m] = 1.0 + 0.85 * cos(2.0 * 3.14159265358979 * ((double)m / 1440.0 - 14.0 / 24.0));
    hg_table_build(minute_cum, w, 1440);
    t_minute = (hg_table){1440, minute_cum};
}

static void init_dates(void)
{
    static const int mdays[] = {30, 31, 31}; /* June, July, August */
    int month = 0, day = 22;
    for (int i = 0; i < 80; i++)
    {
        date_str[i][0] = '2';
        memcpy(date_str[i], "2013-0", 6);
        date_str[i][6] = (char)('6' + month);
        date_str[i][7] = '-';
        date_str[i][8] = (char)('0' + day / 10);
        date_str[i][9] = (char)('0' + day % 10);
        date_str[i][10] = '\0';
        if (++day > mdays[month] && month < 2)
        {
            day = 1;
            month++;
        }
    }
}

void hg_model_init(const hg_config *cfg)
{
    double n = (double)cfg->rows;
    init_tables();
    init_dates();
    /* Universes are sized for the real file, so a smaller file is a sample
     * of the same population: top values keep their shares at any size. */
    z_user = hg_zipf_init(50000000, 0.6);
    z_ip = hg_zipf_init(2000000, 0.6);
    z_phrase = hg_zipf_init(300, 0.6);
    z_counter_tail = hg_zipf_init(50000, 0.7);
    z_region_tail = hg_zipf_init(3000, 0.5);
    z_host = hg_zipf_init(3000, 0.75);
    q19_count = (uint64_t)llround(4.0 * n / REAL_ROWS);
    if (q19_count < 1)
        q19_count = 1;
}

/* ---- sessions ---------------------------------------------------------- */

typedef struct user_attr
{
    int64_t user_id;
    int32_t region, home_ip;
    int os, agent, agent_major, sw, sh, phone, tz, java, age, sex, income, interests;
    const char *model;
    hg_str model_buf;
} user_attr;

typedef struct session
{
    user_attr u;
    uint32_t counter;
    int url_len, counter_idx; /* counter_idx: index in top_counters or -1 */
    hg_zipf z_page;
    int32_t ip;
    int32_t t; /* seconds since 2013-07-02 00:00:00 of the next hit */
    int client_skew, hits_left, robot;
    int64_t fuid;
} session;

static int32_t signed32(uint64_t h)
{
    int32_t v = (int32_t)(uint32_t)h;
    return v < INT32_MIN + 8 ? v + 8 : v;
}

static void make_user(user_attr *u, uint64_t rank, uint64_t seed)
{
    hg_rng r = hg_seeded(rank * 0x9e3779b97f4a7c15ULL ^ seed ^ 0x05e4ULL);
    /* AVG(UserID) of the real file is 2.53e18: ids are skewed low */
    uint64_t h = hg_next(&r);
    u->user_id = (int64_t)(h % 10 == 0 ? h >> 1 : h >> 2);
    int ri = hg_table_pick(&t_region, &r);
    if (ri < N_TOP_REGIONS)
        u->region = top_regions[ri].id;
    else
    {
        u->region = (int32_t)(hg_mix64(hg_zipf_draw(&z_region_tail, &r) ^ 0x4e610ULL) % 4000) + 1;
        for (int i = 0; i < N_TOP_REGIONS; i++)
            if (u->region == top_regions[i].id)
                u->region += 4000;
    }
    u->home_ip = signed32(hg_next(&r));
    u->os = oses[hg_table_pick(&t_os, &r)];
    u->agent = agents[hg_table_pick(&t_agent, &r)];
    u->agent_major = (int)hg_below(&r, 30);
    int mi = hg_table_pick(&t_model, &r);
    u->model = models[mi].model;
    u->phone = models[mi].phone;
    if (!u->model)
    {
        hg_model_name(&u->model_buf, hg_below(&r, 3000));
        u->model = u->model_buf.s;
        u->phone = 1 + (int)hg_below(&r, 150);
    }
    else if (mi == 1 && hg_chance(&r, 0.15)) /* iPads under a few other codes */
    {
        static const int ipad_codes[] = {5, 6, 7, 10, 32, 13};
        u->phone = ipad_codes[hg_below(&r, 6)];
    }
    else if (mi == 2 && hg_chance(&r, 0.5))
        u->phone = 26;
    int si = mi == 1 ? 7 : hg_table_pick(&t_screen, &r);
    u->sw = screens[si].w;
    u->sh = screens[si].h;
    u->tz = hg_chance(&r, 0.7) ? 4 : (int)hg_below(&r, 12) - 1;
    u->java = hg_chance(&r, 0.7);
    u->age = (int)hg_below(&r, 6);
    u->sex = (int)hg_below(&r, 3);
    u->income = (int)hg_below(&r, 4);
    u->interests = (int)hg_below(&r, 1024);
}

static void pick_counter(session *s, hg_rng *r)
{
    int ci = hg_table_pick(&t_counter, r);
    uint64_t universe;
    if (ci < N_TOP_COUNTERS)
    {
        s->counter = top_counters[ci].id;
        s->url_len = top_counters[ci].url_len;
        s->counter_idx = ci;
        universe = (uint64_t)(top_counters[ci].rows * 0.15);
    }
    else
    {
        uint64_t k = hg_zipf_draw(&z_counter_tail, r);
        s->counter = 1000 + (uint32_t)(hg_mix64(k ^ 0xc0c0ULL) % 260000);
        for (int i = 0; i < N_TOP_COUNTERS; i++)
            if (s->counter == top_counters[i].id)
                s->counter += 260000;
        s->url_len = 40 + (int)(hg_mix64(s->counter) % 110);
        s->counter_idx = -1;
        universe = 50 + hg_mix64(k) % 2000;
    }
    s->z_page = hg_zipf_init(universe + 10, 0.75);
}

static void new_session(session *s, hg_rng *r, const hg_config *cfg)
{
    uint64_t rank = hg_zipf_draw(&z_user, r);
    make_user(&s->u, rank, cfg->seed);
    s->robot = rank <= 20;
    pick_counter(s, r);
    s->ip = hg_chance(r, 0.6) ? s->u.home_ip
                              : signed32(hg_mix64(hg_zipf_draw(&z_ip, r) ^ cfg->seed ^ 0x1bULL));
    int day = hg_table_pick(&t_day, r);
    int minute = hg_table_pick(&t_minute, r);
    s->t = day * 86400 + minute * 60 + (int)hg_below(r, 60);
    s->client_skew = hg_chance(r, 0.97) ? (int)hg_below(r, 121) - 60 : (int)hg_below(r, 172801) - 86400;
    s->hits_left = 1 + (int)(-4.0 * log(1.0 - hg_unit(r)));
    s->fuid = hg_chance(r, 0.8) ? (int64_t)(hg_next(r) >> 1) : 0;
}

/* ---- rows -------------------------------------------------------------- */

typedef struct chunk_state
{
    hg_rng r;
    session s;
    int in_search, run_left, engine;
    uint64_t phrase_rank;
    hg_str phrase, url, title, referer;
    int64_t url_hash, referer_hash, last_watch;
} chunk_state;

static int64_t str_hash(const hg_str *s)
{
    uint64_t h = 0xcbf29ce484222325ULL ^ s->len;
    size_t i = 0;
    for (; i + 8 <= s->len; i += 8)
    {
        uint64_t w;
        memcpy(&w, s->s + i, 8);
        h = (h ^ w) * 0x100000001b3ULL;
        h ^= h >> 29;
    }
    uint64_t w = 0;
    memcpy(&w, s->s + i, s->len - i);
    return (int64_t)hg_mix64(h ^ w);
}

/* Writes timestamp t (seconds since 2013-07-02 00:00:00, may be negative)
 * as "2013-07-15 12:40:00" followed by a tab. */
static char *put_ts_tab(char *o, int64_t t)
{
    int64_t d = t >= 0 ? t / 86400 : -((-t + 86399) / 86400);
    unsigned sec = (unsigned)(t - d * 86400);
    memcpy(o, date_str[d + 10], 10);
    o[10] = ' ';
    memcpy(o + 11, hg_digit_pairs + 2 * (sec / 3600), 2);
    o[13] = ':';
    memcpy(o + 14, hg_digit_pairs + 2 * (sec % 3600 / 60), 2);
    o[16] = ':';
    memcpy(o + 17, hg_digit_pairs + 2 * (sec % 60), 2);
    o[19] = '\t';
    return o + 20;
}

/* Advances the SearchPhrase process: alternating empty and search runs. */
static void step_search(chunk_state *c)
{
    if (c->run_left == 0)
    {
        c->in_search = !c->in_search;
        double m = c->in_search ? 1.4 : 11.9;
        c->run_left = 1 + (int)(-m * log(1.0 - hg_unit(&c->r)));
        if (c->in_search)
        {
            /* 15% of searches are for popular phrases, the rest are new */
            if (hg_chance(&c->r, 0.15))
                c->phrase_rank = hg_zipf_draw(&z_phrase, &c->r);
            else
                c->phrase_rank = 1000 + (hg_next(&c->r) >> 24);
            c->engine = hg_table_pick(&t_engine, &c->r);
            hg_phrase(&c->phrase, c->phrase_rank);
        }
    }
    c->run_left--;
}

/* Chooses the page of this hit and fills url/title and their hash. */
static void pick_page(chunk_state *c, uint64_t g)
{
    session *s = &c->s;
    hg_rng *r = &c->r;
    uint64_t rank;
    double u = hg_unit(r);
    if (s->counter == 62)
        rank = u < 0.25 ? 2 : (u < 0.39 ? 1 : 2 + hg_zipf_draw(&s->z_page, r));
    else
        rank = u < (s->counter_idx >= 0 ? 0.3 : 0.1) ? 1 : 1 + hg_zipf_draw(&s->z_page, r);
    if (hg_chance(r, 0.00016))
    {
        hg_google_url(&c->url, g);
        c->url_hash = str_hash(&c->url);
    }
    else if (hg_chance(r, 0.00003))
    {
        c->url.len = 0;
        c->url_hash = str_hash(&c->url);
    }
    else
    {
        hg_page_url(&c->url, s->counter, rank, s->url_len);
        c->url_hash = (s->counter == 62 && rank == 2) ? Q41_URL_HASH : str_hash(&c->url);
    }
    if (hg_chance(r, 0.0004))
    {
        static const char *const gt[] = {"Google Chrome - скачать бесплатно", "Google Карты",
                                         "Перевод Google", "Google Play - приложения",
                                         "Почта Google", "Картинки Google"};
        c->title.len = 0;
        const char *t = gt[hg_below(r, 6)];
        c->title.len = strlen(t);
        memcpy(c->title.s, t, c->title.len + 1);
    }
    else if (hg_chance(r, 0.02))
        c->title.len = 0;
    else
        hg_page_title(&c->title, s->counter, rank);
}

/* Chooses the referer; returns TraficSourceID. */
static int pick_referer(chunk_state *c, int searching, int adv, uint64_t g)
{
    session *s = &c->s;
    hg_rng *r = &c->r;
    int source;
    if (searching)
    {
        hg_search_referer(&c->referer, c->engine, &c->phrase, hg_mix64(g));
        source = 2;
    }
    else if (s->counter == 62 && hg_chance(r, 0.04))
    {
        c->referer.len = strlen(Q40_REFERER);
        memcpy(c->referer.s, Q40_REFERER, c->referer.len + 1);
        c->referer_hash = Q40_REFERER_HASH;
        return hg_chance(r, 0.5) ? -1 : 6;
    }
    else
    {
        double u = hg_unit(r);
        if (u < 0.30)
        {
            c->referer.len = 0;
            c->referer.s[0] = '\0';
            source = 0;
        }
        else if (u < 0.70)
        {
            hg_page_url(&c->referer, s->counter, 1 + hg_zipf_draw(&s->z_page, r), s->url_len);
            source = -1;
        }
        else
        {
            uint32_t host = (uint32_t)hg_zipf_draw(&z_host, r) - 1;
            hg_external_referer(&c->referer, host, hg_next(r) % 5000);
            source = (host == 8 || host == 10) ? 8 : 1;
        }
    }
    if (adv)
        source = 3;
    else if (source == 1 && hg_chance(r, 0.1))
        source = 6;
    c->referer_hash = str_hash(&c->referer);
    return source;
}

/* Column writers on the row's cursor o. */
#define I(v) (o = hg_w_i64(o, (int64_t)(v)), *o++ = '\t')
#define T(str, n) (o = hg_w_text(o, (str), (n)), *o++ = '\t')
#define E() (*o++ = '\t') /* an empty text */
/* L: columns whose text is fixed, written as one literal (tabs included); the
 * length is a compile-time constant, so the copy is a few moves. */
#define L(lit) (memcpy(o, (lit), sizeof(lit) - 1), o += sizeof(lit) - 1)

/* Writes columns 1..35 (WatchID .. MobilePhoneModel). */
static char *write_head(chunk_state *c, char *o, int64_t watch, int32_t t, int64_t user, int refresh)
{
    session *s = &c->s;
    user_attr *u = &s->u;
    hg_rng *r = &c->r;
    I(watch);
    I(u->java);
    T(c->title.s, c->title.len);
    L("1\t");
    o = put_ts_tab(o, t);
    memcpy(o, date_str[t / 86400 + 10], 10);
    o[10] = '\t';
    o += 11;
    I(s->counter);
    I(s->ip);
    I(u->region);
    I(user);
    I(hg_below(r, 8) == 0 ? 1 : 0);
    I(u->os);
    I(u->agent);
    T(c->url.s, c->url.len);
    T(c->referer.s, c->referer.len);
    I(refresh);
    I(c->referer.len ? (int)hg_below(r, 20) : 0);
    I(c->referer.len ? u->region : 0);
    I((int)(s->counter % 17));
    I(u->region);
    I(u->sw);
    I(u->sh);
    I(u->sw ? (hg_chance(r, 0.9) ? 24 : 32) : 0);
    I(u->java ? 11 : 0);
    I(u->java ? (int)hg_below(r, 8) : 0);
    if (u->java)
        L("0\t");
    else
        E();
    I(hg_chance(r, 0.9) ? 0 : 3);
    I(hg_chance(r, 0.9) ? 0 : 5);
    I(u->agent_major);
    *o++ = u->agent_major < 10 ? '0' : '1';
    L("\t1\t1\t");
    I(u->model[0] != '\0');
    I(u->phone);
    T(u->model, strlen(u->model));
    return o;
}

/* Writes columns 36..65 (Params .. LocalEventTime). */
static char *write_mid(chunk_state *c, char *o, int32_t t, int source, int searching, int adv,
                      int dont_count)
{
    session *s = &c->s;
    user_attr *u = &s->u;
    hg_rng *r = &c->r;
    if (hg_chance(r, 0.005)) /* rare Params with characters COPY must escape */
    {
        const char *p = hg_chance(r, 0.05) ? "{\"k\":\"a\tb\\c\"}" : "{\"price\":\"1\\2\"}";
        T(p, strlen(p));
    }
    else
        E();
    I((uint32_t)s->ip >> 8);
    I(source);
    I(searching ? c->engine : 0);
    if (searching)
        T(c->phrase.s, c->phrase.len);
    else
        E();
    I(adv);
    L("0\t");
    int ww = u->sw ? u->sw - (int)hg_below(r, (uint32_t)u->sw / 4 + 1) : 0;
    int wh = u->sh ? u->sh - 60 - (int)hg_below(r, (uint32_t)u->sh / 3 + 1) : 0;
    I(ww);
    I(wh < 0 ? 0 : wh);
    I(u->tz);
    o = put_ts_tab(o, (int64_t)t + s->client_skew);
    if (u->java)
        L("5\t0\t60329\t0\t");
    else
        L("0\t0\t0\t0\t");
    if (hg_chance(r, 0.8))
        L("windows-1251\t");
    else
        L("utf-8\t");
    I(500 + (int)hg_below(r, 30));
    I(hg_chance(r, 0.04));
    I(hg_chance(r, 0.01));
    I(hg_chance(r, 0.5));
    I(s->fuid);
    if (hg_chance(r, 0.05))
        T(c->url.s, c->url.len);
    else
        E();
    I(hg_below(r, 2000000000));
    L("0\t0\t0\t");
    I(dont_count);
    I(hg_chance(r, 0.02));
    static const char colors[] = "DDDDEEF5";
    *o++ = colors[hg_below(r, 8)];
    *o++ = '\t';
    return put_ts_tab(o, (int64_t)t + (u->tz - 4) * 3600);
}

/* Writes columns 66..105 (Age .. CLID) and the newline. */
static char *write_tail(chunk_state *c, char *o)
{
    session *s = &c->s;
    user_attr *u = &s->u;
    hg_rng *r = &c->r;
    I(u->age);
    I(u->sex);
    I(u->income);
    I(u->interests);
    I(s->robot ? 2 : 0);
    I(s->ip);
    for (int i = 0; i < 2; i++)
        if (hg_chance(r, 0.9))
            L("-1\t");
        else
            I((int)hg_below(r, 100000));
    I(hg_below(r, 15));
    L("ru\t");
    if (u->tz == 4)
        L("ru\t\t\t0\t");
    else
        L("ua\t\t\t0\t");
    for (int i = 0; i < 6; i++)
        I(hg_chance(r, 0.9) ? 0 : (int)hg_below(r, 3000));
    /* 0, '', 0, '', '', 0, 10 x '', 0 */
    L("0\t\t0\t\t\t0\t\t\t\t\t\t\t\t\t\t\t0\t");
    I(c->referer_hash);
    I(c->url_hash);
    L("0\n");
    return o;
}

/* Is global row g one of the planted rows of UserID 435090932899640449? */
static int is_q19_row(const hg_config *cfg, uint64_t g)
{
    /* rows floor((2j+1) * rows / (2k)), j = 0..k-1 */
    /* rows < 2^40 and k < 2^13 (checked by hitsgen.c), so no overflow */
    uint64_t k = q19_count;
    uint64_t j = g * (2 * k) / cfg->rows / 2;
    uint64_t pos = (2 * j + 1) * cfg->rows / (2 * k);
    return j < k && pos == g;
}

static void write_row(chunk_state *c, const hg_config *cfg, uint64_t g, hg_buf *b)
{
    session *s = &c->s;
    hg_rng *r = &c->r;
    if (s->hits_left <= 0)
        new_session(s, r, cfg);
    s->hits_left--;
    int32_t t = s->t;
    s->t += 5 + (int32_t)hg_below(r, 120);
    if (s->t >= SECONDS)
        s->t = SECONDS - 1 - (int32_t)hg_below(r, 3600);
    step_search(c);
    int searching = c->in_search && !s->robot;
    int adv = adv_engines[hg_table_pick(&t_adv, r)].id;
    pick_page(c, g);
    int source = pick_referer(c, searching, adv, g);
    if (source == 6 || (source == -1 && c->referer_hash == Q40_REFERER_HASH))
        adv = 0;
    int64_t watch = (int64_t)(hg_next(r) >> 1);
    if (c->last_watch && hg_chance(r, 0.000002))
        watch = c->last_watch;
    c->last_watch = watch;
    int64_t user = is_q19_row(cfg, g) ? Q19_USER : s->u.user_id;
    int refresh = hg_chance(r, 0.06);
    char *o = b->data + b->len;
    o = write_head(c, o, watch, t, user, refresh);
    o = write_mid(c, o, t, source, searching, adv, hg_chance(r, 0.03));
    o = write_tail(c, o);
    b->len = (size_t)(o - b->data);
}

void hg_chunk_generate(const hg_config *cfg, uint64_t chunk, hg_buf *out)
{
    static chunk_state zero;
    chunk_state c = zero;
    c.r = hg_seeded(cfg->seed * 0x2545f4914f6cdd1dULL ^ hg_mix64(chunk + 1));
    uint64_t first = chunk * HG_CHUNK_ROWS;
    uint64_t last = first + HG_CHUNK_ROWS;
    if (last > cfg->rows)
        last = cfg->rows;
    for (uint64_t g = first; g < last; g++)
    {
        hg_buf_reserve(out, HG_MAX_ROW_BYTES);
        size_t before = out->len;
        write_row(&c, cfg, g, out);
        if (out->len - before > HG_MAX_ROW_BYTES)
            __builtin_trap();
    }
}
