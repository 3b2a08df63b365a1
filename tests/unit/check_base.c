/* Unit tests for src/base: status table, strbuf, diagnostics. */
#include <check.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/atomic_file.h"
#include "base/diag.h"
#include "base/jsonread.h"
#include "base/input_file.h"
#include "base/mem.h"
#include "base/mkdirs.h"
#include "base/number.h"
#include "base/path_within.h"
#include "base/status.h"
#include "base/strbuf.h"
#include "base/xmlesc.h"

START_TEST(test_status_messages)
{
    ck_assert_str_eq(ptodb_status_message(PTODB_OK), "success");
    ck_assert_str_eq(ptodb_status_name(PTODB_ERR_DEADLOCK), "ERR_DEADLOCK");
    ck_assert_str_eq(ptodb_status_message((ptodb_status)9999), "unknown status");
    for (int i = 0; i < PTODB_STATUS_COUNT; i++)
        ck_assert_ptr_nonnull(ptodb_status_message((ptodb_status)i));
}
END_TEST

START_TEST(test_strbuf_growth)
{
    strbuf sb = STRBUF_INIT;
    ck_assert_str_eq(strbuf_str(&sb), "");
    for (int i = 0; i < 1000; i++)
        strbuf_printf(&sb, "%d,", i);
    ck_assert_uint_eq(sb.len, strlen(sb.data));
    ck_assert(strncmp(sb.data, "0,1,2,", 6) == 0);
    ck_assert(strcmp(sb.data + sb.len - 4, "999,") == 0);
    strbuf_clear(&sb);
    strbuf_putc(&sb, 'x');
    strbuf_append(&sb, "yz\0w", 4); /* embedded NUL kept in len */
    ck_assert_uint_eq(sb.len, 5);
    char *s = strbuf_detach(&sb);
    ck_assert_str_eq(s, "xyz");
    ck_assert_ptr_null(sb.data);
    free(s);
    strbuf_free(&sb);
}
END_TEST

START_TEST(test_diag_format_and_cap)
{
    diag_sink sink;
    diag_sink_init(&sink, 2);
    diag_loc loc = {"p/19_after_X.py", 42, 17};
    diag_report(&sink, DIAG_ERROR, loc, "    x = pl.tile.tpush_to_aiw(a)\nnext line",
                "unknown op '%s'", "tile.tpush_to_aiw");
    diag_report(&sink, DIAG_WARNING, (diag_loc){NULL, 0, 0}, NULL, "plain");
    diag_report(&sink, DIAG_ERROR, loc, NULL, "second");
    diag_report(&sink, DIAG_ERROR, loc, NULL, "third, dropped");
    ck_assert_uint_eq(sink.errors, 3);
    ck_assert_uint_eq(sink.warnings, 1);
    ck_assert_int_eq(sink.suppressed, 1);
    ck_assert(diag_sink_full(&sink));

    char *first = diag_format(&sink.items[0]);
    ck_assert_str_eq(first, "p/19_after_X.py:42:17: error: unknown op 'tile.tpush_to_aiw'");
    free(first);
    ck_assert_str_eq(sink.items[0].source_line, "    x = pl.tile.tpush_to_aiw(a)");
    char *second = diag_format(&sink.items[1]);
    ck_assert_str_eq(second, "warning: plain");
    free(second);

    char buf[1024] = {0};
    FILE *mem = fmemopen(buf, sizeof buf - 1, "w");
    diag_sink_print(&sink, mem, 1);
    fclose(mem);
    ck_assert_ptr_nonnull(strstr(buf, "                 ^\n"));
    ck_assert_ptr_nonnull(strstr(buf, "(1 more error not shown)"));
    char *text = diag_sink_error_text(&sink); /* errors only, one per line */
    ck_assert_str_eq(text, "p/19_after_X.py:42:17: error: unknown op 'tile.tpush_to_aiw'\n"
                           "p/19_after_X.py:42:17: error: second");
    free(text);
    diag_sink_free(&sink);
    diag_sink_init(&sink, 0);
    text = diag_sink_error_text(&sink);
    ck_assert_str_eq(text, "error");
    free(text);
    diag_sink_free(&sink);
}
END_TEST

