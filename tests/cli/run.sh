#!/bin/sh
# tests/cli/run.sh -- checks the pizzabox binary the way a user would.
#
#   sh tests/cli/run.sh build/pizzabox
#
# Uses only sh, grep, sed, awk, cmp and the binary. Prints "ok - ..." or
# "not ok - ..." per check, then "cli: P passed, F failed"; exits non-zero if
# any check failed.

. "$(dirname "$0")/lib.sh"
use_binary cli "${1:-}"

# Run the binary: stdout in $T/out, stderr in $T/err, status in $rc.
run() {
    "$BIN" "$@" >"$T/out" 2>"$T/err"
    rc=$?
}

run_stdin() {
    input=$1
    shift
    "$BIN" "$@" <"$input" >"$T/out" 2>"$T/err"
    rc=$?
}

# Keep the last run's stdout as $T/NAME.
keep() {
    sed -n p "$T/out" >"$T/$1"
}

nlines() {
    awk 'END { print NR }' "$1"
}

first_line() {
    sed -n 1p "$1"
}

# The last run failed as bad input: status 2, one line on stderr that
# mentions $2, nothing on stdout.
expect_bad() {
    desc=$1
    want=$2
    problems=""
    [ "$rc" -eq 2 ] || problems="exit status $rc, expected 2"
    [ "$(nlines "$T/err")" -eq 1 ] || problems="$problems; stderr has $(nlines "$T/err") lines, expected 1"
    [ ! -s "$T/out" ] || problems="$problems; stdout is not empty"
    grep -F -q -- "$want" "$T/err" || problems="$problems; stderr does not mention $want"
    if [ -z "$problems" ]; then
        ok "$desc"
    else
        not_ok "$desc" "${problems#; }" "stderr: $(first_line "$T/err")"
    fi
}

# The last run succeeded: status 0, empty stderr.
expect_success() {
    desc=$1
    if [ "$rc" -eq 0 ] && [ ! -s "$T/err" ]; then
        ok "$desc"
    else
        not_ok "$desc" "exit status $rc" "stderr: $(first_line "$T/err")"
    fi
}

# Whitespace-free JSON text of a file.
squeeze() {
    sed 's/[[:space:]]//g' "$1"
}

# "[t1,t2,...]" from the "total" fields of a score report.
report_totals() {
    squeeze "$1" | grep -o '"total":-\{0,1\}[0-9]*' | sed 's/.*://' |
        awk '{ s = s (NR > 1 ? "," : "") $0 } END { print "[" s "]" }'
}

# The "winners" array of a score report or selfplay line: "[2]".
json_array_field() {
    printf '%s\n' "$2" | grep -o "\"$1\":\\[[-0-9,]*\\]" | sed 's/.*://'
}

# ---- Test data ----

cat >"$T/spec.json" <<'EOF'
{"game": "nyslice",
 "players": [
   {"name": "Ann", "collected": ["9p2", "9p3", "c8/10", "S@9"], "eaten": ["11p3", "7p1"],
    "specials": ["tiebreaker"]},
   {"name": "Bo", "collected": ["A", "8a1"], "eaten": [], "specials": []},
   {"name": "Cy", "collected": ["10p1", "10p1"], "eaten": ["5p1"], "specials": ["stuffed-crust"]}
 ]}
EOF

table() {
    printf '{"game": "nyslice", "players": [%s]}\n' "$1" >"$T/$2"
}

table '{"collected": ["9p2", "9p7"]}, {}' unknown-token.json
table '{"specials": ["tiebreaker", "free-pizza"]}, {}' unknown-slug.json
table '{"collected": ["10p1"]}, {}' removed-type.json
table '{"eaten": ["9p3", "9p3", "9p3", "9p3"]}, {}, {}' too-many.json
table '{"eaten": ["9p3", "9p3", "9p3", "9p3", "9p3", "9p3", "9p3", "9p3", "9p3"]}, {}, {}' nine-9p3.json
printf '{"game": "nyslice", "players": [{"collected": ["9p2"]}, {}\n' >"$T/malformed.json"
printf '{"game": "nyslice", "players": [{}, {}], "bad\\nfield": 1}\n' >"$T/newline-field.json"

