/*
 * guc.c — run-time settings: one table of parameters with PostgreSQL's
 * names, defaults, SHOW spellings, validation and error texts.
 *
 * A value is always kept as its canonical SHOW text (the same text SHOW and
 * ParameterStatus send), validated and canonicalised on the way in by the
 * parameter's kind (bool, int with units, enum, string, or a special
 * checker). Server defaults live in a static array written only before the
 * server starts its threads; a GucSet is one session's copy, used by one
 * thread, malloc-backed (sessions outlive every arena but the server's).
 *
 * A session keeps two values per parameter, as PostgreSQL: the current one
 * and the reset value (RESET target: the server default, or the value the
 * client sent in its startup packet).
 */
#include "common/guc.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <dirent.h>
#include <sys/stat.h>

#include "common/datetime.h"
#include "common/error.h"
#include "common/tz.h"

typedef enum GucKind { GUC_BOOL, GUC_INT, GUC_ENUM, GUC_STRING } GucKind;

/* How a parameter may change; decides SET's 55P02 message. */
typedef enum GucChange {
    GUC_CHG_USER,      /* SET anywhere */
    GUC_CHG_SIGHUP,    /* config file only: "cannot be changed now" */
    GUC_CHG_RESTART,   /* server start only: "... without restarting the server" */
    GUC_CHG_INTERNAL,  /* never: "cannot be changed" */
} GucChange;

typedef enum GucUnit { GUC_UNIT_NONE, GUC_UNIT_MS, GUC_UNIT_KB } GucUnit;

typedef const char *(*GucCheck)(const char *value, char *buf, size_t size);

typedef struct GucDef {
    const char *name;          /* PostgreSQL's spelling */
    GucKind kind;
    GucChange change;
    const char *boot;          /* built-in default, canonical */
    bool reported;             /* sent in ParameterStatus */
    bool no_show_all;          /* hidden from SHOW ALL, as PostgreSQL */
    int min, max;              /* GUC_INT */
    GucUnit unit;              /* GUC_INT */
    const char *enums;         /* GUC_ENUM: comma-separated canonical values; ~ = hidden from hints */
    GucCheck check;            /* GUC_STRING: canonicalise or NULL = invalid */
    const char *desc;
} GucDef;

static const char *guc_check_encoding(const char *v, char *buf, size_t size);
static const char *guc_check_clean_ascii(const char *v, char *buf, size_t size);
static const char *guc_check_datestyle(const char *v, char *buf, size_t size);
static const char *guc_check_timezone(const char *v, char *buf, size_t size);

#define B(name, chg, boot, rep, desc) {name, GUC_BOOL, chg, boot, rep, false, 0, 0, GUC_UNIT_NONE, NULL, NULL, desc}
#define I(name, chg, boot, lo, hi, unit, desc) {name, GUC_INT, chg, boot, false, false, lo, hi, unit, NULL, NULL, desc}
#define E(name, chg, boot, vals, desc) {name, GUC_ENUM, chg, boot, false, false, 0, 0, GUC_UNIT_NONE, vals, NULL, desc}
#define S(name, chg, boot, rep, check, desc) {name, GUC_STRING, chg, boot, rep, false, 0, 0, GUC_UNIT_NONE, NULL, check, desc}

