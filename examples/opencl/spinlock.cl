// OpenCL C twin of examples/spinlock.k (see kc_ocl.h; compared by tests/compare-llvm).
// Every lane takes one global spin lock (the classic SIMT deadlock test).
// atomic_cmpxchg / atomic_xchg are kc_ocl.h's: seq_cst, device scope, as in kc.
// The increment is done in uint because kc's `+` wraps.
#include "kc_ocl.h"

__kernel void spinlock(__global int *lock, __global int *counter) {
    while (atomic_cmpxchg(&lock[0], 0, 1) != 0) {
    }
    // Critical section.
    counter[0] = (int)((uint)counter[0] + 1u);
    atomic_xchg(&lock[0], 0);
}
