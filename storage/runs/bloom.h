/*
 * bloom.h — the bloom filters of run files: one per row group over the
 * group's distinct keys (hashes from run__hash_elem), k probes by double
 * hashing. Internal to storage/runs/.
 */
#ifndef STRATA_STORAGE_RUNS_BLOOM_H
#define STRATA_STORAGE_RUNS_BLOOM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bytes of a filter for nkeys keys at bits_per_key (a multiple of 8, >= 8). */
size_t run__bloom_size(uint32_t nkeys, uint32_t bits_per_key);
/* Probes per key for bits_per_key (ln 2 · bits, 1..16). */
int run__bloom_k(uint32_t bits_per_key);
/* Set the bits of hashes[0..n) in a zeroed filter of nbytes. */
void run__bloom_add(uint8_t *bits, size_t nbytes, int k, const uint64_t *hashes, uint32_t n);
/* False when hash was certainly never added. */
bool run__bloom_probe(const uint8_t *bits, size_t nbytes, int k, uint64_t hash);

#endif
