# tests/fuzz/fuzz.mk — libFuzzer builds of tests/fuzz/fuzz-*.c (clang), run by `make fuzz`.
# Each target NAME has a committed seed corpus in tests/fuzz/corpus/NAME/; new inputs found
# go to build/fuzz/corpus/NAME/ and crashes to build/fuzz/crashes/NAME/ — a crash becomes a
# regular test by copying it into tests/fuzz/crashes/NAME/ (replayed by `make check`).

FUZZ_SECONDS ?= 30
PKGS    := blkid mount libselinux libsepol libsemanage libpcre2-8
FCC     := clang
FCFLAGS := -std=c11 -D_GNU_SOURCE -g -O1 -fsanitize=fuzzer-no-link,address,undefined \
           -fno-sanitize-recover=all -Ibuild/include -Iinstaller-plugin/include -Iinstaller-plugin/lib \
           $(shell pkg-config --cflags $(PKGS))
FLIBS   := $(shell pkg-config --libs $(PKGS)) -lpthread
FDIR    := build/fuzz

LIB_SRC  := $(sort $(wildcard installer-plugin/lib/*.c))
LIB_OBJ  := $(LIB_SRC:%.c=$(FDIR)/%.o)
TARGETS  := $(patsubst tests/fuzz/fuzz-%.c,%,$(sort $(wildcard tests/fuzz/fuzz-*.c)))
BINS     := $(TARGETS:%=$(FDIR)/fuzz-%)

.PHONY: build run
build: $(BINS)

$(FDIR)/%.o: %.c
	@mkdir -p $(@D)
	$(FCC) $(FCFLAGS) -c $< -o $@

$(FDIR)/fuzz-%: tests/fuzz/fuzz-%.c $(LIB_OBJ)
	$(FCC) $(FCFLAGS) -fsanitize=fuzzer -o $@ $< $(LIB_OBJ) $(FLIBS)

run: build
	@set -e; for t in $(TARGETS); do \
		mkdir -p $(FDIR)/corpus/$$t $(FDIR)/crashes/$$t; \
		echo "== fuzz-$$t for $(FUZZ_SECONDS)s"; \
		$(FDIR)/fuzz-$$t -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -timeout=10 \
			-artifact_prefix=$(FDIR)/crashes/$$t/ $(FDIR)/corpus/$$t tests/fuzz/corpus/$$t \
			2>&1 | tail -n 3; \
	done; \
	crashes=$$(find $(FDIR)/crashes -type f | wc -l); \
	echo "make fuzz: $(words $(TARGETS)) targets, $$crashes crashes (in $(FDIR)/crashes)"; \
	[ "$$crashes" = 0 ]
.SECONDARY:
