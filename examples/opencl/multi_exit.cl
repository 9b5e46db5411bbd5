// OpenCL C twin of examples/multi_exit.k (see kc_ocl.h; compared by tests/compare-llvm).
// Several divergent early returns.
#include "kc_ocl.h"

__kernel void multi_exit(__global int *out, __global int *cond) {
    int tid = (int)get_local_id(0);
    int c1 = cond[0];
    int c2 = cond[1];
    if (tid > c1) {
        out[1] = 0;
        return;
    }
    if (tid > c2) {
        out[1] = 0;
        return;
    }
    out[0] = 42;
}
