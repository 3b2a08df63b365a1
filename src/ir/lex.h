/* The tokenizer of pass dumps: Python's rules restricted to what the
 * printer and ruff emit (ir-format.md §2), robust against any bytes.
 * Used by the parser only; exposed for the unit tests. */
#ifndef PTODB_IR_LEX_H
#define PTODB_IR_LEX_H

#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "ir/arena.h"
#include "ir/ast.h"

enum {
    IR_INDENT_MAX = 100,   /* nested blocks */
    LEX_BRACKET_MAX = 256  /* brackets whose kind and place are remembered */
};

typedef enum {
    TK_EOF,
    TK_NEWLINE,
    TK_INDENT,
    TK_DEDENT,
    TK_NAME,   /* includes keywords: compare tok.sym->id with LEX_KW_* */
    TK_INT,
    TK_FLOAT,
    TK_STRING,
    TK_OTHER_NUMBER, /* 0x1f, 0o7, 0b1, 1_000, 2j: legal Python, never printed */
    TK_ERROR,  /* a lexical error, already reported */
    /* operators and delimiters */
    TK_LPAR, TK_RPAR, TK_LSQB, TK_RSQB, TK_LBRACE, TK_RBRACE,
    TK_COLON, TK_COMMA, TK_DOT, TK_SEMI, TK_ELLIPSIS, TK_AT, TK_ARROW,
    TK_ASSIGN, TK_AUGASSIGN, TK_WALRUS,
    TK_PLUS, TK_MINUS, TK_STAR, TK_SLASH, TK_DSLASH, TK_PERCENT, TK_DSTAR,
    TK_LSHIFT, TK_RSHIFT, TK_AMP, TK_VBAR, TK_CARET, TK_TILDE,
    TK_LT, TK_GT, TK_LE, TK_GE, TK_EQEQ, TK_NE,
    TK_KIND_COUNT
} lex_kind;

/* Names interned first, so their ir_sym ids are these constants. */
#define LEX_PREDEFINED_LIST(X)                                                  \
    X(FALSE, "False") X(NONE, "None") X(TRUE, "True") X(AND, "and")            \
    X(AS, "as") X(ASSERT, "assert") X(ASYNC, "async") X(AWAIT, "await")        \
    X(BREAK, "break") X(CLASS, "class") X(CONTINUE, "continue") X(DEF, "def")  \
    X(DEL, "del") X(ELIF, "elif") X(ELSE, "else") X(EXCEPT, "except")          \
    X(FINALLY, "finally") X(FOR, "for") X(FROM, "from") X(GLOBAL, "global")    \
    X(IF, "if") X(IMPORT, "import") X(IN, "in") X(IS, "is")                    \
    X(LAMBDA, "lambda") X(NONLOCAL, "nonlocal") X(NOT, "not") X(OR, "or")      \
    X(PASS, "pass") X(RAISE, "raise") X(RETURN, "return") X(TRY, "try")        \
    X(WHILE, "while") X(WITH, "with") X(YIELD, "yield")                        \
    /* not keywords; ids fixed for cheap comparisons */                        \
    X(XOR, "xor") X(PL, "pl") X(PLD, "pld") X(SELF, "self") X(INF, "inf")      \
    X(NAN, "nan") X(PYPTO, "pypto") X(LANGUAGE, "language")                    \
    X(PROGRAM, "program") X(FUNCTION, "function") X(DYNAMIC, "dynamic")        \
    X(YIELD_, "yield_") X(COND, "cond") X(FUNC_ATTR, "func_attr")              \
    X(OUT, "Out") X(INOUT, "InOut") X(TUPLE, "tuple") X(WHILE_, "while_")

enum {
#define LEX_PREDEF_ENUM(id, text) LEX_KW_##id,
    LEX_PREDEFINED_LIST(LEX_PREDEF_ENUM)
#undef LEX_PREDEF_ENUM
    LEX_PREDEFINED_COUNT,
    LEX_KEYWORD_COUNT = LEX_KW_XOR /* ids below this are Python keywords */
};

typedef struct lex_token {
    lex_kind kind;
    uint32_t start, end; /* byte offsets */
    uint32_t line, col;  /* 1-based */
    uint32_t line_start; /* offset of the first byte of the token's line */
    ir_sym *sym;         /* TK_NAME */
} lex_token;

/* A comment as the lexer saw it. */
typedef struct lex_comment {
    ir_span span;
    uint32_t text_start, text_len; /* after '#' */
    int own_line;                  /* nothing but blanks before it on its line */
} lex_comment;

typedef struct lex_interner {
    ir_sym **slots; /* open addressing, power-of-two size */
    uint32_t cap, count;
    ir_sym **by_id;
    uint32_t by_id_cap;
} lex_interner;

typedef struct lexer {
    const char *src; /* NUL-terminated copy; NUL bytes inside are errors */
    uint32_t len, pos;
    uint32_t line, line_start;
    int at_line_start;
    int pending_dedents;
    int emitted_newline;  /* last token was NEWLINE (or nothing yet) */
    int eof_done;
    /* Indentation stack, as in CPython: width with tabs to multiples of 8
     * and width with tabs as 1, compared to detect inconsistent tabs. */
    uint32_t indent[IR_INDENT_MAX + 1], altindent[IR_INDENT_MAX + 1];
    int nindent;
    int indent_overflow; /* "too many levels" was reported */
    /* Open brackets: kind and position, for matching and the EOF message.
     * Past LEX_BRACKET_MAX only the depth is counted. */
    uint32_t depth;
    char bracket[LEX_BRACKET_MAX];
    uint32_t bracket_pos[LEX_BRACKET_MAX], bracket_line[LEX_BRACKET_MAX],
        bracket_line_start[LEX_BRACKET_MAX];
    lex_comment *comments;
    uint32_t ncomments, comments_cap;
    lex_interner names;
    ir_arena *arena;
    diag_sink *sink;
    const char *path;
    int errors;
    size_t unclosed_diag; /* 1 + the sink's index of "'(' was never closed", 0 none */
} lexer;

void lex_init(lexer *lx, const char *src, uint32_t len, ir_arena *arena, const char *path,
              diag_sink *sink);
void lex_free(lexer *lx);
/* The next token. After TK_EOF it keeps returning TK_EOF. */
lex_token lex_next(lexer *lx);
/* Interns a name (for tests and the resolver). */
ir_sym *lex_intern(lexer *lx, const char *s, uint32_t len);
/* Reports an error at a byte offset of the source. */
void lex_error_at(lexer *lx, uint32_t offset, uint32_t line, uint32_t line_start,
                  const char *fmt, ...) __attribute__((format(printf, 5, 6)));
const char *lex_kind_name(lex_kind kind);

/* The dump's identifier characters (ASCII letters, '_', and digits after
 * the first): what the lexer takes as a NAME. */
int lex_is_name_start(unsigned char c);
int lex_is_name_char(unsigned char c);

#endif
