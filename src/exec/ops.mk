# Op families (src/exec/ops_*.c are listed in local.mk): their argument
# access and the kernels (src/kernels/) in their terms, unit tests and the
# test-only exec_ctx stub.
src_libptodb_a_SOURCES += \
	src/exec/op_util.h src/exec/op_args.c src/exec/op_kernels.c

OPS_TEST_LDADD = $(UNIT_LDADD)

check_PROGRAMS += tests/unit/check_ops_elementwise
TESTS += tests/unit/check_ops_elementwise
tests_unit_check_ops_elementwise_SOURCES = tests/unit/check_ops_elementwise.c \
	tests/unit/exec_ctx_stub.c tests/unit/check_ops_util.h
tests_unit_check_ops_elementwise_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_ops_elementwise_LDADD = $(OPS_TEST_LDADD)

check_PROGRAMS += tests/unit/check_ops_device
TESTS += tests/unit/check_ops_device
tests_unit_check_ops_device_SOURCES = tests/unit/check_ops_device.c \
	tests/unit/exec_ctx_stub.c tests/unit/check_ops_util.h
tests_unit_check_ops_device_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_ops_device_LDADD = $(OPS_TEST_LDADD)

check_PROGRAMS += tests/unit/check_ops_unary_reduce
TESTS += tests/unit/check_ops_unary_reduce
tests_unit_check_ops_unary_reduce_SOURCES = tests/unit/check_ops_unary_reduce.c \
	tests/unit/exec_ctx_stub.c tests/unit/check_ops_util.h
tests_unit_check_ops_unary_reduce_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_ops_unary_reduce_LDADD = $(OPS_TEST_LDADD)

check_PROGRAMS += tests/unit/check_ops_memory
TESTS += tests/unit/check_ops_memory
tests_unit_check_ops_memory_SOURCES = tests/unit/check_ops_memory.c \
	tests/unit/exec_ctx_stub.c tests/unit/check_ops_util.h
tests_unit_check_ops_memory_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_ops_memory_LDADD = $(OPS_TEST_LDADD)

check_PROGRAMS += tests/unit/check_ops_shape
TESTS += tests/unit/check_ops_shape
tests_unit_check_ops_shape_SOURCES = tests/unit/check_ops_shape.c \
	tests/unit/exec_ctx_stub.c tests/unit/check_ops_util.h
tests_unit_check_ops_shape_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_ops_shape_LDADD = $(OPS_TEST_LDADD)

check_PROGRAMS += tests/unit/check_ops_matmul
TESTS += tests/unit/check_ops_matmul
tests_unit_check_ops_matmul_SOURCES = tests/unit/check_ops_matmul.c \
	tests/unit/exec_ctx_stub.c tests/unit/check_ops_util.h
tests_unit_check_ops_matmul_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_ops_matmul_LDADD = $(OPS_TEST_LDADD)

check_PROGRAMS += tests/unit/check_ops_fuzz
TESTS += tests/unit/check_ops_fuzz
tests_unit_check_ops_fuzz_SOURCES = tests/unit/check_ops_fuzz.c \
	tests/unit/exec_ctx_stub.c tests/unit/check_ops_util.h
tests_unit_check_ops_fuzz_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_ops_fuzz_LDADD = $(OPS_TEST_LDADD)

check_PROGRAMS += tests/unit/check_ops_torch113
TESTS += tests/unit/check_ops_torch113
tests_unit_check_ops_torch113_SOURCES = tests/unit/check_ops_torch113.c \
	tests/unit/exec_ctx_stub.c tests/unit/check_ops_util.h
tests_unit_check_ops_torch113_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_ops_torch113_LDADD = $(OPS_TEST_LDADD)

check_PROGRAMS += tests/unit/check_large_torch113
TESTS += tests/unit/check_large_torch113
tests_unit_check_large_torch113_SOURCES = tests/unit/check_large_torch113.c \
	tests/unit/exec_ctx_stub.c tests/unit/check_ops_util.h tests/data/ops/torch113_large.h
