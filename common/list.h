/*
 * list.h — a growable array of pointers, allocated in an arena.
 *
 * Used by the AST and plans. list_append on a NULL list creates it, so an
 * empty list is simply NULL (as in PostgreSQL's NIL).
 */
#ifndef STRATA_COMMON_LIST_H
#define STRATA_COMMON_LIST_H

#include "common/arena.h"

typedef struct List {
    int len;
    int cap;
    void **items;
} List;

List *list_append(MemArena *arena, List *list, void *item);
List *list_make1(MemArena *arena, void *item);
List *list_concat(MemArena *arena, List *a, const List *b); /* appends b's items to a */
static inline int list_len(const List *l) { return l ? l->len : 0; }
static inline void *list_nth(const List *l, int n) { return l->items[n]; }

#endif
