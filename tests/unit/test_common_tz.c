/*
 * test_common_tz.c — timestamp with time zone, time, DateStyle field orders
 * and the TZif reader: every expected text below was printed by PostgreSQL
 * 15 (initdb --locale=C) for the same input under the same TimeZone
 * (UTC, America/New_York, Europe/Berlin, Asia/Kolkata), including the DST
 * gaps and overlaps of 2021 and instants past the tzdata tables (2050+,
 * read from the footer rule).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "common/arena.h"
#include "common/datetime.h"
#include "common/error.h"
#include "common/strbuf.h"
#include "common/typio.h"
#include "common/interval.h"
#include "common/tz.h"

#include "pgcase_fixture.h"   /* PgCase, run_cases */

static const PgCase tz_cases[] = {
    {"UTC", "timestamptz", "2013-07-15 10:20:30.5", "OK\0112013-07-15 10:20:30.5+00"},
    {"UTC", "timestamptz", "2013-01-15 10:20:30", "OK\0112013-01-15 10:20:30+00"},
    {"UTC", "timestamptz", "2013-07-15", "OK\0112013-07-15 00:00:00+00"},
    {"UTC", "timestamptz", "2013-07-15 10:20:30+02", "OK\0112013-07-15 08:20:30+00"},
    {"UTC", "timestamptz", "2013-07-15 10:20:30-05:30", "OK\0112013-07-15 15:50:30+00"},
    {"UTC", "timestamptz", "2013-07-15T10:20:30Z", "OK\0112013-07-15 10:20:30+00"},
    {"UTC", "timestamptz", "2013-07-15 10:20:30 UTC", "OK\0112013-07-15 10:20:30+00"},
    {"UTC", "timestamptz", "2013-07-15 10:20:30 EST", "OK\0112013-07-15 15:20:30+00"},
    {"UTC", "timestamptz", "2013-07-15 10:20:30 America/New_York", "OK\0112013-07-15 14:20:30+00"},
    {"UTC", "timestamptz", "2013-07-15 10:20:30 europe/berlin", "OK\0112013-07-15 08:20:30+00"},
    {"UTC", "timestamptz", "infinity", "OK\011infinity"},
    {"UTC", "timestamptz", "-infinity", "OK\011-infinity"},
    {"UTC", "timestamptz", "epoch", "OK\0111970-01-01 00:00:00+00"},
    {"UTC", "timestamptz", "2021-03-14 02:30:00", "OK\0112021-03-14 02:30:00+00"},
    {"UTC", "timestamptz", "2021-03-14 01:59:59", "OK\0112021-03-14 01:59:59+00"},
    {"UTC", "timestamptz", "2021-03-14 03:00:00", "OK\0112021-03-14 03:00:00+00"},
    {"UTC", "timestamptz", "2021-11-07 01:30:00", "OK\0112021-11-07 01:30:00+00"},
    {"UTC", "timestamptz", "2021-11-07 00:59:59", "OK\0112021-11-07 00:59:59+00"},
    {"UTC", "timestamptz", "2021-11-07 02:00:00", "OK\0112021-11-07 02:00:00+00"},
    {"UTC", "timestamptz", "2021-03-28 02:30:00", "OK\0112021-03-28 02:30:00+00"},
    {"UTC", "timestamptz", "2021-10-31 02:30:00", "OK\0112021-10-31 02:30:00+00"},
    {"UTC", "timestamptz", "2021-10-31 03:00:00", "OK\0112021-10-31 03:00:00+00"},
    {"UTC", "timestamptz", "1900-01-01 00:00:00", "OK\0111900-01-01 00:00:00+00"},
    {"UTC", "timestamptz", "1850-06-01 12:00", "OK\0111850-06-01 12:00:00+00"},
    {"UTC", "timestamptz", "2050-07-01 12:00", "OK\0112050-07-01 12:00:00+00"},
    {"UTC", "timestamptz", "2100-01-01 00:00", "OK\0112100-01-01 00:00:00+00"},
    {"UTC", "timestamptz", "2200-07-04 12:00", "OK\0112200-07-04 12:00:00+00"},
    {"UTC", "timestamptz", "0044-03-15 12:00 BC", "OK\0110044-03-15 12:00:00+00 BC"},
    {"UTC", "timestamptz", "1000-01-01 00:00:00+00", "OK\0111000-01-01 00:00:00+00"},
    {"UTC", "timestamptz", "1999-12-31 23:59:59.999999", "OK\0111999-12-31 23:59:59.999999+00"},
    {"UTC", "timestamptz", "2013-07-15 10:20:30+15:59", "OK\0112013-07-14 18:21:30+00"},
    {"UTC", "timestamptz", "2013-07-15 10:20:30+16", "ERR\01122009\011time zone displacement out of range: \"2013-07-15 10:20:30+16\""},
    {"UTC", "timestamptz", "2013-02-30 10:00", "ERR\01122008\011date/time field value out of range: \"2013-02-30 10:00\""},
    {"UTC", "timestamptz", "garbage", "ERR\01122007\011invalid input syntax for type timestamp with time zone: \"garbage\""},
    {"UTC", "timestamptz", "2013-07-15 25:00", "ERR\01122008\011date/time field value out of range: \"2013-07-15 25:00\""},
    {"UTC", "timestamptz", "2013-07-15 10:20:30 Mars/Olympus", "ERR\01122023\011time zone \"mars/olympus\" not recognized"},
    {"UTC", "timestamptz", "July 15 2013 10:20 PM", "OK\0112013-07-15 22:20:00+00"},
    {"UTC", "timestamptz", "2013-07-15 10:20:30.123456789", "OK\0112013-07-15 10:20:30.123457+00"},
    {"UTC", "timestamptz", "294276-12-31 23:59:59", "OK\011294276-12-31 23:59:59+00"},
    {"UTC", "timestamptz", "294277-01-01 00:00", "ERR\01122008\011timestamp out of range: \"294277-01-01 00:00\""},
    {"UTC", "timestamptz", "4714-11-24 00:00 BC", "OK\0114714-11-24 00:00:00+00 BC"},
    {"UTC", "timestamptz", "4714-11-23 23:59 BC", "ERR\01122008\011timestamp out of range: \"4714-11-23 23:59 BC\""},
    {"America/New_York", "timestamptz", "2013-07-15 10:20:30.5", "OK\0112013-07-15 10:20:30.5-04"},
    {"America/New_York", "timestamptz", "2013-01-15 10:20:30", "OK\0112013-01-15 10:20:30-05"},
    {"America/New_York", "timestamptz", "2013-07-15", "OK\0112013-07-15 00:00:00-04"},
    {"America/New_York", "timestamptz", "2013-07-15 10:20:30+02", "OK\0112013-07-15 04:20:30-04"},
    {"America/New_York", "timestamptz", "2013-07-15 10:20:30-05:30", "OK\0112013-07-15 11:50:30-04"},
    {"America/New_York", "timestamptz", "2013-07-15T10:20:30Z", "OK\0112013-07-15 06:20:30-04"},
    {"America/New_York", "timestamptz", "2013-07-15 10:20:30 UTC", "OK\0112013-07-15 06:20:30-04"},
    {"America/New_York", "timestamptz", "2013-07-15 10:20:30 EST", "OK\0112013-07-15 11:20:30-04"},
    {"America/New_York", "timestamptz", "2013-07-15 10:20:30 America/New_York", "OK\0112013-07-15 10:20:30-04"},
    {"America/New_York", "timestamptz", "2013-07-15 10:20:30 europe/berlin", "OK\0112013-07-15 04:20:30-04"},
    {"America/New_York", "timestamptz", "infinity", "OK\011infinity"},
    {"America/New_York", "timestamptz", "-infinity", "OK\011-infinity"},
    {"America/New_York", "timestamptz", "epoch", "OK\0111969-12-31 19:00:00-05"},
    {"America/New_York", "timestamptz", "2021-03-14 02:30:00", "OK\0112021-03-14 03:30:00-04"},
    {"America/New_York", "timestamptz", "2021-03-14 01:59:59", "OK\0112021-03-14 01:59:59-05"},
    {"America/New_York", "timestamptz", "2021-03-14 03:00:00", "OK\0112021-03-14 03:00:00-04"},
    {"America/New_York", "timestamptz", "2021-11-07 01:30:00", "OK\0112021-11-07 01:30:00-05"},
    {"America/New_York", "timestamptz", "2021-11-07 00:59:59", "OK\0112021-11-07 00:59:59-04"},
    {"America/New_York", "timestamptz", "2021-11-07 02:00:00", "OK\0112021-11-07 02:00:00-05"},
    {"America/New_York", "timestamptz", "2021-03-28 02:30:00", "OK\0112021-03-28 02:30:00-04"},
    {"America/New_York", "timestamptz", "2021-10-31 02:30:00", "OK\0112021-10-31 02:30:00-04"},
    {"America/New_York", "timestamptz", "2021-10-31 03:00:00", "OK\0112021-10-31 03:00:00-04"},
    {"America/New_York", "timestamptz", "1900-01-01 00:00:00", "OK\0111900-01-01 00:00:00-05"},
    {"America/New_York", "timestamptz", "1850-06-01 12:00", "OK\0111850-06-01 12:00:00-04:56:02"},
    {"America/New_York", "timestamptz", "2050-07-01 12:00", "OK\0112050-07-01 12:00:00-04"},
    {"America/New_York", "timestamptz", "2100-01-01 00:00", "OK\0112100-01-01 00:00:00-05"},
    {"America/New_York", "timestamptz", "2200-07-04 12:00", "OK\0112200-07-04 12:00:00-04"},
    {"America/New_York", "timestamptz", "0044-03-15 12:00 BC", "OK\0110044-03-15 12:00:00-04:56:02 BC"},
    {"America/New_York", "timestamptz", "1000-01-01 00:00:00+00", "OK\0110999-12-31 19:03:58-04:56:02"},
    {"America/New_York", "timestamptz", "1999-12-31 23:59:59.999999", "OK\0111999-12-31 23:59:59.999999-05"},
    {"America/New_York", "timestamptz", "2013-07-15 10:20:30+15:59", "OK\0112013-07-14 14:21:30-04"},
    {"America/New_York", "timestamptz", "2013-07-15 10:20:30+16", "ERR\01122009\011time zone displacement out of range: \"2013-07-15 10:20:30+16\""},
    {"America/New_York", "timestamptz", "2013-02-30 10:00", "ERR\01122008\011date/time field value out of range: \"2013-02-30 10:00\""},
    {"America/New_York", "timestamptz", "garbage", "ERR\01122007\011invalid input syntax for type timestamp with time zone: \"garbage\""},
    {"America/New_York", "timestamptz", "2013-07-15 25:00", "ERR\01122008\011date/time field value out of range: \"2013-07-15 25:00\""},
    {"America/New_York", "timestamptz", "2013-07-15 10:20:30 Mars/Olympus", "ERR\01122023\011time zone \"mars/olympus\" not recognized"},
    {"America/New_York", "timestamptz", "July 15 2013 10:20 PM", "OK\0112013-07-15 22:20:00-04"},
    {"America/New_York", "timestamptz", "2013-07-15 10:20:30.123456789", "OK\0112013-07-15 10:20:30.123457-04"},
    {"America/New_York", "timestamptz", "294276-12-31 23:59:59", "ERR\01122008\011timestamp out of range: \"294276-12-31 23:59:59\""},
    {"America/New_York", "timestamptz", "294277-01-01 00:00", "ERR\01122008\011timestamp out of range: \"294277-01-01 00:00\""},
    {"America/New_York", "timestamptz", "4714-11-24 00:00 BC", "OK\0114714-11-24 00:00:00-04:56:02 BC"},
    {"America/New_York", "timestamptz", "4714-11-23 23:59 BC", "OK\0114714-11-23 23:59:00-04:56:02 BC"},
    {"Europe/Berlin", "timestamptz", "2013-07-15 10:20:30.5", "OK\0112013-07-15 10:20:30.5+02"},
    {"Europe/Berlin", "timestamptz", "2013-01-15 10:20:30", "OK\0112013-01-15 10:20:30+01"},
    {"Europe/Berlin", "timestamptz", "2013-07-15", "OK\0112013-07-15 00:00:00+02"},
    {"Europe/Berlin", "timestamptz", "2013-07-15 10:20:30+02", "OK\0112013-07-15 10:20:30+02"},
    {"Europe/Berlin", "timestamptz", "2013-07-15 10:20:30-05:30", "OK\0112013-07-15 17:50:30+02"},
    {"Europe/Berlin", "timestamptz", "2013-07-15T10:20:30Z", "OK\0112013-07-15 12:20:30+02"},
    {"Europe/Berlin", "timestamptz", "2013-07-15 10:20:30 UTC", "OK\0112013-07-15 12:20:30+02"},
    {"Europe/Berlin", "timestamptz", "2013-07-15 10:20:30 EST", "OK\0112013-07-15 17:20:30+02"},
    {"Europe/Berlin", "timestamptz", "2013-07-15 10:20:30 America/New_York", "OK\0112013-07-15 16:20:30+02"},
    {"Europe/Berlin", "timestamptz", "2013-07-15 10:20:30 europe/berlin", "OK\0112013-07-15 10:20:30+02"},
    {"Europe/Berlin", "timestamptz", "infinity", "OK\011infinity"},
    {"Europe/Berlin", "timestamptz", "-infinity", "OK\011-infinity"},
    {"Europe/Berlin", "timestamptz", "epoch", "OK\0111970-01-01 01:00:00+01"},
    {"Europe/Berlin", "timestamptz", "2021-03-14 02:30:00", "OK\0112021-03-14 02:30:00+01"},
    {"Europe/Berlin", "timestamptz", "2021-03-14 01:59:59", "OK\0112021-03-14 01:59:59+01"},
    {"Europe/Berlin", "timestamptz", "2021-03-14 03:00:00", "OK\0112021-03-14 03:00:00+01"},
    {"Europe/Berlin", "timestamptz", "2021-11-07 01:30:00", "OK\0112021-11-07 01:30:00+01"},
    {"Europe/Berlin", "timestamptz", "2021-11-07 00:59:59", "OK\0112021-11-07 00:59:59+01"},
    {"Europe/Berlin", "timestamptz", "2021-11-07 02:00:00", "OK\0112021-11-07 02:00:00+01"},
    {"Europe/Berlin", "timestamptz", "2021-03-28 02:30:00", "OK\0112021-03-28 03:30:00+02"},
    {"Europe/Berlin", "timestamptz", "2021-10-31 02:30:00", "OK\0112021-10-31 02:30:00+01"},
    {"Europe/Berlin", "timestamptz", "2021-10-31 03:00:00", "OK\0112021-10-31 03:00:00+01"},
    {"Europe/Berlin", "timestamptz", "1900-01-01 00:00:00", "OK\0111900-01-01 00:00:00+01"},
    {"Europe/Berlin", "timestamptz", "1850-06-01 12:00", "OK\0111850-06-01 12:00:00+00:53:28"},
    {"Europe/Berlin", "timestamptz", "2050-07-01 12:00", "OK\0112050-07-01 12:00:00+02"},
    {"Europe/Berlin", "timestamptz", "2100-01-01 00:00", "OK\0112100-01-01 00:00:00+01"},
    {"Europe/Berlin", "timestamptz", "2200-07-04 12:00", "OK\0112200-07-04 12:00:00+02"},
    {"Europe/Berlin", "timestamptz", "0044-03-15 12:00 BC", "OK\0110044-03-15 12:00:00+00:53:28 BC"},
    {"Europe/Berlin", "timestamptz", "1000-01-01 00:00:00+00", "OK\0111000-01-01 00:53:28+00:53:28"},
    {"Europe/Berlin", "timestamptz", "1999-12-31 23:59:59.999999", "OK\0111999-12-31 23:59:59.999999+01"},
    {"Europe/Berlin", "timestamptz", "2013-07-15 10:20:30+15:59", "OK\0112013-07-14 20:21:30+02"},
    {"Europe/Berlin", "timestamptz", "2013-07-15 10:20:30+16", "ERR\01122009\011time zone displacement out of range: \"2013-07-15 10:20:30+16\""},
    {"Europe/Berlin", "timestamptz", "2013-02-30 10:00", "ERR\01122008\011date/time field value out of range: \"2013-02-30 10:00\""},
    {"Europe/Berlin", "timestamptz", "garbage", "ERR\01122007\011invalid input syntax for type timestamp with time zone: \"garbage\""},
    {"Europe/Berlin", "timestamptz", "2013-07-15 25:00", "ERR\01122008\011date/time field value out of range: \"2013-07-15 25:00\""},
    {"Europe/Berlin", "timestamptz", "2013-07-15 10:20:30 Mars/Olympus", "ERR\01122023\011time zone \"mars/olympus\" not recognized"},
    {"Europe/Berlin", "timestamptz", "July 15 2013 10:20 PM", "OK\0112013-07-15 22:20:00+02"},
    {"Europe/Berlin", "timestamptz", "2013-07-15 10:20:30.123456789", "OK\0112013-07-15 10:20:30.123457+02"},
    {"Europe/Berlin", "timestamptz", "294276-12-31 23:59:59", "OK\011294276-12-31 23:59:59+01"},
    {"Europe/Berlin", "timestamptz", "294277-01-01 00:00", "OK\011294277-01-01 00:00:00+01"},
    {"Europe/Berlin", "timestamptz", "4714-11-24 00:00 BC", "ERR\01122008\011timestamp out of range: \"4714-11-24 00:00 BC\""},
    {"Europe/Berlin", "timestamptz", "4714-11-23 23:59 BC", "ERR\01122008\011timestamp out of range: \"4714-11-23 23:59 BC\""},
    {"Asia/Kolkata", "timestamptz", "2013-07-15 10:20:30.5", "OK\0112013-07-15 10:20:30.5+05:30"},
    {"Asia/Kolkata", "timestamptz", "2013-01-15 10:20:30", "OK\0112013-01-15 10:20:30+05:30"},
    {"Asia/Kolkata", "timestamptz", "2013-07-15", "OK\0112013-07-15 00:00:00+05:30"},
    {"Asia/Kolkata", "timestamptz", "2013-07-15 10:20:30+02", "OK\0112013-07-15 13:50:30+05:30"},
    {"Asia/Kolkata", "timestamptz", "2013-07-15 10:20:30-05:30", "OK\0112013-07-15 21:20:30+05:30"},
    {"Asia/Kolkata", "timestamptz", "2013-07-15T10:20:30Z", "OK\0112013-07-15 15:50:30+05:30"},
    {"Asia/Kolkata", "timestamptz", "2013-07-15 10:20:30 UTC", "OK\0112013-07-15 15:50:30+05:30"},
    {"Asia/Kolkata", "timestamptz", "2013-07-15 10:20:30 EST", "OK\0112013-07-15 20:50:30+05:30"},
    {"Asia/Kolkata", "timestamptz", "2013-07-15 10:20:30 America/New_York", "OK\0112013-07-15 19:50:30+05:30"},
    {"Asia/Kolkata", "timestamptz", "2013-07-15 10:20:30 europe/berlin", "OK\0112013-07-15 13:50:30+05:30"},
    {"Asia/Kolkata", "timestamptz", "infinity", "OK\011infinity"},
    {"Asia/Kolkata", "timestamptz", "-infinity", "OK\011-infinity"},
    {"Asia/Kolkata", "timestamptz", "epoch", "OK\0111970-01-01 05:30:00+05:30"},
    {"Asia/Kolkata", "timestamptz", "2021-03-14 02:30:00", "OK\0112021-03-14 02:30:00+05:30"},
    {"Asia/Kolkata", "timestamptz", "2021-03-14 01:59:59", "OK\0112021-03-14 01:59:59+05:30"},
    {"Asia/Kolkata", "timestamptz", "2021-03-14 03:00:00", "OK\0112021-03-14 03:00:00+05:30"},
    {"Asia/Kolkata", "timestamptz", "2021-11-07 01:30:00", "OK\0112021-11-07 01:30:00+05:30"},
    {"Asia/Kolkata", "timestamptz", "2021-11-07 00:59:59", "OK\0112021-11-07 00:59:59+05:30"},
    {"Asia/Kolkata", "timestamptz", "2021-11-07 02:00:00", "OK\0112021-11-07 02:00:00+05:30"},
    {"Asia/Kolkata", "timestamptz", "2021-03-28 02:30:00", "OK\0112021-03-28 02:30:00+05:30"},
    {"Asia/Kolkata", "timestamptz", "2021-10-31 02:30:00", "OK\0112021-10-31 02:30:00+05:30"},
    {"Asia/Kolkata", "timestamptz", "2021-10-31 03:00:00", "OK\0112021-10-31 03:00:00+05:30"},
    {"Asia/Kolkata", "timestamptz", "1900-01-01 00:00:00", "OK\0111900-01-01 00:00:00+05:21:10"},
    {"Asia/Kolkata", "timestamptz", "1850-06-01 12:00", "OK\0111850-06-01 12:00:00+05:53:28"},
    {"Asia/Kolkata", "timestamptz", "2050-07-01 12:00", "OK\0112050-07-01 12:00:00+05:30"},
    {"Asia/Kolkata", "timestamptz", "2100-01-01 00:00", "OK\0112100-01-01 00:00:00+05:30"},
    {"Asia/Kolkata", "timestamptz", "2200-07-04 12:00", "OK\0112200-07-04 12:00:00+05:30"},
    {"Asia/Kolkata", "timestamptz", "0044-03-15 12:00 BC", "OK\0110044-03-15 12:00:00+05:53:28 BC"},
    {"Asia/Kolkata", "timestamptz", "1000-01-01 00:00:00+00", "OK\0111000-01-01 05:53:28+05:53:28"},
    {"Asia/Kolkata", "timestamptz", "1999-12-31 23:59:59.999999", "OK\0111999-12-31 23:59:59.999999+05:30"},
    {"Asia/Kolkata", "timestamptz", "2013-07-15 10:20:30+15:59", "OK\0112013-07-14 23:51:30+05:30"},
    {"Asia/Kolkata", "timestamptz", "2013-07-15 10:20:30+16", "ERR\01122009\011time zone displacement out of range: \"2013-07-15 10:20:30+16\""},
    {"Asia/Kolkata", "timestamptz", "2013-02-30 10:00", "ERR\01122008\011date/time field value out of range: \"2013-02-30 10:00\""},
    {"Asia/Kolkata", "timestamptz", "garbage", "ERR\01122007\011invalid input syntax for type timestamp with time zone: \"garbage\""},
    {"Asia/Kolkata", "timestamptz", "2013-07-15 25:00", "ERR\01122008\011date/time field value out of range: \"2013-07-15 25:00\""},
    {"Asia/Kolkata", "timestamptz", "2013-07-15 10:20:30 Mars/Olympus", "ERR\01122023\011time zone \"mars/olympus\" not recognized"},
    {"Asia/Kolkata", "timestamptz", "July 15 2013 10:20 PM", "OK\0112013-07-15 22:20:00+05:30"},
    {"Asia/Kolkata", "timestamptz", "2013-07-15 10:20:30.123456789", "OK\0112013-07-15 10:20:30.123457+05:30"},
    {"Asia/Kolkata", "timestamptz", "294276-12-31 23:59:59", "OK\011294276-12-31 23:59:59+05:30"},
    {"Asia/Kolkata", "timestamptz", "294277-01-01 00:00", "OK\011294277-01-01 00:00:00+05:30"},
    {"Asia/Kolkata", "timestamptz", "4714-11-24 00:00 BC", "ERR\01122008\011timestamp out of range: \"4714-11-24 00:00 BC\""},
    {"Asia/Kolkata", "timestamptz", "4714-11-23 23:59 BC", "ERR\01122008\011timestamp out of range: \"4714-11-23 23:59 BC\""},
    {"America/New_York", "timestamp", "2013-07-15 10:20:30+02", "OK\0112013-07-15 10:20:30"},
    {"UTC", "time", "10:20:30", "OK\01110:20:30"},
    {"UTC", "time", "10:20", "OK\01110:20:00"},
    {"UTC", "time", "23:59:59.999999", "OK\01123:59:59.999999"},
    {"UTC", "time", "24:00:00", "OK\01124:00:00"},
    {"UTC", "time", "24:00:01", "ERR\01122008\011date/time field value out of range: \"24:00:01\""},
    {"UTC", "time", "10:20:30.5 PM", "OK\01122:20:30.5"},
    {"UTC", "time", "2013-07-15 10:20:30", "OK\01110:20:30"},
    {"UTC", "time", "1:2:3", "OK\01101:02:03"},
    {"UTC", "time", "abc", "ERR\01122007\011invalid input syntax for type time: \"abc\""},
    {"UTC", "time", "10:60", "ERR\01122008\011date/time field value out of range: \"10:60\""},
    {"UTC|ISO, DMY", "date", "01/02/2003", "OK\0112003-02-01"},
    {"UTC|ISO, DMY", "date", "01/02/03", "OK\0112003-02-01"},
    {"UTC|ISO, DMY", "date", "2003-01-02", "OK\0112003-01-02"},
    {"UTC|ISO, DMY", "date", "13/02/2003", "OK\0112003-02-13"},
    {"UTC|ISO, DMY", "date", "15-jul-2013", "OK\0112013-07-15"},
    {"UTC|ISO, DMY", "date", "20130715", "OK\0112013-07-15"},
    {"UTC|ISO, DMY", "date", "03/02/01", "OK\0112001-02-03"},
    {"UTC|ISO, YMD", "date", "01/02/2003", "ERR\01122008\011date/time field value out of range: \"01/02/2003\""},
    {"UTC|ISO, YMD", "date", "01/02/03", "OK\0112001-02-03"},
    {"UTC|ISO, YMD", "date", "2003-01-02", "OK\0112003-01-02"},
    {"UTC|ISO, YMD", "date", "13/02/2003", "ERR\01122008\011date/time field value out of range: \"13/02/2003\""},
    {"UTC|ISO, YMD", "date", "15-jul-2013", "OK\0112013-07-15"},
    {"UTC|ISO, YMD", "date", "20130715", "OK\0112013-07-15"},
    {"UTC|ISO, YMD", "date", "03/02/01", "OK\0112003-02-01"},
    {"UTC|ISO, MDY", "date", "01/02/2003", "OK\0112003-01-02"},
    {"UTC|ISO, MDY", "date", "01/02/03", "OK\0112003-01-02"},
    {"UTC|ISO, MDY", "date", "2003-01-02", "OK\0112003-01-02"},
    {"UTC|ISO, MDY", "date", "13/02/2003", "ERR\01122008\011date/time field value out of range: \"13/02/2003\""},
    {"UTC|ISO, MDY", "date", "15-jul-2013", "OK\0112013-07-15"},
    {"UTC|ISO, MDY", "date", "20130715", "OK\0112013-07-15"},
    {"UTC|ISO, MDY", "date", "03/02/01", "OK\0112001-03-02"},
    {"+05:30", "timestamptz", "2013-07-15 10:00+00", "OK\0112013-07-15 04:30:00-05:30"},
    {"-3", "timestamptz", "2013-07-15 10:00+00", "OK\0112013-07-15 07:00:00-03"},
    {"5.5", "timestamptz", "2013-07-15 10:00+00", "OK\0112013-07-15 15:30:00+05:30"},
    {"EST5EDT", "timestamptz", "2013-07-15 10:00+00", "OK\0112013-07-15 06:00:00-04"},
    {"Etc/GMT+5", "timestamptz", "2013-07-15 10:00+00", "OK\0112013-07-15 05:00:00-05"},
};

