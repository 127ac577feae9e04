/* nyslice.h -- New York Slice: the rules engine (pure: no I/O, no globals).
 *
 * The rules contract is shared/specs/new-york-slice.md; rule ids (NYS-...)
 * in comments point to it. The engine state is a flat struct: a slice is a
 * small index into the state's own slice table, and every slice has exactly
 * one location (loc[]), so "every slice is accounted for" is checkable. */
#ifndef NYS_NYSLICE_H
#define NYS_NYSLICE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../core/game.h"
#include "../../core/rng.h"

#define NYS_DECK_SLICES 69  /* NYS-C1 */
#define NYS_RING 11         /* slices per stack and pizza */
#define NYS_MAX_PLAYERS 6
#define NYS_MIN_PLAYERS 2
#define NYS_MAX_ROUNDS 6
#define NYS_SPARES 3
#define NYS_MIN_TYPE 3
#define NYS_MAX_TYPE 11
#define NYS_TYPE_SLOTS 12   /* arrays indexed by type number 0..11 */
#define NYS_VEGGIE 3
#define NYS_COMBOS 4
#define NYS_NONE 0xFF
#define NYS_SPECIAL_ALONE 15 /* divide payload: the Special is its own portion */
#define NYS_QUEUE_MAX 24

typedef enum nys_kind {
    NYS_NUMBERED = 0,
    NYS_COMBO = 1,
    NYS_ANCHOVY = 2,
    NYS_SUPREME = 3,
} nys_kind;

/* One slice tile. A Combo shows `type` (the lower) and `type2`. */
typedef struct nys_slice {
    uint8_t kind, type, type2, pep, anch;
} nys_slice;

/* The 14 Today's Specials, in slug order (NYS-C5). */
typedef enum nys_special {
    NYS_BUFFET,
    NYS_COMBO_CRAVING,
    NYS_CUT_IN_LINE,
    NYS_DAY_OLD_PIZZA,
    NYS_DIBS,
    NYS_EVERYONE_ELSE_DIET,
    NYS_MYSTERY_SLICE,
    NYS_SECONDS,
    NYS_SNEAK_A_SLICE,
    NYS_STUFFED_CRUST,
    NYS_SUPERSIZE_COMBOS,
    NYS_TIEBREAKER,
    NYS_YOU_LIKE_ANCHOVIES,
    NYS_YOU_LOVE_VEGGIES,
    NYS_SPECIAL_COUNT
} nys_special;

/* ---- Deck data (deck.c) ---- */

/* A full 69-slice deck: 63 numbered slices by type, 4 Combos, the Anchovy
 * slice and the Supreme, in that order. */
typedef struct nys_deck {
    char name[64];
    char type_name[NYS_TYPE_SLOTS][32];
    nys_slice slice[NYS_DECK_SLICES];
} nys_deck;

/* The default deck file embedded in the binary (NUL-terminated JSON). */
const char *nys_default_deck_json(void);

/* Parse and validate a deck (NYS-C1..C4). Returns 0, or -1 with a message
 * naming the problem in err. */
int nys_deck_from_json(const json_t *root, nys_deck *deck, char *err, size_t errlen);
int nys_deck_from_text(const char *text, nys_deck *deck, char *err, size_t errlen);
/* Load the embedded default deck; cannot fail unless the binary is broken. */
void nys_deck_default(nys_deck *deck);
/* The deck as a JSON object in the deck file format. */
json_t *nys_deck_to_json(const nys_deck *deck);

/* Slice tokens (spec "Notation"): 9, 9p2, 11a1, 7p1a1, c8/10, A, S.
 * nys_slice_token writes the token of a slice (no @type). */
void nys_slice_token(const nys_slice *s, char *buf, size_t n);
/* Parse a token; `attached` receives the type after S@ (0 if none, and
 * S@ is only accepted when attached != NULL). Returns 0 or -1. */
