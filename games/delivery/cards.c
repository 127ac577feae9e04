/* cards.c -- the New York Pizza Delivery cards: the cards file (PD-D3..D6,
 * PD-P1), the game data as a whole, and card names.
 *
 * The cards file names villages by their codes on the map, so it is read
 * for a map. Every count the file states is checked against what it lists:
 * an owner correcting a copy finds a slip at once. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/error.h"
#include "../../core/game.h"
#include "../../core/jsonutil.h"
#include "data.h"

extern const char pb_data_delivery_cards[];

static const char *const group_names[PD_GROUPS] = {"meat", "vegetable", "any meat", "any vegetable",
                                                   "any ingredient", "cheese"};
static const char *const type_names[PD_POWER_TYPES] = {"speed", "money", "event", "global", "timed"};
static const char *const set_keys[PD_SETS] = {"base", "any", "extra_cheese"};
static const char *const box_keys[PD_BOXES] = {"basic", "expansion"};
static const char *const tip_keys[PD_BOXES] = {"base", "expansion"};

const char *pd_group_name(pd_group g)
{
    return g < PD_GROUPS ? group_names[g] : "?";
}

const char *pd_power_type_name(pd_power_type t)
{
    return t < PD_POWER_TYPES ? type_names[t] : "?";
}

int pd_ingredient_find(const pd_cards *c, const char *name)
{
    for (int i = 0; i < c->ningredients; i++)
        if (pd_names_match(c->ingredient[i].name, name))
            return i;
    return -1;
}

int pd_power_find(const pd_cards *c, const char *id_or_name)
{
    for (int i = 0; i < c->npowers; i++)
        if (strcmp(c->power[i].id, id_or_name) == 0 || pd_names_match(c->power[i].name, id_or_name))
            return i;
    return -1;
}

/* ================================================================ helpers */

static bool int_in(const json_t *v, int lo, int hi, int *out)
{
    if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
        return false;
    *out = (int)json_integer_value(v);
    return true;
}

/* Ids of powers and orders: lower-case-with-dashes. */
static bool slug_ok(const json_t *v)
{
    if (!pd_json_text(v, PD_SLUG_LEN))
        return false;
    for (const char *s = json_string_value(v); *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '-'))
            return false;
    return true;
}

static const char *quoted(const json_t *v, char *buf, size_t n)
{
    pb_quote(json_is_string(v) ? json_string_value(v) : "?", buf, n);
    return buf;
}

/* An object with only these keys; `where` names it in messages. */
static int object_with(const json_t *j, const char *const *known, const char *where, char *err, size_t errlen)
{
    if (!json_is_object(j))
        return pb_errorf(err, errlen, "cards: %s must be an object", where);
    return pb_json_known_keys(j, known, "cards: ", where, err, errlen);
}

static int village_by_code(const pd_map *m, const json_t *v)
{
    for (int i = 0; json_is_string(v) && i < m->nvillages; i++)
        if (strcmp(m->village[i].code, json_string_value(v)) == 0)
            return i;
    return -1;
}

/* An ingredient named in the file (exact: the file is the reference). */
static int ingredient_named(const pd_cards *c, const char *name)
{
    for (int i = 0; i < c->ningredients; i++)
        if (strcmp(c->ingredient[i].name, name) == 0)
            return i;
    return -1;
}

/* ============================================================ ingredients */

