# vchess - one non-recursive GNU Makefile (see doc/DESIGN.md).
#
#   make            library and tools in $(BUILD)        (default: build/)
#   make check      also the unit tests, then tests/run.sh $(BUILD)
#   make corpora    the real archives of corpora/MANIFEST into $(CORPORA) (default corpora/real),
#                   from their public addresses, or CORPORA_FROM=DIR from a local copy
#   make san        everything again in build-san with clang, ASan and UBSan, then the tests
#   make tsan       the same in build-tsan with ThreadSanitizer, then the tests of threads
#   make bench      an optimised build (BENCH_CFLAGS) in build-bench, then tests/bench/run.sh
#                   and tests/bench/fsf-perft.sh (perft of every variant beside Fairy-Stockfish)
#   make fuzz       tests/fuzz/run.sh $(SECONDS)
#   make lint       clang-format check and cppcheck;  make format  rewrites the sources
#   make install    to $(DESTDIR)$(PREFIX);  make uninstall;  make clean
#
# Sources are found by name, so adding a file needs no edit here:
#   lib/LAYER/*.c            -> $(BUILD)/libvchess.a and $(BUILD)/libvchess.so.VERSION (+ links)
#   formats/variants/*.yaml  -> $(BUILD)/gen/vc_embedded.c (see lib/rules/vc_embed.h), in the library
#   formats/html/*.js, *.css -> $(BUILD)/gen/vc_embedded_html.c, the web page's script and style
#   formats/openings/*.tsv   -> $(BUILD)/gen/vc_embedded_openings.c, the opening lists
#   tools/vchess-NAME.c      -> $(BUILD)/bin/vchess-NAME, linked with every other tools/*.c
#   tests/unit/t_NAME.c      -> $(BUILD)/tests/t_NAME, linked with every other tests/unit/*.c
#
# Settings go on the command line or in config.mak (plain "VAR = value"; CC must be
# set with "=", since make gives it a default).  V=1 shows the full commands.

-include config.mak

CC ?= cc
HOSTCC ?= cc
AR ?= ar
PKG_CONFIG ?= pkg-config
PREFIX ?= /usr/local
DESTDIR ?=
BUILD ?= build
WERROR ?= 0
V ?= 0
SECONDS ?= 60
# The real archives that some tests and make bench read (see corpora/MANIFEST); git ignores
# corpora/real.  CORPORA_FROM=DIR[:DIR...]: make corpora copies them from a local copy.
CORPORA ?= corpora/real
CORPORA_FROM ?=
EXTRA_CFLAGS ?=
EXTRA_LDFLAGS ?=
LDFLAGS ?=

BINDIR = $(PREFIX)/bin
LIBDIR = $(PREFIX)/lib
INCLUDEDIR = $(PREFIX)/include
MANDIR = $(PREFIX)/share/man

# The version lives in one place, the public header.  ($(HASH): "#" in a function call is a
# comment for make before 4.3 and must not be escaped from 4.3 on.)
HASH := \#
VERSION = $(or $(shell sed -n 's/^$(HASH)define VC_VERSION "\(.*\)"/\1/p' lib/vchess.h 2>/dev/null),0.0.0)
# The shared library's file is libvchess.so.VERSION; its SONAME, libvchess.so.MAJOR, is what
# programs linked with it ask for at run time, so a new minor version replaces it in place.
MAJOR = $(firstword $(subst ., ,$(VERSION)))

PKGS = libxml-2.0 zlib yaml-0.1
# ISA-L's igzip inflates gzip input three to four times as fast as zlib (Debian: libisal-dev);
# without it, or with NO_ISAL=1, zlib does (see lib/base/input.c).  Found by pkg-config, or
# else by linking a test program, once per make.
NO_ISAL ?=
ifeq ($(strip $(NO_ISAL)),)
  HAVE_ISAL := $(shell if $(PKG_CONFIG) --exists libisal 2>/dev/null; then echo pc; \
	elif printf '%s\n' '$(HASH)include <isa-l/igzip_lib.h>' \
	  'int main(void) { struct inflate_state s; isal_inflate_init(&s); return 0; }' | \
	  $(CC) -x c - -o /dev/null -lisal >/dev/null 2>&1; then echo lib; fi)
endif
ifeq ($(HAVE_ISAL),pc)
  PKGS += libisal
else ifeq ($(HAVE_ISAL),lib)
  ISAL_LIBS = -lisal
