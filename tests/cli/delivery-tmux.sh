#!/bin/sh
# tests/cli/delivery-tmux.sh -- a whole 2-player New York Pizza Delivery game
# (you against a greedy bot) on a real terminal, at 100x40 and at 80x24: the
# program runs in a detached tmux session, the test types what the screen
# suggests (the listed move 1, or the prompt's example) and reads the screen
# back with capture-pane. Checked on the screen: no line wider than the
# terminal; at each new position the orders and your moves are on screen,
# with the last move logged above them; a typed move that cannot be made
# now is refused with a reason; a single pay or use step does not draw the
# table again; the game ends with its result.
#
#   sh tests/cli/delivery-tmux.sh build/pizzabox
#
# Skips (exit 0) without tmux. Uses its own tmux server (a socket in a
# temporary directory), killed at exit.

. "$(dirname "$0")/lib.sh"
use_tmux delivery-tmux "${1:-}"
NAP=0.05

# The prompts "You> " written so far (the pane's output goes to $T/out).
prompts() {
    cat "$T/out" 2>/dev/null | grep -c 'You> '
}

# wait_change N: until there are more than N prompts or the game is over
# (about 10 s); then the screen is still for a moment.
wait_change() {
    i=0
    while [ $i -lt 200 ]; do
        [ "$(prompts)" -gt "$1" ] && break
        [ -f "$T/status" ] && return 1
        nap
        i=$((i + 1))
    done
    # drawn whole: the last line is the prompt
    i=0
    while [ $i -lt 40 ]; do
        screen "$T/now"
        case $(grep -v '^$' "$T/now" | sed -n '$p') in "You>"*) return 0 ;; esac
        [ -f "$T/status" ] && return 1
        nap
        i=$((i + 1))
    done
    return 0
}

# play_game COLS ROWS SEED: the whole game; the checks' findings are kept
# in variables named after the size.
play_game() {
    cols=$1
    rows=$2
    tmux_session "$cols" "$rows" \
        "NO_COLOR=1 \"$BIN\" play --game delivery --players 2 --seed $3 --hint greedy" "sleep 600" ||
        return 1
    : >"$T/out"
    tm pipe-pane -t pb -o "cat >>'$T/out'"
    wide="" hidden="" redrawn="" steps=0 tables=0 refused="" n=0 k=0
    wait_change 0
    # a move that cannot be made now, first: refused with a reason
    tm send-keys -t pb "deliver 2 from HA" Enter
    wait_change 1
    screen "$T/now"
    grep -q '^"deliver 2 from HA": not now: you are asked to keep a power card' "$T/now" ||
        refused="the refusal of \"deliver 2 from HA\": $(grep -A1 'deliver 2 from' "$T/now" | tail -1)"
    while [ $k -lt 600 ] && [ ! -f "$T/status" ]; do
        k=$((k + 1))
        screen "$T/now"
        w=$(awk -v c="$cols" 'length($0) > c { print length($0) " columns: " $0; exit }' "$T/now")
        [ -n "$w" ] && [ -z "$wide" ] && wide=$w
        # what the prompt suggests: the example's first word says the kind
        example=$(tr '\n' ' ' <"$T/now" | sed -n 's/.*For example: "\([^"]*\)"\..*/\1/p' | sed -n '$p')
        case $example in
        "") move=1 ;;
        pay* | use* | fine* | discard* | short* | cheese* | extra* | arrange* | tip* | remove* | copy* | give* | keep* | take* | d\ *)
            move=1 ;;
        *) move=$example ;;
        esac
        # at the start of a turn: deliver when the prompt suggests it, else
        # build ("r") and go to market ("m") in turn
        case $example in
        d\ *) move=$example ;;
        market)
            if [ $((k % 2)) -eq 0 ]; then move=r; else move=m; fi ;;
        esac
        n=$(prompts)
        tm send-keys -t pb -l "$move"
        tm send-keys -t pb Enter
        wait_change "$n" || break
        screen "$T/now"
        # the output since the line typed
        after=$(awk -v m="You> $move" 'index($0, m) == 1 { found = NR } END { print found + 0 }' "$T/now")
        if [ "$after" -gt 0 ]; then
            sed -n "$((after + 1)),\$p" "$T/now" >"$T/after"
        else
            cp "$T/now" "$T/after"
        fi
        if grep -q '^NEW YORK PIZZA DELIVERY' "$T/after"; then
            tables=$((tables + 1))
            # a new position: the orders, your moves and the last move logged above
            if ! grep -q '^You>' "$T/after"; then :; # the game went on past the screen: skip
            elif ! grep -q 'Orders  (' "$T/now" || ! grep -q '^Your moves\|^Dealt to you' "$T/now" ||
                ! grep -q '^  \(You\|Greedy 2\): ' "$T/now"; then
                [ -z "$hidden" ] && hidden="after \"$move\": $(grep -c '' "$T/now") lines, orders/moves/log not all on screen"
            fi
        elif grep -q "^  You: \(pay\|use\) " "$T/after" && grep -q '^You have \$' "$T/after"; then
            steps=$((steps + 1))
        fi
        # a single pay or use step that redrew the table while more is owed
        # (the prompt after it still asks to pay or supply)
        still=$(tr '\n' ' ' <"$T/after" | sed -n 's/.*For example: "\([a-z]*\).*/\1/p')
        if grep -q "^  You: \(pay\|use\) " "$T/after" && [ "$(grep -c '^  \(You\|Greedy 2\): ' "$T/after")" -eq 1 ] &&
            { [ "$still" = pay ] || [ "$still" = use ]; } &&
            grep -q '^NEW YORK PIZZA DELIVERY' "$T/after" && [ -z "$redrawn" ]; then
            redrawn="after \"$move\" ($(grep '^  You: ' "$T/after"))"
        fi
    done
    i=0
    while [ $i -lt 100 ] && [ ! -f "$T/status" ]; do
        nap
        i=$((i + 1))
    done
    tr -d '\r' <"$T/out" >"$T/game-$cols"
    status=$(cat "$T/status" 2>/dev/null)
    echo "# $size: $k moves typed, $tables tables drawn, $steps pay/use steps drawn short"
}

for size in 100x40 80x24; do
    cols=${size%x*}
    rows=${size#*x}
    play_game "$cols" "$rows" 3
    check "delivery-tmux $size: a whole game against a bot ends with the result" \
        "$([ "$status" = 0 ] || echo "exit status '$status' after $k moves typed")" \
        "$(grep -q '^Winner: \|^Shared win: ' "$T/game-$cols" || echo 'no winner printed')"
    check "delivery-tmux $size: no line is wider than $cols columns" "$wide"
    check "delivery-tmux $size: at each new position the orders, your moves and the last move are on screen" \
        "$hidden" "$([ "$tables" -ge 10 ] || echo "only $tables tables drawn")"
    check "delivery-tmux $size: a move that cannot be made now is refused with a reason" "$refused"
    check "delivery-tmux $size: a single pay or use step does not draw the table again" \
        "$redrawn" "$([ "$steps" -ge 2 ] || echo "only $steps pay/use steps seen")"
done

summary delivery-tmux
