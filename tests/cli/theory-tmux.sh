#!/bin/sh
# tests/cli/theory-tmux.sh -- a whole Pizza Theory game played as a person
# would, on a real 80x24 terminal: `pizzabox play --game theory --players 2
# --seed 3 --hint mcts:iters=1000` runs in a detached tmux session (hints from
# an iteration budget alone: a level's CPU cap would make the game, and so
# this seed's skip, depend on the machine's speed), and at every prompt the script
# types what the screen says: a few moves the rules forbid first, then `hint`
# and the move the hint names (a label alone or `put d4`, a line alone or
# `cut 4`, by turns). The screen, read back with capture-pane, must show:
#   - each refusal with its reason, naming the space by its label;
#   - every move typed in the log, in the words typed (a label, never cube
#     coordinates), and the board's labels where the prompt says;
#   - the skip this seed brings (Red has no space once and skips);
#   - a bare number while placing answered about spaces, and help without
#     cards (Pizza Theory has none);
#   - at every cut, the neutral's line drawn on the board, all of it and the
#     prompt in view on the 24 rows;
#   - every round's reveal told once, the end of the game and exit status 0;
#   - no line wider than 80 columns (wrapped lines joined first).
#
#   sh tests/cli/theory-tmux.sh build/pizzabox
#
# Skips (exit 0) when tmux is not installed. Uses its own tmux server (a
# socket in a temporary directory), killed at exit. About 20-40 s.

. "$(dirname "$0")/lib.sh"
use_tmux theory-tmux "${1:-}"
echo 'set -g history-limit 50000' >>"$T/tmux.conf"

over() {
    [ -f "$T/status" ]
}

# The number of "You>" prompts so far.
prompts() {
    history "$T/count"
    grep -c '^You>' "$T/count"
}

# wait_prompts N: until there are N prompts or the game is over (about 20 s:
# the hint bot thinks, and the machine may be busy).
wait_prompts() {
    i=0
    while [ $i -lt 200 ]; do
        [ "$(prompts)" -ge "$1" ] && return 0
        over && return 1
        nap
        i=$((i + 1))
    done
    return 1
}

# type TEXT: type a line and wait for the next prompt (or the end).
n=0
type_line() {
    n=$(prompts)
    tm send-keys -t pb -l "$1" 2>/dev/null
    tm send-keys -t pb Enter 2>/dev/null
    wait_prompts $((n + 1))
}

# The lines printed since the last prompt (what answered the last line typed).
answer() {
    history "$T/now"
    awk '/^You>/ { last = NR } { line[NR] = $0 } END { for (i = prev + 1; i < last; i++) print line[i] }' \
        prev="$(grep -n '^You>' "$T/now" | tail -2 | head -1 | cut -d: -f1)" "$T/now"
}

# ---- Start ----

if ! tmux_session 80 24 \
    "NO_COLOR=1 TERM=xterm-256color; export NO_COLOR TERM; \"$BIN\" play --game theory --players 2 --seed 3 --hint mcts:iters=1000" "sleep 30"; then
    not_ok "theory-tmux: a detached 80x24 session starts"
    summary theory-tmux
    exit 1
fi
if wait_prompts 1; then
    ok "theory-tmux: the game starts and asks for a topping"
else
    not_ok "theory-tmux: the game starts and asks for a topping" "no prompt"
    summary theory-tmux
    exit 1
fi

# ---- Refusals, each with its reason in the player's words ----

