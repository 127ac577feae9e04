/* view.c -- what one seat may see of a New York Slice table, as JSON.
 *
 * This is the only way state leaves the engine for people and bots. It holds
 * the public table and the seat's own secrets and never the order of
 * unrevealed stacks, the Specials still face down, the spares, or another
 * seat's face-down Mystery slice. Lists are sorted by slice, never by
 * internal id, so the order itself reveals nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nyslice.h"

const char *nys_phase_name(int phase)
{
    static const char *const names[] = {
        [NYS_PH_DIBS] = "dibs",       [NYS_PH_DIVIDE] = "divide", [NYS_PH_CUT_IN_LINE] = "cut-in-line",
        [NYS_PH_SNEAK] = "sneak",     [NYS_PH_TAKE] = "take",     [NYS_PH_PLACE] = "place",
        [NYS_PH_EAT_OR_KEEP] = "eat-or-keep",
        [NYS_PH_ATTACH] = "attach",   [NYS_PH_SECONDS] = "seconds", [NYS_PH_OVER] = "over",
    };
    return phase >= 0 && phase <= NYS_PH_OVER ? names[phase] : "?";
}

static json_t *seat_or_null(int seat)
{
    return seat == NYS_NONE || seat < 0 ? json_null() : json_integer(seat);
}

static json_t *token(const nys_state *st, int id)
{
    char tok[16];
    nys_slice_token(&st->slice[id], tok, sizeof tok);
    if (id == st->supreme && st->supreme_type && NYS_LOC_KIND(st->loc[id]) == NYS_LOC_COLLECTED)
        snprintf(tok, sizeof tok, "S@%d", st->supreme_type);
    return json_string(tok);
}

/* The only two things a seat sees that spectators do not: */
static bool owns_mystery(const nys_state *st, int seat)
{
    return st->mystery != NYS_NONE && st->mystery_owner == seat;
}

static bool gets_legal(const nys_state *st, int seat)
{
    return st->phase != NYS_PH_OVER && seat == st->actor && st->phase != NYS_PH_DIVIDE;
}

bool nys_view_is_public(const nys_state *st, int seat)
{
    return !owns_mystery(st, seat) && !gets_legal(st, seat);
}

/* Is slice `id` hidden from `seat`? Only a face-down Mystery slice is. */
static bool hidden(const nys_state *st, int id, int seat)
{
    return id == st->mystery && !owns_mystery(st, seat) && NYS_LOC_KIND(st->loc[id]) != NYS_LOC_COLLECTED;
}

/* Tokens of the slices at a location, sorted; hidden ones as "?" at the end. */
static json_t *slices_at(const nys_state *st, uint8_t loc, int seat)
{
    uint8_t ids[NYS_DECK_SLICES];
    int n = 0, secret = 0;
    for (int i = 0; i < st->nslices; i++) {
        if (st->loc[i] != loc)
            continue;
        if (hidden(st, i, seat))
            secret++;
        else
            ids[n++] = (uint8_t)i;
    }
    for (int i = 1; i < n; i++) /* insertion sort: a collection is small */
        for (int j = i; j > 0 && nys_slice_cmp(&st->slice[ids[j - 1]], &st->slice[ids[j]]) > 0; j--) {
            uint8_t t = ids[j];
            ids[j] = ids[j - 1];
            ids[j - 1] = t;
        }
    json_t *arr = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(arr, token(st, ids[i]));
    while (secret--)
        json_array_append_new(arr, json_string("?"));
    return arr;
}

static json_t *portion_name(const nys_state *st, int pid)
{
    int first = nys_portion_first_pos(st, pid);
    return first < 0 ? json_string("special") : json_integer(first + 1);
}

/* The letter the table, the notation and the log name a portion by. */
static json_t *portion_letter(const nys_state *st, int pid)
{
    char l[2] = {(char)nys_portion_letter(st, pid), 0};
    return pid < 0 || !l[0] ? json_null() : json_string(l);
}

/* NYS-S4: the Specials this round's reveal showed everyone and sent back to
 * the box, each with the reason. */
static json_t *replaced_specials(const nys_state *st)
{
    json_t *a = json_array();
    for (int sp = 0; sp < NYS_SPECIAL_COUNT; sp++)
        if (st->replaced_now >> sp & 1u)
            json_array_append_new(a, json_pack("{s:s, s:s, s:s, s:s}", "slug", nys_special_slug(sp), "name",
                                               nys_special_name(sp), "why", nys_special_unplayable(st, sp),
                                               "text", nys_special_text(sp)));
    return a;
}

