//! What a technique reports: its name, difficulty, and what it places or removes.

use std::collections::BTreeSet;
use std::sync::Mutex;

use super::board::{Board, Cells};

/// The technique names made at run time, each kept once for the process.
static NAMES: Mutex<BTreeSet<&'static str>> = Mutex::new(BTreeSet::new());

/// A technique name that carries its pattern's shape, as Sudoku Explainer prints some
/// ("WXYZ-Wing 137", "Grouped 2-String Kite 112", "Unique Loop 6 type 2"), as a
/// `&'static str` like the fixed names. The shapes are few (a wing's or a chain's size
/// is bounded), so the names kept stay few; a producer makes one only for a hint it
/// keeps, not for every candidate pattern.
pub fn named(name: String) -> &'static str {
    let mut names = NAMES.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(&kept) = names.get(name.as_str()) {
        return kept;
    }
    let kept: &'static str = Box::leak(name.into_boxed_str());
    names.insert(kept);
    kept
}

/// One applicable deduction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hint {
    /// The technique's name as Sudoku Explainer prints it.
    pub name: &'static str,
    /// Difficulty in tenths.
    pub difficulty: u8,
    /// A digit placed: (cell, digit 1..=9).
    pub place: Option<(u8, u8)>,
    /// Candidates removed, one cell set per digit (index `d - 1`).
    pub elim: [Cells; 9],
}

impl Hint {
    /// A hint with nothing placed or removed yet.
    pub fn new(name: &'static str, difficulty: u8) -> Hint {
        Hint {
            name,
            difficulty,
            place: None,
            elim: [0; 9],
        }
    }

    /// A placement.
    pub fn placing(name: &'static str, difficulty: u8, cell: usize, d: u8) -> Hint {
        Hint {
            name,
            difficulty,
            place: Some((cell as u8, d)),
            elim: [0; 9],
        }
    }

    /// Whether it removes any candidate still on `b`.
    pub fn removes_any(&self, b: &Board) -> bool {
        self.elim
            .iter()
            .zip(b.digit.iter())
            .any(|(e, d)| e & d != 0)
    }

    /// Apply to `b`: eliminations first, then the placement.
    pub fn apply(&self, b: &mut Board) {
        b.eliminate(&self.elim);
        if let Some((c, d)) = self.place {
            b.place(c as usize, d);
        }
    }
}
