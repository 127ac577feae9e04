/* delivery_tui.h -- New York Pizza Delivery at the terminal, drawn from one
 * seat's view (games/delivery/view.c): pure functions, view in, malloc'd
 * text out, every line at most 80 columns.
 *
 * Cards are written short, `HK/Sausage` (the village's code), which the
 * notation also reads. Players are lettered by seat (A, B, ...), and on a
 * colour terminal coloured too; the map marks a pizzeria with its owner's
 * letter and level disks (`B2`). */
#ifndef PB_DELIVERY_TUI_H
#define PB_DELIVERY_TUI_H

#include <jansson.h>
#include <stdio.h>

#include "front.h"

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

#endif
