/*
 * op_insert.c — the INSERT sink: appends each batch to the target table
 * through storage (the planner already cast every column to the table's
 * types and filled defaults). Constant vectors are flattened first, since
 * storage reads plain vectors.
 *
 * When the statement also reads the target (INSERT INTO t SELECT ... FROM
 * t) rows are buffered and appended at finalize, so the scan never sees
 * the statement's own rows (PostgreSQL's command-id visibility).
 *
 * RETURNING (the node's ncols > 0): always buffered; after finalize the
 * operator is the source of the rows it appended, chunk by chunk.
 *
 * ON CONFLICT (the node's on_conflict, planner/plan_insert.c): the arbiter
 * is the primary key. Each batch is proposed for insertion, PostgreSQL's
 * speculative insertion (store_table_insert_or_conflict, one call per
 * segment of rows with distinct keys, through a selection vector):
 *   - a key of a row this command already inserted or updated (a hash
 *     set of serialized keys for the whole statement): DO NOTHING skips
 *     the row, DO UPDATE raises 21000 (PostgreSQL: "cannot affect row a
 *     second time"). A key still pending in the segment ends the segment
 *     there (its rows are written); a key whose update the WHERE filtered
 *     out is free again, so the next proposal meets the existing row anew,
 *     as in PostgreSQL;
 *   - a key that an open transaction holds is waited for (the store does);
 *     one a live row holds — the transaction's own, or committed, also
 *     after the snapshot — comes back as a conflict with that row: DO
 *     NOTHING skips, DO UPDATE queues the row (READ COMMITTED; REPEATABLE
 *     READ raises 40001 for a row its snapshot does not see);
 *   - the other rows are inserted. Other keys never wait: no table lock.
 * The queued rows of DO UPDATE go in one batch-wide worktable (existing
 * row, excluded row, locator); the node's `right` tree evaluates WHERE and
 * the SET list over it in batches, and each surviving row is written with
 * store_row_update; a row a concurrent commit updated or deleted meanwhile
 * (READ COMMITTED) is proposed again from the insert. RETURNING then yields
 * inserted and updated rows in input order, as PostgreSQL does.
 */
#define STRATA_EXECUTOR_INTERNAL
#include "executor/exec_int.h"

#include <stdlib.h>
#include <string.h>
#include "common/error.h"

/* Serialized keys of the rows this statement inserted or updated. */
typedef struct KeySet {
    uint64_t *hash;
    uint8_t **key;       /* u32 length | bytes, in the query arena; NULL = empty */
    uint32_t cap, count; /* cap a power of two */
} KeySet;

typedef struct InsertState {
    StoreTable *target;
    bool buffered;
    int ncols;
    uint64_t count;
    Batch *flat;         /* flattening buffer */
    ExecColumn *buf;     /* buffered mode */
    uint32_t emitted;    /* RETURNING: rows of `emit` already output */
    ExecColumn *emit;    /* RETURNING: what next() outputs (buf, or out with ON CONFLICT) */
    /* ON CONFLICT */
    char on_conflict;
    StoreConflicts *conf; /* rows whose key a concurrent commit took (store_table_insert_or_conflict) */
    uint16_t *retry;     /* DO UPDATE: input rows whose row changed under it, to propose again */
    uint32_t nretry;
    int npk;
    const int *pk;
    Value *key;
    KeySet keys;
    uint8_t *keybuf;
    size_t keybuf_cap;
    uint16_t *ins_sel;
    uint16_t *upd_rows;
    int64_t *upd_ids;
    uint16_t *pend_rows; /* input rows of the queued updates (upd_rows gets compacted) */
    int64_t *written;    /* locators DO UPDATE wrote in the current segment */
    uint32_t nwritten;
    ExecColumn *out;     /* RETURNING: inserted and updated rows, in input order */
    ExecColumn *upd_out; /* RETURNING: a batch's updated rows (then merged into out) */
    uint16_t *upd_in;    /* their input rows */
    uint32_t nupd_out;
    uint16_t *scratch;
    const PlanNode *tree;
    int wt_id;
    ExecRowSet wt;
    ExecSubRun *sub;
    Batch *fetch;
    int *all_cols;
    Vector locators;
} InsertState;

/* ---- the key set ---- */

static uint64_t key_hash(const uint8_t *p, size_t n)
{
    uint64_t h = 1469598103934665603u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 1099511628211u;
    return h ^ (h >> 29);
}

