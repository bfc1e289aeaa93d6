/*
 * build_stmt.c — AST builders for type names, clauses and statements (the
 * expression builders are in build.c; both are declared in build.h).
 *
 * Type names are canonicalised to PostgreSQL's internal names here, so the
 * planner sees "int4" whether the user wrote int, integer or int4.
 */
#define PARSER_INTERNAL
#include <string.h>
#include <strings.h>
#include "common/error.h"
#include "parser/build.h"
#include "grammar.h"

#define NEW_NODE(pc, T, loc) ((T *)new_node((pc), sizeof(T), T_##T, (loc)))

static Node *new_node(ParseCtx *pc, size_t size, NodeTag tag, int location)
{
    Node *n = mem_calloc(pc->arena, 1, size);
    n->tag = tag;
    n->location = location;
    return n;
}

/* ---------- type names ---------- */

TypeName *parse__type(ParseCtx *pc, const char *name, List *typmods, int location)
{
    TypeName *t = NEW_NODE(pc, TypeName, location);
    t->name = name;
    t->typmods = typmods;
    return t;
}

Node *parse__typmod(ParseCtx *pc, const ParseToken *t) { return parse__const_int(pc, t); }

/* A type named by an identifier ("text", "date", "int4", "timestamptz"...):
 * kept as written (already case-folded); the SQL spellings (integer,
 * double precision...) are keywords with rules of their own. */
TypeName *parse__type_generic(ParseCtx *pc, const ParseToken *name, List *typmods)
{
    return parse__type(pc, name->str, typmods, name->offset);
}

/* float(p): PostgreSQL maps p < 25 to float4 and p < 54 to float8. */
TypeName *parse__type_float(ParseCtx *pc, const ParseToken *precision, int location)
{
    if (!precision)
        return parse__type(pc, "float8", NULL, location);
    int64_t p = precision->ival;
    if (p < 1)
        err_raise_pos(ERRCODE_INVALID_PARAMETER_VALUE, parse_char_position(pc->sql, precision->offset),
                      "precision for type float must be at least 1 bit");
    if (p > 53)
        err_raise_pos(ERRCODE_INVALID_PARAMETER_VALUE, parse_char_position(pc->sql, precision->offset),
                      "precision for type float must be less than 54 bits");
    return parse__type(pc, p <= 24 ? "float4" : "float8", NULL, location);
}

/* char without a length means char(1); the marker location -1 lets a typed
 * literal (char 'x') drop that default again. */
TypeName *parse__type_char(ParseCtx *pc, const char *name, const ParseToken *len, int location)
{
    List *mods = NULL;
    if (len) {
        mods = list_make1(pc->arena, parse__const_int(pc, len));
    } else if (strcmp(name, "bpchar") == 0) {
        ParseToken one = {.code = TK_ICONST, .offset = -1, .str = "1", .str_len = 1, .ival = 1};
        mods = list_make1(pc->arena, parse__const_int(pc, &one));
    }
    return parse__type(pc, name, mods, location);
}

TypeName *parse__type_datetime(ParseCtx *pc, const char *base, const ParseToken *precision,
                               bool with_tz, int location)
{
    const char *name = base;
    if (with_tz)
        name = strcmp(base, "timestamp") == 0 ? "timestamptz" : "timetz";
    List *mods = precision ? list_make1(pc->arena, parse__const_int(pc, precision)) : NULL;
    return parse__type(pc, name, mods, location);
}

TypeName *parse__type_array(ParseCtx *pc, TypeName *type)
{
    (void)pc;
    type->array_bounds++;
    return type;
}

/* ---------- SELECT ---------- */

Node *parse__target(ParseCtx *pc, Node *val, const char *alias)
{
    ResTarget *r = NEW_NODE(pc, ResTarget, val ? val->location : -1);
    r->val = val;
    r->name = alias;
    return &r->node;
}

/* ORDER BY / LIMIT / OFFSET after a (possibly parenthesised) select; each
 * clause may be given once, as in PostgreSQL's insertSelectOptions. */
Node *parse__select_tail(ParseCtx *pc, Node *select, List *sort, const ParseLimit *limit)
{
    SelectStmt *s = (SelectStmt *)select;
    if (sort) {
        if (s->sort_clause)
            parse__error_at(pc, ((Node *)list_nth(sort, 0))->location, "multiple ORDER BY clauses not allowed");
        s->sort_clause = sort;
    }
    if (limit && limit->has_offset) {
        if (s->limit_offset)
            parse__error_at(pc, limit->offset ? limit->offset->location : -1,
                            "multiple OFFSET clauses not allowed");
        s->limit_offset = limit->offset;
    }
    if (limit && limit->has_count) {
        if (s->limit_count)
            parse__error_at(pc, limit->count ? limit->count->location : -1,
                            "multiple LIMIT clauses not allowed");
        s->limit_count = limit->count;
    }
    return select;
}

