/*
 * func_select.c — choosing a function or operator among same-named
 * candidates, with PostgreSQL's rules (parse_func.c func_get_detail,
 * parse_oper.c oper_select_candidate, parse_func.c func_select_candidate):
 *
 *   1. an exact match of the argument types (for a binary operator with one
 *      unknown argument, the other argument's type is assumed for it);
 *   2. otherwise the candidates every argument can reach by implicit casts;
 *      among several, keep those with the most exact matches, then those
 *      with the most preferred types (float8, text, ...) where a conversion
 *      is needed;
 *   3. unknown-literal arguments: if any candidate takes the string
 *      category there, string wins; otherwise the single category all
 *      candidates agree on (preferring its preferred type);
 *   4. if all known arguments have one type, assume the unknowns have it.
 *
 * Several left → 42725 "... is not unique"; none → 42883 "... does not
 * exist", both with PostgreSQL's hints. The chosen candidate's argument
 * types are then applied with implicit casts, so kernels always receive
 * exactly their declared types — except PostgreSQL's "any"/anyelement
 * parameters (FUNC_ARG_ANY, FUNC_ARG_ANYELEMENT in executor/funcs.h),
 * which take every type unchanged (an unknown literal becomes text; for
 * anyelement it is 42804, as PostgreSQL's polymorphic resolution).
 */
#define STRATA_PLANNER_INTERNAL
#include "planner/planner_int.h"

#include <stdio.h>
#include <string.h>

static uint32_t cand_arg(const FuncDesc *f, int i)
{
    if (i >= f->nargs && (f->flags & FUNC_VARIADIC) && f->nargs > 0)
        return f->argtypes[f->nargs - 1];
    return f->argtypes[i];
}

static bool exact_match(const FuncDesc *f, const uint32_t *in, int nargs)
{
    for (int i = 0; i < nargs; i++)
        if (cand_arg(f, i) != in[i])
            return false;
    return true;
}

static bool coercible(const FuncDesc *f, const uint32_t *in, int nargs)
{
    for (int i = 0; i < nargs; i++)
        if (cand_arg(f, i) != FUNC_ARG_ANY && cand_arg(f, i) != FUNC_ARG_ANYELEMENT &&
            !plan__can_coerce(in[i], cand_arg(f, i), CAST_IMPLICIT))
            return false;
    return true;
}

/* Keep the candidates with the highest score; returns the new count. */
typedef int (*ScoreFn)(const FuncDesc *f, const uint32_t *in, int nargs);

static int keep_best(const FuncDesc **c, int n, const uint32_t *in, int nargs, ScoreFn score)
{
    int best = -1, kept = 0;
    for (int i = 0; i < n; i++) {
        int s = score(c[i], in, nargs);
        if (s > best) {
            best = s;
            kept = 0;
        }
        if (s == best)
            c[kept++] = c[i];
    }
    return kept;
}

static int score_exact(const FuncDesc *f, const uint32_t *in, int nargs)
{
    int m = 0;
    for (int i = 0; i < nargs; i++)
        m += in[i] != TYPE_UNKNOWN && cand_arg(f, i) == in[i];
    return m;
}

static int score_preferred(const FuncDesc *f, const uint32_t *in, int nargs)
{
    int m = 0;
    for (int i = 0; i < nargs; i++) {
        if (in[i] == TYPE_UNKNOWN)
            continue;
        uint32_t t = cand_arg(f, i);
        m += t == in[i] ||
             (plan__type_preferred(t) && plan__type_category(t) == plan__type_category(in[i]));
    }
    return m;
}

/* Step 3: resolve unknown slots by category. Returns the new count. */
static int resolve_unknown_slots(const FuncDesc **c, int n, const uint32_t *in, int nargs)
{
    char cat[FUNC_MAX_ARGS * 4];
    bool pref[FUNC_MAX_ARGS * 4];
    for (int i = 0; i < nargs; i++) {
        if (in[i] != TYPE_UNKNOWN)
            continue;
        cat[i] = 0;
        pref[i] = false;
        bool conflict = false;
        for (int k = 0; k < n; k++) {
            uint32_t t = cand_arg(c[k], i);
            char tc = plan__type_category(t);
            if (cat[i] == 0) {
                cat[i] = tc;
                pref[i] = plan__type_preferred(t);
            } else if (tc == cat[i]) {
                pref[i] |= plan__type_preferred(t);
            } else if (tc == 'S') {
                cat[i] = tc;
                pref[i] = plan__type_preferred(t);
            } else {
                conflict = true;
            }
        }
        if (conflict && cat[i] != 'S')
            return n;
    }
    int kept = 0;
    for (int k = 0; k < n; k++) {
        bool keep = true;
        for (int i = 0; i < nargs && keep; i++) {
            if (in[i] != TYPE_UNKNOWN)
                continue;
            uint32_t t = cand_arg(c[k], i);
            keep = plan__type_category(t) == cat[i] && (!pref[i] || plan__type_preferred(t));
        }
        if (keep)
            c[kept++] = c[k];
    }
    return kept > 0 ? kept : n;
}