static int read_ingredients(const json_t *list, pd_cards *c, char *err, size_t errlen)
{
    static const char *const known[] = {"name", "group", "persistent", "power", NULL};
    static const char *const power_known[] = {"id", "text", NULL};
    if (!json_is_array(list) || json_array_size(list) < 1 || json_array_size(list) > PD_MAX_INGREDIENTS)
        return pb_errorf(err, errlen, "cards: 'ingredients' must list 1 to %d ingredients", PD_MAX_INGREDIENTS);
    for (size_t i = 0; i < json_array_size(list); i++) {
        json_t *j = json_array_get(list, i);
        char where[128];
        snprintf(where, sizeof where, "ingredient %zu", i + 1);
        if (object_with(j, known, where, err, errlen) != 0)
            return -1;
        json_t *name = json_object_get(j, "name");
        /* a name matches itself only if it has a letter or a digit */
        if (!pd_json_text(name, PD_NAME_LEN) || strchr(json_string_value(name), '/') ||
            !pd_names_match(json_string_value(name), json_string_value(name)))
            return pb_errorf(err, errlen, "cards: %s: 'name' must be 1 to %d characters with a letter or digit "
                             "and without '/' (it is part of card names)", where, PD_NAME_LEN - 1);
        pd_ingredient *in = &c->ingredient[i];
        snprintf(in->name, sizeof in->name, "%s", json_string_value(name));
        if (pd_ingredient_find(c, in->name) >= 0 || pd_names_match(in->name, "Health Inspector"))
            return pb_errorf(err, errlen, "cards: ingredient name \"%s\" is used twice or too like another card's",
                             in->name);
        snprintf(where, sizeof where, "ingredient \"%s\"", in->name);
        json_t *group = json_object_get(j, "group");
        int g = 0;
        while (g < PD_GROUPS && !(json_is_string(group) && strcmp(json_string_value(group), group_names[g]) == 0))
            g++;
        if (g == PD_GROUPS)
            return pb_errorf(err, errlen, "cards: %s: 'group' must be \"meat\", \"vegetable\", \"any meat\", "
                             "\"any vegetable\", \"any ingredient\" or \"cheese\"", where);
        in->group = (pd_group)g;
        json_t *persistent = json_object_get(j, "persistent");
        if (persistent && !json_is_boolean(persistent))
            return pb_errorf(err, errlen, "cards: %s: 'persistent' must be true or false", where);
        in->persistent = json_is_true(persistent);
        json_t *power = json_object_get(j, "power");
        snprintf(where, sizeof where, "ingredient \"%s\" power", in->name);
        if (!power)
            return pb_errorf(err, errlen, "cards: ingredient \"%s\" has no 'power'", in->name);
        if (object_with(power, power_known, where, err, errlen) != 0)
            return -1;
        if (!slug_ok(json_object_get(power, "id")))
            return pb_errorf(err, errlen, "cards: %s: 'id' must be 1 to %d lower-case letters, digits or dashes",
                             where, PD_SLUG_LEN - 1);
        if (!pd_json_text(json_object_get(power, "text"), PD_TEXT_LEN))
            return pb_errorf(err, errlen, "cards: %s: 'text' must be one line of 1 to %d characters", where,
                             PD_TEXT_LEN - 1);
        snprintf(in->power, sizeof in->power, "%s", json_string_value(json_object_get(power, "id")));
        snprintf(in->text, sizeof in->text, "%s", json_string_value(json_object_get(power, "text")));
        c->ningredients = (int)i + 1;
    }
    return 0;
}

/* ================================================================ market */

static int read_market_set(const json_t *j, int set, const pd_map *m, pd_cards *c, char *err, size_t errlen)
{
    static const char *const known[] = {"count", "cards", NULL};
    static const char *const entry_known[] = {"village", "copies", NULL};
    pd_market *mk = &c->market[set];
    char where[64];
    snprintf(where, sizeof where, "market set \"%s\"", set_keys[set]);
    if (object_with(j, known, where, err, errlen) != 0)
        return -1;
    if (!int_in(json_object_get(j, "count"), 0, PD_MAX_MARKET, &mk->count))
        return pb_errorf(err, errlen, "cards: %s: 'count' must be a whole number from 0 to %d", where,
                         PD_MAX_MARKET);
    json_t *list = json_object_get(j, "cards");
    if (!json_is_array(list) || json_array_size(list) > PD_MAX_VILLAGES)
        return pb_errorf(err, errlen, "cards: %s: 'cards' must list at most %d villages", where, PD_MAX_VILLAGES);
    int total = 0;
    bool seen[PD_MAX_VILLAGES] = {false};
    for (size_t i = 0; i < json_array_size(list); i++) {
        json_t *e = json_array_get(list, i);
        char what[128], q[48];
        snprintf(what, sizeof what, "%s entry %zu", where, i + 1);
        if (object_with(e, entry_known, what, err, errlen) != 0)
            return -1;
        json_t *code = json_object_get(e, "village");
        int v = village_by_code(m, code);
        if (v < 0)
            return pb_errorf(err, errlen, "cards: %s: the map has no village with the code %s", what,
                             quoted(code, q, sizeof q));
        if (seen[v])
            return pb_errorf(err, errlen, "cards: %s lists village %s twice", where, m->village[v].code);
        seen[v] = true;
        json_t *copies = json_object_get(e, "copies");
        if (!json_is_object(copies))
            return pb_errorf(err, errlen, "cards: %s, village %s: 'copies' must be an object of ingredient: "
                             "number", where, m->village[v].code);
        const char *key;
        json_t *n;
        json_object_foreach(copies, key, n) {
            int ing = ingredient_named(c, key), k;
            if (ing < 0) {
                pb_quote(key, q, sizeof q);
                return pb_errorf(err, errlen, "cards: %s, village %s: unknown ingredient %s", where,
                                 m->village[v].code, q);
            }
            if (!int_in(n, 0, PD_MAX_COPIES, &k))
                return pb_errorf(err, errlen, "cards: %s, %s/%s: copies must be a whole number from 0 to %d",
                                 where, m->village[v].name, c->ingredient[ing].name, PD_MAX_COPIES);
            mk->copies[v][ing] = (uint8_t)k;
            total += k;
        }
    }
    if (total != mk->count)
        return pb_errorf(err, errlen, "cards: %s holds %d cards but its 'count' says %d", where, total, mk->count);
    return 0;
}

