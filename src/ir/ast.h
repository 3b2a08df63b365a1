/* The AST of one PyPTO pass dump (ir-format.md), as built by ir_parse()
 * (parse.h), annotated by ir_resolve() (resolve.h) and printed back by
 * ir_print_module() (print.h).
 *
 * Memory: every node, array and string of a module lives in the module's
 * arena; ir_module_free() releases it all at once. Nodes are never freed
 * one by one, and pointers into a module stay valid until it is freed.
 *
 * Spans: every node carries where it came from (ir_span): 1-based line and
 * column of its first byte, and the half-open byte range [start, end) in the
 * source buffer (module->src). Columns count bytes, like the diagnostics.
 *
 * What the AST keeps and what it drops: it is an abstract tree of the
 * *canonical raw printer form* (ir-format.md §1.3). Grouping parentheses,
 * trailing commas, line breaks inside brackets, blank lines and quote styles
 * are not kept (the printer re-derives them), so a file formatted by ruff
 * and its raw twin give the same tree. Comments are kept as data: full-line
 * comments are attached to the statement (or function) that follows them,
 * the "# pypto.program: X" header is the first of module->comments.
 *
 * The next stage (the interpreter) should read:
 *   module->program         the @pl.program class (NULL if absent)
 *   program->funcs[]        functions in file order (callees first, §3.1)
 *   func->params[]          parameters without self; ->type, ->dir
 *   func->body              statements; kinds below
 *   expr->res / stmt->...   resolver results (slots, op ids), resolve.h
 */
#ifndef PTODB_IR_AST_H
#define PTODB_IR_AST_H

#include <stddef.h>
#include <stdint.h>

typedef struct ir_span {
    uint32_t line;  /* 1-based line of the first byte */
    uint32_t col;   /* 1-based byte column of the first byte */
    uint32_t start; /* byte offset of the first byte */
    uint32_t end;   /* byte offset one past the last byte */
} ir_span;

/* An interned identifier. Within one module, two ir_sym pointers are equal
 * iff the names are equal, so name comparison is a pointer comparison. id is
 * dense (0 .. module->nsyms-1) and can index per-module tables. */
typedef struct ir_sym {
    const char *text; /* NUL-terminated */
    uint32_t len;
    uint32_t id;
} ir_sym;

/* A full-line comment. text is what follows "#" with one leading space
 * removed; the canonical form prints as "# " + text. */
typedef enum {
    IR_COMMENT_PLAIN = 0,
    IR_COMMENT_HEADER,      /* "# pypto.program: NAME" (first line of a dump) */
    IR_COMMENT_COMM_DOMAIN  /* "# pld.comm_domain: devices=..., slots=[...]" (§5.11):
                               a hidden scope starting at the next statement */
} ir_comment_kind;

typedef struct ir_comment {
    ir_span span;
    const char *text; /* NUL-terminated, may contain any valid UTF-8 */
    uint32_t len;
    uint8_t kind;     /* ir_comment_kind */
} ir_comment;

typedef struct ir_comments {
    ir_comment *items;
    uint32_t n;
} ir_comments;

/* ---- expressions ------------------------------------------------------ */

