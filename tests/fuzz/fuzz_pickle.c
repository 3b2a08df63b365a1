/* Fuzzes the pickle reader with the globals a .pt file may name. */
#include "fuzz.h"

#include "data/pickle.h"

/* pt.c's whitelist (kept in step by hand: the reader must be safe with any
 * list, this one reaches the REDUCE and storage paths torch files use). */
static const char *const allowed[] = {
    "torch._utils._rebuild_tensor_v2", "torch._utils._rebuild_tensor_v3",
    "collections.OrderedDict", "torch.FloatStorage", "torch.BFloat16Storage",
    "torch.LongStorage", "torch.UntypedStorage", "torch.float32", "torch.bfloat16",
    NULL,
};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    return 0;
}

/* Walks a result as a caller would. */
static void visit(const pk_value *v)
{
    if (v->kind == PK_DICT)
        pk_dict_get(v, "storage");
    pk_kind_name(v->kind);
    for (size_t i = 0; i < v->count; i++)
        visit(v->items[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    diag_sink sink;
    diag_sink_init(&sink, 20);
    pk_value *v = NULL;
    if (pk_load(data, size, allowed, "fuzz.pt", "archive/data.pkl", &v, &sink) == PTODB_OK) {
        visit(v);
        pk_unref(v);
    }
    diag_sink_free(&sink);
    return 0;
}
