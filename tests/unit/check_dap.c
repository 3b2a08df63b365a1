/* The DAP server's pure parts: the base-protocol framer (ui/dap/framing.h)
 * and hitCondition (ui/dap/hitcond.h).
 *
 * Framing oracle: the DAP specification's base protocol. A message is
 * "Content-Length: N\r\n\r\n" followed by N bytes; N counts bytes, so a body
 * with "é" (2 bytes in UTF-8) of 1 character has a length one larger than
 * its character count. Every test feeds the same stream in several ways
 * (whole, byte by byte, at every split point) and must get the same bodies:
 * splitting is a metamorphic relation the framer must not see. */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../ui/dap/framing.h"
#include "../../ui/dap/hitcond.h"

/* Frames stream fed in pieces of `piece` bytes (0: all at once, -1: in two
 * pieces split at `at`); concatenates the bodies with '|' after each.
 * Returns -1 when the framer found a bad header, else 0. */
static int frame_all(const char *stream, size_t n, long piece, size_t at, char *out, size_t outsize)
{
    dap_framer f;
    dap_framer_init(&f);
    out[0] = '\0';
    int last = 0;
    size_t pos = 0;
    for (int round = 0; pos < n || round == 0; round++) {
        size_t take = piece == 0 ? n : piece < 0 ? (round == 0 ? at : n - pos) : (size_t)piece;
        if (take > n - pos)
            take = n - pos;
        dap_framer_feed(&f, stream + pos, take);
        pos += take;
        const char *body;
        size_t len;
        int r;
        while ((r = dap_framer_next(&f, &body, &len)) == 1) {
            size_t room = outsize - strlen(out) - 2;
            strncat(out, body, len < room ? len : room);
            strcat(out, "|");
        }
        last = r;
        if (r < 0)
            break;
    }
    dap_framer_free(&f);
    return last < 0 ? -1 : 0;
}

/* The same bodies whether fed whole, byte by byte or split at any byte. */
static void check_stream(const char *stream, const char *want)
{
    size_t n = strlen(stream);
    char got[4096];
    ck_assert_int_eq(frame_all(stream, n, 0, 0, got, sizeof got), 0);
    ck_assert_str_eq(got, want);
    ck_assert_int_eq(frame_all(stream, n, 1, 0, got, sizeof got), 0);
    ck_assert_str_eq(got, want);
    for (size_t at = 0; at <= n; at++) {
        ck_assert_int_eq(frame_all(stream, n, -1, at, got, sizeof got), 0);
        ck_assert_msg(strcmp(got, want) == 0, "split at %zu: got '%s'", at, got);
    }
}

START_TEST(test_frame_one)
{
    check_stream("Content-Length: 2\r\n\r\n{}", "{}|");
}
END_TEST

START_TEST(test_frame_joined)
{
    /* two messages in one read, then a partial third that never completes */
    check_stream("Content-Length: 2\r\n\r\n{}Content-Length: 7\r\n\r\n{\"a\":1}Content-Length: 9\r\n\r\n{\"b\"",
                 "{}|{\"a\":1}|");
}
END_TEST

START_TEST(test_frame_utf8)
{
    /* {"é":"😀"}: 9 characters, 13 bytes: '{' 1, '"' 1, 'é' 2, '"' 1,
     * ':' 1, '"' 1, '😀' 4, '"' 1, '}' 1 */
    const char *body = "{\"\xc3\xa9\":\"\xf0\x9f\x98\x80\"}";
    ck_assert_uint_eq(strlen(body), 13);
    char stream[128];
    snprintf(stream, sizeof stream, "Content-Length: 13\r\n\r\n%sContent-Length: 2\r\n\r\n[]", body);
    char want[64];
    snprintf(want, sizeof want, "%s|[]|", body);
    check_stream(stream, want);
}
END_TEST

START_TEST(test_frame_headers)
{
    /* names case-insensitive, unknown headers (dape#9's Content-Type)
     * ignored in any order, blanks around the number allowed */
    check_stream("content-length: 2\r\n\r\n{}"
                 "COnTent-LenGth:2\r\n\r\n[]"
                 "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length:  3 \r\n\r\n123"
                 "Content-Length: 1\r\nX-Whatever: yes\r\n\r\n7"
                 "Content-Length: 0\r\n\r\n",
                 "{}|[]|123|7||");
}
END_TEST

static int first_result(const char *stream, char *err, size_t errsize)
{
    dap_framer f;
    dap_framer_init(&f);
    dap_framer_feed(&f, stream, strlen(stream));
    const char *body;
    size_t len;
    int r = dap_framer_next(&f, &body, &len);
    snprintf(err, errsize, "%s", f.err);
    /* once failed, it stays failed */
    if (r < 0) {
        dap_framer_feed(&f, "Content-Length: 2\r\n\r\n{}", 23);
        ck_assert_int_eq(dap_framer_next(&f, &body, &len), -1);
    }
    dap_framer_free(&f);
    return r;
}

