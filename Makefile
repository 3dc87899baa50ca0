# iocensus top-level Makefile.
#   make            build the programs into build/
#   make check      build, run every test, then rerun the suite under ASan+UBSan
#   make demo       scan /usr into demo/iocensus.db and print a summary
#   make bench      benchmarks (results go to docs/PERFORMANCE.md by hand)
#   make install    programs (fsscan-mpi when built), man pages, systemd
#                   units, logrotate, cron and configuration files under
#                   DESTDIR and PREFIX (default /usr/local)
#   make deb        Debian packages into build/deb/ (debian/)
VERSION  := 0.1.0
CC       ?= cc
PKGS     := blkid sqlite3 zlib mount
BUILD    ?= build
SAN      ?=
CFLAGS_BASE := -std=c11 -O2 -Wall -Wextra -Werror -g -D_GNU_SOURCE \
               -DIOCENSUS_VERSION='"$(VERSION)"' -Ilib -I$(BUILD) \
               -MMD -MP
PKG_CONFIG   ?= pkg-config
INSTALL_DEPS ?= scripts/install-deps
# pkg-config runs when a recipe first needs its answer, once, never while
# make reads this file: on a fresh machine the libraries appear only when
# scripts/install-deps has run (make demo, make check), after the parse.
# once(VAR,ARGS): VAR's value is pkg-config ARGS, asked on first use.
once = $(eval $1 := $$(shell $$(PKG_CONFIG) $2 2>/dev/null))$($1)
PKG_CFLAGS  = $(call once,PKG_CFLAGS,--cflags $(PKGS) $(REPORT_PKGS))
PKG_LIBS    = $(call once,PKG_LIBS,--libs $(PKGS))
ifeq ($(SAN),1)
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
# fsscan-mpi's own dlclose (fsscan/mpi/mpi_lsan.c) must bind Open MPI's calls.
MPI_SANLINK := -Wl,--export-dynamic-symbol=dlclose
endif
# The numbered invariants of docs/ARCHITECTURE.md are assert()ed in debug
# builds; the sanitizer build of `make check` is one.
DEBUG    ?= $(SAN)
ifneq ($(DEBUG),1)
DBGFLAGS := -DNDEBUG
endif
# CPPFLAGS and LDFLAGS: a packager's (dpkg-buildflags: fortify, relro).
CFLAGS_ALL  = $(CFLAGS_BASE) $(DBGFLAGS) $(SANFLAGS) $(PKG_CFLAGS) $(CPPFLAGS) \
    $(CFLAGS)
LDLIBS_ALL  = $(LDFLAGS) $(PKG_LIBS) -lpthread -lm $(SANFLAGS)
# The front end also reads and writes archives, and lays its tables out
# to the terminal with libsmartcols (util-linux, as libblkid and libmount).
REPORT_PKGS := libarchive smartcols
REPORT_LIBS = $(call once,REPORT_LIBS,--libs $(REPORT_PKGS))
# The daemon links only what it uses: every mapped library costs resident memory.
IOSTATMON_LIBS = $(LDFLAGS) -Wl,--as-needed $(call once,IOSTATMON_PKG,--libs blkid zlib) \
    $(SANFLAGS)

