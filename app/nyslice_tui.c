/* nyslice_tui.c -- New York Slice drawn for a terminal (see nyslice_tui.h).
 *
 * Layout of the table, top to bottom, the pizza last so that it stays next
 * to the prompt on a 24-line terminal even with six players:
 *   one row per player with the type counts (a Guest Check in miniature:
 *   halves as .5, '*' the leader of a type, '=' a tie for the lead), the
 *   eaten count and the anchovies kept, then a line with the collection,
 *   the eaten slices and the Specials;
 *   a header line (round, Slicer, stacks left, seat to move);
 *   the Special of the round, its text wrapped, and which portion it joins;
 *   the pizza as a loop: positions 1..6 left to right, 11..7 right to left
 *   below, half a cell in, each row followed (after division) by the portion
 *   letters, '|' where a cut falls, and who took a taken portion;
 *   the choosing order and the slices being placed, numbered 1..k.
 * The Anchovy slice, "A" in the notation, is drawn "Anchovy": a bare A
 * would read as portion A.
 * Everything comes from the view; the text is built in a growing buffer that
 * counts columns, so wrapping ignores colour escapes. */
#include "nyslice_tui.h"
#include "textbuf.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WIDTH 80
#define MAX_SEATS 8
#define MAX_PORTIONS 26
#define RING 11
#define RING_X 2      /* column of the first ring cell */
#define CELL 12       /* width of a ring cell */
#define TAG_W 6       /* a taker's name under a ring cell: "A:Greedy|" */
#define GRID_X 16     /* column of the first type count */
#define GRID_W 6      /* width of a type count */
#define ATE_X 70      /* "Ate" column (4 wide) */
#define ANCH_X 74     /* "Anch" column (5 wide) */
#define MIN_TYPE 3
#define MAX_TYPE 11

/* SGR colour codes */
#define C_PEP "31"
#define C_ANCH "94"
#define C_HIDDEN "35"
#define C_SUPREME "33"
#define C_BOLD "1"
#define C_DIM "2"
#define C_LABEL "36"
#define C_YOU "1;32"
#define C_MOVE "1;33"
#define C_TITLE "1;31"

/* ---- The view ---- */

typedef struct tui {
    const json_t *v;
    tb b;
    int players, you, slicer, to_move;
    const char *name[MAX_SEATS];
    char fallback[MAX_SEATS][16];
    char label[MAX_PORTIONS];
    int nportions;
    int type[MAX_TYPE - MIN_TYPE + 1]; /* the types in play, one grid column each */
    int ntypes;
} tui;

static const json_t *jget(const json_t *o, const char *key)
{
    return json_object_get(o, key);
}

/* An integer field, or dflt when absent or null. */
static int jint(const json_t *o, const char *key, int dflt)
{
    const json_t *x = jget(o, key);
    return json_is_integer(x) ? (int)json_integer_value(x) : dflt;
}

static const char *jstr(const json_t *o, const char *key)
{
    const char *s = json_string_value(jget(o, key));
    return s ? s : "";
}

static const json_t *player_at(const tui *t, int p)
{
    return json_array_get(jget(t->v, "players"), (size_t)p);
}

static void tui_init(tui *t, const json_t *v, const pb_tui_opts *o)
{
    memset(t, 0, sizeof *t);
    t->v = v;
    t->b.colour = o && o->colour;
    t->players = (int)json_array_size(jget(v, "players"));
    if (t->players > MAX_SEATS)
        t->players = MAX_SEATS;
    t->you = o ? o->you : -1;
    t->slicer = jint(v, "slicer", -1);
    t->to_move = jint(v, "to_move", -1);
    for (int p = 0; p < t->players; p++) {
        t->name[p] = o && o->names && o->names[p] && o->names[p][0] ? o->names[p] : NULL;
        snprintf(t->fallback[p], sizeof t->fallback[p], "Seat %d", p + 1);
        if (!t->name[p])
            t->name[p] = t->fallback[p];
    }
    t->nportions = nys_tui_portion_labels(v, t->label, MAX_PORTIONS);
    if (t->nportions > MAX_PORTIONS)
        t->nportions = MAX_PORTIONS;
    /* NYS-S1: no column for a type removed at this player count */
    const json_t *types = jget(v, "types_in_play");
    for (int k = MIN_TYPE; k <= MAX_TYPE; k++) {
        bool in = !json_is_array(types);
        size_t i;
        const json_t *x;
        json_array_foreach(types, i, x)
            in = in || json_integer_value(x) == k;
        if (in)
            t->type[t->ntypes++] = k;
    }
}

static const char *seat_name(const tui *t, int seat)
{
    return seat >= 0 && seat < t->players ? t->name[seat] : "?";
}

/* Columns a seat's name takes when clipped to maxcols. */
static int name_cols(const tui *t, int seat, int maxcols)
{
    const char *s = seat_name(t, seat);
    int c = cols_of(s, strlen(s));
    return c < maxcols ? c : maxcols;
}

