//! The candidate state of one position and its propagation.
//!
//! Candidates are kept per digit and band: `cand[digit * 3 + band]` is a 27-bit mask of
//! the band's cells where the digit may still go (see [`super::tables`]). In this layout
//! a digit's whole situation in a band is one word, so the reasoning about it is a few
//! table lookups instead of loops over houses:
//!
//! - its rows and boxes must be matched one to one: [`CONSISTENT`] removes segments no
//!   matching can use (pointing and claiming in one step), [`FORCED`] names the segments
//!   every matching uses;
//! - a box whose stack offers a single column claims that column from the other bands
//!   ([`OTHER_BANDS_KEEP`]), which also carries every placed digit down its column;
//! - a forced segment with a single column is a placed digit: the other digits leave
//!   that cell.
//!
//! Besides these, cells with one candidate left (naked singles) are placed, and cells
//! with two are remembered for branching. In heavy mode (see [`State::enter_heavy`])
//! settling also keeps a per-digit summary of segments and columns, on which the triad
//! rules ([`State::triads`]) and the choice of a placement to branch on
//! ([`State::choose_placement`]) work three bands at a time. A slot is re-examined only when its word
//! differs from the one last examined (`seen`), which makes the fixpoint cheap. Wide
//! propagations (from the givens, in hard searches, in heavy mode) find such slots by
//! comparing all 27 words; the narrow ones after a guess in light mode, which change a
//! slot or two at a time, have the examinations mark the slots they change instead
//! ([`State::settle_marked`]).
//!
//! The layout follows the idea of the JCZSolve family of solvers (candidates per digit
//! and band, row/box tables); the code and tables here are our own.

use super::tables::{
    BAND, BAND_PEERS, COLUMN, CONSISTENT_MAP, OWN_COLUMNS_KEEP, PLACEMENTS, PLACEMENT_COUNT,
    PLACEMENT_SEGMENTS, SEGMENTS, SEGMENT_CELLS, SLOT_TABLES,
};
use crate::grid::{Grid, CELLS};

/// Slot index of a digit (0-based) in a band.
#[inline(always)]
fn slot(digit: usize, band: usize) -> usize {
    digit * 3 + band
}

/// Per slot: its band, and the same digit's slots in the other two bands.
pub(crate) static SLOT_BANDS: [(u8, u8, u8); 27] = {
    let mut t = [(0u8, 0u8, 0u8); 27];
    let mut k = 0;
    while k < 27 {
        let base = k - k % 3;
        t[k] = (
            (k % 3) as u8,
            (base + (k + 1) % 3) as u8,
            (base + (k + 2) % 3) as u8,
        );
        k += 1;
    }
    t
};

/// The slots (bit `k` for slot `k`) whose word differs from the one last examined.
///
/// One compare per slot into a bit mask, instead of a branch per slot: which slots
/// changed is close to random, so a branch per slot mispredicts often. The words are
/// read one at a time on purpose (volatile reads, which the compiler may not merge):
/// most of them were just written one at a time by settling, and a wide vector load
/// over fresh narrow stores cannot take its data from the store buffer and waits for
/// them to reach the cache, which cost more than the branches did.
#[inline(always)]
pub(crate) fn changed_slots(cand: &[u32; 27], seen: &[u32; 27]) -> u32 {
    let mut changed = 0u32;
    for k in 0..27 {
        // SAFETY: both pointers come from references to live arrays, `k` is in bounds,
        // and `u32` has no invalid values.
        let (now, then) = unsafe {
            (
                std::ptr::read_volatile(cand.as_ptr().add(k)),
                std::ptr::read_volatile(seen.as_ptr().add(k)),
            )
        };
        changed |= u32::from(now != then) << k;
    }
    changed
}

/// A band word's row/box map (bit `row * 3 + box` when the segment has a candidate),
/// as [`SEGMENTS`] gives it a row at a time, with one PEXT. Only for states whose
/// `bmi2` is set (and in the variant band engine only when its tables' `pext` is,
/// which is likewise set only when the CPU has BMI2); inlined into the search compiled
/// with BMI2 it is one instruction (elsewhere a call that is never made).
#[inline(always)]
pub(crate) fn segment_map_bmi2(a: u32) -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: a state's `bmi2` is set only when the CPU has BMI2 (the contract of
        // `set_givens`), and this runs only for such states; the variant band engine
        // calls it only when `crate::solver::bmi2()` said so.
        unsafe { std::arch::x86_64::_pext_u32(a | a >> 1 | a >> 2, 0o111_111_111) as usize }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = a;
        unreachable!("bmi2 is set only on x86-64")
    }
}

/// The columns a band word has candidates in (9 bits).
#[inline(always)]
fn fold_columns(word: u32) -> u32 {
    (word | word >> 9 | word >> 18) & 0x1FF
}

