/*
 * test_common_interval.c — interval input in every form PostgreSQL takes,
 * output in every IntervalStyle (postgres, postgres_verbose, sql_standard,
 * iso_8601), errors, and arithmetic.
 * Expected texts were printed by PostgreSQL 15 for the same inputs.
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

#include "pgcase_fixture.h"   /* PgCase, run_cases */

static const PgCase iv_cases[] = {
    {"UTC", "interval", "1 day 2 hours", "OK\0111 day 02:00:00"},
    {"UTC", "interval", "1 year 2 mons 3 days 04:05:06.5", "OK\0111 year 2 mons 3 days 04:05:06.5"},
    {"UTC", "interval", "-1 days +02:03:00", "OK\011-1 days +02:03:00"},
    {"UTC", "interval", "@ 1 hour ago", "OK\011-01:00:00"},
    {"UTC", "interval", "1-2", "OK\0111 year 2 mons"},
    {"UTC", "interval", "-1-2", "OK\011-1 years -2 mons"},
    {"UTC", "interval", "P1Y2M", "OK\0111 year 2 mons"},
    {"UTC", "interval", "P1Y2M3DT4H5M6S", "OK\0111 year 2 mons 3 days 04:05:06"},
    {"UTC", "interval", "PT1.5H", "OK\01101:30:00"},
    {"UTC", "interval", "P1W", "OK\0117 days"},
    {"UTC", "interval", "P0001-02-03T04:05:06", "OK\0111 year 2 mons 3 days 04:05:06"},
    {"UTC", "interval", "1.5 days", "OK\0111 day 12:00:00"},
    {"UTC", "interval", "1.5 months", "OK\0111 mon 15 days"},
    {"UTC", "interval", "1.5 years", "OK\0111 year 6 mons"},
    {"UTC", "interval", "10", "OK\01100:00:10"},
    {"UTC", "interval", "1:30", "OK\01101:30:00"},
    {"UTC", "interval", "1:30:45.5", "OK\01101:30:45.5"},
    {"UTC", "interval", "01:02.5", "OK\01100:01:02.5"},
    {"UTC", "interval", "1 2:03:04", "OK\0111 day 02:03:04"},
    {"UTC", "interval", "2 weeks", "OK\01114 days"},
    {"UTC", "interval", "3 decades", "OK\01130 years"},
    {"UTC", "interval", "1 century", "OK\011100 years"},
    {"UTC", "interval", "1 millennium", "OK\0111000 years"},
    {"UTC", "interval", "100 ms", "OK\01100:00:00.1"},
    {"UTC", "interval", "100 us", "OK\01100:00:00.0001"},
    {"UTC", "interval", "1.5 hours", "OK\01101:30:00"},
    {"UTC", "interval", "-1.5 hours", "OK\011-01:30:00"},
    {"UTC", "interval", "1 day -02:00:00", "OK\0111 day -02:00:00"},
    {"UTC", "interval", "1 mon -1 day", "OK\0111 mon -1 days"},
    {"UTC", "interval", "1d", "OK\0111 day"},
    {"UTC", "interval", "10s", "OK\01100:00:10"},
    {"UTC", "interval", "5 min", "OK\01100:05:00"},
    {"UTC", "interval", "5 mins", "OK\01100:05:00"},
    {"UTC", "interval", "5m", "OK\01100:05:00"},
    {"UTC", "interval", "1y 2mon", "OK\0111 year 2 mons"},
    {"UTC", "interval", "ago", "ERR\01122007\011invalid input syntax for type interval: \"ago\""},
    {"UTC", "interval", "", "ERR\01122007\011invalid input syntax for type interval: \"\""},
    {"UTC", "interval", "garbage", "ERR\01122007\011invalid input syntax for type interval: \"garbage\""},
    {"UTC", "interval", "1 foo", "ERR\01122007\011invalid input syntax for type interval: \"1 foo\""},
    {"UTC", "interval", "2147483648 days", "ERR\01122015\011interval field value out of range: \"2147483648 days\""},
    {"UTC", "interval", "2147483647 days", "OK\0112147483647 days"},
    {"UTC", "interval", "-2147483648 days", "OK\011-2147483648 days"},
    {"UTC", "interval", "178000000 years", "OK\011178000000 years"},
    {"UTC", "interval", "00:00:00", "OK\01100:00:00"},
    {"UTC", "interval", "0", "OK\01100:00:00"},
    {"UTC", "interval", "-0.000001", "OK\011-00:00:00.000001"},
    {"UTC", "interval", "1 day ago", "OK\011-1 days"},
    {"UTC", "interval", "@ 1 year 2 mons -3 days 4 hours 5 mins 6 secs ago", "OK\011-1 years -2 mons +3 days -04:05:06"},
    {"UTC", "interval", "1 year 1 year", "ERR\01122007\011invalid input syntax for type interval: \"1 year 1 year\""},
    {"UTC", "interval", "+1 day", "OK\0111 day"},
    {"UTC", "interval", "PT0S", "OK\01100:00:00"},
    {"UTC", "interval", "P", "ERR\01122007\011invalid input syntax for type interval: \"P\""},
    {"UTC", "interval", "PT36H", "OK\01136:00:00"},
    {"UTC", "interval", "1 hour 60 minutes", "OK\01102:00:00"},
    {"UTC", "interval", "25:00:00", "OK\01125:00:00"},
    {"UTC", "interval", "0.5 weeks", "OK\0113 days 12:00:00"},
    {"UTC", "interval", "1.25 mons", "OK\0111 mon 7 days 12:00:00"},
    {"UTC", "interval", "-1 day +1 hour", "OK\011-1 days +01:00:00"},
    {"UTC", "interval", "1 day 1 hour ago", "OK\011-1 days -01:00:00"},
    {"UTC", "interval", ".5 seconds", "OK\01100:00:00.5"},
    {"UTC", "interval", "1e3 seconds", "ERR\01122007\011invalid input syntax for type interval: \"1e3 seconds\""},
    {"UTC", "interval", "1 week 2 days", "OK\0119 days"},
    {"UTC", "interval", "12 months", "OK\0111 year"},
    {"UTC", "interval", "13 months", "OK\0111 year 1 mon"},
    {"UTC", "interval", "-13 months", "OK\011-1 years -1 mons"},
    {"UTC", "interval", "1 day 24:00:00", "OK\0111 day 24:00:00"},
    {"UTC", "interval", "4 days 100 hours", "OK\0114 days 100:00:00"},
    {"UTC|ISO, MDY|iso_8601", "interval", "1 year 2 mons 3 days 04:05:06.5", "OK\011P1Y2M3DT4H5M6.5S"},
    {"UTC|ISO, MDY|iso_8601", "interval", "-1 days +02:03:00", "OK\011P-1DT2H3M"},
    {"UTC|ISO, MDY|iso_8601", "interval", "0", "OK\011PT0S"},
    {"UTC|ISO, MDY|iso_8601", "interval", "-1 year -2 mons +3 days -04:05:06", "OK\011P-1Y-2M3DT-4H-5M-6S"},
    {"UTC|ISO, MDY|iso_8601", "interval", "1.5 seconds", "OK\011PT1.5S"},
    {"UTC|ISO, MDY|iso_8601", "interval", "-0.5 seconds", "OK\011PT-0.5S"},
    {"UTC|ISO, MDY|iso_8601", "interval", "P1Y", "OK\011P1Y"},
    {"UTC|ISO, MDY|sql_standard", "interval", "1 year 2 mons 3 days 04:05:06.5", "OK\011+1-2 +3 +4:05:06.5"},
    {"UTC|ISO, MDY|sql_standard", "interval", "-1 days +02:03:00", "OK\011+0-0 -1 +2:03:00"},
    {"UTC|ISO, MDY|sql_standard", "interval", "0", "OK\0110"},
    {"UTC|ISO, MDY|sql_standard", "interval", "-1 year -2 mons +3 days -04:05:06", "OK\011-1-2 +3 -4:05:06"},
    {"UTC|ISO, MDY|sql_standard", "interval", "1.5 seconds", "OK\0110:00:01.5"},
    {"UTC|ISO, MDY|sql_standard", "interval", "-0.5 seconds", "OK\011-0:00:00.5"},
    {"UTC|ISO, MDY|sql_standard", "interval", "P1Y", "OK\0111-0"},
    {"UTC|ISO, MDY|sql_standard", "interval", "1 sec", "OK\0110:00:01"},
    {"UTC|ISO, MDY|sql_standard", "interval", "-1 year -2 mons", "OK\011-1-2"},
    {"UTC|ISO, MDY|sql_standard", "interval", "-1 day -02:00", "OK\011-1 2:00:00"},
    {"UTC|ISO, MDY|sql_standard", "interval", "3 days", "OK\0113 0:00:00"},
    {"UTC|ISO, MDY|sql_standard", "interval", "04:05", "OK\0114:05:00"},
    {"UTC|ISO, MDY|sql_standard", "interval", "-04:05", "OK\011-4:05:00"},
    {"UTC|ISO, MDY|sql_standard", "interval", "1 mon 2 days", "OK\011+0-1 +2 +0:00:00"},
    {"UTC|ISO, MDY|sql_standard", "interval", "1 day ago", "OK\011-1 0:00:00"},
    {"UTC|ISO, MDY|sql_standard", "interval", "@ 1 hour ago", "OK\011-1:00:00"},
    {"UTC|ISO, MDY|sql_standard", "interval", "1 hour 1 sec ago", "OK\011-1:00:01"},
    {"UTC|ISO, MDY|sql_standard", "interval", "-1 sec", "OK\011-0:00:01"},
    {"UTC|ISO, MDY|sql_standard", "interval", "1 year -1 sec", "OK\011+1-0 +0 -0:00:01"},
    {"UTC|ISO, MDY|postgres_verbose", "interval", "1 year 2 mons 3 days 04:05:06.5", "OK\011@ 1 year 2 mons 3 days 4 hours 5 mins 6.5 secs"},
    {"UTC|ISO, MDY|postgres_verbose", "interval", "-1 days +02:03:00", "OK\011@ 1 day -2 hours -3 mins ago"},
    {"UTC|ISO, MDY|postgres_verbose", "interval", "0", "OK\011@ 0"},
    {"UTC|ISO, MDY|postgres_verbose", "interval", "-1 year -2 mons +3 days -04:05:06", "OK\011@ 1 year 2 mons -3 days 4 hours 5 mins 6 secs ago"},
    {"UTC|ISO, MDY|postgres_verbose", "interval", "1.5 seconds", "OK\011@ 1.5 secs"},
    {"UTC|ISO, MDY|postgres_verbose", "interval", "-0.5 seconds", "OK\011@ 0.5 secs ago"},
    {"UTC|ISO, MDY|postgres_verbose", "interval", "P1Y", "OK\011@ 1 year"},
    {"UTC|ISO, MDY|postgres_verbose", "interval", "1 sec", "OK\011@ 1 sec"},
    {"UTC|ISO, MDY|postgres_verbose", "interval", "-1 year -2 mons", "OK\011@ 1 year 2 mons ago"},
    {"UTC|ISO, MDY|postgres_verbose", "interval", "-1 day -02:00", "OK\011@ 1 day 2 hours ago"},
    {"UTC|ISO, MDY|postgres_verbose", "interval", "3 days", "OK\011@ 3 days"},
    {"UTC|ISO, MDY|postgres_verbose", "interval", "04:05", "OK\011@ 4 hours 5 mins"},
    {"UTC|ISO, MDY|postgres_verbose", "interval", "-04:05", "OK\011@ 4 hours 5 mins ago"},
    {"UTC|ISO, MDY|postgres_verbose", "interval", "1 mon 2 days", "OK\011@ 1 mon 2 days"},
    {"UTC|ISO, MDY|postgres_verbose", "interval", "1 day ago", "OK\011@ 1 day ago"},
    {"UTC|ISO, MDY|postgres_verbose", "interval", "@ 1 hour ago", "OK\011@ 1 hour ago"},
    {"UTC|ISO, MDY|postgres_verbose", "interval", "1 hour 1 sec ago", "OK\011@ 1 hour 1 sec ago"},
    {"UTC|ISO, MDY|postgres_verbose", "interval", "-1 sec", "OK\011@ 1 sec ago"},
    {"UTC|ISO, MDY|postgres_verbose", "interval", "1 year -1 sec", "OK\011@ 1 year -1 sec"},
    {"UTC|ISO, MDY|iso_8601", "interval", "1 year 2 mons 3 days 04:05:06.5", "OK\011P1Y2M3DT4H5M6.5S"},
    {"UTC|ISO, MDY|iso_8601", "interval", "-1 days +02:03:00", "OK\011P-1DT2H3M"},
    {"UTC|ISO, MDY|iso_8601", "interval", "0", "OK\011PT0S"},
    {"UTC|ISO, MDY|iso_8601", "interval", "-1 year -2 mons +3 days -04:05:06", "OK\011P-1Y-2M3DT-4H-5M-6S"},
    {"UTC|ISO, MDY|iso_8601", "interval", "1.5 seconds", "OK\011PT1.5S"},
    {"UTC|ISO, MDY|iso_8601", "interval", "-0.5 seconds", "OK\011PT-0.5S"},
    {"UTC|ISO, MDY|iso_8601", "interval", "P1Y", "OK\011P1Y"},
    {"UTC|ISO, MDY|iso_8601", "interval", "1 sec", "OK\011PT1S"},
    {"UTC|ISO, MDY|iso_8601", "interval", "-1 year -2 mons", "OK\011P-1Y-2M"},
    {"UTC|ISO, MDY|iso_8601", "interval", "-1 day -02:00", "OK\011P-1DT-2H"},
    {"UTC|ISO, MDY|iso_8601", "interval", "3 days", "OK\011P3D"},
    {"UTC|ISO, MDY|iso_8601", "interval", "04:05", "OK\011PT4H5M"},
    {"UTC|ISO, MDY|iso_8601", "interval", "-04:05", "OK\011PT-4H-5M"},
    {"UTC|ISO, MDY|iso_8601", "interval", "1 mon 2 days", "OK\011P1M2D"},
    {"UTC|ISO, MDY|iso_8601", "interval", "1 day ago", "OK\011P-1D"},
    {"UTC|ISO, MDY|iso_8601", "interval", "@ 1 hour ago", "OK\011PT-1H"},
    {"UTC|ISO, MDY|iso_8601", "interval", "1 hour 1 sec ago", "OK\011PT-1H-1S"},
    {"UTC|ISO, MDY|iso_8601", "interval", "-1 sec", "OK\011PT-1S"},
    {"UTC|ISO, MDY|iso_8601", "interval", "1 year -1 sec", "OK\011P1YT-1S"},
};

