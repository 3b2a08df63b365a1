/* Vector clocks (vclock.h). */
#include "base/vclock.h"

void vclock_join(uint32_t *a, const uint32_t *b, int n)
{
    for (int i = 0; i < n; i++)
        if (b[i] > a[i])
            a[i] = b[i];
}
