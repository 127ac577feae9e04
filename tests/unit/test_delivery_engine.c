/* test_delivery_engine.c -- New York Pizza Delivery's engine on the default
 * data: setup (PD-S1..S6) and properties over seeded random games for 2 to
 * 6 players, with and without the 5-6 player expansion's cards and the
 * Extra Cheese cards, every legal
 * move chosen at random: after every move every
 * card, power card, tip token and disk is accounted for, money never drops
 * below zero, there is a legal move until the end, and every game ends by
 * the third Health Inspector (PD-O1) with a score for every seat (PD-E1);
 * a searching bot takes the Instant question as long with one answer as
 * with several. */
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
#include "../../games/delivery/internal.h"
#include "support.h"

#define GAMES_PER_COUNT 150
#define CHEESE_GAMES 50 /* per table with Extra Cheese */

/* Player counts, whether the expansion is in, co-op (0 competitive, else a
 * difficulty row; row 9 is a co-op game with goals small enough for random
 * play to win some), whether Extra Cheese is in, and whether the expansion's
 * power cards are in alone. */
static const struct {
    int players;
    bool expansion;
    int coop;
    bool extra_cheese;
    bool expansion_powers;
} tables[] = {{2, false, 0, false, false}, {3, false, 0, false, false}, {4, false, 0, false, false},
              {2, true, 0, false, false}, {4, true, 0, false, false}, {5, true, 0, false, false},
              {6, true, 0, false, false}, {1, false, 4, false, false}, {2, false, 8, false, false},
              {3, false, 9, false, false}, {4, true, 1, false, false}, {6, true, 4, false, false},
              {3, false, 0, true, false}, {4, true, 0, true, false}, {3, false, 0, false, true}};
#define TABLES (int)(sizeof tables / sizeof tables[0])
#define MAX_MOVES 20000

static pd_rules *rules;

static int setup(void **state)
{
    (void)state;
    rules = calloc(1, sizeof *rules);
    if (!rules)
        return -1;
    pd_data_default(&rules->data);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    free(rules);
    return 0;
}

static void table_rules(int t)
{
    pd_rules_init(rules, tables[t].players, -1);
    rules->expansion = tables[t].expansion;
    rules->expansion_powers = tables[t].expansion_powers;
    rules->extra_cheese = tables[t].extra_cheese;
    if (tables[t].coop) {
        pd_rules_coop(rules, tables[t].coop > PD_DIFFICULTIES ? PD_DIFFICULTIES : tables[t].coop);
        if (tables[t].coop > PD_DIFFICULTIES) {
            rules->goal_pizzas = 2;
            rules->goal_money = 4;
        }
    }
}

