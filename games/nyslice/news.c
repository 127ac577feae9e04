/* news.c -- what everyone learns from a move beyond the move itself, for
 * the table's log (pb_game_ops.news): the steps the engine takes alone
 * because nobody has a choice (the Slicer's last portion, slices collected
 * because none may be eaten, a Supreme with one possible type, a Mystery
 * draw), a new round with its Special and any Special sent back, and the
 * end. Only public facts: seats are not named (the game knows no names),
 * the Slicer is "the Slicer", and a Mystery slice is never shown. */
#include <stdio.h>
#include <string.h>

#include "../../core/text.h"
#include "nyslice.h"

/* Did the slice leave the ring for `seat` during the move? */
static bool gained(const nys_state *before, const nys_state *after, int id, int seat)
{
    uint8_t l = after->loc[id];
    return before->loc[id] == NYS_LOC_RING && NYS_LOC_KIND(l) >= NYS_LOC_PENDING && NYS_LOC_SEAT(l) == seat;
}

/* The tokens of a portion's slices, and whether all went straight to the
 * collection (nothing in it might be eaten, so nobody was asked). */
static bool portion_tokens(const nys_state *before, const nys_state *after, int pid, char *out, size_t n)
{
    bool collected = true;
    size_t len = 0;
    out[0] = 0;
    for (unsigned m = before->portion_mask[pid]; m; m &= m - 1) {
        int id = before->ring[__builtin_ctz(m)];
        char tok[16];
        nys_slice_token(&before->slice[id], tok, sizeof tok);
        collected = collected && NYS_LOC_KIND(after->loc[id]) == NYS_LOC_COLLECTED;
        int k = snprintf(out + len, n - len, "%s%s", len ? " " : "", tok);
        if (k > 0 && len + (size_t)k < n)
            len += (size_t)k;
    }
    return collected && len;
}

/* NYS-T1: the Slicer gets the last portion without choosing; and a portion
 * the mover took, or a slice taken with Dibs!, is collected without a
 * question when none of it may be eaten (NYS-T2). */
static void auto_portions(pb_sentences *w, const nys_state *before, const nys_state *after)
{
    if (before->phase != NYS_PH_TAKE && before->phase != NYS_PH_PLACE && before->phase != NYS_PH_EAT_OR_KEEP &&
        before->phase != NYS_PH_ATTACH && before->phase != NYS_PH_DIBS)
        return;
    char toks[96];
    for (int pid = 0; pid < before->nportions; pid++) {
        if (before->taken >> pid & 1u)
            continue;
        int seat = -1;
        for (unsigned m = before->portion_mask[pid]; m && seat < 0; m &= m - 1) {
            int id = before->ring[__builtin_ctz(m)];
            for (int s = 0; s < before->players && seat < 0; s++)
                seat = gained(before, after, id, s) ? s : -1;
        }
        bool special_alone = pid == before->special_portion && !before->portion_mask[pid];
        if (special_alone && before->special_owner[before->today] == NYS_NONE)
            seat = after->special_owner[before->today] == NYS_NONE ? -1 : after->special_owner[before->today];
        if (seat < 0)
            continue;
        bool collected = portion_tokens(before, after, pid, toks, sizeof toks);
        char letter = (char)nys_portion_letter(before, pid);
        if (before->phase == NYS_PH_TAKE && seat == before->actor) {
            if (collected)
                pb_say(w, "Nothing in portion %c may be eaten: %s collected.", letter, toks);
        } else if (special_alone) {
            pb_say(w, "The Slicer gets the last portion, %c: the Special alone.", letter);
        } else if (collected) {
            pb_say(w, "The Slicer gets the last portion, %c: nothing in it may be eaten, %s collected.", letter, toks);
        } else {
            pb_say(w, "The Slicer gets the last portion, %c.", letter);
        }
    }
    /* Dibs!: one slice out of the pizza. */
    if (before->phase == NYS_PH_DIBS)
        for (int p = 0; p < NYS_RING; p++) {
            int id = before->ring[p];
            if (id != NYS_NONE && before->loc[id] == NYS_LOC_RING &&
                NYS_LOC_KIND(after->loc[id]) == NYS_LOC_COLLECTED && after->round == before->round) {
                nys_slice_token(&before->slice[id], toks, sizeof toks);
                pb_say(w, "%s collected: it may not be eaten.", toks);
            }
        }
}

int nys_news(const nys_rules *rules, const nys_state *before, const nys_state *after, char *buf, size_t n)
{
    pb_sentences w = {buf, n, 0};
    if (!n)
        return 0;
    buf[0] = 0;
    auto_portions(&w, before, after);
    if (before->mystery == NYS_NONE && after->mystery != NYS_NONE)
        pb_say(&w, "A Mystery slice is drawn from the spares: only its taker sees it.");
    if (!before->supreme_type && after->supreme_type && before->phase != NYS_PH_ATTACH)
        pb_say(&w, "The Supreme joins the %d %s, the only type its holder collected.", after->supreme_type,
            rules->deck.type_name[after->supreme_type]);
    if (!before->supreme_on_anchovy && after->supreme_on_anchovy)
        pb_say(&w, "The Supreme is placed next to the Anchovy slice, the only other slice its holder collected: it "
                   "counts for no type.");
    char round[512]; /* a reveal may send back up to four Specials, ~95 characters each */
    if (nys_round_news(before, after, round, sizeof round) > 0)
        pb_say(&w, "%s", round);
    if (after->phase == NYS_PH_OVER && before->phase != NYS_PH_OVER) {
        int sec = after->special_owner[NYS_SECONDS];
        bool asked = before->placing == NYS_PLACING_SECONDS;
        if (sec != NYS_NONE && !asked)
            pb_say(&w, "Seconds is not played: its holder has no collected slice with pepperoni.");
        pb_say(&w, "The game is over: the Guest Check has the scores.");
    }
    return (int)w.len;
}
