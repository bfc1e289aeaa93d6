/*
 * tz.c — IANA time zones: a TZif reader (RFC 8536) and the POSIX TZ rule
 * of the file's footer, with PostgreSQL's rules for local → UTC.
 *
 * Why our own parser: glibc's localtime_r works on one process-wide TZ
 * (setenv + tzset is neither thread-safe nor per session); every session
 * here has its own TimeZone. A TZif file lists transitions (UTC seconds)
 * and the local time type after each; past the last one, the footer's
 * POSIX string ("EST5EDT,M3.2.0,M11.1.0") gives the yearly rule.
 *
 * Loaded zones live for the process (a small mutex-protected cache);
 * nothing is freed. Errors never raise here: callers get NULL and report
 * in their own words.
 */
#include "common/tz.h"

#include <ctype.h>
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#define TZ_DIR "/usr/share/zoneinfo"
#define TZ_MAX_ZONES 256
#define TZ_NAME_MAX 128

typedef struct TzType {
    int32_t off;    /* seconds east */
    bool is_dst;
    char abbr[12];
} TzType;

/* POSIX TZ rule: std offset, optional DST with start/end "Mm.w.d/time". */
typedef struct TzRule {
    bool valid, has_dst;
    int32_t std_off, dst_off;          /* seconds east */
    char std_abbr[12], dst_abbr[12];
    int start_m, start_w, start_d;     /* Mm.w.d */
    int end_m, end_w, end_d;
    int32_t start_time, end_time;      /* seconds after local midnight */
} TzRule;

struct TzZone {
    char name[TZ_NAME_MAX];
    int ntrans, ntypes;
    int64_t *trans;      /* UTC seconds, ascending */
    uint8_t *trans_type; /* type index in effect from trans[i] */
    TzType *types;
    TzRule rule;
};

static pthread_mutex_t tz_lock = PTHREAD_MUTEX_INITIALIZER;
static TzZone *tz_cache[TZ_MAX_ZONES];
static int tz_ncache;
static _Thread_local const TzZone *tz_session;

/* ---- POSIX TZ strings ---- */

static const char *tz_parse_abbr(const char *p, char *out, size_t size)
{
    size_t n = 0;
    if (*p == '<') {
        for (p++; *p && *p != '>'; p++)
            if (n + 1 < size)
                out[n++] = *p;
        if (*p != '>')
            return NULL;
        p++;
    } else {
        for (; isalpha((unsigned char)*p); p++)
            if (n + 1 < size)
                out[n++] = *p;
    }
    out[n] = '\0';
    return n >= 3 ? p : NULL;
}

/* [+-]hh[:mm[:ss]] → seconds (sign as written). */
static const char *tz_parse_hms(const char *p, int32_t *out)
{
    int sign = 1, part[3] = {0, 0, 0}, k = 0;
    if (*p == '+' || *p == '-')
        sign = *p++ == '-' ? -1 : 1;
    if (!isdigit((unsigned char)*p))
        return NULL;
    for (;;) {
        while (isdigit((unsigned char)*p))
            part[k] = part[k] * 10 + (*p++ - '0');
        if (*p != ':' || k == 2)
            break;
        p++;
        k++;
    }
    *out = sign * (part[0] * 3600 + part[1] * 60 + part[2]);
    return p;
}

/* ",Mm.w.d[/time]" */
static const char *tz_parse_date(const char *p, int *m, int *w, int *d, int32_t *time)
{
    if (p[0] != ',' || p[1] != 'M')
        return NULL; /* Jn and n forms: no zone of today's tzdata uses them */
    if (sscanf(p + 2, "%d.%d.%d", m, w, d) != 3)
        return NULL;
    p += 2;
    while (isdigit((unsigned char)*p) || *p == '.')
        p++;
    *time = 7200;
    if (*p == '/')
        p = tz_parse_hms(p + 1, time);
    return p;
}

static bool tz_parse_rule(const char *p, TzRule *r)
{
    int32_t off;
    memset(r, 0, sizeof *r);
    if ((p = tz_parse_abbr(p, r->std_abbr, sizeof r->std_abbr)) == NULL ||
        (p = tz_parse_hms(p, &off)) == NULL)
        return false;
    r->std_off = -off; /* POSIX offsets are west-positive */
    r->valid = true;
    if (*p == '\0' || *p == '\n')
        return true;
    if ((p = tz_parse_abbr(p, r->dst_abbr, sizeof r->dst_abbr)) == NULL)
        return false;
    r->dst_off = r->std_off + 3600;
    if (*p != ',' && *p) {
        if ((p = tz_parse_hms(p, &off)) == NULL)
            return false;
        r->dst_off = -off;
    }
    p = tz_parse_date(p, &r->start_m, &r->start_w, &r->start_d, &r->start_time);
    if (p == NULL)
        return false;
    p = tz_parse_date(p, &r->end_m, &r->end_w, &r->end_d, &r->end_time);
    if (p == NULL)
        return false;
    r->has_dst = true;
    return true;
}

