/* notation.c -- New York Slice actions as text (docs/records.md).
 *
 * The notation is what the table shows: ring positions are numbered 1..11
 * clockwise and keep their numbers for the whole round (a slice taken with
 * Dibs! leaves an empty position); once the pizza is divided, portions are
 * named by letter (nys_portion_letter). Records written before the letters
 * named a portion by any of its positions ("take 6", "sneak 5 to 6",
 * "take special"): those forms are still read. Every refusal names its
 * reason in the player's words. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../../core/error.h"
#include "../../core/jsonutil.h"
#include "../../core/text.h"
#include "nyslice.h"

/* Is new slice i (of those being placed) the Mystery slice just drawn, with
 * an identical slice beside it? Then the notation names it "mystery", for
 * eating it rather than its twin keeps it secret. */
static bool mystery_with_twin(const nys_state *st, int i)
{
    int id = st->queue[st->qnew + i];
    if (i != nys_mystery_index(st))
        return false;
    for (int j = 0; j < st->qlen - st->qnew; j++)
        if (j != i && st->cls[st->queue[st->qnew + j]] == st->cls[id])
            return true;
    return false;
}

int nys_action_to_text(const nys_state *st, pb_action a, char *buf, size_t n)
{
    return nys_action_text_for(st, a, NYS_OMNISCIENT, buf, n);
}

int nys_action_text_for(const nys_state *st, pb_action a, int viewer, char *buf, size_t n)
{
    if (n)
        buf[0] = 0;
    if (!nys_is_legal(st, a, NULL, 0))
        return -1;
    int arg = NYS_ACTION_PAYLOAD(a);
    size_t len = 0;
    char tok[16];
    switch (NYS_ACTION_KIND(a)) {
    case NYS_A_PASS:
        pb_appendf(buf, n, &len, "pass");
        break;
    case NYS_A_DIBS:
        pb_appendf(buf, n, &len, "dibs %d", arg + 1);
        break;
    case NYS_A_DIVIDE: {
        unsigned cuts = (unsigned)arg & 0x7FFu;
        int spos = arg >> 11;
        if (cuts) {
            pb_appendf(buf, n, &len, "cut");
            for (int p = 0; p < NYS_RING; p++)
                if (cuts >> p & 1u)
                    pb_appendf(buf, n, &len, " %d", p + 1);
            pb_appendf(buf, n, &len, " ");
        }
        if (spos == NYS_SPECIAL_ALONE)
            pb_appendf(buf, n, &len, "special alone");
        else
            pb_appendf(buf, n, &len, "special %d", spos + 1);
        break;
    }
    case NYS_A_CUT_IN_LINE:
        pb_appendf(buf, n, &len, "cut-in-line");
        break;
    case NYS_A_SNEAK: {
        int pos = arg & 0xF;
        int target = nys_sneak_target(st, pos, arg >> 4);
        pb_appendf(buf, n, &len, "sneak %d to %c", pos + 1, nys_portion_letter(st, target));
        break;
    }
    case NYS_A_TAKE:
        pb_appendf(buf, n, &len, "take %c", nys_portion_letter(st, arg));
        break;
    case NYS_A_PLACE:
        if (arg == 0)
            pb_appendf(buf, n, &len, "collect all");
        else
            pb_appendf(buf, n, &len, "eat");
        for (int i = 0; i < st->qlen - st->qnew; i++)
            if (arg >> i & 1) {
                int id = st->queue[st->qnew + i];
                /* NYS-T5: an eaten Mystery slice is known only to its owner. */
                if (viewer != NYS_OMNISCIENT && id == st->mystery && viewer != st->mystery_owner)
                    snprintf(tok, sizeof tok, "?");
                else if (mystery_with_twin(st, i))
                    snprintf(tok, sizeof tok, "mystery");
                else
                    nys_slice_token(&st->slice[id], tok, sizeof tok);
                pb_appendf(buf, n, &len, " %s", tok);
            }
        break;
    case NYS_A_EAT:
    case NYS_A_KEEP:
        nys_slice_token(&st->slice[st->queue[st->qpos]], tok, sizeof tok);
        pb_appendf(buf, n, &len, "%s %s", NYS_ACTION_KIND(a) == NYS_A_EAT ? "eat" : "keep", tok);
        break;
    case NYS_A_ATTACH:
        pb_appendf(buf, n, &len, "attach %d", arg);
        break;
    case NYS_A_SECONDS:
        pb_appendf(buf, n, &len, "seconds %d", arg);
        break;
    }
    return 0;
}

#define MAX_WORDS 16

