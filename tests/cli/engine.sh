#!/bin/sh
# pizzabox engine, the line protocol (docs/engine.md), run for real: one
# answer block per command, bad input answered with one error line and the
# session unchanged, undo and determinize, a think that is reproducible and
# legal, a record loaded and scored, every command documented, and the Python
# client of examples/ playing a whole New York Slice game against bots.
#   sh tests/cli/engine.sh build/pizzabox
set -u
. "$(dirname "$0")/lib.sh"
use_binary engine "${1:-}"
root=$(cd "$(dirname "$0")/../.." && pwd)

# engine NAME: the commands in $T/NAME.in answered into $T/NAME.out; then
# $T/NAME.ends holds each answer's last line ("ok" or the error line).
engine() {
    "$BIN" engine <"$T/$1.in" >"$T/$1.out" 2>"$T/$1.err"
    echo $? >"$T/$1.rc"
    grep -E '^(ok|error .*)$' "$T/$1.out" >"$T/$1.ends"
}
# end NAME N: the end line of the Nth answer.
end() { sed -n "$2p" "$T/$1.ends"; }
# answer NAME N: the data lines of the Nth answer.
answer() {
    awk -v n="$2" '/^(ok|error .*)$/ { k++; next } k == n - 1' "$T/$1.out"
}
# expect NAME N PATTERN: a problem unless the Nth end line matches.
expect() {
    end "$1" "$2" | grep -Eq "$3" || echo "answer $2 is '$(end "$1" "$2")', not /$3/"
}

# ---- bad input: each a clear error, and the engine answers on ----
cat >"$T/bad.in" <<'EOF'
play take A
frobnicate now
new nyslice 1 {"players":3
new nyslice 1 {"players":9}
new chess 1
new nyslice -4
new nyslice 7 {"players":3}
view 0
play take Z
view 0
history
seat
view 3
determinize
think nobot
score
undo
EOF
printf 'seat\000 1\n' >>"$T/bad.in"
printf '\377\376caf\303\251\302\205 1\n' >>"$T/bad.in" # not UTF-8, UTF-8, a C1 control (NEL)
echo seat >>"$T/bad.in"
engine bad
check "engine: bad input gets one error line naming the problem, and the engine answers on" \
    "$([ "$(cat "$T/bad.rc")" -eq 0 ] || echo "exit $(cat "$T/bad.rc")")" \
    "$([ "$(wc -l <"$T/bad.ends")" -eq 20 ] || echo "$(wc -l <"$T/bad.ends") answers to 20 commands")" \
    "$(expect bad 1 "^error no game yet: start one with 'new GAME SEED")" \
    "$(expect bad 2 "^error unknown command 'frobnicate'")" \
    "$(expect bad 3 '^error config is not valid JSON: .*column')" \
    "$(expect bad 4 '^error bad config: .*players')" \
    "$(expect bad 5 "^error unknown game 'chess'")" \
    "$(expect bad 6 "^error seed '-4' must be a whole number")" \
    "$(expect bad 7 '^ok$')" \
    "$(expect bad 9 "^error illegal move 'take Z': ")" \
    "$(expect bad 13 "^error no seat '3': seats are 0 to 2")" \
    "$(expect bad 14 '^error give a seat')" \
    "$(expect bad 15 "^error unknown bot 'nobot'")" \
    "$(expect bad 16 '^error the game is not over: seat 0 to move')" \
    "$(expect bad 17 '^error nothing to undo')" \
    "$(expect bad 18 '^error the line holds a NUL byte')" \
    "$(expect bad 19 "^error unknown command '\\?\\?café\\?'")" \
    "$(iconv -f UTF-8 -t UTF-8 "$T/bad.out" >/dev/null 2>&1 || echo 'an answer is not UTF-8')" \
    "$(expect bad 20 '^ok$')" \
    "$(answer bad 20 | grep -qx 'seat 0' || echo 'no seat after the errors')" \
    "$([ -s "$T/bad.err" ] && echo "stderr: $(head -c 200 "$T/bad.err")")"
check "engine: a refused move leaves the game as it was" \
    "$(answer bad 8 >"$T/v1"; answer bad 10 >"$T/v2"; cmp -s "$T/v1" "$T/v2" || echo 'view changed')" \
    "$(grep -q '^view {"game":"nyslice","seat":0' "$T/v1" || echo "no view: $(head -c 100 "$T/v1")")" \
    "$(answer bad 11 | grep -qx 'count 0' || echo 'history not empty')"

# ---- the glossary: what a view names by slug ----
printf 'new nyslice 5\nview 0\nglossary\nnew theory 5\nglossary\n' >"$T/gl.in"
engine gl
slug=$(answer gl 2 | sed -n 's/.*"today":{"slug":"\([a-z-]*\)".*/\1/p')
check "engine: the glossary gives the text of a Special a view names by slug; {} for a game without" \
    "$([ -n "$slug" ] || echo "no Special in the view: $(answer gl 2 | head -c 200)")" \
    "$(answer gl 3 | grep -q "^glossary {.*\"$slug\":{[^}]*\"text\":\"" || echo "no text for '$slug'")" \
    "$(answer gl 5 | grep -qx 'glossary {}' || echo "theory: $(answer gl 5)")"

# ---- play, think, undo ----
cat >"$T/play.in" <<'EOF'
new nyslice 11
view 1
think easy 9
think easy 9
moves
EOF
engine play
move=$(answer play 3 | sed -n 's/^move //p')
{ cat "$T/play.in"; echo "play $move"; echo "view 1"; echo undo; echo "view 1"; echo "history"; echo quit; echo seat; } >"$T/play2.in"
engine play2
check "engine: think is reproducible from its seed and its move is legal; undo restores the position" \
    "$([ -n "$move" ] || echo 'think gave no move')" \
    "$(answer play 3 | grep -q '^candidate [0-9]* 0\.[0-9]* cut ' || echo 'no candidate values')" \
    "$(answer play 3 | grep -q '^why [0-9]* searches' || echo 'no why')" \
    "$(answer play 3 >"$T/t1"; answer play 4 >"$T/t2"; cmp -s "$T/t1" "$T/t2" || echo 'two thinks with one seed differ')" \
    "$(answer play 5 | grep -qxF "move $move" || echo "'$move' not among the legal moves")" \
    "$(answer play2 6 | grep -qxF "played $move" || echo 'not played')" \
    "$(answer play2 2 >"$T/a"; answer play2 7 >"$T/b"; answer play2 9 >"$T/c"
       cmp -s "$T/a" "$T/c" || echo 'undo did not restore the view'; cmp -s "$T/a" "$T/b" && echo 'the move changed nothing')" \
    "$(answer play2 10 | grep -qx 'count 0' || echo 'history after undo not empty')" \
    "$([ "$(wc -l <"$T/play2.ends")" -eq 11 ] || echo 'answered after quit, or not at quit')"

