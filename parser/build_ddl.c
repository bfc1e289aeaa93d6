/*
 * build_ddl.c — AST builders for the DDL of the second wave (declared in
 * build.h): CREATE TABLE options and CREATE TABLE AS, column constraints
 * (identity, generated, foreign keys, collations), DROP of every kind,
 * ALTER TABLE and RENAME, COPY with both option syntaxes, DefElem options,
 * CREATE/DROP DATABASE and SCHEMA, roles, VACUUM/ANALYZE, CREATE INDEX,
 * views and sequences. The remaining utility statements are in
 * build_util.c.
 */
#define PARSER_INTERNAL
#include <string.h>
#include "common/error.h"
#include "parser/build.h"

/* ---------- CREATE TABLE ---------- */

Node *parse__create2(ParseCtx *pc, Node *relation, List *elts, bool if_not_exists, char persistence,
                     List *options, int oncommit, int location)
{
    CreateStmt *s = PARSE_NEW(pc, CreateStmt, location);
    s->relation = (RangeVar *)relation;
    s->relation->relpersistence = persistence;
    s->table_elts = elts;
    s->if_not_exists = if_not_exists;
    s->options = options;
    s->oncommit = oncommit;
    return &s->node;
}

Node *parse__into_target(ParseCtx *pc, Node *relation, List *cols, List *options, int oncommit)
{
    IntoClause *i = PARSE_NEW(pc, IntoClause, relation->location);
    i->rel = (RangeVar *)relation;
    i->col_names = cols;
    i->options = options;
    i->oncommit = oncommit;
    return &i->node;
}

Node *parse__create_as(ParseCtx *pc, Node *into, char persistence, Node *query, bool skip_data,
                       bool if_not_exists, ObjectType type, int location)
{
    CreateTableAsStmt *s = PARSE_NEW(pc, CreateTableAsStmt, location);
    s->into = (IntoClause *)into;
    s->into->rel->relpersistence = persistence;
    s->into->skip_data = skip_data;
    s->query = query;
    s->objtype = type;
    s->if_not_exists = if_not_exists;
    return &s->node;
}

/* A column's COLLATE: a CollateClause (arg NULL) in the constraint list,
 * which parse__column_def moves to ColumnDef.coll_clause (PG's collClause). */
Node *parse__constraint_collate(ParseCtx *pc, List *name, int location)
{
    return parse__collate(pc, NULL, name, location);
}

Node *parse__constraint_identity(ParseCtx *pc, char when, List *options, int location)
{
    Constraint *c = (Constraint *)parse__constraint(pc, CONSTR_IDENTITY, NULL, NULL, location);
    c->generated_when = when;
    c->options = options;
    return &c->node;
}

/* GENERATED ALWAYS AS (expr) STORED; BY DEFAULT is an error in PostgreSQL. */
Node *parse__constraint_generated(ParseCtx *pc, const ParseToken *when, Node *expr, int lp_offset,
                                  int rp_offset, int location)
{
    if (when->ival != 'a')
        err_raise_pos(ERRCODE_SYNTAX_ERROR, parse_char_position(pc->sql, when->offset),
                      "for a generated column, GENERATED ALWAYS must be specified");
    Constraint *c = (Constraint *)parse__constraint_check(pc, expr, lp_offset, rp_offset, location);
    c->contype = CONSTR_GENERATED;
    c->generated_when = 'a';
    return &c->node;
}

Node *parse__constraint_fk(ParseCtx *pc, List *fk_cols, Node *pktable, List *pk_cols, char match,
                           int actions, int location)
{
    Constraint *c = (Constraint *)parse__constraint(pc, CONSTR_FOREIGN, NULL, NULL, location);
    c->fk_attrs = fk_cols;
    c->pktable = (RangeVar *)pktable;
    c->pk_attrs = pk_cols;
    c->fk_matchtype = match;
    c->fk_upd_action = (char)(actions >> 8);
    c->fk_del_action = (char)(actions & 0xFF);
    return &c->node;
}

/* ---------- DROP ---------- */

Node *parse__drop2(ParseCtx *pc, ObjectType type, List *objects, bool missing_ok, bool cascade,
                   bool concurrent, int location)
{
    DropStmt *s = PARSE_NEW(pc, DropStmt, location);
    s->remove_type = type;
    s->objects = objects;
    s->missing_ok = missing_ok;
    s->cascade = cascade;
    s->concurrent = concurrent;
    return &s->node;
}

