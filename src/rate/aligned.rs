//! Aligned pair exclusion (6.2) and aligned triplet exclusion (7.5).
//!
//! Take two (or three) cells, the *base*, and the cells that see every base cell and
//! hold only two candidates (up to three for the triplet), the *excluders*. A choice of
//! one candidate per base cell is impossible when two base cells that see each other
//! take the same digit, or when it uses up every candidate of an excluder (that cell
//! would be left empty). A candidate of a base cell that is part of no possible choice
//! is removed.
//!
//! The scan follows Sudoku Explainer's: base cells are the cells of two or more
//! candidates with at least one excluder of their own, in reading order; pairs are
//! taken as (0,1), (0,2), (1,2), (0,3), ... over that list; a triplet's third cell
//! comes from the excluders of the first two that are base cells themselves (the
//! first cell's in reading order, then the second's), and a set needs two common
//! excluders. The first set that removes anything is the hint.

use super::board::{bits, cells, Board, Cells, PEERS};
use super::hint::Hint;

/// Aligned exclusion of `degree` cells (2 or 3), with no memory of earlier positions.
#[cfg(test)]
pub fn aligned_exclusion(b: &Board, degree: u32) -> Option<Hint> {
    Aligned::default().hint(b, degree)
}

/// Aligned exclusion that remembers, for each degree, the last position on which its
/// scan ran to the end without a hint.
///
/// Whether a set of base cells removes anything depends only on the candidates of
/// the base cells and, among the cells that see them all (its *region*), on which are
/// excluders (two to `degree` candidates) and what the excluders whose candidates all
/// lie among the base cells' hold (the others never block a choice). A set whose base
/// cells kept their candidates, and whose region's changed cells were no excluder on
/// the remembered position and are none now, or were and are excluders holding a
/// digit outside the base cells' both times, would be scanned there too (its cells
/// were base cells, with as many common excluders) with the same excluders that
/// count, and removed nothing; so it removes nothing now and is skipped. The scan
/// order is unchanged, so the first set that removes anything, the hint, is the
/// same.
#[derive(Debug, Clone, Default)]
pub struct Aligned {
    /// Candidates of the remembered position of degree 2 and 3 (index `degree - 2`),
    /// when there is one.
    clean: [Option<[u16; 81]>; 2],
}

impl Aligned {
    /// Aligned exclusion of `degree` cells (2 or 3).
    pub fn hint(&mut self, b: &Board, degree: u32) -> Option<Hint> {
        debug_assert!(degree == 2 || degree == 3);
        let slot = degree as usize - 2;
        let (hint, scanned) = scan(b, degree, self.clean[slot].as_ref());
        if scanned && hint.is_none() {
            self.clean[slot] = Some(b.cand);
        }
        hint
    }
}

/// Whether a set of base cells could remove something now though it removed nothing
/// on the remembered position `snap`: one of its cells changed, or a cell of its
/// region among `moved` (changed cells that were or are excluders) that was or is an
/// excluder holding only digits of the base cells (`union`), or that is one now and
/// was none then or the other way round.
#[inline]
fn may_differ(b: &Board, snap: &[u16; 81], set: Cells, region: Cells, moved: &Moved) -> bool {
    if set & moved.changed != 0 {
        return true;
    }
    let around = region & moved.small_either;
    if around == 0 {
        return false;
    }
    if around & moved.flipped != 0 {
        return true;
    }
    let union = cells(set).fold(0u16, |m, c| m | b.cand[c]);
    cells(around).any(|c| b.cand[c] & !union == 0 || snap[c] & !union == 0)
}

/// The cells that changed since the remembered position, and those of them that
/// can change an outcome.
struct Moved {
    /// Cells whose candidates differ.
    changed: Cells,
    /// Changed cells that are excluders now or were then.
    small_either: Cells,
    /// Changed cells that are excluders now and were none then, or the other way.
    flipped: Cells,
}