int nys_slice_parse(const char *tok, nys_slice *s, int *attached);
bool nys_slice_equal(const nys_slice *a, const nys_slice *b);
/* A total order for listing slices (by kind, type, pepperoni, anchovies). */
int nys_slice_cmp(const nys_slice *a, const nys_slice *b);

const char *nys_special_slug(int special);
int nys_special_from_slug(const char *slug); /* -1 if unknown */
const char *nys_special_name(int special);
const char *nys_special_text(int special);
bool nys_special_scored(int special); /* blue `*` Specials (NYS-C5) */

/* NYS-T2/T3: may a player holding these Specials eat this slice? Slices
 * with pepperoni, and the Supreme (two of them); Combos with Combo Craving
 * (offered only on the turn they are gained, or when it is); a Veggie
 * without pepperoni only at the moment You Love Veggies is gained
 * (`love_veggies_now`: the Veggies taken with it, or already collected);
 * never the Anchovy slice. */
static inline bool nys_slice_edible(const nys_slice *s, uint16_t specials, bool love_veggies_now)
{
    if (s->pep)
        return true;
    if (s->kind == NYS_COMBO)
        return specials >> NYS_COMBO_CRAVING & 1u;
    return love_veggies_now && s->kind == NYS_NUMBERED && s->type == NYS_VEGGIE;
}

/* NYS-S1: does this slice stay in the game for a player count? */
bool nys_slice_in_play(const nys_slice *s, int players);
/* NYS-S3: rounds (= stacks) for a player count. */
int nys_rounds_for(int players);

/* ---- Rules data (the pb_game rules) ---- */

/* The rules as pizzabox played them (nys_rules.edition). Edition 2: a
 * Supreme collected by a player whose only other collected slice is the
 * Anchovy slice is placed next to it at once, and counts for no type (000:
 * it waits only when it is "the only slice collected"); in edition 1 it
 * waited for a numbered type. */
#define NYS_EDITION 2

typedef struct nys_rules {
    nys_deck deck;
    int players;
    int first_slicer;  /* seat, or -1: drawn from the seed */
    int edition;       /* NYS_EDITION, or 1: a game from before */
    bool custom_deck;
    nys_slice in_play[NYS_DECK_SLICES]; /* NYS-S1: the deck less this count's removals */
    uint8_t in_play_class[NYS_DECK_SLICES]; /* equal for identical slices */
    int nin_play;
    char category_name[NYS_TYPE_SLOTS][48]; /* "9 Pepperoni", for statistics */
} nys_rules;

/* NYS-S1: does any slice in play show type t (numbered, or half a Combo)? */
bool nys_type_in_play(const nys_rules *rules, int t);

/* Fill rules for a deck and player count (2..6); first_slicer is a seat or
 * -1 for a draw from the seed. */
void nys_rules_setup(nys_rules *r, const nys_deck *deck, int players, int first_slicer);

/* ---- Game state ---- */

typedef enum nys_phase {
    NYS_PH_DIBS,        /* a Dibs! owner may take one ring slice (NYS-R2) */
    NYS_PH_DIVIDE,      /* the Slicer divides (NYS-R3) */
    NYS_PH_CUT_IN_LINE, /* a Cut in Line owner may jump the queue (NYS-R4) */
    NYS_PH_SNEAK,       /* the chooser may Sneak-a-Slice (NYS-R5) */
    NYS_PH_TAKE,        /* the chooser picks a portion (NYS-T1) */
    NYS_PH_PLACE,       /* choose which of the slices just gained to eat (NYS-T1, T2) */
    NYS_PH_EAT_OR_KEEP, /* eat or keep one collected slice (NYS-T3, E1) */
    NYS_PH_ATTACH,      /* attach the Supreme to a type (NYS-T4) */
    NYS_PH_SECONDS,     /* the Seconds owner picks a type or passes (NYS-E1) */
    NYS_PH_OVER,
} nys_phase;

