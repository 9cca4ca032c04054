# seinstall — plain GNU make. `make help` lists the targets.
#
# Library objects are built once (PIC) and used twice: in libseinstall.so.0, which exports only
# the ABI an installer links (seinstall.h, libseinstall.sym), and in an internal archive that
# the commands, the unit tests and the test helpers link, so they reach the calls that are not
# part of the ABI (seinstall-internal.h). Every output lands under $(BUILD) (build/, build/san
# for SANITIZE=1): the library in lib/, the commands in bin/, the translation template in po/.
#
# Packaging conventions: CFLAGS, CPPFLAGS and LDFLAGS from the environment or the command line
# are used (`dpkg-buildflags --export=make` works), CC, AR and PKG_CONFIG are variables, and
# -Werror is on only where the project's own checks ask for it (make check, check-quick,
# tests): WERROR=-Werror turns it on for any build. WITH_FIRSTBOOT=0 builds without libnewt
# (no seinstall-firstboot). The version is defined here and nowhere else: the commands, the
# .pc file, the man pages' footers and `make dist` take it from VERSION.

VERSION    := 1.0
SONAME     := libseinstall.so.0
PREFIX     ?= /usr
BINDIR     ?= $(PREFIX)/sbin
# The distribution's library directory, from where its own libmount is (pkg-config):
# lib/x86_64-linux-gnu on Debian, lib64 on Fedora; else the compiler's multiarch one, else lib.
# Recursive (=): pkg-config runs only when install or the .pc file needs it.
SYS_LIBDIR  = $(shell $(PKG_CONFIG) --variable=libdir mount 2>/dev/null)
MULTIARCH   = $(shell $(CC) -print-multiarch 2>/dev/null)
LIBDIR     ?= $(PREFIX)/$(or $(patsubst /usr/%,%,$(filter /usr/%,$(SYS_LIBDIR))),$(if $(MULTIARCH),lib/$(MULTIARCH)),lib)
INCLUDEDIR ?= $(PREFIX)/include
LIBEXECDIR ?= $(PREFIX)/libexec
DATADIR    ?= $(PREFIX)/share
MANDIR     ?= $(DATADIR)/man
LOCALEDIR  ?= $(DATADIR)/locale
# Where systemd looks for units (systemd's pkg-config), /lib/systemd/system without it.
UNITDIR    ?= $(or $(shell $(PKG_CONFIG) --variable=systemdsystemunitdir systemd 2>/dev/null),/lib/systemd/system)
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
# The relabel in the initramfs (initramfs/): its script, initramfs-tools' hook and boot script,
# dracut's module, and the generator for what the initramfs could not mount.
INITRAMFSTOOLSDIR ?= $(DATADIR)/initramfs-tools
DRACUTMODDIR ?= $(PREFIX)/lib/dracut/modules.d
# Generators beside the units: /lib/systemd/system-generators, /usr/lib/... on Fedora.
GENERATORDIR ?= $(patsubst %/system,%/system-generators,$(UNITDIR))
PKGDATADIR ?= $(DATADIR)/seinstall
DESTDIR    ?=

CC         ?= cc
AR         ?= ar
PKG_CONFIG ?= pkg-config
CFLAGS     ?= -O2 -g
WERROR     ?=
WITH_FIRSTBOOT ?= 1
PKGS       := blkid mount libselinux libsepol libsemanage libpcre2-8 libseccomp
FB_PKGS    := $(if $(filter 1,$(WITH_FIRSTBOOT)),libnewt slang)
# Recursive (=) so that pkg-config runs only when a recipe needs it, after `deps` installed it.
PKG_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(PKGS))
PKG_LIBS   = $(shell $(PKG_CONFIG) --libs $(PKGS)) -lbz2 -lpthread
# STATIC_LIBS (-lNAME ...): libraries the seinstall command (and the policy build's helper)
# links from their static archives,
# the others shared (the udeb's copy: debian/rules). Only that link: the shared library and
# the tests link everything shared.
STATIC_LIBS ?=
CLI_STATIC = -Wl,-Bstatic $(STATIC_LIBS) -Wl,-Bdynamic $(filter-out $(STATIC_LIBS),$(PKG_LIBS))
CLI_LIBS   = $(if $(strip $(STATIC_LIBS)),$(CLI_STATIC),$(PKG_LIBS))
override CPPFLAGS += -D_GNU_SOURCE -I$(BUILD)/include -Iinstaller-plugin/include \
                     -Iinstaller-plugin/lib $(PKG_CFLAGS)
override CFLAGS += -std=c11 -Wall -Wextra $(WERROR) -Wshadow -Wmissing-prototypes \
                   -Wno-unused-parameter -fPIC -fvisibility=hidden -MMD -MP

# Quiet by default, one short line per step; `make V=1` prints whole commands.
ifeq ($(V),1)
Q :=
quiet = @true
else
Q := @
quiet = @printf '  %-6s %s\n' $(1) $(2)
endif

BUILD      := build
SAN_CFLAGS  := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
SAN_LDFLAGS := -fsanitize=address,undefined
ifeq ($(SANITIZE),1)
BUILD      := build/san
override CFLAGS  += $(SAN_CFLAGS)
override LDFLAGS += $(SAN_LDFLAGS)
endif

