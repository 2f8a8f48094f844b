//! Chains of two to four strong links on one digit joined by weak links (skyscraper,
//! 2-string kite, turbot fish, their grouped forms, and the 3- and 4-link versions),
//! rated as Sudoku Explainer's "strong links" family: 4.0 / 5.4 / 5.8 for parallel
//! lines, +0.1 or +0.2 for mixed house types, +0.3 when a link comes from a house with
//! more than two positions (a grouped link).

use super::board::{bits, cells, Board, Cells, HOUSES, HOUSE_MASK, PEERS};
use super::hint::Hint;
use super::memory::NoHint;

/// One strong link on a digit: at least one of its two ends holds the digit. An end is
/// one cell or, for a grouped link (a house with more than two positions in one of the
/// shapes below), a group of cells in one line of the house; a box's group may include
/// the box's "heart" cell (the crossing of the two blades) even without the digit, as
/// Sudoku Explainer draws it.
#[derive(Clone, Copy, Debug)]
pub struct Link {
    house: usize,
    ends: [Cells; 2],
    /// every position of the digit in the house
    positions: Cells,
    grouped: bool,
    /// the houses holding all of each end (bit `h`)
    within: [u32; 2],
}

/// Houses with more positions than this give no link (Sudoku Explainer's limit).
const GROUPED_MAX: u32 = 6;

/// The type of a house as Sudoku Explainer numbers it: 0 box, 1 row, 2 column.
fn house_type(h: usize) -> u8 {
    (h / 9) as u8
}

/// The houses holding every cell of `set` (bit `h` for house `h`).
fn within(set: Cells) -> u32 {
    let c = set.trailing_zeros() as usize;
    let mut m = 0;
    for h in [(c / 27) * 3 + (c % 9) / 3, 9 + c / 9, 18 + c % 9] {
        if set & !HOUSE_MASK[h] == 0 {
            m |= 1 << h;
        }
    }
    m
}

/// Of the houses in `m` (at most one box, one row and one column), the one Sudoku
/// Explainer names first: the column, else the row, else the box; the highest bit.
fn first_house(m: u32) -> usize {
    31 - m.leading_zeros() as usize
}

/// Sudoku Explainer's name of a chain of strong links whose houses are of `kinds` (in
/// chain order, 0 box, 1 row, 2 column), `grouped` of them grouped: its family, then
/// a suffix of the grouped links' count and the kinds as serate writes them (the
/// smaller of the chain's two directions as digits; then, with a row in it, the
/// smallest of that, it with rows and columns swapped and that backwards; without a
/// row, columns written 1): "Skyscraper 011",
/// "2 Strong links 001", "Grouped 3-String Kite 1112", "(3 Strong Links) X-Loop 0111".
/// Parallel lines alone are skyscrapers; lines of both kinds alone, up to three links,
/// a string kite; anything with a box (or four links of both line kinds) "strong links".
fn chain_name(kinds: &[u8], grouped: usize, is_loop: bool) -> &'static str {
    let n = kinds.len();
    let digits = |v: &[u8]| -> String { v.iter().map(|k| char::from(b'0' + k)).collect() };
    let backwards: Vec<u8> = kinds.iter().rev().copied().collect();
    let read = if digits(kinds) <= digits(&backwards) {
        kinds.to_vec()
    } else {
        backwards
    };
    let swap = |k: &u8| match k {
        1 => 2,
        2 => 1,
        k => *k,
    };
    let lines = if read.contains(&1) {
        let swapped: Vec<u8> = read.iter().map(swap).collect();
        let swapped_back: Vec<u8> = swapped.iter().rev().copied().collect();
        [digits(&read), digits(&swapped), digits(&swapped_back)]
            .into_iter()
            .min()
            .expect("three readings")
    } else {
        // columns only (with boxes): written as lines of the first kind
        read.iter()
            .map(|&k| if k == 2 { '1' } else { char::from(b'0' + k) })
            .collect()
    };
    let (boxes, both) = (lines.contains('0'), lines.contains('2'));
    let g = if grouped > 0 { "Grouped " } else { "" };
    let family = if is_loop {
        format!("({n} Strong Links) {g}X-Loop")
    } else {
        match (boxes, both) {
            (false, false) if n < 3 => format!("{g}Skyscraper"),
            (false, false) => format!("{g}{n} Skyscrapers"),
            (false, true) if n < 4 => format!("{g}{n}-String Kite"),
            _ => format!("{g}{n} Strong links"),
        }
    };
    super::hint::named(format!("{family} {grouped}{lines}"))
}

/// The strong links of one digit in house `h`, pushed to `out`.
fn links_in(dm: Cells, h: usize, out: &mut Vec<Link>) {
    let pos = dm & HOUSE_MASK[h];
    let n = pos.count_ones();
    if !(2..=GROUPED_MAX).contains(&n) {
        return;
    }
    if n == 2 {
        let a = pos.trailing_zeros() as usize;
        let b = 127 - pos.leading_zeros() as usize;
        // a box's two positions in one line: that line's link, not the box's
        if h < 9 && within(pos) >> 9 != 0 {
            return;
        }
        out.push(Link {
            house: h,
            ends: [1u128 << a, 1u128 << b],
            positions: pos,
            grouped: false,
            within: [within(1u128 << a), within(1u128 << b)],
        });
        return;
    }
    let local: u32 = (0..9)
        .filter(|&i| pos >> HOUSES[h][i] & 1 != 0)
        .map(|i| 1u32 << i)
        .sum();
    // The first shape that holds every position: for a box, a "heart" cell whose row
    // and column (within the box) hold them all, else two of its rows or columns; for
    // a line, two of its three box segments.
    let mut found = None;
    if h < 9 {
        for e in 0..15usize {
            if e > 8 && n < 4 {
                continue;
            }
            let (empty, b1, b2, heart) = box_config(e);
            if local & empty == 0 {
                found = Some((local & b1, local & b2, heart));
                break;
            }
        }
    } else {
        for e in 0..3usize {
            let seg = 0b111u32 << (3 * e);
            if local & seg == 0 {
                let others: Vec<u32> = (0..3)
                    .filter(|&s| s != e)
                    .map(|s| local & (0b111 << (3 * s)))
                    .collect();
                found = Some((others[0], others[1], None));
                break;
            }
        }
    }
    let Some((blade1, blade2, heart)) = found else {
        return;
    };
    if blade1 == 0 || blade2 == 0 {
        return;
    }
    let to_cells = |m: u32| -> Cells {
        let mut c = 0u128;
        for i in 0..9 {
            if m >> i & 1 != 0 {
                c |= 1u128 << HOUSES[h][i];
            }
        }
        c
    };
    let heart_cell = heart.map_or(0, |i: usize| to_cells(1 << i));
    let heart_pos = heart_cell & dm;
    let (g1, g2) = (to_cells(blade1), to_cells(blade2));
    let mut push = |a: Cells, b: Cells| {
        out.push(Link {
            house: h,
            ends: [a, b],
            positions: pos,
            grouped: true,
            within: [within(a), within(b)],
        })
    };
    match (blade1.count_ones() == 1, blade2.count_ones() == 1) {
        // one blade a single cell: the other blade with the heart is the group
        (true, false) => push(g1, g2 | heart_cell),
        (false, true) => push(g2, g1 | heart_cell),
        // both single (the heart holds the digit): Sudoku Explainer keeps one link,
        // the second blade alone against the first with the heart
        (true, true) => push(g2, g1 | heart_cell),
        // both groups; the heart, when it holds the digit, goes with each
        (false, false) => push(g1 | heart_pos, g2 | heart_pos),
    }
}

