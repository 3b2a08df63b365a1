# memory: the device's on-chip memory spaces per core and the tile sanitizer
# (below exec; knows tensors, not the machine).
src_libptodb_a_SOURCES += \
	src/memory/soc.c src/memory/soc.h \
	src/memory/memmap.c src/memory/memmap.h

check_PROGRAMS += tests/unit/check_memory
TESTS += tests/unit/check_memory
tests_unit_check_memory_SOURCES = tests/unit/check_memory.c
tests_unit_check_memory_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_memory_LDADD = $(UNIT_LDADD)

MEMORY_TESTS = tests/cli/memory_planted.sh tests/cli/memory_examples.sh tests/cli/memory_import.sh tests/cli/memory_padding.sh \
	tests/cli/memory_isa.sh
TESTS += $(MEMORY_TESTS)
EXTRA_DIST += $(MEMORY_TESTS) scripts/plant_memory_faults docs/memory.md
