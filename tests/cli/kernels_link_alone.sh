#!/bin/sh
# The kernels floor (src/kernels/) sits below exec: a program that calls a
# kernel must link with the objects of base, tensor and kernels alone, and
# get the kernel's failure back in its kernel_call.
set -e
. "$top_srcdir/tests/cli/lib.sh"

objs=$(ls "$top_builddir"/src/base/*.o "$top_builddir"/src/tensor/*.o "$top_builddir"/src/kernels/*.o 2>/dev/null) ||
    fail "no objects under $top_builddir/src/{base,tensor,kernels}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/probe.c" <<'C'
#include "kernels/kernel_util.h"
#include <stdio.h>
int main(void)
{
    kernel_call kc;
    int64_t a[2] = {2, 3}, b[1] = {2}, out[TENSOR_MAX_DIMS];
    const int64_t *shapes[2] = {a, b};
    int nds[2] = {2, 1}, nd;
    kernel_call_init(&kc, "tile.add", 0);
    if (kernels_broadcast(&kc, 2, nds, shapes, &nd, out) == PTODB_OK)
        return 1;
    puts(kc.msg);
    return 0;
}
C
# shellcheck disable=SC2086
${CC:-cc} -I"$top_srcdir/src" -I"$top_builddir" "$tmp/probe.c" -o "$tmp/probe" $objs -lm -lpthread \
    ${PTODB_SAN_LDFLAGS:-} 2>"$tmp/link.err" || fail "the kernels do not link without exec: $(cat "$tmp/link.err")"
got=$("$tmp/probe")
[ "$got" = "The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 1" ] ||
    fail "unexpected message: $got"
