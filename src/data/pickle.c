/* The pickle subset of torch.save: a small, bounded stack machine. */
#include "config.h"

#include "data/pickle.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

#define PK_MAX_STACK 1000000u
#define PK_MAX_MEMO 1000000u
#define PK_MAX_ITEMS 10000000u
/* Nesting bound: keeps recursive release and tree walks shallow. */
#define PK_MAX_DEPTH 64

typedef struct pk_vm {
    const unsigned char *p, *end, *start;
    pk_value **stack;
    size_t sp, scap;
    pk_value **memo;
    size_t memo_cap;
    uint32_t memo_next; /* MEMOIZE's implicit index */
    const char *const *allowed;
    const char *path, *what;
    diag_sink *sink;
} pk_vm;

static pk_value *pk_new(pk_kind k)
{
    pk_value *v = xcalloc(1, sizeof *v);
    v->kind = k;
    v->refcount = 1;
    return v;
}

pk_value *pk_ref(pk_value *v)
{
    if (v)
        v->refcount++;
    return v;
}

void pk_unref(pk_value *v)
{
    /* Iterative-enough: nesting is bounded by the stack limit, and torch
     * files nest a handful of levels. */
    if (!v || --v->refcount > 0)
        return;
    for (size_t i = 0; i < v->count; i++)
        pk_unref(v->items[i]);
    free(v->items);
    free(v->str);
    free(v);
}

const char *pk_kind_name(pk_kind k)
{
    static const char *const names[] = {"None", "bool", "int", "float", "str", "tuple", "list",
                                        "dict", "global", "persistent id", "call", "mark"};
    return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "?";
}

/* Adding an item freezes it: a container that is already inside another
 * can no longer grow, which makes reference cycles impossible. */
static void pk_push_item(pk_value *c, pk_value *item)
{
    item->frozen = 1;
    if (item->depth + 1 > c->depth)
        c->depth = item->depth + 1;
    if (c->count == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 4;
        c->items = xreallocarray(c->items, c->cap, sizeof *c->items);
    }
    c->items[c->count++] = item;
}

pk_value *pk_dict_get(const pk_value *dict, const char *key)
{
    if (!dict || dict->kind != PK_DICT)
        return NULL;
    for (size_t i = 0; i + 1 < dict->count; i += 2)
        if (dict->items[i]->kind == PK_STR && strcmp(dict->items[i]->str, key) == 0)
            return dict->items[i + 1];
    return NULL;
}

/* ---- the machine -------------------------------------------------------- */

static ptodb_status vm_error(pk_vm *vm, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static ptodb_status vm_error(pk_vm *vm, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    diag_report(vm->sink, DIAG_ERROR, (diag_loc){vm->path, 0, 0}, NULL, "%s: %s", vm->what, msg);
    return PTODB_ERR_FORMAT;
}

static int vm_push(pk_vm *vm, pk_value *v)
{
    if (vm->sp >= PK_MAX_STACK || v->depth > PK_MAX_DEPTH) {
        pk_unref(v);
        return -1;
    }
    if (vm->sp == vm->scap) {
        vm->scap = vm->scap ? 2 * vm->scap : 32;
        vm->stack = xreallocarray(vm->stack, vm->scap, sizeof *vm->stack);
    }
    vm->stack[vm->sp++] = v;
    return 0;
}

static pk_value *vm_pop(pk_vm *vm)
{
    return vm->sp ? vm->stack[--vm->sp] : NULL;
}

/* Index of the topmost MARK, or -1. */
static long vm_find_mark(pk_vm *vm)
{
    for (size_t i = vm->sp; i-- > 0;)
        if (vm->stack[i]->kind == PK_MARK)
            return (long)i;
    return -1;
}

static int vm_need(pk_vm *vm, size_t n)
{
    return (size_t)(vm->end - vm->p) >= n;
}

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static int vm_global_allowed(pk_vm *vm, const char *qual)
{
    for (size_t i = 0; vm->allowed && vm->allowed[i]; i++)
        if (strcmp(vm->allowed[i], qual) == 0)
            return 1;
    return 0;
}

/* Reads a '\n'-terminated line for GLOBAL. */
static const char *vm_line(pk_vm *vm, size_t *len)
{
    const unsigned char *nl = memchr(vm->p, '\n', (size_t)(vm->end - vm->p));
    if (!nl)
        return NULL;
    const char *s = (const char *)vm->p;
    *len = (size_t)(nl - vm->p);
    vm->p = nl + 1;
    return s;
}

static ptodb_status vm_make_global(pk_vm *vm, const char *mod, size_t ml, const char *name, size_t nl)
{
    if (ml > 200 || nl > 200 || memchr(mod, 0, ml) || memchr(name, 0, nl))
        return vm_error(vm, "malformed GLOBAL name");
    char qual[404];
    snprintf(qual, sizeof qual, "%.*s.%.*s", (int)ml, mod, (int)nl, name);
    for (char *c = qual; *c; c++)
        if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f)
            *c = '?';
    if (!vm_global_allowed(vm, qual))
        return vm_error(vm, "forbidden global '%s': ptodb only accepts tensor data "
                            "(torch._utils._rebuild_tensor_v2, torch.*Storage, collections.OrderedDict)",
                        qual);
    pk_value *g = pk_new(PK_GLOBAL);
    g->str = xstrdup(qual);
    g->len = strlen(qual);
    return vm_push(vm, g) ? vm_error(vm, "values nested too deeply or stack too deep") : PTODB_OK;
}