Test(tz, pg_table)
{
    run_cases(tz_cases, sizeof tz_cases / sizeof tz_cases[0]);
}

Test(tz, offsets_and_rules)
{
    const TzZone *ny = tz_load("america/new_york"), *kol = tz_load("Asia/Kolkata");
    bool dst;
    const char *abbr;
    cr_assert_not_null(ny);
    cr_assert_str_eq(tz_name(ny), "America/New_York");
    cr_assert_eq(tz_load("America/New_York"), ny); /* cached */
    /* 2021-07-01 00:00 UTC: EDT */
    cr_assert_eq(tz_offset_at(ny, 1625097600, &dst, &abbr), -4 * 3600);
    cr_assert(dst);
    cr_assert_str_eq(abbr, "EDT");
    cr_assert_eq(tz_offset_at(ny, 1609459200, &dst, &abbr), -5 * 3600);
    cr_assert_str_eq(abbr, "EST");
    /* 2050-07-01 and 2050-01-01: past the table, from the POSIX rule */
    cr_assert_eq(tz_offset_at(ny, 2524608000 + 181 * 86400, &dst, NULL), -4 * 3600);
    cr_assert_eq(tz_offset_at(ny, 2524608000, &dst, NULL), -5 * 3600);
    cr_assert_eq(tz_offset_at(kol, 1625097600, NULL, NULL), 19800);
    /* local 2021-03-14 02:30 (a gap) reads as EST; 01:30 on 2021-11-07 (twice) as EST */
    cr_assert_eq(tz_offset_for_local(ny, 1615689000), -5 * 3600);
    cr_assert_eq(tz_offset_for_local(ny, 1636248600), -5 * 3600);
    cr_assert_null(tz_load("Mars/Olympus"));
    cr_assert_null(tz_load("../etc/passwd"));
    cr_assert_eq(tz_offset_at(tz_load("-5"), 0, NULL, NULL), -5 * 3600);
}