/* Sorted by name, case-insensitively (SHOW ALL and the ParameterStatus burst use this order). */
static const GucDef guc_defs[] = {
    S("application_name", GUC_CHG_USER, "", true, guc_check_clean_ascii, "Sets the application name to be reported in statistics and logs."),
    I("block_size", GUC_CHG_INTERNAL, "8192", 8192, 8192, GUC_UNIT_NONE, "Shows the size of a disk block."),
    E("bytea_output", GUC_CHG_USER, "hex", "escape,hex", "Sets the output format for bytea."),
    S("client_encoding", GUC_CHG_USER, "UTF8", true, guc_check_encoding, "Sets the client's character set encoding."),
    E("client_min_messages", GUC_CHG_USER, "notice", "debug5,debug4,debug3,debug2,debug1,log,notice,warning,error,~info", "Sets the message levels that are sent to the client."),
    S("DateStyle", GUC_CHG_USER, "ISO, MDY", true, guc_check_datestyle, "Sets the display format for date and time values."),
    E("default_transaction_isolation", GUC_CHG_USER, "read committed", "serializable,repeatable read,read committed,read uncommitted", "Sets the transaction isolation level of each new transaction."),
    B("default_transaction_read_only", GUC_CHG_USER, "off", true, "Sets the default read-only status of new transactions."),
    I("extra_float_digits", GUC_CHG_USER, "1", -15, 3, GUC_UNIT_NONE, "Sets the number of digits displayed for floating-point values."),
    I("idle_in_transaction_session_timeout", GUC_CHG_USER, "0", 0, 2147483647, GUC_UNIT_MS, "Sets the maximum allowed idle time between queries, when in a transaction."),
    B("in_hot_standby", GUC_CHG_INTERNAL, "off", true, "Shows whether hot standby is currently active."),
    B("integer_datetimes", GUC_CHG_INTERNAL, "on", true, "Shows whether datetimes are integer based."),
    {"IntervalStyle", GUC_ENUM, GUC_CHG_USER, "postgres", true, false, 0, 0, GUC_UNIT_NONE, "postgres,postgres_verbose,sql_standard,iso_8601", NULL, "Sets the display format for interval values."},
    {"is_superuser", GUC_BOOL, GUC_CHG_INTERNAL, "on", true, true, 0, 0, GUC_UNIT_NONE, NULL, NULL, "Shows whether the current user is a superuser."},
    S("lc_collate", GUC_CHG_INTERNAL, "C", false, NULL, "Shows the collation order locale."),
    S("lc_ctype", GUC_CHG_INTERNAL, "C", false, NULL, "Shows the character classification and case conversion locale."),
    S("lc_messages", GUC_CHG_USER, "C", false, NULL, "Sets the language in which messages are displayed."),
    S("lc_monetary", GUC_CHG_USER, "C", false, NULL, "Sets the locale for formatting monetary amounts."),
    S("lc_numeric", GUC_CHG_USER, "C", false, NULL, "Sets the locale for formatting numbers."),
    S("lc_time", GUC_CHG_USER, "C", false, NULL, "Sets the locale for formatting date and time values."),
    S("listen_addresses", GUC_CHG_RESTART, "localhost", false, NULL, "Sets the host name or IP address(es) to listen to."),
    I("lock_timeout", GUC_CHG_USER, "0", 0, 2147483647, GUC_UNIT_MS, "Sets the maximum allowed duration of any wait for a lock."),
    I("max_connections", GUC_CHG_RESTART, "100", 1, 262143, GUC_UNIT_NONE, "Sets the maximum number of concurrent connections."),
    I("max_identifier_length", GUC_CHG_INTERNAL, "63", 63, 63, GUC_UNIT_NONE, "Shows the maximum identifier length."),
    I("max_index_keys", GUC_CHG_INTERNAL, "32", 32, 32, GUC_UNIT_NONE, "Shows the maximum number of index keys."),
    I("max_parallel_workers_per_gather", GUC_CHG_USER, "2", 0, 1024, GUC_UNIT_NONE, "Sets the maximum number of parallel processes per executor node."),
    E("password_encryption", GUC_CHG_USER, "scram-sha-256", "md5,scram-sha-256", "Chooses the algorithm for encrypting passwords."),
    I("port", GUC_CHG_RESTART, "5432", 1, 65535, GUC_UNIT_NONE, "Sets the TCP port the server listens on."),
    S("search_path", GUC_CHG_USER, "\"$user\", public", false, NULL, "Sets the schema search order for names that are not schema-qualified."),
    S("server_encoding", GUC_CHG_INTERNAL, "UTF8", true, NULL, "Shows the server (database) character set encoding."),
    S("server_version", GUC_CHG_INTERNAL, "15.0 (Strata 0.1.0)", true, NULL, "Shows the server version."),
    I("server_version_num", GUC_CHG_INTERNAL, "150000", 150000, 150000, GUC_UNIT_NONE, "Shows the server version as an integer."),
    {"session_authorization", GUC_STRING, GUC_CHG_USER, "postgres", true, true, 0, 0, GUC_UNIT_NONE, NULL, NULL, "Sets the session user name."},
    B("ssl", GUC_CHG_SIGHUP, "off", false, "Enables SSL connections."),
    S("ssl_cert_file", GUC_CHG_SIGHUP, "server.crt", false, NULL, "Location of the SSL server certificate file."),
    S("ssl_key_file", GUC_CHG_SIGHUP, "server.key", false, NULL, "Location of the SSL server private key file."),
    B("standard_conforming_strings", GUC_CHG_USER, "on", true, "Causes '...' strings to treat backslashes literally."),
    I("statement_timeout", GUC_CHG_USER, "0", 0, 2147483647, GUC_UNIT_MS, "Sets the maximum allowed duration of any statement."),
    /* Strata's own, hidden from SHOW ALL (a developer setting, as PostgreSQL's
     * debug_ ones): how a parallel aggregation splits its work
     * (executor/parallel.c); auto = by its timed sample. Tests pin a mode. */
    {"strata.parallel_aggregate", GUC_ENUM, GUC_CHG_USER, "auto", false, true, 0, 0, GUC_UNIT_NONE, "auto,morsels,partitioned", NULL, "Sets how parallel aggregations split their rows."},
    E("synchronous_commit", GUC_CHG_USER, "on", "local,remote_write,remote_apply,on,off", "Sets the current transaction's synchronization level."),
    S("TimeZone", GUC_CHG_USER, "UTC", true, guc_check_timezone, "Sets the time zone for displaying and interpreting time stamps."),
    E("transaction_isolation", GUC_CHG_USER, "read committed", "serializable,repeatable read,read committed,read uncommitted", "Sets the current transaction's isolation level."),
    S("unix_socket_directories", GUC_CHG_RESTART, "/tmp", false, NULL, "Sets the directories where Unix-domain sockets will be created."),
    I("work_mem", GUC_CHG_USER, "4MB", 64, 2147483647, GUC_UNIT_KB, "Sets the maximum memory to be used for query workspaces."),
};

