#!/bin/sh
# tests/cli/hotseat-tmux.sh -- hot-seat secrecy on a real terminal: two
# people share one tmux pane (100x50, TERM=xterm-256color). After each
# hand-over the whole pane history (capture-pane -S - -E -) must hold nothing
# of the previous player's screen or typing, the line editor must not give
# their lines back (up arrow, a yank of a killed line), and once the next
# player presses Enter they are told the previous moves in public words.
#
#   sh tests/cli/hotseat-tmux.sh build/pizzabox
#
# Skips (exit 0) when tmux is not installed. Uses its own tmux server (a
# socket in a temporary directory), killed at exit. Prints "ok - ..." or
# "not ok - ..." per check, then "hotseat-tmux: P passed, F failed"; exits
# non-zero if any check failed.

. "$(dirname "$0")/lib.sh"
use_tmux hotseat-tmux "${1:-}"

# The whole pane: its history and the screen, blank lines left out.
everything() {
    tm capture-pane -p -S - -E - -t pb 2>/dev/null | grep -v '^ *$' >"$1"
}

# seen PATTERN FILE: the pane into FILE; a line of it matches PATTERN.
seen() {
    everything "$2"
    grep -E -q -- "$1" "$2"
}

# wait_for PATTERN FILE: until a line of the pane matches (about 5 s).
wait_for() {
    poll seen "$@"
}

# keys KEYS...: type them (tmux key names), and let the program answer.
keys() {
    tm send-keys -t pb "$@" 2>/dev/null
    nap
    nap
}

# start ARGS...: pizzabox play ARGS in a fresh session.
start() {
    tmux_session 100 50 \
        "TERM=xterm-256color NO_COLOR=1; export TERM NO_COLOR; \"$BIN\" play --hint greedy $*" "sleep 60"
}

# only_handover FILE NAME: empty when the pane holds the hand-over line to
# NAME and nothing else.
only_handover() {
    if ! grep -q "^==== $2, your turn\. Everyone else, look away\. Press Enter\. ====\$" "$1"; then
        echo "no hand-over line for $2"
    elif [ "$(awk 'END { print NR }' "$1")" -ne 1 ]; then
        echo "the history still holds: $(grep -v '^====' "$1" | head -3 | tr '\n' '|')"
    fi
}

# ---- Pizza Theory: a secret cut ----

start --game theory --players 2 --seats human,human --seed 3
wait_for '^==== Player 2, your turn' "$T/t0" && keys Enter
wait_for '^Player 2> ' "$T/t1"
# A line typed and killed (Ctrl-U), then the suggested move: Enter, Enter.
keys zzkilled C-u
keys Enter
wait_for '^suggested: ' "$T/t2"
check "hot-seat: a first Enter shows the suggestion and asks for a second" \
    "$(grep -q '^suggested: .*(Enter again plays it; or type your own move)$' "$T/t2" || echo 'no question')" \
    "$(! grep -q '^  Player 2: put' "$T/t2" || echo 'the move was played at the first Enter')"
keys Enter
wait_for '^==== Player 1, your turn' "$T/h1"
check "hot-seat (theory): after the hand-over the pane history holds only the hand-over line" \
    "$(only_handover "$T/h1" "Player 1")"

keys Enter
wait_for '^Player 1> ' "$T/t3"
# After "hint" the suggestion has been shown: one Enter plays it.
keys hint Enter
wait_for '^hint: ' "$T/t3"
keys Enter
wait_for '^==== Player 2, your turn' "$T/t4"
check "hot-seat: after \"hint\" one Enter plays the hinted move" \
    "$(grep -q '^==== Player 2, your turn' "$T/t4" || echo "no move: $(sed -n '$p' "$T/t4")")"
keys Enter
wait_for '^Player 2> ' "$T/t5"
keys Enter # the neutral topping
keys Enter
wait_for '^Your cut: ' "$T/t6"
# Player 2's secret: the cut, typed.
keys 4 Enter
wait_for '^==== Player 1, your turn' "$T/h2"
check "hot-seat (theory): after a secret cut the pane history holds only the hand-over line" \
    "$(only_handover "$T/h2" "Player 1")"

keys Enter
wait_for '^Player 1> ' "$T/t7"
sed -n '/^Since your last turn:$/,/^Your cut: /p' "$T/t7" >"$T/since"
check "hot-seat (theory): the next player is told the previous moves, the cut without its line" \
    "$(grep -q '^Since your last turn:$' "$T/t7" || echo 'no "Since your last turn:"')" \
    "$(grep -q '^  Player 2: put ' "$T/since" || echo 'the topping is not told')" \
    "$(grep -q '^  Player 2: cut' "$T/since" || echo 'the cut is not told')" \
    "$(! grep -q '^  Player 2: cut.*[0-9]' "$T/since" || echo "the cut's line is told: $(grep '^  Player 2: cut' "$T/since")")" \
    "$(! grep -q '^Player 2> ' "$T/t7" || echo "Player 2's typing is on the screen")"

# The line editor: the up arrow and a yank (Ctrl-Y) give nothing back.
keys Up
keys C-y
everything "$T/t8"
check "hot-seat (theory): the up arrow and Ctrl-Y do not bring back the previous player's lines" \
    "$(last=$(sed -n '$p' "$T/t8"); [ "$last" = "Player 1>" ] || echo "the prompt line reads: $last")"

# The cut is told at the reveal, not before.
keys C-u 2 Enter
wait_for "Round 1's cuts revealed" "$T/t9"
check "hot-seat (theory): Player 2's line is shown at the reveal" \
    "$(grep -q "^  Round 1's cuts revealed: .*Green line 4" "$T/t9" || echo "no reveal of line 4: $(grep 'revealed' "$T/t9")")"

# ---- New York Pizza Delivery: a secret hand ----

start --game delivery --players 2 --seats human,human --seed 7
wait_for '^==== Player 2, your turn' "$T/d0" && keys Enter
wait_for '^Player 2> ' "$T/d1"
hand=$(grep '^Your hand ' "$T/d1")
# the two cards dealt, listed as "    1 Name (id, type): text"
dealt=$(sed -n 's/^    [12] [^(]*(\([a-z-]*\), .*/\1/p' "$T/d1")
keys Enter
keys Enter
wait_for '^==== Player 1, your turn' "$T/d2"
check "hot-seat (delivery): after the hand-over the pane history holds only the hand-over line" \
    "$(only_handover "$T/d2" "Player 1")"
keys Enter
wait_for '^Player 1> ' "$T/d3"
leaks=""
grep -q '^Your hand ' "$T/d3" || leaks="no hand of Player 1 shown"
[ -n "$hand" ] && ! grep -q -F -- "$hand" "$T/d3" || leaks="$leaks; Player 2's hand ($hand) is readable"
for card in $dealt; do
    ! grep -q -F -- "$card" "$T/d3" || leaks="$leaks; Player 2's power card $card is readable"
done
[ -n "$dealt" ] || leaks="$leaks; no power cards dealt to Player 2 seen"
check "hot-seat (delivery): Player 1's screen holds nothing of Player 2's hand or power cards" "${leaks#; }"
check "hot-seat (delivery): Player 1 is told Player 2's keep in public words" \
    "$(sed -n '/^Since your last turn:$/,$p' "$T/d3" | grep -q '^  Player 2: keep ?$' ||
        echo "no \"Player 2: keep ?\" after \"Since your last turn:\"")"

# quit in a hot-seat game not saved: asked to confirm too; y leaves, saying
# the game was not saved.
keys quit Enter
wait_for '^Quit\? ' "$T/d4"
check "hot-seat: \"quit\" in a game not saved asks to confirm first" \
    "$(grep -q '^The game is not saved: quitting loses it\.$' "$T/d4" || echo "no question: $(sed -n '$p' "$T/d4")")" \
    "$([ ! -f "$T/status" ] || echo 'the program ended without asking')"
keys y Enter
poll test -f "$T/status"
everything "$T/d5"
check "hot-seat: \"y\" quits, saying the game was not saved" \
    "$([ "$(cat "$T/status" 2>/dev/null)" = 0 ] || echo "status: $(cat "$T/status" 2>/dev/null)")" \
    "$(grep -q "^the game was not saved: 'save FILE' during a game keeps it" "$T/d5" || echo "last line: $(sed -n '$p' "$T/d5")")"

summary hotseat-tmux
