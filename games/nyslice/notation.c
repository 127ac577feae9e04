/* notation.c -- New York Slice actions as text (docs/records.md).
 *
 * Ring positions are numbered 1..11 clockwise and keep their numbers for the
 * whole round (a slice taken with Dibs! leaves an empty position). A portion
 * is named by any of its positions; the canonical form uses the lowest. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../../core/error.h"
#include "../../core/jsonutil.h"
#include "nyslice.h"

/* Append formatted text to buf at *len, never overflowing. */
static void add(char *buf, size_t n, size_t *len, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void add(char *buf, size_t n, size_t *len, const char *fmt, ...)
{
    if (*len >= n)
        return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(buf + *len, n - *len, fmt, ap);
    va_end(ap);
    if (w > 0)
        *len += (size_t)w;
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
        add(buf, n, &len, "pass");
        break;
    case NYS_A_DIBS:
        add(buf, n, &len, "dibs %d", arg + 1);
        break;
    case NYS_A_DIVIDE: {
        unsigned cuts = (unsigned)arg & 0x7FFu;
        int spos = arg >> 11;
        if (cuts) {
            add(buf, n, &len, "cut");
            for (int p = 0; p < NYS_RING; p++)
                if (cuts >> p & 1u)
                    add(buf, n, &len, " %d", p + 1);
            add(buf, n, &len, " ");
        }
        if (spos == NYS_SPECIAL_ALONE)
            add(buf, n, &len, "special alone");
        else
            add(buf, n, &len, "special %d", spos + 1);
        break;
    }
    case NYS_A_CUT_IN_LINE:
        add(buf, n, &len, "cut-in-line");
        break;
    case NYS_A_SNEAK: {
        int pos = arg & 0xF;
        int target = nys_sneak_target(st, pos, arg >> 4);
        add(buf, n, &len, "sneak %d to %d", pos + 1, nys_portion_first_pos(st, target) + 1);
        break;
    }
    case NYS_A_TAKE: {
        int first = nys_portion_first_pos(st, arg);
        if (first < 0)
            add(buf, n, &len, "take special");
        else
            add(buf, n, &len, "take %d", first + 1);
        break;
    }
    case NYS_A_PLACE:
        if (arg == 0)
            add(buf, n, &len, "collect all");
        else
            add(buf, n, &len, "eat");
        for (int i = 0; i < st->qlen - st->qnew; i++)
            if (arg >> i & 1) {
                int id = st->queue[st->qnew + i];
                /* NYS-T5: an eaten Mystery slice is known only to its owner. */
                if (viewer != NYS_OMNISCIENT && id == st->mystery && viewer != st->mystery_owner)
                    snprintf(tok, sizeof tok, "?");
                else
                    nys_slice_token(&st->slice[id], tok, sizeof tok);
                add(buf, n, &len, " %s", tok);
            }
        break;
    case NYS_A_EAT:
    case NYS_A_KEEP:
        nys_slice_token(&st->slice[st->queue[st->qpos]], tok, sizeof tok);
        add(buf, n, &len, "%s %s", NYS_ACTION_KIND(a) == NYS_A_EAT ? "eat" : "keep", tok);
        break;
    case NYS_A_ATTACH:
        add(buf, n, &len, "attach %d", arg);
        break;
    case NYS_A_SECONDS:
        add(buf, n, &len, "seconds %d", arg);
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
        return pb_errorf(err, errlen, "'%s' is not a position 1-%d", w, NYS_RING);
    if (st->ring[v - 1] == NYS_NONE)
        return pb_errorf(err, errlen, "position %ld is empty (its slice was taken with Dibs!)", v);
    return (int)v - 1;
}

static int read_type(const char *w, char *err, size_t errlen)
{
    char *end;
    long v = strtol(w, &end, 10);
    if (!isdigit((unsigned char)w[0]) || *end || v < NYS_MIN_TYPE || v > NYS_MAX_TYPE)
        return pb_errorf(err, errlen, "'%s' is not a pizza type 3-11", w);
    return (int)v;
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
        return pb_errorf(err, errlen, "a division reads 'cut 2 5 9 special 3' or 'cut 2 5 special alone'");
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
    for (int k = 1; k < nw; k++) {
        int found = -1;
        bool present = false;
        for (int i = 0; i < n && found < 0; i++) {
            char tok[16];
            nys_slice_token(&st->slice[st->queue[st->qnew + i]], tok, sizeof tok);
            if (strcmp(tok, w[k]) != 0 || (mask >> i & 1u))
                continue;
            present = true;
            if (st->new_edible >> i & 1u)
                found = i;
        }
        if (found < 0) {
            char q[40];
            pb_quote(w[k], q, sizeof q);
            return present ? pb_errorf(err, errlen, "%s cannot be eaten: only slices with pepperoni "
                                              "(and those a Special allows) can", q)
                           : pb_errorf(err, errlen, "%s is not among the slices you are placing", q);
        }
        mask |= 1u << found;
    }
    *a = NYS_ACTION(NYS_A_PLACE, mask);
    return 0;
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
    int rc = -1;
    if (strcasecmp(verb, "pass") == 0 && nw == 1) {
        *a = NYS_ACTION(NYS_A_PASS, 0);
        rc = 0;
    } else if (strcasecmp(verb, "dibs") == 0 && nw == 2) {
        int p = read_pos(st, w[1], err, errlen);
        if (p < 0)
            return -1;
        *a = NYS_ACTION(NYS_A_DIBS, p);
        rc = 0;
    } else if (strcasecmp(verb, "cut") == 0 || strcasecmp(verb, "special") == 0) {
        if (parse_divide(st, w, nw, a, err, errlen) != 0)
            return -1;
        rc = 0;
    } else if (strcasecmp(verb, "cut-in-line") == 0 && nw == 1) {
        *a = NYS_ACTION(NYS_A_CUT_IN_LINE, 0);
        rc = 0;
    } else if (strcasecmp(verb, "sneak") == 0 && nw == 4 && strcasecmp(w[2], "to") == 0) {
        int p = read_pos(st, w[1], err, errlen), q;
        if (p < 0 || (q = read_pos(st, w[3], err, errlen)) < 0)
            return -1;
        for (int dir = 1; dir >= 0; dir--) {
            int target = nys_sneak_target(st, p, dir);
            if (target >= 0 && target == nys_portion_at(st, q)) {
                *a = NYS_ACTION(NYS_A_SNEAK, p | dir << 4);
                rc = 0;
                break;
            }
        }
        if (rc != 0)
            return pb_errorf(err, errlen, "Sneak-a-Slice moves an end slice into the adjacent portion "
                                    "(%d cannot move to %d's portion)", p + 1, q + 1);
    } else if (strcasecmp(verb, "take") == 0 && nw == 2) {
        if (st->phase != NYS_PH_TAKE)
            return pb_errorf(err, errlen, "not now: nobody is choosing a portion");
        if (strcasecmp(w[1], "special") == 0) {
            if (st->special_portion == NYS_NONE)
                return pb_errorf(err, errlen, "the Special is not on the table");
            *a = NYS_ACTION(NYS_A_TAKE, st->special_portion);
        } else {
            int p = read_pos(st, w[1], err, errlen);
            if (p < 0)
                return -1;
            int pid = nys_portion_at(st, p);
            *a = NYS_ACTION(NYS_A_TAKE, pid < 0 ? 0xFF : pid);
        }
        rc = 0;
    } else if (st->phase == NYS_PH_PLACE &&
               (strcasecmp(verb, "eat") == 0 || strcasecmp(verb, "collect") == 0)) {
        if (parse_place(st, w, nw, a, err, errlen) != 0)
            return -1;
        rc = 0;
    } else if ((strcasecmp(verb, "eat") == 0 || strcasecmp(verb, "keep") == 0) && nw <= 2) {
        if (st->phase != NYS_PH_EAT_OR_KEEP)
            return pb_errorf(err, errlen, "not now: no slice is waiting to be placed");
        if (nw == 2) {
            int id = st->queue[st->qpos];
            char tok[16], shown[16];
            nys_slice_token(&st->slice[id], tok, sizeof tok);
            /* An attached Supreme is shown as S@type; both names are fine. */
            snprintf(shown, sizeof shown, "S@%d", st->supreme_type);
            if (strcmp(tok, w[1]) != 0 && !(id == st->supreme && strcmp(shown, w[1]) == 0))
                return pb_errorf(err, errlen, "the slice offered is %s, not %s", tok, w[1]);
        }
        *a = NYS_ACTION(strcasecmp(verb, "eat") == 0 ? NYS_A_EAT : NYS_A_KEEP, 0);
        rc = 0;
    } else if ((strcasecmp(verb, "attach") == 0 || strcasecmp(verb, "seconds") == 0) && nw == 2) {
        int t = read_type(w[1], err, errlen);
        if (t < 0)
            return -1;
        *a = NYS_ACTION(strcasecmp(verb, "attach") == 0 ? NYS_A_ATTACH : NYS_A_SECONDS, t);
        rc = 0;
    }
    if (rc != 0) {
        char q[64];
        pb_quote(text, q, sizeof q);
        return pb_errorf(err, errlen, "unknown action %s (see docs/records.md)", q);
    }
    return nys_is_legal(st, *a, err, errlen) ? 0 : -1;
}
