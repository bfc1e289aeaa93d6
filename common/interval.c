/*
 * interval.c — interval text input (PostgreSQL's postgres, SQL-standard
 * and ISO 8601 forms), output in IntervalStyle postgres / iso_8601, and
 * interval arithmetic with PostgreSQL's rounding and spill rules.
 *
 * Parsing works on a lowercased copy cut at whitespace; each field is a
 * number with an optional unit (attached, '1day', or the next field), a
 * time 'h:m[:s[.f]]', a year-month 'y-m', '@' or 'ago'. Values are
 * accumulated in a wide form (int64 months/days, long double micros
 * fractions rounded once) and checked for overflow at the end.
 */
#include "common/interval.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/datetime.h"
#include "common/error.h"
#include "common/tz.h"

#define DAYS_PER_MONTH 30
#define MONTHS_PER_YEAR 12
#define SECS_PER_DAY 86400
#define IV_FIELD_MAX 64

typedef enum IvErr { IV_OK, IV_SYNTAX, IV_RANGE } IvErr;

/* The sum being built: wide enough that overflow is found after the fact. */
typedef struct IvAcc {
    double months, days, micros;
    unsigned seen; /* units given so far (1 << IvUnit): a repeat is an error */
    bool dup;
} IvAcc;

#define IV_TIME_BITS ((1u << 1) | (1u << 2) | (1u << 3) | (1u << 4) | (1u << 5))

typedef enum IvUnit {
    IV_NONE, IV_MICRO, IV_MILLI, IV_SECOND, IV_MINUTE, IV_HOUR, IV_DAY, IV_WEEK, IV_MONTH,
    IV_YEAR, IV_DECADE, IV_CENTURY, IV_MILLENNIUM
} IvUnit;

static IvUnit iv_unit(const char *w)
{
    static const struct { const char *name; IvUnit u; } units[] = {
        {"us", IV_MICRO}, {"usec", IV_MICRO}, {"usecs", IV_MICRO}, {"microsecond", IV_MICRO},
        {"microseconds", IV_MICRO}, {"microsecon", IV_MICRO}, {"useconds", IV_MICRO},
        {"ms", IV_MILLI}, {"msec", IV_MILLI}, {"msecs", IV_MILLI}, {"millisecond", IV_MILLI},
        {"milliseconds", IV_MILLI}, {"millisecon", IV_MILLI}, {"mseconds", IV_MILLI},
        {"s", IV_SECOND}, {"sec", IV_SECOND}, {"secs", IV_SECOND}, {"second", IV_SECOND},
        {"seconds", IV_SECOND}, {"m", IV_MINUTE}, {"min", IV_MINUTE}, {"mins", IV_MINUTE},
        {"minute", IV_MINUTE}, {"minutes", IV_MINUTE}, {"h", IV_HOUR}, {"hr", IV_HOUR},
        {"hrs", IV_HOUR}, {"hour", IV_HOUR}, {"hours", IV_HOUR}, {"d", IV_DAY},
        {"day", IV_DAY}, {"days", IV_DAY}, {"w", IV_WEEK}, {"week", IV_WEEK},
        {"weeks", IV_WEEK}, {"mon", IV_MONTH}, {"mons", IV_MONTH}, {"month", IV_MONTH},
        {"months", IV_MONTH}, {"y", IV_YEAR}, {"yr", IV_YEAR}, {"yrs", IV_YEAR},
        {"year", IV_YEAR}, {"years", IV_YEAR}, {"dec", IV_DECADE}, {"decs", IV_DECADE},
        {"decade", IV_DECADE}, {"decades", IV_DECADE}, {"c", IV_CENTURY},
        {"cent", IV_CENTURY}, {"century", IV_CENTURY}, {"centuries", IV_CENTURY},
        {"mil", IV_MILLENNIUM}, {"mils", IV_MILLENNIUM}, {"millennium", IV_MILLENNIUM},
        {"millennia", IV_MILLENNIUM},
    };
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strcmp(w, units[i].name) == 0)
            return units[i].u;
    return IV_NONE;
}

