/* ops.c -- New York Slice behind the game interface (core/game.h). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/jsonutil.h"
#include "nyslice.h"

#define ST(s) ((nys_state *)(void *)(s))
#define CST(s) ((const nys_state *)(const void *)(s))
#define RULES(g) ((const nys_rules *)(g)->rules)

/* Config: {"players": 2..6 (4), "first_slicer": seat or "random" (0),
 *          "deck": a deck object (the embedded default), "edition": the
 *          rules as pizzabox played them (NYS_EDITION; 1: a game begun
 *          before a Supreme could join the Anchovy slice)}. */
static int nys_rules_new(const json_t *config, void **out, json_t **normalized, int *players,
                         char *err, size_t errlen)
{
    static const char *const known[] = {"players", "first_slicer", "deck", "edition", NULL};
    if (pb_json_known_keys(config, known, "nyslice config: ", "the config", err, errlen))
        return -1;
    nys_rules *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    r->players = 4;
    json_t *pl = json_object_get(config, "players");
    if (pl) {
        if (!json_is_integer(pl) || json_integer_value(pl) < NYS_MIN_PLAYERS ||
            json_integer_value(pl) > NYS_MAX_PLAYERS) {
            snprintf(err, errlen, "New York Slice is for 2 to 6 players");
            free(r);
            return -1;
        }
        r->players = (int)json_integer_value(pl);
    }
    json_t *fs = json_object_get(config, "first_slicer");
    if (fs && json_is_string(fs) && strcmp(json_string_value(fs), "random") == 0) {
        r->first_slicer = -1;
    } else if (fs && (!json_is_integer(fs) || json_integer_value(fs) < 0 ||
                      json_integer_value(fs) >= r->players)) {
        snprintf(err, errlen, "first_slicer must be a seat 0..%d or \"random\"", r->players - 1);
        free(r);
        return -1;
    } else {
        r->first_slicer = fs ? (int)json_integer_value(fs) : 0;
    }
    json_t *edition = json_object_get(config, "edition");
    if (edition && (!json_is_integer(edition) || json_integer_value(edition) < 1 ||
                    json_integer_value(edition) > NYS_EDITION)) {
        snprintf(err, errlen, "edition must be a whole number from 1 to %d (the rules as pizzabox played them)",
                 NYS_EDITION);
        free(r);
        return -1;
    }
    json_t *deck = json_object_get(config, "deck");
    nys_deck d;
    if (deck) {
        if (nys_deck_from_json(deck, &d, err, errlen) != 0) {
            free(r);
            return -1;
        }
    } else {
        nys_deck_default(&d);
    }
    nys_rules_setup(r, &d, r->players, r->first_slicer);
    r->custom_deck = deck != NULL;
    if (edition) /* an earlier edition is kept; the current one is the default */
        r->edition = (int)json_integer_value(edition);
    json_t *norm = json_pack("{s:i}", "players", r->players);
    json_object_set_new(norm, "first_slicer",
                        r->first_slicer < 0 ? json_string("random") : json_integer(r->first_slicer));
    if (r->custom_deck)
        json_object_set_new(norm, "deck", nys_deck_to_json(&r->deck));
    if (r->edition < NYS_EDITION)
        json_object_set_new(norm, "edition", json_integer(r->edition));
    *out = r;
    *normalized = norm;
    *players = r->players;
    return 0;
}

static void nys_rules_free(void *rules)
{
    free(rules);
}

static void op_init(const pb_game *g, pb_state *st, uint64_t seed)
{
    nys_init(ST(st), RULES(g), seed);
}

static int op_current_seat(const pb_game *g, const pb_state *st)
{
    (void)g;
    return nys_current_seat(CST(st));
}

static int op_legal_actions(const pb_game *g, const pb_state *st, pb_action *out)
{
    (void)g;
    return nys_legal_actions(CST(st), out);
}

static pb_action op_random_action(const pb_game *g, const pb_state *st, pb_rng *rng)
{
    (void)g;
    return nys_random_action(CST(st), rng);
}

static int op_apply(const pb_game *g, pb_state *st, pb_action a, char *err, size_t errlen)
{
    (void)g;
    return nys_apply(ST(st), a, err, errlen);
}

