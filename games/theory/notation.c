/* notation.c -- Pizza Theory moves as text: `put x,y,z` adds a topping on
 * the space with those cube coordinates; a cut is its line number, 1..6
 * (`cut 4` is read too). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/error.h"
#include "theory.h"

void th_cell_name(const th_board *b, int cell, char *buf, size_t n)
{
    if (cell < 0 || cell >= b->ncells)
        snprintf(buf, n, "?");
    else
        snprintf(buf, n, "%d,%d,%d", b->cube[cell][0], b->cube[cell][1], b->cube[cell][2]);
}

int th_action_to_text(const th_state *st, pb_action a, char *buf, size_t n)
{
    if (!th_is_legal(st, a))
        return -1;
    if (a > TH_ACT_CUT) {
        snprintf(buf, n, "%u", a - TH_ACT_CUT);
        return 0;
    }
    char cell[24];
    th_cell_name(&st->rules->board, (int)a, cell, sizeof cell);
    snprintf(buf, n, "put %s", cell);
    return 0;
}

int th_action_text_for(const th_state *st, pb_action a, int viewer, char *buf, size_t n)
{
    if (!th_is_legal(st, a))
        return -1;
    if (a > TH_ACT_CUT) {
        if (th_current_seat(st) == viewer)
            snprintf(buf, n, "cut %u", a - TH_ACT_CUT);
        else
            snprintf(buf, n, "cut ?"); /* PT-R2: secret until all are revealed */
        return 0;
    }
    char cell[24];
    th_cell_name(&st->rules->board, (int)a, cell, sizeof cell);
    snprintf(buf, n, st->phase == TH_PH_NEUTRAL ? "put %s (neutral)" : "put %s", cell);
    return 0;
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

int th_action_from_text(const th_state *st, const char *text, pb_action *a, char *err, size_t errlen)
{
    while (*text == ' ')
        text++;
    if (st->phase == TH_PH_OVER)
        return pb_errorf(err, errlen, "the game is over");
    const char *arg = text;
    bool cut_word = strncmp(text, "cut", 3) == 0 && (text[3] == ' ' || text[3] == 0);
    bool put_word = strncmp(text, "put ", 4) == 0;
    if (cut_word || put_word)
        arg = text + (cut_word ? 3 : 4);
    while (*arg == ' ')
        arg++;
    size_t len = strlen(arg);
    while (len && arg[len - 1] == ' ')
        len--;
    if (cut_word || (!put_word && len == 1 && isdigit((unsigned char)arg[0]))) { /* "put 4" is no cut */
        if (len != 1 || arg[0] < '1' || arg[0] > '0' + TH_LINES)
            return pb_errorf(err, errlen, "a cut is a line number from 1 to %d", TH_LINES);
        *a = TH_ACT_CUT + (pb_action)(arg[0] - '0');
    } else {
        int c[3];
        char cube[64];
        snprintf(cube, sizeof cube, "%.*s", (int)(len < 63 ? len : 63), arg);
        if (len >= sizeof cube || parse_cube(cube, c) != 0)
            return pb_errorf(err, errlen, "expected 'put x,y,z' (a space) or a cut line 1-%d", TH_LINES);
        int cell = th_cell_at(&st->rules->board, c[0], c[1], c[2]);
        if (cell < 0)
            return pb_errorf(err, errlen, "%d,%d,%d is not a space on the board", c[0], c[1], c[2]);
        *a = (pb_action)cell;
    }
    return th_is_legal(st, *a) ? 0 : th_why_illegal(st, *a, err, errlen);
}