START_TEST(test_frame_bad_lengths)
{
    static const char *const bad[] = {
        "Content-Length: -1\r\n\r\n{}",       /* negative */
        "Content-Length: 12abc\r\n\r\n{}",    /* not a number */
        "Content-Length: \r\n\r\n{}",         /* empty */
        "Content-Length: 0x10\r\n\r\n{}",     /* hex */
        "Content-Length: 16777217\r\n\r\n",   /* over 16 MiB */
        "Content-Length: 99999999999999999999999\r\n\r\n", /* overflow */
        "Content-Type: x\r\n\r\n{}",          /* no Content-Length */
        "\r\n\r\n{}",                         /* empty header block */
        "Content-Length 2\r\n\r\n{}",         /* no colon */
        "Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}", /* two lengths */
    };
    char err[256];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_msg(first_result(bad[i], err, sizeof err) == -1, "accepted bad header %zu", i);
        ck_assert_msg(strncmp(err, "bad DAP header", 14) == 0, "no reason for %zu: '%s'", i, err);
    }
    /* exactly 16 MiB is a good length (waits for the body) */
    ck_assert_int_eq(first_result("Content-Length: 16777216\r\n\r\n", err, sizeof err), 0);
    /* a header block that never ends */
    char *junk = malloc(DAP_MAX_HEADER + 10);
    memset(junk, 'a', DAP_MAX_HEADER + 9);
    junk[DAP_MAX_HEADER + 9] = '\0';
    ck_assert_int_eq(first_result(junk, err, sizeof err), -1);
    free(junk);
    /* the same length twice is fine */
    ck_assert_int_eq(first_result("Content-Length: 2\r\ncontent-length: 2\r\n\r\n{}", err, sizeof err), 1);
}
END_TEST

START_TEST(test_frame_empty)
{
    /* nothing fed, or only empty pieces: no message, no failure (UBSan once
     * found null-pointer arithmetic here through fuzz_dapwire) */
    dap_framer f;
    dap_framer_init(&f);
    const char *body;
    size_t len;
    ck_assert_int_eq(dap_framer_next(&f, &body, &len), 0);
    dap_framer_feed(&f, "", 0);
    ck_assert_int_eq(dap_framer_next(&f, &body, &len), 0);
    dap_framer_free(&f);
}
END_TEST

START_TEST(test_frame_write)
{
    char path[] = "/tmp/check_dap_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    const char *body = "{\"x\":\"\xc3\xa9\"}"; /* 10 bytes, 9 characters */
    ck_assert_int_eq(dap_frame_write(fd, body, strlen(body)), 0);
    char buf[128] = {0};
    /* 22 bytes of header + 10 of body */
    ck_assert_int_eq(pread(fd, buf, sizeof buf - 1, 0), 32);
    ck_assert_str_eq(buf, "Content-Length: 10\r\n\r\n{\"x\":\"\xc3\xa9\"}");
    close(fd);
    unlink(path);
}
END_TEST

/* hitCondition table: text, then for hits 1..8 whether each stops. "N" is
 * the Nth hit only (lldb-dap, Delve, debugpy), not gdb's ignore count that
 * stops on hit N+1. */
START_TEST(test_hitcond_table)
{
    static const struct {
        const char *text;
        const char *stops; /* hits 1..8 */
    } rows[] = {
        {NULL, "11111111"},     {"", "11111111"},       {"  ", "11111111"},
        {"3", "00100000"},      {"==3", "00100000"},    {" == 3 ", "00100000"},
        {"1", "10000000"},      {">=3", "00111111"},    {">= 1", "11111111"},
        {">2", "00111111"},     {">0", "11111111"},     {"%3", "00100100"},
        {"%1", "11111111"},     {"% 2", "01010101"},    {">=0", "11111111"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        hitcond h;
        char err[200];
        ck_assert_msg(hitcond_parse(rows[i].text, &h, err, sizeof err) == 0, "refused '%s': %s",
                      rows[i].text ? rows[i].text : "(null)", err);
        for (int hit = 1; hit <= 8; hit++)
            ck_assert_msg(hitcond_stops(&h, hit) == (rows[i].stops[hit - 1] == '1'), "'%s' hit %d",
                          rows[i].text ? rows[i].text : "(null)", hit);
    }
    static const char *const bad[] = {"0",  "%0", "-1", "x",  "3x", "==", ">=", "<3",
                                      "!=2", "3.5", "99999999999999999999", "== -2", "%"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        hitcond h;
        char err[200];
        ck_assert_msg(hitcond_parse(bad[i], &h, err, sizeof err) == -1, "accepted '%s'", bad[i]);
        ck_assert_msg(strstr(err, "hitCondition") != NULL, "no message for '%s'", bad[i]);
    }
}
END_TEST

static Suite *dap_suite(void)
{
    Suite *s = suite_create("dap");
    TCase *tc = tcase_create("framing");
    tcase_add_test(tc, test_frame_one);
    tcase_add_test(tc, test_frame_joined);
    tcase_add_test(tc, test_frame_utf8);
    tcase_add_test(tc, test_frame_headers);
    tcase_add_test(tc, test_frame_bad_lengths);
    tcase_add_test(tc, test_frame_write);
    tcase_add_test(tc, test_frame_empty);
    suite_add_tcase(s, tc);
    TCase *th = tcase_create("hitcond");
    tcase_add_test(th, test_hitcond_table);
    suite_add_tcase(s, th);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(dap_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
