/* test_bot_values.c -- pb_bot_values: the root moves a search weighed, as
 * `pizzabox engine`'s think reports them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../ai/bot.h"
#include "../../core/clock.h"
#include "support.h"

static pb_move_value values[PB_MAX_ACTIONS];

/* The bot's values for its choice at the start of a 4-player New York Slice
 * game: legal moves, most visited first, the first the move chosen, the
 * visits adding up to the search's iterations, rewards in [0, 1]. */
static void check_search(const char *spec, long iters)
{
    pb_game *g = ts_game("nyslice", 4);
    pb_state *st = pb_state_new(g, 3);
    char err[PB_ERR_LEN];
    pb_bot *b = pb_bot_new(spec, 7, err, sizeof err);
    assert_non_null(b);
    pb_action a = pb_bot_choose(b, g, st, 0);
    int n = pb_bot_values(b, values, PB_MAX_ACTIONS);
    assert_true(n > 1);
    assert_int_equal(pb_bot_searches(b), iters);
    assert_true(values[0].action == a);
    long visits = 0;
    for (int i = 0; i < n; i++) {
        assert_true(g->ops->is_legal(g, st, values[i].action));
        assert_true(values[i].value >= 0 && values[i].value <= 1);
        if (i > 0)
            assert_true(values[i - 1].visits >= values[i].visits);
        for (int j = 0; j < i; j++)
            assert_true(values[j].action != values[i].action);
        visits += values[i].visits;
    }
    assert_int_equal(visits, iters);
    assert_int_equal(pb_bot_values(b, values, 3), 3); /* at most max */
    pb_bot_free(b);
    free(st);
    pb_game_free(g);
}

static void test_values_of_a_search(void **state)
{
    (void)state;
    check_search("mcts:iters=400", 400);
}

static void test_values_of_a_search_on_two_threads(void **state)
{
    (void)state;
    check_search("mcts:iters=400:threads=2", 400);
}

/* Bots that do not search, and a search bot with one move to make (after
 * a search: its values must not be the earlier position's), weigh nothing.
 * (Pizza Theory: New York Slice never has a forced move.) */
static void test_no_values_without_a_search(void **state)
{
    (void)state;
    pb_game *g = ts_game("theory", 3);
    pb_state *st = pb_state_new(g, 5);
    char err[PB_ERR_LEN];
    pb_bot *random = pb_bot_new("random", 1, err, sizeof err), *greedy = pb_bot_new("greedy", 1, err, sizeof err);
    pb_bot *mcts = pb_bot_new("mcts:iters=100", 1, err, sizeof err);
    pb_bot_choose(random, g, st, 0);
    pb_bot_choose(greedy, g, st, 0);
    pb_bot_choose(mcts, g, st, 0);
    assert_int_equal(pb_bot_values(random, values, PB_MAX_ACTIONS), 0);
    assert_int_equal(pb_bot_values(greedy, values, PB_MAX_ACTIONS), 0);
    assert_true(pb_bot_values(mcts, values, PB_MAX_ACTIONS) > 1);
    static pb_action legal[PB_MAX_ACTIONS];
    pb_rng rng;
    pb_rng_seed(&rng, 2);
    while (!pb_is_terminal(g, st) &&
           (g->ops->legal_actions(g, st, legal) != 1 || pb_is_asked_alike(g, st)))
        g->ops->apply(g, st, g->ops->random_action(g, st, &rng), NULL, 0);
    assert_false(pb_is_terminal(g, st)); /* a forced move came up */
    pb_bot_choose(mcts, g, st, pb_current_seat(g, st));
    assert_int_equal(pb_bot_searches(mcts), 0);
    assert_int_equal(pb_bot_values(mcts, values, PB_MAX_ACTIONS), 0);
    pb_bot_free(random);
    pb_bot_free(greedy);
    pb_bot_free(mcts);
    free(st);
    pb_game_free(g);
}

/* A decision in parts (a Delivery payment, a card at a time) is searched
 * once: the later parts are read from the first part's search, which went on
 * into them (the same search's count, its values legal where the last part
 * was chosen), and the joined move is legal. On one thread and on two. */