ParseLimit parse__limit(Node *count, bool has_count, Node *offset, bool has_offset)
{
    ParseLimit l = {count, offset, has_count, has_offset};
    return l;
}

Node *parse__values(ParseCtx *pc, Node *values, List *row, int location)
{
    SelectStmt *s = values ? (SelectStmt *)values : NEW_NODE(pc, SelectStmt, location);
    s->values_lists = list_append(pc->arena, s->values_lists, row);
    return &s->node;
}

Node *parse__sortby(ParseCtx *pc, Node *expr, SortByDir dir, SortByNulls nulls)
{
    SortBy *s = NEW_NODE(pc, SortBy, -1);
    s->node_expr = expr;
    s->sortby_dir = dir;
    s->sortby_nulls = nulls;
    return &s->node;
}

Node *parse__range_var(ParseCtx *pc, const ParseToken *first, const ParseToken *second)
{
    RangeVar *r = NEW_NODE(pc, RangeVar, first->offset);
    if (second) {
        r->schemaname = first->str;
        r->relname = second->str;
    } else {
        r->relname = first->str;
    }
    return &r->node;
}

Node *parse__range_alias(ParseCtx *pc, Node *range_var, const ParseAlias *alias)
{
    (void)pc;
    RangeVar *r = (RangeVar *)range_var;
    r->alias = alias->name;
    r->colaliases = alias->colnames;
    return range_var;
}

Node *parse__join(ParseCtx *pc, JoinType type, bool natural, Node *l, Node *r,
                  const ParseJoinQual *qual, int location)
{
    JoinExpr *j = NEW_NODE(pc, JoinExpr, location);
    j->jointype = type;
    j->is_natural = natural;
    j->larg = l;
    j->rarg = r;
    if (qual) {
        j->using_clause = qual->using_cols;
        j->quals = qual->on;
    }
    return &j->node;
}

/* ---------- INSERT, CREATE, DROP ---------- */

Node *parse__insert_col(ParseCtx *pc, const ParseToken *name)
{
    ResTarget *r = NEW_NODE(pc, ResTarget, name->offset);
    r->name = name->str;
    return &r->node;
}

Node *parse__column_def(ParseCtx *pc, const ParseToken *name, TypeName *type, List *constraints)
{
    ColumnDef *c = NEW_NODE(pc, ColumnDef, name->offset);
    c->colname = name->str;
    c->type_name = type;
    for (int i = 0; i < list_len(constraints); i++) {
        Node *n = list_nth(constraints, i);
        if (IS_A(n, CollateClause))
            c->coll_clause = (CollateClause *)n;
        else
            c->constraints = list_append(pc->arena, c->constraints, n);
    }
    return &c->node;
}

Node *parse__constraint(ParseCtx *pc, ConstrType type, Node *expr, List *keys, int location)
{
    Constraint *c = NEW_NODE(pc, Constraint, location);
    c->contype = type;
    c->raw_expr = expr;
    c->keys = keys;
    return &c->node;
}

/* Source text between two byte offsets, blanks trimmed. */
static const char *source_text(ParseCtx *pc, int start, int end)
{
    while (start < end && strchr(" \t\n\r\f", pc->sql[start]))
        start++;
    while (end > start && strchr(" \t\n\r\f", pc->sql[end - 1]))
        end--;
    return mem_strndup(pc->arena, pc->sql + start, (size_t)(end - start));
}

/* DEFAULT b_expr: reduced with the token after the expression as
 * lookahead, so the expression ends where the previous token ended. */
Node *parse__constraint_default(ParseCtx *pc, Node *expr, int start_offset)
{
    Constraint *c = (Constraint *)parse__constraint(pc, CONSTR_DEFAULT, expr, NULL, start_offset);
    c->expr_text = source_text(pc, start_offset, pc->prev_end);
    return &c->node;
}

Node *parse__constraint_check(ParseCtx *pc, Node *expr, int lp_offset, int rp_offset, int location)
{
    Constraint *c = (Constraint *)parse__constraint(pc, CONSTR_CHECK, expr, NULL, location);
    c->expr_text = source_text(pc, lp_offset + 1, rp_offset);
    return &c->node;
}

Node *parse__constraint_name(ParseCtx *pc, Node *constraint, const ParseToken *name, int location)
{
    (void)pc;
    Constraint *c = (Constraint *)constraint;
    c->conname = name->str;
    c->node.location = location;
    return constraint;
}

/* ---------- utility statements ---------- */

/* A transaction_mode string ("isolation level read committed", "read only",
 * "not deferrable" ...) as PostgreSQL's DefElem: transaction_isolation (the
 * level as a string), transaction_read_only / transaction_deferrable (bool). */
