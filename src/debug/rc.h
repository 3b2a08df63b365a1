/* Start-up files, as gdb loads them: the user's rc file, then ./.ptodbrc
 * only when its folder is trusted (`set auto-load safe-path DIR` in the
 * user's file, or --trust), otherwise a one-line notice saying how to trust
 * it. Errors in rc files print FILE:LINE: message and loading continues. */
#ifndef PTODB_DEBUG_RC_H
#define PTODB_DEBUG_RC_H

#include "debug/state/session.h"

typedef struct rc_options {
    int no_init;     /* --nx: read no rc file at all */
    int trust_local; /* --trust: run ./.ptodbrc whatever the safe-path */
    const char *home;        /* $HOME, or NULL */
    const char *config_home; /* $XDG_CONFIG_HOME, or NULL for ~/.config */
    const char *cwd;         /* the folder ./.ptodbrc is looked up in */
} rc_options;

/* The user's rc file path into buf ("" when none exists). */
void rc_user_file(const rc_options *o, char *buf, size_t size);
/* Loads the rc files; returns the first error's status (loading goes on). */
ptodb_status rc_load(session *s, const rc_options *o);
/* 1 when dir lies inside one of the ':'-separated folders of safe_path. */
int rc_path_trusted(const char *safe_path, const char *dir);

#endif
