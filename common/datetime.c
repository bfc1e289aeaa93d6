/*
 * datetime.c — date and timestamp (without time zone): PostgreSQL's input
 * formats, ISO output, range checks and error texts.
 *
 * Input is a small version of PostgreSQL's ParseDateTime/DecodeDateTime:
 * the string is cut into fields (whitespace and commas separate them; a
 * 'T' between a date and a time does too), each field is classified
 *   - time       "10:20", "10:20:30.5", with an optional zone suffix "Z",
 *                "+02", "-05:30" (recorded for timestamptz; timestamp
 *                without time zone drops it, as PostgreSQL does)
 *   - date       "2013-07-15", "07/15/2013", "15-jul-2013", "2013.07.15"
 *                (three parts; ISO when the first has more than two digits,
 *                else in DateStyle's field order: MDY, DMY or YMD)
 *   - number     "20130715", "130715", or day/year next to a month name
 *   - word       month and weekday names, BC/AD, AM/PM, zone names
 * and the pieces are validated like ValidateDate: two-digit years map to
 * 1970..2069, BC years are stored astronomically (1 BC = year 0), a field
 * out of range is 22008 "date/time field value out of range", a result
 * outside PostgreSQL's range is 22008 "date out of range" / "timestamp out
 * of range", anything unparseable is 22007 "invalid input syntax".
 *
 * Calendar arithmetic is PostgreSQL's date2j/j2date (Julian day numbers).
 */
#include "common/datetime.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/error.h"
#include "common/types.h"
#include "common/tz.h"

#define POSTGRES_EPOCH_JDATE 2451545        /* date2j(2000, 1, 1) */
#define UNIX_EPOCH_JDATE 2440588            /* date2j(1970, 1, 1) */
#define DATE_END_JULIAN 2147483494          /* date2j(5874898, 1, 1) */
#define TIMESTAMP_END_JULIAN 109203528      /* date2j(294277, 1, 1) */
#define MIN_TIMESTAMP INT64_C(-211813488000000000)
#define END_TIMESTAMP INT64_C(9223371331200000000)
#define DT_FIELDS_MAX 16
#define DT_FIELD_LEN 64

static _Thread_local int64_t dt_xact_time; /* 0 = none set: use the clock */
static _Thread_local DateOrder dt_order;      /* DateStyle's input field order */
static _Thread_local IntervalStyle dt_interval_style;

/* ---- calendar ---- */

static int dt_date2j(int y, int m, int d)
{
    int julian, century;
    if (m > 2) {
        m += 1;
        y += 4800;
    } else {
        m += 13;
        y += 4799;
    }
    century = y / 100;
    julian = y * 365 - 32167;
    julian += y / 4 - century + century / 4;
    julian += 7834 * m / 256 + d;
    return julian;
}

static void dt_j2date(int jd, int *year, int *month, int *day)
{
    unsigned int julian = (unsigned int)jd, quad, extra;
    int y;
    julian += 32044;
    quad = julian / 146097;
    extra = (julian - quad * 146097) * 4 + 3;
    julian += 60 + quad * 3 + extra / 146097;
    quad = julian / 1461;
    julian -= quad * 1461;
    y = (int)(julian * 4 / 1461);
    julian = ((y != 0) ? ((julian + 305) % 365) : ((julian + 306) % 366)) + 123;
    y += (int)quad * 4;
    *year = y - 4800;
    quad = julian * 2141 / 65536;
    *day = (int)(julian - 7834 * quad / 256);
    *month = (int)((quad + 10) % 12 + 1);
}

static bool dt_is_leap(int y)
{
    return (y % 4 == 0) && ((y % 100 != 0) || (y % 400 == 0));
}

static int dt_days_in_month(int y, int m)
{
    static const int days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return m == 2 && dt_is_leap(y) ? 29 : days[m - 1];
}

/* PostgreSQL's IS_VALID_JULIAN: from 4714-11-24 BC (year -4713). */
static bool dt_valid_julian(int y, int m, int d)
{
    if (y < -4713 || (y == -4713 && (m < 11 || (m == 11 && d < 24))))
        return false;
    return y < 5874898;
}

int32_t date_from_ymd(int year, int month, int day)
{
    return (int32_t)(dt_date2j(year, month, day) - POSTGRES_EPOCH_JDATE);
}

void date_to_ymd(int32_t date, int *year, int *month, int *day)
{
    dt_j2date((int)date + POSTGRES_EPOCH_JDATE, year, month, day);
}

bool date_ymd_valid(int year, int month, int day)
{
    if (month < 1 || month > 12 || day < 1 || day > dt_days_in_month(year, month))
        return false;
    if (!dt_valid_julian(year, month, day))
        return false;
    return dt_date2j(year, month, day) < DATE_END_JULIAN;
}