static int read_market(const json_t *j, const pd_map *m, pd_cards *c, char *err, size_t errlen)
{
    static const char *const known[] = {"base", "any", "extra_cheese", NULL};
    if (!j)
        return pb_errorf(err, errlen, "cards: 'market' is missing");
    if (object_with(j, known, "'market'", err, errlen) != 0)
        return -1;
    int total = 0;
    for (int s = 0; s < PD_SETS; s++) {
        json_t *set = json_object_get(j, set_keys[s]);
        if (!set && s == PD_SET_BASE)
            return pb_errorf(err, errlen, "cards: 'market' has no \"base\" set");
        if (set && read_market_set(set, s, m, c, err, errlen) != 0)
            return -1;
        total += c->market[s].count;
    }
    if (total > PD_MAX_MARKET)
        return pb_errorf(err, errlen, "cards: the market sets hold %d cards, more than %d", total, PD_MAX_MARKET);
    return 0;
}

/* ================================================================ orders */

static int read_need(const json_t *j, const char *where, const pd_cards *c, pd_need *need, char *err, size_t errlen)
{
    static const char *const known[] = {"ingredient", "group", "count", NULL};
    if (object_with(j, known, where, err, errlen) != 0)
        return -1;
    json_t *ing = json_object_get(j, "ingredient"), *group = json_object_get(j, "group");
    int n;
    if (!int_in(json_object_get(j, "count"), 1, PD_MAX_ORDER_SIZE, &n))
        return pb_errorf(err, errlen, "cards: %s: 'count' must be a whole number from 1 to %d", where,
                         PD_MAX_ORDER_SIZE);
    need->count = (uint8_t)n;
    need->ingredient = -1;
    if (ing && !group) {
        int i = json_is_string(ing) ? ingredient_named(c, json_string_value(ing)) : -1;
        char q[48];
        if (i < 0)
            return pb_errorf(err, errlen, "cards: %s: unknown ingredient %s", where, quoted(ing, q, sizeof q));
        need->ingredient = (int8_t)i;
        need->group = (int8_t)c->ingredient[i].group;
    } else if (group && !ing && json_is_string(group) && strcmp(json_string_value(group), "meat") == 0) {
        need->group = PD_MEAT;
    } else if (group && !ing && json_is_string(group) && strcmp(json_string_value(group), "vegetable") == 0) {
        need->group = PD_VEGETABLE;
    } else {
        return pb_errorf(err, errlen, "cards: %s must name either an 'ingredient' or a 'group' (\"meat\" or "
                         "\"vegetable\")", where);
    }
    return 0;
}

