/* coop.c -- New York Pizza Delivery's co-op game (PD-C1): the team's goals
 * and difficulty rows, the order system fed by Pizza Promotions on the week
 * tracker, Transfer Goods, and how the team wins or loses. The turn itself
 * is the competitive one (engine.c); these are the places it differs. */
#include <string.h>

#include "delivery.h"
#include "internal.h"

/* PD-C1: Blue promotion, Red promotion, pizzas, money; HARD to EASY. Rows 4
 * and 6 lost cells in the rulebook's text: the spec fills them between
 * their neighbours. */
const uint8_t pd_difficulty[PD_DIFFICULTIES][4] = {
    {8, 10, 36, 75},  {9, 11, 34, 70},  {10, 12, 32, 65}, {11, 13, 30, 60},
    {13, 15, 25, 55}, {15, 17, 22, 50}, {17, 19, 20, 45}, {19, 21, 18, 40},
};

void pd_rules_coop(pd_rules *r, int difficulty)
{
    const uint8_t *row = pd_difficulty[difficulty - 1];
    r->coop = true;
    r->promo_at[PD_PROMO_BLUE] = row[0];
    r->promo_at[PD_PROMO_RED] = row[1];
    r->goal_pizzas = row[2];
    r->goal_money = row[3];
}

int pd_team_deliveries(const pd_state *st)
{
    int n = 0;
    for (int s = 0; s < st->players; s++)
        n += st->player[s].deliveries;
    return n;
}

bool pd_first_round(const pd_state *st)
{
    return st->rules->coop && st->turn < st->players;
}

/* PD-C1 setup: 14 order cards at random, the rest stay in the box unseen;
 * no order is made yet; the pawn on Saturday, Friday's promotion. */
void pd_coop_setup(pd_state *st)
{
    while (st->norder_deck > PD_COOP_ORDERS) /* the deck is shuffled: its top cards are random */
        st->order_box[st->norder_box++] = st->order_deck[--st->norder_deck];
    st->day = 0;
    st->promo[PD_FRIDAY] = PD_PROMO(PD_PROMO_EVENING, PD_PROMO_FRIDAY);
}

/* Orders flow from slot 0 (Order 1) to slot 3 (Order 4): the ones on the
 * board slide right over empty slots, keeping their order. Pandemic's
 * Orders 5 and 6 stay where they are. */
static void slide_right(pd_state *st)
{
    int to = PD_BOARD_SLOTS - 1;
    for (int i = PD_BOARD_SLOTS - 1; i >= 0; i--)
        if (st->order[i].kind >= 0) {
            if (i != to) {
                st->order[to] = st->order[i];
                pd_clear_order(st, i);
            }
            to--;
        }
}

void pd_coop_delivered(pd_state *st, int slot)
{
    pd_clear_order(st, slot);
    slide_right(st);
}

/* A promotion's order in slot 0; one pushed past Order 4 goes into the sewer
 * with its cards (none while Power Outage has them), its card out of the
 * game, its tip back face down; Pandemic's orders are never pushed. False
 * when no order card is left: the team has lost. */
static bool add_order(pd_state *st)
{
    if (st->norder_deck == 0 && st->norder_discard == 0)
        return false;
    slide_right(st);
    pd_order *last = &st->order[PD_BOARD_SLOTS - 1];
    if (st->order[0].kind >= 0) { /* every board slot full */
        for (int i = 0; i < last->ncards; i++)
            st->sewer[last->card[i]]++;
        if (last->tip != PD_NO_TIP)
            pd_return_tip(st, last->tip);
        st->orders_out++;
        memmove(&st->order[1], &st->order[0], sizeof st->order[0] * (PD_BOARD_SLOTS - 1));
    }
    pd_make_order(st, 0);
    slide_right(st);
    return true;
}

static void lose(pd_state *st, int how)
{
    st->coop_result = (uint8_t)how;
    st->phase = PD_PH_OVER;
}

/* The orders a promotion on today's tracker adds now (morning or evening). */
static void promotion(pd_state *st, bool evening)
{
    uint8_t p = st->promo[st->day];
    if (!p || (st->promo_asleep >> st->day & 1))
        return;
    int when = PD_PROMO_WHEN(p);
    int orders = when == PD_PROMO_SPLIT ? 1 : (when == PD_PROMO_EVENING) == evening ? 2 : 0;
    for (int k = 0; k < orders; k++)
        if (!add_order(st)) {
            lose(st, PD_COOP_LOST_ORDERS);
            return;
        }
}

/* "Advance the Day" after every turn: the evening's orders, the pawn to the
 * next day (a token that went under it wakes), the morning's orders. */
