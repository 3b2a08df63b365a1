# exec: values, the op contract and op implementations, the machine.
src_libptodb_a_SOURCES += \
	src/exec/value.c src/exec/value.h \
	src/exec/op.h src/exec/op_kw.c src/exec/ops.c src/exec/op_catalogue.c src/exec/op_catalogue.h src/exec/op_isa.c src/exec/op_isa.h \
	src/exec/ops_elementwise.c src/exec/ops_unary.c src/exec/ops_reduce.c \
	src/exec/ops_matmul.c src/exec/ops_memory.c src/exec/ops_shape.c \
	src/exec/xcore_ops.c src/exec/ops_isa.c \
	src/exec/ops_random.c src/exec/ops_gather_forms.c src/exec/ops_array.c \
	src/exec/ops_prefetch.c src/exec/ops_matmul_mx.c src/exec/ops_task.c \
	src/exec/ops_comm.c src/exec/comm.h \
	src/exec/predicate_mask.c src/exec/predicate_mask.h
include src/exec/ops.mk
include src/exec/machine.mk
