#!/bin/sh
# tests/cli/nyslice-tmux.sh -- a whole game of New York Slice played as a
# person would, on a real 80x24 terminal: `pizzabox play --game nyslice
# --players 3` runs in a detached tmux session, and at every prompt the move
# the screen suggests (the first "..." of the prompt) is read off the pane and
# typed. Then, on the screen and its history:
#   - every move typed is what the log prints for it ("  You: take B");
#   - refusals say why: a portion that does not exist, a word that is no move;
#   - `rules SPECIAL` explains a Special by the name as printed ("Dibs!");
#   - the round header and the Special are on the 24 lines at every prompt;
#   - no line is wider than 80 columns;
#   - the game ends with the Guest Check and exit status 0.
#
#   sh tests/cli/nyslice-tmux.sh build/pizzabox
#
# Skips (exit 0) when tmux is not installed. Uses its own tmux server (a
# socket in a temporary directory), killed at exit.

. "$(dirname "$0")/lib.sh"
use_tmux nyslice-tmux "${1:-}"
NAP=0.05
# A long history, and the pane kept after the program ends so that its last
# screen can be read.
printf 'set -g history-limit 100000\nset -g remain-on-exit on\n' >>"$T/tmux.conf"

# The last non-empty line of the visible screen.
last_line() {
    screen "$T/last"
    grep -v '^ *$' "$T/last" | sed -n '$p'
}

# wait_ready N: until the program waits at its Nth "You>" prompt or has
# ended (about 10 seconds at most). Returns 1 when it did not.
wait_ready() {
    i=0
    while [ $i -lt 200 ]; do
        [ -f "$T/status" ] && return 0
        case $(last_line) in
        "You>"*)
            history "$T/h"
            [ "$(grep -c '^You>' "$T/h")" -ge "$1" ] && return 0 ;;
        esac
        nap
        i=$((i + 1))
    done
    return 1
}

# type LINE: type a line and wait for the next prompt.
typed=0
type_line() {
    tm send-keys -t pb -l "$1" 2>/dev/null
    tm send-keys -t pb Enter 2>/dev/null
    typed=$((typed + 1))
    wait_ready $((typed + 1))
}

# The move the prompt suggests: the first "..." of the paragraph above "You>".
suggestion() {
    awk '/^(Divide into|Dibs!:|Cut in Line:|Sneak-a-Slice:|Take a portion|Place your slices|Eat or keep|Attach your|Seconds:)/ {
             p = $0; on = 1; next }
         on && /^You>/ { on = 0; next }
         on { p = p " " $0 }
         END { if (split(p, q, "\"") >= 3) print q[2] }' "$1"
}

# start PLAYERS SEED: a game in a new 80x24 session, waiting at its first
# prompt; its exit status goes to $T/status.
start() {
    typed=0
    tmux_session 80 24 \
        "NO_COLOR=1 TERM=xterm-256color; export NO_COLOR TERM; \"$BIN\" play --game nyslice --players $1 --seed $2 --hint greedy" &&
        wait_ready 1
}

# play_out: type the move each prompt suggests until the game ends; the
# moves typed go to $T/moves, the whole history to $T/all. At each prompt
# the screen must show the round header and the Special ($headers_missing
# lists the turns where it did not). Once, at the first portion to take,
# "take Z" is typed first ($asked_wrong: 1 when refused with its reason).
play_out() {
    : >"$T/moves"
    headers_missing=""
    refused=""
    asked_wrong=0
    turns=0
    while [ ! -f "$T/status" ] && [ $turns -lt 120 ]; do
        screen "$T/s"
        if ! grep -q 'NEW YORK SLICE  Round [0-9] of [0-9]' "$T/s" || ! grep -q '^Special: ' "$T/s"; then
            headers_missing="$headers_missing $turns"
        fi
        move=$(suggestion "$T/s")
        if [ -z "$move" ]; then
            refused="no suggestion on the screen at turn $turns: $(grep -v '^ *$' "$T/s" | tail -3 | tr '\n' '|')"
            break
        fi
        if [ $asked_wrong -eq 0 ] && grep -q '^Take a portion' "$T/s"; then
            type_line "take Z"
            screen "$T/z"
            asked_wrong=1
            grep -q 'there is no portion Z: the portions are A to' "$T/z" || asked_wrong=2
        fi
        # Slices to eat given by number only have no token to compare.
        case $move in
        eat\ [0-9]|eat\ [0-9]\ [0-9]) echo "-" >>"$T/moves" ;;
        *) echo "$move" >>"$T/moves" ;;
        esac
        type_line "$move" || { refused="no prompt after \"$move\""; break; }
        turns=$((turns + 1))
    done
    i=0
    while [ ! -f "$T/status" ] && [ $i -lt 100 ]; do
        nap
        i=$((i + 1))
    done
    history "$T/all"
}

