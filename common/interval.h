/*
 * interval.h — PostgreSQL's interval: months, days and microseconds kept
 * apart (types.h's Interval, stored as a 16-byte StrRef blob), its input
 * formats, its output in IntervalStyle postgres / iso_8601, and the
 * arithmetic that date/time functions need.
 *
 * Input (PostgreSQL's DecodeInterval and DecodeISO8601Interval):
 *   '1 day 2 hours', '1 year 2 mons 3 days 04:05:06.5', '-1 days +02:03',
 *   '@ 1 hour ago' (ago negates), '1.5 days' (fractions spill down:
 *   '1.5 months' = 1 mon 15 days), abbreviations (y, mon, w, d, h, m, s,
 *   ms, us, yrs, mins, secs ...), '10' (seconds), SQL standard '1-2'
 *   (1 year 2 mons) and '1 2:03:04' (days then time), ISO 8601
 *   'P1Y2M3DT4H5M6S', 'PT1.5H', 'P1W' and 'P0001-02-03T04:05:06'.
 * Errors: 22007 invalid input syntax for type interval: "x", 22015
 *   interval field value out of range: "x"; 22008 interval out of range.
 * Output in the session's IntervalStyle; postgres: '1 year 2 mons 3 days 04:05:06.5',
 *   '-1 days +02:03:00', '00:00:00'; iso_8601: 'P1Y2M3DT4H5M6.5S', 'PT0S'.
 *   sql_standard: "1-2", "3 4:05:06", "+1-2 +3 +4:05:06"; postgres_verbose:
 *   "@ 1 year 2 mons 3 days 4 hours 5 mins 6.5 secs ago".
 */
#ifndef STRATA_COMMON_INTERVAL_H
#define STRATA_COMMON_INTERVAL_H

#include <stddef.h>

#include "common/arena.h"
#include "common/strbuf.h"
#include "common/types.h"

/* Parse text (typmod ignored: interval field restrictions are not applied). */
StrRef interval_in(const char *s, size_t len, int32_t typmod, MemArena *arena);
Interval interval_parse(const char *s, size_t len);
/* Append the text in the session's IntervalStyle. */
void interval_out(StrRef iv, StrBuf *out);
void interval_format(Interval iv, StrBuf *out);
/* A 16-byte blob for iv in arena. */
StrRef interval_make(Interval iv, MemArena *arena);

/* Arithmetic; each raises 22008 "interval out of range" on overflow. */
Interval interval_add(Interval a, Interval b);
Interval interval_sub(Interval a, Interval b);
Interval interval_neg(Interval a);
/* interval * factor, interval / factor (22012 division by zero), with
 * PostgreSQL's spill of fractional months into days and days into time. */
Interval interval_mul(Interval a, double factor);
Interval interval_div(Interval a, double divisor);
/* justify_hours: 24-hour units of time into days; justify_days: 30-day
 * units into months; justify_interval: both, signs made consistent. */
Interval interval_justify_hours(Interval a);
Interval interval_justify_days(Interval a);
Interval interval_justify(Interval a);

/* timestamp + interval: months first (day clamped to the month's end), then
 * days, then microseconds; 22008 "timestamp out of range". Infinities stay. */
int64_t timestamp_add_interval(int64_t ts, Interval iv);
/* timestamptz + interval: months and days in the session zone's wall clock
 * (so '1 day' across a DST change keeps the local time), then micros. */
int64_t timestamptz_add_interval(int64_t ts, Interval iv);
/* PostgreSQL's timestamp_mi: the difference as days + micros (justify_hours). */
Interval timestamp_diff(int64_t a, int64_t b);

#endif