START_TEST(test_diag_control_bytes_sanitised)
{
    diag_sink sink;
    diag_sink_init(&sink, 0);
    diag_report(&sink, DIAG_ERROR, (diag_loc){"f", 1, 1}, "a\x01\x1b[2Jb", "bad");
    ck_assert_str_eq(sink.items[0].source_line, "a??[2Jb");
    diag_sink_free(&sink);
}
END_TEST

START_TEST(test_mkdirs)
{
    char tmpl[] = "/tmp/ptodb-mkdirs-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(tmpl));
    char deep[256], file[256];
    snprintf(deep, sizeof deep, "%s/a/b/c", tmpl);
    ck_assert_int_eq(mkdirs(deep), 0);
    ck_assert_int_eq(mkdirs(deep), 0); /* already there */
    struct stat st;
    ck_assert_int_eq(stat(deep, &st), 0);
    ck_assert(S_ISDIR(st.st_mode));
    snprintf(file, sizeof file, "%s/f", tmpl);
    FILE *f = fopen(file, "w");
    ck_assert_ptr_nonnull(f);
    fclose(f);
    ck_assert_int_eq(mkdirs(file), -1); /* a file is not a folder */
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpl);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

START_TEST(test_json_read)
{
    const char *text = " {\"a\": [1, -2.5e3, true, false, null], \"s\": \"x\\n\\u00e9\\ud83d\\ude00\\\"\", \"o\": {}}\n";
    json_value v;
    char err[128];
    ck_assert_int_eq(json_parse(text, strlen(text), &v, err, sizeof err), 0);
    ck_assert_int_eq(v.type, JSON_OBJECT);
    ck_assert_uint_eq(json_get_len(&v, "a"), 5);
    ck_assert(json_get_at(&v, "a", 1)->number == -2500.0);
    ck_assert_int_eq(json_get_at(&v, "a", 2)->boolean, 1);
    ck_assert_int_eq(json_get_at(&v, "a", 4)->type, JSON_NULL);
    ck_assert_str_eq(json_get_str(&v, "s"), "x\n\xc3\xa9\xf0\x9f\x98\x80\"");
    ck_assert_int_eq(json_get(&v, "o")->type, JSON_OBJECT);
    ck_assert_ptr_null(json_get(&v, "missing"));
    ck_assert(json_get_num(&v, "s", 7.0) == 7.0); /* of another type: the default */
    /* spans: the value's own bytes */
    const json_value *a = json_get(&v, "a");
    ck_assert_int_eq(strncmp(text + a->start, "[1, -2.5e3, true, false, null]", a->end - a->start), 0);
    json_value_free(&v);
}
END_TEST

