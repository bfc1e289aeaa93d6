/*
 * funcs_todate.c — to_timestamp(text, text) and to_date(text, text):
 * reading a date/time through a template, with PostgreSQL 15's rules
 * (formatting.c DCH_from_char / do_to_timestamp):
 *
 *  - outside FX mode, spaces before a field are skipped; a separator or
 *    space in the template matches one separator/space in the input or
 *    nothing; any other template character skips one input character;
 *  - a number field reads as many digits as it can when it is FM or the
 *    next template node is not a digit field, else exactly its width
 *    (22007 "invalid value ... for ...", "source string too short ...");
 *  - YY/YYY/Y years are moved toward 2020, a missing year is 1 BC (year 0)
 *    as PostgreSQL's; AM/PM and HH/HH12 use the 12-hour clock (22007
 *    "hour \"13\" is invalid for the 12-hour clock");
 *  - a field set twice to different values is 22007 "conflicting values";
 *  - out-of-range results are 22008 "date/time field value out of range:
 *    \"input\"". TZH/TZM give the zone, else the session zone applies.
 *
 * Not read: RM, FF1-FF6, IYYY/IW/ID week dates, W/WW/Q (parsed, ignored).
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/datetime.h"
#include "common/error.h"
#include "common/types.h"
#include "common/tz.h"
#include "executor/funcs.h"
#include "executor/kernels_text.h"

typedef enum FcKey {
    FC_NONE, FC_YCOMMA, FC_YYYY, FC_YYY, FC_YY, FC_Y, FC_MM, FC_DDD, FC_DD, FC_D, FC_HH24, FC_HH,
    FC_MI, FC_SSSSS, FC_SSSS, FC_SS, FC_MS, FC_US, FC_AMPM, FC_ADBC, FC_MONTH, FC_MON, FC_DAY,
    FC_DY, FC_J, FC_CC, FC_Q, FC_WW, FC_W, FC_TZH, FC_TZM, FC_TZ, FC_FX,
} FcKey;

/* Longer names first where one is a prefix of another (PostgreSQL's order). */
static const struct { const char *s; FcKey k; int width; bool digit; } fc_keys[] = {
    {"A.D.", FC_ADBC, 0, 0}, {"A.M.", FC_AMPM, 0, 0}, {"AD", FC_ADBC, 0, 0}, {"AM", FC_AMPM, 0, 0},
    {"B.C.", FC_ADBC, 0, 0}, {"BC", FC_ADBC, 0, 0}, {"CC", FC_CC, 2, 1}, {"DAY", FC_DAY, 0, 0},
    {"DDD", FC_DDD, 3, 1}, {"DD", FC_DD, 2, 1}, {"DY", FC_DY, 0, 0}, {"Day", FC_DAY, 0, 0},
    {"Dy", FC_DY, 0, 0}, {"D", FC_D, 1, 1}, {"FX", FC_FX, 0, 0}, {"HH24", FC_HH24, 2, 1},
    {"HH12", FC_HH, 2, 1}, {"HH", FC_HH, 2, 1}, {"J", FC_J, 1, 1}, {"MI", FC_MI, 2, 1},
    {"MM", FC_MM, 2, 1}, {"MONTH", FC_MONTH, 0, 0}, {"MON", FC_MON, 0, 0}, {"MS", FC_MS, 3, 1},
    {"Month", FC_MONTH, 0, 0}, {"Mon", FC_MON, 0, 0}, {"OF", FC_TZ, 0, 0}, {"P.M.", FC_AMPM, 0, 0},
    {"PM", FC_AMPM, 0, 0}, {"Q", FC_Q, 1, 1}, {"SSSSS", FC_SSSSS, 5, 1}, {"SSSS", FC_SSSS, 4, 1},
    {"SS", FC_SS, 2, 1}, {"TZH", FC_TZH, 2, 0}, {"TZM", FC_TZM, 2, 1}, {"TZ", FC_TZ, 0, 0},
    {"US", FC_US, 6, 1}, {"WW", FC_WW, 2, 1}, {"W", FC_W, 1, 1}, {"Y,YYY", FC_YCOMMA, 5, 1},
    {"YYYY", FC_YYYY, 4, 1}, {"YYY", FC_YYY, 3, 1}, {"YY", FC_YY, 2, 1}, {"Y", FC_Y, 1, 1},
    {"a.d.", FC_ADBC, 0, 0}, {"a.m.", FC_AMPM, 0, 0}, {"ad", FC_ADBC, 0, 0}, {"am", FC_AMPM, 0, 0},
    {"b.c.", FC_ADBC, 0, 0}, {"bc", FC_ADBC, 0, 0}, {"cc", FC_CC, 2, 1}, {"day", FC_DAY, 0, 0},
    {"ddd", FC_DDD, 3, 1}, {"dd", FC_DD, 2, 1}, {"dy", FC_DY, 0, 0}, {"d", FC_D, 1, 1},
    {"fx", FC_FX, 0, 0}, {"hh24", FC_HH24, 2, 1}, {"hh12", FC_HH, 2, 1}, {"hh", FC_HH, 2, 1},
    {"j", FC_J, 1, 1}, {"mi", FC_MI, 2, 1}, {"mm", FC_MM, 2, 1}, {"month", FC_MONTH, 0, 0},
    {"mon", FC_MON, 0, 0}, {"ms", FC_MS, 3, 1}, {"of", FC_TZ, 0, 0}, {"p.m.", FC_AMPM, 0, 0},
    {"pm", FC_AMPM, 0, 0}, {"q", FC_Q, 1, 1}, {"sssss", FC_SSSSS, 5, 1}, {"ssss", FC_SSSS, 4, 1},
    {"ss", FC_SS, 2, 1}, {"tz", FC_TZ, 0, 0}, {"us", FC_US, 6, 1}, {"ww", FC_WW, 2, 1},
    {"w", FC_W, 1, 1}, {"y,yyy", FC_YCOMMA, 5, 1}, {"yyyy", FC_YYYY, 4, 1}, {"yyy", FC_YYY, 3, 1},
    {"yy", FC_YY, 2, 1}, {"y", FC_Y, 1, 1},
};

