/*
 * pgcase_fixture.h — table-driven type I/O cases for the common/ unit
 * tests: each PgCase is an input text for a type under given settings
 * (TimeZone, DateStyle, IntervalStyle) and what PostgreSQL 15 printed for
 * it — the output text, or the SQLSTATE and message of the error.
 * run_cases() parses and prints each one through common/typio and compares.
 */
#ifndef STRATA_TESTS_PGCASE_FIXTURE_H
#define STRATA_TESTS_PGCASE_FIXTURE_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include "common/arena.h"
#include "common/datetime.h"
#include "common/error.h"
#include "common/strbuf.h"
#include "common/typio.h"

typedef struct PgCase {
    const char *settings; /* "TimeZone[|DateStyle[|IntervalStyle]]" */
    const char *type, *input;
    const char *expect;   /* "OK\t<text>" or "ERR\t<sqlstate>\t<message>" */
} PgCase;

/* Run one case: settings applied, input parsed and printed (or the error). */
static void run_case(const PgCase *c, MemArena *arena, char *got, size_t size)
{
    char set[128], *ds = NULL, *is = NULL;
    ErrJmp jmp;
    snprintf(set, sizeof set, "%s", c->settings);
    if ((ds = strchr(set, '|')) != NULL) {
        *ds++ = '\0';
        if ((is = strchr(ds, '|')) != NULL)
            *is++ = '\0';
    }
    datetime_apply_settings(set, ds ? ds : "ISO, MDY", is ? is : "postgres");
    if (ERR_TRY(jmp)) {
        Value v;
        StrBuf sb;
        SqlType t = SQLTYPE(type_lookup_name(c->type));
        strbuf_init(&sb);
        type_input(t, c->input, strlen(c->input), arena, &v);
        type_output(t, &v, NULL, &sb);
        err_pop(&jmp);
        snprintf(got, size, "OK\t%.900s", sb.data);
        strbuf_free(&sb);
    } else {
        const ErrorData *e = err_current();
        snprintf(got, size, "ERR\t%s\t%.900s", e->sqlstate, e->message);
    }
    datetime_apply_settings("UTC", "ISO, MDY", "postgres");
}

static void run_cases(const PgCase *cases, size_t n)
{
    MemArena *arena = mem_arena_create("test");
    for (size_t i = 0; i < n; i++) {
        char got[1024];
        run_case(&cases[i], arena, got, sizeof got);
        cr_expect_str_eq(got, cases[i].expect, "%s %s '%s'", cases[i].settings, cases[i].type,
                         cases[i].input);
    }
    mem_arena_destroy(arena);
}

#endif