/* DROP SCHEMA / EXTENSION names: String nodes. */
Node *parse__drop_names(ParseCtx *pc, ObjectType type, List *names, bool missing_ok, bool cascade,
                        int location)
{
    List *objects = NULL;
    for (int i = 0; i < list_len(names); i++)
        objects = list_append(pc->arena, objects, parse__string(pc, list_nth(names, i), -1));
    return parse__drop2(pc, type, objects, missing_ok, cascade, false, location);
}

/* ---------- ALTER TABLE / RENAME ---------- */

Node *parse__alter_table(ParseCtx *pc, ObjectType type, Node *relation, List *cmds, bool missing_ok,
                         int location)
{
    AlterTableStmt *s = PARSE_NEW(pc, AlterTableStmt, location);
    s->objtype = type;
    s->relation = (RangeVar *)relation;
    s->cmds = cmds;
    s->missing_ok = missing_ok;
    return &s->node;
}

Node *parse__at_cmd(ParseCtx *pc, AlterTableType type, const char *name, Node *def, bool cascade,
                    bool missing_ok, int location)
{
    AlterTableCmd *c = PARSE_NEW(pc, AlterTableCmd, location);
    c->subtype = type;
    c->name = name;
    c->def = def;
    c->cascade = cascade;
    c->missing_ok = missing_ok;
    return &c->node;
}

Node *parse__at_options(ParseCtx *pc, List *options, int location)
{
    AlterTableCmd *c = (AlterTableCmd *)parse__at_cmd(pc, AT_SetRelOptions, NULL, NULL, false, false,
                                                      location);
    c->options = options;
    return &c->node;
}

Node *parse__at_type(ParseCtx *pc, const ParseToken *col, TypeName *type, Node *using_expr,
                     int location)
{
    Node *def = parse__column_def(pc, col, type, NULL);
    AlterTableCmd *c = (AlterTableCmd *)parse__at_cmd(pc, AT_AlterColumnType, col->str, def, false,
                                                      false, location);
    c->using_expr = using_expr;
    return &c->node;
}

Node *parse__rename(ParseCtx *pc, ObjectType type, ObjectType rel_type, Node *relation,
                    const ParseToken *old_name, const ParseToken *new_name, bool missing_ok,
                    int location)
{
    RenameStmt *s = PARSE_NEW(pc, RenameStmt, location);
    s->rename_type = type;
    s->relation_type = rel_type;
    s->relation = (RangeVar *)relation;
    s->subname = old_name ? old_name->str : NULL;
    s->newname = new_name->str;
    s->missing_ok = missing_ok;
    return &s->node;
}

Node *parse__rename_name(ParseCtx *pc, ObjectType type, const ParseToken *old_name,
                         const ParseToken *new_name, int location)
{
    return parse__rename(pc, type, type, NULL, old_name, new_name, false, location);
}

/* ---------- options ---------- */

Node *parse__defelem_node(ParseCtx *pc, const char *name, Node *arg, int location)
{
    DefElem *d = PARSE_NEW(pc, DefElem, location);
    d->defname = name;
    d->arg = arg;
    return &d->node;
}

Node *parse__defelem(ParseCtx *pc, const char *ns, const ParseToken *name, Node *arg)
{
    DefElem *d = (DefElem *)parse__defelem_node(pc, name->str, arg, name->offset);
    d->defnamespace = ns;
    return &d->node;
}

Node *parse__defelem_list(ParseCtx *pc, const char *name, List *names, int location)
{
    DefElem *d = (DefElem *)parse__defelem_node(pc, name, NULL, location);
    d->arg_list = names;
    return &d->node;
}

Node *parse__defelem_str(ParseCtx *pc, const char *name, const ParseToken *value, int location)
{
    return parse__defelem_node(pc, name, parse__const_string(pc, value), location);
}

Node *parse__defelem_word(ParseCtx *pc, const char *name, const char *word, int location)
{
    return parse__defelem_node(pc, name, parse__var_word(pc, word, location), location);
}

/* ---------- COPY ---------- */

