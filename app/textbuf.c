/* textbuf.c -- the terminal renderers' text buffer (textbuf.h). */
#include "textbuf.h"

#include <stdlib.h>
#include <string.h>

#include "../core/text.h"

void tb_raw(tb *b, const char *s, size_t n)
{
    if (b->oom)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 2048;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *p = realloc(b->s, cap);
        if (!p) {
            b->oom = true;
            return;
        }
        b->s = p;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = 0;
}

/* Bytes of the printable character at s, or 0 when it is not one (a control
 * character or broken UTF-8), which is then shown as '?'. */
static int char_len(const unsigned char *s)
{
    int len = pb_utf8_len(s);
    return len && !pb_utf8_is_control(s, len) ? len : 0;
}

int tb_width(const tb *b)
{
    return b->width > 0 ? b->width : TB_WIDTH;
}

/* Columns of the first n bytes of s. */
int cols_of(const char *s, size_t n)
{
    int cols = 0;
    for (size_t i = 0; i < n && s[i]; cols++) {
        int k = char_len((const unsigned char *)s + i);
        i += k ? (size_t)k : 1;
    }
    return cols;
}

/* Append up to n bytes of s, at most maxcols columns, made safe to print. */
void tb_text(tb *b, const char *s, size_t n, int maxcols)
{
    if (maxcols > tb_width(b))
        maxcols = tb_width(b);
    for (size_t i = 0; i < n && s[i] && maxcols > 0; maxcols--, b->col++) {
        int k = char_len((const unsigned char *)s + i);
        if (k && i + (size_t)k <= n)
            tb_raw(b, s + i, (size_t)k);
        else
            tb_raw(b, "?", 1);
        i += k ? (size_t)k : 1;
    }
}

void tb_put(tb *b, const char *s)
{
    tb_text(b, s, strlen(s), tb_width(b));
}

void tb_sgr(tb *b, const char *code)
{
    if (!b->colour || !code)
        return;
    tb_raw(b, "\x1b[", 2);
    tb_raw(b, code, strlen(code));
    tb_raw(b, "m", 1);
}

/* Text in a colour (code NULL: plain). */
void tb_cput(tb *b, const char *code, const char *s)
{
    tb_sgr(b, code);
    tb_put(b, s);
    if (code)
        tb_sgr(b, "0");
}

void tb_pad(tb *b, int col)
{
    while (b->col < col && !b->oom)
        tb_text(b, " ", 1, 1);
}

/* End the line, dropping trailing blanks. */
void tb_nl(tb *b)
{
    while (b->len && b->s[b->len - 1] == ' ')
        b->s[--b->len] = 0;
    tb_raw(b, "\n", 1);
    b->col = 0;
}

/* Make room for a unit of w columns: on a fresh line go to the indent; if it
 * does not fit start a new line there, else write sep blanks. */
void tb_room(tb *b, int w, int indent, int sep)
{
    if (b->col == 0) {
        tb_pad(b, indent);
    } else if (b->col + sep + w > tb_width(b)) {
        tb_nl(b);
        tb_pad(b, indent);
    } else {
        tb_pad(b, b->col + sep);
    }
}

/* A word, or a "quoted command" with what sticks to it, starting at s. */
static size_t word_len(const char *s)
{
    if (*s == '"') {
        const char *q = strchr(s + 1, '"');
        if (q && q - s < 40)
            return (size_t)(q - s + 1) + strcspn(q + 1, " ");
    }
    return strcspn(s, " ");
}

/* Word-wrapped text; quoted commands stay whole and are bold. */
void tb_para(tb *b, const char *text, int indent)
{
    for (const char *s = text; *s;) {
        s += strspn(s, " ");
        size_t n = word_len(s);
        if (!n)
            break;
        tb_room(b, cols_of(s, n), indent, 1);
        tb_sgr(b, *s == '"' ? "1" : NULL);
        tb_text(b, s, n, tb_width(b) - b->col);
        tb_sgr(b, *s == '"' ? "0" : NULL);
        s += n;
    }
}

char *tb_done(tb *b)
{
    if (b->oom || !b->s) {
        free(b->s);
        return NULL;
    }
    return b->s;
}
