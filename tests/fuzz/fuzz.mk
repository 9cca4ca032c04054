# tests/fuzz/fuzz.mk — included by the Makefile: libFuzzer builds of tests/fuzz/fuzz-*.c (clang),
# run by `make fuzz`. They compile and link with the Makefile's own preprocessor flags and
# libraries (CPPFLAGS, PKG_LIBS: one list for every program of the tree), adding only the
# fuzzer's and the sanitizers' flags. Each target NAME has a committed seed corpus in
# tests/fuzz/corpus/NAME/; new inputs found go to build/fuzz/corpus/NAME/ and crashes to
# build/fuzz/crashes/NAME/ — a crash becomes a regular test by copying it into
# tests/fuzz/crashes/NAME/ (replayed by `make check`).

FUZZ_SECONDS ?= 30
FUZZ_CC      ?= clang
FUZZ_FLAGS   := -std=c11 -g -O1 -MMD -MP -fsanitize=fuzzer-no-link,address,undefined \
                -fno-sanitize-recover=all
FUZZ_DIR     := build/fuzz
FUZZ_NAMES   := $(FUZZ_SRC:tests/fuzz/fuzz-%.c=%)
FUZZ_LIB_OBJ := $(LIB_SRC:%.c=$(FUZZ_DIR)/%.o)
FUZZ_BINS    := $(FUZZ_NAMES:%=$(FUZZ_DIR)/fuzz-%)

.PHONY: fuzz fuzz-build
fuzz-build: $(FUZZ_BINS)

$(FUZZ_DIR)/%.o: %.c | pkgdeps $(VERSION_H)
	@mkdir -p $(@D)
	$(call quiet,FUZZCC,$@)
	$(Q)$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_FLAGS) -c $< -o $@

$(FUZZ_DIR)/fuzz-%: tests/fuzz/fuzz-%.c $(FUZZ_LIB_OBJ)
	@mkdir -p $(@D)
	$(call quiet,FUZZLD,$@)
	$(Q)$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_LIB_OBJ) $(PKG_LIBS)

# The build's packages first (deps-fuzz: clang among them), then the fuzzers.
fuzz: deps-fuzz
	$(MAKE) --no-print-directory fuzz-build
	@set -e; for t in $(FUZZ_NAMES); do \
		mkdir -p $(FUZZ_DIR)/corpus/$$t $(FUZZ_DIR)/crashes/$$t; \
		echo "== fuzz-$$t for $(FUZZ_SECONDS)s"; \
		$(FUZZ_DIR)/fuzz-$$t -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -timeout=10 \
			-artifact_prefix=$(FUZZ_DIR)/crashes/$$t/ $(FUZZ_DIR)/corpus/$$t tests/fuzz/corpus/$$t \
			2>&1 | tail -n 3; \
	done; \
	crashes=$$(find $(FUZZ_DIR)/crashes -type f | wc -l); \
	echo "make fuzz: $(words $(FUZZ_NAMES)) targets, $$crashes crashes (in $(FUZZ_DIR)/crashes)"; \
	[ "$$crashes" = 0 ]
