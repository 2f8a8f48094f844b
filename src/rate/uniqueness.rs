//! Uniqueness: unique rectangles and loops (types 1 to 4) and the bivalue universal
//! grave, as Sudoku Explainer rates them (4.5 for a rectangle, 4.6 for a loop of 6,
//! 4.7 for 8, 5.0 for 10 or more; type 3 adds 0.1 per naked-set digit beyond one).

use super::board::{cells, Board, Cells, HOUSES, HOUSE_MASK, PEERS};
use super::hint::Hint;
use super::singles::combos;

/// The three houses of a cell in Sudoku Explainer's region-type order: box, row, column.
fn houses_of(c: usize) -> [usize; 3] {
    let (r, col) = (c / 9, c % 9);
    [(r / 3) * 3 + col / 3, 9 + r, 18 + col]
}

/// Longest loop searched (cells).
const MAX_LOOP: usize = 16;

struct LoopSearch<'a> {
    b: &'a Board,
    pair: u16,
    /// The cells holding both digits of the pair.
    pair_cells: Cells,
    path: [usize; MAX_LOOP],
    len: usize,
    /// The path's cells.
    on_path: Cells,
    /// Houses holding a path cell at an even (`[0]`) or odd (`[1]`) position.
    parity_houses: [u32; 2],
    best: Option<(u8, u8, Hint)>,
}

/// The three houses of a cell as one mask (bit `h` for house `h`).
fn house_bits(c: usize) -> u32 {
    houses_of(c).iter().fold(0, |m, &h| m | 1 << h)
}

/// The easiest unique-loop hint (lowest difficulty, then lowest type).
pub fn unique_loops(b: &Board) -> Option<Hint> {
    let mut s = LoopSearch {
        b,
        pair: 0,
        pair_cells: 0,
        path: [0; MAX_LOOP],
        len: 0,
        on_path: 0,
        parity_houses: [0; 2],
        best: None,
    };
    for start in 0..81 {
        let m = b.cand[start];
        if m.count_ones() != 2 {
            continue;
        }
        s.pair = m;
        s.pair_cells = {
            let (a, z) = (m.trailing_zeros() as usize, 15 - m.leading_zeros() as usize);
            b.digit[a] & b.digit[z]
        };
        s.path[0] = start;
        s.len = 1;
        s.on_path = 1u128 << start;
        s.parity_houses = [house_bits(start), 0];
        s.extend(start, 2, 0, usize::MAX);
    }
    s.best.map(|(_, _, h)| h)
}

