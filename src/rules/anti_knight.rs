//! Anti-knight: two cells a chess knight's move apart never hold the same digit.

use super::rule::{offsets_masks, RuleDef, Shape};
use crate::grid::CELLS;

/// Cell offsets (row, column) a knight's move away.
const KNIGHT: [(i32, i32); 8] = [
    (-2, -1),
    (-2, 1),
    (-1, -2),
    (-1, 2),
    (1, -2),
    (1, 2),
    (2, -1),
    (2, 1),
];

/// The cells a knight's move from each cell, built at compile time.
pub(crate) static KNIGHT_MASKS: [u128; CELLS] = offsets_masks(&KNIGHT);

/// The rule `anti-knight`.
pub(crate) struct AntiKnight;

impl RuleDef for AntiKnight {
    fn name(&self) -> &'static str {
        "anti-knight"
    }

    fn summary(&self) -> &'static str {
        "two cells a chess knight's move apart never hold the same digit"
    }

    fn peers(&self, cell: usize) -> u128 {
        KNIGHT_MASKS[cell]
    }

    fn shape(&self) -> Shape {
        Shape {
            knight: true,
            ..Shape::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_corner_has_two_knight_peers_and_the_centre_eight() {
        assert_eq!(AntiKnight.peers(0), 1 << 11 | 1 << 19);
        assert_eq!(AntiKnight.peers(40).count_ones(), 8);
        for c in 0..CELLS {
            for d in super::super::table::cells(AntiKnight.peers(c)) {
                assert!(AntiKnight.peers(d) >> c & 1 != 0, "symmetric");
            }
        }
    }
}
