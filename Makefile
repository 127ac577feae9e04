# pizzabox -- build, test and run. `make help` lists the targets.
#
#   make          build build/pizzabox and build/libpizzabox.a
#   make run      build and serve tables on http://localhost:8080/ (web client)
#   make test     every test; unit, CLI and protocol tests also under ASan+UBSan,
#                 the protocol tests also against a TSan server and with the
#                 store in PostgreSQL, whole games through every front end
#                 under valgrind
#   make bench    the speed benchmarks (bench/)

CC ?= cc
BUILD := build
CSTD := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
WARN := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wpointer-arith \
        -Wformat=2 -Wno-format-nonliteral -Werror
OPT ?= -O2 -g
# Link-time optimisation for the release build only (the engine's hot path
# crosses files: interface -> engine -> scoring).
LTO ?= -flto=auto
AR := gcc-ar
# libpq's header lives in a directory of its own (Debian's, named in case
# libpq-dev is only installed by this very make, after this line is read).
DEPS_CFLAGS := $(shell pkg-config --cflags jansson 2>/dev/null) \
               $(shell pkg-config --cflags libpq 2>/dev/null || echo -I/usr/include/postgresql)
DEPS_LIBS := $(shell pkg-config --libs jansson 2>/dev/null || echo -ljansson) -lsqlite3 -lpq -lwebsockets -lev -lcrypto -lm -lpthread
APP_LIBS := -ledit
# The program itself (not the sanitizer builds, which bring their own
# allocator) uses jemalloc: the server makes and frees thousands of small
# JSON values a second, where glibc's malloc took a quarter of its time.
# Named first, and kept though nothing names it, so that it is the malloc.
RELEASE_LIBS := -Wl,--no-as-needed -ljemalloc -Wl,--as-needed
# The engines count toppings and slices with popcount: one instruction on
# every x86-64 CPU since 2008, a library call without this flag.
ARCH := $(if $(filter x86_64,$(shell uname -m)),-mpopcnt)
CFLAGS_ALL = $(CSTD) $(WARN) $(OPT) $(ARCH) $(DEPS_CFLAGS) -MMD -MP
SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
# The server's threads (bot workers beside the libwebsockets loop) under
# ThreadSanitizer: a separate build, only the server's protocol tests use it.
TSAN := -fsanitize=thread -fno-omit-frame-pointer
SAN_ENV := ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 LSAN_OPTIONS=suppressions=$(abspath tests/lsan.supp) UBSAN_OPTIONS=print_stacktrace=1

LIB_SRC := $(wildcard core/*.c) $(wildcard games/*/*.c) $(wildcard ai/*.c) $(wildcard server/*.c)
APP_SRC := $(wildcard app/*.c)
DATA_SRC := data/embedded.S
DATA_FILES := $(wildcard data/*/*.json) docs/nyslice-rules.md docs/theory-rules.md docs/delivery-rules.md
TEST_SRC := $(wildcard tests/unit/test_*.c)
TESTS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(TEST_SRC))
ASAN_TESTS := $(patsubst tests/unit/%.c,$(BUILD)/asan/tests/%,$(TEST_SRC))
FUZZ_SRC := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BIN := $(patsubst tests/fuzz/%.c,$(BUILD)/fuzz/%,$(FUZZ_SRC))

