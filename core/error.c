/* error.c -- see error.h. */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>

int pb_errorf(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}