impl LoopSearch<'_> {
    fn extend(&mut self, cell: usize, allowed: u32, extra: u16, last_type: usize) {
        // the cells that can come next: those with both digits of the pair, off the
        // path but for its first cell (which closes a loop); in each house in reading
        // order, as a scan of the house would meet them
        let open = self.pair_cells & (!self.on_path | 1u128 << self.path[0]);
        for (t, &h) in houses_of(cell).iter().enumerate() {
            if t == last_type {
                continue;
            }
            for next in cells(HOUSE_MASK[h] & open) {
                if next == self.path[0] {
                    if self.len >= 4 {
                        self.found();
                    }
                    continue;
                }
                // A loop holds two cells of each house it touches, at positions of
                // opposite parity ([`Self::valid`]): a path with two cells of one
                // parity in a house can never close into one, nor can any longer path
                // through it, so the search leaves it here instead of at the end.
                let parity = self.len % 2;
                let houses = house_bits(next);
                if self.parity_houses[parity] & houses != 0 {
                    continue;
                }
                let m = self.b.cand[next];
                let new_extra = (extra | m) & !self.pair;
                let n = m.count_ones();
                if n == 2 || new_extra.count_ones() == 1 || allowed > 0 {
                    if self.len == MAX_LOOP {
                        continue;
                    }
                    self.path[self.len] = next;
                    self.len += 1;
                    self.on_path |= 1u128 << next;
                    self.parity_houses[parity] |= houses;
                    self.extend(
                        next,
                        if n > 2 {
                            allowed.saturating_sub(1)
                        } else {
                            allowed
                        },
                        new_extra,
                        t,
                    );
                    self.len -= 1;
                    self.on_path &= !(1u128 << next);
                    self.parity_houses[parity] &= !houses;
                }
            }
        }
    }

    fn valid(&self) -> bool {
        // every house touched by the loop holds exactly two of its cells, of opposite
        // parity along the loop
        let (mut odd, mut even) = (0u32, 0u32);
        for (i, &c) in self.path[..self.len].iter().enumerate() {
            for h in houses_of(c) {
                let set = if i % 2 == 1 { &mut odd } else { &mut even };
                if *set >> h & 1 != 0 {
                    return false;
                }
                *set |= 1 << h;
            }
        }
        odd == even
    }

    fn found(&mut self) {
        if !self.valid() {
            return;
        }
        let b = self.b;
        let pair = self.pair;
        let len = self.len;
        let base: u8 = match len {
            4 => 45,
            6 => 46,
            8 => 47,
            _ => 50,
        };
        let loop_cells = &self.path[..len];
        let extras: Vec<usize> = loop_cells
            .iter()
            .copied()
            .filter(|&c| b.cand[c].count_ones() > 2)
            .collect();
        let (v1, v2) = (
            pair.trailing_zeros() as usize,
            15 - pair.leading_zeros() as usize,
        );
        match extras.len() {
            0 => {}
            1 => {
                let mut h = Hint::new(name(len, 1), base);
                h.elim[v1] = 1u128 << extras[0];
                h.elim[v2] = 1u128 << extras[0];
                self.offer(h, 1);
            }
            n => {
                let mut others = 0u16;
                for &c in &extras {
                    others |= b.cand[c] & !pair;
                }
                if n > 2 || others.count_ones() == 1 {
                    self.type2(&extras, others, base, len);
                } else {
                    self.type3(extras[0], extras[1], others, base, len);
                }
                if n == 2 {
                    self.type4(extras[0], extras[1], v1, v2, base, len);
                }
            }
        }
    }

    fn offer(&mut self, h: Hint, ty: u8) {
        if !h.removes_any(self.b) {
            return;
        }
        let better = match &self.best {
            None => true,
            Some((d, t, _)) => (h.difficulty, ty) < (*d, *t),
        };
        if better {
            self.best = Some((h.difficulty, ty, h));
        }
    }

    fn type2(&mut self, extras: &[usize], others: u16, base: u8, len: usize) {
        let di = others.trailing_zeros() as usize;
        let mut seen: Cells = super::board::ALL;
        let mut own = 0u128;
        for &c in extras {
            seen &= PEERS[c];
            own |= 1u128 << c;
        }
        let mut h = Hint::new(name(len, 2), base);
        h.elim[di] = seen & !own & self.b.digit[di];
        self.offer(h, 2);
    }

    fn type3(&mut self, c1: usize, c2: usize, extra: u16, base: u8, len: usize) {
        let b = self.b;
        for degree in 2..=7u32 {
            for h in common_houses(c1, c2) {
                let empty = b.empty_count(h);
                if degree * 2 <= empty && degree >= extra.count_ones() {
                    let i1 = HOUSES[h].iter().position(|&c| c as usize == c1).unwrap();
                    let i2 = HOUSES[h].iter().position(|&c| c as usize == c2).unwrap();
                    for set in combos(degree) {
                        if set >> i1 & 1 == 0 || set >> i2 & 1 != 0 {
                            continue;
                        }
                        let mut union = extra;
                        let mut naked = extra & b.cand[c1] & b.cand[c2];
                        let mut ok = extra.count_ones() > 1;
                        let mut members = 1u128 << c1 | 1u128 << c2;
                        for i in super::board::bits(set) {
                            if i == i1 {
                                continue;
                            }
                            let c = HOUSES[h][i] as usize;
                            let m = b.cand[c];
                            if m.count_ones() <= 1 {
                                ok = false;
                                break;
                            }
                            union |= m;
                            naked |= m;
                            members |= 1u128 << c;
                        }
                        if !ok || naked.count_ones() != degree || union.count_ones() != degree {
                            continue;
                        }
                        let mut hint = Hint::new(name(len, 3), base + (degree as u8 - 1));
                        for di in super::board::bits(union as u32) {
                            hint.elim[di] = HOUSE_MASK[h] & !members & b.digit[di];
                        }
                        self.offer(hint, 3);
                    }
                }
                if degree * 2 < empty {
                    self.type3_hidden(c1, c2, extra, h, degree, base, len);
                }
            }
        }
    }

    /// Type 3 with a hidden set: the loop's two digits and `degree - 2` digits of
    /// neither extra cell have, in house `h` and leaving out `c2`, `degree` positions
    /// in all; those cells (bar `c1`) keep only the set's digits. Rated the loop's
    /// difficulty + 0.1 per position beyond two.
    #[allow(clippy::too_many_arguments)]
    fn type3_hidden(
        &mut self,
        c1: usize,
        c2: usize,
        extra: u16,
        h: usize,
        degree: u32,
        base: u8,
        len: usize,
    ) {
        let b = self.b;
        let pair = self.pair;
        let rem = 0x1ff & !pair & !extra;
        let area = HOUSE_MASK[h] & !(1u128 << c2);
        for pick in combos(degree - 2) {
            // `pick` indexes the digits of `rem` in increasing order
            let mut digits = pair;
            let mut k = 0;
            let mut ok = true;
            for d in super::board::bits(rem as u32) {
                if pick >> k & 1 != 0 {
                    digits |= 1 << d;
                }
                k += 1;
            }
            if pick >> k != 0 {
                continue;
            }
            let mut union: Cells = 0;
            for d in super::board::bits(digits as u32) {
                let p = b.digit[d] & area;
                if p == 0 {
                    ok = false;
                    break;
                }
                union |= p;
            }
            if !ok || union.count_ones() != degree {
                continue;
            }
            let others = union & !(1u128 << c1);
            let mut hint = Hint::new(name(len, 3), base + (others.count_ones() as u8 - 1));
            for di in 0..9 {
                if digits >> di & 1 == 0 {
                    hint.elim[di] = others & b.digit[di];
                }
            }
            self.offer(hint, 3);
        }
    }

    fn type4(&mut self, c1: usize, c2: usize, v1: usize, v2: usize, base: u8, len: usize) {
        let b = self.b;
        let both = 1u128 << c1 | 1u128 << c2;
        let (mut lock1, mut lock2) = (false, false);
        for h in common_houses(c1, c2) {
            let rest = HOUSE_MASK[h] & !both;
            lock1 |= rest & b.digit[v1] == 0;
            lock2 |= rest & b.digit[v2] == 0;
        }
        let rem = if lock1 {
            v2
        } else if lock2 {
            v1
        } else {
            return;
        };
        let mut h = Hint::new(name(len, 4), base);
        h.elim[rem] = both;
        self.offer(h, 4);
    }
}

