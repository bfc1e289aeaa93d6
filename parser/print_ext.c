/*
 * print_ext.c — parse_node_to_string for the nodes of the second wave
 * (subqueries, arrays, windows, DML, DDL and utility statements), in the
 * S-expression format of print.c: "(tag field ...)", lists in [ ], NULL
 * as <>. For tests and debugging only.
 */
#define PARSER_INTERNAL
#include <stdio.h>
#include <string.h>
#include "parser/parser_int.h"
#include "parser/print_int.h"

#define P(s) parse__out_put(o, (s))
#define N(n) parse__out_node(o, (const Node *)(n))
#define L(l) parse__out_list(o, (l))
#define C(label, n) parse__out_clause(o, (label), (const Node *)(n))
#define LC(label, l) parse__out_list_clause(o, (label), (l))

static void flag(ParseOut *o, bool on, const char *text)
{
    if (on)
        P(text);
}

static void num(ParseOut *o, long long v)
{
    char b[32];
    snprintf(b, sizeof b, "%lld", v);
    P(b);
}

static void hex(ParseOut *o, unsigned v)
{
    char b[32];
    snprintf(b, sizeof b, "%#x", v);
    P(b);
}

static void names(ParseOut *o, const List *l)
{
    P("(");
    parse__out_names(o, l, ",");
    P(")");
}

void parse__print_objtype(ParseOut *o, ObjectType type)
{
    static const char *const t[] = {
        [OBJECT_TABLE] = "", [OBJECT_INDEX] = "index ", [OBJECT_VIEW] = "view ",
        [OBJECT_MATVIEW] = "matview ", [OBJECT_SEQUENCE] = "sequence ", [OBJECT_SCHEMA] = "schema ",
        [OBJECT_DATABASE] = "database ", [OBJECT_ROLE] = "role ", [OBJECT_COLUMN] = "column ",
        [OBJECT_TABCONSTRAINT] = "constraint ", [OBJECT_FUNCTION] = "function ",
        [OBJECT_TYPE] = "type ", [OBJECT_EXTENSION] = "extension ",
    };
    P(t[type]);
}

void parse__print_func_ext(ParseOut *o, const FuncCall *f)
{
    flag(o, f->func_variadic, " variadic");
    if (f->agg_order) {
        P(f->agg_within_group ? " within-group " : " order ");
        L(f->agg_order);
    }
    C("filter", f->agg_filter);
    C("over", f->over);
}

void parse__print_constraint_ext(ParseOut *o, const Constraint *c)
{
    if (c->contype == CONSTR_IDENTITY || c->contype == CONSTR_GENERATED)
        P(c->generated_when == 'a' ? " always" : " by-default");
    LC("options", c->options);
    if (c->contype == CONSTR_FOREIGN) {
        if (c->fk_attrs) {
            P(" ");
            names(o, c->fk_attrs);
        }
        C("references", c->pktable);
        if (c->pk_attrs)
            names(o, c->pk_attrs);
        char b[32];
        snprintf(b, sizeof b, " match=%c upd=%c del=%c", c->fk_matchtype, c->fk_upd_action,
                 c->fk_del_action);
        P(b);
    }
}

void parse__print_setop(ParseOut *o, const SelectStmt *s)
{
    static const char *const ops[] = {"", "union", "intersect", "except"};
    P("(");
    P(ops[s->op]);
    P(s->all ? "-all " : " ");
    N(s->larg);
    P(" ");
    N(s->rarg);
}

static void print_window(ParseOut *o, const WindowDef *w)
{
    P("(window");
    if (w->name) {
        P(" name=");
        P(w->name);
    }
    if (w->refname) {
        P(" ref=");
        P(w->refname);
    }
    LC("partition", w->partition_clause);
    LC("order", w->order_clause);
    if (w->frame_options != FRAMEOPTION_DEFAULTS) {
        P(" frame=");
        hex(o, (unsigned)w->frame_options);
    }
    C("start", w->start_offset);
    C("end", w->end_offset);
    P(")");
}

