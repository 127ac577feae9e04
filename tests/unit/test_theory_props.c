/* test_theory_props.c -- properties of Pizza Theory, on the default board:
 *  - each of the 216 cut combinations splits the board into 4 to 7
 *    non-empty regions that partition it (PT-R3);
 *  - over thousands of seeded random games, for 3 and 2 players, played
 *    through the game interface: every colour's toppings are all accounted
 *    for after every action, no space holds two colours, every move was
 *    legal by the rules' own words, every game ends within 200 rounds with
 *    a consistent result, and the record (seed + action texts) replays to
 *    the identical state;
 *  - no view holds a secret cut: in the cut phase a seat's view of the real
 *    state equals its view of a state determinized for it, and does not
 *    change when another seat's hidden cut does;
 *  - a seat's guess of a cut it has not seen (the bots' determinization)
 *    favours the line that does its maker most good;
 *  - the sure wins the game names are the lines that win however the
 *    others cut. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/game.h"
#include "../../games/theory/theory.h"

#define GAMES_PER_COUNT 2000
#define VIEW_GAMES_PER_COUNT 100
#define MAX_ACTIONS (TH_MAX_ROUNDS * 6) /* 3 adds and 3 cuts (2 players: 2 + 1 + 2) a round */

#define ST(s) ((th_state *)(void *)(s))
#define CST(s) ((const th_state *)(const void *)(s))

static pb_game *game_for[4];

