/* Folders of cases: PyPTO's build_output/ holds one folder per compiled
 * program, each with its passes_dump/. `ptodb --batch DIR` over such a
 * folder validates every case in it. */
#ifndef PTODB_DATA_CASELIST_H
#define PTODB_DATA_CASELIST_H

#include <stddef.h>

/* 1 when dir is not itself a case (no passes_dump/, no .py dump files in it)
 * but holds at least one sub-folder with a passes_dump/ folder. */
int caselist_is_folder_of_cases(const char *dir);
/* The names of dir's sub-folders with a passes_dump/ folder, sorted by
 * strcmp (byte order, independent of the locale). Returns the count; *names
 * is malloc'd (free each and the array), or NULL with -1 when dir cannot be
 * read. */
long caselist_read(const char *dir, char ***names);

#endif