# lib/'s rooms (lib/iolog/) are included as "iolog/iolog.h" through -Ilib.
LIB_SRC    := $(wildcard lib/*.c lib/*/*.c)
FSSCAN_SRC := $(filter-out fsscan/mpi/%,$(wildcard fsscan/*/*.c))
MPI_SRC    := $(wildcard fsscan/mpi/*.c)
IOSTATMON_SRC := $(wildcard iostatmon/*.c)
REPORT_SRC := $(wildcard report/*/*.c)
# Unit tests stand in a folder per program (tests/unit/lib/, ...), as
# the code does; their shared headers are in tests/unit/.
# test_mpi* need <mpi.h>: built with fsscan-mpi, by the MPI compiler.
UNIT_SRC   := $(filter-out tests/unit/fsscan/test_mpi%,$(wildcard tests/unit/*/*.c))
MPI_UNIT_BIN := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(wildcard tests/unit/fsscan/test_mpi*.c))
SQL_SRC    := sql/schema.sql sql/io.sql sql/views.sql sql/dash.sql

LIB_OBJ    := $(LIB_SRC:%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/sql_embed.o
FSSCAN_OBJ := $(FSSCAN_SRC:%.c=$(BUILD)/obj/%.o)
MPI_OBJ    := $(MPI_SRC:%.c=$(BUILD)/obj/%.o)
MPICC      ?= mpicc
IOSTATMON_OBJ := $(IOSTATMON_SRC:%.c=$(BUILD)/obj/%.o)
REPORT_OBJ := $(REPORT_SRC:%.c=$(BUILD)/obj/%.o)
PROG_OBJ   := $(filter-out %/main.o,$(FSSCAN_OBJ) $(IOSTATMON_OBJ))
# Unit tests take report/ objects from an archive: only what a test uses.
REPORT_LIB := $(BUILD)/libreport.a
UNIT_BIN   := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
HELPER_BIN := $(BUILD)/tests/delayfs
BENCH_GEN     := $(BUILD)/bench/iocensus_gen
BENCH_GEN_SRC := $(wildcard scripts/bench/iocensus_*.c)

.PHONY: all check test test-asan demo bench clean deps fuzz install uninstall \
    mpi deb
PROGRAMS := $(BUILD)/fsscan
ifneq ($(wildcard iostatmon/main.c),)
PROGRAMS += $(BUILD)/iostatmon
endif
ifneq ($(wildcard report/cli/main.c),)
PROGRAMS += $(BUILD)/iocensus
endif

all: $(PROGRAMS) $(UNIT_BIN) $(HELPER_BIN) $(BENCH_GEN) mpi

deps:
	@$(INSTALL_DEPS)

$(BUILD)/libiocensus.a: $(LIB_OBJ)
	@mkdir -p $(@D)
	ar rcs $@ $^

$(BUILD)/fsscan: $(FSSCAN_OBJ) $(BUILD)/libiocensus.a
	$(CC) -o $@ $(FSSCAN_OBJ) $(BUILD)/libiocensus.a $(LDLIBS_ALL)

# fsscan-mpi is built whenever an MPI compiler wrapper is found when the
# recipe runs (scripts/install-deps installs Open MPI); make works without.
mpi: $(FSSCAN_OBJ) $(BUILD)/libiocensus.a
	@if command -v $(MPICC) >/dev/null 2>&1; then \
		$(MAKE) --no-print-directory $(BUILD)/fsscan-mpi $(MPI_UNIT_BIN); \
	else \
		echo "make: $(MPICC) not found: fsscan-mpi not built" \
		    "(scripts/install-deps installs Open MPI)"; \
	fi

$(BUILD)/obj/fsscan/mpi/%.o: fsscan/mpi/%.c | $(BUILD)/sql_embed.h
	@mkdir -p $(@D)
	$(MPICC) $(CFLAGS_ALL) -c -o $@ $<

$(BUILD)/fsscan-mpi: $(MPI_OBJ) $(filter-out %/main.o,$(FSSCAN_OBJ)) $(BUILD)/libiocensus.a
	$(MPICC) -o $@ $(MPI_OBJ) $(filter-out %/main.o,$(FSSCAN_OBJ)) \
	    $(BUILD)/libiocensus.a $(LDLIBS_ALL) $(MPI_SANLINK)

$(MPI_UNIT_BIN): $(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libiocensus.a
	@mkdir -p $(@D)
	$(MPICC) $(CFLAGS_ALL) -Itests/unit -Ifsscan -o $@ $< \
	    $(BUILD)/libiocensus.a $(LDLIBS_ALL) $(MPI_SANLINK)

$(BUILD)/iostatmon: $(IOSTATMON_OBJ) $(BUILD)/libiocensus.a
	$(CC) -o $@ $(IOSTATMON_OBJ) $(BUILD)/libiocensus.a $(IOSTATMON_LIBS)

$(BUILD)/iocensus: $(REPORT_OBJ) $(BUILD)/libiocensus.a
	$(CC) -o $@ $(REPORT_OBJ) $(BUILD)/libiocensus.a $(REPORT_LIBS) $(LDLIBS_ALL)

# The rooms of report/ and of fsscan/ include each other as "room/room.h".
$(REPORT_OBJ): CFLAGS_ALL += -Ireport
$(FSSCAN_OBJ) $(MPI_OBJ): CFLAGS_ALL += -Ifsscan

# -MMD -MP: each object depends on exactly the headers it includes.
$(BUILD)/obj/%.o: %.c | $(BUILD)/sql_embed.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -c -o $@ $<

$(BUILD)/sql_embed.c $(BUILD)/sql_embed.h &: $(SQL_SRC) scripts/embed-sql
	@mkdir -p $(BUILD)
	scripts/embed-sql $(BUILD)/sql_embed $(SQL_SRC)

$(BUILD)/obj/sql_embed.o: $(BUILD)/sql_embed.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -c -o $@ $<

$(REPORT_LIB): $(filter-out %/main.o,$(REPORT_OBJ))
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

# Unit tests link every fsscan and iostatmon object except the mains.
$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libiocensus.a $(PROG_OBJ) $(REPORT_LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -Itests/unit -Ifsscan -Iiostatmon -Ireport -o $@ $< $(PROG_OBJ) \
	    $(REPORT_LIB) $(BUILD)/libiocensus.a $(REPORT_LIBS) $(LDLIBS_ALL)

# FUSE test helper: a passthrough file system with a fixed per-operation delay.
$(BUILD)/tests/delayfs: tests/helpers/delayfs.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_BASE) $(shell $(PKG_CONFIG) --cflags fuse3) -o $@ $< \
	    $(shell $(PKG_CONFIG) --libs fuse3) -lpthread

# Both builds use every CPU; tests/run then runs tests side by side.
NPROC := $(shell nproc 2>/dev/null || echo 1)
check: deps
	@$(MAKE) --no-print-directory -j$(NPROC) all BUILD=build
	@$(MAKE) --no-print-directory -j$(NPROC) all BUILD=build-asan SAN=1
	@tests/run build build-asan

test: all
	@tests/run $(BUILD)

# After deps, a make of its own builds: nothing of the build may start
# before the packages are there (make -j runs prerequisites side by side).
DEMO_SCRIPT ?= scripts/demo
demo: deps
	@$(MAKE) --no-print-directory all
	@$(DEMO_SCRIPT)

# The I/O benchmark's log generator (scripts/bench/iocensus_gen.c): make
# bench's study-sized logs, and the demo's generated fortnight.
$(BENCH_GEN): $(BENCH_GEN_SRC) $(wildcard scripts/bench/iocensus_*.h) $(BUILD)/libiocensus.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -Iscripts/bench -o $@ $(BENCH_GEN_SRC) \
	    $(BUILD)/libiocensus.a $(LDLIBS_ALL)

bench: deps
	@$(MAKE) --no-print-directory all
	@scripts/bench/run

# Bounded libFuzzer runs of the log reader, repair and diskstats parser
# (FUZZ_SECONDS each, default 60); not part of make check.
fuzz: deps
	@scripts/fuzz

# make install [PREFIX=/usr/local] [DESTDIR=]: the programs, their man
# pages, the systemd units (iostatmon's, and the iocensus timers and
# their services, all disabled), iostatmon's logrotate note, the
# Prometheus alerting rules on the metrics (DATADIR/iocensus),
# fsscan-mpi-cron (SBINDIR), the cron file of the nightly census,
# installed disabled (it says how to enable it), and the configuration
# file. The units and the cron file name the programs where they are
# installed ($(BINDIR)), not where they were built. The cron file and the
# configuration are the administrator's once edited: install-sums writes
# them only when missing or unedited since the last install, and
# uninstall removes them only when unedited.
PREFIX         ?= /usr/local
DESTDIR        ?=
BINDIR         ?= $(PREFIX)/bin
SBINDIR        ?= $(PREFIX)/sbin
MANDIR         ?= $(PREFIX)/share/man
SYSCONFDIR     ?= /etc
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
DATADIR        ?= $(PREFIX)/share
INSTALL        ?= install
# The directories make install made (scripts/install-dirs), and the
# configuration files it wrote with their SHA-256 (scripts/install-sums),
# for uninstall.
DIRLIST := $(DATADIR)/iocensus/installed-dirs
SUMLIST := $(DATADIR)/iocensus/installed-sums
UNITS := iostatmon.service iocensus-scan@.service iocensus-scan@.timer \
    iocensus-ingest.service iocensus-ingest.timer \
    iocensus-prune.service iocensus-prune.timer
CONFFILES := $(SYSCONFDIR)/cron.d/iocensus $(SYSCONFDIR)/iocensus/iocensus.conf
INSTALLED := $(BINDIR)/fsscan $(BINDIR)/iostatmon $(BINDIR)/iocensus \
    $(BINDIR)/fsscan-mpi $(MANDIR)/man1/fsscan-mpi.1 \
    $(MANDIR)/man1/fsscan.1 $(MANDIR)/man1/iocensus.1 \
    $(MANDIR)/man8/iostatmon.8 $(MANDIR)/man8/fsscan-mpi-cron.8 \
    $(MANDIR)/man5/iocensus.conf.5 \
    $(SBINDIR)/fsscan-mpi-cron $(addprefix $(SYSTEMDUNITDIR)/,$(UNITS)) \
    $(SYSCONFDIR)/logrotate.d/iostatmon \
    $(DATADIR)/iocensus/iocensus.rules.yml \
    $(DATADIR)/iocensus/iocensus.grafana.json
# @BINDIR@ in the units and the cron file: where the programs now are.
subst_bindir = sed 's|@BINDIR@|$(BINDIR)|g' $1 > $2.tmp && \
    chmod 644 $2.tmp && mv $2.tmp $2

# fsscan-mpi and its pages too, when it was built (an MPI compiler found).
install: $(BUILD)/fsscan $(BUILD)/iostatmon $(BUILD)/iocensus mpi
	scripts/install-dirs make $(DIRLIST) "$(DESTDIR)" $(BINDIR) \
	    $(MANDIR)/man1 $(MANDIR)/man5 $(MANDIR)/man8 $(SYSTEMDUNITDIR) \
	    $(SYSCONFDIR)/logrotate.d $(SYSCONFDIR)/cron.d \
	    $(SYSCONFDIR)/iocensus $(DATADIR)/iocensus
	$(INSTALL) -m 755 $(filter-out mpi,$^) $(DESTDIR)$(BINDIR)/
	$(INSTALL) -m 644 docs/fsscan.1 docs/iocensus.1 $(DESTDIR)$(MANDIR)/man1/
	if [ -x $(BUILD)/fsscan-mpi ]; then \
		scripts/install-dirs make $(DIRLIST) "$(DESTDIR)" $(SBINDIR) && \
		$(INSTALL) -m 755 $(BUILD)/fsscan-mpi $(DESTDIR)$(BINDIR)/ && \
		$(INSTALL) -m 755 scripts/fsscan-mpi-cron $(DESTDIR)$(SBINDIR)/ && \
		$(INSTALL) -m 644 docs/fsscan-mpi.1 $(DESTDIR)$(MANDIR)/man1/ && \
		$(INSTALL) -m 644 docs/fsscan-mpi-cron.8 $(DESTDIR)$(MANDIR)/man8/; \
	fi
	$(INSTALL) -m 644 docs/iostatmon.8 $(DESTDIR)$(MANDIR)/man8/
	$(INSTALL) -m 644 docs/iocensus.conf.5 $(DESTDIR)$(MANDIR)/man5/
	$(INSTALL) -m 644 scripts/iostatmon.logrotate \
	    $(DESTDIR)$(SYSCONFDIR)/logrotate.d/iostatmon
	$(INSTALL) -m 644 scripts/iocensus.rules.yml \
	    $(DESTDIR)$(DATADIR)/iocensus/iocensus.rules.yml
	$(INSTALL) -m 644 scripts/iocensus.grafana.json \
	    $(DESTDIR)$(DATADIR)/iocensus/iocensus.grafana.json
	for u in $(UNITS); do \
		$(call subst_bindir,scripts/$$u,$(DESTDIR)$(SYSTEMDUNITDIR)/$$u) || exit 1; \
	done
	$(call subst_bindir,scripts/iocensus.cron,$(BUILD)/iocensus.cron)
	scripts/install-sums install $(SUMLIST) "$(DESTDIR)" \
	    $(BUILD)/iocensus.cron $(SYSCONFDIR)/cron.d/iocensus
	scripts/install-sums install $(SUMLIST) "$(DESTDIR)" \
	    scripts/iocensus.conf $(SYSCONFDIR)/iocensus/iocensus.conf

# First the metrics file the configuration or the cron file names (a
# regular file named *.prom: node_exporter would serve it, stale), then
# the files, the configuration files still as installed, and the
# directories install made, those left empty.
uninstall:
	scripts/conf-metrics $(addprefix $(DESTDIR),$(CONFFILES)) | \
	while IFS= read -r f; do \
		case "$$f" in /*.prom) [ ! -f "$(DESTDIR)$$f" ] || \
		    [ -L "$(DESTDIR)$$f" ] || rm -f "$(DESTDIR)$$f" ;; esac; \
	done
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))
	scripts/install-sums remove $(SUMLIST) "$(DESTDIR)"
	scripts/install-dirs remove $(DIRLIST) "$(DESTDIR)"

# make deb: Debian packages (iostatmon, iocensus, iocensus-mpi) into
# build/deb/, built by debian/rules from this tree; the build's
# dependencies (debhelper) through scripts/install-deps first. Nothing
# is written outside the tree (dpkg-buildpackage would write its
# .changes and .buildinfo into the parent directory). binary builds
# first (debian/rules build would find the directory build/).
deb: deps
	dpkg-checkbuilddeps
	debian/rules clean
	debian/rules binary
	@ls build/deb/*.deb

clean:
	rm -rf build build-asan build-fuzz demo

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
