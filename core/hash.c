/* hash.c -- see hash.h. */
#include "hash.h"

#include <openssl/evp.h>
#include <stdio.h>

void pb_sha256_hex(const void *data, size_t n, char out[PB_SHA256_HEX])
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned len = 0;
    if (EVP_Digest(data, n, digest, &len, EVP_sha256(), NULL) != 1)
        len = 0; /* cannot happen with a built-in digest; an empty text never matches a token */
    for (unsigned i = 0; i < len && i < 32; i++)
        snprintf(out + 2 * i, 3, "%02x", digest[i]);
    out[2 * (len < 32 ? len : 32)] = 0;
}
