//! The law of leftovers for jigsaw layouts: set-based inference between lines and
//! regions.
//!
//! Any `k` rows (or columns) and any `k` regions hold each digit `k` times, so the cells
//! of the rows outside the regions (`A`) hold the very digits, with the same
//! multiplicities, as the cells of the regions outside the rows (`B`): what the two
//! sets share cancels out. Hence a digit with no place left in `B` has none in `A`
//! either, and the other way round. For each run of consecutive rows (and of columns)
//! the `k` regions that overlap it most give the smallest pair; pairs of up to
//! [`MAX_SIDE`] cells a side are kept, the smallest first, at most [`MAX_PAIRS`].
//!
//! With the 3×3 boxes these pairs are empty (whole bands) or a line against a box,
//! which says nothing locked candidates do not; only jigsaw layouts have pairs that
//! pay, so only they get pairs.

use crate::grid::CELLS;

/// Cells a side of a kept pair: bigger pairs seldom have a digit missing from a side.
pub(crate) const MAX_SIDE: u32 = 6;

/// Pairs kept at most.
pub(crate) const MAX_PAIRS: usize = 40;
// The rule table marks each cell's pairs in one `u64`.
const _: () = assert!(MAX_PAIRS <= 64);

/// Row `i` (0..9) and column `i` (9..18) as cell sets.
const LINES: [u128; 18] = {
    let mut lines = [0u128; 18];
    let mut i = 0;
    while i < 9 {
        let mut j = 0;
        while j < 9 {
            lines[i] |= 1u128 << (i * 9 + j);
            lines[9 + i] |= 1u128 << (j * 9 + i);
            j += 1;
        }
        i += 1;
    }
    lines
};

