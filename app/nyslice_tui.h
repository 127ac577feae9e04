/* nyslice_tui.h -- New York Slice drawn for a terminal from one seat's view.
 *
 * Pure functions: a view (games/nyslice/view.c, the JSON a seat may see) in,
 * malloc'd text out (free() it; NULL only when out of memory). Nothing is
 * read from anywhere but the view and the options, so a player is never shown
 * another player's secrets. Every line is at most 80 columns, colour escapes
 * not counted; without colour the text is plain ASCII (names and deck type
 * names pass through as UTF-8, control characters shown as '?'). */
#ifndef PB_NYSLICE_TUI_H
#define PB_NYSLICE_TUI_H

#include <jansson.h>
#include <stdbool.h>

#include "front.h"

/* The whole table as text, every line at most 80 columns (colour escapes not
 * counted). o may be NULL: no colour, seat numbers, spectator. */
char *nys_tui_table(const json_t *view, const pb_tui_opts *o);

/* Labels of the portions: out[i] is the letter ('A', 'B', ...) of
 * view.portions[i], as the view names it (views without letters: in ring
 * order by lowest position, the Special-only portion last). Fills at most
 * max letters and returns the number of portions (0 before division). */
int nys_tui_portion_labels(const json_t *view, char *out, int max);

/* One or two lines telling the player to move what to type now, with an
 * example in the notation of the current phase ("take B", "eat 9p2"); for
 * anyone else, who is being waited for. "eat 1 3" (the slices being placed
 * numbered 1..k in view.placing) is also offered: a front end translates it
 * to the notation. */
char *nys_tui_prompt(const json_t *view, const pb_tui_opts *o);

/* "== Round N of 6. Slicer: <name>. Today's Special: <name>", or NULL
 * before the round's Special is revealed and once the game is over. */
char *nys_tui_banner(const json_t *view, const pb_tui_opts *o);

#endif
