//! Memory orderings and synchronization scopes: the `ordering` and `scope` attributes every
//! synchronizing op carries (the ops with `Traits::SYNC`: `kernel.atomic`,
//! `kernel.atomic_cmpxchg`, `kernel.atomic_load`, `kernel.atomic_store`, `kernel.fence`), the
//! rules on them (LLVM's: a load cannot release, a store cannot acquire, a fence cannot be
//! relaxed), and their LLVM spellings.
//!
//! The orderings are C++'s and LLVM's; the scopes are the AMDGPU synchronization scopes
//! (LLVM's AMDGPUUsage, "Memory Scopes"), each including the narrower ones:
//!
//! | scope       | synchronizes with                                  | LLVM `syncscope`  |
//! |-------------|----------------------------------------------------|-------------------|
//! | `wavefront` | the work-items of the same wave                    | `"wavefront"`     |
//! | `workgroup` | the work-items of the same workgroup               | `"workgroup"`     |
//! | `agent`     | every work-item of the device (kc's kernel grid)   | `"agent"`         |
//! | `system`    | the device, the host and other devices             | none (system)     |
//!
//! An ordering applies to every memory access of the thread, global and shared alike (C++'s
//! and HIP's semantics), so kc uses LLVM's plain scopes, not the `-one-as` ones OpenCL's
//! non-seq_cst atomics get (those order only the atomic's own address space: a workgroup
//! release on a global flag would then not wait for earlier shared-memory stores).
//!
//! Shared memory is only visible inside the workgroup, so on it a scope wider than
//! `workgroup` synchronizes exactly what `workgroup` does (LLVM's memory legalizer narrows it
//! the same way); the defaults are what kc's atomics always were: `seq_cst`, at `agent` scope
//! for global memory and `workgroup` scope for shared memory.

use crate::attrs::Attr;
use crate::entities::Op;
use crate::ir::Ir;
use crate::registry::{Opcode, ORDERINGS, SCOPES};
use crate::types::{AddrSpace, Type};

/// A memory ordering (C++ `memory_order`, LLVM's atomic orderings; `relaxed` is LLVM's
/// `monotonic`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Ordering {
    Relaxed,
    Acquire,
    Release,
    AcqRel,
    SeqCst,
}

/// A synchronization scope, narrowest first.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Scope {
    Wavefront,
    Workgroup,
    Agent,
    System,
}

/// What a synchronizing op does to memory: decides which orderings it may have.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Access {
    /// `kernel.atomic_load`.
    Load,
    /// `kernel.atomic_store`.
    Store,
    /// `kernel.atomic`, `kernel.atomic_cmpxchg`: read-modify-write.
    Rmw,
    /// `kernel.fence`: no access of its own, it orders the others.
    Fence,
}

/// An op's ordering and scope.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Sync {
    pub ordering: Ordering,
    pub scope: Scope,
}

const ALL_ORDERINGS: [Ordering; 5] = [
    Ordering::Relaxed,
    Ordering::Acquire,
    Ordering::Release,
    Ordering::AcqRel,
    Ordering::SeqCst,
];
const ALL_SCOPES: [Scope; 4] = [
    Scope::Wavefront,
    Scope::Workgroup,
    Scope::Agent,
    Scope::System,
];

impl Ordering {
    pub const ALL: [Ordering; 5] = ALL_ORDERINGS;