#define IR_EXPR_KIND_LIST(X)                                                      \
    X(NAME)      /* u.name: a bare identifier (variable, dyn symbol, inf/nan) */ \
    X(INT)       /* u.num: integer literal, possibly negative (-NUMBER atom) */  \
    X(FLOAT)     /* u.num: float literal; inf/nan are NAME until resolved */     \
    X(STRING)    /* u.str */                                                     \
    X(BOOL)      /* u.boolean: True / False */                                   \
    X(NONE)      /* None */                                                      \
    X(ELLIPSIS)  /* ... */                                                       \
    X(ATTR)      /* u.attr: value.name (pl.Mem.Vec is ATTR(ATTR(pl,Mem),Vec)) */ \
    X(CALL)      /* u.call */                                                    \
    X(SUBSCRIPT) /* u.sub: value[items] (pl.Tile[...], t[0], MemRef(...)[i]) */  \
    X(SLICE)     /* u.slice: lo:hi:step inside a subscript (never in dumps) */   \
    X(LIST)      /* u.seq: [a, b] (an IR MakeTuple) */                           \
    X(TUPLE)     /* u.seq: (a, b) / (a,) (init_values=...) */                   \
    X(DICT)      /* u.dict: {"k": v} (attrs=..., pl.func_attr) */                \
    X(UNARY)     /* u.unary: -x ~x not x */                                      \
    X(BINARY)    /* u.binary: arithmetic, bitwise, comparison, and/or/xor */     \
    X(OPAQUE)    /* u.opaque: legal Python we do not model; text kept */

typedef enum {
#define IR_EXPR_KIND_ENUM(k) IR_EXPR_##k,
    IR_EXPR_KIND_LIST(IR_EXPR_KIND_ENUM)
#undef IR_EXPR_KIND_ENUM
    IR_EXPR_KIND_COUNT
} ir_expr_kind;

/* Operators, grouped by precedence (lowest first, ir-format.md §6.1). */
#define IR_BINOP_LIST(X)             \
    X(OR, "or", 1)                   \
    X(XOR, "xor", 2)                 \
    X(AND, "and", 3)                 \
    X(EQ, "==", 5)                   \
    X(NE, "!=", 5)                   \
    X(LT, "<", 5)                    \
    X(LE, "<=", 5)                   \
    X(GT, ">", 5)                    \
    X(GE, ">=", 5)                   \
    X(IN, "in", 5)                   \
    X(NOT_IN, "not in", 5)           \
    X(IS, "is", 5)                   \
    X(IS_NOT, "is not", 5)           \
    X(BITOR, "|", 6)                 \
    X(BITXOR, "^", 7)                \
    X(BITAND, "&", 8)                \
    X(SHL, "<<", 9)                  \
    X(SHR, ">>", 9)                  \
    X(ADD, "+", 10)                  \
    X(SUB, "-", 10)                  \
    X(MUL, "*", 11)                  \
    X(DIV, "/", 11)                  \
    X(FLOORDIV, "//", 11)            \
    X(MOD, "%", 11)                  \
    X(MATMUL, "@", 11)               \
    X(POW, "**", 13)

typedef enum {
#define IR_BINOP_ENUM(id, text, prec) IR_BINOP_##id,
    IR_BINOP_LIST(IR_BINOP_ENUM)
#undef IR_BINOP_ENUM
    IR_BINOP_COUNT
} ir_binop;

/* not binds at 4, unary minus / invert at 12 (between * and **). */
typedef enum { IR_UNOP_NEG, IR_UNOP_POS, IR_UNOP_INVERT, IR_UNOP_NOT } ir_unop;

typedef struct ir_expr ir_expr;

typedef struct ir_kwarg {
    ir_span span; /* of "name=value" */
    ir_sym *name;
    ir_expr *value;
} ir_kwarg;

/* What the resolver found an expression to mean (resolve.h). Zero
 * (IR_REF_NONE) before resolution and for nodes it does not annotate. */
typedef enum {
    IR_REF_NONE = 0,
    IR_REF_LOCAL,    /* NAME: a variable of the function; id = slot */
    IR_REF_DYN,      /* NAME: a pl.dynamic symbol or a free shape name; id = index
                        in program->dyns (free names are appended there) */
    IR_REF_FUNC,     /* ATTR self.f or NAME in pl.submit(self.f): id = function index */
    IR_REF_OP,       /* CALL: id = ir_op_id (ops.def) */
    IR_REF_CALL,     /* CALL self.f(...): id = function index of the callee */
    IR_REF_BUILTIN,  /* CALL or ATTR: id = ir_builtin_id (resolve.h) */
    IR_REF_ENUM,     /* ATTR pl.FP32, pl.Mem.Vec, ...: id = ir_enum_value (resolve.h) */
    IR_REF_FLOATCONST, /* NAME inf / nan: the value is in u.num.f */
    IR_REF_TYPE      /* pl.Tensor, pl.Tile, ... heads of type subscripts */
} ir_ref_kind;

