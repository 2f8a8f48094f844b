//! Basic fish: X-wing (3.2), swordfish (3.8), jellyfish (5.2).

use super::board::{bits, Board, HOUSE_MASK};
use super::hint::Hint;
use super::singles::combos;

/// A fish of `degree` base lines on one digit: columns as base first, then rows.
pub fn fish(b: &Board, degree: u32) -> Option<Hint> {
    let mut placed = [0u32; 9];
    for &v in b.value.iter() {
        if v != 0 {
            placed[(v - 1) as usize] += 1;
        }
    }
    // (base type, cover type) as house index bases: columns 18, rows 9
    for (base, cover) in [(18usize, 9usize), (9, 18)] {
        for set in combos(degree) {
            for di in 0..9 {
                if placed[di] + degree * 2 > 9 {
                    continue;
                }
                let dm = b.digit[di];
                let mut union = 0u32;
                let mut ok = true;
                for i in bits(set) {
                    let p = line_positions(dm, base + i);
                    if p.count_ones() <= 1 {
                        ok = false;
                        break;
                    }
                    union |= p;
                }
                if !ok || union.count_ones() != degree {
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
    None
}

/// Positions (index within the line) of a digit's cells in row or column `h`.
#[inline]
fn line_positions(dm: u128, h: usize) -> u32 {
    let mut m = 0;
    for (i, &c) in super::board::HOUSES[h].iter().enumerate() {
        if dm >> c & 1 != 0 {
            m |= 1 << i;
        }
    }
    m
}
