//! The simplest-first driver: Sudoku Explainer's default technique set, in its order.
//!
//! The first technique (in this order) that applies gives the step; within a
//! technique the first hint in its scan order. The order is Sudoku Explainer's
//! producer order, which is nearly but not exactly by difficulty (uniqueness tests at
//! 4.5+ come before naked quads at 5.0, for example).

use super::board::Board;
use super::hint::Hint;
use super::{aligned, chains, dynamic, fish, links, singles, uniqueness, wings};

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
        singles::hidden_single(b)
            .or_else(|| singles::locking(b, true, no_locking))
            .or_else(|| singles::hidden_set(b, 2, true))
            .or_else(|| singles::naked_single(b))
            .or_else(|| singles::hidden_set(b, 3, true))
            .or_else(|| singles::locking(b, false, no_locking))
            .or_else(|| singles::naked_set(b, 2))
            .or_else(|| fish::fish(b, 2, no_fish))
            .or_else(|| singles::hidden_set(b, 2, false))
            .or_else(|| singles::naked_set(b, 3))
            .or_else(|| fish::fish(b, 3, no_fish))
            .or_else(|| singles::hidden_set(b, 3, false))
            .or_else(|| links::n_links(b, buf, 2, no_chains))
            .or_else(|| wings::xy_wing(b, false))
            .or_else(|| wings::xy_wing(b, true))
            .or_else(|| uniqueness::unique_loops(b))
            .or_else(|| singles::naked_set(b, 4))
            .or_else(|| fish::fish(b, 4, no_fish))
            .or_else(|| singles::hidden_set(b, 4, false))
            .or_else(|| links::n_links(b, buf, 3, no_chains))
            .or_else(|| wings::als_wing(b, 3, no_wings))
            .or_else(|| uniqueness::bug(b))
            .or_else(|| links::n_links(b, buf, 4, no_chains))
            .or_else(|| wings::als_wing(b, 4, no_wings))
            .or_else(|| aligned.hint(b, 2))
            .or_else(|| wings::als_wing(b, 5, no_wings))
            .or_else(|| chains.cycles_and_forcing_chains(b))
            .or_else(|| wings::als_wing(b, 6, no_wings))
            .or_else(|| aligned.hint(b, 3))
            .or_else(|| dynamic.hint(b, dynamic::Kind::Nishio))
            .or_else(|| multiple.cell_and_region_chains(b, chains))
            .or_else(|| dynamic.hint(b, dynamic::Kind::Dynamic))
            .or_else(|| dynamic.hint(b, dynamic::Kind::DynamicPlus))
            .or_else(|| dynamic.hint(b, dynamic::Kind::Nested(2)))
            .or_else(|| dynamic.hint(b, dynamic::Kind::Nested(3)))
    }
}