typedef struct ir_ref {
    uint8_t kind; /* ir_ref_kind */
    int32_t id;
} ir_ref;

#define IR_EF_NEGATIVE 0x1u /* INT/FLOAT: written with a leading '-' */
#define IR_EF_BIG 0x2u      /* INT: above INT64_MAX; use u.num.u */
#define IR_EF_PARENS 0x4u   /* the source had grouping parentheses; the printer
                               keeps them only around keyword values (predicate=(...)) */
#define IR_EF_TUPLE_SUB 0x8u /* SUBSCRIPT: the index was a tuple x[a, b] */
#define IR_EF_NEWER 0x10u    /* CALL or ATTR: an op, enum value, dtype or name under
                              * pl. this ptodb does not know (a newer PyPTO?): the
                              * resolver warned; evaluating it stops a run */

struct ir_expr {
    uint8_t kind;  /* ir_expr_kind */
    uint8_t op;    /* ir_binop / ir_unop for BINARY / UNARY */
    uint16_t flags; /* IR_EF_* */
    ir_span span;
    ir_ref res;    /* filled by ir_resolve() */
    uint16_t height; /* 1 + the largest height of the children (leaves: 1).
                        The parser rejects trees higher than IR_MAX_DEPTH, so
                        recursive walkers need no depth checks of their own. */
    union {
        ir_sym *name;
        struct {
            const char *text; /* digits as written, without the sign */
            uint32_t len;
            int64_t i;        /* value (negative when IR_EF_NEGATIVE) */
            uint64_t u;       /* magnitude, for IR_EF_BIG */
            double f;         /* FLOAT value (and INT converted) */
        } num;
        struct {
            const char *raw;   /* body between the quotes, escapes as written */
            uint32_t raw_len;
            const char *value; /* decoded, NUL-terminated */
            uint32_t len;
        } str;
        int boolean;
        struct {
            ir_expr *value;
            ir_sym *name;
        } attr;
        struct {
            ir_expr *callee;
            ir_expr **args;   /* positional, in order */
            uint32_t nargs;
            ir_kwarg *kwargs; /* keyword, in order */
            uint32_t nkwargs;
        } call;
        struct {
            ir_expr *value;
            ir_expr **items; /* one item, or several for value[a, b] */
            uint32_t n;
        } sub;
        struct {
            ir_expr *lo, *hi, *step; /* each may be NULL */
        } slice;
        struct {
            ir_expr **items;
            uint32_t n;
        } seq;
        struct {
            ir_expr **keys;
            ir_expr **values;
            uint32_t n;
        } dict;
        struct {
            ir_expr *operand;
        } unary;
        struct {
            ir_expr *lhs, *rhs;
        } binary;
        struct {
            const char *text; /* source text of the construct */
            uint32_t len;
        } opaque;
    } u;
};

/* ---- statements -------------------------------------------------------- *
 *
 * For the interpreter (after ir_resolve):
 *  - FOR: u.for_.iter is a CALL with res {IR_REF_BUILTIN, IR_BUILTIN_RANGE /
 *    PARALLEL / UNROLL / PIPELINE (bounds = args, kwargs stage/init_values/
 *    attrs), WHILE (kwarg init_values; the body starts with a COND), SPMD or
 *    SPLIT_AIV (the loop variable is the block / lane index)}. init_values
 *    is a TUPLE kwarg; iter_args[i] starts as its item i. The final YIELD of
 *    the body feeds the iter-args; its targets receive the final values.
 *  - WITH: u.with.ctx is a CALL to IR_BUILTIN_AT / SCOPE / CLUSTER / SPMD;
 *    the body runs in place (SPMD: once per block).
 *  - YIELD with targets binds them (an if's result, a loop's result); a bare
 *    YIELD (ntargets 0) only ends the body.
 *  - COND: the pl.while_ condition (u.expr.arg), evaluated before each
 *    iteration; FUNC_ATTR: not executed (function metadata).
 *  - Leading comments of kind IR_COMMENT_COMM_DOMAIN mark a hidden scope.
 */