# Round 1: the start toppings are on a2 and a3 (the top side), e1 and f1, e6 and f5.
refusals=""
for pair in "a2|a2 already has a topping" "put e6|e6 already has a topping" \
    "cut 3|no cutting yet; now add a topping: type a label, e.g. put " "z9|no space is labelled 'z9'" \
    "take Z|'take Z' is not a move; now add a topping" \
    "0|'0' names no space: a space is a row letter and a number, e.g. put "; do
    typed=${pair%%|*}
    why=${pair#*|}
    type_line "$typed"
    answer >"$T/answer"
    grep -q -F -- "$why" "$T/answer" || refusals="$refusals; '$typed' got: $(head -1 "$T/answer")"
done
check "theory-tmux: an illegal move shows its reason on the screen" "${refusals#; }"
type_line help
answer >"$T/help"
check "theory-tmux: help offers the rules' topics and nothing of cards" \
    "$(grep -q 'overview setup add cut slices safety end two-players' "$T/help" || echo "help: $(head -3 "$T/help")")" \
    "$(! grep -q -i 'rules card\|rules special' "$T/help" || echo "$(grep -i 'rules card\|rules special' "$T/help")")"

# ---- The game, typed move by move as the hint says ----

turns=0 puts=0 cuts=0 short=0 mismatch="" drawn="" unseen=""
while ! over && [ $turns -lt 80 ]; do
    type_line hint || break
    move=$(answer | sed -n 's/^hint: \(put [a-s][0-9]*\|cut [1-6]\)\(  .*\)\{0,1\}$/\1/p' | head -1)
    if [ -z "$move" ]; then
        mismatch="$mismatch; no hint at turn $turns: $(answer | head -1)"
        break
    fi
    # By turns the short form ("d4", "4") and the full one ("put d4", "cut 4").
    typed=$move
    if [ $((turns % 2)) -eq 0 ]; then
        typed=${move#* }
        short=$((short + 1))
    fi
    case $move in put*) puts=$((puts + 1)) ;; *) cuts=$((cuts + 1)) ;; esac
    # A cut: the screen shows the neutral's line on the board, and the
    # board's 7 rows (8 with a rule of dashes) with the prompt.
    case $move in cut*)
        screen "$T/cut"
        mark=$(sed -n 's/^  The die gave the neutral line [1-6]: the \(.*\) on the board\.$/\1/p' "$T/cut")
        case $mark in
        /) grep -q '[.RGW][1-7] /[.RGW][1-7]' "$T/cut" || unseen="$unseen; no / on the board at turn $turns" ;;
        \\) grep -q '[.RGW][1-7] \\[.RGW][1-7]' "$T/cut" || unseen="$unseen; no \\ on the board at turn $turns" ;;
        ---) grep -q '^ *----*\( \|$\)' "$T/cut" || unseen="$unseen; no --- on the board at turn $turns" ;;
        *) unseen="$unseen; the neutral's line is not named at turn $turns: $(grep 'The die' "$T/cut")" ;;
        esac
        case " $drawn " in *" $mark "*) ;; *) drawn="$drawn $mark" ;; esac
        grep -q '^  The pizza now' "$T/cut" && grep -q '^Your cut: ' "$T/cut" ||
            unseen="$unseen; the board and the prompt are not both on the screen at turn $turns"
        ;;
    esac
    type_line "$typed"
    history "$T/h"
    logged=$(grep '^  You: ' "$T/h" | tail -1)
    case $logged in
    "  You: $move" | "  You: $move (neutral)") ;;
    *) mismatch="$mismatch; typed '$typed' (hint '$move'), the log says '$logged'" ;;
    esac
    turns=$((turns + 1))
done
i=0
while ! over && [ $i -lt 50 ]; do
    nap
    i=$((i + 1))
done
history "$T/game"

check "theory-tmux: the game is played to its end and exits 0" \
    "$(over || echo "still running after $turns turns")" \
    "$([ "$(cat "$T/status" 2>/dev/null)" = 0 ] || echo "status $(cat "$T/status" 2>/dev/null)")" \
    "$(grep -q -e '^Winner: ' -e '^Shared win: ' -e 'both players lose' -e 'a draw' "$T/game" || echo 'no result')"
check "theory-tmux: every move typed is in the log as the label typed ($puts puts, $cuts cuts, $short short)" \
    "${mismatch#; }" \
    "$([ $puts -ge 5 ] && [ $cuts -ge 5 ] || echo "only $puts puts and $cuts cuts")"
check "theory-tmux: the log and the hints never print cube coordinates" \
    "$(grep -E -n -e '-?[0-9]+,-?[0-9]+,-?[0-9]+' "$T/game" | head -2)"
check "theory-tmux: the bot's moves are logged by label too" \
    "$(grep -E -q '^  Greedy 2: put [a-g][1-7]( \(neutral\))?$' "$T/game" || echo 'no bot put by label')" \
    "$(grep -q '^  Greedy 2: cut ?$' "$T/game" || echo 'no secret cut')"
check "theory-tmux: a player with no legal space skips, and the screen says so" \
    "$(grep -q 'You (Red) had no space to add a topping on and skipped' "$T/game" || echo 'no skip announced')"
check "theory-tmux: at each cut the neutral's line is drawn on the board, in view (drawn:${drawn:- none})" \
    "${unseen#; }" \
    "$([ $cuts -lt 3 ] || [ "$(echo $drawn | wc -w)" -ge 2 ] || echo "only drawn as:$drawn")"
# Every round's reveal is told once, as its last cut is made: the last one's
# too, before the result.
last=$(sed -n 's/^PIZZA THEORY  round \([0-9]*\)  (game over).*/\1/p' "$T/game" | tail -n 1)
unrevealed=""
r=1
while [ -n "$last" ] && [ "$r" -le "$last" ]; do
    [ "$(grep -c "^  Round $r's cuts revealed: " "$T/game")" -eq 1 ] || unrevealed="$unrevealed $r"
    r=$((r + 1))
done
check "theory-tmux: every round's cuts are revealed on the screen, once (${last:-?} rounds)" \
    "$([ "${last:-0}" -ge 5 ] || echo "the game over screen names no round past 4: '${last}'")" \
    "$([ -z "$unrevealed" ] || echo "not told once: round(s)$unrevealed")" \
    "$(! grep -q 'Round [0-9]* revealed' "$T/game" || echo "told twice: $(grep -m1 'Round [0-9]* revealed' "$T/game")")"
check "theory-tmux: no line is wider than 80 columns" \
    "$(awk 'length > 80 { print "line " NR ": " length " columns: " $0; exit }' "$T/game")"

summary theory-tmux
