#!/bin/sh
# Strength of one bot against three copies of another in 4-player New York
# Slice, seats rotated so every seat is played equally: the win share of the
# tested bot with a Wilson 95% interval (25% is parity). A shared win counts
# as a share. (bench/bots.sh does this for any game and player count.)
#
#   sh bench/nyslice-bots.sh [build/pizzabox] [BOT] [OPPONENT] [GAMES]
#   sh bench/nyslice-bots.sh build/pizzabox greedy random 2000
set -eu
exec sh "$(dirname "$0")/bots.sh" "${1:-build/pizzabox}" nyslice 4 "${2:-greedy}" "${3:-random}" "${4:-2000}"
