/* text.c -- see text.h. */
#include "text.h"

#include <stdio.h>
#include <string.h>

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

int pb_utf8_len(const unsigned char *s)
{
    unsigned char c = s[0], lo = 0x80, hi = 0xBF;
    if (c && c < 0x80)
        return 1;
    int len = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    /* The second byte's range shuts out overlong forms (E0, F0), surrogates
     * (ED) and code points past U+10FFFF (F4). */
    if (c == 0xE0)
        lo = 0xA0;
    else if (c == 0xED)
        hi = 0x9F;
    else if (c == 0xF0)
        lo = 0x90;
    else if (c == 0xF4)
        hi = 0x8F;
    for (int i = 1; i < len; i++, lo = 0x80, hi = 0xBF)
        if (s[i] < lo || s[i] > hi)
            return 0;
    return len;
}

bool pb_utf8_is_control(const unsigned char *s, int len)
{
    return (len == 1 && (s[0] < 0x20 || s[0] == 0x7f)) || (len == 2 && s[0] == 0xC2 && s[1] < 0xA0) ||
           (len == 3 && s[0] == 0xE2 && s[1] == 0x80 && (s[2] == 0xA8 || s[2] == 0xA9));
}

bool pb_text_unprintable(const char *s)
{
    for (const unsigned char *c = (const unsigned char *)s; *c;) {
        int len = pb_utf8_len(c);
        if (len == 0 || pb_utf8_is_control(c, len))
            return true;
        c += len;
    }
    return false;
}

void pb_text_make_printable(char *s)
{
    unsigned char *to = (unsigned char *)s;
    for (const unsigned char *c = to; *c;) {
        int len = pb_utf8_len(c);
        if (len == 0 || pb_utf8_is_control(c, len)) {
            *to++ = '?';
            c += len ? len : 1;
        } else {
            memmove(to, c, (size_t)len); /* to never passes c: the text only shrinks */
            to += len;
            c += len;
        }
    }
    *to = 0;
}