# A deck like the default one, but every type-9 slice has three pepperonis.
cat >"$T/deck-9p3.json" <<'EOF'
{"game": "nyslice", "name": "all 9p3",
 "types": [
  {"type": 3, "name": "Veggie", "pepperoni": [0, 0, 0], "anchovies": [0, 0, 1]},
  {"type": 4, "name": "Hawaiian", "pepperoni": [1, 1, 1, 2], "anchovies": [0, 0, 1, 0]},
  {"type": 5, "name": "BBQ Chicken", "pepperoni": [1, 1, 1, 2, 2], "anchovies": [0, 0, 0, 1, 0]},
  {"type": 6, "name": "Margarita", "pepperoni": [1, 1, 1, 1, 2, 2], "anchovies": [0, 0, 0, 1, 0, 0]},
  {"type": 7, "name": "Sausage", "pepperoni": [0, 1, 1, 1, 2, 2, 3], "anchovies": [0, 0, 0, 1, 0, 0, 0]},
  {"type": 8, "name": "Mushroom", "pepperoni": [0, 0, 1, 1, 1, 2, 2, 3], "anchovies": [0, 1, 0, 0, 1, 0, 0, 0]},
  {"type": 9, "name": "Pepperoni", "pepperoni": [3, 3, 3, 3, 3, 3, 3, 3, 3], "anchovies": [0, 0, 0, 0, 0, 0, 0, 0, 0]},
  {"type": 10, "name": "Meat Lovers", "pepperoni": [0, 1, 1, 1, 1, 2, 2, 2, 3, 3], "anchovies": [0, 0, 1, 0, 0, 0, 1, 0, 0, 0]},
  {"type": 11, "name": "Cheese", "pepperoni": [0, 0, 1, 1, 1, 1, 2, 2, 2, 3, 3], "anchovies": [1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0]}
 ],
 "combos": [[8, 10], [4, 11], [5, 9], [6, 7]]}
EOF
sed 's/"combos": \[\[8, 10\], /"combos": [[3, 5], /' "$T/deck-9p3.json" >"$T/deck-no-8-10.json"
sed 's/"name": "all 9p3",/"name": "all 9p3", "crust": "thin",/' "$T/deck-9p3.json" >"$T/deck-unknown-field.json"
printf '{"game": "nyslice", "types": [\n' >"$T/deck-malformed.json"

# ---- score ----

run score "$T/spec.json"
expect_success "score: the spec example succeeds"
spec_out=$(squeeze "$T/out")
if [ "$(nlines "$T/out")" -eq 1 ] && [ "$(report_totals "$T/out")" = "[13,4,16]" ]; then
    ok "score: the spec example totals are [13,4,16]"
else
    not_ok "score: the spec example totals are [13,4,16]" "got $(report_totals "$T/out")" "stdout: $spec_out"
fi
if [ "$(json_array_field winners "$spec_out")" = "[2]" ]; then
    ok "score: the spec example winner is Cy (index 2)"
else
    not_ok "score: the spec example winner is Cy (index 2)" "stdout: $spec_out"
fi
# Every "key":value of $2 (space-separated) is in the player object named $1.
player_has() {
    obj=$(printf '%s\n' "$spec_out" | grep -o '{[^{}]*}' | grep -F "\"name\":\"$1\"")
    [ -n "$obj" ] || return 1
    set -f
    for kv in $2; do
        printf '%s\n' "$obj" | grep -F -q -e "$kv," -e "$kv}" || { set +f; return 1; }
    done
    set +f
}
missing=""
player_has Ann '"majorities":9 "types_won":[9] "specials":0 "pepperoni":4 "total":13 "eaten":2' ||
    missing="$missing Ann"
player_has Bo '"majorities":8 "types_won":[8] "specials":0 "pepperoni":-4 "total":4 "eaten":0' ||
    missing="$missing Bo"
player_has Cy '"majorities":10 "types_won":[10] "specials":5 "pepperoni":1 "total":16 "eaten":1' ||
    missing="$missing Cy"
if [ -z "$missing" ]; then
    ok "score: every Guest Check line of the spec example"
else
    not_ok "score: every Guest Check line of the spec example" "wrong:$missing" "stdout: $spec_out"
fi
keep spec-report

run_stdin "$T/spec.json" score -
if [ "$rc" -eq 0 ] && cmp -s "$T/out" "$T/spec-report"; then
    ok "score -: reads the table from stdin"
else
    not_ok "score -: reads the table from stdin" "exit status $rc" "stdout: $(first_line "$T/out")"
fi

