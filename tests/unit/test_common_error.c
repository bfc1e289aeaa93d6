/*
 * test_common_error.c — unit tests of common/error.c: try/catch, nesting,
 * rethrow, "first error wins", err_begin details, positions, FATAL,
 * notices, interrupts.
 */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "common/error.h"

static _Noreturn void raise_division(void)
{
    err_raise(ERRCODE_DIVISION_BY_ZERO, "division by zero");
}

Test(error, try_without_error_pops)
{
    ErrJmp jmp;
    volatile int reached = 0;
    if (ERR_TRY(jmp)) {
        reached = 1;
        err_pop(&jmp);
    } else {
        cr_assert_fail("no error expected");
    }
    cr_assert_eq(reached, 1);
}

Test(error, catch_fills_error_data)
{
    ErrJmp jmp;
    volatile int caught = 0;
    if (ERR_TRY(jmp)) {
        raise_division();
    } else {
        caught = 1;
        const ErrorData *e = err_current();
        cr_assert_str_eq(e->sqlstate, "22012");
        cr_assert_str_eq(e->message, "division by zero");
        cr_assert_eq(e->severity, ERR_SEV_ERROR);
        cr_assert_str_eq(e->detail, "");
        cr_assert_eq(e->position, 0);
    }
    cr_assert_eq(caught, 1);
}

Test(error, nested_inner_catches_then_outer_continues)
{
    ErrJmp outer, inner;
    volatile int inner_caught = 0, outer_caught = 0;
    if (ERR_TRY(outer)) {
        if (ERR_TRY(inner)) {
            err_raise(ERRCODE_UNDEFINED_TABLE, "relation \"%s\" does not exist", "t");
        } else {
            inner_caught = 1;
            cr_assert_str_eq(err_current()->message, "relation \"t\" does not exist");
        }
        err_raise(ERRCODE_SYNTAX_ERROR, "second");
    } else {
        outer_caught = 1;
        cr_assert_str_eq(err_current()->sqlstate, "42601");
        cr_assert_str_eq(err_current()->message, "second");
    }
    cr_assert_eq(inner_caught, 1);
    cr_assert_eq(outer_caught, 1);
}

Test(error, rethrow_reaches_outer_handler)
{
    ErrJmp outer, inner;
    volatile int cleanup = 0;
    if (ERR_TRY(outer)) {
        if (ERR_TRY(inner)) {
            raise_division();
        } else {
            cleanup = 1;
            err_rethrow();
        }
        cr_assert_fail("not reached");
    } else {
        cr_assert_str_eq(err_current()->sqlstate, "22012");
    }
    cr_assert_eq(cleanup, 1);
}

Test(error, fatal_is_not_downgraded_by_failing_cleanup)
{
    ErrJmp outer, inner;
    if (ERR_TRY(outer)) {
        if (ERR_TRY(inner)) {
            err_raise_fatal(ERRCODE_PROTOCOL_VIOLATION, "invalid message length");
        } else {
            /* cleanup fails with a mere ERROR: the FATAL must reach the outer handler */
            err_raise(ERRCODE_INTERNAL_ERROR, "cleanup failed");
        }
    } else {
        cr_assert_eq(err_current()->severity, ERR_SEV_FATAL);
        cr_assert_str_eq(err_current()->message, "invalid message length");
    }
    /* A new protected region starts afresh. */
    if (ERR_TRY(outer)) {
        err_raise(ERRCODE_INTERNAL_ERROR, "fresh");
    } else {
        cr_assert_str_eq(err_current()->message, "fresh");
        cr_assert_eq(err_current()->severity, ERR_SEV_ERROR);
    }
}

Test(error, handled_error_does_not_mask_a_later_one)
{
    ErrJmp outer, inner;
    if (ERR_TRY(outer)) {
        if (ERR_TRY(inner)) {
            raise_division();
        } else {
            /* handled: fall back and go on */
        }
        err_raise(ERRCODE_UNDEFINED_COLUMN, "column \"x\" does not exist");
    } else {
        cr_assert_str_eq(err_current()->sqlstate, "42703");
    }
}

Test(error, fatal_replaces_error_being_handled)
{
    ErrJmp outer, inner;
    if (ERR_TRY(outer)) {
        if (ERR_TRY(inner)) {
            raise_division();
        } else {
            err_raise_fatal(ERRCODE_PROTOCOL_VIOLATION, "invalid frontend message type %d", 88);
        }
    } else {
        cr_assert_eq(err_current()->severity, ERR_SEV_FATAL);
        cr_assert_str_eq(err_current()->sqlstate, "08P01");
        cr_assert_str_eq(err_current()->message, "invalid frontend message type 88");
    }
}

