//! Chains of two to four strong links on one digit joined by weak links (skyscraper,
//! 2-string kite, turbot fish, their grouped forms, and the 3- and 4-link versions),
//! rated as Sudoku Explainer's "strong links" family: 4.0 / 5.4 / 5.8 for parallel
//! lines, +0.1 or +0.2 for mixed house types, +0.3 when a link comes from a house with
//! more than two positions (a grouped link).

use super::board::{cells, Board, Cells, HOUSES, HOUSE_MASK, PEERS};
use super::hint::Hint;

/// One strong link, oriented: `start` the cell(s) at the free end (a group for a
/// grouped link), `bridge` the single cell that joins the other link.
#[derive(Clone, Copy, Debug)]
pub struct Link {
    house: usize,
    start: Cells,
    bridge: usize,
    grouped: bool,
}

/// Houses with more positions than this give no link (Sudoku Explainer's limit).
const GROUPED_MAX: u32 = 6;

/// The type of a house as Sudoku Explainer numbers it: 0 box, 1 row, 2 column.
fn house_type(h: usize) -> u8 {
    (h / 9) as u8
}

/// The strong links of one digit in house `h`, both orientations, pushed to `out`.
fn links_in(dm: Cells, h: usize, out: &mut Vec<Link>) {
    let pos = dm & HOUSE_MASK[h];
    let n = pos.count_ones();
    if !(2..=GROUPED_MAX).contains(&n) {
        return;
    }
    let cell = |i: usize| HOUSES[h][i] as usize;
    let idx: Vec<usize> = (0..9).filter(|&i| pos >> HOUSES[h][i] & 1 != 0).collect();
    if n == 2 {
        let (a, b) = (cell(idx[0]), cell(idx[1]));
        out.push(Link {
            house: h,
            start: 1u128 << a,
            bridge: b,
            grouped: false,
        });
        out.push(Link {
            house: h,
            start: 1u128 << b,
            bridge: a,
            grouped: false,
        });
        return;
    }
    let local: u32 = idx.iter().map(|&i| 1u32 << i).sum();
    // Find the grouped configuration: for a box, a "heart" cell whose row and column
    // (within the box) hold every position; for a line, an empty box segment.
    let (blade1, blade2, heart) = if h < 9 {
        let mut found = None;
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
        match found {
            Some(f) => f,
            None => return,
        }
    } else {
        let mut found = None;
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
        match found {
            Some(f) => f,
            None => return,
        }
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
    let heart_cells = heart.map_or(0, |i: usize| to_cells(1 << i) & dm);
    // A grouped link joins the other link through a single cell; the group (one blade
    // with the box's heart cell) is the free end.
    let (c1, c2) = (blade1.count_ones(), blade2.count_ones());
    if c1 == 1 {
        let a = cell(blade1.trailing_zeros() as usize);
        out.push(Link {
            house: h,
            start: to_cells(blade2) | heart_cells,
            bridge: a,
            grouped: true,
        });
    }
    if c2 == 1 {
        let a = cell(blade2.trailing_zeros() as usize);
        out.push(Link {
            house: h,
            start: to_cells(blade1) | heart_cells,
            bridge: a,
            grouped: true,
        });
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

/// The easiest chain of `n` strong links on one digit (2, 3 or 4), the links joined
/// by weak links between single cells; the digit goes from every cell that sees both
/// free ends. Rated 4.0 / 5.4 / 5.8 for `n` links, +0.3 when a link is grouped, else
/// +0.1 when the links mix a box with lines or rows with columns, +0.2 when both.
pub fn n_links(b: &Board, buf: &mut Vec<Link>, n: usize) -> Option<Hint> {
    let mut best: Best = None;
    for di in 0..9 {
        let dm = b.digit[di];
        buf.clear();
        for h in 0..27 {
            links_in(dm, h, buf);
        }
        let mut chain = [0usize; 4];
        for i in 0..buf.len() {
            chain[0] = i;
            extend(b, buf, di, n, &mut chain, 1, &mut best);
        }
    }
    best.map(|(_, _, h)| h)
}

fn chain_cells(l: &Link) -> Cells {
    l.start | 1u128 << l.bridge
}

/// Add link number `depth` to the chain: a middle link (entered at its bridge, left at
/// its single start cell) or, at the end, the last link (entered at its bridge).
fn extend(
    b: &Board,
    buf: &[Link],
    di: usize,
    n: usize,
    chain: &mut [usize; 4],
    depth: usize,
    best: &mut Best,
) {
    // the cell the previous link is left at
    let prev = &buf[chain[depth - 1]];
    let exit = if depth == 1 {
        prev.bridge
    } else {
        prev.start.trailing_zeros() as usize
    };
    let mut used: Cells = 0;
    for &k in &chain[..depth] {
        used |= chain_cells(&buf[k]);
    }
    for (j, l) in buf.iter().enumerate() {
        if chain[..depth].iter().any(|&k| buf[k].house == l.house) {
            continue;
        }
        if chain_cells(l) & used != 0 || PEERS[exit] >> l.bridge & 1 == 0 {
            continue;
        }
        chain[depth] = j;
        if depth + 1 < n {
            if l.grouped || l.start.count_ones() != 1 {
                continue;
            }
            extend(b, buf, di, n, chain, depth + 1, best);
            continue;
        }
        // complete: free ends are the first link's start and this link's start
        let first = &buf[chain[0]];
        let mut seen = b.digit[di] & !(used | chain_cells(l));
        for c in cells(first.start | l.start) {
            seen &= PEERS[c];
        }
        if seen == 0 {
            continue;
        }
        let links = &chain[..n];
        let grouped = links.iter().any(|&k| buf[k].grouped);
        let types: Vec<u8> = links.iter().map(|&k| house_type(buf[k].house)).collect();
        let has_box = types.contains(&0);
        let both_lines = types.contains(&1) && types.contains(&2);
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
        let name = match (n, grouped, has_box, both_lines) {
            (2, true, _, _) => "Grouped Strong Links",
            (2, false, false, false) => "Skyscraper",
            (2, false, false, true) => "2-String Kite",
            (2, false, true, _) => "Turbot Fish",
            (3, _, _, _) => "3 Strong Links",
            _ => "4 Strong Links",
        };
        let count = seen.count_ones();
        let better = match best {
            None => true,
            Some((d, c, _)) => diff < *d || (diff == *d && count > *c),
        };
        if better {
            let mut h = Hint::new(name, diff);
            h.elim[di] = seen;
            *best = Some((diff, count, h));
        }
    }
}