void pd_coop_next_day(pd_state *st)
{
    promotion(st, true);
    if (st->phase == PD_PH_OVER)
        return;
    st->promo_asleep &= (uint8_t)~(1u << st->day);
    st->day = (uint8_t)((st->day + 1) % PD_DAYS);
    promotion(st, false);
}

/* After every decision: a promotion marker the money reached puts a token on
 * a day the die names (Saturday..Thursday: Friday has its own), rolled again
 * while that day has one; the goals met win; the third Health Inspector
 * before that loses. */
void pd_coop_check(pd_state *st)
{
    if (!st->rules->coop || st->phase == PD_PH_OVER)
        return;
    for (int colour = PD_PROMO_BLUE; colour <= PD_PROMO_RED; colour++) {
        if ((st->promos_placed >> colour & 1) || st->team_money < st->rules->promo_at[colour])
            continue;
        st->promos_placed |= (uint8_t)(1u << colour);
        int day;
        do
            day = (int)pb_rng_below(&st->rng, PD_DAYS - 1);
        while (st->promo[day]);
        st->promo[day] = PD_PROMO(PD_PROMO_MORNING + (int)pb_rng_below(&st->rng, 3), colour);
        if (day == st->day)
            st->promo_asleep |= (uint8_t)(1u << day);
    }
    if (pd_team_deliveries(st) >= st->rules->goal_pizzas && st->team_money >= st->rules->goal_money) {
        st->coop_result = PD_COOP_WON;
        st->phase = PD_PH_OVER;
    } else if (st->inspectors >= PD_INSPECTORS_TO_END) {
        memset(st->fines_due, 0, sizeof st->fines_due);
        lose(st, PD_COOP_LOST_INSPECTOR);
    }
}

const char *const pd_day_names[PD_DAYS] = {"Saturday", "Sunday",   "Monday", "Tuesday",
                                           "Wednesday", "Thursday", "Friday"};

/* The next promotion still to come: turns from now (0: this turn's evening)
 * and its orders, or -1. */
int pd_next_promotion(const pd_state *st, int *orders)
{
    for (int k = 0; k <= PD_DAYS; k++) {
        int d = (st->day + k) % PD_DAYS;
        uint8_t p = st->promo[d];
        if (!p || (k == 0 && (st->promo_asleep >> d & 1)))
            continue;
        int when = PD_PROMO_WHEN(p);
        *orders = k == 0 ? (when == PD_PROMO_MORNING ? 0 : when == PD_PROMO_SPLIT ? 1 : 2) : 2;
        if (*orders)
            return k;
    }
    return -1;
}

/* ------------------------------------------------------ Transfer Goods */

/* The neighbours: the next seat clockwise ("left") and the one before. */
static int neighbour(const pd_state *st, int dir)
{
    return (st->seat + (dir ? st->players - 1 : 1)) % st->players;
}

bool pd_can_give(const pd_state *st)
{
    const pd_player *p = &st->player[st->seat];
    return st->rules->coop && st->players > 1 && st->given < PD_GIVE_MAX && (p->hand_size > 0 || p->powers);
}

/* A card or power card to either neighbour (one direction with two players:
 * both neighbours are the same), or done. */
int pd_list_gifts(const pd_state *st, pb_action *out, int n)
{
    const pd_player *p = &st->player[st->seat];
    int dirs = st->players > 2 ? 2 : 1;
    for (int dir = 0; dir < dirs; dir++) {
        for (int c = 0; c < PD_TYPES; c++)
            if (p->hand[c])
                n = pd_add_action(out, n, PD_ACTION(PD_A_GIVE, c | dir << 12));
        for (uint64_t m = p->powers; m; m &= m - 1)
            n = pd_add_action(out, n, PD_ACTION(PD_A_GIVE, (PD_POWER_FLAG | __builtin_ctzll(m)) | dir << 12));
    }
    return pd_add_action(out, n, PD_ACTION(PD_A_END, 0));
}

void pd_give(pd_state *st, uint32_t arg)
{
    int to = neighbour(st, (int)(arg >> 12 & 1));
    int item = (int)(arg & 0xFFF);
    if (item & PD_POWER_FLAG) {
        st->player[st->seat].powers &= ~(1ull << (item & 63));
        st->player[to].powers |= 1ull << (item & 63);
    } else {
        pd_hand_remove(st, st->seat, (pd_card)item);
        pd_hand_add(st, to, (pd_card)item);
    }
    st->given++;
}

int pd_gift_receiver(const pd_state *st, pb_action a)
{
    return neighbour(st, (int)(PD_ARG(a) >> 12 & 1));
}