LIB_SRC    := $(sort $(wildcard installer-plugin/lib/*.c))
LIB_OBJ    := $(LIB_SRC:%.c=$(BUILD)/%.o)
LIB_DIR    := $(BUILD)/lib
LIB_SO     := $(LIB_DIR)/$(SONAME)
LIB_LINK   := $(LIB_DIR)/libseinstall.so
LIB_AR     := $(BUILD)/libseinstall-internal.a
LIB_SYM    := installer-plugin/lib/libseinstall.sym
PC         := $(LIB_DIR)/seinstall.pc
VERSION_H  := $(BUILD)/include/seinstall-version.h

CLI_SRC    := $(sort $(wildcard installer-plugin/cli/*.c))
CLI_OBJ    := $(CLI_SRC:%.c=$(BUILD)/%.o)
CLI        := $(BUILD)/bin/seinstall

# The first-boot tool: a UI-free model (firstboot/model*.c, unit tested) and the newt screen.
FB_MODEL_SRC := $(sort $(wildcard firstboot/model*.c))
FB_UI_SRC    := $(filter-out $(FB_MODEL_SRC),$(sort $(wildcard firstboot/*.c)))
FB_MODEL_OBJ := $(FB_MODEL_SRC:%.c=$(BUILD)/%.o)
# Both front ends parse their options (cli/opts.c, parse.c) and print errors, the library's log
# and progress (cli/report.c, progress.c) with the same code; the test helpers exit as they do.
REPORT_OBJ   := $(addprefix $(BUILD)/installer-plugin/cli/,report.o progress.o)
SHARED_OBJ   := $(addprefix $(BUILD)/installer-plugin/cli/,opts.o parse.o) $(REPORT_OBJ)
FB_UI_OBJ    := $(FB_UI_SRC:%.c=$(BUILD)/%.o) $(SHARED_OBJ)
FIRSTBOOT    := $(if $(filter 1,$(WITH_FIRSTBOOT)),$(if $(FB_UI_SRC),$(BUILD)/bin/seinstall-firstboot))
POT          := $(BUILD)/po/seinstall.pot
# The catalogs in the tree (po/LANG.po), built to $(BUILD)/locale/LANG/LC_MESSAGES/seinstall.mo:
# the layout LOCALEDIR has, so a test points SEINSTALL_LOCALEDIR at $(BUILD)/locale.
PO_LANGS     := $(sort $(patsubst po/%.po,%,$(wildcard po/*.po)))
MO           := $(PO_LANGS:%=$(BUILD)/locale/%/LC_MESSAGES/seinstall.mo)
# The files whose words are translated: the first-boot tool's and every one of seinstall's
# (installer-plugin/cli/, which the first-boot tool shares in part).
POT_SRC      := $(FB_UI_SRC) $(FB_MODEL_SRC) $(CLI_SRC)
# The library's own words (its errors, log, a check's reasons and fixes, apply's to-dos): a domain
# of its own, "libseinstall", since a program can link the library without the commands; the
# catalogs are po/libseinstall/LANG.po, the template $(BUILD)/po/libseinstall.pot.
LIB_POT      := $(BUILD)/po/libseinstall.pot
LIB_PO       := $(sort $(wildcard po/libseinstall/*.po))
LIB_MO       := $(LIB_PO:po/libseinstall/%.po=$(BUILD)/locale/%/LC_MESSAGES/libseinstall.mo)
# The Calamares job module's translations (gettext, as Calamares translates python modules): a
# .mo per adapters/calamares/po/LANG.po, installed where libcalamares.utils.gettext_path() looks.
CALAMARES_PO := $(sort $(wildcard installer-plugin/adapters/calamares/po/*.po))
CALAMARES_MO := $(CALAMARES_PO:installer-plugin/adapters/calamares/po/%.po=$(BUILD)/locale/%/LC_MESSAGES/seinstall-calamares.mo)

UNIT_SRC   := $(sort $(wildcard tests/unit/test-*.c))
UNIT_BIN   := $(UNIT_SRC:%.c=$(BUILD)/%)
UNIT_HELPER_SRC := $(filter-out $(UNIT_SRC),$(sort $(wildcard tests/unit/*.c)))
UNIT_HELPER_OBJ := $(UNIT_HELPER_SRC:%.c=$(BUILD)/%.o)
INTEG      := $(sort $(wildcard tests/integration/*.sh))
# Fuzz targets double as regression tests: built with replay-main.c they replay the committed
# corpora and crash reproducers (tests/fuzz/replay-all.sh) in every `make check`.
FUZZ_SRC   := $(sort $(wildcard tests/fuzz/fuzz-*.c))
FUZZ_REPLAY := $(FUZZ_SRC:tests/fuzz/fuzz-%.c=$(BUILD)/tests/fuzz/replay-%)
# Small programs integration tests drive private library calls with (tests/helpers/NAME.c).
HELPER_SRC := $(sort $(wildcard tests/helpers/*.c))
HELPER_BIN := $(HELPER_SRC:%.c=$(BUILD)/%)
TEST_BINS  := $(UNIT_BIN) $(FUZZ_REPLAY) $(HELPER_BIN)
TESTS_RUN  := SEINSTALL_BUILD=$(BUILD) tests/run-tests.sh
E2E        := $(wildcard qemu/e2e.sh)
# The adapters in their real installers; the mkosi one builds and boots an image (minutes, its
# first run ~10 min), the Calamares 3.3 one a Debian 13 chroot (~10 min first): check-quick
# leaves them out.
HOSTS      := $(wildcard tests/integration/adapter-*.sh)
HOSTS_SLOW := $(wildcard tests/integration/adapter-mkosi.sh tests/integration/adapter-calamares-trixie.sh)
# The tests that build the Debian packages in chroots of their own (minutes each): make check
# runs them once; check-quick, and so CI's sanitized pass, leaves them out (what they build is
# not the sanitized tree).
PKG_SLOW   := $(wildcard tests/integration/deb-package.sh tests/integration/deb-autopkgtest.sh \
                tests/integration/package-test-step.sh tests/integration/adapter-debian-installer.sh)
# Left out of check-quick too: the copy of the tree built and tested elsewhere (minutes, a
# QEMU run among them), and the tests of how the tree builds and installs (a release tarball
# built and tested, `make install` into a scratch root: 4 minutes of compiling in the
# sanitized pass, which shows nothing about memory the first pass did not).
QUICK_SKIP := $(HOSTS_SLOW) $(PKG_SLOW) $(wildcard tests/integration/tree-anywhere.sh \
                tests/integration/dist.sh tests/integration/install-layout.sh)

# Debian packages, by what needs them. Each goal that runs something installs its own list,
# DEPS_FOR_goal (`make deps-GOAL` alone; `make -s deps-list GOAL=G` prints it), and plain
# `make deps` all of them (DEPS); tests/integration/deps-goals.sh checks the lists. The lists
# overlap: each is sorted, which drops the repeats.
DEPS_LIBS  := libblkid-dev libmount-dev libselinux1-dev libsepol-dev libsemanage-dev libpcre2-dev \
              libbz2-dev libseccomp-dev libnewt-dev
DEPS_BUILD := build-essential pkg-config clang $(DEPS_LIBS) check gettext
# tests/demo.sh: the sample target's filesystems, the host's policy, findmnt and getfattr.
DEPS_DEMO  := selinux-policy-default policycoreutils e2fsprogs xfsprogs dosfstools reiserfsprogs \
              util-linux attr
# The unit and integration tests; /usr/bin/time measures peak memory, strace injects faults.
DEPS_TEST  := $(DEPS_DEMO) selinux-utils btrfs-progs nilfs-tools exfatprogs f2fs-tools \
              tmux shellcheck python3 python3-jsonschema bubblewrap keyutils \
              lvm2 mdadm grub-common time strace \
              debhelper po-debconf lintian git libaudit-dev libcap-ng-dev autopkgtest rpm rpmlint
# qemu/e2e.sh: QEMU, the Debian root it installs onto, and the host tools it puts in the
# installer's initramfs (qemu/initramfs.sh) or runs on the disks.
DEPS_E2E   := qemu-system-x86 qemu-utils busybox-static mmdebstrap cpio zstd kmod checkpolicy \
              ovmf mtools fdisk python3 $(DEPS_DEMO) nilfs-tools bubblewrap
# The real installer hosts the adapter tests run in (tests/integration/adapter-*.sh).
DEPS_HOSTS := calamares xvfb imagemagick mkosi debootstrap systemd-container xdotool cmake \
              qtbase5-dev qttools5-dev libqt5svg5-dev qtdeclarative5-dev libkf5coreaddons-dev \
              extra-cmake-modules libyaml-cpp-dev \
              debian-installer-12-netboot-amd64 gnupg
# tests/bench: the newest libsepol and libselinux built (flex), timed (time, bc, strace) on
# loop-mounted ext4 next to Debian's setfiles.
DEPS_BENCH := flex time bc strace selinux-policy-default policycoreutils e2fsprogs attr python3 git
DEPS       := $(DEPS_BUILD) $(DEPS_TEST) $(DEPS_E2E) $(DEPS_HOSTS) $(DEPS_BENCH)

DEPS_FOR_demo        := $(DEPS_BUILD) $(DEPS_DEMO)
DEPS_FOR_check       := $(DEPS_BUILD) $(DEPS_TEST) $(DEPS_E2E) $(DEPS_HOSTS)
# The adapters' tests use the tests' tools; the mkosi one boots its image as qemu/e2e.sh does.
DEPS_FOR_hosts       := $(DEPS_FOR_check)
DEPS_FOR_e2e         := $(DEPS_BUILD) $(DEPS_E2E)
# make bench ends with the first-boot relabel under QEMU (tests/bench/firstboot-bench.sh).
DEPS_FOR_bench       := $(DEPS_BUILD) $(DEPS_BENCH) $(DEPS_E2E)
DEPS_FOR_bench-scale := $(DEPS_BUILD) $(DEPS_BENCH)
DEPS_FOR_fuzz        := build-essential pkg-config clang $(DEPS_LIBS)
DEPS_FOR_deps        := $(DEPS)
DEPS_GOALS           := demo check hosts e2e bench bench-scale fuzz

.PHONY: test deb uninstall dist tests hosts pot update-po all help deps check check-quick unit integration e2e demo bench bench-scale fuzz install clean format check-format
.DEFAULT_GOAL := all

all: $(LIB_SO) $(LIB_LINK) $(PC) $(CLI) $(FIRSTBOOT) $(POLICY_HELPER) $(if $(FIRSTBOOT),$(POT)) \
     $(LIB_POT) $(MO) $(LIB_MO) $(CALAMARES_MO)

help:
	@echo "make [all]      build the library, seinstall and seinstall-firstboot"
	@echo "make pot        build/po/seinstall.pot, the strings to translate (also by all)"
	@echo "make update-po  merge that template into po/*.po (then translate what changed)"
	@echo "make deps       install the Debian packages everything needs (root); each goal"
	@echo "                 below installs only its own: make -s deps-list GOAL=check lists them"
	@echo "make demo       build and run seinstall on a sample target it makes itself"
	@echo "make check      build and run every test (unit, integration, end-to-end)"
	@echo "make tests      build what the tests run; then tests/run-tests.sh FILE... runs some"
	@echo "make test       every test that can run here, installing nothing (a package build's)"
	@echo "make e2e        only the QEMU end-to-end test"
	@echo "make check-tsan the relabel tests under ThreadSanitizer (also by check)"
	@echo "make hosts      only the adapters, each in its real installer"
	@echo "make bench      relabel speed: seinstall against the newest and Debian's setfiles"
	@echo "make bench-scale  the same at 100k and 1M entries, peak memory, 100k hard links"
	@echo "                 both take BENCH_UPSTREAM_SRC='DIR|TARBALL ...': setfiles built from it"
	@echo "make fuzz       run each libFuzzer target for FUZZ_SECONDS"
	@echo "make install    DESTDIR=... PREFIX=... (default /usr); make uninstall with the same"
	@echo "make dist       build/seinstall-VERSION.tar.gz of what git tracks at HEAD"
	@echo "make deb        the Debian packages (debian/, dpkg-buildpackage) into build/deb"
	@echo "SANITIZE=1      build and test with AddressSanitizer and UBSan"
	@echo "WERROR=-Werror  warnings are errors (make check, check-quick and tests set it)"
	@echo "WITH_FIRSTBOOT=0  build without libnewt: no seinstall-firstboot"

# ---- dependencies ------------------------------------------------------------------------
# `make deps` and each goal's deps-GOAL: one recipe, the list DEPS_FOR_GOAL. Installs only what
# is missing, and says what; as non-root it names the packages and stops.
.PHONY: $(DEPS_GOALS:%=deps-%) deps-list
deps $(DEPS_GOALS:%=deps-%):
	@missing=; for p in $(sort $(DEPS_FOR_$(@:deps-%=%))); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' \
			|| missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	if [ "$$(id -u)" != 0 ]; then \
		echo "make $(@:deps-%=%): these Debian packages are missing:$$missing" >&2; \
		echo "make $(@:deps-%=%): install them as root, then run make again:" >&2; \
		echo "  apt-get install --no-install-recommends$$missing" >&2; \
		exit 1; \
	fi; \
	echo "make $(@:deps-%=%): installing$$missing"; \
	export DEBIAN_FRONTEND=noninteractive; \
	apt-get update -q && apt-get install -y -q --no-install-recommends $$missing

# make -s deps-list GOAL=G: the packages `make G` installs, one a line (no GOAL: `make deps`'s).
deps-list:
	@$(if $(filter undefined,$(origin DEPS_FOR_$(or $(GOAL),deps))), \
		echo "make deps-list: GOAL is one of: $(DEPS_GOALS) (none: make deps)" >&2; exit 2, \
		printf '%s\n' $(sort $(DEPS_FOR_$(or $(GOAL),deps))))

# Every library the build needs, named before the first compile rather than as a missing
# header later (order-only: it never makes anything rebuild).
.PHONY: pkgdeps
pkgdeps:
	@$(PKG_CONFIG) --version >/dev/null 2>&1 || { echo "make: pkg-config is missing (Debian: apt-get install pkg-config)" >&2; exit 1; }
	@missing=; for p in $(PKGS) $(FB_PKGS); do $(PKG_CONFIG) --exists $$p || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "make: pkg-config finds no$$missing: install their development files" >&2; \
		echo "  (Debian: apt-get install $(DEPS_LIBS); WITH_FIRSTBOOT=0 builds without libnewt)" >&2; \
		exit 1; \
	fi
	@echo '#include <bzlib.h>' | $(CC) -E -x c - >/dev/null 2>&1 || { \
		echo "make: bzlib.h is missing: install libbz2's development files (Debian: apt-get install libbz2-dev)" >&2; exit 1; }

# ---- library -------------------------------------------------------------------------------
$(BUILD)/%.o: %.c | pkgdeps $(VERSION_H)
	@mkdir -p $(@D)
	$(call quiet,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@
# seinstall-firstboot includes cli/opts.h and cli/report.h.
$(BUILD)/firstboot/%.o: override CPPFLAGS += -Iinstaller-plugin/cli

$(LIB_SO): $(LIB_OBJ) $(LIB_SYM)
	@mkdir -p $(@D)
	$(call quiet,LD,$@)
	$(Q)$(CC) $(CFLAGS) -shared -Wl,-soname,$(SONAME) -Wl,--version-script,$(LIB_SYM) \
		-Wl,-z,defs $(LDFLAGS) -o $@ $(LIB_OBJ) $(PKG_LIBS)

$(LIB_LINK): $(LIB_SO)
	ln -sf $(SONAME) $@

$(LIB_AR): $(LIB_OBJ)
	@rm -f $@
	$(call quiet,AR,$@)
	$(Q)$(AR) rcs $@ $^

# The .pc file carries the install paths: regenerate it when PREFIX, LIBDIR... change, even
# after a plain `make` (the paths are remembered in a stamp, as the flavour is).
PATHS        := $(PREFIX) $(LIBDIR) $(INCLUDEDIR) $(LIBEXECDIR) $(VERSION) $(LOCALEDIR)
PATHS_STAMP  := $(BUILD)/.paths
$(shell mkdir -p $(BUILD); [ "$$(cat $(PATHS_STAMP) 2>/dev/null)" = "$(PATHS)" ] || echo "$(PATHS)" > $(PATHS_STAMP))

# seinstall.h includes the version macros generated here from VERSION (SEINSTALL_VERSION,
# _MAJOR, _MINOR); installed beside it.
$(VERSION_H): installer-plugin/include/seinstall-version.h.in Makefile $(PATHS_STAMP)
	@mkdir -p $(@D)
	sed -e 's|@VERSION@|$(VERSION)|' -e 's|@VERSION_MAJOR@|$(word 1,$(subst ., ,$(VERSION)))|' \
		-e 's|@VERSION_MINOR@|$(word 2,$(subst ., ,$(VERSION)))|' $< > $@

$(PC): installer-plugin/lib/seinstall.pc.in Makefile $(PATHS_STAMP)
	@mkdir -p $(@D)
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' \
		-e 's|@VERSION@|$(VERSION)|' $< > $@

# ---- commands ------------------------------------------------------------------------------
# The commands link the library's internal archive, not libseinstall.so.0: they use calls the
# shared library does not export (status, avc, trial, profiles), and they need no rpath, so the
# same files run from the tree and installed.
FB_LIBS = $(shell $(PKG_CONFIG) --libs libnewt slang)

# The policy build runs this fresh program in its confinement (policy-build.c), never
# libsemanage in a forked copy of a caller that may have threads; the library finds it beside
# the running binary (../libexec/seinstall/, so the tree's own) or in LIBEXECDIR.
POLICY_HELPER := $(BUILD)/libexec/seinstall/seinstall-policy-build
$(BUILD)/installer-plugin/lib/policy-build.o: override CPPFLAGS += \
	-DSEINSTALL_LIBEXECDIR='"$(LIBEXECDIR)/seinstall"'
$(BUILD)/installer-plugin/lib/policy-build.o: $(PATHS_STAMP)
# Never sanitized, in SANITIZE=1 trees too: it runs chrooted in a read-only stage with an
# environment of two variables, where the sanitizers' runtime has neither /proc nor the tests'
# options and suppressions, and every policy build failed (hostile-policy-build.sh in
# check-quick). The code that runs it (policy-build.c) is sanitized as the rest.
$(BUILD)/installer-plugin/libexec/seinstall-policy-build.o: \
	override CFLAGS := $(filter-out $(SAN_CFLAGS),$(CFLAGS))
$(POLICY_HELPER): $(BUILD)/installer-plugin/libexec/seinstall-policy-build.o
	@mkdir -p $(@D)
	$(call quiet,LD,$@)
	$(Q)$(CC) $(filter-out $(SAN_CFLAGS),$(CFLAGS)) $(filter-out $(SAN_LDFLAGS),$(LDFLAGS)) \
		-Wl,--as-needed -o $@ $< $(CLI_LIBS)

$(CLI): $(CLI_OBJ) $(LIB_AR) | $(POLICY_HELPER)
	@mkdir -p $(@D)
	$(call quiet,LD,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(CLI_OBJ) $(LIB_AR) $(CLI_LIBS)

$(BUILD)/bin/seinstall-firstboot: $(FB_UI_OBJ) $(FB_MODEL_OBJ) $(LIB_AR)
	@mkdir -p $(@D)
	$(call quiet,LD,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(FB_UI_OBJ) $(FB_MODEL_OBJ) $(LIB_AR) $(FB_LIBS) \
		$(PKG_LIBS)

# Translations: the template of every string seinstall-firstboot and seinstall show (gettext's
# xgettext): _(), N_(), ngettext() and the English formats of cli_error() and cli_usage_error().
pot: $(POT) $(LIB_POT)
$(POT): $(POT_SRC) Makefile
	@mkdir -p $(@D)
	xgettext --language=C --from-code=UTF-8 --keyword=_ --keyword=N_ --add-comments=TRANSLATORS \
		--keyword=cli_error:2 --keyword=cli_usage_error:2 --keyword=opts_error:2 \
		--flag=cli_error:2:c-format --flag=cli_usage_error:2:c-format \
		--flag=opts_error:2:c-format \
		--package-name=seinstall --package-version=$(VERSION) --msgid-bugs-address="seinstall maintainers" \
		-o $@ $(sort $(POT_SRC))

# The library's template: every format its reporting calls take (log.c translates them) and
# what si_tr() and N_() mark. Debug messages stay English: they are for the people who fix it.
$(LIB_POT): $(LIB_SRC) Makefile
	@mkdir -p $(@D)
	xgettext --language=C --from-code=UTF-8 --keyword= --keyword=si_tr:2 --keyword=N_ \
		--keyword=si_ntr:2,3 --keyword=si_error:3 --keyword=si_error_cause:3 \
		--keyword=si_error_run:4 --keyword=si_log:3 --keyword=si_warn:2 --keyword=si_info:2 \
		--keyword=add_todo:3 --keyword=si_walk_error:3 --keyword=si_walk_links_error:3 \
		--keyword=si_walk_log:3 --keyword=si_walk_fail:3 --add-comments=TRANSLATORS \
		--flag=si_error:3:c-format --flag=si_error_cause:3:c-format \
		--flag=si_error_run:4:c-format --flag=si_log:3:c-format --flag=si_warn:2:c-format \
		--flag=si_info:2:c-format --flag=add_todo:3:c-format --flag=si_walk_error:3:c-format \
		--flag=si_walk_links_error:3:c-format --flag=si_walk_log:3:c-format \
		--flag=si_walk_fail:3:c-format \
		--package-name=libseinstall --package-version=$(VERSION) \
		--msgid-bugs-address="seinstall maintainers" -o $@ $(LIB_SRC)

# After messages change: merge the new template into each catalog, then translate what it
# marks fuzzy or leaves empty (l10n.sh fails until every message is translated).
update-po: $(POT) $(LIB_POT)
	for l in $(PO_LANGS); do msgmerge -q --update --backup=none --no-location po/$$l.po $(POT) || exit 1; done
	for p in $(LIB_PO); do msgmerge -q --update --backup=none --no-location $$p $(LIB_POT) || exit 1; done

# msgfmt -c: a translation whose format differs from its msgid's fails the build.
$(BUILD)/locale/%/LC_MESSAGES/seinstall.mo: po/%.po
	@mkdir -p $(@D)
	$(call quiet,MSGFMT,$@)
	$(Q)msgfmt -c -o $@ $<
$(BUILD)/locale/%/LC_MESSAGES/libseinstall.mo: po/libseinstall/%.po
	@mkdir -p $(@D)
	$(call quiet,MSGFMT,$@)
	$(Q)msgfmt -c -o $@ $<

# The catalogs where LOCALEDIR says, for the two commands that translate and the library.
LOCALE_OBJ   := $(BUILD)/firstboot/main.o $(BUILD)/installer-plugin/cli/main.o \
                $(BUILD)/installer-plugin/lib/log.o
$(LOCALE_OBJ): override CPPFLAGS += -DLOCALEDIR='"$(LOCALEDIR)"'
$(LOCALE_OBJ): $(PATHS_STAMP)

$(BUILD)/locale/%/LC_MESSAGES/seinstall-calamares.mo: installer-plugin/adapters/calamares/po/%.po
	@mkdir -p $(@D)
	$(call quiet,MSGFMT,$@)
	$(Q)msgfmt --check -o $@ $<

# ---- tests ---------------------------------------------------------------------------------
$(BUILD)/tests/unit/test-%: tests/unit/test-%.c $(UNIT_HELPER_OBJ) $(FB_MODEL_OBJ) $(LIB_AR)
	@mkdir -p $(@D)
	$(call quiet,LD,$@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -Itests/unit -Ifirstboot $(LDFLAGS) -o $@ $< \
		$(UNIT_HELPER_OBJ) $(FB_MODEL_OBJ) $(LIB_AR) $(PKG_LIBS) $(shell $(PKG_CONFIG) --libs check)

$(BUILD)/tests/fuzz/replay-%: tests/fuzz/fuzz-%.c tests/fuzz/replay-main.c $(LIB_AR)
	@mkdir -p $(@D)
	$(call quiet,LD,$@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -Wno-missing-prototypes $(LDFLAGS) -o $@ $< \
		tests/fuzz/replay-main.c $(LIB_AR) $(PKG_LIBS)

# Helpers exit as the commands do: they share their errno-to-exit-status mapping (cli/report.c).
$(BUILD)/tests/helpers/%: tests/helpers/%.c $(REPORT_OBJ) $(LIB_AR)
	@mkdir -p $(@D)
	$(call quiet,LD,$@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -Iinstaller-plugin/cli $(LDFLAGS) -o $@ $< \
		$(REPORT_OBJ) $(LIB_AR) $(PKG_LIBS)

FUZZ_CHECK := $(if $(FUZZ_SRC),tests/fuzz/replay-all.sh)

# Everything a test runs, so that `tests/run-tests.sh FILE` can run any one of them alone.
tests: all $(TEST_BINS)

unit: all $(UNIT_BIN)
	@$(TESTS_RUN) $(UNIT_BIN)

integration: all $(HELPER_BIN)
	@$(TESTS_RUN) $(INTEG)

# The project's own checks build with -Werror and keep the formatting (check-format).
check: deps-check
	$(MAKE) --no-print-directory WERROR=-Werror tests
	@$(TESTS_RUN) $(UNIT_BIN) $(FUZZ_CHECK) $(INTEG) $(E2E)
	@$(MAKE) --no-print-directory check-tsan

# Everything but the QEMU end-to-end test: what a developer runs before each commit.
check-quick: check-format
	$(MAKE) --no-print-directory WERROR=-Werror tests
	@$(TESTS_RUN) $(UNIT_BIN) $(FUZZ_CHECK) $(filter-out $(QUICK_SKIP),$(INTEG))

# What a package build's test step runs (debhelper's dh_auto_test calls `make test` first): it
# installs nothing and needs no network, any user runs it; a test that needs root, loop devices,
# an installer or a tool the machine lacks says SKIPPED with the reason. It stays within
# minutes even as root on a machine with everything: it leaves out (and names) the tests that
# boot QEMU guests, run the real installers or build packages themselves (a package build
# inside the package build), unless TEST_ALL=1 asks for them; make check runs them all.
TEST_LONG  := $(E2E) $(HOSTS) $(wildcard tests/integration/sandbox-lvm-raid.sh \
              tests/integration/deb-package.sh tests/integration/deb-autopkgtest.sh \
              tests/integration/package-test-step.sh tests/integration/rpm-spec.sh)
TEST_RUN   := $(if $(filter 1,$(TEST_ALL)),$(INTEG) $(E2E),$(filter-out $(TEST_LONG),$(INTEG)))
test: tests
	@$(if $(filter 1,$(TEST_ALL)),,echo "make test: left out (make check or TEST_ALL=1 runs them): $(TEST_LONG)")
	@$(TESTS_RUN) $(UNIT_BIN) $(FUZZ_CHECK) $(TEST_RUN)

# Only the adapters in their real installers (Calamares, debian-installer, Anaconda's way, mkosi).
hosts: deps-hosts
	$(MAKE) --no-print-directory all
	@$(TESTS_RUN) $(HOSTS)

# ThreadSanitizer: the relabel walk is the library's threaded code. Its unit test runs again
# with the library objects built with -fsanitize=thread under build/tsan (apart from the other
# flavours), after a canary whose deliberate race must be reported (tests/tsan/relabel-tsan.sh).
TSAN       := build/tsan
TSAN_FLAGS := -fsanitize=thread -fno-omit-frame-pointer -O1 -g
TSAN_BINS  := $(TSAN)/canary $(TSAN)/tests/unit/test-relabel
.PHONY: check-tsan
check-tsan: $(TSAN_BINS)
	@TSAN_BUILD=$(TSAN) $(TESTS_RUN) tests/tsan/relabel-tsan.sh

$(TSAN)/%.o: %.c | $(VERSION_H)
	@mkdir -p $(@D)
	$(call quiet,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(TSAN_FLAGS) -c $< -o $@

$(TSAN)/libseinstall-internal.a: $(LIB_SRC:%.c=$(TSAN)/%.o)
	@rm -f $@
	$(Q)$(AR) rcs $@ $^

$(TSAN)/tests/unit/test-%: tests/unit/test-%.c $(UNIT_HELPER_SRC:%.c=$(TSAN)/%.o) \
		$(TSAN)/libseinstall-internal.a
	$(call quiet,LD,$@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(TSAN_FLAGS) -Itests/unit $(LDFLAGS) -o $@ $^ $(PKG_LIBS) \
		$(shell $(PKG_CONFIG) --libs check)

$(TSAN)/canary: tests/tsan/canary.c
	@mkdir -p $(@D)
	$(call quiet,LD,$@)
	$(Q)$(CC) $(TSAN_FLAGS) -o $@ $<

e2e: deps-e2e
	$(MAKE) --no-print-directory all
	@$(TESTS_RUN) $(E2E)

demo: deps-demo
	$(MAKE) --no-print-directory all
	@SEINSTALL_BUILD=$(BUILD) tests/demo.sh

# BENCH_UPSTREAM_SRC (SELinux userspace sources, tests/bench/upstream-src.sh) and the other
# BENCH_* and SCALE_* variables reach the scripts through the environment.
bench: deps-bench
	$(MAKE) --no-print-directory all
	@SEINSTALL_BUILD=$(BUILD) tests/bench/bench.sh

bench-scale: deps-bench-scale
	$(MAKE) --no-print-directory all
	@SEINSTALL_BUILD=$(BUILD) tests/bench/bench-scale.sh

# make fuzz (FUZZ_SECONDS per target) and make fuzz-build: tests/fuzz/fuzz.mk.
include tests/fuzz/fuzz.mk

# ---- install -------------------------------------------------------------------------------
# What a distribution package holds. The commands are installed as built: they carry the
# library inside (no rpath, no dependency on libseinstall.so.0).
MANPAGES    = $(filter-out $(FB_ONLY),$(sort $(wildcard man/*.[1-8])))
# Without the first-boot tool (WITH_FIRSTBOOT=0), neither its unit nor its page.
FB_ONLY    := $(if $(FIRSTBOOT),,firstboot/seinstall-firstboot.service man/seinstall-firstboot.8)
UNITS      := $(filter-out $(FB_ONLY),$(sort $(wildcard firstboot/*.service firstboot/*.target firstboot/*.timer)))
PROFILES   := $(sort $(wildcard profiles/*.ks))
SCHEMAS    := $(sort $(wildcard docs/schema/*.json))
# Not what Python or an editor left there (a test running the Calamares module writes
# __pycache__; a backup ends in ~).
ADAPTERS   := $(sort $(shell find installer-plugin/adapters -name __pycache__ -prune -o -type f \
                -not -name '*.py[co]' -not -name '*~' -not -name README.md -print 2>/dev/null))
INITRD_FILES := $(sort $(shell find initramfs -type f 2>/dev/null))

install: all
	install -d $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(BINDIR) \
		$(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(BASHCOMPDIR)
	install -m 0755 $(LIB_SO) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libseinstall.so
	install -m 0644 installer-plugin/include/seinstall.h $(VERSION_H) $(DESTDIR)$(INCLUDEDIR)/
	install -m 0644 $(PC) $(DESTDIR)$(LIBDIR)/pkgconfig/
	install -m 0755 $(CLI) $(DESTDIR)$(BINDIR)/seinstall
	install -d $(DESTDIR)$(LIBEXECDIR)/seinstall
	install -m 0755 $(POLICY_HELPER) $(DESTDIR)$(LIBEXECDIR)/seinstall/
	$(if $(FIRSTBOOT),install -m 0755 $(FIRSTBOOT) $(DESTDIR)$(BINDIR)/)
	@# The pages' footers carry the version from here.
	for m in $(MANPAGES); do \
		sed 's/@VERSION@/$(VERSION)/g' $$m > $(DESTDIR)$(MANDIR)/man$${m##*.}/$${m##*/} && \
		chmod 0644 $(DESTDIR)$(MANDIR)/man$${m##*.}/$${m##*/} || exit 1; \
	done
	install -m 0644 completion/seinstall $(DESTDIR)$(BASHCOMPDIR)/seinstall
	$(if $(FIRSTBOOT),ln -sf seinstall $(DESTDIR)$(BASHCOMPDIR)/seinstall-firstboot)
	@# Units name the commands by their /usr/sbin path; follow BINDIR.
	$(if $(UNITS),install -d $(DESTDIR)$(UNITDIR))
	for u in $(UNITS); do \
		sed 's|/usr/sbin/seinstall|$(BINDIR)/seinstall|g' $$u > $(DESTDIR)$(UNITDIR)/$${u##*/} && \
		chmod 0644 $(DESTDIR)$(UNITDIR)/$${u##*/} || exit 1; \
	done
	@# The distribution's autorelabel yields to seinstall-relabel.service (see that unit).
	$(if $(UNITS),install -d $(DESTDIR)$(UNITDIR)/selinux-autorelabel.service.d)
	$(if $(UNITS),install -m 0644 firstboot/selinux-autorelabel-seinstall.conf \
		$(DESTDIR)$(UNITDIR)/selinux-autorelabel.service.d/seinstall.conf)
	for l in $(PO_LANGS); do \
		install -d $(DESTDIR)$(LOCALEDIR)/$$l/LC_MESSAGES && \
		install -m 0644 $(BUILD)/locale/$$l/LC_MESSAGES/seinstall.mo \
			$(DESTDIR)$(LOCALEDIR)/$$l/LC_MESSAGES/ || exit 1; \
	done
	@# The initramfs relabel: the paths the scripts name follow BINDIR, LIBEXECDIR, UNITDIR.
	for f in $(INITRD_FILES); do \
		case $$f in \
		initramfs/initrd-relabel.sh) d=$(LIBEXECDIR)/seinstall/initrd-relabel ;; \
		initramfs/initramfs-tools/*) d=$(INITRAMFSTOOLSDIR)/$${f#initramfs/initramfs-tools/} ;; \
		initramfs/dracut/*) d=$(DRACUTMODDIR)/$${f#initramfs/dracut/} ;; \
		initramfs/seinstall-relabel-generator) d=$(GENERATORDIR)/$${f#initramfs/} ;; \
		esac; \
		install -d $(DESTDIR)$${d%/*} && \
		sed -e 's|@BINDIR@|$(BINDIR)|g' -e 's|@LIBEXECDIR@|$(LIBEXECDIR)/seinstall|g' \
			-e 's|@UNITDIR@|$(UNITDIR)|g' $$f > $(DESTDIR)$$d && chmod 0755 $(DESTDIR)$$d || exit 1; \
	done
	$(if $(PROFILES),install -d $(DESTDIR)$(PKGDATADIR)/profiles)
	$(if $(PROFILES),install -m 0644 $(PROFILES) $(DESTDIR)$(PKGDATADIR)/profiles/)
	@# The JSON Schemas of the --json documents, for the programs that read them.
	$(if $(SCHEMAS),install -d $(DESTDIR)$(PKGDATADIR)/schema)
	$(if $(SCHEMAS),install -m 0644 $(SCHEMAS) $(DESTDIR)$(PKGDATADIR)/schema/)
	for m in $(LIB_MO) $(CALAMARES_MO); do \
		l=$${m#$(BUILD)/locale/}; \
		install -D -m 0644 $$m $(DESTDIR)$(LOCALEDIR)/$$l || exit 1; \
	done
	@# Adapters keep their layout under share/seinstall/adapters (each guide, README.md, stays in
	@# the source: a package ships no Markdown); the guide says where each file goes.
	for f in $(ADAPTERS); do \
		d=$(DESTDIR)$(PKGDATADIR)/adapters/$${f#installer-plugin/adapters/}; \
		install -d "$${d%/*}" && install -m "$$([ -x $$f ] && echo 0755 || echo 0644)" $$f "$$d" \
			|| exit 1; \
	done

# Removes what install put there (the same variables must be given), and the directories it
# made if they are left empty; nothing else.
uninstall:
	rm -f $(DESTDIR)$(LIBDIR)/$(SONAME) $(DESTDIR)$(LIBDIR)/libseinstall.so \
		$(DESTDIR)$(LIBDIR)/pkgconfig/seinstall.pc $(DESTDIR)$(INCLUDEDIR)/seinstall.h \
		$(DESTDIR)$(INCLUDEDIR)/seinstall-version.h \
		$(DESTDIR)$(BINDIR)/seinstall $(DESTDIR)$(BINDIR)/seinstall-firstboot \
		$(DESTDIR)$(LIBEXECDIR)/seinstall/seinstall-policy-build \
		$(DESTDIR)$(BASHCOMPDIR)/seinstall $(DESTDIR)$(BASHCOMPDIR)/seinstall-firstboot \
		$(DESTDIR)$(UNITDIR)/selinux-autorelabel.service.d/seinstall.conf
	for m in $(MANPAGES); do rm -f $(DESTDIR)$(MANDIR)/man$${m##*.}/$${m##*/}; done
	for l in $(PO_LANGS); do rm -f $(DESTDIR)$(LOCALEDIR)/$$l/LC_MESSAGES/seinstall.mo; done
	for u in $(UNITS); do rm -f $(DESTDIR)$(UNITDIR)/$${u##*/}; done
	for m in $(LIB_MO) $(CALAMARES_MO); do \
		l=$${m#$(BUILD)/locale/}; \
		rm -f $(DESTDIR)$(LOCALEDIR)/$$l; \
		rmdir $(DESTDIR)$(LOCALEDIR)/$${l%/*} $(DESTDIR)$(LOCALEDIR)/$${l%%/*} 2>/dev/null || true; \
	done
	rm -rf $(DESTDIR)$(PKGDATADIR)/profiles $(DESTDIR)$(PKGDATADIR)/adapters \
		$(DESTDIR)$(PKGDATADIR)/schema
	rm -f $(DESTDIR)$(LIBEXECDIR)/seinstall/initrd-relabel $(DESTDIR)$(INITRAMFSTOOLSDIR)/hooks/seinstall \
		$(DESTDIR)$(INITRAMFSTOOLSDIR)/scripts/local-bottom/seinstall \
		$(DESTDIR)$(GENERATORDIR)/seinstall-relabel-generator
	rm -rf $(DESTDIR)$(DRACUTMODDIR)/98seinstall
	-rmdir $(DESTDIR)$(PKGDATADIR) $(DESTDIR)$(UNITDIR)/selinux-autorelabel.service.d \
		$(DESTDIR)$(LIBEXECDIR)/seinstall 2>/dev/null

# A release tarball of what git tracks at HEAD, with the version in its name; `make` and
# `make check` work in it as they do in a clone.
DIST := seinstall-$(VERSION)
dist:
	@git rev-parse --git-dir >/dev/null 2>&1 || { echo "make dist: needs the git checkout" >&2; exit 1; }
	@mkdir -p $(BUILD)
	git archive --format=tar.gz --prefix=$(DIST)/ -o $(BUILD)/$(DIST).tar.gz HEAD
	@echo "make dist: $(BUILD)/$(DIST).tar.gz"

# The Debian packages (debian/): dpkg-buildpackage in a copy of the tree under $(DEB), so the
# tree itself stays clean; the .deb, .udeb, .buildinfo and .changes files land in $(DEB).
# debian/changelog must carry VERSION as its upstream version (VERSION-1). DEB_BUILD_OPTIONS
# (nocheck, parallel=N) are passed on.
DEB     := build/deb
DEB_SRC := $(DEB)/seinstall-$(VERSION)
deb:
	@v=$$(dpkg-parsechangelog -S Version 2>/dev/null); [ "$${v%-*}" = "$(VERSION)" ] || { \
		echo "make deb: debian/changelog says version '$$v', the Makefile $(VERSION): add a changelog entry (dch -v $(VERSION)-1)" >&2; \
		exit 1; }
	rm -rf $(DEB) && mkdir -p $(DEB_SRC)
	tar -c --exclude=./build --exclude=./.git . | tar -x -C $(DEB_SRC)
	@# The package build is a build of its own: none of this make's variables or flags.
	cd $(DEB_SRC) && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u SANITIZE dpkg-buildpackage -us -uc -b
	@rm -rf $(DEB_SRC)
	@ls $(DEB)/*.deb $(DEB)/*.udeb

clean:
	rm -rf build

# ---- formatting ----------------------------------------------------------------------------
# The tracked sources; in a release tarball (no git), every C file of the tree.
FORMAT_FILES = $(or $(shell git ls-files '*.c' '*.h' 2>/dev/null),$(shell find installer-plugin firstboot tests -name '*.[ch]'))
format:
	clang-format -i $(FORMAT_FILES)
check-format:
	clang-format --dry-run -Werror $(FORMAT_FILES)

-include $(shell find $(BUILD) -path $(DEB) -prune -o -name '*.d' -type f -print 2>/dev/null)

# Keep intermediate objects (test helpers) so a second make does nothing.
.SECONDARY:
