/* Fuzzes the DAP server (ui/dap/): each input is the byte stream a client
 * sends, fed to the server in pieces. The first byte picks the piece size
 * (bits 1-6) and whether a fixed prologue first launches a case (bit 0),
 * so that the requests that need a stopped program are reached: with bit 7
 * clear examples/mlp at pass 22 stopped on entry; with it set
 * examples/memory at pass 34 with every exception filter on, stopped at
 * its planted memory fault (exceptionInfo, readMemory of placed tiles,
 * restartFrame through time travel). The server's output is checked as it
 * would be by a client: only framed messages, each a JSON object with a
 * positive seq and a type, seq rising by one. Writes are refused by the
 * guard (fuzz_guard.h). */
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
/* the prologues and how many requests each holds */
static char prologue_mlp[8192], prologue_memory[8192];
enum { PROLOGUE_MLP_REQUESTS = 3, PROLOGUE_MEMORY_REQUESTS = 4 };

static void frame_all(char *out, size_t size, const char *const *reqs, int n)
{
    size_t len = 0;
    for (int i = 0; i < n; i++)
        len += (size_t)snprintf(out + len, size - len, "Content-Length: %zu\r\n\r\n%s", strlen(reqs[i]), reqs[i]);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_guard_init(*argc, *argv);
    out_fd = memfd_create("dap-out", 0);
    if (out_fd < 0) {
        perror("memfd_create");
        exit(2);
    }
    static const char init[] = "{\"seq\":1,\"type\":\"request\",\"command\":\"initialize\",\"arguments\":{\"adapterID\":\"ptodb\"}}";
    char launch[4096];
    snprintf(launch, sizeof launch,
             "{\"seq\":2,\"type\":\"request\",\"command\":\"launch\",\"arguments\":{\"case\":\"%s/examples/mlp\","
             "\"pass\":\"22_after_ExpandMixedKernel\",\"stopOnEntry\":true}}",
             fuzz_srcdir());
    const char *mlp[3] = {init, launch, "{\"seq\":3,\"type\":\"request\",\"command\":\"configurationDone\"}"};
    frame_all(prologue_mlp, sizeof prologue_mlp, mlp, PROLOGUE_MLP_REQUESTS);
    char launch_mem[4096];
    snprintf(launch_mem, sizeof launch_mem,
             "{\"seq\":2,\"type\":\"request\",\"command\":\"launch\",\"arguments\":{\"case\":\"%s/examples/memory\","
             "\"pass\":\"34_after_MemoryReuse\"}}",
             fuzz_srcdir());
    const char *mem[4] = {init, launch_mem,
                          "{\"seq\":3,\"type\":\"request\",\"command\":\"setExceptionBreakpoints\",\"arguments\":"
                          "{\"filters\":[\"memory\",\"deadlock\",\"error\"]}}",
                          "{\"seq\":4,\"type\":\"request\",\"command\":\"configurationDone\"}"};
    frame_all(prologue_memory, sizeof prologue_memory, mem, PROLOGUE_MEMORY_REQUESTS);
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
        const char *p = data[0] & 0x80 ? prologue_memory : prologue_mlp;
        r = dap_server_feed(d, p, strlen(p));
        requests += data[0] & 0x80 ? PROLOGUE_MEMORY_REQUESTS : PROLOGUE_MLP_REQUESTS;
    }
    requests += count_requests((const char *)data + 1, size - 1, &stopped);
    size_t piece = (size_t)((data[0] >> 1) & 63) + 1;
    for (size_t pos = 1; pos < size && r == 0; pos += piece) {
        size_t n = size - pos < piece ? size - pos : piece;
        r = dap_server_feed(d, (const char *)data + pos, n);
    }
    dap_server_free(d);
    check_output(requests);
    fuzz_guard_end();
    return 0;
}