run score "$T/unknown-token.json"
expect_bad "score: unknown slice token" '9p7'
run score "$T/unknown-slug.json"
expect_bad "score: unknown Special slug" 'free-pizza'
run score "$T/removed-type.json"
expect_bad "score: 10p1 at a 2-player table (type 10 is removed)" '10p1'
run score "$T/too-many.json"
expect_bad "score: four 9p3 (the default deck has three)" '9p3'
run score "$T/malformed.json"
expect_bad "score: malformed JSON" 'JSON'
run_stdin "$T/malformed.json" score -
expect_bad "score -: malformed JSON on stdin" 'JSON'
run score "$T/newline-field.json"
expect_bad "score: unknown field whose name holds a line break" 'bad'
run score "$T/no-such-table.json"
expect_bad "score: missing file" 'no-such-table.json'
run score "$T/nine-9p3.json"
expect_bad "score: nine 9p3 with the default deck" '9p3'
run score --deck "$T/deck-9p3.json" "$T/nine-9p3.json"
expect_success "score --deck: a custom deck allows nine 9p3"
if [ "$(report_totals "$T/out")" = "[27,0,0]" ]; then
    ok "score --deck: nine eaten 9p3 score 27"
else
    not_ok "score --deck: nine eaten 9p3 score 27" "totals $(report_totals "$T/out")"
fi
run score --deck "$T/deck-9p3.json" "$T/too-many.json"
expect_success "score --deck: four 9p3 are fine with the custom deck"
run score --deck "$T/deck-malformed.json" "$T/spec.json"
expect_bad "score --deck: malformed deck file" 'deck-malformed.json'
run score --deck "$T/deck-no-8-10.json" "$T/spec.json"
expect_bad "score --deck: deck without the 8/10 Combo" '8/10'
run score --deck "$T/deck-unknown-field.json" "$T/spec.json"
expect_bad "score --deck: deck with an unknown field" 'crust'
run score --deck "$T/no-such-deck.json" "$T/spec.json"
expect_bad "score --deck: missing deck file" 'no-such-deck.json'
run score
expect_bad "score: no table file" 'score'

# ---- selfplay and replay ----

K=5
run selfplay --game nyslice --players 4 --games $K --seed 42
keep selfplay1
rc1=$rc
run selfplay --game nyslice --players 4 --games $K --seed 42 --record-dir "$T/records"
keep selfplay2
rc2=$rc
if [ "$rc1" -eq 0 ] && [ "$rc2" -eq 0 ] && [ -s "$T/selfplay1" ] && cmp -s "$T/selfplay1" "$T/selfplay2"; then
    ok "selfplay: the same arguments print byte-identical output"
else
    not_ok "selfplay: the same arguments print byte-identical output" "exit status $rc1 and $rc2"
fi
if [ "$(nlines "$T/selfplay1")" -eq $((K + 1)) ] && sed -n '$p' "$T/selfplay1" | grep -q '"summary"'; then
    ok "selfplay: $K game lines and a summary line"
else
    not_ok "selfplay: $K game lines and a summary line" "$(nlines "$T/selfplay1") lines"
fi
nrecords=0
first_record="$T/no-record.json"
for rec in "$T"/records/*.json; do
    [ -f "$rec" ] || continue
    [ $nrecords -gt 0 ] || first_record=$rec
    nrecords=$((nrecords + 1))
done
if [ "$nrecords" -eq $K ]; then
    ok "selfplay --record-dir: writes $K records"
else
    not_ok "selfplay --record-dir: writes $K records" "found $nrecords"
fi

# Each record replays to the totals and winners of its selfplay line.
bad_replays=""
for rec in "$T"/records/*.json; do
    [ -f "$rec" ] || continue
    seed=$(squeeze "$rec" | grep -o '"seed":[0-9]*' | sed 's/.*://')
    line=$(sed 's/[[:space:]]//g' "$T/selfplay1" | grep "\"seed\":$seed[,}]")
    run replay "$rec"
    got=$(report_totals "$T/out")
    won=$(json_array_field winners "$(squeeze "$T/out")")
    if [ "$rc" -ne 0 ] || [ -z "$line" ] || [ "$got" != "$(json_array_field totals "$line")" ] ||
        [ "$won" != "$(json_array_field winners "$line")" ]; then
        bad_replays="$bad_replays ${rec##*/}(exit $rc, totals $got)"
    fi