static int setup(void **state)
{
    (void)state;
    char err[PB_ERR_LEN];
    for (int n = 2; n <= 3; n++) {
        json_t *config = json_pack("{s:i}", "players", n);
        game_for[n] = pb_game_new("theory", config, err, sizeof err);
        json_decref(config);
        if (!game_for[n]) {
            fprintf(stderr, "pb_game_new: %s\n", err);
            return -1;
        }
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    for (int n = 2; n <= 3; n++)
        pb_game_free(game_for[n]);
    return 0;
}

static int popcount(uint64_t m)
{
    return __builtin_popcountll(m);
}

static const th_rules *rules_of(const pb_game *g)
{
    return (const th_rules *)g->rules;
}

/* ---- PT-R3: every cut combination ---- */

static void test_PT_R3_every_cut_combination_partitions_the_board(void **state)
{
    (void)state;
    const th_rules *r = rules_of(game_for[3]);
    const th_board *b = &r->board;
    int by_count[TH_REGIONS + 1] = {0};
    for (int combo = 0; combo < TH_COMBOS; combo++) {
        const uint8_t cuts[TH_SIDES] = {(uint8_t)(1 + combo / 36), (uint8_t)(1 + combo / 6 % 6),
                                        (uint8_t)(1 + combo % 6)};
        const uint64_t *reg = th_regions(r, cuts);
        uint64_t seen = 0;
        int nonempty = 0;
        for (int i = 0; i < TH_REGIONS; i++) {
            if (reg[i] & seen)
                fail_msg("cut %d %d %d: region %d overlaps another", cuts[0], cuts[1], cuts[2], i);
            seen |= reg[i];
            nonempty += reg[i] != 0;
        }
        if (seen != b->all)
            fail_msg("cut %d %d %d: the regions miss spaces", cuts[0], cuts[1], cuts[2]);
        if (nonempty < 4 || nonempty > 7)
            fail_msg("cut %d %d %d: %d regions, the rules say 4 to 7", cuts[0], cuts[1], cuts[2], nonempty);
        by_count[nonempty]++;
        /* Two spaces share a region exactly when they are on the same side
         * of every line (line k runs between coordinates k-4 and k-3). */
        for (int i = 0; i < b->ncells; i++)
            for (int j = 0; j < i; j++) {
                bool same_side = true;
                for (int d = 0; d < TH_SIDES; d++)
                    same_side &= (b->cube[i][d] <= cuts[d] - 4) == (b->cube[j][d] <= cuts[d] - 4);
                bool same_region = false;
                for (int k = 0; k < TH_REGIONS; k++)
                    same_region |= (reg[k] >> i & 1u) && (reg[k] >> j & 1u);
                if (same_side != same_region)
                    fail_msg("cut %d %d %d: spaces %d and %d", cuts[0], cuts[1], cuts[2], i, j);
            }
    }
    /* Both ends of "between 4 and 7" happen. */
    assert_true(by_count[4] > 0);
    assert_true(by_count[7] > 0);
}

/* ---- Random games ---- */

typedef struct played {
    char actions[MAX_ACTIONS][24];
    int nactions;
} played;

typedef struct tally {
    int full, neutral, draw, shared, short_seen, neutral_puts, skips;
} tally;

/* Everything that must hold after every action. */
static void check_state(const th_state *st, uint64_t seed, int step)
{
    const th_board *b = &st->rules->board;
    for (int c = 0; c < TH_COLOURS; c++) {
        if (popcount(st->occ[c]) + st->supply[c] != b->toppings)
            fail_msg("seed %llu step %d: colour %d has %d on the board and %d in supply", (unsigned long long)seed,
                     step, c, popcount(st->occ[c]), st->supply[c]);
        if (st->occ[c] & ~b->all)
            fail_msg("seed %llu step %d: colour %d off the board", (unsigned long long)seed, step, c);
        for (int o = 0; o < c; o++)
            if (st->occ[c] & st->occ[o])
                fail_msg("seed %llu step %d: colours %d and %d share a space", (unsigned long long)seed, step, o, c);
    }
    if (st->round >= TH_MAX_ROUNDS)
        fail_msg("seed %llu step %d: round %d", (unsigned long long)seed, step, st->round + 1);
}

/* The move about to be made is legal by PT-R1 / PT-2P2, checked from the
 * coordinates rather than the engine's masks. */
static void check_move(const th_state *st, pb_action a, uint64_t seed, int step, tally *t)
{
    const th_board *b = &st->rules->board;
    if (st->phase == TH_PH_CUT) {
        assert_true(a > TH_ACT_CUT && a <= TH_ACT_CUT + TH_LINES);
        return;
    }
    assert_true(a < (pb_action)b->ncells);
    uint64_t all = st->occ[0] | st->occ[1] | st->occ[2];
    if (all >> a & 1u)
        fail_msg("seed %llu step %d: put on a taken space", (unsigned long long)seed, step);
    if (st->phase == TH_PH_NEUTRAL) {
        int d = th_colour_side(st, TH_NEUTRAL), axis = b->axis[d], v = b->cube[a][axis], t_ = b->line[d][st->die - 1];
        if (v != t_ && v != t_ + 1)
            fail_msg("seed %llu step %d: neutral put away from line %d", (unsigned long long)seed, step, st->die);
        t->neutral_puts++;
        return;
    }
    int seat = th_current_seat(st);
    for (uint64_t m = st->occ[seat]; m; m &= m - 1) {
        int j = __builtin_ctzll(m), dist = 0;
        for (int k = 0; k < 3; k++)
            dist += abs(b->cube[a][k] - b->cube[j][k]);
        if (dist == 2)
            fail_msg("seed %llu step %d: seat %d put next to its own topping", (unsigned long long)seed, step, seat);
    }
}

/* The result agrees with the final board (PT-E1, PT-E2, PT-2P3). */
static void check_result(const pb_game *g, const th_state *st, uint64_t seed, tally *t)
{
    const int all = st->rules->board.toppings;
    assert_int_equal(st->phase, TH_PH_OVER);
    assert_true(st->last_round >= 1 && st->last_round <= TH_MAX_ROUNDS);
    double ret[PB_MAX_SEATS], sum = 0;
    g->ops->returns(g, (const pb_state *)(const void *)st, ret);
    for (int p = 0; p < st->players; p++)
        sum += ret[p];
    bool neutral_full = st->players == 2 && popcount(st->occ[TH_NEUTRAL]) == all;
    int best = -1;
    unsigned full = 0, top = 0;
    for (int p = 0; p < st->players; p++)
        if (popcount(st->occ[p]) == all) {
            full |= 1u << p;
            int score = all + st->short_by[p];
            if (score > best)
                best = score, top = 0;
            if (score == best)
                top |= 1u << p;
        }
    switch (st->end) {
    case TH_END_NEUTRAL:
        assert_true(neutral_full);
        assert_int_equal(st->winners, 0);
        assert_true(sum == 0.0);
        t->neutral++;
        break;
    case TH_END_FULL:
        assert_false(neutral_full);
        if (!full || st->winners != top)
            fail_msg("seed %llu: winners %u, full %u, by the tie-break %u", (unsigned long long)seed, st->winners,
                     full, top);
        assert_true(sum > 0.999 && sum < 1.001);
        t->full++;
        t->shared += popcount(st->winners) > 1;
        break;
    case TH_END_DRAW:
        assert_false(neutral_full);
        assert_int_equal(full, 0);
        assert_int_equal(st->last_round, TH_MAX_ROUNDS);
        assert_true(sum == 0.0);
        t->draw++;
        break;
    default:
        fail_msg("seed %llu: game over without an end", (unsigned long long)seed);
    }
}

static void play_checked(const pb_game *g, pb_state *ps, uint64_t seed, played *log, tally *t)
{
    char err[PB_ERR_LEN];
    pb_rng rng;
    pb_rng_seed(&rng, seed ^ 0x7e0a1u);
    g->ops->init(g, ps, seed);
    th_state *st = ST(ps);
    log->nactions = 0;
    check_state(st, seed, 0);
    while (!pb_is_terminal(g, ps)) {
        pb_action a = g->ops->random_action(g, ps, &rng);
        int step = log->nactions;
        if (step >= MAX_ACTIONS)
            fail_msg("seed %llu: no end after %d actions", (unsigned long long)seed, step);
        check_move(st, a, seed, step, t);
        if (g->ops->action_to_text(g, ps, a, log->actions[step], sizeof log->actions[step]) != 0)
            fail_msg("seed %llu step %d: random action has no notation", (unsigned long long)seed, step);
        log->nactions++;
        int round = st->round, players_step = st->step, phase = st->phase;
        if (g->ops->apply(g, ps, a, err, sizeof err) != 0)
            fail_msg("seed %llu step %d: '%s' refused: %s", (unsigned long long)seed, step, log->actions[step], err);
        /* An add that jumped over a seat is a skip (PT-R1). */
        t->skips += phase == TH_PH_PLACE && st->round == round && st->phase == TH_PH_PLACE &&
                    st->step > players_step + 1;
        for (int c = 0; c < TH_COLOURS; c++) {
            bool ran_out = st->last_round == round + 1 && phase == TH_PH_CUT && st->short_by[c] > 0;
            t->short_seen += ran_out;
            /* PT-R6: the toppings it lost refilled too, so a colour short of
             * toppings has them all on the pizza */
            if (ran_out && popcount(st->occ[c]) != st->rules->board.toppings)
                fail_msg("seed %llu step %d: colour %d ran out with %d on the pizza", (unsigned long long)seed, step, c,
                         popcount(st->occ[c]));
        }
        check_state(st, seed, step + 1);
    }
    check_result(g, st, seed, t);
}

/* PT-R1, PT-R6, PT-E1, PT-E2, PT-2P2, PT-2P3 over random games, and the
 * record replays. */
static void test_random_games_keep_every_topping_and_replay(void **state)
{
    (void)state;
    static played log;
    char err[PB_ERR_LEN];
    for (int n = 2; n <= 3; n++) {
        const pb_game *g = game_for[n];
        pb_state *ps = malloc(g->ops->state_size), *again = malloc(g->ops->state_size);
        tally t = {0};
        for (int i = 0; i < GAMES_PER_COUNT; i++) {
            uint64_t seed = pb_derive_seed(0x7e0 + (uint64_t)n, (uint64_t)i);
            play_checked(g, ps, seed, &log, &t);
            g->ops->init(g, again, seed);
            for (int k = 0; k < log.nactions; k++) {
                pb_action a;
                if (g->ops->action_from_text(g, again, log.actions[k], &a, err, sizeof err) != 0 ||
                    g->ops->apply(g, again, a, err, sizeof err) != 0)
                    fail_msg("%d players seed %llu: replaying '%s' failed: %s", n, (unsigned long long)seed,
                             log.actions[k], err);
            }
            assert_memory_equal(ps, again, g->ops->state_size);
        }
        /* The checks above saw the cases they are about. */
        fprintf(stderr, "# %d players: %d won, %d shared, %d neutral, %d draws, %d shortfalls, %d skips, "
                "%d neutral puts\n", n, t.full, t.shared, t.neutral, t.draw, t.short_seen, t.skips, t.neutral_puts);
        assert_true(t.full > GAMES_PER_COUNT / 10);
        if (n == 2)
            assert_true(t.neutral_puts > GAMES_PER_COUNT);
        free(ps);
        free(again);
    }
}

/* ---- Sure wins ---- */

/* Is side d's cut made and unseen by seat? */
static bool hidden_from(const th_state *st, int d, int seat)
{
    int c = th_side_colour(st, d);
    return st->cut[d] && c != seat && !(st->players == 2 && c == TH_NEUTRAL);
}


/* Does `line` win outright for the seat to cut at st, whatever lines the
 * others cut, those already cut unseen by it and those still to cut?
 * Every way: the unseen cuts set in the state, the rest played through
 * the game interface. *shared counts the ways that end in a shared win. */
static bool wins_every_way(const pb_game *g, const pb_state *st, int line, pb_state *t, int *shared)
{
    const th_state *s = CST(st);
    int seat = g->ops->current_seat(g, st), others = g->players - 1, ways = 1;
    for (int i = 0; i < others; i++)
        ways *= TH_LINES;
    bool always = true;
    for (int w = 0; w < ways; w++) {
        pb_state_copy(g, t, st);
        int rest = w;
        for (int d = 0; d < TH_SIDES; d++)
            if (hidden_from(s, d, seat)) {
                ST(t)->cut[d] = (uint8_t)(1 + rest % TH_LINES);
                rest /= TH_LINES;
            }
        assert_int_equal(g->ops->apply(g, t, TH_ACT_CUT + line, NULL, 0), 0);
        for (; CST(t)->phase == TH_PH_CUT; rest /= TH_LINES)
            assert_int_equal(g->ops->apply(g, t, TH_ACT_CUT + 1 + rest % TH_LINES, NULL, 0), 0);
        double r[TH_COLOURS] = {0};
        if (g->ops->current_seat(g, t) == PB_TERMINAL)
            g->ops->returns(g, t, r);
        *shared += r[seat] > 0 && r[seat] < 1;
        always = always && r[seat] == 1;
    }
    return always;
}

/* th_sure_cuts (the bots' and the analysis' sure wins) names exactly the
 * lines that win outright for the seat to cut however the others cut, at
 * every step of the cuts in random games of both player counts (a line
 * that may end in a shared win is not sure); it is asked only of cuts. */
static void test_sure_cuts_win_every_way(void **state)
{
    (void)state;
    pb_rng rng;
    for (int n = 2; n <= 3; n++) {
        const pb_game *g = game_for[n];
        pb_state *ps = malloc(g->ops->state_size), *t = malloc(g->ops->state_size);
        int asked = 0, found = 0, later = 0, shared = 0;
        for (int i = 0; i < 600; i++) {
            g->ops->init(g, ps, pb_derive_seed(0x5e4 + (uint64_t)n, (uint64_t)i));
            pb_rng_seed(&rng, (uint64_t)i);
            while (g->ops->current_seat(g, ps) != PB_TERMINAL) {
                const th_state *st = CST(ps);
                unsigned sure = th_sure_cuts(st);
                if (st->phase != TH_PH_CUT)
                    assert_int_equal(sure, 0);
                else {
                    asked++;
                    for (int k = 1; k <= TH_LINES; k++)
                        if ((sure >> k & 1u) != wins_every_way(g, ps, k, t, &shared))
                            fail_msg("%d players, game %d, round %d, cut %d: line %d %s", n, i, st->round,
                                     st->step + 1, k,
                                     sure >> k & 1u ? "named sure does not always win" : "always wins, not named");
                    found += sure != 0;
                    later += sure != 0 && th_unseen_cuts(st, th_current_seat(st)) > 0;
                }
                assert_int_equal(g->ops->apply(g, ps, g->ops->random_action(g, ps, &rng), NULL, 0), 0);
            }
        }
        fprintf(stderr, "# %d players: %d cuts, %d with a sure win (%d after an unseen cut); %d ways shared\n", n,
                asked, found, later, shared);
        /* the check met the cases it is about */
        assert_true(found >= 5 && later >= 1);
        free(ps);
        free(t);
    }
}

/* ---- Views leak no cut ---- */

/* The view `seat` gets of `alt` is `want` (its view of the real state). */
static void assert_view_is(const pb_game *g, const json_t *want, const pb_state *alt, int seat, const char *what,
                           uint64_t seed)
{
    json_t *v = g->ops->view(g, alt, seat);
    if (!json_equal(want, v)) {
        char *ta = json_dumps(want, JSON_COMPACT | JSON_SORT_KEYS), *tb = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS);
        fail_msg("%d players seed %llu: seat %d's view changes when %s:\n%s\n%s", g->players,
                 (unsigned long long)seed, seat, what, ta, tb);
    }
    json_decref(v);
}