/* Add value (with its fraction) in unit u, spilling fractions down as
 * PostgreSQL does: years → months (rounded), months → days, days → time. */
static void iv_add_unit(IvAcc *a, double whole, double frac, IvUnit u)
{
    unsigned bits = 1u << u;
    if (u == IV_SECOND && frac != 0)
        bits |= (1u << IV_MILLI) | (1u << IV_MICRO);
    a->dup |= (a->seen & bits) != 0;
    a->seen |= bits;
    switch (u) {
    case IV_MICRO: a->micros += whole + frac; break;
    case IV_MILLI: a->micros += (whole + frac) * 1000.0; break;
    case IV_SECOND: a->micros += (whole + frac) * 1e6; break;
    case IV_MINUTE: a->micros += (whole + frac) * 60e6; break;
    case IV_HOUR: a->micros += (whole + frac) * 3600e6; break;
    case IV_DAY:
        a->days += whole;
        a->micros += rint(frac * SECS_PER_DAY * 1e6);
        break;
    case IV_WEEK: {
        double d = frac * 7;
        a->days += whole * 7 + trunc(d);
        a->micros += rint((d - trunc(d)) * SECS_PER_DAY * 1e6);
        break;
    }
    case IV_MONTH: {
        double d = frac * DAYS_PER_MONTH;
        a->months += whole;
        a->days += trunc(d);
        a->micros += rint((d - trunc(d)) * SECS_PER_DAY * 1e6);
        break;
    }
    case IV_YEAR: a->months += whole * 12 + rint(frac * 12); break;
    case IV_DECADE: a->months += whole * 120 + rint(frac * 120); break;
    case IV_CENTURY: a->months += whole * 1200 + rint(frac * 1200); break;
    case IV_MILLENNIUM: a->months += whole * 12000 + rint(frac * 12000); break;
    case IV_NONE: break;
    }
}

/* A decimal "[-+]digits[.digits]" of exactly n bytes; false when not one. */
static bool iv_number(const char *s, size_t n, double *whole, double *frac)
{
    char buf[IV_FIELD_MAX];
    double v;
    char *end;
    bool digit = false;
    for (size_t i = 0; i < n; i++) {
        if (isdigit((unsigned char)s[i]))
            digit = true;
        else if (!(s[i] == '.' || ((s[i] == '-' || s[i] == '+') && i == 0)))
            return false;
    }
    if (!digit || n >= sizeof buf)
        return false;
    memcpy(buf, s, n);
    buf[n] = '\0';
    v = strtod(buf, &end);
    if (*end != '\0')
        return false;
    *whole = trunc(v);
    *frac = v - *whole;
    return true;
}

/* "h:m", "h:m:s[.f]", "m:s.f" with an optional sign, into micros. */
static IvErr iv_time(const char *f, IvAcc *a)
{
    double part[3] = {0, 0, 0}, sign = 1;
    int n = 0;
    const char *p = f;
    a->dup |= (a->seen & IV_TIME_BITS) != 0;
    a->seen |= IV_TIME_BITS;
    if (*p == '-' || *p == '+')
        sign = *p++ == '-' ? -1 : 1;
    while (n < 3) {
        char *end;
        if (!isdigit((unsigned char)*p) && *p != '.')
            return IV_SYNTAX;
        part[n++] = strtod(p, &end);
        p = end;
        if (*p != ':')
            break;
        p++;
    }
    if (*p != '\0' || n < 2)
        return IV_SYNTAX;
    if (n == 2 && strchr(f, '.') != NULL) { /* mm:ss.fff */
        if (part[1] >= 60)
            return IV_RANGE;
        a->micros += sign * (part[0] * 60e6 + rint(part[1] * 1e6));
        return IV_OK;
    }
    if (part[1] >= 60 || part[2] >= 60 || part[0] != trunc(part[0]) || part[1] != trunc(part[1]))
        return IV_RANGE;
    a->micros += sign * (part[0] * 3600e6 + part[1] * 60e6 + rint(part[2] * 1e6));
    return IV_OK;
}