/// A 9-bit column set spread over the three rows of a band.
#[inline(always)]
fn spread_columns(cols: u32) -> u32 {
    cols | cols << 9 | cols << 18
}

/// For each digit (index `digit - 1`), the cells (bit `cell`, 0..81) that hold it.
///
/// On x86-64 sixteen cells are compared at a time (SSE2 is part of the baseline); this
/// is the bulk of setting up a position, which every puzzle pays once.
#[inline(always)]
fn cells_by_digit(cells: &[u8; CELLS]) -> [u128; 9] {
    let mut by_digit = [0u128; 9];
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{
            _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi8,
        };
        // SAFETY: SSE2 is always present on x86-64, and every load reads 16 bytes
        // inside the 81 (the last at 64..80; cell 80 is read on its own).
        let chunks =
            [0, 16, 32, 48, 64].map(|at| unsafe { _mm_loadu_si128(cells.as_ptr().add(at).cast()) });
        for (digit, out) in by_digit.iter_mut().enumerate() {
            let value = digit as u8 + 1;
            let splat = unsafe { _mm_set1_epi8(value as i8) };
            let mut m = u128::from(cells[80] == value) << 80;
            for (i, &chunk) in chunks.iter().enumerate() {
                let hits = unsafe { _mm_movemask_epi8(_mm_cmpeq_epi8(chunk, splat)) };
                m |= u128::from(hits as u16) << (16 * i);
            }
            *out = m;
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    for (cell, &v) in cells.iter().enumerate() {
        if v != 0 {
            by_digit[v as usize - 1] |= 1 << cell;
        }
    }
    by_digit
}

/// Candidate state; `Copy`, so that a branch is one copy (see [`copy_state`]).
///
/// `repr(C)` with the fields in this order leaves no padding: every byte is
/// initialised, which [`copy_state`] relies on.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub(crate) struct State {
    /// Per digit, as last examined (kept up only in heavy mode): its segments in band
    /// `b` (bit `row * 3 + box`) at bits `9b..9b + 9`, its columns in band `b` at bits
    /// `32 + 9b..32 + 9b + 9`.
    units: [u64; 9],
    cand: [u32; 27],
    /// Each slot's word as last examined; a slot is examined again when it differs.
    seen: [u32; 27],
    unsolved_cells: [u32; 3],
    /// Slots changed since the last propagation by branching (and, within a narrow
    /// propagation, by naked singles): where [`State::settle_marked`] starts. Kept
    /// only between propagations in light mode; extra bits cost an examination, never a
    /// wrong result.
    dirty: u32,
    /// Open cells with exactly two candidates, as of the last naked-single pass.
    pairs: [u32; 3],
    /// Digits (bit `digit`) settled since the last column claiming: only they can claim
    /// anything new.
    claim_digits: u16,
    /// Heavy mode (see [`State::enter_heavy`]).
    heavy: bool,
    /// The CPU has BMI2: settling in light mode takes a digit's row/box map with one
    /// PEXT instead of three table lookups (on `puzzles2_17_clue` 4 % faster). Also
    /// makes the size a multiple of 16 without padding.
    bmi2: bool,
}

// No padding, and a whole number of 16-byte words (see `copy_state`).
const _: () = {
    let fields = 9 * 8 + 27 * 4 * 2 + 3 * 4 + 4 + 3 * 4 + 2 + 1 + 1;
    assert!(std::mem::size_of::<State>() == fields);
    assert!(fields % 16 == 0);
};

/// Copy the state at `src` to `dst`, as 16-byte moves written out on x86-64: a plain
/// copy of a value this size compiles to a call to `memmove`, which on the branch and
/// backtrack paths cost more than the copy itself.
///
/// # Safety
///
/// `src` must point to a valid `State` and `dst` to memory valid for writing one; the
/// two must not overlap. Neither needs more alignment than `State` has.
#[inline(always)]
pub(crate) unsafe fn copy_state(src: *const State, dst: *mut State) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_storeu_si128};
        const WORDS: usize = std::mem::size_of::<State>() / 16;
        let (from, to) = (src.cast::<__m128i>(), dst.cast::<__m128i>());
        for i in 0..WORDS {
            // SAFETY: SSE2 is part of x86-64; word `i` lies inside both states (the
            // size is a multiple of 16, checked above), unaligned moves need no
            // alignment, and every byte of a `State` is initialised (no padding).
            unsafe { _mm_storeu_si128(to.add(i), _mm_loadu_si128(from.add(i))) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    // SAFETY: the caller's contract.
    unsafe {
        std::ptr::copy_nonoverlapping(src, dst, 1)
    };
}

/// A found contradiction: this position has no solution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Dead;

/// A cell chosen for branching: its band, its cell within the band, its digits (bit d).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Branch {
    pub band: usize,
    pub cell: usize,
    pub digits: u32,
}

