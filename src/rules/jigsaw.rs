//! Jigsaw: nine irregular regions of nine cells replace the 3×3 boxes. The regions
//! come with each puzzle ([`super::Regions`], `regions.rs`); the law of leftovers the
//! engines use is `leftovers.rs`.

use super::rule::RuleDef;

/// The rule `jigsaw`.
pub(crate) struct Jigsaw;

impl RuleDef for Jigsaw {
    fn name(&self) -> &'static str {
        "jigsaw"
    }

    fn summary(&self) -> &'static str {
        "nine irregular regions of nine cells, given with the puzzle, replace the 3×3 boxes"
    }

    fn replaces_boxes(&self) -> bool {
        true
    }
}