/// Box configuration `e` as (cells that must be empty, blade 1, blade 2, heart), local
/// indices 0..9 in reading order. 0..9: a heart cell, blades its column and row; 9..15:
/// an empty row or column, blades the other two.
fn box_config(e: usize) -> (u32, u32, u32, Option<usize>) {
    if e < 9 {
        let (r, c) = (e / 3, e % 3);
        let row = 0b111u32 << (3 * r);
        let col = 0b1001001u32 << c;
        let empty = 0x1ff & !row & !col;
        (empty, col & !(1 << e), row & !(1 << e), Some(e))
    } else if e < 12 {
        // empty row 2, 1, 0; blades the other rows in order
        let er = 11 - e;
        let rows: Vec<u32> = (0..3)
            .filter(|&r| r != er)
            .map(|r| 0b111u32 << (3 * r))
            .collect();
        (0b111 << (3 * er), rows[0], rows[1], None)
    } else {
        let ec = 14 - e;
        let cols: Vec<u32> = (0..3)
            .filter(|&c| c != ec)
            .map(|c| 0b1001001u32 << c)
            .collect();
        (0b1001001 << ec, cols[0], cols[1], None)
    }
}

/// The best hint so far: (difficulty, eliminations, hint).
type Best = Option<(u8, u32, Hint)>;

/// A chain being built: links (index into the buffer) and the end each is entered at.
struct Search<'a> {
    b: &'a Board,
    links: &'a [Link],
    di: usize,
    n: usize,
    chain: [(usize, usize); 4],
    /// the shared house of each weak link
    shared: [usize; 3],
    /// the links with an end inside each house (bit `j` for link `j`)
    at: [u32; 27],
    best: Best,
}

/// The easiest chain of `n` strong links on one digit (2, 3 or 4), each joined to the
/// next by a weak link (the end left and the end entered lying in one house). The
/// digit goes from every cell that sees all of both free ends, outside the chain's
/// houses; when the free ends share a house the chain is a loop and each weak link
/// removes the digit where it sees both its sides. Rated 4.0 / 5.4 / 5.8 for `n` links,
/// +0.3 when a link is grouped, else +0.1 when the links mix a box with lines or rows
/// with columns, +0.2 when both. Among hints the easiest, then the one removing most.
///
/// `none` remembers, per length, the digit boards on which no chain was found (see
/// [`NoChains`]); those digits are skipped while their boards stay the same.
pub fn n_links(b: &Board, buf: &mut Vec<Link>, n: usize, none: &mut NoChains) -> Option<Hint> {
    let mut best: Best = None;
    let (none, form) = (&mut none.0, n - 2);
    for di in 0..9 {
        let dm = b.digit[di];
        if none.knows(form, di, dm) {
            continue;
        }
        // Only a search that had no bound to beat shows that the digit has no chain.
        let unbounded = best.is_none();
        buf.clear();
        for h in 0..27 {
            links_in(dm, h, buf);
        }
        if buf.len() < n {
            continue;
        }
        // one link at most per house: the links fit a u32
        debug_assert!(buf.len() <= 27);
        let mut at = [0u32; 27];
        for (j, l) in buf.iter().enumerate() {
            for h in bits(l.within[0] | l.within[1]) {
                at[h] |= 1 << j;
            }
        }
        let mut s = Search {
            b,
            links: buf,
            di,
            n,
            chain: [(0, 0); 4],
            shared: [0; 3],
            at,
            best: best.take(),
        };
        for i in 0..buf.len() {
            for entry in 0..2 {
                s.chain[0] = (i, entry);
                s.extend(1, buf[i].positions);
            }
        }
        best = s.best;
        if unbounded && best.is_none() {
            none.remember(form, di, dm);
        }
    }
    best.map(|(_, _, h)| h)
}

/// The digit boards on which [`n_links`] found no chain of 2, 3 and 4 links. A chain
/// reads nothing but its digit's board (its links, the cells its ends see, what it
/// removes), so on the same board the search finds nothing again: on a hard puzzle
/// most steps change one or two digits, and the other digits' searches are skipped.
#[derive(Debug, Clone, Default)]
pub struct NoChains(NoHint<Cells, 3>);