typedef enum FcType { N_ACTION, N_SPACE, N_SEP, N_CHAR, N_END } FcType;

typedef struct FcNode {
    FcType type;
    int key;           /* index into fc_keys for N_ACTION */
    bool fm, th;
    char ch;
} FcNode;

typedef struct Tmfc {
    int year, yysz, bc, mon, mday, ddd, d, hh, clock12, pm, mi, ss, ssss, ms, us, j, cc, tzsign,
        tzh, tzm;
    bool has_tz;
} Tmfc;

static bool is_sep(char c) { return c != '\0' && !isalnum((unsigned char)c) && !((unsigned char)c & 0x80); }

static FcNode *fc_parse(StrRef fmt, MemArena *arena)
{
    FcNode *nodes = mem_alloc(arena, sizeof(FcNode) * (fmt.len + 1)), *n = nodes;
    const char *p = fmt.ptr, *end = fmt.ptr + fmt.len;
    while (p < end) {
        bool fm = false;
        if (end - p >= 2 && (memcmp(p, "FM", 2) == 0 || memcmp(p, "fm", 2) == 0)) fm = true, p += 2;
        size_t k, nk = sizeof fc_keys / sizeof fc_keys[0];
        for (k = 0; k < nk; k++) {
            size_t l = strlen(fc_keys[k].s);
            if ((size_t)(end - p) >= l && memcmp(p, fc_keys[k].s, l) == 0) break;
        }
        if (k < nk) {
            p += strlen(fc_keys[k].s);
            *n = (FcNode){N_ACTION, (int)k, fm, false, 0};
            if (end - p >= 2 && (memcmp(p, "TH", 2) == 0 || memcmp(p, "th", 2) == 0)) n->th = true, p += 2;
            n++;
            continue;
        }
        if (fm) continue;
        if (*p == '"') {
            for (p++; p < end && *p != '"'; p++) {
                if (*p == '\\' && p + 1 < end) p++;
                *n++ = (FcNode){N_CHAR, 0, false, false, *p};
                p += txt_char_at((StrRef){p, (uint32_t)(end - p)}, 0) - 1;
            }
            if (p < end) p++;
            continue;
        }
        if (*p == '\\' && p + 1 < end && p[1] == '"') p++;
        FcType t = isspace((unsigned char)*p) ? N_SPACE : is_sep(*p) ? N_SEP : N_CHAR;
        *n++ = (FcNode){t, 0, false, false, *p};
        p += txt_char_at((StrRef){p, (uint32_t)(end - p)}, 0);
    }
    n->type = N_END;
    return nodes;
}

