/* score.c -- New York Pizza Delivery: the final score report (PD-E1) and the
 * bots' estimate of a position. */
#include <stdio.h>

#include "delivery.h"
#include "internal.h"

static int board_cards(const pd_state *st, int seat, int *disks)
{
    int cards = 0;
    *disks = 0;
    for (int v = 0; v < PD_MAX_VILLAGES; v++) {
        const pd_pizzeria *z = &st->player[seat].pizzeria[v];
        if (z->lot >= 0) {
            cards += z->ncards;
            *disks += z->disks;
        }
    }
    return cards;
}

json_t *pd_score_json(const pd_state *st, const char *const *names)
{
    json_t *players = json_array(), *winners = json_array();
    double r[PD_PLAYERS];
    pd_returns(st, r);
    for (int s = 0; s < st->players; s++) {
        char fallback[16];
        snprintf(fallback, sizeof fallback, "Seat %d", s + 1);
        int disks, cards = board_cards(st, s, &disks);
        json_array_append_new(
            players, json_pack("{s:i,s:s,s:i,s:i,s:i,s:i,s:i,s:i,s:i}", "seat", s, "name",
                               names && names[s] ? names[s] : fallback, "money", st->player[s].money, "tableau",
                               cards + __builtin_popcountll(st->tableau[s]), "disks", disks, "tips",
                               pd_tip_money(st, s), "score", pd_score(st, s), "deliveries",
                               st->player[s].deliveries, "tip_tokens", st->player[s].ntips));
        if (r[s] > 0)
            json_array_append_new(winners, json_integer(s));
    }
    return json_pack("{s:s,s:o,s:o}", "game", "delivery", "players", players, "winners", winners);
}

/* The mean value of a face-down tip token (the viewer's own are known). */
static double mean_tip(const pd_state *st)
{
    int sum = 0;
    for (int t = 0; t < st->ntips; t++)
        sum += st->tip_value[t];
    int tokens = st->ntips + st->rules->data.cards.tips[PD_BASIC].no_tip;
    return tokens ? (double)sum / tokens : 0;
}

/* Points now (PD-E1) with unknown tips at their mean, plus a little for
 * what the hand and the pizzerias may still earn. */
void pd_evaluate(const pd_state *st, int viewer, double *values)
{
    double tip = mean_tip(st);
    for (int s = 0; s < st->players; s++) {
        const pd_player *p = &st->player[s];
        int disks, cards = board_cards(st, s, &disks);
        double v = p->money + cards + disks + __builtin_popcountll(st->tableau[s]);
        v += s == viewer || st->phase == PD_PH_OVER ? pd_tip_money(st, s) : p->ntips * tip;
        if (st->phase != PD_PH_OVER)
            v += 0.4 * pd_hand_total(st, s) + 0.5 * disks;
        values[s] = v;
    }
}