static const char *fmt_tstz(int64_t ts, char *buf)
{
    timestamptz_format(ts, buf);
    return buf;
}

static int64_t tstz(const char *s)
{
    return timestamptz_in(s, strlen(s));
}

Test(tz, interval_arithmetic_across_dst)
{
    char buf[DATETIME_BUF];
    Interval day = {0, 1, 0}, hours24 = {24 * USECS_PER_HOUR, 0, 0};
    Interval mixed = {USECS_PER_HOUR, 1, 1};
    datetime_apply_settings("America/New_York", "ISO, MDY", "postgres");
    cr_assert_str_eq(fmt_tstz(timestamptz_add_interval(tstz("2021-03-13 12:00"), day), buf),
                     "2021-03-14 12:00:00-04");
    cr_assert_str_eq(fmt_tstz(timestamptz_add_interval(tstz("2021-03-13 12:00"), hours24), buf),
                     "2021-03-14 13:00:00-04");
    cr_assert_str_eq(fmt_tstz(timestamptz_add_interval(tstz("2021-03-13 12:00"), mixed), buf),
                     "2021-04-14 13:00:00-04");
    /* timestamp → timestamptz and back: the session zone's wall clock */
    cr_assert_str_eq(fmt_tstz(timestamp_local_to_tz(timestamp_in("2013-07-15 10:00", 16),
                                                    tz_session_zone()), buf),
                     "2013-07-15 10:00:00-04");
    timestamp_format(timestamptz_to_local(tstz("2013-07-15 10:00+00"), tz_session_zone()), buf);
    cr_assert_str_eq(buf, "2013-07-15 06:00:00");
    datetime_apply_settings("UTC", "ISO, MDY", "postgres");
}

