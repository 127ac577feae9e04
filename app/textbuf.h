/* textbuf.h -- a growing text buffer that knows its column, for the
 * terminal renderers: colour escapes do not count as columns, and anything
 * unprintable from a view (control characters, broken UTF-8) shows as '?'. */
#ifndef PB_TEXTBUF_H
#define PB_TEXTBUF_H

#include <stdbool.h>
#include <stddef.h>

#define TB_WIDTH 80 /* every line fits a standard terminal */

typedef struct tb {
    char *s;
    size_t len, cap;
    int col;
    int width; /* columns of a line: 0 for TB_WIDTH, or a wider terminal's */
    bool colour, oom;
} tb;

/* The columns a line of b may take. */
int tb_width(const tb *b);

/* Append bytes as they are (escapes; no column counted). */
void tb_raw(tb *b, const char *s, size_t n);
/* Columns of the first n bytes of s. */
int cols_of(const char *s, size_t n);
/* Append up to n bytes of s, at most maxcols columns, made safe to print. */
void tb_text(tb *b, const char *s, size_t n, int maxcols);
void tb_put(tb *b, const char *s);
/* Switch to an SGR colour code (nothing without colour). */
void tb_sgr(tb *b, const char *code);
/* Text in a colour (code NULL: plain). */
void tb_cput(tb *b, const char *code, const char *s);
/* Blanks up to column col. */
void tb_pad(tb *b, int col);
/* End the line, dropping trailing blanks. */
void tb_nl(tb *b);
/* Make room for a unit of w columns: on a fresh line go to the indent; if it
 * does not fit start a new line there, else write sep blanks. */
void tb_room(tb *b, int w, int indent, int sep);
/* Word-wrapped text; "quoted commands" stay whole and are bold. */
void tb_para(tb *b, const char *text, int indent);
/* The text (the caller frees it), or NULL when memory ran out. */
char *tb_done(tb *b);

#endif
