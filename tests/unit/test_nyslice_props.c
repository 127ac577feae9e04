/* test_nyslice_props.c -- properties of New York Slice over thousands of
 * seeded random games for every player count:
 *  - every slice and Special is accounted for after every action;
 *  - the Guest Check equals an independent recount from the final table;
 *  - a record of the game (seed + action texts) replays to the same state;
 *  - no view ever holds what its seat may not know: a seat's view of the
 *    real state equals its view of any state determinized for that seat. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "support.h"

#define GAMES_PER_COUNT 1000
#define VIEW_GAMES_PER_COUNT 60

static nys_rules rules_for[NYS_MAX_PLAYERS + 1];

static int setup(void **state)
{
    (void)state;
    for (int n = NYS_MIN_PLAYERS; n <= NYS_MAX_PLAYERS; n++)
        ts_rules(&rules_for[n], n);
    return 0;
}

/* ---- An independent recount, written straight from NYS-E1..E6 ---- */

typedef struct recount {
    double total[NYS_MAX_PLAYERS];
    int eaten[NYS_MAX_PLAYERS];
    int winners;
} recount;

static bool holds(const nys_state *st, int seat, int sp)
{
    return st->special_owner[sp] == seat;
}

static void recount_game(const nys_state *st, recount *out)
{
    int n = st->players;
    double count[NYS_MAX_PLAYERS][NYS_TYPE_SLOTS] = {{0}};
    memset(out, 0, sizeof *out);
    for (int p = 0; p < n; p++) {
        double pts = 0, pep = 0, anch = 0;
        int eaten = 0, eaten_combo = 0, eaten_veg = 0;
        bool anchovy_slice = false;
        for (int i = 0; i < st->nslices; i++) {
            const nys_slice *s = &st->slice[i];
            if (st->loc[i] == (NYS_LOC_EATEN | p)) {
                eaten++;
                pep += s->kind == NYS_SUPREME ? 2 : s->pep;
                eaten_combo += s->kind == NYS_COMBO;
                eaten_veg += s->kind == NYS_NUMBERED && s->type == 3;
            } else if (st->loc[i] == (NYS_LOC_COLLECTED | p)) {
                anch += s->kind == NYS_ANCHOVY ? 3 : s->anch;
                anchovy_slice |= s->kind == NYS_ANCHOVY;
                if (s->kind == NYS_NUMBERED)
                    count[p][s->type] += 1;
                if (s->kind == NYS_SUPREME && st->supreme_type)
                    count[p][st->supreme_type] += 1;
                if (s->kind == NYS_COMBO) {
                    double w = holds(st, p, NYS_SUPERSIZE_COMBOS) ? 2 : 0.5;
                    count[p][s->type] += w;
                    count[p][s->type2] += w;
                }
            }
        }
        pts += holds(st, p, NYS_YOU_LIKE_ANCHOVIES) ? pep + anch : pep - anch;
        if (holds(st, p, NYS_BUFFET)) {
            for (int t = 3; t <= 11; t++)
                pts += count[p][t] > 0;
            pts += anchovy_slice;
        }
        pts += holds(st, p, NYS_COMBO_CRAVING) ? 3 * eaten_combo : 0;
        pts += holds(st, p, NYS_YOU_LOVE_VEGGIES) ? 3 * eaten_veg : 0;
        pts -= holds(st, p, NYS_DAY_OLD_PIZZA) ? 2 : 0;
        pts += holds(st, p, NYS_STUFFED_CRUST) ? 5 : 0;
        out->total[p] = pts;
        out->eaten[p] = eaten;
    }
    for (int p = 0; p < n; p++) {
        int diet = st->special_owner[NYS_EVERYONE_ELSE_DIET];
        if (diet != NYS_NONE && diet != p)
            out->total[p] -= out->eaten[p] / 2;
    }
    for (int t = 3; t <= 11; t++) {
        double best = 0;
        for (int p = 0; p < n; p++)
            best = count[p][t] > best ? count[p][t] : best;
        int tied = 0, tb = -1, only = -1;
        for (int p = 0; p < n; p++)
            if (best > 0 && count[p][t] == best) {
                tied++;
                only = p;
                if (holds(st, p, NYS_TIEBREAKER))
                    tb = p;
            }
        if (tied == 1)
            out->total[only] += t;
        else if (tied > 1 && tb >= 0)
            out->total[tb] += t;
    }
    for (int p = 0; p < n; p++) {
        bool best = true;
        for (int q = 0; q < n; q++)
            if (out->total[q] > out->total[p] ||
                (out->total[q] == out->total[p] && out->eaten[q] > out->eaten[p]))
                best = false;
        if (best)
            out->winners |= 1 << p;
    }
}