static bool print_expr_ext3(ParseOut *o, const Node *n)
{
    static const char *const gsets[] = {"empty", "simple", "rollup", "cube", "sets"};
    switch (n->tag) {
    case T_GroupingSet:
        P("(");
        P(gsets[((const GroupingSet *)n)->kind]);
        P(" ");
        L(((const GroupingSet *)n)->content);
        P(")");
        return true;
    case T_WindowDef: print_window(o, (const WindowDef *)n); return true;
    case T_NamedArgExpr:
        P(((const NamedArgExpr *)n)->name);
        P("=>");
        N(((const NamedArgExpr *)n)->arg);
        return true;
    case T_MultiAssignRef: {
        const MultiAssignRef *m = (const MultiAssignRef *)n;
        P("(multi ");
        num(o, m->colno);
        P("/");
        num(o, m->ncolumns);
        P(" ");
        N(m->source);
        P(")");
        return true;
    }
    case T_DefElem: {
        const DefElem *d = (const DefElem *)n;
        if (d->defnamespace) {
            P(d->defnamespace);
            P(".");
        }
        P(d->defname);
        if (d->arg) {
            P("=");
            N(d->arg);
        } else if (d->arg_list) {
            P("=");
            names(o, d->arg_list);
        }
        return true;
    }
    default: return false;
    }
}

static bool print_expr_ext2(ParseOut *o, const Node *n)
{
    switch (n->tag) {
    case T_A_ArrayExpr: P("(array "); L(((const A_ArrayExpr *)n)->elements); P(")"); return true;
    case T_A_Indices: {
        const A_Indices *i = (const A_Indices *)n;
        P("[");
        if (i->is_slice) {
            N(i->lidx);
            P(":");
        }
        N(i->uidx);
        P("]");
        return true;
    }
    case T_A_Indirection:
        P("(indirect ");
        N(((const A_Indirection *)n)->arg);
        P(" ");
        L(((const A_Indirection *)n)->indirection);
        P(")");
        return true;
    case T_RowExpr:
        P(((const RowExpr *)n)->explicit_row ? "(row " : "(tuple ");
        L(((const RowExpr *)n)->args);
        P(")");
        return true;
    case T_CollateClause:
        P("(collate ");
        N(((const CollateClause *)n)->arg);
        P(" ");
        parse__out_names(o, ((const CollateClause *)n)->collname, ".");
        P(")");
        return true;
    default: return print_expr_ext3(o, n);
    }
}

static bool print_expr_ext(ParseOut *o, const Node *n)
{
    static const char *const sublinks[] = {"exists", "all", "any", "rowcompare", "expr",
                                           "multiexpr", "array", "cte"};
    switch (n->tag) {
    case T_String: P(((const String *)n)->sval); return true;
    case T_SubLink: {
        const SubLink *s = (const SubLink *)n;
        P("(");
        P(sublinks[s->sub_link_type]);
        if (s->oper_name) {
            P(" ");
            P(s->oper_name);
        }
        C("", s->testexpr);
        C("", s->subselect);
        P(")");
        return true;
    }
    case T_A_ArrayOpExpr: {
        const A_ArrayOpExpr *a = (const A_ArrayOpExpr *)n;
        P("(");
        P(a->name);
        P(a->use_or ? " any " : " all ");
        N(a->lexpr);
        P(" ");
        N(a->rexpr);
        P(")");
        return true;
    }
    default: return print_expr_ext2(o, n);
    }
}

static bool print_from_ext(ParseOut *o, const Node *n)
{
    switch (n->tag) {
    case T_RangeSubselect: {
        const RangeSubselect *r = (const RangeSubselect *)n;
        P(r->lateral ? "(subselect lateral " : "(subselect ");
        N(r->subquery);
        P(" AS ");
        P(r->alias);
        if (r->colaliases)
            names(o, r->colaliases);
        P(")");
        return true;
    }
    case T_RangeFunction: {
        const RangeFunction *r = (const RangeFunction *)n;
        P(r->lateral ? "(function lateral " : "(function ");
        L(r->functions);
        flag(o, r->ordinality, " ordinality");
        if (r->alias) {
            P(" AS ");
            P(r->alias);
        }
        if (r->colaliases)
            names(o, r->colaliases);
        LC("coldefs", r->coldeflist);
        P(")");
        return true;
    }
    case T_WithClause:
        P(((const WithClause *)n)->recursive ? "(recursive " : "(");
        L(((const WithClause *)n)->ctes);
        P(")");
        return true;
    case T_CommonTableExpr: {
        const CommonTableExpr *c = (const CommonTableExpr *)n;
        P("(cte ");
        P(c->ctename);
        if (c->aliascolnames)
            names(o, c->aliascolnames);
        P(c->ctematerialized == CTEMaterializeAlways ? " materialized "
          : c->ctematerialized == CTEMaterializeNever ? " not-materialized " : " ");
        N(c->ctequery);
        P(")");
        return true;
    }
    case T_LockingClause: {
        static const char *const s[] = {"none", "key-share", "share", "no-key-update", "update"};
        const LockingClause *l = (const LockingClause *)n;
        P("(for-");
        P(s[l->strength]);
        LC("of", l->locked_rels);
        P(l->wait_policy == LockWaitError ? " nowait)" : l->wait_policy == LockWaitSkip ? " skip-locked)" : ")");
        return true;
    }
    case T_IntoClause: {
        const IntoClause *i = (const IntoClause *)n;
        P("(into ");
        N(i->rel);
        if (i->col_names)
            names(o, i->col_names);
        LC("with", i->options);
        flag(o, i->skip_data, " no-data");
        static const char *const on_commit[] = {"", " on-commit-preserve", " on-commit-delete", " on-commit-drop"};
        if (i->oncommit > 0 && i->oncommit < 4)
            P(on_commit[i->oncommit]);
        P(")");
        return true;
    }
    default: return false;
    }
}

