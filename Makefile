# rqpath — where the scheduler put each task, and why.
# GNU make. `make` builds, `make run` audits the bundled fixture (TUI on a terminal),
# `make check` builds with and without ASan+UBSan and runs every test tier.

VERSION := 0.1.0
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/site-functions
DESTDIR ?=

CC ?= gcc
PKG_CONFIG ?= pkg-config
# The library (src/) needs no terminal; only the views (views/) link curses.  rqpath
# reads trace.dat itself (src/input/tracedat.c: zstd, zlib); libtracecmd is only the tests'
# oracle (tests/helpers).
LIB_PKGS := libtracefs libtraceevent libbsd libzstd zlib
PKGS := $(LIB_PKGS) ncursesw
TEST_PKGS := $(LIB_PKGS) libtracecmd

# The BPF side of the recorder (kernel truth, src/input/bpf/truth.bpf.c) is
# optional: built where clang, bpftool, libbpf (pkg-config) and the running kernel's BTF
# are, else (or with BPF=0) src/input/truth_bpf.c is a stub that says so at run time.
CLANG ?= clang
BPFTOOL ?= $(shell command -v bpftool 2>/dev/null || { [ -x /usr/sbin/bpftool ] && echo /usr/sbin/bpftool; })
VMLINUX_BTF ?= /sys/kernel/btf/vmlinux
ifeq ($(origin BPF),undefined)
BPF := $(shell command -v $(CLANG) >/dev/null 2>&1 && [ -n "$(BPFTOOL)" ] && \
	$(BPFTOOL) version >/dev/null 2>&1 && $(PKG_CONFIG) --exists libbpf 2>/dev/null && \
	[ -r $(VMLINUX_BTF) ] && echo 1 || echo 0)
endif
ifeq ($(BPF),1)
BPF_PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags libbpf 2>/dev/null)
BPF_PKG_LIBS := $(shell $(PKG_CONFIG) --libs libbpf 2>/dev/null)
endif

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
# pkg-config fails on a package that is not installed: pkgs.ok says which before compiling.
LIB_PKG_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(LIB_PKGS) 2>/dev/null)
PKG_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
LIB_PKG_LIBS = $(shell $(PKG_CONFIG) --libs $(LIB_PKGS) 2>/dev/null) $(BPF_PKG_LIBS)
PKG_LIBS = $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null) $(BPF_PKG_LIBS)
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
#   src/session/ a source (trace.dat replay or live recording), its pump and analysis
#   views/       the TUI: the library's headers and curses
#   src/cli/     the commands: the library's headers and the TUI's entry points (tui_main.h)
# The library (build/librqpath.a) is src/ but src/cli/.
LAYERS := base input engine output session
LAYER_INC = $(foreach l,$(1),-Isrc/$(l))
base_INC := $(call LAYER_INC,base)
input_INC := $(call LAYER_INC,base input)
engine_INC := $(call LAYER_INC,base input engine)
output_INC := $(call LAYER_INC,base input engine output)
session_INC := $(call LAYER_INC,$(LAYERS))
LIB_INC := $(session_INC)
LIB_CFLAGS = $(BASE_CFLAGS) $(LIB_PKG_CFLAGS) $(LIB_INC)
VIEW_CFLAGS = $(BASE_CFLAGS) $(PKG_CFLAGS) $(LIB_INC) -Iviews
CLI_CFLAGS = $(BASE_CFLAGS) $(LIB_PKG_CFLAGS) $(LIB_INC) -Isrc/cli -Iviews
layer_of = $(word 2,$(subst /, ,$(1)))
layer_cflags = $(if $(filter views/%,$(1)),$(VIEW_CFLAGS),$(if $(filter src/cli/%,$(1)),$(CLI_CFLAGS),$(BASE_CFLAGS) $(LIB_PKG_CFLAGS) $($(call layer_of,$(1))_INC) $(if $(filter $(BPF_LOADER),$(1)),$(BPF_LOADER_CFLAGS))))
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined

LIB_SRC := $(foreach l,$(LAYERS),$(wildcard src/$(l)/*.c))
# The loader of the BPF programs sees their skeleton, generated into $(BUILD)/bpf.
BPF_LOADER := src/input/truth_bpf.c
ifeq ($(BPF),1)
BPF_LOADER_CFLAGS = -DRQ_HAVE_BPF -I$(BUILD)/bpf $(BPF_PKG_CFLAGS)
endif
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
# tdhdr.c is no program: the trace.dat header texts of the hand-built test files, linked
# into the helpers and unit tests that name it below
TEST_HELPER_SRC := $(filter-out tests/helpers/tdhdr.c,$(wildcard tests/helpers/*.c))
TEST_HELPER_BIN := $(patsubst tests/helpers/%.c,$(BUILD)/tests/%,$(TEST_HELPER_SRC))

# The shell completions, generated by the binary from its option tables (src/cli/complete.c).
COMPLETIONS := $(BUILD)/completion/rqpath.bash $(BUILD)/completion/_rqpath

all: rqpath $(COMPLETIONS)

# Building never installs anything: it checks that pkg-config finds the libraries and says
# which are missing.  `make deps` installs them on Debian (tests/install-deps.sh build).
$(BUILD)/pkgs.ok: Makefile
	$(Q)mkdir -p $(BUILD)
	$(Q)missing=""; for p in $(PKGS); do \
		$(PKG_CONFIG) --exists $$p 2>/dev/null || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "rqpath: $(PKG_CONFIG) does not find:$$missing" >&2; \
		echo "rqpath: install their development packages ('make deps' on Debian)" >&2; \
		exit 1; \
	fi
	$(Q)touch $@

deps:
	$(Q)sh tests/install-deps.sh build

$(BUILD)/deps.stamp: tests/install-deps.sh
	$(Q)mkdir -p $(BUILD)
	$(Q)sh tests/install-deps.sh build
	$(Q)touch $@

test-deps:
	$(Q)sh tests/install-deps.sh test

$(BUILD)/test-deps.stamp: tests/install-deps.sh
	$(Q)mkdir -p $(BUILD)
	$(Q)sh tests/install-deps.sh test
	$(Q)touch $@

rqpath: $(BUILD)/rqpath
	$(Q)cp $< $@.tmp && mv -f $@.tmp $@

# The command line, then the views, then the library: each depends only on those after it.
$(BUILD)/rqpath: $(CLI_OBJ) $(BUILD)/librqpath-views.a $(BUILD)/librqpath.a | $(BUILD)/pkgs.ok
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

$(BUILD)/asan/%.o: %.c | $(BUILD)/pkgs.ok
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) $(call layer_cflags,$<) $(SAN_FLAGS) -c -o $@ $<

# The ThreadSanitizer build: the threaded replay (pump worker, read-ahead) has races no
# output comparison sees reliably (tests/robust/t_threads_race.sh).
TSAN_FLAGS := -fsanitize=thread
TSAN_OBJ := $(call objs,$(BUILD)/tsan,$(CLI_SRC) $(VIEW_SRC) $(LIB_SRC))

$(BUILD)/tsan/rqpath: $(TSAN_OBJ)
	@echo "  LINK    $@"
	$(Q)$(CC) $(CFLAGS) $(TSAN_FLAGS) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) -lm

$(BUILD)/tsan/%.o: %.c | $(BUILD)/pkgs.ok
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) $(call layer_cflags,$<) $(TSAN_FLAGS) -c -o $@ $<

$(BUILD)/%.o: %.c | $(BUILD)/pkgs.ok
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) $(call layer_cflags,$<) $(RELEASE_OPT) -c -o $@ $<

# The BPF programs: CO-RE against the running kernel's BTF (vmlinux.h is generated here,
# never committed), the object stripped of DWARF (bpftool gen object), its skeleton.
# <stdint.h> is an empty stub: vmlinux.h has the kernel's uint*_t (truth.h uses them).
ifeq ($(BPF),1)
BPF_ARCH := $(shell uname -m | sed 's/x86_64/x86/;s/aarch64/arm64/;s/ppc64le/powerpc/;s/s390x/s390/;s/riscv64/riscv/;s/loongarch64/loongarch/')
$(BUILD)/bpf/vmlinux.h:
	@mkdir -p $(dir $@)
	@echo "  GEN     $@"
	$(Q)$(BPFTOOL) btf dump file $(VMLINUX_BTF) format c >$@.tmp && mv -f $@.tmp $@

$(BUILD)/bpf/stub/stdint.h:
	@mkdir -p $(dir $@)
	$(Q)echo "/* the kernel's uint*_t come from vmlinux.h */" >$@

BPF_HDR := src/base/truth.h src/input/bpf/core_read.h src/input/bpf/truth_read.h \
	$(BUILD)/bpf/vmlinux.h $(BUILD)/bpf/stub/stdint.h
$(BUILD)/bpf/truth.bpf.o: src/input/bpf/truth.bpf.c $(BPF_HDR)
	@echo "  BPF     $@"
	$(Q)$(CLANG) -g -O2 -target bpf -D__TARGET_ARCH_$(BPF_ARCH) -I$(BUILD)/bpf/stub \
		-I$(BUILD)/bpf -Isrc/base $(BPF_PKG_CFLAGS) -c -o $@.tmp.o $< && \
		$(BPFTOOL) gen object $@ $@.tmp.o && rm -f $@.tmp.o

$(BUILD)/bpf/truth.skel.h: $(BUILD)/bpf/truth.bpf.o
	@echo "  GEN     $@"
	$(Q)$(BPFTOOL) gen skeleton $< name truth_bpf >$@.tmp && mv -f $@.tmp $@

$(foreach b,$(BUILD) $(BUILD)/asan $(BUILD)/tsan $(BUILD)/fifth,$(b)/src/input/truth_bpf.o): \
	$(BUILD)/bpf/truth.skel.h

# The reads of truth_read.h against other kernels' layouts (tests/live/t_truth_layout.sh):
# tests/bpf/layout.bpf.c built as truth.bpf.c is, its skeleton in the helper bpf_layout,
# and the target BTF of each tests/bpf/layout_*.c (clang's .BTF, which btf__parse reads).
LAYOUT_BTF := $(patsubst tests/bpf/%.c,$(BUILD)/bpf/%.btf.o,$(wildcard tests/bpf/layout_*.c))
$(BUILD)/bpf/layout.bpf.o: tests/bpf/layout.bpf.c tests/bpf/layout.h $(BPF_HDR)
	@echo "  BPF     $@"
	$(Q)$(CLANG) -g -O2 -target bpf -D__TARGET_ARCH_$(BPF_ARCH) -I$(BUILD)/bpf/stub \
		-I$(BUILD)/bpf -Isrc/base -Isrc/input/bpf -Itests/bpf $(BPF_PKG_CFLAGS) \
		-c -o $@.tmp.o $< && $(BPFTOOL) gen object $@ $@.tmp.o && rm -f $@.tmp.o

$(BUILD)/bpf/layout.skel.h: $(BUILD)/bpf/layout.bpf.o
	@echo "  GEN     $@"
	$(Q)$(BPFTOOL) gen skeleton $< name layout_bpf >$@.tmp && mv -f $@.tmp $@

$(BUILD)/bpf/%.btf.o: tests/bpf/%.c
	@mkdir -p $(dir $@)
	@echo "  BTF     $@"
	$(Q)$(CLANG) -g -target bpf -c -o $@ $<

$(BUILD)/tests/bpf_layout: tests/helpers/bpf_layout.c $(BUILD)/bpf/layout.skel.h $(LAYOUT_BTF) \
		| $(BUILD)/test-deps.stamp
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) $(BASE_CFLAGS) -DRQ_HAVE_BPF -I$(BUILD)/bpf -Isrc/base -Itests/bpf \
		$(BPF_PKG_CFLAGS) -o $@ $< $(BPF_PKG_LIBS)
else
# without BPF the helper is a stub that skips (exit 77)
$(BUILD)/tests/bpf_layout: tests/helpers/bpf_layout.c | $(BUILD)/test-deps.stamp
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) $(BASE_CFLAGS) -o $@ $<
endif

