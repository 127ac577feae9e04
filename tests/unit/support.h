/* support.h -- helpers for the cmocka tests: build New York Slice positions
 * from slice tokens and play actions written in the record notation. */
#ifndef TEST_SUPPORT_H
#define TEST_SUPPORT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../app/front.h"
#include "../../games/nyslice/nyslice.h"

/* Rules with the default deck for `players`, first Slicer seat 0. */
void ts_rules(nys_rules *r, int players);

/* Deal a known game. `stacks` lists slice tokens in stack order: the first 11
 * are round 1's ring positions 1..11, the next 11 round 2's, and so on; any
 * slices not listed fill the remaining stack places in deck order. `spares`
 * (NULL or 3 tokens) fixes the spare slices. `specials` lists Special slugs
 * for rounds 1, 2, ...; the others follow in slug order, then the box. */
void ts_deal(nys_state *st, const nys_rules *r, const char *const *stacks, int nstacks,
             const char *const *spares, const char *const *specials, int nspecials);

/* The 2-player fixture of the scoring scenarios (test_nyslice_rules.c,
 * "the 2-player fixture"): its four rings, stack by stack, and its spares
 * (S, c6/7, 4p2). */
#define TS_FIX2_SLICES 44
extern const char *const ts_fix2_rings[TS_FIX2_SLICES];
extern const char *const ts_fix2_spares[3];

/* Apply an action in notation; the test fails with the engine's reason if
 * it is refused. */
void ts_do(nys_state *st, const char *text);
/* Expect an action to be refused; the reason must contain `why` (if not
 * NULL) and the state must be unchanged. */
void ts_refused(nys_state *st, const char *text, const char *why);

/* Collected / eaten slices of a seat with this token ("S@9" for an attached
 * Supreme counts as collected "S"). */
int ts_collected(const nys_state *st, int seat, const char *token);
int ts_eaten(const nys_state *st, int seat, const char *token);
int ts_eaten_total(const nys_state *st, int seat);

/* Is the action (in notation) among the legal actions right now? */
int ts_is_legal(const nys_state *st, const char *text);

/* Play uniformly random actions until the game is over. */
void ts_play_out(nys_state *st, uint64_t seed);

/* Compare JSON with its compact text, e.g. [4,6,1]; fails the test showing both. */
void ts_assert_json(const json_t *j, const char *expected);

/* The text without ANSI colour escapes (ESC [ ... m); the caller frees it. */
char *ts_strip_ansi(const char *s);

/* A game by id for `players` (the default config otherwise); fails the test
 * if it cannot be made. */
pb_game *ts_game(const char *id, int players);

/* Is a among the n actions of list? */
bool ts_action_among(pb_action a, const pb_action *list, int n);

/* A decision in random games of g (seeded from `seed` on) where the seat to
 * move has some sure wins (the game's sure_wins) but not every move is one:
 * st is left there (state_size bytes), the sure wins in sure[] (at most
 * max), their count returned. Fails the test if 500 games have none. */
int ts_sure_win_position(const pb_game *g, pb_state *st, uint64_t seed, pb_action *sure, int max);

/* Terminal text as a player sees it: printable, lines of at most 80
 * columns, ending with a newline. */
void ts_assert_tidy(const char *plain);

/* A front end's table, prompt and banner for a view, each checked with
 * ts_assert_tidy (and free of escapes without colour); returns the table. */
char *ts_render(const pb_front *f, const json_t *v, const pb_tui_opts *o);

#endif
