//! Numbers for people: durations, rates and counts, formatted the same way by every
//! command (the summary lines, the progress bar, `report`, `bench`, the grid output).

use std::time::Duration;

/// A duration in nanoseconds with a fitting unit and three significant digits:
/// `950 ns`, `1.23 µs`, `56.8 µs`, `2.50 ms`, `3.00 s`.
pub fn duration(ns: f64) -> String {
    let (value, unit) = if ns < 1e3 {
        (ns, "ns")
    } else if ns < 1e6 {
        (ns / 1e3, "µs")
    } else if ns < 1e9 {
        (ns / 1e6, "ms")
    } else {
        (ns / 1e9, "s")
    };
    if unit == "ns" {
        format!("{value:.0} {unit}")
    } else if value < 10.0 {
        format!("{value:.2} {unit}")
    } else if value < 100.0 {
        format!("{value:.1} {unit}")
    } else {
        format!("{value:.0} {unit}")
    }
}

/// Items per second over `elapsed` (0 when no time has passed).
pub fn rate(items: u64, elapsed: Duration) -> f64 {
    let secs = elapsed.as_secs_f64();
    if secs > 0.0 {
        items as f64 / secs
    } else {
        0.0
    }
}

/// A rate with a k/M suffix: `999`, `12.3k`, `2.50M`.
pub fn human_rate(per_sec: f64) -> String {
    if per_sec >= 1e6 {
        format!("{:.2}M", per_sec / 1e6)
    } else if per_sec >= 1e3 {
        format!("{:.1}k", per_sec / 1e3)
    } else {
        format!("{per_sec:.0}")
    }
}

/// A whole number with thousands separators: `12,345`.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_pick_a_unit() {
        assert_eq!(duration(950.0), "950 ns");
        assert_eq!(duration(1_234.0), "1.23 µs");
        assert_eq!(duration(56_780.0), "56.8 µs");
        assert_eq!(duration(2_500_000.0), "2.50 ms");
        assert_eq!(duration(3e9), "3.00 s");
    }

    #[test]
    fn rates_and_their_suffixes() {
        assert_eq!(rate(500, Duration::from_millis(250)), 2000.0);
        assert_eq!(rate(5, Duration::ZERO), 0.0);
        assert_eq!(human_rate(999.4), "999");
        assert_eq!(human_rate(12_345.0), "12.3k");
        assert_eq!(human_rate(2_500_000.0), "2.50M");
    }

    #[test]
    fn grouping() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1_234_567), "1,234,567");
    }
}
