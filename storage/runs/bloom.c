/*
 * bloom.c — bloom filters over key hashes (see bloom.h). Probe i of a key
 * sets bit (h1 + i·h2) mod nbits, h1/h2 the two halves of the 64-bit key
 * hash (Kirsch–Mitzenmacher double hashing): with 10 bits per key and k = 6
 * the false-positive rate is about 0.85% (measured in tests/unit/test_runs.c).
 */
#include "storage/runs/bloom.h"

size_t run__bloom_size(uint32_t nkeys, uint32_t bits_per_key)
{
    uint64_t bits = (uint64_t)nkeys * bits_per_key;
    if (bits < 64)
        bits = 64;
    return (size_t)((bits + 63) / 64) * 8;
}

int run__bloom_k(uint32_t bits_per_key)
{
    int k = (int)(bits_per_key * 69 / 100);
    return k < 1 ? 1 : k > 16 ? 16 : k;
}

void run__bloom_add(uint8_t *bits, size_t nbytes, int k, const uint64_t *hashes, uint32_t n)
{
    uint64_t nbits = (uint64_t)nbytes * 8;
    for (uint32_t j = 0; j < n; j++) {
        uint32_t h1 = (uint32_t)hashes[j], h2 = (uint32_t)(hashes[j] >> 32) | 1;
        uint64_t h = h1;
        for (int i = 0; i < k; i++, h += h2) {
            uint64_t b = h % nbits;
            bits[b >> 3] |= (uint8_t)(1u << (b & 7));
        }
    }
}

bool run__bloom_probe(const uint8_t *bits, size_t nbytes, int k, uint64_t hash)
{
    uint64_t nbits = (uint64_t)nbytes * 8;
    uint32_t h1 = (uint32_t)hash, h2 = (uint32_t)(hash >> 32) | 1;
    uint64_t h = h1;
    for (int i = 0; i < k; i++, h += h2) {
        uint64_t b = h % nbits;
        if (!(bits[b >> 3] >> (b & 7) & 1))
            return false;
    }
    return true;
}
