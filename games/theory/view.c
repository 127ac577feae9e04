/* view.c -- what one seat may see of a Pizza Theory game, as JSON.
 *
 * Everything on the board is public. The only secret is a cut chosen this
 * round: a seat sees its own, and who has chosen, but no line of anyone else
 * until all are revealed (PT-R2); then the view's "last" part shows the
 * revealed cuts, the regions and what changed. The format is documented in
 * docs/theory-view.md. */
#include <stdlib.h>

#include "theory.h"

static const char *const phase_names[] = {"place", "neutral", "cut", "over"};
static const char *const end_names[] = {"none", "full", "neutral", "draw"};

static json_t *seat_or_null(int s)
{
    return s < 0 ? json_null() : json_integer(s);
}

/* Colour on each space of a board, -1 for empty. */
static json_t *pieces(const th_board *b, const uint64_t *occ)
{
    json_t *a = json_array();
    for (int i = 0; i < b->ncells; i++) {
        int c = -1;
        for (int k = 0; k < TH_COLOURS; k++)
            if (occ[k] >> i & 1u)
                c = k;
        json_array_append_new(a, json_integer(c));
    }
    return a;
}

static json_t *colour_list(unsigned mask)
{
    json_t *a = json_array();
    for (int c = 0; c < TH_COLOURS; c++)
        if (mask >> c & 1u)
            json_array_append_new(a, json_integer(c));
    return a;
}

static json_t *last_round(const th_state *st)
{
    const th_board *b = &st->rules->board;
    if (!st->last_round)
        return json_null();
    const uint64_t *region = th_regions(st->rules, st->last_cut);
    json_t *cuts = json_array(), *sides = json_array(), *regions = json_array(), *changed = json_array(),
           *shortfall = json_array();
    for (int d = 0; d < TH_SIDES; d++) {
        json_array_append_new(cuts, json_integer(st->last_cut[d]));
        json_array_append_new(sides, json_integer(st->last_side_colour[d]));
    }
    for (int i = 0; i < b->ncells; i++) {
        int reg = 0;
        while (reg < TH_REGIONS - 1 && !(region[reg] >> i & 1u))
            reg++;
        json_array_append_new(regions, json_integer(reg));
        int from = -1, to = -1;
        for (int c = 0; c < TH_COLOURS; c++) {
            from = (st->before[c] >> i & 1u) ? c : from;
            to = (st->occ[c] >> i & 1u) ? c : to;
        }
        if (from != to && from >= 0) /* the resolution only removes or replaces */
            json_array_append_new(changed, json_pack("{s:i, s:i, s:o}", "cell", i, "from", from, "to",
                                                     seat_or_null(to)));
    }
    for (int c = 0; c < TH_COLOURS; c++)
        json_array_append_new(shortfall, json_integer(st->short_by[c]));
    return json_pack("{s:i, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "round", st->last_round, "cuts", cuts,
                     "side_colours", sides, "before", pieces(b, st->before), "regions", regions, "safe",
                     colour_list(st->safe), "short", shortfall, "changed", changed);
}