/* Step 4: all known inputs share one type: assume it for the unknowns. */
static const FuncDesc *assume_known_type(const FuncDesc **c, int n, const uint32_t *in, int nargs)
{
    uint32_t known = TYPE_UNKNOWN;
    for (int i = 0; i < nargs; i++) {
        if (in[i] == TYPE_UNKNOWN)
            continue;
        if (known == TYPE_UNKNOWN)
            known = in[i];
        else if (known != in[i])
            return NULL;
    }
    if (known == TYPE_UNKNOWN)
        return NULL;
    uint32_t as[FUNC_MAX_ARGS * 4];
    for (int i = 0; i < nargs; i++)
        as[i] = known;
    const FuncDesc *found = NULL;
    for (int k = 0; k < n; k++) {
        if (coercible(c[k], as, nargs)) {
            if (found)
                return NULL;
            found = c[k];
        }
    }
    return found;
}

/* The candidate, or NULL with *ambiguous set when several remain. */
static const FuncDesc *select_candidate(const char *name, const uint32_t *in, int nargs,
                                        bool binary_op, bool *ambiguous)
{
    FuncCandidates all;
    exec_func_candidates(name, nargs, &all);
    *ambiguous = false;
    uint32_t probe[FUNC_MAX_ARGS * 4];
    memcpy(probe, in, sizeof(uint32_t) * (size_t)nargs);
    if (binary_op && nargs == 2 && (in[0] == TYPE_UNKNOWN) != (in[1] == TYPE_UNKNOWN))
        probe[0] = probe[1] = in[0] == TYPE_UNKNOWN ? in[1] : in[0];
    for (int k = 0; k < all.count; k++)
        if (exact_match(all.items[k], probe, nargs))
            return all.items[k];
    const FuncDesc *c[sizeof all.items / sizeof all.items[0]];
    int n = 0;
    for (int k = 0; k < all.count; k++)
        if (coercible(all.items[k], in, nargs))
            c[n++] = all.items[k];
    if (n <= 1)
        return n == 1 ? c[0] : NULL;
    n = keep_best(c, n, in, nargs, score_exact);
    if (n == 1)
        return c[0];
    n = keep_best(c, n, in, nargs, score_preferred);
    if (n == 1)
        return c[0];
    int nunknown = 0;
    for (int i = 0; i < nargs; i++)
        nunknown += in[i] == TYPE_UNKNOWN;
    if (nunknown > 0) {
        n = resolve_unknown_slots(c, n, in, nargs);
        if (n == 1)
            return c[0];
        const FuncDesc *f = assume_known_type(c, n, in, nargs);
        if (f)
            return f;
    }
    *ambiguous = true;
    return NULL;
}

/* "integer + boolean", "- boolean", "foo(integer, text)". */
static const char *signature(Binder *b, const char *name, Expr **args, int nargs, bool op)
{
    char buf[512];
    size_t len = 0;
    if (op) {
        if (nargs == 2)
            len += (size_t)snprintf(buf, sizeof buf, "%s ", plan__type_name(b, SQLTYPE(args[0]->type.oid)));
        snprintf(buf + len, sizeof buf - len, "%s %s", name,
                 plan__type_name(b, SQLTYPE(args[nargs - 1]->type.oid)));
        return mem_strdup(b->arena, buf);
    }
    len += (size_t)snprintf(buf, sizeof buf, "%s(", name);
    for (int i = 0; i < nargs && len < sizeof buf; i++)
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s", i ? ", " : "",
                                plan__type_name(b, SQLTYPE(args[i]->type.oid)));
    if (len < sizeof buf)
        snprintf(buf + len, sizeof buf - len, ")");
    return mem_strdup(b->arena, buf);
}