static ptodb_status vm_memo_put(pk_vm *vm, uint32_t idx)
{
    if (!vm->sp)
        return vm_error(vm, "memo store with an empty stack");
    if (idx >= PK_MAX_MEMO)
        return vm_error(vm, "memo index %u too large", idx);
    if (idx >= vm->memo_cap) {
        size_t ncap = vm->memo_cap ? vm->memo_cap : 64;
        while (ncap <= idx)
            ncap *= 2;
        vm->memo = xreallocarray(vm->memo, ncap, sizeof *vm->memo);
        memset(vm->memo + vm->memo_cap, 0, (ncap - vm->memo_cap) * sizeof *vm->memo);
        vm->memo_cap = ncap;
    }
    pk_value *top = vm->stack[vm->sp - 1];
    if (top->kind == PK_MARK)
        return vm_error(vm, "memo store of a MARK");
    pk_unref(vm->memo[idx]);
    vm->memo[idx] = pk_ref(top);
    if (idx >= vm->memo_next)
        vm->memo_next = idx + 1;
    return PTODB_OK;
}

static ptodb_status vm_memo_get(pk_vm *vm, uint32_t idx)
{
    if (idx >= vm->memo_cap || !vm->memo[idx])
        return vm_error(vm, "memo index %u used before it was set", idx);
    return vm_push(vm, pk_ref(vm->memo[idx])) ? vm_error(vm, "values nested too deeply or stack too deep") : PTODB_OK;
}

static ptodb_status vm_push_int(pk_vm *vm, int64_t i)
{
    pk_value *v = pk_new(PK_INT);
    v->i = i;
    return vm_push(vm, v) ? vm_error(vm, "values nested too deeply or stack too deep") : PTODB_OK;
}

static ptodb_status vm_push_str(pk_vm *vm, size_t len)
{
    if (!vm_need(vm, len))
        return vm_error(vm, "string of %zu bytes runs past the end of the pickle", len);
    pk_value *v = pk_new(PK_STR);
    v->str = xmalloc(len + 1);
    memcpy(v->str, vm->p, len);
    v->str[len] = '\0';
    v->len = len;
    vm->p += len;
    return vm_push(vm, v) ? vm_error(vm, "values nested too deeply or stack too deep") : PTODB_OK;
}

/* Pops everything above the topmost MARK (and the MARK) into container c. */
static ptodb_status vm_collect_mark(pk_vm *vm, pk_value *c)
{
    long m = vm_find_mark(vm);
    if (m < 0) {
        pk_unref(c);
        return vm_error(vm, "no MARK on the stack");
    }
    for (size_t i = (size_t)m + 1; i < vm->sp; i++)
        pk_push_item(c, vm->stack[i]);
    pk_unref(vm->stack[m]);
    vm->sp = (size_t)m;
    return PTODB_OK;
}

static ptodb_status vm_tuple_n(pk_vm *vm, size_t n)
{
    if (vm->sp < n)
        return vm_error(vm, "stack underflow building a tuple");
    for (size_t i = vm->sp - n; i < vm->sp; i++)
        if (vm->stack[i]->kind == PK_MARK)
            return vm_error(vm, "MARK inside a tuple");
    pk_value *t = pk_new(PK_TUPLE);
    for (size_t i = vm->sp - n; i < vm->sp; i++)
        pk_push_item(t, vm->stack[i]);
    vm->sp -= n;
    if (vm_push(vm, t))
        return vm_error(vm, "values nested too deeply or stack too deep");
    return PTODB_OK;
}