START_TEST(test_json_read_errors)
{
    static const struct {
        const char *text, *err;
    } bad[] = {
        {"", "1:1: unexpected end of the text"},
        {"{\"a\" 1}", "1:6: expected ':' after a member name"},
        {"[1,\n 2", "2:3: expected ',' or ']'"},
        {"\"abc", "1:5: unterminated string"},
        {"\"a\tb\"", "1:3: control character in a string"},
        {"\"\\x\"", "1:3: unknown escape in a string"},
        {"\"\\ud800\"", "1:8: unpaired UTF-16 surrogate in \\u escape"},
        {"\"\\u0000\"", "1:8: \\u0000 in a string"},
        {"01", "1:2: text after the JSON value"},
        {"1.", "1:3: expected a digit after '.'"},
        {"-", "1:2: expected a value"},
        {"{} x", "1:4: text after the JSON value"},
        {"tru", "1:1: expected a value"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        json_value v;
        char err[128];
        ck_assert_int_eq(json_parse(bad[i].text, strlen(bad[i].text), &v, err, sizeof err), -1);
        ck_assert_str_eq(err, bad[i].err);
    }
    /* nesting is bounded: no stack overflow on a hostile file */
    size_t n = 100000;
    char *deep = malloc(n + 1);
    memset(deep, '[', n);
    deep[n] = '\0';
    json_value v;
    char err[128];
    ck_assert_int_eq(json_parse(deep, n, &v, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "nested too deeply"));
    free(deep);
}
END_TEST

START_TEST(test_xml_escape)
{
    strbuf sb = STRBUF_INIT;
    xml_escape(&sb, "a<b>&\"c'\x01\xff\xc3\xa9\xed\xa0\x80\t\n\r");
    ck_assert_str_eq(strbuf_str(&sb),
                     "a&lt;b&gt;&amp;&quot;c&#39;\xef\xbf\xbd\xef\xbf\xbd\xc3\xa9\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\t\n&#13;");
    strbuf_free(&sb);
}
END_TEST

START_TEST(test_parse_numbers)
{
    long long v;
    uint64_t u;
    ck_assert_int_eq(parse_int_range("42", 0, 100, &v), 0);
    ck_assert_int_eq(v, 42);
    ck_assert_int_eq(parse_int_range("-3", -5, 5, &v), 0);
    ck_assert_int_eq(parse_int_range("101", 0, 100, &v), -1);
    ck_assert_int_eq(parse_int_range("99999999999999999999", 0, LLONG_MAX, &v), -1);
    ck_assert_int_eq(parse_int_range("", 0, 1, &v), -1);
    ck_assert_int_eq(parse_int_range(" 1", 0, 1, &v), -1);
    ck_assert_int_eq(parse_int_range("1x", 0, 1, &v), -1);
    ck_assert_int_eq(parse_u64("18446744073709551615", &u), 0);
    ck_assert(u == UINT64_MAX);
    ck_assert_int_eq(parse_u64("18446744073709551616", &u), -1);
    ck_assert_int_eq(parse_u64("-1", &u), -1);
    ck_assert_int_eq(parse_byte_size("16G", 1, (uint64_t)1 << 62, &u), 0);
    ck_assert(u == (uint64_t)16 << 30);
    ck_assert_int_eq(parse_byte_size("7", 1, 100, &u), 0);
    ck_assert(u == 7);
    ck_assert_int_eq(parse_byte_size("99999999999T", 1, (uint64_t)1 << 62, &u), -1);
    ck_assert_int_eq(parse_byte_size("0", 1, 100, &u), -1);
    ck_assert_int_eq(parse_byte_size("3Q", 1, 100, &u), -1);
}
END_TEST

START_TEST(test_path_within)
{
    char tmpl[] = "/tmp/ptodb-within-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(tmpl));
    char casedir[PATH_MAX], other[PATH_MAX], link[PATH_MAX], p[PATH_MAX * 2];
    snprintf(casedir, sizeof casedir, "%s/case", tmpl);
    snprintf(other, sizeof other, "%s/casex", tmpl);
    snprintf(link, sizeof link, "%s/link", tmpl);
    ck_assert_int_eq(mkdir(casedir, 0700), 0);
    ck_assert_int_eq(mkdir(other, 0700), 0);
    ck_assert_int_eq(symlink(casedir, link), 0);
    ck_assert_int_eq(path_within(casedir, casedir), 1);
    snprintf(p, sizeof p, "%s/state/ptodb", casedir); /* missing folders below */
    ck_assert_int_eq(path_within(p, casedir), 1);
    snprintf(p, sizeof p, "%s/state/ptodb", link); /* through a link */
    ck_assert_int_eq(path_within(p, casedir), 1);
    snprintf(p, sizeof p, "%s/./x/../../case/s", other); /* existing part resolved */
    ck_assert_int_eq(path_within(p, casedir), 1);
    snprintf(p, sizeof p, "%s/state", other); /* a sibling with the same prefix */
    ck_assert_int_eq(path_within(p, casedir), 0);
    snprintf(p, sizeof p, "%s/missing/../case/s", tmpl); /* ".." after a missing part: cannot judge */
    ck_assert_int_eq(path_within(p, casedir), 1);
    ck_assert_int_eq(path_within("/nonexistent-ptodb/x", casedir), 0);
    ck_assert_int_eq(path_within(p, "/nonexistent-ptodb-dir"), -1);
    ck_assert_int_eq(path_within(p, "/"), 1);
    unlink(link);
    rmdir(other);
    rmdir(casedir);
    rmdir(tmpl);
}
END_TEST

/* What an allocation failure names: the innermost context, per the stack. */
static void where_stub(const void *ctx, char *buf, size_t size)
{
    snprintf(buf, size, "running %s", (const char *)ctx);
}

START_TEST(test_mem_where)
{
    char buf[128];
    mem_where_text(buf, sizeof buf);
    ck_assert_str_eq(buf, "");
    int a = mem_where_push("loading", "data/in/x.pt");
    mem_where_text(buf, sizeof buf);
    ck_assert_str_eq(buf, "loading data/in/x.pt");
    int b = mem_where_push_fn(where_stub, "p.py:3:5");
    mem_where_text(buf, sizeof buf);
    ck_assert_str_eq(buf, "running p.py:3:5");
    mem_where_pop(a); /* out of order: b stays innermost */
    mem_where_text(buf, sizeof buf);
    ck_assert_str_eq(buf, "running p.py:3:5");
    mem_where_pop(b);
    mem_where_text(buf, sizeof buf);
    ck_assert_str_eq(buf, "");
    int tokens[40];
    for (int i = 0; i < 40; i++) /* past the depth: not recorded, pops harmless */
        tokens[i] = mem_where_push("parsing", "deep.py");
    for (int i = 39; i >= 0; i--)
        mem_where_pop(tokens[i]);
    mem_where_text(buf, sizeof buf);
    ck_assert_str_eq(buf, "");
#if !defined(__SANITIZE_ADDRESS__)
    /* the fatal line names the context (ASan aborts on such a request
     * instead of returning NULL, so only the plain build checks this) */
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], 2);
        mem_where_push("loading", "data/in/huge.pt");
        volatile size_t huge = SIZE_MAX / 2;
        xmalloc(huge);
        _exit(0);
    }
    close(fds[1]);
    char err[512] = {0};
    size_t n = 0;
    ssize_t k;
    while (n < sizeof err - 1 && (k = read(fds[0], err + n, sizeof err - 1 - n)) > 0)
        n += (size_t)k;
    close(fds[0]);
    int status;
    waitpid(pid, &status, 0);
    ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 2);
    ck_assert_msg(strstr(err, "out of memory allocating") && strstr(err, "(while loading data/in/huge.pt)"),
                  "fatal line: %s", err);