/* Days since 1970-01-01 of a proleptic Gregorian date. */
static int64_t tz_days_from_civil(int64_t y, int m, int d)
{
    int64_t era, yoe, doy, doe;
    y -= m <= 2;
    era = (y >= 0 ? y : y - 399) / 400;
    yoe = y - era * 400;
    doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

static int64_t tz_year_of(int64_t secs)
{
    int64_t days = secs / 86400 - (secs % 86400 < 0);
    int64_t z = days + 719468, era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    int64_t m = mp < 10 ? mp + 3 : mp - 9;
    return yoe + era * 400 + (m <= 2);
}

/* Local seconds (1970 epoch) of "day d of week w of month m" in year y. */
static int64_t tz_mwd_local(int64_t y, int m, int w, int d, int32_t time)
{
    static const int mdays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int64_t first = tz_days_from_civil(y, m, 1);
    int wday1 = (int)(((first % 7) + 7 + 4) % 7); /* 1970-01-01 was a Thursday */
    int day = 1 + (d - wday1 + 7) % 7 + (w - 1) * 7;
    int dim = mdays[m - 1] + (m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0));
    while (day > dim)
        day -= 7;
    return (tz_days_from_civil(y, m, day)) * 86400 + time;
}

/* The year's two transitions in UTC: into DST (start) and out of it (end). */
static void tz_rule_year(const TzRule *r, int64_t y, int64_t *start, int64_t *end)
{
    *start = tz_mwd_local(y, r->start_m, r->start_w, r->start_d, r->start_time) - r->std_off;
    *end = tz_mwd_local(y, r->end_m, r->end_w, r->end_d, r->end_time) - r->dst_off;
}

static int32_t tz_rule_offset(const TzRule *r, int64_t t, bool *is_dst, const char **abbrev)
{
    int64_t start, end;
    bool dst = false;
    if (r->has_dst) {
        tz_rule_year(r, tz_year_of(t + r->std_off), &start, &end);
        dst = start < end ? (t >= start && t < end) : !(t >= end && t < start);
    }
    if (is_dst)
        *is_dst = dst;
    if (abbrev)
        *abbrev = dst ? r->dst_abbr : r->std_abbr;
    return dst ? r->dst_off : r->std_off;
}

/* ---- TZif ---- */

static int64_t tz_be(const unsigned char *p, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++)
        v = (v << 8) | p[i];
    if (n == 4)
        return (int64_t)(int32_t)(uint32_t)v;
    return (int64_t)v;
}

/* Parse a TZif file's v2+ block (or the v1 block of an old file) into z. */
static bool tz_parse_tzif(const unsigned char *buf, size_t len, TzZone *z)
{
    size_t off = 0;
    int tsize = 4;
    for (int pass = 0; pass < 2; pass++) {
        int64_t cnt[6];
        size_t need, p;
        if (len - off < 44 || memcmp(buf + off, "TZif", 4) != 0)
            return false;
        for (int i = 0; i < 6; i++)
            cnt[i] = tz_be(buf + off + 20 + 4 * i, 4);
        /* isut, isstd, leap, time, type, char */
        need = (size_t)(cnt[3] * tsize + cnt[3] + cnt[4] * 6 + cnt[5] +
                        cnt[2] * (tsize + 4) + cnt[1] + cnt[0]);
        if (cnt[4] < 1 || cnt[4] > 255 || 44 + need > len - off)
            return false;
        if (pass == 0 && buf[off + 4] >= '2') {
            off += 44 + need; /* skip the 32-bit block */
            tsize = 8;
            continue;
        }
        p = off + 44;
        z->ntrans = (int)cnt[3];
        z->ntypes = (int)cnt[4];
        z->trans = calloc((size_t)z->ntrans + 1, sizeof *z->trans);
        z->trans_type = calloc((size_t)z->ntrans + 1, 1);
        z->types = calloc((size_t)z->ntypes, sizeof *z->types);
        if (!z->trans || !z->trans_type || !z->types)
            return false;
        for (int i = 0; i < z->ntrans; i++, p += (size_t)tsize)
            z->trans[i] = tz_be(buf + p, tsize);
        for (int i = 0; i < z->ntrans; i++, p++)
            z->trans_type[i] = buf[p] < z->ntypes ? buf[p] : 0;
        {
            size_t chars = p + (size_t)z->ntypes * 6;
            for (int i = 0; i < z->ntypes; i++, p += 6) {
                size_t ai = buf[p + 5];
                z->types[i].off = (int32_t)tz_be(buf + p, 4);
                z->types[i].is_dst = buf[p + 4] != 0;
                if (ai < (size_t)cnt[5])
                    snprintf(z->types[i].abbr, sizeof z->types[i].abbr, "%.*s",
                             (int)strnlen((const char *)buf + chars + ai, (size_t)cnt[5] - ai),
                             (const char *)buf + chars + ai);
            }
        }
        off += 44 + need;
        if (tsize == 8 && off < len && buf[off] == '\n') {
            char footer[128];
            size_t n = 0;
            for (off++; off < len && buf[off] != '\n' && n + 1 < sizeof footer; off++)
                footer[n++] = (char)buf[off];
            footer[n] = '\0';
            if (n > 0)
                tz_parse_rule(footer, &z->rule);
        }
        return true;
    }
    return false;
}

