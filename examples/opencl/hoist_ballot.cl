// OpenCL C twin of examples/hoist_ballot.k (see kc_ocl.h; compared by tests/compare-llvm).
// A ballot that must not be hoisted out of a divergent branch.
#include "kc_ocl.h"

__kernel void hoist_ballot(__global ulong *out, __global int *data) {
    int tid = (int)get_local_id(0);
    bool flag = data[tid] > 0;
    if (tid % 4 == 0) {
        ulong m = __builtin_amdgcn_ballot_w64(flag);
        out[tid] = m;
    } else {
        out[tid] = 0;
    }
}
