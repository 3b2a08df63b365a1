# tensor: dtypes, conversions and the tensor type.
src_libptodb_a_SOURCES += \
	src/tensor/dtype.c src/tensor/dtype.h \
	src/tensor/tensor.c src/tensor/tensor.h