# ---- determinize, in every game: the seat's own view stays, undo is the real game ----
# A game of random bots loaded and taken back 20 moves, then for every seat:
# view, determinize, view, undo, view.
problems=""
for game in nyslice theory delivery; do
    "$BIN" selfplay --game "$game" --players 3 --games 1 --seed 8 --bots random --record-dir "$T/$game" >/dev/null
    { printf 'load '; tr -d '\n' <"$T/$game/game-000000.json"; echo
      for i in $(seq 20); do echo undo; done
      for s in 0 1 2; do printf 'view %s\ndeterminize %s 77\nview %s\nundo\nview %s\n' $s $s $s $s; done; } >"$T/d.in"
    engine d
    [ "$(grep -c '^error' "$T/d.ends")" -eq 0 ] || problems="$problems; $game: $(grep -m1 '^error' "$T/d.ends")"
    for s in 0 1 2; do
        b=$((22 + 5 * s))
        answer d $b >"$T/before"; answer d $((b + 2)) >"$T/after"; answer d $((b + 4)) >"$T/back"
        grep -q '^view {' "$T/before" || problems="$problems; $game: no view of seat $s"
        cmp -s "$T/before" "$T/after" || problems="$problems; $game: seat $s's view changed"
        cmp -s "$T/before" "$T/back" || problems="$problems; $game: undo did not bring seat $s's view back"
    done
done
check "engine: determinize keeps the seat's own view, undo returns to the real game (every game)" "${problems#; }"

# ---- load a record, score it ----
"$BIN" selfplay --game nyslice --players 3 --games 1 --seed 4 --bots easy --record-dir "$T/rec" >"$T/self.txt"
totals=$(sed -n '1s/.*"totals":\[\([0-9,]*\)\].*/\1/p' "$T/self.txt" | tr ',' ' ')
{ printf 'load '; tr -d '\n' <"$T/rec/game-000000.json"; echo; echo score; echo undo; echo score; } >"$T/load.in"
engine load
check "engine: load replays a record; score gives its totals; undo reopens the game" \
    "$(expect load 1 '^ok$')" "$(answer load 1 | grep -q '^moves [1-9]' || echo 'no move count')" \
    "$(answer load 2 | grep -qx "totals $totals" || echo "totals '$(answer load 2 | sed -n 's/^totals //p')', not '$totals'")" \
    "$(answer load 2 | grep -q '^report {' || echo 'no report')" \
    "$(expect load 4 '^error the game is not over')"

