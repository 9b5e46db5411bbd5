// OpenCL C twin of ../clang_ops_on_sim.k (see examples/opencl/kc_ocl.h).
#include "kc_ocl.h"

__kernel void lds_pairs(__global int *out, __global int *hist, __global int *input) {
    __local int tile[512];
    __local int h[64];
    int t = (int)get_local_id(0);
    int v = input[t];
    tile[2 * t] = v;
    tile[2 * t + 1] = (int)((uint)v * 3u);
    if (t < 64) {
        h[t] = 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    int a = (int)((uint)tile[t] + (uint)tile[t + 1]);
    int b = (int)((uint)tile[t + 64] - (uint)tile[t + 128]);
    __scoped_atomic_fetch_add(&h[v & 63], 1, __ATOMIC_RELAXED, __MEMORY_SCOPE_WRKGRP);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[t] = (int)((uint)a * 7u + (uint)b);
    if (t < 64) {
        hist[t] = h[t];
    }
}

__kernel void bits(__global uint *out, __global uint *input, uint n) {
    uint t = (uint)get_local_id(0);
    uint x = input[t];
    uint c = (uint)__builtin_popcount(x);
    uint m = (x & 0xf0f0u) | (~x & n);
    uint p = (x & 0x3ffffu) * (t & 0xfffu);
    uint s = (x + n) << 3;
    uint acc = 0;
    for (uint i = n; i < 1000u; i += 7u) {
        acc += (i ^ t) + x;
    }
    out[t] = c + m + p + s + (acc ^ c);
}

__kernel void pairs_f32(__global float *out, __global float *input) {
    int t = (int)get_local_id(0);
    __global float2 *in2 = (__global float2 *)input;
    __global float2 *out2 = (__global float2 *)out;
    float2 a = in2[t];
    float2 b = in2[t + 128];
    out2[t] = a + b;
    out2[t + 128] = a * b;
}
