#!/bin/sh
# Speed of a game engine: random games per second for every player count,
# and instructions per random game (setup and scoring included) counted by
# callgrind, for the usual table (New York Slice: 4 players, with its budget;
# Pizza Theory: 3; New York Pizza Delivery: 4). The per-game figure is the
# difference of two runs divided by the difference in games, so process
# start-up is left out. GAMES sets the wall-clock run's games (a Delivery
# game is some 340 decisions: it defaults to 2,000 there).
#
#   sh bench/engine-speed.sh [build/pizzabox] [nyslice|theory|delivery]
set -eu
bin=${1:-build/pizzabox}
game=${2:-nyslice}
games=${GAMES:-200000}
small=2000
large=22000
case $game in
nyslice) counts="2 3 4 5 6" table=4 budget=25000 ;;
theory) counts="2 3" table=3 budget=0 ;;
delivery) counts="2 3 4" table=4 budget=0 games=${GAMES:-2000} small=10 large=60 ;;
*) echo "unknown game '$game'" >&2; exit 2 ;;
esac

echo "== wall clock, one thread"
for n in $counts; do
    "$bin" bench --game "$game" --players "$n" --games "$games"
done

if ! command -v valgrind >/dev/null 2>&1; then
    echo "valgrind is not installed: skipping the instruction count (apt-get install valgrind)"
    exit 0
fi
echo "== instructions per random $table-player game (callgrind)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
count() {
    valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.$1" "$bin" bench --game "$game" \
        --players "$table" --games "$1" >/dev/null 2>&1
    awk '/^summary:/ {print $2}' "$tmp/cg.$1"
}
a=$(count $small)
b=$(count $large)
echo "$a $b" | awk -v s=$small -v l=$large -v budget=$budget '{
    per = ($2 - $1) / (l - s)
    printf "%d instructions per game (%d games: %d, %d games: %d)", per, s, $1, l, $2
    if (budget > 0)
        printf "; budget %d: %s", budget, per <= budget ? "met" : "NOT MET"
    printf "\n"
}'
