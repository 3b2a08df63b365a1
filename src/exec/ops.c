/* The op table: each family file registers its implementations. */
#include "exec/op.h"

#include <string.h>

void exec_ops_init(op_fn *table)
{
    memset(table, 0, sizeof(op_fn) * IR_OP_COUNT);
    exec_ops_register_elementwise(table);
    exec_ops_register_unary(table);
    exec_ops_register_reduce(table);
    exec_ops_register_matmul(table);
    exec_ops_register_memory(table);
    exec_ops_register_shape(table);
    exec_ops_register_xcore(table);
    exec_ops_register_isa(table);
    exec_ops_register_random(table);
    exec_ops_register_gather_forms(table);
    exec_ops_register_array(table);
    exec_ops_register_prefetch(table);
    exec_ops_register_matmul_mx(table);
    exec_ops_register_task(table);
    exec_ops_register_comm(table);
}

int exec_op_reuses_dead_operand(int op)
{
    return exec_elementwise_reuses_dead_operand(op) || exec_unary_reuses_dead_operand(op);
}
