//! The timings' clock as the panel shows it. Natively the clock counts in nanoseconds and a
//! figure is printed as measured. A browser's `performance.now()` steps by 0.1 ms (5 µs on a
//! cross-origin isolated page), so one repair often reads 0: there the panel says "< 0.1 ms"
//! instead, and the plot shows a running mean over [`PLOT_MEAN_TICKS`] ticks, whose steps
//! average out to the true time.

use std::sync::OnceLock;

use web_time::Instant;

/// Ticks the plot averages over when the clock is coarse.
pub const PLOT_MEAN_TICKS: usize = 10;

/// The clock's step in µs: 0 when it counts below a microsecond, measured once by reading the
/// clock until it moves (a bounded spin: a few of its steps).
pub fn resolution_micros() -> u64 {
    static STEP: OnceLock<u64> = OnceLock::new();
    *STEP.get_or_init(measure_step)
}

fn measure_step() -> u64 {
    let mut smallest = u64::MAX;
    for _ in 0..3 {
        let first = Instant::now();
        // Bounded whatever the clock does; a real clock moves within a few of its steps.
        for _ in 0..10_000_000 {
            let d = first.elapsed();
            if !d.is_zero() {
                smallest = smallest.min(d.as_micros() as u64);
                break;
            }
        }
    }
    if smallest == u64::MAX { 0 } else { smallest }
}

/// Whether the clock is too coarse for one repair: it steps by a microsecond or more.
pub fn is_coarse() -> bool {
    resolution_micros() > 1
}

/// `micros` as the panel prints it: the number, or "< STEP" when it is under the clock's step.
pub fn micros_text(micros: u64) -> String {
    micros_text_with(micros, resolution_micros())
}

/// [`micros_text`] for a clock stepping by `step` µs (0 or 1: a fine clock).
pub fn micros_text_with(micros: u64, step: u64) -> String {
    if step > 1 && micros < step {
        if step >= 100 {
            format!("< {} ms", step as f64 / 1000.0)
        } else {
            format!("< {step} µs")
        }
    } else {
        micros.to_string()
    }
}

/// The plot's repair-time series from (tick, µs) points: as measured on a fine clock, a
/// running mean over [`PLOT_MEAN_TICKS`] ticks on a coarse one; with the line's name.
pub fn micros_series(points: impl Iterator<Item = (u64, u64)>) -> (&'static str, Vec<[f64; 2]>) {
    series_with(points, is_coarse())
}

fn series_with(
    points: impl Iterator<Item = (u64, u64)>,
    coarse: bool,
) -> (&'static str, Vec<[f64; 2]>) {
    if !coarse {
        return (
            "repair µs",
            points.map(|(t, us)| [t as f64, us as f64]).collect(),
        );
    }
    let points: Vec<(u64, u64)> = points.collect();
    let mut sum = 0u64;
    let mut out = Vec::with_capacity(points.len());
    for (i, &(t, us)) in points.iter().enumerate() {
        sum += us;
        if i >= PLOT_MEAN_TICKS {
            sum -= points[i - PLOT_MEAN_TICKS].1;
        }
        let n = (i + 1).min(PLOT_MEAN_TICKS);
        out.push([t as f64, sum as f64 / n as f64]);
    }
    ("repair µs, mean of 10 ticks", out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_under_a_coarse_step_say_so() {
        assert_eq!(micros_text_with(0, 0), "0");
        assert_eq!(micros_text_with(0, 1), "0");
        assert_eq!(micros_text_with(0, 100), "< 0.1 ms");
        assert_eq!(micros_text_with(99, 100), "< 0.1 ms");
        assert_eq!(micros_text_with(200, 100), "200");
        assert_eq!(micros_text_with(3, 5), "< 5 µs");
    }

    #[test]
    fn a_coarse_plot_is_a_running_mean() {
        let pts = (0..30u64).map(|t| (t, if t % 2 == 0 { 100 } else { 0 }));
        let (_, fine) = series_with(pts.clone(), false);
        assert_eq!(fine[3], [3.0, 0.0]);
        let (name, mean) = series_with(pts, true);
        assert!(name.contains("mean"));
        assert_eq!(mean[0], [0.0, 100.0]);
        assert_eq!(mean[1], [1.0, 50.0]);
        assert!(mean[PLOT_MEAN_TICKS..].iter().all(|p| p[1] == 50.0));
    }

    #[test]
    fn the_native_clock_is_fine() {
        assert!(!is_coarse());
    }
}
