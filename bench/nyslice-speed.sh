#!/bin/sh
# Speed of the New York Slice engine: random games per second for every
# player count, and instructions per random 4-player game (setup and scoring
# included) counted by callgrind. The per-game figure is the difference of two
# runs divided by the difference in games, so process start-up is left out.
#
#   sh bench/nyslice-speed.sh [build/pizzabox]
set -eu
bin=${1:-build/pizzabox}
games=${GAMES:-200000}

echo "== wall clock, one thread"
for n in 2 3 4 5 6; do
    "$bin" bench --game nyslice --players "$n" --games "$games"
done

if ! command -v valgrind >/dev/null 2>&1; then
    echo "valgrind is not installed: skipping the instruction count (apt-get install valgrind)"
    exit 0
fi
echo "== instructions per random 4-player game (callgrind)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
count() {
    valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.$1" "$bin" bench --game nyslice \
        --players 4 --games "$1" >/dev/null 2>&1
    awk '/^summary:/ {print $2}' "$tmp/cg.$1"
}
small=2000
large=22000
a=$(count $small)
b=$(count $large)
echo "$a $b" | awk -v s=$small -v l=$large '{
    per = ($2 - $1) / (l - s)
    printf "%d instructions per game (%d games: %d, %d games: %d); budget 25000: %s\n",
           per, s, $1, l, $2, per <= 25000 ? "met" : "NOT MET"
}'
