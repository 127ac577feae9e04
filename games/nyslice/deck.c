/* deck.c -- New York Slice components: the deck file, slice tokens and the
 * Today's Specials table. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/error.h"
#include "../../core/jsonutil.h"
#include "../../core/text.h"
#include "nyslice.h"

extern const char pb_data_nyslice_deck[];

const char *nys_default_deck_json(void)
{
    return pb_data_nyslice_deck;
}

/* ---- Today's Specials (NYS-C5) ---- */

static const struct {
    const char *slug, *name, *text;
    bool scored;
} specials[NYS_SPECIAL_COUNT] = {
    [NYS_BUFFET] = {"buffet", "Buffet", "At the end: +1 point for each pizza type you collected (a Combo half counts), +1 more if you collected the Anchovy slice.", true},
    [NYS_COMBO_CRAVING] = {"combo-craving", "Combo Craving", "You may eat Combo slices: the ones already collected when you gain this, later ones on the turn you gain them. At the end: +3 points per eaten Combo.", true},
    [NYS_CUT_IN_LINE] = {"cut-in-line", "Cut in Line", "Once, in a later round when you are not the Slicer: right after the division, choose your portion first. Revealed in the last round or in a 2-player game, it goes back to the box and another Special replaces it.", false},
    [NYS_DAY_OLD_PIZZA] = {"day-old-pizza", "Day-Old Pizza", "At the end: -2 points.", true},
    [NYS_DIBS] = {"dibs", "Dibs!", "Once, in a later round before the Slicer divides: take any one slice out of the pizza and place it. Revealed in a 2-player game, it goes back to the box and another Special replaces it.", false},
    [NYS_EVERYONE_ELSE_DIET] = {"everyone-else-diet", "The Everyone-Else Diet", "At the end: every other player loses 1 point per two slices they ate (rounded down).", true},
    [NYS_MYSTERY_SLICE] = {"mystery-slice", "Mystery Slice", "When you take it: draw one of the face-down spare slices; only you see it. Eat or collect it like the others; if eaten it stays secret.", false},
    [NYS_SECONDS] = {"seconds", "Seconds", "Just before scoring: eat as many of your collected slices of one type as you like, as long as they carry pepperoni (never a Combo or a Veggie without pepperoni).", false},
    [NYS_SNEAK_A_SLICE] = {"sneak-a-slice", "Sneak-a-Slice", "Once, in a later round when you are not the Slicer: just before you choose, move an end slice of one portion to the adjacent portion. Revealed in the last round, it goes back to the box and another Special replaces it.", false},
    [NYS_STUFFED_CRUST] = {"stuffed-crust", "Stuffed Crust", "At the end: +5 points.", true},
    [NYS_SUPERSIZE_COMBOS] = {"supersize-combos", "Supersize Combos", "Each collected Combo counts as two slices of each of its types instead of half.", false},
    [NYS_TIEBREAKER] = {"tiebreaker", "Tiebreaker", "You win every tie for the majority of a type you are part of.", false},
    [NYS_YOU_LIKE_ANCHOVIES] = {"you-like-anchovies", "You Like Anchovies!", "Anchovies on your collected slices score +1 each instead of -1.", false},
    [NYS_YOU_LOVE_VEGGIES] = {"you-love-veggies", "You Love Veggies", "When you receive this, you may eat your collected Veggie slices and those taken with it; later Veggies without pepperoni may not be eaten. At the end: +3 points per eaten Veggie slice. Revealed in a 2-player game, it goes back to the box and another Special replaces it.", true},
};

const char *nys_special_slug(int sp)
{
    return sp >= 0 && sp < NYS_SPECIAL_COUNT ? specials[sp].slug : "?";
}

const char *nys_special_name(int sp)
{
    return sp >= 0 && sp < NYS_SPECIAL_COUNT ? specials[sp].name : "?";
}

const char *nys_special_text(int sp)
{
    return sp >= 0 && sp < NYS_SPECIAL_COUNT ? specials[sp].text : "?";
}

bool nys_special_scored(int sp)
{
    return sp >= 0 && sp < NYS_SPECIAL_COUNT && specials[sp].scored;
}

int nys_special_from_slug(const char *slug)
{
    for (int i = 0; i < NYS_SPECIAL_COUNT; i++)
        if (strcmp(specials[i].slug, slug) == 0)
            return i;
    return -1;
}

/* ---- Setup tables (NYS-S1, NYS-S3) ---- */