    /// The name in kc's source and IR (`acq_rel`).
    pub fn name(self) -> &'static str {
        ORDERINGS[self as usize]
    }

    pub fn from_name(s: &str) -> Option<Ordering> {
        let i = ORDERINGS.iter().position(|&n| n == s)?;
        Some(ALL_ORDERINGS[i])
    }

    /// Later accesses of the thread stay after it (acquire, acq_rel, seq_cst).
    pub fn acquires(self) -> bool {
        matches!(
            self,
            Ordering::Acquire | Ordering::AcqRel | Ordering::SeqCst
        )
    }

    /// Earlier accesses of the thread stay before it (release, acq_rel, seq_cst).
    pub fn releases(self) -> bool {
        matches!(
            self,
            Ordering::Release | Ordering::AcqRel | Ordering::SeqCst
        )
    }

    /// LLVM's spelling (`monotonic` for relaxed).
    pub fn llvm(self) -> &'static str {
        match self {
            Ordering::Relaxed => "monotonic",
            o => o.name(),
        }
    }

    /// May an op doing `access` have this ordering? (LLVM's rules: a load cannot release, a
    /// store cannot acquire, a fence must order something.)
    pub fn allowed(self, access: Access) -> bool {
        match access {
            Access::Rmw => true,
            Access::Load => !self.releases() || self == Ordering::SeqCst,
            Access::Store => !self.acquires() || self == Ordering::SeqCst,
            Access::Fence => self != Ordering::Relaxed,
        }
    }

    /// The failure ordering of a compare-and-exchange whose success ordering is `self`: the
    /// strongest LLVM allows a failed exchange (which only loads), as C++ derives it from a
    /// single order: release gives relaxed, acq_rel gives acquire, the others themselves.
    pub fn cmpxchg_failure(self) -> Ordering {
        match self {
            Ordering::Release => Ordering::Relaxed,
            Ordering::AcqRel => Ordering::Acquire,
            o => o,
        }
    }
}

impl Scope {
    pub const ALL: [Scope; 4] = ALL_SCOPES;

    pub fn name(self) -> &'static str {
        SCOPES[self as usize]
    }

    pub fn from_name(s: &str) -> Option<Scope> {
        let i = SCOPES.iter().position(|&n| n == s)?;
        Some(ALL_SCOPES[i])
    }

    /// LLVM's `syncscope(...)` clause for AMDGPU, with its leading space; empty for `system`
    /// (LLVM's default scope).
    pub fn llvm_syncscope(self) -> &'static str {
        match self {
            Scope::Wavefront => " syncscope(\"wavefront\")",
            Scope::Workgroup => " syncscope(\"workgroup\")",
            Scope::Agent => " syncscope(\"agent\")",
            Scope::System => "",
        }
    }

    /// The default scope of an atomic on `space`: the widest that can see it in one kernel
    /// launch (the device for global memory, the workgroup for shared memory).
    pub fn default_for(space: AddrSpace) -> Scope {
        match space {
            AddrSpace::Global => Scope::Agent,
            AddrSpace::Shared => Scope::Workgroup,
        }
    }

    /// The scope that actually applies to an access of `space` (None: a fence, all memory):
    /// shared memory is visible only inside the workgroup, so wider scopes narrow to it.
    pub fn effective(self, space: Option<AddrSpace>) -> Scope {
        match space {
            Some(AddrSpace::Shared) => self.min(Scope::Workgroup),
            _ => self,
        }
    }
}

impl Sync {
    /// What an atomic without explicit ordering and scope means: `seq_cst` at
    /// [`Scope::default_for`] its memory; for a fence, `seq_cst` at `agent` scope.
    pub fn default_for(space: Option<AddrSpace>) -> Sync {
        Sync {
            ordering: Ordering::SeqCst,
            scope: space.map_or(Scope::Agent, Scope::default_for),
        }
    }
}

/// The kind of access of a synchronizing opcode (None for the others).
pub fn access(code: Opcode) -> Option<Access> {
    match code {
        Opcode::Atomic | Opcode::AtomicCmpxchg => Some(Access::Rmw),
        Opcode::AtomicLoad => Some(Access::Load),
        Opcode::AtomicStore => Some(Access::Store),
        Opcode::Fence => Some(Access::Fence),
        _ => None,
    }
}

