//! The rule table of one rule set: houses and pairwise exclusions as cell masks, built
//! once per rule set (and per region layout for jigsaw), in the spirit of the seed's
//! `rule[kind][index][digit]` tables but with 81-bit cell masks instead of occupancy
//! flags.
//!
//! The table is built from the rules' definitions (one file per rule, see `rule.rs`):
//! a *house* is nine cells that hold every digit once: rows, columns, boxes (or jigsaw
//! regions) and the houses the rules add (the two diagonals of `x`, the four windows of
//! `windoku`). The *peers* of a cell are all cells that may not repeat its digit: its
//! house-mates plus the peers a rule adds (a knight's or king's move under
//! `anti-knight` / `anti-king`). A *link* relates different digits of neighbouring
//! cells (`non-consecutive`: orthogonal neighbours, digits one apart).
//!
//! [`Variant`] also checks givens and solutions against every active rule, with errors
//! that name the cells and the rule, and draws grids with the regions and marked cells.

use std::fmt;

use crate::grid::{cell_name, Conflict, Grid, CELLS};

use super::leftovers;
use super::regions::Regions;
use super::rule::{square, Link, Shape};
use super::{Rule, RuleSet};

/// At most 9 rows + 9 columns + 9 boxes or regions + the houses every rule adds (2
/// diagonals, 4 windows, 9 disjoint groups).
pub(crate) const MAX_HOUSES: usize = 42;
// `Variant::house_of` marks each cell's houses in one `u64`.
const _: () = assert!(MAX_HOUSES <= 64);

/// What a house is, for messages and drawing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HouseKind {
    /// Row 0..9.
    Row(u8),
    /// Column 0..9.
    Column(u8),
    /// 3×3 box 0..9.
    Box(u8),
    /// Jigsaw region with this id (0..9).
    Region(u8),
    /// r1c1 to r9c9.
    MainDiagonal,
    /// r1c9 to r9c1.
    AntiDiagonal,
    /// Windoku window 0..4 (top-left r2c2, r2c6, r6c2, r6c6).
    Window(u8),
    /// House `index` of another rule (its order in [`super::RuleDef::houses`]).
    Added {
        /// The rule whose house it is.
        rule: Rule,
        /// Which of its houses.
        index: u8,
    },
}

impl HouseKind {
    /// The rule a house beyond rows, columns and boxes belongs to, and its index there.
    fn added(self) -> Option<(Rule, u8)> {
        match self {
            HouseKind::MainDiagonal => Some((Rule::X, 0)),
            HouseKind::AntiDiagonal => Some((Rule::X, 1)),
            HouseKind::Window(w) => Some((Rule::Windoku, w)),
            HouseKind::Region(r) => Some((Rule::Jigsaw, r)),
            HouseKind::Added { rule, index } => Some((rule, index)),
            HouseKind::Row(_) | HouseKind::Column(_) | HouseKind::Box(_) => None,
        }
    }
}

/// Why a rule table could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VariantError {
    /// `jigsaw` in the rules but no region layout.
    #[error("jigsaw without regions")]
    JigsawWithoutRegions,
    /// A region layout but no `jigsaw`: refused rather than ignored, since the layout
    /// would silently play no part.
    #[error("regions without jigsaw")]
    RegionsWithoutJigsaw,
}

/// Two givens (or two cells of a grid) that break a rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RuleConflict {
    /// A row, column or box repeats a digit: worded as [`crate::grid::Conflict`].
    Classic(Conflict),
    /// Any other house repeats a digit.
    House {
        /// Which house.
        kind: HouseKind,
        /// Its symbol, for jigsaw regions (`'C'`); unused otherwise.
        symbol: char,
        /// The earlier cell (0-based).
        first: usize,
        /// The later cell.
        second: usize,
        /// The repeated digit.
        digit: u8,
    },
    /// Two peers a rule makes (cells a knight's or king's move apart) hold the same
    /// digit.
    Pair {
        /// The rule ([`Rule::AntiKnight`], [`Rule::AntiKing`], ...).
        rule: Rule,
        /// The earlier cell.
        first: usize,
        /// The later cell.
        second: usize,
        /// The repeated digit.
        digit: u8,
    },
    /// Two neighbours a rule links hold digits it bans together (consecutive digits
    /// next to each other, under non-consecutive).
    Linked {
        /// The rule ([`Rule::NonConsecutive`], ...).
        rule: Rule,
        /// The earlier cell.
        first: usize,
        /// Its digit.
        first_digit: u8,
        /// The later cell.
        second: usize,
        /// Its digit.
        second_digit: u8,
    },
}