# ---- every command documented ----
echo help >"$T/help.in"
engine help
missing=$(answer help 1 | sed -n 's/^command \([a-z]*\).*/\1/p' | while read -r c; do
    grep -q "^### \`$c" "$root/docs/engine.md" || printf '%s ' "$c"
done)
check "engine: every command of help has its section in docs/engine.md" \
    "$([ "$(answer help 1 | grep -c '^command ')" -ge 10 ] || echo 'help lists too few')" \
    "$([ -n "$missing" ] && echo "undocumented: $missing")"

# ---- the example sessions in docs/engine.md are real ----
# Each fenced block after "## Example session" is one session: "> " lines
# are sent, every other line is the answer expected word for word.
awk -v dir="$T" '/^## / { on = /^## Example session/ } on && /^```/ { if (inblock) inblock = 0; else { inblock = 1; n++ } next }
    inblock && /^> / { print substr($0, 3) >(dir "/doc" n ".in"); next } inblock { print >(dir "/doc" n ".expect") }' \
    "$root/docs/engine.md"
docs_differ=$(for f in "$T"/doc*.in; do
    d=$(basename "$f" .in)
    "$BIN" engine <"$f" >"$T/$d.out" 2>"$T/$d.err"
    diff "$T/$d.expect" "$T/$d.out" >"$T/$d.diff" || printf '%s: %s ' "$d" "$(grep -m 2 '^[<>]' "$T/$d.diff" | cut -c 1-120 | tr '\n' ' ')"
done)
check "engine: the example sessions of docs/engine.md answer as written" \
    "$([ "$(ls "$T"/doc*.in 2>/dev/null | wc -l)" -ge 2 ] || echo 'fewer than two sessions found')" \
    "$docs_differ"

"$BIN" engine --help >"$T/h.out" 2>&1
rh=$?
"$BIN" engine extra >"$T/x.out" 2>"$T/x.err"
rx=$?
check "engine: --help exits 0, an argument exits 2 with one line" "$([ $rh -eq 0 ] || echo "--help exit $rh")" \
    "$([ $rx -eq 2 ] || echo "exit $rx")" "$([ "$(wc -l <"$T/x.err")" -eq 1 ] || echo 'not one line')"

# ---- the Python client plays a whole game ----
if command -v python3 >/dev/null 2>&1; then
    python3 "$root/examples/engine_client.py" --engine "$BIN" --bot easy --seed 3 >"$T/py.out" 2>"$T/py.err"
    rp=$?
    check "engine: examples/engine_client.py plays a whole New York Slice game against bots" \
        "$([ $rp -eq 0 ] || echo "exit $rp: $(head -c 300 "$T/py.err")")" \
        "$(grep -q '^ *[0-9]*\. seat 0 (us, ' "$T/py.out" || echo 'no move of ours')" \
        "$(for s in 1 2 3; do grep -q "^ *[0-9]*\. seat $s (easy): " "$T/py.out" || echo "no move of seat $s"; done)" \
        "$(grep -Eq '^final score: seat 0 -?[0-9]+, seat 1 -?[0-9]+, seat 2 -?[0-9]+, seat 3 -?[0-9]+$' "$T/py.out" ||
           echo 'no final score')" \
        "$(grep -q '^winner: seat' "$T/py.out" || echo 'no winner')"
    python3 "$root/examples/engine_client.py" --engine "$T/no-such-engine" >"$T/pyx.out" 2>"$T/pyx.err"
    rx=$?
    python3 "$root/examples/engine_client.py" --engine "$BIN" --bot wizard >"$T/pyb.out" 2>"$T/pyb.err"
    rb=$?
    check "engine: examples/engine_client.py says in one line why it cannot play (no engine, an unknown bot)" \
        "$([ $rx -eq 1 ] && [ "$(wc -l <"$T/pyx.err")" -eq 1 ] && grep -q '^engine: cannot start .*no-such-engine' "$T/pyx.err" ||
           echo "no engine: exit $rx: $(head -c 200 "$T/pyx.err")")" \
        "$([ $rb -eq 1 ] && grep -q "^engine: unknown bot 'wizard'" "$T/pyb.err" || echo "unknown bot: exit $rb")" \
        "$(grep -q '^ *[0-9]*\. seat' "$T/pyb.out" && echo 'a move was played before the bot was checked')"
else
    echo "ok - engine: python3 not installed, the client's game skipped"
fi

# Under a sanitizer a finding goes to stderr (a leak at exit too).
check "engine: no session wrote to stderr" "$(for f in "$T"/*.err; do
    case "$f" in "$T/x.err" | "$T/pyx.err" | "$T/pyb.err") continue ;; esac # errors asked for
    [ ! -s "$f" ] || echo "$(basename "$f"): $(head -c 300 "$f")"; done)"

summary engine
