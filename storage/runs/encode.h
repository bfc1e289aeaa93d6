/*
 * encode.h — column chunk encodings of run files: the writer picks, per
 * chunk, the smallest of plain, frame-of-reference bit-packing, delta,
 * run-length and dictionary for the data at hand; the reader decodes into
 * plain arrays. Internal to storage/runs/.
 */
#ifndef STRATA_STORAGE_RUNS_ENCODE_H
#define STRATA_STORAGE_RUNS_ENCODE_H

#include <stdbool.h>
#include <stdint.h>
#include "common/arena.h"
#include "common/strbuf.h"
#include "common/types.h"

/* Append the encoding of values[0..n) (an array of phys; StrRef for
 * PHYS_STR) to out and return its RunEncoding. validity (NULL = all valid)
 * only tells which slots are NULL: their contents are ignored. scratch holds
 * temporaries (the caller resets it). */
uint8_t run__encode(PhysType phys, const void *values, const uint64_t *validity, uint32_t n,
                    StrBuf *out, MemArena *scratch);
/* Decode n values encoded as enc from in[0..len) into values (an array of
 * phys; strings point into in). Returns false when the bytes are malformed
 * (the caller reports corruption). */
bool run__decode(PhysType phys, uint8_t enc, const uint8_t *in, size_t len, uint32_t n,
                 void *values);

#endif