int nys_round_news(const nys_state *before, const nys_state *after, char *buf, size_t n)
{
    if (after->round == before->round || after->round >= after->rounds || after->today == NYS_NONE)
        return 0;
    const char *name = nys_special_name(after->today);
    bool bang = name[strlen(name) - 1] == '!'; /* "Dibs!" ends its own sentence */
    int len = snprintf(buf, n, "Round %d%s: today's Special is %s%s", after->round + 1,
                       after->round + 1 == after->rounds ? " (the last)" : "", name, bang ? "" : ".");
    for (int sp = 0; sp < NYS_SPECIAL_COUNT; sp++)
        if (after->replaced_now >> sp & 1u && len >= 0 && (size_t)len < n)
            len += snprintf(buf + len, n - (size_t)len, " %s was revealed first and went back to the box (%s).",
                            nys_special_name(sp), nys_special_unplayable(after, sp));
    /* a reveal sends back at most four Specials (a 2-player game's last
     * round): about 430 characters, within the 512 given; cut, it says so
     * by its length */
    return len < 0 ? 0 : (size_t)len < n ? len : (int)n - 1;
}

json_t *nys_view(const nys_state *st, const nys_rules *rules, int seat)
{
    bool over = st->phase == NYS_PH_OVER;
    json_t *v = json_object();
    json_object_set_new(v, "game", json_string("nyslice"));
    json_object_set_new(v, "seat", seat_or_null(seat));
    json_object_set_new(v, "player_count", json_integer(st->players));
    json_object_set_new(v, "round", json_integer(over ? st->rounds : st->round + 1));
    json_object_set_new(v, "rounds", json_integer(st->rounds));
    /* Once the last round is over the turn has passed on: name the last
     * round's Slicer, who rotates one seat a round (NYS-R1). */
    int slicer = st->round >= st->rounds ? (st->first_slicer + st->rounds - 1) % st->players : st->slicer;
    json_object_set_new(v, "slicer", json_integer(slicer));
    json_object_set_new(v, "first_slicer", json_integer(st->first_slicer));
    json_t *names = json_object();
    for (int t = NYS_MIN_TYPE; t <= NYS_MAX_TYPE; t++) {
        char key[4];
        snprintf(key, sizeof key, "%d", t);
        json_object_set_new(names, key, json_string(rules->deck.type_name[t]));
    }
    json_object_set_new(v, "type_names", names);
    /* NYS-S1: the types this player count plays with (2 players play
     * without 3, 8 and 10): front ends draw no column for the others. */
    json_t *types = json_array();
    for (int t = NYS_MIN_TYPE; t <= NYS_MAX_TYPE; t++)
        if (nys_type_in_play(rules, t))
            json_array_append_new(types, json_integer(t));
    json_object_set_new(v, "types_in_play", types);
    json_object_set_new(v, "phase", json_string(nys_phase_name(st->phase)));
    json_object_set_new(v, "to_move", seat_or_null(over ? -1 : st->actor));

    bool in_round = !over && st->round < st->rounds;
    if (in_round && st->today != NYS_NONE) {
        int sp = st->today;
        json_t *today = json_pack("{s:s, s:s, s:s, s:b}", "slug", nys_special_slug(sp), "name",
                                  nys_special_name(sp), "text", nys_special_text(sp), "scored",
                                  nys_special_scored(sp));
        json_object_set_new(today, "portion",
                            st->special_portion == NYS_NONE ? json_null()
                                                            : portion_name(st, st->special_portion));
        json_object_set_new(today, "letter", st->special_portion == NYS_NONE
                                                 ? json_null() : portion_letter(st, st->special_portion));
        json_object_set_new(today, "taken_by", seat_or_null(st->special_owner[sp]));
        json_object_set_new(today, "replaced", replaced_specials(st));
        json_object_set_new(v, "today", today);
    } else {
        json_object_set_new(v, "today", json_null());
    }

    json_t *ring = json_array(), *portions = json_array();
    if (in_round) {
        for (int p = 0; p < NYS_RING; p++) {
            int id = st->ring[p], pid = nys_portion_at(st, p);
            json_t *pos = json_pack("{s:i}", "pos", p + 1);
            json_object_set_new(pos, "slice", id == NYS_NONE ? json_null() : token(st, id));
            json_object_set_new(pos, "portion", pid < 0 ? json_null() : portion_name(st, pid));
            json_object_set_new(pos, "letter", portion_letter(st, pid));
            json_object_set_new(pos, "taken_by", pid >= 0 && (st->taken >> pid & 1u)
                                                     ? json_integer(st->taken_by[pid])
                                                     : json_null());
            json_array_append_new(ring, pos);
        }
        for (int pid = 0; pid < st->nportions; pid++) {
            json_t *pos = json_array(), *sl = json_array();
            for (int p = 0; p < NYS_RING; p++)
                if (st->portion_mask[pid] >> p & 1u) {
                    json_array_append_new(pos, json_integer(p + 1));
                    json_array_append_new(sl, token(st, st->ring[p]));
                }
            json_t *po = json_pack("{s:o, s:o, s:o, s:b}", "name", portion_name(st, pid), "positions",
                                   pos, "slices", sl, "special", pid == st->special_portion);
            json_object_set_new(po, "letter", portion_letter(st, pid));
            json_object_set_new(po, "taken_by", (st->taken >> pid & 1u) ? json_integer(st->taken_by[pid])
                                                                       : json_null());
            json_array_append_new(portions, po);
        }
    }
    json_object_set_new(v, "ring", ring);
    json_object_set_new(v, "portions", portions);
    json_t *order = json_array();
    if (in_round && st->nportions)
        for (int i = 0; i < st->players; i++)
            json_array_append_new(order, json_integer(st->order[i]));
    json_object_set_new(v, "order", order);

    if (!over && (st->phase == NYS_PH_PLACE || st->phase == NYS_PH_EAT_OR_KEEP)) {
        /* The slices being placed are public (everyone saw the portion), but a
         * Mystery slice only for its owner; an edible hidden slice would tell
         * something, so "edible" is shown to the owner alone for it. */
        static const char *const why[] = {"take", "dibs", "seconds"};
        json_t *slices = json_array(), *eat_ok = json_array();
        for (int i = st->qnew; i < st->qlen; i++) {
            bool secret = hidden(st, st->queue[i], seat);
            json_array_append_new(slices, secret ? json_string("?") : token(st, st->queue[i]));
            json_array_append_new(eat_ok, secret ? json_null()
                                                 : json_boolean(st->new_edible >> (i - st->qnew) & 1u));
        }
        json_t *pl = json_pack("{s:i, s:s, s:o, s:o}", "seat", st->owner, "why", why[st->placing],
                               "slices", slices, "edible", eat_ok);
        /* where the Mystery slice just drawn is in the list (public: everyone
         * saw it drawn), for eating it rather than a visible twin */
        int m = nys_mystery_index(st);
        json_object_set_new(pl, "mystery", m >= 0 ? json_integer(m) : json_null());
        json_object_set_new(pl, "offered", st->phase == NYS_PH_EAT_OR_KEEP
                                               ? token(st, st->queue[st->qpos])
                                               : json_null());
        json_object_set_new(v, "placing", pl);
    } else {
        json_object_set_new(v, "placing", json_null());
    }

    json_t *players = json_array();
    for (int p = 0; p < st->players; p++) {
        json_t *sps = json_array();
        for (int sp = 0; sp < NYS_SPECIAL_COUNT; sp++)
            if (st->special_owner[sp] == p)
                /* by slug: the names and printed texts are the game's
                 * glossary, given to a client once rather than every move */
                json_array_append_new(sps, json_pack("{s:s, s:b, s:i, s:b}", "slug", nys_special_slug(sp), "used",
                                                     (st->special_used >> sp) & 1u, "round",
                                                     st->special_round[sp] + 1, "scored", nys_special_scored(sp)));
        int eaten = 0;
        for (int i = 0; i < st->nslices; i++)
            eaten += st->loc[i] == (NYS_LOC_EATEN | p);
        bool waiting = st->supreme != NYS_NONE && !st->supreme_type && !st->supreme_on_anchovy &&
                       st->loc[st->supreme] == (NYS_LOC_COLLECTED | p);
        json_t *pl = json_pack("{s:i, s:o, s:o, s:i, s:o, s:b}", "seat", p, "collected",
                               slices_at(st, (uint8_t)(NYS_LOC_COLLECTED | p), seat), "eaten",
                               slices_at(st, (uint8_t)(NYS_LOC_EATEN | p), seat), "eaten_count", eaten, "specials", sps,
                               "supreme_waiting", waiting);
        if (st->supreme_on_anchovy && st->loc[st->supreme] == (NYS_LOC_COLLECTED | p)) /* only then: NYS-T4 */
            json_object_set_new(pl, "supreme_on_anchovy", json_true());
        json_array_append_new(players, pl);
    }
    json_object_set_new(v, "players", players);

    int later = over ? 0 : st->rounds - st->round - 1;
    json_object_set_new(v, "stacks_left", json_integer(later < 0 ? 0 : later));
    json_object_set_new(v, "spares_left", json_integer(st->nspares));
    json_t *seen = json_array();
    for (int sp = 0; sp < NYS_SPECIAL_COUNT; sp++)
        if (st->box_seen >> sp & 1u)
            json_array_append_new(seen, json_string(nys_special_slug(sp)));
    json_object_set_new(v, "box_seen", seen);
    if (owns_mystery(st, seat))
        json_object_set_new(v, "mystery", token(st, st->mystery));

    /* The seat to move also gets its legal actions, unless there are very
     * many (divisions, large portions): the notation is documented. */
    if (gets_legal(st, seat)) {
        pb_action *acts = malloc(sizeof *acts * PB_MAX_ACTIONS);
        int n = acts ? nys_legal_actions(st, acts) : 0;
        if (n <= 64) {
            json_t *legal = json_array();
            char buf[128];
            for (int i = 0; i < n; i++)
                if (nys_action_to_text(st, acts[i], buf, sizeof buf) == 0)
                    json_array_append_new(legal, json_string(buf));
            json_object_set_new(v, "legal", legal);
        }
        free(acts);
    }
    return v;
}