static void check_parts(const char *spec, long iters)
{
    pb_game *g = ts_game("delivery", 2);
    char err[PB_ERR_LEN];
    pb_bot *b = pb_bot_new(spec, 4, err, sizeof err), *fill = pb_bot_new("greedy", 4, err, sizeof err);
    assert_non_null(b);
    int reused = 0;
    for (uint64_t seed = 1; seed < 40 && reused < 3; seed++) {
        pb_state *st = pb_state_new(g, seed);
        for (int moves = 0; moves < 60 && !pb_is_terminal(g, st); moves++) {
            int seat = pb_current_seat(g, st);
            pb_action a = pb_bot_choose(moves % 2 ? fill : b, g, st, seat);
            if (moves % 2 == 0 && strncmp(pb_bot_why(b), "the rest of the last search", 27) == 0) {
                reused++;
                assert_int_equal(pb_bot_searches(b), iters);
                assert_true(pb_bot_values(b, values, PB_MAX_ACTIONS) > 0);
            }
            assert_int_equal(g->ops->apply(g, st, a, err, sizeof err), 0);
        }
        free(st);
    }
    assert_true(reused >= 3);
    pb_bot_free(b);
    pb_bot_free(fill);
    pb_game_free(g);
}

static void test_parts_read_from_one_search(void **state)
{
    (void)state;
    check_parts("mcts:iters=2000", 2000);
    check_parts("mcts:iters=2000:threads=2", 2000);
}

/* The values of one search by the seat to move, `moves` random moves into
 * a game (then on to the first choice), in order of the moves (most
 * visited first); *searches (unless NULL) gets the bot's searches. */
static int values_after(const char *game, int players, int moves, const char *spec, pb_move_value *out,
                        long *searches)
{
    pb_game *g = ts_game(game, players);
    pb_state *st = pb_state_new(g, 3);
    static pb_action legal[PB_MAX_ACTIONS];
    pb_rng rng;
    pb_rng_seed(&rng, 4);
    for (int i = 0; !pb_is_terminal(g, st) && (i < moves || g->ops->legal_actions(g, st, legal) < 2); i++)
        assert_int_equal(g->ops->apply(g, st, g->ops->random_action(g, st, &rng), NULL, 0), 0);
    assert_false(pb_is_terminal(g, st));
    char err[PB_ERR_LEN];
    pb_bot *b = pb_bot_new(spec, 7, err, sizeof err);
    assert_non_null(b);
    pb_bot_choose(b, g, st, pb_current_seat(g, st));
    int n = pb_bot_values(b, out, PB_MAX_ACTIONS);
    if (searches)
        *searches = pb_bot_searches(b);
    pb_bot_free(b);
    free(st);
    pb_game_free(g);
    return n;
}

/* The values of one search at a game's start. */
static int search_values(const char *game, int players, const char *spec, pb_move_value *out)
{
    return values_after(game, players, 0, spec, out, NULL);
}

static bool same_values(const pb_move_value *a, int na, const pb_move_value *b, int nb)
{
    if (na != nb)
        return false;
    for (int i = 0; i < na; i++)
        if (a[i].action != b[i].action || a[i].visits != b[i].visits || a[i].value != b[i].value)
            return false;
    return true;
}

/* A search without scale= reads leads on the game's own scale: New York
 * Slice's 4 points, 2 where a game names none (Pizza Theory); scale=
 * overrides it. */
static void test_search_reads_the_games_lead_scale(void **state)
{
    (void)state;
    static pb_move_value other[PB_MAX_ACTIONS];
    int n = search_values("nyslice", 4, "mcts:iters=300", values);
    assert_true(same_values(values, n, other, search_values("nyslice", 4, "mcts:iters=300:scale=4", other)));
    assert_false(same_values(values, n, other, search_values("nyslice", 4, "mcts:iters=300:scale=2", other)));
    n = search_values("theory", 3, "mcts:iters=300", values);
    assert_true(same_values(values, n, other, search_values("theory", 3, "mcts:iters=300:scale=2", other)));
    assert_false(same_values(values, n, other, search_values("theory", 3, "mcts:iters=300:scale=4", other)));
}

/* A game's chance_temper changes what a search reports, not what it plays:
 * 2-player Delivery's values are its rewards read at temperature 3.5, the
 * same moves in the same order with the same visits; a team game's reward
 * (co-op) is reported as it is. */
