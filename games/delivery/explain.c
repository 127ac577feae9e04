/* explain.c -- New York Pizza Delivery: the rules text of a named card
 * (pb_game_ops.explain), for `rules NAME` at the terminal and the browser's
 * tooltips. The texts are the cards file's, the same the view gives: a power
 * card by its id or name ("motor-boat", "Motor Boat", "power:motor-boat"),
 * an ingredient's delivery power (Ham, the ANY cards, Extra Cheese) by its
 * name or a card of it ("HA/Ham"), and the Health Inspector. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "delivery.h"
#include "internal.h"

int pd_explain(const pd_data *d, const char *name, char *buf, size_t n)
{
    static const struct {
        const char *alias, *name;
    } aliases[] = {{"Any Veggie", "Any Vegetable"}, {"Any Veg", "Any Vegetable"}, {"Cheese", "Extra Cheese"}};
    const pd_cards *c = &d->cards;
    if (strncasecmp(name, "power:", 6) == 0)
        name += 6;
    int p = pd_power_find(c, name);
    if (p >= 0) {
        const pd_power *pw = &c->power[p];
        snprintf(buf, n, "%s (power card, %s%s%s): %s", pw->name, pd_power_type_name(pw->type),
                 pw->instant ? ", Instant" : "", pw->box == PD_EXPANSION ? ", 5-6 player expansion" : "", pw->text);
        return 0;
    }
    const char *slash = strrchr(name, '/'); /* a market card: its ingredient */
    const char *ingredient = slash ? slash + 1 : name;
    for (size_t k = 0; k < sizeof aliases / sizeof aliases[0]; k++)
        if (pd_names_match(ingredient, aliases[k].alias))
            ingredient = aliases[k].name;
    int i = pd_ingredient_find(c, ingredient);
    for (int k = 0; i < 0 && k < c->ningredients; k++) /* a pizzeria's top power, as the table names it */
        if (*c->ingredient[k].power && strcasecmp(name, c->ingredient[k].power) == 0)
            i = k;
    if (i >= 0) {
        const pd_ingredient *g = &c->ingredient[i];
        const char *kind = g->group == PD_CHEESE ? "the Extra Cheese mini expansion's card"
                           : g->group >= PD_ANY_MEAT ? "an ANY card (5-6 player expansion)"
                           : g->group == PD_MEAT     ? "a meat"
                                                     : "a vegetable";
        snprintf(buf, n, "%s (%s): %s%s", g->name, kind, g->persistent ? "" : "on top of a pizzeria: ", g->text);
        return 0;
    }
    if (pd_names_match(name, "Health Inspector")) {
        snprintf(buf, n, "Health Inspector (market deck, in its last third): when drawn, every player pays a $%d "
                         "fine, in money or with two cards; the third one ends the game.", c->fine);
        return 0;
    }
    return -1;
}
