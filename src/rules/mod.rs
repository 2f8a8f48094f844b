//! Variant rules: which rules a puzzle is played under, and everything that depends on
//! them (parsing, the rule table, the generic engine, generation, symmetries).
//!
//! The classic engine in [`crate::solver`] stays the path for classic puzzles. This
//! module owns the rest:
//! - [`Rule`] and [`RuleDef`] (`rule.rs`): one rule, one file (`x.rs`, `windoku.rs`,
//!   `anti_knight.rs`, `anti_king.rs`, `non_consecutive.rs`, `jigsaw.rs`,
//!   `disjoint.rs`): the houses, peers and links it adds, how it is named, drawn and
//!   worded, and the structures the box-band engine has inferences for.
//! - [`RuleSet`]: a set of rules (`x`, `windoku`, `anti-knight`, `anti-king`,
//!   `non-consecutive`, `jigsaw`, `disjoint`) parsed from a comma-separated list.
//! - [`Regions`] (`regions.rs`): the nine irregular regions of a jigsaw puzzle, parsed
//!   from an 81-character string or drawn at random.
//! - [`Variant`] (`table.rs`): the rule table of one rule set (and regions), built once
//!   from the rules' definitions: houses as cell masks, per-cell peer masks, links. It
//!   checks givens and solutions against every active rule and draws a grid with its
//!   regions and marked cells.
//! - [`VariantSolver`] (`engine.rs`): solves under any [`Variant`]: the classic engine
//!   for classic rules, the box-band engine (`bands.rs`) for other rule sets that keep
//!   the 3×3 boxes (its vector search, `xlanes.rs`, for x, windoku, x,windoku,
//!   anti-king and non-consecutive), the generic engine for jigsaw and disjoint (or any
//!   engine forced, [`EngineChoice`]); rule sets with few complete grids are answered
//!   from the list of them (`catalog.rs`).
//! - [`generate_one`] (`generate.rs`): random minimal puzzles unique under the rules.
//! - [`canonical`] (`symmetry.rs`): canonical forms under the symmetries that preserve
//!   a rule set.
//! - [`record_rules`] (`record.rs`): the rules of one record of a dataset (its own rules
//!   column or the run's default, and its regions), and [`Variants`], their tables.
//!
//! ```
//! use bulkdoku::rules::{RuleSet, Variant, VariantSolver};
//! use bulkdoku::Grid;
//!
//! let rules: RuleSet = "x".parse().unwrap();
//! let variant = Variant::new(rules, None).unwrap();
//! let puzzle = Grid::parse(
//!     b"......4..3.......68..5.6.........2............83.1..9.23....1....1...5.4......6..",
//! )
//! .unwrap();
//! variant.check_givens(&puzzle).unwrap();
//! let outcome = VariantSolver::new().solve(&variant, &puzzle, 2);
//! assert_eq!(outcome.solutions, 1);
//! assert!(variant.is_solution(&outcome.first.unwrap()));
//! ```

// The rules, one file each (see `rule.rs`).
mod anti_king;
mod anti_knight;
mod disjoint;
mod jigsaw;
mod non_consecutive;
mod windoku;
mod x;

mod bands;
mod catalog;
mod engine;
mod generate;
mod leftovers;
mod non_consecutive_places;
mod placements;
mod record;
mod regions;
mod rule;
mod symmetry;
mod table;
mod xlanes;

use std::fmt;
use std::str::FromStr;

#[doc(hidden)]
pub use engine::generic_candidates;
pub use engine::{count, solve, EngineChoice, VariantSolver, Vectors};
pub use generate::{
    generate_one, grid_exists, random_solution, GenerateError, Generated, JIGSAW_LAYOUTS,
    JIGSAW_SEARCH_CAP, NO_GRID,
};
pub use record::{record_rules, RecordRules, Variants};
pub use regions::{RegionError, Regions};
pub use rule::{Link, RuleDef, Shape};
pub use symmetry::{canonical, Symmetries};
pub use table::{HouseKind, RuleConflict, Variant, VariantError};

/// One rule beyond the classic ones. The classic rules (rows, columns and boxes) are
/// always on, except that [`Rule::Jigsaw`] replaces the boxes by irregular regions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rule {
    /// Each main diagonal holds every digit once (Sudoku-X).
    X,
    /// Each of the four windows whose top-left cells are r2c2, r2c6, r6c2 and r6c6
    /// holds every digit once.
    Windoku,
    /// Two cells a chess knight's move apart never hold the same digit.
    AntiKnight,
    /// Two cells a king's move apart (diagonal neighbours included) never hold the same
    /// digit.
    AntiKing,
    /// Two orthogonally adjacent cells never hold consecutive digits.
    NonConsecutive,
    /// Nine irregular regions of nine cells replace the 3×3 boxes.
    Jigsaw,
    /// The nine cells at the same place in each box hold every digit once (disjoint
    /// groups).
    Disjoint,
}

impl Rule {
    /// Every rule, in the canonical order of [`RuleSet`]'s `Display`.
    pub const ALL: [Rule; 7] = [
        Rule::X,
        Rule::Windoku,
        Rule::AntiKnight,
        Rule::AntiKing,
        Rule::NonConsecutive,
        Rule::Jigsaw,
        Rule::Disjoint,
    ];

    /// What the rule adds to the classic rules: its houses, peers and links, and how
    /// it is drawn and worded (one file per rule, see [`RuleDef`]).
    pub fn def(self) -> &'static dyn RuleDef {
        match self {
            Rule::X => &x::X,
            Rule::Windoku => &windoku::Windoku,
            Rule::AntiKnight => &anti_knight::AntiKnight,
            Rule::AntiKing => &anti_king::AntiKing,
            Rule::NonConsecutive => &non_consecutive::NonConsecutive,
            Rule::Jigsaw => &jigsaw::Jigsaw,
            Rule::Disjoint => &disjoint::Disjoint,
        }
    }

    /// The rule's name as written in a rule list (`anti-knight`, ...).
    pub fn name(self) -> &'static str {
        self.def().name()
    }

    fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