static void keyset_grow(MemArena *a, KeySet *s)
{
    uint32_t cap = s->cap ? s->cap * 2 : 1024;
    uint64_t *hash = MEM_NEW_ARRAY(a, uint64_t, cap);
    uint8_t **key = MEM_NEW_ARRAY(a, uint8_t *, cap);
    for (uint32_t i = 0; i < s->cap; i++) {
        if (!s->key[i])
            continue;
        uint32_t j = (uint32_t)s->hash[i] & (cap - 1);
        while (key[j])
            j = (j + 1) & (cap - 1);
        hash[j] = s->hash[i];
        key[j] = s->key[i];
    }
    s->hash = hash;
    s->key = key;
    s->cap = cap;
}

/* Serialize st->key into st->keybuf; returns the length. */
static size_t key_serialize(ExecOp *op, InsertState *st)
{
    size_t need = 0;
    for (int k = 0; k < st->npk; k++)
        need += 8 + (st->key[k].is_null ? 0 : 16 + st->key[k].u.str.len);
    if (need > st->keybuf_cap) {
        st->keybuf_cap = need * 2;
        st->keybuf = mem_alloc(op->q->arena, st->keybuf_cap);
    }
    size_t n = 0;
    for (int k = 0; k < st->npk; k++) {
        const StoreColumnDef *col = store_table_column(st->target, st->pk[k]);
        PhysType ph = type_phys(col->type);
        if (ph == PHYS_STR) {
            uint32_t len = st->key[k].u.str.len;
            memcpy(st->keybuf + n, &len, 4);
            memcpy(st->keybuf + n + 4, st->key[k].u.str.ptr, len);
            n += 4 + len;
        } else {
            memcpy(st->keybuf + n, &st->key[k].u, phys_size(ph));
            n += phys_size(ph);
        }
    }
    return n;
}

/* States of a key set entry (a byte stored after the key's bytes). */
enum { KEY_AFFECTED = 1, KEY_PENDING = 2, KEY_RELEASED = 3 };

/* The entry of the current key (st->key), added with state `fresh` when
 * absent; *existed says whether it was there. Returns its state byte. */
static uint8_t *keyset_entry(ExecOp *op, InsertState *st, uint8_t fresh, bool *existed)
{
    KeySet *s = &st->keys;
    size_t n = key_serialize(op, st);
    uint64_t h = key_hash(st->keybuf, n);
    if ((s->count + 1) * 2 > s->cap)
        keyset_grow(op->q->arena, s);
    uint32_t j = (uint32_t)h & (s->cap - 1);
    for (; s->key[j]; j = (j + 1) & (s->cap - 1)) {
        uint32_t len;
        memcpy(&len, s->key[j], 4);
        if (s->hash[j] == h && len == n && memcmp(s->key[j] + 4, st->keybuf, n) == 0) {
            *existed = true;
            return s->key[j] + 4 + n;
        }
    }
    uint8_t *copy = mem_alloc(op->q->arena, n + 5);
    uint32_t len = (uint32_t)n;
    memcpy(copy, &len, 4);
    memcpy(copy + 4, st->keybuf, n);
    copy[4 + n] = fresh;
    s->hash[j] = h;
    s->key[j] = copy;
    s->count++;
    *existed = false;
    return copy + 4 + n;
}

/* st->key = the primary key of row `row` of b; false when a part is NULL. */
static bool load_key(InsertState *st, const Batch *b, uint32_t row)
{
    bool has_null = false;
    for (int k = 0; k < st->npk; k++) {
        vec_get_value(&b->cols[st->pk[k]], row, &st->key[k]);
        has_null |= st->key[k].is_null;
    }
    return !has_null;
}

/* ---- ON CONFLICT ---- */

static _Noreturn void affect_twice(void)
{
    ErrorData *e = err_begin(ERRCODE_CARDINALITY_VIOLATION);
    err_message(e, "ON CONFLICT DO UPDATE command cannot affect row a second time");
    err_hint(e, "Ensure that no rows proposed for insertion within the same command have duplicate "
                "constrained values.");
    err_throw();
}

/* RETURNING with ON CONFLICT: keep rows sel[0..n) of cols (table order). */
static void keep_out(ExecOp *op, InsertState *st, const Vector *cols, const uint16_t *sel, uint32_t n)
{
    if (!st->out || n == 0)
        return;
    for (int c = 0; c < st->ncols; c++)
        exec__col_append(&st->out[c], op->q->arena, &cols[c], sel, n);
}

