/* text.c -- see text.h. */
#include "text.h"

#include <stdio.h>

void pb_vappendf(char *buf, size_t n, size_t *len, const char *fmt, va_list ap)
{
    if (*len >= n)
        return;
    int k = vsnprintf(buf + *len, n - *len, fmt, ap);
    if (k > 0)
        *len = *len + (size_t)k < n ? *len + (size_t)k : n - 1;
}

void pb_appendf(char *buf, size_t n, size_t *len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pb_vappendf(buf, n, len, fmt, ap);
    va_end(ap);
}

void pb_say(pb_sentences *t, const char *fmt, ...)
{
    pb_appendf(t->buf, t->n, &t->len, "%s", t->len ? " " : "");
    va_list ap;
    va_start(ap, fmt);
    pb_vappendf(t->buf, t->n, &t->len, fmt, ap);
    va_end(ap);
}