/// The scan of [`Aligned::hint`], skipping the sets that [`may_differ`] clears
/// against the remembered position `snap`; whether the scan ran (no early exit) with
/// the hint it found.
fn scan(b: &Board, degree: u32, snap: Option<&[u16; 81]>) -> (Option<Hint>, bool) {
    // cells whose candidates can exclude: 2..=degree candidates
    let mut small: Cells = 0;
    for c in cells(b.empty) {
        let n = b.cand[c].count_ones();
        if n == 1 {
            // Sudoku Explainer skips a cell with a naked single in sight; the singles
            // come first in the order, so this never holds on the rating path.
            return (None, false);
        }
        if n <= degree {
            small |= 1u128 << c;
        }
    }
    let mut base_set: Cells = 0;
    for c in cells(b.empty) {
        if PEERS[c] & small != 0 {
            base_set |= 1u128 << c;
        }
    }
    if base_set.count_ones() < degree {
        return (None, false);
    }
    let is_small = |m: u16| (2..=degree).contains(&m.count_ones());
    let fresh = [0u16; 81];
    let (snap, moved) = match snap {
        Some(snap) => {
            let mut moved = Moved {
                changed: 0,
                small_either: 0,
                flipped: 0,
            };
            for c in 0..81 {
                if snap[c] != b.cand[c] {
                    let bit = 1u128 << c;
                    moved.changed |= bit;
                    let (now, then) = (is_small(b.cand[c]), is_small(snap[c]));
                    if now || then {
                        moved.small_either |= bit;
                    }
                    if now != then {
                        moved.flipped |= bit;
                    }
                }
            }
            (snap, moved)
        }
        // no remembered position: every set may differ
        None => (
            &fresh,
            Moved {
                changed: super::board::ALL,
                small_either: 0,
                flipped: 0,
            },
        ),
    };
    for c1 in cells(base_set) {
        // The base cells before `c1` (in reading order, the scan's) that see two or
        // more of its peers that can exclude: every set of `c1` with an earlier cell
        // needs two common excluders, so only these pair with it (same pairs, same
        // order, without testing the others one by one).
        let (mut once, mut twice) = (0 as Cells, 0 as Cells);
        for e in cells(PEERS[c1] & small) {
            twice |= once & PEERS[e];
            once |= PEERS[e];
        }
        for c0 in cells(twice & base_set & ((1u128 << c1) - 1)) {
            let common01 = PEERS[c0] & PEERS[c1] & small;
            debug_assert!(common01.count_ones() >= 2);
            let pair = 1u128 << c0 | 1u128 << c1;
            if degree == 2 {
                if may_differ(b, snap, pair, PEERS[c0] & PEERS[c1], &moved) {
                    if let Some(h) = exclude(b, &[c0, c1], common01) {
                        return (Some(h), true);
                    }
                }
                continue;
            }
            let mut first = PEERS[c0] & small & base_set & !pair;
            let mut second = PEERS[c1] & small & base_set & !pair & !first;
            if pair & moved.changed == 0 && PEERS[c0] & PEERS[c1] & moved.small_either == 0 {
                // every triplet's region lies in the pair's: only a changed third
                // cell can make it differ (`may_differ`)
                first &= moved.changed;
                second &= moved.changed;
            }
            for c2 in cells(first).chain(cells(second)) {
                let common = common01 & PEERS[c2];
                if common.count_ones() >= 2
                    && may_differ(
                        b,
                        snap,
                        pair | 1u128 << c2,
                        PEERS[c0] & PEERS[c1] & PEERS[c2],
                        &moved,
                    )
                {
                    if let Some(h) = exclude(b, &[c0, c1, c2], common) {
                        return (Some(h), true);
                    }
                }
            }
        }
    }
    (None, true)
}

