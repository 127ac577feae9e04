/* support.c -- see support.h. */
#include "support.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ts_rules(nys_rules *r, int players)
{
    nys_deck deck;
    nys_deck_default(&deck);
    nys_rules_setup(r, &deck, players, 0);
}

/* Find an in-play slice with this token not yet used. */
static int take_token(const nys_state *st, const char *tok, uint8_t *used)
{
    for (int nth = 0;; nth++) {
        int id = nys_find_slice(st, tok, nth);
        if (id < 0) {
            fail_msg("no unused slice '%s' in play", tok);
            return -1;
        }
        if (!used[id]) {
            used[id] = 1;
            return id;
        }
    }
}

void ts_deal(nys_state *st, const nys_rules *r, const char *const *stacks, int nstacks,
             const char *const *spares, const char *const *specials, int nspecials)
{
    /* A throwaway init tells us the in-play slice table. */
    nys_init(st, r, 1);
    int n = st->nslices, stack_slots = n - NYS_SPARES;
    uint8_t used[NYS_DECK_SLICES] = {0}, order[NYS_DECK_SLICES];
    assert_true(nstacks <= stack_slots);
    for (int i = 0; i < nstacks; i++)
        order[i] = (uint8_t)take_token(st, stacks[i], used);
    if (spares)
        for (int i = 0; i < NYS_SPARES; i++)
            order[stack_slots + i] = (uint8_t)take_token(st, spares[i], used);
    int next = 0;
    for (int i = nstacks; i < n; i++) {
        if (spares && i >= stack_slots)
            break;
        while (used[next])
            next++;
        used[next] = 1;
        order[i] = (uint8_t)next;
    }
    uint8_t sp[NYS_SPECIAL_COUNT], sused[NYS_SPECIAL_COUNT] = {0};
    for (int i = 0; i < nspecials; i++) {
        int s = nys_special_from_slug(specials[i]);
        assert_true(s >= 0);
        assert_false(sused[s]);
        sused[s] = 1;
        sp[i] = (uint8_t)s;
    }
    for (int i = nspecials, s = 0; i < NYS_SPECIAL_COUNT; i++) {
        while (sused[s])
            s++;
        sused[s] = 1;
        sp[i] = (uint8_t)s;
    }
    char err[PB_ERR_LEN];
    if (nys_init_arranged(st, r, 1, order, sp, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(nys_check_invariants(st, err, sizeof err), 0);
}

void ts_do(nys_state *st, const char *text)
{
    pb_action a;
    char err[PB_ERR_LEN];
    if (nys_action_from_text(st, text, &a, err, sizeof err) != 0)
        fail_msg("'%s' refused: %s", text, err);
    if (nys_apply(st, a, err, sizeof err) != 0)
        fail_msg("'%s' not applied: %s", text, err);
    if (nys_check_invariants(st, err, sizeof err) != 0)
        fail_msg("after '%s': %s", text, err);
}

void ts_refused(nys_state *st, const char *text, const char *why)
{
    nys_state before = *st;
    pb_action a;
    char err[PB_ERR_LEN] = "";
    int rc = nys_action_from_text(st, text, &a, err, sizeof err);
    if (rc == 0)
        rc = nys_apply(st, a, err, sizeof err);
    if (rc == 0)
        fail_msg("'%s' was accepted", text);
    if (why && !strstr(err, why))
        fail_msg("'%s' refused with '%s', expected '%s'", text, err, why);
    assert_memory_equal(&before, st, sizeof before);
}

static int count_at(const nys_state *st, uint8_t loc, const char *token)
{
    nys_slice want;
    int attached;
    if (nys_slice_parse(token, &want, &attached) != 0)
        fail_msg("bad token '%s'", token);
    int n = 0;
    for (int i = 0; i < st->nslices; i++)
        if (st->loc[i] == loc && nys_slice_equal(&st->slice[i], &want) &&
            (!attached || st->supreme_type == attached))
            n++;
    return n;
}

int ts_collected(const nys_state *st, int seat, const char *token)
{
    return count_at(st, (uint8_t)(NYS_LOC_COLLECTED | seat), token);
}

int ts_eaten(const nys_state *st, int seat, const char *token)
{
    return count_at(st, (uint8_t)(NYS_LOC_EATEN | seat), token);
}

int ts_eaten_total(const nys_state *st, int seat)
{
    int n = 0;
    for (int i = 0; i < st->nslices; i++)
        n += st->loc[i] == (NYS_LOC_EATEN | seat);
    return n;
}

int ts_is_legal(const nys_state *st, const char *text)
{
    static pb_action acts[PB_MAX_ACTIONS];
    int n = nys_legal_actions(st, acts);
    char buf[128];
    for (int i = 0; i < n; i++)
        if (nys_action_to_text(st, acts[i], buf, sizeof buf) == 0 && strcmp(buf, text) == 0)
            return 1;
    return 0;
}

void ts_play_out(nys_state *st, uint64_t seed)
{
    pb_rng rng;
    pb_rng_seed(&rng, seed);
    char err[PB_ERR_LEN];
    while (nys_current_seat(st) != PB_TERMINAL) {
        pb_action a = nys_random_action(st, &rng);
        if (nys_apply(st, a, err, sizeof err) != 0)
            fail_msg("random action refused: %s", err);
    }
}

void ts_assert_json(const json_t *j, const char *expected)
{
    char *text = json_dumps(j, JSON_COMPACT | JSON_ENCODE_ANY);
    assert_non_null(text);
    if (strcmp(text, expected) != 0)
        fail_msg("JSON %s, expected %s", text, expected);
    free(text);
}

char *ts_strip_ansi(const char *s)
{
    char *out = malloc(strlen(s) + 1), *o = out;
    assert_non_null(out);
    while (*s) {
        if (s[0] == '\x1b' && s[1] == '[') {
            s += 2 + strspn(s + 2, "0123456789;");
            assert_int_equal(*s, 'm');
            s++;
        } else {
            *o++ = *s++;
        }
    }
    *o = 0;
    return out;
}

pb_game *ts_game(const char *id, int players)
{
    char err[PB_ERR_LEN];
    json_t *config = json_pack("{s:i}", "players", players);
    pb_game *g = pb_game_new(id, config, err, sizeof err);
    json_decref(config);
    if (!g)
        fail_msg("%s for %d players: %s", id, players, err);
    return g;
}

bool ts_action_among(pb_action a, const pb_action *list, int n)
{
    for (int i = 0; i < n; i++)
        if (list[i] == a)
            return true;
    return false;
}

int ts_sure_win_position(const pb_game *g, pb_state *st, uint64_t seed, pb_action *sure, int max)
{
    static pb_action legal[PB_MAX_ACTIONS];
    pb_rng rng;
    for (uint64_t i = seed; i < seed + 500; i++) {
        g->ops->init(g, st, i);
        pb_rng_seed(&rng, i);
        while (g->ops->current_seat(g, st) != PB_TERMINAL) {
            int n = g->ops->sure_wins(g, st, sure, max);
            if (n > 0 && n < g->ops->legal_actions(g, st, legal))
                return n;
            g->ops->apply(g, st, g->ops->random_action(g, st, &rng), NULL, 0);
        }
    }
    fail_msg("%s: no decision with a sure win in 500 random games", g->ops->id);
    return 0;
}

void ts_assert_tidy(const char *plain)
{
    int col = 0;
    for (const char *s = plain; *s; s++) {
        if (*s == '\n') {
            col = 0;
            continue;
        }
        if (!isprint((unsigned char)*s))
            fail_msg("byte 0x%02x in:\n%s", (unsigned char)*s, plain);
        if (++col > 80)
            fail_msg("line longer than 80 columns in:\n%s", plain);
    }
    if (*plain)
        assert_int_equal(plain[strlen(plain) - 1], '\n');
}

char *ts_render(const pb_front *f, const json_t *v, const pb_tui_opts *o)
{
    char *table = f->table(v, o), *prompt = f->prompt(v, o), *banner = f->round_banner(v, o);
    assert_non_null(table);
    assert_non_null(prompt);
    char *texts[3] = {table, prompt, banner};
    for (int i = 0; i < 3; i++) {
        if (!texts[i])
            continue;
        char *plain = ts_strip_ansi(texts[i]);
        if (!o->colour)
            assert_string_equal(plain, texts[i]); /* no escapes without colour */
        ts_assert_tidy(plain);
        free(plain);
    }
    free(prompt);
    free(banner);
    return table;
}

/* The 2-player fixture (support.h). */
const char *const ts_fix2_rings[TS_FIX2_SLICES] = {
    "9p1", "9p1", "9p1a1", "9p2", "9p2", "9p2a1", "9p3", "9p3", "9p3", "4p1", "4p1",
    "11a1", "11", "11p1", "11p1", "11p1a1", "11p1", "11p2", "11p2", "11p2a1", "11p3", "11p3",
    "7", "7p1", "7p1", "7p1a1", "7p2", "7p2", "7p3", "6p1", "6p1", "6p1", "6p1a1",
    "6p2", "6p2", "5p1", "5p1", "5p1", "5p2a1", "5p2", "4p1a1", "A", "c4/11", "c5/9",
};
const char *const ts_fix2_spares[3] = {"S", "c6/7", "4p2"};