/// The leftover pairs `(A, B)` of a layout given by its nine region masks, smallest
/// first (at most [`MAX_PAIRS`]; the rest of the array is zero), and their number.
///
/// Built once per layout (per record of a jigsaw file), so it is kept cheap: each run
/// of lines grows one line at a time with the regions' overlap counts, and the `k`
/// regions that overlap it most are those whose key (overlap down, then region number
/// up) has fewer than `k` keys below it, without sorting the nine.
pub(crate) fn pairs(regions: &[u128; 9]) -> ([(u128, u128); MAX_PAIRS], usize) {
    // every run of lines gives at most one pair: 2 * (45 - 1) runs
    let mut found = [(0u128, 0u128); 88];
    let mut n = 0;
    for cols in [false, true] {
        let lines_of = &LINES[if cols { 9..18 } else { 0..9 }];
        for start in 0..9 {
            let mut overlap = [0u32; 9];
            let mut lines = 0u128;
            for end in start + 1..=9 {
                let line = lines_of[end - 1];
                lines |= line;
                for (o, &r) in overlap.iter_mut().zip(regions) {
                    *o += (r & line).count_ones();
                }
                let k = end - start;
                if k == 9 {
                    continue;
                }
                // The k smallest keys: the regions with fewer than k keys below theirs
                // (keys differ; counting ranks costs less than sorting them).
                let keys: [u32; 9] = std::array::from_fn(|r| (81 - overlap[r]) << 4 | r as u32);
                let mut chosen = 0u128;
                for (&key, &region) in keys.iter().zip(regions) {
                    let rank: usize = keys.iter().map(|&o| usize::from(o < key)).sum();
                    if rank < k {
                        chosen |= region;
                    }
                }
                let a = lines & !chosen;
                let b = chosen & !lines;
                debug_assert_eq!(a.count_ones(), b.count_ones());
                let side = a.count_ones();
                if side == 0 || side > MAX_SIDE {
                    continue;
                }
                let pair = if a < b { (a, b) } else { (b, a) };
                if !found[..n].contains(&pair) {
                    found[n] = pair;
                    n += 1;
                }
            }
        }
    }
    // stable: pairs of one size keep the order found
    found[..n].sort_by_key(|&(a, _)| a.count_ones());
    let mut out = [(0u128, 0u128); MAX_PAIRS];
    let n = n.min(MAX_PAIRS);
    out[..n].copy_from_slice(&found[..n]);
    debug_assert!(out.iter().all(|&(a, b)| (a | b) >> CELLS == 0));
    (out, n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Regions;

    /// The pairs as first written (every run of lines built afresh, the regions
    /// sorted by overlap each time): the reference the fast [`pairs`] must equal.
    fn pairs_reference(regions: &[u128; 9]) -> ([(u128, u128); MAX_PAIRS], usize) {
        let line = |cols: bool, i: usize| -> u128 {
            (0..9).fold(0, |m, j| {
                let cell = if cols { j * 9 + i } else { i * 9 + j };
                m | 1u128 << cell
            })
        };
        let mut found: Vec<(u128, u128)> = Vec::new();
        for cols in [false, true] {
            for start in 0..9 {
                for end in start + 1..=9 {
                    let k = end - start;
                    if k == 9 {
                        continue;
                    }
                    let lines = (start..end).fold(0u128, |m, i| m | line(cols, i));
                    let mut order: [usize; 9] = std::array::from_fn(|r| r);
                    order.sort_by_key(|&r| std::cmp::Reverse((regions[r] & lines).count_ones()));
                    let chosen = order[..k].iter().fold(0u128, |m, &r| m | regions[r]);
                    let a = lines & !chosen;
                    let b = chosen & !lines;
                    let side = a.count_ones();
                    if side == 0 || side > MAX_SIDE {
                        continue;
                    }
                    let pair = if a < b { (a, b) } else { (b, a) };
                    if !found.contains(&pair) {
                        found.push(pair);
                    }
                }
            }
        }
        found.sort_by_key(|&(a, _)| a.count_ones());
        let mut out = [(0u128, 0u128); MAX_PAIRS];
        let n = found.len().min(MAX_PAIRS);
        out[..n].copy_from_slice(&found[..n]);
        (out, n)
    }

    #[test]
    fn pairs_equal_the_reference_on_generated_layouts() {
        let mut rng = crate::generate::Rng::new(2026);
        let mut with_pairs = 0;
        for _ in 0..300 {
            let r = Regions::random(&mut rng);
            let m = r.masks();
            let got = pairs(&m);
            assert_eq!(got, pairs_reference(&m));
            with_pairs += usize::from(got.1 > 0);
        }
        assert!(with_pairs > 250, "{with_pairs} layouts with pairs");
    }

    #[test]
    fn boxes_have_only_line_against_box_pairs() {
        // Whole bands cancel out; what is left is a line against a box (or a box
        // against two lines of its band), six cells a side, within one band.
        let (p, n) = pairs(&Regions::boxes().masks());
        assert!(n > 0);
        let band = |m: u128, cols: bool| -> Vec<usize> {
            let mut b: Vec<usize> = (0..CELLS)
                .filter(|&c| m >> c & 1 != 0)
                .map(|c| if cols { c % 9 / 3 } else { c / 27 })
                .collect();
            b.dedup();
            b.sort_unstable();
            b.dedup();
            b
        };
        for &(a, b) in &p[..n] {
            assert_eq!(a.count_ones(), 6);
            assert_eq!(b.count_ones(), 6);
            let same = |cols| band(a | b, cols).len() == 1;
            assert!(same(false) || same(true), "{a:x} {b:x}");
        }
    }

    #[test]
    fn a_region_poking_out_of_the_top_row_makes_a_one_cell_pair() {
        // Region 1 is the top row less r1c9, plus r2c1; region 2 takes r1c9.
        let text = "111111112\
                    122222222\
                    333333333\
                    444444444\
                    555555555\
                    666666666\
                    777777777\
                    888888888\
                    999999999";
        let r = Regions::parse(text.as_bytes()).unwrap();
        let (p, n) = pairs(&r.masks());
        assert!(n >= 1);
        // The top row against region 1: r1c9 against r2c1.
        let want = {
            let (a, b) = (1u128 << 8, 1u128 << 9);
            if a < b {
                (a, b)
            } else {
                (b, a)
            }
        };
        assert!(p[..n].contains(&want), "{:?}", &p[..n]);
        // Every pair has equal sides, disjoint, within the grid, smallest first.
        for w in p[..n].windows(2) {
            assert!(w[0].0.count_ones() <= w[1].0.count_ones());
        }
        for &(a, b) in &p[..n] {
            assert_eq!(a.count_ones(), b.count_ones());
            assert_eq!(a & b, 0);
        }
        assert!(p[n..].iter().all(|&x| x == (0, 0)));
    }
}
