//! Windoku: four extra 3×3 windows, each holding every digit once.

use super::rule::{square, RuleDef, Shape};
use super::table::HouseKind;
use crate::grid::cell_name;

/// Top-left cells (row, column, 0-based) of the four windows.
pub(crate) const WINDOWS: [(usize, usize); 4] = [(1, 1), (1, 5), (5, 1), (5, 5)];

/// The rule `windoku`.
pub(crate) struct Windoku;

/// Every window cell.
fn window_cells() -> u128 {
    WINDOWS.iter().fold(0, |m, &(r, c)| m | square(r, c))
}

impl RuleDef for Windoku {
    fn name(&self) -> &'static str {
        "windoku"
    }

    fn summary(&self) -> &'static str {
        "each of the four windows whose top-left cells are r2c2, r2c6, r6c2 and r6c6 \
         holds every digit once"
    }

    fn houses(&self) -> Vec<(u128, HouseKind)> {
        WINDOWS
            .iter()
            .enumerate()
            .map(|(w, &(r, c))| (square(r, c), HouseKind::Window(w as u8)))
            .collect()
    }

    fn house_place(&self, index: u8) -> String {
        let (r, c) = WINDOWS[usize::from(index) % 4];
        format!("in the window at {}", cell_name(r * 9 + c))
    }

    fn mark(&self, cell: usize) -> Option<(char, char)> {
        (window_cells() >> cell & 1 != 0).then_some(('[', ']'))
    }

    fn legend(&self) -> Option<&'static str> {
        Some("[ ] windows")
    }

    fn shape(&self) -> Shape {
        Shape {
            windows: true,
            ..Shape::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_disjoint_windows_of_nine() {
        let all = Windoku.houses().iter().fold(0u128, |m, &(h, _)| {
            assert_eq!(h.count_ones(), 9);
            assert_eq!(m & h, 0);
            m | h
        });
        assert_eq!(all.count_ones(), 36);
        assert_eq!(Windoku.house_place(3), "in the window at r6c6");
    }
}
