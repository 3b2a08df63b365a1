/* Unit tests for src/ir: lexer, parser (spans, statement forms), operator
 * precedence, printer round trip (raw and ruff forms), resolver results
 * and errors, hostile input. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/strbuf.h"
#include "ir/arena.h"
#include "ir/lex.h"
#include "ir/parse.h"
#include "ir/print.h"
#include "ir/resolve.h"

/* ---- helpers ---- */

#define HDR                                                                    \
    "# pypto.program: P\nimport pypto.language as pl\n\n@pl.program\nclass P:\n"
#define FN_HDR                                                                                 \
    HDR "    @pl.function\n    def f(self, x: pl.Scalar[pl.INDEX], y: pl.Scalar[pl.INDEX], "   \
        "t: pl.Tile[[16, 16], pl.FP32]) -> pl.Scalar[pl.INDEX]:\n"

typedef struct parsed {
    ir_module *m;
    diag_sink sink;
    ptodb_status status;
} parsed;

static void parse_text(parsed *p, const char *text)
{
    diag_sink_init(&p->sink, 20);
    p->m = ir_parse("t.py", text, strlen(text), &p->sink, &p->status);
}

static void parsed_free(parsed *p)
{
    ir_module_free(p->m);
    diag_sink_free(&p->sink);
}

static char *print_text(const char *text)
{
    parsed p;
    parse_text(&p, text);
    ck_assert_msg(p.status == PTODB_OK, "parse failed: %s",
                  p.sink.count ? p.sink.items[0].message : "?");
    strbuf sb = STRBUF_INIT;
    ir_print_module(p.m, &sb);
    parsed_free(&p);
    return strbuf_detach(&sb);
}

/* First error line ("t.py:L:C: error: msg") of parse+resolve, or "". */
static char *first_error(const char *text)
{
    parsed p;
    parse_text(&p, text);
    if (p.status == PTODB_OK)
        ir_resolve(p.m, &p.sink);
    char *s = p.sink.count ? diag_format(&p.sink.items[0]) : strdup("");
    parsed_free(&p);
    return s;
}

/* Prints the expression of "        r: pl.Scalar[pl.INDEX] = EXPR". */
static char *reprint_expr(const char *expr)
{
    char src[2048];
    snprintf(src, sizeof src, FN_HDR "        r: pl.Scalar[pl.INDEX] = %s\n        return r\n", expr);
    parsed p;
    parse_text(&p, src);
    ck_assert_msg(p.status == PTODB_OK, "parse failed for %s", expr);
    const ir_stmt *s = p.m->program->funcs[0]->body.items[0];
    strbuf sb = STRBUF_INIT;
    ir_print_expr(s->u.assign.value, &sb);
    parsed_free(&p);
    return strbuf_detach(&sb);
}

static const ir_expr *first_value(const parsed *p)
{
    return p->m->program->funcs[0]->body.items[0]->u.assign.value;
}

/* ---- lexer ---- */

START_TEST(test_lex_tokens)
{
    const char *src = "if a:\n    x = (1 +\n  2.5e-3) # c\n    y = 'q\\'s' \\\n      + \"d\"\nz = ...\n";
    ir_arena *a = ir_arena_new();
    diag_sink sink;
    diag_sink_init(&sink, 10);
    lexer lx;
    lex_init(&lx, src, (uint32_t)strlen(src), a, "t.py", &sink);
    lex_kind want[] = {TK_NAME, TK_NAME, TK_COLON, TK_NEWLINE, TK_INDENT, TK_NAME, TK_ASSIGN,
                       TK_LPAR, TK_INT, TK_PLUS, TK_FLOAT, TK_RPAR, TK_NEWLINE, TK_NAME,
                       TK_ASSIGN, TK_STRING, TK_PLUS, TK_STRING, TK_NEWLINE, TK_DEDENT, TK_NAME,
                       TK_ASSIGN, TK_ELLIPSIS, TK_NEWLINE, TK_EOF};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        lex_token t = lex_next(&lx);
        ck_assert_msg(t.kind == want[i], "token %zu: got %s, want %s", i, lex_kind_name(t.kind),
                      lex_kind_name(want[i]));
        if (i == 0)
            ck_assert_int_eq(t.sym->id, LEX_KW_IF);
        if (i == 10) { /* 2.5e-3 on line 3, col 3 (implicit joining) */
            ck_assert_uint_eq(t.line, 3);
            ck_assert_uint_eq(t.col, 3);
            ck_assert_uint_eq(t.end - t.start, 6);
        }
    }
    ck_assert_uint_eq(lx.ncomments, 1);
    ck_assert_uint_eq(lx.comments[0].own_line, 0);
    ck_assert_uint_eq(sink.errors, 0);
    /* Interning: the same name gives the same symbol. */
    ck_assert_ptr_eq(lex_intern(&lx, "x", 1), lex_intern(&lx, "x", 1));
    lex_free(&lx);
    diag_sink_free(&sink);
    ir_arena_free(a);
}
END_TEST