Node *parse__copy(ParseCtx *pc, Node *relation, Node *query, List *cols, bool is_from,
                  bool is_program, const ParseToken *file, List *options, Node *where,
                  int location)
{
    if (is_program && file->code == 0) /* PostgreSQL reports no position */
        err_raise(ERRCODE_SYNTAX_ERROR, "STDIN/STDOUT not allowed with PROGRAM");
    CopyStmt *s = PARSE_NEW(pc, CopyStmt, location);
    s->relation = (RangeVar *)relation;
    s->query = query;
    s->attlist = cols;
    s->is_from = is_from;
    s->is_program = is_program;
    s->filename = file->code == 0 ? NULL : file->str;
    s->options = options;
    s->where_clause = where;
    return &s->node;
}

/* COPY ... WHERE: only COPY FROM takes one (error at the WHERE, as PG). */
Node *parse__copy_where(ParseCtx *pc, Node *copy, int where_offset)
{
    if (!((CopyStmt *)copy)->is_from)
        err_raise_pos(ERRCODE_SYNTAX_ERROR, parse_char_position(pc->sql, where_offset),
                      "WHERE clause not allowed with COPY TO");
    return copy;
}

/* The legacy BINARY prefix and USING DELIMITERS become options first. */
List *parse__copy_opts(ParseCtx *pc, bool binary, Node *delimiter, List *options)
{
    List *out = NULL;
    if (binary)
        out = list_append(pc->arena, out, parse__defelem_word(pc, "format", "binary", -1));
    if (delimiter)
        out = list_append(pc->arena, out, delimiter);
    return list_concat(pc->arena, out, options);
}

/* ---------- databases, schemas ---------- */

Node *parse__createdb(ParseCtx *pc, const ParseToken *name, List *options, int location)
{
    CreatedbStmt *s = PARSE_NEW(pc, CreatedbStmt, location);
    s->dbname = name->str;
    s->options = options;
    return &s->node;
}

Node *parse__dropdb(ParseCtx *pc, const ParseToken *name, bool missing_ok, bool force, int location)
{
    DropdbStmt *s = PARSE_NEW(pc, DropdbStmt, location);
    s->dbname = name->str;
    s->missing_ok = missing_ok;
    if (force)
        s->options = list_make1(pc->arena, parse__defelem_node(pc, "force", NULL, -1));
    return &s->node;
}

Node *parse__create_schema(ParseCtx *pc, const ParseToken *name, const ParseToken *role,
                           bool if_not_exists, int location)
{
    CreateSchemaStmt *s = PARSE_NEW(pc, CreateSchemaStmt, location);
    s->schemaname = name ? name->str : NULL;
    s->authrole = role ? role->str : NULL;
    s->if_not_exists = if_not_exists;
    return &s->node;
}

/* ---------- roles ---------- */

Node *parse__role_opt_str(ParseCtx *pc, const char *name, const ParseToken *value, int location)
{
    Node *arg = value ? parse__const_string(pc, value) : NULL;
    return parse__defelem_node(pc, name, arg, location);
}

Node *parse__role_opt_node(ParseCtx *pc, const char *name, Node *value, int location)
{
    return parse__defelem_node(pc, name, value, location);
}

/* LOGIN, NOSUPERUSER ...: PostgreSQL's AlterOptRoleElem IDENT cases. */
Node *parse__role_opt_word(ParseCtx *pc, const ParseToken *word)
{
    static const struct { const char *word, *name; bool value; } words[] = {
        {"superuser", "superuser", true},     {"nosuperuser", "superuser", false},
        {"createrole", "createrole", true},   {"nocreaterole", "createrole", false},
        {"replication", "isreplication", true}, {"noreplication", "isreplication", false},
        {"createdb", "createdb", true},       {"nocreatedb", "createdb", false},
        {"login", "canlogin", true},          {"nologin", "canlogin", false},
        {"bypassrls", "bypassrls", true},     {"nobypassrls", "bypassrls", false},
        {"noinherit", "inherit", false},
    };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strcmp(word->str, words[i].word) == 0)
            return parse__defelem_node(pc, words[i].name,
                                       parse__const_bool(pc, words[i].value, word->offset), word->offset);
    err_raise_pos(ERRCODE_SYNTAX_ERROR, parse_char_position(pc->sql, word->offset),
                  "unrecognized role option \"%s\"", word->str);
}

Node *parse__create_role(ParseCtx *pc, int type, const ParseToken *name, List *options, int location)
{
    CreateRoleStmt *s = PARSE_NEW(pc, CreateRoleStmt, location);
    s->stmt_type = (RoleStmtType)type;
    s->role = name->str;
    s->options = options;
    return &s->node;
}