impl fmt::Display for RuleConflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            RuleConflict::Classic(c) => c.fmt(f),
            RuleConflict::House {
                kind,
                symbol,
                first,
                second,
                digit,
            } => {
                let place = match kind.added() {
                    Some((Rule::Jigsaw, _)) => format!("in region '{symbol}'"),
                    Some((rule, index)) => rule.def().house_place(index),
                    // Rows, columns and boxes are reported as `Classic`.
                    None => {
                        return Conflict {
                            first,
                            second,
                            digit,
                        }
                        .fmt(f)
                    }
                };
                write!(
                    f,
                    "givens conflict {place}: {} and {} are both {digit}",
                    cell_name(first),
                    cell_name(second)
                )
            }
            RuleConflict::Pair {
                rule,
                first,
                second,
                digit,
            } => write!(
                f,
                "{}: {} and {} are both {digit}",
                rule.name(),
                cell_name(first),
                cell_name(second)
            ),
            RuleConflict::Linked {
                rule,
                first,
                first_digit,
                second,
                second_digit,
            } => write!(
                f,
                "{}: {} is {first_digit} and {} is {second_digit}",
                rule.name(),
                cell_name(first),
                cell_name(second)
            ),
        }
    }
}

impl std::error::Error for RuleConflict {}

/// The rule table of one rule set (and its regions, for jigsaw). Cheap to build
/// (about 3 KB of masks, a few microseconds), so a jigsaw pipeline may build one per
/// record; for the other rule sets build it once and share it.
#[derive(Clone)]
pub struct Variant {
    rules: RuleSet,
    regions: Option<Regions>,
    /// House masks; only the first `n_houses` are used.
    pub(crate) houses: [u128; MAX_HOUSES],
    kinds: [HouseKind; MAX_HOUSES],
    pub(crate) n_houses: usize,
    /// The houses each cell lies in, as bits of `houses` indices.
    pub(crate) house_of: [u64; CELLS],
    /// Cells that may not hold a cell's digit (the cell itself excluded).
    pub(crate) peers: [u128; CELLS],
    /// The rules' links (non-consecutive's), with their rules.
    pub(crate) links: Vec<(Rule, Link)>,
    /// What the box-band engine's own inferences key on (the union of the rules').
    pub(crate) shape: Shape,
    /// Jigsaw only: the law of leftovers' pairs of cell sets that hold the same digits
    /// (see `leftovers.rs`); the rest of the array is zero.
    pub(crate) leftovers: [(u128, u128); leftovers::MAX_PAIRS],
    /// The leftover pairs each cell lies in (either side), as bits of `leftovers`
    /// indices: the engine finds the pairs to look at through these.
    pub(crate) pair_of: [u64; CELLS],
    /// Jigsaw rules: the generic engine's locked candidates look at houses with up to
    /// three places for a digit, and run again after the singles they unlock.
    pub(crate) jigsaw: bool,
}

impl fmt::Debug for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Variant")
            .field("rules", &self.rules.to_string())
            .field("regions", &self.regions)
            .finish()
    }
}

/// The cells of `grid` holding each digit (index 0: the blanks).
fn cells_by_digit(grid: &Grid) -> [u128; 10] {
    let mut filled = [0u128; 10];
    for (cell, &digit) in grid.cells().iter().enumerate() {
        filled[usize::from(digit)] |= 1 << cell;
    }
    filled
}