static void test_reported_chances_read_at_the_games_temperature(void **state)
{
    (void)state;
    static pb_move_value raw[PB_MAX_ACTIONS];
    for (int coop = 0; coop < 2; coop++) {
        char err[PB_ERR_LEN];
        json_t *config = json_pack("{s:i, s:b}", "players", 2, "coop", coop);
        pb_game *g = pb_game_new("delivery", config, err, sizeof err);
        json_decref(config);
        assert_non_null(g);
        pb_game_ops untempered = *g->ops;
        memset(untempered.chance_temper, 0, sizeof untempered.chance_temper);
        pb_game plain = *g;
        plain.ops = &untempered;
        pb_state *st = pb_state_new(g, 5);
        pb_bot *b = pb_bot_new("mcts:iters=400", 9, err, sizeof err), *c = pb_bot_new("mcts:iters=400", 9, err, sizeof err);
        assert_true(b && c);
        assert_true(pb_bot_choose(b, g, st, pb_current_seat(g, st)) == pb_bot_choose(c, &plain, st, pb_current_seat(g, st)));
        int n = pb_bot_values(b, values, PB_MAX_ACTIONS);
        assert_int_equal(pb_bot_values(c, raw, PB_MAX_ACTIONS), n);
        assert_true(n > 1);
        double t = coop ? 1 : g->ops->chance_temper[2];
        assert_true(t == 1 || t == 3.5);
        for (int i = 0; i < n; i++) {
            assert_true(values[i].action == raw[i].action && values[i].visits == raw[i].visits);
            double p = raw[i].value, want = 1 / (1 + exp(-log(p / (1 - p)) / t));
            assert_true(fabs(values[i].value - want) < 1e-9);
        }
        assert_true(coop || fabs(values[0].value - 0.5) < fabs(raw[0].value - 0.5)); /* nearer an even game */
        pb_bot_free(b);
        pb_bot_free(c);
        free(st);
        pb_game_free(g);
    }
}

/* width= is how many moves the root keeps, the one-ply look's best: 48
 * unless set (the opening division has far more); a width out of range is
 * refused with the option named. */
static void test_search_keeps_the_roots_width(void **state)
{
    (void)state;
    static pb_move_value other[PB_MAX_ACTIONS];
    int n = search_values("nyslice", 4, "mcts:iters=300", values);
    assert_int_equal(n, 48);
    assert_true(same_values(values, n, other, search_values("nyslice", 4, "mcts:iters=300:width=48", other)));
    assert_int_equal(search_values("nyslice", 4, "mcts:iters=300:width=5", other), 5);
    assert_int_equal(search_values("nyslice", 4, "mcts:iters=300:width=100", other), 100);
    char err[PB_ERR_LEN];
    assert_null(pb_bot_new("mcts:width=0", 7, err, sizeof err));
    assert_null(pb_bot_new("mcts:width=5000", 7, err, sizeof err));
    assert_non_null(strstr(err, "mcts option 'width=5000': width takes a whole number from 1 to 4096"));
    assert_null(pb_bot_new("mcts:iters=0", 7, err, sizeof err));
    assert_non_null(strstr(err, "mcts option 'iters=0': iters takes a whole number from 1 to 10000000"));
    assert_null(pb_bot_new("mcts:depth=3", 7, err, sizeof err));
    assert_non_null(strstr(err, "unknown mcts option 'depth' (known: iters, ms, cap, threads, c, scale, temp, width, playout, mix, margin, nodes)"));
    char spec[200] = "mcts:";
    while (strlen(spec) < 140)
        strcat(spec, "c=1:");
    strcat(spec, "iters=1000000"); /* past what is read: refused, not cut short */
    assert_null(pb_bot_new(spec, 7, err, sizeof err));
    assert_non_null(strstr(err, "mcts options too long"));
    assert_null(pb_bot_new("mcts:iters=", 7, err, sizeof err));
    assert_non_null(strstr(err, "mcts option 'iters=' must be name=number"));
}

/* nodes=N stops a tree's growth (memory stays bounded however many
 * iterations are asked): the search still makes every iteration, scoring
 * the leaves it reaches as they are, so its values differ from a tree that
 * grows, reproducibly. The root's moves are always expanded. */
