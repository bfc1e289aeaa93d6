/*
 * print_int.h — internal interface between print.c (the printer of the
 * first-wave nodes and the output buffer) and print_ext.c (the nodes of
 * the second wave). Only parser/ includes it (PARSER_INTERNAL).
 */
#ifndef STRATA_PARSER_PRINT_INT_H
#define STRATA_PARSER_PRINT_INT_H

#ifndef PARSER_INTERNAL
#error "print_int.h is internal to parser/"
#endif

#include <stdbool.h>
#include "parser/ast.h"

typedef struct ParseOut ParseOut;

/* print.c: the buffer and the printers of every node. */
void parse__out_put(ParseOut *o, const char *s);
void parse__out_node(ParseOut *o, const Node *n);
void parse__out_list(ParseOut *o, const List *l);
void parse__out_names(ParseOut *o, const List *l, const char *sep);
/* " label node" / " label [list]", nothing when NULL */
void parse__out_clause(ParseOut *o, const char *label, const Node *n);
void parse__out_list_clause(ParseOut *o, const char *label, const List *l);

/* print_ext.c: the second wave. print_ext returns false for an unknown tag. */
bool parse__print_ext(ParseOut *o, const Node *n);
void parse__print_func_ext(ParseOut *o, const FuncCall *f);
void parse__print_constraint_ext(ParseOut *o, const Constraint *c);
void parse__print_setop(ParseOut *o, const SelectStmt *s);
void parse__print_objtype(ParseOut *o, ObjectType type);

#endif