static json_t *op_view(const pb_game *g, const pb_state *st, int seat)
{
    return nys_view(CST(st), RULES(g), seat);
}

static void op_determinize(const pb_game *g, pb_state *st, int seat, pb_rng *rng)
{
    (void)g;
    nys_determinize(ST(st), seat, rng);
}

static int op_action_to_text(const pb_game *g, const pb_state *st, pb_action a, char *buf, size_t n)
{
    (void)g;
    return nys_action_to_text(CST(st), a, buf, n);
}

static int op_describe(const pb_game *g, const pb_state *st, pb_action a, int viewer, char *buf,
                       size_t n)
{
    (void)g;
    return nys_action_text_for(CST(st), a, viewer, buf, n);
}

static int op_action_from_text(const pb_game *g, const pb_state *st, const char *text, pb_action *a,
                               char *err, size_t errlen)
{
    (void)g;
    return nys_action_from_text(CST(st), text, a, err, errlen);
}

static void op_returns(const pb_game *g, const pb_state *st, double *out)
{
    nys_guest_check gc;
    nys_score_state(CST(st), &gc);
    int winners = __builtin_popcount(gc.winners);
    for (int p = 0; p < g->players; p++)
        out[p] = (gc.winners >> p & 1u) ? 1.0 / winners : 0.0;
}

static void op_totals(const pb_game *g, const pb_state *st, int *out)
{
    nys_guest_check gc;
    nys_score_state(CST(st), &gc);
    for (int p = 0; p < g->players; p++)
        out[p] = gc.line[p].total;
}

static json_t *op_score_report(const pb_game *g, const pb_state *st, const char *const *names)
{
    (void)g;
    nys_guest_check gc;
    nys_score_state(CST(st), &gc);
    json_t *report = nys_check_to_json(&gc, names);
    /* NYS-E5: the You Like Anchovies! holder's line reads Pepperoni + Anchovies
     * (the scoring file's format stays as the spec fixes it) */
    json_t *players = json_object_get(report, "players");
    for (int p = 0; p < gc.players; p++)
        json_object_set_new(json_array_get(players, (size_t)p), "pepperoni_line",
                            json_string(gc.line[p].likes_anchovies ? "Pepperoni + Anchovies" : "Pepperoni - Anchovies"));
    return report;
}

static void op_evaluate(const pb_game *g, const pb_state *st, int viewer, double *values)
{
    (void)g;
    nys_expected_scores(CST(st), viewer, values);
}

/* The first Slicer, who held each Special, and each type's majority. */
static void op_result_facts(const pb_game *g, const pb_state *pst, pb_facts *f)
{
    const nys_state *st = CST(pst);
    const nys_rules *r = RULES(g);
    nys_guest_check gc;
    nys_score_state(st, &gc);
    f->first = st->first_slicer;
    f->nitems = NYS_SPECIAL_COUNT;
    for (int sp = 0; sp < NYS_SPECIAL_COUNT; sp++) {
        f->item[sp] = nys_special_slug(sp);
        f->holder[sp] = st->special_owner[sp] == NYS_NONE ? -1 : st->special_owner[sp];
    }
    f->ncategories = NYS_MAX_TYPE - NYS_MIN_TYPE + 1;
    for (int t = NYS_MIN_TYPE; t <= NYS_MAX_TYPE; t++) {
        bool won = false, any = false;
        for (int p = 0; p < st->players; p++) {
            won = won || (gc.line[p].types_won >> t & 1u);
            any = any || gc.line[p].count2[t] > 0;
        }
        f->category[t - NYS_MIN_TYPE] = r->category_name[t];
        f->outcome[t - NYS_MIN_TYPE] = won ? PB_OUTCOME_WON : any ? PB_OUTCOME_TIED : PB_OUTCOME_EMPTY;
    }
}

static int op_news(const pb_game *g, const pb_state *before, const pb_state *after, const char *const *names,
                   char *buf, size_t n)
{
    (void)names; /* the news names nobody: "the Slicer", "its holder" */
    return nys_news(RULES(g), CST(before), CST(after), buf, n);
}