# The game ended with a winner and status 0, after at least 10 moves.
check_finished() {
    check "$1: the whole game is played by typing what the screen suggests ($turns moves)" \
        "$refused" "$([ "$(cat "$T/status" 2>/dev/null)" = 0 ] || echo "exit status $(cat "$T/status" 2>/dev/null)")" \
        "$(grep -q '^Winner: \|^Shared win: ' "$T/all" || echo "no winner line")" \
        "$([ $turns -ge 10 ] || echo "only $turns moves")"
    check "$1: the round header and the Special are on the 80x24 screen at every prompt" \
        "$([ -z "$headers_missing" ] || echo "missing at turns$headers_missing")"
    # The answer to a line typed is printed by the terminal as the game gives
    # it (a refusal with its reason and an example can be longer): every
    # other line, tables, prompts and the log, fits.
    wide=$(awk 'length($0) > 80 && !answer { n++; if (!l) l = $0 } { answer = /^You> / }
                END { print n + 0; if (l) print l }' "$T/all")
    check "$1: no line of the tables, prompts and log is wider than 80 columns" \
        "$([ "$(echo "$wide" | head -1)" -eq 0 ] || echo "$wide" | tr '\n' '|')"
}

# ---- 3 players: refusals, rules, and the log in the notation typed ----

if ! start 3 11; then
    not_ok "nyslice-tmux: the prompt \"You>\" appears in a detached 80x24 session" "screen: $(last_line)"
    summary nyslice-tmux
    exit 1
fi
type_line "log"
screen "$T/s"
check "nyslice-tmux: a word that is no move says what the game expects now" \
    "$(grep -q '"log" is not a move: the game expects' "$T/s" || echo "screen: $(grep -v '^ *$' "$T/s" | tail -3 | tr '\n' '|')")"
type_line "rules Dibs!"
screen "$T/s"
check "nyslice-tmux: \"rules Dibs!\" explains the Special as printed" \
    "$(grep -q '^Dibs! (a Special): Once, in a later round' "$T/s" || echo "no explanation on the screen")"
type_line "rules day-old pizza"
screen "$T/s"
check "nyslice-tmux: \"rules day-old pizza\" finds Day-Old Pizza" \
    "$(grep -q '^Day-Old Pizza (a Special, scored at the end): At the end: -2 points.' "$T/s" || echo "no explanation")"

play_out
check_finished "nyslice-tmux 3 players"
check "nyslice-tmux: \"take Z\" is refused with its reason" \
    "$([ $asked_wrong -eq 1 ] || echo "no reason on the screen: $(grep -v '^ *$' "$T/z" 2>/dev/null | tail -2 | tr '\n' '|')")"

# The log's "  You: ..." lines, in order, are the moves typed.
grep '^  You: ' "$T/all" | grep -v '(nothing to decide' | sed 's/^  You: //' >"$T/logged"
diff=$(awk 'NR == FNR { want[++n] = $0; next }
            { got[++m] = $0 }
            END {
                if (n != m) { print n " moves typed, " m " in the log"; exit }
                for (i = 1; i <= n; i++)
                    if (want[i] != "-" && want[i] != got[i]) { print "typed \"" want[i] "\", the log says \"" got[i] "\""; exit }
            }' "$T/moves" "$T/logged")
check "nyslice-tmux: every move typed is what the log prints for it" "$diff" \
    "$(grep -q '^take [A-F]$' "$T/logged" || echo "no \"take <letter>\" in the log")"
check "nyslice-tmux: the game-over table names the last round's Slicer" \
    "$(grep -q 'Round 6 of 6  Game over  Slicer: Greedy 3 ' "$T/all" || grep 'Game over' "$T/all" | head -1)"

# ---- 6 players with greedy bots, as a player's audit found them ----

if start 6 11; then
    type_line "cut 2 5 8 11"
    screen "$T/c"
    check "nyslice-tmux: a division without the Special is answered with one for 6 players (six cuts)" \
        "$(grep -q '^a division reads "cut 1 3 5 7 9 11 special 1" (six cuts; the' "$T/c" ||
            echo "screen: $(grep -A2 '^You> cut 2 5 8 11$' "$T/c" | tr '\n' '|')")"
    type_line "cut 1 3 5 7 9 11 special 1"
    screen "$T/l"
    # "B:Gree 3" under each slice of a portion Greedy 3 took: one name a letter, one letter a name
    tags=$(grep -o '[A-F]:[A-Za-z]* [2-6]\|[A-F]:You' "$T/l" | sort -u)
    check "nyslice-tmux: at 80x24 the portions' takers are told apart (not all \"Greedy\")" \
        "$(! grep -q ':Greedy' "$T/l" || echo "$(grep ':Greedy' "$T/l" | head -1)")" \
        "$([ "$(echo "$tags" | grep -c .)" -eq 6 ] || echo "takers: $(echo $tags)")" \
        "$([ "$(echo "$tags" | cut -c1 | sort -u | grep -c .)" -eq 6 ] && [ "$(echo "$tags" | cut -c3- | sort -u | grep -c .)" -eq 6 ] ||
            echo "a letter or a taker twice: $(echo $tags)")"
    type_line "eat 1 1"
    screen "$T/e"
    check "nyslice-tmux: \"eat 1 1\" is refused: a number names one slice" \
        "$(grep -q '^slice 1 is named twice' "$T/e" || echo "screen: $(grep -A1 '^You> eat 1 1$' "$T/e" | tr '\n' '|')")" \
        "$(! grep -q '^  You: eat' "$T/e" || echo 'it was eaten')"
    tm kill-session -t pb >/dev/null 2>&1
