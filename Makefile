# rqpath — where the scheduler put each task, and why.
# GNU make. `make` builds, `make run` audits the bundled fixture (TUI on a terminal),
# `make check` builds with and without ASan+UBSan and runs every test tier.

VERSION := 0.1.0
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
DESTDIR ?=

CC ?= gcc
PKG_CONFIG ?= pkg-config
# The library (src/) needs no terminal; only the views (views/) link curses.  rqpath
# reads trace.dat itself (src/input/tracedat.c: zstd, zlib); libtracecmd is only the tests'
# oracle (tests/helpers).
LIB_PKGS := libtracefs libtraceevent libbsd libzstd zlib
PKGS := $(LIB_PKGS) ncursesw
TEST_PKGS := $(LIB_PKGS) libtracecmd

ifeq ($(V),1)
Q :=
else
Q := @
endif

CFLAGS ?= -O2 -g
# The release build (rqpath, librqpath.a, the test helpers) on top of CFLAGS: -O3, and
# link-time optimisation so the engine's files (model, classify, findings, delay) inline
# into each other; callgrind, audit of a 217k-event hackbench trace: 973 -> ~860
# instructions per event.  The sanitizer build (make check) keeps CFLAGS alone.
# RELEASE_OPT= turns it off.
RELEASE_OPT ?= -O3 -flto=auto
WARNINGS := -Wall -Wextra -Wno-unused-parameter
ifeq ($(WERROR),1)
WARNINGS += -Werror
endif
# pkg-config may fail before the packages are installed; deps.stamp installs them first.
LIB_PKG_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(LIB_PKGS) 2>/dev/null)
PKG_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
LIB_PKG_LIBS = $(shell $(PKG_CONFIG) --libs $(LIB_PKGS) 2>/dev/null)
PKG_LIBS = $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null)
TEST_PKG_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(TEST_PKGS) 2>/dev/null)
TEST_PKG_LIBS = $(shell $(PKG_CONFIG) --libs $(TEST_PKGS) 2>/dev/null)
BASE_CFLAGS = -std=gnu11 $(WARNINGS) $(CFLAGS) -D_GNU_SOURCE \
	-DRQPATH_VERSION='"$(VERSION)"' -MMD -MP
# Layers, each compiled seeing only its own headers and those of the layers below it
# (tests/golden/t_layers.sh checks the includes too):
#   src/base/    the event, the tables (events.def, findings.def), CPU sets, escaping
#   src/input/   sources: trace.dat reader and writer, the decoder, the pump, tracefs
#   src/engine/  the analysis: model, classifier, judges, queue delay
#   src/output/  what renders the engine's facts: reports, HTML, diff, teach
#   views/       the TUI: the library's headers and curses
#   src/cli/     the commands: the library's headers and the TUI's entry points (tui_main.h)
# The library (build/librqpath.a) is src/ but src/cli/.
LAYERS := base input engine output
LAYER_INC = $(foreach l,$(1),-Isrc/$(l))
base_INC := $(call LAYER_INC,base)
input_INC := $(call LAYER_INC,base input)
engine_INC := $(call LAYER_INC,base input engine)
output_INC := $(call LAYER_INC,$(LAYERS))
LIB_INC := $(output_INC)
LIB_CFLAGS = $(BASE_CFLAGS) $(LIB_PKG_CFLAGS) $(LIB_INC)
VIEW_CFLAGS = $(BASE_CFLAGS) $(PKG_CFLAGS) $(LIB_INC) -Iviews
CLI_CFLAGS = $(BASE_CFLAGS) $(LIB_PKG_CFLAGS) $(LIB_INC) -Isrc/cli -Iviews
layer_of = $(word 2,$(subst /, ,$(1)))
layer_cflags = $(if $(filter views/%,$(1)),$(VIEW_CFLAGS),$(if $(filter src/cli/%,$(1)),$(CLI_CFLAGS),$(BASE_CFLAGS) $(LIB_PKG_CFLAGS) $($(call layer_of,$(1))_INC)))
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined

LIB_SRC := $(foreach l,$(LAYERS),$(wildcard src/$(l)/*.c))
CLI_SRC := $(wildcard src/cli/*.c)
VIEW_SRC := $(wildcard views/*.c)
BUILD ?= build

define objs
$(patsubst %.c,$(1)/%.o,$(2))
endef

LIB_OBJ := $(call objs,$(BUILD),$(LIB_SRC))
CLI_OBJ := $(call objs,$(BUILD),$(CLI_SRC))
VIEW_OBJ := $(call objs,$(BUILD),$(VIEW_SRC))
ASAN_LIB_OBJ := $(call objs,$(BUILD)/asan,$(LIB_SRC))
ASAN_CLI_OBJ := $(call objs,$(BUILD)/asan,$(CLI_SRC))
ASAN_VIEW_OBJ := $(call objs,$(BUILD)/asan,$(VIEW_SRC))

UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(patsubst tests/unit/%.c,$(BUILD)/asan/tests/%,$(UNIT_SRC))
TEST_HELPER_SRC := $(wildcard tests/helpers/*.c)
TEST_HELPER_BIN := $(patsubst tests/helpers/%.c,$(BUILD)/tests/%,$(TEST_HELPER_SRC))

all: $(BUILD)/deps.stamp rqpath

$(BUILD)/deps.stamp: tests/install-deps.sh
	$(Q)mkdir -p $(BUILD)
	$(Q)sh tests/install-deps.sh build
	$(Q)touch $@

$(BUILD)/test-deps.stamp: tests/install-deps.sh
	$(Q)mkdir -p $(BUILD)
	$(Q)sh tests/install-deps.sh test
	$(Q)touch $@

rqpath: $(BUILD)/rqpath
	$(Q)cp $< $@.tmp && mv -f $@.tmp $@

# The command line, then the views, then the library: each depends only on those after it.
$(BUILD)/rqpath: $(CLI_OBJ) $(BUILD)/librqpath-views.a $(BUILD)/librqpath.a | $(BUILD)/deps.stamp
	@echo "  LINK    $@"
	$(Q)$(CC) $(CFLAGS) $(RELEASE_OPT) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) -lm

$(BUILD)/librqpath.a: $(LIB_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/librqpath-views.a: $(VIEW_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/asan/rqpath: $(ASAN_CLI_OBJ) $(BUILD)/asan/librqpath-views.a $(BUILD)/asan/librqpath.a
	@echo "  LINK    $@"
	$(Q)$(CC) $(CFLAGS) $(SAN_FLAGS) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) -lm

$(BUILD)/asan/librqpath.a: $(ASAN_LIB_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/asan/librqpath-views.a: $(ASAN_VIEW_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/asan/%.o: %.c | $(BUILD)/deps.stamp
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) $(call layer_cflags,$<) $(SAN_FLAGS) -c -o $@ $<

$(BUILD)/%.o: %.c | $(BUILD)/deps.stamp
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) $(call layer_cflags,$<) $(RELEASE_OPT) -c -o $@ $<

# Unit tests see the library alone: its headers, its archive, its packages.
$(BUILD)/asan/tests/%: tests/unit/%.c $(BUILD)/asan/librqpath.a | $(BUILD)/test-deps.stamp
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) $(LIB_CFLAGS) $(SAN_FLAGS) -Itests/unit -o $@ $< $(BUILD)/asan/librqpath.a \
		$(LIB_PKG_LIBS) -lcmocka -lm

# Adding a finding is a row in findings.def and its judge: test_fifth_finding links a
# library built with findings.def's test-only fifth row (RQ_TEST_FIFTH_FINDING), whose
# judge is in the test; every table, column and legend must grow with the row alone.
FIFTH_LIB_OBJ := $(call objs,$(BUILD)/fifth,$(LIB_SRC))
$(BUILD)/fifth/%.o: %.c | $(BUILD)/deps.stamp
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) $(call layer_cflags,$<) $(SAN_FLAGS) -DRQ_TEST_FIFTH_FINDING -c -o $@ $<

$(BUILD)/fifth/librqpath.a: $(FIFTH_LIB_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/asan/tests/test_fifth_finding: tests/unit/test_fifth_finding.c $(BUILD)/fifth/librqpath.a \
		| $(BUILD)/test-deps.stamp
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) $(LIB_CFLAGS) $(SAN_FLAGS) -DRQ_TEST_FIFTH_FINDING -Itests/unit -o $@ $< \
		$(BUILD)/fifth/librqpath.a $(LIB_PKG_LIBS) -lcmocka -lm

# Unit tests of the command line's pieces (tests/unit/test_cli_*.c) link those too.
CLI_UNIT_OBJ := $(BUILD)/asan/src/cli/opts.o
$(BUILD)/asan/tests/test_cli_%: tests/unit/test_cli_%.c $(CLI_UNIT_OBJ) $(BUILD)/asan/librqpath.a \
		| $(BUILD)/test-deps.stamp
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) $(CLI_CFLAGS) $(SAN_FLAGS) -Itests/unit -o $@ $< $(CLI_UNIT_OBJ) \
		$(BUILD)/asan/librqpath.a $(LIB_PKG_LIBS) -lcmocka -lm

# Unit tests of the TUI's pieces (tests/unit/test_views_*.c) link the views' archive.
$(BUILD)/asan/tests/test_views_%: tests/unit/test_views_%.c $(BUILD)/asan/librqpath-views.a \
		$(BUILD)/asan/librqpath.a | $(BUILD)/test-deps.stamp
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) $(VIEW_CFLAGS) $(SAN_FLAGS) -Itests/unit -o $@ $< $(BUILD)/asan/librqpath-views.a \
		$(BUILD)/asan/librqpath.a $(PKG_LIBS) -lcmocka -lm

# Helpers may use the library and libtracecmd (the oracle of tests/golden/t_reader_diff.sh).
$(BUILD)/tests/%: tests/helpers/%.c $(BUILD)/librqpath.a | $(BUILD)/test-deps.stamp
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) $(LIB_CFLAGS) $(RELEASE_OPT) $(TEST_PKG_CFLAGS) -o $@ $< $(BUILD)/librqpath.a \
		$(TEST_PKG_LIBS) -lm

# The main job on the bundled fixture: the TUI when stdout is a terminal, else the audit.
RUN_FIXTURE ?= fixtures/spawn.dat
run: all
	$(Q)if [ -t 1 ] && ./rqpath help replay >/dev/null 2>&1 && [ -z "$$CI" ]; then \
		./rqpath replay $(RUN_FIXTURE); \
	else \
		./rqpath audit $(RUN_FIXTURE); status=$$?; [ $$status -le 1 ]; \
	fi

check: $(BUILD)/test-deps.stamp
	$(Q)$(MAKE) --no-print-directory WERROR=1 all
	$(Q)$(MAKE) --no-print-directory WERROR=1 $(BUILD)/asan/rqpath $(UNIT_BIN) $(TEST_HELPER_BIN)
	$(Q)RQPATH=$(CURDIR)/$(BUILD)/asan/rqpath RQPATH_PLAIN=$(CURDIR)/rqpath \
		RQPATH_BUILD=$(CURDIR)/$(BUILD) sh tests/run.sh

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man7
	install -m 0755 rqpath $(DESTDIR)$(BINDIR)/rqpath
	install -m 0644 man/rqpath.1 $(DESTDIR)$(MANDIR)/man1/rqpath.1
	install -m 0644 man/rqpath-paths.7 $(DESTDIR)$(MANDIR)/man7/rqpath-paths.7

clean:
	rm -rf $(BUILD) rqpath

# Benchmarks (issue: performance): records a large trace and compares rqpath with the
# libtracecmd floor, trace-cmd report and perf sched timehist.  Needs root.
bench: all $(TEST_HELPER_BIN)
	$(Q)RQPATH=$(CURDIR)/rqpath RQPATH_BUILD=$(CURDIR)/$(BUILD) sh tests/bench/run.sh

# Coverage-guided fuzzing of the replay path (clang libFuzzer); FUZZ_SECONDS=N.
FUZZ_SECONDS ?= 300
fuzz: $(BUILD)/test-deps.stamp
	$(Q)FUZZ_SECONDS=$(FUZZ_SECONDS) RQPATH_BUILD=$(CURDIR)/$(BUILD) sh tests/fuzz/run.sh

.PHONY: all run check install clean bench fuzz
.DELETE_ON_ERROR:

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