/* A name as players may type it, letters and digits only, lower case:
 * "Dibs!", "dibs" and "DIBS" agree, "day-old pizza" and "Day-Old Pizza" too. */
static void fold(const char *in, char *out, size_t n)
{
    size_t k = 0;
    for (; *in && k + 1 < n; in++)
        if (isalnum((unsigned char)*in))
            out[k++] = (char)tolower((unsigned char)*in);
    out[k] = 0;
}

/* A Special by its name or slug, with its text as the table shows it. */
static int op_explain(const pb_game *g, const char *name, char *buf, size_t n)
{
    (void)g;
    char want[64], have[64];
    fold(name, want, sizeof want);
    for (int sp = 0; want[0] && sp < NYS_SPECIAL_COUNT; sp++) {
        const char *full = nys_special_name(sp);
        fold(full, have, sizeof have);
        bool match = strcmp(want, have) == 0;
        fold(nys_special_slug(sp), have, sizeof have);
        /* "The Everyone-Else Diet" answers to "everyone-else-diet" too */
        if (match || strcmp(want, have) == 0) {
            /* the rules topic of the same slug says more, and what to type */
            snprintf(buf, n, "%s (a Special%s): %s (More, and what to type: rules %s)", full,
                     nys_special_scored(sp) ? ", scored at the end" : "", nys_special_text(sp), nys_special_slug(sp));
            return 0;
        }
    }
    return -1;
}

static bool op_view_is_public(const pb_game *g, const pb_state *st, int seat)
{
    (void)g;
    return nys_view_is_public(CST(st), seat);
}

static json_t *op_glossary(const pb_game *g)
{
    (void)g;
    json_t *all = json_object();
    for (int sp = 0; sp < NYS_SPECIAL_COUNT; sp++)
        json_object_set_new(all, nys_special_slug(sp),
                            json_pack("{s:s, s:s, s:b}", "name", nys_special_name(sp), "text", nys_special_text(sp),
                                      "scored", nys_special_scored(sp)));
    return all;
}

static bool op_is_legal(const pb_game *g, const pb_state *st, pb_action a)
{
    (void)g;
    return nys_is_legal(CST(st), a, NULL, 0);
}

static int op_check_invariants(const pb_game *g, const pb_state *st, char *err, size_t errlen)
{
    (void)g;
    return nys_check_invariants(CST(st), err, errlen);
}

/* Records before version 4 (and tables stored before the store's step for
 * them) were played by edition 1 of the rules, unless they name one. */
static json_t *op_config_as_played(const json_t *config, int record_version)
{
    static const int editions_from[NYS_EDITION - 1] = {4};
    return pb_json_edition_as_played(config, record_version, editions_from, NYS_EDITION - 1);
}

const pb_game_ops nys_game_ops = {
    .id = "nyslice",
    .title = "New York Slice",
    .min_players = NYS_MIN_PLAYERS,
    .max_players = NYS_MAX_PLAYERS,
    .state_size = sizeof(nys_state),
    /* A lead of 4 points is worth about 73%: 2 made expert's deep search
     * too sure of a lead while many slices are unseen (docs/nyslice-bots.md). */
    .lead_scale = 4,
    /* The worth of a slice lies in the majorities of later rounds, which
     * the evaluation guesses poorly and a playout sees (docs/nyslice-bots.md). */
    .playout_draws = 4,
    .rules_new = nys_rules_new,
    .rules_free = nys_rules_free,
    .init = op_init,
    .current_seat = op_current_seat,
    .legal_actions = op_legal_actions,
    .random_action = op_random_action,
    .apply = op_apply,
    .view = op_view,
    .determinize = op_determinize,
    .action_to_text = op_action_to_text,
    .describe = op_describe,
    .action_from_text = op_action_from_text,
    .returns = op_returns,
    .totals = op_totals,
    .score_report = op_score_report,
    .evaluate = op_evaluate,
    .is_legal = op_is_legal,
    .result_facts = op_result_facts,
    .check_invariants = op_check_invariants,
    .news = op_news,
    .explain = op_explain,
    .glossary = op_glossary,
    .view_is_public = op_view_is_public,
    .config_as_played = op_config_as_played,
};
