//! Progress of long work: libraries report it, the program decides how to show it (a
//! terminal bar, a log, nothing), so that no library writes to standard error.

/// Receives the progress of one piece of work; every method defaults to nothing.
pub trait Progress: Sync {
    /// The work has `total` steps.
    fn start(&self, _total: u64) {}
    /// One more step is starting (or done, for work counted after the fact); `what` names it.
    fn step(&self, _what: &str) {}
    /// The work is over.
    fn finish(&self) {}
}

/// Shows nothing.
pub struct Silent;

impl Progress for Silent {}