/* A seat's name, clipped; the viewer's in its colour. */
static void put_name(tui *t, int seat, int maxcols)
{
    const char *s = seat_name(t, seat);
    tb_sgr(&t->b, seat == t->you ? C_YOU : NULL);
    tb_text(&t->b, s, strlen(s), maxcols);
    tb_sgr(&t->b, seat == t->you ? "0" : NULL);
}

/* Bytes of the longest start of s that fits maxcols columns (whole characters). */
static size_t fit_bytes(const char *s, int maxcols)
{
    size_t n = strlen(s), fit = 0;
    for (size_t i = 1; i <= n && cols_of(s, i) <= maxcols; i++)
        if (i == n || ((unsigned char)s[i] & 0xC0) != 0x80)
            fit = i;
    return fit;
}

/* Who took a portion, in TAG_W columns under the pizza: the name, clipped;
 * where another seat's name clips alike ("Greedy 2", "Greedy 3"), its start
 * and the seat's number ("Gree 2"), so that the seats stay apart. */
static void put_tag(tui *t, int seat)
{
    const char *s = seat_name(t, seat);
    size_t mine = fit_bytes(s, TAG_W);
    bool alike = false;
    for (int q = 0; q < t->players; q++) {
        const char *o = seat_name(t, q);
        alike = alike || (q != seat && fit_bytes(o, TAG_W) == mine && strncmp(o, s, mine) == 0);
    }
    if (!alike) {
        put_name(t, seat, TAG_W);
        return;
    }
    char num[16]; /* " " and a seat number, with room for any int the compiler sees */
    snprintf(num, sizeof num, " %d", seat + 1);
    size_t head = fit_bytes(s, TAG_W - (int)strlen(num));
    while (head && s[head - 1] == ' ')
        head--;
    tb_sgr(&t->b, seat == t->you ? C_YOU : NULL);
    tb_text(&t->b, s, head, TAG_W);
    tb_put(&t->b, head ? num : num + 1);
    tb_sgr(&t->b, seat == t->you ? "0" : NULL);
}

/* A unit "label name" on a wrapped line. */
static void name_unit(tui *t, const char *label, int seat, int indent)
{
    tb_room(&t->b, cols_of(label, strlen(label)) + name_cols(t, seat, 14), indent, 2);
    tb_put(&t->b, label);
    put_name(t, seat, 14);
}

/* A token as drawn: the Anchovy slice in full. */
static const char *shown(const char *tok)
{
    return strcmp(tok, "A") == 0 ? "Anchovy" : tok;
}

/* A slice token: pepperonis red, anchovies blue, a hidden slice magenta. */
static void put_token(tb *b, const char *tok)
{
    if (!strcmp(tok, "A")) {
        tb_cput(b, b->colour ? C_ANCH : NULL, shown(tok));
        return;
    }
    if (!b->colour || tok[0] == '?' || tok[0] == 'S') {
        const char *code = tok[0] == '?' ? C_HIDDEN : tok[0] == 'S' ? C_SUPREME : NULL;
        tb_cput(b, b->colour ? code : NULL, tok);
        return;
    }
    size_t head = strcspn(tok, "pa");
    tb_text(b, tok, head, 8);
    for (const char *s = tok + head; *s;) {
        size_t n = 1 + strspn(s + 1, "0123456789");
        tb_sgr(b, *s == 'p' ? C_PEP : C_ANCH);
        tb_text(b, s, n, 8);
        tb_sgr(b, "0");
        s += n;
    }
}

/* A token on a wrapped line. */
static void token_unit(tb *b, const char *tok, const char *suffix, int indent)
{
    tb_room(b, (int)(strlen(shown(tok)) + strlen(suffix)), indent, 1);
    put_token(b, tok);
    tb_put(b, suffix);
}

/* ---- Portions ---- */

/* The lowest ring position of a portion; the Special alone sorts last. */
static int portion_low(const json_t *po)
{
    int low = INT_MAX;
    size_t i;
    const json_t *x;
    json_array_foreach(jget(po, "positions"), i, x)
        if (json_is_integer(x) && json_integer_value(x) < low)
            low = (int)json_integer_value(x);
    return low;
}

int nys_tui_portion_labels(const json_t *view, char *out, int max)
{
    const json_t *ps = jget(view, "portions");
    int n = (int)json_array_size(ps);
    for (int i = 0; i < n && i < max; i++) {
        /* the engine's letter, which the notation and the log use too */
        const char *letter = json_string_value(jget(json_array_get(ps, (size_t)i), "letter"));
        if (letter && letter[0] >= 'A' && letter[0] <= 'Z') {
            out[i] = letter[0];
            continue;
        }
        int low = portion_low(json_array_get(ps, (size_t)i)), rank = 0;
        for (int j = 0; j < n; j++) {
            int lj = portion_low(json_array_get(ps, (size_t)j));
            rank += lj < low || (lj == low && j < i);
        }
        out[i] = (char)('A' + rank % 26);
    }
    return n;
}

