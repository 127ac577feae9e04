/* score.c -- the Guest Check (NYS-E2..E7) and the scoring file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/error.h"
#include "../../core/jsonutil.h"
#include "nyslice.h"

#define BIT(n) (1u << (n))

void nys_score(const nys_tally *tally, int players, nys_guest_check *out)
{
    memset(out, 0, sizeof *out);
    out->players = players;
    for (int p = 0; p < players; p++) {
        const nys_tally *t = &tally[p];
        nys_check *c = &out->line[p];
        /* NYS-E2: counts in half slices; a Combo is 1/2, or 2 with Supersize. */
        int combo_half = (t->specials >> NYS_SUPERSIZE_COMBOS & 1u) ? 4 : 1;
        for (int ty = NYS_MIN_TYPE; ty <= NYS_MAX_TYPE; ty++)
            c->count2[ty] = 2 * t->whole[ty] + combo_half * t->combos[ty];
        c->eaten = t->eaten;
        /* NYS-E5 */
        int anch = t->anch_collected;
        c->likes_anchovies = t->specials >> NYS_YOU_LIKE_ANCHOVIES & 1u;
        c->pepperoni = t->pep_eaten + (c->likes_anchovies ? anch : -anch);
    }
    /* NYS-E3: a unique highest count above 0 wins the type; a tie scores
     * nothing unless a tied player holds Tiebreaker. */
    for (int ty = NYS_MIN_TYPE; ty <= NYS_MAX_TYPE; ty++) {
        int best = 0, nbest = 0, winner = -1;
        for (int p = 0; p < players; p++) {
            int c = out->line[p].count2[ty];
            if (c > best) {
                best = c;
                nbest = 1;
                winner = p;
            } else if (c == best && c > 0) {
                nbest++;
            }
        }
        if (nbest > 1) {
            winner = -1;
            for (int p = 0; p < players; p++)
                if (out->line[p].count2[ty] == best && (tally[p].specials >> NYS_TIEBREAKER & 1u))
                    winner = p;
        }
        if (winner >= 0) {
            out->line[winner].majorities += ty;
            out->line[winner].types_won |= (uint16_t)BIT(ty);
        }
    }
    /* NYS-E4: the Special* line. */
    for (int p = 0; p < players; p++) {
        const nys_tally *t = &tally[p];
        nys_check *c = &out->line[p];
        uint16_t sp = t->specials;
        if (sp & BIT(NYS_BUFFET)) {
            for (int ty = NYS_MIN_TYPE; ty <= NYS_MAX_TYPE; ty++)
                c->specials += c->count2[ty] > 0;
            c->specials += t->anchovy_collected;
        }
        if (sp & BIT(NYS_COMBO_CRAVING))
            c->specials += 3 * t->eaten_combos;
        if (sp & BIT(NYS_DAY_OLD_PIZZA))
            c->specials -= 2;
        if (sp & BIT(NYS_STUFFED_CRUST))
            c->specials += 5;
        if (sp & BIT(NYS_YOU_LOVE_VEGGIES))
            c->specials += 3 * t->eaten_veggies;
        if (sp & BIT(NYS_EVERYONE_ELSE_DIET))
            for (int q = 0; q < players; q++)
                if (q != p)
                    out->line[q].specials -= tally[q].eaten / 2;
    }
    /* NYS-E6: total, then most eaten slices, then a shared win. */
    int best = 0, best_eaten = 0;
    for (int p = 0; p < players; p++) {
        nys_check *c = &out->line[p];
        c->total = c->majorities + c->specials + c->pepperoni;
        if (p == 0 || c->total > best || (c->total == best && c->eaten > best_eaten)) {
            best = c->total;
            best_eaten = c->eaten;
        }
    }
    for (int p = 0; p < players; p++)
        if (out->line[p].total == best && out->line[p].eaten == best_eaten)
            out->winners |= (uint8_t)BIT(p);
}

/* Add one slice to a tally; an attached Supreme counts for its type. */
static void tally_add(nys_tally *t, const nys_slice *s, bool eaten, int supreme_type)
{
    nys_tally_slice(t, s, eaten, 1);
    if (!eaten && s->kind == NYS_SUPREME && supreme_type)
        t->whole[supreme_type]++; /* NYS-T4: never attached counts for no type */
}

