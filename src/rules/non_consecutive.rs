//! Non-consecutive: two orthogonally adjacent cells never hold consecutive digits.
//!
//! The rule is a [`Link`]; the box-band engine's inferences for it (what the places of
//! `d - 1` and `d + 1` imply for `d`) are in `non_consecutive_places.rs`.

use super::regions::orth_neighbours;
use super::rule::{Link, RuleDef, Shape};

/// The rule `non-consecutive`.
pub(crate) struct NonConsecutive;

impl RuleDef for NonConsecutive {
    fn name(&self) -> &'static str {
        "non-consecutive"
    }

    fn summary(&self) -> &'static str {
        "two orthogonally adjacent cells never hold consecutive digits"
    }

    fn link(&self) -> Option<Link> {
        Some(Link {
            near: std::array::from_fn(orth_neighbours),
            // Digits d - 1 and d + 1: bits d - 2 and d (bit e - 1 for digit e).
            ban: std::array::from_fn(|d| {
                let below = if d > 1 { 1u16 << (d - 2) } else { 0 };
                let above = if (1..9).contains(&d) { 1u16 << d } else { 0 };
                below | above
            }),
        })
    }

    fn shape(&self) -> Shape {
        Shape {
            consecutive: true,
            ..Shape::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_digit_bans_the_digits_one_away() {
        let link = NonConsecutive.link().unwrap();
        for d in 1..=9u16 {
            let want = (1..=9u16)
                .filter(|&e| e.abs_diff(d) == 1)
                .fold(0, |m, e| m | 1 << (e - 1));
            assert_eq!(link.ban[usize::from(d)], want, "digit {d}");
        }
        assert_eq!(link.near[0], 1 << 1 | 1 << 9);
    }
}