fn common_houses(c1: usize, c2: usize) -> impl Iterator<Item = usize> {
    let (a, b) = (houses_of(c1), houses_of(c2));
    (0..3).filter(move |&t| a[t] == b[t]).map(move |t| a[t])
}

/// Sudoku Explainer's name of a unique rectangle (`len` 4) or loop of `len` cells.
fn name(len: usize, ty: u8) -> &'static str {
    match (len, ty) {
        (4, 1) => "Unique Rectangle type 1",
        (4, 2) => "Unique Rectangle type 2",
        (4, 3) => "Unique Rectangle type 3",
        (4, _) => "Unique Rectangle type 4",
        // Sudoku Explainer names a longer loop with its length: "Unique Loop 6 type 2".
        _ => super::hint::named(format!("Unique Loop {len} type {ty}")),
    }
}

/// Bivalue universal grave, types 1 (5.6) and 2 (5.7): every unsolved cell bivalue and
/// every digit twice per house, but for extra candidates in a few cells; without them
/// the puzzle would have two solutions, so one of them is true. Type 4 (5.7): two such
/// cells in one house with one digit in common besides their extras keep only their
/// extras and that digit. Type 3 is not searched yet.
pub fn bug(b: &Board) -> Option<Hint> {
    let mut temp = *b;
    let mut bug_cells: Cells = 0;
    let mut bug_values = 0u16;
    let mut common: Option<Cells> = None;
    // Sudoku Explainer's revision: when every odd count is on one digit, all the cells
    // with three or more candidates holding it are bug cells.
    let mut all_extra: Option<Cells> = None;
    let mut only_value = 0usize;
    let mut one_value = true;
    // the extra digits of each bug cell
    let mut extra = [0u16; 81];
    let note = |cell: usize,
                di: usize,
                bug_cells: &mut Cells,
                common: &mut Option<Cells>,
                temp: &mut Board,
                extra: &mut [u16; 81]| {
        *bug_cells |= 1u128 << cell;
        extra[cell] |= 1 << di;
        let mut e = [0u128; 9];
        e[di] = 1u128 << cell;
        temp.eliminate(&e);
        let c = common.get_or_insert(PEERS[cell]);
        *c &= PEERS[cell];
        *c &= !*bug_cells;
    };
    for h in 0..27 {
        for di in 0..9 {
            let pos = b.digit[di] & HOUSE_MASK[h];
            let n = pos.count_ones();
            if n == 0 || n == 2 {
                continue;
            }
            let mut fat: Cells = 0;
            for c in super::board::cells(pos) {
                if b.cand[c].count_ones() >= 3 {
                    fat |= 1u128 << c;
                }
            }
            match all_extra {
                None => {
                    all_extra = Some(fat);
                    only_value = di;
                }
                Some(ref mut a) if one_value => {
                    if only_value == di {
                        *a |= fat;
                    } else {
                        one_value = false;
                    }
                }
                _ => {}
            }
            if fat.count_ones() == 1 {
                let cell = fat.trailing_zeros() as usize;
                bug_values |= 1 << di;
                note(cell, di, &mut bug_cells, &mut common, &mut temp, &mut extra);
                if bug_cells.count_ones() > 1
                    && bug_values.count_ones() > 1
                    && common.unwrap_or(0) == 0
                {
                    return None;
                }
            }
            if fat == 0 {
                return None;
            }
        }
    }
    if let Some(a) = all_extra {
        if one_value && a.count_ones() > bug_cells.count_ones() {
            for cell in super::board::cells(a & !bug_cells) {
                note(
                    cell,
                    only_value,
                    &mut bug_cells,
                    &mut common,
                    &mut temp,
                    &mut extra,
                );
                if bug_cells.count_ones() > 1
                    && bug_values.count_ones() > 1
                    && common.unwrap_or(0) == 0
                {
                    return None;
                }
            }
        }
    }
    if bug_cells == 0 {
        return None;
    }
    for c in super::board::cells(temp.empty) {
        if temp.cand[c].count_ones() != 2 {
            return None;
        }
    }
    for h in 0..27 {
        for di in 0..9 {
            let n = (temp.digit[di] & HOUSE_MASK[h]).count_ones();
            if n != 0 && n != 2 {
                return None;
            }
        }
    }
    if bug_cells.count_ones() == 1 {
        let cell = bug_cells.trailing_zeros() as usize;
        let mut h = Hint::new("BUG type 1", 56);
        for di in super::board::bits((b.cand[cell] & !bug_values) as u32) {
            h.elim[di] = 1u128 << cell;
        }
        return h.removes_any(b).then_some(h);
    }
    if bug_values.count_ones() == 1 {
        let di = bug_values.trailing_zeros() as usize;
        let mut h = Hint::new("BUG type 2", 57);
        h.elim[di] = common.unwrap_or(0) & b.digit[di];
        if h.removes_any(b) {
            return Some(h);
        }
    } else if common.unwrap_or(0) == 0 {
        return None;
    }
    if bug_cells.count_ones() == 2 {
        let c1 = bug_cells.trailing_zeros() as usize;
        let c2 = 127 - bug_cells.leading_zeros() as usize;
        let shared = houses_of(c1)
            .iter()
            .zip(houses_of(c2))
            .any(|(a, b)| *a == b);
        let v = b.cand[c1] & b.cand[c2] & !bug_values;
        if shared && v.count_ones() == 1 {
            let mut h = Hint::new("BUG type 4", 57);
            for c in [c1, c2] {
                for di in super::board::bits((b.cand[c] & !extra[c] & !v) as u32) {
                    h.elim[di] |= 1u128 << c;
                }
            }
            return h.removes_any(b).then_some(h);
        }
    }
    None
}
