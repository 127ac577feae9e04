/* internal.h -- what the engine's files share and nothing outside needs. */
#ifndef PD_INTERNAL_H
#define PD_INTERNAL_H

#include <string.h>

#include "delivery.h"

/* Are the 8 counts from p on all 0? Hands hold a few of PD_TYPES types:
 * scans pass over whole runs of them at once. */
static inline bool pd_none8(const uint8_t *p)
{
    uint64_t w;
    memcpy(&w, p, sizeof w);
    return w == 0;
}

_Static_assert(PD_TYPES % 8 == 0, "hands are scanned 8 types at a time");

/* Does the game play edition 2's corrections (PD_EDITION)? */
static inline bool pd_corrected(const pd_state *st)
{
    return st->rules->edition >= 2;
}

/* Does it play edition 3's (a card, not a disk, over the limit; Over
 * Achiever before the action)? */
static inline bool pd_edition_3(const pd_state *st)
{
    return st->rules->edition >= 3;
}

int pd_group_of(const pd_state *st, int ingredient);
bool pd_is_park_card(const pd_state *st, pd_card c);
int pd_hand_total(const pd_state *st, int seat);
void pd_hand_add(pd_state *st, int seat, pd_card c);
void pd_hand_remove(pd_state *st, int seat, pd_card c);
int pd_hand_limit(const pd_state *st, int seat);
/* Cards of a type, and cards of any kind, in hand and not yet set aside
 * for the build or delivery being made. */
int pd_free_cards(const pd_state *st, int seat, pd_card c);
int pd_free_total(const pd_state *st, int seat);
pd_card pd_draw(pd_state *st);
/* A draw into a hand: a known top card (Buying Time) no longer known to the
 * others, so none of them is. */
pd_card pd_draw_to_hand(pd_state *st);
/* The top face-down tip token, PD_NO_TIP when none is left. */
int pd_draw_tip(pd_state *st);
bool pd_has_pizzeria(const pd_state *st, int seat);
void pd_refill_open(pd_state *st);
void pd_make_order(pd_state *st, int slot);
/* An order's market cards from the top of the market deck, up to what its
 * card asks for (PD-O1); an empty slot. */
void pd_fill_order(pd_state *st, int slot);
void pd_clear_order(pd_state *st, int slot);
void pd_lose_any_card(pd_state *st, int seat);
bool pd_can_play_power(const pd_state *st);
void pd_action_done(pd_state *st);
int pd_add_action(pb_action *out, int n, pb_action a);
/* Payments come in one fixed order (money, cards by type, power cards) so
 * each way to pay is one sequence of decisions; this is an action's place. */
unsigned pd_pay_key(pb_action a);
/* Dollars the seat can still pay from each key on: cap[k] counts money
 * (only if `money`), free cards and power cards whose key is k or more;
 * `keep` is a card type a build needs itself (-1: none). */
#define PD_KEYS (1 + PD_TYPES + 64)
void pd_capacities(const pd_state *st, int seat, bool money, int keep, int *cap);
int pd_list_payments(const pd_state *st, pb_action *out, int n, int due, bool money, int keep);
/* payset.c: several payments or discards as one move (PD_A_SET). Is this a
 * phase of such moves; the set's single steps in payment order (-1: not a set
 * of this phase); the steps, made in order from st, as one set; would the
 * mover's next step after `last` be a further part of it? */
bool pd_set_phase(const pd_state *st);
int pd_set_steps(const pd_state *st, pb_action a, pb_action *steps, int max);
int pd_set_join(const pd_state *st, const pb_action *steps, int n, pb_action *out);
bool pd_set_continues(const pd_state *after, pb_action last);
bool pd_set_legal(const pd_state *st, pb_action a);
int pd_set_apply(pd_state *st, pb_action a, char *err, size_t errlen);
/* Why a move is not legal now, in the player's words (why.c); -1. */
int pd_why_illegal(const pd_state *st, pb_action a, char *err, size_t errlen);
/* What the mover is asked now, as "keep one of ...". */
void pd_asked_now(const pd_state *st, char *buf, size_t n);
/* The money a seat pays from and is paid into: its own, or the team's. */
int16_t *pd_purse(pd_state *st, int seat);
/* A lot's price now (free in co-op's first round and for Real-Estate
 * Tycoon's second build). */