bool nys_slice_in_play(const nys_slice *s, int players)
{
    bool combo_8_10 = s->kind == NYS_COMBO && s->type == 8 && s->type2 == 10;
    if (players == 2)
        return !combo_8_10 && !(s->kind == NYS_NUMBERED &&
                                (s->type == 10 || s->type == 8 || s->type == 3));
    if (players == 5)
        return !combo_8_10 && !(s->kind == NYS_NUMBERED && s->type == 10);
    return true;
}

bool nys_type_in_play(const nys_rules *rules, int t)
{
    for (int i = 0; i < rules->nin_play; i++) {
        const nys_slice *s = &rules->in_play[i];
        if ((s->kind == NYS_NUMBERED && s->type == t) || (s->kind == NYS_COMBO && (s->type == t || s->type2 == t)))
            return true;
    }
    return false;
}

int nys_rounds_for(int players)
{
    static const int rounds[NYS_MAX_PLAYERS + 1] = {0, 0, 4, 6, 6, 5, 6};
    return players >= NYS_MIN_PLAYERS && players <= NYS_MAX_PLAYERS ? rounds[players] : 0;
}

/* ---- Slice tokens ---- */

void nys_slice_token(const nys_slice *s, char *buf, size_t n)
{
    switch (s->kind) {
    case NYS_COMBO:
        snprintf(buf, n, "c%d/%d", s->type, s->type2);
        return;
    case NYS_ANCHOVY:
        snprintf(buf, n, "A");
        return;
    case NYS_SUPREME:
        snprintf(buf, n, "S");
        return;
    default: {
        int len = snprintf(buf, n, "%d", s->type);
        if (s->pep && len >= 0 && (size_t)len < n)
            len += snprintf(buf + len, n - (size_t)len, "p%d", s->pep);
        if (s->anch && len >= 0 && (size_t)len < n)
            snprintf(buf + len, n - (size_t)len, "a%d", s->anch);
    }
    }
}

/* Read a small positive decimal without sign or leading zero. */
static int read_number(const char **p, int max)
{
    const char *q = *p;
    if (!isdigit((unsigned char)*q) || *q == '0')
        return -1;
    int v = 0;
    while (isdigit((unsigned char)*q)) {
        v = v * 10 + (*q - '0');
        if (v > max)
            return -1;
        q++;
    }
    *p = q;
    return v;
}

int nys_slice_parse(const char *tok, nys_slice *s, int *attached)
{
    memset(s, 0, sizeof *s);
    if (attached)
        *attached = 0;
    if (strcmp(tok, "A") == 0) {
        s->kind = NYS_ANCHOVY;
        s->anch = 3;
        return 0;
    }
    if (tok[0] == 'S') {
        s->kind = NYS_SUPREME;
        s->pep = 2;
        if (tok[1] == 0)
            return 0;
        if (tok[1] != '@' || !attached)
            return -1;
        const char *p = tok + 2;
        int t = read_number(&p, NYS_MAX_TYPE);
        if (t < NYS_MIN_TYPE || *p)
            return -1;
        *attached = t;
        return 0;
    }
    const char *p = tok;
    if (*p == 'c') {
        p++;
        int lo = read_number(&p, NYS_MAX_TYPE);
        if (lo < 0 || *p++ != '/')
            return -1;
        int hi = read_number(&p, NYS_MAX_TYPE);
        if (lo < NYS_MIN_TYPE || hi <= lo || *p)
            return -1;
        s->kind = NYS_COMBO;
        s->type = (uint8_t)lo;
        s->type2 = (uint8_t)hi;
        return 0;
    }
    int t = read_number(&p, NYS_MAX_TYPE);
    if (t < NYS_MIN_TYPE)
        return -1;
    s->kind = NYS_NUMBERED;
    s->type = (uint8_t)t;
    if (*p == 'p') {
        p++;
        int k = read_number(&p, 3);
        if (k < 1)
            return -1;
        s->pep = (uint8_t)k;
    }
    if (*p == 'a') {
        p++;
        int k = read_number(&p, 2);
        if (k < 1)
            return -1;
        s->anch = (uint8_t)k;
    }
    return *p ? -1 : 0;
}

bool nys_slice_equal(const nys_slice *a, const nys_slice *b)
{
    return a->kind == b->kind && a->type == b->type && a->type2 == b->type2 &&
           a->pep == b->pep && a->anch == b->anch;
}

