/* notation.c -- Pizza Theory moves as text, in the words a player types:
 * `put d4` adds a topping on the space labelled d4 (row d from the top,
 * fourth from the left, as the terminal draws the board; `d4` alone reads
 * too) and `cut 4` cuts line 4 of the side the player faces (`4` alone reads
 * too). Records written before the labels hold `put x,y,z` (the space's cube
 * coordinates) and a bare line number: both still read, so they replay. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../../core/error.h"
#include "../../core/text.h"
#include "theory.h"

static const char *const colour_names[TH_COLOURS] = {"Red", "Green", "White"};

const char *th_cell_name(const th_board *b, int cell)
{
    return cell < 0 || cell >= b->ncells ? "?" : b->label[cell];
}

int th_action_to_text(const th_state *st, pb_action a, char *buf, size_t n)
{
    if (!th_is_legal(st, a))
        return -1;
    if (a > TH_ACT_CUT)
        snprintf(buf, n, "cut %u", a - TH_ACT_CUT);
    else
        snprintf(buf, n, "put %s", th_cell_name(&st->rules->board, (int)a));
    return 0;
}

int th_action_text_for(const th_state *st, pb_action a, int viewer, char *buf, size_t n)
{
    if (!th_is_legal(st, a))
        return -1;
    if (a > TH_ACT_CUT && th_current_seat(st) != viewer) {
        snprintf(buf, n, "cut ?"); /* PT-R2: secret until all are revealed */
        return 0;
    }
    th_action_to_text(st, a, buf, n);
    if (st->phase == TH_PH_NEUTRAL) {
        size_t len = strlen(buf);
        snprintf(buf + len, n - len, " (neutral)");
    }
    return 0;
}

void th_asked_now(const th_state *st, char *buf, size_t n)
{
    pb_action first[TH_MAX_CELLS];
    int count = th_legal_actions(st, first);
    const char *eg = count > 0 && first[0] < TH_ACT_CUT ? th_cell_name(&st->rules->board, (int)first[0]) : "?";
    switch (st->phase) {
    case TH_PH_PLACE: snprintf(buf, n, "add a topping: type a label, e.g. put %s", eg); break;
    case TH_PH_NEUTRAL: snprintf(buf, n, "put the neutral beside line %d, e.g. put %s", st->die, eg); break;
    case TH_PH_CUT: snprintf(buf, n, "choose a line 1 to %d, e.g. cut 4", TH_LINES); break;
    default: snprintf(buf, n, "nothing: the game is over"); break;
    }
}

/* Three whole numbers separated by commas and/or spaces, nothing else. */
static int parse_cube(const char *s, int c[3])
{
    for (int a = 0; a < 3; a++) {
        while (*s == ' ' || (a > 0 && *s == ','))
            s++;
        char *end;
        long v = strtol(s, &end, 10);
        if (end == s || v < -99 || v > 99)
            return -1;
        c[a] = (int)v;
        s = end;
        if (a < 2 && *s != ',' && *s != ' ')
            return -1;
    }
    while (*s == ' ')
        s++;
    return *s ? -1 : 0;
}

/* Letters then digits, like "d4". */
static bool looks_like_label(const char *s, size_t len)
{
    size_t letters = 0;
    while (letters < len && isalpha((unsigned char)s[letters]))
        letters++;
    return letters >= 1 && letters < len && strspn(s + letters, "0123456789") == len - letters;
}

static bool all_digits(const char *s, size_t len)
{
    return len > 0 && strspn(s, "0123456789") >= len;
}

/* The word the text starts with, if it is `verb` followed by a space or the end. */
static bool starts_with_word(const char *text, const char *verb)
{
    size_t n = strlen(verb);
    return strncasecmp(text, verb, n) == 0 && (text[n] == ' ' || text[n] == 0);
}

int th_action_from_text(const th_state *st, const char *text, pb_action *a, char *err, size_t errlen)
{
    const th_board *b = &st->rules->board;
    while (*text == ' ')
        text++;
    if (st->phase == TH_PH_OVER)
        return pb_errorf(err, errlen, "the game is over");
    bool cut_word = starts_with_word(text, "cut"), put_word = starts_with_word(text, "put");
    const char *arg = cut_word || put_word ? text + 3 : text;
    while (*arg == ' ')
        arg++;
    size_t len = strlen(arg);
    while (len && arg[len - 1] == ' ')
        len--;
    /* The log writes the neutral topping "put d4 (neutral)": that reads too. */
    static const char neutral[] = "(neutral)";
    if (put_word && st->phase == TH_PH_NEUTRAL && len >= sizeof neutral - 1 &&
        strncasecmp(arg + len - (sizeof neutral - 1), neutral, sizeof neutral - 1) == 0)
        for (len -= sizeof neutral - 1; len && arg[len - 1] == ' ';)
            len--;
    char asked[160];
    th_asked_now(st, asked, sizeof asked);
    /* A bare number while toppings go on names no space: say what a space's
     * name looks like, not that it is no line (a line 1-6 still reads as a
     * cut, refused with "no cutting yet"). */
    bool bare = !cut_word && !put_word && all_digits(arg, len);
    if (bare && st->phase != TH_PH_CUT && (len != 1 || arg[0] < '1' || arg[0] > '0' + TH_LINES)) {
        pb_action first[TH_MAX_CELLS];
        int count = th_legal_actions(st, first);
        return pb_errorf(err, errlen, "'%.*s' names no space: a space is a row letter and a number, e.g. put %s",
                         (int)(len < 12 ? len : 12), arg, count > 0 ? th_cell_name(b, (int)first[0]) : "d4");
    }
    if (cut_word || bare) {
        if (len == 0)
            return pb_errorf(err, errlen, "a cut is a line number from 1 to %d, e.g. cut 4", TH_LINES);
        if (len != 1 || arg[0] < '1' || arg[0] > '0' + TH_LINES)
            return pb_errorf(err, errlen, "there is no line '%.*s': a cut is a line number from 1 to %d",
                             (int)(len < 20 ? len : 20), arg, TH_LINES);
        *a = TH_ACT_CUT + (pb_action)(arg[0] - '0');
    } else if (len > 0 && len < 8 && looks_like_label(arg, len)) {
        char label[8];
        snprintf(label, sizeof label, "%.*s", (int)len, arg);
        int cell = th_cell_by_label(b, label);
        if (cell < 0)
            return pb_errorf(err, errlen, "no space is labelled '%s': labels go a1, a2, ... row by row from the top",
                             label);
        *a = (pb_action)cell;
    } else {
        int c[3];
        char cube[64];
        snprintf(cube, sizeof cube, "%.*s", (int)(len < 63 ? len : 63), arg);
        if (len >= sizeof cube || parse_cube(cube, c) != 0) {
            if (put_word && (len == 0 || all_digits(arg, len)))
                return pb_errorf(err, errlen, "'%.12s' names no space; now %s", text, asked);
            if (!*text)
                return pb_errorf(err, errlen, "nothing typed; now %s", asked);
            return pb_errorf(err, errlen, "'%.12s' is not a move; now %s", text, asked);
        }
        int cell = th_cell_at(b, c[0], c[1], c[2]);
        if (cell < 0)
            return pb_errorf(err, errlen, "%d,%d,%d is not a space on the board", c[0], c[1], c[2]);
        *a = (pb_action)cell;
    }
    return th_is_legal(st, *a) ? 0 : th_why_illegal(st, *a, err, errlen);
}

/* ---- The news: what the table learns beyond the moves ---- */

static int popcount(uint64_t m)
{
    return __builtin_popcountll(m);
}

/* The reveal of the cuts (PT-R2) and what it changed (PT-R4..R6). */
static void reveal_news(const th_state *st, char *buf, size_t n, size_t *len)
{
    pb_appendf(buf, n, len, "%sRound %d's cuts revealed:", *len ? " " : "", st->last_round);
    for (int d = 0; d < TH_SIDES; d++)
        pb_appendf(buf, n, len, " %s line %d%s", colour_names[st->last_side_colour[d]], st->last_cut[d],
            d < TH_SIDES - 1 ? "," : ".");
    bool any = false;
    for (int c = 0; c < TH_COLOURS; c++) {
        int lost = popcount(st->before[c] & ~st->occ[c]), gained = popcount(st->occ[c] & ~st->before[c]);
        if (!lost && !gained)
            continue;
        pb_appendf(buf, n, len, "%s %s", any ? ";" : "", colour_names[c]);
        if (lost) /* a colour may lose in one slice and gain in another */
            pb_appendf(buf, n, len, " lost %d%s", lost, gained ? " and" : "");
        if (gained)
            pb_appendf(buf, n, len, " gained %d", gained);
        any = true;
    }
    pb_appendf(buf, n, len, "%s", any ? "." : " No topping changed.");
    for (int c = 0; c < TH_COLOURS; c++)
        if (st->safe >> c & 1u && popcount(st->before[c]))
            pb_appendf(buf, n, len, " %s was safe.", colour_names[c]);
    for (int c = 0; c < TH_COLOURS; c++)
        if (st->short_by[c])
            pb_appendf(buf, n, len, " %s ran out: %d not replaced.", colour_names[c], st->short_by[c]);
}

int th_news(const th_state *before, const th_state *after, char *buf, size_t n)
{
    size_t len = 0;
    if (!n)
        return 0;
    buf[0] = 0;
    bool new_round = after->last_round != before->last_round;
    if (new_round)
        reveal_news(after, buf, n, &len);
    if (after->phase == TH_PH_OVER)
        return (int)len;
    if (after->die && !before->die)
        pb_appendf(buf, n, &len, "%sThe die gives the neutral line %d.", len ? " " : "", after->die);
    unsigned skipped = new_round ? after->skipped : (unsigned)(after->skipped & ~before->skipped);
    for (int c = 0; c < TH_COLOURS; c++) {
        if (!(skipped >> c & 1u))
            continue;
        if (after->players == 2 && c == TH_NEUTRAL && after->supply[c] == 0)
            pb_appendf(buf, n, &len, "%sThe neutral has no topping left to place.", len ? " " : "");
        else if (after->players == 2 && c == TH_NEUTRAL)
            pb_appendf(buf, n, &len, "%sNo empty space is beside line %d: no neutral topping this round.",
                len ? " " : "", after->die);
        else if (after->supply[c] == 0)
            pb_appendf(buf, n, &len, "%s%s has no topping left to add and skips.", len ? " " : "", colour_names[c]);
        else
            pb_appendf(buf, n, &len, "%s%s has no space to add a topping on (each empty one is next to one of %s's own) "
                "and skips.", len ? " " : "", colour_names[c], colour_names[c]);
    }
    return (int)len;
}
