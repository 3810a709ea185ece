# nstest - build, test and install.
#
#   make                 build ./nstest
#   make DEVELOPER=1     the strict warning set, warnings are errors
#   make SANITIZE=address,undefined
#   make check           unit tests, bats CLI tests, every scenario, isolation,
#                        the boundary
#   make check-boundary  only lib/kernel/'s objects call mount, unshare, setns, ...
#   make check-layers    every include and call points down the folders' order
#   make check-vm        the scenarios in a VM on another kernel (qemu), and the
#                        tests of ci/vm-run, ci/kernel-matrix, ci/bisect-step
#   make demo            the article's demos on this kernel
#   make check-faults    100 trials of random SIGKILLs during runs (TRIALS=N)
#   make check-valgrind  every scenario under memcheck (VALGRIND=PATH, >= 3.26)
#   make fuzz            libFuzzer targets (clang) in fuzz/build; see fuzz/README
#   make install         honours PREFIX and DESTDIR
#   make kselftest-install DESTDIR=DIR
#                        the scenarios as the kselftest collection "nstest" in
#                        DIR, the kernel's installed tools/testing/selftests

PREFIX    ?= /usr/local
BINDIR    ?= $(PREFIX)/bin
DATADIR   ?= $(PREFIX)/share/nstest
MANDIR    ?= $(PREFIX)/share/man
# Shell completion (harness/completion/): where bash-completion and zsh
# look for it under PREFIX.
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  ?= $(PREFIX)/share/zsh/site-functions
DESTDIR   ?=

CC        ?= cc
PKG_CONFIG ?= pkg-config
CFLAGS    ?= -O2 -g
DEPS_CFLAGS := $(shell $(PKG_CONFIG) --cflags mount libcap smartcols 2>/dev/null)
DEPS_LIBS   := $(shell $(PKG_CONFIG) --libs mount libcap smartcols 2>/dev/null)

ALL_CFLAGS = -std=gnu11 -Wall -Wextra -D_GNU_SOURCE -Ilib $(DEPS_CFLAGS) \
	-DNS_DATADIR='"$(DATADIR)"' -MMD -MP
# Bind every symbol at start (full RELRO): once in the runner, instead of
# again in each worker it forks (2-4% of the article run, bench/README.md).
ALL_LDFLAGS = -Wl,-z,relro,-z,now
ifdef DEVELOPER
STRICT_CFLAGS := -Werror -Wformat=2 -Wshadow -Wpointer-arith -Wcast-qual \
	-Wstrict-prototypes -Wmissing-prototypes -Wold-style-definition \
	-Wvla -Wwrite-strings -Wundef -Wnull-dereference -Wimplicit-fallthrough \
	-Wconversion -Wno-sign-conversion -Wredundant-decls -fno-common
ALL_CFLAGS += $(STRICT_CFLAGS)
endif
ifdef SANITIZE
ALL_CFLAGS += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
ALL_LDFLAGS += -fsanitize=$(SANITIZE)
endif
ALL_CFLAGS += $(CFLAGS)
ALL_LDFLAGS += $(LDFLAGS)