static Expr *resolve_call(Binder *b, const char *name, Expr **args, int nargs, int location,
                          bool op)
{
    uint32_t in[FUNC_MAX_ARGS * 4] = {0};
    if (nargs > (int)(sizeof in / sizeof in[0]))
        nargs = (int)(sizeof in / sizeof in[0]);
    for (int i = 0; i < nargs; i++)
        in[i] = args[i]->type.oid;
    bool ambiguous;
    const FuncDesc *f = select_candidate(name, in, nargs, op && nargs == 2, &ambiguous);
    if (!f) {
        const char *sig = signature(b, name, args, nargs, op);
        if (ambiguous)
            plan__error_hint(b, ERRCODE_AMBIGUOUS_FUNCTION, location,
                             op ? "Could not choose a best candidate operator. You might need to add explicit type casts."
                                : "Could not choose a best candidate function. You might need to add explicit type casts.",
                             op ? "operator is not unique: %s" : "function %s is not unique", sig);
        plan__error_hint(b, ERRCODE_UNDEFINED_FUNCTION, location,
                         op && nargs == 1 ? "No operator matches the given name and argument type. You might need to add an explicit type cast."
                         : op ? "No operator matches the given name and argument types. You might need to add explicit type casts."
                            : "No function matches the given name and argument types. You might need to add explicit type casts.",
                         op ? "operator does not exist: %s" : "function %s does not exist", sig);
    }
    Expr *e = plan__make_expr(b->arena, EXPR_FUNC, SQLTYPE(f->rettype), location, nargs);
    e->func = f;
    e->name = f->name;
    for (int i = 0; i < nargs; i++) {
        uint32_t t = cand_arg(f, i);   /* "any" keeps the type; unknown → text */
        if (t == FUNC_ARG_ANYELEMENT && args[i]->type.oid == TYPE_UNKNOWN)
            plan__error_at(b, ERRCODE_DATATYPE_MISMATCH, location,
                           "could not determine polymorphic type because input has type unknown");
        bool any = t == FUNC_ARG_ANY || t == FUNC_ARG_ANYELEMENT;
        Expr *a = !any ? plan__coerce(b, args[i], SQLTYPE(t), CAST_IMPLICIT)
                  : args[i]->type.oid == TYPE_UNKNOWN
                      ? plan__coerce(b, args[i], SQLTYPE(TYPE_TEXT), CAST_IMPLICIT)
                      : args[i];
        ERR_ASSERT(a != NULL);
        e->args[i] = a;
    }
    return plan__fold(b, e);
}

static bool stringish(uint32_t t) { return t == TYPE_UNKNOWN || plan__type_category(t) == 'S'; }

/*
 * PostgreSQL's text || anynonarray and anynonarray || text (textanycat):
 * the non-string side goes through its output function, i.e. an explicit
 * cast to text, and text || text does the rest.
 */
static bool has_own_concat(uint32_t t)
{
    FuncCandidates c;
    exec_func_candidates("||", 2, &c);
    for (int k = 0; k < c.count; k++)
        if (c.items[k]->argtypes[0] == t && c.items[k]->argtypes[1] == t)
            return true;
    return false;
}

static void textanycat(Binder *b, Expr **l, Expr **r)
{
    Expr **other = NULL;
    if (stringish((*l)->type.oid) && !stringish((*r)->type.oid))
        other = r;
    else if (stringish((*r)->type.oid) && !stringish((*l)->type.oid))
        other = l;
    /* an unknown literal beside a type with its own || (jsonb) takes that type */
    if (!other ||
        ((other == r ? *l : *r)->type.oid == TYPE_UNKNOWN && has_own_concat((*other)->type.oid)))
        return;
    Expr *c = plan__coerce(b, *other, SQLTYPE(TYPE_TEXT), CAST_EXPLICIT);
    if (c)
        *other = c;
}

Expr *plan__make_op(Binder *b, const char *name, Expr *l, Expr *r, int location)
{
    if (l && strcmp(name, "||") == 0)
        textanycat(b, &l, &r);
    Expr *args[2];
    int n = 0;
    if (l)
        args[n++] = l;
    args[n++] = r;
    return resolve_call(b, name, args, n, location, true);
}

Expr *plan__make_func(Binder *b, const char *name, Expr **args, int nargs, int location)
{
    return resolve_call(b, name, args, nargs, location, false);
}