int64_t timestamp_from_date(int32_t date)
{
    if (date == DATE_NOBEGIN)
        return TS_NOBEGIN;
    if (date == DATE_NOEND)
        return TS_NOEND;
    if ((int64_t)date + POSTGRES_EPOCH_JDATE >= TIMESTAMP_END_JULIAN)
        err_raise(ERRCODE_DATETIME_FIELD_OVERFLOW, "date out of range for timestamp");
    return (int64_t)date * USECS_PER_DAY;
}

int32_t date_from_timestamp(int64_t ts)
{
    int64_t d;
    if (ts == TS_NOBEGIN)
        return DATE_NOBEGIN;
    if (ts == TS_NOEND)
        return DATE_NOEND;
    d = ts / USECS_PER_DAY;
    if (ts % USECS_PER_DAY < 0)
        d--;
    return (int32_t)d;
}

void datetime_thread_state_save(DateTimeThreadState *st)
{
    st->zone = tz_session_zone();
    st->order = (int)dt_order;
    st->interval_style = (int)dt_interval_style;
    st->xact_time = dt_xact_time;
}

void datetime_thread_state_restore(const DateTimeThreadState *st)
{
    tz_set_session_zone_ptr(st->zone);
    dt_order = (DateOrder)st->order;
    dt_interval_style = (IntervalStyle)st->interval_style;
    dt_xact_time = st->xact_time;
}

void datetime_set_xact_time(int64_t ts)
{
    dt_xact_time = ts;
}

int64_t timestamp_now(void)
{
    struct timespec now;
    if (dt_xact_time != 0)
        return dt_xact_time;
    clock_gettime(CLOCK_REALTIME, &now);
    return ((int64_t)now.tv_sec - (int64_t)(POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * 86400) *
               USECS_PER_SEC +
           now.tv_nsec / 1000;
}

/* ---- output ---- */

/* Decimal digits of v, zero-padded to minw; returns the length. (The
 * formatters below avoid snprintf: they run once per value of a result.) */
static size_t dt_put_uint(char *p, unsigned v, int minw)
{
    char tmp[12];
    int n = 0;
    size_t k = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n < minw)
        tmp[n++] = '0';
    while (n)
        p[k++] = tmp[--n];
    return k;
}

static size_t dt_format_ymd(int y, int m, int d, char *buf)
{
    size_t n = dt_put_uint(buf, (unsigned)(y > 0 ? y : -(y - 1)), 4);
    buf[n++] = '-';
    n += dt_put_uint(buf + n, (unsigned)m, 2);
    buf[n++] = '-';
    n += dt_put_uint(buf + n, (unsigned)d, 2);
    buf[n] = '\0';
    return n;
}

/* "HH:MM:SS[.ffffff]" (fraction without trailing zeros); NUL added. */
static size_t dt_format_hms(int64_t secs, int usec, char *buf)
{
    size_t n = dt_put_uint(buf, (unsigned)(secs / 3600), 2);
    buf[n++] = ':';
    n += dt_put_uint(buf + n, (unsigned)(secs / 60 % 60), 2);
    buf[n++] = ':';
    n += dt_put_uint(buf + n, (unsigned)(secs % 60), 2);
    if (usec != 0) {
        buf[n++] = '.';
        n += dt_put_uint(buf + n, (unsigned)usec, 6);
        while (buf[n - 1] == '0')
            n--;
    }
    buf[n] = '\0';
    return n;
}

size_t date_format(int32_t date, char *buf)
{
    int y, m, d;
    size_t n;
    if (date == DATE_NOBEGIN || date == DATE_NOEND) {
        strcpy(buf, date == DATE_NOEND ? "infinity" : "-infinity");
        return strlen(buf);
    }
    date_to_ymd(date, &y, &m, &d);
    n = dt_format_ymd(y, m, d, buf);
    if (y <= 0) {
        memcpy(buf + n, " BC", 4);
        n += 3;
    }
    return n;
}

size_t timestamp_format(int64_t ts, char *buf)
{
    int32_t date;
    int64_t t;
    int y, mo, d, usec;
    size_t n;
    if (ts == TS_NOBEGIN || ts == TS_NOEND) {
        strcpy(buf, ts == TS_NOEND ? "infinity" : "-infinity");
        return strlen(buf);
    }
    date = date_from_timestamp(ts);
    t = ts - (int64_t)date * USECS_PER_DAY;
    date_to_ymd(date, &y, &mo, &d);
    n = dt_format_ymd(y, mo, d, buf);
    usec = (int)(t % USECS_PER_SEC);
    buf[n++] = ' ';
    n += dt_format_hms(t / USECS_PER_SEC, usec, buf + n);
    if (y <= 0) {
        memcpy(buf + n, " BC", 3);
        n += 3;
    }
    buf[n] = '\0';
    return n;
}

void date_out(int32_t date, StrBuf *out)
{
    char buf[DATETIME_BUF];
    size_t n = date_format(date, buf);
    strbuf_append(out, buf, n);
}

void timestamp_out(int64_t ts, StrBuf *out)
{
    char buf[DATETIME_BUF];
    size_t n = timestamp_format(ts, buf);
    strbuf_append(out, buf, n);
}