#undef B
#undef I
#undef E
#undef S

#define GUC_COUNT ((int)(sizeof guc_defs / sizeof guc_defs[0]))

struct GucSet {
    char *value[GUC_COUNT];
    char *reset[GUC_COUNT];
    int extra_float_digits;     /* cached integer of value[efd] */
    uint64_t generation;        /* bumped by every store (guc_generation) */
};

static char *guc_server[GUC_COUNT]; /* NULL = boot value */

/* Name lookups scan the table with strcasecmp (~2,000 instructions for a
 * name near the end); the hot callers (statement_timeout per Execute,
 * search_path per plan, the isolation settings per transaction) pass the
 * same string literal every time, so a per-thread cache keyed by the name
 * pointer remembers the index found. A hit is confirmed by one strcasecmp,
 * so a reused buffer holding other text just falls back to the scan. */
#define GUC_FIND_CACHE 64
static _Thread_local struct { const char *name; int idx; } guc_find_cache[GUC_FIND_CACHE];

static int guc_find(const char *name)
{
    size_t slot = ((uintptr_t)name >> 3) % GUC_FIND_CACHE;
    if (guc_find_cache[slot].name == name && name != NULL &&
        strcasecmp(guc_defs[guc_find_cache[slot].idx].name, name) == 0)
        return guc_find_cache[slot].idx;
    for (int i = 0; i < GUC_COUNT; i++)
        if (strcasecmp(guc_defs[i].name, name) == 0) {
            guc_find_cache[slot].name = name;
            guc_find_cache[slot].idx = i;
            return i;
        }
    return -1;
}

/* The index of a known parameter, or raise 42704. */
static int guc_lookup(const char *name)
{
    int idx = guc_find(name);
    if (idx < 0)
        err_raise(ERRCODE_UNDEFINED_OBJECT, "unrecognized configuration parameter \"%s\"", name);
    return idx;
}

