#!/bin/sh
# tests/cli/play-tmux.sh -- `pizzabox play` on a real terminal: the program
# runs in a detached tmux session (100x50, TERM=xterm-256color, NO_COLOR
# unset), keys are typed with send-keys and the screen is read back with
# capture-pane.
#
#   sh tests/cli/play-tmux.sh build/pizzabox
#
# Skips (exit 0) when tmux is not installed. Uses its own tmux server (a
# socket in a temporary directory), which is killed at exit. Prints "ok - ..."
# or "not ok - ..." per check, then "play-tmux: P passed, F failed"; exits
# non-zero if any check failed.

. "$(dirname "$0")/lib.sh"
use_tmux play-tmux "${1:-}"

# quit_session: type "quit" (and "y" when asked to confirm: the game is not
# saved) and give the program up to 5 s to end.
quit_session() {
    tm send-keys -t pb quit Enter 2>/dev/null
    i=0
    while [ $i -lt 50 ] && tm has-session -t pb 2>/dev/null && [ ! -f "$T/status" ]; do
        [ $i -eq 5 ] && seen '^Quit\? ' "$T/q" && tm send-keys -t pb y Enter 2>/dev/null
        nap
        i=$((i + 1))
    done
}

# wait_for PATTERN FILE: poll the pane (and its history, so text that
# scrolled off still counts) until a line matches the extended regular
# expression PATTERN, for at most about 5 seconds. The last capture is left
# in FILE.
seen() {
    history "$2"
    grep -E -q -- "$1" "$2"
}
wait_for() {
    poll seen "$@"
}

# The number of "You>" prompts on the pane and in its history.
prompts() {
    history "$T/count"
    grep -c '^You>' "$T/count"
}

# wait_prompts N: until there are at least N prompts (about 5 seconds).
at_least_prompts() {
    [ "$(prompts)" -ge "$1" ]
}
wait_prompts() {
    poll at_least_prompts "$1"
}

# start ENV [THEN]: the game in a new session; its exit status goes to
# $T/status, then THEN runs (e.g. "sleep 60" to keep the last screen).
start() {
    tmux_session 100 50 "$1 TERM=xterm-256color; export TERM; \"$BIN\" play --seed 7 --players 3" "$2"
}

# ---- A game with colours ----

if ! start "unset NO_COLOR;"; then
    not_ok "tmux: a detached 100x50 session starts"
    summary play-tmux
    exit 1
fi

if wait_for '^You>' "$T/s0"; then
    ok "tmux: the prompt \"You>\" appears"
else
    not_ok "tmux: the prompt \"You>\" appears" "screen: $(grep -v '^$' "$T/s0" | sed -n '$p')"
fi
screen "$T/s0"

if grep -q 'Round 1 of 6' "$T/s0"; then
    ok "tmux: the table says \"Round 1 of 6\""
else
    not_ok "tmux: the table says \"Round 1 of 6\""
fi