#define IR_STMT_KIND_LIST(X)                                                        \
    X(ASSIGN)    /* targets = value, optional annotation (1 target only) */        \
    X(YIELD)     /* [targets [: annot] =] pl.yield_(values...) (§5.5) */           \
    X(EXPR)      /* expression statement (a call) */                                \
    X(RETURN)    /* return [values...] */                                           \
    X(IF)        /* if cond: body [else: orelse] */                                 \
    X(FOR)       /* for [var][, (iter_args)] in iter: body (§5.6, 5.7, 5.9) */      \
    X(WHILE)     /* while cond: body (natural while) */                             \
    X(WITH)      /* with ctx [as name]: body (§5.8 - 5.10) */                       \
    X(COND)      /* pl.cond(expr): first statement of a pl.while_ body */           \
    X(FUNC_ATTR) /* pl.func_attr({...}): function attributes (§3.3) */              \
    X(PASS)                                                                         \
    X(BREAK)                                                                        \
    X(CONTINUE)                                                                     \
    X(ELLIPSIS)  /* ... as a body (signature-only function) */                      \
    X(OPAQUE)    /* legal Python we do not model; its source lines are kept */

typedef enum {
#define IR_STMT_KIND_ENUM(k) IR_STMT_##k,
    IR_STMT_KIND_LIST(IR_STMT_KIND_ENUM)
#undef IR_STMT_KIND_ENUM
    IR_STMT_KIND_COUNT
} ir_stmt_kind;

typedef struct ir_stmt ir_stmt;

typedef struct ir_block {
    ir_stmt **items;
    uint32_t n;
} ir_block;

/* A binding occurrence of a name (assignment target, loop variable,
 * iter-arg, with ... as NAME). slot is filled by the resolver. */
typedef struct ir_target {
    ir_span span;
    ir_sym *name;
    int32_t slot;
} ir_target;

struct ir_stmt {
    uint8_t kind; /* ir_stmt_kind */
    uint8_t pad_;
    uint16_t flags;
    ir_span span; /* the whole statement, header and body */
    ir_comments comments; /* full-line comments just before it */
    union {
        struct {               /* ASSIGN, YIELD */
            ir_target *targets; /* n >= 1 for ASSIGN; >= 0 for YIELD */
            uint32_t ntargets;
            ir_expr *annot;     /* type annotation or NULL */
            ir_expr *value;     /* ASSIGN: the value; YIELD: the pl.yield_ call */
            ir_expr **values;   /* YIELD: the yielded values (= value's args) */
            uint32_t nvalues;
        } assign;
        struct {               /* EXPR, COND, FUNC_ATTR */
            ir_expr *value;     /* the whole call */
            ir_expr *arg;       /* COND: the condition; FUNC_ATTR: the dict */
        } expr;
        struct {               /* RETURN */
            ir_expr **values;
            uint32_t n;
        } ret;
        struct {               /* IF */
            ir_expr *cond;
            ir_block body;
            ir_block orelse;
            int has_else;
            ir_comments else_comments; /* comments before "else:" */
        } if_;
        struct {               /* FOR */
            ir_target *var;     /* loop variable, or NULL (pl.while_ form) */
            ir_target *iter_args;
            uint32_t niter_args;
            int has_iter_args;  /* the target had the (a, b) part */
            ir_expr *iter;      /* the pl.range/parallel/.../while_ call */
            ir_block body;
        } for_;
        struct {               /* WHILE */
            ir_expr *cond;
            ir_block body;
        } while_;
        struct {               /* WITH */
            ir_expr *ctx;
            ir_target *as;      /* or NULL */
            ir_block body;
        } with;
        struct {               /* OPAQUE */
            const char *text;   /* source lines, first line's indentation removed */
            uint32_t len;
            uint32_t indent;    /* columns of indentation the text had */
        } opaque;
    } u;
};