/* SQL-standard "y-m". */
static bool iv_year_month(const char *f, IvAcc *a)
{
    double sign = 1, y, m;
    char *end;
    if (*f == '-' || *f == '+')
        sign = *f++ == '-' ? -1 : 1;
    if (!isdigit((unsigned char)*f))
        return false;
    y = strtod(f, &end);
    if (*end != '-' || !isdigit((unsigned char)end[1]))
        return false;
    m = strtod(end + 1, &end);
    if (*end != '\0' || y != trunc(y) || m != trunc(m) || m > 11)
        return false;
    a->dup |= (a->seen & ((1u << IV_YEAR) | (1u << IV_MONTH))) != 0;
    a->seen |= (1u << IV_YEAR) | (1u << IV_MONTH);
    a->months += sign * (y * 12 + m);
    return true;
}

/* ISO 8601 "P..." (designators, or the alternative "PYYYY-MM-DDTHH:MM:SS"). */
static IvErr iv_iso(const char *s, IvAcc *a)
{
    bool in_time = false;
    const char *p = s + 1;
    if (*p == '\0')
        return IV_SYNTAX;
    if (isdigit((unsigned char)p[0]) && strchr(p, '-') != NULL) {
        int y, mo, d, h = 0, mi = 0;
        double sec = 0;
        if (sscanf(p, "%d-%d-%d", &y, &mo, &d) != 3)
            return IV_SYNTAX;
        if ((p = strchr(p, 't')) != NULL && sscanf(p + 1, "%d:%d:%lf", &h, &mi, &sec) < 1)
            return IV_SYNTAX;
        a->months += y * 12.0 + mo;
        a->days += d;
        a->micros += h * 3600e6 + mi * 60e6 + rint(sec * 1e6);
        return IV_OK;
    }
    while (*p) {
        char *end;
        double v, whole;
        IvUnit u;
        if (*p == 't') {
            if (in_time)
                return IV_SYNTAX;
            in_time = true;
            p++;
            continue;
        }
        v = strtod(p, &end);
        if (end == p)
            return IV_SYNTAX;
        p = end;
        switch (*p++) {
        case 'y': u = in_time ? IV_NONE : IV_YEAR; break;
        case 'm': u = in_time ? IV_MINUTE : IV_MONTH; break;
        case 'w': u = in_time ? IV_NONE : IV_WEEK; break;
        case 'd': u = in_time ? IV_NONE : IV_DAY; break;
        case 'h': u = in_time ? IV_HOUR : IV_NONE; break;
        case 's': u = in_time ? IV_SECOND : IV_NONE; break;
        default: u = IV_NONE; break;
        }
        if (u == IV_NONE)
            return IV_SYNTAX;
        whole = trunc(v);
        iv_add_unit(a, whole, v - whole, u);
    }
    return IV_OK;
}

/* One field: number[unit], time, y-m; *pending_num holds a bare number
 * waiting for its unit in the next field. */
static IvErr iv_field(char *f, IvAcc *a, bool *ago, double pend[2], bool *have_pend)
{
    size_t n = strlen(f), k = 0;
    double whole, frac;
    IvUnit u;
    if (*have_pend) {
        if ((u = iv_unit(f)) != IV_NONE) {
            iv_add_unit(a, pend[0], pend[1], u);
            *have_pend = false;
            return IV_OK;
        }
        if (strchr(f, ':') == NULL)
            return IV_SYNTAX;
        iv_add_unit(a, pend[0], pend[1], IV_DAY); /* "1 2:03:04": days, then time */
        *have_pend = false;
    }
    if (strcmp(f, "@") == 0)
        return IV_OK;
    if (strcmp(f, "ago") == 0) {
        *ago = true;
        return IV_OK;
    }
    if (strchr(f, ':') != NULL)
        return iv_time(f, a);
    if (iv_year_month(f, a))
        return IV_OK;
    while (k < n && (isdigit((unsigned char)f[k]) || f[k] == '.' ||
                     (k == 0 && (f[k] == '-' || f[k] == '+'))))
        k++;
    if (k == 0 || !iv_number(f, k, &whole, &frac))
        return iv_unit(f) != IV_NONE ? IV_SYNTAX : IV_SYNTAX;
    if (k == n) {
        pend[0] = whole;
        pend[1] = frac;
        *have_pend = true;
        return IV_OK;
    }
    if ((u = iv_unit(f + k)) == IV_NONE)
        return IV_SYNTAX;
    iv_add_unit(a, whole, frac, u);
    return IV_OK;
}