int pd_lot_cost(const pd_state *st, int lot);
/* A tip token back among the face-down ones, where nobody can follow it. */
void pd_return_tip(pd_state *st, int tip);
/* Is the power card in this game's box (co-op leaves some out)? */
bool pd_power_in_game(const pd_state *st, int power);
/* PD-T3: a pizzeria's reputation limit, 7 while an Any Ingredient card is
 * its only card, else 5 (PD-P2). */
int pd_limit_of(const pd_state *st, const pd_pizzeria *z);
/* A pizzeria after an upgrade with card c (how: pd_upgrade), the card at
 * position `from` (from 1, bottom first; 0: none) put on top, before what is
 * over its limit goes; the cards the new one replaces (PD-P2) are counted in
 * `sewer` (NULL: nowhere). False when the upgrade cannot be so: a Central
 * Park card on top, or `from` naming no card that stays or a top the
 * upgrade gives without it. */
bool pd_upgraded(const pd_state *st, pd_pizzeria *z, pd_card c, int how, int from, uint8_t *sewer);
/* Could the mover build a pizzeria now, with `held_back` hand cards (power
 * cards about to be played) not paying? */
bool pd_any_build(const pd_state *st, int held_back);

/* deliver.c: fills r->supplied_by from the ingredients' groups (pd_rules_init). */
void pd_rules_supplies(pd_rules *r);
/* score.c: fills r->reach from r->data.map (pd_rules_init). */
void pd_rules_reach(pd_rules *r);

/* news.c: what a move brought about that nobody chose, for the log (pb_game_ops.news) */
int pd_news(const pd_state *before, const pd_state *after, const char *const *names, char *buf, size_t n);
/* explain.c: a named card's rules text (pb_game_ops.explain); -1 when none */
int pd_explain(const pd_data *d, const char *name, char *buf, size_t n);

/* instant.c */
/* A delivery is complete and gave `tips` tip tokens: ask the others for
 * Instant cards, if the game has them. */
void pd_open_instants(pd_state *st, int deliverer, int tips);
/* Is the table answering a delivery with Instant cards (or paying a tax)? */
bool pd_in_instants(const pd_state *st);
int pd_list_instants(const pd_state *st, pb_action *out, int n);
/* An Instant card played, or "done". */
void pd_answer_instant(pd_state *st, pb_action a);
/* Is Property Tax in this game's power deck? */
bool pd_tax_in_game(const pd_state *st);
/* Property Tax on `target`, who pays now; then the Instant answers go on,
 * or (played on the mover's own turn) the turn. */
void pd_start_tax(pd_state *st, int target);
/* A dollar of Property Tax: PD_A_PAY_MONEY, _CARD or _POWER. */
void pd_pay_tax(pd_state *st, pb_action a);

/* coop.c */
bool pd_first_round(const pd_state *st);
void pd_coop_setup(pd_state *st);
/* An order delivered: its slot empties, the others slide right. */
void pd_coop_delivered(pd_state *st, int slot);
/* Between turns: the evening's promotion, the next day, the morning's. */
void pd_coop_next_day(pd_state *st);
/* After every decision: promotions placed, the goals, the third inspector. */
void pd_coop_check(pd_state *st);
/* The co-op game ends with `result` (PD_COOP_...): Top Chef's die too. */
void pd_coop_over(pd_state *st, int result);
/* Insane or Easier: the ways to time a back-side token's pizza; one chosen. */
int pd_list_promo_times(const pd_state *st, pb_action *out, int n);
void pd_promo_time(pd_state *st, int when);
/* Transfer Goods: may the mover still give, the ways, giving one, to whom. */
bool pd_can_give(const pd_state *st);
int pd_list_gifts(const pd_state *st, pb_action *out, int n);
void pd_give(pd_state *st, uint32_t arg);
int pd_gift_receiver(const pd_state *st, pb_action a);