# Ring positions: 1-6 along one row (every 12 columns from column 3), 11-7
# along the next, half a cell in.
ring=$(awk '
    /^   1 / && !top { top = $0; getline; bottom = $0 }
    END {
        if (top == "") { print "no ring row starting with position 1"; exit }
        for (k = 1; k <= 6; k++)
            if (substr(top, 12 * k - 9, 3) != sprintf("%2d ", k)) miss = miss " " k
        for (k = 7; k <= 11; k++)
            if (substr(bottom, 9 + 12 * (11 - k), 3) != sprintf("%2d ", k)) miss = miss " " k
        if (miss != "") print "positions not where they belong:" miss
    }' "$T/s0")
if [ -z "$ring" ]; then
    ok "tmux: the pizza shows ring positions 1 to 11"
else
    not_ok "tmux: the pizza shows ring positions 1 to 11" "$ring"
fi

screen "$T/s0e" -e
esc=$(printf '\033')
# The title is bold red, pepperonis red, anchovies bright blue.
if grep -q "${esc}\\[31m" "$T/s0e" && grep -q "${esc}\\[94m" "$T/s0e"; then
    ok "tmux: with NO_COLOR unset on a terminal the table is in colour"
else
    not_ok "tmux: with NO_COLOR unset on a terminal the table is in colour"
fi

wide=$(awk 'length($0) > 80 { n++ } END { print n + 0 }' "$T/s0")
if [ "$wide" -eq 0 ] && grep -q '^NEW YORK SLICE' "$T/s0"; then
    ok "tmux: no line of the table is wider than 80 columns"
else
    not_ok "tmux: no line of the table is wider than 80 columns" "$wide wider lines"
fi

# help
tm send-keys -t pb help Enter 2>/dev/null
if wait_for '^  save FILE ' "$T/s1" && grep -q '^  quit ' "$T/s1" && grep -q '^  undo ' "$T/s1"; then
    ok "tmux: \"help\" lists the commands"
else
    not_ok "tmux: \"help\" lists the commands" "last line: $(grep -v '^$' "$T/s1" | sed -n '$p')"
fi
wait_prompts 2
screen "$T/s1"

# Enter shows the suggested move and plays nothing; a second Enter plays it.
n0=$(prompts)
history "$T/before"
tm send-keys -t pb Enter 2>/dev/null
wait_for '^suggested: .*\(Enter again plays it; or type your own move\)$' "$T/asked"
if grep -q '^suggested: ' "$T/asked" && [ "$(grep -c '^  You: ' "$T/asked")" -eq "$(grep -c '^  You: ' "$T/before")" ]; then
    ok "tmux: one Enter shows the suggested move and plays nothing"
else
    not_ok "tmux: one Enter shows the suggested move and plays nothing" "last line: $(grep -v '^$' "$T/asked" | sed -n '$p')"
fi
# "table" in between: the next Enter asks again rather than play.
tm send-keys -t pb table Enter Enter 2>/dev/null
wait_prompts $((n0 + 3))
history "$T/again"
if [ "$(grep -c '^suggested: ' "$T/again")" -eq 2 ] && [ "$(grep -c '^  You: ' "$T/again")" -eq "$(grep -c '^  You: ' "$T/before")" ]; then
    ok "tmux: after another command Enter asks again"
else
    not_ok "tmux: after another command Enter asks again" "$(grep -c '^suggested: ' "$T/again") questions"
fi

# Enter, Enter: each pair plays the suggested move; the screen changes.
n0=$(prompts)
changed=0
moves=0
for k in 1 2 3; do
    screen "$T/before"
    tm send-keys -t pb Enter 2>/dev/null
    wait_prompts $((n0 + 2 * k - 1)) || break
    tm send-keys -t pb Enter 2>/dev/null
    wait_prompts $((n0 + 2 * k)) || break
    i=0
    while [ $i -lt 20 ]; do # let the table finish drawing
        screen "$T/after"
        tail_before=$(grep -v '^$' "$T/after" | sed -n '$p')
        case $tail_before in "You>"*) break ;; esac
        nap
        i=$((i + 1))
    done
    cmp -s "$T/before" "$T/after" || changed=$((changed + 1))
    moves=$((moves + 1))
done
history "$T/s2"
suggested=$(grep -c '^(suggested) ' "$T/s2")
if [ "$moves" -eq 3 ] && [ "$changed" -eq 3 ] && [ "$suggested" -ge 3 ]; then
    ok "tmux: Enter twice plays the suggested move and the screen changes (3 times)"
else
    not_ok "tmux: Enter twice plays the suggested move and the screen changes (3 times)" \
        "$moves prompts came back, the screen changed $changed times, $suggested suggested moves"
fi
if grep -q '^  You: ' "$T/s2" && grep -q '^  Greedy [23]: ' "$T/s2"; then
    ok "tmux: the log shows your moves and the bots'"
else
    not_ok "tmux: the log shows your moves and the bots'"
fi

# quit, with moves not saved: asked to confirm; Enter plays on.
tm send-keys -t pb quit Enter 2>/dev/null
wait_for '^Quit\? ' "$T/q1"
check "tmux: \"quit\" in a game not saved asks to confirm, and says how to save it" \
    "$(grep -q '^The game is not saved: quitting loses it\.$' "$T/q1" || echo 'not said unsaved')" \
    "$(grep -q "^Quit anyway? y quits, 'save FILE' saves and quits, Enter or n plays on\.$" "$T/q1" || echo 'no question')" \
    "$([ ! -f "$T/status" ] || echo 'the program ended without asking')"
n0=$(prompts)
tm send-keys -t pb Enter 2>/dev/null
wait_prompts $((n0 + 1))
check "tmux: Enter at the question goes back to the game" \
    "$([ "$(prompts)" -gt "$n0" ] || echo 'no prompt came back')" \
    "$([ ! -f "$T/status" ] || echo "the program ended: $(cat "$T/status")")"