/// A set of rules on top of the classic ones; the empty set is classic Sudoku.
///
/// Parsed from a comma-separated list, case-insensitively, with spaces around names
/// trimmed; repeated names are fine, and `classic` (alone or in a list) adds nothing.
/// Every combination is supported, `jigsaw,windoku` included (the windows are extra
/// houses like any other; a region layout may of course leave no valid grid).
///
/// ```
/// use bulkdoku::rules::{Rule, RuleSet};
/// let rules: RuleSet = " Anti-Knight, x ,x".parse().unwrap();
/// assert!(rules.contains(Rule::X) && rules.contains(Rule::AntiKnight));
/// assert_eq!(rules.to_string(), "x,anti-knight");
/// assert!("classic".parse::<RuleSet>().unwrap().is_classic());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct RuleSet {
    bits: u8,
}

impl RuleSet {
    /// Classic Sudoku: no rule beyond rows, columns and boxes.
    pub const CLASSIC: RuleSet = RuleSet { bits: 0 };

    /// The set holding only `rule`.
    pub fn only(rule: Rule) -> RuleSet {
        RuleSet { bits: rule.bit() }
    }

    /// This set with `rule` added.
    #[must_use]
    pub fn with(self, rule: Rule) -> RuleSet {
        RuleSet {
            bits: self.bits | rule.bit(),
        }
    }

    /// True when `rule` is in the set.
    pub fn contains(self, rule: Rule) -> bool {
        self.bits & rule.bit() != 0
    }

    /// True for classic Sudoku (no extra rule): the band engine's case.
    pub fn is_classic(self) -> bool {
        self.bits == 0
    }

    /// The rules in the set, in canonical order.
    pub fn iter(self) -> impl Iterator<Item = Rule> {
        Rule::ALL.into_iter().filter(move |&r| self.contains(r))
    }

    /// Every rule set (all 128 combinations), classic first.
    pub fn all_combinations() -> impl Iterator<Item = RuleSet> {
        (0..1u8 << Rule::ALL.len()).map(|bits| RuleSet { bits })
    }
}

/// Why a rule list could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleSetError {
    /// A name that is no rule.
    #[error("unknown rule '{name}': the known rules are {}", known_rules())]
    Unknown {
        /// The name as written (trimmed).
        name: String,
    },
    /// An empty list or an empty item (`x,,windoku`).
    #[error("empty rule name in '{list}': the known rules are {}", known_rules())]
    Empty {
        /// The whole list as written.
        list: String,
    },
}

/// `classic, x, windoku, ...`: the names a rule list may use.
pub fn known_rules() -> String {
    std::iter::once("classic")
        .chain(Rule::ALL.iter().map(|r| r.name()))
        .collect::<Vec<_>>()
        .join(", ")
}

impl FromStr for RuleSet {
    type Err = RuleSetError;

    fn from_str(list: &str) -> Result<RuleSet, RuleSetError> {
        let mut set = RuleSet::CLASSIC;
        for item in list.split(',') {
            let name = item.trim();
            if name.is_empty() {
                return Err(RuleSetError::Empty {
                    list: list.to_string(),
                });
            }
            if name.eq_ignore_ascii_case("classic") {
                continue;
            }
            let rule = Rule::ALL
                .into_iter()
                .find(|r| r.name().eq_ignore_ascii_case(name))
                .ok_or_else(|| RuleSetError::Unknown {
                    name: name.to_string(),
                })?;
            set = set.with(rule);
        }
        Ok(set)
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_classic() {
            return f.write_str("classic");
        }
        for (i, rule) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            f.write_str(rule.name())?;
        }
        Ok(())
    }
}

impl From<Rule> for RuleSet {
    fn from(rule: Rule) -> RuleSet {
        RuleSet::only(rule)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_lists_case_insensitively_and_prints_canonically() {
        let cases = [
            ("classic", "classic"),
            ("CLASSIC", "classic"),
            ("classic,x", "x"),
            ("x", "x"),
            (" windoku , X ", "x,windoku"),
            ("anti-king,anti-knight,x,x", "x,anti-knight,anti-king"),
            ("non-consecutive,jigsaw", "non-consecutive,jigsaw"),
            ("jigsaw,windoku", "windoku,jigsaw"),
        ];
        for (text, shown) in cases {
            let set: RuleSet = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(set.to_string(), shown, "{text}");
            assert_eq!(set.to_string().parse::<RuleSet>().unwrap(), set);
        }
        assert!("classic".parse::<RuleSet>().unwrap().is_classic());
        assert!(!"x".parse::<RuleSet>().unwrap().is_classic());
    }

    #[test]
    fn unknown_and_empty_names_list_the_known_rules() {
        let err = "x,knight".parse::<RuleSet>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown rule 'knight': the known rules are classic, x, windoku, anti-knight, \
             anti-king, non-consecutive, jigsaw, disjoint"
        );
        let err = "x,,windoku".parse::<RuleSet>().unwrap_err();
        assert!(err
            .to_string()
            .starts_with("empty rule name in 'x,,windoku'"));
        assert!("".parse::<RuleSet>().is_err());
    }

    #[test]
    fn every_combination_round_trips() {
        let all: Vec<RuleSet> = RuleSet::all_combinations().collect();
        assert_eq!(all.len(), 1 << Rule::ALL.len());
        for set in all {
            assert_eq!(set.to_string().parse::<RuleSet>().unwrap(), set);
        }
    }
}
