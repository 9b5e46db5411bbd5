//! Source locations, MLIR `FileLineColLoc` style.
//!
//! A location names a file by index into the IR's file table, so it is 12 bytes and `Copy`.
//! Locations are set by the front end from source spans and copied by every pass onto the ops
//! it creates, so the listing can cite the source line of each instruction.

/// Index of a file name in [`crate::Ir::files`].
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct FileId(pub u32);

/// `loc("file":line:col)`, or unknown.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Loc {
    pub file: FileId,
    pub line: u32,
    pub col: u32,
}

impl Loc {
    pub const UNKNOWN: Loc = Loc {
        file: FileId(u32::MAX),
        line: 0,
        col: 0,
    };
    pub fn is_known(self) -> bool {
        self.file.0 != u32::MAX
    }
}

impl Default for Loc {
    fn default() -> Self {
        Loc::UNKNOWN
    }
}
