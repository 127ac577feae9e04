/* test_delivery_payset.c -- New York Pizza Delivery: a payment or a discard
 * of several parts as one move. Over seeded random games, wherever a price,
 * a distance, Property Tax or a discard is due: a whole payment and a part
 * of it, chosen step by step as the listing offers them, join into one move
 * that is legal, reads as one line ("pay $2 MT/Ham power:mob-boss") and back,
 * and leaves the game exactly as the steps one by one do. A set that asks
 * too much, or names a card not held, is refused with the reason and
 * changes nothing; a bot's payment is one move. The view says why an order
 * cannot be delivered, in the words its refusal would use. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../ai/bot.h"
#include "../../core/game.h"
#include "../../core/rng.h"
#include "../../games/delivery/delivery.h"

#define SEEDS 60

static pb_game *game(int players, bool expansion)
{
    char err[PB_ERR_LEN];
    json_t *config = json_pack("{s:i,s:b}", "players", players, "expansion", expansion);
    pb_game *g = pb_game_new("delivery", config, err, sizeof err);
    json_decref(config);
    assert_non_null(g);
    return g;
}

static bool set_phase(const pd_state *st)
{
    return st->phase == PD_PH_PAY || st->phase == PD_PH_DISTANCE || st->phase == PD_PH_TAX ||
           st->phase == PD_PH_DISCARD || (st->phase == PD_PH_SUPPLY && st->pending.nneeds + st->pending.extras > 0);
}

/* Is the listed step a part of a set here (not Cold Storage's card, Onions'
 * short or Extra Cheese, say)? */
static bool is_part(const pb_game *g, const pd_state *st, pb_action a)
{
    pb_action set;
    return g->ops->join(g, (const pb_state *)st, &a, 1, &set) == 0;
}

/* Steps chosen at random from the listing while the same decision goes on,
 * at most `most` of them; the state after them in `after`. */
static int random_parts(const pb_game *g, const pd_state *st, pb_rng *rng, int most, pb_action *parts, pd_state *after)
{
    static pb_action legal[PB_MAX_ACTIONS];
    char err[PB_ERR_LEN];
    int seat = pd_current_seat(st), n = 0;
    *after = *st;
    do {
        int k = 0, listed = pd_legal_actions(after, legal);
        for (int i = 0; i < listed; i++)
            if (is_part(g, after, legal[i]))
                legal[k++] = legal[i];
        if (k == 0)
            break;
        parts[n] = legal[pb_rng_below(rng, (uint32_t)k)];
        assert_int_equal(pd_apply(after, parts[n], err, sizeof err), 0);
        n++;
    } while (n < most && pd_current_seat(after) == seat && g->ops->continues(g, (const pb_state *)after, parts[n - 1]));
    return n;
}

/* The joined move: legal, one line of text that reads back as itself, and
 * the same game as its parts made one by one. */
static void check_set(const pb_game *g, const pd_state *st, const pb_action *parts, int n, const pd_state *after,
                      int *multi)
{
    char err[PB_ERR_LEN], text[256];
    pb_action set, back;
    assert_int_equal(g->ops->join(g, (const pb_state *)st, parts, n, &set), 0);
    assert_int_equal(PD_KIND(set), PD_A_SET);
    assert_true(pd_is_legal(st, set));
    assert_int_equal(pd_action_text(st, set, PD_EVERYONE_SEES_ALL, text, sizeof text), 0);
    const char *verb = st->phase == PD_PH_DISCARD ? "discard " : st->phase == PD_PH_SUPPLY ? "use " : "pay ";
    assert_int_equal(strncmp(text, verb, strlen(verb)), 0);
    if (pd_action_parse(st, text, &back, err, sizeof err) != 0)
        fail_msg("\"%s\" does not read back: %s", text, err);
    if (n > 1)
        assert_int_equal(back, set); /* one part reads as the single step, which does the same */
    pd_state *joined = malloc(sizeof *joined);
    assert_non_null(joined);
    *joined = *st;
    if (pd_apply(joined, set, err, sizeof err) != 0)
        fail_msg("\"%s\" refused: %s", text, err);
    if (st->phase == PD_PH_SUPPLY) { /* the ingredients may meet their needs in another order */
        assert_memory_equal(joined->pending.paid_cards, after->pending.paid_cards, sizeof after->pending.paid_cards);
        assert_true(joined->pending.paid_powers == after->pending.paid_powers);
        assert_int_equal(joined->pending.nneeds + joined->pending.extras, after->pending.nneeds + after->pending.extras);
        assert_int_equal(joined->phase, after->phase);
    } else {
        assert_memory_equal(joined, after, offsetof(pd_state, rules));
    }
    assert_int_equal(pd_check_invariants(joined, err, sizeof err), 0);
    free(joined);
    *multi += n > 1;
}

