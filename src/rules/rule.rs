//! One rule as the rest of the crate sees it: the [`RuleDef`] trait.
//!
//! Each rule is one file of this module (`x.rs`, `windoku.rs`, `anti_knight.rs`,
//! `anti_king.rs`, `non_consecutive.rs`, `disjoint.rs`, `jigsaw.rs`) with one value
//! implementing [`RuleDef`], listed once in `mod.rs` (the [`super::Rule`] entry and its
//! line in the registry). Everything else is built from what the rules say here:
//!
//! - the rule table ([`super::Variant`]): houses, peers (cells that may not share a
//!   digit) and links (neighbours whose digits are related), and from them the givens
//!   check, its messages and the boxed picture;
//! - the engines: the generic engine runs any rule from the table alone (a placed digit
//!   leaves its peers, and the digits its links ban leave its neighbours; every house
//!   gets hidden singles and locked candidates), and so does the box-band engine for
//!   rules that keep the boxes; a rule's [`Shape`] turns on the inferences the box-band
//!   engine has for that structure (diagonals, windows, knight or king moves,
//!   consecutive neighbours);
//! - the symmetries ([`super::Symmetries`]), found from the peers and links;
//! - generation, which relabels digits freely only without links.
//!
//! So a rule that adds houses, peers or a neighbour relation is one new file; the
//! tests of the table (`tests/rules.rs`, a brute-force reference written from the
//! rules' wording) and the engines' comparisons pick it up through
//! [`super::RuleSet::all_combinations`].

use crate::grid::CELLS;

use super::table::HouseKind;

/// Neighbours whose digits are related: a cell holding `d` bans the digits `ban[d]`
/// (bit `e - 1` for digit `e`) from each cell of `near[cell]`. Non-consecutive: the
/// orthogonal neighbours, `d - 1` and `d + 1`. The relation must be symmetric (a cell
/// is near its near cells, and `e` in `ban[d]` exactly when `d` is in `ban[e]`).
#[derive(Clone, PartialEq, Eq)]
pub struct Link {
    /// The neighbours of each cell.
    pub near: [u128; CELLS],
    /// Index 1..=9: the digits a neighbour of that digit may not hold; index 0 unused.
    pub ban: [u16; 10],
}

impl std::fmt::Debug for Link {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Link").field("ban", &self.ban).finish()
    }
}

/// The structures the box-band engine has inferences of its own for. A rule declares
/// the ones it has; a rule with none still runs there on the generic paths (its houses
/// and peers), unless it has a [`Link`] the engine has no shape for, which sends its
/// rule sets to the generic engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Shape {
    /// The two main diagonals are houses.
    pub diagonals: bool,
    /// The four windoku windows are houses.
    pub windows: bool,
    /// Cells a knight's move apart are peers.
    pub knight: bool,
    /// Cells a king's move apart are peers.
    pub king: bool,
    /// Orthogonal neighbours may not hold consecutive digits (the link of
    /// non-consecutive).
    pub consecutive: bool,
}

impl Shape {
    /// Both shapes' structures.
    pub fn union(self, other: Shape) -> Shape {
        Shape {
            diagonals: self.diagonals | other.diagonals,
            windows: self.windows | other.windows,
            knight: self.knight | other.knight,
            king: self.king | other.king,
            consecutive: self.consecutive | other.consecutive,
        }
    }
}

/// One rule: what it adds to the classic rules. Every method but the name and summary
/// has a default meaning "nothing of that kind". Read through [`super::Rule::def`].
///
/// ```
/// use bulkdoku::rules::Rule;
/// let knight = Rule::AntiKnight.def();
/// assert_eq!(knight.name(), "anti-knight");
/// // r1c1's knight peers: r2c3 and r3c2.
/// assert_eq!(knight.peers(0), 1 << 11 | 1 << 19);
/// assert!(Rule::NonConsecutive.def().link().is_some());
/// assert_eq!(Rule::Disjoint.def().houses().len(), 9);
/// ```
pub trait RuleDef: Sync {
    /// The name in a rule list (`anti-knight`).
    fn name(&self) -> &'static str;

    /// What the rule says, in one sentence (for `--help` and the docs).
    fn summary(&self) -> &'static str;

    /// Houses the rule adds: nine cells each, every digit once.
    fn houses(&self) -> Vec<(u128, HouseKind)> {
        Vec::new()
    }

    /// Where a house of this rule is, for messages ("on the main diagonal"); `index`
    /// as in the kinds [`RuleDef::houses`] gives.
    fn house_place(&self, index: u8) -> String {
        format!("in {} house {}", self.name(), index + 1)
    }

    /// Cells that may not hold `cell`'s digit, beyond the houses (a knight's move).
    fn peers(&self, _cell: usize) -> u128 {
        0
    }

    /// A relation between the digits of neighbouring cells.
    fn link(&self) -> Option<Link> {
        None
    }

    /// How `cell` is drawn in a boxed picture: the characters either side of its digit
    /// (`\5\` on the main diagonal), or `None`.
    fn mark(&self, _cell: usize) -> Option<(char, char)> {
        None
    }

    /// The legend line's words for [`RuleDef::mark`].
    fn legend(&self) -> Option<&'static str> {
        None
    }

    /// True for a rule whose houses replace the 3×3 boxes (jigsaw: its regions come
    /// with the puzzle, so [`RuleDef::houses`] has none).
    fn replaces_boxes(&self) -> bool {
        false
    }

    /// The structures the box-band engine's own inferences key on.
    fn shape(&self) -> Shape {
        Shape::default()
    }
}

/// The cells at `offsets` (row, column) from `cell` that are on the grid.
pub(crate) const fn offsets_mask(cell: usize, offsets: &[(i32, i32)]) -> u128 {
    let (r, c) = ((cell / 9) as i32, (cell % 9) as i32);
    let mut mask = 0u128;
    let mut i = 0;
    while i < offsets.len() {
        let (r, c) = (r + offsets[i].0, c + offsets[i].1);
        if 0 <= r && r < 9 && 0 <= c && c < 9 {
            mask |= 1u128 << (r * 9 + c);
        }
        i += 1;
    }
    mask
}

/// [`offsets_mask`] of every cell, for tables built at compile time.
pub(crate) const fn offsets_masks(offsets: &[(i32, i32)]) -> [u128; CELLS] {
    let mut masks = [0u128; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        masks[cell] = offsets_mask(cell, offsets);
        cell += 1;
    }
    masks
}

/// The cells of a 3×3 square whose top-left cell is (row, col).
pub(crate) fn square(row: usize, col: usize) -> u128 {
    (0..9).fold(0, |m, i| m | 1u128 << ((row + i / 3) * 9 + col + i % 3))
}