/* Split text into at most MAX_WORDS words; returns the count, -1 if more. */
static int split(char *text, char **words)
{
    int n = 0;
    char *save;
    for (char *p = strtok_r(text, " \t\r\n,", &save); p; p = strtok_r(NULL, " \t\r\n,", &save)) {
        if (n == MAX_WORDS)
            return -1;
        words[n++] = p;
    }
    return n;
}

/* A ring position 1..11 holding a slice; returns the 0-based position. */
static int read_pos(const nys_state *st, const char *w, char *err, size_t errlen)
{
    char *end;
    long v = strtol(w, &end, 10);
    if (!isdigit((unsigned char)w[0]) || *end || v < 1 || v > NYS_RING)
        return pb_errorf(err, errlen, "'%s' is not a position of the pizza: they are numbered 1 to %d", w, NYS_RING);
    if (st->ring[v - 1] == NYS_NONE)
        return pb_errorf(err, errlen, "position %ld is empty (its slice was taken with Dibs!)", v);
    return (int)v - 1;
}

static int read_type(const char *w, char *err, size_t errlen)
{
    char *end;
    long v = strtol(w, &end, 10);
    if (!isdigit((unsigned char)w[0]) || *end || v < NYS_MIN_TYPE || v > NYS_MAX_TYPE)
        return pb_errorf(err, errlen, "'%s' is not a pizza type: the types are 3 to 11", w);
    return (int)v;
}

static const char *count_words(int k)
{
    static const char *const words[] = {"no", "one", "two", "three", "four", "five", "six", "seven",
                                        "eight", "nine", "ten", "eleven", "twelve"};
    return k >= 0 && k < (int)(sizeof words / sizeof words[0]) ? words[k] : "many";
}

/* Cuts a division needs: N with the Special on slices, N-1 with it alone
 * (none with 2 players: the whole pizza is the other portion). */
static int cuts_needed(const nys_state *st, bool alone)
{
    return !alone ? st->players : st->players == 2 ? 0 : st->players - 1;
}

/* A division in even runs of the pizza as it is, for examples: the Special
 * with the portion holding the first slice, or alone. */
static void even_division(const nys_state *st, bool alone, char *buf, size_t n)
{
    int occ[NYS_RING], m = 0, k = cuts_needed(st, alone);
    unsigned cuts = 0;
    for (int p = 0; p < NYS_RING; p++)
        if (st->present >> p & 1u)
            occ[m++] = p;
    for (int i = 0; i < k && m >= k; i++)
        cuts |= 1u << occ[(i + 1) * m / k - 1];
    if (nys_action_to_text(st, NYS_DIVIDE(cuts, alone || !m ? NYS_SPECIAL_ALONE : occ[0]), buf, n) != 0)
        snprintf(buf, n, "%s", alone ? "special alone" : "cut 11 special 1");
}

/* A division without where the Special goes: an example for this player
 * count, the cuts typed kept when there are as many as one form needs. */
static int refuse_division(const nys_state *st, unsigned cuts, bool special_said, char *err, size_t errlen)
{
    int typed = __builtin_popcount(cuts), first = __builtin_ctz(st->present | 1u << NYS_RING);
    char with[64], alone[64], mine[64] = "cut";
    size_t len = 3;
    even_division(st, false, with, sizeof with);
    even_division(st, true, alone, sizeof alone);
    for (int p = 0; p < NYS_RING; p++)
        if (cuts >> p & 1u)
            pb_appendf(mine, sizeof mine, &len, " %d", p + 1);
    int alone_cuts = cuts_needed(st, true);
    if (!special_said && typed && typed == st->players)
        return pb_errorf(err, errlen, "a division reads \"%s special %d\" (the Special goes with the portion holding %d), "
                         "or %s cut%s then \"special alone\" (the Special a portion of its own)", mine, first + 1,
                         first + 1, count_words(alone_cuts), alone_cuts == 1 ? "" : "s");
    if (!special_said && typed && typed == alone_cuts)
        return pb_errorf(err, errlen, "a division reads \"%s special alone\" (the Special a portion of its own), or "
                         "%s cuts then \"special N\" (the Special with the portion holding N)", mine,
                         count_words(st->players));
    return pb_errorf(err, errlen, "a division reads \"%s\" (%s cuts; the Special goes with the portion holding %d) "
                     "or \"%s\" (%s cut%s; the Special is a portion of its own)", with, count_words(st->players),
                     first + 1, alone, count_words(alone_cuts), alone_cuts == 1 ? "" : "s");
}

