/* error.h -- the one error convention: a function returns -1 and puts a
 * one-line message in a buffer its caller provides. */
#ifndef PB_ERROR_H
#define PB_ERROR_H

#include <stddef.h>

/* Format a message into err (errlen bytes) and return -1. */
int pb_errorf(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