done
if [ "$nrecords" -gt 0 ] && [ -z "$bad_replays" ]; then
    ok "replay: every record gives the totals and winners of its selfplay line"
else
    not_ok "replay: every record gives the totals and winners of its selfplay line" "bad:$bad_replays"
fi

run_stdin "$first_record" replay -
if [ "$rc" -eq 0 ] && [ "$(nlines "$T/out")" -eq 1 ]; then
    ok "replay -: reads the record from stdin"
else
    not_ok "replay -: reads the record from stdin" "exit status $rc"
fi

# Tamper: the first eat/collect from action 5 on now names the Anchovy slice,
# which is never placed by choice. Writes the action number to $T/tampered-n.
awk -v nfile="$T/tampered-n" '
    BEGIN { RS = "\""; n = 0; done = 0 }
    {
        text = $0
        if (NR % 2 == 0) {
            if (inside && !done) {
                n++
                if (n >= 5 && (text ~ /^eat / || text ~ /^collect /)) {
                    sub(/ .*/, " A", text)
                    print n > nfile
                    print text > (nfile ".text")
                    done = 1
                }
            }
            if (text == "actions")
                inside = 1
        }
        printf "%s%s", (NR > 1 ? "\"" : ""), text
    }' "$first_record" >"$T/tampered.json"
tn=$(sed -n 1p "$T/tampered-n" 2>/dev/null)
tt=$(sed -n 1p "$T/tampered-n.text" 2>/dev/null)
run replay "$T/tampered.json"
if [ -n "$tn" ] && grep -E -q "action $tn([^0-9]|\$)" "$T/err"; then
    expect_bad "replay: a tampered record names action $tn" "$tt"
else
    not_ok "replay: a tampered record names the altered action" "altered action ${tn:-none}" \
        "exit status $rc, stderr: $(first_line "$T/err")"
fi

# The same record cut after its third action.
awk '
    BEGIN { RS = "\""; n = 0 }
    {
        printf "%s%s", (NR > 1 ? "\"" : ""), $0
        if (NR % 2 == 0 && inside && ++n == 3) {
            printf "\"]}\n"
            exit
        }
        if (NR % 2 == 0 && $0 == "actions")
            inside = 1
    }' "$first_record" >"$T/truncated.json"
run replay "$T/truncated.json"
expect_bad "replay: a record that stops before the end of the game" 'truncated.json'
sed 's/"format"/"colour":"red","format"/' "$first_record" >"$T/unknown-field.json"
run replay "$T/unknown-field.json"
expect_bad "replay: a record with an unknown field" 'colour'
run replay "$T/no-such-record.json"
expect_bad "replay: missing file" 'no-such-record.json'

# ---- bench, demo, usage errors ----

run bench --game nyslice --players 4 --games 200 --seed 1
if [ "$rc" -eq 0 ] && grep -E -q '[0-9.]+ games/s' "$T/out"; then
    ok "bench: prints games/s"
else
    not_ok "bench: prints games/s" "exit status $rc" "stdout: $(first_line "$T/out")"
fi

# The levels' regret against New York Slice's exact last round (docs/perfect.md).
run bench --regret --game nyslice --players 3 --games 1 --seed 2 --bots easy,greedy
if [ "$rc" -eq 0 ] && grep -E -q '^  easy +regret [0-9.]+ points per decision \(95% CI' "$T/out" &&
    grep -E -q '^  greedy +regret ' "$T/out"; then
    ok "bench --regret: a line per bot with its regret and interval"
else
    not_ok "bench --regret: a line per bot with its regret and interval" "exit status $rc" \
        "stdout: $(cat "$T/out")"
fi
run bench --regret --game theory --players 3 --games 1 --bots easy
expect_bad "bench --regret: only New York Slice has an exact last round" 'New York Slice'

# A bot's thinking time: wall time and its thread's CPU time.
run bench --game theory --players 2 --games 2 --seed 3 --bots hard
cpu_re="ms at most \(its thread's CPU time: [0-9.]+ ms on average, [0-9.]+ at most; [0-9]+ moves of 1 s or more\)"
if [ "$rc" -eq 0 ] && grep -E -q "$cpu_re, [0-9]+ iterations per second of CPU; the slowest was move [0-9]+ of game [12]$" "$T/out"; then
    ok "bench --bots: wall and CPU time per move, iterations per CPU second, the slowest move"
