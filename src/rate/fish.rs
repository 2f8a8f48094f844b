//! Basic fish: X-wing (3.2), swordfish (3.8), jellyfish (5.2).

use super::board::{bits, cells, Board, Cells, HOUSE_MASK};
use super::hint::Hint;
use super::memory::NoHint;
use super::singles::combos;

/// For each fish degree (2 to 4) and digit, the digit's positions and placed count
/// on the last position where the fish scan ran to the end without a hint (a fish
/// reads only its digit's positions and count): while both stay the same, the digit
/// has no fish of that degree and is skipped.
#[derive(Debug, Clone, Default)]
pub struct NoFish(NoHint<(Cells, u32), 3>);

impl NoFish {
    /// Whether digit `d` (0-based) of `b` is remembered as having no fish of `degree`.
    #[cfg(test)]
    pub fn remembers(&self, degree: u32, d: usize, b: &Board) -> bool {
        let placed = b.value.iter().filter(|&&v| usize::from(v) == d + 1).count() as u32;
        self.0.knows(degree as usize - 2, d, (b.digit[d], placed))
    }
}

/// A fish of `degree` base lines on one digit: columns as base first, then rows
/// (the digit innermost: skipping a digit with no fish leaves the first hint).
pub fn fish(b: &Board, degree: u32, none: &mut NoFish) -> Option<Hint> {
    let mut placed = [0u32; 9];
    for &v in b.value.iter() {
        if v != 0 {
            placed[(v - 1) as usize] += 1;
        }
    }
    let (none, form) = (&mut none.0, degree as usize - 2);
    let mut skip = 0u16;
    for di in 0..9 {
        if none.knows(form, di, (b.digit[di], placed[di])) {
            skip |= 1 << di;
        }
    }
    // Each digit's positions in every row (houses 9..18) and column (18..27), as
    // line-index masks, and which lines hold two or more of them: a base line must.
    let mut pos = [[0u32; 27]; 9];
    let mut two_plus = [[0u32; 27]; 9];
    for di in 0..9 {
        for c in cells(b.digit[di]) {
            let (r, col) = (c / 9, c % 9);
            pos[di][9 + r] |= 1 << col;
            pos[di][18 + col] |= 1 << r;
        }
        for base in [9usize, 18] {
            for i in 0..9 {
                if pos[di][base + i].count_ones() >= 2 {
                    two_plus[di][base] |= 1 << i;
                }
            }
        }
    }
    // (base type, cover type) as house index bases: columns 18, rows 9
    for (base, cover) in [(18usize, 9usize), (9, 18)] {
        for set in combos(degree) {
            for di in 0..9 {
                if skip >> di & 1 != 0
                    || placed[di] + degree * 2 > 9
                    || set & !two_plus[di][base] != 0
                {
                    continue;
                }
                let dm = b.digit[di];
                let mut union = 0u32;
                for i in bits(set) {
                    union |= pos[di][base + i];
                }
                if union.count_ones() != degree {
                    continue;
                }
                let mut base_cells = 0u128;
                for i in bits(set) {
                    base_cells |= HOUSE_MASK[base + i];
                }
                let mut cover_cells = 0u128;
                for j in bits(union) {
                    cover_cells |= HOUSE_MASK[cover + j];
                }
                let removed = dm & cover_cells & !base_cells;
                if removed == 0 {
                    continue;
                }
                let (name, diff) = match degree {
                    2 => ("X-Wing", 32),
                    3 => ("Swordfish", 38),
                    _ => ("Jellyfish", 52),
                };
                let mut h = Hint::new(name, diff);
                h.elim[di] = removed;
                return Some(h);
            }
        }
    }
    none.remember_all(form, std::array::from_fn(|di| (b.digit[di], placed[di])));
    None
}