static int read_specialty(const json_t *j, int k, const pd_cards *c, pd_order_kind *o, char *err, size_t errlen)
{
    static const char *const known[] = {"id", "name", "needs", "extra_cards", "pay", "copies", NULL};
    char where[64];
    snprintf(where, sizeof where, "specialty order %d", k + 1);
    if (object_with(j, known, where, err, errlen) != 0)
        return -1;
    if (!slug_ok(json_object_get(j, "id")))
        return pb_errorf(err, errlen, "cards: %s: 'id' must be 1 to %d lower-case letters, digits or dashes", where,
                         PD_SLUG_LEN - 1);
    snprintf(o->id, sizeof o->id, "%s", json_string_value(json_object_get(j, "id")));
    snprintf(where, sizeof where, "specialty order \"%s\"", o->id);
    if (!pd_json_text(json_object_get(j, "name"), PD_NAME_LEN))
        return pb_errorf(err, errlen, "cards: %s: 'name' must be 1 to %d characters", where, PD_NAME_LEN - 1);
    snprintf(o->name, sizeof o->name, "%s", json_string_value(json_object_get(j, "name")));
    o->specialty = true;
    int extra, pay, copies = 1;
    if (!int_in(json_object_get(j, "extra_cards"), 0, PD_MAX_ORDER_SIZE, &extra))
        return pb_errorf(err, errlen, "cards: %s: 'extra_cards' must be a whole number from 0 to %d", where,
                         PD_MAX_ORDER_SIZE);
    if (!int_in(json_object_get(j, "pay"), 0, 50, &pay))
        return pb_errorf(err, errlen, "cards: %s: 'pay' must be a whole number of dollars from 0 to 50", where);
    if (json_object_get(j, "copies") && !int_in(json_object_get(j, "copies"), 1, PD_MAX_ORDERS, &copies))
        return pb_errorf(err, errlen, "cards: %s: 'copies' must be a whole number from 1 to %d", where,
                         PD_MAX_ORDERS);
    o->extra_cards = (uint8_t)extra;
    o->pay = (uint8_t)pay;
    o->copies = (uint8_t)copies;
    json_t *needs = json_object_get(j, "needs");
    if (!json_is_array(needs) || json_array_size(needs) < 1 || json_array_size(needs) > PD_MAX_NEEDS)
        return pb_errorf(err, errlen, "cards: %s: 'needs' must list 1 to %d ingredients", where, PD_MAX_NEEDS);
    int size = extra;
    for (size_t i = 0; i < json_array_size(needs); i++) {
        char what[128];
        snprintf(what, sizeof what, "%s need %zu", where, i + 1);
        if (read_need(json_array_get(needs, i), what, c, &o->need[i], err, errlen) != 0)
            return -1;
        size += o->need[i].count;
        o->nneeds = (uint8_t)(i + 1);
    }
    if (size > PD_MAX_ORDER_SIZE)
        return pb_errorf(err, errlen, "cards: %s needs %d cards, more than %d", where, size, PD_MAX_ORDER_SIZE);
    return 0;
}

