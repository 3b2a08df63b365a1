/* The DAP harness (fuzz_dap.c) with launch refused: the byte stream's
 * framing, JSON and request dispatch without a case, fast. */
#define FUZZ_DAP_NO_LAUNCH 1
#include "fuzz_dap.c"
