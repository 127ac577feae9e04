/* ops.c -- New York Pizza Delivery behind the game interface (core/game.h). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/error.h"
#include "../../core/jsonutil.h"
#include "delivery.h"
#include "internal.h"

#define ST(s) ((pd_state *)(void *)(s))
#define CST(s) ((const pd_state *)(const void *)(s))
#define RULES(g) ((const pd_rules *)(g)->rules)
#define MAX_PLAYERS 6 /* 5 and 6 with the expansion's cards */

/* Config: {"players": 2..6 (4; 1..6 in co-op), "first": seat or "random" ("random", PD-S6),
 *          "expansion": the 5-6 player box's ANY cards, tips and power cards
 *          (true for 5 and 6 players, false otherwise),
 *          "expansion_powers": its 26 power cards alone (false; at 2-4
 *          players the rulebook's "can be used for all player counts if
 *          desired", without the ANY cards it adds at 5 and 6 only),
 *          "coop": the co-op game (PD-C1, false), with "difficulty": 1 (HARD)
 *          .. 8 (EASY) (4) and each marker on its own: "blue", "red" (the
 *          promotion markers), "pizzas", "money" (the goals), each one of
 *          its column's values; "coop_insane", "coop_easier" (not both),
 *          "top_chef" (false),
 *          "extra_cheese": the Extra Cheese mini expansion's cards (false),
 *          "edition": the rules as pizzabox played them (PD_EDITION; 1 or
 *          2: a game begun before that edition's corrections),
 *          "map": a map object, "cards": a cards object (the embedded
 *          defaults, docs/delivery-data.md)}. */
static const char *const marker_keys[4] = {"blue", "red", "pizzas", "money"};

/* PD-C1: a difficulty row and single markers, only in co-op; out[0] the row,
 * out[1..4] the markers given (-1: the row's). A marker takes one of its
 * column's values in the table (the rulebook moves a marker to another row's
 * number: "You do not need to keep all the markers in the same row"). */
static int coop_markers(const json_t *config, bool team, int *out, char *err, size_t errlen)
{
    json_t *d = json_object_get(config, "difficulty");
    if (d && !team)
        return pb_errorf(err, errlen, "difficulty is for the co-op game (\"coop\": true)");
    if (d && (!json_is_integer(d) || json_integer_value(d) < 1 || json_integer_value(d) > PD_DIFFICULTIES))
        return pb_errorf(err, errlen, "difficulty must be a row 1 (hardest) to %d (easiest)", PD_DIFFICULTIES);
    if (d)
        out[0] = (int)json_integer_value(d);
    for (int k = 0; k < 4; k++) {
        json_t *v = json_object_get(config, marker_keys[k]);
        if (v && !team)
            return pb_errorf(err, errlen, "%s is a co-op marker (\"coop\": true)", marker_keys[k]);
        if (!v)
            continue;
        /* in range before it is an int: 2^32 + 2 is no 2 */
        bool small = json_is_integer(v) && json_integer_value(v) >= 0 && json_integer_value(v) <= 1000;
        int row = pd_marker_row(k, small ? (int)json_integer_value(v) : -1);
        if (row < 0) {
            char values[64];
            pd_marker_values(k, values, sizeof values);
            return pb_errorf(err, errlen, "%s must be one of the co-op table's values: %s", marker_keys[k], values);
        }
        out[k + 1] = (int)json_integer_value(v);
    }
    return 0;
}

/* Co-op's options, each true or false and only in co-op: Insane and Easier
 * (not both: one makes the promotions harder, the other easier), Top Chef. */
static const char *const option_keys[3] = {"coop_insane", "coop_easier", "top_chef"};

static bool *option(pd_rules *r, int k)
{
    return k == 0 ? &r->insane : k == 1 ? &r->easier : &r->top_chef;
}

static int coop_options(const json_t *config, bool team, pd_rules *r, char *err, size_t errlen)
{
    for (int k = 0; k < 3; k++) {
        json_t *v = json_object_get(config, option_keys[k]);
        if (v && !json_is_boolean(v))
            return pb_errorf(err, errlen, "%s must be true or false", option_keys[k]);
        if (json_is_true(v) && !team)
            return pb_errorf(err, errlen, "%s is a co-op option (\"coop\": true)", option_keys[k]);
        *option(r, k) = json_is_true(v);
    }
    if (r->insane && r->easier)
        return pb_errorf(err, errlen, "coop_insane and coop_easier cannot go together: Insane adds a pizza to each "
                                      "promotion, Easier takes one away");
    return 0;
}