/* ---- input: fields ---- */

typedef enum DtErr { DT_OK, DT_SYNTAX, DT_FIELD_RANGE, DT_TZ_RANGE } DtErr;

typedef struct DtParse {
    int year, mon, mday;
    bool have_date, year_2digits, bc, ad;
    int hour, min, sec, usec;  /* usec may be 1000000 after rounding */
    bool have_time;
    int ampm;                  /* 0 none, 1 am, 2 pm */
    int nnum;                  /* bare numbers waiting for a month name */
    char nums[2][DT_FIELD_LEN];
    int mon_from_name;         /* month given as a word; 0 = none */
    bool have_tz;              /* a zone was given: tz_off, or tz_zone when not NULL */
    int32_t tz_off;            /* seconds east */
    const TzZone *tz_zone;
    bool date_optional;        /* time input: a date may be left out */
} DtParse;

static int dt_month_name(const char *w)
{
    static const char *const names[12] = {"january", "february", "march", "april", "may", "june",
                                          "july", "august", "september", "october", "november",
                                          "december"};
    size_t n = strlen(w);
    for (int i = 0; i < 12; i++) {
        if (n == 3 && strncmp(w, names[i], 3) == 0)
            return i + 1;
        if (strcmp(w, names[i]) == 0)
            return i + 1;
    }
    if (strcmp(w, "sept") == 0)
        return 9;
    return 0;
}

static bool dt_weekday_name(const char *w)
{
    static const char *const names[7] = {"sunday", "monday", "tuesday", "wednesday", "thursday",
                                         "friday", "saturday"};
    size_t n = strlen(w);
    for (int i = 0; i < 7; i++)
        if ((n == 3 && strncmp(w, names[i], 3) == 0) || strcmp(w, names[i]) == 0)
            return true;
    return strcmp(w, "tues") == 0 || strcmp(w, "wednes") == 0 || strcmp(w, "thur") == 0 ||
           strcmp(w, "thurs") == 0;
}

static bool dt_all_digits(const char *s)
{
    if (*s == '\0')
        return false;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s))
            return false;
    return true;
}

/* Parse a non-negative decimal of at most 9 digits; false when not one. */
static bool dt_number(const char *s, int *out)
{
    if (!dt_all_digits(s) || strlen(s) > 9)
        return false;
    *out = atoi(s);
    return true;
}

/* A zone suffix "+05", "-05:30", "+0530", "+05:30:15", "+053015". */
static bool dt_zone_offset(const char *s)
{
    if (*s != '+' && *s != '-')
        return false;
    s++;
    if (!isdigit((unsigned char)*s))
        return false;
    while (isdigit((unsigned char)*s) || *s == ':')
        s++;
    return *s == '\0';
}

/* DecodeTimezone: the seconds east of a dt_zone_offset text; DT_FIELD_RANGE
 * past 15 hours or 59 minutes/seconds. */
static DtErr dt_zone_value(const char *s, DtParse *p)
{
    int sign = *s == '-' ? -1 : 1, hr = 0, mn = 0, sc = 0;
    const char *c = s + 1;
    size_t digits = strspn(c, "0123456789");
    if (c[digits] == ':') {
        hr = atoi(c);
        c += digits + 1;
        mn = atoi(c);
        c += strspn(c, "0123456789");
        if (*c == ':')
            sc = atoi(c + 1);
    } else if (digits > 4) {
        int v = atoi(c);
        hr = v / 10000, mn = v / 100 % 100, sc = v % 100;
    } else if (digits > 2) {
        int v = atoi(c);
        hr = v / 100, mn = v % 100;
    } else {
        hr = atoi(c);
    }
    if (hr > 15)
        return DT_TZ_RANGE;
    if (mn > 59 || sc > 59)
        return DT_FIELD_RANGE;
    p->have_tz = true;
    p->tz_zone = NULL;
    p->tz_off = sign * (hr * 3600 + mn * 60 + sc);
    return DT_OK;
}