/* Why slices are being placed. */
typedef enum nys_placing {
    NYS_PLACING_TAKE,
    NYS_PLACING_DIBS,
    NYS_PLACING_SECONDS,
} nys_placing;

/* What a player holds, which is all scoring needs (NYS-E2..E6). The state
 * keeps one per seat up to date as slices move. */
typedef struct nys_tally {
    uint8_t whole[NYS_TYPE_SLOTS];   /* collected numbered slices (a Supreme is added at scoring) */
    uint8_t peppered[NYS_TYPE_SLOTS];/* of which carry pepperoni */
    uint8_t combos[NYS_TYPE_SLOTS];  /* collected Combos showing the type */
    int16_t eaten, eaten_combos, eaten_veggies;
    int16_t pep_eaten;               /* pepperonis on eaten slices, Supreme = 2 */
    int16_t anch_collected;          /* anchovies on collected slices, Anchovy slice = 3 */
    int16_t anchovy_collected;       /* 1 if the Anchovy slice is collected */
    uint16_t specials;               /* bit per Special held (filled in at scoring) */
} nys_tally;

/* Add (sign 1) or remove (sign -1) one collected or eaten slice. The
 * Supreme's type count is not included: it depends on its attachment. */
static inline void nys_tally_slice(nys_tally *t, const nys_slice *s, bool eaten, int sign)
{
    if (eaten) {
        t->eaten = (int16_t)(t->eaten + sign);
        t->pep_eaten = (int16_t)(t->pep_eaten + sign * s->pep);
        t->eaten_combos = (int16_t)(t->eaten_combos + sign * (s->kind == NYS_COMBO));
        t->eaten_veggies = (int16_t)(t->eaten_veggies + sign * (s->kind == NYS_NUMBERED && s->type == 3));
        return;
    }
    t->anch_collected = (int16_t)(t->anch_collected + sign * s->anch);
    if (s->kind == NYS_NUMBERED) {
        t->whole[s->type] = (uint8_t)(t->whole[s->type] + sign);
        t->peppered[s->type] = (uint8_t)(t->peppered[s->type] + sign * (s->pep > 0));
    } else if (s->kind == NYS_COMBO) {
        t->combos[s->type] = (uint8_t)(t->combos[s->type] + sign);
        t->combos[s->type2] = (uint8_t)(t->combos[s->type2] + sign);
    } else if (s->kind == NYS_ANCHOVY) {
        t->anchovy_collected = (int16_t)(t->anchovy_collected + sign);
    }
}

/* Slice locations: kind in the high nibble, seat in the low one. */
#define NYS_LOC_STACK 0x00
#define NYS_LOC_SPARE 0x10
#define NYS_LOC_RING 0x20
#define NYS_LOC_PENDING 0x30
#define NYS_LOC_COLLECTED 0x40
#define NYS_LOC_EATEN 0x50
#define NYS_LOC_KIND(l) ((l) & 0xF0)
#define NYS_LOC_SEAT(l) ((l) & 0x0F)