impl Variant {
    /// Build the table of `rules`. `regions` must be given exactly when the rules
    /// include `jigsaw`.
    pub fn new(rules: RuleSet, regions: Option<&Regions>) -> Result<Variant, VariantError> {
        let replaces_boxes = rules.iter().any(|rule| rule.def().replaces_boxes());
        match (replaces_boxes, regions) {
            (true, None) => return Err(VariantError::JigsawWithoutRegions),
            (false, Some(_)) => return Err(VariantError::RegionsWithoutJigsaw),
            _ => {}
        }
        let mut houses = [0u128; MAX_HOUSES];
        let mut kinds = [HouseKind::Row(0); MAX_HOUSES];
        let mut n = 0;
        let mut add = |mask: u128, kind: HouseKind| {
            houses[n] = mask;
            kinds[n] = kind;
            n += 1;
        };
        for i in 0..9 {
            add(
                (0..9).fold(0, |m, c| m | 1u128 << (i * 9 + c)),
                HouseKind::Row(i as u8),
            );
        }
        for i in 0..9 {
            add(
                (0..9).fold(0, |m, r| m | 1u128 << (r * 9 + i)),
                HouseKind::Column(i as u8),
            );
        }
        let region_masks = regions.map(Regions::masks);
        match region_masks {
            Some(masks) => {
                for (id, &mask) in masks.iter().enumerate() {
                    add(mask, HouseKind::Region(id as u8));
                }
            }
            None => {
                for b in 0..9 {
                    add(square(b / 3 * 3, b % 3 * 3), HouseKind::Box(b as u8));
                }
            }
        }
        for rule in rules.iter() {
            for (mask, kind) in rule.def().houses() {
                debug_assert_eq!(
                    mask.count_ones(),
                    9,
                    "{}: a house has nine cells",
                    rule.name()
                );
                add(mask, kind);
            }
        }
        // each house adds itself to its cells' peers (a pass per house, not per cell)
        let mut peers = [0u128; CELLS];
        let mut house_of = [0u64; CELLS];
        for (i, &h) in houses[..n].iter().enumerate() {
            let mut rest = h;
            while rest != 0 {
                let cell = rest.trailing_zeros() as usize;
                peers[cell] |= h;
                house_of[cell] |= 1 << i;
                rest &= rest - 1;
            }
        }
        for (cell, p) in peers.iter_mut().enumerate() {
            let all = rules.iter().fold(*p, |m, rule| m | rule.def().peers(cell));
            *p = all & !(1u128 << cell);
        }
        let links: Vec<(Rule, Link)> = rules
            .iter()
            .filter_map(|rule| Some((rule, rule.def().link()?)))
            .collect();
        let shape = rules
            .iter()
            .fold(Shape::default(), |s, rule| s.union(rule.def().shape()));
        let (leftovers, n_leftovers) = match region_masks {
            Some(masks) => leftovers::pairs(&masks),
            None => ([(0, 0); leftovers::MAX_PAIRS], 0),
        };
        let mut pair_of = [0u64; CELLS];
        for (i, &(a, b)) in leftovers[..n_leftovers].iter().enumerate() {
            for cell in cells(a | b) {
                pair_of[cell] |= 1 << i;
            }
        }
        Ok(Variant {
            rules,
            pair_of,
            regions: regions.copied(),
            leftovers,
            jigsaw: regions.is_some(),
            houses,
            kinds,
            n_houses: n,
            house_of,
            peers,
            links,
            shape,
        })
    }

    /// Whether the box-band engine runs these rules: they keep the boxes, and every
    /// link is one it has inferences for ([`Shape::consecutive`]). The rest run on
    /// the generic engine.
    pub(crate) fn band_engine_runs(&self) -> bool {
        self.regions.is_none()
            && self
                .links
                .iter()
                .all(|(rule, _)| rule.def().shape().consecutive)
    }

    /// The rules of this table.
    pub fn rules(&self) -> RuleSet {
        self.rules
    }

    /// The jigsaw regions, if any.
    pub fn regions(&self) -> Option<&Regions> {
        self.regions.as_ref()
    }

