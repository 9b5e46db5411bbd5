// OpenCL C twin of examples/continue_loop.k (see kc_ocl.h; compared by tests/compare-llvm).
// `continue` in a loop: odd lanes skip part of each iteration. The sum and
// i + tid are computed in uint because kc's `+` wraps (i + tid can pass
// INT_MAX when n is large, and kc's % of the wrapped value is then negative).
#include "kc_ocl.h"

__kernel void continue_loop(__global int *out, int n) {
    int tid = (int)get_local_id(0);
    uint sum = 0;
    for (int i = 0; i < n; i++) {
        if ((int)((uint)i + (uint)tid) % 2 == 1) {
            continue;
        }
        sum += (uint)i;
    }
    out[tid] = (int)sum;
}
