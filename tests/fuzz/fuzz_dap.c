/* Fuzzes the DAP server (ui/dap/): each input is the byte stream a client
 * sends, fed to the server in pieces (the first byte picks the piece size
 * and whether a fixed prologue first launches examples/mlp at pass 22 and
 * stops on entry, so the requests that need a stopped program are reached).
 * The server's output is checked as it would be by a client: only framed
 * messages, each a JSON object with a positive seq and a type, seq rising
 * by one. Writes are refused by the guard (fuzz_guard.h). */
#include "fuzz.h"

#define _GNU_SOURCE 1
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../../ui/dap/framing.h"
#include "../../ui/dap/server.h"
#include "fuzz_guard.h"

/* fuzz_dapwire.c: the same harness with launch refused, so no case is ever
 * opened: the framing, JSON and dispatch paths at thousands of inputs a
 * second. */
#ifndef FUZZ_DAP_NO_LAUNCH
#define FUZZ_DAP_NO_LAUNCH 0
#endif

static int out_fd = -1;
static char prologue[8192];


int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_guard_init(*argc, *argv);
    out_fd = memfd_create("dap-out", 0);
    if (out_fd < 0) {
        perror("memfd_create");
        exit(2);
    }
    const char *reqs[3];
    char launch[4096];
    snprintf(launch, sizeof launch,
             "{\"seq\":2,\"type\":\"request\",\"command\":\"launch\",\"arguments\":{\"case\":\"%s/examples/mlp\","
             "\"pass\":\"22_after_ExpandMixedKernel\",\"stopOnEntry\":true}}",
             fuzz_srcdir());
    reqs[0] = "{\"seq\":1,\"type\":\"request\",\"command\":\"initialize\",\"arguments\":{\"adapterID\":\"ptodb\"}}";
    reqs[1] = launch;
    reqs[2] = "{\"seq\":3,\"type\":\"request\",\"command\":\"configurationDone\"}";
    size_t n = 0;
    for (int i = 0; i < 3; i++)
        n += (size_t)snprintf(prologue + n, sizeof prologue - n, "Content-Length: %zu\r\n\r\n%s", strlen(reqs[i]),
                              reqs[i]);
    return 0;
}

/* The requests a stream holds, as the server counts them: framed bodies
 * that are JSON objects (no duplicate keys) with type "request" and an
 * integer seq, up to the first disconnect or bad header. */
static long count_requests(const char *data, size_t size, int *stopped)
{
    dap_framer f;
    dap_framer_init(&f);
    dap_framer_feed(&f, data, size);
    const char *body;
    size_t len;
    long n = 0;
    *stopped = 0;
    int r;
    while ((r = dap_framer_next(&f, &body, &len)) == 1) {
        json_t *m = json_loadb(body, len, JSON_REJECT_DUPLICATES, NULL);
        const char *type = json_string_value(json_object_get(m, "type"));
        const char *cmd = json_string_value(json_object_get(m, "command"));
        /* with no command string it still gets its (error) response */
        if (json_is_object(m) && type && strcmp(type, "request") == 0 && json_is_integer(json_object_get(m, "seq"))) {
            n++;
            json_t *args = json_object_get(m, "arguments");
            /* a disconnect with bad arguments is refused, not obeyed */
            if (cmd && strcmp(cmd, "disconnect") == 0 && (!args || json_is_object(args)))
                *stopped = 1;
        }
        json_decref(m);
        if (*stopped)
            break;
    }
    if (r < 0)
        *stopped = 1;
    dap_framer_free(&f);
    return n;
}

/* What a client would check of everything the server wrote: framing, JSON
 * objects, seq from 1 up, and one response per request (with its fields). */
static void check_output(long requests)
{
    off_t size = lseek(out_fd, 0, SEEK_CUR);
    if (size <= 0)
        return;
    char *buf = malloc((size_t)size);
    if (pread(out_fd, buf, (size_t)size, 0) != size)
        abort();
    dap_framer f;
    dap_framer_init(&f);
    dap_framer_feed(&f, buf, (size_t)size);
    const char *body;
    size_t len, used = 0;
    long expect = 1;
    int r;
    while ((r = dap_framer_next(&f, &body, &len)) == 1) {
        json_t *m = json_loadb(body, len, 0, NULL);
        if (!json_is_object(m) || !json_is_string(json_object_get(m, "type")))
            abort(); /* not a DAP message */
        json_t *seq = json_object_get(m, "seq");
        if (!json_is_integer(seq) || json_integer_value(seq) != expect)
            abort(); /* seq must rise by one from 1 */
        expect++;
        const char *type = json_string_value(json_object_get(m, "type"));
        if (strcmp(type, "response") == 0) {
            if (!json_is_boolean(json_object_get(m, "success")) || !json_is_string(json_object_get(m, "command")) ||
                !json_is_integer(json_object_get(m, "request_seq")))
                abort(); /* a response without its fields */
            if (!json_is_true(json_object_get(m, "success")) && !json_is_string(json_object_get(m, "message")))
                abort(); /* a failure without a message */
            requests--;
        } else if (strcmp(type, "event") == 0 && !json_is_string(json_object_get(m, "event"))) {
            abort();
        }
        json_decref(m);
        used = f.off;
    }
    if (r < 0 || used != (size_t)size)
        abort(); /* stray bytes in the protocol stream */
    if (requests != 0)
        abort(); /* not one response per request */
    dap_framer_free(&f);
    free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    fuzz_guard_begin();
    if (ftruncate(out_fd, 0) != 0 || lseek(out_fd, 0, SEEK_SET) != 0)
        abort();
    dap_server *d = dap_server_new(out_fd, !FUZZ_DAP_NO_LAUNCH);
    int r = 0, stopped;
    long requests = 0;
    if ((data[0] & 1) && !FUZZ_DAP_NO_LAUNCH) {
        r = dap_server_feed(d, prologue, strlen(prologue));
        requests += 3;
    }
    requests += count_requests((const char *)data + 1, size - 1, &stopped);
    size_t piece = (size_t)(data[0] >> 1) + 1;
    for (size_t pos = 1; pos < size && r == 0; pos += piece) {
        size_t n = size - pos < piece ? size - pos : piece;
        r = dap_server_feed(d, (const char *)data + pos, n);
    }
    dap_server_free(d);
    check_output(requests);
    fuzz_guard_end();
    return 0;
}
