# tensor: dtypes, conversions, the tensor type and tensors shown as text.
src_libptodb_a_SOURCES += \
	src/tensor/dtype.c src/tensor/dtype.h \
	src/tensor/tensor.c src/tensor/tensor.h \
	src/tensor/heatgrid.c src/tensor/heatgrid.h \
	src/tensor/tensor_fmt.c src/tensor/tensor_fmt.h

check_PROGRAMS += tests/unit/check_dtype
TESTS += tests/unit/check_dtype
tests_unit_check_dtype_SOURCES = tests/unit/check_dtype.c
tests_unit_check_dtype_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_dtype_LDADD = $(UNIT_LDADD)

check_PROGRAMS += tests/unit/check_tensor
TESTS += tests/unit/check_tensor
tests_unit_check_tensor_SOURCES = tests/unit/check_tensor.c
tests_unit_check_tensor_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_tensor_LDADD = $(UNIT_LDADD)