static void test_search_tree_stops_at_its_nodes(void **state)
{
    (void)state;
    static pb_move_value other[PB_MAX_ACTIONS];
    check_search("mcts:iters=2000:nodes=300", 2000);
    check_search("mcts:iters=2000:nodes=1:threads=2", 2000);
    int n = search_values("nyslice", 4, "mcts:iters=2000:nodes=300", values);
    assert_int_equal(n, 48);
    assert_true(same_values(values, n, other, search_values("nyslice", 4, "mcts:iters=2000:nodes=300", other)));
    assert_false(same_values(values, n, other, search_values("nyslice", 4, "mcts:iters=2000", other)));
    /* far above what 2,000 iterations grow: no change */
    n = search_values("nyslice", 4, "mcts:iters=2000", values);
    assert_true(same_values(values, n, other, search_values("nyslice", 4, "mcts:iters=2000:nodes=4000000", other)));
    char err[PB_ERR_LEN];
    assert_null(pb_bot_new("mcts:nodes=0", 7, err, sizeof err));
    assert_null(pb_bot_new("mcts:nodes=5000000", 7, err, sizeof err));
    assert_non_null(strstr(err, "nodes takes a whole number from 1 to 4194304"));
}

/* playout=N plays every leaf on to the end, each step the best of N moves
 * drawn at random, and scores the end reached (mix=X: that share of the
 * reward, the rest from the leaf's evaluation): the search weighs its moves
 * otherwise, reproducibly; both options are checked. */
static void test_search_plays_its_leaves_out(void **state)
{
    (void)state;
    static pb_move_value other[PB_MAX_ACTIONS];
    check_search("mcts:iters=200:playout=4", 200);
    int n = search_values("nyslice", 4, "mcts:iters=200:playout=4", values);
    assert_true(same_values(values, n, other, search_values("nyslice", 4, "mcts:iters=200:playout=4", other)));
    assert_true(same_values(values, n, other, search_values("nyslice", 4, "mcts:iters=200:playout=4:mix=1", other)));
    assert_false(same_values(values, n, other, search_values("nyslice", 4, "mcts:iters=200", other)));
    assert_false(same_values(values, n, other, search_values("nyslice", 4, "mcts:iters=200:playout=4:mix=0.5", other)));
    assert_false(same_values(values, n, other, search_values("nyslice", 4, "mcts:iters=200:playout=16", other)));
    char err[PB_ERR_LEN];
    assert_null(pb_bot_new("mcts:playout=65", 7, err, sizeof err));
    assert_non_null(strstr(err, "playout takes a whole number from 1 to 64"));
    assert_null(pb_bot_new("mcts:playout=2.5", 7, err, sizeof err));
    assert_null(pb_bot_new("mcts:mix=1.5", 7, err, sizeof err));
    assert_non_null(strstr(err, "mcts option 'mix=1.5': mix takes a number above 0, up to 1"));
}

/* Is st a game's last decision where the mover cannot win whatever it does
 * and its moves change its own points alone (so its most points are its
 * best lead), yet they differ? *most: its best total; `after`: scratch. */
static bool last_move_for_points_alone(const pb_game *g, const pb_state *st, pb_state *after, int *most)
{
    static pb_action legal[PB_MAX_ACTIONS];
    int n = g->ops->legal_actions(g, st, legal), mover = pb_current_seat(g, st), least = 1 << 30;
    int first[PB_MAX_SEATS];
    bool found = n > 1;
    *most = -(1 << 30);
    for (int i = 0; found && i < n; i++) {
        double share[PB_MAX_SEATS];
        int totals[PB_MAX_SEATS];
        pb_state_copy(g, after, st);
        found = g->ops->apply(g, after, legal[i], NULL, 0) == 0 && pb_is_terminal(g, after);
        if (!found)
            break;
        g->ops->returns(g, after, share);
        g->ops->totals(g, after, totals);
        if (i == 0)
            memcpy(first, totals, sizeof first);
        found = share[mover] == 0;
        for (int q = 0; q < g->players; q++)
            found = found && (q == mover || totals[q] == first[q]);
        *most = totals[mover] > *most ? totals[mover] : *most;
        least = totals[mover] < least ? totals[mover] : least;
    }
    return found && *most > least;
}