else
    not_ok "bench --bots: wall and CPU time per move, iterations per CPU second, the slowest move" "exit status $rc" \
        "stdout: $(cat "$T/out")"
fi

# Every decision of whole games, the bot in every seat: New York Slice's 6
# rounds at 3 players give each seat at least a portion to take a round.
run bench --game nyslice --players 3 --games 2 --seed 3 --bots easy --whole-games
moves=$(sed -n 's/.*bot easy in every seat: \([0-9]*\) moves in 2 games.*/\1/p' "$T/out")
if [ "$rc" -eq 0 ] && [ "${moves:-0}" -ge 36 ] && grep -E -q "$cpu_re; the slowest was move [0-9]+ of game [12]$" "$T/out"; then
    ok "bench --bots --whole-games: every move of the games timed"
else
    not_ok "bench --bots --whole-games: every move of the games timed" "exit status $rc" "stdout: $(cat "$T/out")"
fi
run bench --last-round --games 1 --bots easy --whole-games
expect_bad "bench --whole-games: not with --last-round" '--whole-games goes with --bots BOT alone'
run bench --regret --last-round --games 1 --bots easy
expect_bad "bench: --regret and --last-round are not run together" '--regret and --last-round are two benchmarks'
run bench --regret --games 1
expect_bad "bench --regret: the bots to measure are named, not taken as random" 'measure the bots of --bots'
run bench --games 1 --bots easy --against greedy
expect_bad "bench: --against goes with --last-round only" '--against names the other seats'
run bench --regret --games 1 --bots easy,mcts:c=1:c=1:c=1:c=1:c=1:c=1:c=1:c=1:c=1:c=1:c=1:c=1:iters=1000000
expect_bad "bench --regret: a bot spec too long is refused, not cut short" '--bots: bot 2 is too long'
run bench --regret --games 1 --bots easy,,hard
expect_bad "bench --regret: an empty name in --bots is refused" '--bots: bot 2 is empty'
run bench --regret --games 1 --bots easy,easy,easy,easy,easy,easy,easy,easy,easy
expect_bad "bench --regret: at most 8 bots" '--bots: at most 8 bots'
run selfplay --games 1 --players 3 --bots easy,,hard
expect_bad "selfplay: an empty seat in --bots is refused, not skipped" '--bots: seat 2 is empty'
run play --seats human,easy,easy,easy,easy,easy,easy
expect_bad "play: at most 6 seats" '--seats: at most 6 seats'

# The last round at the table: each bot's win share, the second paired with the first.
run bench --last-round --game nyslice --players 3 --games 2 --seed 4 --bots greedy,easy --against random
if [ "$rc" -eq 0 ] && grep -E -q '^  greedy +win share [0-9.]+ \(95% CI' "$T/out" &&
    grep -E -q '^  easy +win share [0-9.]+ .*; against greedy: win share [-+][0-9.]+ \(' "$T/out"; then
    ok "bench --last-round: a line per bot, the second against the first"
else
    not_ok "bench --last-round: a line per bot, the second against the first" "exit status $rc" \
        "stdout: $(cat "$T/out")"
fi
run bench --last-round --game delivery --players 3 --games 1 --bots greedy
expect_bad "bench --last-round: only New York Slice" 'New York Slice'
run bench --last-round --players 3 --games 1 --bots greedy --against wizard
expect_bad "bench --last-round: an unknown --against bot is named" 'wizard'
run selfplay --players 3 --bots perfect:wizard
expect_bad "selfplay: perfect with an unknown level" 'perfect:wizard'

run demo --seed 5
keep demo1
rc1=$rc
run demo --seed 5
if [ "$rc1" -eq 0 ] && [ "$rc" -eq 0 ] && [ -s "$T/demo1" ] && cmp -s "$T/demo1" "$T/out"; then
    ok "demo --seed 5: identical when run twice"
else
    not_ok "demo --seed 5: identical when run twice" "exit status $rc1 and $rc"
fi
guest=$(grep -n '^GUEST CHECK' "$T/demo1" | sed -n '$s/:.*//p')
total=$(awk -v from="${guest:-0}" 'NR > from && /^TOTAL/ { print NR; exit }' "$T/demo1")
if [ -n "$guest" ] && [ -n "$total" ] && sed -n '$p' "$T/demo1" | grep -E -q '^(Winner|Shared win): .+'; then
    ok "demo --seed 5: ends with a Guest Check and a winner line"
