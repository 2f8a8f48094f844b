//! The simplest-first driver: Sudoku Explainer's default technique set, in its order.
//!
//! The first technique (in this order) that applies gives the step; within a
//! technique the first hint in its scan order. The order is Sudoku Explainer's
//! producer order, which is nearly but not exactly by difficulty (uniqueness tests at
//! 4.5+ come before naked quads at 5.0, for example).

use super::board::Board;
use super::hint::Hint;
use super::{aligned, chains, dynamic, fish, links, singles, uniqueness, wings};

/// The first of the expressions (each an `Option`) that is `Some`, tried in turn.
macro_rules! first {
    ($($e:expr),+ $(,)?) => {{
        $(
            if let Some(hint) = $e {
                return Some(hint);
            }
        )+
        None
    }};
}

/// The buffers the producers keep between steps and puzzles (one set per thread).
#[derive(Debug, Default)]
pub struct Producers {
    links: Vec<links::Link>,
    no_chains: links::NoChains,
    no_wings: wings::NoWings,
    no_fish: fish::NoFish,
    no_locking: singles::NoLocking,
    chains: chains::Chains,
    multiple: chains::Multiple,
    dynamic: dynamic::Dynamic,
    aligned: aligned::Aligned,
}

impl Producers {
    /// The next step on the path from `b`, if any technique applies.
    pub fn next_hint(&mut self, b: &Board) -> Option<Hint> {
        let Producers {
            links: buf,
            no_chains,
            no_wings,
            no_fish,
            no_locking,
            chains,
            multiple,
            dynamic,
            aligned,
        } = self;
        // Each producer in turn, the first hint returned at once (an `or_else` chain
        // moved the hint, 170 bytes, through every later link: 45 % of the time
        // on puzzles of singles).
        first! {
            singles::hidden_single(b),
            singles::locking(b, true, no_locking),
            singles::hidden_set(b, 2, true),
            singles::naked_single(b),
            singles::hidden_set(b, 3, true),
            singles::locking(b, false, no_locking),
            singles::naked_set(b, 2),
            fish::fish(b, 2, no_fish),
            singles::hidden_set(b, 2, false),
            singles::naked_set(b, 3),
            fish::fish(b, 3, no_fish),
            singles::hidden_set(b, 3, false),
            links::n_links(b, buf, 2, no_chains),
            wings::xy_wing(b, false),
            wings::xy_wing(b, true),
            uniqueness::unique_loops(b),
            singles::naked_set(b, 4),
            fish::fish(b, 4, no_fish),
            singles::hidden_set(b, 4, false),
            links::n_links(b, buf, 3, no_chains),
            wings::als_wing(b, 3, no_wings),
            uniqueness::bug(b),
            links::n_links(b, buf, 4, no_chains),
            wings::als_wing(b, 4, no_wings),
            aligned.hint(b, 2),
            wings::als_wing(b, 5, no_wings),
            chains.cycles_and_forcing_chains(b),
            wings::als_wing(b, 6, no_wings),
            aligned.hint(b, 3),
            dynamic.hint(b, dynamic::Kind::Nishio),
            multiple.cell_and_region_chains(b, chains),
            dynamic.hint(b, dynamic::Kind::Dynamic),
            dynamic.hint(b, dynamic::Kind::DynamicPlus),
            dynamic.hint(b, dynamic::Kind::Nested(2)),
            dynamic.hint(b, dynamic::Kind::Nested(3)),
            dynamic.hint(b, dynamic::Kind::Nested(4)),
        }
    }
}