static Node *mode_defelem(ParseCtx *pc, const char *mode, int location)
{
    static const char iso[] = "isolation level ";
    DefElem *d = PARSE_NEW(pc, DefElem, location);
    if (strncmp(mode, iso, sizeof iso - 1) == 0) {
        d->defname = "transaction_isolation";
        d->arg = parse__var_word(pc, mode + sizeof iso - 1, location);
    } else if (strncmp(mode, "read ", 5) == 0) {
        d->defname = "transaction_read_only";
        d->arg = parse__const_bool(pc, strcmp(mode, "read only") == 0, location);
    } else {
        d->defname = "transaction_deferrable";
        d->arg = parse__const_bool(pc, strcmp(mode, "deferrable") == 0, location);
    }
    return &d->node;
}

static List *mode_defelems(ParseCtx *pc, List *modes, int location)
{
    List *out = NULL;
    for (int i = 0; i < list_len(modes); i++)
        out = list_append(pc->arena, out, mode_defelem(pc, list_nth(modes, i), location));
    return out;
}

/* options: the transaction_mode strings; modes: the same as DefElem. */
Node *parse__transaction(ParseCtx *pc, TransactionStmtKind kind, List *options, int location)
{
    TransactionStmt *s = NEW_NODE(pc, TransactionStmt, location);
    s->kind = kind;
    s->options = options;
    s->modes = mode_defelems(pc, options, location);
    return &s->node;
}

Node *parse__set(ParseCtx *pc, VariableSetKind kind, const char *name, List *args, int location)
{
    VariableSetStmt *s = NEW_NODE(pc, VariableSetStmt, location);
    s->kind = kind;
    s->name = name;
    s->args = args;
    return &s->node;
}

Node *parse__set_local(Node *stmt, bool is_local)
{
    ((VariableSetStmt *)stmt)->is_local = is_local;
    return stmt;
}

/*
 * SET TRANSACTION <modes> and SET SESSION CHARACTERISTICS AS TRANSACTION
 * <modes>: PostgreSQL sets the GUCs transaction_isolation /
 * transaction_read_only / transaction_deferrable (or their default_
 * versions). One mode keeps the GUC form (name, args) for the first
 * planner; several are VAR_SET_MULTI. Both fill `modes` (DefElem).
 */
Node *parse__set_transaction(ParseCtx *pc, const char *prefix, List *modes, int location)
{
    if (list_len(modes) > 1) {
        const char *name = prefix[0] == 't' ? "transaction" : "session characteristics";
        VariableSetStmt *m = (VariableSetStmt *)parse__set(pc, VAR_SET_MULTI, name, NULL, location);
        m->modes = mode_defelems(pc, modes, location);
        return &m->node;
    }
    const char *mode = list_nth(modes, 0);
    static const char iso[] = "isolation level ";
    const char *name, *value;
    if (strncmp(mode, iso, sizeof iso - 1) == 0) {
        name = "isolation";
        value = mode + sizeof iso - 1;
    } else if (strstr(mode, "read ") == mode) {
        name = "read_only";
        value = strcmp(mode, "read only") == 0 ? "on" : "off";
    } else {
        name = "deferrable";
        value = strcmp(mode, "deferrable") == 0 ? "on" : "off";
    }
    List *args = list_make1(pc->arena, parse__var_word(pc, value, location));
    VariableSetStmt *s = (VariableSetStmt *)parse__set(pc, VAR_SET_VALUE,
                                                       mem_printf(pc->arena, "%s%s", prefix, name), args, location);
    s->modes = mode_defelems(pc, modes, location);
    return &s->node;
}

/* SET values: words become string constants, numbers keep their kind. */
Node *parse__var_word(ParseCtx *pc, const char *word, int location)
{
    ParseToken t = {.code = TK_SCONST, .offset = location, .str = word, .str_len = (uint32_t)strlen(word)};
    return parse__const_string(pc, &t);
}

Node *parse__var_value(ParseCtx *pc, const ParseToken *t, bool negate)
{
    Node *n = t->code == TK_ICONST ? parse__const_int(pc, t) : parse__const_numeric(pc, t);
    return negate ? parse__uminus(pc, n, t->offset) : n;
}

Node *parse__show(ParseCtx *pc, const char *name, int location)
{
    VariableShowStmt *s = NEW_NODE(pc, VariableShowStmt, location);
    s->name = name;
    return &s->node;
}

Node *parse__explain(ParseCtx *pc, Node *query, bool analyze, bool verbose, int location)
{
    ExplainStmt *s = NEW_NODE(pc, ExplainStmt, location);
    s->query = query;
    s->analyze = analyze;
    s->verbose = verbose;
    if (analyze)
        s->options = list_append(pc->arena, s->options, parse__defelem_node(pc, "analyze", NULL, location));
    if (verbose)
        s->options = list_append(pc->arena, s->options, parse__defelem_node(pc, "verbose", NULL, location));
    return &s->node;
}
