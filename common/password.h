/*
 * password.h — password verifiers as PostgreSQL stores them.
 *
 * A role's password is kept only as a verifier:
 *   "SCRAM-SHA-256$<iterations>:<salt b64>$<StoredKey b64>:<ServerKey b64>"
 *   (RFC 5802/7677, 4096 iterations, 16-byte random salt), or
 *   "md5" + md5(password || username) in hex (password_encryption = md5).
 * A password that already looks like a verifier is stored as given, as
 * PostgreSQL does. Built on OpenSSL's primitives.
 */
#ifndef STRATA_COMMON_PASSWORD_H
#define STRATA_COMMON_PASSWORD_H

#include <stdbool.h>
#include <stddef.h>

#define PASSWORD_VERIFIER_MAX 256

/* method: "scram-sha-256" or "md5" (password_encryption). */
void password_make_verifier(const char *user, const char *password, const char *method,
                            char *out, size_t out_size);
bool password_is_scram_verifier(const char *verifier);
bool password_is_md5_verifier(const char *verifier);
/* Split a SCRAM verifier; false when malformed. Keys are 32 bytes. */
bool password_parse_scram(const char *verifier, int *iterations, unsigned char *salt,
                          size_t *salt_len, size_t salt_max, unsigned char stored_key[32],
                          unsigned char server_key[32]);

#endif