/* The letter of the portion named `name` (its lowest position or "special"). */
static char letter_for(const tui *t, const json_t *name)
{
    for (int i = 0; i < t->nportions; i++)
        if (json_equal(jget(json_array_get(jget(t->v, "portions"), (size_t)i), "name"), name))
            return t->label[i];
    return '?';
}

/* ---- Header and Special ---- */

static void draw_header(tui *t)
{
    tb *b = &t->b;
    int round = jint(t->v, "round", 0), rounds = jint(t->v, "rounds", 0);
    const char *phase = jstr(t->v, "phase");
    char buf[64];
    tb_cput(b, C_TITLE, "NEW YORK SLICE");
    snprintf(buf, sizeof buf, "Round %d of %d", round > rounds ? rounds : round, rounds);
    tb_room(b, (int)strlen(buf), 0, 2);
    tb_cput(b, C_BOLD, buf);
    if (!strcmp(phase, "over") || !strcmp(phase, "seconds")) {
        const char *end = !strcmp(phase, "over") ? "Game over" : "End of the game: Seconds";
        tb_room(b, (int)strlen(end), 0, 2);
        tb_put(b, end);
    }
    if (t->slicer >= 0)
        name_unit(t, "Slicer: ", t->slicer, 0);
    snprintf(buf, sizeof buf, "Stacks left: %d", jint(t->v, "stacks_left", 0));
    tb_room(b, (int)strlen(buf), 0, 2);
    tb_put(b, buf);
    if (t->to_move >= 0)
        name_unit(t, "To move: ", t->to_move, 0);
    tb_nl(b);
}

/* Where the Special goes: "with portion D", "portion E on its own", taken. */
static void special_note(tui *t, const json_t *sp)
{
    const json_t *pn = jget(sp, "portion");
    char buf[48];
    if (!pn || json_is_null(pn))
        return;
    if (json_is_string(pn))
        snprintf(buf, sizeof buf, "[portion %c on its own]", letter_for(t, pn));
    else
        snprintf(buf, sizeof buf, "[with portion %c]", letter_for(t, pn));
    tb_room(&t->b, (int)strlen(buf), 2, 2);
    tb_put(&t->b, buf);
    if (jint(sp, "taken_by", -1) >= 0)
        name_unit(t, "taken by ", jint(sp, "taken_by", -1), 2);
}

/* NYS-S4: "Dibs! was revealed first and went back to the box (not played in a
 * 2-player game)", one line per Special this round's reveal replaced. */
static void replaced_note(tui *t, const json_t *today)
{
    size_t i;
    const json_t *r;
    json_array_foreach(jget(today, "replaced"), i, r) {
        char line[160];
        snprintf(line, sizeof line, "%s was revealed first and went back to the box (%s); %s replaces it.",
                 jstr(r, "name"), jstr(r, "why"), jstr(today, "name"));
        tb_para(&t->b, line, 0);
        tb_nl(&t->b);
    }
}

static void draw_special(tui *t)
{
    const json_t *sp = jget(t->v, "today");
    tb *b = &t->b;
    if (!json_is_object(sp))
        return;
    tb_cput(b, C_LABEL, "Special:");
    const char *name = jstr(sp, "name");
    tb_room(b, cols_of(name, strlen(name)), 2, 1);
    tb_sgr(b, C_BOLD);
    tb_text(b, name, strlen(name), WIDTH - b->col);
    tb_sgr(b, "0");
    if (json_is_true(jget(sp, "scored")))
        tb_para(b, "(scored at the end)", 2);
    tb_para(b, "-", 2);
    tb_para(b, jstr(sp, "text"), 2);
    special_note(t, sp);
    tb_nl(b);
    replaced_note(t, sp);
}

/* ---- The pizza ---- */

static const json_t *ring_at(const tui *t, int pos)
{
    return json_array_get(jget(t->v, "ring"), (size_t)(pos - 1));
}

/* Is there a cut between ring positions a and c (both sliced, different portions)? */
static bool cut_between(const tui *t, int a, int c)
{
    const json_t *pa = jget(ring_at(t, a), "portion"), *pc = jget(ring_at(t, c), "portion");
    return pa && pc && !json_is_null(pa) && !json_is_null(pc) && !json_equal(pa, pc);
}

static void ring_cut(tui *t, const int *pos, int n, int i, int x0)
{
    if (i + 1 < n && cut_between(t, pos[i], pos[i + 1])) {
        tb_pad(&t->b, x0 + i * CELL + CELL - 1);
        tb_put(&t->b, "|");
    }
}

