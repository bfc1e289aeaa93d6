/*
 * error.h — errors shaped like PostgreSQL's ErrorData, raised by longjmp.
 *
 * Why longjmp: as in PostgreSQL's ereport(ERROR), an error abandons the
 * statement. Every allocation of the statement lives in its query arena,
 * so unwinding is "destroy the arena"; no caller has to thread a status
 * code through kernels, operators and type-input functions. The protocol
 * loop is the recovery point: it catches, sends ErrorResponse, resets the
 * query's memory and (extended protocol) skips to Sync.
 *
 * Rules that make this safe:
 *  - Code that holds a mutex or owns malloc'd memory must not call anything
 *    that can raise, or must catch with ERR_TRY, release, and err_rethrow().
 *  - Locals changed inside an ERR_TRY region and read after a catch must be
 *    volatile.
 *  - The first error wins: err_raise inside a handler's cleanup replaces
 *    nothing until the handler rethrows.
 *
 * Handlers form a per-thread stack (each connection is one thread).
 *
 *     ErrJmp jmp;
 *     if (ERR_TRY(jmp)) {
 *         run_statement();
 *         err_pop(&jmp);
 *     } else {
 *         send_error(err_current());   // handler already popped
 *     }
 *
 * Raising with no handler on the stack aborts the process (a bug).
 */
#ifndef STRATA_COMMON_ERROR_H
#define STRATA_COMMON_ERROR_H

#include <setjmp.h>
#include <stdatomic.h>
#include <stdbool.h>
#include "common/errcodes.h"

typedef enum ErrSeverity {
    ERR_SEV_DEBUG,
    ERR_SEV_LOG,
    ERR_SEV_INFO,
    ERR_SEV_NOTICE,
    ERR_SEV_WARNING,
    ERR_SEV_ERROR,
    ERR_SEV_FATAL,
    ERR_SEV_PANIC,
} ErrSeverity;

#define ERR_MESSAGE_MAX 1024
#define ERR_DETAIL_MAX 1024
#define ERR_HINT_MAX 512
#define ERR_NAME_MAX 128

/* One error or notice; maps 1:1 onto ErrorResponse/NoticeResponse fields. */
typedef struct ErrorData {
    ErrSeverity severity;
    char sqlstate[6];               /* five characters and NUL */
    char message[ERR_MESSAGE_MAX];  /* M: lowercase, no period */
    char detail[ERR_DETAIL_MAX];    /* D: "" when absent */
    char hint[ERR_HINT_MAX];        /* H: "" when absent */
    int position;                   /* P: 1-based character position, 0 = none */
    char schema_name[ERR_NAME_MAX]; /* s */
    char table_name[ERR_NAME_MAX];  /* t */
    char column_name[ERR_NAME_MAX]; /* c */
    char constraint_name[ERR_NAME_MAX]; /* n */
} ErrorData;

typedef struct ErrJmp {
    jmp_buf buf;
    struct ErrJmp *prev;
} ErrJmp;

/* Push a handler; expands to true on entry, false when an error lands. */
#define ERR_TRY(jmp) (err_push(&(jmp)), setjmp((jmp).buf) == 0)
void err_push(ErrJmp *jmp);
/* Pop the handler after its protected region finished without error. */
void err_pop(ErrJmp *jmp);

/* The error being handled (valid in the catch branch until the next raise). */
const ErrorData *err_current(void);
/* The recovery point is done with the current error ("first error wins"
 * ends; err_push and err_pop also end it). While an error is being handled,
 * a raise of lower severity keeps it (a failing cleanup never downgrades a
 * FATAL); equal or higher severity replaces it, so a handled-and-continued
 * error never masks a later one. */
void err_clear(void);

/*
 * Build-then-throw for errors with more than a message:
 *     ErrorData *e = err_begin(ERRCODE_UNIQUE_VIOLATION);
 *     err_message(e, "duplicate key value violates unique constraint \"%s\"", name);
 *     err_detail(e, "Key (id)=(%lld) already exists.", (long long)id);
 *     err_throw();
 * err_begin clears the thread's error slot and sets severity ERROR.
 */
ErrorData *err_begin(const char *sqlstate);
void err_message(ErrorData *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void err_detail(ErrorData *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void err_hint(ErrorData *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
_Noreturn void err_throw(void);
/* Re-raise the current error to the next handler (after cleanup). */
_Noreturn void err_rethrow(void);
/* Raise a copy of an error caught elsewhere (another thread's, saved with
 * *err_current() before err_clear) in this thread. */
_Noreturn void err_throw_saved(const ErrorData *saved);

/* The common cases. */
_Noreturn void err_raise(const char *sqlstate, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* position: 1-based character (not byte) offset into the query text. */
_Noreturn void err_raise_pos(const char *sqlstate, int position, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Severity FATAL: the protocol layer closes the connection after sending. */
_Noreturn void err_raise_fatal(const char *sqlstate, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/*
 * Notices (NOTICE/WARNING/INFO) do not unwind: they go to the thread's
 * notice hook (the protocol layer sends a NoticeResponse). No hook: dropped.
 */
typedef void (*ErrNoticeHook)(void *ctx, const ErrorData *notice);
void err_set_notice_hook(ErrNoticeHook hook, void *ctx);
void err_notice(ErrSeverity severity, const char *sqlstate, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/*
 * Interrupts (query cancel, statement_timeout): the protocol layer points
 * the thread at its session's flag; long loops call err_check_interrupts()
 * once per batch, which raises 57014 when the flag was set (and clears it).
 * The flag holds an ErrInterrupt value.
 */
typedef enum ErrInterrupt {
    ERR_INTERRUPT_NONE = 0,
    ERR_INTERRUPT_CANCEL = 1,    /* "canceling statement due to user request" */
    ERR_INTERRUPT_TIMEOUT = 2,   /* "canceling statement due to statement timeout" */
} ErrInterrupt;
void err_set_interrupt_flag(atomic_int *flag);
void err_check_interrupts_slow(void);
extern _Thread_local atomic_int *err_interrupt_flag;
static inline void err_check_interrupts(void)
{
    if (err_interrupt_flag && atomic_load_explicit(err_interrupt_flag, memory_order_relaxed))
        err_check_interrupts_slow();
}

/* Internal invariant broken: raise XX000 with file and line. */
#define ERR_ASSERT(cond)                                                        \
    do {                                                                        \
        if (!(cond))                                                            \
            err_raise(ERRCODE_INTERNAL_ERROR, "internal error: assertion \"%s\" failed at %s:%d", \
                      #cond, __FILE__, __LINE__);                               \
    } while (0)

#endif