static int pd_rules_new(const json_t *config, void **out, json_t **normalized, int *players, char *err,
                        size_t errlen)
{
    static const char *const known[] = {"players", "first", "expansion", "expansion_powers", "extra_cheese",
                                        "coop",    "difficulty", "blue", "red", "pizzas", "money", "coop_insane",
                                        "coop_easier", "top_chef", "map", "cards", "edition", NULL};
    if (pb_json_known_keys(config, known, "delivery config: ", "the config", err, errlen))
        return -1;
    json_t *pl = json_object_get(config, "players"), *first = json_object_get(config, "first");
    json_t *map = json_object_get(config, "map"), *cards = json_object_get(config, "cards");
    json_t *expansion = json_object_get(config, "expansion"), *powers = json_object_get(config, "expansion_powers");
    if (expansion && !json_is_boolean(expansion))
        return pb_errorf(err, errlen, "expansion must be true or false");
    if (powers && !json_is_boolean(powers))
        return pb_errorf(err, errlen, "expansion_powers must be true or false");
    json_t *edition = json_object_get(config, "edition");
    if (edition && (!json_is_integer(edition) || json_integer_value(edition) < 1 ||
                    json_integer_value(edition) > PD_EDITION))
        return pb_errorf(err, errlen, "edition must be a whole number from 1 to %d (the rules as pizzabox played them)",
                         PD_EDITION);
    json_t *cheese = json_object_get(config, "extra_cheese");
    if (cheese && !json_is_boolean(cheese))
        return pb_errorf(err, errlen, "extra_cheese must be true or false");
    json_t *coop = json_object_get(config, "coop");
    if (coop && !json_is_boolean(coop))
        return pb_errorf(err, errlen, "coop must be true or false");
    bool team = json_is_true(coop);
    int n = 4, seat = -1, least = team ? 1 : 2;
    if (pl && (!json_is_integer(pl) || json_integer_value(pl) < least || json_integer_value(pl) > MAX_PLAYERS))
        return pb_errorf(err, errlen, "New York Pizza Delivery is for 2 to %d players (1 to %d in co-op)", MAX_PLAYERS,
                         MAX_PLAYERS);
    int markers[5] = {PD_DEFAULT_DIFFICULTY, -1, -1, -1, -1};
    if (coop_markers(config, team, markers, err, errlen) != 0)
        return -1;
    if (pl)
        n = (int)json_integer_value(pl);
    if (first && !(json_is_string(first) && strcmp(json_string_value(first), "random") == 0)) {
        if (!json_is_integer(first) || json_integer_value(first) < 0 || json_integer_value(first) >= n)
            return pb_errorf(err, errlen, "first must be a seat 0..%d or \"random\"", n - 1);
        seat = (int)json_integer_value(first);
    }
    pd_rules *r = calloc(1, sizeof *r);
    if (!r)
        return pb_errorf(err, errlen, "out of memory");
    if (pd_data_from_json(map, cards, &r->data, err, errlen) != 0) {
        free(r);
        return -1;
    }
    pd_rules_init(r, n, seat);
    if (coop_options(config, team, r, err, errlen) != 0) {
        free(r);
        return -1;
    }
    if (expansion && json_is_false(expansion) && n >= 5) {
        free(r);
        return pb_errorf(err, errlen, "5 or 6 players need the expansion's cards");
    }
    if (expansion)
        r->expansion = json_is_true(expansion);
    r->expansion_powers = json_is_true(powers) && !r->expansion; /* the box has them anyway */
    r->extra_cheese = json_is_true(cheese);
    json_t *norm = json_pack("{s:i,s:b}", "players", n, "expansion", r->expansion);
    if (r->expansion_powers) /* only when chosen: configs from before it stay the same */
        json_object_set_new(norm, "expansion_powers", json_true());
    if (edition) /* an earlier edition is kept; the current one is the default */
        r->edition = (uint8_t)json_integer_value(edition);
    if (r->edition < PD_EDITION)
        json_object_set_new(norm, "edition", json_integer(r->edition));
    if (team) {
        pd_rules_coop(r, markers[0]);
        uint8_t *set[4] = {&r->promo_at[PD_PROMO_BLUE], &r->promo_at[PD_PROMO_RED], &r->goal_pizzas, &r->goal_money};
        for (int k = 0; k < 4; k++)
            if (markers[k + 1] >= 0)
                *set[k] = (uint8_t)markers[k + 1];
        json_object_set_new(norm, "coop", json_true());
        json_object_set_new(norm, "difficulty", json_integer(markers[0]));
        for (int k = 0; k < 4; k++)
            json_object_set_new(norm, marker_keys[k], json_integer(*set[k]));
        for (int k = 0; k < 3; k++) /* only when chosen: configs from before them stay the same */
            if (*option(r, k))
                json_object_set_new(norm, option_keys[k], json_true());
    }
    if (r->extra_cheese) /* only when chosen: configs from before it stay the same */
        json_object_set_new(norm, "extra_cheese", json_true());
    json_object_set_new(norm, "first", seat < 0 ? json_string("random") : json_integer(seat));
    if (map)
        json_object_set(norm, "map", map);
    if (cards)
        json_object_set(norm, "cards", cards);
    *out = r;
    *normalized = norm;
    *players = n;
    return 0;
}

