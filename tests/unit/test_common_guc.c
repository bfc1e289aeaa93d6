/*
 * test_common_guc.c — settings: PostgreSQL's names, defaults and SHOW
 * texts, canonicalisation (units, booleans, enums, DateStyle, TimeZone),
 * errors and SQLSTATEs, RESET, startup values, the reported set.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "common/datetime.h"
#include "common/error.h"
#include "common/guc.h"
#include "common/interval.h"

static void expect_set_error(GucSet *g, const char *name, const char *value, const char *code,
                             const char *msg)
{
    ErrJmp jmp;
    volatile bool raised = false;
    if (ERR_TRY(jmp)) {
        guc_set(g, name, value);
        err_pop(&jmp);
    } else {
        raised = true;
        cr_expect_str_eq(err_current()->sqlstate, code, "SET %s = %s", name, value);
        cr_expect_str_eq(err_current()->message, msg, "SET %s = %s", name, value);
    }
    cr_expect(raised, "SET %s = %s accepted", name, value);
}

static void expect_show_after_set(GucSet *g, const char *name, const char *value,
                                  const char *shown)
{
    guc_set(g, name, value);
    cr_expect_str_eq(guc_show(g, name), shown, "SET %s = %s", name, value);
}

Test(guc, defaults_as_postgresql)
{
    GucSet *g = guc_session_create();
    static const char *const expect[][2] = {
        {"application_name", ""}, {"client_encoding", "UTF8"}, {"DateStyle", "ISO, MDY"},
        {"IntervalStyle", "postgres"}, {"TimeZone", "UTC"}, {"extra_float_digits", "1"},
        {"search_path", "\"$user\", public"}, {"standard_conforming_strings", "on"},
        {"integer_datetimes", "on"}, {"server_version", "15.0 (Strata 0.1.0)"},
        {"server_version_num", "150000"}, {"server_encoding", "UTF8"}, {"is_superuser", "on"},
        {"default_transaction_read_only", "off"}, {"in_hot_standby", "off"},
        {"client_min_messages", "notice"}, {"statement_timeout", "0"}, {"lock_timeout", "0"},
        {"idle_in_transaction_session_timeout", "0"},
        {"default_transaction_isolation", "read committed"},
        {"transaction_isolation", "read committed"}, {"bytea_output", "hex"},
        {"password_encryption", "scram-sha-256"}, {"max_connections", "100"}, {"port", "5432"},
        {"listen_addresses", "localhost"}, {"unix_socket_directories", "/tmp"}, {"ssl", "off"},
        {"ssl_cert_file", "server.crt"}, {"ssl_key_file", "server.key"}, {"work_mem", "4MB"},
    };
    for (size_t i = 0; i < sizeof expect / sizeof expect[0]; i++)
        cr_expect_str_eq(guc_show(g, expect[i][0]), expect[i][1], "%s", expect[i][0]);
    cr_assert_eq(guc_extra_float_digits(g), 1);
    cr_assert_str_eq(guc_search_path(g), "\"$user\", public");
    guc_session_destroy(g);
}

Test(guc, names_are_case_insensitive)
{
    GucSet *g = guc_session_create();
    cr_assert_str_eq(guc_show(g, "datestyle"), "ISO, MDY");
    cr_assert_str_eq(guc_canonical_name("datestyle"), "DateStyle");
    cr_assert_str_eq(guc_canonical_name("TIMEZONE"), "TimeZone");
    cr_assert_null(guc_canonical_name("nope"));
    guc_set(g, "EXTRA_FLOAT_DIGITS", "3");
    cr_assert_eq(guc_extra_float_digits(g), 3);
    guc_session_destroy(g);
}

Test(guc, canonical_show_texts)
{
    GucSet *g = guc_session_create();
    expect_show_after_set(g, "statement_timeout", "1000", "1s");
    expect_show_after_set(g, "statement_timeout", "1500", "1500ms");
    expect_show_after_set(g, "statement_timeout", "90s", "90s");
    expect_show_after_set(g, "statement_timeout", "3600000", "1h");
    expect_show_after_set(g, "statement_timeout", "1.5s", "1500ms");
    cr_assert_eq(guc_get_int(g, "statement_timeout"), 1500);
    expect_show_after_set(g, "work_mem", "1024", "1MB");
    expect_show_after_set(g, "work_mem", "1000kB", "1000kB");
    expect_show_after_set(g, "work_mem", "1GB", "1GB");
    cr_assert_eq(guc_get_int(g, "work_mem"), 1024 * 1024);
    expect_show_after_set(g, "extra_float_digits", "2.6", "3");
    expect_show_after_set(g, "client_encoding", "unicode", "UTF8");
    expect_show_after_set(g, "client_encoding", "utf-8", "UTF8");
    expect_show_after_set(g, "DateStyle", "iso", "ISO, MDY");
    expect_show_after_set(g, "TimeZone", "utc", "UTC");
    expect_show_after_set(g, "bytea_output", "ESCAPE", "escape");
    expect_show_after_set(g, "standard_conforming_strings", "1", "on");
    expect_show_after_set(g, "default_transaction_read_only", "TRUE", "on");
    cr_assert(guc_get_bool(g, "default_transaction_read_only"));
    expect_show_after_set(g, "application_name", "psql", "psql");
    expect_show_after_set(g, "search_path", "a, b", "a, b");
    expect_show_after_set(g, "client_min_messages", "INFO", "info");
    expect_show_after_set(g, "transaction_isolation", "SERIALIZABLE", "serializable");
    guc_session_destroy(g);
}

Test(guc, timezone_names_from_tzdata)
{
    GucSet *g = guc_session_create();
    expect_show_after_set(g, "TimeZone", "Etc/UTC", "Etc/UTC");
    expect_show_after_set(g, "TimeZone", "etc/utc", "Etc/UTC");
    /* numbers are hours east, shown as PostgreSQL shows them */
    expect_show_after_set(g, "TimeZone", "+02", "<+02>-02");
    expect_show_after_set(g, "TimeZone", "-3", "<-03>+03");
    expect_show_after_set(g, "TimeZone", "5.5", "<+05:30>-05:30");
    expect_show_after_set(g, "TimeZone", "+05:30", "+05:30");
    expect_set_error(g, "TimeZone", "Foo/Bar", "22023", "invalid value for parameter \"TimeZone\": \"Foo/Bar\"");
    expect_set_error(g, "TimeZone", "../etc/passwd", "22023",
                     "invalid value for parameter \"TimeZone\": \"../etc/passwd\"");
    expect_set_error(g, "TimeZone", "zone.tab", "22023",
                     "invalid value for parameter \"TimeZone\": \"zone.tab\"");
    guc_session_destroy(g);
}

