# ir: the dump lexer, parser, AST, resolver/checker, printer, op catalogue.
src_libptodb_a_SOURCES += \
	src/ir/ast.h src/ir/ast.c \
	src/ir/arena.h src/ir/arena.c \
	src/ir/catalog.c src/ir/ops.def src/ir/builtins.def src/ir/enums.def \
	src/ir/lex.h src/ir/lex.c \
	src/ir/parse.h src/ir/parse.c \
	src/ir/resolve.h src/ir/resolve.c \
	src/ir/print.h src/ir/print.c \
	src/ir/walk.h src/ir/walk.c
EXTRA_DIST += src/ir/gen_ops.py scripts/bench.d/parse docs/notes-ir.md

check_PROGRAMS += tests/unit/check_ir
TESTS += tests/unit/check_ir
tests_unit_check_ir_SOURCES = tests/unit/check_ir.c
tests_unit_check_ir_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_ir_LDADD = $(UNIT_LDADD)

IR_CLI_TESTS = tests/cli/ir_fixtures.sh tests/cli/ir_malformed.sh tests/cli/broken_ir_fixtures.sh
TESTS += $(IR_CLI_TESTS)
EXTRA_DIST += $(IR_CLI_TESTS) tests/data/malformed/EXPECTED $(IR_MALFORMED)
IR_MALFORMED = \
	tests/data/malformed/backslash_junk.py \
	tests/data/malformed/loop_rv_in_scope.py \
	tests/data/malformed/bad_dedent.py \
	tests/data/malformed/bad_import.py \
	tests/data/malformed/bad_iter_args.py \
	tests/data/malformed/bad_loop_target.py \
	tests/data/malformed/bad_number.py \
	tests/data/malformed/binary_missing_operand.py \
	tests/data/malformed/dangling_dot.py \
	tests/data/malformed/default_param.py \
	tests/data/malformed/duplicate_dynamic.py \
	tests/data/malformed/duplicate_function.py \
	tests/data/malformed/duplicate_param.py \
	tests/data/malformed/elif_without_if.py \
	tests/data/malformed/else_without_if.py \
	tests/data/malformed/empty.py \
	tests/data/malformed/empty_subscript.py \
	tests/data/malformed/free_var.py \
	tests/data/malformed/integer_too_large.py \
	tests/data/malformed/invalid_char.py \
	tests/data/malformed/keyword_as_value.py \
	tests/data/malformed/keyword_in_call.py \
	tests/data/malformed/mismatched_bracket.py \
	tests/data/malformed/missing_colon.py \
	tests/data/malformed/missing_def_colon.py \
	tests/data/malformed/missing_expression.py \
	tests/data/malformed/mixed_tabs.py \
	tests/data/malformed/no_program.py \
	tests/data/malformed/not_a_method.py \
	tests/data/malformed/only_comment.py \
	tests/data/malformed/positional_after_kw.py \
	tests/data/malformed/semicolon.py \
	tests/data/malformed/signature_memref_base.py \
	tests/data/malformed/signature_memref_offset.py \
	tests/data/malformed/statement_after_program.py \
	tests/data/malformed/stray_else_in_class.py \
	tests/data/malformed/stray_top_level.py \
	tests/data/malformed/too_few_args.py \
	tests/data/malformed/too_many_args.py \
	tests/data/malformed/truncated_call.py \
	tests/data/malformed/truncated_def.py \
	tests/data/malformed/truncated_header.py \
	tests/data/malformed/unclosed_list.py \
	tests/data/malformed/undefined_loop_bound.py \
	tests/data/malformed/undefined_name.py \
	tests/data/malformed/undefined_return.py \
	tests/data/malformed/unexpected_indent.py \
	tests/data/malformed/unknown_builtin.py \
	tests/data/malformed/unknown_function.py \
	tests/data/malformed/unmatched_paren.py \
	tests/data/malformed/unterminated_string.py \
	tests/data/malformed/wrong_arity_call.py \
	tests/data/malformed/wrong_arity_const.py \
	tests/data/malformed/wrong_arity_op.py \
	tests/data/malformed/wrong_arity_op_many.py \
	tests/data/malformed/wrong_class_decorator.py
