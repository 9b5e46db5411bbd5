// OpenCL C twin of examples/diamond.k (see kc_ocl.h; compared by tests/compare-llvm).
// Diamond control flow: a divergent if/else that reconverges before the
// final store.
#include "kc_ocl.h"

__kernel void diamond(__global int *out) {
    int tid = (int)get_local_id(0);
    if (tid == 0) {
        out[0] = 1;
    } else {
        out[1] = 2;
    }
    out[2] = 3;
}
