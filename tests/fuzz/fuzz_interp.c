/* Fuzzes the interpreter with mutated pass dumps: each input is a dump
 * (seeded with examples/mlp's passes; libFuzzer mutates numbers, names and
 * ops as text) run against examples/mlp's data as a pass of that case, for
 * at most FUZZ_STEP_BUDGET statements. The machine's own limit is wall time
 * (machine_options.time_limit, --timeout), which would make runs depend on
 * the machine's speed; a step budget is deterministic.
 *
 * Under libFuzzer a custom mutator changes one token at a time, so that most
 * mutants still parse and resolve and reach the machine (with byte-level
 * mutation alone, 2 in 100 of the corpus did): a number becomes another
 * (often a boundary), an op becomes another op of the catalogue, a name
 * becomes another name of the same dump; one mutation in four is
 * libFuzzer's own.
 *
 * A dump of examples/memory (its program is `MemoryChecks`) runs against
 * that case's data instead: the memory sanitizer's MemRefs, offsets, sizes,
 * slot buffers and scratch tiles (docs/memory.md) are fuzzed there. */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/case.h"
#include "exec/runpass.h"
#include "ir/parse.h"
#include "ir/resolve.h"

enum { FUZZ_STEP_BUDGET = 20000 };

static case_info kase, memory_kase;
static runpass_options opts;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    char root[4096];
    snprintf(root, sizeof root, "%s/examples/mlp", fuzz_srcdir());
    case_options copt = {0};
    diag_sink sink;
    diag_sink_init(&sink, 20);
    if (case_open(root, &copt, &kase, &sink) != PTODB_OK) {
        diag_sink_print(&sink, stderr, 0);
        fprintf(stderr, "fuzz_interp: cannot open %s\n", root);
        exit(2);
    }
    diag_sink_free(&sink);
    snprintf(root, sizeof root, "%s/examples/memory", fuzz_srcdir());
    diag_sink_init(&sink, 20);
    if (case_open(root, &copt, &memory_kase, &sink) != PTODB_OK) {
        diag_sink_print(&sink, stderr, 0);
        fprintf(stderr, "fuzz_interp: cannot open %s\n", root);
        exit(2);
    }
    diag_sink_free(&sink);
    machine_options_init(&opts.mopt);
    op_fn *ops = calloc(IR_OP_COUNT, sizeof *ops);
    exec_ops_init(ops);
    opts.ops = ops;
    return 0;
}

#ifdef PTODB_LIBFUZZER
#include <ctype.h>
#include <string.h>

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

static unsigned next_random(unsigned *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 17;
    *state ^= *state << 5;
    return *state;
}

static int is_name_char(int c)
{
    return isalnum(c) || c == '_';
}

typedef struct span {
    size_t at, len;
} span;

/* The tokens of one kind in data: 'n' numbers, 'o' op names after "pl.",
 * 'i' identifiers. Returns how many (at most cap). */
static size_t find_tokens(const uint8_t *d, size_t size, int kind, span *out, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < size && n < cap;) {
        if (!is_name_char(d[i]) && d[i] != '.') {
            i++;
            continue;
        }
        size_t j = i;
        while (j < size && (is_name_char(d[j]) || d[j] == '.'))
            j++;
        int digit = isdigit(d[i]);
        if (kind == 'n' && digit)
            out[n++] = (span){i, j - i};
        else if (kind == 'o' && j - i > 3 && memcmp(d + i, "pl.", 3) == 0 && j < size && d[j] == '(')
            out[n++] = (span){i + 3, j - i - 3};
        else if (kind == 'i' && !digit && !memchr(d + i, '.', j - i))
            out[n++] = (span){i, j - i};
        i = j;
    }
    return n;
}

/* Replaces s in data by text; returns the new size (or size when it would not fit). */
static size_t replace(uint8_t *data, size_t size, size_t max_size, span s, const char *text, size_t len)
{
    if (size - s.len + len > max_size)
        return size;
    memmove(data + s.at + len, data + s.at + s.len, size - s.at - s.len);
    memcpy(data + s.at, text, len);
    return size - s.len + len;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    static span spans[4096];
    unsigned rnd = seed | 1;
    int kind = "noii"[next_random(&rnd) % 4];
    if (next_random(&rnd) % 4 == 0)
        return LLVMFuzzerMutate(data, size, max_size);
    size_t n = find_tokens(data, size, kind, spans, sizeof spans / sizeof spans[0]);
    if (n == 0)
        return LLVMFuzzerMutate(data, size, max_size);
    span s = spans[next_random(&rnd) % n];
    char text[256];
    size_t len;
    if (kind == 'n') {
        static const long long boundary[] = {0, 1, 2, 3, 4, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65,
                                             127, 128, 129, 255, 256, 1023, 1024, 4096, 65536,
                                             2147483647, 2147483648LL, 4294967296LL};
        unsigned r = next_random(&rnd);
        long long v = r % 2 ? boundary[r / 2 % (sizeof boundary / sizeof boundary[0])]
                            : (long long)(next_random(&rnd) % 300);
        len = (size_t)snprintf(text, sizeof text, "%lld", v);
    } else if (kind == 'o') {
        const ir_op_info *op = ir_op_info_get((int)(next_random(&rnd) % IR_OP_COUNT));
        len = (size_t)snprintf(text, sizeof text, "%s", op ? op->name : "tile.add");
    } else {
        span other = spans[next_random(&rnd) % n];
        len = other.len < sizeof text ? other.len : sizeof text - 1;
        memcpy(text, data + other.at, len);
    }
    return replace(data, size, max_size, s, text, len);
}
#endif

/* 1 when the size bytes at data hold the string w */
static int contains(const uint8_t *data, size_t size, const char *w)
{
    size_t n = strlen(w);
    for (size_t i = 0; i + n <= size; i++)
        if (memcmp(data + i, w, n) == 0)
            return 1;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    diag_sink sink;
    diag_sink_init(&sink, 20);
    ptodb_status st;
    ir_module *m = ir_parse("fuzz.py", (const char *)data, size, &sink, &st);
    if (st == PTODB_OK && ir_resolve(m, &sink) == PTODB_OK) {
        runpass_run run;
        const case_info *c = contains(data, size, "class MemoryChecks") ? &memory_kase : &kase;
        runpass_open(&run, "fuzz.py", m, c, &opts, NULL, NULL, RUNPASS_OPEN_DESPITE_REF);
        if (run.status == RUNPASS_COMPARED) {
            exec_event ev;
            for (int i = 0; i < FUZZ_STEP_BUDGET; i++)
                if (machine_step(run.m, &ev) != PTODB_OK || ev.kind == EXEC_EV_DONE)
                    break;
            if (machine_finished(run.m))
                for (size_t i = 0; i < run.nbinds; i++) {
                    const case_binding *b = &run.binds[i];
                    if (!b->golden)
                        continue;
                    exec_compare_result cmp;
                    exec_compare(b->t, b->golden->t, 0.05, 0.05, opts.mopt.profile, &cmp);
                }
        }
        if (getenv("PTODB_FUZZ_VERBOSE")) /* to see what an input does */
            fprintf(stderr, "fuzz_interp: %s after %llu steps%s%s\n",
                    run.status != RUNPASS_COMPARED ? "not started"
                    : machine_finished(run.m)      ? "finished"
                                                   : "stopped",
                    run.m ? (unsigned long long)machine_steps(run.m) : 0ULL,
                    run.message ? ": " : "", run.message ? run.message : "");
        runpass_close(&run);
    }
    ir_module_free(m);
    diag_sink_free(&sink);
    return 0;
}