# Unit tests see the library alone: its headers, its archive, its packages.
$(BUILD)/asan/tests/%: tests/unit/%.c $(BUILD)/asan/librqpath.a | $(BUILD)/test-deps.stamp
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) $(LIB_CFLAGS) $(SAN_FLAGS) -Itests/unit -Itests/helpers -o $@ $< \
		$(filter %.o,$^) $(BUILD)/asan/librqpath.a $(LIB_PKG_LIBS) -lcmocka -lm

# The shared trace.dat header of the hand-built files (tests/helpers/tdhdr.h), for the
# unit tests (sanitized) and the helpers that write one.
$(BUILD)/asan/tests/tdhdr.o: tests/helpers/tdhdr.c | $(BUILD)/test-deps.stamp
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) $(LIB_CFLAGS) $(SAN_FLAGS) -c -o $@ $<
$(BUILD)/asan/tests/test_tracedat $(BUILD)/asan/tests/test_truth: $(BUILD)/asan/tests/tdhdr.o
$(BUILD)/tests/tdhdr.o: tests/helpers/tdhdr.c | $(BUILD)/test-deps.stamp
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) $(LIB_CFLAGS) $(RELEASE_OPT) -c -o $@ $<
$(BUILD)/tests/gen_trace $(BUILD)/tests/truth_seed: $(BUILD)/tests/tdhdr.o

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
	$(Q)$(CC) $(LIB_CFLAGS) $(RELEASE_OPT) $(TEST_PKG_CFLAGS) -o $@ $< $(filter %.o,$^) \
		$(BUILD)/librqpath.a $(TEST_PKG_LIBS) -lm

