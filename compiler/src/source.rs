//! Source positions and files: the one place both the AST (spans on every node) and the
//! diagnostics (rendering a span as `file:line:col` with the source line) depend on.

/// Index of a source file in the driver's file table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct FileId(pub u32);

/// A byte range `start..end` in one source file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Span {
    pub file: FileId,
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(file: FileId, start: usize, end: usize) -> Span {
        // Files larger than 4 GiB are rejected by the driver; saturate anyway.
        let clamp = |v: usize| u32::try_from(v).unwrap_or(u32::MAX);
        Span {
            file,
            start: clamp(start),
            end: clamp(end),
        }
    }

    /// The smallest span covering both `self` and `other`.
    pub fn to(self, other: Span) -> Span {
        Span {
            file: self.file,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
}

/// One source file: its display name and full text.
#[derive(Debug, Clone)]
pub struct SourceFile {
    pub id: FileId,
    pub name: String,
    pub text: String,
    line_starts: Vec<u32>,
}

impl SourceFile {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> SourceFile {
        SourceFile::with_id(FileId(0), name, text)
    }

    pub fn with_id(id: FileId, name: impl Into<String>, text: impl Into<String>) -> SourceFile {
        let text = text.into();
        let line_starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i as u32 + 1))
            .collect();
        SourceFile {
            id,
            name: name.into(),
            text,
            line_starts,
        }
    }

    /// 1-based line and column (in bytes) of a byte offset.
    pub fn line_col(&self, offset: u32) -> (u32, u32) {
        let line = self
            .line_starts
            .partition_point(|&s| s <= offset)
            .saturating_sub(1);
        let col = offset - self.line_starts.get(line).copied().unwrap_or(0);
        (line as u32 + 1, col + 1)
    }

    /// 0-based index of the line holding byte `offset` (the last line past the end).
    pub fn line_index(&self, offset: usize) -> usize {
        let offset = u32::try_from(offset).unwrap_or(u32::MAX);
        self.line_starts
            .partition_point(|&s| s <= offset)
            .saturating_sub(1)
    }

    /// The byte range of line `index` (0-based), its newline included; empty past the end.
    pub fn line_range(&self, index: usize) -> std::ops::Range<usize> {
        let Some(&start) = self.line_starts.get(index) else {
            return self.text.len()..self.text.len();
        };
        let end = self
            .line_starts
            .get(index + 1)
            .map_or(self.text.len(), |&e| e as usize);
        start as usize..end
    }

    /// The source text under `span` (empty if the span is out of range).
    pub fn snippet(&self, span: Span) -> &str {
        self.text
            .get(span.start as usize..span.end as usize)
            .unwrap_or("")
    }
}
