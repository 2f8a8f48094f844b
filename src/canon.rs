//! Canonical forms of puzzles under the Sudoku symmetries (being written).
