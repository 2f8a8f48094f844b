//! Jigsaw regions: nine irregular regions of nine cells, parsed from an 81-character
//! string or drawn at random as connected shapes.
//!
//! A region string names each cell's region, row-major, with one symbol per cell: a
//! digit `1`–`9` or a letter `A`–`I` (lower case reads as upper case). A symbol only
//! names a region, so a string may use digits, letters or both, as long as it has
//! exactly nine distinct symbols with nine cells each. Regions need not be connected
//! to be valid (the rules do not need it); [`Regions::is_connected`] tells, and random
//! layouts always are.

use std::fmt;

use crate::generate::Rng;
use crate::grid::CELLS;

/// The region of every cell: ids `0..9` numbered in order of first appearance, with the
/// symbol each id was written with.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Regions {
    id: [u8; CELLS],
    symbol: [u8; 9],
}

/// Why a region string was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RegionError {
    /// Not 81 characters.
    #[error("regions: {found} characters, expected 81")]
    Length {
        /// Characters found.
        found: usize,
    },
    /// A character that is neither a digit 1–9 nor a letter A–I.
    #[error("regions: bad character {ch:?} at position {position} (expected 1-9 or A-I)")]
    BadChar {
        /// The character.
        ch: char,
        /// 1-based position in the string.
        position: usize,
    },
    /// A symbol that does not name exactly nine cells.
    #[error("region '{symbol}' has {cells} {}", if *cells == 1 { "cell" } else { "cells" })]
    Size {
        /// The region's symbol (upper case).
        symbol: char,
        /// How many cells it names.
        cells: usize,
    },
}

impl Regions {
    /// The 3×3 boxes as regions (symbols `1`–`9`), the start of random layouts.
    pub fn boxes() -> Regions {
        Regions {
            id: std::array::from_fn(|c| ((c / 27) * 3 + (c % 9) / 3) as u8),
            symbol: std::array::from_fn(|i| b'1' + i as u8),
        }
    }

    /// Read an 81-character region string (see the module docs).
    ///
    /// ```
    /// use bulkdoku::rules::Regions;
    /// let err = Regions::parse(&[b'A'; 80]).unwrap_err();
    /// assert_eq!(err.to_string(), "regions: 80 characters, expected 81");
    /// ```
    pub fn parse(text: &[u8]) -> Result<Regions, RegionError> {
        // Bad characters first (their position is the most useful thing to say), then
        // the length, then the sizes.
        for (i, &byte) in text.iter().enumerate() {
            if symbol_of(byte).is_none() {
                return Err(RegionError::BadChar {
                    ch: char_at(text, i),
                    position: i + 1,
                });
            }
        }
        if text.len() != CELLS {
            return Err(RegionError::Length { found: text.len() });
        }
        // Count per symbol, in order of first appearance.
        let mut symbols: Vec<(u8, usize)> = Vec::with_capacity(9);
        for &byte in text {
            let symbol = symbol_of(byte).expect("checked above");
            match symbols.iter_mut().find(|(s, _)| *s == symbol) {
                Some((_, n)) => *n += 1,
                None => symbols.push((symbol, 1)),
            }
        }
        // A region short of cells is named first: with too many symbols (or one cell
        // moved) that is the one the writer most likely got wrong.
        let wrong = symbols
            .iter()
            .find(|&&(_, n)| n < 9)
            .or_else(|| symbols.iter().find(|&&(_, n)| n > 9));
        if let Some(&(symbol, cells)) = wrong {
            return Err(RegionError::Size {
                symbol: symbol as char,
                cells,
            });
        }
        // 81 cells and every symbol has 9: there are exactly 9 symbols.
        let mut regions = Regions {
            id: [0; CELLS],
            symbol: [0; 9],
        };
        for (i, &(symbol, _)) in symbols.iter().enumerate() {
            regions.symbol[i] = symbol;
        }
        for (cell, &byte) in text.iter().enumerate() {
            let symbol = symbol_of(byte).expect("checked above");
            regions.id[cell] = symbols.iter().position(|&(s, _)| s == symbol).unwrap() as u8;
        }
        Ok(regions)
    }

    /// The region id (`0..9`) of a cell.
    pub fn id(&self, cell: usize) -> usize {
        usize::from(self.id[cell])
    }

    /// The symbol a region id was written with (`'1'`..`'9'` or `'A'`..`'I'`).
    pub fn symbol(&self, id: usize) -> char {
        self.symbol[id] as char
    }

    /// The cells of region `id` as an 81-bit mask (bit `c` for cell `c`).
    pub fn mask(&self, id: usize) -> u128 {
        (0..CELLS)
            .filter(|&c| self.id(c) == id)
            .fold(0, |m, c| m | 1 << c)
    }

