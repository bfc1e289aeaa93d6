/*
 * funcs.c — the function, cast and aggregate registry: what the planner
 * resolves names against (executor/funcs.h).
 *
 * The tables live next to their kernels (funcs_arith.c, funcs_cmp.c,
 * funcs_string.c, funcs_misc.c, funcs_cast.c); the aggregate table is here.
 * On first use, pthread_once builds sorted index arrays over them —
 * functions by (name, nargs), casts by (source, target), aggregates by
 * (name, argtype) — and every lookup is a binary search. The indexes are
 * built once per process, never modified, and never freed (they live as
 * long as the static tables they point into), so lookups from any thread
 * need no lock.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "common/error.h"
#include "common/types.h"
#include "executor/funcs.h"

/* ---------- aggregates (PostgreSQL's pg_aggregate result types) ---------- */

#define AGG1(nm, k, t, ret) {.name = (nm), .kind = (k), .argtype = (t), .rettype = (ret)}
#define AGG_SUM_AVG(t, sum_ret, avg_ret) AGG1("sum", AGG_SUM, t, sum_ret), AGG1("avg", AGG_AVG, t, avg_ret),
#define AGG_MIN_MAX(t) AGG1("min", AGG_MIN, t, t), AGG1("max", AGG_MAX, t, t),

static const AggDesc agg_table[] = {
    AGG1("count", AGG_COUNT_STAR, TYPE_INVALID, TYPE_INT8),
    AGG_SUM_AVG(TYPE_INT2, TYPE_INT8, TYPE_NUMERIC)
    AGG_SUM_AVG(TYPE_INT4, TYPE_INT8, TYPE_NUMERIC)
    AGG_SUM_AVG(TYPE_INT8, TYPE_NUMERIC, TYPE_NUMERIC)
    AGG_SUM_AVG(TYPE_NUMERIC, TYPE_NUMERIC, TYPE_NUMERIC)
    AGG_SUM_AVG(TYPE_FLOAT4, TYPE_FLOAT4, TYPE_FLOAT8)
    AGG_SUM_AVG(TYPE_FLOAT8, TYPE_FLOAT8, TYPE_FLOAT8)
    AGG_MIN_MAX(TYPE_INT2) AGG_MIN_MAX(TYPE_INT4) AGG_MIN_MAX(TYPE_INT8)
    AGG_MIN_MAX(TYPE_FLOAT4) AGG_MIN_MAX(TYPE_FLOAT8) AGG_MIN_MAX(TYPE_NUMERIC)
    AGG_MIN_MAX(TYPE_TEXT) AGG_MIN_MAX(TYPE_BPCHAR) AGG_MIN_MAX(TYPE_DATE)
    AGG_MIN_MAX(TYPE_TIMESTAMP)
};
#define AGG_TABLE_COUNT ((int)(sizeof agg_table / sizeof agg_table[0]))

/* count(expr): one descriptor for every argument type (argtype INVALID = any). */
static const AggDesc agg_count_any = AGG1("count", AGG_COUNT, TYPE_INVALID, TYPE_INT8);

/* ---------- the indexes ---------- */

static const FuncDesc **func_index;   /* every function, by (name, nargs) */
static int func_index_count;
static const FuncDesc **func_variadic; /* variadic functions, unsorted */
static int func_variadic_count;
static int *cast_index;               /* indexes into exec__casts, by (source, target) */
static const AggDesc **agg_index;     /* by (name, argtype, argtype2) */
static int agg_index_count;
static pthread_once_t registry_once = PTHREAD_ONCE_INIT;

static int func_cmp(const void *x, const void *y)
{
    const FuncDesc *a = *(const FuncDesc *const *)x, *b = *(const FuncDesc *const *)y;
    int c = strcmp(a->name, b->name);
    if (c != 0) return c;
    if (a->nargs != b->nargs) return a->nargs < b->nargs ? -1 : 1;
    return (a->oid > b->oid) - (a->oid < b->oid);
}

static int cast_cmp(const void *x, const void *y)
{
    const CastDesc *a = &exec__casts[*(const int *)x], *b = &exec__casts[*(const int *)y];
    if (a->source != b->source) return a->source < b->source ? -1 : 1;
    return (a->target > b->target) - (a->target < b->target);
}

static int agg_cmp(const void *x, const void *y)
{
    const AggDesc *a = *(const AggDesc *const *)x, *b = *(const AggDesc *const *)y;
    int c = strcmp(a->name, b->name);
    if (c != 0) return c;
    if (a->argtype != b->argtype) return a->argtype < b->argtype ? -1 : 1;
    return (a->argtype2 > b->argtype2) - (a->argtype2 < b->argtype2);
}

/* malloc failure at start-up is fatal: there is no query to fail. */
static void *registry_alloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (p == NULL) abort();
    return p;
}

