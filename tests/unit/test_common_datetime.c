/*
 * test_common_datetime.c — date and timestamp input, output and errors
 * (PostgreSQL 15's texts; the table cases live in test_common_typio.c),
 * calendar helpers against known Julian facts, special words.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "common/datetime.h"
#include "common/error.h"
#include "common/types.h"

static const char *fmt_date(int32_t d, char *buf)
{
    date_format(d, buf);
    return buf;
}

static const char *fmt_ts(int64_t t, char *buf)
{
    timestamp_format(t, buf);
    return buf;
}

Test(datetime, calendar_helpers)
{
    int y, m, d;
    cr_assert_eq(date_from_ymd(2000, 1, 1), 0);
    cr_assert_eq(date_from_ymd(1970, 1, 1), -10957);
    cr_assert_eq(date_from_ymd(2000, 3, 1), 60); /* 2000 is a leap year */
    date_to_ymd(-10957, &y, &m, &d);
    cr_assert(y == 1970 && m == 1 && d == 1);
    for (int32_t day = -2000000; day < 2000000; day += 997) {
        date_to_ymd(day, &y, &m, &d);
        cr_assert_eq(date_from_ymd(y, m, d), day);
        cr_assert(date_ymd_valid(y, m, d));
    }
    cr_assert(date_ymd_valid(2012, 2, 29));
    cr_assert(!date_ymd_valid(2013, 2, 29));
    cr_assert(!date_ymd_valid(1900, 2, 29));
    cr_assert(!date_ymd_valid(2013, 13, 1));
    cr_assert(!date_ymd_valid(-4713, 11, 23));
    cr_assert(date_ymd_valid(-4713, 11, 24));
}

Test(datetime, output_iso)
{
    char buf[DATETIME_BUF];
    cr_assert_str_eq(fmt_date(date_from_ymd(2013, 7, 15), buf), "2013-07-15");
    cr_assert_str_eq(fmt_date(date_from_ymd(-43, 3, 15), buf), "0044-03-15 BC");
    cr_assert_str_eq(fmt_date(date_from_ymd(0, 1, 1), buf), "0001-01-01 BC");
    cr_assert_str_eq(fmt_date(DATE_NOEND, buf), "infinity");
    cr_assert_str_eq(fmt_date(DATE_NOBEGIN, buf), "-infinity");
    int64_t ts = timestamp_from_date(date_from_ymd(2013, 7, 15)) +
                 ((10 * 3600 + 20 * 60 + 30) * INT64_C(1000000)) + 500000;
    cr_assert_str_eq(fmt_ts(ts, buf), "2013-07-15 10:20:30.5");
    cr_assert_str_eq(fmt_ts(ts + 1, buf), "2013-07-15 10:20:30.500001");
    cr_assert_str_eq(fmt_ts(-1, buf), "1999-12-31 23:59:59.999999");
    cr_assert_str_eq(fmt_ts(TS_NOEND, buf), "infinity");
    cr_assert_str_eq(fmt_ts(timestamp_from_date(date_from_ymd(-43, 3, 15)), buf),
                     "0044-03-15 00:00:00 BC");
    StrBuf sb;
    strbuf_init(&sb);
    date_out(0, &sb);
    timestamp_out(0, &sb);
    cr_assert_str_eq(sb.data, "2000-01-012000-01-01 00:00:00");
    strbuf_free(&sb);
}

static void expect_error(bool is_date, const char *in, const char *code, const char *msg)
{
    ErrJmp jmp;
    volatile bool raised = false;
    if (ERR_TRY(jmp)) {
        if (is_date)
            date_in(in, strlen(in));
        else
            timestamp_in(in, strlen(in));
        err_pop(&jmp);
    } else {
        raised = true;
        cr_expect_str_eq(err_current()->sqlstate, code, "%s", in);
        cr_expect_str_eq(err_current()->message, msg, "%s", in);
    }
    cr_expect(raised, "'%s' accepted", in);
}

Test(datetime, errors_as_postgresql)
{
    expect_error(true, "x", "22007", "invalid input syntax for type date: \"x\"");
    expect_error(true, "2013-02-30", "22008", "date/time field value out of range: \"2013-02-30\"");
    expect_error(true, "5874898-01-01", "22008", "date out of range: \"5874898-01-01\"");
    expect_error(false, "294277-01-01", "22008", "timestamp out of range: \"294277-01-01\"");
    expect_error(false, "2013-07-15 24:00:01", "22008",
                 "date/time field value out of range: \"2013-07-15 24:00:01\"");
    expect_error(false, "10:20:30", "22007", "invalid input syntax for type timestamp: \"10:20:30\"");
}

Test(datetime, special_words)
{
    char buf[DATETIME_BUF];
    cr_assert_eq(date_in("epoch", 5), -10957);
    cr_assert_eq(date_in(" Infinity ", 10), DATE_NOEND);
    cr_assert_eq(timestamp_in("-infinity", 9), TS_NOBEGIN);
    datetime_set_xact_time(timestamp_from_date(date_from_ymd(2020, 5, 17)) + 3600 * INT64_C(1000000));
    cr_assert_str_eq(fmt_date(date_in("today", 5), buf), "2020-05-17");
    cr_assert_str_eq(fmt_date(date_in("tomorrow", 8), buf), "2020-05-18");
    cr_assert_str_eq(fmt_ts(timestamp_in("now", 3), buf), "2020-05-17 01:00:00");
    cr_assert_str_eq(fmt_ts(timestamp_in("yesterday", 9), buf), "2020-05-16 00:00:00");
    datetime_set_xact_time(0);
    cr_assert_gt(timestamp_now(), timestamp_from_date(date_from_ymd(2024, 1, 1)));
}

Test(datetime, conversions)
{
    cr_assert_eq(date_from_timestamp(-1), -1);
    cr_assert_eq(date_from_timestamp(USECS_PER_DAY), 1);
    cr_assert_eq(date_from_timestamp(TS_NOEND), DATE_NOEND);
    cr_assert_eq(timestamp_from_date(DATE_NOBEGIN), TS_NOBEGIN);
    ErrJmp jmp;
    volatile bool raised = false;
    if (ERR_TRY(jmp)) {
        timestamp_from_date(date_from_ymd(300000, 1, 1));
        err_pop(&jmp);
    } else {
        raised = true;
        cr_assert_str_eq(err_current()->message, "date out of range for timestamp");
    }
    cr_assert(raised);
}
