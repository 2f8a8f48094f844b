//! Wings: XY-wing (4.2) and XYZ-wing (4.4).

use super::board::{cells, Board, Cells, HOUSE_MASK, PEERS};
use super::hint::Hint;

/// XY-wing (`xyz == false`) or XYZ-wing: a pivot with two bivalue pincers it sees;
/// the digit common to the pincers goes from every cell that sees both pincers (and,
/// for XYZ, the pivot).
pub fn xy_wing(b: &Board, xyz: bool) -> Option<Hint> {
    let target = if xyz { 3 } else { 2 };
    for pivot in 0..81 {
        let xy = b.cand[pivot];
        if xy.count_ones() != target {
            continue;
        }
        for xz_cell in cells(PEERS[pivot] & b.empty) {
            let xz = b.cand[xz_cell];
            if xz.count_ones() != 2 || (xy & !xz).count_ones() != 1 {
                continue;
            }
            for yz_cell in cells(PEERS[pivot] & b.empty) {
                let yz = b.cand[yz_cell];
                if yz.count_ones() != 2 || (xy | xz | yz).count_ones() != 3 {
                    continue;
                }
                let common = (xy & xz & yz).count_ones();
                if common != if xyz { 1 } else { 0 } {
                    continue;
                }
                let z = xz & yz;
                if z.count_ones() != 1 {
                    continue;
                }
                let zi = z.trailing_zeros() as usize;
                let mut victims = PEERS[xz_cell] & PEERS[yz_cell];
                if xyz {
                    victims &= PEERS[pivot];
                }
                victims &= !(1u128 << pivot | 1u128 << xz_cell | 1u128 << yz_cell);
                let removed = victims & b.digit[zi];
                if removed != 0 {
                    let mut h = if xyz {
                        Hint::new("XYZ-Wing", 44)
                    } else {
                        Hint::new("XY-Wing", 42)
                    };
                    h.elim[zi] = removed;
                    return Some(h);
                }
            }
        }
    }
    None
}

/// The "bent" wings of Sudoku Explainer's extended set: an almost locked set of `k`
/// cells in one house (`k + 1` digits; WXYZ-wing for 3 cells, VWXYZ for 4, UVWXYZ for
/// 5, TUVWXYZ for 6) and a bivalue cell sharing both its digits with the set, linked by a restricted
/// common digit `x`: the other digit `z` goes from every cell seeing all its copies in
/// the pattern. When both digits are restricted common (a double link) every digit of
/// the pattern is removed where it sees all its copies.
///
/// `none` remembers the last board on which the search found nothing (see
/// [`NoWings`]): on a board with only fewer candidates than that one, a wing can only
/// be new if one of its cells changed, and only those are looked for.
pub fn als_wing(b: &Board, k: u32, none: &mut NoWings) -> Option<Hint> {
    let slot = &mut none.0[k as usize - 3];
    let changed = match slot {
        Some(old) if (0..81).all(|c| b.cand[c] & !old[c] == 0) => {
            (0..81).fold(0u128, |m, c| m | u128::from(b.cand[c] != old[c]) << c)
        }
        _ => super::board::ALL,
    };
    // Changed cells that can be the bivalue cell.
    let changed_pairs = cells(changed & b.empty)
        .filter(|&c| b.cand[c].count_ones() == 2)
        .fold(0u128, |m, c| m | 1u128 << c);
    let mut best: Option<(u8, u32, Hint)> = None;
    let mut sets: Vec<u32> = Vec::new();
    for h in 0..27 {
        // Every set of this house is as it was, and so is every bivalue cell.
        if changed & HOUSE_MASK[h] == 0 && changed_pairs == 0 {
            continue;
        }
        let house = &super::board::HOUSES[h];
        let mut usable = 0u32;
        for (i, &c) in house.iter().enumerate() {
            if b.cand[c as usize].count_ones() >= 2 {
                usable |= 1 << i;
            }
        }
        if usable.count_ones() < k {
            continue;
        }
        sets.clear();
        almost_locked(b, house, usable, k, 9, 0, 0, &mut sets);
        for &set in &sets {
            let mut union = 0u16;
            let mut cells_set: Cells = 0;
            let (mut biggest, mut size) = (0, 0);
            for i in super::board::bits(set) {
                let c = house[i] as usize;
                union |= b.cand[c];
                cells_set |= 1u128 << c;
                biggest = biggest.max(b.cand[c].count_ones());
                size += b.cand[c].count_ones();
            }
            if union.count_ones() != k + 1 || in_earlier_house(cells_set, h) {
                continue;
            }
            let diff = match k {
                3 => (55 + 1) - (3i32 - biggest as i32).unsigned_abs() as u8,
                4 => (62 + 2) - (3i32 - biggest as i32).unsigned_abs() as u8,
                5 => 66,
                _ => 75,
            };
            let name = match k {
                3 => "WXYZ-Wing",
                4 => "VWXYZ-Wing",
                5 => "UVWXYZ-Wing",
                _ => "TUVWXYZ-Wing",
            };
            // cells holding each digit inside the set
            let mut holders = [0u128; 9];
            for c in cells(cells_set) {
                for di in super::board::bits(b.cand[c] as u32) {
                    holders[di] |= 1u128 << c;
                }
            }
            let mut around: Cells = 0;
            for c in cells(cells_set) {
                around |= PEERS[c];
            }
            // An unchanged set needs a changed bivalue cell.
            let new_yz = if cells_set & changed != 0 {
                super::board::ALL
            } else {
                changed_pairs
            };
            for yz in cells(around & !cells_set & b.empty & new_yz) {
                let m = b.cand[yz];
                if m.count_ones() != 2 || m & union != m {
                    continue;
                }
                let (a, c) = (m.trailing_zeros() as usize, 15 - m.leading_zeros() as usize);
                let restricted = |d: usize| holders[d] & !PEERS[yz] == 0;
                let (ra, rc) = (restricted(a), restricted(c));
                if !ra && !rc {
                    continue;
                }
                let wing = cells_set | 1u128 << yz;
                let sees_all = |set: Cells| {
                    let mut v = super::board::ALL;
                    for cc in cells(set) {
                        v &= PEERS[cc];
                    }
                    v & !wing
                };
                let mut hint = Hint::new(name, diff);
                if ra && rc {
                    for di in super::board::bits(union as u32) {
                        let with = if di == a || di == c {
                            holders[di] | 1u128 << yz
                        } else {
                            holders[di]
                        };
                        hint.elim[di] = sees_all(with) & b.digit[di];
                    }
                } else {
                    let z = if ra { c } else { a };
                    hint.elim[z] = sees_all(holders[z] | 1u128 << yz) & b.digit[z];
                }
                if !hint.removes_any(b) {
                    continue;
                }
                let count: u32 = hint.elim.iter().map(|e| e.count_ones()).sum();
                let better = match &best {
                    None => true,
                    Some((d, n, _)) => diff < *d || (diff == *d && count > *n),
                };
                if better {
                    // Sudoku Explainer's name gives the wing's shape: 2 for a double
                    // link that removes a digit besides the two linking ones or both
                    // of them (else 1), the most candidates of a set cell, and the
                    // set's candidates in all ("WXYZ-Wing 137").
                    let removes = |di: usize| hint.elim[di] != 0;
                    let others = (0..9).any(|di| di != a && di != c && removes(di));
                    let link = if ra && rc && (others || removes(a) && removes(c)) {
                        2
                    } else {
                        1
                    };
                    hint.name = super::hint::named(format!("{name} {link}{biggest}{size}"));
                    best = Some((diff, count, hint));
                }
            }
        }
    }
    match (best.is_none(), slot.as_mut()) {
        (true, Some(old)) => **old = b.cand,
        (true, None) => *slot = Some(Box::new(b.cand)),
        (false, _) => *slot = None,
    }
    best.map(|(_, _, h)| h)
}