static int parse_divide(const nys_state *st, char **w, int nw, pb_action *a, char *err, size_t errlen)
{
    unsigned cuts = 0;
    int i = 0;
    if (strcasecmp(w[0], "cut") == 0) {
        for (i = 1; i < nw && strcasecmp(w[i], "special") != 0; i++) {
            int p = read_pos(st, w[i], err, errlen);
            if (p < 0)
                return -1;
            if (cuts >> p & 1u)
                return pb_errorf(err, errlen, "cut %d is named twice", p + 1);
            cuts |= 1u << p;
        }
    }
    if (i + 2 != nw || strcasecmp(w[i], "special") != 0)
        return refuse_division(st, cuts, i < nw, err, errlen);
    int spos = NYS_SPECIAL_ALONE;
    if (strcasecmp(w[i + 1], "alone") != 0) {
        int p = read_pos(st, w[i + 1], err, errlen);
        if (p < 0)
            return -1;
        if (__builtin_popcount(cuts) != st->players)
            return pb_errorf(err, errlen, "%d players need %d cuts when the Special goes with slices (%d portions), not %d",
                       st->players, st->players, st->players, __builtin_popcount(cuts));
        /* Name the Special's portion by its lowest position. */
        uint16_t masks[NYS_MAX_PLAYERS + 1];
        int np = nys_portions_from_cuts(st->present, cuts, masks);
        spos = p;
        for (int k = 0; k < np; k++)
            if (masks[k] >> p & 1u)
                spos = __builtin_ctz(masks[k]);
    }
    *a = NYS_DIVIDE(cuts, spos);
    return 0;
}

/* Why a slice being placed may not be eaten (NYS-T2, T3). */
static int inedible(const nys_slice *s, const char *tok, char *err, size_t errlen)
{
    if (s->kind == NYS_ANCHOVY)
        return pb_errorf(err, errlen, "the Anchovy slice (A) can never be eaten");
    if (s->kind == NYS_COMBO)
        return pb_errorf(err, errlen, "a Combo (%s) can only be eaten with Combo Craving", tok);
    if (s->type == NYS_VEGGIE)
        return pb_errorf(err, errlen, "a Veggie (%s) with no pepperoni can only be eaten with You Love "
                                      "Veggies, on the turn you gain it", tok);
    bool an = tok[0] == '8' || strncmp(tok, "11", 2) == 0;
    return pb_errorf(err, errlen, "%s %s with no pepperoni cannot be eaten", an ? "an" : "a", tok);
}

/* "eat 9p2 7p1" (eat these, collect the rest), "collect all" or "eat none". */
static int parse_place(const nys_state *st, char **w, int nw, pb_action *a, char *err, size_t errlen)
{
    if (nw == 2 && (strcasecmp(w[0], "collect") == 0 ? strcasecmp(w[1], "all") == 0
                                                     : strcasecmp(w[1], "none") == 0)) {
        *a = NYS_ACTION(NYS_A_PLACE, 0);
        return 0;
    }
    if (strcasecmp(w[0], "eat") != 0 || nw < 2)
        return pb_errorf(err, errlen, "name the slices to eat, e.g. 'eat 9p2 7p1', or 'collect all'");
    unsigned mask = 0;
    int n = st->qlen - st->qnew;
    char tok[16], q[40];
    for (int k = 1; k < nw; k++) {
        nys_slice want;
        pb_quote(w[k], q, sizeof q);
        if (strcasecmp(w[k], "mystery") == 0) {
            int i = nys_mystery_index(st);
            if (i < 0)
                return pb_errorf(err, errlen, "there is no Mystery slice among the slices you are placing");
            if (mask >> i & 1u)
                return pb_errorf(err, errlen, "the Mystery slice is named twice");
            if (!(st->new_edible >> i & 1u)) {
                nys_slice_token(&st->slice[st->mystery], tok, sizeof tok);
                return inedible(&st->slice[st->mystery], tok, err, errlen);
            }
            mask |= 1u << i;
            continue;
        }
        if (nys_slice_parse(w[k], &want, NULL) != 0)
            return pb_errorf(err, errlen, "%s is not a slice: slices read like 9p2, 11a1, c8/10 or S", q);
        int found = -1, present = 0, edible = 0, asked = 0;
        for (int j = 1; j < nw; j++)
            asked += strcmp(w[j], w[k]) == 0;
        for (int i = 0; i < n; i++) {
            nys_slice_token(&st->slice[st->queue[st->qnew + i]], tok, sizeof tok);
            if (strcmp(tok, w[k]) != 0)
                continue;
            present++;
            edible += st->new_edible >> i & 1u;
            if (found < 0 && !(mask >> i & 1u) && (st->new_edible >> i & 1u))
                found = i;
        }
        if (!present) {
            char list[128] = "";
            size_t len = 0;
            for (int i = 0; i < n; i++) {
                nys_slice_token(&st->slice[st->queue[st->qnew + i]], tok, sizeof tok);
                pb_appendf(list, sizeof list, &len, "%s%s", i ? " " : "", tok);
            }
            return pb_errorf(err, errlen, "%s is not among the slices you are placing (%s)", q, list);
        }
        if (!edible)
            return inedible(&want, w[k], err, errlen);
        if (found < 0)
            return pb_errorf(err, errlen, "you are placing %s %s, not %s", count_words(present), w[k],
                             count_words(asked));
        mask |= 1u << found;
    }
    *a = NYS_ACTION(NYS_A_PLACE, mask);
    return 0;
}

