// OpenCL C twin of examples/ballot_in_branch.k (see kc_ocl.h; compared by tests/compare-llvm).
// A ballot inside a divergent if: only the lanes that took the branch
// participate.
#include "kc_ocl.h"

__kernel void ballot_in_branch(__global ulong *out) {
    int tid = (int)get_local_id(0);
    if (tid < 32) {
        ulong mask = __builtin_amdgcn_ballot_w64(tid % 2 == 0);
        out[tid] = mask;
    }
}