typedef struct nys_state {
    pb_rng rng;                           /* NYS-S6: every random event */
    uint8_t players, rounds, nslices;
    uint8_t first_slicer;
    uint8_t edition;                      /* the rules' (nys_rules.edition) */
    uint8_t round;                        /* 0-based; == rounds once scored */
    uint8_t slicer;
    uint8_t phase;                        /* nys_phase */
    uint8_t actor;                        /* seat to decide, NYS_NONE at the end */
    nys_slice slice[NYS_DECK_SLICES];     /* the slices in play, ids 0..nslices-1 */
    uint8_t cls[NYS_DECK_SLICES];         /* identical slices share a class */
    uint8_t loc[NYS_DECK_SLICES];         /* where each slice is */
    uint8_t stack[NYS_MAX_ROUNDS][NYS_RING];
    uint8_t spare[NYS_SPARES];
    uint8_t nspares;
    uint8_t supreme, anchovy;             /* slice ids, NYS_NONE if not in play */
    uint8_t supreme_type;                 /* type the Supreme is attached to, 0 if none */
    uint8_t supreme_on_anchovy;           /* placed next to the Anchovy slice: no type (edition 2) */
    uint8_t stack_special[NYS_MAX_ROUNDS];
    uint8_t box[NYS_SPECIAL_COUNT];       /* Specials in the box, face down */
    uint8_t nbox;
    uint16_t box_seen;                    /* Specials everyone saw go back (NYS-S4) */
    uint16_t replaced_now;                /* of which this round's reveal sent back */
    uint8_t special_owner[NYS_SPECIAL_COUNT];
    uint8_t special_round[NYS_SPECIAL_COUNT];
    uint16_t special_used;                /* one-time powers spent (NYS-R6) */
    uint16_t specials_of[NYS_MAX_PLAYERS];
    uint8_t today;                        /* this round's Special */
    uint8_t ring[NYS_RING];               /* slice per position, NYS_NONE if gone */
    uint16_t present;                     /* bit per position that holds a slice */
    uint16_t portion_mask[NYS_MAX_PLAYERS + 1]; /* ring positions per portion id */
    uint8_t nportions;
    uint8_t ring_portions;                /* of which made of slices by the division (ids 0..) */
    uint8_t special_portion;              /* portion holding today's Special */
    uint8_t taken;                        /* bit per portion id */
    uint8_t taken_by[NYS_MAX_PLAYERS + 1];/* seat per portion id */
    uint8_t order[NYS_MAX_PLAYERS];       /* choosing order this round (NYS-R4) */
    uint8_t turn;                         /* index into order */
    uint8_t placing;                      /* nys_placing */
    uint8_t owner;                        /* seat placing slices */
    uint8_t queue[NYS_QUEUE_MAX];         /* collected slices that may be eaten, then new ones */
    uint8_t qlen, qpos;
    uint8_t qnew;                         /* queue index of the first new slice */
    uint16_t new_edible;                  /* bit per new slice that may be eaten */
    uint16_t new_twins;                   /* bit per new edible slice identical to an earlier one */
    uint8_t mystery;                      /* slice drawn by Mystery Slice, NYS_NONE */
    uint8_t mystery_owner;
    uint16_t mystery_specials;            /* owner's Specials when it was placed */
    uint8_t seconds_type;
    nys_tally tally[NYS_MAX_PLAYERS];     /* kept in step with loc[] */
} nys_state;

/* Search copies states by the thousand: keep them small and flat. */
_Static_assert(sizeof(nys_state) <= 2048, "a New York Slice state must fit in 2 KiB");

/* Actions: kind in bits 16.., payload below. */
enum nys_action_kind {
    NYS_A_PASS = 1,     /* decline Dibs!, Cut in Line, Sneak-a-Slice or Seconds */
    NYS_A_DIBS,         /* payload: ring position */
    NYS_A_DIVIDE,       /* payload: cut mask (bits 0..10) | special position << 11 */
    NYS_A_CUT_IN_LINE,
    NYS_A_SNEAK,        /* payload: position | direction << 4 (0 back, 1 on) */
    NYS_A_TAKE,         /* payload: portion id */
    NYS_A_PLACE,        /* payload: bit per new slice (queue[qnew + i]) to eat; the rest is collected */
    NYS_A_EAT,          /* eat the collected slice now offered */
    NYS_A_KEEP,         /* keep it collected */
    NYS_A_ATTACH,       /* payload: type */
    NYS_A_SECONDS,      /* payload: type */
};
#define NYS_ACTION(kind, payload) ((pb_action)(((uint32_t)(kind) << 16) | (uint32_t)(payload)))
#define NYS_ACTION_KIND(a) ((int)((a) >> 16))
#define NYS_ACTION_PAYLOAD(a) ((int)((a) & 0xFFFFu))
#define NYS_DIVIDE(cuts, spos) NYS_ACTION(NYS_A_DIVIDE, (uint32_t)(cuts) | ((uint32_t)(spos) << 11))

