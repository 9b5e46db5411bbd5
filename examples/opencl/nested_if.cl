// OpenCL C twin of examples/nested_if.k (see kc_ocl.h; compared by tests/compare-llvm).
// Nested divergent branches with an else-if chain.
#include "kc_ocl.h"

__kernel void nested_if(__global int *out, int limit) {
    int tid = (int)get_local_id(0);
    int r = 0;
    if (tid < limit) {
        if (tid % 2 == 0) {
            r = 1;
        } else if (tid % 3 == 0) {
            r = 2;
        } else {
            r = 3;
        }
    } else {
        r = -1;
    }
    out[tid] = r;
}
