/* ops.c -- Pizza Theory behind the game interface (core/game.h). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/error.h"
#include "../../core/jsonutil.h"
#include "theory.h"

#define ST(s) ((th_state *)(void *)(s))
#define CST(s) ((const th_state *)(const void *)(s))
#define RULES(g) ((const th_rules *)(g)->rules)

/* Config: {"players": 2 or 3 (3), "first": seat or "random" ("random",
 *          PT-S1), "board": a board object (the embedded default),
 *          "edition": the rules as pizzabox played them (TH_EDITION; 1: a
 *          game begun before toppings removed in a round refilled it)}. */
static int th_rules_new(const json_t *config, void **out, json_t **normalized, int *players, char *err,
                        size_t errlen)
{
    static const char *const known[] = {"players", "first", "board", "edition", NULL};
    if (pb_json_known_keys(config, known, "theory config: ", "the config", err, errlen))
        return -1;
    th_rules *r = calloc(1, sizeof *r);
    if (!r)
        return pb_errorf(err, errlen, "out of memory");
    r->players = 3;
    r->max_rounds = TH_MAX_ROUNDS;
    r->edition = TH_EDITION;
    json_t *pl = json_object_get(config, "players");
    json_t *first = json_object_get(config, "first");
    json_t *board = json_object_get(config, "board");
    json_t *edition = json_object_get(config, "edition");
    int rc = 0;
    if (pl && (!json_is_integer(pl) || json_integer_value(pl) < 2 || json_integer_value(pl) > 3))
        rc = pb_errorf(err, errlen, "Pizza Theory is for 2 or 3 players");
    else if (pl)
        r->players = (int)json_integer_value(pl);
    r->first = -1;
    if (rc == 0 && first && !(json_is_string(first) && strcmp(json_string_value(first), "random") == 0)) {
        if (!json_is_integer(first) || json_integer_value(first) < 0 || json_integer_value(first) >= r->players)
            rc = pb_errorf(err, errlen, "first must be a seat 0..%d or \"random\"", r->players - 1);
        else
            r->first = (int)json_integer_value(first);
    }
    if (rc == 0 && edition) {
        if (!json_is_integer(edition) || json_integer_value(edition) < 1 || json_integer_value(edition) > TH_EDITION)
            rc = pb_errorf(err, errlen, "edition must be a whole number from 1 to %d (the rules as pizzabox played them)",
                           TH_EDITION);
        else
            r->edition = (int)json_integer_value(edition);
    }
    if (rc == 0 && board)
        rc = th_board_from_json(board, &r->board, err, errlen);
    else if (rc == 0)
        th_board_default(&r->board);
    if (rc != 0) {
        free(r);
        return -1;
    }
    r->custom_board = board != NULL;
    th_rules_setup(r);
    json_t *norm = json_pack("{s:i}", "players", r->players);
    json_object_set_new(norm, "first", r->first < 0 ? json_string("random") : json_integer(r->first));
    if (r->custom_board)
        json_object_set_new(norm, "board", th_board_to_json(&r->board));
    if (r->edition < TH_EDITION) /* an earlier edition is kept; the current one is the default */
        json_object_set_new(norm, "edition", json_integer(r->edition));
    *out = r;
    *normalized = norm;
    *players = r->players;
    return 0;
}

static void th_rules_free(void *rules)
{
    free(rules);
}

static void op_init(const pb_game *g, pb_state *st, uint64_t seed)
{
    th_init(ST(st), RULES(g), seed);
}

static int op_current_seat(const pb_game *g, const pb_state *st)
{
    (void)g;
    return th_current_seat(CST(st));
}

static int op_legal_actions(const pb_game *g, const pb_state *st, pb_action *out)
{
    (void)g;
    return th_legal_actions(CST(st), out);
}

static pb_action op_random_action(const pb_game *g, const pb_state *st, pb_rng *rng)
{
    (void)g;
    return th_random_action(CST(st), rng);
}

