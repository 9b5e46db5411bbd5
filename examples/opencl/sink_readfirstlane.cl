// OpenCL C twin of examples/sink_readfirstlane.k (see kc_ocl.h; compared by tests/compare-llvm).
// A readfirstlane that must not be sunk into (or hoisted out of) a branch.
#include "kc_ocl.h"

__kernel void sink_readfirstlane(__global int *out, __global int *data) {
    int tid = (int)get_local_id(0);
    int v = data[tid];
    int first = __builtin_amdgcn_readfirstlane(v);
    if (tid >= 8) {
        out[tid] = first;
    }
    if (tid >= 4) {
        int inner = __builtin_amdgcn_readfirstlane(v);
        out[tid + 64] = inner;
    }
}