/* A portion named as the table names it, by its letter; or, as records
 * written before the letters did, by any of its positions ("take 6") or
 * "special" for the portion holding the Special. The id, or -1 with why. */
static int read_portion(const nys_state *st, const char *w, char *err, size_t errlen)
{
    char last = (char)('A' + st->nportions - 1);
    if (strcasecmp(w, "special") == 0) {
        if (st->special_portion == NYS_NONE)
            return pb_errorf(err, errlen, "the Special is not on the table");
        return st->special_portion;
    }
    if (isalpha((unsigned char)w[0]) && !w[1]) {
        int pid = nys_portion_by_letter(st, w[0]);
        if (pid < 0)
            return pb_errorf(err, errlen, "there is no portion %c: the portions are A to %c",
                             toupper((unsigned char)w[0]), last);
        return pid;
    }
    if (isdigit((unsigned char)w[0])) {
        int p = read_pos(st, w, err, errlen);
        return p < 0 ? -1 : nys_portion_at(st, p);
    }
    char q[40];
    pb_quote(w, q, sizeof q);
    return pb_errorf(err, errlen, "%s is not a portion: portions are named by their letter, A to %c", q, last);
}

/* An example of what may be typed now: a division in even runs with the
 * Special alone, else the first legal action. */
static void example(const nys_state *st, char *buf, size_t n)
{
    buf[0] = 0;
    if (st->phase == NYS_PH_DIVIDE) {
        even_division(st, true, buf, n);
        return;
    }
    pb_action *acts = malloc(sizeof *acts * PB_MAX_ACTIONS);
    if (acts && nys_legal_actions(st, acts) > 0)
        nys_action_to_text(st, acts[0], buf, n);
    free(acts);
}

/* What the game waits for, with an example: for a move of the wrong
 * kind now, or a word that is no move at all. */
static int refuse(const nys_state *st, const char *why, char *err, size_t errlen)
{
    char ex[128];
    example(st, ex, sizeof ex);
    return pb_errorf(err, errlen, "%s: the game expects %s, e.g. \"%s\"", why, nys_phase_expects(st->phase), ex);
}

/* A known verb written wrongly ("dibs" alone): an example of that move. */
static int refuse_form(const nys_state *st, const char *verb, const char *quoted, char *err, size_t errlen)
{
    pb_action *acts = malloc(sizeof *acts * PB_MAX_ACTIONS);
    char ex[128] = "";
    size_t len = strlen(verb);
    int n = acts ? nys_legal_actions(st, acts) : 0;
    for (int i = 0; i < n && !ex[0]; i++)
        if (nys_action_to_text(st, acts[i], ex, sizeof ex) != 0 || strncasecmp(ex, verb, len) != 0)
            ex[0] = 0;
    free(acts);
    if (!ex[0]) {
        char why[96];
        snprintf(why, sizeof why, "%s is not how the move is written", quoted);
        return refuse(st, why, err, errlen);
    }
    return pb_errorf(err, errlen, "%s is not how the move is written: e.g. \"%s\"", quoted, ex);
}

static int parse_sneak(const nys_state *st, char **w, pb_action *a, char *err, size_t errlen)
{
    int p = read_pos(st, w[1], err, errlen), target;
    if (p < 0 || (target = read_portion(st, w[3], err, errlen)) < 0)
        return -1;
    for (int dir = 1; dir >= 0; dir--)
        if (nys_sneak_target(st, p, dir) == target) {
            *a = NYS_ACTION(NYS_A_SNEAK, p | dir << 4);
            return 0;
        }
    nys_sneak_refusal(st, p, target, err, errlen);
    return -1;
}

static bool is(const char *w, const char *word)
{
    return strcasecmp(w, word) == 0;
}

