/* ptodb --dap (the Debug Adapter Protocol on standard input and output) and
 * --dap-port N (on a TCP socket bound to 127.0.0.1 only, one client). */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/status.h"
#include "../modes.h"
#include "../options.h"
#include "server.h"

int mode_dap(const ptodb_cli *cli);

static int serve_fds(int in_fd, int out_fd)
{
    dap_server *d = dap_server_new(out_fd, 1);
    int status = dap_server_serve(d, in_fd);
    dap_server_free(d);
    return status;
}

static int serve_port(const ptodb_cli *cli)
{
    long long port;
    if (ptodb_cli_int(cli, OPT_DAP_PORT, "a TCP port", 0, 65535, &port) < 0)
        return PTODB_EXIT_USAGE;
    int ls = socket(AF_INET, SOCK_STREAM, 0);
    if (ls < 0) {
        fprintf(stderr, "ptodb: --dap-port: socket: %s\n", strerror(errno));
        return PTODB_EXIT_USAGE;
    }
    int one = 1;
    setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK); /* never another host's */
    socklen_t alen = sizeof a;
    if (bind(ls, (struct sockaddr *)&a, sizeof a) != 0 || listen(ls, 1) != 0 ||
        getsockname(ls, (struct sockaddr *)&a, &alen) != 0) {
        fprintf(stderr, "ptodb: --dap-port %lld: %s\n", port, strerror(errno));
        close(ls);
        return PTODB_EXIT_USAGE;
    }
    /* port 0 picks a free one: say which, for the client to connect */
    fprintf(stderr, "ptodb: DAP server listening on 127.0.0.1:%d\n", ntohs(a.sin_port));
    int c;
    do
        c = accept(ls, NULL, NULL);
    while (c < 0 && errno == EINTR);
    close(ls);
    if (c < 0) {
        fprintf(stderr, "ptodb: --dap-port: accept: %s\n", strerror(errno));
        return PTODB_EXIT_USAGE;
    }
    int status = serve_fds(c, c);
    close(c);
    return status;
}

int mode_dap(const ptodb_cli *cli)
{
    /* a client that went away must not kill us mid-write */
    signal(SIGPIPE, SIG_IGN);
    if (cli->npaths > 0) {
        fprintf(stderr, "ptodb: --dap takes no PATH: the client's launch request names the case\n");
        return PTODB_EXIT_USAGE;
    }
    if (cli->given[OPT_DAP_PORT])
        return serve_port(cli);
    /* DAP goes to a private copy of standard output; descriptor 1 becomes
     * standard error, so no stray byte ever lands in the protocol stream */
    fflush(stdout);
    int out = dup(STDOUT_FILENO);
    if (out < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
        fprintf(stderr, "ptodb: --dap: %s\n", strerror(errno));
        return PTODB_EXIT_USAGE;
    }
    return serve_fds(STDIN_FILENO, out);
}
