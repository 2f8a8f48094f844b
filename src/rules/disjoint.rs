//! Disjoint groups: the nine cells at the same place in each 3×3 box (every box's
//! top-left cell, every box's centre, ...) hold every digit once.
//!
//! The whole rule is its nine houses: the table, the givens check and both engines
//! take it from [`RuleDef::houses`] alone (hidden singles, locked candidates and
//! the band engine's extra-house scans), with no code of its own elsewhere.

use super::rule::RuleDef;
use super::table::HouseKind;
use super::Rule;

/// The rule `disjoint`.
pub(crate) struct Disjoint;

/// The cells at place `p` (0..9, row-major within a box) of the nine boxes.
fn group(p: usize) -> u128 {
    let (r, c) = (p / 3, p % 3);
    (0..9).fold(0, |m, b| m | 1u128 << ((b / 3 * 3 + r) * 9 + b % 3 * 3 + c))
}

/// Where a group's cells sit in their boxes, for messages.
const PLACES: [&str; 9] = [
    "top-left",
    "top",
    "top-right",
    "left",
    "centre",
    "right",
    "bottom-left",
    "bottom",
    "bottom-right",
];

impl RuleDef for Disjoint {
    fn name(&self) -> &'static str {
        "disjoint"
    }

    fn summary(&self) -> &'static str {
        "the nine cells at the same place in each box (every top-left cell, every centre, \
         ...) hold every digit once (disjoint groups)"
    }

    fn houses(&self) -> Vec<(u128, HouseKind)> {
        (0..9)
            .map(|p| {
                let kind = HouseKind::Added {
                    rule: Rule::Disjoint,
                    index: p as u8,
                };
                (group(p), kind)
            })
            .collect()
    }

    fn house_place(&self, index: u8) -> String {
        format!(
            "in the disjoint group of the boxes' {} cells",
            PLACES[usize::from(index) % 9]
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::CELLS;

    /// Nine groups of nine that split the grid, each meeting every box, row and
    /// column of the group's place once or not at all.
    #[test]
    fn the_groups_split_the_grid_one_cell_per_box() {
        let houses = Disjoint.houses();
        assert_eq!(houses.len(), 9);
        let all = houses.iter().fold(0u128, |m, &(h, _)| {
            assert_eq!(m & h, 0, "disjoint");
            m | h
        });
        assert_eq!(all, (1u128 << CELLS) - 1);
        for (p, &(h, _)) in houses.iter().enumerate() {
            for cell in super::super::table::cells(h) {
                let (r, c) = (cell / 9, cell % 9);
                assert_eq!((r % 3) * 3 + c % 3, p, "cell {cell}");
            }
        }
        assert_eq!(group(4) >> 40 & 1, 1, "the centre cell is a box centre");
    }
}