static int read_orders(const json_t *j, pd_cards *c, char *err, size_t errlen)
{
    static const char *const known[] = {"count", "regular", "specialty", NULL};
    static const char *const regular_known[] = {"ingredients", "copies", NULL};
    if (!j)
        return pb_errorf(err, errlen, "cards: 'orders' is missing");
    if (object_with(j, known, "'orders'", err, errlen) != 0)
        return -1;
    if (!int_in(json_object_get(j, "count"), 1, PD_MAX_ORDERS, &c->orders))
        return pb_errorf(err, errlen, "cards: orders: 'count' must be a whole number from 1 to %d", PD_MAX_ORDERS);
    json_t *regular = json_object_get(j, "regular"), *specialty = json_object_get(j, "specialty");
    if (!json_is_array(regular) || (specialty && !json_is_array(specialty)) ||
        json_array_size(regular) + json_array_size(specialty) > PD_MAX_ORDER_KINDS)
        return pb_errorf(err, errlen, "cards: orders: 'regular' and 'specialty' must list at most %d kinds of "
                         "order together", PD_MAX_ORDER_KINDS);
    int total = 0;
    for (size_t i = 0; i < json_array_size(regular); i++) {
        json_t *r = json_array_get(regular, i);
        char where[128];
        int n, copies;
        snprintf(where, sizeof where, "regular order %zu", i + 1);
        if (object_with(r, regular_known, where, err, errlen) != 0)
            return -1;
        if (!int_in(json_object_get(r, "ingredients"), 1, PD_MAX_REGULAR, &n))
            return pb_errorf(err, errlen, "cards: %s: 'ingredients' must be a whole number from 1 to %d", where,
                             PD_MAX_REGULAR);
        if (!int_in(json_object_get(r, "copies"), 1, PD_MAX_ORDERS, &copies))
            return pb_errorf(err, errlen, "cards: %s: 'copies' must be a whole number from 1 to %d", where,
                             PD_MAX_ORDERS);
        for (int k = 0; k < c->norder_kinds; k++)
            if (c->order[k].market_cards == n)
                return pb_errorf(err, errlen, "cards: regular orders %d and %zu both need %d ingredients: give "
                                 "one of them all the copies", k + 1, i + 1, n);
        pd_order_kind *o = &c->order[c->norder_kinds++];
        snprintf(o->id, sizeof o->id, "regular-%d", n);
        snprintf(o->name, sizeof o->name, "%d-ingredient pizza", n);
        o->copies = (uint8_t)copies;
        o->market_cards = (uint8_t)n;
        o->pay = (uint8_t)n; /* PD-D4: $1 per ingredient */
        total += copies;
    }
    for (size_t i = 0; i < json_array_size(specialty); i++) {
        pd_order_kind *o = &c->order[c->norder_kinds];
        if (read_specialty(json_array_get(specialty, i), (int)i, c, o, err, errlen) != 0)
            return -1;
        for (int k = 0; k < c->norder_kinds; k++)
            if (strcmp(c->order[k].id, o->id) == 0)
                return pb_errorf(err, errlen, "cards: order id \"%s\" is used twice", o->id);
        c->norder_kinds++;
        total += o->copies;
    }
    if (total != c->orders)
        return pb_errorf(err, errlen, "cards: the orders add up to %d cards but 'count' says %d", total, c->orders);
    return 0;
}

/* ================================================================== tips */

static int read_tips(const json_t *j, int box, pd_cards *c, char *err, size_t errlen)
{
    static const char *const known[] = {"count", "no_tip", "tokens", NULL};
    static const char *const token_known[] = {"value", "copies", NULL};
    pd_tips *t = &c->tips[box];
    char where[64];
    snprintf(where, sizeof where, "tips \"%s\"", tip_keys[box]);
    if (object_with(j, known, where, err, errlen) != 0)
        return -1;
    if (!int_in(json_object_get(j, "count"), 0, PD_MAX_TIPS, &t->count) ||
        !int_in(json_object_get(j, "no_tip"), 0, PD_MAX_TIPS, &t->no_tip))
        return pb_errorf(err, errlen, "cards: %s: 'count' and 'no_tip' must be whole numbers from 0 to %d", where,
                         PD_MAX_TIPS);
    json_t *tokens = json_object_get(j, "tokens");
    if (!json_is_array(tokens) || json_array_size(tokens) > PD_MAX_TIP_VALUE)
        return pb_errorf(err, errlen, "cards: %s: 'tokens' must list at most %d values", where, PD_MAX_TIP_VALUE);
    int total = 0;
    for (size_t i = 0; i < json_array_size(tokens); i++) {
        json_t *e = json_array_get(tokens, i);
        char what[128];
        int value, copies;
        snprintf(what, sizeof what, "%s token %zu", where, i + 1);
        if (object_with(e, token_known, what, err, errlen) != 0)
            return -1;
        if (!int_in(json_object_get(e, "value"), 1, PD_MAX_TIP_VALUE, &value))
            return pb_errorf(err, errlen, "cards: %s: 'value' must be $1 to $%d (NO TIP tokens are counted in "
                             "'no_tip')", what, PD_MAX_TIP_VALUE);
        if (!int_in(json_object_get(e, "copies"), 1, PD_MAX_TIPS, &copies))
            return pb_errorf(err, errlen, "cards: %s: 'copies' must be a whole number from 1 to %d", what,
                             PD_MAX_TIPS);
        if (t->copies[value])
            return pb_errorf(err, errlen, "cards: %s lists the value $%d twice", where, value);
        t->copies[value] = (uint8_t)copies;
        total += copies;
    }
    if (total != t->count)
        return pb_errorf(err, errlen, "cards: %s add up to %d tokens but 'count' says %d", where, total, t->count);
    if (t->count + t->no_tip > PD_MAX_TIPS)
        return pb_errorf(err, errlen, "cards: %s: more than %d tokens", where, PD_MAX_TIPS);
    return 0;
}

