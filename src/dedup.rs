//! First occurrences by fingerprint, in bounded memory: the tables behind `verify`'s
//! duplicate and isomorph findings.
//!
//! Only a 128-bit fingerprint per distinct key (a puzzle, or its canonical form) is
//! kept, with the input and line where it first appeared: a 24-byte entry in hash
//! tables sharded 256 ways (so that growing one never doubles the total), between 29
//! and 57 bytes per distinct key, about 40 on average. 100 million distinct puzzles
//! need about 4 GB. Fingerprint collisions (two different puzzles taken for the same)
//! have odds of about `n² / 2¹²⁹` (see [`crate::canon::fingerprint`]).

use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};

/// A 128-bit fingerprint as a map key: 8-byte aligned (so an entry with its `u64` value
/// is 24 bytes, not 32), hashed by its low word (it is already a good hash).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Fp([u64; 2]);

impl From<u128> for Fp {
    fn from(v: u128) -> Fp {
        Fp([v as u64, (v >> 64) as u64])
    }
}

impl Hash for Fp {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.0[0]);
    }
}

/// A hasher that passes a `u64` through: the keys are fingerprints already.
#[derive(Default)]
struct PassThrough(u64);

impl Hasher for PassThrough {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Not used by `Fp`; a plain fold keeps any other key working.
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ b as u64).wrapping_mul(0x100_0000_01b3);
        }
    }

    fn write_u64(&mut self, v: u64) {
        self.0 = v;
    }
}

/// Where a fingerprint was first seen, packed in a `u64`: bit 63 set once a repeat was
/// seen (to count groups), 15 bits of input index, 48 bits of line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FirstSeen(u64);

const REPEATED: u64 = 1 << 63;
const LINE_BITS: u32 = 48;

impl FirstSeen {
    fn new(file: usize, line: u64) -> FirstSeen {
        let file = (file as u64).min(0x7fff);
        FirstSeen((file << LINE_BITS) | line.min((1 << LINE_BITS) - 1))
    }

    /// The input it was first seen in (saturated at 32,767).
    pub fn file(self) -> usize {
        ((self.0 & !REPEATED) >> LINE_BITS) as usize
    }

    /// The line it was first seen at.
    pub fn line(self) -> u64 {
        self.0 & ((1 << LINE_BITS) - 1)
    }
}

/// One shard of [`Seen`].
type Shard = HashMap<Fp, FirstSeen, BuildHasherDefault<PassThrough>>;

/// Number of shards of [`Seen`]: each grows on its own, so the moment of a resize,
/// when a table's old and new bucket arrays are both alive, costs 1/256 of the total
/// instead of doubling it.
const SHARDS: usize = 256;

/// First occurrences by fingerprint: 24-byte entries in hash tables kept between 7/16
/// and 7/8 full (plus one control byte per bucket), so 29 to 57 bytes per distinct key.
pub struct Seen {
    shards: Vec<Shard>,
}

impl std::fmt::Debug for Seen {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let keys: usize = self.shards.iter().map(HashMap::len).sum();
        f.debug_struct("Seen").field("keys", &keys).finish()
    }
}

impl Default for Seen {
    fn default() -> Seen {
        // Empty maps do not allocate.
        Seen {
            shards: (0..SHARDS).map(|_| Shard::default()).collect(),
        }
    }
}

impl Seen {
    /// Record `key` first seen at (`file`, `line`); if it was seen before, return where,
    /// and whether this is the first repeat of it (a new group).
    pub fn see(&mut self, key: u128, file: usize, line: u64) -> Option<(FirstSeen, bool)> {
        // The top byte picks the shard; the map hashes the low word: independent bits.
        let shard = &mut self.shards[(key >> 120) as usize % SHARDS];
        match shard.entry(Fp::from(key)) {
            Entry::Vacant(v) => {
                v.insert(FirstSeen::new(file, line));
                None
            }
            Entry::Occupied(mut o) => {
                let first = *o.get();
                let new_group = first.0 & REPEATED == 0;
                o.get_mut().0 |= REPEATED;
                Some((first, new_group))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_seen_packs_and_unpacks() {
        let f = FirstSeen::new(3, 123_456_789_012);
        assert_eq!((f.file(), f.line()), (3, 123_456_789_012));
        let f = FirstSeen(f.0 | REPEATED);
        assert_eq!((f.file(), f.line()), (3, 123_456_789_012));
        assert_eq!(std::mem::size_of::<(Fp, FirstSeen)>(), 24);
    }

    #[test]
    fn repeats_name_the_first_place_and_count_groups_once() {
        let mut seen = Seen::default();
        assert_eq!(seen.see(7, 0, 1), None);
        assert_eq!(seen.see(8 << 120, 0, 2), None);
        let (first, new_group) = seen.see(7, 1, 5).unwrap();
        assert_eq!((first.file(), first.line(), new_group), (0, 1, true));
        let (first, new_group) = seen.see(7, 1, 9).unwrap();
        assert_eq!((first.file(), first.line(), new_group), (0, 1, false));
    }
}
