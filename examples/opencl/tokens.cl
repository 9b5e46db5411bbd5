// OpenCL C twin of examples/tokens.k (see kc_ocl.h; compared by tests/compare-llvm).
//
// NOT a literal translation: OpenCL C has no explicit convergence tokens
// (convergence_entry, loop hearts, convergence_anchor, `@ token`). This is
// the same computation without them; clang relies on its implicit
// (structured) convergence instead. Here that gives the same sets of lanes:
// the loop has a uniform trip count (n is a kernel argument), so every lane
// runs every iteration together as under the heart, readfirstlane runs on the
// lanes with tid < 16 as under the anchor, and the barrier is reached by all
// lanes as under the entry token.
#include "kc_ocl.h"

__kernel void tokens(__global ulong *out, __global int *vals, int n) {
    int tid = (int)get_local_id(0);
    ulong acc = 0;
    for (int i = 0; i < n; i++) {
        ulong b = __builtin_amdgcn_ballot_w64(vals[i] > tid);
        acc += b;
    }
    if (tid < 16) {
        int first = __builtin_amdgcn_readfirstlane(tid);
        out[tid] = (ulong)first;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    out[tid + 16] = acc;
}
