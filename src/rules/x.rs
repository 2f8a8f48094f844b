//! Sudoku-X: each main diagonal holds every digit once.

use super::rule::{RuleDef, Shape};
use super::table::HouseKind;

/// The rule `x`.
pub(crate) struct X;

/// r1c1 to r9c9.
fn main_diagonal() -> u128 {
    (0..9).fold(0, |m, i| m | 1u128 << (i * 9 + i))
}

/// r1c9 to r9c1.
fn anti_diagonal() -> u128 {
    (0..9).fold(0, |m, i| m | 1u128 << (i * 9 + 8 - i))
}

impl RuleDef for X {
    fn name(&self) -> &'static str {
        "x"
    }

    fn summary(&self) -> &'static str {
        "each main diagonal holds every digit once (Sudoku-X)"
    }

    fn houses(&self) -> Vec<(u128, HouseKind)> {
        vec![
            (main_diagonal(), HouseKind::MainDiagonal),
            (anti_diagonal(), HouseKind::AntiDiagonal),
        ]
    }

    fn house_place(&self, index: u8) -> String {
        ["on the main diagonal", "on the anti-diagonal"][usize::from(index.min(1))].to_string()
    }

    fn mark(&self, cell: usize) -> Option<(char, char)> {
        let (row, col) = (cell / 9, cell % 9);
        match (row == col, row + col == 8) {
            (true, true) => Some(('X', 'X')),
            (true, false) => Some(('\\', '\\')),
            (false, true) => Some(('/', '/')),
            (false, false) => None,
        }
    }

    fn legend(&self) -> Option<&'static str> {
        Some("\\ \\ main diagonal, / / anti-diagonal")
    }

    fn shape(&self) -> Shape {
        Shape {
            diagonals: true,
            ..Shape::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_diagonals_cross_at_the_centre_only() {
        let houses = X.houses();
        assert_eq!(houses.len(), 2);
        for (mask, _) in &houses {
            assert_eq!(mask.count_ones(), 9);
        }
        assert_eq!(houses[0].0 & houses[1].0, 1 << 40);
        assert_eq!(X.mark(40), Some(('X', 'X')));
        assert_eq!(X.mark(1), None);
    }
}
