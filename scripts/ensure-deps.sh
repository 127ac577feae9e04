#!/bin/sh
# Install the Debian packages pizzabox needs, if any are missing.
#   sh scripts/ensure-deps.sh          what the build needs
#   sh scripts/ensure-deps.sh test     and what the tests need
# As root it runs apt-get itself (update once, then install); otherwise it
# prints the exact command to run and fails.
set -eu
packages="gcc make pkg-config libjansson-dev libcmocka-dev libedit-dev libsqlite3-dev libpq-dev libwebsockets-dev libwebsockets-evlib-ev libev-dev libjemalloc-dev libssl-dev"
if [ "${1:-}" = test ]; then
    # tmux drives the terminal game; Chromium and Node run the browser tests;
    # clang builds the fuzzers; valgrind checks whole games for leaks;
    # python3 runs the engine protocol's example client; PostgreSQL 15
    # stores the server's tables in the server-test-pg tests, with HAProxy
    # in front of several servers.
    packages="$packages tmux chromium clang libclang-rt-14-dev valgrind python3 postgresql-15 haproxy"
fi

missing=""
for p in $packages; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done
# Node may come from elsewhere than Debian: only its commands are checked.
if [ "${1:-}" = test ] && ! { command -v node && command -v npm; } >/dev/null 2>&1; then
    missing="$missing nodejs npm"
fi
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