Test(tz, timestamp_plus_interval)
{
    char buf[DATETIME_BUF];
    Interval month = {0, 0, 1}, year = {0, 0, 12};
    timestamp_format(timestamp_add_interval(timestamp_in("2021-01-31 10:00", 16), month), buf);
    cr_assert_str_eq(buf, "2021-02-28 10:00:00");
    timestamp_format(timestamp_add_interval(timestamp_in("2020-02-29", 10), year), buf);
    cr_assert_str_eq(buf, "2021-02-28 00:00:00");
    cr_assert_eq(timestamp_add_interval(TS_NOEND, month), TS_NOEND);
}

Test(tz, now_is_pinned_per_transaction)
{
    int64_t t = tstz("2020-05-05 12:00:00+00");
    char buf[DATETIME_BUF];
    datetime_set_xact_time(t);
    cr_assert_eq(tstz("now"), t);
    datetime_apply_settings("Asia/Kolkata", "ISO, MDY", "postgres");
    timestamp_format(timestamp_in("now", 3), buf);
    cr_assert_str_eq(buf, "2020-05-05 17:30:00");
    cr_assert_str_eq(fmt_tstz(tstz("today"), buf), "2020-05-05 00:00:00+05:30");
    datetime_apply_settings("UTC", "ISO, MDY", "postgres");
    datetime_set_xact_time(0);
}

