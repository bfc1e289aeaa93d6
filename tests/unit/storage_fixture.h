/*
 * storage_fixture.h — the fixture the storage unit tests share: a fresh
 * data directory per test (/tmp/strata-test-<tag>-XXXXXX, removed
 * afterwards) with the store opened in it, an arena, restart() (close +
 * open on the same directory, i.e. recovery), and macros around calls that
 * may raise. Define STORAGE_FIXTURE_TAG ("durable", ...) before including,
 * then declare `TestSuite(name, .init = storage_setup, .fini =
 * storage_teardown)`. One translation unit per test file, so the statics
 * below are per file.
 */
#ifndef STRATA_TESTS_STORAGE_FIXTURE_H
#define STRATA_TESTS_STORAGE_FIXTURE_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include "common/arena.h"
#include "common/error.h"
#include "storage/storage.h"

#ifndef STORAGE_FIXTURE_TAG
#error "define STORAGE_FIXTURE_TAG before including storage_fixture.h"
#endif

__attribute__((unused)) static char dir[256];
__attribute__((unused)) static MemArena *arena;
__attribute__((unused)) static ErrorData last_err;   /* the error EXPECT_ERROR* caught */

/* Run stmt, failing the test on any error. */
#define NO_ERROR(stmt)                                                           \
    do {                                                                         \
        ErrJmp jmp_;                                                             \
        if (ERR_TRY(jmp_)) {                                                     \
            stmt;                                                                \
            err_pop(&jmp_);                                                      \
        } else {                                                                 \
            cr_assert_fail("%s raised %s: %s", #stmt, err_current()->sqlstate,   \
                           err_current()->message);                              \
        }                                                                        \
    } while (0)

/* Run stmt; it must raise SQLSTATE code_ (the error is kept in last_err). */
#define EXPECT_ERROR(code_, stmt)                                                \
    do {                                                                         \
        ErrJmp jmp_;                                                             \
        if (ERR_TRY(jmp_)) {                                                     \
            stmt;                                                                \
            err_pop(&jmp_);                                                      \
            cr_assert_fail("no error from %s", #stmt);                           \
        } else {                                                                 \
            last_err = *err_current();                                           \
            cr_assert_str_eq(last_err.sqlstate, code_, "sqlstate %s (%s)",       \
                             last_err.sqlstate, last_err.message);               \
        }                                                                        \
    } while (0)

/* The same, and the message must be msg_. */
#define EXPECT_ERROR_MSG(code_, msg_, stmt)                                      \
    do {                                                                         \
        EXPECT_ERROR(code_, stmt);                                               \
        cr_assert_str_eq(last_err.message, msg_);                                \
    } while (0)

__attribute__((unused)) static void open_store(void) { NO_ERROR(store_open(dir)); }

__attribute__((unused)) static void restart(void)
{
    store_close();
    open_store();
}

__attribute__((unused)) static void storage_setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/strata-test-%s-XXXXXX", STORAGE_FIXTURE_TAG);
    cr_assert_not_null(mkdtemp(dir));
    open_store();
    arena = mem_arena_create("test");
}

__attribute__((unused)) static void storage_teardown(void)
{
    store_close();
    mem_arena_destroy(arena);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
}

#endif