endif
# := so pkg-config runs once per make, not once per compile.
PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
PKG_LIBS := $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null)
ifeq ($(strip $(PKG_LIBS)),)
  # Only a warning: clean, lint and format need none of these libraries.
  $(warning pkg-config found none of: $(PKGS); install libxml2-dev zlib1g-dev libyaml-dev)
endif

CFLAGS = -std=c17 -O2 -g -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	 -Wformat=2 -Wvla -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -pthread \
	 -Ilib -I$(BUILD)/gen $(PKG_CFLAGS)
ifneq ($(HAVE_ISAL),)
  CFLAGS += -DVC_HAVE_ISAL
endif
ifeq ($(WERROR),1)
  CFLAGS += -Werror
endif
# The optimised build make bench times: the whole library and each tool optimised as one
# (-flto: calls across files, such as the validator's into the rules, are inlined).
BENCH_CFLAGS ?= -O3 -march=native -DNDEBUG -flto=auto
# EXTRA_* come last so callers can override anything (-O3, -fsanitize=...).
ALL_CFLAGS = $(CFLAGS) $(EXTRA_CFLAGS)
ALL_LDFLAGS = $(LDFLAGS) $(EXTRA_LDFLAGS)
LIBS = $(PKG_LIBS) $(ISAL_LIBS) -lm -pthread

# The embed generator runs on the build machine: no sanitizers, no -Werror surprises.
HOST_CFLAGS = -std=c17 -O2 -Wall -Wextra

# ---- quiet output: "CC lib/foo.c"; V=1 prints the commands instead ----------------------
ifeq ($(V),1)
  Q =
  say =
else
  Q = @
  say = @printf '  %-6s %s\n' '$(1)' '$(2)';
endif