static void test_setup(void **state)
{
    (void)state;
    for (int t = 0; t < TABLES; t++) {
        int n = tables[t].players;
        if (tables[t].coop)
            continue; /* test_coop_setup */
        table_rules(t);
        pd_state st;
        pd_init(&st, rules, 42 + (uint64_t)n);
        char err[PB_ERR_LEN];
        assert_int_equal(pd_check_invariants(&st, err, sizeof err), 0);
        for (int s = 0; s < n; s++) {
            assert_int_equal(st.player[s].money, 5);          /* PD-S1 */
            assert_int_equal(st.player[s].hand_size, 5);
            assert_int_equal(st.player[s].disks, 12);
            assert_int_equal(__builtin_popcountll(st.kept_choice[s]), 2); /* PD-S3 */
        }
        assert_int_equal(st.open_size, 5); /* PD-S2 */
        for (int i = 0; i < PD_ORDER_SLOTS; i++) { /* PD-S4; Orders 5 and 6 only with Pandemic */
            assert_true(i < PD_BOARD_SLOTS ? st.order[i].kind >= 0 : st.order[i].kind < 0);
            assert_true(i < PD_BOARD_SLOTS ? st.order[i].tip != PD_NO_TIP : st.order[i].tip == PD_NO_TIP);
        }
        /* PD-S5: the three inspectors lie in the bottom third */
        int inspectors = 0;
        for (int i = 0; i < st.ndeck; i++)
            if (st.deck[i] == PD_CARD_INSPECTOR) {
                assert_true(i < st.timer);
                inspectors++;
            }
        assert_int_equal(inspectors, 3);
        assert_true(st.timer * 3 <= st.ndeck + 9);
        assert_int_equal(st.phase, PD_PH_KEEP);
        /* the expansion: 44 ANY cards more in the market deck, 12 tips and 3
         * NO TIP more; Extra Cheese: 18 cards more (PD-D3) */
        int cards = st.ndeck + st.open_size + 5 * n;
        for (int i = 0; i < PD_ORDER_SLOTS; i++)
            cards += st.order[i].ncards;
        assert_int_equal(cards, 144 + 3 + (tables[t].expansion ? 44 : 0) + (tables[t].extra_cheese ? 18 : 0));
        assert_int_equal(st.ntips, 48 + (tables[t].expansion ? 12 : 0));
        assert_int_equal(st.no_tips, 9 + (tables[t].expansion ? 3 : 0));
        /* the expansion's 26 power cards join the deck after the keep, with
         * the whole box or alone (PD-S3) */
        while (st.phase == PD_PH_KEEP) {
            pb_action a[PB_MAX_ACTIONS];
            assert_true(pd_legal_actions(&st, a) > 0);
            assert_int_equal(pd_apply(&st, a[0], err, sizeof err), 0);
        }
        int expansion_cards = 0;
        for (int i = 0; i < st.npower_deck; i++)
            expansion_cards += rules->data.cards.power[st.power_deck[i]].box == PD_EXPANSION;
        assert_int_equal(expansion_cards, tables[t].expansion || tables[t].expansion_powers ? 26 : 0);
        assert_int_equal(pd_check_invariants(&st, err, sizeof err), 0);
    }
}

/* PD-C1: 8 cards each, no money, 14 order cards and no order yet, the
 * pawn on Saturday, no card "Not for Co-Op" anywhere. */
static void test_coop_setup(void **state)
{
    (void)state;
    for (int t = 0; t < TABLES; t++) {
        if (!tables[t].coop)
            continue;
        table_rules(t);
        pd_state st;
        pd_init(&st, rules, 7 + (uint64_t)t);
        char err[PB_ERR_LEN];
        assert_int_equal(pd_check_invariants(&st, err, sizeof err), 0);
        for (int s = 0; s < tables[t].players; s++) {
            assert_int_equal(st.player[s].hand_size, 8);
            assert_int_equal(pd_money(&st, s), 0);
            for (uint64_t m = st.kept_choice[s]; m; m &= m - 1)
                assert_false(rules->data.cards.power[__builtin_ctzll(m)].not_for_coop);
        }
        for (int i = 0; i < PD_ORDER_SLOTS; i++)
            assert_int_equal(st.order[i].kind, -1);
        assert_int_equal(st.norder_deck, 14);
        assert_int_equal(st.norder_deck + st.norder_box, 20);
        assert_int_equal(st.day, 0);
        assert_int_equal(st.promo[PD_FRIDAY], PD_PROMO(PD_PROMO_EVENING, PD_PROMO_FRIDAY));
    }
}