/* margin=X takes that share of an end's reward from the final lead in
 * points, the rest from the result, so a seat that cannot win still plays
 * for its points: at a 3-player game's last decision, lost whatever it
 * does, it takes its most points. The search weighs its moves otherwise,
 * reproducibly; a margin of 1 or more (no result left) is refused. */
static void test_search_weighs_the_final_lead(void **state)
{
    (void)state;
    static pb_move_value other[PB_MAX_ACTIONS];
    const char *spec = "mcts:iters=200:playout=4:margin=0.25";
    int n = search_values("nyslice", 4, spec, values);
    assert_true(same_values(values, n, other, search_values("nyslice", 4, spec, other)));
    assert_false(same_values(values, n, other, search_values("nyslice", 4, "mcts:iters=200:playout=4", other)));
    char err[PB_ERR_LEN];
    assert_null(pb_bot_new("mcts:margin=1", 7, err, sizeof err));
    assert_non_null(strstr(err, "margin takes a number above 0, below 1"));

    pb_game *g = ts_game("nyslice", 3);
    pb_state *after = pb_state_new(g, 1);
    int found = 0;
    for (uint64_t seed = 1; seed < 200 && found < 3; seed++) {
        pb_state *st = pb_state_new(g, seed);
        pb_rng rng;
        pb_rng_seed(&rng, seed);
        int most;
        while (!pb_is_terminal(g, st) && !last_move_for_points_alone(g, st, after, &most))
            g->ops->apply(g, st, g->ops->random_action(g, st, &rng), NULL, 0);
        if (!pb_is_terminal(g, st)) {
            int mover = pb_current_seat(g, st), totals[PB_MAX_SEATS];
            pb_bot *b = pb_bot_new("mcts:iters=300:margin=0.05", 7, err, sizeof err);
            assert_non_null(b);
            pb_state_copy(g, after, st);
            assert_int_equal(g->ops->apply(g, after, pb_bot_choose(b, g, st, mover), NULL, 0), 0);
            g->ops->totals(g, after, totals);
            assert_int_equal(totals[mover], most);
            pb_bot_free(b);
            found++;
        }
        free(st);
    }
    assert_int_equal(found, 3);
    free(after);
    pb_game_free(g);
}

/* A choice some ten random moves into a 2-player New York Slice game is
 * cheap (well within the CPU cap under ASan) and short of the last round,
 * where expert may solve instead of search. */
#define MID_GAME "nyslice", 2, 10

/* expert plays its leaves out where the game asks for it (New York Slice),
 * with the level's smaller budget for that: its values are those of 6,000
 * played-out iterations, not of 25,000 (or 6,000) evaluated leaves. */
static void test_expert_plays_out_where_the_game_asks(void **state)
{
    (void)state;
    static pb_move_value other[PB_MAX_ACTIONS];
    long searches = 0, other_searches = 0;
    int n = values_after(MID_GAME, "expert", values, &searches);
    assert_int_equal(searches, 6000);
    assert_true(n > 1);
    int m = values_after(MID_GAME, "mcts:iters=6000:playout=4", other, &other_searches);
    assert_int_equal(other_searches, 6000);
    assert_true(same_values(values, n, other, m));
    m = values_after(MID_GAME, "mcts:iters=6000", other, &other_searches);
    assert_false(same_values(values, n, other, m));
}

/* Where the game names sure wins (Pizza Theory's cuts that win however the
 * others cut), every searching level plays one, even on a search too short
 * to find it, and its values put them first at their exact 1. */
static void test_search_takes_a_sure_win(void **state)
{
    (void)state;
    /* width=2: most lines are never in the tree, sure wins among them */
    static const char *const specs[] = {"mcts:iters=2", "mcts:iters=2:threads=2", "mcts:iters=20:width=2", "easy"};
    for (int players = 2; players <= 3; players++) {
        pb_game *g = ts_game("theory", players);
        pb_state *st = pb_state_new(g, 1);
        for (uint64_t seed = 1; seed < 12000; seed += 1000) {
            pb_action sure[8];
            int ns = ts_sure_win_position(g, st, seed, sure, 8);
            for (size_t k = 0; k < sizeof specs / sizeof specs[0]; k++) {
                char err[PB_ERR_LEN];
                pb_bot *b = pb_bot_new(specs[k], seed, err, sizeof err);
                assert_non_null(b);
                pb_action a = pb_bot_choose(b, g, st, pb_current_seat(g, st));
                if (!ts_action_among(a, sure, ns))
                    fail_msg("%s, %d players, seed %llu: played %d, not a sure win", specs[k], players,
                             (unsigned long long)seed, (int)a);
                int n = pb_bot_values(b, values, PB_MAX_ACTIONS);
                assert_true(n >= ns && values[0].action == a);
                for (int i = 0; i < ns; i++) /* every sure win first, at 1 */
                    assert_true(ts_action_among(values[i].action, sure, ns) && values[i].value == 1);
                pb_bot_free(b);
            }
        }
        free(st);
        pb_game_free(g);
    }
}