    /// The houses: each a mask of nine cells (bit `c` for cell `c`) and its kind.
    pub fn houses(&self) -> impl Iterator<Item = (u128, HouseKind)> + '_ {
        self.houses[..self.n_houses]
            .iter()
            .copied()
            .zip(self.kinds[..self.n_houses].iter().copied())
    }

    /// The first pair of filled cells that break a rule, or `Ok`.
    ///
    /// Rules are checked in a fixed order: the rules added to the classic ones first
    /// (diagonals, windows, anti-knight, anti-king, non-consecutive, jigsaw regions),
    /// then rows, columns and boxes; within a rule, the pair whose later cell comes
    /// first (row-major) is reported. Two givens that break an added rule often break
    /// a classic one too (a knight's move apart in one box); the message names the
    /// rule the puzzle is about. Without jigsaw the classic houses are checked by
    /// [`Grid::check_givens`], so the classic wording and choice of pair are unchanged.
    ///
    /// It runs on every record's givens and every solution found, so a quick test that
    /// nothing is broken comes first (a solution of a windoku puzzle: 436 -> 216 ns); the
    /// pair is looked for only when that test fails.
    pub fn check_givens(&self, grid: &Grid) -> Result<(), RuleConflict> {
        if self.breaks_none(grid) {
            return Ok(());
        }
        self.first_conflict(grid)
    }

    /// Whether the filled cells of `grid` break no rule: no cell has its digit in a
    /// peer (a house mate, a knight's or king's move away) and, under non-consecutive,
    /// no orthogonal neighbour holds a digit one away. By the digits' cell masks, with
    /// no branch per cell.
    fn breaks_none(&self, grid: &Grid) -> bool {
        // `filled[d]`: the cells holding digit `d`; `filled[0]` (blanks) and
        // `filled[10]` are left empty, so that a blank finds nothing and digit 9 has
        // no digit above it.
        let mut filled = [0u128; 11];
        for (cell, &digit) in grid.cells().iter().enumerate() {
            filled[usize::from(digit)] |= 1 << cell;
        }
        filled[0] = 0;
        let mut broken = 0u128;
        for (cell, &digit) in grid.cells().iter().enumerate() {
            broken |= self.peers[cell] & filled[usize::from(digit)];
        }
        for (_, link) in &self.links {
            for (cell, &digit) in grid.cells().iter().enumerate() {
                let mut ban = link.ban[usize::from(digit)];
                while ban != 0 {
                    let e = ban.trailing_zeros() as usize + 1;
                    broken |= link.near[cell] & filled[e];
                    ban &= ban - 1;
                }
            }
        }
        broken == 0
    }

    /// [`Variant::check_givens`] without the quick test: the first pair that breaks a
    /// rule, in the order described there.
    fn first_conflict(&self, grid: &Grid) -> Result<(), RuleConflict> {
        self.check_added(grid)?;
        if self.regions.is_none() {
            grid.check_givens().map_err(RuleConflict::Classic)?;
        } else {
            self.check_houses(grid, |k| {
                matches!(k, HouseKind::Row(_) | HouseKind::Column(_))
            })?;
        }
        Ok(())
    }

    /// The rules added to the classic ones, in the order [`Variant::check_givens`]
    /// gives: rule by rule, its houses, then its peers, then its link.
    fn check_added(&self, grid: &Grid) -> Result<(), RuleConflict> {
        for rule in self.rules.iter() {
            self.check_houses(grid, |k| k.added().is_some_and(|(r, _)| r == rule))?;
            self.check_pairs(grid, rule)?;
            if let Some((_, link)) = self.links.iter().find(|(r, _)| *r == rule) {
                Self::check_link(grid, rule, link)?;
            }
        }
        Ok(())
    }

    /// The first pair of cells holding the same digit that `rule`'s own peers (not
    /// its houses) forbid.
    fn check_pairs(&self, grid: &Grid, rule: Rule) -> Result<(), RuleConflict> {
        let def = rule.def();
        // Most grids break nothing: test each digit's cells against the rule's peers
        // first, and find which pair to report only on a clash.
        let filled = cells_by_digit(grid);
        let clash = filled[1..]
            .iter()
            .any(|&f| cells(f).any(|c| def.peers(c) & f != 0));
        if !clash {
            return Ok(());
        }
        for second in 0..CELLS {
            let digit = grid.get(second);
            if digit == 0 {
                continue;
            }
            let earlier = def.peers(second) & ((1u128 << second) - 1);
            if let Some(first) = cells(earlier).find(|&c| grid.get(c) == digit) {
                return Err(RuleConflict::Pair {
                    rule,
                    first,
                    second,
                    digit,
                });
            }
        }
        Ok(())
    }

    /// The first pair of linked neighbours holding digits the link bans together.
    fn check_link(grid: &Grid, rule: Rule, link: &Link) -> Result<(), RuleConflict> {
        for second in 0..CELLS {
            let digit = grid.get(second);
            if digit == 0 {
                continue;
            }
            let earlier = link.near[second] & ((1u128 << second) - 1);
            // A blank (0) is banned by nothing, not even next to a 1.
            let banned = |c: usize| {
                let e = grid.get(c);
                e != 0 && link.ban[usize::from(digit)] >> (e - 1) & 1 != 0
            };
            if let Some(first) = cells(earlier).find(|&c| banned(c)) {
                return Err(RuleConflict::Linked {
                    rule,
                    first,
                    first_digit: grid.get(first),
                    second,
                    second_digit: digit,
                });
            }
        }
        Ok(())
    }

    /// The houses of the kinds `pick` selects, scanned in cell order.
    fn check_houses(
        &self,
        grid: &Grid,
        pick: impl Fn(HouseKind) -> bool,
    ) -> Result<(), RuleConflict> {
        // Most rule sets have no house of most kinds asked for (the givens check runs
        // per puzzle): nothing to look at then.
        if !self.houses().any(|(_, kind)| pick(kind)) {
            return Ok(());
        }
        // Most grids break nothing: look for a repeated digit house by house over the
        // filled cells first, and find which pair to report only if there is one.
        let filled = cells_by_digit(grid);
        let repeated = self.houses().any(|(mask, kind)| {
            pick(kind) && filled[1..].iter().any(|&f| (f & mask).count_ones() > 1)
        });
        if !repeated {
            return Ok(());
        }
        // seen[house][digit] = 1 + the cell that holds it.
        let mut seen = [[0u8; 10]; MAX_HOUSES];
        for (cell, &digit) in grid.cells().iter().enumerate() {
            if digit == 0 {
                continue;
            }
            for (h, (mask, kind)) in self.houses().enumerate() {
                if mask & 1 << cell == 0 || !pick(kind) {
                    continue;
                }
                let slot = &mut seen[h][usize::from(digit)];
                if *slot != 0 {
                    let (first, second) = (usize::from(*slot) - 1, cell);
                    let symbol = match (kind, &self.regions) {
                        (HouseKind::Region(id), Some(r)) => r.symbol(usize::from(id)),
                        _ => ' ',
                    };
                    return Err(match kind {
                        HouseKind::Row(_) | HouseKind::Column(_) | HouseKind::Box(_) => {
                            RuleConflict::Classic(Conflict {
                                first,
                                second,
                                digit,
                            })
                        }
                        _ => RuleConflict::House {
                            kind,
                            symbol,
                            first,
                            second,
                            digit,
                        },
                    });
                }
                *slot = cell as u8 + 1;
            }
        }
        Ok(())
    }

    /// True when `grid` is complete and breaks no active rule: the check to run on
    /// every solution before it is written.
    pub fn is_solution(&self, grid: &Grid) -> bool {
        grid.is_complete() && self.check_givens(grid).is_ok()
    }

    /// True when `solution` is a solution of `puzzle` under these rules.
    pub fn solves(&self, solution: &Grid, puzzle: &Grid) -> bool {
        self.is_solution(solution) && solution.agrees_with(puzzle)
    }

    /// A boxed picture of `grid`.
    ///
    /// Rules that mark no cell and keep the boxes (classic, anti-knight, anti-king,
    /// non-consecutive) draw exactly [`Grid::to_boxed`]. With a rule that marks cells
    /// ([`super::RuleDef::mark`]: `x`, `windoku`) or `jigsaw` every cell takes three
    /// characters and the borders follow the boxes or regions; diagonal cells are
    /// drawn `\5\` (main) or `/5/` (anti; `X5X` on the centre), window cells `[5]`
    /// (the first rule that marks a cell draws it), and a legend line follows.
    ///
    /// ```
    /// use bulkdoku::rules::{RuleSet, Variant};
    /// use bulkdoku::Grid;
    /// let v = Variant::new("x".parse::<RuleSet>().unwrap(), None).unwrap();
    /// let picture = v.to_boxed(&Grid::EMPTY);
    /// let first_rows: Vec<&str> = picture.lines().take(2).collect();
    /// assert_eq!(first_rows[0], "+-----------+-----------+-----------+");
    /// assert_eq!(first_rows[1], r"|\.\  .   . | .   .   . | .   .  /./|");
    /// ```
    pub fn to_boxed(&self, grid: &Grid) -> String {
        let legend: Vec<&str> = self.rules.iter().filter_map(|r| r.def().legend()).collect();
        if legend.is_empty() && self.regions.is_none() {
            return grid.to_boxed();
        }
        let region = |cell: usize| match &self.regions {
            Some(r) => r.id(cell),
            None => (cell / 27) * 3 + (cell % 9) / 3,
        };
        let mut s = String::with_capacity(1000);
        for row in 0..=9 {
            // The border line above `row` (row 9: the bottom frame); a line with no
            // horizontal border is left out, so box layouts keep one line per row.
            let line_start = s.len();
            for col in 0..=9 {
                let here = |r: usize, c: usize| (r < 9 && c < 9).then(|| region(r * 9 + c));
                // A corner is drawn when any border meets it.
                let up_left = (row > 0 && col > 0)
                    .then(|| here(row - 1, col - 1))
                    .flatten();
                let up_right = (row > 0).then(|| here(row - 1, col)).flatten();
                let down_left = (col > 0).then(|| here(row, col - 1)).flatten();
                let down_right = here(row, col);
                // Which of the four borders that meet at this point are drawn.
                let up = up_left != up_right;
                let down = down_left != down_right;
                let left = up_left != down_left;
                let right = up_right != down_right;
                s.push(match (up || down, left || right) {
                    (true, true) => '+',
                    (true, false) => '|',
                    (false, true) => '-',
                    (false, false) => ' ',
                });
                if col < 9 {
                    s.push_str(if up_right != down_right { "---" } else { "   " });
                }
            }
            if s[line_start..].contains('-') {
                s.push('\n');
            } else {
                s.truncate(line_start);
            }
            if row == 9 {
                break;
            }
            for col in 0..=9 {
                let left = (col > 0).then(|| region(row * 9 + col - 1));
                let right = (col < 9).then(|| region(row * 9 + col));
                s.push(if left != right { '|' } else { ' ' });
                if col == 9 {
                    break;
                }
                let cell = row * 9 + col;
                let v = grid.get(cell);
                let ch = if v == 0 { '.' } else { (b'0' + v) as char };
                let (open, close) = self
                    .rules
                    .iter()
                    .find_map(|r| r.def().mark(cell))
                    .unwrap_or((' ', ' '));
                s.push(open);
                s.push(ch);
                s.push(close);
            }
            s.push('\n');
        }
        if !legend.is_empty() {
            s.push_str(&legend.join("; "));
            s.push('\n');
        }
        s
    }
}