static void test_random_games(void **state)
{
    (void)state;
    static pb_action legal[PB_MAX_ACTIONS];
    char err[PB_ERR_LEN];
    long reorders = 0, removals = 0; /* upgrades that chose the top card; what went over the limit */
    for (int t = 0; t < TABLES; t++) {
        int n = tables[t].players;
        table_rules(t);
        int games = tables[t].extra_cheese ? CHEESE_GAMES : GAMES_PER_COUNT;
        long moves = 0, deliveries = 0, won = 0, cheese = 0, copy_cat = 0, sale = 0;
        long pandemic = 0, outage = 0, extra_orders = 0; /* played, and Orders 5 and 6 delivered */
        for (int g = 0; g < games; g++) {
            pd_state st;
            pd_init(&st, rules, 1000 * (uint64_t)t + (uint64_t)g);
            pb_rng rng;
            pb_rng_seed(&rng, (uint64_t)g);
            int m = 0;
            static pb_action played[MAX_MOVES + 1];
            while (st.phase != PD_PH_OVER) {
                int k = pd_legal_actions(&st, legal);
                if (k == 0)
                    fail_msg("players %d game %d move %d: no legal move in phase %d", n, g, m, st.phase);
                pb_action a = legal[pb_rng_below(&rng, (uint32_t)k)];
                /* the notation reads back to the same move */
                char text[256];
                pb_action back;
                if (pd_action_text(&st, a, PD_EVERYONE_SEES_ALL, text, sizeof text) != 0 ||
                    pd_action_parse(&st, text, &back, err, sizeof err) != 0 || back != a)
                    fail_msg("players %d game %d move %d: \"%s\" does not read back: %s", n, g, m, text, err);
                played[m] = a;
                cheese += PD_KIND(a) == PD_A_CHEESE;
                reorders += PD_KIND(a) == PD_A_UPGRADE && PD_ARG(a) >> 20;
                removals += PD_KIND(a) == PD_A_REMOVE;
                pandemic += a == PD_ACTION(PD_A_POWER, rules->pc[PD_PC_PANDEMIC]);
                outage += a == PD_ACTION(PD_A_POWER, rules->pc[PD_PC_POWER_OUTAGE]);
                extra_orders += PD_KIND(a) == PD_A_DELIVER && (PD_ARG(a) & 0xF) >= PD_BOARD_SLOTS;
                copy_cat += PD_KIND(a) == PD_A_DELIVER && pd_deliver_owner(&st, a) != st.seat;
                sale += PD_KIND(a) == PD_A_DELIVER && st.special_sale;
                if (pd_apply(&st, a, err, sizeof err) != 0)
                    fail_msg("players %d game %d move %d: a listed move refused: %s", n, g, m, err);
                if (pd_check_invariants(&st, err, sizeof err) != 0)
                    fail_msg("players %d game %d move %d (action %08x): %s", n, g, m, a, err);
                if (m % 97 == 0 && st.phase != PD_PH_OVER) {
                    /* what the seat to move knows survives a determinization */
                    pd_state d = st;
                    int me = pd_current_seat(&st);
                    pd_determinize(&d, me, &rng);
                    if (pd_check_invariants(&d, err, sizeof err) != 0)
                        fail_msg("players %d game %d move %d, determinized: %s", n, g, m, err);
                    assert_memory_equal(d.player[me].hand, st.player[me].hand, sizeof st.player[me].hand);
                    assert_true(d.player[me].powers == st.player[me].powers);
                    assert_int_equal(pd_tip_money(&d, me), pd_tip_money(&st, me));
                    assert_memory_equal(d.order, st.order, sizeof st.order);
                    int now = pd_legal_actions(&st, legal);
                    assert_int_equal(pd_legal_actions(&d, legal), now);
                }
                if (++m > MAX_MOVES)
                    fail_msg("players %d game %d: no end after %d moves", n, g, m);
            }
            if (!rules->coop)
                assert_int_equal(st.inspectors, 3);
            else /* PD-C1: won, or lost to the third inspector or a promotion without an order card */
                assert_true(st.coop_result == PD_COOP_WON || st.inspectors == 3 ||
                            (st.coop_result == PD_COOP_LOST_ORDERS && st.norder_deck + st.norder_discard == 0));
            /* the same seed and moves give the identical state, byte for byte */
            pd_state again;
            pd_init(&again, rules, 1000 * (uint64_t)t + (uint64_t)g);
            for (int i = 0; i < m; i++)
                assert_int_equal(pd_apply(&again, played[i], err, sizeof err), 0);
            assert_memory_equal(&again, &st, offsetof(pd_state, rules));
            for (int s = 0; s < n; s++)
                deliveries += st.player[s].deliveries;
            moves += m;
            double ret[PD_PLAYERS], sum = 0;
            pd_returns(&st, ret);
            for (int s = 0; s < n; s++)
                sum += ret[s];
            if (rules->coop) { /* the team's one result */
                for (int s = 0; s < n; s++)
                    assert_true(ret[s] == (st.coop_result == PD_COOP_WON));
                won += st.coop_result == PD_COOP_WON;
            } else {
                assert_true(sum > 0.999 && sum < 1.001);
            }
        }
        char cheesy[64] = "";
        if (tables[t].extra_cheese)
            snprintf(cheesy, sizeof cheesy, " (%ld with a cheese card added)", cheese);
        printf("# %d players%s%s%s: %ld moves and %ld deliveries%s (%ld with Copy Cat, %ld on a Special Sale) in %d "
               "random games, %ld won\n",
               n, tables[t].expansion ? " with the expansion" : tables[t].expansion_powers ? " with its power cards" : "",
               tables[t].extra_cheese ? " and Extra Cheese" : "",
               tables[t].coop ? " co-op" : "", moves, deliveries, cheesy, copy_cat, sale, games, won);
        if (tables[t].expansion) {
            printf("#   Pandemic played %ld times (%ld deliveries of Orders 5 and 6), Power Outage %ld\n", pandemic,
                   extra_orders, outage);
            assert_true(pandemic > 0 && outage > 0 && extra_orders > 0);
        }
        assert_true(deliveries > 0);
        if (!pd_expansion_powers(rules)) /* the expansion's cards only with it */
            assert_true(copy_cat == 0 && sale == 0);
        else
            assert_true(copy_cat > 0);
        assert_true(tables[t].extra_cheese ? cheese > 0 : cheese == 0);
        if (tables[t].coop > PD_DIFFICULTIES)
            assert_true(won > 0);
    }
    printf("# %ld upgrades chose the top card, %ld disks or cards went over the limit\n", reorders, removals);
    assert_true(reorders > 0 && removals > 0);
}

