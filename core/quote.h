/* quote.h -- untrusted text in error messages. */
#ifndef PB_QUOTE_H
#define PB_QUOTE_H

#include <stddef.h>

/* Write `s` as a JSON string literal (quotes, escapes) into out, cut to fit,
 * so a hostile value can never split an error message over lines. */
void pb_quote(const char *s, char *out, size_t n);

#endif