/* ---- functions and the program ----------------------------------------- */

typedef enum { IR_DIR_IN, IR_DIR_OUT, IR_DIR_INOUT } ir_param_dir;

typedef struct ir_param {
    ir_span span;
    ir_sym *name;
    ir_expr *annot; /* as written: pl.Out[T] keeps its wrapper */
    ir_expr *type;  /* T, the wrapper removed */
    uint8_t dir;    /* ir_param_dir */
    int32_t slot;   /* filled by the resolver: params get slots 0..n-1 */
} ir_param;

typedef struct ir_func {
    ir_span span;         /* decorator to end of body */
    ir_span name_span;
    ir_comments comments; /* comments before the decorator */
    ir_sym *name;
    ir_expr *decorator;   /* pl.function (ATTR) or pl.function(...) (CALL) */
    /* Decoded decorator keywords (§3.2), as enum value names ("AIV",
     * "CHIP", ...) or NULL when absent; auto_scope is -1 when absent. */
    const char *type_name, *level_name, *role_name;
    int auto_scope;
    ir_expr *external_source; /* STRING or NULL */
    int has_self;
    ir_param *params;     /* without self */
    uint32_t nparams;
    ir_expr *ret_annot;   /* as written (T or tuple[T1, T2]) or NULL */
    ir_expr **rets;       /* the result types */
    uint32_t nrets;
    ir_expr *func_attr;   /* the pl.func_attr dict, or NULL */
    ir_block body;
    /* Resolver results: number of slots (params first, then every other
     * name bound in the body, in order of first appearance), and the names
     * by slot for debuggers. */
    uint32_t nslots;
    ir_sym **slot_names;
} ir_func;

typedef struct ir_dyn {
    ir_span span;
    ir_sym *name;
    int declared; /* 1: NAME = pl.dynamic("NAME"); 0: free name met in a shape */
} ir_dyn;

typedef struct ir_program {
    ir_span span;
    ir_comments comments; /* comments before @pl.program */
    ir_sym *name;         /* class name */
    ir_func **funcs;
    uint32_t nfuncs;
    ir_dyn *dyns;         /* pl.dynamic declarations (then free shape names) */
    uint32_t ndyns;
    uint32_t ndeclared_dyns; /* the first ndeclared_dyns of dyns are declared */
    ir_comments trailing; /* comments after the last function */
} ir_program;

typedef struct ir_arena ir_arena;

typedef struct ir_module {
    ir_arena *arena;
    const char *path;     /* for diagnostics (arena copy) */
    const char *src;      /* the source buffer (arena copy, NUL-terminated) */
    uint32_t src_len;
    ir_comments comments; /* comments before the import line; [0] is the header */
    ir_span import_span;
    ir_sym *prefix;       /* "pl" from "import pypto.language as pl" */
    int from_import;      /* 1 for "from pypto import language as X" */
    ir_comments dyn_comments; /* comments before the first pl.dynamic line */
    ir_program *program;
    ir_comments trailing; /* comments at the end of the file */
    uint32_t nsyms;       /* interned names: ir_sym ids are < nsyms */
    int resolved;         /* ir_resolve() ran without errors */
} ir_module;

const char *ir_expr_kind_name(ir_expr_kind kind);
const char *ir_stmt_kind_name(ir_stmt_kind kind);
const char *ir_binop_text(ir_binop op);
int ir_binop_prec(ir_binop op);

#endif