# quit, confirmed with y: the program ends with status 0 (and the session with it).
if tm has-session -t pb 2>/dev/null; then
    running=yes
else
    running=no
fi
quit_session
if [ "$running" = no ]; then
    not_ok "tmux: \"quit\" ends the program with exit status 0" "the program had ended before \"quit\""
elif tm has-session -t pb 2>/dev/null; then
    not_ok "tmux: \"quit\" ends the program with exit status 0" "the session is still running"
    tm kill-session -t pb 2>/dev/null
elif [ "$(cat "$T/status" 2>/dev/null)" = 0 ]; then
    ok "tmux: \"quit\" ends the program with exit status 0"
else
    not_ok "tmux: \"quit\" ends the program with exit status 0" "status: $(cat "$T/status" 2>/dev/null)"
fi

# ---- NO_COLOR on a terminal: plain text ----

# A server of its own: the first one may still be on its way out.
SOCK=$T/tmux2.sock

if start "NO_COLOR=1; export NO_COLOR;" && wait_for '^You>' "$T/n0"; then
    screen "$T/n0e" -e
    if grep -q 'NEW YORK SLICE' "$T/n0e" && ! grep -E -q "${esc}\\[(1|2|31|32|33|35|36|94)m" "$T/n0e"; then
        ok "tmux: with NO_COLOR=1 the table has no colours"
    else
        not_ok "tmux: with NO_COLOR=1 the table has no colours"
    fi
    quit_session
else
    not_ok "tmux: with NO_COLOR=1 the table has no colours" "no prompt"
fi
# Ctrl-D in a game not saved: exit 1, it says the game was not saved and how
# to keep one; "save FILE" as the answer to quit saves, then quits.
SOCK=$T/tmux3.sock
if start "NO_COLOR=1; export NO_COLOR;" "sleep 60" && wait_for '^You>' "$T/d0"; then
    n0=$(prompts)
    tm send-keys -t pb Enter 2>/dev/null
    wait_prompts $((n0 + 1))
    tm send-keys -t pb Enter 2>/dev/null
    wait_prompts $((n0 + 2))
    tm send-keys -t pb C-d 2>/dev/null
    poll test -f "$T/status"
    history "$T/d1"
    check "tmux: Ctrl-D in a game not saved says so and how to keep a game" \
        "$([ "$(cat "$T/status" 2>/dev/null)" = 1 ] || echo "status: $(cat "$T/status" 2>/dev/null)")" \
        "$(grep -q '^input ended before the game was over$' "$T/d1" || echo 'no "input ended"')" \
        "$(grep -q "^the game was not saved: 'save FILE' during a game keeps it" "$T/d1" ||
            echo "not said unsaved: $(grep -v '^ *$' "$T/d1" | sed -n '$p')")" \
        "$(grep -q "pizzabox play --resume FILE continues it$" "$T/d1" ||
            echo "not said unsaved: $(grep -v '^ *$' "$T/d1" | sed -n '$p')")"
else
    not_ok "tmux: Ctrl-D in a game not saved says so and how to keep a game" "no prompt"
fi
SOCK=$T/tmux4.sock
if start "NO_COLOR=1; export NO_COLOR;" "sleep 60" && wait_for '^You>' "$T/v0"; then
    n0=$(prompts)
    tm send-keys -t pb Enter 2>/dev/null
    wait_prompts $((n0 + 1))
    tm send-keys -t pb Enter 2>/dev/null
    wait_prompts $((n0 + 2))
    tm send-keys -t pb quit Enter 2>/dev/null
    wait_for '^Quit\? ' "$T/v1"
    tm send-keys -t pb -l "save $T/kept.json" 2>/dev/null
    tm send-keys -t pb Enter 2>/dev/null
    poll test -f "$T/status"
    history "$T/v2"
    check "tmux: \"save FILE\" as the answer to quit saves the game, then quits" \
        "$([ "$(cat "$T/status" 2>/dev/null)" = 0 ] || echo "status: $(cat "$T/status" 2>/dev/null)")" \
        "$([ -s "$T/kept.json" ] || echo 'no file')" \
        "$(grep -q "^the game is saved in $T/kept.json: pizzabox play --resume $T/kept.json" "$T/v2" ||
            echo "last line: $(grep -v '^ *$' "$T/v2" | sed -n '$p')")"
else
    not_ok "tmux: \"save FILE\" as the answer to quit saves the game, then quits" "no prompt"
fi
tm kill-server >/dev/null 2>&1

summary play-tmux
