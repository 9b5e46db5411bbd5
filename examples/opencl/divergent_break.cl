// OpenCL C twin of examples/divergent_break.k (see kc_ocl.h; compared by tests/compare-llvm).
// A loop whose exit depends on the lane. (sum < tid * tid / 2 with
// tid < 1024: no overflow, so plain int is exact.)
#include "kc_ocl.h"

__kernel void divergent_break(__global int *out) {
    int tid = (int)get_local_id(0);
    int i = 0;
    int sum = 0;
    for (;;) {
        if (i >= tid) {
            break;
        }
        sum += i;
        i += 1;
    }
    out[tid] = sum;
}