static _Noreturn void fc_error(const char *sqlstate, const char *msg, const char *detail, const char *hint)
{
    ErrorData *e = err_begin(sqlstate);
    err_message(e, "%s", msg);
    if (detail) err_detail(e, "%s", detail);
    if (hint) err_hint(e, "%s", hint);
    err_throw();
}

static void set_int(int *dest, int v, const FcNode *n)
{
    if (*dest != 0 && *dest != v) {
        char m[128];
        snprintf(m, sizeof m, "conflicting values for \"%s\" field in formatting string", fc_keys[n->key].s);
        fc_error(ERRCODE_INVALID_DATETIME_FORMAT, m,
                 "This value contradicts a previous setting for the same field type.", NULL);
    }
    *dest = v;
}

/* is_next_separator: the end and non-digit nodes let a number run long. */
static bool next_is_sep(const FcNode *n)
{
    if (n->th) return true;
    n++;
    if (n->type == N_END) return true;
    if (n->type == N_ACTION) return !fc_keys[n->key].digit;
    return !isdigit((unsigned char)n->ch);
}

/* from_char_parse_int_len; returns characters consumed (*s advanced). */
static int parse_int(int *dest, const char **s, int len, const FcNode *n)
{
    const char *init = *s, *q = *s;
    while (*q && isspace((unsigned char)*q)) q++;
    char copy[16];
    int used = 0;
    while (used < len && q[used]) copy[used] = q[used], used++;
    copy[used] = '\0';
    char m[160], det[160];
    const char *name = fc_keys[n->key].s;
    long v;
    errno = 0;
    if (n->fm || next_is_sep(n)) {
        char *e;
        v = strtol(init, &e, 10);
        *s = e;
    } else {
        if (used < len) {
            snprintf(m, sizeof m, "source string too short for \"%s\" formatting field", name);
            snprintf(det, sizeof det, "Field requires %d characters, but only %d remain.", len, used);
            fc_error(ERRCODE_INVALID_DATETIME_FORMAT, m, det,
                     "If your source string is not fixed-width, try using the \"FM\" modifier.");
        }
        char *last;
        v = strtol(copy, &last, 10);
        int got = (int)(last - copy);
        if (got > 0 && got < len) {
            snprintf(m, sizeof m, "invalid value \"%s\" for \"%s\"", copy, name);
            snprintf(det, sizeof det, "Field requires %d characters, but only %d could be parsed.", len, got);
            fc_error(ERRCODE_INVALID_DATETIME_FORMAT, m, det,
                     "If your source string is not fixed-width, try using the \"FM\" modifier.");
        }
        *s = q + got;
    }
    if (*s == init) {
        snprintf(m, sizeof m, "invalid value \"%s\" for \"%s\"", copy, name);
        fc_error(ERRCODE_INVALID_DATETIME_FORMAT, m, "Value must be an integer.", NULL);
    }
    if (errno == ERANGE || v < INT_MIN || v > INT_MAX) {
        snprintf(m, sizeof m, "value for \"%s\" in source string is out of range", name);
        fc_error(ERRCODE_DATETIME_FIELD_OVERFLOW, m, "Value must be in the range -2147483648 to 2147483647.", NULL);
    }
    if (dest) set_int(dest, (int)v, n);
    return (int)(*s - init);
}

static const char *const months_full[] = {"january", "february", "march", "april", "may", "june",
                                          "july", "august", "september", "october", "november", "december", NULL};