/* Worktable of the queued conflicts: existing row, excluded row, locator.
 * Returns the rows in it (a row whose version is gone is dropped). */
static uint32_t fill_worktable(ExecOp *op, InsertState *st, const Batch *b, uint32_t nupd)
{
    int n = st->ncols;
    MemArena *a = op->q->arena;
    exec__rowset_clear(&st->wt);
    uint32_t m = 0;
    int64_t *ids = (int64_t *)st->locators.data;
    for (uint32_t j = 0; j < nupd; j++) {
        if (!store_row_fetch(st->target, op->q->txn, (uint64_t)st->upd_ids[j], n, st->all_cols, st->fetch))
            continue;
        for (int c = 0; c < n; c++)
            exec__col_append(&st->wt.cols[c], a, &st->fetch->cols[c], exec__identity_sel, 1);
        st->upd_rows[m] = st->upd_rows[j];
        ids[m++] = st->upd_ids[j];
    }
    for (int c = 0; c < n; c++)
        exec__col_append(&st->wt.cols[n + c], a, &b->cols[c], st->upd_rows, m);
    exec__col_append(&st->wt.cols[2 * n], a, &st->locators, exec__identity_sel, m);
    st->wt.nrows = m;
    return m;
}

/* RETURNING: keep the written rows scratch[0..k) of an update-tree batch in
 * upd_out with their input rows (worktable rows keep the input order and
 * locators are unique, so a forward walk over upd_ids finds each one). */
static void keep_updated(ExecOp *op, InsertState *st, const Batch *ob, uint32_t k, uint32_t *wt_pos)
{
    const int64_t *ids = (const int64_t *)ob->cols[0].data;
    const int64_t *wt_ids = (const int64_t *)st->locators.data;
    for (int c = 0; c < st->ncols; c++)
        exec__col_append(&st->upd_out[c], op->q->arena, &ob->cols[c + 1], st->scratch, k);
    for (uint32_t i = 0; i < k; i++) {
        while (wt_ids[*wt_pos] != ids[st->scratch[i]])
            (*wt_pos)++;
        st->upd_in[st->nupd_out++] = st->upd_rows[*wt_pos];
    }
}

/* RETURNING: inserted rows ins_sel[0..nins) of b and the batch's updated
 * rows, merged in input order (as PostgreSQL returns them), run by run. */
static void keep_merged(ExecOp *op, InsertState *st, const Batch *b, uint32_t nins)
{
    uint32_t i = 0, j = 0;
    while (i < nins || j < st->nupd_out) {
        uint32_t start = i;
        while (i < nins && (j == st->nupd_out || st->ins_sel[i] < st->upd_in[j]))
            i++;
        keep_out(op, st, b->cols, st->ins_sel + start, i - start);
        uint32_t from = j;
        while (j < st->nupd_out && (i == nins || st->upd_in[j] < st->ins_sel[i]))
            j++;
        for (int c = 0; c < st->ncols && j > from; c++) {
            Vector v;
            exec__col_view(&st->upd_out[c], 0, &v);
            exec__col_append(&st->out[c], op->q->arena, &v, exec__identity_sel + from, j - from);
        }
    }
}

/* The input row of the worktable row with locator id (rare: a retry). */
static uint16_t input_row_of(const InsertState *st, int64_t id)
{
    const int64_t *wt_ids = (const int64_t *)st->locators.data;
    uint32_t i = 0;
    while (wt_ids[i] != id)
        i++;
    return st->upd_rows[i];
}

