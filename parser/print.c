/*
 * print.c — parse_node_to_string: a compact S-expression of a raw parse
 * tree, for unit tests (one string compare checks a whole tree) and for
 * debugging. The format is documented in README.md; it is not a stable
 * interface for anything else.
 */
#define PARSER_INTERNAL
#include <stdio.h>
#include <string.h>
#include "parser/parser_int.h"
#include "parser/print_int.h"

struct ParseOut {
    MemArena *arena;
    char *buf;
    size_t len, cap;
};
typedef ParseOut Out;

static void put(Out *o, const char *s)
{
    size_t n = strlen(s);
    if (o->len + n + 1 > o->cap) {
        size_t cap = o->cap * 2 > o->len + n + 1 ? o->cap * 2 : o->len + n + 64;
        o->buf = mem_realloc(o->arena, o->buf, o->cap, cap);
        o->cap = cap;
    }
    memcpy(o->buf + o->len, s, n + 1);
    o->len += n;
}

static void print_node(Out *o, const Node *n);

static void print_list(Out *o, const List *l)
{
    put(o, "[");
    for (int i = 0; i < list_len(l); i++) {
        if (i)
            put(o, " ");
        print_node(o, list_nth(l, i));
    }
    put(o, "]");
}

static void print_names(Out *o, const List *l, const char *sep)
{
    for (int i = 0; i < list_len(l); i++) {
        if (i)
            put(o, sep);
        put(o, list_nth(l, i));
    }
}

static void print_const(Out *o, const A_Const *c)
{
    switch (c->kind) {
    case CONST_INTEGER:
    case CONST_NUMERIC: put(o, c->text); break;
    case CONST_BOOL: put(o, c->bval ? "true" : "false"); break;
    case CONST_NULL: put(o, "NULL"); break;
    case CONST_STRING:
        put(o, "'");
        for (const char *p = c->sval; *p; p++) {
            char ch[3] = {*p, *p == '\'' ? '\'' : '\0', '\0'};
            put(o, ch);
        }
        put(o, "'");
        break;
    }
}

static void print_type(Out *o, const TypeName *t)
{
    if (t->schemaname) {
        put(o, t->schemaname);
        put(o, ".");
    }
    put(o, t->name);
    if (t->interval_fields) {
        char f[32];
        snprintf(f, sizeof f, "{%#x}", (unsigned)t->interval_fields);
        put(o, f);
    }
    if (t->typmods) {
        put(o, "(");
        for (int i = 0; i < list_len(t->typmods); i++) {
            if (i)
                put(o, ",");
            print_node(o, list_nth(t->typmods, i));
        }
        put(o, ")");
    }
    for (int i = 0; i < t->array_bounds; i++)
        put(o, "[]");
}

static void print_aexpr(Out *o, const A_Expr *e)
{
    static const char *const kinds[] = {
        [AEXPR_BETWEEN] = "between", [AEXPR_NOT_BETWEEN] = "not-between",
        [AEXPR_BETWEEN_SYM] = "between-sym", [AEXPR_NOT_BETWEEN_SYM] = "not-between-sym",
        [AEXPR_DISTINCT] = "is-distinct", [AEXPR_NOT_DISTINCT] = "is-not-distinct",
    };
    put(o, "(");
    if (e->kind == AEXPR_IN)
        put(o, strcmp(e->name, "=") == 0 ? "in" : "not-in");
    else if (kinds[e->kind])
        put(o, kinds[e->kind]);
    else
        put(o, e->name);
    if (e->lexpr) {
        put(o, " ");
        print_node(o, e->lexpr);
    }
    put(o, " ");
    if (e->kind == AEXPR_IN)
        print_list(o, (const List *)e->rexpr);
    else if (e->kind >= AEXPR_BETWEEN && e->kind <= AEXPR_NOT_BETWEEN_SYM) {
        const List *b = (const List *)e->rexpr;
        print_node(o, list_nth(b, 0));
        put(o, " ");
        print_node(o, list_nth(b, 1));
    } else
        print_node(o, e->rexpr);
    if (e->escape) {
        put(o, " escape ");
        print_node(o, e->escape);
    }
    put(o, ")");
}

static void print_case(Out *o, const CaseExpr *c)
{
    put(o, "(case");
    if (c->arg) {
        put(o, " ");
        print_node(o, c->arg);
    }
    for (int i = 0; i < list_len(c->args); i++) {
        put(o, " ");
        print_node(o, list_nth(c->args, i));
    }
    if (c->defresult) {
        put(o, " (else ");
        print_node(o, c->defresult);
        put(o, ")");
    }
    put(o, ")");
}