static int op_apply(const pb_game *g, pb_state *st, pb_action a, char *err, size_t errlen)
{
    (void)g;
    return th_apply(ST(st), a, err, errlen);
}

static json_t *op_view(const pb_game *g, const pb_state *st, int seat)
{
    (void)g;
    return th_view(CST(st), seat);
}

static void op_determinize(const pb_game *g, pb_state *st, int seat, pb_rng *rng)
{
    (void)g;
    th_determinize(ST(st), seat, rng);
}

static int op_action_to_text(const pb_game *g, const pb_state *st, pb_action a, char *buf, size_t n)
{
    (void)g;
    return th_action_to_text(CST(st), a, buf, n);
}

static int op_describe(const pb_game *g, const pb_state *st, pb_action a, int viewer, char *buf, size_t n)
{
    (void)g;
    return th_action_text_for(CST(st), a, viewer, buf, n);
}

static int op_action_from_text(const pb_game *g, const pb_state *st, const char *text, pb_action *a, char *err,
                               size_t errlen)
{
    (void)g;
    return th_action_from_text(CST(st), text, a, err, errlen);
}

static void op_returns(const pb_game *g, const pb_state *st, double *out)
{
    (void)g;
    th_returns(CST(st), out);
}

static void op_totals(const pb_game *g, const pb_state *st, int *out)
{
    for (int p = 0; p < g->players; p++)
        out[p] = __builtin_popcountll(CST(st)->occ[p]);
}

static json_t *op_score_report(const pb_game *g, const pb_state *st, const char *const *names)
{
    (void)g;
    return th_result_json(CST(st), names);
}

static void op_evaluate(const pb_game *g, const pb_state *st, int viewer, double *values)
{
    (void)g;
    th_evaluate(CST(st), viewer, values);
}

/* The start player; no cards or contested categories. */
static void op_result_facts(const pb_game *g, const pb_state *st, pb_facts *f)
{
    (void)g;
    f->first = CST(st)->s0;
    f->nitems = 0;
    f->ncategories = 0;
}

static bool op_is_legal(const pb_game *g, const pb_state *st, pb_action a)
{
    (void)g;
    return th_is_legal(CST(st), a);
}

static int op_unseen_moves(const pb_game *g, const pb_state *st, int seat)
{
    (void)g;
    return th_unseen_cuts(CST(st), seat);
}

static int op_news(const pb_game *g, const pb_state *before, const pb_state *after, const char *const *names,
                   char *buf, size_t n)
{
    (void)g, (void)names; /* players are called by their colours */
    return th_news(CST(before), CST(after), buf, n);
}

static int op_check_invariants(const pb_game *g, const pb_state *st, char *err, size_t errlen)
{
    (void)g;
    return th_check_invariants(CST(st), err, errlen);
}

/* Records before version 4 (and tables stored before the store's step for
 * them) were played by edition 1 of the rules, unless they name one. */
static json_t *op_config_as_played(const json_t *config, int record_version)
{
    static const int editions_from[TH_EDITION - 1] = {4};
    return pb_json_edition_as_played(config, record_version, editions_from, TH_EDITION - 1);
}

static int op_sure_wins(const pb_game *g, const pb_state *st, pb_action *out, int max)
{
    (void)g;
    unsigned lines = th_sure_cuts(CST(st));
    int n = 0;
    for (int k = 1; k <= TH_LINES && n < max; k++)
        if (lines >> k & 1u)
            out[n++] = TH_ACT_CUT + k;
    return n;
}

const pb_game_ops th_game_ops = {
    .id = "theory",
    .title = "Pizza Theory",
    .min_players = 2,
    .max_players = 3,
    .state_size = sizeof(th_state),
    .position_size = offsetof(th_state, rules),
    .rules_new = th_rules_new,
    .rules_free = th_rules_free,
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
    .unseen_moves = op_unseen_moves,
    .check_invariants = op_check_invariants,
    .news = op_news,
    .sure_wins = op_sure_wins,
    .config_as_played = op_config_as_played,
};