# The main job on the bundled fixture: the TUI when stdout is a terminal, else the audit.
RUN_FIXTURE ?= fixtures/spawn.dat
# `make run` and `make check` are the quick starts of a fresh Debian machine: they install
# what is missing first (tests/install-deps.sh; `make` and `make install` never do).
run: $(BUILD)/deps.stamp
	$(Q)$(MAKE) --no-print-directory all
	$(Q)if [ -t 1 ] && ./rqpath help replay >/dev/null 2>&1 && [ -z "$$CI" ]; then \
		./rqpath replay $(RUN_FIXTURE); \
	else \
		./rqpath audit $(RUN_FIXTURE); status=$$?; [ $$status -le 1 ]; \
	fi

check: $(BUILD)/test-deps.stamp
	$(Q)$(MAKE) --no-print-directory WERROR=1 all
	$(Q)$(MAKE) --no-print-directory WERROR=1 $(BUILD)/asan/rqpath $(BUILD)/tsan/rqpath \
		$(UNIT_BIN) $(TEST_HELPER_BIN)
	$(Q)RQPATH=$(CURDIR)/$(BUILD)/asan/rqpath RQPATH_PLAIN=$(CURDIR)/rqpath \
		RQPATH_BUILD=$(CURDIR)/$(BUILD) sh tests/run.sh

# The kernel matrix (tests/kernels/): the truth tier in QEMU guests of Debian's 6.1, 6.12
# and 7.2 kernels at 4 to 64 vCPUs, its table in docs/kernel-matrix.md.  Hours under TCG:
# pick cells with KERNELS="6.1 7.2" TOPOLOGIES="4 16-2s-smt-numa" KTESTS="spawn execl";
# KBUILD=1 adds t_truth_build.  Root; downloads the kernels once (~300 MB).
check-kernels: all
	$(Q)RQPATH=$(CURDIR)/rqpath RQPATH_BUILD=$(CURDIR)/$(BUILD) \
		$(if $(KERNELS),KERNELS="$(KERNELS)") $(if $(TOPOLOGIES),TOPOLOGIES="$(TOPOLOGIES)") \
		$(if $(KTESTS),KTESTS="$(KTESTS)") $(if $(KBUILD),KBUILD="$(KBUILD)") \
		sh tests/kernels/matrix.sh

$(BUILD)/completion/rqpath.bash: $(BUILD)/rqpath
	$(Q)mkdir -p $(dir $@)
	$(Q)$< completion bash >$@.tmp && mv -f $@.tmp $@

$(BUILD)/completion/_rqpath: $(BUILD)/rqpath
	$(Q)mkdir -p $(dir $@)
	$(Q)$< completion zsh >$@.tmp && mv -f $@.tmp $@

# Copies files, nothing else (no package manager, no build as root when `make` ran first).
INSTALLED := $(BINDIR)/rqpath $(MANDIR)/man1/rqpath.1 $(MANDIR)/man7/rqpath-paths.7 \
	$(BASHCOMPDIR)/rqpath $(ZSHCOMPDIR)/_rqpath
install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man7 \
		$(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR)
	install -m 0755 rqpath $(DESTDIR)$(BINDIR)/rqpath
	install -m 0644 man/rqpath.1 $(DESTDIR)$(MANDIR)/man1/rqpath.1
	install -m 0644 man/rqpath-paths.7 $(DESTDIR)$(MANDIR)/man7/rqpath-paths.7
	install -m 0644 $(BUILD)/completion/rqpath.bash $(DESTDIR)$(BASHCOMPDIR)/rqpath
	install -m 0644 $(BUILD)/completion/_rqpath $(DESTDIR)$(ZSHCOMPDIR)/_rqpath

uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))

clean:
	rm -rf $(BUILD) rqpath

# Benchmarks: records a large trace and compares rqpath with the
# libtracecmd floor, trace-cmd report and perf sched timehist.  Needs root.
bench: all $(TEST_HELPER_BIN)
	$(Q)RQPATH=$(CURDIR)/rqpath RQPATH_BUILD=$(CURDIR)/$(BUILD) sh tests/bench/run.sh

# Coverage-guided fuzzing of the replay path (clang libFuzzer); FUZZ_SECONDS=N.
FUZZ_SECONDS ?= 300
fuzz: $(BUILD)/test-deps.stamp
	$(Q)FUZZ_SECONDS=$(FUZZ_SECONDS) RQPATH_BUILD=$(CURDIR)/$(BUILD) sh tests/fuzz/run.sh

# Whether this build has the BPF side (tests/golden/t_no_bpf.sh).
bpf-status:
	@echo "BPF=$(BPF)"

.PHONY: all run check check-kernels install uninstall deps test-deps clean bench fuzz bpf-status
.DELETE_ON_ERROR:

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