static const char *const days_full[] = {"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", NULL};
static const char *const ampm[] = {"a.m.", "p.m.", "am", "pm", NULL};
static const char *const adbc[] = {"a.d.", "b.c.", "ad", "bc", NULL};

/* from_char_seq_search: case-insensitive; abbrev compares 3 letters. */
static int seq_search(const char **s, const char *const *list, bool abbrev, const FcNode *n)
{
    for (int i = 0; list[i]; i++) {
        size_t l = abbrev ? 3 : strlen(list[i]);
        if (strncasecmp(*s, list[i], l) == 0 && strlen(*s) >= l) {
            *s += l;
            return i;
        }
    }
    char copy[32], m[96];
    size_t l = 0;
    while ((*s)[l] && !isspace((unsigned char)(*s)[l]) && l < (abbrev ? 3 : 9) && l < sizeof copy - 1) l++;
    memcpy(copy, *s, l);
    copy[l] = '\0';
    snprintf(m, sizeof m, "invalid value \"%s\" for \"%s\"", copy, fc_keys[n->key].s);
    fc_error(ERRCODE_INVALID_DATETIME_FORMAT, m,
             "The given value did not match any of the allowed values for this field.", NULL);
}

static int partial_year(int y)
{
    return y < 70 ? y + 2000 : y < 100 ? y + 1900 : y < 520 ? y + 2000 : y < 1000 ? y + 1000 : y;
}

/* One template action at *s. */
static void fc_action(Tmfc *t, const FcNode *n, const char **s, int extra_skip)
{
    FcKey k = fc_keys[n->key].k;
    int w = fc_keys[n->key].width, len, v = 0;
    switch (k) {
    case FC_FX: return;
    case FC_TZ: {
        char m[96];
        snprintf(m, sizeof m, "formatting field \"%s\" is only supported in to_char", fc_keys[n->key].s);
        fc_error(ERRCODE_FEATURE_NOT_SUPPORTED, m, NULL, NULL);
    }
    case FC_AMPM: set_int(&t->pm, seq_search(s, ampm, false, n) % 2 + 1, n); t->clock12 = 1; return;
    case FC_ADBC: set_int(&t->bc, seq_search(s, adbc, false, n) % 2 + 1, n); return;
    case FC_MONTH: case FC_MON:
        set_int(&t->mon, seq_search(s, months_full, k == FC_MON, n) + 1, n);
        return;
    case FC_DAY: case FC_DY: set_int(&t->d, seq_search(s, days_full, k == FC_DY, n) + 1, n); return;
    case FC_YCOMMA: {
        int mil, yrs, nch = 0;
        if (sscanf(*s, "%d,%03d%n", &mil, &yrs, &nch) < 2)
            fc_error(ERRCODE_INVALID_DATETIME_FORMAT, "invalid input string for \"Y,YYY\"", NULL, NULL);
        set_int(&t->year, yrs + mil * 1000, n);
        t->yysz = 4;
        *s += nch;
        break;
    }
    case FC_TZH:
        if (**s == '+' || **s == '-' || **s == ' ') t->tzsign = **s == '-' ? -1 : 1, (*s)++;
        else t->tzsign = extra_skip > 0 && (*s)[-1] == '-' ? -1 : 1;
        parse_int(&t->tzh, s, 2, n);
        t->has_tz = true;
        break;
    case FC_TZM: parse_int(&t->tzm, s, 2, n); t->has_tz = true; break;
    case FC_HH: parse_int(&t->hh, s, w, n); t->clock12 = 1; break;
    case FC_HH24: parse_int(&t->hh, s, w, n); break;
    case FC_MI: parse_int(&t->mi, s, w, n); break;
    case FC_SS: parse_int(&t->ss, s, w, n); break;
    case FC_SSSS: case FC_SSSSS: parse_int(&t->ssss, s, w, n); break;
    case FC_MS:
        len = parse_int(&v, s, 3, n);
        set_int(&t->ms, v * (len == 1 ? 100 : len == 2 ? 10 : 1), n);
        break;
    case FC_US: {
        static const int mul[] = {1, 100000, 10000, 1000, 100, 10, 1};
        len = parse_int(&v, s, 6, n);
        set_int(&t->us, v * mul[len > 6 ? 6 : len], n);
        break;
    }
    case FC_YYYY: parse_int(&t->year, s, w, n); t->yysz = 4; break;
    case FC_YYY: case FC_YY: case FC_Y:
        len = parse_int(&v, s, w, n);
        set_int(&t->year, len < 4 ? partial_year(v) : v, n);
        t->yysz = w;
        break;
    case FC_MM: parse_int(&t->mon, s, w, n); break;
    case FC_DD: parse_int(&t->mday, s, w, n); break;
    case FC_DDD: parse_int(&t->ddd, s, w, n); break;
    case FC_D: parse_int(&t->d, s, w, n); break;
    case FC_J: parse_int(&t->j, s, w, n); break;
    case FC_CC: parse_int(&t->cc, s, w, n); break;
    case FC_Q: case FC_WW: case FC_W: parse_int(NULL, s, w, n); break;
    case FC_NONE: break;
    }
    if (n->th && **s && (*s)[1]) *s += 2;   /* SKIP_THth */
}