Test(interval, pg_table)
{
    run_cases(iv_cases, sizeof iv_cases / sizeof iv_cases[0]);
}

static const char *fmt_iv(Interval iv, StrBuf *sb)
{
    strbuf_reset(sb);
    interval_format(iv, sb);
    return sb->data;
}

static Interval iv(const char *s)
{
    return interval_parse(s, strlen(s));
}

Test(interval, arithmetic)
{
    StrBuf sb;
    strbuf_init(&sb);
    /* each expected text printed by PostgreSQL 15 */
    cr_assert_str_eq(fmt_iv(interval_mul(iv("1 mon 2 days 3 hours"), 1.5), &sb),
                     "1 mon 18 days 04:30:00");
    cr_assert_str_eq(fmt_iv(interval_div(iv("1 mon"), 7), &sb), "4 days 06:51:25.6896");
    cr_assert_str_eq(fmt_iv(interval_mul(iv("1 day"), 0.3333), &sb), "07:59:57.12");
    cr_assert_str_eq(fmt_iv(interval_justify_hours(iv("50 hours")), &sb), "2 days 02:00:00");
    cr_assert_str_eq(fmt_iv(interval_justify_days(iv("35 days")), &sb), "1 mon 5 days");
    cr_assert_str_eq(fmt_iv(interval_justify(iv("1 mon -1 hour")), &sb), "29 days 23:00:00");
    cr_assert_str_eq(fmt_iv(interval_mul(iv("-1 days +25 hours"), -1), &sb), "1 day -25:00:00");
    cr_assert_str_eq(fmt_iv(interval_add(iv("1 day"), iv("2 hours")), &sb), "1 day 02:00:00");
    cr_assert_str_eq(fmt_iv(interval_sub(iv("1 day"), iv("2 hours")), &sb), "1 day -02:00:00");
    cr_assert_str_eq(fmt_iv(timestamp_diff(timestamp_in("2021-03-15 12:00", 16),
                                           timestamp_in("2021-03-13 11:00", 16)), &sb),
                     "2 days 01:00:00");
    strbuf_free(&sb);
}

