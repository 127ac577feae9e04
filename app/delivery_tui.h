/* delivery_tui.h -- New York Pizza Delivery at the terminal, drawn from one
 * seat's view (games/delivery/view.c): view in, malloc'd text out, every
 * line at most 80 columns (100 on a terminal that wide); on a terminal the
 * table also remembers the view it drew last for each seat.
 *
 * Cards are written short, `HK/Sausage` (the village's code), which the
 * notation also reads. Players are lettered by seat (A, B, ...), and on a
 * colour terminal coloured too; the map marks a pizzeria with its owner's
 * letter and its village's code (`BHK`), one mark for each pizzeria. */
#ifndef PB_DELIVERY_TUI_H
#define PB_DELIVERY_TUI_H

#include <jansson.h>
#include <stdio.h>

#include "front.h"

/* The table fits the terminal on stdout (TIOCGWINSZ, else COLUMNS and
 * LINES): at least 100x40, the orders beside the map and the others'
 * pizzerias when they fit with the moves; smaller (80x24), no map and a
 * line a player, so that the orders, your moves and the moves logged before stay on
 * screen. Within a turn a step that only pays or supplies draws what it
 * changed; the same view drawn twice (`table`) is drawn whole, as it is
 * when the output is no terminal. A size set here (cols, rows > 0) stands
 * for the terminal's; -1, -1 draws as for no terminal; 0, 0 asks again. */
void dlv_tui_set_screen(int cols, int rows);

/* The map beside the villages and their lots, the orders, the open market,
 * every player with their pizzerias, your hand, what is being paid for, and
 * while you move your legal moves, numbered (deliveries with their cost). */
char *dlv_tui_table(const json_t *view, const pb_tui_opts *o);
/* What to type now with an example legal move, or who is being waited for. */
char *dlv_tui_prompt(const json_t *view, const pb_tui_opts *o);
/* Whose turn it is and how near the end is (NULL when the game is over). */
char *dlv_tui_banner(const json_t *view, const pb_tui_opts *o);
/* Friendly input to the notation: a number from the list of moves, `m`,
 * `r`, `d 2 MT`, `take 3` (the open market as listed), `take deck`, `pay`
 * alone (the first way to pay), short card names, a power card without
 * `power:` and the player it is played on by letter (`play out-of-supplies
 * on C`, read as `... on 3`), and any unambiguous beginning of a legal
 * move. Anything else passes through unchanged. */
int dlv_ui_translate(const json_t *view, const char *line, char *out, size_t n, char *err, size_t errlen);
/* The final scores with their PD-E1 parts, and the winner(s). */
void dlv_print_result(FILE *out, const pb_game *g, const pb_state *st, const char *const *names);

/* The market and power cards a seat's own move put in its hand that `said`
 * (the move in words) does not name: "You got UE/Sausage." (pb_front's
 * gained). */
int dlv_tui_gained(const json_t *before, const json_t *after, const char *said, char *buf, size_t n);

#endif