# ---- what exists ----------------------------------------------------------------------------
# sort: the order of $(wildcard) is not promised, and the embedded table must be stable.
LIB_SRC = $(sort $(wildcard lib/*/*.c))
LIB_OBJ = $(LIB_SRC:lib/%.c=$(BUILD)/lib/%.o) $(BUILD)/gen/vc_embedded.o \
	  $(BUILD)/gen/vc_embedded_html.o $(BUILD)/gen/vc_embedded_openings.o
VARIANTS = $(sort $(wildcard formats/variants/*.yaml))
HTML_ASSETS = $(sort $(wildcard formats/html/*.js formats/html/*.css))
OPENING_LISTS = $(sort $(wildcard formats/openings/*.tsv))

TOOL_MAIN = $(sort $(wildcard tools/vchess-*.c))
TOOL_HELPER = $(filter-out $(TOOL_MAIN),$(sort $(wildcard tools/*.c)))
TOOLS = $(TOOL_MAIN:tools/%.c=$(BUILD)/bin/%)
TOOL_HELPER_OBJ = $(TOOL_HELPER:tools/%.c=$(BUILD)/tools/%.o)

TEST_MAIN = $(sort $(wildcard tests/unit/t_*.c))
TEST_HELPER = $(filter-out $(TEST_MAIN),$(sort $(wildcard tests/unit/*.c)))
TESTS = $(TEST_MAIN:tests/unit/%.c=$(BUILD)/tests/%)
TEST_HELPER_OBJ = $(TEST_HELPER:tests/unit/%.c=$(BUILD)/tests/unit/%.o)
FUZZ_MAIN = $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_REPLAY = $(FUZZ_MAIN:tests/fuzz/%.c=$(BUILD)/fuzz-replay/%)

STATIC_LIB = $(BUILD)/libvchess.a
SHARED_REAL = $(BUILD)/libvchess.so.$(VERSION)
SHARED_SONAME = libvchess.so.$(MAJOR)
SHARED_LIB = $(BUILD)/libvchess.so
EMBED = $(BUILD)/build-aux/embed

MAN_PAGES = $(wildcard man/man1/*.1 man/man3/*.3 man/man5/*.5 man/man7/*.7)
FORMAT_SRC = $(wildcard lib/*.h lib/*/*.[ch] tools/*.[ch] tests/unit/*.[ch] build-aux/*.c)

.PHONY: all lib tools tests check corpora san tsan bench bench-scale bench-compare fuzz lint analyse format install uninstall \
	clean FORCE
.DEFAULT_GOAL := all
# A recipe that fails must not leave a target that looks up to date.
.DELETE_ON_ERROR:

all: lib tools
lib: $(STATIC_LIB) $(SHARED_LIB)
tools: $(TOOLS)
tests: $(TESTS) $(FUZZ_REPLAY)

# ---- stamps: rebuild when the flags change, or when a variant file is removed --------------
# Each is rewritten only when its content changes, so an unchanged stamp keeps its old time
# and triggers nothing (the trick git's Makefile uses for GIT-CFLAGS).
$(BUILD)/flags: FORCE
	@mkdir -p $(@D)
	@s='$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(LIBS)'; \
	 if [ "$$s" != "$$(cat $@ 2>/dev/null)" ]; then printf '%s\n' "$$s" > $@; fi

$(BUILD)/gen/variants.list: FORCE
	@mkdir -p $(@D)
	@s='$(VARIANTS)'; \
	 if [ "$$s" != "$$(cat $@ 2>/dev/null)" ]; then printf '%s\n' "$$s" > $@; fi

$(BUILD)/gen/html.list: FORCE
	@mkdir -p $(@D)
	@s='$(HTML_ASSETS)'; \
	 if [ "$$s" != "$$(cat $@ 2>/dev/null)" ]; then printf '%s\n' "$$s" > $@; fi

$(BUILD)/gen/openings.list: FORCE
	@mkdir -p $(@D)
	@s='$(OPENING_LISTS)'; \
	 if [ "$$s" != "$$(cat $@ 2>/dev/null)" ]; then printf '%s\n' "$$s" > $@; fi

# ---- the library ----------------------------------------------------------------------------
# One compile per file, with -fPIC, serves both the static and the shared library.
$(BUILD)/lib/%.o: lib/%.c $(BUILD)/flags
	$(call say,CC,$<)mkdir -p $(@D) && $(CC) $(ALL_CFLAGS) -fPIC -MMD -MP -c -o $@ $<

$(EMBED): build-aux/embed.c
	$(call say,HOSTCC,$<)mkdir -p $(@D) && $(HOSTCC) $(HOST_CFLAGS) -o $@ $<

# Depends on the list stamp as well as the files: a removed file changes only the list.
$(BUILD)/gen/vc_embedded.c: $(EMBED) $(VARIANTS) $(BUILD)/gen/variants.list
	$(call say,EMBED,$(words $(VARIANTS)) variant files)$(EMBED) $@ $(VARIANTS)

$(BUILD)/gen/vc_embedded_html.c: $(EMBED) $(HTML_ASSETS) $(BUILD)/gen/html.list
	$(call say,EMBED,$(words $(HTML_ASSETS)) page files)$(EMBED) \
	  --table vc_embedded_html vc_embedded_html_count $@ $(HTML_ASSETS)

$(BUILD)/gen/vc_embedded_openings.c: $(EMBED) $(OPENING_LISTS) $(BUILD)/gen/openings.list
	$(call say,EMBED,$(words $(OPENING_LISTS)) opening lists)$(EMBED) \
	  --table vc_embedded_openings vc_embedded_opening_count $@ $(OPENING_LISTS)

$(BUILD)/gen/%.o: $(BUILD)/gen/%.c $(BUILD)/flags
	$(call say,CC,$<)$(CC) $(ALL_CFLAGS) -fPIC -MMD -MP -c -o $@ $<

# rm first: ar would keep members of deleted sources.
$(STATIC_LIB): $(LIB_OBJ)
	$(call say,AR,$@)rm -f $@ && $(AR) rcs $@ $^

$(SHARED_REAL): $(LIB_OBJ)
	$(call say,LD,$@)$(CC) $(ALL_CFLAGS) -shared -Wl,-soname,$(SHARED_SONAME) $(ALL_LDFLAGS) \
	  -o $@ $^ $(LIBS)

# The links: libvchess.so.MAJOR (what the loader looks for) and libvchess.so (what -lvchess
# finds), as they are installed.
$(SHARED_LIB): $(SHARED_REAL)
	$(Q)ln -sf $(notdir $(SHARED_REAL)) $(BUILD)/$(SHARED_SONAME) && \
	  ln -sf $(SHARED_SONAME) $@

# ---- tools and unit tests -------------------------------------------------------------------
$(BUILD)/tools/%.o: tools/%.c $(BUILD)/flags
	$(call say,CC,$<)mkdir -p $(@D) && $(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(TOOLS): $(BUILD)/bin/%: $(BUILD)/tools/%.o $(TOOL_HELPER_OBJ) $(STATIC_LIB)
	$(call say,LD,$@)mkdir -p $(@D) && \
	  $(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(TOOL_HELPER_OBJ) $(STATIC_LIB) $(LIBS)

$(BUILD)/tests/unit/%.o: tests/unit/%.c $(BUILD)/flags
	$(call say,CC,$<)mkdir -p $(@D) && $(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(TESTS): $(BUILD)/tests/%: $(BUILD)/tests/unit/%.o $(TEST_HELPER_OBJ) $(STATIC_LIB)
	$(call say,LD,$@)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(TEST_HELPER_OBJ) \
	  $(STATIC_LIB) $(LIBS)

# Fuzz targets: each tests/fuzz/fuzz_NAME.c defines LLVMFuzzerTestOneInput; ordinary
# builds link it with a plain driver that replays the seeds and past findings of
# corpora/fuzz/NAME (tests/scripts/fuzz-replay.sh); make fuzz builds them with libFuzzer.
$(BUILD)/tests/fuzz/%.o: tests/fuzz/%.c $(BUILD)/flags
	$(call say,CC,$<)mkdir -p $(@D) && $(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(FUZZ_REPLAY): $(BUILD)/fuzz-replay/%: $(BUILD)/tests/fuzz/%.o $(BUILD)/tests/fuzz/replay.o \
		$(STATIC_LIB)
	$(call say,LD,$@)mkdir -p $(@D) && $(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< \
	  $(BUILD)/tests/fuzz/replay.o $(STATIC_LIB) $(LIBS)

-include $(wildcard $(BUILD)/lib/*/*.d $(BUILD)/gen/*.d $(BUILD)/tools/*.d $(BUILD)/tests/unit/*.d \
	   $(BUILD)/tests/fuzz/*.d)

# ---- running ----------------------------------------------------------------------------------
# The runner runs whatever binaries it finds, so first drop those whose source is gone.
check: all tests
	$(Q)rm -f $(filter-out $(TESTS),$(wildcard $(BUILD)/tests/t_*)) \
	  $(filter-out $(TOOLS),$(wildcard $(BUILD)/bin/vchess-*))
	$(Q)CORPORA='$(CORPORA)' bash tests/run.sh $(BUILD)

# Every file is checked against the manifest's size and sha256; what is missing makes the
# tests that need it skip, and make check says so at its end.
corpora:
	$(Q)CORPORA_FROM='$(CORPORA_FROM)' bash build-aux/corpora corpora/MANIFEST '$(CORPORA)'

SAN_FLAGS = -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer \
	    -fno-sanitize-recover=all
# The options make a sanitizer report fail the test that caused it, with a stack.
# The sanitizers slow the tools down several times: each test gets 900 s there,
# the timeout being a guard against hangs, never a measure of speed.  VCHESS_SAN=1 lets
# the tests whose time is another program's (the browser) or that only recheck
# documents skip, saying so: the check run runs them.
san:
	$(Q)VCHESS_SAN=1 VCHESS_TEST_TIMEOUT=$${VCHESS_TEST_TIMEOUT:-900} ASAN_OPTIONS=detect_leaks=1 \
	 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	 $(MAKE) --no-print-directory BUILD=build-san CC=clang EXTRA_CFLAGS='$(SAN_FLAGS)' \
	   EXTRA_LDFLAGS='-fsanitize=address,undefined' check

# The threads' tests (games in input order at any -j, damaged input, progress, the
# API's parallel runs) under ThreadSanitizer: a data race fails the test that met it.
TSAN_TESTS = scripts/parallel\.sh|scripts/convert-parallel\.sh|t_api
tsan:
	$(Q)$(MAKE) --no-print-directory BUILD=build-tsan CC=clang \
	   EXTRA_CFLAGS='-O1 -g -fsanitize=thread' EXTRA_LDFLAGS='-fsanitize=thread' all tests
	$(Q)VCHESS_SAN=1 VCHESS_TEST_TIMEOUT=$${VCHESS_TEST_TIMEOUT:-900} \
	 TSAN_OPTIONS=halt_on_error=1:exitcode=66 ONLY='$(TSAN_TESTS)' \
	 CORPORA='$(CORPORA)' bash tests/run.sh build-tsan

bench:
	$(Q)$(MAKE) --no-print-directory BUILD=build-bench EXTRA_CFLAGS='$(BENCH_CFLAGS)' all tests
	$(Q)if [ -f tests/bench/run.sh ]; then CORPORA='$(CORPORA)' bash tests/bench/run.sh build-bench; \
	 else echo 'bench: no tests/bench/run.sh yet'; fi
	$(Q)bash tests/bench/fsf-perft.sh build-bench

# Validation as the archive grows: x1, x4, x8 at -j 1, and SIZE_MB (10 GB) through GNU parallel.
bench-scale:
	$(Q)$(MAKE) --no-print-directory BUILD=build-bench EXTRA_CFLAGS='$(BENCH_CFLAGS)' all
	$(Q)CORPORA='$(CORPORA)' bash tests/bench/scale.sh build-bench $(SIZE_MB)

# The working tree against an earlier commit (REV, default HEAD~1), side by side in one run.
bench-compare:
	$(Q)CORPORA='$(CORPORA)' bash tests/bench/compare.sh $(or $(REV),HEAD~1)

fuzz: all tests
	$(Q)if [ -f tests/fuzz/run.sh ]; then VCHESS_BUILD=$(BUILD) bash tests/fuzz/run.sh $(SECONDS); \
	 else echo 'fuzz: no tests/fuzz/run.sh yet'; fi

lint: analyse
	$(Q)clang-format --dry-run --Werror $(FORMAT_SRC)

# The static analysis CI runs: zero findings.
analyse:
	$(Q)cppcheck --error-exitcode=1 --enable=warning,performance,portability --inline-suppr \
	  --quiet -Ilib $(wildcard lib tools)

format:
	$(Q)clang-format -i $(FORMAT_SRC)

# ---- installing -----------------------------------------------------------------------------
# The .pc file is made here, not earlier, so "make install PREFIX=..." never installs a stale one.
# The shared library goes in as its real file and its two links.  As root, into the running
# system (no DESTDIR), ldconfig then refreshes the loader's cache: programs linked with the
# library run without LD_LIBRARY_PATH when LIBDIR is one the loader searches (/usr/local/lib
# and /usr/lib are, on Debian); for another PREFIX, see vchess(3) FILES.
LDCONFIG ?= ldconfig
install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(INCLUDEDIR)
	$(if $(TOOLS),install -m 755 $(TOOLS) $(DESTDIR)$(BINDIR))
	install -m 644 $(STATIC_LIB) $(DESTDIR)$(LIBDIR)
	install -m 755 $(SHARED_REAL) $(DESTDIR)$(LIBDIR)
	ln -sf $(notdir $(SHARED_REAL)) $(DESTDIR)$(LIBDIR)/$(SHARED_SONAME)
	ln -sf $(SHARED_SONAME) $(DESTDIR)$(LIBDIR)/libvchess.so
	install -m 644 lib/vchess.h $(DESTDIR)$(INCLUDEDIR)
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' -e 's|@VERSION@|$(VERSION)|g' \
	  -e 's|@REQUIRES@|$(PKGS)|g' -e 's|@LIBS_PRIVATE@|$(strip $(ISAL_LIBS) -lm -pthread)|g' \
	  libvchess.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/libvchess.pc
	for f in $(MAN_PAGES); do d=$${f%/*}; d=$${d##*/}; \
	  install -d $(DESTDIR)$(MANDIR)/$$d && install -m 644 $$f $(DESTDIR)$(MANDIR)/$$d || exit 1; \
	done
	$(call ldconfig)

# ldconfig as root into the running system, when there is one to run (not in a DESTDIR).
ldconfig = @if [ -z '$(DESTDIR)' ] && [ "$$(id -u)" = 0 ] && command -v $(LDCONFIG) >/dev/null 2>&1; \
	  then echo '$(LDCONFIG)'; $(LDCONFIG); fi

uninstall:
	rm -f $(TOOLS:$(BUILD)/bin/%=$(DESTDIR)$(BINDIR)/%) \
	  $(DESTDIR)$(LIBDIR)/libvchess.a $(DESTDIR)$(LIBDIR)/libvchess.so \
	  $(DESTDIR)$(LIBDIR)/$(SHARED_SONAME) $(DESTDIR)$(LIBDIR)/$(notdir $(SHARED_REAL)) \
	  $(DESTDIR)$(INCLUDEDIR)/vchess.h $(DESTDIR)$(LIBDIR)/pkgconfig/libvchess.pc \
	  $(foreach m,$(MAN_PAGES),$(DESTDIR)$(MANDIR)/$(patsubst man/%,%,$(m)))
	$(call ldconfig)

clean:
	rm -rf $(BUILD) build-san build-tsan build-bench build-fuzz