/* ================================================================ powers */

static int read_power(const json_t *j, const char *where, const pd_map *m, pd_power *p, char *err, size_t errlen)
{
    static const char *const known[] = {"id", "name", "type", "text", "instant", "not_for_coop", "tokens",
                                        "villages", NULL};
    char at[128], q[48];
    if (object_with(j, known, where, err, errlen) != 0)
        return -1;
    if (!slug_ok(json_object_get(j, "id")))
        return pb_errorf(err, errlen, "cards: %s: 'id' must be 1 to %d lower-case letters, digits or dashes", where,
                         PD_SLUG_LEN - 1);
    snprintf(p->id, sizeof p->id, "%s", json_string_value(json_object_get(j, "id")));
    snprintf(at, sizeof at, "power card \"%s\"", p->id);
    if (!pd_json_text(json_object_get(j, "name"), PD_NAME_LEN))
        return pb_errorf(err, errlen, "cards: %s: 'name' must be 1 to %d characters", at, PD_NAME_LEN - 1);
    snprintf(p->name, sizeof p->name, "%s", json_string_value(json_object_get(j, "name")));
    if (!pd_json_text(json_object_get(j, "text"), PD_TEXT_LEN))
        return pb_errorf(err, errlen, "cards: %s: 'text' must be one line of 1 to %d characters", at,
                         PD_TEXT_LEN - 1);
    snprintf(p->text, sizeof p->text, "%s", json_string_value(json_object_get(j, "text")));
    json_t *type = json_object_get(j, "type");
    int t = 0;
    while (t < PD_POWER_TYPES && !(json_is_string(type) && strcmp(json_string_value(type), type_names[t]) == 0))
        t++;
    if (t == PD_POWER_TYPES)
        return pb_errorf(err, errlen, "cards: %s: 'type' must be \"speed\", \"money\", \"event\", \"global\" or "
                         "\"timed\"", at);
    p->type = (pd_power_type)t;
    json_t *instant = json_object_get(j, "instant"), *coop = json_object_get(j, "not_for_coop");
    if ((instant && !json_is_boolean(instant)) || (coop && !json_is_boolean(coop)))
        return pb_errorf(err, errlen, "cards: %s: 'instant' and 'not_for_coop' must be true or false", at);
    p->instant = json_is_true(instant);
    p->not_for_coop = json_is_true(coop);
    if (p->instant && p->type != PD_TIMED)
        return pb_errorf(err, errlen, "cards: %s: only TIMED cards can be Instant", at);
    int tokens = 0;
    if (json_object_get(j, "tokens") && !int_in(json_object_get(j, "tokens"), 1, 9, &tokens))
        return pb_errorf(err, errlen, "cards: %s: 'tokens' must be a whole number from 1 to 9", at);
    p->tokens = (uint8_t)tokens;
    json_t *villages = json_object_get(j, "villages");
    if (villages && (!json_is_array(villages) || json_array_size(villages) < 1 || json_array_size(villages) > 2))
        return pb_errorf(err, errlen, "cards: %s: 'villages' must list 1 or 2 village codes", at);
    for (size_t i = 0; i < json_array_size(villages); i++) {
        int v = village_by_code(m, json_array_get(villages, i));
        if (v < 0)
            return pb_errorf(err, errlen, "cards: %s: the map has no village with the code %s", at,
                             quoted(json_array_get(villages, i), q, sizeof q));
        p->village[p->nvillages++] = (int8_t)v;
    }
    return 0;
}

