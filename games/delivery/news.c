/* news.c -- New York Pizza Delivery: what a move brought about that no
 * player chose, for the table's log (pb_game_ops.news): a Health Inspector
 * drawn and the fines paid at once, the tolls a delivery paid (Park Path,
 * Mob Boss, Financial Wizard, That's My Spot), the power card it drew, an
 * Instant card's effect, what went back from a pizzeria over its limit.
 * Only what everyone sees: never which power card was drawn. Players are
 * called by the names the table gives them, else "Player N". */
#include <stdio.h>
#include <string.h>

#include "../../core/text.h"
#include "delivery.h"
#include "internal.h"

typedef struct said {
    pb_sentences out;
    char who[PD_PLAYERS][48];   /* each seat's name */
    char whose[PD_PLAYERS][52]; /* and its possessive */
    const char *verb_s[PD_PLAYERS]; /* "draws", or "draw" for a terminal's "You" */
} said;

static const char *power_name(const pd_state *st, pd_pc pc)
{
    int i = st->rules->pc[pc];
    return i >= 0 ? st->rules->data.cards.power[i].name : "?";
}

/* The tolls a delivery paid: every other seat whose money grew. */
static void tolls(said *s, const pd_state *b, const pd_state *a, int deliverer)
{
    static const pd_pc cards[] = {PD_PC_PARK_PATH, PD_PC_MOB_BOSS, PD_PC_FINANCIAL_WIZARD, PD_PC_MY_SPOT};
    for (int t = 0; t < a->players; t++) {
        int got = a->player[t].money - b->player[t].money;
        if (t == deliverer || got <= 0 || a->rules->coop)
            continue;
        char why[96] = "";
        size_t used = 0;
        for (size_t k = 0; k < sizeof cards / sizeof cards[0]; k++)
            if (pd_has(b, t, cards[k]) && used < sizeof why)
                used += (size_t)snprintf(why + used, sizeof why - used, "%s%s", used ? ", " : "", power_name(b, cards[k]));
        pb_say(&s->out, "%s pay%s %s $%d (%s).", s->who[deliverer], s->verb_s[deliverer], s->who[t], got, used ? why : "a toll");
    }
}

int pd_news(const pd_state *b, const pd_state *a, const char *const *names, char *buf, size_t n)
{
    said s = {.out = {buf, n, 0}};
    if (!n)
        return 0;
    for (int t = 0; t < a->players && t < PD_PLAYERS; t++) {
        if (names && names[t] && *names[t])
            snprintf(s.who[t], sizeof s.who[t], "%s", names[t]);
        else
            snprintf(s.who[t], sizeof s.who[t], "Player %d", t + 1);
        bool you = strcmp(s.who[t], "You") == 0;
        s.verb_s[t] = you ? "" : "s";
        if (you)
            snprintf(s.whose[t], sizeof s.whose[t], "Your");
        else
            snprintf(s.whose[t], sizeof s.whose[t], "%s's", s.who[t]);
    }
    buf[0] = 0;
    const pd_map *m = &a->rules->data.map;
    int drawn = a->inspectors - b->inspectors;
    if (drawn == 1)
        pb_say(&s.out, "A Health Inspector is drawn (%d of %d): everyone owes a $%d fine.", a->inspectors,
            PD_INSPECTORS_TO_END, a->rules->data.cards.fine);
    else if (drawn == 2) /* one draw may turn up two (or three): a fine for each */
        pb_say(&s.out, "Two Health Inspectors are drawn (%d and %d of %d): everyone owes two $%d fines.",
            b->inspectors + 1, a->inspectors, PD_INSPECTORS_TO_END, a->rules->data.cards.fine);
    else if (drawn > 2)
        pb_say(&s.out, "%d Health Inspectors are drawn (%d to %d of %d): everyone owes %d $%d fines.", drawn,
            b->inspectors + 1, a->inspectors, PD_INSPECTORS_TO_END, drawn, a->rules->data.cards.fine);
    /* fines paid at once (engine.c, settle): with fewer than two cards, $2
     * when the money covers it, else all the money and cards there are. So a
     * seat left with money or a card paid each fine in dollars; one left
     * with nothing gave all it had. (The move's other gains and costs are in
     * the same before and after: their difference is not the fine.) */
    int chose = b->phase == PD_PH_FINE ? pd_current_seat(b) : -1; /* this move: a fine paid by choice */
    for (int t = 0; t < a->players; t++) {
        int paid = b->fines_due[t] + (drawn > 0 ? drawn : 0) - a->fines_due[t] - (t == chose);
        if (paid <= 0)
            continue;
        bool you = strcmp(s.who[t], "You") == 0;
        if (pd_money(a, t) > 0 || pd_hand_total(a, t) > 0)
            pb_say(&s.out, "%s pay%s the fine at once: $%d.", s.who[t], s.verb_s[t], paid * a->rules->data.cards.fine);
        else
            pb_say(&s.out, "%s pay%s the fine at once with all the money and cards %s had.", s.who[t], s.verb_s[t],
                you ? "you" : "they");
    }
    /* a delivery made: its tolls and the power card it drew */
    for (int t = 0; t < a->players; t++) {
        if (a->player[t].deliveries <= b->player[t].deliveries)
            continue;
        tolls(&s, b, a, t);
        if (b->npower_deck > a->npower_deck)
            pb_say(&s.out, "%s draw%s a power card.", s.who[t], s.verb_s[t]);
    }
    /* Instant cards: the tip sent back */
    for (int t = 0; t < a->players; t++)
        if (b->phase == PD_PH_INSTANT && a->player[t].ntips < b->player[t].ntips)
            pb_say(&s.out, "%s tip token goes back face down.", s.whose[t]);
    if (a->phase == PD_PH_TAX && b->phase != PD_PH_TAX)
        pb_say(&s.out, "%s owe%s $%d Property Tax.", s.who[a->seat], s.verb_s[a->seat], a->pending.due);
    /* an upgrade at the limit: what went back at once (one way only) */
    if (b->phase == PD_PH_REPUTATION && a->seat == b->seat && a->phase != PD_PH_TRIM)
        for (int v = 0; v < m->nvillages; v++) {
            const pd_pizzeria *zb = &b->player[b->seat].pizzeria[v], *za = &a->player[a->seat].pizzeria[v];
            int limit = pd_limit_of(a, za);
            if (zb->lot >= 0 && za->lot >= 0 && zb->disks + zb->ncards >= limit && za->disks + za->ncards == limit &&
                (za->disks != zb->disks || za->ncards != zb->ncards || memcmp(za->card, zb->card, za->ncards)))
                pb_say(&s.out, "The pizzeria in %s is at its reputation limit of %d: what was over went at once.",
                    m->village[v].name, limit);
        }
    return (int)s.out.len;
}