    /// The cells of every region at once (index: region id), in one pass over the
    /// grid: a jigsaw file builds a rule table per record from these.
    pub fn masks(&self) -> [u128; 9] {
        let mut masks = [0u128; 9];
        for (cell, &id) in self.id.iter().enumerate() {
            masks[usize::from(id)] |= 1 << cell;
        }
        masks
    }

    /// The 81-character string, one symbol per cell as written (upper case).
    pub fn to_line(&self) -> String {
        self.id
            .iter()
            .map(|&i| self.symbol[usize::from(i)] as char)
            .collect()
    }

    /// True when every region is orthogonally connected.
    pub fn is_connected(&self) -> bool {
        (0..9).all(|id| connected(self.mask(id)))
    }

    /// True when the regions are exactly the 3×3 boxes (whatever their symbols).
    pub fn are_boxes(&self) -> bool {
        let boxes = Regions::boxes();
        (0..9).all(|id| (0..9).any(|b| self.mask(id) == boxes.mask(b)))
    }

    /// A random layout of nine orthogonally connected regions, deterministic per `rng`.
    ///
    /// It starts from the boxes and makes random trades between two neighbouring
    /// regions (a cell of one joins the other, which gives back one of its cells that
    /// touches the first), keeping a trade only when both regions stay connected. Ids
    /// are renumbered by first appearance, with symbols `1`–`9`.
    pub fn random(rng: &mut Rng) -> Regions {
        let mut id: [u8; CELLS] = Regions::boxes().id;
        let mut masks: [u128; 9] = std::array::from_fn(|r| Regions::boxes().mask(r));
        let mut trades = 0;
        let mut tries = 0;
        // Enough accepted trades to lose every trace of the boxes; the try cap only
        // guards against a pathological stream (acceptance is well above 10%).
        while trades < 150 && tries < 20_000 {
            tries += 1;
            let a = rng.below(CELLS as u64) as usize;
            let near = orth_neighbours(a);
            let others = near & !masks[usize::from(id[a])];
            if others == 0 {
                continue;
            }
            let b = nth_bit(others, rng.below(u64::from(others.count_ones())) as usize);
            let (from, to) = (usize::from(id[a]), usize::from(id[b]));
            // `a` moves from `from` to `to`; a cell of `to` touching what is left of
            // `from` moves back.
            let left = masks[from] & !(1u128 << a);
            let back_choices = masks[to] & spread(left);
            if back_choices == 0 {
                continue;
            }
            let back = nth_bit(
                back_choices,
                rng.below(u64::from(back_choices.count_ones())) as usize,
            );
            let new_from = left | 1u128 << back;
            let new_to = (masks[to] & !(1u128 << back)) | 1u128 << a;
            if !connected(new_from) || !connected(new_to) {
                continue;
            }
            masks[from] = new_from;
            masks[to] = new_to;
            id[a] = to as u8;
            id[back] = from as u8;
            trades += 1;
        }
        // Renumber by first appearance so the same layout always reads the same.
        let mut map = [u8::MAX; 9];
        let mut next = 0;
        for cell_id in id.iter_mut() {
            let old = usize::from(*cell_id);
            if map[old] == u8::MAX {
                map[old] = next;
                next += 1;
            }
            *cell_id = map[old];
        }
        Regions {
            id,
            symbol: std::array::from_fn(|i| b'1' + i as u8),
        }
    }
}

impl fmt::Debug for Regions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Regions({})", self.to_line())
    }
}

impl fmt::Display for Regions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_line())
    }
}

/// The region symbol of a byte (upper case), if it is one.
fn symbol_of(byte: u8) -> Option<u8> {
    match byte {
        b'1'..=b'9' | b'A'..=b'I' => Some(byte),
        b'a'..=b'i' => Some(byte.to_ascii_uppercase()),
        _ => None,
    }
}

/// The character starting at byte `i` (whole UTF-8 characters are named as such).
fn char_at(text: &[u8], i: usize) -> char {
    (1..=4)
        .rev()
        .find_map(|n| std::str::from_utf8(text.get(i..i + n)?).ok())
        .and_then(|s| s.chars().next())
        .unwrap_or(char::REPLACEMENT_CHARACTER)
}

/// The orthogonal neighbours of a cell as a mask.
pub(crate) fn orth_neighbours(cell: usize) -> u128 {
    let (r, c) = (cell / 9, cell % 9);
    let mut m = 0u128;
    if r > 0 {
        m |= 1 << (cell - 9);
    }
    if r < 8 {
        m |= 1 << (cell + 9);
    }
    if c > 0 {
        m |= 1 << (cell - 1);
    }
    if c < 8 {
        m |= 1 << (cell + 1);
    }
    m
}

