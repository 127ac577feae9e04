/* text.h -- building a line of text in a buffer the caller provides, and
 * reading the characters of UTF-8 text. */
#ifndef PB_TEXT_H
#define PB_TEXT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

/* Append formatted text to the string buf (n bytes) at *len, advancing *len.
 * Never overflows: what does not fit is cut, buf stays a string and *len at
 * most n - 1 (nothing happens once *len >= n). */
void pb_appendf(char *buf, size_t n, size_t *len, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void pb_vappendf(char *buf, size_t n, size_t *len, const char *fmt, va_list ap) __attribute__((format(printf, 4, 0)));

/* Sentences told one after another (a log entry's news): each separated
 * from the last by a blank, cut like pb_appendf. */
typedef struct pb_sentences {
    char *buf;
    size_t n, len;
} pb_sentences;
void pb_say(pb_sentences *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Bytes of the well-formed UTF-8 character at s (RFC 3629: no overlong
 * forms, no surrogates; an ASCII control is one byte), or 0 where s holds no
 * character (a stray or cut byte, or the string's end). */
int pb_utf8_len(const unsigned char *s);
/* Is the character at s (len bytes, from pb_utf8_len) a control: C0, DEL,
 * C1, or the line and paragraph separators some clients split lines at? */
bool pb_utf8_is_control(const unsigned char *s, int len);
/* Does the string hold a control character or a byte that is not UTF-8? */
bool pb_text_unprintable(const char *s);
/* Make the string one printable line in place: each control character, and
 * each byte that is not part of a UTF-8 character, becomes one '?'. */
void pb_text_make_printable(char *s);

#endif