/* ---- Engine (engine.c) ---- */

/* Start a game: removals, shuffle, stacks, Specials, first Slicer. */
void nys_init(nys_state *st, const nys_rules *rules, uint64_t seed);
/* Start a game from a known arrangement instead of a shuffle: `order` lists
 * the in-play slice ids (see nys_init_slices) stack by stack, then the
 * spares; `specials` lists one Special per stack, then the box. Used by
 * scenario tests and puzzles. Returns 0, or -1 if the lists are not
 * permutations. */
int nys_init_arranged(nys_state *st, const nys_rules *rules, uint64_t seed,
                      const uint8_t *order, const uint8_t *specials, char *err, size_t errlen);
int nys_current_seat(const nys_state *st);
int nys_legal_actions(const nys_state *st, pb_action *out);
bool nys_is_legal(const nys_state *st, pb_action a, char *err, size_t errlen);
/* What a phase waits for, in words: "a portion to take". */
const char *nys_phase_expects(int phase);
pb_action nys_random_action(const nys_state *st, pb_rng *rng);
int nys_apply(nys_state *st, pb_action a, char *err, size_t errlen);
void nys_determinize(nys_state *st, int seat, pb_rng *rng);

/* ---- Exact search of the last round (ai/perfect.c) ---- */

/* Is this the last round (or Seconds after it), the game not yet over? */
bool nys_last_round(const nys_state *st);
/* In the last round: every arrangement of what `seat` cannot see, equally
 * likely, written to out (room for NYS_SPARES + 1 states). Returns how many. */
int nys_last_round_worlds(const nys_state *st, int seat, nys_state *out);
/* How many equally likely Mystery draws the move from `before` to `after`
 * made (1: none; a take of today's Mystery Slice, also an automatic one). */
int nys_draw_outcomes(const nys_state *before, const nys_state *after);
/* nys_apply, the Mystery draw the move makes (if any) being spare k. */
int nys_apply_outcome(nys_state *st, pb_action a, int k, char *err, size_t errlen);
/* Check that every slice and Special is in exactly one consistent place. */
int nys_check_invariants(const nys_state *st, char *err, size_t errlen);

/* Is slice `id` edible for `seat` right now (NYS-T2)? */
bool nys_edible(const nys_state *st, int id, int seat);
/* The Mystery slice's place among the slices being placed (drawn with the
 * portion, it is queued last), or -1 when none is being placed. */
int nys_mystery_index(const nys_state *st);
/* NYS-S4: why Special `sp` cannot be played where this round reveals it
 * ("not played in a 2-player game", "... in the last round"), or NULL. */
const char *nys_special_unplayable(const nys_state *st, int sp);
/* The table's news when a move starts a round: "Round 3: today's Special
 * is Buffet." and each Special revealed and sent back first (NYS-S4).
 * Returns the length written, 0 when the move started no round. */
int nys_round_news(const nys_state *before, const nys_state *after, char *buf, size_t n);
/* Everything the table's log should say about a move beyond the move
 * itself (news.c): what the engine did alone, the next round's reveal, the
 * end. Public facts only. Returns the length written, 0 for nothing. */
int nys_news(const nys_rules *rules, const nys_state *before, const nys_state *after, char *buf, size_t n);
/* Bit per type the seat could attach a Supreme to (NYS-T4). */
uint16_t nys_attach_types(const nys_state *st, int seat);
/* The ring portions a cut mask makes (a cut after position p separates p
 * from the next slice clockwise), as position masks in ring order starting
 * after the lowest cut. Returns how many. */