static ptodb_status vm_setitems(pk_vm *vm, long from)
{
    /* stack: ... dict [MARK] k v k v */
    size_t first = (size_t)from;
    if (from < 1 || ((vm->sp - first) & 1))
        return vm_error(vm, "SETITEMS with an odd number of items");
    pk_value *d = vm->stack[from - 1];
    if (d->kind != PK_DICT)
        return vm_error(vm, "SETITEMS on a %s, not a dict", pk_kind_name(d->kind));
    if (d->frozen)
        return vm_error(vm, "SETITEMS on a dict that is already inside another value");
    for (size_t i = first; i < vm->sp; i++)
        if (vm->stack[i] == d || vm->stack[i]->kind == PK_MARK || vm->stack[i]->depth >= PK_MAX_DEPTH)
            return vm_error(vm, "SETITEMS with a bad item");
    for (size_t i = first; i < vm->sp; i++) {
        if (d->count >= PK_MAX_ITEMS)
            return vm_error(vm, "dict too large");
        pk_push_item(d, vm->stack[i]);
    }
    vm->sp = first;
    return PTODB_OK;
}

static ptodb_status vm_appends(pk_vm *vm, long from)
{
    pk_value *l = from >= 1 ? vm->stack[from - 1] : NULL;
    if (!l || l->kind != PK_LIST)
        return vm_error(vm, "APPEND on something that is not a list");
    if (l->frozen)
        return vm_error(vm, "APPEND to a list that is already inside another value");
    for (size_t i = (size_t)from; i < vm->sp; i++)
        if (vm->stack[i] == l || vm->stack[i]->kind == PK_MARK || vm->stack[i]->depth >= PK_MAX_DEPTH)
            return vm_error(vm, "APPEND with a bad item");
    for (size_t i = (size_t)from; i < vm->sp; i++) {
        if (l->count >= PK_MAX_ITEMS)
            return vm_error(vm, "list too large");
        pk_push_item(l, vm->stack[i]);
    }
    vm->sp = (size_t)from;
    return PTODB_OK;
}

static ptodb_status vm_reduce(pk_vm *vm)
{
    if (vm->sp < 2)
        return vm_error(vm, "REDUCE with fewer than two stack items");
    pk_value *args = vm->stack[vm->sp - 1], *fn = vm->stack[vm->sp - 2];
    if (fn->kind != PK_GLOBAL || args->kind != PK_TUPLE)
        return vm_error(vm, "REDUCE needs a global and an argument tuple, got %s and %s",
                        pk_kind_name(fn->kind), pk_kind_name(args->kind));
    pk_value *r;
    if (strcmp(fn->str, "collections.OrderedDict") == 0) {
        if (args->count != 0)
            return vm_error(vm, "collections.OrderedDict called with arguments");
        r = pk_new(PK_DICT);
        pk_unref(args);
        pk_unref(fn);
    } else {
        r = pk_new(PK_CALL);
        pk_push_item(r, fn);
        pk_push_item(r, args);
    }
    vm->sp -= 2;
    if (vm_push(vm, r))
        return vm_error(vm, "values nested too deeply or stack too deep");
    return PTODB_OK;
}

static ptodb_status vm_push_new(pk_vm *vm, pk_kind k, int64_t i)
{
    pk_value *v = pk_new(k);
    v->i = i;
    return vm_push(vm, v) ? vm_error(vm, "values nested too deeply or stack too deep") : PTODB_OK;
}

static ptodb_status vm_long1(pk_vm *vm)
{
    if (!vm_need(vm, 1))
        return vm_error(vm, "truncated LONG1");
    size_t n = *vm->p++;
    if (!vm_need(vm, n))
        return vm_error(vm, "truncated LONG1");
    if (n > 8)
        return vm_error(vm, "integer of %zu bytes does not fit in 64 bits", n);
    uint64_t u = 0;
    for (size_t k = 0; k < n; k++)
        u |= (uint64_t)vm->p[k] << (8 * k);
    if (n > 0 && n < 8 && (vm->p[n - 1] & 0x80))
        u |= ~(uint64_t)0 << (8 * n); /* sign-extend */
    vm->p += n;
    return vm_push_int(vm, (int64_t)u);
}