static void print_func(Out *o, const FuncCall *f)
{
    put(o, "(call ");
    print_names(o, f->funcname, ".");
    put(o, f->agg_star ? " *" : f->agg_distinct ? " distinct" : "");
    for (int i = 0; i < list_len(f->args); i++) {
        put(o, " ");
        print_node(o, list_nth(f->args, i));
    }
    parse__print_func_ext(o, f);
    put(o, ")");
}

static void print_expr(Out *o, const Node *n)
{
    static const char *const bools[] = {"and", "or", "not"};
    static const char *const tests[] = {"is-null", "is-not-null", "is-true", "is-not-true",
                                        "is-false", "is-not-false", "is-unknown", "is-not-unknown"};
    char num[32];
    switch (n->tag) {
    case T_A_Const: print_const(o, (const A_Const *)n); break;
    case T_ColumnRef: {
        const ColumnRef *c = (const ColumnRef *)n;
        print_names(o, c->fields, ".");
        put(o, c->star ? (c->fields ? ".*" : "*") : "");
        break;
    }
    case T_ParamRef:
        snprintf(num, sizeof num, "$%d", ((const ParamRef *)n)->number);
        put(o, num);
        break;
    case T_A_Expr: print_aexpr(o, (const A_Expr *)n); break;
    case T_BoolExpr: {
        const BoolExpr *b = (const BoolExpr *)n;
        put(o, "(");
        put(o, bools[b->boolop]);
        for (int i = 0; i < list_len(b->args); i++) {
            put(o, " ");
            print_node(o, list_nth(b->args, i));
        }
        put(o, ")");
        break;
    }
    case T_NullTest:
        put(o, "(");
        put(o, tests[((const NullTest *)n)->nulltesttype]);
        put(o, " ");
        print_node(o, ((const NullTest *)n)->arg);
        put(o, ")");
        break;
    case T_CaseExpr: print_case(o, (const CaseExpr *)n); break;
    case T_CaseWhen:
        put(o, "(when ");
        print_node(o, ((const CaseWhen *)n)->expr);
        put(o, " ");
        print_node(o, ((const CaseWhen *)n)->result);
        put(o, ")");
        break;
    case T_TypeCast:
        put(o, "(cast ");
        print_node(o, ((const TypeCast *)n)->arg);
        put(o, " ");
        print_type(o, ((const TypeCast *)n)->type_name);
        put(o, ")");
        break;
    case T_FuncCall: print_func(o, (const FuncCall *)n); break;
    default:
        if (!parse__print_ext(o, n))
            put(o, "<?>");
        break;
    }
}

static void print_clause(Out *o, const char *label, const Node *n)
{
    if (!n)
        return;
    put(o, " ");
    if (label[0]) {
        put(o, label);
        put(o, " ");
    }
    print_node(o, n);
}

static void print_list_clause(Out *o, const char *label, const List *l)
{
    if (!l)
        return;
    put(o, " ");
    if (label[0]) {
        put(o, label);
        put(o, " ");
    }
    print_list(o, l);
}

static void print_select(Out *o, const SelectStmt *s)
{
    if (s->op != SELECT_SETOP_NONE) {
        parse__print_setop(o, s);
    } else if (s->values_lists) {
        put(o, "(values");
        for (int i = 0; i < list_len(s->values_lists); i++) {
            put(o, " ");
            print_list(o, list_nth(s->values_lists, i));
        }
    } else {
        put(o, s->distinct ? "(select distinct " : "(select ");
        if (s->distinct_clause) {
            put(o, "on ");
            print_list(o, s->distinct_clause);
            put(o, " ");
        }
        print_list(o, s->target_list);
    }
    print_clause(o, "into", (const Node *)s->into_clause);
    print_list_clause(o, "from", s->from_clause);
    print_clause(o, "where", s->where_clause);
    print_list_clause(o, "group", s->group_clause);
    print_clause(o, "having", s->having_clause);
    print_list_clause(o, "window", s->window_clause);
    print_list_clause(o, "order", s->sort_clause);
    print_clause(o, "limit", s->limit_count);
    print_clause(o, "offset", s->limit_offset);
    print_list_clause(o, "locking", s->locking_clause);
    print_clause(o, "with", (const Node *)s->with_clause);
    put(o, ")");
}

