/* Checked allocation. On exhaustion the registered fatal hook runs first (the
 * TUI uses it to restore the terminal), then the process exits with status 2. */
#ifndef PTODB_BASE_MEM_H
#define PTODB_BASE_MEM_H

#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *ptr, size_t size);
/* realloc for arrays: fails cleanly on count * size overflow. */
void *xreallocarray(void *ptr, size_t count, size_t size);
/* A copy of n bytes at p (n may be 0). */
void *xmemdup(const void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

/* An array of records that grows large (a recorder's: tens of MB), grown
 * without copying: its pages are the kernel's, and a larger array remaps
 * them (realloc copies a heap block into new pages, and blocks up to 64 MB
 * stay in the heap, ptodb_tune_allocator). p: NULL or such an array of
 * *cap elements of size bytes; returns one of at least need elements (the
 * first *cap as they were) and sets *cap to its capacity. Where the
 * system cannot remap, realloc. */
void *xpages_grow(void *p, size_t *cap, size_t need, size_t size);
/* Frees an array xpages_grow made (cap, size: as it left them). */
void pages_free(void *p, size_t cap, size_t size);

/* Sets the C library's allocator up for ptodb's pattern (tiles of megabytes
 * allocated and freed at every statement); called once at startup. */
void ptodb_tune_allocator(void);

typedef void (*ptodb_fatal_hook)(void);
/* Registers a function run before ptodb dies of an unrecoverable error. */
void ptodb_set_fatal_hook(ptodb_fatal_hook hook);
/* What ptodb is working on, named by the line an allocation failure
 * prints ("out of memory allocating N bytes (while loading data/in/x.pt)").
 * Contexts nest per thread; the innermost is named. A context is a verb and
 * a path, or a function that writes the phrase (a running machine names its
 * statement). mem_where_push* return a token for mem_where_pop; contexts
 * beyond a small depth are not recorded (their pop is a no-op). */
typedef void (*mem_where_fn)(const void *ctx, char *buf, size_t size);
int mem_where_push(const char *verb, const char *path);
int mem_where_push_fn(mem_where_fn fn, const void *ctx);
void mem_where_pop(int token);
/* The innermost context's phrase ("loading x.pt"), or "" when none. */
void mem_where_text(char *buf, size_t size);

/* Prints "ptodb: fatal: MESSAGE" after running the hook, exits with 2. */
void ptodb_fatal(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

#endif