static IvErr iv_parse(const char *s, size_t len, Interval *out)
{
    char buf[256], *save = NULL;
    IvAcc a = {0, 0, 0, 0, false};
    bool ago = false, have_pend = false, any = false;
    double pend[2] = {0, 0};
    IvErr e;
    while (len > 0 && isspace((unsigned char)*s))
        s++, len--;
    while (len > 0 && isspace((unsigned char)s[len - 1]))
        len--;
    if (len == 0 || len >= sizeof buf)
        return IV_SYNTAX;
    for (size_t i = 0; i < len; i++)
        buf[i] = (char)tolower((unsigned char)s[i]);
    buf[len] = '\0';
    if (strlen(buf) != len)
        return IV_SYNTAX;
    if (buf[0] == 'p') {
        if ((e = iv_iso(buf, &a)) != IV_OK)
            return e;
    } else {
        for (char *f = strtok_r(buf, " \t\n\r\v\f", &save); f;
             f = strtok_r(NULL, " \t\n\r\v\f", &save)) {
            if ((e = iv_field(f, &a, &ago, pend, &have_pend)) != IV_OK)
                return e;
            any = true;
        }
        if (!any)
            return IV_SYNTAX;
        if (have_pend)
            iv_add_unit(&a, pend[0], pend[1], IV_SECOND); /* a bare number is seconds */
    }
    if (a.dup || (ago && a.seen == 0))
        return IV_SYNTAX;
    if (ago) {
        a.months = -a.months;
        a.days = -a.days;
        a.micros = -a.micros;
    }
    a.micros = rint(a.micros);
    if (a.months > INT32_MAX || a.months < INT32_MIN || a.days > INT32_MAX ||
        a.days < INT32_MIN || fabs(a.micros) >= 9.2233720368547758e18)
        return IV_RANGE;
    out->months = (int32_t)a.months;
    out->days = (int32_t)a.days;
    out->micros = (int64_t)a.micros;
    return IV_OK;
}

Interval interval_parse(const char *s, size_t len)
{
    Interval iv = {0, 0, 0};
    IvErr e = iv_parse(s, len, &iv);
    if (e == IV_RANGE)
        err_raise(ERRCODE_INTERVAL_FIELD_OVERFLOW,
                  "interval field value out of range: \"%.*s\"", (int)len, s);
    if (e != IV_OK)
        err_raise(ERRCODE_INVALID_DATETIME_FORMAT, "invalid input syntax for type interval: \"%.*s\"",
                  (int)len, s);
    return iv;
}

StrRef interval_make(Interval iv, MemArena *arena)
{
    return interval_put(iv, mem_alloc(arena, INTERVAL_SIZE));
}

StrRef interval_in(const char *s, size_t len, int32_t typmod, MemArena *arena)
{
    (void)typmod;
    return interval_make(interval_parse(s, len), arena);
}

/* ---- output ---- */

/* AppendSeconds: "SS[.ffffff]" without trailing zeros; sec and usec >= 0. */
static void iv_seconds(StrBuf *out, int64_t sec, int64_t usec, bool pad)
{
    strbuf_printf(out, pad ? "%02lld" : "%lld", (long long)sec);
    if (usec != 0) {
        char frac[8];
        int n = snprintf(frac, sizeof frac, "%06lld", (long long)usec);
        while (n > 0 && frac[n - 1] == '0')
            n--;
        strbuf_printf(out, ".%.*s", n, frac);
    }
}

