#include "debug/rc.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int is_regular_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

void rc_user_file(const rc_options *o, char *buf, size_t size)
{
    buf[0] = '\0';
    if (o->config_home && *o->config_home) {
        snprintf(buf, size, "%s/ptodb/ptodbrc", o->config_home);
        if (is_regular_file(buf))
            return;
    } else if (o->home) {
        snprintf(buf, size, "%s/.config/ptodb/ptodbrc", o->home);
        if (is_regular_file(buf))
            return;
    }
    if (o->home) {
        snprintf(buf, size, "%s/.ptodbrc", o->home);
        if (is_regular_file(buf))
            return;
    }
    buf[0] = '\0';
}

/* dir is inside prefix when prefix is "/" or dir == prefix or dir starts with
 * prefix + "/". Both are compared after realpath so symlinks cannot smuggle
 * an untrusted folder in. */
static int path_inside(const char *prefix, const char *dir)
{
    char rp[PATH_MAX], rd[PATH_MAX];
    if (!realpath(prefix, rp) || !realpath(dir, rd))
        return 0;
    size_t n = strlen(rp);
    if (strcmp(rp, "/") == 0)
        return 1;
    return strncmp(rd, rp, n) == 0 && (rd[n] == '\0' || rd[n] == '/');
}

int rc_path_trusted(const char *safe_path, const char *dir)
{
    const char *p = safe_path;
    while (*p) {
        const char *end = strchr(p, ':');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n > 0 && n < PATH_MAX) {
            char one[PATH_MAX];
            memcpy(one, p, n);
            one[n] = '\0';
            if (path_inside(one, dir))
                return 1;
        }
        if (!end)
            break;
        p = end + 1;
    }
    return 0;
}

ptodb_status rc_load(session *s, const rc_options *o)
{
    if (o->no_init)
        return PTODB_OK;
    ptodb_status first = PTODB_OK;
    char user[PATH_MAX];
    rc_user_file(o, user, sizeof user);
    if (user[0])
        first = session_source(s, user);
    if (session_quit_requested(s))
        return first;

    const char *cwd = o->cwd ? o->cwd : ".";
    char local[PATH_MAX];
    snprintf(local, sizeof local, "%s/.ptodbrc", cwd);
    if (!is_regular_file(local))
        return first;
    char rl[PATH_MAX], ru[PATH_MAX];
    /* The user's own rc reached through ./.ptodbrc (cwd = $HOME) ran already. */
    if (user[0] && realpath(local, rl) && realpath(user, ru) && strcmp(rl, ru) == 0)
        return first;
    if (!o->trust_local && !rc_path_trusted(session_get_string(s, SETTING_SAFE_PATH), cwd)) {
        char abs[PATH_MAX];
        const char *shown = realpath(cwd, abs) ? abs : cwd;
        session_warnf(s,
                      "ptodb: not running untrusted %s/.ptodbrc; to trust it, add "
                       "'set auto-load safe-path %s' to %s or run with --trust",
                       shown, shown, user[0] ? user : "~/.config/ptodb/ptodbrc");
        return first;
    }
    ptodb_status st = session_source(s, local);
    return first != PTODB_OK ? first : st;
}