/// The eliminations of base `set` with excluders `common`, if any.
fn exclude(b: &Board, set: &[usize], common: Cells) -> Option<Hint> {
    // Only an excluder whose candidates all lie among the base cells' can ever be used
    // up by a choice: the others never block one and are left out.
    let union = set.iter().fold(0u16, |m, &c| m | b.cand[c]);
    let mut excl = [0u16; 20];
    let mut ne = 0;
    for e in cells(common) {
        if b.cand[e] & !union == 0 {
            excl[ne] = b.cand[e];
            ne += 1;
        }
    }
    let excl = &excl[..ne];
    let sees = |i: usize, j: usize| PEERS[set[i]] >> set[j] & 1 != 0;
    // A candidate `p` of a base cell stays when the other base cells can take digits
    // no excluder holds beside it (differing where they see each other or the cell):
    // an excluder, of two or more candidates, all held, is then never used up. When
    // that holds for every candidate of every base cell, nothing is removed.
    let held = excl.iter().fold(0u16, |m, &e| m | e);
    let free = |i: usize, p: usize, j: usize| {
        let f = b.cand[set[j]] & !held;
        if sees(i, j) {
            f & !(1 << p)
        } else {
            f
        }
    };
    let stays = |i: usize, p: usize| match set.len() {
        2 => free(i, p, 1 - i) != 0,
        _ => {
            let (j, k) = [(1, 2), (0, 2), (0, 1)][i];
            let (fj, fk) = (free(i, p, j), free(i, p, k));
            fj != 0 && fk != 0 && !(sees(j, k) && fj == fk && fj.count_ones() == 1)
        }
    };
    if (0..set.len()).all(|i| bits(b.cand[set[i]] as u32).all(|p| stays(i, p))) {
        return None;
    }
    let blocked = |m: u16| excl.iter().any(|&e| e & !m == 0);
    let mut allowed = [0u16; 3];
    let m0 = b.cand[set[0]] as u32;
    let m1 = b.cand[set[1]] as u32;
    let s01 = sees(0, 1);
    let (s02, s12) = if set.len() == 3 {
        (sees(0, 2), sees(1, 2))
    } else {
        (false, false)
    };
    let m2 = if set.len() == 3 { b.cand[set[2]] } else { 0 };
    // What the excluders block beside two digits `m` of the first two cells, read
    // from tables instead of each excluder in turn: an excluder of two digits held by
    // `m` blocks every third digit, one with one digit in `m` blocks its other digit
    // (`partner`), one of three digits with two in `m` blocks its third (`third`).
    let mut partner = [0u16; 9];
    let mut both = [0u16; 9];
    let mut third = [0u16; 81];
    if set.len() == 3 {
        for &e in excl {
            let ds = e as u32;
            if e.count_ones() == 2 {
                let (x, y) = (
                    ds.trailing_zeros() as usize,
                    31 - ds.leading_zeros() as usize,
                );
                partner[x] |= 1 << y;
                partner[y] |= 1 << x;
                both[x] |= 1 << y;
                both[y] |= 1 << x;
            } else {
                for x in bits(ds) {
                    for y in bits(ds & !(1 << x)) {
                        third[x * 9 + y] |= e & !(1 << x | 1 << y);
                    }
                }
            }
        }
    }
    for p0 in bits(m0) {
        for p1 in bits(m1) {
            if p0 == p1 && s01 {
                continue;
            }
            let m = 1u16 << p0 | 1u16 << p1;
            if set.len() == 2 {
                if !blocked(m) {
                    allowed[0] |= 1 << p0;
                    allowed[1] |= 1 << p1;
                }
                continue;
            }
            // The third digits that leave no excluder used up with `m`: an excluder
            // held by `m` alone blocks every one, an excluder with one digit outside
            // `m` blocks that digit, one with two or more outside blocks none.
            let mut kill = partner[p0] | partner[p1] | third[p0 * 9 + p1];
            if both[p0] >> p1 & 1 != 0 {
                kill = u16::MAX;
            }
            if s02 {
                kill |= 1 << p0;
            }
            if s12 {
                kill |= 1 << p1;
            }
            let a2 = m2 & !kill;
            if a2 != 0 {
                allowed[0] |= 1 << p0;
                allowed[1] |= 1 << p1;
                allowed[2] |= a2;
                if allowed[0] as u32 == m0 && allowed[1] as u32 == m1 && allowed[2] == m2 {
                    // every candidate is part of some choice
                    return None;
                }
            }
        }
    }
    let (name, diff) = if set.len() == 2 {
        ("Aligned Pair Exclusion", 62)
    } else {
        ("Aligned Triplet Exclusion", 75)
    };
    let mut h = Hint::new(name, diff);
    let mut any = false;
    for (i, &c) in set.iter().enumerate() {
        let gone = b.cand[c] & !allowed[i];
        for di in bits(gone as u32) {
            h.elim[di] |= 1u128 << c;
            any = true;
        }
    }
    any.then_some(h)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The candidates of each base cell that are part of some possible choice, by
    /// trying every choice (no shortcut).
    fn allowed_by_every_choice(b: &Board, set: &[usize], common: Cells) -> Vec<u16> {
        let excl: Vec<u16> = cells(common).map(|e| b.cand[e]).collect();
        let mut allowed = vec![0u16; set.len()];
        let mut choice = vec![0usize; set.len()];
        fn walk(
            b: &Board,
            set: &[usize],
            excl: &[u16],
            i: usize,
            choice: &mut Vec<usize>,
            allowed: &mut Vec<u16>,
        ) {
            if i == set.len() {
                let m = choice.iter().fold(0u16, |m, &p| m | 1 << p);
                if excl.iter().all(|&e| e & !m != 0) {
                    for (a, &p) in allowed.iter_mut().zip(choice.iter()) {
                        *a |= 1 << p;
                    }
                }
                return;
            }
            for p in bits(b.cand[set[i]] as u32) {
                let clash = (0..i).any(|j| choice[j] == p && PEERS[set[i]] >> set[j] & 1 != 0);
                if !clash {
                    choice[i] = p;
                    walk(b, set, excl, i + 1, choice, allowed);
                }
            }
        }
        walk(b, set, &excl, 0, &mut choice, &mut allowed);
        allowed
    }

    /// The first set's hint in the scan order the module describes, every pair of
    /// base cells tried in turn (no shortcut, no memory).
    fn first_hint_of_every_set(b: &Board, degree: u32) -> Option<Hint> {
        let open: Vec<usize> = cells(b.empty).collect();
        if open.iter().any(|&c| b.cand[c].count_ones() == 1) {
            return None;
        }
        let small: Cells = open
            .iter()
            .filter(|&&c| b.cand[c].count_ones() <= degree)
            .fold(0, |m, &c| m | 1u128 << c);
        let base: Vec<usize> = open
            .into_iter()
            .filter(|&c| PEERS[c] & small != 0)
            .collect();
        let base_set = base.iter().fold(0 as Cells, |m, &c| m | 1u128 << c);
        for n in 1..base.len() {
            for &c0 in &base[..n] {
                let c1 = base[n];
                let common01 = PEERS[c0] & PEERS[c1] & small;
                if common01.count_ones() < 2 {
                    continue;
                }
                if degree == 2 {
                    if let Some(h) = exclude(b, &[c0, c1], common01) {
                        return Some(h);
                    }
                    continue;
                }
                let pair = 1u128 << c0 | 1u128 << c1;
                let first = PEERS[c0] & small & base_set & !pair;
                let second = PEERS[c1] & small & base_set & !pair & !first;
                for c2 in cells(first).chain(cells(second)) {
                    let common = common01 & PEERS[c2];
                    if common.count_ones() >= 2 {
                        if let Some(h) = exclude(b, &[c0, c1, c2], common) {
                            return Some(h);
                        }
                    }
                }
            }
        }
        None
    }

    /// The scan (which pairs a cell only with the earlier base cells that see two of
    /// its possible excluders) gives the hint of trying every pair, on the pairs and
    /// triplets of random positions.
    #[test]
    fn scan_finds_the_hint_of_every_set() {
        let mut hints = 0;
        for (b, g) in super::super::chains::tests::positions() {
            for pos in [b, g] {
                for degree in [2, 3] {
                    let want = first_hint_of_every_set(&pos, degree);
                    let got = scan(&pos, degree, None).0;
                    hints += usize::from(want.is_some());
                    assert_eq!(
                        got.map(|h| (h.name, h.elim)),
                        want.map(|h| (h.name, h.elim))
                    );
                }
            }
        }
        assert!(hints >= 5, "{hints} hints");
    }

    /// `exclude` removes exactly the candidates no choice allows, on every pair and
    /// triplet of base cells with two common excluders of random positions.
    #[test]
    fn exclusions_are_those_of_every_choice() {
        let (mut sets, mut hints) = (0, 0);
        for (b, g) in super::super::chains::tests::positions() {
            for pos in [b, g] {
                for degree in [2usize, 3] {
                    let small: Cells = cells(pos.empty)
                        .filter(|&c| (2..=degree as u32).contains(&pos.cand[c].count_ones()))
                        .fold(0, |m, c| m | 1u128 << c);
                    let open: Vec<usize> = cells(pos.empty).collect();
                    for (n, &c0) in open.iter().enumerate().step_by(3) {
                        for &c1 in &open[n + 1..] {
                            let thirds: Vec<Option<usize>> = if degree == 2 {
                                vec![None]
                            } else {
                                open.iter().filter(|&&c| c > c1).map(|&c| Some(c)).collect()
                            };
                            for c2 in thirds {
                                let set: Vec<usize> =
                                    [Some(c0), Some(c1), c2].into_iter().flatten().collect();
                                let common = set.iter().fold(small, |m, &c| m & PEERS[c]);
                                if common.count_ones() < 2 {
                                    continue;
                                }
                                sets += 1;
                                let allowed = allowed_by_every_choice(&pos, &set, common);
                                let want: Vec<u16> = set
                                    .iter()
                                    .zip(&allowed)
                                    .map(|(&c, &a)| pos.cand[c] & !a)
                                    .collect();
                                let got: Vec<u16> = match exclude(&pos, &set, common) {
                                    None => vec![0; set.len()],
                                    Some(h) => {
                                        hints += 1;
                                        set.iter()
                                            .map(|&c| {
                                                (0..9).fold(0u16, |m, d| {
                                                    m | u16::from(h.elim[d] >> c & 1 != 0) << d
                                                })
                                            })
                                            .collect()
                                    }
                                };
                                assert_eq!(got, want, "{set:?}");
                            }
                        }
                    }
                }
            }
        }
        assert!(sets > 10_000 && hints > 20, "{sets} sets, {hints} hints");
    }
}