/* The deliveries listed at the start of a turn are exactly those with a
 * quote (pd_delivery_quote_from: the route, then every ingredient matched
 * and every card paid): the listing's shortcuts (a quick proof that the
 * hand is short, the hand matched once per pizzeria) never drop a delivery
 * the rules allow nor list one they do not. */
static void test_deliveries_listed_are_those_quoted(void **state)
{
    (void)state;
    static pb_action legal[PB_MAX_ACTIONS], listed[PB_MAX_ACTIONS];
    char err[PB_ERR_LEN];
    long positions = 0, deliveries = 0, copies = 0;
    for (int t = 0; t < TABLES; t++) {
        table_rules(t);
        const pd_map *map = &rules->data.map;
        for (int g = 0; g < 6; g++) {
            pd_state st;
            pd_init(&st, rules, 7000 + 1000 * (uint64_t)t + (uint64_t)g);
            pb_rng rng;
            pb_rng_seed(&rng, (uint64_t)g);
            for (int m = 0; st.phase != PD_PH_OVER && m < MAX_MOVES; m++) {
                if (st.phase == PD_PH_START) {
                    int n = pd_list_deliveries(&st, listed, 0), quoted = 0;
                    bool copy_cat = pd_has(&st, st.seat, PD_PC_COPY_CAT);
                    for (int owner = 0; owner < st.players; owner++)
                        for (int slot = 0; (owner == st.seat || copy_cat) && slot < PD_ORDER_SLOTS; slot++) {
                            bool any_zone = pd_order_village(&st, slot) < 0;
                            for (int v = 0; v < map->nvillages; v++)
                                for (int to = any_zone ? 0 : -1; to < (any_zone ? map->nvillages : 0); to++)
                                    for (unsigned modes = 0; modes < PD_ROUTE_MODES; modes++) {
                                        pd_quote q;
                                        if (pd_delivery_quote_from(&st, st.seat, owner, slot, v, to, modes, &q) != 0)
                                            continue;
                                        pb_action a = PD_ACTION(PD_A_DELIVER,
                                                                (unsigned)slot | (unsigned)v << 4 | modes << 8 |
                                                                    (unsigned)(to + 1) << 12 |
                                                                    (unsigned)(owner == st.seat ? 0 : owner + 1) << 16);
                                        if (!ts_action_among(a, listed, n))
                                            fail_msg("table %d game %d move %d: delivery %08x has a quote and is "
                                                     "not listed", t, g, m, a);
                                        quoted++;
                                        copies += owner != st.seat;
                                    }
                        }
                    assert_int_equal(n, quoted); /* and none listed without a quote */
                    positions++;
                    deliveries += n;
                }
                int k = pd_legal_actions(&st, legal);
                assert_true(k > 0);
                assert_int_equal(pd_apply(&st, legal[pb_rng_below(&rng, (uint32_t)k)], err, sizeof err), 0);
            }
        }
    }
    printf("# %ld turn starts: %ld deliveries listed and quoted (%ld with Copy Cat)\n", positions, deliveries,
           copies);
    assert_true(deliveries > 100);
}