static void registry_build_funcs(void)
{
    const FuncDesc *tables[] = {exec__funcs_arith, exec__funcs_cmp, exec__funcs_string,
                                exec__funcs_misc, exec__funcs_text, exec__funcs_regex,
                                exec__funcs_math, exec__funcs_datetime, exec__funcs_sequence,
                                exec__funcs_catalog, exec__funcs_json, exec__funcs_array,
                                exec__funcs_make, exec__funcs_numfmt,
                                exec__funcs_todate, exec__funcs_oidtypes, exec__funcs_bitwise};
    const int counts[] = {exec__funcs_arith_count, exec__funcs_cmp_count,
                          exec__funcs_string_count, exec__funcs_misc_count,
                          exec__funcs_text_count, exec__funcs_regex_count,
                          exec__funcs_math_count, exec__funcs_datetime_count,
                          exec__funcs_sequence_count, exec__funcs_catalog_count,
                          exec__funcs_json_count, exec__funcs_array_count,
                          exec__funcs_make_count, exec__funcs_numfmt_count,
                          exec__funcs_todate_count, exec__funcs_oidtypes_count,
                          exec__funcs_bitwise_count};
    int total = 0;
    for (size_t t = 0; t < sizeof counts / sizeof counts[0]; t++) total += counts[t];
    func_index = registry_alloc(sizeof(*func_index) * (size_t)total);
    func_variadic = registry_alloc(sizeof(*func_variadic) * (size_t)total);
    for (size_t t = 0; t < sizeof counts / sizeof counts[0]; t++) {
        for (int i = 0; i < counts[t]; i++) {
            const FuncDesc *f = &tables[t][i];
            func_index[func_index_count++] = f;
            if (f->flags & FUNC_VARIADIC) func_variadic[func_variadic_count++] = f;
        }
    }
    qsort(func_index, (size_t)func_index_count, sizeof(*func_index), func_cmp);
}

static void registry_build(void)
{
    registry_build_funcs();
    cast_index = registry_alloc(sizeof(int) * (size_t)exec__casts_count);
    for (int i = 0; i < exec__casts_count; i++) cast_index[i] = i;
    qsort(cast_index, (size_t)exec__casts_count, sizeof(int), cast_cmp);
    agg_index = registry_alloc(sizeof(*agg_index) * (size_t)(AGG_TABLE_COUNT + exec__aggs_generic_count));
    for (int i = 0; i < AGG_TABLE_COUNT; i++) agg_index[agg_index_count++] = &agg_table[i];
    for (int i = 0; i < exec__aggs_generic_count; i++) agg_index[agg_index_count++] = &exec__aggs_generic[i];
    qsort(agg_index, (size_t)agg_index_count, sizeof(*agg_index), agg_cmp);
}

static inline void registry_init(void) { pthread_once(&registry_once, registry_build); }

/* ---------- functions ---------- */

/* First index whose (name, nargs) is >= the key. */
static int func_lower_bound(const char *name, int nargs)
{
    int lo = 0, hi = func_index_count;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        const FuncDesc *f = func_index[mid];
        int c = strcmp(f->name, name);
        if (c < 0 || (c == 0 && f->nargs < nargs)) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

void exec_func_candidates(const char *name, int nargs, FuncCandidates *out)
{
    registry_init();
    out->count = 0;
    int max = (int)(sizeof out->items / sizeof out->items[0]);
    for (int i = func_lower_bound(name, nargs); i < func_index_count; i++) {
        const FuncDesc *f = func_index[i];
        if (f->nargs != nargs || strcmp(f->name, name) != 0) break;
        if (out->count < max && !(f->flags & FUNC_VARIADIC)) out->items[out->count++] = f;
    }
    for (int i = 0; i < func_variadic_count; i++) {
        const FuncDesc *f = func_variadic[i];
        if (nargs >= f->nargs && strcmp(f->name, name) == 0 && out->count < max)
            out->items[out->count++] = exec__variadic_instance(f, nargs);
    }
}

int exec_func_count(void)
{
    registry_init();
    return func_index_count;
}

const FuncDesc *exec_func_at(int idx)
{
    registry_init();
    return idx >= 0 && idx < func_index_count ? func_index[idx] : NULL;
}

bool exec_is_aggregate_name(const char *name)
{
    registry_init();
    for (int i = 0; i < agg_index_count; i++)
        if (strcmp(agg_index[i]->name, name) == 0) return true;
    return false;
}

/* ---------- casts ---------- */

static int cast_find(uint32_t source, uint32_t target)
{
    registry_init();
    int lo = 0, hi = exec__casts_count;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        const CastDesc *c = &exec__casts[cast_index[mid]];
        if (c->source < source || (c->source == source && c->target < target)) lo = mid + 1;
        else hi = mid;
    }
    if (lo < exec__casts_count) {
        const CastDesc *c = &exec__casts[cast_index[lo]];
        if (c->source == source && c->target == target) return cast_index[lo];
    }
    return -1;
}

const CastDesc *exec_cast_lookup(uint32_t source, uint32_t target)
{
    int i = cast_find(source, target);
    return i < 0 ? exec__cast_oidtypes_lookup(source, target) : &exec__casts[i];
}

const CastDesc *exec_cast_lookup_explicit(uint32_t source, uint32_t target)
{
    int i = cast_find(source, target);
    return i < 0 ? exec__cast_oidtypes_lookup(source, target) : &exec__casts_explicit[i];
}

/* ---------- aggregates ---------- */

const AggDesc *exec_agg_lookup2(const char *name, uint32_t argtype, uint32_t argtype2)
{
    registry_init();
    const AggDesc key = {.name = name, .argtype = argtype, .argtype2 = argtype2};
    const AggDesc *kp = &key;
    int lo = 0, hi = agg_index_count;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (agg_cmp(&agg_index[mid], &kp) < 0) lo = mid + 1;
        else hi = mid;
    }
    if (lo < agg_index_count && agg_cmp(&agg_index[lo], &kp) == 0) return agg_index[lo];
    return NULL;
}

const AggDesc *exec_agg_lookup(const char *name, uint32_t argtype)
{
    registry_init();
    if (strcmp(name, "count") == 0)
        return argtype == TYPE_INVALID ? &agg_table[0] : &agg_count_any;
    return exec_agg_lookup2(name, argtype, TYPE_INVALID);
}
