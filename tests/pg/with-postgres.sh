#!/bin/sh
# Run a command beside a PostgreSQL 15 of its own (Debian's postgresql-15):
# a new cluster in a temporary directory, reached only through a unix
# socket in that directory (no TCP port to collide with), stopped and
# removed when the command ends. The command finds it in
# PIZZABOX_TEST_DB, a URL of its `postgres` database (the protocol tests
# make a database of their own in it for each server file).
#   sh tests/pg/with-postgres.sh node --experimental-websocket --test tests/server/
# PostgreSQL refuses to run as root: as root, its commands run as the
# `postgres` user the package made.
set -eu
PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
if [ ! -x "$PG_BIN/initdb" ]; then
    echo "with-postgres: no $PG_BIN/initdb: install postgresql-15 (sh scripts/ensure-deps.sh test)" >&2
    exit 1
fi
dir=$(mktemp -d /tmp/pizzabox-pg-XXXXXX)
as_pg() {
    if [ "$(id -u)" = 0 ]; then (cd "$dir" && runuser -u postgres -- "$@"); else (cd "$dir" && "$@"); fi
}
[ "$(id -u)" = 0 ] && chown postgres "$dir"
stop() {
    as_pg "$PG_BIN/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$dir"
}
trap stop EXIT
trap 'exit 130' INT TERM
# A test cluster: trust on its own socket only; no fsync (PG_FSYNC=on for
# a benchmark), since the tests kill pizzabox, never PostgreSQL: what they
# check is that pizzabox confirms nothing PostgreSQL has not committed.
as_pg "$PG_BIN/initdb" -D "$dir/data" -A trust -U pizzabox -E UTF8 --no-sync >"$dir/initdb.log" 2>&1 ||
    { cat "$dir/initdb.log" >&2; exit 1; }
as_pg "$PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
    -o "-c listen_addresses= -k $dir -c fsync=${PG_FSYNC:-off} -c max_connections=200" start >/dev/null ||
    { cat "$dir/server.log" >&2; exit 1; }
export PIZZABOX_TEST_DB="postgresql://pizzabox@/postgres?host=$dir"
export PIZZABOX_TEST_PSQL="$PG_BIN/psql"
"$@"
