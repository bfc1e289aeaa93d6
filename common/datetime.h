/*
 * datetime.h — date and timestamp (without time zone) with PostgreSQL's
 * input formats, ISO output (DateStyle "ISO, MDY") and errors.
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
/* Pin timestamp_now() for this thread (the protocol layer sets the transaction's
 * start time; 0 = read the clock on every call). Times are UTC (TimeZone). */
void datetime_set_xact_time(int64_t ts);

#endif
