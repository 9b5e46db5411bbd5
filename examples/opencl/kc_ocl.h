// Shared by the OpenCL C twins of ../*.k (one NAME.cl per NAME.k), which
// tests/compare-llvm compiles with
//   clang-22 -O2 -target amdgcn-amd-amdhsa -mcpu=gfx942 -nogpulib -x cl -cl-std=CL2.0
//
// -nogpulib leaves out the ROCm device library, where OpenCL's work-item,
// barrier and atomic functions are defined. Without it they would be calls
// to undefined external functions, which would turn every kernel into one
// with a call (a stack, callee-saved registers, flat scratch) and make the
// comparison meaningless. This header defines the few the twins use, inline,
// directly in terms of clang's AMDGPU builtins, with the semantics of the
// matching kc builtin (compiler/LANGUAGE.md §6) rather than the device
// library's where the two differ:
//
// * get_local_size(d) is the workgroup size from the dispatch (CUDA's
//   blockDim, kc's workgroup_size), not OpenCL 2.0's size of a possibly
//   partial last workgroup.
// * barrier(flags) ignores `flags`: like kc's barrier() it fences all memory
//   at workgroup scope (release, s_barrier, acquire), as
//   barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE) would.
// * atomic_cmpxchg / atomic_xchg are seq_cst at device ("agent") scope, as
//   kc's atomics are by default (the device library's OpenCL 1.x atomics are
//   relaxed); atomic_cmpxchg_explicit / atomic_xchg_explicit take kc's
//   ordering and scope as clang's __ATOMIC_* and __MEMORY_SCOPE_* constants
//   (clang's scoped atomics, which order every address space like kc's, not
//   OpenCL 2.0's one-address-space memory_scope_*), and a failed
//   compare-and-swap gets kc's failure ordering. They are macros: clang's
//   atomic builtins need constant orderings and scopes.
//
// Integers: kc's integer arithmetic wraps, OpenCL C's signed overflow is
// undefined. Where a stored value or a branch condition could overflow, a
// twin computes in uint (which wraps) and converts back, so the twins compute
// exactly what the .k kernels compute. (An index that overflows is an
// out-of-bounds access in both languages and is left as int.)
//
// Work-item ids are int in the twins, as in kc (where they are i32).

#ifndef KC_OCL_H
#define KC_OCL_H

#define KC_OCL_FN static inline __attribute__((overloadable, always_inline))

// workitem_id(x|y|z)
KC_OCL_FN size_t get_local_id(uint d) {
    return d == 0 ? __builtin_amdgcn_workitem_id_x()
         : d == 1 ? __builtin_amdgcn_workitem_id_y()
                  : __builtin_amdgcn_workitem_id_z();
}

// workgroup_id(x|y|z)
KC_OCL_FN size_t get_group_id(uint d) {
    return d == 0 ? __builtin_amdgcn_workgroup_id_x()
         : d == 1 ? __builtin_amdgcn_workgroup_id_y()
                  : __builtin_amdgcn_workgroup_id_z();
}

// workgroup_size(x|y|z)
KC_OCL_FN size_t get_local_size(uint d) {
    return d == 0 ? __builtin_amdgcn_workgroup_size_x()
         : d == 1 ? __builtin_amdgcn_workgroup_size_y()
                  : __builtin_amdgcn_workgroup_size_z();
}

// barrier()
KC_OCL_FN void barrier(cl_mem_fence_flags flags) {
    (void)flags;
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

// atomic_cmpxchg(&p[i], cmp, new): returns the old value.
KC_OCL_FN int atomic_cmpxchg(volatile __global int *p, int cmp, int val) {
    __scoped_atomic_compare_exchange_n((__global int *)p, &cmp, val, false,
                                       __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST,
                                       __MEMORY_SCOPE_DEVICE);
    return cmp;
}

// atomic_xchg(&p[i], v): returns the old value.
KC_OCL_FN int atomic_xchg(volatile __global int *p, int val) {
    return __scoped_atomic_exchange_n((__global int *)p, val, __ATOMIC_SEQ_CST,
                                      __MEMORY_SCOPE_DEVICE);
}

// atomic_cmpxchg_explicit(&p[i], cmp, new, order, scope): returns the old value.
#define atomic_cmpxchg_explicit(p, cmp, val, order, scope)                    \
    ({                                                                         \
        int kc_old_ = (cmp);                                                   \
        __scoped_atomic_compare_exchange_n(                                    \
            (__global int *)(p), &kc_old_, (val), false, (order),              \
            (order) == __ATOMIC_ACQ_REL   ? __ATOMIC_ACQUIRE                   \
            : (order) == __ATOMIC_RELEASE ? __ATOMIC_RELAXED                   \
                                          : (order),                           \
            (scope));                                                          \
        kc_old_;                                                               \
    })

// atomic_xchg_explicit(&p[i], v, order, scope): returns the old value.
#define atomic_xchg_explicit(p, val, order, scope)                             \
    __scoped_atomic_exchange_n((__global int *)(p), (val), (order), (scope))

#endif