# The engine, one folder per stage (docs/architecture.md).
LIB_DIRS := base commands scenario mounts match run kernel model backends report update fuzz export
LIB_SRC  := $(sort $(foreach d,$(LIB_DIRS),$(wildcard lib/$(d)/*.c)))
LIB_OBJ  := $(LIB_SRC:.c=.o)
CLI_SRC  := $(sort $(wildcard harness/*.c))
CLI_OBJ  := $(CLI_SRC:.c=.o)
UNIT_SRC := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BIN := $(UNIT_SRC:.c=)
# The unit tests' harness (tests/unit/tap.h): main(), linked into each.
UNIT_HARNESS := tests/unit/tap.o
UNIT_SELFTEST := tests/unit/harness_selftest

# Rebuild everything when the flags change (DEVELOPER, SANITIZE, ...).
FLAGS_FILE := .build-flags
$(shell echo '$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS)' | cmp -s - $(FLAGS_FILE) || \
	echo '$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS)' > $(FLAGS_FILE))

# Created by the $(shell) above while the Makefile is read; this rule
# tells make it exists, since make caches the folder before that.
$(FLAGS_FILE): ;

.PHONY: all deps check check-unit check-bats check-scenarios check-mutation check-flakes check-bisect \
	demo install kselftest-install clean bench fuzz check-faults check-fuzz check-valgrind check-vm check-fuzz-smoke \
	check-boundary check-layers
all: nstest

%.o: %.c $(FLAGS_FILE)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# The support library of `nstest export --c` (lib/export/runtime.c.in), as
# the lines of a C string literal that every exported program starts with.
lib/export/runtime_text.h: lib/export/runtime.c.in
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $< > $@.tmp && mv $@.tmp $@

lib/export/runtime.o: lib/export/runtime_text.h

lib/libnstest.a: $(LIB_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

nstest: $(CLI_OBJ) lib/libnstest.a
	$(CC) $(ALL_LDFLAGS) -o $@ $(CLI_OBJ) lib/libnstest.a $(DEPS_LIBS)

tests/unit/test_%: tests/unit/test_%.o $(UNIT_HARNESS) lib/libnstest.a
	$(CC) $(ALL_LDFLAGS) -o $@ $< $(UNIT_HARNESS) lib/libnstest.a $(DEPS_LIBS)

# test_growth counts the realloc(3) and strcmp(3) calls of the library
# (tests/unit/test_growth.c): work that must grow linearly, not timed.
tests/unit/test_growth: ALL_LDFLAGS += -Wl,--wrap=realloc -Wl,--wrap=strcmp

# Tests that pass, fail, crash and hang, for tests/unit/harness-check.
$(UNIT_SELFTEST): $(UNIT_SELFTEST).o $(UNIT_HARNESS)
	$(CC) $(ALL_LDFLAGS) -o $@ $^

# Install missing build and test dependencies (apt-get); says what it does.
deps:
	@ci/install-deps

# The whole run sits inside one isolation check as well: whatever any test
# did, the host's mount table must be byte-identical afterwards and no loop
# device of ours may remain attached.
# Each stage named as it starts and timed (tests/check-stages); a failing
# stage ends the run as make would (all of them with make -k).
CHECK_STAGES := check-unit check-bats check-scenarios check-mutation \
	check-fuzz check-boundary check-layers check-fuzz-smoke check-flakes
check: deps
	tests/isolation-check tests/check-stages $(MAKE) $(CHECK_STAGES)

# The flake check (issue 28): every scenario and every recorded session
# ten times, on the kernel under tests/churn (mount IDs, devices and peer
# groups allocated and freed elsewhere, as on a busy host) and on the
# model; a verdict that changes in any run fails (nstest run --repeat).
check-flakes: nstest
	tests/isolation-check tests/churn ./nstest run --repeat 10 -j 2 scenarios tests/data/sessions
	./nstest run --backend model --repeat 10 scenarios tests/data/sessions

# About 20 s of nstest fuzz on this kernel against the model imitating it
# (--quirks=kernel), fixed seed: any finding is one no known quirk
# explains (tests/fuzz-smoke).
check-fuzz-smoke: nstest
	tests/fuzz-smoke ./nstest

# The execution seam (issue 11): outside lib/kernel/, no object of lib/,
# harness/ or fuzz/ calls mount(2), unshare(2), setns(2), pivot_root(2),
# the new mount API, capset(2) or syscall(2) (nm -u); the check lists every
# call that does, so it needs the objects built.
BOUNDARY_OBJ := $(patsubst %.c,%.o,$(wildcard fuzz/*.c))
check-boundary: nstest $(BOUNDARY_OBJ)
	tests/boundary-check

# The folders' order (docs/architecture.md, "Layers"): no #include and no
# call, read from the built objects with nm, from a folder to one above
# it, nor between the two backends. tests/layer-check holds the order.
check-layers: nstest
	tests/layer-check

# Every unit test, and the harness's own check (tests/unit/tap.h says how
# to run one test).
check-unit: $(UNIT_BIN) $(UNIT_SELFTEST)
	prove -f $(UNIT_BIN) tests/unit/harness-check

check-bats: nstest tests/faults/killer
	bats --tap tests/bats

# Every scenario in both stand-in modes, with the host's mount table and
# loop devices compared before and after the whole run.
check-scenarios: nstest
	tests/isolation-check ./nstest run scenarios
	tests/isolation-check ./nstest run --devices=loop scenarios

# Other kernels under qemu: every scenario on Debian's 6.1, 6.12, 6.18 and
# newest kernels in three modes (tests/bats/vm/lines.bats), kernel-matrix,
# kernel-bisect over 7.1/7.2 point releases, a git bisect run over a
# stand-in tree, ci/kernels fetching from Debian's archive (network), the
# programs of nstest export --c booted as the guest's only program. Needs
# the packages of `ci/install-deps --vm`, which `make check` does without.
check-vm: nstest
	ci/install-deps --vm
	tests/isolation-check bats --tap tests/bats/vm

# A real `git bisect run` of ci/bisect-step on Debian's linux-source-6.12
# with a regression put in fs/namespace.c: git must name that commit
# (tests/check-bisect; docs/kernels.md). About 9 minutes on 2 cores with a
# cold ccache; about a minute when a run before left its tree and ccache.
# Needs `ci/install-deps --bisect`.
check-bisect: nstest
	ci/install-deps --bisect
	tests/isolation-check tests/check-bisect

# Every scenario, broken on purpose in a key expectation, must fail: proves
# that the scenarios can catch a kernel that gets propagation wrong.
check-mutation: nstest
	tests/isolation-check tests/mutation-check ./nstest

# Timings only (bench/README.md): medians of interleaved runs, as ratios.
bench: nstest
	CC='$(CC)' bench/run

# ---- robustness (issue 5) ------------------------------------------------

# The fault injector: SIGKILLs parts of a process tree at random moments.
# Its own flags, not lib's (no sanitizers), but DEVELOPER's warnings too.
tests/faults/killer: tests/faults/killer.c $(FLAGS_FILE)
	$(CC) -std=gnu11 -O2 -g -Wall -Wextra $(STRICT_CFLAGS) -pthread -o $@ $< -lm

# Random SIGKILLs of nstest, its workers (and so their watchdogs), sandboxes
# and terminals during whole runs of the suite plus failing, hanging and
# mount-limit scenarios; after every trial the host must be as it was.
# (make check runs 20 trials through tests/bats/faults.bats.)
check-faults: nstest tests/faults/killer
	tests/isolation-check tests/faults/run-faults -n $(or $(TRIALS),100) ./nstest scenarios

# The fuzz targets' replay mode, built with $(CC): every crash input in
# fuzz/regressions, and the seed corpus, through the same code as the fuzzer.
FUZZ_REPLAY := fuzz/replay-scenario fuzz/replay-matcher
fuzz/replay-%: fuzz/fuzz_%.c fuzz/replay.c lib/libnstest.a
	$(CC) $(filter-out -MMD -MP,$(ALL_CFLAGS)) $(ALL_LDFLAGS) -o $@ fuzz/fuzz_$*.c fuzz/replay.c lib/libnstest.a $(DEPS_LIBS)

check-fuzz: $(FUZZ_REPLAY)
	fuzz/replay-all

# libFuzzer targets (clang), built from the sources into FUZZ_BUILD and
# never into the main objects, with seed corpora from the scenarios, the
# bad inputs and the mountinfo fixtures. Run them with fuzz/run-fuzz.
FUZZ_CC    ?= clang
FUZZ_BUILD ?= fuzz/build
FUZZ_FLAGS := -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-fno-omit-frame-pointer -g -O1 -std=gnu11 -D_GNU_SOURCE -Ilib $(DEPS_CFLAGS) \
	-DNS_DATADIR='"$(DATADIR)"'
fuzz: $(FUZZ_BUILD)/fuzz-scenario $(FUZZ_BUILD)/fuzz-matcher
	fuzz/seed-corpus $(FUZZ_BUILD)/seeds $(sort $(wildcard scenarios/*/*.scn tests/bad/*.scn \
		tests/escape/*.scn tests/faults/scenarios/*.scn)) tests/data/tricky.mountinfo

$(FUZZ_BUILD)/fuzz-%: fuzz/fuzz_%.c $(LIB_SRC) $(wildcard lib/*/*.h) lib/export/runtime_text.h
	@mkdir -p $(FUZZ_BUILD)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $< $(LIB_SRC) $(DEPS_LIBS)

# The scenario suite under valgrind's memcheck: no error and no definite
# leak in any process (tests/valgrind-check says why forks need care).
check-valgrind: nstest
	tests/isolation-check tests/valgrind-check ./nstest scenarios

demo: deps
	$(MAKE) nstest
	./nstest run --verbose scenarios/article

install: nstest
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/scenarios \
		$(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5
	install -m 755 nstest $(DESTDIR)$(BINDIR)/nstest
	cd scenarios && find . -name '*.scn' -exec install -D -m 644 '{}' \
		'$(DESTDIR)$(DATADIR)/scenarios/{}' ';'
	install -m 644 docs/nstest.1 $(DESTDIR)$(MANDIR)/man1/nstest.1
	install -m 644 docs/nstest-scenario.5 $(DESTDIR)$(MANDIR)/man5/nstest-scenario.5
	install -d $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR)
	install -m 644 harness/completion/nstest.bash $(DESTDIR)$(BASHCOMPDIR)/nstest
	install -m 644 harness/completion/_nstest $(DESTDIR)$(ZSHCOMPDIR)/_nstest

# The scenarios as a kselftest collection (harness/kselftest/): DESTDIR is
# the folder where the kernel's `make -C tools/testing/selftests install
# INSTALL_PATH=DIR` put run_kselftest.sh (run that first: it rewrites
# kselftest-list.txt). DESTDIR/nstest/ gets the program, the scenarios,
# run_nstest.sh and kselftest's settings (its timeout), written afresh;
# kselftest-list.txt gets the line nstest:run_nstest.sh once.
KSFT_DIR = $(DESTDIR)/nstest
kselftest-install: nstest
	@test -n "$(DESTDIR)" || { echo "kselftest-install: set DESTDIR to the folder of run_kselftest.sh" \
		"(the kernel's selftests INSTALL_PATH)" >&2; exit 2; }
	rm -rf '$(KSFT_DIR)'
	install -d '$(KSFT_DIR)/scenarios'
	install -m 755 nstest harness/kselftest/run_nstest.sh '$(KSFT_DIR)/'
	install -m 644 harness/kselftest/settings '$(KSFT_DIR)/settings'
	cd scenarios && find . -name '*.scn' -exec install -D -m 644 '{}' \
		'$(KSFT_DIR)/scenarios/{}' ';'
	grep -qsx 'nstest:run_nstest.sh' '$(DESTDIR)/kselftest-list.txt' || \
		echo 'nstest:run_nstest.sh' >> '$(DESTDIR)/kselftest-list.txt'

clean:
	rm -f nstest lib/libnstest.a $(LIB_OBJ) $(CLI_OBJ) $(UNIT_BIN) $(UNIT_SELFTEST) \
		tests/unit/*.o $(FLAGS_FILE) */*.d lib/*/*.d tests/unit/*.d \
		tests/faults/killer $(FUZZ_REPLAY) $(BOUNDARY_OBJ) lib/export/runtime_text.h

-include $(LIB_SRC:.c=.d) $(CLI_SRC:.c=.d) $(UNIT_SRC:.c=.d) $(UNIT_HARNESS:.o=.d) \
	$(UNIT_SELFTEST).d $(BOUNDARY_OBJ:.o=.d)
