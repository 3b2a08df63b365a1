/* Walking statements and naming things the way debuggers match them across
 * passes (the bisect trace and the debugger's program points). */
#ifndef PTODB_IR_WALK_H
#define PTODB_IR_WALK_H

#include "base/strbuf.h"
#include "ir/ast.h"

/* Calls fn on every statement of b in source order, a compound statement
 * before the statements of its bodies (if/else, for, while, with). */
void ir_walk_stmts(const ir_block *b, void (*fn)(void *ctx, const ir_stmt *st), void *ctx);

/* The first statement starting at each line of a dump: at[line] (NULL
 * where none), for line < n. Zero-initialise, add the functions' bodies,
 * free with ir_line_index_free. */
typedef struct ir_line_index {
    const ir_stmt **at;
    size_t n;
} ir_line_index;
void ir_line_index_add(ir_line_index *li, const ir_block *b);
void ir_line_index_free(ir_line_index *li);

/* Appends the SSA base of a name: the part before "__" ("gate_acc__tile_1"
 * gives "gate_acc"), which names keep across passes. */
void ir_ssa_base_name(const char *name, strbuf *out);

/* Appends the last part of a call's op name ("tile.add" and "tensor.add"
 * both give "add"), or the method name of a self.f call; nothing for other
 * expressions. */
void ir_call_short_name(const ir_expr *e, strbuf *out);

/* 1 when two function names are one function, split or outlined by a pass:
 * the same name, or one is the other plus "_..." (mlp_block and
 * mlp_block_aiv, main and main_incore_0). */
int ir_funcs_related(const char *a, const char *b);

#endif
