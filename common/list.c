/*
 * list.c — arena-allocated growable pointer arrays (PostgreSQL's List, NIL = NULL).
 *
 * Growth doubles and leaves the old item array behind in the arena; lists
 * are built once (AST, plans), so the waste is bounded by 2x.
 */
#include "common/list.h"

#include <string.h>

static void list_grow(MemArena *arena, List *list, int need)
{
    int cap = list->cap ? list->cap : 4;
    while (cap < need)
        cap *= 2;
    list->items = mem_realloc(arena, list->items, sizeof(void *) * (size_t)list->cap,
                              sizeof(void *) * (size_t)cap);
    list->cap = cap;
}

List *list_append(MemArena *arena, List *list, void *item)
{
    if (list == NULL)
        list = MEM_NEW(arena, List);
    if (list->len == list->cap)
        list_grow(arena, list, list->len + 1);
    list->items[list->len++] = item;
    return list;
}

List *list_make1(MemArena *arena, void *item)
{
    return list_append(arena, NULL, item);
}

List *list_concat(MemArena *arena, List *a, const List *b)
{
    int n = list_len(b);
    if (n == 0)
        return a;
    if (a == NULL)
        a = MEM_NEW(arena, List);
    if (a->len + n > a->cap)
        list_grow(arena, a, a->len + n);
    memcpy(a->items + a->len, b->items, sizeof(void *) * (size_t)n);
    a->len += n;
    return a;
}
