src_libptodb_a_SOURCES += \
	src/base/status.c src/base/status.h \
	src/base/mem.c src/base/mem.h \
	src/base/strbuf.c src/base/strbuf.h \
	src/base/diag.c src/base/diag.h \
	src/base/fdio.c src/base/fdio.h \
	src/base/mkdirs.c src/base/mkdirs.h \
	src/base/clock.c src/base/clock.h \
	src/base/textdiff.c src/base/textdiff.h \
	src/base/jsonread.c src/base/jsonread.h \
	src/base/xmlesc.c src/base/xmlesc.h \
	src/base/utf8.c src/base/utf8.h \
	src/base/number.c src/base/number.h \
	src/base/input_file.c src/base/input_file.h \
	src/base/atomic_file.c src/base/atomic_file.h \
	src/base/path_within.c src/base/path_within.h \
	src/base/vclock.c src/base/vclock.h \
	src/base/content_set.c src/base/content_set.h \
	src/base/arena.c src/base/arena.h \
	src/base/bytes_hash.c src/base/bytes_hash.h

check_PROGRAMS += tests/unit/check_base
TESTS += tests/unit/check_base
tests_unit_check_base_SOURCES = tests/unit/check_base.c
tests_unit_check_base_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_base_LDADD = $(UNIT_LDADD)