int nys_slice_cmp(const nys_slice *a, const nys_slice *b)
{
    int ka = a->kind == NYS_NUMBERED ? 0 : a->kind, kb = b->kind == NYS_NUMBERED ? 0 : b->kind;
    if (ka != kb)
        return ka - kb;
    if (a->type != b->type)
        return a->type - b->type;
    if (a->type2 != b->type2)
        return a->type2 - b->type2;
    if (a->pep != b->pep)
        return a->pep - b->pep;
    return a->anch - b->anch;
}

/* ---- Deck file ---- */

/* Read an array of exactly `count` integers in [0, max] into out. */
static int read_counts(const json_t *arr, int type, const char *field, int count, int max,
                       uint8_t *out, char *err, size_t errlen)
{
    if (!json_is_array(arr))
        return pb_errorf(err, errlen, "deck: type %d: '%s' must be an array", type, field);
    if ((int)json_array_size(arr) != count)
        return pb_errorf(err, errlen, "deck: type %d has %zu '%s' entries, expected %d (one per slice)",
                    type, json_array_size(arr), field, count);
    for (int i = 0; i < count; i++) {
        json_t *v = json_array_get(arr, (size_t)i);
        if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > max)
            return pb_errorf(err, errlen, "deck: type %d: '%s' entries must be integers 0..%d",
                        type, field, max);
        out[i] = (uint8_t)json_integer_value(v);
    }
    return 0;
}

int nys_deck_from_json(const json_t *root, nys_deck *deck, char *err, size_t errlen)
{
    static const char *const top_keys[] = {"game", "name", "note", "types", "combos", NULL};
    static const char *const type_keys[] = {"type", "name", "pepperoni", "anchovies", NULL};
    memset(deck, 0, sizeof *deck);
    if (!json_is_object(root))
        return pb_errorf(err, errlen, "deck: the file must hold a JSON object");
    if (pb_json_known_keys(root, top_keys, "deck: ", "the deck", err, errlen))
        return -1;
    json_t *game = json_object_get(root, "game");
    if (game && (!json_is_string(game) || strcmp(json_string_value(game), "nyslice") != 0))
        return pb_errorf(err, errlen, "deck: 'game' must be \"nyslice\"");
    json_t *name = json_object_get(root, "name");
    if (name && !json_is_string(name))
        return pb_errorf(err, errlen, "deck: 'name' must be a string");
    snprintf(deck->name, sizeof deck->name, "%s", name ? json_string_value(name) : "custom");
    json_t *note = json_object_get(root, "note");
    if (note && !json_is_string(note))
        return pb_errorf(err, errlen, "deck: 'note' must be a string");

    json_t *types = json_object_get(root, "types");
    int ntypes = NYS_MAX_TYPE - NYS_MIN_TYPE + 1;
    if (!json_is_array(types) || (int)json_array_size(types) != ntypes)
        return pb_errorf(err, errlen, "deck: 'types' must list the %d types 3..11 once each", ntypes);
    bool seen[NYS_TYPE_SLOTS] = {false};
    uint8_t pep[NYS_TYPE_SLOTS][NYS_MAX_TYPE], anch[NYS_TYPE_SLOTS][NYS_MAX_TYPE];
    size_t i;
    json_t *ty;
    json_array_foreach(types, i, ty) {
        if (!json_is_object(ty))
            return pb_errorf(err, errlen, "deck: 'types' entry %zu is not an object", i);
        if (pb_json_known_keys(ty, type_keys, "deck: ", "a type", err, errlen))
            return -1;
        json_t *tv = json_object_get(ty, "type");
        if (!json_is_integer(tv) || json_integer_value(tv) < NYS_MIN_TYPE ||
            json_integer_value(tv) > NYS_MAX_TYPE)
            return pb_errorf(err, errlen, "deck: 'types' entry %zu needs a 'type' from 3 to 11", i);
        int t = (int)json_integer_value(tv);
        if (seen[t])
            return pb_errorf(err, errlen, "deck: type %d is listed twice", t);
        seen[t] = true;
        json_t *nv = json_object_get(ty, "name");
        if (!json_is_string(nv) || json_string_length(nv) == 0 ||
            json_string_length(nv) >= sizeof deck->type_name[0])
            return pb_errorf(err, errlen, "deck: type %d needs a 'name' of 1..31 characters", t);
        if (pb_text_unprintable(json_string_value(nv)))
            return pb_errorf(err, errlen, "deck: type %d's name has a control character", t);
        snprintf(deck->type_name[t], sizeof deck->type_name[t], "%s", json_string_value(nv));
        /* NYS-C1: a type numbered t has exactly t slices; NYS-C3: 0..3 / 0..2. */
        if (read_counts(json_object_get(ty, "pepperoni"), t, "pepperoni", t, 3, pep[t], err, errlen) ||
            read_counts(json_object_get(ty, "anchovies"), t, "anchovies", t, 2, anch[t], err, errlen))
            return -1;
        for (int k = 0; k < t; k++)
            if (t == NYS_VEGGIE && pep[t][k])
                return pb_errorf(err, errlen, "deck: Veggie (type 3) slices carry no pepperoni");
    }

    json_t *combos = json_object_get(root, "combos");
    if (!json_is_array(combos) || json_array_size(combos) != NYS_COMBOS)
        return pb_errorf(err, errlen, "deck: 'combos' must list exactly %d Combo slices", NYS_COMBOS);
    int n = 0;
    for (int t = NYS_MIN_TYPE; t <= NYS_MAX_TYPE; t++)
        for (int k = 0; k < t; k++)
            deck->slice[n++] = (nys_slice){NYS_NUMBERED, (uint8_t)t, 0, pep[t][k], anch[t][k]};
    bool has_8_10 = false;
    json_t *c;
    json_array_foreach(combos, i, c) {
        json_t *a = json_array_get(c, 0), *b = json_array_get(c, 1);
        if (!json_is_array(c) || json_array_size(c) != 2 || !json_is_integer(a) || !json_is_integer(b))
            return pb_errorf(err, errlen, "deck: Combo %zu must be a pair of types like [8, 10]", i + 1);
        long lo = (long)json_integer_value(a), hi = (long)json_integer_value(b);
        if (lo < NYS_MIN_TYPE || hi > NYS_MAX_TYPE || lo >= hi)
            return pb_errorf(err, errlen, "deck: Combo [%ld, %ld] must show two different types "
                        "3..11, lower first", lo, hi);
        for (int k = NYS_DECK_SLICES - 2 - NYS_COMBOS; k < n; k++)
            if (deck->slice[k].type == lo && deck->slice[k].type2 == hi)
                return pb_errorf(err, errlen, "deck: Combo [%ld, %ld] is listed twice", lo, hi);
        has_8_10 = has_8_10 || (lo == 8 && hi == 10);
        deck->slice[n++] = (nys_slice){NYS_COMBO, (uint8_t)lo, (uint8_t)hi, 0, 0};
    }
    if (!has_8_10)
        return pb_errorf(err, errlen, "deck: the 8/10 Combo is required (NYS-C3; the 2- and 5-player "
                    "setups remove it)");
    deck->slice[n++] = (nys_slice){NYS_ANCHOVY, 0, 0, 0, 3};
    deck->slice[n++] = (nys_slice){NYS_SUPREME, 0, 0, 2, 0};
    return 0;
}