static void print_clause_node(Out *o, const Node *n)
{
    static const char *const joins[] = {"inner", "left", "full", "right", "cross"};
    static const char *const dirs[] = {"", " ASC", " DESC"};
    static const char *const nulls[] = {"", " NULLS FIRST", " NULLS LAST"};
    switch (n->tag) {
    case T_ResTarget: {
        const ResTarget *r = (const ResTarget *)n;
        if (r->val)
            print_node(o, r->val);
        if (r->val && r->name)
            put(o, " AS ");
        if (r->name)
            put(o, r->name);
        break;
    }
    case T_RangeVar: {
        const RangeVar *r = (const RangeVar *)n;
        put(o, r->only ? "only " : "");
        put(o, r->relpersistence == 't' ? "temp " : r->relpersistence == 'u' ? "unlogged " : "");
        if (r->schemaname) {
            put(o, r->schemaname);
            put(o, ".");
        }
        put(o, r->relname);
        if (r->alias) {
            put(o, " AS ");
            put(o, r->alias);
        }
        if (r->colaliases) {
            put(o, "(");
            print_names(o, r->colaliases, ",");
            put(o, ")");
        }
        break;
    }
    case T_JoinExpr: {
        const JoinExpr *j = (const JoinExpr *)n;
        put(o, j->is_natural ? "(natural-join " : "(join ");
        put(o, joins[j->jointype]);
        put(o, " ");
        print_node(o, j->larg);
        put(o, " ");
        print_node(o, j->rarg);
        print_clause(o, "on", j->quals);
        if (j->using_clause) {
            put(o, " using (");
            print_names(o, j->using_clause, ",");
            put(o, ")");
        }
        put(o, ")");
        if (j->alias) {
            put(o, " AS ");
            put(o, j->alias);
        }
        break;
    }
    case T_SortBy: {
        const SortBy *s = (const SortBy *)n;
        print_node(o, s->node_expr);
        put(o, dirs[s->sortby_dir]);
        put(o, nulls[s->sortby_nulls]);
        break;
    }
    case T_TypeName: print_type(o, (const TypeName *)n); break;
    default:
        if (!parse__print_ext(o, n))
            put(o, "<?>");
        break;
    }
}

static void print_constraint(Out *o, const Constraint *c)
{
    static const char *const types[] = {"null", "not-null", "default", "primary", "unique", "check",
                                        "identity", "generated", "foreign"};
    put(o, "(");
    put(o, types[c->contype]);
    if (c->conname) {
        put(o, " name=");
        put(o, c->conname);
    }
    if (c->raw_expr) {
        put(o, " ");
        print_node(o, c->raw_expr);
    }
    if (c->expr_text) {
        put(o, " text=\"");
        put(o, c->expr_text);
        put(o, "\"");
    }
    if (c->keys) {
        put(o, " (");
        print_names(o, c->keys, ",");
        put(o, ")");
    }
    parse__print_constraint_ext(o, c);
    put(o, ")");
}

static void print_ddl(Out *o, const Node *n)
{
    switch (n->tag) {
    case T_CreateStmt: {
        const CreateStmt *c = (const CreateStmt *)n;
        put(o, c->if_not_exists ? "(create-if-not-exists " : "(create ");
        print_node(o, &c->relation->node);
        put(o, " ");
        print_list(o, c->table_elts);
        print_list_clause(o, "with", c->options);
        put(o, ")");
        break;
    }
    case T_ColumnDef: {
        const ColumnDef *c = (const ColumnDef *)n;
        put(o, "(col ");
        put(o, c->colname);
        put(o, " ");
        print_type(o, c->type_name);
        for (int i = 0; i < list_len(c->constraints); i++) {
            put(o, " ");
            print_node(o, list_nth(c->constraints, i));
        }
        print_clause(o, "", (const Node *)c->coll_clause);
        put(o, ")");
        break;
    }
    case T_Constraint: print_constraint(o, (const Constraint *)n); break;
    case T_DropStmt: {
        const DropStmt *d = (const DropStmt *)n;
        put(o, d->missing_ok ? "(drop-if-exists " : "(drop ");
        parse__print_objtype(o, d->remove_type);
        print_list(o, d->objects);
        put(o, d->cascade ? " cascade)" : ")");
        break;
    }
    case T_InsertStmt: {
        const InsertStmt *s = (const InsertStmt *)n;
        put(o, "(insert ");
        print_node(o, &s->relation->node);
        print_list_clause(o, "cols", s->cols);
        put(o, " ");
        if (s->select_stmt)
            print_node(o, &s->select_stmt->node);
        else
            put(o, "default-values");
        print_clause(o, "on-conflict", (const Node *)s->on_conflict);
        print_list_clause(o, "returning", s->returning_list);
        print_clause(o, "with", (const Node *)s->with_clause);
        put(o, ")");
        break;
    }
    default: put(o, "<?>"); break;
    }
}