/* SET TimeZone / DateStyle / IntervalStyle reach timestamptz, date and
 * interval text on this thread (guc.c hands them to datetime.c). */
Test(guc, datetime_settings_follow_the_session)
{
    GucSet *g = guc_session_create();
    char buf[DATETIME_BUF];
    StrBuf sb;
    Interval iv = {0, 0, 14};
    guc_set(g, "TimeZone", "America/New_York");
    timestamptz_format(timestamptz_in("2013-07-15 10:00+00", 19), buf);
    cr_assert_str_eq(buf, "2013-07-15 06:00:00-04");
    guc_set(g, "DateStyle", "DMY");
    date_format(date_in("01/02/2003", 10), buf);
    cr_assert_str_eq(buf, "2003-02-01");
    guc_set(g, "IntervalStyle", "iso_8601");
    strbuf_init(&sb);
    interval_format(iv, &sb);
    cr_assert_str_eq(sb.data, "P1Y2M");
    strbuf_free(&sb);
    guc_reset_all(g);
    timestamptz_format(timestamptz_in("2013-07-15 10:00+00", 19), buf);
    cr_assert_str_eq(buf, "2013-07-15 10:00:00+00");
    date_format(date_in("01/02/2003", 10), buf);
    cr_assert_str_eq(buf, "2003-01-02");
    guc_session_destroy(g);
}

