/* theory_tui.h -- Pizza Theory at the terminal, drawn from one seat's view
 * (docs/theory-view.md): pure functions, view in, malloc'd text out, every
 * line at most 80 columns. Spaces carry the labels the engine gives them
 * (view.labels): row a, b, ... from the top, 1, 2, ... from the left: "d4". */
#ifndef PB_THEORY_TUI_H
#define PB_THEORY_TUI_H

#include <jansson.h>
#include <stdio.h>

#include "front.h"

/* The board now and, beside it, the last reveal with its slices. */
char *th_tui_table(const json_t *view, const pb_tui_opts *o);
char *th_tui_prompt(const json_t *view, const pb_tui_opts *o);
/* Who adds first and who cuts from which side this round; NULL when over.
 * The last round's reveal is the game's news (th_news), told once. */
char *th_tui_banner(const json_t *view, const pb_tui_opts *o);
/* The line as typed: the engine reads labels itself, so that the terminal,
 * the server and records take the same words. */
int th_ui_translate(const json_t *view, const char *line, char *out, size_t n, char *err, size_t errlen);
void th_print_result(FILE *out, const pb_game *g, const pb_state *st, const char *const *names);

#endif
