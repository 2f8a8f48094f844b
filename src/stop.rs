//! A stop request that long searches watch.
//!
//! A single record's search can run for minutes (counting the solutions of an empty
//! grid up to a large limit), so a signal that only stopped the reading of records
//! would leave the user waiting for it. Each engine's guess loop therefore looks at a
//! [`StopFlag`] once per guess, a relaxed load that costs nothing next to a guess, and
//! gives up when it is set. A search given up that way has found too little to say
//! anything about its puzzle: its [`crate::Outcome::cut`] says so, and the caller must
//! not report its counts as a verdict.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The flag a search gives up on (e.g. the one [`crate::dataset::Driver::stop_flag`]
/// watches, set by a signal handler). The default is never set.
#[derive(Debug, Clone, Default)]
pub struct StopFlag(Option<Arc<AtomicBool>>);

impl StopFlag {
    /// Give up once `flag` is set.
    pub fn new(flag: Arc<AtomicBool>) -> StopFlag {
        StopFlag(Some(flag))
    }

    /// A flag that is never set: searches run to their end.
    pub fn never() -> StopFlag {
        StopFlag(None)
    }

    /// True once a stop was asked for.
    #[inline(always)]
    pub fn is_set(&self) -> bool {
        match &self.0 {
            Some(flag) => flag.load(Ordering::Relaxed),
            None => false,
        }
    }
}