/// The cells of a mask, in increasing order.
pub(crate) fn cells(mut mask: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let c = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            c
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (row, column, digit), 1-based.
    type Givens = &'static [(usize, usize, u8)];

    fn variant(rules: &str) -> Variant {
        Variant::new(rules.parse().unwrap(), None).unwrap()
    }

    fn grid_with(givens: &[(usize, usize, u8)]) -> Grid {
        let mut g = Grid::EMPTY;
        for &(r, c, d) in givens {
            g.set((r - 1) * 9 + c - 1, d);
        }
        g
    }

    #[test]
    fn a_conflict_is_named_by_the_added_rule_it_breaks() {
        for (rules, givens, message) in [
            (
                "anti-knight",
                &[(1, 1, 4), (2, 3, 4)][..],
                "anti-knight: r1c1 and r2c3 are both 4",
            ),
            (
                "x",
                &[(1, 1, 7), (5, 5, 7)][..],
                "givens conflict on the main diagonal: r1c1 and r5c5 are both 7",
            ),
            (
                "non-consecutive",
                &[(4, 4, 5), (4, 5, 6)][..],
                "non-consecutive: r4c4 is 5 and r4c5 is 6",
            ),
            (
                "anti-king",
                &[(1, 1, 2), (1, 2, 2)][..],
                "anti-king: r1c1 and r1c2 are both 2",
            ),
            // Only a classic house: the classic wording.
            (
                "anti-knight",
                &[(1, 1, 4), (1, 9, 4)][..],
                "givens conflict: r1c1 and r1c9 are both 4",
            ),
        ] {
            let err = variant(rules).check_givens(&grid_with(givens)).unwrap_err();
            assert_eq!(err.to_string(), message, "{rules}");
        }
    }

    #[test]
    fn houses_have_nine_cells_and_peers_are_symmetric() {
        for rules in ["classic", "x", "windoku", "x,windoku,anti-knight,anti-king"] {
            let v = variant(rules);
            for (mask, kind) in v.houses() {
                assert_eq!(mask.count_ones(), 9, "{rules} {kind:?}");
            }
            for a in 0..CELLS {
                assert_eq!(v.peers[a] & 1 << a, 0);
                for b in cells(v.peers[a]) {
                    assert_ne!(v.peers[b] & 1 << a, 0, "{rules}: {a} {b}");
                }
            }
        }
        assert_eq!(variant("classic").peers[0].count_ones(), 20);
        assert_eq!(variant("x").peers[40].count_ones(), 20 + 12);
        assert_eq!(variant("anti-knight").peers[40].count_ones(), 20 + 8);
        // The king's orthogonal moves are row/column peers already; four diagonal
        // moves are box peers too, so anti-king adds nothing at the box centre.
        assert_eq!(variant("anti-king").peers[40].count_ones(), 20);
        assert_eq!(variant("anti-king").peers[30].count_ones(), 20 + 3);
    }

    #[test]
    fn jigsaw_needs_regions_and_regions_need_jigsaw() {
        let jigsaw: RuleSet = "jigsaw".parse().unwrap();
        assert_eq!(
            Variant::new(jigsaw, None).unwrap_err().to_string(),
            "jigsaw without regions"
        );
        assert_eq!(
            Variant::new(RuleSet::CLASSIC, Some(&Regions::boxes()))
                .unwrap_err()
                .to_string(),
            "regions without jigsaw"
        );
    }

    #[test]
    fn conflicts_name_the_cells_and_the_rule() {
        let cases: [(&str, Givens, &str); 9] = [
            (
                "x",
                &[(1, 1, 7), (1, 5, 7)],
                "givens conflict: r1c1 and r1c5 are both 7",
            ),
            (
                "x",
                &[(1, 1, 7), (5, 5, 7)],
                "givens conflict on the main diagonal: r1c1 and r5c5 are both 7",
            ),
            (
                "x",
                &[(1, 9, 2), (9, 1, 2)],
                "givens conflict on the anti-diagonal: r1c9 and r9c1 are both 2",
            ),
            (
                "windoku",
                &[(2, 4, 3), (4, 3, 3)],
                "givens conflict in the window at r2c2: r2c4 and r4c3 are both 3",
            ),
            (
                "anti-knight",
                &[(1, 3, 4), (2, 5, 4)],
                "anti-knight: r1c3 and r2c5 are both 4",
            ),
            (
                "anti-king",
                &[(3, 3, 4), (4, 4, 4)],
                "anti-king: r3c3 and r4c4 are both 4",
            ),
            (
                "non-consecutive",
                &[(4, 4, 5), (4, 5, 6)],
                "non-consecutive: r4c4 is 5 and r4c5 is 6",
            ),
            (
                "non-consecutive",
                &[(4, 4, 5), (5, 4, 4)],
                "non-consecutive: r4c4 is 5 and r5c4 is 4",
            ),
            (
                "classic",
                &[(4, 4, 5), (6, 6, 5)],
                "givens conflict: r4c4 and r6c6 are both 5",
            ),
        ];
        for (rules, givens, message) in cases {
            let v = variant(rules);
            let g = grid_with(givens);
            assert_eq!(v.check_givens(&g).unwrap_err().to_string(), message);
            // The same givens are fine under classic rules unless classic breaks them.
            if rules != "classic" && !message.starts_with("givens conflict: ") {
                assert!(variant("classic").check_givens(&g).is_ok());
            }
        }
        // Each pair breaks only its own rule.
        let pairs: [(Givens, &str); 3] = [
            (&[(3, 3, 4), (4, 4, 4)], "anti-king"),
            (&[(1, 3, 1), (2, 5, 1)], "anti-knight"),
            (&[(6, 6, 5), (6, 7, 6)], "non-consecutive"),
        ];
        for (givens, breaks) in pairs {
            let g = grid_with(givens);
            for rules in ["classic", "anti-king", "anti-knight", "non-consecutive"] {
                let result = variant(rules).check_givens(&g);
                assert_eq!(result.is_err(), rules == breaks, "{rules} {givens:?}");
            }
        }
    }

    /// The quick test of [`Variant::check_givens`] says a grid breaks nothing exactly
    /// when the pair search finds no pair, on every rule kind: a solution of each rule
    /// set with cells blanked and up to two cells changed, and random partial grids.
    #[test]
    fn the_quick_test_agrees_with_the_pair_search() {
        let mut layout =
            *b"AAABBBCCCAAABBBCCCAAABBBCCCDDDEEEFFFDDDEEEFFFDDDEEEFFFGGGHHHIIIGGGHHHIIIGGGHHHIII";
        layout[3] = b'A';
        layout[20] = b'B';
        let regions = Regions::parse(&layout).unwrap();
        let mut rng = crate::generate::Rng::new(18);
        let mut solver = crate::rules::VariantSolver::new();
        for rules in [
            "classic",
            "x",
            "windoku",
            "x,windoku",
            "anti-knight",
            "anti-king",
            "non-consecutive",
            "anti-king,anti-knight,non-consecutive",
            "jigsaw",
            "jigsaw,x,non-consecutive",
        ] {
            let set: RuleSet = rules.parse().unwrap();
            let v = Variant::new(set, set.contains(Rule::Jigsaw).then_some(&regions)).unwrap();
            let solution = solver.solve(&v, &Grid::EMPTY, 1).first.unwrap();
            let (mut broken, mut whole) = (0, 0);
            for round in 0..3000 {
                let mut cells = [0u8; CELLS];
                if round % 2 == 0 {
                    cells = *solution.cells();
                    for _ in 0..rng.below(3) {
                        cells[rng.below(81) as usize] = 1 + rng.below(9) as u8;
                    }
                    for _ in 0..rng.below(81) {
                        cells[rng.below(81) as usize] = 0;
                    }
                } else {
                    for _ in 0..1 + rng.below(30) {
                        cells[rng.below(81) as usize] = 1 + rng.below(9) as u8;
                    }
                }
                let g = Grid::from_cells(cells).unwrap();
                let quick = v.breaks_none(&g);
                assert_eq!(quick, v.first_conflict(&g).is_ok(), "{rules}: {g}");
                broken += usize::from(!quick);
                whole += usize::from(quick);
            }
            // Both answers were met often, so that the comparison means something.
            assert!(
                broken > 300 && whole > 300,
                "{rules}: {broken} broken, {whole} whole"
            );
        }
    }

    #[test]
    fn region_conflicts_use_the_region_symbol() {
        let layout =
            "AAABBBCCCAAABBBCCCAAABBBCCCDDDEEEFFFDDDEEEFFFDDDEEEFFFGGGHHHIIIGGGHHHIIIGGGHHHIII";
        // Trade two cells: r1c4 joins region A, r3c3 joins region B.
        let mut bytes = layout.as_bytes().to_vec();
        bytes[3] = b'A';
        bytes[20] = b'B';
        let regions = Regions::parse(&bytes).unwrap();
        let v = Variant::new("jigsaw".parse().unwrap(), Some(&regions)).unwrap();
        let g = grid_with(&[(1, 4, 6), (2, 2, 6)]);
        assert_eq!(
            v.check_givens(&g).unwrap_err().to_string(),
            "givens conflict in region 'A': r1c4 and r2c2 are both 6"
        );
        // Same digits in the old box of r1c4 are fine now.
        let g = grid_with(&[(1, 4, 6), (2, 5, 6)]);
        assert!(v.check_givens(&g).is_ok());
        // Rows still apply, in classic wording.
        let g = grid_with(&[(1, 4, 6), (1, 9, 6)]);
        assert_eq!(
            v.check_givens(&g).unwrap_err().to_string(),
            "givens conflict: r1c4 and r1c9 are both 6"
        );
    }

    #[test]
    fn classic_pictures_are_unchanged_and_variants_are_marked() {
        let g: Grid =
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
                .parse()
                .unwrap();
        for rules in ["classic", "anti-knight", "anti-king,non-consecutive"] {
            assert_eq!(variant(rules).to_boxed(&g), g.to_boxed());
        }
        let x = variant("x").to_boxed(&g);
        let expected = [
            "+-----------+-----------+-----------+",
            "|\\8\\  .   . | .   .   . | .   .  /./|",
            "| .  \\.\\  3 | 6   .   . | .  /./  . |",
            "| .   7  \\.\\| .   9   . |/2/  .   . |",
            "+-----------+-----------+-----------+",
            "| .   5   . |\\.\\  .  /7/| .   .   . |",
            "| .   .   . | .  X4X  5 | 7   .   . |",
        ];
        assert_eq!(x.lines().take(7).collect::<Vec<_>>(), expected);
        assert_eq!(x.lines().count(), 9 + 4 + 1);
        assert_eq!(
            x.lines().last().unwrap(),
            "\\ \\ main diagonal, / / anti-diagonal"
        );
        let w = variant("windoku").to_boxed(&Grid::EMPTY);
        assert_eq!(
            w.lines().nth(2).unwrap(),
            "| .  [.] [.]|[.]  .  [.]|[.] [.]  . |"
        );
        assert_eq!(
            w.lines().nth(6).unwrap(),
            "| .   .   . | .   .   . | .   .   . |"
        );
        // Jigsaw: a border wherever neighbouring cells change region. Trade r1c3 (box
        // 1) and r1c4 (box 2).
        let mut bytes = Regions::boxes().to_line().into_bytes();
        bytes.swap(2, 3);
        let regions = Regions::parse(&bytes).unwrap();
        let v = Variant::new("jigsaw".parse().unwrap(), Some(&regions)).unwrap();
        let pic = v.to_boxed(&g);
        let lines: Vec<&str> = pic.lines().collect();
        assert_eq!(lines[0], "+-------+---+---+-------+-----------+");
        assert_eq!(lines[1], "| 8   . | . | . | .   . | .   .   . |");
        assert_eq!(lines[2], "|       +---+---+       |           |");
        assert_eq!(lines[3], "| .   .   3 | 6   .   . | .   .   . |");
        assert_eq!(lines.len(), 9 + 5);
    }
}
