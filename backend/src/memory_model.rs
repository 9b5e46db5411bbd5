//! The gfx942 memory model: for each synchronizing operation (kind, ordering, scope, address
//! space) the code sequence of LLVM's AMDGPUUsage "Memory Model GFX942" table, in the
//! non-tgsplit execution mode kc's kernels run in (the waves of a workgroup share one CU and
//! its L1 cache). Instruction selection asks [`sequence`] for every atomic, atomic load and
//! store, fence and barrier and emits what it returns around the access; nothing else in the
//! backend knows the table.
//!
//! The table, as `sequence` encodes it (`wg` workgroup, `ag` agent, `sys` system; an access
//! to shared memory (LDS) at a scope wider than workgroup is treated as workgroup, since no
//! other workgroup can see it; wavefront scope needs nothing anywhere):
//!
//! | part                       | workgroup               | agent                                      | system                                         |
//! |----------------------------|-------------------------|--------------------------------------------|------------------------------------------------|
//! | release (before)           | `s_waitcnt lgkmcnt(0)`  | `buffer_wbl2 sc1`, `s_waitcnt vmcnt(0) lgkmcnt(0)` | `buffer_wbl2 sc0 sc1`, `s_waitcnt vmcnt(0) lgkmcnt(0)` |
//! | seq_cst load (before)      | `s_waitcnt lgkmcnt(0)`  | `s_waitcnt vmcnt(0) lgkmcnt(0)`            | `s_waitcnt vmcnt(0) lgkmcnt(0)`                |
//! | global load/store bits     | `sc0`                   | `sc1`                                      | `sc0 sc1`                                      |
//! | global atomic bits         | `sc0` (returns)         | `sc0`                                      | `sc0 sc1`                                      |
//! | acquire, global access     | nothing                 | `s_waitcnt vmcnt(0)`, `buffer_inv sc1`     | `s_waitcnt vmcnt(0)`, `buffer_inv sc0 sc1`     |
//! | acquire, LDS access        | `s_waitcnt lgkmcnt(0)`  | (workgroup)                                | (workgroup)                                    |
//! | acquire, fence             | `s_waitcnt lgkmcnt(0)`  | `s_waitcnt vmcnt(0) lgkmcnt(0)`, `buffer_inv sc1` | `s_waitcnt vmcnt(0) lgkmcnt(0)`, `buffer_inv sc0 sc1` |
//!
//! Why: a release makes the thread's earlier writes visible at the scope before the access:
//! within a workgroup only LDS operations can still be in flight unseen (vector memory goes
//! through the CU's one L1 in order), at agent scope every memory operation must be complete
//! and the L2 written back (`buffer_wbl2 sc1`; `sc0 sc1` also writes back for the system).
//! An acquire makes later reads see other threads' writes: it waits for the acquiring access
//! (or, for a fence, every access) to complete, then invalidates the caches for the scope
//! (`buffer_inv sc1` the L1 for the agent, `sc0 sc1` the L2 too for the system). The bits on
//! an atomic load or store make it coherent at the scope (`sc0` at the L1 for the workgroup,
//! `sc1` for the agent); an atomic read-modify-write bypasses the L1 anyway, its `sc0` means
//! "return the old value" (kc's always do) and `sc1` system coherence. A seq_cst load is an
//! acquire load that first waits for the thread's earlier accesses (no write-back: it writes
//! nothing to publish); a compare-and-swap's sequence is that of its success ordering (its
//! failure ordering is never stronger, `kc_dialect::sync::Ordering::cmpxchg_failure`).
//!
//! `barrier()` is a workgroup release fence, `s_barrier`, a workgroup acquire fence: here
//! `s_waitcnt lgkmcnt(0)`, `s_barrier` (and a second `lgkmcnt(0)`, dropped when nothing is
//! in flight), as clang-22 compiles HIP's `__syncthreads`; gfx942's `s_barrier` itself needs
//! no wait before it (it has the back-off barrier).
//!
//! The waits are what the model asks for; the `waitcnt` pass later drops the counters of a
//! wait that nothing is outstanding on, as LLVM's SIInsertWaitcnts does with the memory
//! legalizer's soft waits, so the listing matches clang-22's (the filetests in
//! `tests/filetests/gfx942/memory_model/` compare every entry with clang-22's listing of an
//! OpenCL twin). Constant time per query.

use kc_dialect::sync::{Ordering, Scope, Sync};
use kc_dialect::AddrSpace;

/// What the synchronizing operation does.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Kind {
    Load,
    Store,
    /// A read-modify-write (returning) atomic, compare-and-swap included.
    Rmw,
    Fence,
}

/// One instruction of a sequence besides the access itself.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Step {
    /// `buffer_wbl2` with these `sc0`, `sc1` bits.
    WriteBack { sc0: bool, sc1: bool },
    /// `s_waitcnt`: `vmcnt(0)` and/or `lgkmcnt(0)`.
    Wait { vm: bool, lgkm: bool },
    /// `buffer_inv` with these `sc0`, `sc1` bits.
    Invalidate { sc0: bool, sc1: bool },
}

/// The code around one synchronizing operation.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Sequence {
    /// Before the access (its release side).
    pub before: Vec<Step>,
    /// The access's own cache-policy bits (global memory only).
    pub sc0: bool,
    pub sc1: bool,
    /// After the access (its acquire side).
    pub after: Vec<Step>,
}

