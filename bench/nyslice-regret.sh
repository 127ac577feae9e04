#!/bin/sh
# Regret of the search levels against the exact last round of New York Slice
# (docs/perfect.md): the points per decision each loses to the solver's best
# move, with 95% intervals, at 3 and 4 players. Long: about an hour a player
# count for 2,000 rounds on one core (the Slicer's division is solved for 1 s).
#
#   sh bench/nyslice-regret.sh [build/pizzabox] [ROUNDS] [BOTS]
set -eu
bin=${1:-build/pizzabox}
rounds=${2:-2000}
bots=${3:-easy,hard,expert}
for players in 3 4; do
    "$bin" bench --regret --game nyslice --players "$players" --games "$rounds" --seed 23 --bots "$bots"
done