else
    not_ok "nyslice-tmux 6 players (seed 11): the prompt \"You>\" appears" "screen: $(last_line)"
fi

# ---- A move typed while the bots think ----
# The terminal does not echo it amid the log; it waits for the prompt, which
# shows it, and Enter plays it.
typed=0
tmux_session 80 24 "NO_COLOR=1 TERM=xterm-256color; export NO_COLOR TERM; \"$BIN\" play --game nyslice --players 3 --seed 11 --seats human,expert,expert --hint greedy"
if wait_ready 1; then
    tm send-keys -t pb -l "cut 3 7 11 special 1" 2>/dev/null
    tm send-keys -t pb Enter 2>/dev/null
    tm send-keys -t pb -l "collect all" 2>/dev/null
    typed=1
    wait_ready 2
    screen "$T/a"
    type_line ""
    history "$T/ah"
    check "nyslice-tmux: a move typed while the bots think shows at the next prompt only, and Enter plays it" \
        "$(! grep -q '^collect all' "$T/ah" || echo "echoed amid the log: $(grep '^collect all' "$T/ah")")" \
        "$(grep -q '^You> collect all$' "$T/a" || echo "the prompt reads: $(grep '^You>' "$T/a" | sed -n '$p')")" \
        "$(grep -q '^  You: collect all$' "$T/ah" || echo 'not played')"
    tm kill-session -t pb >/dev/null 2>&1
else
    not_ok "nyslice-tmux: a move typed while the bots think shows at the next prompt only" "screen: $(last_line)"
fi

# ---- 6 players: the table is taller than the screen ----

if start 6 3; then
    play_out
    check_finished "nyslice-tmux 6 players"
else
    not_ok "nyslice-tmux 6 players: the prompt \"You>\" appears" "screen: $(last_line)"
fi

tm kill-server >/dev/null 2>&1
summary nyslice-tmux
