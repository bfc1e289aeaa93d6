/*
 * bind_namedarg.c — named function arguments, f(name => x) and the older
 * f(name := x): PostgreSQL's ParseFuncOrColumn checks plus the part of
 * func_get_detail that maps names to parameter positions and fills
 * omitted parameters from their defaults.
 *
 * The function registry (executor/funcs.h) has no parameter names, so the
 * built-in functions PostgreSQL 15 declares with proargnames (and that
 * Strata has) are listed here with their names and default expressions.
 * A call is rewritten into a positional one before binding; the registry's
 * per-arity entries (make_interval with 0..7 arguments, jsonb_set with 3
 * or 4) then resolve it as usual. Parameters after the last one given are
 * left out rather than defaulted, which selects the same function.
 */
#define STRATA_PLANNER_INTERNAL
#include "planner/planner_int.h"

#include <stdio.h>
#include <string.h>
#include "parser/parser.h"

#define NAMED_MAX_PARAMS 8

/* One function's parameter names; defaults[i] is SQL text or NULL. */
typedef struct NamedSig {
    const char *func;
    int nparams;
    const char *names[NAMED_MAX_PARAMS];
    const char *defaults[NAMED_MAX_PARAMS];
} NamedSig;

static const NamedSig named_sigs[] = {
    {"make_interval", 7, {"years", "months", "weeks", "days", "hours", "mins", "secs"},
     {"0", "0", "0", "0", "0", "0", "0.0"}},
    {"make_date", 3, {"year", "month", "day"}, {0}},
    {"make_time", 3, {"hour", "min", "sec"}, {0}},
    {"make_timestamp", 6, {"year", "month", "mday", "hour", "min", "sec"}, {0}},
    /* the 6-argument make_timestamptz has the same names without timezone */
    {"make_timestamptz", 7, {"year", "month", "mday", "hour", "min", "sec", "timezone"}, {0}},
    {"jsonb_set", 4, {"jsonb_in", "path", "replacement", "create_if_missing"}, {0, 0, 0, "true"}},
    {"jsonb_insert", 4, {"jsonb_in", "path", "replacement", "insert_after"}, {0, 0, 0, "false"}},
    {"json_object_field", 2, {"from_json", "field_name"}, {0}},
    {"json_object_field_text", 2, {"from_json", "field_name"}, {0}},
    {"jsonb_object_field", 2, {"from_json", "field_name"}, {0}},
    {"jsonb_object_field_text", 2, {"from_json", "field_name"}, {0}},
    {"jsonb_array_element", 2, {"from_json", "element_index"}, {0}},
    {"jsonb_array_element_text", 2, {"from_json", "element_index"}, {0}},
    /* set-returning ones (select list and FROM) */
    {"json_each", 1, {"from_json"}, {0}},
    {"json_each_text", 1, {"from_json"}, {0}},
    {"jsonb_each", 1, {"from_json"}, {0}},
    {"jsonb_each_text", 1, {"from_json"}, {0}},
    {"json_array_elements", 1, {"from_json"}, {0}},
    {"json_array_elements_text", 1, {"from_json"}, {0}},
    {"jsonb_array_elements", 1, {"from_json"}, {0}},
    {"jsonb_array_elements_text", 1, {"from_json"}, {0}},
};

bool plan__has_named_args(const FuncCall *fc)
{
    for (int i = 0; i < list_len(fc->args); i++)
        if (IS_A(list_nth(fc->args, i), NamedArgExpr))
            return true;
    return false;
}

static const NamedSig *find_sig(const char *name)
{
    for (size_t k = 0; k < sizeof named_sigs / sizeof named_sigs[0]; k++)
        if (strcmp(named_sigs[k].func, name) == 0)
            return &named_sigs[k];
    return NULL;
}

/* 42883 naming the call as PostgreSQL does: f(integer, days => integer). */
static _Noreturn void no_such_function(Binder *b, const FuncCall *fc, const char *name)
{
    char buf[512];
    size_t len = (size_t)snprintf(buf, sizeof buf, "%s(", name);
    for (int i = 0; i < list_len(fc->args) && len < sizeof buf; i++) {
        const Node *n = list_nth(fc->args, i);
        const char *label = NULL;
        if (IS_A(n, NamedArgExpr)) {
            label = ((const NamedArgExpr *)n)->name;
            n = ((const NamedArgExpr *)n)->arg;
        }
        Expr *e = plan__bind_expr(b, n);
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s%s%s", i ? ", " : "",
                                label ? label : "", label ? " => " : "", plan__type_name(b, e->type));
    }
    if (len < sizeof buf)
        snprintf(buf + len, sizeof buf - len, ")");
    plan__error_hint(b, ERRCODE_UNDEFINED_FUNCTION, fc->node.location,
                     "No function matches the given name and argument types. You might need to add explicit type casts.",
                     "function %s does not exist", buf);
}

/* ParseFuncOrColumn's checks: no name twice, no positional after a named. */
static void check_arg_order(Binder *b, const FuncCall *fc)
{
    bool seen_named = false;
    for (int i = 0; i < list_len(fc->args); i++) {
        const Node *n = list_nth(fc->args, i);
        if (!IS_A(n, NamedArgExpr)) {
            if (seen_named)
                plan__error_at(b, ERRCODE_SYNTAX_ERROR, n->location,
                               "positional argument cannot follow named argument");
            continue;
        }
        const NamedArgExpr *na = (const NamedArgExpr *)n;
        for (int j = 0; j < i; j++) {
            const Node *m = list_nth(fc->args, j);
            if (IS_A(m, NamedArgExpr) && strcmp(((const NamedArgExpr *)m)->name, na->name) == 0)
                plan__error_at(b, ERRCODE_SYNTAX_ERROR, na->node.location,
                               "argument name \"%s\" used more than once", na->name);
        }
        seen_named = true;
    }
}

const FuncCall *plan__named_args_positional(Binder *b, const FuncCall *fc, const char *name)
{
    check_arg_order(b, fc);
    const NamedSig *sig = list_len(fc->funcname) <= 2 ? find_sig(name) : NULL;
    int nargs = list_len(fc->args);
    if (!sig || nargs > sig->nparams)
        no_such_function(b, fc, name);
    const Node *slot[NAMED_MAX_PARAMS] = {0};
    int last = -1;
    for (int i = 0; i < nargs; i++) {
        const Node *n = list_nth(fc->args, i);
        int pos = i;
        if (IS_A(n, NamedArgExpr)) {
            const NamedArgExpr *na = (const NamedArgExpr *)n;
            for (pos = 0; pos < sig->nparams && strcmp(sig->names[pos], na->name) != 0; pos++) {
            }
            if (pos == sig->nparams || slot[pos])   /* unknown name, or also given by position */
                no_such_function(b, fc, name);
            n = na->arg;
        }
        slot[pos] = n;
        if (pos > last)
            last = pos;
    }
    List *args = NULL;
    for (int p = 0; p <= last; p++) {
        if (!slot[p] && !sig->defaults[p])
            no_such_function(b, fc, name);
        const Node *n = slot[p] ? slot[p] : parse_expression(b->arena, sig->defaults[p]);
        args = list_append(b->arena, args, (void *)n);
    }
    FuncCall *out = MEM_NEW(b->arena, FuncCall);
    *out = *fc;
    out->args = args;
    return out;
}
