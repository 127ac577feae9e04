#!/bin/sh
# pizzabox sim and sim-merge, run for real: the figures do not depend on the
# number of threads, shards merged give the summary of one run, results files
# are in game order, progress stays off a pipe, bad arguments exit 2.
#   sh tests/cli/sim.sh build/pizzabox
set -u
bin=${1:-build/pizzabox}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/lib.sh"
sim() { "$bin" sim --game nyslice --players 4 --bots greedy,random,random,random --games 120 --seed 9 --rotate "$@"; }

sim --threads 1 --out "$T/one.jsonl" >"$T/one.txt" 2>"$T/one.err"
rc1=$?
sim --threads 2 --out "$T/two.jsonl" >"$T/two.txt" 2>"$T/two.err"
check "sim: runs and prints a summary" "$([ $rc1 -eq 0 ] || echo "exit $rc1")" \
    "$(grep -q 'Win share' "$T/one.txt" || echo 'no win-share table')" \
    "$(grep -q '^ *greedy ' "$T/one.txt" || echo 'no greedy row')" \
    "$(grep -q 'first mover' "$T/one.txt" || echo 'no first-mover row')" \
    "$(grep -q 'stuffed-crust' "$T/one.txt" || echo 'no Special rows')" \
    "$(grep -q '9 Pepperoni' "$T/one.txt" || echo 'no majority rows')" \
    "$(grep -q 'Game length' "$T/one.txt" || echo 'no game length')"
check "sim: 1 and 2 threads give the same summary and the same results file" \
    "$(cmp -s "$T/one.txt" "$T/two.txt" || echo 'summaries differ')" \
    "$(cmp -s "$T/one.jsonl" "$T/two.jsonl" || echo 'results files differ')"
check "sim: no progress bar when stderr is not a terminal" "$([ -s "$T/one.err" ] && echo 'stderr not empty')"
check "sim: results file has a header and one line per game, in order" \
    "$(head -n 1 "$T/one.jsonl" | grep -q '^{"sim":' || echo 'no header line')" \
    "$([ "$(wc -l <"$T/one.jsonl")" -eq 121 ] || echo "$(wc -l <"$T/one.jsonl") lines")" \
    "$(sed -n '2,$p' "$T/one.jsonl" | sed 's/^{"game":\([0-9]*\),.*/\1/' | awk '$1 != NR - 1 { print "game " $1 " on line " NR + 1; exit }')"
for i in 1 2 3; do sim --shard "$i/3" --out "$T/s$i.jsonl" >"$T/s$i.txt"; done
"$bin" sim-merge "$T/s3.jsonl" "$T/s1.jsonl" "$T/s2.jsonl" >"$T/merged.txt"
rcm=$?
check "sim-merge: three shards, merged in any order, give exactly the one-run summary" \
    "$([ $rcm -eq 0 ] || echo "exit $rcm")" "$(cmp -s "$T/merged.txt" "$T/one.txt" || echo 'summary differs')"
check "sim: shards cover the games once" \
    "$([ "$(cat "$T/s1.jsonl" "$T/s2.jsonl" "$T/s3.jsonl" | grep -vc '^{"sim"')" -eq 120 ] || echo 'not 120 games')"
"$bin" sim --players 4 --bots greedy,random,random,random --games 50 --seed 1 --threads 3 >"$T/x.txt"
sed -n '/by bot/,/by seat/p' "$T/x.txt" >"$T/bybot.txt"
check "sim: greedy beats random clearly" \
    "$(awk '/^  greedy/ { if ($2 + 0 < 60) print "greedy only " $2 }' "$T/bybot.txt")"
printf '{"sim":{"game":"nyslice"}}\n' >"$T/bad.jsonl"
"$bin" sim-merge "$T/bad.jsonl" >"$T/bad.out" 2>"$T/bad.err"
rcb=$?
check "sim-merge: a file that is not sim output exits 2 with one line" "$([ $rcb -eq 2 ] || echo "exit $rcb")" \
    "$([ "$(wc -l <"$T/bad.err")" -eq 1 ] || echo 'not one line on stderr')" "$([ -s "$T/bad.out" ] && echo 'stdout not empty')"
sed '3s/"totals":\[/"totals":["x",/' "$T/s1.jsonl" >"$T/broken.jsonl"
"$bin" sim-merge "$T/broken.jsonl" "$T/s2.jsonl" >/dev/null 2>"$T/broken.err"
rcx=$?
check "sim-merge: a damaged line is refused with its line number" "$([ $rcx -eq 2 ] || echo "exit $rcx")" \
    "$(grep -q 'line 3' "$T/broken.err" || echo "message: $(cat "$T/broken.err")")"
"$bin" sim-merge "$T/s1.jsonl" "$T/x.txt" >/dev/null 2>&1
check "sim-merge: results of another simulation are refused" "$([ $? -eq 2 ] || echo 'accepted')"
"$bin" sim-merge "$T/s1.jsonl" "$T/s1.jsonl" >/dev/null 2>"$T/twice.err"
check "sim-merge: the same shard twice is refused" "$([ $? -eq 2 ] || echo 'accepted')" \
    "$(grep -q 'given twice' "$T/twice.err" || echo "message: $(cat "$T/twice.err")")"
head -n 20 "$T/s2.jsonl" >"$T/short.jsonl"
"$bin" sim-merge "$T/s1.jsonl" "$T/short.jsonl" >/dev/null 2>"$T/short.err"
check "sim-merge: an incomplete shard is refused" "$([ $? -eq 2 ] || echo 'accepted')" \
    "$(grep -q 'incomplete' "$T/short.err" || echo "message: $(cat "$T/short.err")")"
: >"$T/empty.jsonl"
"$bin" sim-merge "$T/empty.jsonl" >/dev/null 2>&1
check "sim-merge: an empty file is refused" "$([ $? -eq 2 ] || echo 'accepted')"
for args in "--bots nosuch" "--shard 4/3" "--games 0" "--threads x" "--frobnicate"; do
    # shellcheck disable=SC2086
    "$bin" sim --players 4 --games 5 $args >/dev/null 2>"$T/e.err"
    rc=$?
    check "sim: bad argument '$args' exits 2 with one line" "$([ $rc -eq 2 ] || echo "exit $rc")" \
        "$([ "$(wc -l <"$T/e.err")" -eq 1 ] || echo 'not one line')"
done
summary sim
