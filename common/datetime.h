/*
 * datetime.h — date, timestamp, timestamp with time zone and time with
 * PostgreSQL's input formats, ISO output (DateStyle "ISO, <order>") and
 * errors, plus the session's date/time settings (thread-local).
 *
 * Representation (see types.h): date = int32 days since 2000-01-01;
 * timestamp = int64 microseconds since 2000-01-01 00:00:00. Range as
 * PostgreSQL: dates 4714-11-24 BC .. 5874897-12-31, timestamps
 * 4714-11-24 BC .. 294276-12-31; 'infinity', '-infinity', 'epoch',
 * 'today', 'now' etc. accepted where PostgreSQL accepts them.
 */
#ifndef STRATA_COMMON_DATETIME_H
#define STRATA_COMMON_DATETIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "common/strbuf.h"

/* Raise 22007 (invalid input syntax for type date: "x") or 22008
 * (date/time field value out of range: "x"). */
int32_t date_in(const char *s, size_t len);
void date_out(int32_t date, StrBuf *out);               /* "2013-07-15", "infinity", "0044-03-15 BC" */
int64_t timestamp_in(const char *s, size_t len);
void timestamp_out(int64_t ts, StrBuf *out);            /* "2013-07-15 10:20:30.5" */
/* The same text into buf (at least DATETIME_BUF bytes, NUL added); returns
 * the length. Used by the per-vector output path. */
#define DATETIME_BUF 48
size_t date_format(int32_t date, char *buf);
size_t timestamp_format(int64_t ts, char *buf);

/* Calendar helpers (proleptic Gregorian, as PostgreSQL's date2j/j2date). */
int32_t date_from_ymd(int year, int month, int day);     /* no range check */
void date_to_ymd(int32_t date, int *year, int *month, int *day);
bool date_ymd_valid(int year, int month, int day);
int64_t timestamp_from_date(int32_t date);               /* raises 22008 out of range */
int32_t date_from_timestamp(int64_t ts);                 /* floor to the day */
/* Current transaction time (timestamp) for now()/current_date, microsecond precision. */
int64_t timestamp_now(void);
/* timestamp with time zone: UTC microseconds since 2000-01-01. Input takes
 * the timestamp formats plus a zone ("+05:30", "Z", "EST", "PST8PDT",
 * "America/New_York"); without one, the session's TimeZone applies
 * (PostgreSQL's DST rules: a time in a spring-forward gap is read with the
 * offset before it, an ambiguous one as standard time). Output: ISO in the
 * session's zone, "2013-07-15 10:20:30.5-04", "+05:30" when minutes. */
int64_t timestamptz_in(const char *s, size_t len);
void timestamptz_out(int64_t ts, StrBuf *out);
size_t timestamptz_format(int64_t ts, char *buf);
/* Conversions between UTC instants and wall-clock timestamps of zone z
 * (infinities pass through): timestamptz → timestamp, timestamp →
 * timestamptz, AT TIME ZONE. The session's zone is tz_session_zone(). */
struct TzZone;
int64_t timestamptz_to_local(int64_t ts, const struct TzZone *z);
int64_t timestamp_local_to_tz(int64_t local, const struct TzZone *z);
/* Casts in the session's zone, as PostgreSQL: timestamptz → date (the
 * local day), date → timestamptz (local midnight; 22008 "date out of range
 * for timestamp"), timestamp/timestamptz → time (the local time of day). */
int32_t date_from_timestamptz(int64_t ts);
int64_t timestamptz_from_date(int32_t date);
int64_t time_from_timestamp(int64_t local_ts);
int64_t time_from_timestamptz(int64_t ts);
/* Seconds east of UTC in effect at ts in zone z. */
int32_t timestamptz_offset(int64_t ts, const struct TzZone *z);
/* "+05", "-04:30", "+00:53:28" into buf (16 bytes); returns the length. */
size_t datetime_format_offset(int32_t secs_east, char *buf);

/* Round microseconds to typmod fractional digits (timestamp(p), time(p),
 * interval(p): 0..6; other typmods leave v alone), as PostgreSQL's
 * AdjustTimestampForTypmod: half away from zero. Infinities pass. */
int64_t datetime_round_typmod(int64_t v, int32_t typmod);

/* time without time zone: microseconds since midnight, 0 .. 24:00:00. */
int64_t time_in(const char *s, size_t len);
size_t time_format(int64_t t, char *buf);

/* Session settings that change how text is read and printed, kept per
 * thread (one thread per session): guc.c calls this whenever TimeZone,
 * DateStyle or IntervalStyle change (NULL = leave that one alone). */
typedef enum DateOrder { DATE_ORDER_MDY, DATE_ORDER_DMY, DATE_ORDER_YMD } DateOrder;
typedef enum IntervalStyle {
    INTERVAL_STYLE_POSTGRES,
    INTERVAL_STYLE_VERBOSE,
    INTERVAL_STYLE_SQL,
    INTERVAL_STYLE_ISO,
} IntervalStyle;
void datetime_apply_settings(const char *timezone, const char *datestyle,
                             const char *intervalstyle);
DateOrder datetime_date_order(void);
IntervalStyle datetime_interval_style(void);

/* Pin timestamp_now() for this thread (the protocol layer sets the transaction's
 * start time; 0 = read the clock on every call). Times are UTC (TimeZone). */
void datetime_set_xact_time(int64_t ts);
/* The calling thread's date/time settings (time zone, DateStyle order,
 * IntervalStyle, transaction time), so a parallel worker thread can take
 * its session's: save on the session's thread, restore on the worker's. */
typedef struct DateTimeThreadState {
    const void *zone;         /* const TzZone * */
    int order, interval_style;
    int64_t xact_time;
} DateTimeThreadState;
void datetime_thread_state_save(DateTimeThreadState *st);
void datetime_thread_state_restore(const DateTimeThreadState *st);

#endif