/* ALTER ROLE: password/has_password mirror a lone PASSWORD option (what the
 * first planner supports); with other options has_password stays false. */
Node *parse__alter_role2(ParseCtx *pc, const ParseToken *name, List *options, int location)
{
    AlterRoleStmt *s = PARSE_NEW(pc, AlterRoleStmt, location);
    s->role = name->str;
    s->options = options;
    const DefElem *d = list_len(options) == 1 ? list_nth(options, 0) : NULL;
    if (d && strcmp(d->defname, "password") == 0) {
        s->has_password = true;
        s->password = d->arg ? ((const A_Const *)d->arg)->sval : NULL;
    }
    return &s->node;
}

Node *parse__drop_role(ParseCtx *pc, List *names, bool missing_ok, int location)
{
    DropRoleStmt *s = PARSE_NEW(pc, DropRoleStmt, location);
    s->roles = names;
    s->missing_ok = missing_ok;
    return &s->node;
}

/* ---------- VACUUM / ANALYZE ---------- */

List *parse__vacuum_flags(ParseCtx *pc, bool full, bool freeze, bool verbose, bool analyze)
{
    List *l = NULL;
    if (full)
        l = list_append(pc->arena, l, parse__defelem_node(pc, "full", NULL, -1));
    if (freeze)
        l = list_append(pc->arena, l, parse__defelem_node(pc, "freeze", NULL, -1));
    if (verbose)
        l = list_append(pc->arena, l, parse__defelem_node(pc, "verbose", NULL, -1));
    if (analyze)
        l = list_append(pc->arena, l, parse__defelem_node(pc, "analyze", NULL, -1));
    return l;
}

Node *parse__vacuum(ParseCtx *pc, bool is_vacuum, List *options, List *rels, int location)
{
    VacuumStmt *s = PARSE_NEW(pc, VacuumStmt, location);
    s->is_vacuumcmd = is_vacuum;
    s->options = options;
    s->rels = rels;
    return &s->node;
}

Node *parse__vacuum_rel(ParseCtx *pc, Node *relation, List *cols)
{
    VacuumRelation *v = PARSE_NEW(pc, VacuumRelation, relation->location);
    v->relation = (RangeVar *)relation;
    v->va_cols = cols;
    return &v->node;
}

/* ---------- CREATE INDEX / VIEW / SEQUENCE ---------- */

Node *parse__index(ParseCtx *pc, bool unique, bool concurrent, const char *name, bool if_not_exists,
                   Node *relation, const char *method, List *params, List *include, List *options,
                   Node *where, int location)
{
    IndexStmt *s = PARSE_NEW(pc, IndexStmt, location);
    s->unique = unique;
    s->concurrent = concurrent;
    s->idxname = name;
    s->if_not_exists = if_not_exists;
    s->relation = (RangeVar *)relation;
    s->access_method = method ? method : "btree";
    s->index_params = params;
    s->index_including_params = include;
    s->options = options;
    s->where_clause = where;
    return &s->node;
}

Node *parse__view(ParseCtx *pc, bool replace, char persistence, Node *relation, List *cols,
                  List *options, Node *query, int check_option, int location)
{
    ViewStmt *s = PARSE_NEW(pc, ViewStmt, location);
    s->replace = replace;
    s->view = (RangeVar *)relation;
    s->view->relpersistence = persistence;
    s->aliases = cols;
    s->options = options;
    s->query = query;
    s->with_check_option = check_option;
    return &s->node;
}

Node *parse__create_seq(ParseCtx *pc, char persistence, Node *relation, List *options,
                        bool if_not_exists, int location)
{
    CreateSeqStmt *s = PARSE_NEW(pc, CreateSeqStmt, location);
    s->sequence = (RangeVar *)relation;
    s->sequence->relpersistence = persistence;
    s->options = options;
    s->if_not_exists = if_not_exists;
    return &s->node;
}

Node *parse__alter_seq(ParseCtx *pc, Node *relation, List *options, bool missing_ok, int location)
{
    AlterSeqStmt *s = PARSE_NEW(pc, AlterSeqStmt, location);
    s->sequence = (RangeVar *)relation;
    s->options = options;
    s->missing_ok = missing_ok;
    return &s->node;
}
