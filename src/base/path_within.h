/* Whether a path, existing or still to be created, lies inside a folder:
 * how ptodb keeps its own files (state, history) out of a case folder. */
#ifndef PTODB_BASE_PATH_WITHIN_H
#define PTODB_BASE_PATH_WITHIN_H

/* 1 when path is dir or lies below it once both are resolved (symbolic
 * links, "." and ".."; the missing tail of path is taken as written), 0
 * when not, -1 when dir cannot be resolved. A tail with ".." after a
 * missing component counts as inside: such a path cannot be judged. */
int path_within(const char *path, const char *dir);

#endif
