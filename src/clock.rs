//! The per-puzzle timer of `solve`: a cheap tick count read before and after each
//! solve in the workers, turned into nanoseconds later, in the drain, by the tick rate
//! measured over the run so far.
//!
//! `Instant::now()` is a vDSO call that reads the time-stamp counter behind a fence and
//! converts it; twice per puzzle that was 1.6–1.8 % of `solve -j 1` on 17-clue puzzles
//! (perf), more than reading the input. Where the CPU says its time-stamp counter is
//! invariant (it ticks at one rate in every power state and on every core), the ticks
//! are that counter, read with one unfenced `rdtsc`; elsewhere they are nanoseconds
//! from `Instant`.
//!
//! The rate needs no calibration pause at start-up: [`Clock::rate`] divides the
//! nanoseconds by the ticks elapsed since [`Clock::start`]. By the first drain that span
//! is a fraction of a millisecond or more, against some tens of nanoseconds between the
//! two reads, so the rate is off by less than 0.01 %.

use std::time::{Duration, Instant};

/// Shortest span [`Clock::rate`] measures the tick rate over (it waits out the rest).
const MIN_SPAN: Duration = Duration::from_micros(200);

/// Ticks since a starting point, cheap to read on any thread.
#[derive(Debug, Clone, Copy)]
pub struct Clock {
    origin: Instant,
    origin_ticks: u64,
    tsc: bool,
}

impl Clock {
    /// A clock starting now: the time-stamp counter where it is invariant, `Instant`
    /// otherwise.
    pub fn start() -> Clock {
        Clock::with_tsc(invariant_tsc())
    }

    fn with_tsc(tsc: bool) -> Clock {
        let mut clock = Clock {
            origin: Instant::now(),
            origin_ticks: 0,
            tsc,
        };
        clock.origin_ticks = clock.ticks();
        clock
    }

    /// The current tick count. Only differences mean anything; a difference taken on
    /// one thread is never negative once [`u64::saturating_sub`] is used.
    #[inline]
    pub fn ticks(&self) -> u64 {
        #[cfg(target_arch = "x86_64")]
        if self.tsc {
            // SAFETY: `rdtsc` exists on every x86-64 CPU and has no preconditions.
            return unsafe { core::arch::x86_64::_rdtsc() };
        }
        u64::try_from(self.origin.elapsed().as_nanos()).unwrap_or(u64::MAX)
    }

    /// The tick rate, measured from the start to now (waiting first if less than
    /// 200 µs have gone by, which only a run of a few puzzles sees).
    pub fn rate(&self) -> TickRate {
        if !self.tsc {
            return TickRate { ns_per_tick: 1.0 };
        }
        let mut ns = self.origin.elapsed();
        while ns < MIN_SPAN {
            std::hint::spin_loop();
            ns = self.origin.elapsed();
        }
        let ticks = self.ticks().saturating_sub(self.origin_ticks);
        TickRate {
            ns_per_tick: if ticks == 0 {
                1.0
            } else {
                ns.as_nanos() as f64 / ticks as f64
            },
        }
    }
}

/// Nanoseconds per tick of a [`Clock`].
#[derive(Debug, Clone, Copy)]
pub struct TickRate {
    ns_per_tick: f64,
}

impl TickRate {
    /// `ticks` in nanoseconds.
    #[inline]
    pub fn ns(&self, ticks: u64) -> u64 {
        // `as` saturates: a nonsense tick count cannot wrap to a small time.
        (ticks as f64 * self.ns_per_tick).round() as u64
    }
}

/// Whether the CPU reports an invariant time-stamp counter (CPUID 8000_0007h, EDX bit
/// 8): one rate in every power state, the same on every core.
fn invariant_tsc() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::__cpuid;
        // Leaves above the highest one supported are not asked for.
        if __cpuid(0x8000_0000).eax >= 0x8000_0007 {
            return __cpuid(0x8000_0007).edx & (1 << 8) != 0;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ticks of a span, in nanoseconds, against `Instant` over the same span.
    fn measured(clock: Clock) -> (u64, u64) {
        let before = Instant::now();
        let t0 = clock.ticks();
        std::thread::sleep(Duration::from_millis(30));
        let t1 = clock.ticks();
        let wall = before.elapsed();
        let ns = clock.rate().ns(t1.saturating_sub(t0));
        (ns, u64::try_from(wall.as_nanos()).unwrap())
    }

    #[test]
    fn the_fallback_ticks_are_nanoseconds_of_the_wall_clock() {
        // The `Instant` fallback, used wherever the counter is not invariant (and on
        // every machine that is not x86-64), is checked against the wall clock.
        let clock = Clock::with_tsc(false);
        let (ns, wall) = measured(clock);
        // The tick span lies inside the wall span.
        assert!(ns <= wall, "{ns} ns by ticks, {wall} ns wall");
        assert!(ns * 10 >= wall * 9, "{ns} ns by ticks, {wall} ns wall");
    }

    #[test]
    fn the_counter_is_used_only_where_it_is_invariant() {
        // How well a real counter tracks the wall clock depends on the machine (a
        // virtual machine may migrate the thread between cores whose counters
        // differ), so it is not asserted here; only the choice and the arithmetic.
        assert_eq!(Clock::start().tsc, invariant_tsc());
        let rate = Clock::start().rate();
        assert!(rate.ns_per_tick.is_finite() && rate.ns_per_tick > 0.0);
        let rate = TickRate { ns_per_tick: 0.25 };
        assert_eq!(rate.ns(4_000), 1_000);
        assert_eq!(rate.ns(u64::MAX), (u64::MAX as f64 * 0.25) as u64);
    }

    #[test]
    fn rate_waits_for_a_measurable_span() {
        let clock = Clock::start();
        clock.rate();
        assert!(clock.origin.elapsed() >= MIN_SPAN);
    }
}
