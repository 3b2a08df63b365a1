/* mkdir -p for ptodb's own state folders (history, saved sessions). */
#ifndef PTODB_BASE_MKDIRS_H
#define PTODB_BASE_MKDIRS_H

/* Creates dir and its missing parents with mode 0700 (existing ones are
 * left as they are). Returns 0 when dir is a folder afterwards, else -1. */
int mkdirs(const char *dir);

#endif
