/* hash.h -- SHA-256 (OpenSSL's libcrypto) written as hex, for the server's
 * seat tokens and the commitments to a table's deal. */
#ifndef PB_HASH_H
#define PB_HASH_H

#include <stddef.h>

#define PB_SHA256_HEX 65 /* 64 hex digits and the end */

/* The SHA-256 of n bytes, as 64 lowercase hex digits. */
void pb_sha256_hex(const void *data, size_t n, char out[PB_SHA256_HEX]);

#endif