/* Resolve name under TZ_DIR component by component, case-insensitively. */
static bool tz_resolve(const char *name, char *path, size_t psize, char *canon, size_t csize)
{
    char tmp[TZ_NAME_MAX];
    char *save = NULL;
    struct stat st;
    snprintf(path, psize, "%s", TZ_DIR);
    canon[0] = '\0';
    if (strlen(name) >= sizeof tmp || name[0] == '/' || name[0] == '\0')
        return false;
    snprintf(tmp, sizeof tmp, "%s", name);
    for (char *c = strtok_r(tmp, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
        DIR *dir;
        struct dirent *de;
        bool found = false;
        if (c[0] == '.' || (dir = opendir(path)) == NULL)
            return false;
        while ((de = readdir(dir)) != NULL) {
            if (strcasecmp(de->d_name, c) == 0) {
                size_t pl = strlen(path), cl = strlen(canon), dl = strlen(de->d_name);
                if (pl + dl + 2 > psize || cl + dl + 2 > csize)
                    break;
                path[pl] = '/';
                memcpy(path + pl + 1, de->d_name, dl + 1);
                if (cl)
                    canon[cl++] = '/';
                memcpy(canon + cl, de->d_name, dl + 1);
                found = true;
                break;
            }
        }
        closedir(dir);
        if (!found)
            return false;
    }
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static TzZone *tz_fixed(const char *name, int32_t off)
{
    TzZone *z = calloc(1, sizeof *z);
    if (z == NULL)
        return NULL;
    snprintf(z->name, sizeof z->name, "%s", name);
    z->rule.valid = true;
    z->rule.std_off = off;
    snprintf(z->rule.std_abbr, sizeof z->rule.std_abbr, "%s", off == 0 ? "UTC" : "");
    return z;
}

static TzZone *tz_posix(const char *name)
{
    TzRule r;
    TzZone *z;
    if (!tz_parse_rule(name, &r) || r.has_dst || (z = calloc(1, sizeof *z)) == NULL)
        return NULL;
    snprintf(z->name, sizeof z->name, "%s", name);
    z->rule = r;
    return z;
}

static TzZone *tz_read(const char *name)
{
    char path[512], canon[TZ_NAME_MAX];
    unsigned char *buf;
    FILE *f;
    size_t len;
    TzZone *z;
    if (!tz_resolve(name, path, sizeof path, canon, sizeof canon))
        return NULL;
    if ((f = fopen(path, "rb")) == NULL)
        return NULL;
    buf = malloc(1 << 20);
    len = buf ? fread(buf, 1, 1 << 20, f) : 0;
    fclose(f);
    z = calloc(1, sizeof *z);
    if (buf == NULL || z == NULL || !tz_parse_tzif(buf, len, z)) {
        free(buf);
        if (z) {
            free(z->trans);
            free(z->trans_type);
            free(z->types);
        }
        free(z);
        return NULL;
    }
    free(buf);
    snprintf(z->name, sizeof z->name, "%s", canon);
    return z;
}

/* "5", "-3.5": hours east (SQL convention); "+05:30": a POSIX offset, west
 * positive (PostgreSQL reads it as a POSIX zone spec); false otherwise. */
static bool tz_numeric(const char *name, int32_t *off)
{
    char *end;
    double h;
    if (!(isdigit((unsigned char)name[0]) || name[0] == '-' || name[0] == '+' || name[0] == '.'))
        return false;
    if (strchr(name, ':') != NULL) {
        const char *p = tz_parse_hms(name, off);
        if (p == NULL || *p != '\0' || *off > 24 * 3600 || *off < -24 * 3600)
            return false;
        *off = -*off;
        return true;
    }
    h = strtod(name, &end);
    if (end == name || *end != '\0' || h < -15 || h > 15)
        return false;
    *off = (int32_t)(h * 3600);
    return true;
}

const TzZone *tz_load(const char *name)
{
    TzZone *z = NULL;
    int32_t off;
    if (name == NULL)
        return NULL;
    pthread_mutex_lock(&tz_lock);
    for (int i = 0; i < tz_ncache; i++)
        if (strcasecmp(tz_cache[i]->name, name) == 0) {
            z = tz_cache[i];
            break;
        }
    if (z == NULL && tz_ncache < TZ_MAX_ZONES) {
        if (strcasecmp(name, "utc") == 0 || strcasecmp(name, "gmt") == 0)
            z = tz_fixed(strcasecmp(name, "utc") == 0 ? "UTC" : "GMT", 0);
        else if (tz_numeric(name, &off))
            z = tz_fixed(name, off);
        else if (name[0] == '<') /* "<+05:30>-05:30": a POSIX spec (SHOW's form of '5.5') */
            z = tz_posix(name);
        else
            z = tz_read(name);
        if (z)
            tz_cache[tz_ncache++] = z;
    }
    pthread_mutex_unlock(&tz_lock);
    return z;
}

const char *tz_name(const TzZone *z)
{
    return z->name;
}

int32_t tz_offset_at(const TzZone *z, int64_t t, bool *is_dst, const char **abbrev)
{
    const TzType *ty;
    int lo = 0, hi = z->ntrans;
    if (z->ntypes == 0 || (z->ntrans > 0 && t >= z->trans[z->ntrans - 1] && z->rule.valid))
        return tz_rule_offset(&z->rule, t, is_dst, abbrev);
    if (z->ntrans == 0 || t < z->trans[0]) {
        ty = &z->types[0];
    } else {
        while (hi - lo > 1) { /* last transition <= t */
            int mid = (lo + hi) / 2;
            if (z->trans[mid] <= t)
                lo = mid;
            else
                hi = mid;
        }
        ty = &z->types[z->trans_type[lo]];
    }
    if (is_dst)
        *is_dst = ty->is_dst;
    if (abbrev)
        *abbrev = ty->abbr;
    return ty->off;
}

/* First instant after t at which the offset changes; false when none. */
static bool tz_next_change(const TzZone *z, int64_t t, int64_t *when)
{
    int32_t cur = tz_offset_at(z, t, NULL, NULL);
    int lo = 0, hi = z->ntrans;
    if (z->ntrans > 0 && t < z->trans[z->ntrans - 1]) {
        while (lo < hi) { /* first transition > t */
            int mid = (lo + hi) / 2;
            if (z->trans[mid] > t)
                hi = mid;
            else
                lo = mid + 1;
        }
        for (int i = lo; i < z->ntrans; i++)
            if (z->types[z->trans_type[i]].off != cur) {
                *when = z->trans[i];
                return true;
            }
    }
    if (z->rule.valid && z->rule.has_dst) {
        int64_t best = INT64_MAX, y = tz_year_of(t);
        for (int64_t k = y - 1; k <= y + 1; k++) {
            int64_t s, e;
            tz_rule_year(&z->rule, k, &s, &e);
            if (s > t && s < best && tz_offset_at(z, s, NULL, NULL) != cur)
                best = s;
            if (e > t && e < best && tz_offset_at(z, e, NULL, NULL) != cur)
                best = e;
        }
        if (best != INT64_MAX) {
            *when = best;
            return true;
        }
    }
    return false;
}

int32_t tz_offset_for_local(const TzZone *z, int64_t local)
{
    int64_t prev = local - 86400, boundary, before_t, after_t;
    int32_t before = tz_offset_at(z, prev, NULL, NULL), after;
    if (!tz_next_change(z, prev, &boundary))
        return before;
    after = tz_offset_at(z, boundary, NULL, NULL);
    before_t = local - before;
    after_t = local - after;
    if (before_t < boundary && after_t < boundary)
        return before;
    if (before_t >= boundary && after_t >= boundary)
        return after;
    /* a gap (spring forward) takes "before", an overlap (fall back) "after" */
    return before_t > after_t ? before : after;
}

const TzZone *tz_session_zone(void)
{
    if (tz_session == NULL)
        tz_session = tz_load("UTC");
    return tz_session;
}

void tz_set_session_zone_ptr(const TzZone *z)
{
    tz_session = z;
}

bool tz_set_session_zone(const char *name)
{
    const TzZone *z = tz_load(name);
    if (z == NULL)
        return false;
    tz_session = z;
    return true;
}