/* ---- One random game, checked after every action ---- */

typedef struct played {
    char actions[400][64];
    int nactions;
} played;

static void play_checked(nys_state *st, const nys_rules *r, uint64_t seed, played *log)
{
    char err[PB_ERR_LEN];
    pb_rng rng;
    pb_rng_seed(&rng, seed ^ 0xabcdefu);
    nys_init(st, r, seed);
    log->nactions = 0;
    if (nys_check_invariants(st, err, sizeof err) != 0)
        fail_msg("seed %llu at setup: %s", (unsigned long long)seed, err);
    while (nys_current_seat(st) != PB_TERMINAL) {
        pb_action a = nys_random_action(st, &rng);
        assert_true(log->nactions < 400);
        if (nys_action_to_text(st, a, log->actions[log->nactions], 64) != 0)
            fail_msg("seed %llu: random action has no notation", (unsigned long long)seed);
        log->nactions++;
        if (nys_apply(st, a, err, sizeof err) != 0)
            fail_msg("seed %llu: random action refused: %s", (unsigned long long)seed, err);
        if (nys_check_invariants(st, err, sizeof err) != 0)
            fail_msg("seed %llu after '%s': %s", (unsigned long long)seed,
                     log->actions[log->nactions - 1], err);
    }
}

static void test_every_slice_accounted_score_recount_and_replay(void **state)
{
    (void)state;
    static played log;
    for (int n = NYS_MIN_PLAYERS; n <= NYS_MAX_PLAYERS; n++) {
        for (int g = 0; g < GAMES_PER_COUNT; g++) {
            uint64_t seed = pb_derive_seed((uint64_t)n, (uint64_t)g);
            nys_state st, again;
            play_checked(&st, &rules_for[n], seed, &log);
            /* NYS-E7 report against the independent recount. */
            nys_guest_check gc;
            nys_score_state(&st, &gc);
            recount rc;
            recount_game(&st, &rc);
            for (int p = 0; p < n; p++) {
                if (fabs(rc.total[p] - gc.line[p].total) > 1e-9 || rc.eaten[p] != gc.line[p].eaten)
                    fail_msg("%d players seed %llu seat %d: engine total %d eaten %d, recount %g %d", n,
                             (unsigned long long)seed, p, gc.line[p].total, gc.line[p].eaten,
                             rc.total[p], rc.eaten[p]);
            }
            assert_int_equal(gc.winners, rc.winners);
            /* The record replays to the very same state. */
            nys_init(&again, &rules_for[n], seed);
            for (int i = 0; i < log.nactions; i++)
                ts_do(&again, log.actions[i]);
            assert_memory_equal(&st, &again, sizeof st);
        }
    }
}

/* ---- Views leak nothing ---- */

static char *view_text(const nys_state *st, const nys_rules *r, int seat)
{
    json_t *v = nys_view(st, r, seat);
    char *s = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(v);
    return s;
}