static bool print_dml_ext2(ParseOut *o, const Node *n)
{
    switch (n->tag) {
    case T_UpdateStmt: {
        const UpdateStmt *s = (const UpdateStmt *)n;
        P("(update ");
        N(s->relation);
        P(" set ");
        L(s->target_list);
        LC("from", s->from_clause);
        C("where", s->where_clause);
        LC("returning", s->returning_list);
        C("with", s->with_clause);
        P(")");
        return true;
    }
    case T_DeleteStmt: {
        const DeleteStmt *s = (const DeleteStmt *)n;
        P("(delete ");
        N(s->relation);
        LC("using", s->using_clause);
        C("where", s->where_clause);
        LC("returning", s->returning_list);
        C("with", s->with_clause);
        P(")");
        return true;
    }
    case T_TruncateStmt: {
        const TruncateStmt *s = (const TruncateStmt *)n;
        P("(truncate ");
        L(s->relations);
        flag(o, s->restart_seqs, " restart-identity");
        flag(o, s->cascade, " cascade");
        P(")");
        return true;
    }
    case T_CopyStmt: {
        const CopyStmt *s = (const CopyStmt *)n;
        P("(copy ");
        N(s->relation ? (const Node *)s->relation : s->query);
        if (s->attlist)
            names(o, s->attlist);
        P(s->is_from ? " from " : " to ");
        flag(o, s->is_program, "program ");
        P(s->filename ? s->filename : s->is_from ? "stdin" : "stdout");
        LC("options", s->options);
        C("where", s->where_clause);
        P(")");
        return true;
    }
    default: return false;
    }
}

static bool print_dml_ext(ParseOut *o, const Node *n)
{
    static const char *const dirs[] = {"", " ASC", " DESC"};
    switch (n->tag) {
    case T_IndexElem: {
        const IndexElem *e = (const IndexElem *)n;
        if (e->name)
            P(e->name);
        else
            N(e->expr);
        if (e->opclass) {
            P(" ");
            parse__out_names(o, e->opclass, ".");
        }
        P(dirs[e->ordering]);
        return true;
    }
    case T_InferClause: {
        const InferClause *i = (const InferClause *)n;
        if (i->conname) {
            P("(constraint ");
            P(i->conname);
        } else {
            P("(");
            L(i->index_elems);
            C("where", i->where_clause);
        }
        P(")");
        return true;
    }
    case T_OnConflictClause: {
        const OnConflictClause *c = (const OnConflictClause *)n;
        P(c->action == ONCONFLICT_NOTHING ? "(nothing" : "(update");
        C("", c->infer);
        LC("set", c->target_list);
        C("where", c->where_clause);
        P(")");
        return true;
    }
    default: return print_dml_ext2(o, n);
    }
}

static bool print_ddl_ext2(ParseOut *o, const Node *n)
{
    switch (n->tag) {
    case T_RenameStmt: {
        const RenameStmt *s = (const RenameStmt *)n;
        P("(rename ");
        parse__print_objtype(o, s->rename_type);
        if (s->relation)
            N(s->relation);
        if (s->subname) {
            P(s->relation ? " " : "");
            P(s->subname);
        }
        P(" to ");
        P(s->newname);
        P(")");
        return true;
    }
    case T_IndexStmt: {
        const IndexStmt *s = (const IndexStmt *)n;
        P(s->unique ? "(create-unique-index " : "(create-index ");
        flag(o, s->concurrent, "concurrently ");
        flag(o, s->if_not_exists, "if-not-exists ");
        P(s->idxname ? s->idxname : "<>");
        P(" on ");
        N(s->relation);
        P(" using ");
        P(s->access_method);
        P(" ");
        L(s->index_params);
        LC("with", s->options);
        C("where", s->where_clause);
        P(")");
        return true;
    }
    case T_ViewStmt: {
        const ViewStmt *s = (const ViewStmt *)n;
        P(s->replace ? "(create-or-replace-view " : "(create-view ");
        N(s->view);
        if (s->aliases)
            names(o, s->aliases);
        P(" ");
        N(s->query);
        flag(o, s->with_check_option != 0, " check-option");
        P(")");
        return true;
    }
    case T_CreateSeqStmt:
        P("(create-sequence ");
        N(((const CreateSeqStmt *)n)->sequence);
        LC("", ((const CreateSeqStmt *)n)->options);
        P(")");
        return true;
    case T_AlterSeqStmt:
        P("(alter-sequence ");
        N(((const AlterSeqStmt *)n)->sequence);
        LC("", ((const AlterSeqStmt *)n)->options);
        P(")");
        return true;
    default: return false;
    }
}