/// `mask` and every cell orthogonally next to it.
fn spread(mask: u128) -> u128 {
    const ALL: u128 = (1 << CELLS) - 1;
    // Shifting by one moves cells along a row; the column masks stop a shift from
    // wrapping a cell into the next or previous row.
    let left = (mask >> 1) & !col_mask(8);
    let right = (mask << 1) & !col_mask(0);
    (mask | left | right | mask >> 9 | mask << 9) & ALL
}

/// The cells of column `col`.
const fn col_mask(col: usize) -> u128 {
    let mut m = 0u128;
    let mut r = 0;
    while r < 9 {
        m |= 1 << (r * 9 + col);
        r += 1;
    }
    m
}

/// True when the cells of `mask` form one orthogonally connected piece (flood fill).
fn connected(mask: u128) -> bool {
    if mask == 0 {
        return true;
    }
    let mut seen = mask & mask.wrapping_neg();
    loop {
        let grown = spread(seen) & mask;
        if grown == seen {
            return seen == mask;
        }
        seen = grown;
    }
}

/// The `n`-th set bit of `mask` (0-based), as a cell index.
fn nth_bit(mut mask: u128, n: usize) -> usize {
    for _ in 0..n {
        mask &= mask - 1;
    }
    mask.trailing_zeros() as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    const LAYOUT: &str =
        "111222333111222333111222333444555666444555666444555666777888999777888999777888999";

    #[test]
    fn parses_and_round_trips() {
        let r = Regions::parse(LAYOUT.as_bytes()).unwrap();
        assert_eq!(r.to_line(), LAYOUT);
        assert!(r.are_boxes() && r.is_connected());
        let letters = LAYOUT.replace('1', "a").replace('2', "B");
        let r2 = Regions::parse(letters.as_bytes()).unwrap();
        assert_eq!(r2.to_line(), LAYOUT.replace('1', "A").replace('2', "B"));
        assert_eq!(r2.id(0), 0);
        assert_eq!(r2.symbol(0), 'A');
        assert_eq!(r2.mask(1), r.mask(1));
    }

    #[test]
    fn errors_say_why() {
        let short = &LAYOUT.as_bytes()[..80];
        assert_eq!(
            Regions::parse(short).unwrap_err().to_string(),
            "regions: 80 characters, expected 81"
        );
        let mut bad = LAYOUT.as_bytes().to_vec();
        bad[11] = b'J';
        assert_eq!(
            Regions::parse(&bad).unwrap_err().to_string(),
            "regions: bad character 'J' at position 12 (expected 1-9 or A-I)"
        );
        bad[11] = b'0';
        assert!(Regions::parse(&bad).is_err());
        // One cell of region 3 given to region 1: '3' has 8 cells, '1' has 10.
        let moved = LAYOUT.replacen('3', "1", 1);
        assert_eq!(
            Regions::parse(moved.as_bytes()).unwrap_err().to_string(),
            "region '3' has 8 cells"
        );
        // Eight symbols: one region has 18 cells.
        let eight = LAYOUT.replace('9', "8");
        assert_eq!(
            Regions::parse(eight.as_bytes()).unwrap_err().to_string(),
            "region '8' has 18 cells"
        );
        let letters = LAYOUT.replace('3', "C").replacen('C', "1", 1);
        assert_eq!(
            Regions::parse(letters.as_bytes()).unwrap_err().to_string(),
            "region 'C' has 8 cells"
        );
        // Ten symbols: the tenth has too few cells.
        let ten = LAYOUT.replacen('9', "A", 1);
        assert_eq!(
            Regions::parse(ten.as_bytes()).unwrap_err().to_string(),
            "region 'A' has 1 cell"
        );
    }

    #[test]
    fn random_layouts_are_connected_valid_and_deterministic() {
        let mut rng = Rng::new(5);
        let mut seen = std::collections::HashSet::new();
        for _ in 0..50 {
            let r = Regions::random(&mut rng);
            let masks = r.masks();
            for (id, &m) in masks.iter().enumerate() {
                assert_eq!(m, r.mask(id), "{r}: region {id}");
            }
            assert_eq!(masks.iter().fold(0, |a, &m| a | m), (1u128 << CELLS) - 1);
            assert!(r.is_connected(), "{r}");
            assert!(!r.are_boxes(), "{r}");
            assert_eq!(Regions::parse(r.to_line().as_bytes()).unwrap(), r);
            assert!(seen.insert(r));
        }
        let a = Regions::random(&mut Rng::new(9));
        let b = Regions::random(&mut Rng::new(9));
        assert_eq!(a, b);
    }

    #[test]
    fn connectivity_is_orthogonal() {
        assert!(connected(0b111));
        assert!(!connected(0b101));
        // r1c9 and r2c1 are consecutive bits but not neighbours.
        assert!(!connected(1 << 8 | 1 << 9));
        assert!(connected(1 << 0 | 1 << 9));
    }
}