static void iv_postgres_part(StrBuf *out, int64_t v, const char *unit, bool *is_zero,
                             bool *is_before)
{
    if (v == 0)
        return;
    strbuf_printf(out, "%s%s%lld %s%s", *is_zero ? "" : " ", (*is_before && v > 0) ? "+" : "",
                  (long long)v, unit, v != 1 ? "s" : "");
    *is_before = v < 0;
    *is_zero = false;
}

static void iv_iso_out(StrBuf *out, int64_t year, int64_t mon, int64_t mday, int64_t hour,
                       int64_t min, int64_t sec, int64_t usec)
{
    if (!year && !mon && !mday && !hour && !min && !sec && !usec) {
        strbuf_append_str(out, "PT0S");
        return;
    }
    strbuf_append_char(out, 'P');
    if (year) strbuf_printf(out, "%lldY", (long long)year);
    if (mon) strbuf_printf(out, "%lldM", (long long)mon);
    if (mday) strbuf_printf(out, "%lldD", (long long)mday);
    if (hour || min || sec || usec)
        strbuf_append_char(out, 'T');
    if (hour) strbuf_printf(out, "%lldH", (long long)hour);
    if (min) strbuf_printf(out, "%lldM", (long long)min);
    if (sec || usec) {
        if (sec < 0 || usec < 0)
            strbuf_append_char(out, '-');
        iv_seconds(out, sec < 0 ? -sec : sec, usec < 0 ? -usec : usec, false);
        strbuf_append_char(out, 'S');
    }
}

/* IntervalStyle sql_standard (PostgreSQL's EncodeInterval). */
static void iv_sql_out(StrBuf *out, int64_t year, int64_t mon, int64_t mday, int64_t hour,
                       int64_t min, int64_t sec, int64_t usec)
{
    bool neg = year < 0 || mon < 0 || mday < 0 || hour < 0 || min < 0 || sec < 0 || usec < 0;
    bool pos = year > 0 || mon > 0 || mday > 0 || hour > 0 || min > 0 || sec > 0 || usec > 0;
    bool has_ym = year != 0 || mon != 0;
    bool has_dt = mday != 0 || hour != 0 || min != 0 || sec != 0 || usec != 0;
    bool standard = !(neg && pos) && !(has_ym && has_dt);
    if (neg && standard) {
        strbuf_append_char(out, '-');
        year = -year, mon = -mon, mday = -mday, hour = -hour, min = -min, sec = -sec;
        usec = -usec;
    }
    if (!neg && !pos) {
        strbuf_append_char(out, '0');
    } else if (!standard) {
        char ys = (year < 0 || mon < 0) ? '-' : '+', ds = mday < 0 ? '-' : '+';
        char ss = (hour < 0 || min < 0 || sec < 0 || usec < 0) ? '-' : '+';
        strbuf_printf(out, "%c%lld-%lld %c%lld %c%lld:%02lld:", ys, (long long)llabs(year),
                      (long long)llabs(mon), ds, (long long)llabs(mday), ss,
                      (long long)llabs(hour), (long long)llabs(min));
        iv_seconds(out, llabs(sec), llabs(usec), true);
    } else if (has_ym) {
        strbuf_printf(out, "%lld-%lld", (long long)year, (long long)mon);
    } else if (mday != 0) {
        strbuf_printf(out, "%lld %lld:%02lld:", (long long)mday, (long long)hour, (long long)min);
        iv_seconds(out, sec, usec, true);
    } else {
        strbuf_printf(out, "%lld:%02lld:", (long long)hour, (long long)min);
        iv_seconds(out, sec, usec, true);
    }
}

static void iv_verbose_part(StrBuf *out, int64_t v, const char *unit, bool *is_zero,
                            bool *is_before)
{
    if (v == 0)
        return;
    if (*is_zero) {
        *is_before = v < 0;
        v = llabs(v);
    } else if (*is_before) {
        v = -v;
    }
    strbuf_printf(out, " %lld %s%s", (long long)v, unit, v == 1 ? "" : "s");
    *is_zero = false;
}