LIB_OBJ := $(patsubst %.c,$(BUILD)/obj/%.o,$(LIB_SRC)) $(BUILD)/obj/data/embedded.o
APP_OBJ := $(patsubst %.c,$(BUILD)/obj/%.o,$(APP_SRC))
# The front ends without main(), so tests can drive them too.
UI_OBJ := $(filter-out $(BUILD)/obj/app/main.o,$(APP_OBJ))
ASAN_UI_OBJ := $(patsubst $(BUILD)/obj/%,$(BUILD)/asan/obj/%,$(UI_OBJ))
ASAN_LIB_OBJ := $(patsubst %.c,$(BUILD)/asan/obj/%.o,$(LIB_SRC)) $(BUILD)/asan/obj/data/embedded.o
ASAN_APP_OBJ := $(patsubst $(BUILD)/obj/%,$(BUILD)/asan/obj/%,$(APP_OBJ))
TSAN_OBJ := $(patsubst %.c,$(BUILD)/tsan/obj/%.o,$(LIB_SRC) $(APP_SRC)) $(BUILD)/asan/obj/data/embedded.o
CLI_TESTS := $(filter-out tests/cli/lib.sh,$(wildcard tests/cli/*.sh))

DEPS_STAMP := $(BUILD)/.deps-installed
TEST_DEPS_STAMP := $(BUILD)/.test-deps-installed
BROWSER_MODULES := tests/browser/node_modules/.package-lock.json

.PHONY: all run test test-build test-lane-local test-lane-servers unit-test asan-test asan-unit-test asan-cli-test \
        asan-protocol-test tsan-test valgrind-test cli-test server-test server-protocol-test attack-test server-test-pg browser-test fuzz fuzz-quick bench bench-deps clean help deps
.SECONDARY:
all: $(BUILD)/pizzabox

help:
	@sed -n '1,9p' Makefile

deps: $(DEPS_STAMP)
$(DEPS_STAMP): scripts/ensure-deps.sh
	@mkdir -p $(BUILD)
	@sh scripts/ensure-deps.sh
	@touch $@

$(TEST_DEPS_STAMP): scripts/ensure-deps.sh | $(DEPS_STAMP)
	@sh scripts/ensure-deps.sh test
	@touch $@

# playwright-core from the npm registry, pinned by the lock file; it drives
# Debian's Chromium (no browser download).
$(BROWSER_MODULES): tests/browser/package.json tests/browser/package-lock.json | $(TEST_DEPS_STAMP)
	@cd tests/browser && npm ci --no-audit --no-fund --loglevel=error

# The benchmarks' WebSocket client (bench/load.mjs): lighter than Node's own.
bench-deps: bench/node_modules/.package-lock.json
bench/node_modules/.package-lock.json: bench/package.json bench/package-lock.json | $(TEST_DEPS_STAMP)
	@cd bench && npm ci --no-audit --no-fund --loglevel=error

$(BUILD)/obj/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@echo "CC $<"
	@$(CC) $(CFLAGS_ALL) $(LTO) -c $< -o $@

$(BUILD)/asan/obj/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@echo "CC (asan) $<"
	@$(CC) $(CFLAGS_ALL) $(SAN) -c $< -o $@

$(BUILD)/tsan/obj/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@echo "CC (tsan) $<"
	@$(CC) $(CFLAGS_ALL) $(TSAN) -c $< -o $@

$(BUILD)/obj/data/embedded.o $(BUILD)/asan/obj/data/embedded.o: $(DATA_SRC) $(DATA_FILES) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@$(CC) -c $(DATA_SRC) -o $@

$(BUILD)/libpizzabox.a: $(LIB_OBJ)
	@rm -f $@ && $(AR) rcs $@ $^

$(BUILD)/asan/libpizzabox.a: $(ASAN_LIB_OBJ)
	@rm -f $@ && $(AR) rcs $@ $^

$(BUILD)/pizzabox: $(APP_OBJ) $(BUILD)/libpizzabox.a
	@echo "LD $@"
	@$(CC) $(OPT) $(LTO) $(RELEASE_LIBS) $^ $(DEPS_LIBS) $(APP_LIBS) -o $@

$(BUILD)/asan/pizzabox: $(ASAN_APP_OBJ) $(BUILD)/asan/libpizzabox.a
	@echo "LD $@"
	@$(CC) $(OPT) $(SAN) $^ $(DEPS_LIBS) $(APP_LIBS) -o $@

$(BUILD)/tsan/pizzabox: $(TSAN_OBJ)
	@echo "LD $@"
	@$(CC) $(OPT) $(TSAN) $^ $(DEPS_LIBS) $(APP_LIBS) -o $@

$(BUILD)/tests/%: $(BUILD)/obj/tests/unit/%.o $(BUILD)/obj/tests/unit/support.o $(UI_OBJ) $(BUILD)/libpizzabox.a
	@mkdir -p $(dir $@)
	@echo "LD $@"
	@$(CC) $(OPT) $(LTO) $^ $(DEPS_LIBS) $(APP_LIBS) -lcmocka -o $@

$(BUILD)/asan/tests/%: $(BUILD)/asan/obj/tests/unit/%.o $(BUILD)/asan/obj/tests/unit/support.o $(ASAN_UI_OBJ) $(BUILD)/asan/libpizzabox.a
	@mkdir -p $(dir $@)
	@echo "LD $@"
	@$(CC) $(OPT) $(SAN) $^ $(DEPS_LIBS) $(APP_LIBS) -lcmocka -o $@

run: $(BUILD)/pizzabox
	@mkdir -p var
	$(BUILD)/pizzabox serve --port 8080 --db var/pizzabox.db

# Every suite, on both cores: first everything they run is built, then two
# lanes of suites run side by side, each suite after the other in its lane
# (the suites with a browser or many servers in one, the rest in the other);
# each lane's output shows when the lane ends. The attacks, which time the
# server's answers, run last, alone.
test:
	@$(MAKE) --no-print-directory -j2 test-build
	@$(MAKE) --no-print-directory -j2 --output-sync=recurse test-lane-local test-lane-servers
	@$(MAKE) --no-print-directory attack-test
	@echo "all test suites passed"

test-build: $(TESTS) $(ASAN_TESTS) $(BUILD)/pizzabox $(BUILD)/asan/pizzabox $(BUILD)/tsan/pizzabox $(FUZZ_BIN) \
            $(TEST_DEPS_STAMP) $(BROWSER_MODULES)

LANE_LOCAL := unit-test asan-unit-test asan-cli-test cli-test valgrind-test asan-protocol-test server-test-pg fuzz-quick
LANE_SERVERS := tsan-test server-protocol-test browser-test

test-lane-local:
	@for t in $(LANE_LOCAL); do $(MAKE) --no-print-directory $$t || exit 1; done

test-lane-servers:
	@for t in $(LANE_SERVERS); do $(MAKE) --no-print-directory $$t || exit 1; done

unit-test: $(TESTS)
	@sh tests/run-unit.sh $(TESTS)

# The unit tests, the CLI scripts and the protocol tests again, on a binary
# built with ASan+UBSan: a finding (a leak at exit included) fails them.
asan-test: asan-unit-test asan-cli-test asan-protocol-test

asan-unit-test: $(ASAN_TESTS)
	@echo "== unit tests under ASan+UBSan"
	@$(SAN_ENV) sh tests/run-unit.sh $(ASAN_TESTS)

asan-cli-test: $(BUILD)/asan/pizzabox $(TEST_DEPS_STAMP)
	@echo "== CLI tests under ASan+UBSan"
	@for t in $(CLI_TESTS); do $(SAN_ENV) sh $$t $(BUILD)/asan/pizzabox || exit 1; done

asan-protocol-test: $(BUILD)/asan/pizzabox $(TEST_DEPS_STAMP)
	@echo "== protocol tests under ASan+UBSan"
	@$(SAN_ENV) PIZZABOX_BIN=$(abspath $(BUILD)/asan/pizzabox) node --experimental-websocket --test tests/server/

tsan-test: $(BUILD)/tsan/pizzabox $(TEST_DEPS_STAMP)
	@echo "== protocol tests and a short load run against a TSan server"
	@TSAN_OPTIONS=halt_on_error=0 PIZZABOX_BIN=$(abspath $(BUILD)/tsan/pizzabox) node --experimental-websocket --test tests/server/
	@TSAN_OPTIONS=halt_on_error=0 PIZZABOX_BIN=$(abspath $(BUILD)/tsan/pizzabox) node --experimental-websocket bench/load.mjs 40 10 200

valgrind-test: $(BUILD)/pizzabox $(TEST_DEPS_STAMP)
	@sh tests/valgrind/run.sh $(BUILD)/pizzabox

cli-test: $(BUILD)/pizzabox $(TEST_DEPS_STAMP)
	@for t in $(CLI_TESTS); do sh $$t $(BUILD)/pizzabox || exit 1; done

# The server's protocol with a real WebSocket client (Node's), then the
# attacks of bench/abuse.mjs (about 15 seconds; each must hold).
server-test: server-protocol-test attack-test

server-protocol-test: $(BUILD)/pizzabox $(TEST_DEPS_STAMP)
	@node --experimental-websocket --test tests/server/

attack-test: $(BUILD)/pizzabox $(TEST_DEPS_STAMP)
	@echo "== attacks (bench/abuse.mjs)"
	@node --experimental-websocket bench/abuse.mjs

# The protocol tests again with the server's store in PostgreSQL: a
# PostgreSQL 15 of their own in a temporary directory (tests/pg/with-postgres.sh),
# a database for each server; then several servers on one database, behind
# HAProxy, one of them killed mid-game (about two minutes).
server-test-pg: $(BUILD)/pizzabox $(TEST_DEPS_STAMP) $(BROWSER_MODULES)
	@echo "== protocol tests with the store in PostgreSQL"
	@sh tests/pg/with-postgres.sh node --experimental-websocket --test tests/server/protocol.test.mjs tests/server/theory.test.mjs \
		tests/server/analysis.test.mjs tests/server/multinode.test.mjs tests/browser/failover.test.mjs

browser-test: $(BUILD)/pizzabox $(BROWSER_MODULES)
	@node --experimental-websocket --test tests/browser/

# ---- Fuzzing (clang libFuzzer with ASan+UBSan): tests/fuzz/fuzz_*.c ----
FUZZ_CFLAGS := $(CSTD) -g -O1 $(DEPS_CFLAGS) -fsanitize=fuzzer-no-link,address,undefined \
               -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_LIB_OBJ := $(patsubst %.c,$(BUILD)/fuzz/obj/%.o,$(LIB_SRC)) $(BUILD)/asan/obj/data/embedded.o
FUZZ_SECONDS ?= 60
FUZZ_QUICK_SECONDS ?= 4

$(BUILD)/fuzz/obj/%.o: %.c | $(TEST_DEPS_STAMP)
	@mkdir -p $(dir $@)
	@echo "CC (fuzz) $<"
	@clang $(FUZZ_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/fuzz/%: tests/fuzz/%.c $(FUZZ_LIB_OBJ)
	@mkdir -p $(dir $@)
	@echo "LD $@"
	@clang $(FUZZ_CFLAGS) -fsanitize=fuzzer $^ $(DEPS_LIBS) -o $@

# The engine protocol's decoder lives with the command (app/engine.c).
$(BUILD)/fuzz/fuzz_engine_protocol: $(BUILD)/fuzz/obj/app/engine.o

# Each target from its committed seed corpus, for FUZZ_SECONDS seconds (new
# finds go to build/fuzz/corpus, not into the repository).
fuzz: $(FUZZ_BIN)
	@sh tests/fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_BIN)

fuzz-quick: $(FUZZ_BIN)
	@sh tests/fuzz/run.sh $(FUZZ_QUICK_SECONDS) $(FUZZ_BIN)

bench: $(BUILD)/pizzabox
	@sh bench/engine-speed.sh $(BUILD)/pizzabox nyslice
	@sh bench/engine-speed.sh $(BUILD)/pizzabox theory
	@sh bench/engine-speed.sh $(BUILD)/pizzabox delivery

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