/* powers.c */
void pd_rules_powers(pd_rules *r);
int pd_list_power_plays(const pd_state *st, pb_action *out, int n);
/* A power card from the mover's hand: its index | (target seat + 1) << 8. */
void pd_play_power(pd_state *st, uint32_t arg);
/* A power card leaves a tableau for the discards, with what it holds. */
void pd_leave_tableau(pd_state *st, int seat, int power);
bool pd_frugal_take(const pd_state *st);
/* The Park Path's route bit while anyone owns it (open to everyone), else 0. */
unsigned pd_park_open(const pd_state *st);
unsigned pd_allowed_modes(const pd_state *st, int seat);
bool pd_modes_ok(const pd_state *st, int seat, unsigned modes);
int pd_distance_cards(const pd_state *st, int seat, int length, int free_range, unsigned modes);
int pd_power_bonus(const pd_state *st, int seat, int from_village, int zone_village, bool park_used);
void pd_delivery_powers(pd_state *st, int seat, int zone_village, unsigned modes, bool park_used);
bool pd_tip_blocked(const pd_state *st, int seat, int zone_village);
int pd_bonus_takes(const pd_state *st, int seat, int zone_village);
int pd_list_power_steps(const pd_state *st, pb_action *out, int n);
/* Bait and Switch in play: the mover's swaps this turn (none once used),
 * and making one. */
int pd_list_swaps(const pd_state *st, pb_action *out, int n);
void pd_swap(pd_state *st, uint32_t arg);
void pd_power_step(pd_state *st, pb_action a);
int pd_farmed_ingredient(const pd_state *st, int seat);
/* Cold Storage: may the seat use the cards under it now? */
bool pd_cold_usable(const pd_state *st, int seat);
int pd_list_refills(const pd_state *st, pb_action *out, int n);
void pd_refill_cold(pd_state *st, uint32_t discard);
/* Stock Market Crash: a seat's ways to lose a level, and losing one. */
int pd_list_crash(const pd_state *st, int s, pb_action *out, int n);
void pd_crash(pd_state *st, int s, uint32_t arg);
/* The global in play goes to the discards, with the card under it. */
void pd_end_global(pd_state *st);
/* Ingredient Shortage: the ingredient no delivery may include, or -1. */
int pd_short_ingredient(const pd_state *st);
/* Harlem Rotary Pizzeria's village (-1: no such card). */
int pd_rotary_village(const pd_state *st);
/* Power Outage: a regular order whose cards it took (none until the lights
 * come back: it cannot be delivered). */
bool pd_order_dark(const pd_state *st, int slot);

/* deliver.c */
/* The money a delivery as announced pays (the hand aside); 0 if none. */
int pd_delivery_reward(const pd_state *st, int seat, int owner, int slot, int village, int to, unsigned modes);
int pd_list_deliveries(const pd_state *st, pb_action *out, int n);
/* Harlem Rotary: the holder's ways to copy the delivery, and "done". */
int pd_list_copies(const pd_state *st, pb_action *out, int n);
void pd_decline_copy(pd_state *st);
int pd_list_delivery_steps(const pd_state *st, pb_action *out, int n);
/* The ingredients still needed, in any order: a hand card for any of them
 * (not only the next) while the rest can still be supplied and paid. */
int pd_list_any_need(const pd_state *st, pb_action *out, int n);
/* Why the delivery `a` (PD_A_DELIVER) cannot be made, in err; -1. */
int pd_delivery_why(const pd_state *st, pb_action a, char *err, size_t errlen);
/* A legal DELIVER, COPY, USE, USE_STORED, SHORT, EXTRA, CHEESE, TIP,
 * ARRANGE, DONE or (already counted) PAY. */
void pd_delivery_step(pd_state *st, pb_action a);
/* Extra Cheese (PD-C2): does the order in `slot` ask for cheese; is there
 * cheese on the delivery being made (its pizzeria's own or a card added);
 * does it leave out cheese its order asks for (NO TIP); and why a cheese
 * card cannot go on now (-1 with the reason in err). */
bool pd_order_wants_cheese(const pd_state *st, int slot);
bool pd_cheese_on(const pd_state *st);
bool pd_cheese_left_out(const pd_state *st);
int pd_cheese_why(const pd_state *st, char *err, size_t errlen);
/* Ham, once a token is chosen (pending.tip_slot): the orders the others lie
 * on now (`from`) and the orders they go back on (`to`), in slot order, as
 * many of each; their number. When the delivered order had no token, one
 * place gets none: `from` then ends with PD_HAM_NONE. */
#define PD_HAM_NONE 7
int pd_ham_places(const pd_state *st, int8_t *from, int8_t *to);

#endif