/* IntervalStyle postgres_verbose: "@ 1 year 2 mons 3 days 4 hours 5 mins 6.5 secs ago". */
static void iv_verbose_out(StrBuf *out, int64_t year, int64_t mon, int64_t mday, int64_t hour,
                           int64_t min, int64_t sec, int64_t usec)
{
    bool is_zero = true, is_before = false;
    strbuf_append_char(out, '@');
    iv_verbose_part(out, year, "year", &is_zero, &is_before);
    iv_verbose_part(out, mon, "mon", &is_zero, &is_before);
    iv_verbose_part(out, mday, "day", &is_zero, &is_before);
    iv_verbose_part(out, hour, "hour", &is_zero, &is_before);
    iv_verbose_part(out, min, "min", &is_zero, &is_before);
    if (sec != 0 || usec != 0) {
        strbuf_append_char(out, ' ');
        if (sec < 0 || (sec == 0 && usec < 0)) {
            if (is_zero)
                is_before = true;
            else if (!is_before)
                strbuf_append_char(out, '-');
        } else if (is_before) {
            strbuf_append_char(out, '-');
        }
        iv_seconds(out, llabs(sec), llabs(usec), false);
        strbuf_printf(out, " sec%s", (llabs(sec) != 1 || usec != 0) ? "s" : "");
        is_zero = false;
    }
    if (is_zero)
        strbuf_append_str(out, " 0");
    if (is_before)
        strbuf_append_str(out, " ago");
}

void interval_format(Interval iv, StrBuf *out)
{
    int64_t year = iv.months / 12, mon = iv.months % 12, mday = iv.days;
    int64_t t = iv.micros;
    int64_t hour = t / USECS_PER_HOUR, min, sec, usec;
    bool is_zero = true, is_before = false;
    t -= hour * USECS_PER_HOUR;
    min = t / (60 * USECS_PER_SEC);
    t -= min * 60 * USECS_PER_SEC;
    sec = t / USECS_PER_SEC;
    usec = t - sec * USECS_PER_SEC;
    switch (datetime_interval_style()) {
    case INTERVAL_STYLE_ISO: iv_iso_out(out, year, mon, mday, hour, min, sec, usec); return;
    case INTERVAL_STYLE_SQL: iv_sql_out(out, year, mon, mday, hour, min, sec, usec); return;
    case INTERVAL_STYLE_VERBOSE: iv_verbose_out(out, year, mon, mday, hour, min, sec, usec); return;
    case INTERVAL_STYLE_POSTGRES: break;
    }
    iv_postgres_part(out, year, "year", &is_zero, &is_before);
    iv_postgres_part(out, mon, "mon", &is_zero, &is_before);
    iv_postgres_part(out, mday, "day", &is_zero, &is_before);
    if (is_zero || hour != 0 || min != 0 || sec != 0 || usec != 0) {
        bool minus = hour < 0 || min < 0 || sec < 0 || usec < 0;
        strbuf_printf(out, "%s%s%02lld:%02lld:", is_zero ? "" : " ",
                      minus ? "-" : (is_before ? "+" : ""), (long long)(hour < 0 ? -hour : hour),
                      (long long)(min < 0 ? -min : min));
        iv_seconds(out, sec < 0 ? -sec : sec, usec < 0 ? -usec : usec, true);
    }
}

void interval_out(StrRef s, StrBuf *out)
{
    interval_format(interval_get(s), out);
}

/* ---- arithmetic ---- */

static _Noreturn void iv_overflow(void)
{
    err_raise(ERRCODE_DATETIME_FIELD_OVERFLOW, "interval out of range");
}

static int32_t iv_i32(int64_t v)
{
    if (v < INT32_MIN || v > INT32_MAX)
        iv_overflow();
    return (int32_t)v;
}

static int64_t iv_add64(int64_t a, int64_t b)
{
    int64_t r;
    if (__builtin_add_overflow(a, b, &r))
        iv_overflow();
    return r;
}

