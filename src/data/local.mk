# data: ZIP, pickle subset, .pt, .npy, YAML manifest, case discovery.
src_libptodb_a_SOURCES += \
	src/data/mapfile.c src/data/mapfile.h \
	src/data/crc32_table.h \
	src/data/zip.c src/data/zip.h \
	src/data/pickle.c src/data/pickle.h \
	src/data/pt.c src/data/pt.h \
	src/data/npy.c src/data/npy.h \
	src/data/manifest.c src/data/manifest.h \
	src/data/ranks.c src/data/ranks.h \
	src/data/case.c src/data/case.h \
	src/data/rank_bind.c src/data/rank_bind.h \
	src/data/case_ir.c src/data/case_ir.h \
	src/data/caselist.c src/data/caselist.h

check_PROGRAMS += tests/unit/check_data
TESTS += tests/unit/check_data
tests_unit_check_data_SOURCES = tests/unit/check_data.c
tests_unit_check_data_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_data_LDADD = $(UNIT_LDADD)

# A helper for the shell tests and the benchmark (not a test by itself).
check_PROGRAMS += tests/unit/check_data_tool
tests_unit_check_data_tool_SOURCES = tests/unit/check_data_tool.c
tests_unit_check_data_tool_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_data_tool_LDADD = $(UNIT_LDADD)

DATA_CLI_TESTS = \
	tests/cli/data_fixtures.sh \
	tests/cli/data_malformed.sh \
	tests/cli/data_info.sh \
	tests/cli/data_info_fixtures.sh \
	tests/cli/run_fresh_inputs.sh
TESTS += $(DATA_CLI_TESTS)
EXTRA_DIST += $(DATA_CLI_TESTS) tests/data/pt_expected.txt scripts/gen_pt_expected.py \
	tests/data/bad scripts/bench.d/tensor_load docs/notes-data.md

check_PROGRAMS += tests/unit/check_ranks
TESTS += tests/unit/check_ranks
tests_unit_check_ranks_SOURCES = tests/unit/check_ranks.c
tests_unit_check_ranks_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_ranks_LDADD = $(UNIT_LDADD)