/* The phase in which a verb is a move, or -1 for no verb of the notation. */
static int phase_of(const char *verb)
{
    static const struct { const char *verb; int phase; } verbs[] = {
        {"dibs", NYS_PH_DIBS},         {"cut", NYS_PH_DIVIDE},     {"special", NYS_PH_DIVIDE},
        {"cut-in-line", NYS_PH_CUT_IN_LINE}, {"sneak", NYS_PH_SNEAK}, {"take", NYS_PH_TAKE},
        {"collect", NYS_PH_PLACE},     {"keep", NYS_PH_EAT_OR_KEEP}, {"attach", NYS_PH_ATTACH},
        {"seconds", NYS_PH_SECONDS},
    };
    for (size_t i = 0; i < sizeof verbs / sizeof verbs[0]; i++)
        if (is(verb, verbs[i].verb))
            return verbs[i].phase;
    return -1;
}

int nys_action_from_text(const nys_state *st, const char *text, pb_action *a, char *err, size_t errlen)
{
    char copy[256];
    char *w[MAX_WORDS];
    if (strlen(text) >= sizeof copy)
        return pb_errorf(err, errlen, "that is too long for an action");
    strcpy(copy, text);
    int nw = split(copy, w);
    if (nw < 0)
        return pb_errorf(err, errlen, "that has too many words for an action");
    if (nw == 0)
        return pb_errorf(err, errlen, "empty action");
    if (st->phase == NYS_PH_OVER)
        return pb_errorf(err, errlen, "the game is over");
    const char *verb = w[0];
    int phase = phase_of(verb);
    char q[64];
    pb_quote(text, q, sizeof q);
    /* "eat" places new slices or eats the one offered; "pass" declines
     * whatever power is offered now. */
    if (is(verb, "eat"))
        phase = st->phase == NYS_PH_PLACE ? NYS_PH_PLACE : NYS_PH_EAT_OR_KEEP;
    if (is(verb, "pass") && nw == 1) {
        *a = NYS_ACTION(NYS_A_PASS, 0);
        return nys_is_legal(st, *a, NULL, 0) ? 0 : refuse(st, "there is nothing to pass on now", err, errlen);
    }
    if (phase < 0) {
        char why[96];
        snprintf(why, sizeof why, "%s is not a move", q);
        return refuse(st, why, err, errlen);
    }
    if (phase != st->phase)
        return refuse(st, "not now", err, errlen);
    int rc = -1;
    if (is(verb, "dibs") && nw == 2) {
        int p = read_pos(st, w[1], err, errlen);
        if (p < 0)
            return -1;
        *a = NYS_ACTION(NYS_A_DIBS, p);
        rc = 0;
    } else if (phase == NYS_PH_DIVIDE) {
        if (parse_divide(st, w, nw, a, err, errlen) != 0)
            return -1;
        rc = 0;
    } else if (is(verb, "cut-in-line") && nw == 1) {
        *a = NYS_ACTION(NYS_A_CUT_IN_LINE, 0);
        rc = 0;
    } else if (is(verb, "sneak") && nw == 4 && is(w[2], "to")) {
        if (parse_sneak(st, w, a, err, errlen) != 0)
            return -1;
        rc = 0;
    } else if (is(verb, "take") && nw == 2) {
        int pid = read_portion(st, w[1], err, errlen);
        if (pid < 0)
            return -1;
        *a = NYS_ACTION(NYS_A_TAKE, pid);
        rc = 0;
    } else if (phase == NYS_PH_PLACE) {
        if (parse_place(st, w, nw, a, err, errlen) != 0)
            return -1;
        rc = 0;
    } else if (phase == NYS_PH_EAT_OR_KEEP && nw <= 2) {
        if (nw == 2) {
            int id = st->queue[st->qpos];
            char tok[16], shown[16];
            nys_slice_token(&st->slice[id], tok, sizeof tok);
            /* An attached Supreme is shown as S@type; both names are fine. */
            snprintf(shown, sizeof shown, "S@%d", st->supreme_type);
            if (strcmp(tok, w[1]) != 0 && !(id == st->supreme && strcmp(shown, w[1]) == 0))
                return pb_errorf(err, errlen, "the slice offered is %s, not %s", tok, w[1]);
        }
        *a = NYS_ACTION(is(verb, "eat") ? NYS_A_EAT : NYS_A_KEEP, 0);
        rc = 0;
    } else if ((is(verb, "attach") || is(verb, "seconds")) && nw == 2) {
        int t = read_type(w[1], err, errlen);
        if (t < 0)
            return -1;
        *a = NYS_ACTION(is(verb, "attach") ? NYS_A_ATTACH : NYS_A_SECONDS, t);
        rc = 0;
    }
    if (rc != 0)
        return refuse_form(st, verb, q, err, errlen);
    return nys_is_legal(st, *a, err, errlen) ? 0 : -1;
}