const char *guc_canonical_name(const char *name)
{
    int idx = guc_find(name);
    return idx < 0 ? NULL : guc_defs[idx].name;
}

static const char *guc_server_value(int idx)
{
    return guc_server[idx] ? guc_server[idx] : guc_defs[idx].boot;
}

/* ---- value checking ---- */

#define GUC_VALUE_MAX 1024

static _Noreturn void guc_invalid(const GucDef *d, const char *value, const char *hint)
{
    ErrorData *e = err_begin(ERRCODE_INVALID_PARAMETER_VALUE);
    err_message(e, "invalid value for parameter \"%s\": \"%s\"", d->name, value);
    if (hint != NULL)
        err_hint(e, "%s", hint);
    err_throw();
}

/* parse_bool: prefixes of true/false/yes/no, on/off (two letters at least), 1/0. */
static bool guc_parse_bool(const char *v, bool *out)
{
    size_t n = strlen(v);
    if (n == 0)
        return false;
    if ((strncasecmp(v, "true", n) == 0 && n <= 4) || (strncasecmp(v, "yes", n) == 0 && n <= 3) ||
        (n >= 2 && n <= 2 && strcasecmp(v, "on") == 0) || strcmp(v, "1") == 0) {
        *out = true;
        return true;
    }
    if ((strncasecmp(v, "false", n) == 0 && n <= 5) || (strncasecmp(v, "no", n) == 0 && n <= 2) ||
        (n >= 2 && n <= 3 && strncasecmp(v, "off", n) == 0) || strcmp(v, "0") == 0) {
        *out = false;
        return true;
    }
    return false;
}

typedef struct GucUnitDef { const char *unit; double mult; } GucUnitDef;

static const GucUnitDef guc_time_units[] = {
    {"d", 86400000.0}, {"h", 3600000.0}, {"min", 60000.0}, {"s", 1000.0}, {"ms", 1.0}, {"us", 0.001},
};
static const GucUnitDef guc_mem_units[] = {
    {"TB", 1024.0 * 1024 * 1024}, {"GB", 1024.0 * 1024}, {"MB", 1024.0}, {"kB", 1.0},
    {"B", 1.0 / 1024},
};

static const char *guc_unit_hint(GucUnit u)
{
    return u == GUC_UNIT_MS
               ? "Valid units for this parameter are \"us\", \"ms\", \"s\", \"min\", \"h\", and \"d\"."
               : "Valid units for this parameter are \"B\", \"kB\", \"MB\", \"GB\", and \"TB\".";
}

/* parse_int: an integer (or a number rounded to one), optionally with a unit. */
static int guc_parse_int(const GucDef *d, const char *v)
{
    char *end;
    double val;
    long lv;
    const GucUnitDef *units = d->unit == GUC_UNIT_MS ? guc_time_units : guc_mem_units;
    size_t nunits = d->unit == GUC_UNIT_MS ? 6 : 5;
    while (isspace((unsigned char)*v))
        v++;
    lv = strtol(v, &end, 0);
    val = (double)lv;
    if (end == v)
        guc_invalid(d, v, NULL);
    if (*end == '.' || *end == 'e' || *end == 'E') {
        val = strtod(v, &end);
        if (end == v)
            guc_invalid(d, v, NULL);
    }
    while (isspace((unsigned char)*end))
        end++;
    if (*end != '\0') {
        size_t i;
        if (d->unit == GUC_UNIT_NONE)
            guc_invalid(d, v, NULL);
        for (i = 0; i < nunits; i++) {
            size_t ul = strlen(units[i].unit);
            if (strncmp(end, units[i].unit, ul) == 0) {
                const char *rest = end + ul;
                while (isspace((unsigned char)*rest))
                    rest++;
                if (*rest == '\0')
                    break;
            }
        }
        if (i == nunits)
            guc_invalid(d, v, guc_unit_hint(d->unit));
        val *= units[i].mult;
    }
    val = rint(val);
    if (isnan(val) || val > 2147483647.0 || val < -2147483648.0)
        guc_invalid(d, v, NULL);
    if (val < d->min || val > d->max)
        err_raise(ERRCODE_INVALID_PARAMETER_VALUE,
                  "%d%s%s is outside the valid range for parameter \"%s\" (%d .. %d)", (int)val,
                  d->unit == GUC_UNIT_NONE ? "" : " ",
                  d->unit == GUC_UNIT_MS ? "ms" : d->unit == GUC_UNIT_KB ? "kB" : "", d->name,
                  d->min, d->max);
    return (int)val;
}

