/* instant.c -- New York Pizza Delivery: the expansion's cards played on an
 * opponent (docs/rules-notes.md, "The 5–6 player expansion").
 *
 * Instant cards (Property Tax, Rough Delivery, Traffic Jam) are played on
 * another player's turn, at one moment: when a delivery is complete (its
 * money, tip and power card given). Then every other seat holding a power
 * card is asked in turn, clockwise from the deliverer, to play one or not
 * ("done"). How many power cards a seat holds is public, so being asked
 * tells the table nothing about which it holds.
 *
 * Property Tax is Timed too: also played on the player's own turn, as the
 * turn's power card (powers.c); its target pays at once, then the turn goes
 * on. Out of Supplies is played on the player's own turn (powers.c); its
 * target pays $2 before its next delivery (engine.c). */
#include <string.h>

#include "delivery.h"
#include "internal.h"

#define PD_TAX_MAX 5      /* Property Tax never exceeds $5 */

static bool is_card(const pd_state *st, int power, pd_pc pc)
{
    return power >= 0 && power == st->rules->pc[pc];
}

/* Are Instant cards in this game at all? Co-op leaves all three out. */
static bool instants_in_game(const pd_state *st)
{
    static const pd_pc instants[] = {PD_PC_PROPERTY_TAX, PD_PC_ROUGH_DELIVERY, PD_PC_TRAFFIC_JAM};
    for (size_t i = 0; pd_expansion_powers(st->rules) && i < sizeof instants / sizeof instants[0]; i++) {
        int p = st->rules->pc[instants[i]];
        if (p >= 0 && pd_power_in_game(st, p))
            return true;
    }
    return false;
}

bool pd_tax_in_game(const pd_state *st)
{
    int p = st->rules->pc[PD_PC_PROPERTY_TAX];
    return pd_expansion_powers(st->rules) && p >= 0 && pd_power_in_game(st, p);
}

/* What a seat can pay at all: money, and a dollar a card from hand. */
static int payable(const pd_state *st, int seat)
{
    int money = pd_money(st, seat);
    return (money > 0 ? money : 0) + pd_hand_total(st, seat);
}

int pd_property_tax(const pd_state *st, int seat)
{
    int tax = 0;
    for (int v = 0; v < st->rules->data.map.nvillages; v++)
        if (st->player[seat].pizzeria[v].lot >= 0)
            tax += pd_reputation(st, seat, v) / 2;
    tax = tax < PD_TAX_MAX ? tax : PD_TAX_MAX;
    int can = payable(st, seat);
    return tax < can ? tax : can; /* all they can, if less */
}

/* The next seat to ask, clockwise from the deliverer; -1 when all have
 * answered or hold no power card. */
static int next_asked(const pd_state *st)
{
    for (int k = 1; k < st->players; k++) {
        int s = (st->instant_deliverer + k) % st->players;
        if (!(st->instant_answered >> s & 1) && st->player[s].powers)
            return s;
    }
    return -1;
}

/* Ask the next seat, or go on with the turn. */
static void ask_next(pd_state *st)
{
    int s = next_asked(st);
    if (s >= 0) {
        st->seat = (uint8_t)s;
        st->phase = PD_PH_INSTANT;
        return;
    }
    st->seat = st->instant_seat;
    st->phase = st->instant_resume;
    st->instant_answered = 0;
    st->delivery_tips = 0;
}

void pd_open_instants(pd_state *st, int deliverer, int tips)
{
    if (!instants_in_game(st))
        return;
    st->instant_deliverer = (uint8_t)deliverer;
    st->delivery_tips = (uint8_t)tips;
    st->instant_answered = (uint8_t)(1u << deliverer);
    st->instant_seat = st->seat;
    st->instant_resume = st->phase;
    ask_next(st);
}

bool pd_in_instants(const pd_state *st)
{
    return st->instant_answered != 0;
}

int pd_list_instants(const pd_state *st, pb_action *out, int n)
{
    int s = st->seat;
    for (uint64_t m = st->player[s].powers; m; m &= m - 1) {
        int p = __builtin_ctzll(m);
        /* Rough Delivery and Traffic Jam: the deliverer loses the tip it got */
        if ((is_card(st, p, PD_PC_ROUGH_DELIVERY) || is_card(st, p, PD_PC_TRAFFIC_JAM)) && st->delivery_tips)
            n = pd_add_action(out, n, PD_ACTION(PD_A_INSTANT, p));
        if (is_card(st, p, PD_PC_PROPERTY_TAX)) /* on any opponent who would pay something */
            for (int t = 0; t < st->players; t++)
                if (t != s && pd_property_tax(st, t) > 0)
                    n = pd_add_action(out, n, PD_ACTION(PD_A_INSTANT, p | (t + 1) << 8));
    }
    return pd_add_action(out, n, PD_ACTION(PD_A_DONE, 0));
}

void pd_answer_instant(pd_state *st, pb_action a)
{
    int s = st->seat;
    st->instant_answered |= (uint8_t)(1u << s);
    if (PD_KIND(a) != PD_A_INSTANT) { /* "done" */
        ask_next(st);
        return;
    }
    uint32_t arg = PD_ARG(a);
    int p = (int)(arg & 63), target = (int)(arg >> 8) - 1;
    st->player[s].powers &= ~(1ull << p);
    st->power_discard |= 1ull << p;
    if (is_card(st, p, PD_PC_PROPERTY_TAX)) {
        pd_start_tax(st, target);
        return;
    }
    /* Rough Delivery, Traffic Jam: the delivery's tip tokens go back face down */
    pd_player *d = &st->player[st->instant_deliverer];
    for (; st->delivery_tips && d->ntips > 0; st->delivery_tips--)
        pd_return_tip(st, d->tip[--d->ntips]);
    ask_next(st);
}

void pd_start_tax(pd_state *st, int target)
{
    if (!pd_in_instants(st)) { /* played on the mover's own turn: it goes on where it was */
        st->instant_seat = st->seat;
        st->instant_resume = st->phase;
    }
    memset(&st->pending, 0, sizeof st->pending);
    st->pending.due = (uint8_t)pd_property_tax(st, target);
    st->seat = (uint8_t)target;
    st->phase = PD_PH_TAX;
}

void pd_pay_tax(pd_state *st, pb_action a)
{
    int s = st->seat;
    uint32_t arg = PD_ARG(a);
    if (PD_KIND(a) == PD_A_PAY_MONEY) {
        *pd_purse(st, s) = (int16_t)(pd_money(st, s) - 1);
    } else if (PD_KIND(a) == PD_A_PAY_CARD) {
        pd_hand_remove(st, s, (pd_card)arg);
        st->sewer[arg]++;
    } else {
        st->player[s].powers &= ~(1ull << arg);
        st->power_discard |= 1ull << arg;
    }
    /* payments come in pay_key order, money first; the money paid is
     * already gone, so the next dollar starts at the same key */
    st->pending.last_key = (uint16_t)(PD_KIND(a) == PD_A_PAY_MONEY ? 0 : pd_pay_key(a));
    if (--st->pending.due == 0) {
        memset(&st->pending, 0, sizeof st->pending);
        if (pd_in_instants(st)) {
            ask_next(st);
        } else { /* played on the mover's turn */
            st->seat = st->instant_seat;
            st->phase = st->instant_resume;
        }
    }
}