tests_unit_check_large_torch113_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_large_torch113_LDADD = $(OPS_TEST_LDADD)

# The matmul benchmark (its C driver is inside the script).
EXTRA_DIST += scripts/bench.d/matmul scripts/gen_op_expected.py scripts/gen_torch113_large.py tests/data/ops/expected.h \
	tests/data/ops/torch113.h tests/data/ops/torch113_cases.txt tests/data/ops/torch113_edges.txt

check_PROGRAMS += tests/unit/check_ops_catalogue
TESTS += tests/unit/check_ops_catalogue
tests_unit_check_ops_catalogue_SOURCES = tests/unit/check_ops_catalogue.c \
	tests/unit/exec_ctx_stub.c tests/unit/check_ops_util.h
tests_unit_check_ops_catalogue_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_ops_catalogue_LDADD = $(OPS_TEST_LDADD)

check_PROGRAMS += tests/unit/check_ops_isa
TESTS += tests/unit/check_ops_isa
tests_unit_check_ops_isa_SOURCES = tests/unit/check_ops_isa.c \
	tests/unit/exec_ctx_stub.c tests/unit/check_ops_util.h
tests_unit_check_ops_isa_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_ops_isa_LDADD = $(OPS_TEST_LDADD)

check_PROGRAMS += tests/unit/check_ops_gather_random
TESTS += tests/unit/check_ops_gather_random
tests_unit_check_ops_gather_random_SOURCES = tests/unit/check_ops_gather_random.c \
	tests/unit/exec_ctx_stub.c tests/unit/check_ops_util.h
tests_unit_check_ops_gather_random_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_ops_gather_random_LDADD = $(OPS_TEST_LDADD)

check_PROGRAMS += tests/unit/check_ops_array
TESTS += tests/unit/check_ops_array
tests_unit_check_ops_array_SOURCES = tests/unit/check_ops_array.c \
	tests/unit/exec_ctx_stub.c tests/unit/check_ops_util.h
tests_unit_check_ops_array_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_ops_array_LDADD = $(OPS_TEST_LDADD)

check_PROGRAMS += tests/unit/check_scalar
TESTS += tests/unit/check_scalar
tests_unit_check_scalar_SOURCES = tests/unit/check_scalar.c \
	tests/unit/exec_ctx_stub.c tests/unit/check_ops_util.h
tests_unit_check_scalar_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_scalar_LDADD = $(OPS_TEST_LDADD)

check_PROGRAMS += tests/unit/check_ops_prefetch
TESTS += tests/unit/check_ops_prefetch
tests_unit_check_ops_prefetch_SOURCES = tests/unit/check_ops_prefetch.c \
	tests/unit/exec_ctx_stub.c tests/unit/check_ops_util.h
tests_unit_check_ops_prefetch_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_ops_prefetch_LDADD = $(OPS_TEST_LDADD)

check_PROGRAMS += tests/unit/check_ops_matmul_mx
TESTS += tests/unit/check_ops_matmul_mx
tests_unit_check_ops_matmul_mx_SOURCES = tests/unit/check_ops_matmul_mx.c \
	tests/unit/exec_ctx_stub.c tests/unit/check_ops_util.h
tests_unit_check_ops_matmul_mx_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_ops_matmul_mx_LDADD = $(OPS_TEST_LDADD)

# ptodb's device semantics against pto-isa's CPU simulator: data committed by
# scripts/gen_isa_expected (a developer step needing clang-19 and pto-isa).
check_PROGRAMS += tests/unit/check_ops_isa_oracle
TESTS += tests/unit/check_ops_isa_oracle
tests_unit_check_ops_isa_oracle_SOURCES = tests/unit/check_ops_isa_oracle.c \
	tests/unit/exec_ctx_stub.c tests/unit/check_ops_util.h
tests_unit_check_ops_isa_oracle_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_ops_isa_oracle_LDADD = $(OPS_TEST_LDADD)
EXTRA_DIST += scripts/gen_isa_expected tests/data/isa
