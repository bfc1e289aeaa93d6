/*
 * grouptab.c — a hash set of key tuples: the group table of hash
 * aggregation, DISTINCT and the per-group sets of count(DISTINCT x).
 *
 * Layout: groups are numbered densely in creation order; their keys live in
 * growable column stores (one per key column) and their hashes in ghash.
 * The index is open addressing with linear probing over `slots`, kept at
 * most half full and doubled before a batch could push it past that, so a
 * batch never rehashes midway. A slot holds the group + 1 (0 = empty) in its
 * low half and the upper 32 bits of the key's hash in its high half, so a
 * probe rejects other keys without touching the group's hash or keys.
 *
 * Lookup is vectorised per batch (DuckDB's approach): hash every row column
 * by column; then rounds of (probe the slot of every pending row → empty:
 * create the group; hash equal: candidate) followed by a column-at-a-time
 * key comparison of all candidates; mismatches move to the next slot and
 * go round again. The type dispatch happens once per column per round,
 * never per row.
 *
 * Memory latency: with millions of groups every probe misses the caches
 * (slot, then the group's key). Each step therefore runs over the whole
 * batch and prefetches what the next step reads: all slots after hashing,
 * the candidate groups' first key while probing; the misses of a batch
 * overlap instead of following one another (Q15-like GROUP BY of 2M int8
 * keys: see executor/README.md "Optimisations (issue 7)").
 */
#define STRATA_EXECUTOR_INTERNAL
#include "executor/exec_int.h"

#include <math.h>
#include <string.h>
#include "common/error.h"

uint32_t exec__presize(double est, int width)
{
    uint32_t cap = 1024;
    uint64_t w = width > 0 ? (uint64_t)width : 1;
    while (!isnan(est) && cap < EXEC_PRESIZE_MAX && (double)cap < est && 2 * cap * w <= EXEC_PRESIZE_CELLS)
        cap *= 2;
    return cap;
}

void exec__gt_init(ExecGroupTable *gt, MemArena *arena, int nkeys, const SqlType *types)
{
    exec__gt_init_sized(gt, arena, nkeys, types, 0);
}

void exec__gt_init_sized(ExecGroupTable *gt, MemArena *arena, int nkeys, const SqlType *types,
                         double est_groups)
{
    ERR_ASSERT(nkeys > 0);
    uint32_t cap = exec__presize(est_groups, nkeys + 1);   /* + the hash; slots: 4x, at most half full */
    memset(gt, 0, sizeof *gt);
    gt->arena = arena;
    gt->nkeys = nkeys;
    gt->keys = MEM_NEW_ARRAY(arena, ExecColumn, nkeys);
    for (int k = 0; k < nkeys; k++)
        exec__col_init(&gt->keys[k], types[k], arena, cap);
    gt->ghash = mem_alloc(arena, cap * sizeof(uint64_t));
    gt->nslots = 4 * cap;
    gt->slots = mem_calloc(arena, gt->nslots, sizeof(uint64_t));
    gt->hash = mem_alloc(arena, VEC_CAPACITY * sizeof(uint64_t));
    gt->slot = mem_alloc(arena, VEC_CAPACITY * sizeof(uint32_t));
    gt->todo = mem_alloc(arena, VEC_CAPACITY * sizeof(uint16_t));
    gt->todo2 = mem_alloc(arena, VEC_CAPACITY * sizeof(uint16_t));
    gt->cmp_rows = mem_alloc(arena, VEC_CAPACITY * sizeof(uint16_t));
    gt->cmp_i = mem_alloc(arena, VEC_CAPACITY * sizeof(uint16_t));
    gt->cmp_g = mem_alloc(arena, VEC_CAPACITY * sizeof(uint32_t));
    gt->eq = mem_alloc(arena, VEC_CAPACITY);
    gt->newpos = mem_alloc(arena, VEC_CAPACITY * sizeof(uint16_t));
    gt->newrows = mem_alloc(arena, VEC_CAPACITY * sizeof(uint16_t));
}

#define GT_PREFETCH_AHEAD 16

/* A slot's content for group g of hash h. */
static inline uint64_t slot_entry(uint64_t h, uint32_t g)
{
    return (h & ~(uint64_t)UINT32_MAX) | ((uint64_t)g + 1);
}

/* Room for n more groups: slots at most half full, group arrays sized. */
static void gt_reserve(ExecGroupTable *gt, uint32_t n)
{
    uint64_t need = (uint64_t)gt->ngroups + n;
    if (need * 2 > gt->nslots) {
        uint64_t ns = gt->nslots;
        while (need * 2 > ns)
            ns *= 2;
        if (ns > (UINT64_C(1) << 31))
            err_raise(ERRCODE_PROGRAM_LIMIT_EXCEEDED, "too many groups in one hash table");
        uint64_t *slots = mem_calloc(gt->arena, (size_t)ns, sizeof(uint64_t));
        uint32_t mask = (uint32_t)ns - 1;
        for (uint32_t g = 0; g < gt->ngroups; g++) {
            if ((g & 0xFFFF) == 0)
                err_check_interrupts();
            uint32_t s = (uint32_t)gt->ghash[g] & mask;
            while (slots[s])
                s = (s + 1) & mask;
            slots[s] = slot_entry(gt->ghash[g], g);
        }
        gt->slots = slots;
        gt->nslots = (uint32_t)ns;
    }
    uint32_t old_cap = gt->keys[0].cap;
    for (int k = 0; k < gt->nkeys; k++)
        exec__col_reserve(&gt->keys[k], gt->arena, n);
    if (gt->keys[0].cap != old_cap)
        gt->ghash = mem_realloc(gt->arena, gt->ghash, (size_t)old_cap * sizeof(uint64_t),
                                (size_t)gt->keys[0].cap * sizeof(uint64_t));
}

void exec__gt_reserve(ExecGroupTable *gt, uint32_t n)
{
    gt_reserve(gt, n);
}

uint32_t exec__gt_lookup(ExecGroupTable *gt, Vector *const *keys, const uint16_t *sel, uint32_t n,
                         uint32_t *group_of)
{
    gt_reserve(gt, n);
    const uint16_t *rows = sel ? sel : exec__identity_sel;
    if (gt->prehash) {
        memcpy(gt->hash, gt->prehash, n * sizeof(uint64_t));
        gt->prehash = NULL;
    } else {
        for (int k = 0; k < gt->nkeys; k++)
            exec__hash_vector(keys[k], sel, n, gt->hash, k == 0);
    }
    uint32_t mask = gt->nslots - 1;
    for (uint32_t i = 0; i < n; i++) {
        gt->slot[i] = (uint32_t)gt->hash[i] & mask;
        gt->todo[i] = (uint16_t)i;
    }
    /* Tables past the caches: each probe prefetches the slot of the row
     * GT_PREFETCH_AHEAD rows later, so that many misses are in flight (a
     * 1 MB table stays cached: no prefetch). */
    bool big = (size_t)gt->nslots * sizeof(uint64_t) > ((size_t)1 << 20);
    uint32_t ahead = big ? GT_PREFETCH_AHEAD : 0;
    for (uint32_t i = 0; i < ahead && i < n; i++)
        __builtin_prefetch(&gt->slots[gt->slot[i]]);
    const ExecColumn *key0 = &gt->keys[0];
    uint32_t ntodo = n, nnew = 0;
    uint16_t *todo = gt->todo, *todo2 = gt->todo2;
    while (ntodo > 0) {
        uint32_t ncmp = 0, nnext = 0, round_new = 0;
        for (uint32_t t = 0; t < ntodo; t++) {
            uint32_t i = todo[t], s = gt->slot[i];
            if (t + ahead < ntodo)
                __builtin_prefetch(&gt->slots[gt->slot[todo[t + ahead]]]);
            uint64_t e = gt->slots[s];
            uint32_t g1 = (uint32_t)e;
            if (e == 0) {
                uint32_t g = gt->ngroups++;
                gt->slots[s] = slot_entry(gt->hash[i], g);
                gt->ghash[g] = gt->hash[i];
                group_of[i] = g;
                gt->newpos[nnew + round_new] = (uint16_t)i;
                gt->newrows[round_new++] = rows[i];
            } else if (((e ^ gt->hash[i]) >> 32) == 0) {
                if (big)
                    __builtin_prefetch(key0->data + (size_t)(g1 - 1) * key0->elem);
                gt->cmp_i[ncmp] = (uint16_t)i;
                gt->cmp_rows[ncmp] = rows[i];
                gt->cmp_g[ncmp++] = g1 - 1;
            } else {
                gt->slot[i] = (s + 1) & mask;
                todo2[nnext++] = (uint16_t)i;
            }
        }
        for (int k = 0; k < gt->nkeys; k++)
            exec__col_append(&gt->keys[k], gt->arena, keys[k], gt->newrows, round_new);
        nnew += round_new;
        memset(gt->eq, 1, ncmp);
        for (int k = 0; k < gt->nkeys; k++)
            exec__eq_column(keys[k], gt->cmp_rows, &gt->keys[k], gt->cmp_g, ncmp, true, gt->eq);
        for (uint32_t j = 0; j < ncmp; j++) {
            uint32_t i = gt->cmp_i[j];
            if (gt->eq[j]) {
                group_of[i] = gt->cmp_g[j];
            } else {
                gt->slot[i] = (gt->slot[i] + 1) & mask;
                todo2[nnext++] = (uint16_t)i;
            }
        }
        uint16_t *tmp = todo;
        todo = todo2;
        todo2 = tmp;
        ntodo = nnext;
    }
    return nnew;
}