START_TEST(test_lex_errors)
{
    static const struct {
        const char *src, *msg;
    } cases[] = {
        {"x = 'abc\n", "t.py:1:5: error: unterminated string literal"},
        {"if a:\n    x = 1\n  y = 2\n", "t.py:3:3: error: unindent does not match any outer indentation level"},
        {"if a:\n        x = 1\n\ty = 2\n", "t.py:3:2: error: inconsistent use of tabs and spaces in indentation"},
        {"x = 12ab\n", "t.py:1:5: error: invalid number literal"},
        {"x = a ) b\n", "t.py:1:7: error: unmatched ')'"},
        {"x = (a]\n", "t.py:1:7: error: closing bracket ']' does not match opening bracket '(' on line 1"},
        {"x = $\n", "t.py:1:5: error: invalid character '$'"},
        {"x = a \\ b\n", "t.py:1:7: error: unexpected character after line continuation character"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ir_arena *a = ir_arena_new();
        diag_sink sink;
        diag_sink_init(&sink, 10);
        lexer lx;
        lex_init(&lx, cases[i].src, (uint32_t)strlen(cases[i].src), a, "t.py", &sink);
        for (int k = 0; k < 100 && lex_next(&lx).kind != TK_EOF; k++)
            ;
        ck_assert_msg(sink.count > 0, "case %zu: no error", i);
        char *line = diag_format(&sink.items[0]);
        ck_assert_str_eq(line, cases[i].msg);
        free(line);
        lex_free(&lx);
        diag_sink_free(&sink);
        ir_arena_free(a);
    }
}
END_TEST

START_TEST(test_lex_literals)
{
    parsed p;
    parse_text(&p, FN_HDR "        r: pl.Scalar[pl.INDEX] = pl.tensor.full([2], dtype=pl.FP32, "
                          "value=-1e+16, big=18446744073709551615, s=\"a\\\"b\", q='x', n=None, "
                          "b=True, i=-inf, z=-0.0)\n        return r\n");
    ck_assert_int_eq(p.status, PTODB_OK);
    const ir_expr *c = first_value(&p);
    ck_assert_int_eq(c->kind, IR_EXPR_CALL);
    ck_assert_uint_eq(c->u.call.nkwargs, 9);
    const ir_kwarg *k = c->u.call.kwargs;
    ck_assert_int_eq(k[1].value->kind, IR_EXPR_FLOAT);
    ck_assert(k[1].value->u.num.f == -1e16);
    ck_assert_int_eq(k[2].value->kind, IR_EXPR_INT);
    ck_assert(k[2].value->flags & IR_EF_BIG);
    ck_assert(k[2].value->u.num.u == UINT64_MAX);
    ck_assert_str_eq(k[3].value->u.str.value, "a\"b");
    ck_assert_str_eq(k[4].value->u.str.value, "x");
    ck_assert_int_eq(k[5].value->kind, IR_EXPR_NONE);
    ck_assert_int_eq(k[6].value->kind, IR_EXPR_BOOL);
    ck_assert_int_eq(k[6].value->u.boolean, 1);
    ck_assert_int_eq(k[7].value->kind, IR_EXPR_UNARY); /* -inf: unary minus of NAME inf */
    ck_assert_int_eq(k[8].value->kind, IR_EXPR_FLOAT);
    ck_assert(k[8].value->flags & IR_EF_NEGATIVE);
    ir_resolve(p.m, &p.sink);
    ck_assert_uint_eq(p.sink.errors, 0);
    ck_assert_int_eq(k[7].value->u.unary.operand->res.kind, IR_REF_FLOATCONST);
    parsed_free(&p);
}
END_TEST

/* ---- parser ---- */

START_TEST(test_parse_structure_and_spans)
{
    const char *src =
        "# pypto.program: Demo\n"
        "import pypto.language as pl\n"
        "\n"
        "M = pl.dynamic(\"M\")\n"
        "\n"
        "@pl.program\n"
        "class Demo:\n"
        "    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)\n"
        "    def k(a: pl.Tensor[[M, 64], pl.FP32], out: pl.Out[pl.Tensor[[M, 64], pl.FP32]]) -> pl.Tensor[[M, 64], pl.FP32]:\n"
        "        pl.func_attr({\"dual_aiv_dispatch\": True})\n"
        "        t: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(a, [0, 0], [16, 64], [16, 64], target_memory=pl.Mem.Vec)\n"
        "        # store it\n"
        "        o: pl.Tensor[[M, 64], pl.FP32] = pl.tile.store(t, [0, 0], out)\n"
        "        return o\n"
        "    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)\n"
        "    def main(self, a: pl.Tensor[[M, 64], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[M, 64], pl.FP32]:\n"
        "        out: pl.Tensor[[M, 64], pl.FP32] = pl.tensor.create([M, 64], dtype=pl.FP32)\n"
        "        for i, (acc,) in pl.range(n, init_values=(out,)):\n"
        "            r: pl.Tensor[[M, 64], pl.FP32] = self.k(a, acc)\n"
        "            acc_rv: pl.Tensor[[M, 64], pl.FP32] = pl.yield_(r)\n"
        "        for (j, s) in pl.while_(init_values=(0, 1)):\n"
        "            pl.cond(j < n)\n"
        "            j_rv, s_rv = pl.yield_(j + 1, s * 2)\n"
        "        with pl.at(level=pl.Level.CORE_GROUP, name_hint=\"x\") as tid:\n"
        "            pass\n"
        "        if n > 0:\n"
        "            q: pl.Scalar[pl.INDEX] = pl.yield_(n)\n"
        "        else:\n"
        "            q: pl.Scalar[pl.INDEX] = pl.yield_(j_rv)\n"
        "        return acc_rv\n";
    parsed p;
    parse_text(&p, src);
    ck_assert_msg(p.status == PTODB_OK, "%s", p.sink.count ? p.sink.items[0].message : "");
    ir_module *m = p.m;
    ck_assert_uint_eq(m->comments.n, 1);
    ck_assert_str_eq(m->comments.items[0].text, "pypto.program: Demo");
    ck_assert_str_eq(m->prefix->text, "pl");
    ir_program *prog = m->program;
    ck_assert_str_eq(prog->name->text, "Demo");
    ck_assert_uint_eq(prog->ndyns, 1);
    ck_assert_uint_eq(prog->nfuncs, 2);
    ir_func *k = prog->funcs[0], *mainf = prog->funcs[1];
    ck_assert_str_eq(k->type_name, "AIV");
    ck_assert_str_eq(k->role_name, "SubWorker");
    ck_assert_int_eq(k->has_self, 0);
    ck_assert_int_eq(mainf->has_self, 1);
    ck_assert_uint_eq(k->nparams, 2);
    ck_assert_int_eq(k->params[1].dir, IR_DIR_OUT);
    ck_assert_int_eq(k->params[1].type->kind, IR_EXPR_SUBSCRIPT);
    ck_assert_ptr_nonnull(k->func_attr);
    ck_assert_int_eq(k->body.items[0]->kind, IR_STMT_FUNC_ATTR);
    /* Spans: the load statement is line 11, col 9. */
    const ir_stmt *load = k->body.items[1];
    ck_assert_int_eq(load->kind, IR_STMT_ASSIGN);
    ck_assert_uint_eq(load->span.line, 11);
    ck_assert_uint_eq(load->span.col, 9);
    ck_assert(memcmp(m->src + load->span.start, "t: pl.Tile", 10) == 0);
    ck_assert(m->src[load->span.end - 1] == ')');
    const ir_expr *call = load->u.assign.value;
    ck_assert_uint_eq(call->span.line, 11);
    ck_assert(memcmp(m->src + call->span.start, "pl.tile.load(", 13) == 0);
    /* The comment is attached to the next statement. */
    ck_assert_uint_eq(k->body.items[2]->comments.n, 1);
    ck_assert_str_eq(k->body.items[2]->comments.items[0].text, "store it");
    /* Loops. */
    const ir_stmt *f1 = mainf->body.items[1];
    ck_assert_int_eq(f1->kind, IR_STMT_FOR);
    ck_assert_str_eq(f1->u.for_.var->name->text, "i");
    ck_assert_uint_eq(f1->u.for_.niter_args, 1);
    ck_assert_int_eq(f1->u.for_.body.items[1]->kind, IR_STMT_YIELD);
    const ir_stmt *f2 = mainf->body.items[2];
    ck_assert_ptr_null(f2->u.for_.var);
    ck_assert_uint_eq(f2->u.for_.niter_args, 2);
    ck_assert_int_eq(f2->u.for_.body.items[0]->kind, IR_STMT_COND);
    const ir_stmt *y2 = f2->u.for_.body.items[1];
    ck_assert_int_eq(y2->kind, IR_STMT_YIELD);
    ck_assert_uint_eq(y2->u.assign.ntargets, 2);
    ck_assert_uint_eq(y2->u.assign.nvalues, 2);
    const ir_stmt *w = mainf->body.items[3];
    ck_assert_int_eq(w->kind, IR_STMT_WITH);
    ck_assert_str_eq(w->u.with.as->name->text, "tid");
    const ir_stmt *iff = mainf->body.items[4];
    ck_assert_int_eq(iff->kind, IR_STMT_IF);
    ck_assert_int_eq(iff->u.if_.has_else, 1);

    /* Resolution. */
    ck_assert_int_eq(ir_resolve(m, &p.sink), PTODB_OK);
    ck_assert_int_eq(call->res.kind, IR_REF_OP);
    ck_assert_int_eq(call->res.id, IR_OP_TILE_LOAD);
    ck_assert_str_eq(ir_op_info_get(call->res.id)->name, "tile.load");
    ck_assert_int_eq(k->params[0].slot, 0);
    ck_assert_int_eq(k->params[1].slot, 1);
    ck_assert_uint_eq(k->nslots, 4); /* a, out, t, o */
    ck_assert_str_eq(k->slot_names[2]->text, "t");
    const ir_expr *self_call = f1->u.for_.body.items[0]->u.assign.value;
    ck_assert_int_eq(self_call->res.kind, IR_REF_CALL);
    ck_assert_int_eq(self_call->res.id, 0);
    const ir_expr *tm = call->u.call.kwargs[0].value; /* pl.Mem.Vec */
    ck_assert_int_eq(tm->res.kind, IR_REF_ENUM);
    ck_assert_int_eq(tm->res.id, IR_EV_MEM_VEC);
    /* M in a shape is the pl.dynamic symbol. */
    const ir_expr *shape = k->params[0].type->u.sub.items[0];
    ck_assert_int_eq(shape->u.seq.items[0]->res.kind, IR_REF_DYN);
    /* Loop variables and iter-args share the function's slot space. */
    ck_assert_int_eq(f1->u.for_.var->slot, (int)mainf->nparams + 1);
    parsed_free(&p);
}
END_TEST

START_TEST(test_parse_opaque_and_oneline)
{
    const char *src = HDR
        "    @pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)\n"
        "    def host(x: pl.Scalar[pl.INDEX]): ...\n"
        "    @pl.function\n"
        "    def g(self, x: pl.Scalar[pl.INDEX]):\n"
        "        import numpy as np\n"
        "        try:\n"
        "            y = [i * 2 for i in range(3)]\n"
        "        except ValueError:\n"
        "            pass\n"
        "        z = x if x else 0\n"
        "        x += 1\n"
        "        return x\n";
    parsed p;
    parse_text(&p, src);
    ck_assert_msg(p.status == PTODB_OK, "%s", p.sink.count ? p.sink.items[0].message : "");
    const ir_func *host = p.m->program->funcs[0];
    ck_assert_uint_eq(host->body.n, 1);
    ck_assert_int_eq(host->body.items[0]->kind, IR_STMT_ELLIPSIS);
    const ir_func *g = p.m->program->funcs[1];
    ck_assert_int_eq(g->body.items[0]->kind, IR_STMT_OPAQUE);
    ck_assert_int_eq(g->body.items[1]->kind, IR_STMT_OPAQUE); /* try + block */
    ck_assert(strstr(g->body.items[1]->u.opaque.text, "for i in range(3)") != NULL);
    ck_assert_int_eq(g->body.items[2]->kind, IR_STMT_OPAQUE); /* except + block */
    ck_assert_int_eq(g->body.items[3]->kind, IR_STMT_ASSIGN);
    ck_assert_int_eq(g->body.items[3]->u.assign.value->kind, IR_EXPR_OPAQUE);
    ck_assert_int_eq(g->body.items[4]->kind, IR_STMT_OPAQUE); /* x += 1 */
    parsed_free(&p);
    /* The ruff one-line stub prints on its own line (raw form). */
    char *out = print_text(src);
    ck_assert(strstr(out, "    def host(x: pl.Scalar[pl.INDEX]):\n        ...\n") != NULL);
    ck_assert(strstr(out, "        try:\n            y = [i * 2 for i in range(3)]\n"
                          "        except ValueError:\n            pass\n") != NULL);
    free(out);
}
END_TEST

/* ---- precedence ---- */

START_TEST(test_precedence)
{
    static const struct {
        const char *in, *out;
    } cases[] = {
        {"x - (y - 1)", "x - (y - 1)"},
        {"(x - y) - 1", "x - y - 1"},
        {"pl.submit(self.f, x, y, t, predicate=(x > 0))", "pl.submit(self.f, x, y, t, predicate=(x > 0))"},
        {"(x ** y) ** 2", "(x ** y) ** 2"},
        {"x ** y ** 2", "x ** y ** 2"},
        {"x**2", "x ** 2"},
        {"-2 ** 3", "-2 ** 3"},
        {"(-x) ** 2", "(-x) ** 2"},
        {"-(x + 1)", "-(x + 1)"},
        {"(x + y) * 2 // 4 % 3", "(x + y) * 2 // 4 % 3"},
        {"x < y == True", "x < y == True"},
        {"x < (y == True)", "x < (y == True)"},
        {"not x and y or x xor y", "not x and y or x xor y"},
        {"not (x and y)", "not (x and y)"},
        {"(x or y) and x", "(x or y) and x"},
        {"x | y ^ 1 & 2 << 3 + 4", "x | y ^ 1 & 2 << 3 + 4"},
        {"(x | y) & 1", "(x | y) & 1"},
        {"~x + -y", "~x + -y"},
        {"pl.min(x, pl.const(64, pl.INDEX)) * 2", "pl.min(x, pl.const(64, pl.INDEX)) * 2"},
        {"(\n  x\n  + y * 2\n)", "x + y * 2"},
        {"x * -1", "x * -1"},
        {"- 2 ** 3", "-(2 ** 3)"},
        {"-(2 ** 3)", "-(2 ** 3)"},
        {"- 1", "-1"},
        {"(x if y else 1) + 1", "(x if y else 1) + 1"},
        {"[i for i in x] + x", "[i for i in x] + x"},
        {"x - -1.5e16", "x - -1.5e+16"},
        {"2.0 * 9.9999999999999995e-07", "2.0 * 9.9999999999999995e-07"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *got = reprint_expr(cases[i].in);
        ck_assert_msg(strcmp(got, cases[i].out) == 0, "%s: got %s, want %s", cases[i].in, got,
                      cases[i].out);
        free(got);
    }
    /* Tree shapes: -2 ** 3 is (-2) ** 3 (§6.4); comparisons left-assoc. */
    parsed p;
    parse_text(&p, FN_HDR "        r: pl.Scalar[pl.INDEX] = -2 ** 3\n        return r\n");
    const ir_expr *e = first_value(&p);
    ck_assert_int_eq(e->kind, IR_EXPR_BINARY);
    ck_assert_int_eq(e->op, IR_BINOP_POW);
    ck_assert_int_eq(e->u.binary.lhs->kind, IR_EXPR_INT);
    ck_assert_int_eq(e->u.binary.lhs->u.num.i, -2);
    parsed_free(&p);
    parse_text(&p, FN_HDR "        r: pl.Scalar[pl.INDEX] = x < y == y\n        return r\n");
    e = first_value(&p);
    ck_assert_int_eq(e->op, IR_BINOP_EQ);
    ck_assert_int_eq(e->u.binary.lhs->op, IR_BINOP_LT);
    parsed_free(&p);
}
END_TEST

/* ---- printer ---- */

START_TEST(test_print_roundtrip_raw)
{
    const char *raw =
        "# pypto.program: R\n"
        "import pypto.language as pl\n"
        "\n"
        "N = pl.dynamic(\"N\")\n"
        "\n"
        "@pl.program\n"
        "class R:\n"
        "    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)\n"
        "    def k(a: pl.Tensor[[N, 64], pl.FP32, pl.MemRef(\"mem_ddr_0\", pl.const(0, pl.INT64), 4096)], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:\n"
        "        # \n"
        "        #         Docstring body\n"
        "        #         \n"
        "        mem_vec_0: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 4096)\n"
        "        t: pl.Tile[[16, 64], pl.FP32, pl.MemRef(mem_vec_0, pl.const(0, pl.INT64), 4096), pl.Mem.Vec, pl.TileView(valid_shape=[N, 64])] = pl.tile.load(a, [0, 0], [16, 64], [16, 64], target_memory=pl.Mem.Vec)\n"
        "        c: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.cast(t, target_type=pl.FP16, mode='round')\n"
        "        m: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.full([16, 64], dtype=pl.FP32, value=-inf)\n"
        "        pl.tile.tpush_to_aiv(t, split=0)\n"
        "        o: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(t, [0, 0], out, attrs={\"pipeline_membership\": \"0:1\"})\n"
        "        return o\n"
        "    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)\n"
        "    def main(self, a: pl.Tensor[[N, 64], pl.FP32]) -> tuple[pl.Tensor[[16, 64], pl.FP32], pl.Tensor[[16, 64], pl.FP32]]:\n"
        "        with pl.scope():\n"
        "            for (i, s) in pl.while_(init_values=(0, 1)):\n"
        "                pl.cond(i < 4)\n"
        "                i_rv, s_rv = pl.yield_(i + 1, s ** 2)\n"
        "            for b, (x,) in pl.range(0, 8, 2, init_values=(a,), attrs={\"iter_arg_rebind_0\": True}):\n"
        "                if b % 2 == 0:\n"
        "                    y: pl.Tensor[[N, 64], pl.FP32] = pl.yield_(x)\n"
        "                else:\n"
        "                    y: pl.Tensor[[N, 64], pl.FP32] = pl.yield_(x)\n"
        "                x_rv: pl.Tensor[[N, 64], pl.FP32] = pl.yield_(y)\n"
        "            o: pl.Tensor[[16, 64], pl.FP32] = self.k(x_rv, a, attrs={\"arg_directions\": [pl.adir.input, pl.adir.output_existing]})\n"
        "            return o, o\n";
    char *out = print_text(raw);
    ck_assert_str_eq(out, raw);
    free(out);
}
END_TEST

START_TEST(test_print_ruff_to_raw)
{
    const char *ruff =
        "# pypto.program: R\n"
        "import pypto.language as pl\n"
        "\n"
        "\n"
        "@pl.program\n"
        "class R:\n"
        "    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)\n"
        "    def k(\n"
        "        a: pl.Tensor[[16, 64], pl.FP32],\n"
        "        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],\n"
        "    ) -> pl.Tensor[[16, 64], pl.FP32]:\n"
        "        #\n"
        "        #         Docstring body\n"
        "        #\n"
        "        c: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.cast(\n"
        "            a, target_type=pl.FP16, mode=\"round\"\n"
        "        )\n"
        "        x: pl.Scalar[pl.INDEX] = (\n"
        "            2**3\n"
        "            + 1e16\n"
        "        )\n"
        "        for i, s in pl.while_(init_values=(0, 1)):\n"
        "            pl.cond(i < 4)\n"
        "            (\n"
        "                i_rv,\n"
        "                s_rv,\n"
        "            ) = pl.yield_(i + 1, s)\n"
        "        return (\n"
        "            c,\n"
        "            x,\n"
        "        )\n"
        "\n"
        "    @pl.function\n"
        "    def stub(x: pl.Scalar[pl.INDEX]): ...\n";
    const char *raw =
        "# pypto.program: R\n"
        "import pypto.language as pl\n"
        "\n"
        "@pl.program\n"
        "class R:\n"
        "    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)\n"
        "    def k(a: pl.Tensor[[16, 64], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:\n"
        "        # \n"
        "        #         Docstring body\n"
        "        #         \n"
        "        c: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.cast(a, target_type=pl.FP16, mode='round')\n"
        "        x: pl.Scalar[pl.INDEX] = 2 ** 3 + 1e+16\n"
        "        for (i, s) in pl.while_(init_values=(0, 1)):\n"
        "            pl.cond(i < 4)\n"
        "            i_rv, s_rv = pl.yield_(i + 1, s)\n"
        "        return c, x\n"
        "    @pl.function\n"
        "    def stub(x: pl.Scalar[pl.INDEX]):\n"
        "        ...\n";
    char *out = print_text(ruff);
    ck_assert_str_eq(out, raw);
    free(out);
    /* Printing is idempotent. */
    out = print_text(raw);
    ck_assert_str_eq(out, raw);
    free(out);
}
END_TEST

/* ---- resolver errors ---- */

START_TEST(test_resolve_errors)
{
    static const struct {
        const char *body, *msg;
    } cases[] = {
        {"        return zz\n", "t.py:8:16: error: undefined name 'zz'"},
        {"        r: pl.Scalar[pl.INDEX] = pl.tile.frobnicate(x)\n        return r\n",
         "t.py:8:34: warning: unknown op 'tile.frobnicate' (newer PyPTO?): ptodb runs the file "
         "until a statement calls it"},
        {"        r: pl.Scalar[pl.INDEX] = pl.tile.add(x)\n        return r\n",
         "t.py:8:34: error: wrong number of arguments for op 'tile.add': expected 2, got 1"},
        {"        r: pl.Scalar[pl.INDEX] = pl.tensor.slice(x, y)\n        return r\n",
         "t.py:8:34: error: too few arguments for op 'tensor.slice': expected at least 3, got 2"},
        {"        r: pl.Scalar[pl.INDEX] = self.nope(x)\n        return r\n",
         "t.py:8:34: error: unknown function 'nope' (no such method in the program)"},
        {"        r: pl.Scalar[pl.INDEX] = self.f(x)\n        return r\n",
         "t.py:8:34: error: wrong number of arguments for 'f': expected 3, got 1"},
        {"        r: pl.Scalar[pl.INDEX] = pl.const(1)\n        return r\n",
         "t.py:8:34: error: wrong number of arguments for 'pl.const': expected 2, got 1"},
        {"        r: pl.Scalar[pl.INDEX] = pl.cast(x, pl.FP99)\n        return r\n",
         "t.py:8:45: warning: unknown name 'pl.FP99' (newer PyPTO?): ptodb runs the file until "
         "a statement needs it"},
        {"        r: pl.Scalar[pl.INDEX] = pl.frob(x)\n        return r\n",
         "t.py:8:34: error: unknown builtin 'pl.frob'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char src[2048];
        snprintf(src, sizeof src, FN_HDR "%s", cases[i].body);
        char *got = first_error(src);
        ck_assert_msg(strcmp(got, cases[i].msg) == 0, "case %zu: got '%s'", i, got);
        free(got);
    }
    /* Duplicates. */
    char *got = first_error(HDR "    @pl.function\n    def f(self, a: pl.Scalar[pl.INDEX], a: "
                                "pl.Scalar[pl.INDEX]):\n        return a\n");
    ck_assert_str_eq(got, "t.py:7:41: error: duplicate parameter 'a' in function 'f'");
    free(got);
    got = first_error(HDR "    @pl.function\n    def f(self):\n        pass\n"
                          "    @pl.function\n    def f(self):\n        pass\n");
    ck_assert_str_eq(got, "t.py:10:9: error: duplicate function 'f' (first defined on line 7)");
    free(got);
    got = first_error("import pypto.language as pl\nM = pl.dynamic(\"M\")\nM = pl.dynamic(\"M\")\n"
                      "@pl.program\nclass P:\n    @pl.function\n    def f(self):\n        pass\n");
    ck_assert_str_eq(got, "t.py:3:1: error: duplicate pl.dynamic declaration 'M'");
    free(got);
    /* A free name in a shape is a symbolic dimension, not an error. */
    got = first_error(FN_HDR "        r: pl.Tensor[[K, 4], pl.FP32] = pl.tensor.create([4, 4], "
                             "dtype=pl.FP32)\n        return x\n");
    ck_assert_str_eq(got, "");
    free(got);
}
END_TEST

/* ---- hostile input ---- */

START_TEST(test_hostile_input)
{
    size_t n = 10000;
    char *deep = malloc(3 * n + 256);
    char *q = deep;
    q += sprintf(q, FN_HDR "        r: pl.Scalar[pl.INDEX] = ");
    for (size_t i = 0; i < n; i++)
        *q++ = '(';
    *q++ = 'x';
    for (size_t i = 0; i < n; i++)
        *q++ = ')';
    strcpy(q, "\n        return r\n");
    char *got = first_error(deep);
    ck_assert_str_eq(got, "t.py:8:232: error: nesting too deep (more than 200 levels)");
    free(got);
    /* A long left-deep chain is refused before any recursive walk. */
    q = deep + sprintf(deep, FN_HDR "        r: pl.Scalar[pl.INDEX] = x");
    for (size_t i = 0; i < 500; i++)
        q += sprintf(q, " + x");
    strcpy(q, "\n        return r\n");
    got = first_error(deep);
    ck_assert_str_eq(got, "t.py:8:34: error: expression nested too deeply (more than 200 levels)");
    free(got);
    free(deep);

    /* Any bytes: no crash, a diagnostic. */
    static const char bytes[] = "@pl.program\nclass \x00\xff\xfe(\n";
    parsed p;
    diag_sink_init(&p.sink, 20);
    p.m = ir_parse("t.py", bytes, sizeof bytes - 1, &p.sink, &p.status);
    ck_assert_int_eq(p.status, PTODB_ERR_SYNTAX);
    ck_assert_uint_gt(p.sink.errors, 0);
    parsed_free(&p);
    got = first_error("");
    ck_assert_str_eq(got, "t.py:1:1: error: no '@pl.program' class in the file");
    free(got);
    /* Error cap: many bad lines, at most 20 kept. */
    strbuf sb = STRBUF_INIT;
    strbuf_puts(&sb, FN_HDR);
    for (int i = 0; i < 200; i++)
        strbuf_puts(&sb, "        x = = 1\n");
    diag_sink_init(&p.sink, 20);
    p.m = ir_parse("t.py", sb.data, sb.len, &p.sink, &p.status);
    ck_assert_uint_eq(p.sink.count, 20);
    ck_assert_uint_eq(p.sink.items[1].line, 9); /* recovery at statement level */
    parsed_free(&p);
    strbuf_free(&sb);
}
END_TEST

START_TEST(test_formatter_shapes)
{
    /* Shapes ruff produces when it wraps (ir-format.md §1.3). */
    const char *ruff = FN_HDR
        "        # pld.comm_domain: devices=all, slots=[win_a, sig]\n"
        "        for (\n"
        "            i,\n"
        "            (a,),\n"
        "        ) in pl.range(4, init_values=(x,)):\n"
        "            if (\n"
        "                a < 3\n"
        "                and i == 4\n"
        "            ):\n"
        "                b: pl.Scalar[pl.INDEX] = pl.yield_(a)\n"
        "            else:\n"
        "                b: pl.Scalar[pl.INDEX] = pl.yield_(\n"
        "                    i\n"
        "                )\n"
        "            a_rv: pl.Scalar[pl.INDEX] = pl.yield_(b)\n"
        "        with pl.at(\n"
        "            level=pl.Level.CORE_GROUP,\n"
        "            name_hint=\"k\",\n"
        "        ) as tid:\n"
        "            pass\n"
        "        return (\n"
        "            a_rv\n"
        "        )\n";
    const char *raw = FN_HDR
        "        # pld.comm_domain: devices=all, slots=[win_a, sig]\n"
        "        for i, (a,) in pl.range(4, init_values=(x,)):\n"
        "            if a < 3 and i == 4:\n"
        "                b: pl.Scalar[pl.INDEX] = pl.yield_(a)\n"
        "            else:\n"
        "                b: pl.Scalar[pl.INDEX] = pl.yield_(i)\n"
        "            a_rv: pl.Scalar[pl.INDEX] = pl.yield_(b)\n"
        "        with pl.at(level=pl.Level.CORE_GROUP, name_hint=\"k\") as tid:\n"
        "            pass\n"
        "        return a_rv\n";
    char *out = print_text(ruff);
    ck_assert_str_eq(out, raw);
    free(out);
    parsed p;
    parse_text(&p, ruff);
    ck_assert_int_eq(p.m->comments.items[0].kind, IR_COMMENT_HEADER);
    const ir_stmt *loop = p.m->program->funcs[0]->body.items[0];
    ck_assert_int_eq(loop->kind, IR_STMT_FOR);
    ck_assert_int_eq(loop->comments.items[0].kind, IR_COMMENT_COMM_DOMAIN);
    ck_assert_str_eq(loop->u.for_.var->name->text, "i");
    ck_assert_uint_eq(loop->u.for_.niter_args, 1);
    ck_assert_int_eq(ir_resolve(p.m, &p.sink), PTODB_OK);
    parsed_free(&p);
}
END_TEST

START_TEST(test_verbatim_host_body)
{
    const char *src = HDR
        "    @pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)\n"
        "    def host(x: pl.Scalar[pl.INDEX]):\n"
        "        import numpy as np\n"
        "        for a, b in enumerate(range(x)):\n"
        "            print(f\"{a}: {b}\", r'raw')\n"
        "        d = {k: v for k, v in zip(x, x)}\n"
        "        return np.sum(d)\n";
    parsed p;
    parse_text(&p, src);
    ck_assert_msg(p.status == PTODB_OK, "%s", p.sink.count ? p.sink.items[0].message : "");
    ck_assert_int_eq(ir_resolve(p.m, &p.sink), PTODB_OK);
    const ir_func *f = p.m->program->funcs[0];
    ck_assert_int_eq(f->body.items[1]->kind, IR_STMT_OPAQUE);
    parsed_free(&p);
    char *out = print_text(src);
    ck_assert_str_eq(out, "# pypto.program: P\nimport pypto.language as pl\n\n@pl.program\nclass P:\n"
                          "    @pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)\n"
                          "    def host(x: pl.Scalar[pl.INDEX]):\n"
                          "        import numpy as np\n"
                          "        for a, b in enumerate(range(x)):\n"
                          "            print(f\"{a}: {b}\", r'raw')\n"
                          "        d = {k: v for k, v in zip(x, x)}\n"
                          "        return np.sum(d)\n");
    free(out);
    /* More legal Python kept as written: other number forms, else clauses
     * of for/while/try, a generator argument, concatenated strings. */
    const char *more = HDR
        "    @pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)\n"
        "    def host(x: pl.Scalar[pl.INDEX]):\n"
        "        m = x & 0xFFFF | 0o17 + 1_000 + 2j\n"
        "        for i in range(x):\n"
        "            pass\n"
        "        else:\n"
        "            m = 1\n"
        "        try:\n"
        "            import os\n"
        "        except ImportError:\n"
        "            pass\n"
        "        else:\n"
        "            pass\n"
        "        t = bytes((m ^ 0x5C) for m in range(256))\n"
        "        msg = ('a '\n"
        "               'b')\n"
        "        return m + msg\n";
    out = print_text(more);
    ck_assert_str_eq(out, more);
    free(out);
    parse_text(&p, more);
    ck_assert_int_eq(ir_resolve(p.m, &p.sink), PTODB_OK);
    parsed_free(&p);

    /* The same body in an ordinary function is checked. */
    char *err = first_error(HDR "    @pl.function\n    def g(self):\n        print(1)\n");
    ck_assert_str_eq(err, "t.py:8:9: error: unknown function 'print'");
    free(err);
}
END_TEST

static Suite *ir_suite(void)
{
    Suite *s = suite_create("ir");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_lex_tokens);
    tcase_add_test(tc, test_lex_errors);
    tcase_add_test(tc, test_lex_literals);
    tcase_add_test(tc, test_parse_structure_and_spans);
    tcase_add_test(tc, test_parse_opaque_and_oneline);
    tcase_add_test(tc, test_precedence);
    tcase_add_test(tc, test_print_roundtrip_raw);
    tcase_add_test(tc, test_print_ruff_to_raw);
    tcase_add_test(tc, test_formatter_shapes);
    tcase_add_test(tc, test_verbatim_host_body);
    tcase_add_test(tc, test_resolve_errors);
    tcase_add_test(tc, test_hostile_input);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(ir_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
