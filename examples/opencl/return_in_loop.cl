// OpenCL C twin of examples/return_in_loop.k (see kc_ocl.h; compared by tests/compare-llvm).
// Early return from inside a loop.
#include "kc_ocl.h"

__kernel void return_in_loop(__global int *out, __global int *keys, int n) {
    int tid = (int)get_local_id(0);
    int i = 0;
    while (i < n) {
        if (keys[i] == tid) {
            out[tid] = i;
            return;
        }
        i += 1;
    }
    out[tid] = -1;
}
