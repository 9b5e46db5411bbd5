//! The memory ordering and scope of the synchronizing builtins (the atomics and `fence`):
//! up to two bare names after the builtin's own arguments, ordering first
//! (`atomic_add(&p[i], v, acq_rel, agent)`), each defaulting to what kc's atomics always were
//! (`kc_dialect::sync::Sync::default_for`: `seq_cst`; `agent` scope on global memory and for
//! fences, `workgroup` on shared memory). The names are not keywords: in these positions only
//! they are accepted, elsewhere they are ordinary identifiers. The rules are LLVM's
//! (`kc_dialect::sync::Ordering::allowed`); a wrong name or combination is a diagnostic at the
//! argument.

use super::{Checker, Diagnostic};
use crate::ast::{self, Expr, ExprKind};
use crate::builtins::Builtin;
use kc_dialect::registry::{ORDERINGS, SCOPES};
use kc_dialect::sync::{self, Ordering, Scope, Sync};
use kc_dialect::AddrSpace;

/// The bare name an argument is, if it is one.
fn bare_name(e: &Expr) -> Option<&str> {
    match &e.kind {
        ExprKind::Name(n) => Some(&n.name),
        _ => None,
    }
}

fn one_of(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    quoted.join(", ")
}

impl Checker<'_> {
    /// Resolves the ordering and scope arguments `extra` of call `call` to builtin `b`, which
    /// accesses memory in `space` (None: a fence), into `Checked::syncs`.
    pub(super) fn sync_args(
        &mut self,
        call: &Expr,
        b: Builtin,
        extra: &[Expr],
        space: Option<ast::AddrSpace>,
    ) {
        let space = space.map(|s| match s {
            ast::AddrSpace::Global => AddrSpace::Global,
            ast::AddrSpace::Shared => AddrSpace::Shared,
        });
        let mut s = Sync::default_for(space);
        if let Some(a) = extra.first() {
            match self.ordering_arg(b, a) {
                Some(o) => s.ordering = o,
                None => return,
            }
        }
        if let Some(a) = extra.get(1) {
            match self.scope_arg(b, a) {
                Some(sc) => s.scope = sc,
                None => return,
            }
        }
        let access = sync::access(b.def().op).expect("a synchronizing builtin's op synchronizes");
        if !s.ordering.allowed(access) {
            let allowed: Vec<&str> = Ordering::ALL
                .iter()
                .filter(|o| o.allowed(access))
                .map(|o| o.name())
                .collect();
            self.error(
                Diagnostic::error(
                    format!("`{b}` cannot be `{}`", s.ordering.name()),
                    extra[0].span,
                    sync::rule(access, s.ordering),
                )
                .with_note(format!("`{b}` takes {}", one_of(&allowed))),
            );
            return;
        }
        if let Some(slot) = self.out.syncs.get_mut(call.id.index()) {
            *slot = Some(s);
        }
    }

    fn ordering_arg(&mut self, b: Builtin, a: &Expr) -> Option<Ordering> {
        let name = bare_name(a);
        if let Some(o) = name.and_then(Ordering::from_name) {
            return Some(o);
        }
        let mut d = Diagnostic::error(
            format!(
                "expected a memory ordering as argument {} of `{b}`",
                b.arity() + 1
            ),
            a.span,
            "not a memory ordering",
        )
        .with_note(format!("the orderings are {}", one_of(ORDERINGS)));
        if name.is_some_and(|n| Scope::from_name(n).is_some()) {
            d = d.with_note(format!(
                "the ordering comes before the scope: `{b}(..., seq_cst, {})`",
                name.unwrap_or_default()
            ));
        }
        self.error(d);
        None
    }

    fn scope_arg(&mut self, b: Builtin, a: &Expr) -> Option<Scope> {
        let name = bare_name(a);
        if let Some(s) = name.and_then(Scope::from_name) {
            return Some(s);
        }
        let mut d = Diagnostic::error(
            format!("expected a scope as argument {} of `{b}`", b.arity() + 2),
            a.span,
            "not a scope",
        )
        .with_note(format!("the scopes are {}", one_of(SCOPES)));
        if name.is_some_and(|n| Ordering::from_name(n).is_some()) {
            d = d.with_note("a call takes one ordering, then the scope");
        }
        self.error(d);
        None
    }
}

/// A call of synchronizing builtin `b` with every argument, for diagnostics.
pub(super) fn example(b: Builtin) -> String {
    let (args, ordering) = match b {
        Builtin::Fence => ("", "acq_rel"),
        Builtin::AtomicLoad => ("&p[i], ", "acquire"),
        Builtin::AtomicStore => ("&p[i], v, ", "release"),
        Builtin::AtomicCmpXchg => ("&p[i], cmp, new, ", "acq_rel"),
        _ => ("&p[i], v, ", "acq_rel"),
    };
    format!("{b}({args}{ordering}, agent)")
}
