//! Errors of dependencies that are neither `Clone` nor `PartialEq` (rasn's, `std::io`'s), shared
//! so that this crate's error enums can be both.

use std::fmt;
use std::sync::Arc;

/// An error of a dependency, shared. Two are equal when they are the same error or say the same
/// thing. Display and source are the inner error's.
#[derive(Debug)]
pub struct Shared<E>(Arc<E>);

impl<E> Shared<E> {
    pub fn new(e: E) -> Self {
        Shared(Arc::new(e))
    }

    /// The wrapped error.
    pub fn inner(&self) -> &E {
        &self.0
    }
}

impl<E> Clone for Shared<E> {
    fn clone(&self) -> Self {
        Shared(Arc::clone(&self.0))
    }
}

impl<E: fmt::Display> PartialEq for Shared<E> {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || self.0.to_string() == other.0.to_string()
    }
}

impl<E: fmt::Display> Eq for Shared<E> {}

impl<E: fmt::Display> fmt::Display for Shared<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl<E: std::error::Error> std::error::Error for Shared<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.source()
    }
}