impl State {
    /// A state to set up with [`State::set_givens`]: all zero, no candidates.
    pub const BLANK: State = State {
        units: [0; 9],
        cand: [0; 27],
        seen: [0; 27],
        unsolved_cells: [0; 3],
        dirty: 0,
        pairs: [0; 3],
        claim_digits: 0,
        heavy: false,
        bmi2: false,
    };

    /// Make this the state of a grid's givens, not yet propagated; `Err` when givens
    /// conflict (the state is then not usable). In place, field by field: a `State`
    /// built and then moved costs a call to `memcpy`, which every puzzle would pay.
    /// `bmi2` must be set only when the CPU has BMI2: settling then uses PEXT.
    #[inline(always)]
    pub fn set_givens(&mut self, grid: &Grid, bmi2: bool) -> Result<(), Dead> {
        let by_digit = cells_by_digit(grid.cells());
        // Givens per slot, and filled cells per band.
        let mut given = [0u32; 27];
        let mut filled = [0u32; 3];
        for (digit, &cells) in by_digit.iter().enumerate() {
            for band in 0..3 {
                let g = (cells >> (27 * band)) as u32 & BAND;
                given[slot(digit, band)] = g;
                filled[band] |= g;
            }
        }
        let s = self;
        // Never equal to a 27-bit word: every slot gets examined once.
        s.seen = [u32::MAX; 27];
        s.unsolved_cells = [BAND & !filled[0], BAND & !filled[1], BAND & !filled[2]];
        s.dirty = 0;
        s.claim_digits = 0x1FF;
        s.pairs = [0; 3];
        s.units = [0; 9];
        s.heavy = false;
        s.bmi2 = bmi2;
        for digit in 0..9 {
            let k = slot(digit, 0);
            let columns = [
                fold_columns(given[k]),
                fold_columns(given[k + 1]),
                fold_columns(given[k + 2]),
            ];
            for band in 0..3 {
                let g = given[k + band];
                let mut peers = 0;
                let mut m = g;
                while m != 0 {
                    peers |= BAND_PEERS[m.trailing_zeros() as usize];
                    m &= m - 1;
                }
                let column_givens =
                    spread_columns(columns[(band + 1) % 3] | columns[(band + 2) % 3]);
                if (peers | column_givens) & g != 0 {
                    return Err(Dead);
                }
                s.cand[k + band] = (BAND & !filled[band] & !peers & !column_givens) | g;
            }
        }
        Ok(())
    }

    /// True when every cell holds a digit.
    #[inline(always)]
    pub fn is_solved(&self) -> bool {
        (self.unsolved_cells[0] | self.unsolved_cells[1] | self.unsolved_cells[2]) == 0
    }

    /// Number of cells without a digit yet.
    #[inline(always)]
    pub fn open_cells(&self) -> u32 {
        self.unsolved_cells.iter().map(|m| m.count_ones()).sum()
    }