/* "10:20", "10:20:30", "10:20:30.25", each optionally followed by a zone. */
static DtErr dt_parse_time(char *f, DtParse *p)
{
    char *zone = NULL, *parts[3], *frac = NULL;
    int n = 0;
    for (char *c = f + 1; *c; c++)
        if (*c == '+' || *c == '-' || *c == 'z') {
            zone = c;
            break;
        }
    if (zone != NULL) {
        if (strcmp(zone, "z") == 0) {
            p->have_tz = true;
            p->tz_off = 0;
        } else if (!dt_zone_offset(zone)) {
            return DT_SYNTAX;
        } else {
            DtErr e = dt_zone_value(zone, p);
            if (e != DT_OK)
                return e;
        }
        *zone = '\0';
    }
    if (p->have_time)
        return DT_SYNTAX;
    for (char *tok = f; n < 3; n++) {
        parts[n] = tok;
        tok = strchr(tok, ':');
        if (tok == NULL) {
            n++;
            break;
        }
        *tok++ = '\0';
        if (n == 2)
            return DT_SYNTAX; /* a fourth part */
    }
    if (n < 2)
        return DT_SYNTAX;
    if (n == 3 && (frac = strchr(parts[2], '.')) != NULL)
        *frac++ = '\0';
    if (!dt_number(parts[0], &p->hour) || !dt_number(parts[1], &p->min))
        return DT_SYNTAX;
    p->sec = 0;
    if (n == 3 && !dt_number(parts[2], &p->sec))
        return DT_SYNTAX;
    p->usec = 0;
    if (frac != NULL && *frac != '\0') {
        char buf[DT_FIELD_LEN + 2] = "0.";
        if (!dt_all_digits(frac))
            return DT_SYNTAX;
        strncat(buf, frac, DT_FIELD_LEN - 1);
        p->usec = (int)rint(strtod(buf, NULL) * 1000000.0);
    }
    p->have_time = true;
    return DT_OK;
}

/* Set year, month, day from strings; the year's length decides two-digit mapping. */
static DtErr dt_set_ymd(DtParse *p, const char *y, int mon, const char *d)
{
    if (p->have_date || !dt_number(y, &p->year) || !dt_number(d, &p->mday))
        return DT_SYNTAX;
    p->year_2digits = strlen(y) <= 2;
    p->mon = mon;
    p->have_date = true;
    return DT_OK;
}

/* "2013-07-15", "07/15/2013", "15-jul-2013", "jul-15-2013", "2013.07.15". */
static DtErr dt_parse_date(char *f, char sep, DtParse *p)
{
    char *parts[3];
    int n = 0, mon_at = -1, mon = 0;
    for (char *tok = f; tok != NULL; n++) {
        if (n == 3)
            return DT_SYNTAX;
        parts[n] = tok;
        tok = strchr(tok, sep);
        if (tok != NULL)
            *tok++ = '\0';
    }
    if (n != 3)
        return DT_SYNTAX;
    for (int i = 0; i < 3; i++) {
        if (dt_all_digits(parts[i]))
            continue;
        if (mon_at >= 0 || (mon = dt_month_name(parts[i])) == 0)
            return DT_SYNTAX;
        mon_at = i;
    }
    if (mon_at == 0)
        return dt_set_ymd(p, parts[2], mon, parts[1]);
    if (mon_at == 1)
        return strlen(parts[0]) > 2 ? dt_set_ymd(p, parts[0], mon, parts[2])
                                    : dt_set_ymd(p, parts[2], mon, parts[0]);
    if (mon_at == 2)
        return DT_SYNTAX;
    if (strlen(parts[0]) > 2 || dt_order == DATE_ORDER_YMD) {
        if (!dt_number(parts[1], &mon))
            return DT_SYNTAX;
        return dt_set_ymd(p, parts[0], mon, parts[2]);
    }
    if (dt_order == DATE_ORDER_DMY) {
        if (!dt_number(parts[1], &mon))
            return DT_SYNTAX;
        return dt_set_ymd(p, parts[2], mon, parts[0]);
    }
    if (!dt_number(parts[0], &mon))
        return DT_SYNTAX;
    return dt_set_ymd(p, parts[2], mon, parts[1]);
}

static DtErr dt_parse_word(const char *w, DtParse *p)
{
    /* PostgreSQL's default abbreviations (a subset), hours east */
    static const struct { const char *abbr; int hours; } zones[] = {
        {"z", 0}, {"zulu", 0}, {"utc", 0}, {"gmt", 0}, {"ut", 0}, {"est", -5}, {"edt", -4},
        {"cst", -6}, {"cdt", -5}, {"mst", -7}, {"mdt", -6}, {"pst", -8}, {"pdt", -7},
        {"cet", 1}, {"cest", 2}, {"eet", 2}, {"eest", 3}, {"wet", 0}, {"west", 1},
        {"bst", 1}, {"jst", 9}, {"msk", 3}};
    int mon = dt_month_name(w);
    if (mon != 0) {
        if (p->mon_from_name || p->have_date)
            return DT_SYNTAX;
        p->mon_from_name = mon;
        return DT_OK;
    }
    if (strcmp(w, "bc") == 0 || strcmp(w, "ad") == 0) {
        *(w[0] == 'b' ? &p->bc : &p->ad) = true;
        return p->bc && p->ad ? DT_SYNTAX : DT_OK;
    }
    if (strcmp(w, "am") == 0 || strcmp(w, "pm") == 0) {
        if (p->ampm)
            return DT_SYNTAX;
        p->ampm = w[0] == 'a' ? 1 : 2;
        return DT_OK;
    }
    if (dt_weekday_name(w))
        return DT_OK;
    for (size_t i = 0; i < sizeof zones / sizeof zones[0]; i++)
        if (strcmp(w, zones[i].abbr) == 0) {
            if (p->have_tz)
                return DT_SYNTAX;
            p->have_tz = true;
            p->tz_off = zones[i].hours * 3600;
            return DT_OK;
        }
    if (strchr(w, '/') != NULL && isalpha((unsigned char)w[0])) {
        /* a zone name such as America/New_York */
        const TzZone *z = tz_load(w);
        if (z == NULL)
            err_raise(ERRCODE_INVALID_PARAMETER_VALUE, "time zone \"%s\" not recognized", w);
        if (p->have_tz)
            return DT_SYNTAX;
        p->have_tz = true;
        p->tz_zone = z;
        return DT_OK;
    }
    return DT_SYNTAX;
}