/// The sequence of a `kind` operation with `sync` on memory in `space` (None for a fence).
/// A read-modify-write always returns its old value (`sc0`).
pub fn sequence(kind: Kind, sync: Sync, space: Option<AddrSpace>) -> Sequence {
    let scope = sync.scope.effective(space);
    let o = sync.ordering;
    let global = space == Some(AddrSpace::Global);
    let mut s = Sequence::default();
    if scope == Scope::Wavefront {
        s.sc0 = kind == Kind::Rmw;
        return s;
    }
    let wide = scope >= Scope::Agent;
    let system = scope == Scope::System;
    // Release side.
    let releases = o.releases() && kind != Kind::Load;
    if releases && wide {
        s.before.push(Step::WriteBack {
            sc0: system,
            sc1: true,
        });
    }
    if releases || (kind == Kind::Load && o == Ordering::SeqCst) {
        s.before.push(Step::Wait {
            vm: wide,
            lgkm: true,
        });
    }
    // The access's bits.
    if global {
        (s.sc0, s.sc1) = match kind {
            Kind::Rmw => (true, system),
            Kind::Load | Kind::Store => (scope != Scope::Agent, wide),
            Kind::Fence => (false, false),
        };
    }
    // Acquire side.
    if o.acquires() && kind != Kind::Store {
        match (kind, global, wide) {
            (Kind::Fence, _, _) => s.after.push(Step::Wait {
                vm: wide,
                lgkm: true,
            }),
            (_, true, true) => s.after.push(Step::Wait {
                vm: true,
                lgkm: false,
            }),
            (_, false, _) => s.after.push(Step::Wait {
                vm: false,
                lgkm: true,
            }),
            (_, true, false) => {}
        }
        if wide {
            s.after.push(Step::Invalidate {
                sc0: system,
                sc1: true,
            });
        }
    }
    // A fence that both releases and acquires waits once.
    if kind == Kind::Fence && s.before.last() == s.after.first() && !s.before.is_empty() {
        s.after.remove(0);
    }
    s
}

/// `barrier()`: a workgroup release fence, the `s_barrier` between `before` and `after`, a
/// workgroup acquire fence.
pub fn barrier() -> Sequence {
    let fence = |ordering| {
        sequence(
            Kind::Fence,
            Sync {
                ordering,
                scope: Scope::Workgroup,
            },
            None,
        )
    };
    Sequence {
        before: fence(Ordering::Release).before,
        after: fence(Ordering::Acquire).after,
        ..Sequence::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Step::*;

    fn seq(kind: Kind, o: Ordering, s: Scope, space: Option<AddrSpace>) -> Sequence {
        sequence(
            kind,
            Sync {
                ordering: o,
                scope: s,
            },
            space,
        )
    }

    const G: Option<AddrSpace> = Some(AddrSpace::Global);
    const L: Option<AddrSpace> = Some(AddrSpace::Shared);
    const WAIT_ALL: Step = Wait {
        vm: true,
        lgkm: true,
    };
    const WAIT_VM: Step = Wait {
        vm: true,
        lgkm: false,
    };
    const WAIT_LGKM: Step = Wait {
        vm: false,
        lgkm: true,
    };

    /// Spot checks against clang-22's listings (the filetests check every entry).
    #[test]
    fn entries_match_clang() {
        let rmw = seq(Kind::Rmw, Ordering::SeqCst, Scope::Agent, G);
        assert_eq!(
            rmw.before,
            [
                WriteBack {
                    sc0: false,
                    sc1: true
                },
                WAIT_ALL
            ]
        );
        assert_eq!((rmw.sc0, rmw.sc1), (true, false));
        assert_eq!(
            rmw.after,
            [
                WAIT_VM,
                Invalidate {
                    sc0: false,
                    sc1: true
                }
            ]
        );
        let sys = seq(Kind::Rmw, Ordering::Relaxed, Scope::System, G);
        assert!(sys.before.is_empty() && sys.after.is_empty() && sys.sc0 && sys.sc1);
        let lds = seq(Kind::Rmw, Ordering::AcqRel, Scope::System, L);
        assert_eq!((lds.before, lds.after), (vec![WAIT_LGKM], vec![WAIT_LGKM]));
        let wg = seq(Kind::Rmw, Ordering::SeqCst, Scope::Workgroup, G);
        assert_eq!((wg.before, wg.after), (vec![WAIT_LGKM], vec![]));
        let load = seq(Kind::Load, Ordering::SeqCst, Scope::Agent, G);
        assert_eq!(load.before, [WAIT_ALL]);
        assert_eq!((load.sc0, load.sc1), (false, true));
        let store = seq(Kind::Store, Ordering::Relaxed, Scope::Workgroup, G);
        assert_eq!((store.sc0, store.sc1), (true, false));
        let fence = seq(Kind::Fence, Ordering::AcqRel, Scope::Agent, None);
        assert_eq!(fence.before.len() + fence.after.len(), 3);
        let wave = seq(Kind::Fence, Ordering::SeqCst, Scope::Wavefront, None);
        assert_eq!(wave, Sequence::default());
        let b = barrier();
        assert_eq!((b.before, b.after), (vec![WAIT_LGKM], vec![WAIT_LGKM]));
    }
}
