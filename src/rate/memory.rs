//! A technique's memory of the digits on which it found nothing.

use super::board::Cells;

/// For each of `N` forms of a technique (its degrees or lengths) and each digit, the
/// key of the digit on the last position where the technique's search of it found no
/// hint. A search that reads nothing of a digit but what its key holds (its positions,
/// and for fish its placed count) finds nothing again while the key stays the same:
/// on a hard puzzle most steps change one or two digits, and the other digits'
/// searches are skipped.
#[derive(Debug, Clone)]
pub struct NoHint<K, const N: usize>([[K; 9]; N]);

/// What a [`NoHint`] remembers of a digit.
pub trait Key: Copy + PartialEq {
    /// A key no digit has, so that nothing is remembered yet.
    const UNSEEN: Self;
}

impl Key for Cells {
    // No board has bits past the 81 cells.
    const UNSEEN: Self = Cells::MAX;
}

impl Key for (Cells, u32) {
    const UNSEEN: Self = (Cells::MAX, 0);
}

impl<K: Key, const N: usize> Default for NoHint<K, N> {
    fn default() -> Self {
        NoHint([[K::UNSEEN; 9]; N])
    }
}

impl<K: Key, const N: usize> NoHint<K, N> {
    /// Whether digit `d` (0-based) with `key` is remembered as having no hint of `form`.
    pub fn knows(&self, form: usize, d: usize, key: K) -> bool {
        self.0[form][d] == key
    }

    /// Remember that digit `d` with `key` has no hint of `form`.
    pub fn remember(&mut self, form: usize, d: usize, key: K) {
        self.0[form][d] = key;
    }

    /// Remember that no digit, with these keys, has a hint of `form`.
    pub fn remember_all(&mut self, form: usize, keys: [K; 9]) {
        self.0[form] = keys;
    }
}