static bool dt_is_word(const char *f)
{
    for (; *f; f++)
        if (!isalpha((unsigned char)*f) && *f != '/' && *f != '_')
            return false;
    return true;
}

/* Classify one field (lowercased, no whitespace) and record what it says. */
static DtErr dt_parse_field(char *f, DtParse *p)
{
    if (strchr(f, ':') != NULL && isdigit((unsigned char)f[0]))
        return dt_parse_time(f, p);
    if (dt_all_digits(f)) {
        if (p->nnum == 2 || strlen(f) >= DT_FIELD_LEN)
            return DT_SYNTAX;
        strcpy(p->nums[p->nnum++], f);
        return DT_OK;
    }
    if (dt_zone_offset(f)) {
        if (!p->have_time || p->have_tz)
            return DT_SYNTAX;
        return dt_zone_value(f, p);
    }
    if (isalnum((unsigned char)f[0])) {
        for (const char *c = f; *c; c++)
            if (*c == '-' || *c == '/' || *c == '.')
                return dt_is_word(f) ? dt_parse_word(f, p) : dt_parse_date(f, *c, p);
    }
    if (dt_is_word(f))
        return dt_parse_word(f, p);
    return DT_SYNTAX;
}

/* Cut the (lowercased) text into fields and parse each. */
static DtErr dt_parse_fields(char *buf, DtParse *p)
{
    char *save = NULL;
    for (char *tok = strtok_r(buf, " \t\n\r\v\f,", &save); tok != NULL;
         tok = strtok_r(NULL, " \t\n\r\v\f,", &save)) {
        DtErr e;
        size_t n = strlen(tok);
        /* ISO 8601 "2013-07-15T10:20:30": a 't' between digits splits the field */
        for (size_t i = 1; i + 1 < n; i++) {
            if (tok[i] == 't' && isdigit((unsigned char)tok[i - 1]) &&
                isdigit((unsigned char)tok[i + 1])) {
                tok[i] = '\0';
                if ((e = dt_parse_field(tok, p)) != DT_OK)
                    return e;
                tok += i + 1;
                break;
            }
        }
        if ((e = dt_parse_field(tok, p)) != DT_OK)
            return e;
    }
    return DT_OK;
}

/* Bare numbers: day and year beside a month name, or "20130715"/"130715". */
static DtErr dt_resolve_numbers(DtParse *p)
{
    if (p->mon_from_name) {
        if (p->nnum != 2 || p->have_date)
            return DT_SYNTAX;
        if (strlen(p->nums[0]) > 2)
            return dt_set_ymd(p, p->nums[0], p->mon_from_name, p->nums[1]);
        return dt_set_ymd(p, p->nums[1], p->mon_from_name, p->nums[0]);
    }
    if (p->nnum == 0)
        return DT_OK;
    if (p->nnum == 1 && !p->have_date && (strlen(p->nums[0]) == 8 || strlen(p->nums[0]) == 6)) {
        char y[6] = {0}, m[3] = {0}, d[3] = {0};
        size_t ylen = strlen(p->nums[0]) - 4;
        int mon;
        memcpy(y, p->nums[0], ylen);
        memcpy(m, p->nums[0] + ylen, 2);
        memcpy(d, p->nums[0] + ylen + 2, 2);
        mon = atoi(m);
        return dt_set_ymd(p, y, mon, d);
    }
    return DT_SYNTAX;
}

/* ValidateDate and the time checks of DecodeDateTime. */
static DtErr dt_validate(DtParse *p)
{
    if (p->bc) {
        if (p->year <= 0)
            return DT_FIELD_RANGE;
        p->year = -(p->year - 1);
    } else if (p->year_2digits) {
        if (p->year < 70)
            p->year += 2000;
        else if (p->year < 100)
            p->year += 1900;
    } else if (p->year <= 0) {
        return DT_FIELD_RANGE;
    }
    if (p->mon < 1 || p->mon > 12 || p->mday < 1 || p->mday > dt_days_in_month(p->year, p->mon))
        return DT_FIELD_RANGE;
    if (p->ampm) {
        if (p->hour > 12)
            return DT_FIELD_RANGE;
        if (p->ampm == 1 && p->hour == 12)
            p->hour = 0;
        else if (p->ampm == 2 && p->hour != 12)
            p->hour += 12;
    }
    if (p->hour < 0 || p->hour > 24 || p->min < 0 || p->min > 59 || p->sec < 0 || p->sec > 60 ||
        p->usec < 0 || p->usec > 1000000)
        return DT_FIELD_RANGE;
    if (p->hour == 24 && (p->min > 0 || p->sec > 0 || p->usec > 0))
        return DT_FIELD_RANGE;
    return DT_OK;
}