void nys_tally_state(const nys_state *st, nys_tally *tally)
{
    memcpy(tally, st->tally, sizeof(nys_tally) * st->players);
    for (int p = 0; p < st->players; p++)
        tally[p].specials = st->specials_of[p];
    if (st->supreme != NYS_NONE && st->supreme_type &&
        NYS_LOC_KIND(st->loc[st->supreme]) == NYS_LOC_COLLECTED)
        tally[NYS_LOC_SEAT(st->loc[st->supreme])].whole[st->supreme_type]++;
}

void nys_score_state(const nys_state *st, nys_guest_check *out)
{
    nys_tally tally[NYS_MAX_PLAYERS];
    nys_tally_state(st, tally);
    nys_score(tally, st->players, out);
}

json_t *nys_check_to_json(const nys_guest_check *gc, const char *const *names)
{
    json_t *players = json_array(), *winners = json_array();
    for (int p = 0; p < gc->players; p++) {
        const nys_check *c = &gc->line[p];
        json_t *won = json_array();
        for (int t = NYS_MIN_TYPE; t <= NYS_MAX_TYPE; t++)
            if (c->types_won >> t & 1u)
                json_array_append_new(won, json_integer(t));
        char fallback[32];
        snprintf(fallback, sizeof fallback, "Seat %d", p + 1);
        json_array_append_new(players,
                              json_pack("{s:s, s:i, s:o, s:i, s:i, s:i, s:i}", "name",
                                        names && names[p] ? names[p] : fallback, "majorities",
                                        c->majorities, "types_won", won, "specials", c->specials,
                                        "pepperoni", c->pepperoni, "total", c->total, "eaten",
                                        c->eaten));
        if (gc->winners >> p & 1u)
            json_array_append_new(winners, json_integer(p));
    }
    return json_pack("{s:o, s:o}", "players", players, "winners", winners);
}

/* ---- The scoring file (spec: "Notation and the scoring file") ---- */

/* Copies of a slice the deck has at a player count. */
static int deck_copies(const nys_deck *deck, const nys_slice *s, int players)
{
    int n = 0;
    for (int i = 0; i < NYS_DECK_SLICES; i++)
        n += nys_slice_equal(&deck->slice[i], s) && nys_slice_in_play(&deck->slice[i], players);
    return n;
}

