/*
 * tz.h — time zones from the system's tzdata (/usr/share/zoneinfo), read
 * by our own TZif parser (RFC 8536, version 2+ 64-bit data and the POSIX
 * TZ footer rule for instants past the last listed transition).
 *
 * A TzZone is loaded once per process and never freed (a server uses a
 * handful); loading is thread-safe. The session's zone (TimeZone) is a
 * thread-local pointer set by tz_set_session_zone (guc.c calls it whenever
 * TimeZone changes on the session's thread), read by timestamptz input and
 * output.
 *
 * Offsets are seconds EAST of UTC (ISO 8601's sign: New York is -18000).
 */
#ifndef STRATA_COMMON_TZ_H
#define STRATA_COMMON_TZ_H

#include <stdbool.h>
#include <stdint.h>

typedef struct TzZone TzZone;

/* Load a zone by name: "UTC", "GMT", an IANA name ("America/New_York",
 * matched case-insensitively as PostgreSQL does), or a number of hours
 * ("-5", "5.5": SQL sign convention, east positive). NULL when unknown. */
const TzZone *tz_load(const char *name);
/* The zone's canonical name ("America/New_York"). */
const char *tz_name(const TzZone *z);

/* UTC offset (seconds east) in effect at the instant utc_secs (seconds
 * since 1970-01-01 00:00:00 UTC); *is_dst and *abbrev when not NULL. */
int32_t tz_offset_at(const TzZone *z, int64_t utc_secs, bool *is_dst, const char **abbrev);
/* The offset to apply to a local wall-clock time (seconds since 1970-01-01
 * in local time) to get UTC, as PostgreSQL's DetermineTimeZoneOffset: in a
 * spring-forward gap the offset before the transition (02:30 → 03:30 DST),
 * in a fall-back overlap the offset after it (standard time). */
int32_t tz_offset_for_local(const TzZone *z, int64_t local_secs);

/* The session's zone for this thread (never NULL: UTC until set). */
const TzZone *tz_session_zone(void);
/* Set this thread's session zone by name; false (and no change) when unknown. */
bool tz_set_session_zone(const char *name);
/* The same by the zone itself (a parallel worker takes its session's). */
void tz_set_session_zone_ptr(const TzZone *z);

#endif