else
    not_ok "demo --seed 5: ends with a Guest Check and a winner line" "last line: $(sed -n '$p' "$T/demo1")"
fi

# ---- Options: a missing value, an option of another game, a bad output path ----

run play --players
expect_bad "play --players without its value: says what it needs" '--players needs a number'
run sim --games
expect_bad "sim --games without its value: says what it needs" '--games needs a number'
run selfplay --seed
expect_bad "selfplay --seed without its value: says what it needs" '--seed needs a number'
run play --seed 3 --record
expect_bad "play --record without its value: says it needs a file name" '--record needs a file name'
run play --record --seed 3
expect_bad "play --record followed by another option: names both" \
    "--record needs a file name, not the option '--seed'"
run serve --port
expect_bad "serve --port without its value: says what it needs" '--port needs a number'
run play --coop
expect_bad "play --coop without --game delivery: a sentence naming the game" \
    '--coop is for New York Pizza Delivery (add --game delivery)'
run sim --game theory --expansion --games 2
expect_bad "sim --game theory --expansion: a sentence naming the game" \
    '--expansion is for New York Pizza Delivery (add --game delivery); this game is Pizza Theory'
run play --game nyslice --board b.json
expect_bad "play --board with New York Slice: a sentence" '--board is for Pizza Theory (add --game theory)'
run demo --game delivery --difficulty 2
expect_bad "demo --difficulty without --coop: a sentence" "--difficulty picks the co-op game's row: add --coop"
run play --game nys
expect_bad "play --game with no such game: names the games" 'there is no such game (nyslice, theory or delivery)'

# Each refused with exit 2 before any game is played (nothing on stdout).
mkdir "$T/ro" && chmod a-w "$T/ro"
: >"$T/a-file"
for args in "play --seed 1 --record $T/no-dir/game.json" "demo --seed 1 --record $T/no-dir/game.json" \
    "sim --games 20 --out $T/no-dir/r.jsonl" "sim --games 20 --report $T/no-dir/r.html" \
    "sim --games 20 --report $T" "selfplay --games 2 --record-dir $T/no-dir/sub" \
    "selfplay --games 2 --record-dir $T/a-file" "export --db $T/x.db --out $T/no-dir/sub" \
    "sim-merge --report $T/no-dir/r.html $T/a-file"; do
    set -f
    run $args
    set +f
    expect_bad "$(echo "$args" | sed "s|$T/||g"): a bad output path is refused before any game" "$T"
done
if [ -w "$T/ro" ]; then
    ok "play --record in a directory without write permission # SKIP the directory is writable (root)"
else
    run play --seed 1 --record "$T/ro/game.json"
    expect_bad "play --record in a directory without write permission: refused" 'cannot write in'
fi

# ---- --help: every option the README uses, 80 columns ----

wide=""
for cmd in play serve export demo score replay verify analyze engine selfplay sim sim-merge bench; do
    "$BIN" $cmd --help >"$T/help-$cmd" 2>&1 || wide="$wide $cmd(exit $?)"
    n=$(awk 'length > 80 { n++ } END { print n + 0 }' "$T/help-$cmd")
    [ "$n" -eq 0 ] || wide="$wide $cmd($n lines)"
done
check "--help of every command fits 80 columns" "${wide# }"
# Every "build/pizzabox CMD ..." line of the README (with its continuation
# lines): each --option must be in CMD --help.
README=$(dirname "$0")/../../README.md
awk '{ line = line $0 }
     /\\$/ { sub(/\\$/, "", line); next }
     { print line; line = "" }' "$README" | grep 'build/pizzabox [a-z]' |
    sed 's/^.*build\/pizzabox \([a-z-]*\)/\1/' | while read -r cmd rest; do
        for o in $(printf '%s\n' "$rest" | sed 's/#.*//' | grep -o -- '--[a-z][a-z-]*'); do
            [ "$o" = "--help" ] || echo "$cmd $o"
        done
    done | sort -u >"$T/readme-options"
missing=""
while read -r cmd o; do
    grep -q -- "\\[*$o[] =]" "$T/help-$cmd" 2>/dev/null || grep -q -- "$o\$" "$T/help-$cmd" 2>/dev/null ||
        missing="$missing $cmd $o;"
done <"$T/readme-options"
check "--help of each command lists every option the README uses with it ($(awk 'END { print NR }' "$T/readme-options"))" \
    "$([ -s "$T/readme-options" ] || echo 'no options read from the README')" "${missing# }"