static int read_powers(const json_t *j, const pd_map *m, pd_cards *c, char *err, size_t errlen)
{
    static const char *const known[] = {"basic", "expansion", NULL};
    static const char *const box_known[] = {"count", "cards", NULL};
    if (!j)
        return pb_errorf(err, errlen, "cards: 'powers' is missing");
    if (object_with(j, known, "'powers'", err, errlen) != 0)
        return -1;
    for (int b = 0; b < PD_BOXES; b++) {
        json_t *box = json_object_get(j, box_keys[b]);
        char where[64];
        int count;
        snprintf(where, sizeof where, "%s power cards", box_keys[b]);
        if (!box)
            return pb_errorf(err, errlen, "cards: 'powers' has no \"%s\" cards", box_keys[b]);
        if (object_with(box, box_known, where, err, errlen) != 0)
            return -1;
        if (!int_in(json_object_get(box, "count"), 0, PD_MAX_POWERS, &count))
            return pb_errorf(err, errlen, "cards: %s: 'count' must be a whole number from 0 to %d", where,
                             PD_MAX_POWERS);
        json_t *list = json_object_get(box, "cards");
        if (!json_is_array(list) || c->npowers + json_array_size(list) > PD_MAX_POWERS)
            return pb_errorf(err, errlen, "cards: %s: 'cards' must be a list, at most %d power cards in all", where,
                             PD_MAX_POWERS);
        for (size_t i = 0; i < json_array_size(list); i++) {
            pd_power *p = &c->power[c->npowers];
            char what[128];
            snprintf(what, sizeof what, "%s %zu", where, i + 1);
            if (read_power(json_array_get(list, i), what, m, p, err, errlen) != 0)
                return -1;
            p->box = (pd_box)b;
            for (int k = 0; k < c->npowers; k++)
                if (strcmp(c->power[k].id, p->id) == 0 || pd_names_match(c->power[k].name, p->name))
                    return pb_errorf(err, errlen, "cards: power cards %s and %s have the same id or name",
                                     c->power[k].id, p->id);
            c->npowers++;
        }
        c->powers_in[b] = (int)json_array_size(list);
        if (c->powers_in[b] != count)
            return pb_errorf(err, errlen, "cards: the %s number %d but 'count' says %d", where, c->powers_in[b],
                             count);
    }
    return 0;
}

/* ============================================================== the file */

int pd_cards_from_json(const json_t *j, const pd_map *m, pd_cards *c, char *err, size_t errlen)
{
    static const char *const known[] = {"name", "note", "ingredients", "market", "health_inspectors", "orders",
                                        "tips", "powers", NULL};
    static const char *const inspector_known[] = {"count", "fine", NULL};
    memset(c, 0, sizeof *c);
    if (!json_is_object(j))
        return pb_errorf(err, errlen, "cards: must be a JSON object");
    if (pb_json_known_keys(j, known, "cards: ", "the cards", err, errlen) != 0)
        return -1;
    json_t *name = json_object_get(j, "name"), *note = json_object_get(j, "note");
    if (name && !pd_json_text(name, sizeof c->name))
        return pb_errorf(err, errlen, "cards: 'name' must be 1 to %zu characters", sizeof c->name - 1);
    snprintf(c->name, sizeof c->name, "%s", name ? json_string_value(name) : "custom cards");
    if (note && !json_is_string(note))
        return pb_errorf(err, errlen, "cards: 'note' must be a string");
    if (read_ingredients(json_object_get(j, "ingredients"), c, err, errlen) != 0 ||
        read_market(json_object_get(j, "market"), m, c, err, errlen) != 0)
        return -1;
    json_t *insp = json_object_get(j, "health_inspectors");
    if (!insp)
        return pb_errorf(err, errlen, "cards: 'health_inspectors' is missing");
    if (object_with(insp, inspector_known, "'health_inspectors'", err, errlen) != 0)
        return -1;
    if (!int_in(json_object_get(insp, "count"), 1, PD_MAX_INSPECTORS, &c->inspectors) ||
        !int_in(json_object_get(insp, "fine"), 2, 2, &c->fine))
        return pb_errorf(err, errlen,
                         "cards: health_inspectors: 'count' must be 1 to %d and 'fine' $2 (paid as $2 or two cards)",
                         PD_MAX_INSPECTORS);
    if (read_orders(json_object_get(j, "orders"), c, err, errlen) != 0)
        return -1;
    json_t *tips = json_object_get(j, "tips");
    static const char *const tips_known[] = {"base", "expansion", NULL};
    if (!tips)
        return pb_errorf(err, errlen, "cards: 'tips' is missing");
    if (object_with(tips, tips_known, "'tips'", err, errlen) != 0)
        return -1;
    for (int b = 0; b < PD_BOXES; b++) {
        json_t *t = json_object_get(tips, tip_keys[b]);
        if (!t)
            return pb_errorf(err, errlen, "cards: 'tips' has no \"%s\" tokens", tip_keys[b]);
        if (read_tips(t, b, c, err, errlen) != 0)
            return -1;
    }
    return read_powers(json_object_get(j, "powers"), m, c, err, errlen);
}

