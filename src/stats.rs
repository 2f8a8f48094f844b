//! Latency statistics in bounded memory: a log-linear histogram of nanosecond values.
//!
//! Values below 128 are counted exactly; above that each power of two is split into 64
//! buckets, so a reported percentile is within 1/64 (1.6 %) of the true value and the
//! whole histogram is a few kilobytes however many values it has seen. Exact min, max
//! and sum are kept beside it.

/// Sub-buckets per power of two.
const SUB: u32 = 64;
const SUB_BITS: u32 = SUB.trailing_zeros();
/// Values below this are their own bucket.
const EXACT: u64 = 2 * SUB as u64;
const BUCKETS: usize = (EXACT as usize) + (64 - SUB_BITS as usize - 1) * SUB as usize;

/// A histogram of `u64` values (e.g. nanoseconds) with ~1.6 % resolution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Histogram {
    counts: Vec<u64>,
    total: u64,
    sum: u128,
    min: u64,
    max: u64,
}

impl Default for Histogram {
    fn default() -> Self {
        Histogram::new()
    }
}

fn bucket(v: u64) -> usize {
    if v < EXACT {
        return v as usize;
    }
    let exp = 63 - v.leading_zeros(); // >= SUB_BITS + 1
    let shift = exp - SUB_BITS;
    let mantissa = (v >> shift) as usize - SUB as usize; // 0..SUB
    EXACT as usize + (shift as usize - 1) * SUB as usize + mantissa
}

/// The smallest value that falls in bucket `i`.
fn bucket_low(i: usize) -> u64 {
    if i < EXACT as usize {
        return i as u64;
    }
    let j = i - EXACT as usize;
    let shift = (j / SUB as usize) as u32 + 1;
    let mantissa = (j % SUB as usize) as u64 + SUB as u64;
    mantissa << shift
}

impl Histogram {
    /// An empty histogram.
    pub fn new() -> Histogram {
        Histogram {
            counts: vec![0; BUCKETS],
            total: 0,
            sum: 0,
            min: u64::MAX,
            max: 0,
        }
    }

    /// Count one value.
    pub fn record(&mut self, v: u64) {
        self.counts[bucket(v)] += 1;
        self.total += 1;
        self.sum += v as u128;
        self.min = self.min.min(v);
        self.max = self.max.max(v);
    }

    /// Add another histogram's counts to this one.
    pub fn merge(&mut self, other: &Histogram) {
        for (a, b) in self.counts.iter_mut().zip(&other.counts) {
            *a += b;
        }
        self.total += other.total;
        self.sum += other.sum;
        self.min = self.min.min(other.min);
        self.max = self.max.max(other.max);
    }

    /// Values counted.
    pub fn count(&self) -> u64 {
        self.total
    }

    /// Sum of all values.
    pub fn sum(&self) -> u128 {
        self.sum
    }

    /// Smallest value (0 when empty).
    pub fn min(&self) -> u64 {
        if self.total == 0 {
            0
        } else {
            self.min
        }
    }

    /// Largest value (0 when empty).
    pub fn max(&self) -> u64 {
        self.max
    }

    /// Mean value (0 when empty).
    pub fn mean(&self) -> f64 {
        if self.total == 0 {
            0.0
        } else {
            self.sum as f64 / self.total as f64
        }
    }

    /// Nearest-rank percentile `p` in `0.0..=100.0`: the value at rank ⌈p/100 · n⌉,
    /// reported as its bucket's lower bound clamped to `[min, max]` (0 when empty).
    pub fn percentile(&self, p: f64) -> u64 {
        if self.total == 0 {
            return 0;
        }
        let rank = ((p / 100.0) * self.total as f64).ceil().max(1.0) as u64;
        let mut seen = 0;
        for (i, &c) in self.counts.iter().enumerate() {
            seen += c;
            if seen >= rank {
                return bucket_low(i).clamp(self.min, self.max);
            }
        }
        self.max
    }
}

/// Exact nearest-rank percentile of sorted values: the value at rank ⌈p/100 · n⌉.
pub fn nearest_rank(sorted: &[u64], p: f64) -> Option<u64> {
    if sorted.is_empty() {
        return None;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil().max(1.0) as usize;
    Some(sorted[rank.min(sorted.len()) - 1])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_are_monotonic_and_cover_their_low_bound() {
        let mut last = 0;
        for v in (0..100_000u64).chain([u64::MAX / 3, u64::MAX]) {
            let b = bucket(v);
            assert!(b >= last && b < BUCKETS);
            assert!(bucket_low(b) <= v);
            assert_eq!(bucket(bucket_low(b)), b);
            last = b;
        }
    }

    #[test]
    fn percentiles_match_exact_ranks_within_resolution() {
        let values: Vec<u64> = (1..=10_000u64).map(|i| i * i).collect();
        let mut h = Histogram::new();
        values.iter().for_each(|&v| h.record(v));
        for p in [1.0, 50.0, 90.0, 99.0, 99.9, 100.0] {
            let exact = nearest_rank(&values, p).unwrap();
            let approx = h.percentile(p);
            assert!(approx <= exact && exact - approx <= exact / 64 + 1, "p{p}");
        }
        assert_eq!(h.min(), 1);
        assert_eq!(h.max(), 100_000_000);
        assert_eq!(h.count(), 10_000);
    }

    #[test]
    fn nearest_rank_by_hand() {
        let v = [15, 20, 35, 40, 50];
        assert_eq!(nearest_rank(&v, 5.0), Some(15));
        assert_eq!(nearest_rank(&v, 30.0), Some(20));
        assert_eq!(nearest_rank(&v, 40.0), Some(20));
        assert_eq!(nearest_rank(&v, 50.0), Some(35));
        assert_eq!(nearest_rank(&v, 100.0), Some(50));
        assert_eq!(nearest_rank(&[], 50.0), None);
    }

    #[test]
    fn merge_adds_counts() {
        let (mut a, mut b) = (Histogram::new(), Histogram::new());
        a.record(5);
        b.record(500);
        b.record(7);
        a.merge(&b);
        assert_eq!((a.count(), a.min(), a.max(), a.sum()), (3, 5, 500, 512));
    }
}