# --game delivery and its options work in play, demo, sim, selfplay and bench.
missing=""
for cmd in play demo sim selfplay bench; do
    for o in --game --players --seed --deck --board --expansion --extra-cheese --coop --difficulty; do
        grep -q -- "$o" "$T/help-$cmd" || missing="$missing $cmd $o;"
    done
done
check "--help of play, demo, sim, selfplay and bench lists every game option" "${missing# }"

# ---- The commands printed after a game really do it again ----

# again DESC SAVED WANT: run the command ($again, the words after "pizzabox")
# printed in the output kept as SAVED; it must be the pattern WANT and print
# the same game.
again() {
    set -f
    run $again
    set +f
    check "$1" "$([ "$rc" -eq 0 ] || echo "exit status $rc")" \
        "$(case $again in $3) ;; *) echo "the command: $again" ;; esac)" \
        "$(cmp -s "$T/out" "$T/$2" || echo 'a different game')"
}
run demo --game delivery --players 3 --expansion --extra-cheese --bots random --seed 9
keep demo-d
again=$(command_after 'this plays it again:' "$T/demo-d")
again "demo: the \"plays it again\" command names every option and plays the same game" demo-d \
    'demo --game delivery --players 3 --expansion --extra-cheese --bots random --seed 9'
run play --game delivery --players 2 --seats random,random --extra-cheese
keep play-d
again=$(command_after 'this deals it again:' "$T/play-d")
again "play: the \"deals it again\" command (its seed drawn at random) plays the same game" play-d \
    'play --game delivery --players 2 --extra-cheese --seats random,random --seed [0-9]*'
check "play and demo: the command lines fit 80 columns" \
    "$(cat "$T/play-d" "$T/demo-d" | awk 'length > 80 { print "a line of " length " columns: " $0; exit }')"

# ---- score of a record, replay --moves ----

run score "$first_record"
expect_bad "score given a game record: says to use replay" "is a game record, not a table: pizzabox replay"
run replay --moves "$first_record"
keep moves
nmoves=$(grep -c -E '^ *[0-9]+  [^:]+: ' "$T/moves")
nact=$(tr -d ' \n' <"$first_record" | sed 's/.*"actions":\[//' | grep -o '","' | awk 'END { print NR + 1 }')
check "replay --moves: one numbered line per action, then the Guest Check and the winner" \
    "$([ "$rc" -eq 0 ] || echo "exit status $rc")" \
    "$([ "$nmoves" -eq "$nact" ] || echo "$nmoves move lines for $nact actions")" \
    "$(grep -q '^GUEST CHECK' "$T/moves" || echo 'no Guest Check')" \
    "$(sed -n '$p' "$T/moves" | grep -E -q '^(Winner|Shared win): ' || echo "last line: $(sed -n '$p' "$T/moves")")"
run demo --game theory --seed 4 --bots random --record "$T/theory.json"
run replay --moves "$T/theory.json"
check "replay --moves: Pizza Theory's cuts are secret until the reveal (as a spectator sees them)" \
    "$([ "$rc" -eq 0 ] || echo "exit status $rc")" \
    "$(grep -q -E '^ *[0-9]+  .*: cut \?$' "$T/out" || echo 'no "cut ?" line')" \
    "$(! grep -q -E '^ *[0-9]+  .*: cut [0-9]' "$T/out" || echo 'a cut is shown before its reveal')" \
    "$(grep -q "^      Round 1's cuts revealed: " "$T/out" || echo 'no reveal')"

run frobnicate
if [ "$rc" -eq 2 ] && [ ! -s "$T/out" ] && grep -q 'frobnicate' "$T/err"; then
    ok "unknown command: exit 2 naming it"
else
    not_ok "unknown command: exit 2 naming it" "exit status $rc"
fi
run score --frobnicate "$T/spec.json"
expect_bad "score: unknown option" '--frobnicate'
run selfplay --games 2 --frobnicate
expect_bad "selfplay: unknown option" '--frobnicate'
run bench --frobnicate
expect_bad "bench: unknown option" '--frobnicate'
run demo --seed 5 --frobnicate
expect_bad "demo: unknown option" '--frobnicate'
run selfplay --players 9
expect_bad "selfplay: --players out of range" '9'
run selfplay --seed banana
expect_bad "selfplay: --seed not a number" 'banana'

summary cli