json_t *nys_score_file(const char *text, const nys_deck *deck, char *err, size_t errlen)
{
    json_t *root = pb_json_parse(text, "", err, errlen);
    if (!root)
        return NULL;
    json_t *result = NULL;
    json_t *game = json_object_get(root, "game"), *players = json_object_get(root, "players");
    if (!json_is_object(root)) {
        pb_errorf(err, errlen, "the table must be a JSON object");
        goto out;
    }
    static const char *const table_keys[] = {"game", "players", NULL};
    if (pb_json_known_keys(root, table_keys, "", "the table", err, errlen))
        goto out;
    if (game && (!json_is_string(game) || strcmp(json_string_value(game), "nyslice") != 0)) {
        pb_errorf(err, errlen, "'game' must be \"nyslice\"");
        goto out;
    }
    int n = json_is_array(players) ? (int)json_array_size(players) : 0;
    if (n < NYS_MIN_PLAYERS || n > NYS_MAX_PLAYERS) {
        pb_errorf(err, errlen, "'players' must be an array of 2 to 6 players");
        goto out;
    }
    nys_tally tally[NYS_MAX_PLAYERS];
    memset(tally, 0, sizeof tally);
    nys_slice eaten[NYS_MAX_PLAYERS][NYS_DECK_SLICES]; /* checked once the Specials are known */
    int neaten[NYS_MAX_PLAYERS] = {0};
    const char *names[NYS_MAX_PLAYERS];
    /* Copies used so far, per deck slice kind (identical tiles share a token). */
    nys_slice used_as[NYS_DECK_SLICES];
    int used_count[NYS_DECK_SLICES], nused = 0;
    uint16_t specials_seen = 0;
    for (int p = 0; p < n; p++) {
        json_t *pl = json_array_get(players, (size_t)p);
        if (!json_is_object(pl)) {
            pb_errorf(err, errlen, "player %d is not an object", p + 1);
            goto out;
        }
        static const char *const player_keys[] = {"name", "collected", "eaten", "specials", NULL};
        char where[32];
        snprintf(where, sizeof where, "player %d", p + 1);
        if (pb_json_known_keys(pl, player_keys, "", where, err, errlen))
            goto out;
        json_t *name = json_object_get(pl, "name");
        if (name && !json_is_string(name)) {
            pb_errorf(err, errlen, "player %d: 'name' must be a string", p + 1);
            goto out;
        }
        names[p] = name ? json_string_value(name) : NULL;
        static const char *const lists[2] = {"collected", "eaten"};
        for (int li = 0; li < 2; li++) {
            json_t *arr = json_object_get(pl, lists[li]);
            if (!arr)
                continue;
            if (!json_is_array(arr)) {
                pb_errorf(err, errlen, "player %d: '%s' must be an array of slice tokens", p + 1, lists[li]);
                goto out;
            }
            size_t i;
            json_t *tok;
            json_array_foreach(arr, i, tok) {
                nys_slice s;
                int attached = 0;
                const char *t = json_is_string(tok) ? json_string_value(tok) : NULL;
                if (!t || nys_slice_parse(t, &s, li == 0 ? &attached : NULL) != 0) {
                    char *dump = json_dumps(tok, JSON_ENCODE_ANY);
                    pb_errorf(err, errlen, "unknown slice token %s (player %d, %s)", dump ? dump : "?",
                        p + 1, lists[li]);
                    free(dump);
                    goto out;
                }
                nys_slice probe = {NYS_NUMBERED, (uint8_t)attached, 0, 0, 0};
                if (attached && !nys_slice_in_play(&probe, n)) {
                    pb_errorf(err, errlen, "unknown slice token \"%s\": type %d is not played by %d players",
                        t, attached, n);
                    goto out;
                }
                int k = 0;
                while (k < nused && !nys_slice_equal(&used_as[k], &s))
                    k++;
                int have = deck_copies(deck, &s, n);
                if (k == nused && have > 0) { /* at most one entry per deck slice */
                    used_as[nused] = s;
                    used_count[nused++] = 0;
                }
                if (have == 0 || ++used_count[k] > have) {
                    pb_errorf(err, errlen, "too many \"%s\": the deck has %d for %d players", t, have, n);
                    goto out;
                }
                if (li == 1)
                    eaten[p][neaten[p]++] = s;
                tally_add(&tally[p], &s, li == 1, attached);
            }
        }
        json_t *sps = json_object_get(pl, "specials");
        if (sps && !json_is_array(sps)) {
            pb_errorf(err, errlen, "player %d: 'specials' must be an array of slugs", p + 1);
            goto out;
        }
        size_t i;
        json_t *slug;
        json_array_foreach(sps, i, slug) {
            int sp = json_is_string(slug) ? nys_special_from_slug(json_string_value(slug)) : -1;
            if (sp < 0) {
                char *dump = json_dumps(slug, JSON_ENCODE_ANY);
                pb_errorf(err, errlen, "unknown Special slug %s (player %d)", dump ? dump : "?", p + 1);
                free(dump);
                goto out;
            }
            if (specials_seen >> sp & 1u) {
                pb_errorf(err, errlen, "Special \"%s\" is held twice: the game has one", json_string_value(slug));
                goto out;
            }
            specials_seen |= (uint16_t)BIT(sp);
            tally[p].specials |= (uint16_t)BIT(sp);
        }
        /* NYS-T2: only what could be eaten was eaten. */
        for (int k = 0; k < neaten[p]; k++) {
            const nys_slice *e = &eaten[p][k];
            /* when a Veggie was eaten is not in the file: holding You Love
             * Veggies is what can be checked */
            if (!nys_slice_edible(e, tally[p].specials, tally[p].specials >> NYS_YOU_LOVE_VEGGIES & 1u)) {
                char tok[16];
                nys_slice_token(e, tok, sizeof tok);
                pb_errorf(err, errlen, "player %d ate \"%s\", which cannot be eaten%s", p + 1, tok,
                    e->kind == NYS_COMBO      ? " without Combo Craving"
                    : e->kind == NYS_NUMBERED && e->type == NYS_VEGGIE ? " without You Love Veggies"
                                                                       : "");
                goto out;
            }
        }
    }
    nys_guest_check gc;
    nys_score(tally, n, &gc);
    result = nys_check_to_json(&gc, names);
out:
    json_decref(root);
    return result;
}
