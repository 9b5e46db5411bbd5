// OpenCL C twin of examples/uniform_loop.k (see kc_ocl.h; compared by tests/compare-llvm).
// A for loop with a uniform trip count (the kernel argument n). The
// accumulator is uint because kc's `acc += i * tid` wraps.
#include "kc_ocl.h"

__kernel void uniform_loop(__global int *out, int n) {
    int tid = (int)get_local_id(0);
    uint acc = 0;
    for (int i = 0; i < n; i++) {
        acc += (uint)i * (uint)tid;
    }
    out[tid] = (int)acc;
}