Interval interval_add(Interval a, Interval b)
{
    Interval r;
    r.months = iv_i32((int64_t)a.months + b.months);
    r.days = iv_i32((int64_t)a.days + b.days);
    r.micros = iv_add64(a.micros, b.micros);
    return r;
}

Interval interval_neg(Interval a)
{
    Interval r;
    if (a.months == INT32_MIN || a.days == INT32_MIN || a.micros == INT64_MIN)
        iv_overflow();
    r.months = -a.months;
    r.days = -a.days;
    r.micros = -a.micros;
    return r;
}

Interval interval_sub(Interval a, Interval b)
{
    Interval r;
    r.months = iv_i32((int64_t)a.months - b.months);
    r.days = iv_i32((int64_t)a.days - b.days);
    if (__builtin_sub_overflow(a.micros, b.micros, &r.micros))
        iv_overflow();
    return r;
}

static double iv_tsround(double j)
{
    return rint(j * 1e6) / 1e6;
}

/* PostgreSQL's interval_mul core; also interval_div with factor = 1/divisor
 * semantics computed by division (as PostgreSQL does) when divide. */
static Interval iv_scale(Interval a, double f, bool divide)
{
    Interval r;
    double m = divide ? a.months / f : a.months * f;
    double d = divide ? a.days / f : a.days * f;
    double month_rem, sec_rem, t;
    if (isnan(m) || m > INT32_MAX || m < INT32_MIN || isnan(d) || d > INT32_MAX || d < INT32_MIN)
        iv_overflow();
    r.months = (int32_t)m;
    r.days = (int32_t)d;
    month_rem = iv_tsround((m - r.months) * DAYS_PER_MONTH);
    sec_rem = iv_tsround((d - r.days + month_rem - (int)month_rem) * SECS_PER_DAY);
    if (fabs(sec_rem) >= SECS_PER_DAY) {
        r.days = iv_i32((int64_t)r.days + (int)(sec_rem / SECS_PER_DAY));
        sec_rem -= (int)(sec_rem / SECS_PER_DAY) * (double)SECS_PER_DAY;
    }
    r.days = iv_i32((int64_t)r.days + (int32_t)month_rem);
    t = rint((divide ? a.micros / f : a.micros * f) + sec_rem * 1e6);
    if (isnan(t) || t >= 9.2233720368547758e18 || t < -9.2233720368547758e18)
        iv_overflow();
    r.micros = (int64_t)t;
    return r;
}

Interval interval_mul(Interval a, double factor)
{
    return iv_scale(a, factor, false);
}

Interval interval_div(Interval a, double divisor)
{
    if (divisor == 0.0)
        err_raise(ERRCODE_DIVISION_BY_ZERO, "division by zero");
    return iv_scale(a, divisor, true);
}

Interval interval_justify_hours(Interval a)
{
    int64_t whole = a.micros / USECS_PER_DAY;
    a.micros -= whole * USECS_PER_DAY;
    a.days = iv_i32((int64_t)a.days + whole);
    if (a.days > 0 && a.micros < 0) {
        a.micros += USECS_PER_DAY;
        a.days--;
    } else if (a.days < 0 && a.micros > 0) {
        a.micros -= USECS_PER_DAY;
        a.days++;
    }
    return a;
}

Interval interval_justify_days(Interval a)
{
    int32_t whole = a.days / DAYS_PER_MONTH;
    a.days -= whole * DAYS_PER_MONTH;
    a.months = iv_i32((int64_t)a.months + whole);
    if (a.months > 0 && a.days < 0) {
        a.days += DAYS_PER_MONTH;
        a.months--;
    } else if (a.months < 0 && a.days > 0) {
        a.days -= DAYS_PER_MONTH;
        a.months++;
    }
    return a;
}