/* The rules' table of what supplies a need (PD-D4, PD-P2): a need of one
 * ingredient takes that card or a wild of its group or Any Ingredient; a
 * need of any meat takes every meat and the meat wilds; never cheese. */
static unsigned supplied(const char *need, int group)
{
    int i = need ? pd_ingredient_find(&rules->data.cards, need) : -1;
    assert_true(!need || i >= 0);
    return rules->supplied_by[i + 1][group];
}

static unsigned ingredient_set(const char *const *names)
{
    unsigned set = 0;
    for (; *names; names++) {
        int i = pd_ingredient_find(&rules->data.cards, *names);
        assert_true(i >= 0);
        set |= 1u << i;
    }
    return set;
}

static void test_suppliers_of_a_need(void **state)
{
    (void)state;
    table_rules(0);
    static const char *const ham[] = {"Ham", "Any Meat", "Any Ingredient", NULL};
    static const char *const onions[] = {"Onions", "Any Vegetable", "Any Ingredient", NULL};
    static const char *const meat[] = {"Pepperoni", "Sausage", "Ham", "Meatballs", "Any Meat", "Any Ingredient", NULL};
    static const char *const any[] = {"Pepperoni", "Sausage", "Ham", "Meatballs", "Peppers", "Onions", "Tomatoes",
                                      "Pineapple", "Any Meat", "Any Vegetable", "Any Ingredient", NULL};
    assert_int_equal(supplied("Ham", PD_MEAT), ingredient_set(ham));
    assert_int_equal(supplied("Onions", PD_VEGETABLE), ingredient_set(onions));
    assert_int_equal(supplied(NULL, PD_MEAT), ingredient_set(meat));
    assert_int_equal(supplied(NULL, PD_ANY_INGREDIENT), ingredient_set(any));
}

/* The map's table of routes across the Park Path (what deliveries are
 * priced with) is the routed length from every lot's door to every zone. */
static void test_routes_across_the_park_table(void **state)
{
    (void)state;
    const pd_map *m = &rules->data.map;
    int routes = 0;
    for (unsigned modes = PD_ROUTE_PARK; modes < PD_ROUTE_MODES; modes += 2)
        for (int l = 0; l < m->nlots; l++)
            for (int v = 0; v < m->nvillages; v++) {
                int len = pd_route_length_across(m, m->lot[l].door, m->village[v].zone, modes);
                assert_int_equal(m->across[modes >> 1][l][v], len);
                routes += len > 0;
            }
    assert_true(routes > 0);
}