int nys_portions_from_cuts(unsigned present, unsigned cuts, uint16_t *masks);
/* The portion holding ring position pos, or -1 (before division, or empty). */
int nys_portion_at(const nys_state *st, int pos);
/* Portion a Sneak-a-Slice move of the end slice at `pos` would join
 * (dir 0: the previous portion in ring order, 1: the next), or -1. */
int nys_sneak_target(const nys_state *st, int pos, int dir);
/* Why moving the end slice at `pos` into `portion` is refused (the move
 * being illegal), in the words of the table. */
void nys_sneak_refusal(const nys_state *st, int pos, int portion, char *err, size_t errlen);
/* Lowest ring position of a portion, or -1 if it has no slices. */
int nys_portion_first_pos(const nys_state *st, int portion);
/* The letter players name a portion by ('A', 'B', ...; 0 if no such
 * portion). Fixed for the round at the division: A is the portion holding
 * the lowest position, then the others clockwise, the Special alone last;
 * a Sneak-a-Slice move changes no letter. */
int nys_portion_letter(const nys_state *st, int portion);
/* The portion with this letter (either case), or -1. */
int nys_portion_by_letter(const nys_state *st, int letter);
/* Find the nth (0-based) in-play slice id with this token, or -1. */
int nys_find_slice(const nys_state *st, const char *token, int nth);
bool nys_owns(const nys_state *st, int seat, int special);

/* ---- Scoring (score.c) ---- */

/* One player's Guest Check. */
typedef struct nys_check {
    int count2[NYS_TYPE_SLOTS];      /* type counts in half slices (NYS-E2) */
    int majorities;
    uint16_t types_won;              /* bit per type */
    int specials;                    /* the Special* line */
    int pepperoni;                   /* the Pepperoni - Anchovies line */
    bool likes_anchovies;            /* You Like Anchovies!: it reads Pepperoni + Anchovies */
    int total;
    int eaten;
} nys_check;

typedef struct nys_guest_check {
    int players;
    nys_check line[NYS_MAX_PLAYERS];
    uint8_t winners;                 /* bit per seat; several on a shared win */
} nys_guest_check;

void nys_score(const nys_tally *tally, int players, nys_guest_check *out);
void nys_tally_state(const nys_state *st, nys_tally *tally);
/* Score a finished game. */
void nys_score_state(const nys_state *st, nys_guest_check *out);
/* The score report JSON of the spec's scoring file section. names may be NULL. */
json_t *nys_check_to_json(const nys_guest_check *gc, const char *const *names);
/* Score a table given as the spec's scoring-file JSON. Returns the report,
 * or NULL with a one-line message naming the offending value. */
json_t *nys_score_file(const char *text, const nys_deck *deck, char *err, size_t errlen);

/* ---- Evaluation for bots (evaluate.c) ---- */

/* Each player's expected final score as `viewer` can estimate it (nothing
 * hidden from the viewer is used). */
void nys_expected_scores(const nys_state *st, int viewer, double *ev);

/* ---- Notation (notation.c) ---- */

int nys_action_to_text(const nys_state *st, pb_action a, char *buf, size_t n);
/* The same as `viewer` may see it: a Mystery slice eaten by another seat is
 * written "?". viewer -1 is a spectator, NYS_OMNISCIENT sees everything. */
#define NYS_OMNISCIENT (-2)
int nys_action_text_for(const nys_state *st, pb_action a, int viewer, char *buf, size_t n);
int nys_action_from_text(const nys_state *st, const char *text, pb_action *a,
                         char *err, size_t errlen);

/* ---- Views (view.c) ---- */

json_t *nys_view(const nys_state *st, const nys_rules *rules, int seat);
/* Is the seat's view the spectators' but for its `seat` member (it holds no
 * face-down Mystery slice and has no legal list)? */
bool nys_view_is_public(const nys_state *st, int seat);
const char *nys_phase_name(int phase);

extern const pb_game_ops nys_game_ops;

#endif