/* SHOW text of an integer: the largest unit dividing it evenly. */
static void guc_format_int(const GucDef *d, int val, char *buf, size_t size)
{
    const GucUnitDef *units = d->unit == GUC_UNIT_MS ? guc_time_units : guc_mem_units;
    size_t nunits = d->unit == GUC_UNIT_MS ? 5 : 4; /* never print in us or B */
    if (d->unit == GUC_UNIT_NONE || val == 0) {
        snprintf(buf, size, "%d", val);
        return;
    }
    for (size_t i = 0; i < nunits; i++) {
        long long m = (long long)units[i].mult;
        if (val % m == 0) {
            snprintf(buf, size, "%lld%s", (long long)val / m, units[i].unit);
            return;
        }
    }
    snprintf(buf, size, "%d", val);
}

static const char *guc_canon_enum(const GucDef *d, const char *v, char *buf, size_t size)
{
    const char *p = d->enums;
    char hint[512] = "Available values: ";
    while (*p) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        const char *word = p[0] == '~' ? p + 1 : p; /* hidden values still match */
        size_t wn = p[0] == '~' ? n - 1 : n;
        if (strlen(v) == wn && strncasecmp(v, word, wn) == 0) {
            snprintf(buf, size, "%.*s", (int)wn, word);
            return buf;
        }
        if (p[0] != '~')
            snprintf(hint + strlen(hint), sizeof hint - strlen(hint), "%s%.*s",
                     p == d->enums ? "" : ", ", (int)n, p);
        p += n + (comma ? 1 : 0);
    }
    strncat(hint, ".", sizeof hint - strlen(hint) - 1);
    guc_invalid(d, v, hint);
}

/* Validate and canonicalise value for parameter d into buf; raises 22023.
 * current: the value being replaced (check functions of parameters with
 * several parts, like DateStyle, receive it in buf), or NULL. */
static const char *guc_canon(const GucDef *d, const char *v, const char *current, char *buf,
                             size_t size)
{
    bool b;
    switch (d->kind) {
    case GUC_BOOL:
        if (!guc_parse_bool(v, &b))
            err_raise(ERRCODE_INVALID_PARAMETER_VALUE, "parameter \"%s\" requires a Boolean value",
                      d->name);
        snprintf(buf, size, "%s", b ? "on" : "off");
        return buf;
    case GUC_INT:
        guc_format_int(d, guc_parse_int(d, v), buf, size);
        return buf;
    case GUC_ENUM:
        return guc_canon_enum(d, v, buf, size);
    case GUC_STRING:
        if (d->check == NULL) {
            snprintf(buf, size, "%s", v);
            return buf;
        }
        snprintf(buf, size, "%s", current ? current : "");
        if (d->check(v, buf, size) == NULL)
            guc_invalid(d, v, NULL);
        return buf;
    }
    return v;
}

/* application_name: PostgreSQL's pg_clean_ascii, every byte outside
 * printable ASCII (any non-ASCII byte, valid UTF-8 or not) becomes '?'. */
static const char *guc_check_clean_ascii(const char *v, char *buf, size_t size)
{
    size_t n = 0;
    for (; *v && n + 1 < size; v++, n++)
        buf[n] = (unsigned char)*v < 32 || (unsigned char)*v > 126 ? '?' : *v;
    buf[n] = '\0';
    return buf;
}