Test(error, clear_ends_first_error_wins)
{
    ErrJmp outer, inner;
    if (ERR_TRY(outer)) {
        if (ERR_TRY(inner)) {
            err_raise_fatal(ERRCODE_PROTOCOL_VIOLATION, "bad");
        } else {
            err_clear();
            err_raise(ERRCODE_INTERNAL_ERROR, "after clear");
        }
    } else {
        cr_assert_str_eq(err_current()->message, "after clear");
    }
}

Test(error, begin_detail_hint_position)
{
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        ErrorData *e = err_begin(ERRCODE_UNIQUE_VIOLATION);
        err_message(e, "duplicate key value violates unique constraint \"%s\"", "t_pkey");
        err_detail(e, "Key (id)=(%d) already exists.", 1);
        err_hint(e, "Try %s.", "again");
        snprintf(e->table_name, sizeof e->table_name, "t");
        err_throw();
    } else {
        const ErrorData *e = err_current();
        cr_assert_str_eq(e->sqlstate, "23505");
        cr_assert_str_eq(e->detail, "Key (id)=(1) already exists.");
        cr_assert_str_eq(e->hint, "Try again.");
        cr_assert_str_eq(e->table_name, "t");
    }
    if (ERR_TRY(jmp)) {
        err_raise_pos(ERRCODE_SYNTAX_ERROR, 8, "syntax error at or near \"%s\"", "fro");
    } else {
        cr_assert_eq(err_current()->position, 8);
        cr_assert_str_eq(err_current()->message, "syntax error at or near \"fro\"");
    }
}

Test(error, long_message_truncated_safely)
{
    ErrJmp jmp;
    char big[5000];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    if (ERR_TRY(jmp)) {
        err_raise(ERRCODE_INTERNAL_ERROR, "%s", big);
    } else {
        cr_assert_eq(strlen(err_current()->message), ERR_MESSAGE_MAX - 1);
    }
}

static int notices_seen;
static char last_notice[1200];

static void notice_hook(void *ctx, const ErrorData *n)
{
    (void)ctx;
    notices_seen++;
    snprintf(last_notice, sizeof last_notice, "%d %s %s", (int)n->severity, n->sqlstate, n->message);
}

Test(error, notices_go_to_hook_and_do_not_unwind)
{
    err_notice(ERR_SEV_NOTICE, "00000", "dropped: no hook");
    err_set_notice_hook(notice_hook, NULL);
    err_notice(ERR_SEV_NOTICE, "42P07", "relation \"%s\" already exists, skipping", "t");
    cr_assert_eq(notices_seen, 1);
    cr_assert_str_eq(last_notice, "3 42P07 relation \"t\" already exists, skipping");
    err_set_notice_hook(NULL, NULL);
}

Test(error, interrupts_raise_57014_and_clear)
{
    atomic_int flag = 0;
    ErrJmp jmp;
    err_set_interrupt_flag(&flag);
    err_check_interrupts(); /* nothing pending */
    atomic_store(&flag, ERR_INTERRUPT_CANCEL);
    if (ERR_TRY(jmp)) {
        err_check_interrupts();
        cr_assert_fail("cancel not raised");
    } else {
        cr_assert_str_eq(err_current()->sqlstate, "57014");
        cr_assert_str_eq(err_current()->message, "canceling statement due to user request");
    }
    cr_assert_eq(atomic_load(&flag), 0);
    atomic_store(&flag, ERR_INTERRUPT_TIMEOUT);
    if (ERR_TRY(jmp)) {
        err_check_interrupts();
        cr_assert_fail("timeout not raised");
    } else {
        cr_assert_str_eq(err_current()->message, "canceling statement due to statement timeout");
    }
    err_set_interrupt_flag(NULL);
}

Test(error, raise_without_handler_aborts, .signal = SIGABRT)
{
    err_raise(ERRCODE_INTERNAL_ERROR, "nobody catches this");
}

Test(error, assert_macro_raises_xx000)
{
    ErrJmp jmp;
    volatile int x = 1;
    if (ERR_TRY(jmp)) {
        ERR_ASSERT(x == 2);
    } else {
        cr_assert_str_eq(err_current()->sqlstate, "XX000");
        cr_assert(strstr(err_current()->message, "x == 2") != NULL);
    }
}