typedef enum DtSpecial { DT_NONE, DT_EPOCH, DT_INF, DT_NINF, DT_NOW, DT_TODAY, DT_TOMORROW,
                         DT_YESTERDAY } DtSpecial;

static DtSpecial dt_special(const char *w)
{
    static const struct { const char *word; DtSpecial sp; } words[] = {
        {"epoch", DT_EPOCH}, {"infinity", DT_INF}, {"+infinity", DT_INF}, {"-infinity", DT_NINF},
        {"now", DT_NOW}, {"today", DT_TODAY}, {"tomorrow", DT_TOMORROW},
        {"yesterday", DT_YESTERDAY},
    };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strcmp(w, words[i].word) == 0)
            return words[i].sp;
    return DT_NONE;
}

/* Lowercased, trimmed copy; false when too long to be a date. */
static bool dt_copy_lower(const char *s, size_t len, char *buf, size_t size)
{
    while (len > 0 && isspace((unsigned char)*s)) {
        s++;
        len--;
    }
    while (len > 0 && isspace((unsigned char)s[len - 1]))
        len--;
    if (len >= size)
        return false;
    for (size_t i = 0; i < len; i++)
        buf[i] = (char)tolower((unsigned char)s[i]);
    buf[len] = '\0';
    return strlen(buf) == len; /* an embedded NUL is not a date */
}

/* Parse into p; returns DT_OK or the error kind. *special set for special words. */
static DtErr dt_parse(const char *s, size_t len, DtParse *p, DtSpecial *special)
{
    char buf[256];
    DtErr e;
    bool date_optional = p->date_optional;
    memset(p, 0, sizeof *p);
    p->date_optional = date_optional;
    *special = DT_NONE;
    if (!dt_copy_lower(s, len, buf, sizeof buf) || buf[0] == '\0')
        return DT_SYNTAX;
    if ((*special = dt_special(buf)) != DT_NONE)
        return DT_OK;
    if ((e = dt_parse_fields(buf, p)) != DT_OK)
        return e;
    if ((e = dt_resolve_numbers(p)) != DT_OK)
        return e;
    if ((!p->have_date && !p->date_optional) || (p->ampm && !p->have_time))
        return DT_SYNTAX;
    if (!p->have_date) {
        p->year = 2000;
        p->mon = p->mday = 1;
    }
    return dt_validate(p);
}

static _Noreturn void dt_raise(DtErr e, const char *type_name, const char *s, size_t len)
{
    if (e == DT_TZ_RANGE)
        err_raise(ERRCODE_INVALID_TIME_ZONE_DISPLACEMENT_VALUE,
                  "time zone displacement out of range: \"%.*s\"", (int)len, s);
    if (e == DT_FIELD_RANGE)
        err_raise(ERRCODE_DATETIME_FIELD_OVERFLOW, "date/time field value out of range: \"%.*s\"",
                  (int)len, s);
    err_raise(ERRCODE_INVALID_DATETIME_FORMAT, "invalid input syntax for type %s: \"%.*s\"",
              type_name, (int)len, s);
}

/* The day a special word names (now/today/...), as a date. */
static int32_t dt_special_date(DtSpecial sp)
{
    int32_t today = date_from_timestamp(timestamptz_to_local(timestamp_now(), tz_session_zone()));
    switch (sp) {
    case DT_EPOCH: return (int32_t)(UNIX_EPOCH_JDATE - POSTGRES_EPOCH_JDATE);
    case DT_INF: return DATE_NOEND;
    case DT_NINF: return DATE_NOBEGIN;
    case DT_TOMORROW: return today + 1;
    case DT_YESTERDAY: return today - 1;
    default: return today;
    }
}

int32_t date_in(const char *s, size_t len)
{
    DtParse p;
    memset(&p, 0, sizeof p);
    DtSpecial sp;
    DtErr e = dt_parse(s, len, &p, &sp);
    int jd;
    if (e != DT_OK)
        dt_raise(e, "date", s, len);
    if (sp != DT_NONE)
        return dt_special_date(sp);
    if (!dt_valid_julian(p.year, p.mon, p.mday))
        err_raise(ERRCODE_DATETIME_FIELD_OVERFLOW, "date out of range: \"%.*s\"", (int)len, s);
    jd = dt_date2j(p.year, p.mon, p.mday);
    if (jd >= DATE_END_JULIAN)
        err_raise(ERRCODE_DATETIME_FIELD_OVERFLOW, "date out of range: \"%.*s\"", (int)len, s);
    return (int32_t)(jd - POSTGRES_EPOCH_JDATE);
}