static void pd_rules_free(void *rules)
{
    free(rules);
}

static void op_init(const pb_game *g, pb_state *st, uint64_t seed)
{
    pd_init(ST(st), RULES(g), seed);
}

static int op_current_seat(const pb_game *g, const pb_state *st)
{
    (void)g;
    return pd_current_seat(CST(st));
}

static int op_legal_actions(const pb_game *g, const pb_state *st, pb_action *out)
{
    (void)g;
    return pd_legal_actions(CST(st), out);
}

static pb_action op_random_action(const pb_game *g, const pb_state *st, pb_rng *rng)
{
    static __thread pb_action all[PB_MAX_ACTIONS];
    (void)g;
    int n = pd_legal_actions(CST(st), all);
    return n ? all[pb_rng_below(rng, (uint32_t)n)] : 0;
}

static int op_apply(const pb_game *g, pb_state *st, pb_action a, char *err, size_t errlen)
{
    (void)g;
    return pd_apply(ST(st), a, err, errlen);
}

static json_t *op_view(const pb_game *g, const pb_state *st, int seat)
{
    (void)g;
    return pd_view(CST(st), seat);
}

static void op_determinize(const pb_game *g, pb_state *st, int seat, pb_rng *rng)
{
    (void)g;
    pd_determinize(ST(st), seat, rng);
}

static int op_action_to_text(const pb_game *g, const pb_state *st, pb_action a, char *buf, size_t n)
{
    (void)g;
    if (!pd_is_legal(CST(st), a))
        return -1;
    return pd_action_text(CST(st), a, PD_EVERYONE_SEES_ALL, buf, n);
}

static int op_describe(const pb_game *g, const pb_state *st, pb_action a, int viewer, char *buf, size_t n)
{
    (void)g;
    const pd_state *s = CST(st);
    if (PD_KIND(a) == PD_A_PROMO && s->promo_choice > 0 && s->promo_choice <= PD_DAYS) {
        /* the log says which token's pizza was timed, not just "morning" */
        uint8_t p = s->promo[s->promo_choice - 1];
        int k = snprintf(buf, n, "times the %s promotion's %s pizza on %s: %s",
                         PD_PROMO_COLOUR(p) == PD_PROMO_BLUE ? "blue" : "red",
                         p & PD_PROMO_BACK ? "back-side" : "extra", pd_day_names[s->promo_choice - 1],
                         PD_ARG(a) == PD_PROMO_EVENING ? "evening" : "morning");
        return k >= 0 && (size_t)k < n ? 0 : -1;
    }
    return pd_action_text(s, a, viewer, buf, n);
}

static int op_action_from_text(const pb_game *g, const pb_state *st, const char *text, pb_action *a, char *err,
                               size_t errlen)
{
    (void)g;
    return pd_action_parse(CST(st), text, a, err, errlen);
}

static void op_returns(const pb_game *g, const pb_state *st, double *out)
{
    (void)g;
    pd_returns(CST(st), out);
}

static void op_totals(const pb_game *g, const pb_state *st, int *out)
{
    for (int s = 0; s < g->players; s++)
        out[s] = pd_score(CST(st), s);
}

static json_t *op_score_report(const pb_game *g, const pb_state *st, const char *const *names)
{
    (void)g;
    return pd_score_json(CST(st), names);
}