/* Spend this thread's CPU until it has used `seconds` in all: a cap must
 * count from the decision's start, not from the thread's. */
static void use_cpu_until(double seconds)
{
    volatile double x = 1;
    while (pb_thread_cpu() < seconds)
        for (int i = 0; i < 100000; i++)
            x = x * 1.0000001 + 1e-9;
}

/* An iteration budget with a CPU cap stops at the cap, short of its
 * iterations; without one it searches them all. */
static void test_cpu_cap_stops_a_search(void **state)
{
    (void)state;
    use_cpu_until(0.2);
    pb_game *g = ts_game("nyslice", 4);
    pb_state *st = pb_state_new(g, 3);
    char err[PB_ERR_LEN];
    pb_bot *capped = pb_bot_new("mcts:iters=10000000:cap=50", 7, err, sizeof err);
    assert_non_null(capped);
    double c0 = pb_thread_cpu();
    pb_bot_choose(capped, g, st, 0);
    double used = pb_thread_cpu() - c0;
    assert_true(pb_bot_searches(capped) > 0 && pb_bot_searches(capped) < 10000000);
    assert_true(used >= 0.05 && used < 1.0);
    pb_bot *full = pb_bot_new("mcts:iters=2000:cap=60000", 7, err, sizeof err);
    pb_bot_choose(full, g, st, 0);
    assert_int_equal(pb_bot_searches(full), 2000);
    assert_null(pb_bot_new("mcts:iters=100:cap=0.5", 7, err, sizeof err));
    assert_non_null(strstr(err, "cap"));
    assert_null(pb_bot_new("mcts:ms=100:cap=50", 7, err, sizeof err));
    assert_non_null(strstr(err, "cap goes with iters"));
    pb_bot_free(capped);
    pb_bot_free(full);
    free(st);
    pb_game_free(g);
}

/* The levels' cap is a decision's: after the thread has used more CPU than
 * the cap, a level still searches its whole budget, alone and inside
 * `perfect` (as `expert` is in every game). */
static void test_levels_cap_counts_from_the_decision(void **state)
{
    (void)state;
    use_cpu_until(1.2);
    pb_game *g = ts_game("nyslice", 4);
    pb_state *st = pb_state_new(g, 3);
    char err[PB_ERR_LEN];
    static const char *const specs[] = {"hard", "perfect:hard"};
    for (int i = 0; i < 2; i++) {
        pb_bot *b = pb_bot_new(specs[i], 7, err, sizeof err);
        assert_non_null(b);
        pb_bot_choose(b, g, st, 0);
        assert_int_equal(pb_bot_searches(b), 3000);
        pb_bot_free(b);
    }
    free(st);
    pb_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values_of_a_search),
        cmocka_unit_test(test_values_of_a_search_on_two_threads),
        cmocka_unit_test(test_no_values_without_a_search),
        cmocka_unit_test(test_parts_read_from_one_search),
        cmocka_unit_test(test_search_reads_the_games_lead_scale),
        cmocka_unit_test(test_reported_chances_read_at_the_games_temperature),
        cmocka_unit_test(test_search_keeps_the_roots_width),
        cmocka_unit_test(test_search_tree_stops_at_its_nodes),
        cmocka_unit_test(test_search_plays_its_leaves_out),
        cmocka_unit_test(test_search_weighs_the_final_lead),
        cmocka_unit_test(test_expert_plays_out_where_the_game_asks),
        cmocka_unit_test(test_search_takes_a_sure_win),
        cmocka_unit_test(test_cpu_cap_stops_a_search),
        cmocka_unit_test(test_levels_cap_counts_from_the_decision),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