static bool print_ddl_ext(ParseOut *o, const Node *n)
{
    static const char *const at[] = {"add-column", "drop-column", "add-constraint", "drop-constraint",
                                     "default", "set-not-null", "drop-not-null", "type",
                                     "set-options", "owner", "add-identity"};
    switch (n->tag) {
    case T_CreateTableAsStmt: {
        const CreateTableAsStmt *s = (const CreateTableAsStmt *)n;
        P(s->objtype == OBJECT_MATVIEW ? "(create-matview-as " : "(create-table-as ");
        flag(o, s->if_not_exists, "if-not-exists ");
        N(s->into);
        P(" ");
        N(s->query);
        P(")");
        return true;
    }
    case T_AlterTableStmt: {
        const AlterTableStmt *s = (const AlterTableStmt *)n;
        P("(alter-");
        parse__print_objtype(o, s->objtype);
        P(s->objtype == OBJECT_TABLE ? "table " : "");
        flag(o, s->missing_ok, "if-exists ");
        N(s->relation);
        P(" ");
        L(s->cmds);
        P(")");
        return true;
    }
    case T_AlterTableCmd: {
        const AlterTableCmd *c = (const AlterTableCmd *)n;
        P("(");
        P(at[c->subtype]);
        flag(o, c->missing_ok, " if-exists");
        if (c->name) {
            P(" ");
            P(c->name);
        }
        C("", c->def);
        LC("", c->options);
        C("using", c->using_expr);
        flag(o, c->cascade, " cascade");
        P(")");
        return true;
    }
    default: return print_ddl_ext2(o, n);
    }
}

static bool print_admin_ext(ParseOut *o, const Node *n)
{
    static const char *const roles[] = {"role", "user", "group"};
    switch (n->tag) {
    case T_CreatedbStmt:
        P("(create-database ");
        P(((const CreatedbStmt *)n)->dbname);
        LC("", ((const CreatedbStmt *)n)->options);
        P(")");
        return true;
    case T_DropdbStmt:
        P(((const DropdbStmt *)n)->missing_ok ? "(drop-database-if-exists " : "(drop-database ");
        P(((const DropdbStmt *)n)->dbname);
        LC("", ((const DropdbStmt *)n)->options);
        P(")");
        return true;
    case T_CreateSchemaStmt: {
        const CreateSchemaStmt *s = (const CreateSchemaStmt *)n;
        P(s->if_not_exists ? "(create-schema-if-not-exists " : "(create-schema ");
        P(s->schemaname ? s->schemaname : "<>");
        if (s->authrole) {
            P(" authorization ");
            P(s->authrole);
        }
        P(")");
        return true;
    }
    case T_CreateRoleStmt:
        P("(create-");
        P(roles[((const CreateRoleStmt *)n)->stmt_type]);
        P(" ");
        P(((const CreateRoleStmt *)n)->role);
        P(" ");
        L(((const CreateRoleStmt *)n)->options);
        P(")");
        return true;
    case T_DropRoleStmt:
        P(((const DropRoleStmt *)n)->missing_ok ? "(drop-role-if-exists " : "(drop-role ");
        names(o, ((const DropRoleStmt *)n)->roles);
        P(")");
        return true;
    case T_VacuumStmt: {
        const VacuumStmt *s = (const VacuumStmt *)n;
        P(s->is_vacuumcmd ? "(vacuum " : "(analyze ");
        L(s->options);
        P(" ");
        L(s->rels);
        P(")");
        return true;
    }
    case T_VacuumRelation:
        N(((const VacuumRelation *)n)->relation);
        if (((const VacuumRelation *)n)->va_cols)
            names(o, ((const VacuumRelation *)n)->va_cols);
        return true;
    case T_CheckPointStmt: P("(checkpoint)"); return true;
    default: return false;
    }
}

