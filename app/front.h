/* front.h -- what the terminal commands (play, demo) need from each game:
 * drawing a seat's view, prompting, reading friendly input, announcing a
 * round and printing the result. Everything but the result is drawn from
 * a view alone, so a player is never shown another seat's secrets. */
#ifndef PB_FRONT_H
#define PB_FRONT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "../core/game.h"

typedef struct pb_tui_opts {
    bool colour;              /* ANSI colours (else plain text) */
    const char *const *names; /* seat names, one per seat (NULL: "Seat 1"..) */
    int you;                  /* the viewer's seat, or -1 for a spectator */
} pb_tui_opts;

typedef struct pb_front {
    const char *game; /* the game's id */
    /* The table for this seat, every line at most 80 columns (malloc'd). */
    char *(*table)(const json_t *view, const pb_tui_opts *o);
    /* What the seat to move may type now, or who is being waited for. */
    char *(*prompt)(const json_t *view, const pb_tui_opts *o);
    /* A player's line to the action notation (the notation passes through);
     * -1 with a message. */
    int (*translate)(const json_t *view, const char *line, char *out, size_t n, char *err, size_t errlen);
    /* Lines announcing the round in view.round, or NULL when there is
     * nothing to announce yet. */
    char *(*round_banner)(const json_t *view, const pb_tui_opts *o);
    /* The final result of a finished game. */
    void (*print_result)(FILE *out, const pb_game *g, const pb_state *st, const char *const *names);
    const char *rules;        /* the rules for `rules TOPIC`: "## topic" sections */
    const char *rules_topics; /* a few topics, for the help text */
    /* What the seat's own move brought it that the move's words (`said`) do
     * not name, from its views before and after (a card drawn from the
     * deck): a sentence in buf, or "" (0). NULL: nothing ever. */
    int (*gained)(const json_t *before, const json_t *after, const char *said, char *buf, size_t n);
    const char *piece; /* what `rules NAME` looks up by name ("Special", "card"), or NULL: nothing */
} pb_front;

/* The banner of the round the game is in, as o->you sees it, when it is not
 * the round *last_round (then set to it); else NULL. The caller frees it. */
char *pb_front_banner(const pb_front *f, const pb_game *g, const pb_state *st, const pb_tui_opts *o,
                      int *last_round);

/* What everyone learned from a move beyond the move (a round's reveal, an
 * event card, a fine), as play tells it: the game's news wrapped at 80
 * columns, its lines from column `indent`, on standard output. */
void pb_front_news(const pb_game *g, const pb_state *before, const pb_state *after, const char *const *names,
                   int indent);

/* The front end of a game (every registered game has one). */
const pb_front *pb_front_for(const pb_game *g);
const pb_front *pb_front_find(const char *game_id);

#endif