/* client_encoding: Strata speaks UTF8 only (PostgreSQL's spellings of it). */
static const char *guc_check_encoding(const char *v, char *buf, size_t size)
{
    char norm[32];
    size_t n = 0;
    for (; *v && n + 1 < sizeof norm; v++)
        if (isalnum((unsigned char)*v))
            norm[n++] = (char)tolower((unsigned char)*v);
    norm[n] = '\0';
    if (strcmp(norm, "utf8") != 0 && strcmp(norm, "unicode") != 0)
        return NULL;
    snprintf(buf, size, "UTF8");
    return buf;
}

/*
 * DateStyle has two parts, as PostgreSQL's: the output style (only ISO is
 * implemented; others are refused rather than silently ignored) and the
 * field order for ambiguous input (MDY, DMY, YMD; "US"/"NonEuropean" = MDY,
 * "European"/"Euro" = DMY). A part that the new value leaves out keeps its
 * current value, which guc_canon hands over in buf.
 */
static const char *guc_check_datestyle(const char *v, char *buf, size_t size)
{
    char tmp[GUC_VALUE_MAX];
    char *save = NULL;
    const char *order = strstr(buf, "DMY") ? "DMY" : strstr(buf, "YMD") ? "YMD" : "MDY";
    int ntok = 0;
    snprintf(tmp, sizeof tmp, "%s", v);
    for (char *tok = strtok_r(tmp, " ,\t", &save); tok; tok = strtok_r(NULL, " ,\t", &save)) {
        if (strcasecmp(tok, "mdy") == 0 || strcasecmp(tok, "us") == 0 ||
            strcasecmp(tok, "noneuropean") == 0 || strcasecmp(tok, "noneuro") == 0)
            order = "MDY";
        else if (strcasecmp(tok, "dmy") == 0 || strcasecmp(tok, "european") == 0 ||
                 strcasecmp(tok, "euro") == 0)
            order = "DMY";
        else if (strcasecmp(tok, "ymd") == 0)
            order = "YMD";
        else if (strcasecmp(tok, "default") == 0)
            order = "MDY";
        else if (strcasecmp(tok, "iso") != 0)
            return NULL;
        ntok++;
    }
    if (ntok == 0)
        return NULL;
    snprintf(buf, size, "ISO, %s", order);
    return buf;
}