/* DCH_from_char: fill t from input s through nodes. */
static void fc_read(Tmfc *t, const FcNode *nodes, const char *s)
{
    bool fx = false;
    int extra_skip = 0;
    for (const FcNode *n = nodes; n->type != N_END && *s; n++) {
        bool is_fx = n->type == N_ACTION && fc_keys[n->key].k == FC_FX;
        if (is_fx) fx = true;
        if (!fx && !is_fx && (n->type == N_ACTION || n == nodes))
            while (*s && isspace((unsigned char)*s)) s++, extra_skip++;
        if (n->type == N_SPACE || n->type == N_SEP) {
            if (!fx) {
                extra_skip--;
                if (isspace((unsigned char)*s) || is_sep(*s)) s++, extra_skip++;
            } else {
                s += txt_char_len((unsigned char)*s);
            }
            continue;
        }
        if (n->type == N_CHAR) {
            if (!fx && extra_skip > 0) extra_skip--;
            else s += txt_char_len((unsigned char)*s);
            continue;
        }
        fc_action(t, n, &s, extra_skip);
    }
}

/* ValidateDate's month/day check for any year (astronomical numbering). */
static bool ymd_valid(int64_t y, int mon, int mday)
{
    static const int mdays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (mon < 1 || mon > 12 || mday < 1) return false;
    bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return mday <= mdays[mon - 1] + (mon == 2 && leap);
}