/* One row of the ring: "NN token" per position; an empty position "--". */
static void ring_tokens(tui *t, const int *pos, int n, int x0)
{
    for (int i = 0; i < n; i++) {
        char num[8];
        const char *tok = json_string_value(jget(ring_at(t, pos[i]), "slice"));
        tb_pad(&t->b, x0 + i * CELL);
        snprintf(num, sizeof num, "%2d ", pos[i]);
        tb_put(&t->b, num);
        if (tok)
            put_token(&t->b, tok);
        else
            tb_cput(&t->b, C_DIM, "--");
        ring_cut(t, pos, n, i, x0);
    }
    tb_nl(&t->b);
}

/* Under each position its portion's letter, and who took it. */
static void ring_letters(tui *t, const int *pos, int n, int x0)
{
    for (int i = 0; i < n; i++) {
        const json_t *r = ring_at(t, pos[i]), *pn = jget(r, "portion");
        int by = jint(r, "taken_by", -1);
        if (pn && !json_is_null(pn)) {
            char l[2] = {letter_for(t, pn), 0};
            tb_pad(&t->b, x0 + i * CELL + 3);
            tb_cput(&t->b, by >= 0 ? C_DIM : C_BOLD, l);
            if (by >= 0) {
                tb_put(&t->b, ":");
                put_tag(t, by);
            }
        }
        ring_cut(t, pos, n, i, x0);
    }
    tb_nl(&t->b);
}

static void draw_ring(tui *t)
{
    static const int top[] = {1, 2, 3, 4, 5, 6}, bottom[] = {11, 10, 9, 8, 7};
    if (json_array_size(jget(t->v, "ring")) != RING)
        return;
    ring_tokens(t, top, 6, RING_X);
    if (t->nportions)
        ring_letters(t, top, 6, RING_X);
    ring_tokens(t, bottom, 5, RING_X + CELL / 2);
    if (t->nportions)
        ring_letters(t, bottom, 5, RING_X + CELL / 2);
}

static void draw_order(tui *t)
{
    const json_t *ord = jget(t->v, "order");
    size_t n = json_array_size(ord);
    if (!n)
        return;
    tb_cput(&t->b, C_LABEL, "Choosing order:");
    for (size_t i = 0; i < n; i++) {
        int seat = (int)json_integer_value(json_array_get(ord, i));
        tb_room(&t->b, name_cols(t, seat, 14) + (i + 1 < n), 2, 1);
        put_name(t, seat, 14);
        if (i + 1 < n)
            tb_put(&t->b, ",");
    }
    tb_nl(&t->b);
}

/* "may eat 1 3": the numbers of the edible slices being placed. */
static void placing_edible(tui *t, const json_t *pl)
{
    const json_t *ed = jget(pl, "edible");
    char buf[64] = "may eat";
    size_t len = strlen(buf);
    int any = 0;
    for (size_t i = 0; i < json_array_size(ed) && len + 4 < sizeof buf; i++)
        if (json_is_true(json_array_get(ed, i))) {
            len += (size_t)snprintf(buf + len, sizeof buf - len, " %d", (int)i + 1);
            any++;
        }
    if (any) {
        tb_room(&t->b, (int)len, 2, 2);
        tb_put(&t->b, buf);
    }
}

static void draw_placing(tui *t)
{
    const json_t *pl = jget(t->v, "placing"), *sl = jget(pl, "slices");
    const char *why = jstr(pl, "why"), *offered = json_string_value(jget(pl, "offered"));
    if (!json_is_object(pl))
        return;
    /* "Ann - placing:", so that no verb has to agree with "You" */
    put_name(t, jint(pl, "seat", -1), 14);
    tb_put(&t->b, !strcmp(why, "dibs") ? " - placing (Dibs!):" : !strcmp(why, "seconds") ? " - Seconds:"
                                                                                       : " - placing:");
    const json_t *mystery = jget(pl, "mystery"); /* its place in the list: named, as `eat mystery` names it */
    for (size_t i = 0; i < json_array_size(sl); i++) {
        const char *tok = json_string_value(json_array_get(sl, i));
        bool is_mystery = json_is_integer(mystery) && json_integer_value(mystery) == (json_int_t)i;
        char num[16];
        snprintf(num, sizeof num, "%d:", (int)i + 1);
        tb_room(&t->b, (int)(strlen(num) + strlen(shown(tok ? tok : "?")) + (is_mystery ? 10 : 0)), 2, i ? 2 : 1);
        tb_cput(&t->b, C_BOLD, num);
        put_token(&t->b, tok ? tok : "?");
        if (is_mystery)
            tb_put(&t->b, " (Mystery)");
    }
    placing_edible(t, pl);
    if (offered) {
        tb_room(&t->b, 8, 2, 2);
        tb_put(&t->b, "offered:");
        token_unit(&t->b, offered, " (eat or keep)", 2);
    }
    tb_nl(&t->b);
}

/* ---- The players ---- */

typedef struct tally {
    int count2[MAX_TYPE + 1]; /* collected, in half slices */
    int anch;                 /* anchovies on collected slices */
} tally;

static bool holds(const json_t *pl, const char *slug)
{
    size_t i;
    const json_t *sp;
    json_array_foreach(jget(pl, "specials"), i, sp)
        if (!strcmp(jstr(sp, "slug"), slug))
            return true;
    return false;
}

static void add_type(tally *ty, long t, int halves)
{
    if (t >= MIN_TYPE && t <= MAX_TYPE)
        ty->count2[t] += halves;
}

/* Count one collected token (NYS-E2): 9p2a1, c8/10, A, S@9. */
static void tally_token(tally *ty, const char *tok, bool supersize)
{
    char *end;
    if (tok[0] == 'A') {
        ty->anch += 3;
    } else if (tok[0] == 'S' && tok[1] == '@') {
        add_type(ty, strtol(tok + 2, NULL, 10), 2);
    } else if (tok[0] == 'c') {
        long lo = strtol(tok + 1, &end, 10);
        add_type(ty, lo, supersize ? 4 : 1);
        add_type(ty, *end == '/' ? strtol(end + 1, NULL, 10) : 0, supersize ? 4 : 1);
    } else if (tok[0] >= '0' && tok[0] <= '9') {
        add_type(ty, strtol(tok, &end, 10), 2);
        const char *a = strchr(end, 'a');
        ty->anch += a ? atoi(a + 1) : 0;
    }
}

static void tally_player(const json_t *pl, tally *ty)
{
    size_t i;
    const json_t *x;
    bool supersize = holds(pl, "supersize-combos");
    memset(ty, 0, sizeof *ty);
    json_array_foreach(jget(pl, "collected"), i, x)
        if (json_is_string(x))
            tally_token(ty, json_string_value(x), supersize);
}

/* Mark the leader of each type: '*' scores it (alone at the top, or tied
 * holding Tiebreaker), '=' tied at the top without it (NYS-E3). */
static void lead_marks(const tui *t, const tally *ty, char mark[][MAX_TYPE + 1])
{
    for (int k = MIN_TYPE; k <= MAX_TYPE; k++) {
        int best = 0, nbest = 0, tb_seat = -1;
        for (int p = 0; p < t->players; p++)
            best = ty[p].count2[k] > best ? ty[p].count2[k] : best;
        for (int p = 0; p < t->players; p++)
            if (best && ty[p].count2[k] == best) {
                nbest++;
                tb_seat = holds(player_at(t, p), "tiebreaker") ? p : tb_seat;
            }
        for (int p = 0; p < t->players; p++) {
            bool top = best && ty[p].count2[k] == best;
            mark[p][k] = !top ? ' ' : nbest == 1 || tb_seat == p ? '*' : tb_seat >= 0 ? ' ' : '=';
        }
    }
}

static void grid_head(tui *t)
{
    const json_t *names = jget(t->v, "type_names");
    for (int row = 0; row < 2; row++) {
        tb_put(&t->b, row ? "" : "  Player");
        for (int i = row; i < t->ntypes; i += 2) {
            int k = t->type[i];
            char key[4], buf[48];
            snprintf(key, sizeof key, "%d", k);
            snprintf(buf, sizeof buf, "%d %s", k, jstr(names, key));
            tb_pad(&t->b, GRID_X + GRID_W * i);
            tb_sgr(&t->b, C_LABEL);
            tb_text(&t->b, buf, strlen(buf), i == t->ntypes - 1 ? WIDTH - t->b.col : 2 * GRID_W - 1);
            tb_sgr(&t->b, "0");
        }
        if (row) {
            tb_pad(&t->b, ATE_X + 1);
            tb_cput(&t->b, C_LABEL, "Ate  Anch");
        }
        tb_nl(&t->b);
    }
}

/* A count in half slices as people write it: "-", ".5", "1", "1.5". */
static void half_text(int count2, char *buf, size_t n)
{
    if (!count2)
        snprintf(buf, n, "-");
    else if (count2 % 2 == 0)
        snprintf(buf, n, "%d", count2 / 2);
    else if (count2 == 1)
        snprintf(buf, n, ".5");
    else
        snprintf(buf, n, "%d.5", count2 / 2);
}

static void grid_row(tui *t, int p, const tally *ty, const char mark[][MAX_TYPE + 1])
{
    char buf[16];
    if (p == t->to_move)
        tb_cput(&t->b, C_MOVE, ">");
    tb_pad(&t->b, 2);
    put_name(t, p, p == t->you ? 7 : 13);
    if (p == t->you)
        tb_cput(&t->b, C_YOU, " (you)");
    for (int i = 0; i < t->ntypes; i++) {
        int k = t->type[i];
        char m[2] = {mark[p][k], 0};
        tb_pad(&t->b, GRID_X + GRID_W * i);
        half_text(ty[p].count2[k], buf, sizeof buf);
        tb_cput(&t->b, ty[p].count2[k] ? NULL : C_DIM, buf);
        if (m[0] != ' ')
            tb_cput(&t->b, C_MOVE, m);
    }
    tb_pad(&t->b, ATE_X);
    snprintf(buf, sizeof buf, "%4d", jint(player_at(t, p), "eaten_count", 0));
    tb_put(&t->b, buf);
    tb_pad(&t->b, ANCH_X);
    snprintf(buf, sizeof buf, "%5d", ty[p].anch);
    tb_cput(&t->b, ty[p].anch ? C_ANCH : C_DIM, buf);
    tb_nl(&t->b);
}

/* A label kept on one line with the first next_w columns that follow it. */
static void label_unit(tb *b, const char *code, const char *label, int next_w)
{
    tb_room(b, (int)strlen(label) + (next_w ? 1 + next_w : 0), 4, 2);
    tb_cput(b, code, label);
}

/* Width of the first token of a list as token_list writes it; `supreme`:
 * what follows a Supreme with no type ("(waiting)"), or "". */
static int first_width(const json_t *list, const char *supreme)
{
    const char *tok = json_string_value(json_array_get(list, 0));
    if (!tok)
        return 1;
    return (int)strlen(shown(tok)) + (!strcmp(tok, "S") ? (int)strlen(supreme) : 0);
}

/* The slices in a list of the view, or "-". */
static void token_list(tb *b, const json_t *list, const char *supreme)
{
    size_t i;
    const json_t *x;
    json_array_foreach(list, i, x) {
        const char *tok = json_string_value(x);
        token_unit(b, tok ? tok : "?", tok && !strcmp(tok, "S") ? supreme : "", 4);
    }
    if (!json_array_size(list))
        token_unit(b, "-", "", 4);
}

static void specials_list(tb *b, const json_t *pl)
{
    const json_t *sps = jget(pl, "specials");
    size_t n = json_array_size(sps);
    if (!n)
        return;
    for (size_t i = 0; i < n; i++) {
        const json_t *sp = json_array_get(sps, i);
        char buf[48];
        snprintf(buf, sizeof buf, "%s%s%s", jstr(sp, "slug"), json_is_true(jget(sp, "used")) ? "(used)" : "",
                 i + 1 < n ? "," : "");
        if (!i)
            label_unit(b, C_LABEL, "specials:", (int)strlen(buf));
        tb_room(b, (int)strlen(buf), 4, 1);
        tb_put(b, buf);
    }
}

/* The line under a player's counts: collection, eaten slices, Specials. */
static void player_detail(tui *t, int p)
{
    const json_t *pl = player_at(t, p);
    const char *mystery = json_string_value(jget(t->v, "mystery"));
    const json_t *kept = jget(pl, "collected"), *eaten = jget(pl, "eaten");
    const char *supreme = json_is_true(jget(pl, "supreme_waiting"))      ? "(waiting)"
                          : json_is_true(jget(pl, "supreme_on_anchovy")) ? "(on A)"
                                                                         : "";
    char buf[32];
    if (p == t->slicer)
        label_unit(&t->b, C_BOLD, "Slicer.", 0);
    label_unit(&t->b, C_LABEL, "kept:", first_width(kept, supreme));
    token_list(&t->b, kept, supreme);
    snprintf(buf, sizeof buf, "ate %d:", jint(pl, "eaten_count", 0));
    label_unit(&t->b, C_LABEL, buf, first_width(eaten, ""));
    token_list(&t->b, eaten, "");
    specials_list(&t->b, pl);
    if (mystery && jint(t->v, "seat", -1) == p) {
        label_unit(&t->b, C_LABEL, "your Mystery slice:", (int)strlen(mystery));
        token_unit(&t->b, mystery, "", 4);
    }
    tb_nl(&t->b);
}

static void draw_players(tui *t)
{
    tally ty[MAX_SEATS];
    char mark[MAX_SEATS][MAX_TYPE + 1];
    for (int p = 0; p < t->players; p++)
        tally_player(player_at(t, p), &ty[p]);
    lead_marks(t, ty, mark);
    grid_head(t);
    for (int p = 0; p < t->players; p++) {
        grid_row(t, p, ty, mark);
        player_detail(t, p);
    }
    tb_cput(&t->b, C_DIM, "> to move  * leads the type  = tied for the lead  .5 a Combo half");
    tb_nl(&t->b);
}

char *nys_tui_table(const json_t *view, const pb_tui_opts *o)
{
    tui t;
    tui_init(&t, view, o);
    draw_players(&t);
    tb_nl(&t.b);
    draw_header(&t);
    draw_special(&t);
    draw_ring(&t);
    draw_order(&t);
    draw_placing(&t);
    return tb_done(&t.b);
}

/* ---- The prompt ---- */

/* The first legal action starting with prefix, else dflt. */
static const char *legal_with(const tui *t, const char *prefix, const char *dflt)
{
    size_t i;
    const json_t *x;
    json_array_foreach(jget(t->v, "legal"), i, x) {
        const char *s = json_string_value(x);
        if (s && !strncmp(s, prefix, strlen(prefix)))
            return s;
    }
    return dflt;
}

/* The arguments of the legal actions starting with prefix: "3 4 9". */
static void legal_args(const tui *t, const char *prefix, char *out, size_t n)
{
    size_t i, len = 0, plen = strlen(prefix);
    const json_t *x;
    out[0] = 0;
    json_array_foreach(jget(t->v, "legal"), i, x) {
        const char *s = json_string_value(x);
        if (s && !strncmp(s, prefix, plen) && len + strlen(s + plen) + 2 < n)
            len += (size_t)snprintf(out + len, n - len, "%s%s", len ? " " : "", s + plen);
    }
}

/* Ring positions that hold a slice. */
static int occupied(const tui *t, int *occ)
{
    int m = 0;
    for (int p = 1; p <= RING; p++)
        if (json_is_string(jget(ring_at(t, p), "slice")))
            occ[m++] = p;
    return m;
}

/* A valid division of the ring into equal-ish runs: N cuts with the Special
 * joining a portion, N-1 with the Special alone (none for two players). */
static void divide_example(const tui *t, bool alone, char *out, size_t n)
{
    int occ[RING], m = occupied(t, occ), cuts = alone ? t->players - 1 : t->players;
    size_t len = 0;
    if (alone && cuts < 2) {
        snprintf(out, n, "special alone");
        return;
    }
    len += (size_t)snprintf(out, n, "cut");
    for (int i = 0; i < cuts && m >= cuts && len < n; i++)
        len += (size_t)snprintf(out + len, n - len, " %d", occ[(i + 1) * m / cuts - 1]);
    if (len < n)
        snprintf(out + len, n - len, alone ? " special alone" : " special %d", m ? occ[0] : 1);
}

/* The position after "special" in a division example. */
static int example_special(const char *division)
{
    const char *s = strstr(division, "special ");
    return s ? atoi(s + 8) : 1;
}

static void prompt_divide(const tui *t, char *out, size_t n)
{
    char with[64], alone[64];
    divide_example(t, false, with, sizeof with);
    divide_example(t, true, alone, sizeof alone);
    snprintf(out, n,
             "Divide into %d portions: \"%s\" (cut after each number; the Special goes with "
             "the portion holding %d) or \"%s\".",
             t->players, with, example_special(with), alone);
}

static void prompt_dibs(const tui *t, char *out, size_t n)
{
    int occ[RING], m = occupied(t, occ);
    char dflt[16];
    snprintf(dflt, sizeof dflt, "dibs %d", m ? occ[0] : 1);
    snprintf(out, n, "Dibs!: \"%s\" takes that slice out of the pizza and places it now; "
             "\"pass\" leaves the pizza whole.", legal_with(t, "dibs ", dflt));
}

static void prompt_take(const tui *t, char *out, size_t n)
{
    char open[2 * MAX_PORTIONS + 1] = "";
    size_t len = 0;
    for (char l = 'A'; l < 'A' + t->nportions; l++)
        for (int i = 0; i < t->nportions; i++) {
            const json_t *po = json_array_get(jget(t->v, "portions"), (size_t)i);
            if (t->label[i] == l && json_is_null(jget(po, "taken_by"))) {
                if (len)
                    open[len++] = ' ';
                open[len++] = l;
            }
        }
    open[len] = 0;
    snprintf(out, n, "Take a portion by its letter: \"take %c\" (open: %s).", len ? open[0] : 'A', open);
}

static void prompt_place(const tui *t, char *out, size_t n)
{
    const json_t *pl = jget(t->v, "placing"), *ed = jget(pl, "edible"), *sl = jget(pl, "slices");
    char nums[48] = "eat", toks[64] = "eat";
    int k = 0;
    for (size_t i = 0; i < json_array_size(ed) && k < 2; i++)
        if (json_is_true(json_array_get(ed, i))) {
            size_t a = strlen(nums), c = strlen(toks);
            snprintf(nums + a, sizeof nums - a, " %d", (int)i + 1);
            snprintf(toks + c, sizeof toks - c, " %s", json_string_value(json_array_get(sl, i)));
            k++;
        }
    /* "eat 1 2" by number, unless a token being placed is a bare number (a
     * Veggie 3): then "eat 3" is that slice */
    for (size_t i = 0; i < json_array_size(sl); i++) {
        const char *tok = json_string_value(json_array_get(sl, i));
        if (tok && tok[strspn(tok, "0123456789")] == 0)
            nums[0] = 0;
    }
    if (!k)
        snprintf(out, n, "Place your slices: \"collect all\" collects them.");
    else if (!nums[0])
        snprintf(out, n, "Place your slices: \"%s\" eats %s and collects the rest; \"collect all\" "
                 "eats none.", toks, k > 1 ? "those" : "that one");
    else
        snprintf(out, n, "Place your slices: \"%s\" eats %s (or by number: \"%s\") and collects the "
                 "rest; \"collect all\" eats none.", toks, k > 1 ? "those" : "that one", nums);
}