#endif
}
END_TEST

/* Arena blocks are aligned for any scalar and never overlap (each filled
 * with its own byte and read back after many more, one past a block's
 * size); the pool gives one copy per string, cut as asked. */
START_TEST(test_arena_and_pool)
{
    arena a = {NULL};
    unsigned char *p[300];
    size_t n[300];
    for (int i = 0; i < 300; i++) {
        n[i] = (size_t)(i * 37 % 700) + (i == 150 ? 70000 : 0);
        p[i] = arena_alloc(&a, n[i]);
        ck_assert_uint_eq((uintptr_t)p[i] % _Alignof(max_align_t), 0);
        memset(p[i], i & 255, n[i]);
    }
    for (int i = 0; i < 300; i++)
        for (size_t k = 0; k < n[i]; k++)
            ck_assert_uint_eq(p[i][k], (unsigned)(i & 255));
    int v[3] = {7, 8, 9};
    int *c = arena_memdup(&a, v, sizeof v);
    ck_assert(c != v && c[0] == 7 && c[2] == 9);
    /* 8-byte aligned blocks (the syntax tree's) among the others, across
     * the growing blocks: aligned, and no block overlaps another */
    unsigned char *q[2000];
    for (int i = 0; i < 2000; i++) {
        size_t sz = (size_t)(i % 5 == 0 ? 24 : 8 * (i % 13) + 8);
        q[i] = i % 3 ? arena_alloc_aligned(&a, sz, 8) : arena_alloc(&a, sz);
        ck_assert_uint_eq((uintptr_t)q[i] % (i % 3 ? 8 : _Alignof(max_align_t)), 0);
        memset(q[i], (i * 7) & 255, 8);
    }
    for (int i = 0; i < 2000; i++)
        for (int k = 0; k < 8; k++)
            ck_assert_uint_eq(q[i][k], (unsigned)((i * 7) & 255));
    for (int i = 0; i < 300; i++)
        for (size_t k = 0; k < n[i]; k++)
            ck_assert_uint_eq(p[i][k], (unsigned)(i & 255));
    arena_free(&a);
    ck_assert_ptr_null(a.head);

    str_pool sp;
    memset(&sp, 0, sizeof sp);
    char buf[16];
    strcpy(buf, "t__tile_6");
    const char *x = str_pool_intern(&sp, buf, SIZE_MAX);
    ck_assert(x != buf);
    ck_assert_str_eq(x, "t__tile_6");
    strcpy(buf, "t__tile_7");
    ck_assert_ptr_ne(str_pool_intern(&sp, buf, SIZE_MAX), x);
    ck_assert_ptr_eq(str_pool_intern(&sp, "t__tile_6", SIZE_MAX), x);
    ck_assert_ptr_eq(str_pool_find(&sp, "t__tile_6"), x);
    ck_assert_ptr_null(str_pool_find(&sp, "t__tile"));
    /* cut to 3 bytes: "t__", the same copy as "t__" itself */
    const char *cut = str_pool_intern(&sp, "t__tile_6", 3);
    ck_assert_str_eq(cut, "t__");
    ck_assert_ptr_eq(str_pool_intern(&sp, "t__", SIZE_MAX), cut);
    ck_assert_ptr_eq(str_pool_find(&sp, ""), NULL);
    const char *e = str_pool_intern(&sp, "", SIZE_MAX);
    ck_assert_str_eq(e, "");
    ck_assert_ptr_eq(str_pool_find(&sp, ""), e);
    str_pool_free(&sp);
}
END_TEST