Test(tz, session_zone_casts)
{
    char buf[DATETIME_BUF];
    /* PostgreSQL 15, TimeZone Asia/Kolkata */
    datetime_apply_settings("Asia/Kolkata", "ISO, MDY", "postgres");
    date_format(date_from_timestamptz(tstz("2013-07-15 20:00+00")), buf);
    cr_assert_str_eq(buf, "2013-07-16");
    cr_assert_str_eq(fmt_tstz(timestamptz_from_date(date_in("2013-07-15", 10)), buf),
                     "2013-07-15 00:00:00+05:30");
    time_format(time_from_timestamptz(tstz("2013-07-15 20:00+00")), buf);
    cr_assert_str_eq(buf, "01:30:00");
    cr_assert_eq(timestamptz_from_date(DATE_NOEND), TS_NOEND);
    time_format(time_from_timestamp(timestamp_in("2013-07-15 10:20:30.5", 21)), buf);
    cr_assert_str_eq(buf, "10:20:30.5");
    datetime_apply_settings("UTC", "ISO, MDY", "postgres");
}

static const char *in_out(SqlType t, const char *s, StrBuf *sb, MemArena *a)
{
    Value v;
    type_input(t, s, strlen(s), a, &v);
    strbuf_reset(sb);
    type_output(t, &v, NULL, sb);
    return sb->data;
}

Test(tz, typmod_rounding)
{
    MemArena *a = mem_arena_create("t");
    StrBuf sb;
    strbuf_init(&sb);
    /* PostgreSQL 15: timestamp(2), timestamptz(2), time(0), timestamp(1) before 2000 */
    cr_assert_str_eq(in_out((SqlType){TYPE_TIMESTAMP, 2}, "2013-07-15 10:20:30.555555", &sb, a),
                     "2013-07-15 10:20:30.56");
    cr_assert_str_eq(in_out((SqlType){TYPE_TIMESTAMPTZ, 2}, "1999-12-31 23:59:59.999", &sb, a),
                     "2000-01-01 00:00:00+00");
    cr_assert_str_eq(in_out((SqlType){TYPE_TIME, 0}, "10:20:30.5", &sb, a), "10:20:31");
    cr_assert_str_eq(in_out((SqlType){TYPE_TIMESTAMP, 1}, "1960-01-01 00:00:00.55", &sb, a),
                     "1960-01-01 00:00:00.5");
    strbuf_free(&sb);
    mem_arena_destroy(a);
}