impl NoChains {
    /// Whether the board `dm` of digit `d` (0-based) is remembered as having no chain
    /// of `n` links.
    #[cfg(test)]
    pub fn remembers(&self, n: usize, d: usize, dm: Cells) -> bool {
        self.0.knows(n - 2, d, dm)
    }
}

impl Search<'_> {
    fn end(&self, k: usize, exit: bool) -> Cells {
        let (i, entry) = self.chain[k];
        self.links[i].ends[entry ^ exit as usize]
    }

    fn end_within(&self, k: usize, exit: bool) -> u32 {
        let (i, entry) = self.chain[k];
        self.links[i].within[entry ^ exit as usize]
    }

    fn extend(&mut self, depth: usize, used: Cells) {
        if depth == self.n {
            self.complete();
            return;
        }
        let exit = self.end_within(depth - 1, true);
        // a chain and its reverse are one: the last link comes after the first
        let from = if depth + 1 == self.n {
            self.chain[0].0 + 1
        } else {
            0
        };
        // only links with an end in a house of the exit can follow; in index order
        let mut next = 0u32;
        for h in bits(exit) {
            next |= self.at[h];
        }
        next &= !((1u32 << from) - 1);
        for j in bits(next) {
            let l = &self.links[j];
            if l.positions & used != 0 {
                continue;
            }
            let positions = l.positions;
            for entry in 0..2 {
                let common = exit & self.links[j].within[entry];
                if common == 0 {
                    continue;
                }
                self.chain[depth] = (j, entry);
                self.shared[depth - 1] = first_house(common);
                self.extend(depth + 1, used | positions);
            }
        }
    }

    fn complete(&mut self) {
        let n = self.n;
        let dm = self.b.digit[self.di];
        let mut houses: Cells = 0;
        for k in 0..n {
            houses |= HOUSE_MASK[self.links[self.chain[k].0].house];
        }
        let sees_all = |set: Cells| {
            let mut v = dm;
            for c in cells(set) {
                v &= PEERS[c];
            }
            v
        };
        let (start, end) = (self.end(0, false), self.end(n - 1, true));
        let is_loop = self.end_within(0, false) & self.end_within(n - 1, true) != 0;
        let (elim, count) = if is_loop {
            // a loop: every weak link, and the one closing it, becomes strong
            let mut elim = sees_all(start | end) & !houses;
            let mut count = elim.count_ones();
            for k in 0..n - 1 {
                let v = sees_all(self.end(k, true) | self.end(k + 1, false)) & !houses;
                count += v.count_ones();
                elim |= v;
            }
            (elim, count)
        } else {
            let mut out = houses;
            for &sh in &self.shared[..n - 1] {
                out |= HOUSE_MASK[sh];
            }
            let elim = sees_all(start | end) & !out;
            (elim, elim.count_ones())
        };
        if elim == 0 {
            return;
        }
        let links = &self.chain[..n];
        let grouped = links.iter().any(|&(k, _)| self.links[k].grouped);
        let types: u32 = links
            .iter()
            .map(|&(k, _)| 1u32 << house_type(self.links[k].house))
            .fold(0, |m, t| m | t);
        let has_box = types & 1 != 0;
        let both_lines = types & 0b110 == 0b110;
        let base: u8 = match n {
            2 => 40,
            3 => 54,
            _ => 58,
        };
        let diff = base
            + if grouped {
                3
            } else {
                has_box as u8 + both_lines as u8
            };
        let better = match &self.best {
            None => true,
            Some((d, c, _)) => diff < *d || (diff == *d && count > *c),
        };
        if better {
            let mut kinds = [0u8; 4];
            let mut grouped_links = 0;
            for (kind, &(k, _)) in kinds.iter_mut().zip(links) {
                *kind = house_type(self.links[k].house);
                grouped_links += usize::from(self.links[k].grouped);
            }
            let mut h = Hint::new(chain_name(&kinds[..n], grouped_links, is_loop), diff);
            h.elim[self.di] = elim;
            self.best = Some((diff, count, h));
        }
    }
}
