/*
 * funcs_misc.c — functions without arguments: now(), current_date,
 * current_timestamp, localtimestamp, version() and gen_random_uuid().
 *
 * now() and friends are FUNC_STABLE: the value is the transaction's start
 * time (common/datetime.h's timestamp_now(), UTC), the same for every row
 * and every call within the transaction, as PostgreSQL's. now(),
 * current_timestamp, transaction_timestamp() and statement_timestamp()
 * are timestamptz; localtimestamp and current_date are the session zone's
 * wall clock. (statement_timestamp() is the transaction's time here.)
 * version() returns a PostgreSQL-shaped string so tools that parse it
 * (psql, drivers, ORMs) see a 15.x server.
 */
#include <string.h>
#include <openssl/rand.h>
#include "common/arena.h"
#include "common/datetime.h"
#include "common/error.h"
#include "common/tz.h"
#include "common/types.h"
#include "executor/funcs.h"
#include "executor/kernels_template.h"

static void fill_i64(const FuncCallCtx *ctx, Vector *result, int64_t v)
{
    int64_t *r = (int64_t *)result->data;
    for (uint32_t i = 0; i < ctx->count; i++) r[ctx->sel ? ctx->sel[i] : i] = v;
}

static void k_now(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    (void)args;
    fill_i64(ctx, result, timestamp_now());
}

/* The transaction time on the session zone's wall clock (timestamp_now()
 * is UTC). */
static int64_t local_now(void)
{
    int64_t t = timestamp_now();
    return timestamptz_to_local(t, tz_session_zone());
}

static void k_localtimestamp(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    (void)args;
    fill_i64(ctx, result, local_now());
}

static void k_current_date(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    (void)args;
    int32_t d = date_from_timestamp(local_now());
    int32_t *r = (int32_t *)result->data;
    for (uint32_t i = 0; i < ctx->count; i++) r[ctx->sel ? ctx->sel[i] : i] = d;
}

static void k_version(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    (void)args;
    StrRef v = {EXEC_VERSION_STRING, (uint32_t)strlen(EXEC_VERSION_STRING)};
    StrRef *r = (StrRef *)result->data;
    for (uint32_t i = 0; i < ctx->count; i++) r[ctx->sel ? ctx->sel[i] : i] = v;
}

/* gen_random_uuid(): version-4 UUIDs (RFC 4122) from OpenSSL's CSPRNG, as
 * PostgreSQL's (pg_strong_random); one RAND_bytes call per batch. */
static void k_gen_random_uuid(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    (void)args;
    unsigned char *buf = mem_alloc(ctx->arena, 16 * (size_t)ctx->count + 1);
    if (ctx->count > 0 && RAND_bytes(buf, (int)(16 * ctx->count)) != 1)
        err_raise(ERRCODE_INTERNAL_ERROR, "could not generate random values");
    StrRef *r = (StrRef *)result->data;
    for (uint32_t i = 0; i < ctx->count; i++) {
        unsigned char *u = buf + 16 * (size_t)i;
        u[6] = (unsigned char)((u[6] & 0x0f) | 0x40); /* version 4 */
        u[8] = (unsigned char)((u[8] & 0x3f) | 0x80); /* variant 10xx */
        r[ctx->sel ? ctx->sel[i] : i] = (StrRef){(const char *)u, 16};
    }
}

/* Functions PostgreSQL implements as SQL value functions (no pg_proc row)
 * get ids from Strata's own range. */
#define STRATA_OID_BASE 900000u

const FuncDesc exec__funcs_misc[] = {
    {"now", 0, {0, 0, 0, 0}, TYPE_TIMESTAMPTZ, FUNC_STABLE, k_now, 1299},
    {"transaction_timestamp", 0, {0, 0, 0, 0}, TYPE_TIMESTAMPTZ, FUNC_STABLE, k_now, 2647},
    {"statement_timestamp", 0, {0, 0, 0, 0}, TYPE_TIMESTAMPTZ, FUNC_STABLE, k_now, 2648},
    {"current_timestamp", 0, {0, 0, 0, 0}, TYPE_TIMESTAMPTZ, FUNC_STABLE, k_now, STRATA_OID_BASE + 1},
    {"localtimestamp", 0, {0, 0, 0, 0}, TYPE_TIMESTAMP, FUNC_STABLE, k_localtimestamp, STRATA_OID_BASE + 2},
    {"current_date", 0, {0, 0, 0, 0}, TYPE_DATE, FUNC_STABLE, k_current_date, STRATA_OID_BASE + 3},
    {"version", 0, {0, 0, 0, 0}, TYPE_TEXT, FUNC_STABLE, k_version, 89},
    {"gen_random_uuid", 0, {0, 0, 0, 0}, TYPE_UUID, FUNC_VOLATILE, k_gen_random_uuid, 3432},
};
const int exec__funcs_misc_count = (int)(sizeof exec__funcs_misc / sizeof exec__funcs_misc[0]);
