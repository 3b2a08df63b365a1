# kernels: the numeric kernels under the op families (dtype promotion,
# broadcasting, views, copies, the elementwise engine, matmul). A floor
# below exec: tensors in, a kernel_call's status and message out; no
# machine, no op arguments (docs/notes-exec.md, "The kernels floor").
src_libptodb_a_SOURCES += \
	src/kernels/kernel_util.h src/kernels/kernel_walk.h src/kernels/kernel_call.c \
	src/kernels/kernel_dtype.c src/kernels/kernel_shape.c \
	src/kernels/kernel_copy.c src/kernels/kernel_element.c src/kernels/kernel_elementwise.c \
	src/kernels/kernel_matmul.c src/kernels/kernel_matmul.h \
	src/kernels/kernel_matmul_avx512.c src/kernels/kernel_matmul_avx512.h

check_PROGRAMS += tests/unit/check_matmul_threads
TESTS += tests/unit/check_matmul_threads
tests_unit_check_matmul_threads_SOURCES = tests/unit/check_matmul_threads.c
tests_unit_check_matmul_threads_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_matmul_threads_LDADD = $(UNIT_LDADD)

# The floor on its own terms, and its messages through the op table (the
# test exec_ctx stub stands in for the machine).
check_PROGRAMS += tests/unit/check_kernels
TESTS += tests/unit/check_kernels
tests_unit_check_kernels_SOURCES = tests/unit/check_kernels.c \
	tests/unit/exec_ctx_stub.c tests/unit/check_ops_util.h
tests_unit_check_kernels_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_kernels_LDADD = $(UNIT_LDADD)

TESTS += tests/cli/kernels_link_alone.sh
EXTRA_DIST += tests/cli/kernels_link_alone.sh