/* pb_sort_u8 (the determinizations' canonical order before a shuffle)
 * sorts: pools of every size, of few values and of all 256. */
static int by_value(const void *a, const void *b)
{
    return *(const uint8_t *)a - *(const uint8_t *)b;
}

static void test_sort_u8_sorts(void **state)
{
    (void)state;
    pb_rng rng;
    pb_rng_seed(&rng, 5);
    static uint8_t a[600], want[600];
    for (int n = 0; n <= 600; n += n < 40 ? 1 : 37)
        for (uint32_t values = 1; values <= 256; values *= 4) {
            for (int i = 0; i < n; i++)
                a[i] = (uint8_t)(values == 256 && i % 2 ? 255 - pb_rng_below(&rng, 3) : pb_rng_below(&rng, values));
            memcpy(want, a, (size_t)n);
            qsort(want, (size_t)n, 1, by_value);
            pb_sort_u8(a, n);
            if (n > 0)
                assert_memory_equal(a, want, (size_t)n);
        }
}

/* A payment or discard: a bot's move is all its parts, the later of
 * which may be choices. */
static bool in_parts(const pd_state *st)
{
    return st->phase == PD_PH_PAY || st->phase == PD_PH_DISTANCE || st->phase == PD_PH_TAX ||
           st->phase == PD_PH_DISCARD;
}

/* The Instant question is asked alike of every holder of a power card: a
 * searching bot searches it even with "done" its only answer, so the time
 * it takes tells nobody whether it had a card; other one-move decisions
 * are made at once. */
static void test_asked_alike_is_searched(void **state)
{
    (void)state;
    char err[PB_ERR_LEN];
    json_t *config = json_pack("{s:i}", "players", 5);
    pb_game *g = pb_game_new("delivery", config, err, sizeof err);
    json_decref(config);
    assert_non_null(g);
    pb_bot *bot = pb_bot_new("mcts:iters=64", 1, err, sizeof err);
    assert_non_null(bot);
    static pb_action legal[PB_MAX_ACTIONS];
    int formalities = 0, single = 0;
    for (uint64_t seed = 1; seed < 40 && (formalities < 3 || single < 3); seed++) {
        pb_state *st = pb_state_new(g, seed);
        pb_rng rng;
        pb_rng_seed(&rng, seed);
        while (!pb_is_terminal(g, st) && (formalities < 3 || single < 3)) {
            int seat = pb_current_seat(g, st), n = g->ops->legal_actions(g, st, legal);
            if (n == 1 && pb_is_asked_alike(g, st)) {
                assert_true(pb_is_formality(g, st));
                pb_bot_choose(bot, g, st, seat);
                assert_int_equal(pb_bot_searches(bot), 64);
                formalities++;
            } else if (n == 1 && single < 3 && !in_parts((const pd_state *)st)) {
                assert_false(pb_is_formality(g, st));
                pb_bot_choose(bot, g, st, seat);
                assert_int_equal(pb_bot_searches(bot), 0);
                single++;
            }
            assert_int_equal(g->ops->apply(g, st, legal[pb_rng_below(&rng, (uint32_t)n)], err, sizeof err), 0);
        }
        free(st);
    }
    assert_true(formalities >= 3 && single >= 3);
    pb_bot_free(bot);
    pb_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_asked_alike_is_searched),
        cmocka_unit_test(test_setup),
        cmocka_unit_test(test_coop_setup),
        cmocka_unit_test(test_random_games),
        cmocka_unit_test(test_deliveries_listed_are_those_quoted),
        cmocka_unit_test(test_sort_u8_sorts),
        cmocka_unit_test(test_suppliers_of_a_need),
        cmocka_unit_test(test_routes_across_the_park_table),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
