/* theory.h -- Pizza Theory: the rules engine (pure: no I/O, no globals).
 *
 * The rules contract is shared/specs/pizza-theory.md; rule ids (PT-...) in
 * comments point to it. The board is data (a board file, or the embedded
 * reconstruction) with at most 64 spaces, so a colour's toppings are one
 * 64-bit mask and every rule is a few mask operations. Colours are seats;
 * in a 2-player game colour 2 is the neutral. */
#ifndef TH_THEORY_H
#define TH_THEORY_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../core/game.h"
#include "../../core/rng.h"

#define TH_MAX_CELLS 64
#define TH_SIDES 3          /* PT-B2: three cutting directions */
#define TH_LINES 6          /* lines per side, numbered 1..6 */
#define TH_COLOURS 3
#define TH_NEUTRAL 2        /* the neutral colour of a 2-player game */
#define TH_MAX_START 4      /* start spaces per side a board may name */
#define TH_MAX_ROUNDS 200   /* PT-E2 */
#define TH_COMBOS (TH_LINES * TH_LINES * TH_LINES)
#define TH_REGIONS 8        /* one per side of each of the three lines */
#define TH_ACT_CUT 0x100    /* action TH_ACT_CUT + k cuts line k; a put is the cell index */
#define TH_NO_CELL 0xFF

typedef enum th_phase {
    TH_PH_PLACE,   /* PT-R1: players add toppings in order */
    TH_PH_NEUTRAL, /* PT-2P2: the first player places the neutral topping */
    TH_PH_CUT,     /* PT-R2: secret cuts, one seat at a time */
    TH_PH_OVER,
} th_phase;

typedef enum th_end {
    TH_END_NONE,
    TH_END_FULL,     /* PT-E1: someone has every topping on the board */
    TH_END_NEUTRAL,  /* PT-2P3: the neutral did; both players lose */
    TH_END_DRAW,     /* PT-E2: the round limit */
} th_end;

typedef struct th_board {
    char name[64];
    int ncells;
    int8_t cube[TH_MAX_CELLS][3];       /* x, y, z with x + y + z = 0 */
    char label[TH_MAX_CELLS][4];        /* what a player types: "d4" (row d from the top, 4th from the left) */
    uint64_t next[TH_MAX_CELLS];        /* the spaces next to each space */
    uint64_t all;
    int axis[TH_SIDES];                 /* coordinate each side cuts along */
    int8_t line[TH_SIDES][TH_LINES];    /* line k+1 runs between rows t and t+1 */
    uint64_t low[TH_SIDES][TH_LINES];   /* spaces whose coordinate is at most the line's row t */
    uint64_t near[TH_SIDES][TH_LINES];  /* the two rows each line runs between */
    int nstart[TH_SIDES];
    uint8_t start[TH_SIDES][TH_MAX_START];
    int toppings;                       /* per colour (16) */
} th_board;

/* The current edition of the rules (th_rules.edition). */
#define TH_EDITION 2

typedef struct th_rules {
    th_board board;
    int players;          /* 2 or 3 */
    int first;            /* start seat, or -1: drawn from the seed */
    int max_rounds;
    bool custom_board;
    /* The rules as pizzabox played them (TH_EDITION): from edition 2 the
     * toppings a colour loses in a round refill that round's replacements
     * (they are back in its supply); in edition 1 they went home after, so a
     * colour could leave spaces it won empty while holding toppings. */
    int edition;
    /* PT-R3, precomputed: the spaces of each region for every cut combination
     * (index (k0-1)*36 + (k1-1)*6 + (k2-1), region = which side of each line). */
    uint64_t region[TH_COMBOS][TH_REGIONS];
    /* The same regions without the empty ones, for the bots' evaluation. */
    uint64_t slice[TH_COMBOS][TH_REGIONS];
    uint8_t nslices[TH_COMBOS];
} th_rules;

typedef struct th_state {
    uint64_t occ[TH_COLOURS];     /* spaces holding each colour's toppings */
    uint8_t supply[TH_COLOURS];
    uint8_t players, phase, step, s0;
    uint16_t round;               /* from 0 */
    uint8_t cut[TH_SIDES];        /* this round's line per side, 0 = not chosen */
    uint8_t die;                  /* 2 players: the neutral's line this round, 0 = not rolled */
    /* The last resolution, for views: what the table saw revealed. */
    uint16_t last_round;          /* round number + 1; 0 = none yet */
    uint8_t last_cut[TH_SIDES];
    uint8_t last_side_colour[TH_SIDES];
    uint64_t before[TH_COLOURS];  /* toppings just before it */
    uint8_t short_by[TH_COLOURS]; /* replacements that could not be made (PT-R6) */
    uint8_t safe;                 /* colours that were safe (PT-R4), a bit each */
    /* This round, a bit each: seats that had no space to add a topping on
     * and skipped (PT-R1); in a 2-player game bit TH_NEUTRAL: no empty space
     * beside the die's line, so no neutral topping. */
    uint8_t skipped;
    uint8_t winners;              /* seats, a bit each, once over */
    uint8_t end;                  /* th_end */
    pb_rng rng;                   /* the 2-player die */
    const th_rules *rules;
} th_state;

