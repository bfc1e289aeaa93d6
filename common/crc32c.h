/*
 * crc32c.h — CRC32C (Castagnoli polynomial 0x1EDC6F41, reflected), shared by
 * the WAL (storage/wal.c) and run files (storage/runs/).
 */
#ifndef STRATA_COMMON_CRC32C_H
#define STRATA_COMMON_CRC32C_H

#include <stddef.h>
#include <stdint.h>

/* CRC32C of data, continuing from crc (start with 0; pass a previous result
 * to checksum several pieces as one). Thread-safe. */
uint32_t crc32c(uint32_t crc, const void *data, size_t len);

#endif