Interval interval_justify(Interval a)
{
    int64_t whole = a.micros / USECS_PER_DAY;
    int32_t wm;
    a.micros -= whole * USECS_PER_DAY;
    a.days = iv_i32((int64_t)a.days + whole);
    wm = a.days / DAYS_PER_MONTH;
    a.days -= wm * DAYS_PER_MONTH;
    a.months = iv_i32((int64_t)a.months + wm);
    if (a.months > 0 && (a.days < 0 || (a.days == 0 && a.micros < 0))) {
        a.days += DAYS_PER_MONTH;
        a.months--;
    } else if (a.months < 0 && (a.days > 0 || (a.days == 0 && a.micros > 0))) {
        a.days -= DAYS_PER_MONTH;
        a.months++;
    }
    if (a.days > 0 && a.micros < 0) {
        a.micros += USECS_PER_DAY;
        a.days--;
    } else if (a.days < 0 && a.micros > 0) {
        a.micros -= USECS_PER_DAY;
        a.days++;
    }
    return a;
}

static _Noreturn void iv_ts_overflow(void)
{
    err_raise(ERRCODE_DATETIME_FIELD_OVERFLOW, "timestamp out of range");
}

/* Months and days added to a wall-clock timestamp (PostgreSQL's steps). */
static int64_t iv_add_calendar(int64_t ts, Interval iv)
{
    int32_t date = date_from_timestamp(ts);
    int64_t time = ts - (int64_t)date * USECS_PER_DAY;
    if (iv.months != 0) {
        int y, m, d;
        int64_t mm;
        static const int mdays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
        date_to_ymd(date, &y, &m, &d);
        mm = (int64_t)y * 12 + (m - 1) + iv.months;
        if (mm / 12 > 300000 || mm / 12 < -5000)
            iv_ts_overflow();
        y = (int)(mm >= 0 ? mm / 12 : -((-mm + 11) / 12));
        m = (int)(mm - (int64_t)y * 12) + 1;
        {
            bool leap = (y % 4 == 0) && ((y % 100 != 0) || (y % 400 == 0));
            int dim = mdays[m - 1] + (m == 2 && leap);
            if (d > dim)
                d = dim;
        }
        date = date_from_ymd(y, m, d);
    }
    if (iv.days != 0)
        date = (int32_t)((int64_t)date + iv.days);
    return (int64_t)date * USECS_PER_DAY + time;
}

static int64_t iv_check_ts(int64_t ts)
{
    /* PostgreSQL's IS_VALID_TIMESTAMP: 4714-11-24 BC .. 294276-12-31 */
    if (ts < INT64_C(-211813488000000000) || ts >= INT64_C(9223371331200000000))
        iv_ts_overflow();
    return ts;
}

int64_t timestamp_add_interval(int64_t ts, Interval iv)
{
    int64_t r;
    if (ts == TS_NOBEGIN || ts == TS_NOEND)
        return ts;
    if (iv.months != 0 || iv.days != 0)
        ts = iv_check_ts(iv_add_calendar(ts, iv));
    if (__builtin_add_overflow(ts, iv.micros, &r))
        iv_ts_overflow();
    return iv_check_ts(r);
}

int64_t timestamptz_add_interval(int64_t ts, Interval iv)
{
    int64_t r;
    if (ts == TS_NOBEGIN || ts == TS_NOEND)
        return ts;
    if (iv.months != 0 || iv.days != 0) {
        const TzZone *z = tz_session_zone();
        int64_t local = iv_check_ts(iv_add_calendar(timestamptz_to_local(ts, z), iv));
        ts = timestamp_local_to_tz(local, z);
    }
    if (__builtin_add_overflow(ts, iv.micros, &r))
        iv_ts_overflow();
    return iv_check_ts(r);
}

Interval timestamp_diff(int64_t a, int64_t b)
{
    Interval r = {0, 0, 0};
    if (a == TS_NOBEGIN || a == TS_NOEND || b == TS_NOBEGIN || b == TS_NOEND)
        err_raise(ERRCODE_DATETIME_FIELD_OVERFLOW, "cannot subtract infinite timestamps");
    if (__builtin_sub_overflow(a, b, &r.micros))
        iv_overflow();
    return interval_justify_hours(r);
}
