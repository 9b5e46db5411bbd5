// OpenCL C twin of examples/spinlock.k (see kc_ocl.h; compared by tests/compare-llvm).
// Every lane takes one global spin lock (the classic SIMT deadlock test).
// atomic_cmpxchg_explicit / atomic_xchg_explicit are kc_ocl.h's: the lock is taken
// with acquire and freed with release at device ("agent") scope, as in kc.
// The increment is done in uint because kc's `+` wraps.
#include "kc_ocl.h"

__kernel void spinlock(__global int *lock, __global int *counter) {
    while (atomic_cmpxchg_explicit(&lock[0], 0, 1, __ATOMIC_ACQUIRE, __MEMORY_SCOPE_DEVICE) != 0) {
    }
    // Critical section.
    counter[0] = (int)((uint)counter[0] + 1u);
    atomic_xchg_explicit(&lock[0], 0, __ATOMIC_RELEASE, __MEMORY_SCOPE_DEVICE);
}