static void test_parts_join_into_one_move(void **state)
{
    (void)state;
    static const struct { int players; bool expansion; } tables[] = {{3, false}, {4, true}, {6, true}};
    int multi = 0, partial = 0, discards = 0, distances = 0, taxes = 0, uses = 0;
    pd_state *st = malloc(sizeof *st), *after = malloc(sizeof *after);
    assert_non_null(st);
    assert_non_null(after);
    for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++) {
        pb_game *g = game(tables[t].players, tables[t].expansion);
        for (uint64_t seed = 1; seed <= SEEDS; seed++) {
            pb_rng rng;
            pb_rng_seed(&rng, seed * 31 + t);
            g->ops->init(g, (pb_state *)st, seed);
            static pb_action legal[PB_MAX_ACTIONS];
            char err[PB_ERR_LEN];
            while (pd_current_seat(st) >= 0) {
                if (set_phase(st)) {
                    pb_action parts[PD_MAX_SET];
                    int n = random_parts(g, st, &rng, PD_MAX_SET, parts, after);
                    uses += st->phase == PD_PH_SUPPLY && n > 1;
                    if (n > 0)
                        check_set(g, st, parts, n, after, &multi);
                    discards += st->phase == PD_PH_DISCARD && n > 1;
                    distances += st->phase == PD_PH_DISTANCE && n > 1;
                    taxes += st->phase == PD_PH_TAX && n > 1;
                    if (n > 2) { /* a part of it: the rest stays due */
                        int k = random_parts(g, st, &rng, n - 1, parts, after);
                        check_set(g, st, parts, k, after, &multi);
                        partial += k > 1 && set_phase(after);
                    }
                }
                int k = pd_legal_actions(st, legal);
                assert_int_equal(pd_apply(st, legal[pb_rng_below(&rng, (uint32_t)k)], err, sizeof err), 0);
            }
        }
        pb_game_free(g);
    }
    printf("# %d sets of several parts (%d partial, %d discards, %d distances, %d taxes, %d ingredients)\n", multi,
           partial, discards, distances, taxes, uses);
    assert_true(multi > 100 && partial > 10 && discards > 10 && distances > 10 && uses > 10);
    free(st);
    free(after);
}

/* The first position of a seeded game where a build's price of at least $2
 * is due and the mover has money and cards to choose from. */
static bool find_price(const pb_game *g, pd_state *st)
{
    static pb_action legal[PB_MAX_ACTIONS];
    char err[PB_ERR_LEN];
    for (uint64_t seed = 1; seed < 400; seed++) {
        pb_rng rng;
        pb_rng_seed(&rng, seed);
        g->ops->init(g, (pb_state *)st, seed);
        while (pd_current_seat(st) >= 0) {
            if (st->phase == PD_PH_PAY && st->pending.due >= 2 && pd_money(st, st->seat) >= 1 &&
                st->pending.paid_money == 0 && st->player[st->seat].hand_size >= 2)
                return true;
            int k = pd_legal_actions(st, legal);
            assert_int_equal(pd_apply(st, legal[pb_rng_below(&rng, (uint32_t)k)], err, sizeof err), 0);
        }
    }
    return false;
}

static void test_refused_sets_change_nothing(void **state)
{
    (void)state;
    pb_game *g = game(3, false);
    pd_state *st = malloc(sizeof *st), *before = malloc(sizeof *before);
    assert_non_null(st);
    assert_non_null(before);
    assert_true(find_price(g, st));
    *before = *st;
    char err[PB_ERR_LEN] = "", text[64];
    pb_action a;
    /* more dollars than are due */
    snprintf(text, sizeof text, "pay $%d", st->pending.due + 1);
    assert_int_equal(pd_action_parse(st, text, &a, err, sizeof err), -1);
    assert_non_null(strstr(err, "more than is due"));
    /* a card the mover does not hold */
    snprintf(text, sizeof text, "pay $1 MT/Ham FD/Onions power:mob-boss");
    if (pd_action_parse(st, text, &a, err, sizeof err) == 0)
        fail_msg("\"%s\" accepted from a hand without those cards", text);
    assert_non_null(strstr(err, "the part"));
    /* nonsense money */
    assert_int_equal(pd_action_parse(st, "pay $x $1", &a, err, sizeof err), -1);
    assert_non_null(strstr(err, "sum of money"));
    /* a set whose argument names nothing held */
    assert_false(pd_is_legal(st, PD_ACTION(PD_A_SET, 0xFFFFFF)));
    assert_int_equal(pd_apply(st, PD_ACTION(PD_A_SET, 0xFFFFFF), err, sizeof err), -1);
    assert_non_null(strstr(err, "more than is due"));
    assert_int_equal(pd_apply(st, PD_ACTION(PD_A_SET, 0), err, sizeof err), -1);
    assert_memory_equal(st, before, offsetof(pd_state, rules));
    /* what is due in dollars, as one move: paid, the build made */
    snprintf(text, sizeof text, "pay $%d", st->pending.due);
    if (pd_money(st, st->seat) >= st->pending.due) {
        int money = pd_money(st, st->seat), due = st->pending.due;
        assert_int_equal(pd_action_parse(st, text, &a, err, sizeof err), 0);
        assert_int_equal(pd_apply(st, a, err, sizeof err), 0);
        assert_int_equal(pd_money(st, before->seat), money - due);
        assert_int_not_equal(st->phase, PD_PH_PAY);
    }
    free(st);
    free(before);
    pb_game_free(g);
}

/* A bot pays a price of several dollars or cards with one move. */
static void test_bot_pays_in_one_move(void **state)
{
    (void)state;
    pb_game *g = game(3, false);
    pd_state *st = malloc(sizeof *st);
    assert_non_null(st);
    assert_true(find_price(g, st));
    char err[PB_ERR_LEN];
    for (const char *const *spec = (const char *const[]){"random", "greedy", "mcts:iters=50", NULL}; *spec; spec++) {
        pb_bot *bot = pb_bot_new(*spec, 3, err, sizeof err);
        assert_non_null(bot);
        pb_action a = pb_bot_choose(bot, g, (const pb_state *)st, st->seat);
        assert_int_equal(PD_KIND(a), PD_A_SET);
        pd_state *after = malloc(sizeof *after);
        assert_non_null(after);
        *after = *st;
        assert_int_equal(pd_apply(after, a, err, sizeof err), 0);
        assert_int_not_equal(after->phase, PD_PH_PAY); /* paid in full: the build is made */
        free(after);
        pb_bot_free(bot);
    }
    free(st);
    pb_game_free(g);
}

/* The view tells the mover why each order cannot be delivered from each of
 * their pizzerias: the reason the move itself would get. (For the browser's
 * preview; it sits here with the other decisions' wording checks.) */
static void test_undeliverable_says_why(void **state)
{
    (void)state;
    pb_game *g = game(3, false);
    pd_state *st = malloc(sizeof *st);
    assert_non_null(st);
    int checked = 0;
    for (uint64_t seed = 1; seed <= 10; seed++) {
        pb_rng rng;
        pb_rng_seed(&rng, seed);
        g->ops->init(g, (pb_state *)st, seed);
        static pb_action legal[PB_MAX_ACTIONS];
        char err[PB_ERR_LEN];
        while (pd_current_seat(st) >= 0) {
            if (st->phase == PD_PH_START) {
                json_t *v = pd_view(st, st->seat), *u = json_object_get(v, "undeliverable"), *e;
                size_t i;
                assert_true(json_is_array(u));
                json_array_foreach(u, i, e) {
                    char move[64], why[PB_ERR_LEN];
                    pb_action a;
                    snprintf(move, sizeof move, "deliver %d from %s", (int)json_integer_value(json_object_get(e, "slot")),
                             json_string_value(json_object_get(e, "from")));
                    assert_int_equal(pd_action_parse(st, move, &a, why, sizeof why), -1);
                    const char *said = json_string_value(json_object_get(e, "why"));
                    if (!said || !*said || !strstr(why, said))
                        fail_msg("%s: the view says \"%s\", the move is refused with \"%s\"", move, said, why);
                    checked++;
                }
                json_decref(v);
            }
            int k = pd_legal_actions(st, legal);
            assert_int_equal(pd_apply(st, legal[pb_rng_below(&rng, (uint32_t)k)], err, sizeof err), 0);
        }
    }
    printf("# %d undeliverable orders, each with the refusal's reason\n", checked);
    assert_true(checked > 100);
    free(st);
    pb_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parts_join_into_one_move),
        cmocka_unit_test(test_refused_sets_change_nothing),
        cmocka_unit_test(test_bot_pays_in_one_move),
        cmocka_unit_test(test_undeliverable_says_why),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