int64_t timestamp_in(const char *s, size_t len)
{
    DtParse p;
    memset(&p, 0, sizeof p);
    DtSpecial sp;
    DtErr e = dt_parse(s, len, &p, &sp);
    int64_t ts;
    if (e != DT_OK)
        dt_raise(e, "timestamp", s, len);
    if (sp == DT_INF)
        return TS_NOEND;
    if (sp == DT_NINF)
        return TS_NOBEGIN;
    if (sp == DT_NOW)
        return timestamptz_to_local(timestamp_now(), tz_session_zone());
    if (sp != DT_NONE)
        return (int64_t)dt_special_date(sp) * USECS_PER_DAY;
    if (!dt_valid_julian(p.year, p.mon, p.mday) ||
        dt_date2j(p.year, p.mon, p.mday) >= TIMESTAMP_END_JULIAN)
        err_raise(ERRCODE_DATETIME_FIELD_OVERFLOW, "timestamp out of range: \"%.*s\"", (int)len, s);
    ts = (int64_t)(dt_date2j(p.year, p.mon, p.mday) - POSTGRES_EPOCH_JDATE) * USECS_PER_DAY;
    ts += ((int64_t)p.hour * 3600 + p.min * 60 + p.sec) * USECS_PER_SEC + p.usec;
    if (ts < MIN_TIMESTAMP || ts >= END_TIMESTAMP)
        err_raise(ERRCODE_DATETIME_FIELD_OVERFLOW, "timestamp out of range: \"%.*s\"", (int)len, s);
    return ts;
}

/* ---- session settings ---- */

void datetime_apply_settings(const char *timezone, const char *datestyle,
                             const char *intervalstyle)
{
    if (timezone != NULL)
        tz_set_session_zone(timezone);
    if (datestyle != NULL)
        dt_order = strstr(datestyle, "DMY") ? DATE_ORDER_DMY
                   : strstr(datestyle, "YMD") ? DATE_ORDER_YMD : DATE_ORDER_MDY;
    if (intervalstyle != NULL)
        dt_interval_style = strcmp(intervalstyle, "sql_standard") == 0 ? INTERVAL_STYLE_SQL
                            : strcmp(intervalstyle, "iso_8601") == 0   ? INTERVAL_STYLE_ISO
                            : strcmp(intervalstyle, "postgres_verbose") == 0
                                ? INTERVAL_STYLE_VERBOSE
                                : INTERVAL_STYLE_POSTGRES;
}

DateOrder datetime_date_order(void)
{
    return dt_order;
}

IntervalStyle datetime_interval_style(void)
{
    return dt_interval_style;
}

/* ---- timestamp with time zone ---- */

#define DT_EPOCH_DIFF_SECS (INT64_C(86400) * (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE))

static int64_t dt_floor_div(int64_t a, int64_t b)
{
    return a / b - (a % b != 0 && (a < 0) != (b < 0));
}

int64_t timestamptz_to_local(int64_t ts, const TzZone *z)
{
    int32_t off;
    if (ts == TS_NOBEGIN || ts == TS_NOEND)
        return ts;
    off = tz_offset_at(z, dt_floor_div(ts, USECS_PER_SEC) + DT_EPOCH_DIFF_SECS, NULL, NULL);
    return ts + (int64_t)off * USECS_PER_SEC;
}

int64_t timestamp_local_to_tz(int64_t local, const TzZone *z)
{
    int32_t off;
    if (local == TS_NOBEGIN || local == TS_NOEND)
        return local;
    off = tz_offset_for_local(z, dt_floor_div(local, USECS_PER_SEC) + DT_EPOCH_DIFF_SECS);
    return local - (int64_t)off * USECS_PER_SEC;
}

int32_t timestamptz_offset(int64_t ts, const TzZone *z)
{
    return tz_offset_at(z, dt_floor_div(ts, USECS_PER_SEC) + DT_EPOCH_DIFF_SECS, NULL, NULL);
}

int32_t date_from_timestamptz(int64_t ts)
{
    return date_from_timestamp(timestamptz_to_local(ts, tz_session_zone()));
}

int64_t timestamptz_from_date(int32_t date)
{
    int64_t local = timestamp_from_date(date);
    int64_t ts = timestamp_local_to_tz(local, tz_session_zone());
    if (ts != TS_NOBEGIN && ts != TS_NOEND && (ts < MIN_TIMESTAMP || ts >= END_TIMESTAMP))
        err_raise(ERRCODE_DATETIME_FIELD_OVERFLOW, "date out of range for timestamp");
    return ts;
}

int64_t time_from_timestamp(int64_t local_ts)
{
    return local_ts - (int64_t)date_from_timestamp(local_ts) * USECS_PER_DAY;
}

int64_t time_from_timestamptz(int64_t ts)
{
    return time_from_timestamp(timestamptz_to_local(ts, tz_session_zone()));
}

