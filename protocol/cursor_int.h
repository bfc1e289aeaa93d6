/*
 * cursor_int.h — SQL cursors' internal structures, shared by cursor.c (the
 * statements and PostgreSQL's portal position rules) and cursor_store.c
 * (the rows a scrollable cursor keeps, and their DataRows). Only those two
 * files include it.
 */
#ifndef STRATA_PROTOCOL_CURSOR_INT_H
#define STRATA_PROTOCOL_CURSOR_INT_H

#ifndef STRATA_PROTOCOL_INTERNAL
#error "protocol/cursor_int.h is internal to protocol/"
#endif

#include "protocol/proto_int.h"
#include "common/vector.h"

/*
 * One SQL cursor (ProtoPortal.cursor; lives in the portal's arena).
 *
 * Two positions are kept, as PostgreSQL keeps them:
 *   - the portal's (at_start, at_end, portal_pos): what FETCH/MOVE reason
 *     about (pquery.c's DoPortalFetch / PortalRunSelect), copied literally;
 *   - the scan's (scan_pos): where the row source stands, with executor
 *     semantics: 0 = before the first row, k = on row k (1-based), total+1 =
 *     after the last. A forward read returns rows scan_pos+1.., a backward
 *     one scan_pos-1.. down.
 *
 * Rows come from one of two sources:
 *   - stream (forward-only cursors, no store): the executor portal runs
 *     straight into the client's DataRows (or is counted, for MOVE);
 *   - store (scrollable cursors, and every held cursor after COMMIT):
 *     rows base+1 .. base+stored are kept in chunks of VEC_CAPACITY rows
 *     (dense vectors, strings copied once per column per batch); the
 *     executor portal, while it exists, appends to it on demand.
 */
typedef struct ProtoCursor {
    bool scroll;            /* backward motion allowed (SCROLL, or PG's implicit rule) */
    bool hold;              /* WITH HOLD */
    bool in_block;          /* declared inside BEGIN: only a COMMIT statement persists it */
    int sp_depth;           /* savepoints open when declared (ROLLBACK TO drops the deeper ones) */
    bool persisted;         /* held and materialised at a COMMIT: no executor portal any more */
    bool exec_done;         /* the executor portal has produced its last row */
    bool failed;            /* a FETCH/MOVE raised: "cannot be run" from now on (PG's PORTAL_FAILED) */
    /* PostgreSQL's portal state */
    bool at_start, at_end;
    uint64_t portal_pos;
    /* the row source */
    uint64_t scan_pos;
    uint64_t consumed;      /* rows taken from the executor portal so far */
    uint64_t base;          /* rows before the first stored one */
    uint64_t stored;        /* rows in the store */
    Batch **chunks;         /* stored / VEC_CAPACITY rounded up, each VEC_CAPACITY rows */
    int nchunks, chunks_cap;
    int ncols;
    SqlType *types;
} ProtoCursor;

/* The savepoints of the session's block, innermost last, so that ROLLBACK
 * TO can close the cursors declared after it (PostgreSQL drops the portals
 * of a rolled-back subtransaction). Past CURSOR_SAVEPOINTS_MAX nested
 * savepoints the names are no longer tracked and ROLLBACK TO closes
 * nothing. Lives in the session's arena. */
#define CURSOR_SAVEPOINTS_MAX 64
typedef struct CursorSavepoints {
    int depth;
    bool overflow;
    char names[CURSOR_SAVEPOINTS_MAX][PROTO_NAME_MAX];
} CursorSavepoints;

/* Rows may be encoded to the client (FETCH) or only counted (MOVE). */
typedef struct CursorDest {
    ProtoConn *c;
    bool send;
    bool no_flush;           /* keep every DataRow in c->out (an Execute row limit cuts them) */
    const int16_t *formats;  /* result formats (NULL = text) */
} CursorDest;

/* The DataRows of a FETCH portal not yet sent: an Execute with a row limit
 * suspends after that many, as PostgreSQL's, which runs the whole FETCH at
 * the first Execute and hands out its stored rows. Whole messages, in the
 * FETCH portal's arena. */
typedef struct CursorRest {
    char *bytes;
    size_t len, pos;
} CursorRest;

/* PostgreSQL's ExecSupportsBackwardScan over Strata's plan tree. */
bool proto_cursor__backward_ok(const Plan *plan);
/* Forward read of count rows (0 = all) from scan_pos; returns the rows read. */
uint64_t proto_cursor__scan_forward(ProtoPortal *p, uint64_t count, const CursorDest *d);
/* Backward read (store only) of count rows (0 = all) from scan_pos. */
uint64_t proto_cursor__scan_backward(ProtoPortal *p, uint64_t count, const CursorDest *d);
/* Run the executor portal to its end into the store (held cursors at
 * COMMIT): a forward-only cursor keeps only the rows not yet read (base =
 * rows read), a scrollable one every row. Closes the executor portal. */
void proto_cursor__persist(ProtoPortal *p);

#endif