json_t *th_view(const th_state *st, int seat)
{
    const th_board *b = &st->rules->board;
    bool over = st->phase == TH_PH_OVER;
    int mover = th_current_seat(st);
    json_t *v = json_object();
    json_object_set_new(v, "game", json_string("theory"));
    json_object_set_new(v, "seat", seat_or_null(seat));
    json_object_set_new(v, "player_count", json_integer(st->players));
    json_object_set_new(v, "round", json_integer(over ? st->last_round : st->round + 1));
    json_object_set_new(v, "max_rounds", json_integer(st->rules->max_rounds));
    json_object_set_new(v, "phase", json_string(phase_names[st->phase]));
    json_object_set_new(v, "to_move", seat_or_null(over ? -1 : mover));
    json_object_set_new(v, "first", json_integer(th_first_player(st)));
    json_object_set_new(v, "neutral", st->players == 2 ? json_integer(TH_NEUTRAL) : json_null());
    json_object_set_new(v, "toppings", json_integer(b->toppings));
    json_object_set_new(v, "board_name", json_string(b->name));
    json_t *cells = json_array();
    for (int i = 0; i < b->ncells; i++)
        json_array_append_new(cells, json_pack("[i,i,i]", b->cube[i][0], b->cube[i][1], b->cube[i][2]));
    json_object_set_new(v, "cells", cells);
    json_t *labels = json_array();
    for (int i = 0; i < b->ncells; i++)
        json_array_append_new(labels, json_string(th_cell_name(b, i)));
    json_object_set_new(v, "labels", labels);
    json_object_set_new(v, "board", pieces(b, st->occ));
    json_t *sides = json_array();
    for (int d = 0; d < TH_SIDES; d++) {
        int c = th_side_colour(st, d);
        bool public_cut = st->players == 2 && c == TH_NEUTRAL;
        bool shown = st->cut[d] && !over && (c == seat || public_cut);
        json_t *lines = json_array();
        for (int k = 0; k < TH_LINES; k++)
            json_array_append_new(lines, json_integer(b->line[d][k]));
        char axis[2] = {"xyz"[b->axis[d]], 0};
        json_array_append_new(sides, json_pack("{s:i, s:s, s:o, s:o, s:b}", "colour", c, "axis", axis, "lines",
                                               lines, "cut", shown ? json_integer(st->cut[d]) : json_null(),
                                               "chosen", st->cut[d] != 0 && !over && !public_cut));
    }
    json_object_set_new(v, "sides", sides);
    json_t *supply = json_array(), *on_board = json_array();
    for (int c = 0; c < TH_COLOURS; c++) {
        json_array_append_new(supply, json_integer(st->supply[c]));
        json_array_append_new(on_board, json_integer(__builtin_popcountll(st->occ[c])));
    }
    json_object_set_new(v, "supply", supply);
    json_object_set_new(v, "on_board", on_board);
    json_object_set_new(v, "die", st->die && !over ? json_integer(st->die) : json_null());
    json_object_set_new(v, "skipped", colour_list(over ? 0 : st->skipped));
    json_object_set_new(v, "last", last_round(st));
    if (over)
        json_object_set_new(v, "result", json_pack("{s:o, s:s}", "winners", colour_list(st->winners), "end",
                                                   end_names[st->end]));
    else
        json_object_set_new(v, "result", json_null());
    /* The seat to move gets its legal moves (at most 64 spaces, or 6 lines). */
    if (!over && seat == mover) {
        pb_action acts[TH_MAX_CELLS];
        int n = th_legal_actions(st, acts);
        json_t *legal = json_array();
        char buf[64];
        for (int i = 0; i < n; i++)
            if (th_action_to_text(st, acts[i], buf, sizeof buf) == 0)
                json_array_append_new(legal, json_string(buf));
        json_object_set_new(v, "legal", legal);
    }
    return v;
}

json_t *th_result_json(const th_state *st, const char *const *names)
{
    json_t *players = json_array();
    for (int p = 0; p < st->players; p++) {
        json_t *pl = json_pack("{s:i, s:i, s:i, s:b}", "seat", p, "on_board", __builtin_popcountll(st->occ[p]),
                               "short", st->short_by[p], "winner", (st->winners >> p & 1u) != 0);
        if (names && names[p])
            json_object_set_new(pl, "name", json_string(names[p]));
        json_array_append_new(players, pl);
    }
    json_t *r = json_pack("{s:s, s:i, s:o, s:o}", "end", end_names[st->end], "rounds", st->last_round, "players",
                          players, "winners", colour_list(st->winners));
    if (st->players == 2)
        json_object_set_new(r, "neutral_on_board", json_integer(__builtin_popcountll(st->occ[TH_NEUTRAL])));
    return r;
}