/* do_to_timestamp: the wall-clock timestamp; *tz_east set when TZH/TZM. */
static int64_t fc_build(Tmfc *t, StrRef input, bool date, bool *has_tz, int32_t *tz_east)
{
    char shown[256];
    snprintf(shown, sizeof shown, "date/time field value out of range: \"%.*s\"", (int)(input.len > 200 ? 200 : input.len), input.ptr);
    int year = 0, mon = 1, mday = 1;
    if (t->year) {
        year = t->year;
        if (t->bc == 2) year = -year;
        if (year < 0) year++;
    } else if (t->cc) {
        year = t->cc >= 0 ? (t->cc - 1) * 100 + 1 : t->cc * 100 + 1;
        if (t->bc == 2) year = -year + 1;
    }
    if (t->mon) mon = t->mon;
    if (t->mday) mday = t->mday;
    int64_t days;
    if (t->j) {
        days = (int64_t)t->j - 2451545;
    } else if (t->ddd && !t->mon && !t->mday) {
        if (t->ddd < 1 || t->ddd > (date_ymd_valid(year, 2, 29) ? 366 : 365))
            fc_error(ERRCODE_DATETIME_FIELD_OVERFLOW, shown, NULL, NULL);
        days = date_from_ymd(year, 1, 1) + t->ddd - 1;
    } else {
        if (!ymd_valid(year, mon, mday)) fc_error(ERRCODE_DATETIME_FIELD_OVERFLOW, shown, NULL, NULL);
        bool julian = (year > -4713 || (year == -4713 && mon >= 11)) &&
                      (year < 5874898 || (year == 5874898 && mon < 6));
        if (!julian && date)
            err_raise(ERRCODE_DATETIME_FIELD_OVERFLOW, "date out of range: \"%.*s\"", (int)input.len, input.ptr);
        if (!julian) err_raise(ERRCODE_DATETIME_FIELD_OVERFLOW, "timestamp out of range");
        days = date_from_ymd(year, mon, mday);
    }
    int hour = t->hh;
    if (t->clock12) {
        if (hour < 1 || hour > 12) {
            char m[96];
            snprintf(m, sizeof m, "hour \"%d\" is invalid for the 12-hour clock", hour);
            fc_error(ERRCODE_INVALID_DATETIME_FORMAT, m, NULL, "Use the 24-hour clock, or give an hour between 1 and 12.");
        }
        if (t->pm == 2 && hour < 12) hour += 12;
        else if (t->pm == 1 && hour == 12) hour = 0;
    }
    int64_t secs = (int64_t)hour * 3600 + (int64_t)t->mi * 60 + t->ss;
    if (t->ssss) secs = t->ssss;
    if (hour < 0 || hour > 24 || t->mi < 0 || t->mi > 59 || t->ss < 0 || t->ss > 60 ||
        (hour == 24 && (t->mi || t->ss || t->ms || t->us)))
        fc_error(ERRCODE_DATETIME_FIELD_OVERFLOW, shown, NULL, NULL);
    *has_tz = t->has_tz;
    *tz_east = t->tzsign * (t->tzh * 3600 + t->tzm * 60);
    int64_t ts = days * USECS_PER_DAY + secs * 1000000 + (int64_t)t->ms * 1000 + t->us;
    if (!date && (ts < INT64_C(-211813488000000000) || ts >= INT64_C(9223371331200000000)))
        err_raise(ERRCODE_DATETIME_FIELD_OVERFLOW, "timestamp out of range");
    return ts;
}

static void todate_kernel(const FuncCallCtx *ctx, Vector *const *args, Vector *result, bool date)
{
    TXT_ARG(args, 0, in, im);
    TXT_ARG(args, 1, fmts, fm);
    const FcNode *nodes = NULL;
    TXT_FOR_ACTIVE_VALID(ctx, result, row) {
        if (!nodes || fm != 0) nodes = fc_parse(fmts[row & fm], ctx->arena);
        StrRef s = in[row & im];
        Tmfc t;
        memset(&t, 0, sizeof t);
        fc_read(&t, nodes, mem_strndup(ctx->arena, s.ptr ? s.ptr : "", s.len));
        bool has_tz;
        int32_t east;
        int64_t local = fc_build(&t, s, date, &has_tz, &east);
        if (date) ((int32_t *)result->data)[row] = (int32_t)(local / USECS_PER_DAY - (local % USECS_PER_DAY < 0));
        else ((int64_t *)result->data)[row] = has_tz ? local - (int64_t)east * 1000000
                                                     : timestamp_local_to_tz(local, tz_session_zone());
    }
}
static void k_to_timestamp(const FuncCallCtx *c, Vector *const *a, Vector *r) { todate_kernel(c, a, r, false); }
static void k_to_date(const FuncCallCtx *c, Vector *const *a, Vector *r) { todate_kernel(c, a, r, true); }

const FuncDesc exec__funcs_todate[] = {
    {"to_timestamp", 2, {TYPE_TEXT, TYPE_TEXT}, TYPE_TIMESTAMPTZ, FUNC_STRICT | FUNC_STABLE, k_to_timestamp, 1778},
    {"to_date", 2, {TYPE_TEXT, TYPE_TEXT}, TYPE_DATE, FUNC_STRICT | FUNC_STABLE, k_to_date, 1780},
};
const int exec__funcs_todate_count = (int)(sizeof exec__funcs_todate / sizeof exec__funcs_todate[0]);