/* ---- board.c ---- */
/* Parse a board object; -1 with a message naming the problem. */
int th_board_from_json(const json_t *j, th_board *b, char *err, size_t errlen);
json_t *th_board_to_json(const th_board *b);
/* The embedded reconstruction (PT-B1..B3). */
void th_board_default(th_board *b);
/* The cell at cube coordinates, or -1. */
int th_cell_at(const th_board *b, int x, int y, int z);
/* The cell a player's label names ("d4", any case), or -1. */
int th_cell_by_label(const th_board *b, const char *label);
/* Fill r->region from r->board. */
void th_rules_setup(th_rules *r);

/* ---- engine.c ---- */
void th_init(th_state *st, const th_rules *r, uint64_t seed);
int th_current_seat(const th_state *st);
int th_legal_actions(const th_state *st, pb_action *out);
pb_action th_random_action(const th_state *st, pb_rng *rng);
bool th_is_legal(const th_state *st, pb_action a);
int th_apply(th_state *st, pb_action a, char *err, size_t errlen);
/* Why a is not legal now; always -1. */
int th_why_illegal(const th_state *st, pb_action a, char *err, size_t errlen);
void th_determinize(th_state *st, int seat, pb_rng *rng);
/* The colour facing side d this round (PT-S2). */
int th_side_colour(const th_state *st, int d);
int th_colour_side(const th_state *st, int colour);
/* The seat that adds first this round. */
int th_first_player(const th_state *st);
/* Spaces colour c may put a topping on now (PT-R1). */
uint64_t th_placeable(const th_state *st, int c);
/* Region masks for the cuts by side (lines 1..6). */
const uint64_t *th_regions(const th_rules *r, const uint8_t *cuts);
/* PT-R4, PT-R5 decided on counts, for one set of region masks: the
 * toppings of each colour in each region, the safe colours, and per region
 * the colours whose toppings go (a bit each) and who takes them (-1: they
 * are only removed). th_resolve and the evaluation both build on this. */
typedef struct th_outcome {
    int n[TH_REGIONS][TH_COLOURS];
    uint8_t losers[TH_REGIONS];
    int8_t taker[TH_REGIONS];
    unsigned safe;
} th_outcome;
void th_settle(const uint64_t *region, const uint64_t *occ, th_outcome *o);
/* Resolve a round with these cuts (PT-R4..R6) into next; returns the safe colours. */
unsigned th_resolve(const th_rules *r, const uint64_t *occ, const uint8_t *supply, const uint8_t *cuts,
                    uint64_t *occ_out, uint8_t *supply_out, uint8_t *short_out);
/* Cuts chosen this round by other seats that `seat` has not seen. */
int th_unseen_cuts(const th_state *st, int seat);
/* Lines that win the game outright for the seat to cut whatever the others
 * cut (bit k for line k; 0 outside the cuts). */
unsigned th_sure_cuts(const th_state *st);
void th_returns(const th_state *st, double *out);

/* ---- invariants.c ---- */
/* 0, or -1 with what is broken (every topping accounted for, ...). */
int th_check_invariants(const th_state *st, char *err, size_t errlen);

/* ---- notation.c ---- */
int th_action_to_text(const th_state *st, pb_action a, char *buf, size_t n);
int th_action_text_for(const th_state *st, pb_action a, int viewer, char *buf, size_t n);
int th_action_from_text(const th_state *st, const char *text, pb_action *a, char *err, size_t errlen);
/* The space's label ("d4"), or "?". */
const char *th_cell_name(const th_board *b, int cell);
/* What the mover is asked now, with a legal example: "add a topping: type
 * a label, e.g. put d4"; short, so that a refusal with it fits a line. */
void th_asked_now(const th_state *st, char *buf, size_t n);
/* What everyone learned from a move beyond the move itself (core/game.h
 * news): a reveal, the die, a player who skips; 0 when nothing. */
int th_news(const th_state *before, const th_state *after, char *buf, size_t n);

/* ---- view.c ---- */
json_t *th_view(const th_state *st, int seat);
json_t *th_result_json(const th_state *st, const char *const *names);

/* ---- evaluate.c ---- */
/* Expected toppings on the board after this round, over the cuts the viewer
 * cannot know (each line weighed as th_line_weights), plus a share of the
 * win once the game is over. */
void th_evaluate(const th_state *st, int viewer, double *values);
/* How likely each line k (w[d][k], k = 1..6) of each side d is, from the
 * board alone: a player's line weighs exp(the lead over its best rival it
 * expects from that line, every line it cannot see equally likely), the die
 * evenly. Determinizations draw the cuts a seat has not seen with these. */
void th_line_weights(const th_state *st, double w[TH_SIDES][TH_LINES + 1]);

#endif