/* Find path component by component under dir, case-insensitively; canonical case out. */
static bool guc_zone_lookup(const char *name, char *out, size_t size)
{
    char path[1024] = "/usr/share/zoneinfo";
    char tmp[GUC_VALUE_MAX];
    char *save = NULL;
    struct stat st;
    out[0] = '\0';
    snprintf(tmp, sizeof tmp, "%s", name);
    for (char *comp = strtok_r(tmp, "/", &save); comp; comp = strtok_r(NULL, "/", &save)) {
        DIR *dir;
        struct dirent *de;
        bool found = false;
        if (comp[0] == '.')
            return false;
        if ((dir = opendir(path)) == NULL)
            return false;
        while ((de = readdir(dir)) != NULL) {
            if (strcasecmp(de->d_name, comp) == 0) {
                found = true;
                snprintf(path + strlen(path), sizeof path - strlen(path), "/%s", de->d_name);
                snprintf(out + strlen(out), size - strlen(out), "%s%s", out[0] ? "/" : "",
                         de->d_name);
                break;
            }
        }
        closedir(dir);
        if (!found)
            return false;
    }
    return out[0] != '\0' && stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* TimeZone: UTC/GMT, a number of hours (SQL sign: '-3', '5.5'; shown as
 * PostgreSQL shows it, "<-03>+03"), a POSIX offset ('+05:30', west
 * positive, kept as written), or a zone known to the system's tzdata. */
static const char *guc_check_timezone(const char *v, char *buf, size_t size)
{
    const char *p = v;
    char *end;
    double hours;
    if (strcasecmp(v, "utc") == 0 || strcasecmp(v, "gmt") == 0) {
        snprintf(buf, size, "%s", strcasecmp(v, "utc") == 0 ? "UTC" : "GMT");
        return buf;
    }
    hours = strtod(v, &end);
    if (end != v && *end == '\0' && (isdigit((unsigned char)v[0]) || strchr("+-.", v[0]))) {
        long secs = lround(fabs(hours) * 3600);
        char off[24];
        if (fabs(hours) > 15)
            return NULL;
        snprintf(off, sizeof off, "%02ld", secs / 3600);
        if (secs % 3600 != 0)
            snprintf(off + strlen(off), sizeof off - strlen(off), ":%02ld", secs % 3600 / 60);
        if (secs % 60 != 0)
            snprintf(off + strlen(off), sizeof off - strlen(off), ":%02ld", secs % 60);
        snprintf(buf, size, hours < 0 ? "<-%s>+%s" : "<+%s>-%s", off, off);
        return buf;
    }
    if (*p == '+' || *p == '-')
        p++;
    if (isdigit((unsigned char)*p)) {
        while (isdigit((unsigned char)*p) || *p == ':')
            p++;
        if (*p == '\0') {
            snprintf(buf, size, "%s", v);
            return buf;
        }
        return NULL;
    }
    if (v[0] == '<' && tz_load(v) != NULL) { /* a value SHOW printed: "<-03>+03" */
        snprintf(buf, size, "%s", v);
        return buf;
    }
    if (v[0] == '\0' || v[0] == '/' || strlen(v) >= 256)
        return NULL;
    /* the file must also be a TZif zone tz.c can read (not zone.tab, say) */
    return guc_zone_lookup(v, buf, size) && tz_load(buf) != NULL ? buf : NULL;
}

/* ---- server defaults and sessions ---- */

static _Noreturn void guc_cannot_change(const GucDef *d)
{
    if (d->change == GUC_CHG_INTERNAL)
        err_raise(ERRCODE_CANT_CHANGE_RUNTIME_PARAM, "parameter \"%s\" cannot be changed", d->name);
    if (d->change == GUC_CHG_RESTART)
        err_raise(ERRCODE_CANT_CHANGE_RUNTIME_PARAM,
                  "parameter \"%s\" cannot be changed without restarting the server", d->name);
    err_raise(ERRCODE_CANT_CHANGE_RUNTIME_PARAM, "parameter \"%s\" cannot be changed now", d->name);
}

static char *guc_strdup(const char *s)
{
    char *p = strdup(s);
    if (p == NULL)
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    return p;
}

void guc_set_server_default(const char *name, const char *value)
{
    int idx = guc_lookup(name);
    char buf[GUC_VALUE_MAX];
    const char *canon;
    if (guc_defs[idx].change == GUC_CHG_INTERNAL)
        guc_cannot_change(&guc_defs[idx]);
    canon = guc_canon(&guc_defs[idx], value, guc_server[idx], buf, sizeof buf);
    char *copy = guc_strdup(canon);
    free(guc_server[idx]);
    guc_server[idx] = copy;
}

static int guc_efd_index(void)
{
    return guc_find("extra_float_digits");
}

/* Refresh the cached fast values, and hand the date/time settings to this
 * thread's datetime/tz state (a session's settings are changed on its own
 * thread, so the thread-locals always follow the current session). */
static void guc_update_cache(GucSet *g)
{
    g->extra_float_digits = atoi(g->value[guc_efd_index()]);
    datetime_apply_settings(g->value[guc_find("TimeZone")], g->value[guc_find("DateStyle")],
                            g->value[guc_find("IntervalStyle")]);
}

GucSet *guc_session_create(void)
{
    GucSet *g = calloc(1, sizeof *g);
    if (g == NULL)
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    for (int i = 0; i < GUC_COUNT; i++) {
        g->value[i] = strdup(guc_server_value(i));
        if (g->value[i] == NULL) {
            guc_session_destroy(g);
            err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
        }
    }
    guc_update_cache(g);
    return g;
}

void guc_session_destroy(GucSet *g)
{
    if (g == NULL)
        return;
    for (int i = 0; i < GUC_COUNT; i++) {
        free(g->value[i]);
        free(g->reset[i]);
    }
    free(g);
}

/* Store a canonical value (validated already); also the reset value when asked. */
static void guc_store(GucSet *g, int idx, const char *canon, bool also_reset)
{
    char *copy = guc_strdup(canon);
    char *rcopy = NULL;
    if (also_reset) {
        rcopy = strdup(canon);
        if (rcopy == NULL) {
            free(copy);
            err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
        }
        free(g->reset[idx]);
        g->reset[idx] = rcopy;
    }
    free(g->value[idx]);
    g->value[idx] = copy;
    g->generation++;
    guc_update_cache(g);
}

static void guc_set_common(GucSet *g, const char *name, const char *value, bool startup,
                           bool internal)
{
    int idx = guc_lookup(name);
    char buf[GUC_VALUE_MAX];
    const char *canon;
    if (!internal && guc_defs[idx].change != GUC_CHG_USER)
        guc_cannot_change(&guc_defs[idx]);
    canon = guc_canon(&guc_defs[idx], value, g->value[idx], buf, sizeof buf);
    guc_store(g, idx, canon, startup);
}

void guc_set(GucSet *g, const char *name, const char *value)
{
    guc_set_common(g, name, value, false, false);
}

void guc_set_startup(GucSet *g, const char *name, const char *value)
{
    guc_set_common(g, name, value, true, false);
}

void guc_set_internal(GucSet *g, const char *name, const char *value)
{
    guc_set_common(g, name, value, true, true);
}

void guc_reset(GucSet *g, const char *name)
{
    int idx = guc_lookup(name);
    if (guc_defs[idx].change != GUC_CHG_USER)
        guc_cannot_change(&guc_defs[idx]);
    guc_store(g, idx, g->reset[idx] ? g->reset[idx] : guc_server_value(idx), false);
}

void guc_reset_all(GucSet *g)
{
    for (int i = 0; i < GUC_COUNT; i++)
        if (guc_defs[i].change == GUC_CHG_USER)
            guc_store(g, i, g->reset[i] ? g->reset[i] : guc_server_value(i), false);
}

const char *guc_show(const GucSet *g, const char *name)
{
    int idx = guc_lookup(name);
    return g ? g->value[idx] : guc_server_value(idx);
}

bool guc_is_reported(const char *name)
{
    int idx = guc_find(name);
    return idx >= 0 && guc_defs[idx].reported;
}

bool guc_reported_at(const GucSet *g, int idx, const char **name, const char **value)
{
    for (int i = 0; i < GUC_COUNT; i++) {
        if (!guc_defs[i].reported)
            continue;
        if (idx-- == 0) {
            *name = guc_defs[i].name;
            *value = g ? g->value[i] : guc_server_value(i);
            return true;
        }
    }
    return false;
}

bool guc_at(const GucSet *g, int idx, const char **name, const char **value,
            const char **description)
{
    for (int i = 0; i < GUC_COUNT; i++) {
        if (guc_defs[i].no_show_all)
            continue;
        if (idx-- == 0) {
            *name = guc_defs[i].name;
            *value = g ? g->value[i] : guc_server_value(i);
            *description = guc_defs[i].desc;
            return true;
        }
    }
    return false;
}

int guc_get_int(const GucSet *g, const char *name)
{
    int idx = guc_lookup(name);
    const char *v = g ? g->value[idx] : guc_server_value(idx);
    ERR_ASSERT(guc_defs[idx].kind == GUC_INT);
    return guc_parse_int(&guc_defs[idx], v);
}

bool guc_get_bool(const GucSet *g, const char *name)
{
    int idx = guc_lookup(name);
    bool b = false;
    ERR_ASSERT(guc_defs[idx].kind == GUC_BOOL);
    guc_parse_bool(g ? g->value[idx] : guc_server_value(idx), &b);
    return b;
}

uint64_t guc_generation(const GucSet *g)
{
    return g ? g->generation : 0;
}

int guc_extra_float_digits(const GucSet *g)
{
    return g ? g->extra_float_digits : atoi(guc_server_value(guc_efd_index()));
}

const char *guc_search_path(const GucSet *g)
{
    return guc_show(g, "search_path");
}