Test(interval, errors)
{
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        interval_add(iv("2147483647 days"), iv("1 day"));
        err_pop(&jmp);
        cr_assert_fail("no overflow error");
    } else {
        cr_assert_str_eq(err_current()->sqlstate, "22008");
        cr_assert_str_eq(err_current()->message, "interval out of range");
    }
    if (ERR_TRY(jmp)) {
        interval_div(iv("1 day"), 0);
        err_pop(&jmp);
        cr_assert_fail("no division error");
    } else {
        cr_assert_str_eq(err_current()->sqlstate, "22012");
    }
}

Test(interval, equality_spans)
{
    Value a, b;
    char m1[16], m2[16];
    a.is_null = b.is_null = false;
    a.u.str = interval_put(iv("1 mon"), m1);
    b.u.str = interval_put(iv("30 days"), m2);
    cr_assert_eq(type_compare(SQLTYPE(TYPE_INTERVAL), &a, &b), 0);
    cr_assert_eq(type_hash_value(SQLTYPE(TYPE_INTERVAL), &a),
                 type_hash_value(SQLTYPE(TYPE_INTERVAL), &b));
    b.u.str = interval_put(iv("30 days 1 us"), m2);
    cr_assert_lt(type_compare(SQLTYPE(TYPE_INTERVAL), &a, &b), 0);
}
