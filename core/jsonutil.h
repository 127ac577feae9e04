/* jsonutil.h -- small helpers for reading untrusted JSON. */
#ifndef PB_JSONUTIL_H
#define PB_JSONUTIL_H

#include <jansson.h>
#include <stddef.h>

/* Write `s` as a JSON string literal (quotes, escapes) into out, cut to fit,
 * so a hostile value can never split an error message over lines. */
void pb_quote(const char *s, char *out, size_t n);

/* Check that the object has only keys from `allowed` (NULL-terminated).
 * Returns 0, or -1 with "<prefix>unknown field "key" in <where>" in err. */
int pb_json_known_keys(const json_t *obj, const char *const *allowed, const char *prefix,
                       const char *where, char *err, size_t errlen);

#endif
