//! Anti-king: two cells a king's move apart (diagonal neighbours included) never hold
//! the same digit.

use super::rule::{offsets_masks, RuleDef, Shape};
use crate::grid::CELLS;

/// Cell offsets a king's move away.
const KING: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

/// The cells a king's move from each cell, built at compile time (the givens check
/// runs per puzzle).
pub(crate) static KING_MASKS: [u128; CELLS] = offsets_masks(&KING);

/// The rule `anti-king`.
pub(crate) struct AntiKing;

impl RuleDef for AntiKing {
    fn name(&self) -> &'static str {
        "anti-king"
    }

    fn summary(&self) -> &'static str {
        "two cells a king's move apart (diagonal neighbours included) never hold the same \
         digit"
    }

    fn peers(&self, cell: usize) -> u128 {
        KING_MASKS[cell]
    }

    fn shape(&self) -> Shape {
        Shape {
            king: true,
            ..Shape::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_corner_has_three_king_peers_and_the_centre_eight() {
        assert_eq!(AntiKing.peers(0), 1 << 1 | 1 << 9 | 1 << 10);
        assert_eq!(AntiKing.peers(40).count_ones(), 8);
    }
}
