//! Checked output: every byte kc writes to stdout or stderr goes through this module.
//!
//! A write that fails (a pipe whose reader is gone, a full disk, a descriptor not open for
//! writing) is a [`WriteError`], which the driver turns into exit code 2 with a message on
//! stderr when stderr still works ([`fail`]): output is never lost silently and a closed
//! stream never panics (`print!` and `eprint!` do, and Rust's stdout treats a bad descriptor
//! as success). Each text is written in one piece straight to a duplicate of the descriptor,
//! then the write is known to have reached the descriptor: there is no buffer left to flush.

use std::fmt;
use std::fs::File;
use std::io::{self, Write};
use std::os::fd::AsFd;

/// A standard stream.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Stream {
    Stdout,
    Stderr,
}

impl Stream {
    fn name(self) -> &'static str {
        match self {
            Stream::Stdout => "stdout",
            Stream::Stderr => "stderr",
        }
    }

    /// A handle writing straight to the stream's descriptor.
    fn file(self) -> io::Result<File> {
        let fd = match self {
            Stream::Stdout => io::stdout().as_fd().try_clone_to_owned()?,
            Stream::Stderr => io::stderr().as_fd().try_clone_to_owned()?,
        };
        Ok(File::from(fd))
    }
}

/// A failed write to a standard stream.
#[derive(Debug)]
pub struct WriteError {
    pub stream: Stream,
    pub error: io::Error,
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot write to {}: {}", self.stream.name(), self.error)
    }
}

/// Writes all of `text` to `stream`.
pub fn write(stream: Stream, text: &str) -> Result<(), WriteError> {
    if text.is_empty() {
        return Ok(());
    }
    stream
        .file()
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .map_err(|error| WriteError { stream, error })
}

/// Writes `text` to stdout.
pub fn stdout(text: &str) -> Result<(), WriteError> {
    write(Stream::Stdout, text)
}

/// Writes `text` to stderr.
pub fn stderr(text: &str) -> Result<(), WriteError> {
    write(Stream::Stderr, text)
}

/// Reports `e` on stderr (if that fails too, nothing is left to tell) and returns exit code 2.
pub fn fail(e: &WriteError) -> i32 {
    let _ = stderr(&format!("kc: error: {e}\n"));
    2
}

/// Prints `kc: error: MSG` on stderr and returns `code`, or 2 if stderr fails.
pub fn error(msg: &str, code: i32) -> i32 {
    diagnostics(&format!("kc: error: {msg}\n"), code)
}

/// Prints rendered diagnostics on stderr and returns `code`, or 2 if stderr fails.
pub fn diagnostics(text: &str, code: i32) -> i32 {
    match stderr(text) {
        Ok(()) => code,
        Err(_) => 2,
    }
}

/// A clap error or help text: on stderr for errors, on stdout for `--help` / `--version`;
/// returns the exit code (2 for errors and failed writes, else 0).
pub fn clap(e: &clap::Error) -> i32 {
    let (stream, code) = if e.use_stderr() {
        (Stream::Stderr, 2)
    } else {
        (Stream::Stdout, 0)
    };
    let text = e.render();
    let terminal = match stream {
        Stream::Stdout => io::IsTerminal::is_terminal(&io::stdout()),
        Stream::Stderr => io::IsTerminal::is_terminal(&io::stderr()),
    };
    let text = if terminal {
        text.ansi().to_string()
    } else {
        text.to_string()
    };
    match write(stream, &text) {
        Ok(()) => code,
        Err(e) if stream == Stream::Stdout => fail(&e),
        Err(_) => 2,
    }
}

/// A writer to stderr for long streams (traces): it writes through a buffer, remembers the
/// first failure and drops everything after it, so a producer that cannot stop at once (a
/// callback) runs on without output; the owner asks [`StderrSink::finish`] at the end.
pub struct StderrSink {
    out: Option<io::BufWriter<File>>,
    failed: Option<WriteError>,
}

impl StderrSink {
    pub fn new() -> StderrSink {
        match Stream::Stderr.file() {
            Ok(f) => StderrSink {
                out: Some(io::BufWriter::with_capacity(1 << 16, f)),
                failed: None,
            },
            Err(error) => StderrSink {
                out: None,
                failed: Some(WriteError {
                    stream: Stream::Stderr,
                    error,
                }),
            },
        }
    }

    /// Whether a write failed already (later writes are dropped).
    pub fn has_failed(&self) -> bool {
        self.failed.is_some()
    }

    /// Flushes what is buffered; the first failure, if any (reported once).
    pub fn finish(&mut self) -> Result<(), WriteError> {
        let _ = self.flush();
        self.failed.take().map_or(Ok(()), Err)
    }
}

impl Default for StderrSink {
    fn default() -> Self {
        Self::new()
    }
}

impl StderrSink {
    fn record(&mut self, error: io::Error) -> io::Error {
        let kind = error.kind();
        self.failed.get_or_insert(WriteError {
            stream: Stream::Stderr,
            error,
        });
        // Drop what is buffered without trying to write it again.
        if let Some(out) = self.out.take() {
            let _ = out.into_parts();
        }
        io::Error::new(kind, "stderr failed")
    }
}

impl Write for StderrSink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let Some(out) = self.out.as_mut() else {
            return Err(io::Error::other("stderr failed earlier"));
        };
        match out.write_all(buf) {
            Ok(()) => Ok(buf.len()),
            Err(error) => Err(self.record(error)),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        let Some(out) = self.out.as_mut() else {
            return Err(io::Error::other("stderr failed earlier"));
        };
        match out.flush() {
            Ok(()) => Ok(()),
            Err(error) => Err(self.record(error)),
        }
    }
}