static void test_views_hide_other_cuts(void **state)
{
    (void)state;
    int hidden_changed = 0, own_shown = 0, positions = 0;
    for (int n = 2; n <= 3; n++) {
        const pb_game *g = game_for[n];
        pb_state *ps = malloc(g->ops->state_size), *alt = malloc(g->ops->state_size);
        char err[PB_ERR_LEN];
        for (int i = 0; i < VIEW_GAMES_PER_COUNT; i++) {
            uint64_t seed = pb_derive_seed(0x71e0 + (uint64_t)n, (uint64_t)i);
            pb_rng rng, other;
            pb_rng_seed(&rng, seed);
            pb_rng_seed(&other, ~seed);
            g->ops->init(g, ps, seed);
            const th_state *st = CST(ps);
            while (!pb_is_terminal(g, ps)) {
                if (st->phase == TH_PH_CUT) {
                    positions++;
                    for (int seat = PB_SPECTATOR; seat < n; seat++) {
                        json_t *real = g->ops->view(g, ps, seat);
                        /* The determinized state differs only in what the seat cannot see. */
                        pb_state_copy(g, alt, ps);
                        g->ops->determinize(g, alt, seat, &other);
                        th_state check = *CST(alt);
                        for (int d = 0; d < TH_SIDES; d++) {
                            if (!hidden_from(st, d, seat))
                                assert_int_equal(check.cut[d], st->cut[d]);
                            hidden_changed += check.cut[d] != st->cut[d];
                            check.cut[d] = st->cut[d];
                        }
                        check.rng = st->rng;
                        assert_memory_equal(&check, st, sizeof check);
                        assert_view_is(g, real, alt, seat, "hidden cuts are redrawn", seed);
                        for (int d = 0; d < TH_SIDES; d++) {
                            if (!st->cut[d])
                                continue;
                            if (hidden_from(st, d, seat)) {
                                /* Every line another seat might have cut looks the same. */
                                for (int k = 1; k <= TH_LINES; k++) {
                                    pb_state_copy(g, alt, ps);
                                    ST(alt)->cut[d] = (uint8_t)k;
                                    assert_view_is(g, real, alt, seat, "another seat's cut changes", seed);
                                }
                            } else if (th_side_colour(st, d) == seat) {
                                /* The comparison can tell: the seat sees its own cut. */
                                pb_state_copy(g, alt, ps);
                                ST(alt)->cut[d] = (uint8_t)(st->cut[d] % TH_LINES + 1);
                                json_t *v = g->ops->view(g, alt, seat);
                                assert_false(json_equal(real, v));
                                json_decref(v);
                                own_shown++;
                            }
                        }
                        json_decref(real);
                    }
                    /* The cut being made now reads "cut ?" to everyone else. */
                    int mover = th_current_seat(st);
                    for (int viewer = PB_SPECTATOR; viewer < n; viewer++) {
                        char text[32];
                        assert_int_equal(g->ops->describe(g, ps, TH_ACT_CUT + 3, viewer, text, sizeof text), 0);
                        assert_string_equal(text, viewer == mover ? "cut 3" : "cut ?");
                    }
                }
                if (g->ops->apply(g, ps, g->ops->random_action(g, ps, &rng), err, sizeof err) != 0)
                    fail_msg("random action refused: %s", err);
            }
        }
        free(ps);
        free(alt);
    }
    fprintf(stderr, "# %d cut-phase positions, %d hidden cuts redrawn, %d own cuts shown\n", positions,
            hidden_changed, own_shown);
    /* The checks above could not fail if nothing hidden was ever changed. */
    assert_true(hidden_changed > 500);
    assert_true(own_shown > 500);
}

