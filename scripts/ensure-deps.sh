#!/bin/sh
# Install the Debian packages pizzabox builds with, if any are missing.
# As root it runs apt-get itself (update once, then install); otherwise it
# prints the exact command to run and fails.
set -eu
# Build: the compiler and libraries. Tests: tmux drives the terminal game.
packages="gcc make pkg-config libjansson-dev libcmocka-dev libedit-dev tmux"
if [ "${WITH_VALGRIND:-0}" = 1 ]; then packages="$packages valgrind"; fi

missing=""
for p in $packages; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
    echo "pizzabox needs these Debian packages:$missing" >&2
    echo "install them with:  sudo apt-get install -y$missing" >&2
    exit 1
fi
echo "installing missing packages:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq $missing
