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
PKGS := libtracecmd libtracefs libtraceevent ncursesw libbsd

ifeq ($(V),1)
Q :=
else
Q := @
endif

CFLAGS ?= -O2 -g
WARNINGS := -Wall -Wextra -Wno-unused-parameter
ifeq ($(WERROR),1)
WARNINGS += -Werror
endif
# pkg-config may fail before the packages are installed; deps.stamp installs them first.
PKG_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
PKG_LIBS = $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null)
ALL_CFLAGS = -std=gnu11 $(WARNINGS) $(CFLAGS) $(PKG_CFLAGS) -D_GNU_SOURCE \
	-DRQPATH_VERSION='"$(VERSION)"' -Isrc -Iviews -MMD -MP
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined

ENGINE_SRC := $(filter-out src/main.c,$(wildcard src/*.c))
VIEW_SRC := $(wildcard views/*.c)
BUILD ?= build

define objs
$(patsubst %.c,$(1)/%.o,$(2))
endef

ENGINE_OBJ := $(call objs,$(BUILD),$(ENGINE_SRC))
VIEW_OBJ := $(call objs,$(BUILD),$(VIEW_SRC))
ASAN_ENGINE_OBJ := $(call objs,$(BUILD)/asan,$(ENGINE_SRC))
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

$(BUILD)/rqpath: $(BUILD)/src/main.o $(BUILD)/librqpath.a | $(BUILD)/deps.stamp
	@echo "  LINK    $@"
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) -lm

$(BUILD)/librqpath.a: $(ENGINE_OBJ) $(VIEW_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/asan/rqpath: $(BUILD)/asan/src/main.o $(BUILD)/asan/librqpath.a
	@echo "  LINK    $@"
	$(Q)$(CC) $(CFLAGS) $(SAN_FLAGS) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) -lm

$(BUILD)/asan/librqpath.a: $(ASAN_ENGINE_OBJ) $(ASAN_VIEW_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/asan/%.o: %.c | $(BUILD)/deps.stamp
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) $(ALL_CFLAGS) $(SAN_FLAGS) -c -o $@ $<

$(BUILD)/%.o: %.c | $(BUILD)/deps.stamp
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/asan/tests/%: tests/unit/%.c $(BUILD)/asan/librqpath.a | $(BUILD)/test-deps.stamp
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) $(ALL_CFLAGS) $(SAN_FLAGS) -Itests/unit -o $@ $< $(BUILD)/asan/librqpath.a \
		$(PKG_LIBS) -lcmocka -lm

$(BUILD)/tests/%: tests/helpers/%.c | $(BUILD)/test-deps.stamp
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< $(PKG_LIBS) -lm

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