/// The last board on which [`als_wing`] found no wing, per set size (3 to 6 cells).
/// A wing reads only its cells' candidates and the candidates it removes; on a board
/// whose candidates are a subset of that board's, a wing whose cells all kept their
/// candidates was a wing there too, removing no less, and there it removed nothing.
#[derive(Debug, Default, Clone)]
pub struct NoWings([Option<Box<[u16; 81]>>; 4]);

/// Whether a house before `h` (in the order boxes, rows, columns) holds every cell of
/// `set`: the set was then met there already (whether a cell can take part depends on
/// the cell alone, so the search of that house found it too).
fn in_earlier_house(set: Cells, h: usize) -> bool {
    let c = set.trailing_zeros() as usize;
    let (r, col) = (c / 9, c % 9);
    [(r / 3) * 3 + col / 3, 9 + r, 18 + col]
        .into_iter()
        .any(|h2| h2 < h && set & !HOUSE_MASK[h2] == 0)
}

/// The sets of `k` more cells (local indices in `house`) among `usable` below index
/// `limit`, added to `set` whose candidates are `union`, that hold `k + 1` digits
/// at most together, pushed to `out` in increasing order of their bit masks (the
/// order of [`super::singles::combos`]): the largest index is chosen first, so a
/// union already too big prunes every set that contains it.
#[allow(clippy::too_many_arguments)]
fn almost_locked(
    b: &Board,
    house: &[u8; 9],
    usable: u32,
    k: u32,
    limit: u32,
    set: u32,
    union: u16,
    out: &mut Vec<u32>,
) {
    if k == 0 {
        out.push(set);
        return;
    }
    let size = set.count_ones() + k;
    for i in super::board::bits(usable & ((1u32 << limit) - 1)) {
        // the other `k - 1` must come from below `i`
        if (usable & ((1u32 << i) - 1)).count_ones() < k - 1 {
            continue;
        }
        let u = union | b.cand[house[i] as usize];
        if u.count_ones() > size + 1 {
            continue;
        }
        almost_locked(b, house, usable, k - 1, i as u32, set | 1 << i, u, out);
    }
}
