// OpenCL C twin of examples/shared_reduce.k (see kc_ocl.h; compared by tests/compare-llvm).
// Workgroup sum in LDS: a tree reduction with a barrier between steps.
#include "kc_ocl.h"

__kernel void shared_reduce(__global float *out, __global float *input) {
    __local float tile[256];
    int tid = (int)get_local_id(0);
    int gid = (int)get_group_id(0) * (int)get_local_size(0) + tid;
    tile[tid] = input[gid];
    barrier(CLK_LOCAL_MEM_FENCE);
    int stride = (int)get_local_size(0) / 2;
    while (stride > 0) {
        if (tid < stride) {
            tile[tid] += tile[tid + stride];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        stride >>= 1;
    }
    if (tid == 0) {
        out[(int)get_group_id(0)] = tile[0];
    }
}