static void print_utility(Out *o, const Node *n)
{
    static const char *const trans[] = {"begin", "commit", "rollback"};
    static const char *const sets[] = {"set", "set-default", "reset", "reset-all", "set-multi"};
    switch (n->tag) {
    case T_TransactionStmt: {
        const TransactionStmt *t = (const TransactionStmt *)n;
        put(o, "(");
        put(o, trans[t->kind]);
        for (int i = 0; i < list_len(t->options); i++) {
            put(o, " \"");
            put(o, list_nth(t->options, i));
            put(o, "\"");
        }
        put(o, t->chain ? " and-chain)" : ")");
        break;
    }
    case T_VariableSetStmt: {
        const VariableSetStmt *s = (const VariableSetStmt *)n;
        put(o, "(");
        put(o, sets[s->kind]);
        put(o, s->is_local ? " local" : "");
        if (s->name) {
            put(o, " ");
            put(o, s->name);
        }
        for (int i = 0; i < list_len(s->args); i++) {
            put(o, " ");
            print_node(o, list_nth(s->args, i));
        }
        if (s->kind == VAR_SET_MULTI)
            print_list_clause(o, "modes", s->modes);
        put(o, ")");
        break;
    }
    case T_VariableShowStmt:
        put(o, "(show ");
        put(o, ((const VariableShowStmt *)n)->name);
        put(o, ")");
        break;
    case T_ExplainStmt: {
        const ExplainStmt *e = (const ExplainStmt *)n;
        put(o, "(explain");
        put(o, e->analyze ? " analyze" : "");
        put(o, e->verbose ? " verbose " : " ");
        print_node(o, e->query);
        print_list_clause(o, "options", e->options);
        put(o, ")");
        break;
    }
    case T_AlterRoleStmt: {
        const AlterRoleStmt *a = (const AlterRoleStmt *)n;
        put(o, "(alter-role ");
        put(o, a->role);
        if (a->has_password) {
            put(o, " password=");
            put(o, a->password ? a->password : "NULL");
        } else {
            put(o, " ");
            print_list(o, a->options);
        }
        put(o, ")");
        break;
    }
    default:
        if (!parse__print_ext(o, n))
            put(o, "<?>");
        break;
    }
}

static void print_node(Out *o, const Node *n)
{
    if (!n) {
        put(o, "<>");
        return;
    }
    switch (n->tag) {
    case T_A_Const: case T_ColumnRef: case T_ParamRef: case T_A_Expr: case T_BoolExpr:
    case T_NullTest: case T_CaseExpr: case T_CaseWhen: case T_TypeCast: case T_FuncCall:
        print_expr(o, n);
        break;
    case T_A_Star: put(o, "*"); break;
    case T_SetToDefault: put(o, "DEFAULT"); break;
    case T_ResTarget: case T_RangeVar: case T_JoinExpr: case T_SortBy: case T_TypeName:
        print_clause_node(o, n);
        break;
    case T_RawStmt: print_node(o, ((const RawStmt *)n)->stmt); break;
    case T_SelectStmt: print_select(o, (const SelectStmt *)n); break;
    case T_CreateStmt: case T_ColumnDef: case T_Constraint: case T_DropStmt: case T_InsertStmt:
        print_ddl(o, n);
        break;
    default: print_utility(o, n); break;
    }
}

/* Entry points for print_ext.c (print_int.h). */
void parse__out_put(ParseOut *o, const char *s) { put(o, s); }
void parse__out_node(ParseOut *o, const Node *n) { print_node(o, n); }
void parse__out_list(ParseOut *o, const List *l) { print_list(o, l); }
void parse__out_names(ParseOut *o, const List *l, const char *sep) { print_names(o, l, sep); }
void parse__out_clause(ParseOut *o, const char *label, const Node *n) { print_clause(o, label, n); }
void parse__out_list_clause(ParseOut *o, const char *label, const List *l) { print_list_clause(o, label, l); }

char *parse_node_to_string(MemArena *arena, const Node *node)
{
    Out o = {arena, NULL, 0, 0};
    o.buf = mem_alloc(arena, 64);
    o.cap = 64;
    o.buf[0] = '\0';
    print_node(&o, node);
    return o.buf;
}