int nys_deck_from_text(const char *text, nys_deck *deck, char *err, size_t errlen)
{
    json_t *root = pb_json_parse(text, "deck: ", err, errlen);
    if (!root)
        return -1;
    int rc = nys_deck_from_json(root, deck, err, errlen);
    json_decref(root);
    return rc;
}

void nys_deck_default(nys_deck *deck)
{
    char err[PB_ERR_LEN];
    if (nys_deck_from_text(nys_default_deck_json(), deck, err, sizeof err) != 0) {
        fprintf(stderr, "pizzabox: the embedded default deck is broken: %s\n", err);
        abort();
    }
}

json_t *nys_deck_to_json(const nys_deck *deck)
{
    json_t *types = json_array(), *combos = json_array();
    int n = 0;
    for (int t = NYS_MIN_TYPE; t <= NYS_MAX_TYPE; t++) {
        json_t *pep = json_array(), *anch = json_array();
        for (int k = 0; k < t; k++, n++) {
            json_array_append_new(pep, json_integer(deck->slice[n].pep));
            json_array_append_new(anch, json_integer(deck->slice[n].anch));
        }
        json_array_append_new(types, json_pack("{s:i, s:s, s:o, s:o}", "type", t, "name",
                                               deck->type_name[t], "pepperoni", pep,
                                               "anchovies", anch));
    }
    for (int k = 0; k < NYS_COMBOS; k++, n++)
        json_array_append_new(combos, json_pack("[i, i]", deck->slice[n].type, deck->slice[n].type2));
    return json_pack("{s:s, s:s, s:o, s:o}", "game", "nyslice", "name", deck->name, "types", types,
                     "combos", combos);
}