/* DO UPDATE: evaluate the update tree over the worktable, write the rows. */
static void apply_updates(ExecOp *op, InsertState *st, const Batch *b, uint32_t nupd)
{
    if (fill_worktable(op, st, b, nupd) == 0)
        return;
    ExecShared *sh = op->q->shared;
    sh->worktables[st->wt_id] = &st->wt;
    if (!st->sub)
        st->sub = exec__sub_new(op->q, st->tree, true);
    exec__sub_start(st->sub, op->q->outer, op->q->nouter);
    Batch *ob;
    uint32_t wt_pos = 0;
    st->nupd_out = 0;
    if (st->out)
        for (int c = 0; c < st->ncols; c++) {
            ExecColumn *col = &st->upd_out[c];
            memset(col->validity, 0, (size_t)(col->cap / 64) * sizeof(uint64_t));
            col->count = 0;
            col->has_null = false;
        }
    while (exec__sub_next(st->sub, &ob)) {
        Batch values = {ob->count, ob->sel, st->ncols, ob->cols + 1};
        const int64_t *ids = (const int64_t *)ob->cols[0].data;
        uint32_t k = 0;
        for (uint32_t i = 0; i < ob->count; i++) {
            uint32_t row = ob->sel ? ob->sel[i] : i;
            uint64_t newest = 0;
            StoreWriteResult r = store_row_update(st->target, op->q->txn, (uint64_t)ids[row], &values, row,
                                                  &newest);
            if (r != STORE_WRITE_OK) {
                /* READ COMMITTED (REPEATABLE READ raised 40001): a
                 * concurrent commit updated or deleted the row; the row is
                 * proposed again, as PostgreSQL retries the insertion. */
                st->retry[st->nretry++] = input_row_of(st, ids[row]);
                continue;
            }
            st->scratch[k] = (uint16_t)row;
            if (r == STORE_WRITE_OK)
                st->written[st->nwritten++] = ids[row];
            k += r == STORE_WRITE_OK;
        }
        st->count += k;
        if (st->out)
            keep_updated(op, st, ob, k, &wt_pos);
    }
    sh->worktables[st->wt_id] = NULL;
}

/* The inserts of a segment, rows ins_sel[0..nins) of b with distinct keys,
 * as PostgreSQL's speculative insertion: a row whose key a live row holds
 * (the transaction's own, or committed, also after the snapshot) is not
 * inserted. DO NOTHING skips it, DO UPDATE queues that row (READ COMMITTED
 * updates it although its snapshot may not see it); REPEATABLE READ gets
 * 40001 for a row its snapshot does not see, as PostgreSQL's visibility
 * check of the conflicting row. Returns the rows inserted, left in
 * ins_sel; *nupd the rows queued. */
