/*
 * error.c — PostgreSQL-shaped errors raised by longjmp to a per-thread
 * handler stack.
 *
 * Each thread (one per connection) owns a stack of ErrJmp handlers and one
 * ErrorData slot. err_begin fills the slot, err_throw pops the innermost
 * handler and longjmps to it. See error.h for why longjmp and the rules that
 * keep it safe.
 *
 * "First error wins", made safe: once an error has landed at a handler,
 * the catch branch is handling it until a new protected region starts
 * (err_push), one finishes (err_pop), err_clear() is called or it
 * rethrows. A raise from the catch branch with a LOWER severity than the
 * error being handled (an ERROR while cleaning up after a FATAL) keeps the
 * handled error, so a connection-ending error is never downgraded by a
 * failing cleanup. A raise of equal or higher severity replaces it: we
 * cannot tell a failing cleanup from code that handled the error, went on,
 * and hit a new, unrelated error at the same depth — and reporting a stale
 * error there would be worse (e.g. a planner that tries a cast under
 * ERR_TRY, falls back, and later raises something else).
 */
#include "common/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Thread_local ErrJmp *err_stack;      /* innermost handler */
static _Thread_local int err_depth;          /* handlers on the stack */
static _Thread_local ErrorData err_slot;     /* the error being raised/handled */
static _Thread_local ErrorData err_scratch;  /* sink for a suppressed second error */
static _Thread_local bool err_handling;      /* err_slot landed and is being handled */
static _Thread_local int err_handling_depth; /* stack depth where it landed */
static _Thread_local ErrNoticeHook err_notice_hook;
static _Thread_local void *err_notice_ctx;
_Thread_local atomic_int *err_interrupt_flag;

void err_push(ErrJmp *jmp)
{
    jmp->prev = err_stack;
    err_stack = jmp;
    err_depth++;
    err_handling = false;
}

void err_pop(ErrJmp *jmp)
{
    if (err_stack != jmp) {
        fprintf(stderr, "strata: err_pop of a handler that is not innermost\n");
        abort();
    }
    err_stack = jmp->prev;
    err_depth--;
    err_handling = false;
}

void err_clear(void)
{
    err_handling = false;
}

const ErrorData *err_current(void)
{
    return &err_slot;
}

static bool err_keeps_first(ErrSeverity severity)
{
    return err_handling && err_depth <= err_handling_depth && severity < err_slot.severity;
}

static ErrorData *err_begin_sev(const char *sqlstate, ErrSeverity severity)
{
    if (err_keeps_first(severity)) {
        memset(&err_scratch, 0, sizeof err_scratch);
        return &err_scratch;
    }
    err_handling = false;
    memset(&err_slot, 0, sizeof err_slot);
    err_slot.severity = severity;
    snprintf(err_slot.sqlstate, sizeof err_slot.sqlstate, "%s", sqlstate);
    return &err_slot;
}

ErrorData *err_begin(const char *sqlstate)
{
    return err_begin_sev(sqlstate, ERR_SEV_ERROR);
}

static void err_vformat(char *dst, size_t size, const char *fmt, va_list ap)
{
    vsnprintf(dst, size, fmt, ap);
}

void err_message(ErrorData *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    err_vformat(e->message, sizeof e->message, fmt, ap);
    va_end(ap);
}

void err_detail(ErrorData *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    err_vformat(e->detail, sizeof e->detail, fmt, ap);
    va_end(ap);
}

void err_hint(ErrorData *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    err_vformat(e->hint, sizeof e->hint, fmt, ap);
    va_end(ap);
}

/* No handler: a bug in the caller. Say what was raised, then abort. */
static _Noreturn void err_abort_unhandled(void)
{
    fprintf(stderr, "strata: unhandled error %s: %s\n", err_slot.sqlstate, err_slot.message);
    if (err_slot.detail[0])
        fprintf(stderr, "DETAIL: %s\n", err_slot.detail);
    fflush(stderr);
    abort();
}

_Noreturn void err_rethrow(void)
{
    ErrJmp *jmp = err_stack;
    if (jmp == NULL)
        err_abort_unhandled();
    err_stack = jmp->prev;
    err_depth--;
    err_handling = true;
    err_handling_depth = err_depth;
    longjmp(jmp->buf, 1);
}

_Noreturn void err_throw_saved(const ErrorData *saved)
{
    ErrorData *e = err_begin(saved->sqlstate);
    *e = *saved;
    err_throw();
}

_Noreturn void err_throw(void)
{
    err_rethrow();
}

_Noreturn void err_raise(const char *sqlstate, const char *fmt, ...)
{
    ErrorData *e = err_begin_sev(sqlstate, ERR_SEV_ERROR);
    va_list ap;
    va_start(ap, fmt);
    err_vformat(e->message, sizeof e->message, fmt, ap);
    va_end(ap);
    err_throw();
}

_Noreturn void err_raise_pos(const char *sqlstate, int position, const char *fmt, ...)
{
    ErrorData *e = err_begin_sev(sqlstate, ERR_SEV_ERROR);
    va_list ap;
    va_start(ap, fmt);
    err_vformat(e->message, sizeof e->message, fmt, ap);
    va_end(ap);
    e->position = position;
    err_throw();
}

_Noreturn void err_raise_fatal(const char *sqlstate, const char *fmt, ...)
{
    ErrorData *e = err_begin_sev(sqlstate, ERR_SEV_FATAL);
    va_list ap;
    va_start(ap, fmt);
    err_vformat(e->message, sizeof e->message, fmt, ap);
    va_end(ap);
    err_throw();
}

void err_set_notice_hook(ErrNoticeHook hook, void *ctx)
{
    err_notice_hook = hook;
    err_notice_ctx = ctx;
}

void err_notice(ErrSeverity severity, const char *sqlstate, const char *fmt, ...)
{
    ErrorData notice;
    va_list ap;
    if (err_notice_hook == NULL)
        return;
    memset(&notice, 0, sizeof notice);
    notice.severity = severity;
    snprintf(notice.sqlstate, sizeof notice.sqlstate, "%s", sqlstate);
    va_start(ap, fmt);
    err_vformat(notice.message, sizeof notice.message, fmt, ap);
    va_end(ap);
    err_notice_hook(err_notice_ctx, &notice);
}

void err_set_interrupt_flag(atomic_int *flag)
{
    err_interrupt_flag = flag;
}

void err_check_interrupts_slow(void)
{
    int why;
    if (err_interrupt_flag == NULL)
        return;
    why = atomic_exchange(err_interrupt_flag, ERR_INTERRUPT_NONE);
    if (why == ERR_INTERRUPT_CANCEL)
        err_raise(ERRCODE_QUERY_CANCELED, "canceling statement due to user request");
    if (why == ERR_INTERRUPT_TIMEOUT)
        err_raise(ERRCODE_QUERY_CANCELED, "canceling statement due to statement timeout");
}