static ptodb_status vm_binpersid(pk_vm *vm)
{
    pk_value *pid = vm_pop(vm);
    if (!pid || pid->kind == PK_MARK) {
        pk_unref(pid);
        return vm_error(vm, "BINPERSID with an empty stack");
    }
    pk_value *v = pk_new(PK_PERSID);
    pk_push_item(v, pid);
    if (vm_push(vm, v))
        return vm_error(vm, "values nested too deeply or stack too deep");
    return PTODB_OK;
}

/* Executes one opcode. *stop is set by STOP. */
static ptodb_status vm_step(pk_vm *vm, int op, int *stop)
{
    long m;
    switch (op) {
    case 0x80: /* PROTO */
        if (!vm_need(vm, 1))
            return vm_error(vm, "truncated PROTO");
        if (*vm->p > 5)
            return vm_error(vm, "unsupported pickle protocol %u", *vm->p);
        vm->p++;
        return PTODB_OK;
    case 0x95: /* FRAME (protocol 4): a length hint only */
        if (!vm_need(vm, 8))
            return vm_error(vm, "truncated FRAME");
        vm->p += 8;
        return PTODB_OK;
    case 'c': { /* GLOBAL */
        size_t ml = 0, nl = 0;
        const char *mod = vm_line(vm, &ml), *name = mod ? vm_line(vm, &nl) : NULL;
        if (!name)
            return vm_error(vm, "truncated GLOBAL");
        return vm_make_global(vm, mod, ml, name, nl);
    }
    case 0x93: { /* STACK_GLOBAL */
        pk_value *name = vm_pop(vm), *mod = vm_pop(vm);
        ptodb_status st;
        if (!name || !mod || name->kind != PK_STR || mod->kind != PK_STR)
            st = vm_error(vm, "STACK_GLOBAL needs two strings");
        else
            st = vm_make_global(vm, mod->str, mod->len, name->str, name->len);
        pk_unref(name);
        pk_unref(mod);
        return st;
    }
    case 'q': /* BINPUT */
        if (!vm_need(vm, 1))
            return vm_error(vm, "truncated BINPUT");
        return vm_memo_put(vm, *vm->p++);
    case 'r': /* LONG_BINPUT */
        if (!vm_need(vm, 4))
            return vm_error(vm, "truncated LONG_BINPUT");
        vm->p += 4;
        return vm_memo_put(vm, le32(vm->p - 4));
    case 0x94: /* MEMOIZE */
        return vm_memo_put(vm, vm->memo_next);
    case 'h': /* BINGET */
        if (!vm_need(vm, 1))
            return vm_error(vm, "truncated BINGET");
        return vm_memo_get(vm, *vm->p++);
    case 'j': /* LONG_BINGET */
        if (!vm_need(vm, 4))
            return vm_error(vm, "truncated LONG_BINGET");
        vm->p += 4;
        return vm_memo_get(vm, le32(vm->p - 4));
    case '(': /* MARK */
        return vm_push_new(vm, PK_MARK, 0);
    case 't': { /* TUPLE */
        pk_value *t = pk_new(PK_TUPLE);
        ptodb_status st = vm_collect_mark(vm, t);
        if (st == PTODB_OK && vm_push(vm, t))
            return vm_error(vm, "values nested too deeply or stack too deep");
        return st;
    }
    case ')': /* EMPTY_TUPLE */
        return vm_push_new(vm, PK_TUPLE, 0);
    case 0x85:
    case 0x86:
    case 0x87: /* TUPLE1..3 */
        return vm_tuple_n(vm, (size_t)(op - 0x84));
    case ']': /* EMPTY_LIST */
        return vm_push_new(vm, PK_LIST, 0);
    case '}': /* EMPTY_DICT */
        return vm_push_new(vm, PK_DICT, 0);
    case 'a': /* APPEND */
        if (vm->sp < 2)
            return vm_error(vm, "APPEND with fewer than two stack items");
        return vm_appends(vm, (long)vm->sp - 1);
    case 'e': /* APPENDS */
        m = vm_find_mark(vm);
        if (m < 0)
            return vm_error(vm, "APPENDS without MARK");
        pk_unref(vm->stack[m]);
        memmove(vm->stack + m, vm->stack + m + 1, (vm->sp - (size_t)m - 1) * sizeof *vm->stack);
        vm->sp--;
        return vm_appends(vm, m);
    case 's': /* SETITEM */
        if (vm->sp < 3)
            return vm_error(vm, "SETITEM with fewer than three stack items");
        return vm_setitems(vm, (long)vm->sp - 2);
    case 'u': /* SETITEMS */
        m = vm_find_mark(vm);
        if (m < 0)
            return vm_error(vm, "SETITEMS without MARK");
        pk_unref(vm->stack[m]);
        memmove(vm->stack + m, vm->stack + m + 1, (vm->sp - (size_t)m - 1) * sizeof *vm->stack);
        vm->sp--;
        return vm_setitems(vm, m);
    case 'K': /* BININT1 */
        if (!vm_need(vm, 1))
            return vm_error(vm, "truncated BININT1");
        return vm_push_int(vm, *vm->p++);
    case 'M': /* BININT2 */
        if (!vm_need(vm, 2))
            return vm_error(vm, "truncated BININT2");
        vm->p += 2;
        return vm_push_int(vm, vm->p[-2] | (vm->p[-1] << 8));
    case 'J': /* BININT */
        if (!vm_need(vm, 4))
            return vm_error(vm, "truncated BININT");
        vm->p += 4;
        return vm_push_int(vm, (int32_t)le32(vm->p - 4));
    case 0x8a: /* LONG1 */
        return vm_long1(vm);
    case 'G': { /* BINFLOAT: big-endian double */
        if (!vm_need(vm, 8))
            return vm_error(vm, "truncated BINFLOAT");
        uint64_t u = 0;
        for (int k = 0; k < 8; k++)
            u = (u << 8) | vm->p[k];
        vm->p += 8;
        pk_value *v = pk_new(PK_FLOAT);
        memcpy(&v->f, &u, sizeof v->f);
        return vm_push(vm, v) ? vm_error(vm, "values nested too deeply or stack too deep") : PTODB_OK;
    }
    case 'X': /* BINUNICODE */
    case 'B': /* BINBYTES */
        if (!vm_need(vm, 4))
            return vm_error(vm, "truncated string length");
        vm->p += 4;
        return vm_push_str(vm, le32(vm->p - 4));
    case 0x8c: /* SHORT_BINUNICODE */
    case 'C':  /* SHORT_BINBYTES */
    case 'U':  /* SHORT_BINSTRING */
        if (!vm_need(vm, 1))
            return vm_error(vm, "truncated string length");
        return vm_push_str(vm, *vm->p++);
    case 0x88: /* NEWTRUE */
        return vm_push_new(vm, PK_BOOL, 1);
    case 0x89: /* NEWFALSE */
        return vm_push_new(vm, PK_BOOL, 0);
    case 'N': /* NONE */
        return vm_push_new(vm, PK_NONE, 0);
    case 'Q': /* BINPERSID */
        return vm_binpersid(vm);
    case 'R': /* REDUCE */
        return vm_reduce(vm);
    case '.': /* STOP */
        *stop = 1;
        return PTODB_OK;
    default:
        return vm_error(vm, "unsupported pickle opcode 0x%02x at offset %ld: not a plain tensor file", op,
                        (long)(vm->p - 1 - vm->start));
    }
}

ptodb_status pk_load(const unsigned char *data, size_t size, const char *const *allowed,
                     const char *path, const char *what, pk_value **out, diag_sink *sink)
{
    pk_vm vm = {.p = data, .end = data + size, .start = data, .allowed = allowed, .path = path,
                .what = what, .sink = sink};
    *out = NULL;
    int stop = 0;
    ptodb_status st = PTODB_OK;
    while (!stop && st == PTODB_OK) {
        if (vm.p >= vm.end) {
            st = vm_error(&vm, "pickle ends without STOP (truncated?)");
            break;
        }
        st = vm_step(&vm, *vm.p++, &stop);
    }
    if (st == PTODB_OK) {
        if (vm.sp != 1 || vm.stack[0]->kind == PK_MARK)
            st = vm_error(&vm, "pickle leaves %zu values on the stack at STOP, expected 1", vm.sp);
        else
            *out = vm.stack[--vm.sp];
    }
    while (vm.sp)
        pk_unref(vm.stack[--vm.sp]);
    free(vm.stack);
    for (size_t i = 0; i < vm.memo_cap; i++)
        pk_unref(vm.memo[i]);
    free(vm.memo);
    return st;
}