    /// Every open cell (0..81) with its candidate digits (bit `d` for digit `d + 1`).
    pub fn open_cell_digits(&self) -> impl Iterator<Item = (usize, u32)> + '_ {
        (0..3).flat_map(move |band| {
            let open = self.unsolved_cells[band];
            let mut m = open;
            std::iter::from_fn(move || {
                (m != 0).then(|| {
                    let cell = m.trailing_zeros() as usize;
                    m &= m - 1;
                    (band * 27 + cell, self.digits_at(band, cell))
                })
            })
        })
    }

    /// The band with the most open cells (the last of equals).
    pub fn most_open_band(&self) -> usize {
        let open = self.unsolved_cells.map(u32::count_ones);
        (0..3).max_by_key(|&b| open[b]).expect("three bands")
    }

    /// True when no cell outside `band` is open.
    #[inline(always)]
    pub fn open_only_in(&self, band: usize) -> bool {
        (0..3).all(|b| b == band || self.unsolved_cells[b] == 0)
    }

    /// The digits placed in `band` (row-major, 0 for an open cell), and the digits
    /// each column lacks in the whole grid (bit `d` for digit `d + 1`).
    #[inline(always)]
    pub fn band_and_columns(&self, band: usize) -> ([u8; 27], [u16; 9]) {
        let mut cells = [0u8; 27];
        let mut col_missing = [0x1FFu16; 9];
        let placed = |b: usize, digit: usize| self.cand[slot(digit, b)] & !self.unsolved_cells[b];
        for digit in 0..9 {
            let mut m = placed(band, digit);
            while m != 0 {
                cells[m.trailing_zeros() as usize] = digit as u8 + 1;
                m &= m - 1;
            }
            let cols = fold_columns(placed(0, digit) | placed(1, digit) | placed(2, digit));
            for (c, missing) in col_missing.iter_mut().enumerate() {
                *missing &= !(((cols >> c) as u16 & 1) << digit);
            }
        }
        (cells, col_missing)
    }

    /// Read the digits of a solved state (every cell has exactly one candidate left).
    pub fn solution_grid(&self) -> Grid {
        // A solved slot holds exactly three cells, one per row of its band: three
        // steps each, with no loop to mispredict. Writes land in a buffer with room for
        // any bit index, so that no step needs a bounds check.
        let mut cells = [0u8; CELLS + 32];
        for (k, &word) in self.cand.iter().enumerate() {
            let (value, base) = (k as u8 / 3 + 1, (k % 3) * 27);
            debug_assert_eq!(word.count_ones(), 3, "a solved slot");
            let mut m = word;
            for _ in 0..3 {
                cells[base + m.trailing_zeros() as usize] = value;
                m &= m.wrapping_sub(1);
            }
        }
        let cells: [u8; CELLS] = cells[..CELLS].try_into().expect("81 cells");
        Grid::from_cells(cells).expect("digits are 1..=9")
    }

    /// Put `digit` in `cell` of `band`: it leaves the cell's row and box. The rest
    /// follows when the slot is examined, which it is made to be: the cell, now alone
    /// in its row and box, is found placed there (the other digits leave it, it stops
    /// being open), and the column follows in the other bands. The caller knows the
    /// candidate is present.
    #[inline(always)]
    pub fn assign(&mut self, digit: usize, band: usize, cell: usize) {
        let k = slot(digit, band);
        self.cand[k] = (self.cand[k] & !BAND_PEERS[cell]) | 1 << cell;
        self.seen[k] = u32::MAX;
        self.dirty |= 1 << k;
    }

    /// Remove one candidate (the other side of a branch).
    #[inline(always)]
    pub fn forbid(&mut self, digit: usize, band: usize, cell: usize) {
        let k = slot(digit, band);
        self.cand[k] &= !(1 << cell);
        self.dirty |= 1 << k;
    }

    /// Propagate until nothing more follows without guessing. Column claiming (the
    /// dearest rule of the light mode, see [`State::claim_columns`]) runs only when
    /// `claim` is set or in heavy mode; heavy mode adds the triad rules
    /// ([`State::triads`]) when nothing else follows.
    ///
    /// Always inlined, like everything on the search path: the search is compiled once
    /// per instruction set as a whole (see `fast_bits` in the parent module).
    #[inline(always)]
    pub fn propagate(&mut self, claim: bool) -> Result<(), Dead> {
        loop {
            // Two copies of the slot loop: the light one does not keep `units`.
            if self.heavy {
                self.settle_all_heavy()?;
            } else if claim {
                self.settle_all::<false>()?;
            } else {
                self.settle_marked()?;
            }
            if self.is_solved() {
                // At the fixpoint of the slot rules every digit holds one cell in each
                // row, box and column of its bands: nothing is left to check.
                return Ok(());
            }
            if self.naked_singles()? {
                continue;
            }
            // Heavy mode claims columns always, then tries the triad rules.
            let more = ((claim || self.heavy) && self.claim_columns()?)
                || (self.heavy && self.triads()?);
            if !more {
                return Ok(());
            }
        }
    }

    /// Switch to heavy mode, for puzzles that are still wide open at their first
    /// guess: from now on propagation adds the triad rules and the search branches on
    /// a digit's placement in a band or stack (see [`State::choose_placement`]). Both
    /// read the per-digit summary `units`, which settling keeps up from now on; here it
    /// is filled in from the (propagated) candidates.
    pub fn enter_heavy(&mut self) {
        self.heavy = true;
        for (k, &a) in self.cand.iter().enumerate() {
            let map = SEGMENTS[(a & 0x1FF) as usize] as u32
                | (SEGMENTS[((a >> 9) & 0x1FF) as usize] as u32) << 3
                | (SEGMENTS[(a >> 18) as usize] as u32) << 6;
            let (digit, band) = (k / 3, k % 3);
            let shift = 9 * band;
            self.units[digit] = (self.units[digit] & !((0x1FF << shift) | (0x1FF << (32 + shift))))
                | u64::from(map) << shift
                | u64::from(fold_columns(a)) << (32 + shift);
        }
    }

    /// True in heavy mode.
    #[inline(always)]
    pub fn is_heavy(&self) -> bool {
        self.heavy
    }

    /// Record a digit's segments and columns in a band in its `units` word.
    #[inline(always)]
    fn set_unit(&mut self, digit: usize, band: usize, segments: u32, cols: u32) {
        let shift = 9 * band;
        self.units[digit] = (self.units[digit] & !((0x1FF << shift) | (0x1FF << (32 + shift))))
            | u64::from(segments) << shift
            | u64::from(cols) << (32 + shift);
    }

    /// [`State::settle_all`] keeping `units` up, out of line: the heavy mode's code
    /// stays out of the light search loop, which is faster when it fits the
    /// instruction cache.
    #[inline(never)]
    fn settle_all_heavy(&mut self) -> Result<(), Dead> {
        self.settle_all::<true>()
    }

    /// Examine every changed slot until none changes.
    #[inline(always)]
    fn settle_all<const HEAVY: bool>(&mut self) -> Result<(), Dead> {
        // The scan finds every change: the marks are not needed.
        self.dirty = 0;
        loop {
            let mut changed = changed_slots(&self.cand, &self.seen);
            if changed == 0 {
                return Ok(());
            }
            // The slots are examined in the order of this snapshot, whatever the
            // examining changes: the next slot does not wait for the last one to
            // finish, so that several are in flight at once. Slots that change
            // meanwhile are found on the next round (or examined now with their
            // latest word, if they are still to come).
            while changed != 0 {
                let k = changed.trailing_zeros() as usize;
                changed &= changed - 1;
                self.settle_slot::<HEAVY, false>(k)?;
            }
        }
    }

    /// [`State::settle_all`] for narrow propagations (after a guess, in light mode,
    /// before the search turns hard): the changed slots are marked by whatever changed
    /// them (the branch, the examinations, naked singles) instead of found by a scan.
    ///
    /// Such propagations run in chains, a slot or two changing at a time (on
    /// `puzzles7_serg_benchmark` 1.5 slots per scan of all 27), where a scan per link
    /// costs more than the marking: nine compares per examination for the placed
    /// cells, two for the columns. Wide propagations keep the scan, which serves many
    /// slots at once (marking everywhere measured serg +10 %, forum −11 %, 17_clue
    /// −17 %; marking also in hard light searches, 17_clue −3 %).
    #[inline(always)]
    fn settle_marked(&mut self) -> Result<(), Dead> {
        let mut changed = std::mem::take(&mut self.dirty);
        debug_assert_eq!(
            changed_slots(&self.cand, &self.seen) & !changed,
            0,
            "a changed slot not marked"
        );
        while changed != 0 {
            let mut snapshot = changed;
            changed = 0;
            while snapshot != 0 {
                let k = snapshot.trailing_zeros() as usize;
                snapshot &= snapshot - 1;
                changed = (changed | self.settle_slot::<false, true>(k)?) & !(1 << k);
            }
        }
        // Not kept per examination here: claiming a digit whose words did not change
        // since it last claimed finds nothing, so all of them may claim next time.
        self.claim_digits = 0x1FF;
        Ok(())
    }

    /// Settle one digit in one band (see the module docs for the three rules).
    #[inline(always)]
    fn settle_slot<const HEAVY: bool, const MARK: bool>(&mut self, k: usize) -> Result<u32, Dead> {
        let (band, b1, b2) = SLOT_BANDS[k];
        let (band, b1, b2) = (band as usize, b1 as usize, b2 as usize);
        let digit = k / 3;
        if !MARK {
            self.claim_digits |= 1 << digit;
        }
        let t = &SLOT_TABLES;
        let a = self.cand[k];
        // Not in heavy mode: its out-of-line loop is compiled without BMI2, where the
        // PEXT would be a call.
        let map = if !HEAVY && self.bmi2 {
            segment_map_bmi2(a)
        } else {
            t.segments[(a & 0x1FF) as usize] as usize
                | (t.segments[((a >> 9) & 0x1FF) as usize] as usize) << 3
                | (t.segments[(a >> 18) as usize] as usize) << 6
        };
        let [consistent, forced_cells] = t.by_map[map];
        let a = a & consistent;
        if a == 0 {
            return Err(Dead);
        }
        self.seen[k] = a;
        let cols = fold_columns(a);
        if HEAVY {
            self.set_unit(digit, band, CONSISTENT_MAP[map] as u32, cols);
        }
        let [keep, one_column_cells] = t.by_columns[cols as usize];
        let (c1, c2) = (self.cand[b1], self.cand[b2]);
        self.cand[b1] = c1 & keep;
        self.cand[b2] = c2 & keep;
        let mut marks = 0;
        if MARK {
            marks = u32::from(c1 & !keep != 0) << b1 | u32::from(c2 & !keep != 0) << b2;
        }
        // The cells of the forced segments in boxes with one column left (segments
        // do not overlap, so the cells of both sets' intersection).
        let placed = forced_cells & one_column_cells & a;
        // Placed cells leave the other digits. Done whether or not anything is newly
        // placed: nine masked stores cost less than a branch that is hard to predict;
        // the slot's own word is written after them.
        self.unsolved_cells[band] &= !placed;
        let mut band_marks = 0;
        for other in 0..9 {
            let word = self.cand[slot(other, band)];
            self.cand[slot(other, band)] = word & !placed;
            if MARK {
                band_marks |= u32::from(word & placed != 0) << (3 * other);
            }
        }
        self.cand[k] = a;
        Ok(marks | band_marks << band)
    }

    /// Place every open cell that has one candidate left; remember cells with two.
    /// `Ok(true)` if any was placed.
    #[inline(always)]
    fn naked_singles(&mut self) -> Result<bool, Dead> {
        let mut found = false;
        for band in 0..3 {
            let (mut one, mut two, mut three) = (0, 0, 0);
            for digit in 0..9 {
                let c = self.cand[slot(digit, band)];
                three |= two & c;
                two |= one & c;
                one |= c;
            }
            if one != BAND {
                return Err(Dead);
            }
            let open = self.unsolved_cells[band];
            self.pairs[band] = two & !three & open;
            let singles = open & !two;
            if singles != 0 {
                found = true;
                self.unsolved_cells[band] &= !singles;
                for digit in 0..9 {
                    let k = slot(digit, band);
                    let mut hit = self.cand[k] & singles;
                    if hit != 0 {
                        let mut peers = 0;
                        while hit != 0 {
                            peers |= BAND_PEERS[hit.trailing_zeros() as usize];
                            hit &= hit - 1;
                        }
                        let word = self.cand[k];
                        self.cand[k] = word & !peers;
                        self.dirty |= u32::from(word & peers != 0) << k;
                    }
                }
            }
        }
        Ok(found)
    }

    /// For each digit, a column that only one band can still supply claims the digit's
    /// box in that band (its other columns go). `Ok(true)` if anything went.
    #[inline(always)]
    fn claim_columns(&mut self) -> Result<bool, Dead> {
        // Every change reaches `settle_slot` before this runs, so the digits settled
        // since the last call are the only ones with anything new to claim.
        let mut changed = false;
        let mut digits = std::mem::take(&mut self.claim_digits);
        while digits != 0 {
            let digit = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            let k = slot(digit, 0);
            let (a0, a1, a2) = (self.cand[k], self.cand[k + 1], self.cand[k + 2]);
            let (p0, p1, p2) = (fold_columns(a0), fold_columns(a1), fold_columns(a2));
            if p0 | p1 | p2 != 0x1FF {
                return Err(Dead);
            }
            let n0 = a0 & OWN_COLUMNS_KEEP[(p0 & !(p1 | p2)) as usize];
            let n1 = a1 & OWN_COLUMNS_KEEP[(p1 & !(p0 | p2)) as usize];
            let n2 = a2 & OWN_COLUMNS_KEEP[(p2 & !(p0 | p1)) as usize];
            changed |= (n0 != a0) | (n1 != a1) | (n2 != a2);
            self.cand[k] = n0;
            self.cand[k + 1] = n1;
            self.cand[k + 2] = n2;
        }
        Ok(changed)
    }

    /// The triad rules, in both orientations at once. A minirow (a row's three cells in
    /// one box) holds exactly three digits, and so does a minicolumn. Where only three
    /// digits can go, each must (it leaves the rest of its row and box, or its box's
    /// other columns); where three digits must go, no other can. Also a contradiction
    /// when fewer than three can go or more than three must. `Ok(true)` if anything
    /// went.
    ///
    /// Works on `units`, three bands of one digit per word, minirows in the low half
    /// and minicolumns in the high: each count below is a few word operations for all
    /// 54 triads, with counters kept bit-sliced over the nine digits. A digit "must go"
    /// into a minirow when it is the only segment its row has left (the row/box
    /// matching has already run), and into a minicolumn when it is the only column
    /// its box has left.
    #[inline(always)]
    fn triads(&mut self) -> Result<bool, Dead> {
        const LOW: u64 = (1 << 27) - 1;
        const ALL: u64 = LOW | LOW << 32;
        // Bits 3i, 3i + 1, 3i + 2: groups of three (a row's boxes; a box's columns).
        const G0: u64 = 0o111_111_111 | 0o111_111_111 << 32;
        const G1: u64 = G0 << 1;
        const G2: u64 = G0 << 2;
        let others_in_group = |x: u64| {
            ((x & (G1 | G2)) >> 1) | ((x & G0) << 2) | ((x & G2) >> 2) | ((x & (G0 | G1)) << 1)
        };
        // A band's rows in the low half: bits 9b..9b + 3, + 3..+ 6, + 6..+ 9.
        const R0: u64 = 0o007_007_007;
        const R1: u64 = R0 << 3;
        const R2: u64 = R0 << 6;
        let other_rows = |x: u64| {
            ((x & (R1 | R2)) >> 3) | ((x & R0) << 6) | ((x & R2) >> 6) | ((x & (R0 | R1)) << 3)
        };
        // Debug builds check that settling kept `units` in step with the candidates.
        #[cfg(debug_assertions)]
        {
            let mut copy = *self;
            copy.enter_heavy();
            assert_eq!(copy.units, self.units, "stale units");
        }
        // Digits that can go (at least 1..4) and that must go (at least 1..4).
        let (mut can1, mut can2, mut can3, mut can4) = (0u64, 0u64, 0u64, 0u64);
        let (mut must1, mut must2, mut must3, mut must4) = (0u64, 0u64, 0u64, 0u64);
        for &can in &self.units {
            can4 |= can3 & can;
            can3 |= can2 & can;
            can2 |= can1 & can;
            can1 |= can;
            let must = can & !others_in_group(can);
            must4 |= must3 & must;
            must3 |= must2 & must;
            must2 |= must1 & must;
            must1 |= must;
        }
        if can3 != ALL || must4 != 0 {
            return Err(Dead);
        }
        let mut changed = false;
        for digit in 0..9 {
            let can = self.units[digit];
            let must = can & !others_in_group(can);
            let forced = can & !can4 & !must;
            let crowded = must3 & can & !must;
            let gone = others_in_group(forced) | (other_rows(forced) & LOW) | crowded;
            if gone != 0 {
                let (segments, columns) = (gone as u32, (gone >> 32) as u32);
                for band in 0..3 {
                    let k = slot(digit, band);
                    let before = self.cand[k];
                    let after = before
                        & !SEGMENT_CELLS[((segments >> (9 * band)) & 0x1FF) as usize]
                        & !spread_columns((columns >> (9 * band)) & 0x1FF);
                    changed |= after != before;
                    self.cand[k] = after;
                }
            }
        }
        Ok(changed)
    }

    /// Heavy mode's branch: a digit's placement in a band (which row takes which box)
    /// or in a stack (which band takes which column). In the band or stack (outside
    /// band `skip`; no stack unless `skip` is 3) whose digits have the fewest
    /// placements left in all, among those with a digit that has exactly two, the
    /// first such digit. Returns it with its three band words under each of the two
    /// placements (the one that leaves fewer candidates first), or `None` when no band
    /// or stack has such a digit.
    #[inline(always)]
    pub fn choose_placement(&self, skip: usize) -> Option<(usize, [u32; 3], [u32; 3])> {
        // The placements of a digit in stack `s`: its bands against the stack's columns.
        let stack_map = |digit: usize, s: usize| {
            let y = (self.units[digit] >> (32 + 3 * s)) as u32 & 0o007_007_007;
            ((y | y >> 6 | y >> 12) & 0x1FF) as usize
        };
        let band_map =
            |digit: usize, band: usize| ((self.units[digit] >> (9 * band)) & 0x1FF) as usize;
        // Per unit (bands 0..3, stacks 3..6): placements of all digits, and the digits
        // with exactly two (bit `digit`). No branches: which unit wins is hard to
        // predict.
        let mut totals = [0u32; 6];
        let mut twos = [0u32; 6];
        for digit in 0..9 {
            for unit in 0..6 {
                let map = if unit < 3 {
                    band_map(digit, unit)
                } else {
                    stack_map(digit, unit - 3)
                };
                let n = u32::from(PLACEMENT_COUNT[map]);
                totals[unit] += n;
                twos[unit] |= u32::from(n == 2) << digit;
            }
        }
        let mut best: Option<(u32, usize)> = None;
        for unit in 0..6 {
            let allowed = if unit < 3 { unit != skip } else { skip == 3 };
            if allowed && twos[unit] != 0 && best.is_none_or(|(t, _)| totals[unit] < t) {
                best = Some((totals[unit], unit));
            }
        }
        let (_, unit) = best?;
        let digit = twos[unit].trailing_zeros() as usize;
        let words = [
            self.cand[slot(digit, 0)],
            self.cand[slot(digit, 1)],
            self.cand[slot(digit, 2)],
        ];
        let (mut first, mut second) = (words, words);
        if unit < 3 {
            let p = PLACEMENTS[band_map(digit, unit)];
            let (p1, p2) = (p.trailing_zeros() as usize, 7 - p.leading_zeros() as usize);
            first[unit] &= SEGMENT_CELLS[PLACEMENT_SEGMENTS[p1] as usize];
            second[unit] &= SEGMENT_CELLS[PLACEMENT_SEGMENTS[p2] as usize];
        } else {
            // A stack's placement gives each band one of the stack's columns; the
            // band's other columns of the stack go.
            let s = unit - 3;
            let p = PLACEMENTS[stack_map(digit, s)];
            let (p1, p2) = (p.trailing_zeros() as usize, 7 - p.leading_zeros() as usize);
            let stack_cols = 7 << (3 * s);
            for band in 0..3 {
                let keep1 = (PLACEMENT_SEGMENTS[p1] as u32 >> (3 * band)) & 7;
                let keep2 = (PLACEMENT_SEGMENTS[p2] as u32 >> (3 * band)) & 7;
                first[band] &= !spread_columns(stack_cols & !(keep1 << (3 * s)));
                second[band] &= !spread_columns(stack_cols & !(keep2 << (3 * s)));
            }
        }
        // The placement that leaves the digit fewer candidates first: it is the more
        // constrained one, and its branch is settled sooner either way (a solution or
        // a contradiction). On the hardest puzzles that finds a first solution after
        // 3 % fewer guesses; proving uniqueness searches both branches anyway.
        let left = |words: &[u32; 3]| words.iter().map(|w| w.count_ones()).sum::<u32>();
        if left(&second) < left(&first) {
            (first, second) = (second, first);
        }
        Some((digit, first, second))
    }

    /// Set a digit's three band words (one side of a branch on its placement).
    #[inline(always)]
    pub fn set_digit(&mut self, digit: usize, words: [u32; 3]) {
        for (band, word) in words.into_iter().enumerate() {
            self.cand[slot(digit, band)] = word;
        }
    }

    /// The cell to branch on. Unless `scored` is false (then the first cell with two
    /// candidates is taken): among the cells with two candidates, the one whose
    /// branches remove the most candidates from its peers (its two digits in its row,
    /// box and column), so that both branches propagate far; this halves the search
    /// tree on hard puzzles compared with taking the first such cell. Without such
    /// cells, the first cell with the fewest candidates. The state must be propagated
    /// and have an open cell outside band `skip` (3 for none); cells of band `skip` are
    /// passed over.
    #[inline(always)]
    pub fn choose_branch(&self, scored: bool, skip: usize) -> Branch {
        if !scored {
            for band in 0..3 {
                if band == skip {
                    continue;
                }
                let pairs = self.pairs[band];
                if pairs != 0 {
                    let cell = pairs.trailing_zeros() as usize;
                    let digits = self.digits_at(band, cell);
                    return Branch { band, cell, digits };
                }
            }
        }
        // Score at most this many pair cells: the first few score nearly as well as all.
        const SCORED: u32 = 8;
        let mut budget = SCORED;
        // The best so far, kept with selects rather than branches: which cell scores
        // best is close to a coin toss, and a mispredicted branch costs more.
        let (mut best_score, mut best) = (
            -1i32,
            Branch {
                band: 0,
                cell: 0,
                digits: 0,
            },
        );
        for band in 0..3 {
            if band == skip {
                continue;
            }
            let (o1, o2) = ((band + 1) % 3, (band + 2) % 3);
            let mut pairs = self.pairs[band];
            while pairs != 0 && budget != 0 {
                let cell = pairs.trailing_zeros() as usize;
                pairs &= pairs - 1;
                budget -= 1;
                let digits = self.digits_at(band, cell);
                let (d1, d2) = (
                    digits.trailing_zeros() as usize,
                    31 - digits.leading_zeros() as usize,
                );
                let column = COLUMN[cell % 9];
                let score = ((self.cand[slot(d1, band)] | self.cand[slot(d2, band)])
                    & BAND_PEERS[cell])
                    .count_ones()
                    + ((self.cand[slot(d1, o1)] | self.cand[slot(d2, o1)]) & column).count_ones()
                    + ((self.cand[slot(d1, o2)] | self.cand[slot(d2, o2)]) & column).count_ones();
                let better = score as i32 > best_score;
                best_score = if better { score as i32 } else { best_score };
                best = if better {
                    Branch { band, cell, digits }
                } else {
                    best
                };
            }
        }
        if best_score >= 0 {
            return best;
        }
        let mut best: Option<Branch> = None;
        for band in 0..3 {
            if band == skip {
                continue;
            }
            let mut open = self.unsolved_cells[band];
            while open != 0 {
                let cell = open.trailing_zeros() as usize;
                open &= open - 1;
                let digits = self.digits_at(band, cell);
                if best.is_none_or(|b| digits.count_ones() < b.digits.count_ones()) {
                    best = Some(Branch { band, cell, digits });
                }
            }
        }
        best.expect("an unsolved state has an open cell")
    }

    #[inline(always)]
    fn digits_at(&self, band: usize, cell: usize) -> u32 {
        let mut digits = 0;
        for digit in 0..9 {
            digits |= ((self.cand[slot(digit, band)] >> cell) & 1) << digit;
        }
        digits
    }
}