int pd_cards_from_text(const char *text, const pd_map *m, pd_cards *c, char *err, size_t errlen)
{
    json_t *j = pb_json_parse(text, "cards: ", err, errlen);
    if (!j)
        return -1;
    int rc = pd_cards_from_json(j, m, c, err, errlen);
    json_decref(j);
    return rc;
}

int pd_cards_default(const pd_map *m, pd_cards *c, char *err, size_t errlen)
{
    return pd_cards_from_text(pb_data_delivery_cards, m, c, err, errlen);
}

/* ========================================================= the game data */

int pd_data_from_json(const json_t *map, const json_t *cards, pd_data *d, char *err, size_t errlen)
{
    if (!map)
        pd_map_default(&d->map);
    else if (pd_map_from_json(map, &d->map, err, errlen) != 0)
        return -1;
    return cards ? pd_cards_from_json(cards, &d->map, &d->cards, err, errlen)
                 : pd_cards_default(&d->map, &d->cards, err, errlen);
}

void pd_data_default(pd_data *d)
{
    char err[PB_ERR_LEN];
    pd_map_default(&d->map);
    if (pd_cards_default(&d->map, &d->cards, err, sizeof err) != 0) {
        /* The embedded files are part of the program and checked by the tests. */
        fprintf(stderr, "pizzabox: the embedded New York Pizza Delivery cards are broken: %s\n", err);
        abort();
    }
}

/* ============================================================ card names */

static bool card_known(const pd_data *d, pd_card card)
{
    return PD_CARD_VILLAGE(card) < d->map.nvillages && PD_CARD_INGREDIENT(card) < d->cards.ningredients;
}

void pd_card_name(const pd_data *d, pd_card card, char *buf, size_t n)
{
    if (card == PD_CARD_INSPECTOR)
        snprintf(buf, n, "Health Inspector");
    else if (!card_known(d, card))
        snprintf(buf, n, "?");
    else
        snprintf(buf, n, "%s/%s", d->map.village[PD_CARD_VILLAGE(card)].name,
                 d->cards.ingredient[PD_CARD_INGREDIENT(card)].name);
}

void pd_card_word(const pd_data *d, pd_card card, char *buf, size_t n)
{
    pd_card_name(d, card, buf, n);
    for (char *s = buf; *s; s++)
        if (*s == ' ')
            *s = '-';
}

int pd_card_from_text(const pd_data *d, const char *text, pd_card *card, char *err, size_t errlen)
{
    char q[PD_CARD_NAME_LEN + 8], village[PD_CARD_NAME_LEN];
    pb_quote(text, q, sizeof q);
    const char *slash = strchr(text, '/');
    if (!slash && pd_names_match(text, "Health Inspector")) {
        *card = PD_CARD_INSPECTOR;
        return 0;
    }
    if (!slash || strchr(slash + 1, '/') || (size_t)(slash - text) >= sizeof village)
        return pb_errorf(err, errlen, "card %s: write Village/Ingredient, e.g. Midtown/Pepperoni", q);
    memcpy(village, text, (size_t)(slash - text));
    village[slash - text] = 0;
    int v = pd_village_find(&d->map, village), i = pd_ingredient_find(&d->cards, slash + 1);
    if (v < 0)
        return pb_errorf(err, errlen, "card %s: no village of that name", q);
    if (i < 0)
        return pb_errorf(err, errlen, "card %s: no ingredient of that name", q);
    *card = PD_CARD(v, i);
    return 0;
}