static void test_views_equal_under_determinization(void **state)
{
    (void)state;
    int hidden_changed = 0;
    for (int n = NYS_MIN_PLAYERS; n <= NYS_MAX_PLAYERS; n++) {
        for (int g = 0; g < VIEW_GAMES_PER_COUNT; g++) {
            uint64_t seed = pb_derive_seed(100u + (uint64_t)n, (uint64_t)g);
            nys_state st;
            pb_rng rng;
            pb_rng_seed(&rng, seed);
            nys_init(&st, &rules_for[n], seed);
            char err[PB_ERR_LEN];
            for (int step = 0; nys_current_seat(&st) != PB_TERMINAL; step++) {
                if (step % 5 == 0) {
                    for (int seat = -1; seat < n; seat++) {
                        nys_state det = st;
                        nys_determinize(&det, seat, &rng);
                        if (nys_check_invariants(&det, err, sizeof err) != 0)
                            fail_msg("determinized for seat %d: %s", seat, err);
                        hidden_changed += memcmp(det.stack, st.stack, sizeof st.stack) != 0;
                        char *a = view_text(&st, &rules_for[n], seat);
                        char *b = view_text(&det, &rules_for[n], seat);
                        if (strcmp(a, b) != 0)
                            fail_msg("%d players seed %llu step %d: seat %d's view changes when "
                                     "hidden things are reshuffled:\n%s\n%s",
                                     n, (unsigned long long)seed, step, seat, a, b);
                        free(a);
                        free(b);
                        /* The bots' evaluation may use only what the seat knows too. */
                        if (seat >= 0) {
                            double ev_real[NYS_MAX_PLAYERS], ev_det[NYS_MAX_PLAYERS];
                            nys_expected_scores(&st, seat, ev_real);
                            nys_expected_scores(&det, seat, ev_det);
                            for (int q = 0; q < n; q++)
                                if (fabs(ev_real[q] - ev_det[q]) > 1e-9)
                                    fail_msg("%d players seed %llu step %d: seat %d's evaluation of seat %d "
                                             "depends on hidden slices", n, (unsigned long long)seed, step, seat, q);
                        }
                    }
                }
                nys_apply(&st, nys_random_action(&st, &rng), err, sizeof err);
            }
        }
    }
    /* The check above could not fail if determinize changed nothing. */
    assert_true(hidden_changed > 100);
}

/* The seat's view as text without its `seat` member. */
static char *view_text_unseated(const nys_state *st, const nys_rules *r, int seat)
{
    json_t *v = nys_view(st, r, seat);
    json_object_del(v, "seat");
    char *s = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(v);
    return s;
}

/* A server gives a seat the spectators' view (with its own `seat`) when
 * nys_view_is_public says so: that must be exactly the seat's view, and a
 * seat it turns away must see something more (but for a legal list too
 * long to give). Checked every third action of random games at every
 * player count, Mystery slices included. */
static void test_public_views_are_the_spectators(void **state)
{
    (void)state;
    int shared = 0, own = 0, mystery_owned = 0;
    for (int n = NYS_MIN_PLAYERS; n <= NYS_MAX_PLAYERS; n++) {
        for (int g = 0; g < VIEW_GAMES_PER_COUNT; g++) {
            uint64_t seed = pb_derive_seed(300u + (uint64_t)n, (uint64_t)g);
            nys_state st;
            pb_rng rng;
            pb_rng_seed(&rng, seed);
            nys_init(&st, &rules_for[n], seed);
            char err[PB_ERR_LEN];
            for (int step = 0;; step++) {
                char *public = step % 3 ? NULL : view_text_unseated(&st, &rules_for[n], PB_SPECTATOR);
                for (int seat = 0; public && seat < n; seat++) {
                    char *mine = view_text_unseated(&st, &rules_for[n], seat);
                    bool same = strcmp(mine, public) == 0;
                    /* the one allowed miss: a seat to move whose legal moves
                     * were too many to list sees no more than spectators */
                    bool too_many = same && seat == st.actor;
                    if (same != nys_view_is_public(&st, seat) && !too_many)
                        fail_msg("%d players seed %llu step %d: seat %d's view %s the spectators' but "
                                 "nys_view_is_public says %s:\n%s\n%s", n, (unsigned long long)seed, step, seat,
                                 same ? "is" : "is not", same ? "no" : "yes", mine, public);
                    shared += same;
                    own += !same;
                    mystery_owned += st.mystery != NYS_NONE && st.mystery_owner == seat;
                    free(mine);
                }
                free(public);
                if (nys_current_seat(&st) == PB_TERMINAL)
                    break;
                nys_apply(&st, nys_random_action(&st, &rng), err, sizeof err);
            }
        }
    }
    /* Both answers were given, and with a Mystery slice held. */
    assert_true(shared > 1000 && own > 1000 && mystery_owned > 100);
}