Test(guc, errors_as_postgresql)
{
    GucSet *g = guc_session_create();
    expect_set_error(g, "foo", "1", "42704", "unrecognized configuration parameter \"foo\"");
    expect_set_error(g, "server_version", "x", "55P02", "parameter \"server_version\" cannot be changed");
    expect_set_error(g, "port", "1", "55P02",
                     "parameter \"port\" cannot be changed without restarting the server");
    expect_set_error(g, "ssl", "on", "55P02", "parameter \"ssl\" cannot be changed now");
    expect_set_error(g, "extra_float_digits", "10", "22023",
                     "10 is outside the valid range for parameter \"extra_float_digits\" (-15 .. 3)");
    expect_set_error(g, "extra_float_digits", "abc", "22023",
                     "invalid value for parameter \"extra_float_digits\": \"abc\"");
    expect_set_error(g, "standard_conforming_strings", "maybe", "22023",
                     "parameter \"standard_conforming_strings\" requires a Boolean value");
    expect_set_error(g, "client_encoding", "foo", "22023",
                     "invalid value for parameter \"client_encoding\": \"foo\"");
    expect_set_error(g, "client_encoding", "latin9", "22023",
                     "invalid value for parameter \"client_encoding\": \"latin9\"");
    expect_set_error(g, "bytea_output", "x", "22023", "invalid value for parameter \"bytea_output\": \"x\"");
    cr_expect_str_eq(err_current()->hint, "Available values: escape, hex.");
    expect_set_error(g, "client_min_messages", "fatal", "22023",
                     "invalid value for parameter \"client_min_messages\": \"fatal\"");
    cr_expect_str_eq(err_current()->hint, "Available values: debug5, debug4, debug3, debug2, "
                                          "debug1, log, notice, warning, error.");
    expect_set_error(g, "statement_timeout", "5x", "22023",
                     "invalid value for parameter \"statement_timeout\": \"5x\"");
    cr_expect_str_eq(err_current()->hint,
                     "Valid units for this parameter are \"us\", \"ms\", \"s\", \"min\", \"h\", and \"d\".");
    expect_set_error(g, "statement_timeout", "-1", "22023",
                     "-1 ms is outside the valid range for parameter \"statement_timeout\" (0 .. 2147483647)");
    expect_set_error(g, "work_mem", "1", "22023",
                     "1 kB is outside the valid range for parameter \"work_mem\" (64 .. 2147483647)");
    cr_assert_str_eq(guc_show(g, "extra_float_digits"), "1", "failed SET changed nothing");
    ErrJmp jmp;
    volatile bool raised = false;
    if (ERR_TRY(jmp)) {
        guc_show(g, "nope");
        err_pop(&jmp);
    } else {
        raised = true;
        cr_assert_str_eq(err_current()->sqlstate, "42704");
    }
    cr_assert(raised);
    guc_session_destroy(g);
}

Test(guc, reset_and_startup_values)
{
    GucSet *g = guc_session_create();
    guc_set_startup(g, "application_name", "myapp");
    guc_set(g, "application_name", "other");
    guc_set(g, "extra_float_digits", "3");
    guc_reset(g, "application_name");
    cr_assert_str_eq(guc_show(g, "application_name"), "myapp");
    guc_set(g, "application_name", "again");
    guc_reset_all(g);
    cr_assert_str_eq(guc_show(g, "application_name"), "myapp");
    cr_assert_eq(guc_extra_float_digits(g), 1);
    guc_set_internal(g, "is_superuser", "off");
    cr_assert_str_eq(guc_show(g, "is_superuser"), "off");
    guc_session_destroy(g);
}

Test(guc, server_defaults_seed_sessions)
{
    guc_set_server_default("port", "6543");
    guc_set_server_default("extra_float_digits", "0");
    GucSet *g = guc_session_create();
    cr_assert_str_eq(guc_show(g, "port"), "6543");
    cr_assert_eq(guc_extra_float_digits(g), 0);
    cr_assert_eq(guc_get_int(NULL, "port"), 6543);
    guc_session_destroy(g);
}

Test(guc, reported_set_in_postgresql_order)
{
    GucSet *g = guc_session_create();
    static const char *const want[] = {
        "application_name", "client_encoding", "DateStyle", "default_transaction_read_only",
        "in_hot_standby", "integer_datetimes", "IntervalStyle", "is_superuser",
        "server_encoding", "server_version", "session_authorization",
        "standard_conforming_strings", "TimeZone",
    };
    const char *name, *value, *desc;
    int i = 0;
    while (guc_reported_at(g, i, &name, &value)) {
        cr_assert_lt(i, 13);
        cr_assert_str_eq(name, want[i]);
        cr_assert(guc_is_reported(name));
        i++;
    }
    cr_assert_eq(i, 13);
    cr_assert(!guc_is_reported("work_mem"));
    cr_assert(guc_is_reported("timezone"));
    for (i = 0; guc_at(g, i, &name, &value, &desc); i++)
        cr_assert(desc != NULL && desc[0] != '\0');
    cr_assert_gt(i, 30);
    guc_session_destroy(g);
}