/* An array grown by xpages_grow keeps its elements through growth from 1
 * to a million (several remaps), its capacity never below what is asked. */
START_TEST(test_pages_grow)
{
    uint64_t *a = NULL;
    size_t cap = 0;
    for (size_t i = 0; i < 1000000; i++) {
        if (i == cap) {
            a = xpages_grow(a, &cap, i + 1, sizeof *a);
            ck_assert_uint_ge(cap, i + 1);
        }
        a[i] = i * 2654435761u;
    }
    for (size_t i = 0; i < 1000000; i++)
        ck_assert_uint_eq(a[i], i * 2654435761u);
    /* asked for no more than it holds: the same array */
    ck_assert_ptr_eq(xpages_grow(a, &cap, 10, sizeof *a), a);
    pages_free(a, cap, sizeof *a);
    pages_free(NULL, 0, sizeof *a);
}
END_TEST

START_TEST(test_input_and_atomic_files)
{
    char dir[] = "/tmp/ptodb_check_files_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[300], fifo[300], why[300];
    snprintf(path, sizeof path, "%s/out.txt", dir);
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    ck_assert_int_eq(atomic_file_write(path, "new\n", 4), 0);
    FILE *f = input_file_fopen(path, why, sizeof why);
    ck_assert_ptr_nonnull(f);
    char buf[16] = {0};
    ck_assert_int_eq((int)fread(buf, 1, sizeof buf - 1, f), 4);
    ck_assert_str_eq(buf, "new\n");
    fclose(f);
    /* an abandoned write leaves the old content and no temporary file */
    atomic_file a;
    ck_assert_int_eq(atomic_file_open(&a, path), 0);
    fputs("half", a.f);
    atomic_file_abort(&a);
    f = fopen(path, "r");
    ck_assert_int_eq((int)fread(buf, 1, sizeof buf - 1, f), 4);
    fclose(f);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "test $(ls -A %s | wc -l) -eq 1", dir);
    ck_assert_int_eq(system(cmd), 0);
    /* a FIFO is refused at once, a folder and a missing file too */
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    ck_assert_int_eq(input_file_open(fifo, why, sizeof why), -1);
    ck_assert_str_eq(why, "not a regular file (a FIFO)");
    ck_assert_int_eq(input_file_open(dir, why, sizeof why), -1);
    ck_assert_str_eq(why, "not a regular file (a directory)");
    snprintf(path, sizeof path, "%s/missing", dir);
    ck_assert_int_eq(input_file_open(path, why, sizeof why), -1);
    ck_assert_str_eq(why, "cannot open: No such file or directory");
    /* writing onto a folder's name fails and leaves no temporary file */
    ck_assert_int_eq(atomic_file_write(dir, "x", 1), -1);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

static Suite *base_suite(void)
{
    Suite *s = suite_create("base");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_status_messages);
    tcase_add_test(tc, test_strbuf_growth);
    tcase_add_test(tc, test_diag_format_and_cap);
    tcase_add_test(tc, test_diag_control_bytes_sanitised);
    tcase_add_test(tc, test_mkdirs);
    tcase_add_test(tc, test_json_read);
    tcase_add_test(tc, test_json_read_errors);
    tcase_add_test(tc, test_xml_escape);
    tcase_add_test(tc, test_parse_numbers);
    tcase_add_test(tc, test_input_and_atomic_files);
    tcase_add_test(tc, test_path_within);
    tcase_add_test(tc, test_mem_where);
    tcase_add_test(tc, test_arena_and_pool);
    tcase_add_test(tc, test_pages_grow);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(base_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