static bool print_session_ext2(ParseOut *o, const Node *n)
{
    static const char *const discard[] = {"all", "plans", "sequences", "temp"};
    static const char *const fetch[] = {"forward", "backward", "absolute", "relative"};
    switch (n->tag) {
    case T_DiscardStmt: P("(discard "); P(discard[((const DiscardStmt *)n)->target]); P(")"); return true;
    case T_ListenStmt: P("(listen "); P(((const ListenStmt *)n)->conditionname); P(")"); return true;
    case T_UnlistenStmt: {
        const char *c = ((const UnlistenStmt *)n)->conditionname;
        P("(unlisten ");
        P(c ? c : "*");
        P(")");
        return true;
    }
    case T_NotifyStmt: {
        const NotifyStmt *s = (const NotifyStmt *)n;
        P("(notify ");
        P(s->conditionname);
        if (s->payload) {
            P(" '");
            P(s->payload);
            P("'");
        }
        P(")");
        return true;
    }
    case T_DeclareCursorStmt: {
        const DeclareCursorStmt *s = (const DeclareCursorStmt *)n;
        P("(declare ");
        P(s->portalname);
        P(" ");
        hex(o, (unsigned)s->options);
        P(" ");
        N(s->query);
        P(")");
        return true;
    }
    case T_FetchStmt: {
        const FetchStmt *s = (const FetchStmt *)n;
        P(s->ismove ? "(move " : "(fetch ");
        P(fetch[s->direction]);
        P(" ");
        if (s->how_many == FETCH_ALL)
            P("all");
        else
            num(o, (long long)s->how_many);
        P(" ");
        P(s->portalname);
        P(")");
        return true;
    }
    case T_ClosePortalStmt: {
        const char *c = ((const ClosePortalStmt *)n)->portalname;
        P("(close ");
        P(c ? c : "all");
        P(")");
        return true;
    }
    default: return false;
    }
}

static bool print_session_ext(ParseOut *o, const Node *n)
{
    static const char *const sp[] = {"savepoint", "release", "rollback-to"};
    switch (n->tag) {
    case T_SavepointStmt:
        P("(");
        P(sp[((const SavepointStmt *)n)->kind]);
        P(" ");
        P(((const SavepointStmt *)n)->savepoint_name);
        P(")");
        return true;
    case T_PrepareStmt:
        P("(prepare ");
        P(((const PrepareStmt *)n)->name);
        P(" ");
        L(((const PrepareStmt *)n)->argtypes);
        P(" ");
        N(((const PrepareStmt *)n)->query);
        P(")");
        return true;
    case T_ExecuteStmt:
        P("(execute ");
        P(((const ExecuteStmt *)n)->name);
        P(" ");
        L(((const ExecuteStmt *)n)->params);
        P(")");
        return true;
    case T_DeallocateStmt:
        P("(deallocate ");
        P(((const DeallocateStmt *)n)->name ? ((const DeallocateStmt *)n)->name : "all");
        P(")");
        return true;
    default: return print_session_ext2(o, n);
    }
}

static bool print_misc_ext(ParseOut *o, const Node *n)
{
    switch (n->tag) {
    case T_CommentStmt: {
        const CommentStmt *s = (const CommentStmt *)n;
        P("(comment ");
        parse__print_objtype(o, s->objtype);
        parse__out_names(o, s->object, ".");
        P(" ");
        P(s->comment ? s->comment : "NULL");
        P(")");
        return true;
    }
    case T_GrantStmt: {
        const GrantStmt *s = (const GrantStmt *)n;
        P(s->is_grant ? "(grant " : "(revoke ");
        if (s->privileges)
            names(o, s->privileges);
        else
            P("all");
        P(" on ");
        parse__print_objtype(o, s->objtype);
        names(o, s->objects);
        P(" to ");
        names(o, s->grantees);
        P(")");
        return true;
    }
    case T_CreateEnumStmt:
        P("(create-enum ");
        parse__out_names(o, ((const CreateEnumStmt *)n)->type_name, ".");
        P(" ");
        names(o, ((const CreateEnumStmt *)n)->vals);
        P(")");
        return true;
    case T_LockStmt:
        P("(lock ");
        L(((const LockStmt *)n)->relations);
        P(" mode=");
        num(o, ((const LockStmt *)n)->mode);
        flag(o, ((const LockStmt *)n)->nowait, " nowait");
        P(")");
        return true;
    default: return false;
    }
}

bool parse__print_ext(ParseOut *o, const Node *n)
{
    return print_expr_ext(o, n) || print_from_ext(o, n) || print_dml_ext(o, n) ||
           print_ddl_ext(o, n) || print_admin_ext(o, n) || print_session_ext(o, n) ||
           print_misc_ext(o, n);
}
