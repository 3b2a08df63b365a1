# ir: the dump lexer, parser, AST, resolver/checker, printer, op catalogue.
src_libptodb_a_SOURCES += \
	src/ir/ast.h src/ir/ast.c \
	src/ir/arena.h src/ir/arena.c \
	src/ir/catalog.c src/ir/ops.def src/ir/builtins.def src/ir/enums.def \
	src/ir/lex.h src/ir/lex.c \
	src/ir/parse.h src/ir/parse.c \
	src/ir/resolve.h src/ir/resolve.c \
	src/ir/print.h src/ir/print.c
EXTRA_DIST += src/ir/gen_ops.py

check_PROGRAMS += tests/unit/check_ir
TESTS += tests/unit/check_ir
tests_unit_check_ir_SOURCES = tests/unit/check_ir.c
tests_unit_check_ir_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_ir_LDADD = $(UNIT_LDADD)
