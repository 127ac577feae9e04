#!/bin/sh
# tests/cli/theory.sh -- Pizza Theory through the command line: whole games
# typed in at `pizzabox play --game theory`, hot-seat secrecy of the cuts,
# board files good and bad, records, demo and sim.
#
#   sh tests/cli/theory.sh build/pizzabox
#
# A blank line plays the suggested move (or confirms a hot-seat hand-over),
# so a long run of blank lines plays a game to its end whatever the bots do.

NO_COLOR=1
export NO_COLOR

. "$(dirname "$0")/lib.sh"
use_binary theory "${1:-}"

# blanks N: N empty lines.
blanks() {
    awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) print "" }'
}

# The game's end, in any of its three forms.
ended() {
    grep -q -e '^Winner: ' -e '^Shared win: ' -e 'both players lose' -e 'a draw' "$1"
}

# ---- A whole 3-player game against bots, with a few bad inputs first ----
{
    echo "zz9"
    echo "put 9,9,9"
    echo "7"
    echo "0"
    echo "rules safety"
    echo "help"
    blanks 3000
} >"$T/solo.in"
"$BIN" play --game theory --seats human,random,greedy --seed 7 --hint random \
    --record "$T/solo.json" <"$T/solo.in" >"$T/solo.out" 2>"$T/solo.err"
rc=$?
check "play --game theory: a whole game vs two bots ends with a result" \
    "$([ $rc -eq 0 ] || echo "exit $rc: $(head -3 "$T/solo.err")")" \
    "$(ended "$T/solo.out" || echo 'no result printed')"
check "play --game theory: the hexagon has 37 spaces and 3 sides" \
    "$(sed -n '/The pizza now/,/^Add a topping/p' "$T/solo.out" | head -8 |
        awk 'NR > 1 { n += NF } END { if (n != 37) print "counted " n " spaces" }')" \
    "$(grep -c -e '^  1st side' -e '^  2nd side' -e '^  3rd side' "$T/solo.out" |
        awk '$1 < 3 { print "sides not drawn" }')"
check "play --game theory: bad input is refused with a reason, the game goes on" \
    "$(grep -q "no space is labelled 'zz9'" "$T/solo.out" || echo 'zz9 not refused')" \
    "$(grep -q '9,9,9 is not a space on the board' "$T/solo.out" || echo 'put 9,9,9 not refused')" \
    "$(grep -q 'at most one topping in every slice' "$T/solo.out" || echo 'rules safety not shown')"
# While toppings go on, a bare number is answered about spaces, not lines.
check "play --game theory: a number typed while placing is told what a space looks like" \
    "$(grep -q "^'7' names no space: a space is a row letter and a number, e.g. put [a-g][1-7]" "$T/solo.out" ||
        echo "7: $(grep -A1 '^You> 7$' "$T/solo.out" | sed -n 2p)")" \
    "$(grep -q "^'0' names no space" "$T/solo.out" || echo "0: $(grep -A1 '^You> 0$' "$T/solo.out" | sed -n 2p)")" \
    "$(! grep -q 'there is no line' "$T/solo.out" || echo 'answered about lines while placing')"
# Pizza Theory has no cards: help offers no `rules CARD`.
check "play --game theory: help lists only what Pizza Theory has" \
    "$(grep -q 'overview setup add cut slices safety end two-players' "$T/solo.out" || echo 'no topics in help')" \
    "$(! grep -q -i 'rules card\|rules special' "$T/solo.out" || echo "$(grep -i 'rules card\|rules special' "$T/solo.out")")"
# Each reveal is told once, as the last cut is made (the game's news).
check "play --game theory: every round's reveal is reported, once" \
    "$(grep -q "^  Round 1's cuts revealed: " "$T/solo.out" || echo 'no reveal')" \
    "$(! grep -q 'Round [0-9]* revealed' "$T/solo.out" || echo "told twice: $(grep -m1 'Round [0-9]* revealed' "$T/solo.out")")" \
    "$(grep -q "Round 1's cuts: slices" "$T/solo.out" || echo 'no reveal board')" \
    "$(grep "cuts revealed" "$T/solo.out" | sort | uniq -d | sed 's/^/repeated: /' | head -1)"