/* EncodeTimezone: "+05", "-04", "+05:30", "-00:01:15" (seconds east). */
size_t datetime_format_offset(int32_t off, char *buf)
{
    int a = off < 0 ? -off : off;
    size_t n = 1;
    buf[0] = off < 0 ? '-' : '+';
    n += dt_put_uint(buf + n, (unsigned)(a / 3600), 2);
    if (a % 3600 != 0) {
        buf[n++] = ':';
        n += dt_put_uint(buf + n, (unsigned)(a / 60 % 60), 2);
    }
    if (a % 60 != 0) {
        buf[n++] = ':';
        n += dt_put_uint(buf + n, (unsigned)(a % 60), 2);
    }
    buf[n] = '\0';
    return n;
}

size_t timestamptz_format(int64_t ts, char *buf)
{
    const TzZone *z = tz_session_zone();
    int32_t off;
    size_t n;
    bool bc;
    if (ts == TS_NOBEGIN || ts == TS_NOEND)
        return timestamp_format(ts, buf);
    off = timestamptz_offset(ts, z);
    n = timestamp_format(ts + (int64_t)off * USECS_PER_SEC, buf);
    bc = n > 3 && strcmp(buf + n - 3, " BC") == 0;
    if (bc)
        n -= 3;
    n += datetime_format_offset(off, buf + n);
    if (bc) {
        memcpy(buf + n, " BC", 4);
        n += 3;
    }
    buf[n] = '\0';
    return n;
}

void timestamptz_out(int64_t ts, StrBuf *out)
{
    char buf[DATETIME_BUF];
    size_t n = timestamptz_format(ts, buf);
    strbuf_append(out, buf, n);
}

int64_t timestamptz_in(const char *s, size_t len)
{
    DtParse p;
    DtSpecial sp;
    DtErr e;
    int64_t local;
    memset(&p, 0, sizeof p);
    e = dt_parse(s, len, &p, &sp);
    if (e != DT_OK)
        dt_raise(e, "timestamp with time zone", s, len);
    if (sp == DT_INF)
        return TS_NOEND;
    if (sp == DT_NINF)
        return TS_NOBEGIN;
    if (sp == DT_NOW)
        return timestamp_now();
    if (sp == DT_EPOCH)
        return (int64_t)dt_special_date(sp) * USECS_PER_DAY;
    if (sp != DT_NONE)
        return timestamp_local_to_tz((int64_t)dt_special_date(sp) * USECS_PER_DAY,
                                     tz_session_zone());
    /* PostgreSQL checks the local date by year and month only (IS_VALID_JULIAN),
     * then the UTC result */
    if (p.year < -4713 || (p.year == -4713 && p.mon < 11) || p.year > 294277)
        err_raise(ERRCODE_DATETIME_FIELD_OVERFLOW, "timestamp out of range: \"%.*s\"", (int)len, s);
    local = (int64_t)(dt_date2j(p.year, p.mon, p.mday) - POSTGRES_EPOCH_JDATE) * USECS_PER_DAY;
    local += ((int64_t)p.hour * 3600 + p.min * 60 + p.sec) * USECS_PER_SEC + p.usec;
    if (p.have_tz && p.tz_zone == NULL)
        local -= (int64_t)p.tz_off * USECS_PER_SEC;
    else
        local = timestamp_local_to_tz(local, p.have_tz ? p.tz_zone : tz_session_zone());
    if (local < MIN_TIMESTAMP || local >= END_TIMESTAMP)
        err_raise(ERRCODE_DATETIME_FIELD_OVERFLOW, "timestamp out of range: \"%.*s\"", (int)len, s);
    return local;
}

int64_t datetime_round_typmod(int64_t v, int32_t typmod)
{
    static const int64_t scales[7] = {1000000, 100000, 10000, 1000, 100, 10, 1};
    int64_t sc;
    if (typmod < 0 || typmod >= 6 || v == TS_NOBEGIN || v == TS_NOEND)
        return v;
    sc = scales[typmod];
    if (v >= 0)
        return (v + sc / 2) / sc * sc;
    return -((-v + sc / 2) / sc * sc);
}

/* ---- time without time zone ---- */

int64_t time_in(const char *s, size_t len)
{
    DtParse p;
    DtSpecial sp;
    DtErr e;
    memset(&p, 0, sizeof p);
    p.date_optional = true;
    e = dt_parse(s, len, &p, &sp);
    if (e != DT_OK)
        dt_raise(e, "time", s, len);
    if (sp == DT_NOW) {
        int64_t local = timestamptz_to_local(timestamp_now(), tz_session_zone());
        return local - (int64_t)date_from_timestamp(local) * USECS_PER_DAY;
    }
    if (sp != DT_NONE)
        dt_raise(DT_SYNTAX, "time", s, len);
    return ((int64_t)p.hour * 3600 + p.min * 60 + p.sec) * USECS_PER_SEC + p.usec;
}

size_t time_format(int64_t t, char *buf)
{
    return dt_format_hms(t / USECS_PER_SEC, (int)(t % USECS_PER_SEC), buf);
}
