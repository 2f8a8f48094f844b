//! SIGINT and SIGTERM: stop reading, cut the searches under way, write the rows of the
//! records done, exit 130 / 143.
//!
//! The first signal sets the stop flag. The dataset driver reads no more records, and
//! every search watching the flag ([`bulkdoku::stop`]) gives up at its next guess, so a
//! run ends within a moment even in the middle of a record that would take hours. The
//! rows of the records done, in input order up to the first one whose search was cut,
//! are written; that record and the ones after it get no row, so every output ends on a
//! whole row and `--resume` starts again from the cut record. The command exits with
//! 128 + the signal's number, as a shell reports a process killed by it. A second
//! signal, when the first one was not enough (someone pressing Ctrl-C again), ends the
//! process at once.

use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

/// The signals a run watches for.
#[derive(Debug, Clone)]
pub struct Signals {
    stop: Arc<AtomicBool>,
    which: Arc<AtomicUsize>,
}

impl Signals {
    /// Watch for SIGINT and SIGTERM (on Unix; elsewhere nothing is watched).
    pub fn install() -> Signals {
        let signals = Signals {
            stop: Arc::new(AtomicBool::new(false)),
            which: Arc::new(AtomicUsize::new(0)),
        };
        #[cfg(unix)]
        for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
            use signal_hook::flag;
            // Registration fails only for forbidden signals; these two are not. If it
            // did fail, the default (end the process) would remain: no harm done.
            let code = 128 + signal;
            let _ = flag::register_conditional_shutdown(signal, code, Arc::clone(&signals.stop));
            let _ = flag::register_usize(signal, Arc::clone(&signals.which), signal as usize);
            let _ = flag::register(signal, Arc::clone(&signals.stop));
        }
        signals
    }

    /// The flag a signal sets: give it to the dataset driver (whose work hands it on
    /// to the searches).
    pub fn flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// The exit code a signal received calls for (130 for SIGINT, 143 for SIGTERM).
    pub fn exit_code(&self) -> Option<ExitCode> {
        match self.which.load(Ordering::Relaxed) {
            0 => None,
            signal => Some(ExitCode::from((128 + signal).min(255) as u8)),
        }
    }
}