/// The address space a synchronizing op accesses (None for a fence, which orders all).
pub fn space(ir: &Ir, op: Op) -> Option<AddrSpace> {
    let data = &ir.ops[op];
    let ptr = match data.opcode {
        Opcode::AtomicStore => data.operands.get(1),
        Opcode::Fence => None,
        _ => data.operands.first(),
    }?;
    match ir.value_type(*ptr) {
        Type::Ptr(s, _) => Some(s),
        _ => None,
    }
}

/// The ordering and scope of `op`, if it is a synchronizing op whose attributes are valid.
pub fn of(ir: &Ir, op: Op) -> Option<Sync> {
    access(ir.opcode(op))?;
    let ordering = Ordering::from_name(ir.attr(op, "ordering")?.as_str()?)?;
    let scope = Scope::from_name(ir.attr(op, "scope")?.as_str()?)?;
    Some(Sync { ordering, scope })
}

/// Sets the `ordering` and `scope` attributes of `op`.
pub fn set(ir: &mut Ir, op: Op, s: Sync) {
    ir.set_attr(op, "ordering", Attr::Str(s.ordering.name().into()));
    ir.set_attr(op, "scope", Attr::Str(s.scope.name().into()));
}

/// The verifier's rule for a synchronizing op: both attributes present and named, and the
/// ordering allowed for what the op does. `None` if it holds (or `op` does not synchronize).
pub fn check(ir: &Ir, op: Op) -> Option<String> {
    let access = access(ir.opcode(op))?;
    let name = |attr: &str, names: &[&str]| match ir.attr(op, attr) {
        Some(Attr::Str(s)) if names.contains(&s.as_str()) => None,
        Some(other) => Some(format!(
            "`{attr}` must be one of {}, found {other}",
            names.join(", ")
        )),
        None => Some(format!(
            "needs the `{attr}` attribute (one of {})",
            names.join(", ")
        )),
    };
    if let Some(problem) = name("ordering", ORDERINGS).or_else(|| name("scope", SCOPES)) {
        return Some(problem);
    }
    let s = of(ir, op)?;
    (!s.ordering.allowed(access)).then(|| rule(access, s.ordering))
}

/// Why `ordering` is not allowed on `access` (the language's diagnostics say the same).
pub fn rule(access: Access, ordering: Ordering) -> String {
    let why = match access {
        Access::Load => {
            "a load cannot release (release and acq_rel order earlier accesses before a store)"
        }
        Access::Store => {
            "a store cannot acquire (acquire and acq_rel order later accesses after a load)"
        }
        Access::Fence => "a fence cannot be relaxed (it would order nothing)",
        Access::Rmw => "",
    };
    format!("ordering `{}` is not allowed: {why}", ordering.name())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_rules_match_llvm() {
        for o in Ordering::ALL {
            assert_eq!(Ordering::from_name(o.name()), Some(o));
            assert!(o.allowed(Access::Rmw));
            // LLVM: cmpxchg's failure ordering is neither release nor acq_rel.
            assert!(!o.cmpxchg_failure().releases() || o == Ordering::SeqCst);
        }
        for s in Scope::ALL {
            assert_eq!(Scope::from_name(s.name()), Some(s));
        }
        let allowed = |a| -> Vec<&str> {
            Ordering::ALL
                .iter()
                .filter(|o| o.allowed(a))
                .map(|o| o.name())
                .collect()
        };
        assert_eq!(allowed(Access::Load), ["relaxed", "acquire", "seq_cst"]);
        assert_eq!(allowed(Access::Store), ["relaxed", "release", "seq_cst"]);
        assert_eq!(
            allowed(Access::Fence),
            ["acquire", "release", "acq_rel", "seq_cst"]
        );
        assert_eq!(Ordering::Relaxed.llvm(), "monotonic");
        assert_eq!(Scope::System.llvm_syncscope(), "");
        assert_eq!(
            Scope::System.effective(Some(AddrSpace::Shared)),
            Scope::Workgroup
        );
        assert_eq!(
            Scope::Wavefront.effective(Some(AddrSpace::Shared)),
            Scope::Wavefront
        );
    }
}
