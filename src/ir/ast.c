#include "ir/ast.h"

#include <stddef.h>

static const char *const expr_kind_names[] = {
#define IR_EXPR_KIND_NAME(k) #k,
    IR_EXPR_KIND_LIST(IR_EXPR_KIND_NAME)
#undef IR_EXPR_KIND_NAME
};

static const char *const stmt_kind_names[] = {
#define IR_STMT_KIND_NAME(k) #k,
    IR_STMT_KIND_LIST(IR_STMT_KIND_NAME)
#undef IR_STMT_KIND_NAME
};

static const struct {
    const char *text;
    int prec;
} binops[] = {
#define IR_BINOP_INFO(id, text, prec) {text, prec},
    IR_BINOP_LIST(IR_BINOP_INFO)
#undef IR_BINOP_INFO
};

const char *ir_expr_kind_name(ir_expr_kind kind)
{
    return (unsigned)kind < IR_EXPR_KIND_COUNT ? expr_kind_names[kind] : "?";
}

const char *ir_stmt_kind_name(ir_stmt_kind kind)
{
    return (unsigned)kind < IR_STMT_KIND_COUNT ? stmt_kind_names[kind] : "?";
}

const char *ir_binop_text(ir_binop op)
{
    return (unsigned)op < IR_BINOP_COUNT ? binops[op].text : "?";
}

int ir_binop_prec(ir_binop op)
{
    return (unsigned)op < IR_BINOP_COUNT ? binops[op].prec : 0;
}