/* ---- the bots' guess of a hidden cut ---- */

/* The lead over its rival player that colour c expects from line k of side
 * d, every line of the other player's side equally likely (2 players, the
 * die's line fixed): worked out from th_resolve itself. */
static double lead_from_line(const th_state *st, int d, int k, int c)
{
    double sum = 0;
    for (int other = 1; other <= TH_LINES; other++) {
        uint8_t cuts[TH_SIDES];
        for (int e = 0; e < TH_SIDES; e++)
            cuts[e] = e == d ? (uint8_t)k : th_side_colour(st, e) == TH_NEUTRAL ? st->cut[e] : (uint8_t)other;
        uint64_t occ[TH_COLOURS];
        uint8_t supply[TH_COLOURS], short_by[TH_COLOURS];
        th_resolve(st->rules, st->occ, st->supply, cuts, occ, supply, short_by);
        sum += popcount(occ[c]) - popcount(occ[1 - c]);
    }
    return sum / TH_LINES;
}

static void test_hidden_cut_guessed_as_its_maker_would_cut(void **state)
{
    (void)state;
    const pb_game *g = game_for[2];
    pb_state *ps = malloc(g->ops->state_size), *alt = malloc(g->ops->state_size);
    char err[PB_ERR_LEN];
    int checked = 0;
    for (int i = 0; i < 200; i++) {
        uint64_t seed = pb_derive_seed(0x9e55, (uint64_t)i);
        pb_rng rng;
        pb_rng_seed(&rng, seed);
        g->ops->init(g, ps, seed);
        const th_state *st = CST(ps);
        while (!pb_is_terminal(g, ps)) {
            int seat = th_current_seat(st), maker = 1 - seat;
            int d = th_colour_side(st, maker);
            if (st->phase == TH_PH_CUT && st->cut[d]) {
                /* The maker's best line, when it is clearly the best. */
                double lead[TH_LINES + 1], second = -1e9;
                int best = 1;
                for (int k = 1; k <= TH_LINES; k++)
                    if ((lead[k] = lead_from_line(st, d, k, maker)) > lead[best])
                        best = k;
                for (int k = 1; k <= TH_LINES; k++)
                    if (k != best && lead[k] > second)
                        second = lead[k];
                if (lead[best] - second >= 2) {
                    int drawn[TH_LINES + 1] = {0};
                    for (int n = 0; n < 600; n++) {
                        pb_state_copy(g, alt, ps);
                        g->ops->determinize(g, alt, seat, &rng);
                        drawn[CST(alt)->cut[d]]++;
                    }
                    for (int k = 1; k <= TH_LINES; k++)
                        if (k != best && drawn[k] >= drawn[best])
                            fail_msg("seed %llu: line %d (lead %.2f) guessed %d times, line %d (lead %.2f) %d times",
                                     (unsigned long long)seed, k, lead[k], drawn[k], best, lead[best], drawn[best]);
                    checked++;
                }
            }
            if (g->ops->apply(g, ps, g->ops->random_action(g, ps, &rng), err, sizeof err) != 0)
                fail_msg("random action refused: %s", err);
        }
    }
    fprintf(stderr, "# %d hidden cuts with a clearly best line\n", checked);
    assert_true(checked >= 20);
    free(ps);
    free(alt);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_PT_R3_every_cut_combination_partitions_the_board),
        cmocka_unit_test(test_random_games_keep_every_topping_and_replay),
        cmocka_unit_test(test_views_hide_other_cuts),
        cmocka_unit_test(test_hidden_cut_guessed_as_its_maker_would_cut),
        cmocka_unit_test(test_sure_cuts_win_every_way),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
