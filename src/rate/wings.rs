//! Wings: XY-wing (4.2) and XYZ-wing (4.4).

use super::board::{cells, Board, PEERS};
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