static uint32_t speculative_insert(ExecOp *op, InsertState *st, const Batch *b, uint32_t nins,
                                   uint32_t *nupd)
{
    Batch ins = {nins, st->ins_sel, b->ncols, b->cols};
    StoreConflicts *cf = st->conf;
    store_table_insert_or_conflict(st->target, op->q->txn, &ins, cf);
    *nupd = 0;
    if (cf->count == 0)
        return nins;
    bool rr = store_txn_isolation(op->q->txn) == STORE_REPEATABLE_READ;
    for (uint32_t c = 0; c < cf->count; c++)
        if (rr && cf->unseen[c])
            err_raise(ERRCODE_T_R_SERIALIZATION_FAILURE, "could not serialize access due to concurrent update");
    uint32_t k = 0, c = 0;
    for (uint32_t i = 0; i < nins; i++) {
        if (c < cf->count && cf->rows[c] == st->ins_sel[i]) {
            if (st->on_conflict == 'u') {
                st->pend_rows[*nupd] = st->upd_rows[*nupd] = cf->rows[c];
                st->upd_ids[(*nupd)++] = (int64_t)cf->ids[c];
            }
            c++;
            continue;
        }
        st->ins_sel[k++] = st->ins_sel[i];
    }
    return k;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Set the key of b's row `row` (when not NULL) to state. */
static void settle_key(ExecOp *op, InsertState *st, const Batch *b, uint16_t row, uint8_t state)
{
    bool existed;
    if (load_key(st, b, row))
        *keyset_entry(op, st, state, &existed) = state;
}

/* After a segment its keys are settled: inserted and skipped ones are
 * "affected"; a queued key becomes affected when its row was written and
 * free again when DO UPDATE's WHERE left the row alone (PostgreSQL checks
 * "a second time" against the rows this command actually changed). */
static void settle_keys(ExecOp *op, InsertState *st, const Batch *b, uint32_t nins, uint32_t nupd)
{
    for (uint32_t i = 0; i < nins; i++)
        settle_key(op, st, b, st->ins_sel[i], KEY_AFFECTED);
    if (st->on_conflict != 'u') {
        for (uint32_t c = 0; c < st->conf->count; c++)
            settle_key(op, st, b, st->conf->rows[c], KEY_AFFECTED);
        return;
    }
    qsort(st->written, st->nwritten, sizeof(int64_t), cmp_i64);
    for (uint32_t j = 0; j < nupd; j++) {
        bool written = bsearch(&st->upd_ids[j], st->written, st->nwritten, sizeof(int64_t), cmp_i64) != NULL;
        settle_key(op, st, b, st->pend_rows[j], written ? KEY_AFFECTED : KEY_RELEASED);
    }
}

/* Write one segment: its inserts, then the updates of the rows they met. */
static void flush_segment(ExecOp *op, InsertState *st, Batch *b, uint32_t nins)
{
    uint32_t nupd = 0;
    st->conf->count = 0;
    if (nins > 0) {
        nins = speculative_insert(op, st, b, nins, &nupd);
        st->count += nins;
    }
    st->nupd_out = 0;
    st->nwritten = 0;
    if (nupd > 0)
        apply_updates(op, st, b, nupd);
    if (st->out)
        keep_merged(op, st, b, nins);
    settle_keys(op, st, b, nins, nupd);
}

/* Write one segment; rows whose existing row a concurrent commit changed
 * meanwhile (DO UPDATE, READ COMMITTED) are proposed again, until none is
 * left. */
static void conflict_flush(ExecOp *op, InsertState *st, Batch *b, uint32_t nins)
{
    for (;;) {
        st->nretry = 0;
        flush_segment(op, st, b, nins);
        if (st->nretry == 0)
            return;
        err_check_interrupts();
        for (uint32_t i = 0; i < st->nretry; i++)
            settle_key(op, st, b, st->retry[i], KEY_PENDING);
        memcpy(st->ins_sel, st->retry, st->nretry * sizeof *st->ins_sel);
        nins = st->nretry;
    }
}

/* One flat batch: every row is proposed for insertion (a segment of rows
 * with distinct keys at a time); a key proposed again by this command is
 * skipped, or 21000 under DO UPDATE, unless its update left the row alone;
 * a key proposed again while its first proposal is pending in the segment
 * ends the segment there. */
static void conflict_batch(ExecOp *op, InsertState *st, Batch *b)
{
    uint32_t nins = 0;
    for (uint32_t i = 0; i < b->count; i++) {
        uint32_t row = b->sel ? b->sel[i] : i;
        if (load_key(st, b, row)) {   /* a NULL key conflicts with nothing (the append raises 23502) */
            bool existed;
            uint8_t *state = keyset_entry(op, st, KEY_PENDING, &existed);
            if (existed && *state == KEY_PENDING) {
                conflict_flush(op, st, b, nins);
                nins = 0;
                load_key(st, b, row);
                state = keyset_entry(op, st, KEY_PENDING, &existed);
            }
            if (existed && *state != KEY_RELEASED) {
                if (st->on_conflict == 'u')
                    affect_twice();
                continue;
            }
            *state = KEY_PENDING;
        }
        st->ins_sel[nins++] = (uint16_t)row;
    }
    conflict_flush(op, st, b, nins);
}

/* ---- the sink ---- */

static void insert_append(ExecOp *op, Batch *in)
{
    InsertState *st = op->state;
    Batch *b = in;
    bool any_const = false;
    for (int c = 0; c < in->ncols; c++)
        any_const |= in->cols[c].is_const;
    if (any_const) {
        for (int c = 0; c < in->ncols; c++)
            exec__vec_flatten(&in->cols[c], in->sel, in->count, &st->flat->cols[c]);
        st->flat->sel = in->sel;
        st->flat->count = in->count;
        b = st->flat;
    }
    if (st->on_conflict) {
        conflict_batch(op, st, b);
        return;
    }
    store_table_append(st->target, op->q->txn, b);
    st->count += in->count;
}

static void insert_sink(ExecOp *op, Batch *in)
{
    InsertState *st = op->state;
    if (!st->buffered) {
        insert_append(op, in);
        return;
    }
    const uint16_t *rows = in->sel ? in->sel : exec__identity_sel;
    for (int c = 0; c < in->ncols; c++)
        exec__col_append(&st->buf[c], op->q->arena, &in->cols[c], rows, in->count);
}

static void insert_finalize(ExecOp *op)
{
    InsertState *st = op->state;
    if (!st->buffered)
        return;
    int ncols = st->ncols;
    uint32_t total = ncols > 0 ? st->buf[0].count : 0;
    for (uint32_t pos = 0; pos < total; pos += VEC_CAPACITY) {
        err_check_interrupts();
        uint32_t n = total - pos < VEC_CAPACITY ? total - pos : VEC_CAPACITY;
        for (int c = 0; c < ncols; c++)
            exec__col_view(&st->buf[c], pos, &st->flat->cols[c]);
        st->flat->sel = NULL;
        st->flat->count = n;
        if (st->on_conflict) {
            conflict_batch(op, st, st->flat);
            continue;
        }
        store_table_append(st->target, op->q->txn, st->flat);
        st->count += n;
    }
}

/* RETURNING: the written rows, a chunk at a time. */
static bool insert_next(ExecOp *op, Batch **out)
{
    InsertState *st = op->state;
    uint32_t total = st->ncols > 0 ? st->emit[0].count : 0;
    if (st->emitted >= total)
        return false;
    uint32_t n = total - st->emitted < VEC_CAPACITY ? total - st->emitted : VEC_CAPACITY;
    for (int c = 0; c < st->ncols; c++)
        exec__col_view(&st->emit[c], st->emitted, &st->flat->cols[c]);
    st->flat->sel = NULL;
    st->flat->count = n;
    st->emitted += n;
    *out = st->flat;
    return true;
}

uint64_t exec__insert_count(const ExecOp *op)
{
    return ((const InsertState *)op->state)->count;
}

static const PlanNode *find_worktable(const PlanNode *n)
{
    while (n && n->kind != PLAN_WORKTABLE_SCAN)
        n = n->left;
    return n;
}

static void conflict_init(ExecQuery *q, const PlanNode *n, InsertState *st, bool returning)
{
    st->on_conflict = n->on_conflict;
    st->npk = store_table_npkey(n->target);
    st->pk = store_table_pkey(n->target);
    st->key = MEM_NEW_ARRAY(q->arena, Value, st->npk + 1);
    st->ins_sel = MEM_NEW_ARRAY(q->arena, uint16_t, VEC_CAPACITY);
    st->conf = MEM_NEW(q->arena, StoreConflicts);
    const PlanNode *child = n->left;
    if (returning) {
        st->out = MEM_NEW_ARRAY(q->arena, ExecColumn, child->ncols + 1);
        for (int c = 0; c < child->ncols; c++)
            exec__col_init(&st->out[c], child->col_types[c], q->arena, 1024);
        st->emit = st->out;
    }
    if (st->on_conflict != 'u')
        return;
    st->upd_rows = MEM_NEW_ARRAY(q->arena, uint16_t, VEC_CAPACITY);
    st->retry = MEM_NEW_ARRAY(q->arena, uint16_t, VEC_CAPACITY);
    st->scratch = MEM_NEW_ARRAY(q->arena, uint16_t, VEC_CAPACITY);
    if (returning) {
        st->upd_in = MEM_NEW_ARRAY(q->arena, uint16_t, VEC_CAPACITY);
        st->upd_out = MEM_NEW_ARRAY(q->arena, ExecColumn, child->ncols + 1);
        for (int c = 0; c < child->ncols; c++)
            exec__col_init(&st->upd_out[c], child->col_types[c], q->arena, VEC_CAPACITY);
    }
    st->upd_ids = MEM_NEW_ARRAY(q->arena, int64_t, VEC_CAPACITY);
    st->pend_rows = MEM_NEW_ARRAY(q->arena, uint16_t, VEC_CAPACITY);
    st->written = MEM_NEW_ARRAY(q->arena, int64_t, VEC_CAPACITY);
    st->tree = n->right;
    const PlanNode *leaf = find_worktable(n->right);
    ERR_ASSERT(leaf != NULL);
    st->wt_id = leaf->worktable_id;
    exec__rowset_init(&st->wt, leaf, q->arena);
    st->fetch = exec__batch_new(q, child->ncols, child->col_types);
    st->all_cols = MEM_NEW_ARRAY(q->arena, int, child->ncols + 1);
    for (int c = 0; c < child->ncols; c++)
        st->all_cols[c] = c;
    vec_init(&st->locators, SQLTYPE(TYPE_INT8), q->arena);
}

ExecOp *exec__op_insert(ExecQuery *q, const PlanNode *n, bool buffered)
{
    ExecOp *op = exec__op_new(q, n, sizeof(InsertState));
    InsertState *st = op->state;
    st->target = n->target;
    st->buffered = buffered;
    const PlanNode *child = n->left;
    st->ncols = child->ncols;
    st->flat = exec__batch_new(q, child->ncols, child->col_types);
    if (buffered) {
        st->buf = MEM_NEW_ARRAY(q->arena, ExecColumn, child->ncols > 0 ? child->ncols : 1);
        for (int c = 0; c < child->ncols; c++)
            exec__col_init(&st->buf[c], child->col_types[c], q->arena, 1024);
    }
    st->emit = st->buf;
    if (n->on_conflict)
        conflict_init(q, n, st, n->ncols > 0);
    op->sink = insert_sink;
    op->finalize = insert_finalize;
    if (n->ncols > 0)
        op->next = insert_next;
    return op;
}
