/* The table of semantic differences (semantics.h) and its text form. */
#include "exec/semantics.h"

#include <string.h>

#include "base/strbuf.h"

const exec_semdiff_info exec_semdiffs[EXEC_SEMDIFF_COUNT] = {
#define EXEC_SEMDIFF_ROW(id, name, ops, device, ref, ref_fails, source) \
    {name, ops, device, ref, ref_fails, source},
    EXEC_SEMDIFF_LIST(EXEC_SEMDIFF_ROW)
#undef EXEC_SEMDIFF_ROW
};

const char *exec_semantics_name(exec_semantics s)
{
    return s == EXEC_SEM_REF ? "ref" : "device";
}

int exec_semantics_parse(const char *text)
{
    if (strcmp(text, "device") == 0)
        return EXEC_SEM_DEVICE;
    if (strcmp(text, "ref") == 0 || strcmp(text, "reference") == 0)
        return EXEC_SEM_REF;
    return -1;
}

void exec_semantics_list(strbuf *out)
{
    strbuf_printf(out, "%d places where --semantics=device (the default) and --semantics=ref differ:\n",
            EXEC_SEMDIFF_COUNT);
    for (int i = 0; i < EXEC_SEMDIFF_COUNT; i++) {
        const exec_semdiff_info *d = &exec_semdiffs[i];
        strbuf_printf(out, "\n%s (%s)\n", d->name, d->ops);
        strbuf_printf(out, "  device: %s\n", d->device);
        strbuf_printf(out, "  ref:    %s%s\n", d->ref, d->ref_fails ? " (REF cannot run the file)" : "");
        strbuf_printf(out, "  source: %s\n", d->source);
    }
}