static void prompt_attach(const tui *t, char *out, size_t n, bool seconds)
{
    char args[64];
    legal_args(t, seconds ? "seconds " : "attach ", args, sizeof args);
    if (seconds)
        snprintf(out, n, "Seconds: \"%s\" offers your edible slices of that type to eat one by one "
                 "(types: %s); or \"pass\".", legal_with(t, "seconds ", "seconds 9"), args);
    else
        snprintf(out, n, "Attach your Supreme to a type you collected: \"%s\" (types: %s).",
                 legal_with(t, "attach ", "attach 9"), args);
}

/* What the seat to move types now. */
static void prompt_actor(const tui *t, const char *phase, char *out, size_t n)
{
    const char *offered = json_string_value(jget(jget(t->v, "placing"), "offered"));
    if (!strcmp(phase, "dibs"))
        prompt_dibs(t, out, n);
    else if (!strcmp(phase, "divide"))
        prompt_divide(t, out, n);
    else if (!strcmp(phase, "cut-in-line"))
        snprintf(out, n, "Cut in Line: \"cut-in-line\" to choose first now, or \"pass\".");
    else if (!strcmp(phase, "sneak"))
        snprintf(out, n, "Sneak-a-Slice: \"%s\" moves that end slice into the adjacent portion, "
                 "or \"pass\".", legal_with(t, "sneak ", "sneak 1 to 2"));
    else if (!strcmp(phase, "take"))
        prompt_take(t, out, n);
    else if (!strcmp(phase, "place"))
        prompt_place(t, out, n);
    else if (!strcmp(phase, "eat-or-keep") && offered)
        snprintf(out, n, "Eat or keep %s: \"eat %s\" eats it now, \"keep %s\" keeps it collected (or just "
                 "\"eat\" / \"keep\").", offered, offered, offered);
    else if (!strcmp(phase, "eat-or-keep"))
        snprintf(out, n, "Eat or keep this slice: \"eat\" eats it now, \"keep\" keeps it collected.");
    else
        prompt_attach(t, out, n, !strcmp(phase, "seconds"));
}

static const char *waiting_for(const char *phase)
{
    static const char *const what[][2] = {
        {"dibs", "decide on Dibs!"},         {"divide", "divide the pizza"},
        {"cut-in-line", "decide on Cut in Line"}, {"sneak", "decide on Sneak-a-Slice"},
        {"take", "take a portion"},          {"place", "place their slices"},
        {"eat-or-keep", "eat or keep a slice"}, {"attach", "attach the Supreme"},
        {"seconds", "decide on Seconds"},
    };
    for (size_t i = 0; i < sizeof what / sizeof what[0]; i++)
        if (!strcmp(phase, what[i][0]))
            return what[i][1];
    return "move";
}

char *nys_tui_prompt(const json_t *view, const pb_tui_opts *o)
{
    tui t;
    char text[512];
    const char *phase = jstr(view, "phase");
    tui_init(&t, view, o);
    if (!strcmp(phase, "over"))
        snprintf(text, sizeof text, "The game is over: the Guest Check has the scores.");
    else if (t.to_move >= 0 && t.to_move == t.you)
        prompt_actor(&t, phase, text, sizeof text);
    else if (t.to_move >= 0)
        snprintf(text, sizeof text, "Waiting for %.40s to %s.", seat_name(&t, t.to_move), waiting_for(phase));
    else
        snprintf(text, sizeof text, "Waiting.");
    tb_para(&t.b, text, 0);
    tb_nl(&t.b);
    return tb_done(&t.b);
}

char *nys_tui_banner(const json_t *v, const pb_tui_opts *o)
{
    const json_t *today = jget(v, "today");
    if (!json_is_object(today) || strcmp(jstr(v, "phase"), "over") == 0)
        return NULL;
    tui t;
    tui_init(&t, v, o);
    char line[160];
    tb_raw(&t.b, "\n", 1);
    snprintf(line, sizeof line, "== Round %d of %d%s.", jint(v, "round", 0), jint(v, "rounds", 0),
             jint(v, "round", 0) == jint(v, "rounds", 0) ? " (the last)" : "");
    tb_put(&t.b, line);
    tb_room(&t.b, 8 + name_cols(&t, t.slicer, 24) + 1, 3, 1);
    tb_put(&t.b, "Slicer: ");
    put_name(&t, t.slicer, 24);
    tb_put(&t.b, ".");
    snprintf(line, sizeof line, "Today's Special: %s", jstr(today, "name"));
    tb_room(&t.b, cols_of(line, strlen(line)), 3, 1);
    tb_put(&t.b, line);
    tb_nl(&t.b);
    replaced_note(&t, today);
    return tb_done(&t.b);
}