"$BIN" replay "$T/solo.json" >"$T/replay.out" 2>"$T/replay.err"
rc=$?
check "replay: the saved Pizza Theory record replays to the same end" \
    "$([ $rc -eq 0 ] || echo "exit $rc: $(head -2 "$T/replay.err")")" \
    "$(grep -q '"end"' "$T/replay.out" || echo 'no result in replay')"
check "record: moves are stored in the words typed (put d4, cut 4)" \
    "$(grep -q '"put [a-g][1-7]"' "$T/solo.json" || echo 'no put by label')" \
    "$(grep -q '"cut [1-6]"' "$T/solo.json" || echo 'no cut k')" \
    "$(grep -E -q -e '"put -?[0-9]+,' "$T/solo.json" && echo 'cube coordinates stored')"
# replay --moves tells each move's news as play did: every round's reveal,
# the last (winning) one too, between its last cut and the result.
"$BIN" replay --moves "$T/solo.json" >"$T/moves.out" 2>"$T/moves.err"
rc=$?
last=$(grep -o '"rounds":[0-9]*' "$T/replay.out" | cut -d: -f2)
check "replay --moves: every round's reveal of a Pizza Theory game, the winning one before the result" \
    "$([ $rc -eq 0 ] || echo "exit $rc: $(head -2 "$T/moves.err")")" \
    "$([ "$(grep -c "^      Round [0-9]*'s cuts revealed: " "$T/moves.out")" = "${last:-x}" ] ||
        echo "$(grep -c "cuts revealed" "$T/moves.out") reveals for ${last:-?} rounds")" \
    "$(awk -v r="${last:-0}" '/^ *[0-9]+  / { after = "" } /cuts revealed/ { after = $0 } /^RESULT/ { exit }
        END { if (after !~ "Round " r "'"'"'s cuts revealed") print "the last move is not followed by its reveal" }' \
        "$T/moves.out")" \
    "$(grep "^      Round ${last:-0}'s cuts revealed: .*" "$T/moves.out" >/dev/null ||
        echo "no reveal of round ${last:-?}")" \
    "$(! grep -q 'Round [0-9]* revealed' "$T/moves.out" || echo 'a reveal told twice')" \
    "$(awk 'length > 80 { print "line " NR ": " length " columns"; exit }' "$T/moves.out")"
# The same for every game: a Delivery record's Health Inspectors and fines.
"$BIN" replay --moves "$(dirname "$0")/records/delivery-v2-frugal-shopper.json" >"$T/dmoves.out" 2>"$T/dmoves.err"
rc=$?
check "replay --moves: a Delivery game's news (its Health Inspectors and fines)" \
    "$([ $rc -eq 0 ] || echo "exit $rc: $(head -2 "$T/dmoves.err")")" \
    "$(grep -q '^      A Health Inspector is drawn (1 of 3)' "$T/dmoves.out" || echo 'no Health Inspector told')" \
    "$(grep -q -E '^      Two Health Inspectors are drawn \(2 and 3 of 3\)' "$T/dmoves.out" ||
        echo 'the last two Health Inspectors, drawn at once, not told as two')" \
    "$(grep -q '^      Seat [1-3] pays the fine' "$T/dmoves.out" || echo 'no fine told')"
# ... and New York Slice's: each round's Special, the Slicer's last portion.
"$BIN" demo --seed 5 --bots random --record "$T/nys.json" >/dev/null 2>"$T/nys.err" &&
    "$BIN" replay --moves "$T/nys.json" >"$T/nmoves.out" 2>>"$T/nys.err"
rc=$?
check "replay --moves: a New York Slice game's news (the Specials, the Slicer's portion)" \
    "$([ $rc -eq 0 ] || echo "exit $rc: $(head -2 "$T/nys.err")")" \
    "$(grep -q "^      Round 2: today's Special is " "$T/nmoves.out" || echo 'no Special of round 2 told')" \
    "$(grep -q '^      The Slicer gets the last portion' "$T/nmoves.out" || echo "no Slicer's portion told")"
"$BIN" replay "$(dirname "$0")/../fuzz/corpus/fuzz_record/theory.json" >"$T/old.out" 2>"$T/old.err"
rc=$?
check "replay: a record in the old notation (put x,y,z, a bare line) still replays" \
    "$([ $rc -eq 0 ] || echo "exit $rc: $(head -2 "$T/old.err")")" \
    "$(grep -q '"end":"full"' "$T/old.out" || echo 'no result')"
check "play: every line of a Pizza Theory game fits 80 columns" \
    "$(awk 'length > 80 { print "line " NR ": " length " columns"; exit }' "$T/solo.out")"

# ---- 2 players: the neutral colour ----
blanks 3000 >"$T/two.in"
"$BIN" play --game theory --players 2 --seats human,greedy --seed 3 --hint random \
    <"$T/two.in" >"$T/two.out" 2>"$T/two.err"
rc=$?
check "play --game theory --players 2: the neutral plays along and the game ends" \
    "$([ $rc -eq 0 ] || echo "exit $rc")" \
    "$(ended "$T/two.out" || echo 'no result printed')" \
    "$(grep -q 'The die gave the neutral line' "$T/two.out" || echo 'no die roll shown')" \
    "$(grep -q '(neutral)' "$T/two.out" || echo 'no neutral topping placed')"
# The board numbers only the player's own rows: the neutral's line is drawn
# on it (a slant between two spaces of each row, or dashes between rows).
check "play --players 2: the neutral's line is drawn on the board, each way it can fall" \
    "$(grep -q '^  The die gave the neutral line [1-6]: the --- on the board\.$' "$T/two.out" || echo 'no --- line')" \
    "$(grep -q '^  The die gave the neutral line [1-6]: the / on the board\.$' "$T/two.out" || echo 'no / line')" \
    "$(grep -q '^  The die gave the neutral line [1-6]: the \\ on the board\.$' "$T/two.out" || echo 'no \ line')" \
    "$(grep -q '^ *----*\( \|$\)' "$T/two.out" || echo 'no dashes on a board')" \
    "$(grep -q '^ *[.RGW][1-7]  .* /[.RGW][1-7]' "$T/two.out" || echo 'no / between two spaces')" \
    "$(grep -q '^ *[.RGW][1-7]  .* \\[.RGW][1-7]' "$T/two.out" || echo 'no \ between two spaces')" \
    "$(awk 'length > 80 { print "line " NR ": " length " columns"; exit }' "$T/two.out")"

# ---- Hot-seat: nobody's screen shows another player's cut before the reveal ----
blanks 4000 >"$T/hot.in"
"$BIN" play --game theory --seats human,human,random --seed 11 --hint random \
    <"$T/hot.in" >"$T/hot.out" 2>"$T/hot.err"
rc=$?
leaks=$(awk '
    /^==== Player [0-9], your turn/ { owner = $3; sub(",", "", owner) }
    /cuts revealed: / { owner = "" }   # the reveal: every cut is public now
    / side \(.*\): Player [0-9] \(.*\) - line / {
        for (i = 1; i <= NF; i++) if ($i == "Player") who = $(i + 1)
        if (owner != "" && who != owner) print "line " NR ": " $0
    }' "$T/hot.out" | head -3)
check "play hot-seat: a player's cut is hidden from the next player until the reveal" \
    "$([ $rc -eq 0 ] || echo "exit $rc")" \
    "$(ended "$T/hot.out" || echo 'no result printed')" \
    "$(grep -q 'has chosen (secret)' "$T/hot.out" || echo 'no "has chosen" shown')" \
    "$leaks"

# ---- Board files ----
"$BIN" play --game theory --board /nonexistent/board.json </dev/null >"$T/b0.out" 2>"$T/b0.err"
rc=$?
check "play --board: a missing file exits 2 naming it" \
    "$([ $rc -eq 2 ] || echo "exit $rc")" \
    "$(grep -q 'nonexistent/board.json' "$T/b0.err" || echo "stderr: $(cat "$T/b0.err")")"
printf '{"cells": [[0,0,0]], "sides": []}' >"$T/small.json"
"$BIN" play --game theory --board "$T/small.json" </dev/null >"$T/b1.out" 2>"$T/b1.err"
rc=$?
check "play --board: a board with too few spaces exits 2 with the reason" \
    "$([ $rc -eq 2 ] || echo "exit $rc")" \
    "$(grep -q "'cells' must list 7 to 64 spaces" "$T/b1.err" || echo "stderr: $(cat "$T/b1.err")")"
printf '{"cells": [[0,0,0]' >"$T/broken.json"
"$BIN" demo --game theory --board "$T/broken.json" >"$T/b2.out" 2>"$T/b2.err"
rc=$?
check "demo --board: malformed JSON exits 2 with the line" \
    "$([ $rc -eq 2 ] || echo "exit $rc")" \
    "$(grep -q 'malformed JSON at line 1' "$T/b2.err" || echo "stderr: $(cat "$T/b2.err")")"
sed 's/"toppings": 16/"toppings": 12/' "$(dirname "$0")/../../data/theory/default-board.json" >"$T/twelve.json"
"$BIN" demo --game theory --board "$T/twelve.json" --seed 4 --bots greedy,random,random \
    --record "$T/twelve-rec.json" >"$T/b3.out" 2>"$T/b3.err"
rc=$?
check "demo --board: a custom board with 12 toppings plays, and its record carries it" \
    "$([ $rc -eq 0 ] || echo "exit $rc: $(head -2 "$T/b3.err")")" \
    "$(grep -q 'of 12 on the pizza' "$T/b3.out" || echo 'not 12 toppings')" \
    "$(grep -q '"toppings": *12' "$T/twelve-rec.json" || echo 'board not in the record')"
"$BIN" replay "$T/twelve-rec.json" >/dev/null 2>"$T/b4.err"
check "replay: a record with its own board replays" "$([ $? -eq 0 ] || cat "$T/b4.err")"

# ---- Records from before edition 2 ----
# A version 3 record was played while the toppings a colour lost in a round
# went home only after that round's replacements (edition 1); it replays with
# those rules to the end its players saw. Read as version 4 (edition 2) it
# is over a round sooner, the lost toppings refilling the winner's spaces.
f="$(dirname "$0")/records/theory-v3-refill.json"
sed 's/"version":3/"version":4/; s/"players":3,/"players":3, "edition":1,/' "$f" >"$T/v4e1.json"
"$BIN" replay "$T/v4e1.json" >"$T/v4e1.out" 2>"$T/v4e1.err"
check "replay: a version 3 Pizza Theory record replays with edition 1 of the rules, to its end" \
    "$(replayed_as_played "$f" 3 '"rounds":8,.*"seat":1,"on_board":16,"short":4,"winner":true' \
        'action 43 "put c1": the game is already over')" \
    "$(cmp -s "$T/old.out" "$T/v4e1.out" || echo 'a version 4 record naming edition 1 replays otherwise')"

# ---- Simulator ----
"$BIN" sim --game theory --players 3 --bots greedy,random,random --rotate --games 300 --seed 5 \
    --threads 2 >"$T/sim.out" 2>"$T/sim.err"
rc=$?
share=$(awk '$1 == "greedy" { sub("%", "", $2); print $2 }' "$T/sim.out")
check "sim --game theory: greedy beats two random bots (win share over 60%)" \
    "$([ $rc -eq 0 ] || echo "exit $rc: $(head -2 "$T/sim.err")")" \
    "$(awk -v s="$share" 'BEGIN { if (s == "" || s + 0 < 60) print "greedy won " s "%" }')"

summary theory