/* The news of a reveal that sends Specials back to the box (with what the
 * engine did alone before it) names every one of them, whole, in the room a
 * server's log entry has (768 characters). */
static void test_NYS_S4_news_names_every_special_sent_back(void **state)
{
    (void)state;
    size_t longest = 0;
    for (uint64_t seed = 1; seed <= 4000; seed++) {
        nys_state st, before;
        pb_rng rng;
        pb_rng_seed(&rng, seed);
        nys_init(&st, &rules_for[2], seed);
        char err[PB_ERR_LEN], news[768];
        while (nys_current_seat(&st) != PB_TERMINAL) {
            before = st;
            nys_apply(&st, nys_random_action(&st, &rng), err, sizeof err);
            if (st.round == before.round || st.round >= st.rounds || !st.replaced_now)
                continue;
            nys_news(&rules_for[2], &before, &st, news, sizeof news);
            longest = strlen(news) > longest ? strlen(news) : longest;
            for (int sp = 0; sp < NYS_SPECIAL_COUNT; sp++) {
                char said[160];
                snprintf(said, sizeof said, "%s was revealed first and went back to the box (%s).",
                         nys_special_name(sp), nys_special_unplayable(&st, sp));
                if (st.replaced_now >> sp & 1u && !strstr(news, said))
                    fail_msg("seed %llu round %d: the news leaves out %s: %s", (unsigned long long)seed,
                             st.round + 1, nys_special_name(sp), news);
            }
        }
    }
    /* such news outgrew the 256 characters a log entry once held */
    assert_true(longest > 256);
}

/* A seat's own Mystery slice is in its view, and hidden from the others
 * once eaten (NYS-T5). */
static void test_NYS_T5_eaten_mystery_only_in_owner_view(void **state)
{
    (void)state;
    int checked = 0;
    for (int g = 0; g < 3000 && checked < 20; g++) {
        nys_state st;
        pb_rng rng;
        pb_rng_seed(&rng, (uint64_t)g);
        nys_init(&st, &rules_for[4], (uint64_t)g);
        char err[PB_ERR_LEN];
        while (nys_current_seat(&st) != PB_TERMINAL) {
            nys_apply(&st, nys_random_action(&st, &rng), err, sizeof err);
            if (st.mystery != NYS_NONE && NYS_LOC_KIND(st.loc[st.mystery]) == NYS_LOC_EATEN)
                break;
        }
        if (st.mystery == NYS_NONE || NYS_LOC_KIND(st.loc[st.mystery]) != NYS_LOC_EATEN)
            continue;
        checked++;
        int owner = st.mystery_owner;
        for (int seat = -1; seat < 4; seat++) {
            json_t *v = nys_view(&st, &rules_for[4], seat);
            json_t *eaten = json_object_get(json_array_get(json_object_get(v, "players"), (size_t)owner), "eaten");
            int question = 0;
            for (size_t i = 0; i < json_array_size(eaten); i++)
                question += strcmp(json_string_value(json_array_get(eaten, i)), "?") == 0;
            assert_int_equal(question, seat == owner ? 0 : 1);
            assert_int_equal(json_object_get(v, "mystery") != NULL, seat == owner);
            json_decref(v);
        }
    }
    assert_true(checked >= 20);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_slice_accounted_score_recount_and_replay),
        cmocka_unit_test(test_views_equal_under_determinization),
        cmocka_unit_test(test_public_views_are_the_spectators),
        cmocka_unit_test(test_NYS_S4_news_names_every_special_sent_back),
        cmocka_unit_test(test_NYS_T5_eaten_mystery_only_in_owner_view),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
