// OpenCL C twin of examples/wave_reduce.k (see kc_ocl.h; compared by tests/compare-llvm).
// Cross-lane operations within one wave: a butterfly sum with shuffle
// (ds_bpermute) compared against the wave-reduce builtins; each wave writes its
// own results, and a partial wave only reads partners that exist.
//   lane_id()      -> mbcnt_hi(~0, mbcnt_lo(~0, 0))
//   wave_size()    -> __builtin_amdgcn_wavefrontsize() (64 on gfx942)
//   shuffle(v, l)  -> __builtin_amdgcn_ds_bpermute(l << 2, v)
//   reduce_add(v)  -> __builtin_amdgcn_wave_reduce_add_u32(v, 0) (wraps, like kc)
//   reduce_max(v)  -> __builtin_amdgcn_wave_reduce_max_i32(v, 0) (signed, as v: i32)
// The butterfly sum is kept in uint because kc's `+` wraps.
#include "kc_ocl.h"

__kernel void wave_reduce(__global int *out, __global int *input) {
    int lane = (int)__builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));
    int wave = (int)__builtin_amdgcn_wavefrontsize();
    int base = (int)get_group_id(0) * (int)get_local_size(0);
    int gid = base + (int)get_local_id(0);
    int v = input[gid];
    int rest = base + (int)get_local_size(0) - (gid - lane);
    int lanes = rest < wave ? rest : wave;
    uint sum = (uint)v;
    int offset = wave / 2;
    while (offset > 0) {
        int partner = lane ^ offset;
        if (partner < lanes)
            sum += (uint)__builtin_amdgcn_ds_bpermute(partner << 2, (int)sum);
        offset /= 2;
    }
    int total = __builtin_amdgcn_wave_reduce_add_u32(v, 0);
    int biggest = __builtin_amdgcn_wave_reduce_max_i32(v, 0);
    if (lane == 0) {
        int w = gid / wave;
        out[3 * w] = (int)sum;
        out[3 * w + 1] = total;
        out[3 * w + 2] = biggest;
    }
}