static void op_evaluate(const pb_game *g, const pb_state *st, int viewer, double *values)
{
    (void)g;
    pd_evaluate(CST(st), viewer, values);
}

/* The first player; no cards or contested categories yet; in co-op the
 * team's pizzas, money and turns. */
static void op_result_facts(const pb_game *g, const pb_state *st, pb_facts *f)
{
    const pd_state *s = CST(st);
    f->first = s->first;
    f->nitems = 0;
    f->ncategories = 0;
    f->nmeasures = 0;
    if (!RULES(g)->coop)
        return;
    f->measure[0] = "pizzas delivered";
    f->measure_value[0] = pd_team_deliveries(s);
    f->measure[1] = "team money";
    f->measure_value[1] = s->team_money;
    f->measure[2] = "turns";
    f->measure_value[2] = s->turn;
    f->measure[3] = "lost at the 3rd inspector";
    f->measure_value[3] = s->coop_result == PD_COOP_LOST_INSPECTOR;
    f->measure[4] = "lost for an order card";
    f->measure_value[4] = s->coop_result == PD_COOP_LOST_ORDERS;
    f->nmeasures = 5;
}

static bool op_cooperative(const pb_game *g)
{
    return RULES(g)->coop;
}

/* The Instant cards' question, asked of every holder of a power card. */
static bool op_asked_alike(const pb_game *g, const pb_state *st)
{
    (void)g;
    return CST(st)->phase == PD_PH_INSTANT;
}

static int op_news(const pb_game *g, const pb_state *before, const pb_state *after, const char *const *names,
                   char *buf, size_t n)
{
    (void)g;
    return pd_news(CST(before), CST(after), names, buf, n);
}

static int op_explain(const pb_game *g, const char *name, char *buf, size_t n)
{
    return pd_explain(&RULES(g)->data, name, buf, n);
}

static bool op_is_legal(const pb_game *g, const pb_state *st, pb_action a)
{
    (void)g;
    return pd_is_legal(CST(st), a);
}

static void op_legal_each(const pb_game *g, const pb_state *st, const pb_action *a, int n, bool *legal)
{
    (void)g;
    pd_legal_each(CST(st), a, n, legal);
}

static bool op_continues(const pb_game *g, const pb_state *after, pb_action last)
{
    (void)g;
    return pd_set_continues(CST(after), last);
}

static int op_join(const pb_game *g, const pb_state *st, const pb_action *parts, int n, pb_action *out)
{
    (void)g;
    return pd_set_join(CST(st), parts, n, out);
}

static int op_check_invariants(const pb_game *g, const pb_state *st, char *err, size_t errlen)
{
    (void)g;
    return pd_check_invariants(CST(st), err, errlen);
}

/* Records before version 3 (and tables stored before the store's edition
 * step) were played by edition 1 of the rules, those of version 3 by
 * edition 2, unless they name one. */
static json_t *op_config_as_played(const json_t *config, int record_version)
{
    static const int editions_from[PD_EDITION - 1] = {3, 4};
    return pb_json_edition_as_played(config, record_version, editions_from, PD_EDITION - 1);
}

const pb_game_ops pd_game_ops = {
    .id = "delivery",
    .title = "New York Pizza Delivery",
    .min_players = 1, /* co-op; the competitive game refuses fewer than 2 */
    .max_players = MAX_PLAYERS,
    .state_size = sizeof(pd_state),
    .position_size = offsetof(pd_state, rules),
    /* the search's reward reads projected leads on the 2-point scale, rough
     * early in a game: its "95%" on a second turn is about a coin toss.
     * Measured with bench/chance-calibration.py over games played by greedy
     * (2 players: 60 games, the Brier score 0.222 -> 0.185; 3 to 6: 30 to 40
     * games each, 0.154 -> 0.150 at 3); README, "Bots" */
    .chance_temper = {[2] = 3.5, [3] = 1.5, [4] = 1.5, [5] = 1.5, [6] = 1.5},
    .rules_new = pd_rules_new,
    .rules_free = pd_rules_free,
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
    .legal_each = op_legal_each,
    .result_facts = op_result_facts,
    .unseen_moves = NULL,
    .check_invariants = op_check_invariants,
    .cooperative = op_cooperative,
    .asked_alike = op_asked_alike,
    .news = op_news,
    .explain = op_explain,
    .continues = op_continues,
    .join = op_join,
    .config_as_played = op_config_as_played,
};
