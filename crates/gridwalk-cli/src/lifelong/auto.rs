//! How `lifelong` resolves every `auto` of its command line: the planner, its traffic rules
//! and learnt traffic, parking, and the settings that follow the crowd's density, each
//! chosen from the map's size, its share of open ground and its robots a free cell. Each
//! value's figures are in docs/benchmarks.md.

use std::fmt::Display;
use std::ops::RangeInclusive;
use std::str::FromStr;

use gridwalk_core::grid::Grid;
use gridwalk_core::tracks::lifelong::{
    DEFAULT_POWER, DEFAULT_WINDOW_WORK, Parking, STALL_STEPS, TrafficConfig, ahead,
};

use super::LifelongArgs;

/// Robots a free cell below which `--planner auto` takes the window planner on a small map
/// or one mostly of open ground, and from which committed steps, which finished more on
/// random-32-32-20 with 700 robots than PIBT over operations did.
const AUTO_WINDOW_DENSITY: f64 = 0.8;

/// Robots a free cell from which `--planner auto` takes Enhanced PIBT (`epibt`) on a small
/// map, every robot working: on random-32-32-20 with 400 to 800 robots (0.49 to 0.98) it
/// finished more than the window and committed steps, with 200 far fewer than the window
/// (docs/benchmarks.md, "Enhanced PIBT" and "Enhanced PIBT with traffic").
const AUTO_EPIBT_DENSITY: f64 = 0.45;

/// `--lns-work auto` for `epibt`: the choices its refining makes a step, so that a run is
/// deterministic while the safety net does not cut. I-07 (600 robots) finished 5,088 tasks
/// with it against 4,526 with 5,000, at 111 ms a step in the mean.
pub(super) const AUTO_EPIBT_WORK: u64 = 20_000;

/// `--lns-work auto` on a map that is not small: on Paris the window's refining finished as
/// many tasks with it as with [`DEFAULT_WINDOW_WORK`] (I-01's first 300 steps) in a sixth
/// of the time a step, so that a run of thousands of steps stays within minutes.
const AUTO_LARGE_WINDOW_WORK: u64 = 500_000;

/// Robots a free cell from which `--highways auto` sets traffic rules on a small map: below
/// it (random-32-32-20 with 100 and 200 robots) they cost more detours than knots. On larger
/// maps they are always set: even at 0.03 robots a free cell (Paris with 1,500 robots) light
/// rules finished more than none (10,349 tasks against 10,276).
const AUTO_HIGHWAY_DENSITY: f64 = 0.35;

/// `--highways auto`'s extra cost of a move against the way, in halves of a move, where no
/// rule below sets another: the window and operations on the denser small maps, and on open
/// ground where robots park (brc202d).
const AUTO_HIGHWAYS: u16 = 8;

/// Robots a free cell below which `--highways auto` takes [`AUTO_LIGHT_HIGHWAYS`] on open
/// ground: Paris with 1,500 robots (0.03) finished more with lighter rules, with 3,000
/// (0.06) far fewer (docs/benchmarks.md, "Lighter rules on a sparse Paris").
const AUTO_LIGHT_HIGHWAY_DENSITY: f64 = 0.05;

/// `--highways auto`'s extra cost on open ground below [`AUTO_LIGHT_HIGHWAY_DENSITY`]: a
/// move against the way costs one more than with it, enough to keep robots to one side
/// without the detours of stronger rules.
const AUTO_LIGHT_HIGHWAYS: u16 = 2;

/// `--highways auto`'s extra cost on open ground from [`AUTO_LIGHT_HIGHWAY_DENSITY`] while
/// every robot works (below [`AUTO_OPEN_PARKING_DENSITY`]): Paris with 3,000 robots finished
/// more with it than with 8 on both seeds tried, and CITY-02 too (docs/benchmarks.md,
/// "Stronger rules on a crowded Paris"). Where robots park (brc202d) 8 stays.
const AUTO_OPEN_HIGHWAYS: u16 = 16;

/// `--highways auto`'s extra cost for `epibt`: on the densest random maps it finished more
/// with it than with 8 on each instance tried (docs/benchmarks.md, "Enhanced PIBT with
/// traffic").
const AUTO_EPIBT_HIGHWAYS: u16 = 16;

/// `--highways auto`'s extra cost for committed steps on a small map: lighter than
/// elsewhere, the best measured on the densest random maps (docs/benchmarks.md, "Committed
/// steps").
const AUTO_SMALL_COMMITTED_HIGHWAYS: u16 = 4;

/// `--highways auto`'s extra cost for committed steps on a larger map: near one-way aisles,
/// the best measured on the warehouses (docs/benchmarks.md, "Committed steps").
const AUTO_COMMITTED_HIGHWAYS: u16 = 32;

/// A ring road (`--rim`): a move at the map's edge costs `cut` tenths of a move less,
/// tapering to nothing `width` cells in ([`EdgeCosts::with_rim`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Rim {
    pub(super) cut: u16,
    pub(super) width: u16,
}

/// `--rim`: `off` or `CUT,WIDTH`.
fn rim(s: &str) -> Result<Option<Rim>, String> {
    if s == "off" {
        return Ok(None);
    }
    let bad = || format!("--rim: {s} is neither off nor CUT,WIDTH (CUT 0 to 10, WIDTH 1 to 1000)");
    let (cut, width) = s.split_once(',').ok_or_else(bad)?;
    let cut = cut
        .trim()
        .parse::<u16>()
        .ok()
        .filter(|&c| c <= 10)
        .ok_or_else(bad)?;
    let width = width
        .trim()
        .parse::<u16>()
        .ok()
        .filter(|w| (1..=1000).contains(w))
        .ok_or_else(bad)?;
    Ok(Some(Rim { cut, width }))
}

/// Robots a free cell that `--active auto` lets work on a map that is not small and mostly
/// open ground; the others park. WPPL lets 2,500 of 6,500 work on brc202d (0.058 a free cell).
/// Off the trunk (`--park auto`) only about 4,000 robots there may park, so about 2,500 work
/// (the trunk is sampled: 2,492 with seed 0); 3,021 (0.07) finished more at first and jammed
/// from about step 1,000 (docs/benchmarks.md, "Parked robots off the trunk").
const AUTO_WORKING_DENSITY: f64 = 0.05;

/// Robots a free cell from which `--active auto` parks on a map mostly of open ground. With
/// the window planner, Paris with 3,000 robots (0.064 a free cell) finished 48,534 tasks with
/// every robot working against 38,762 with 2,362; brc202d with 6,500 (0.15) jammed within
/// 500 steps with every robot working.
const AUTO_OPEN_PARKING_DENSITY: f64 = 0.1;

/// The share of free cells on open ground (four free neighbours) from which a map that is
/// not small counts as mostly open ground, where `--planner auto` takes the window and
/// `--active auto` may park: Paris and brc202d have 0.86 and 0.83; the warehouses 0.40 and
/// 0.29, whose aisles knot the window's rollout and where parked robots stand in the few
/// open bands the traffic needs.
const AUTO_OPEN_GROUND_SHARE: f64 = 0.5;

/// Robots a free cell from which `--active auto` parks on a small map where the window
/// plans (`--planner window`; `auto` takes `epibt` there), up to [`AUTO_WINDOW_DENSITY`].
const AUTO_SMALL_PARKING_DENSITY: f64 = 0.6;

/// Robots a free cell that work on a small map when `--active auto` parks: I-07 (600
/// robots) 2,819 tasks with all working, 3,166 with 450; RANDOM-04 (700) 635 with all, 720
/// with 400.
const AUTO_SMALL_WORKING_DENSITY: f64 = 0.55;

/// `--queue auto`'s bound on the robots heading for one goal: SORTATION (every task begins
/// at one of 620 emitters) queued 16 robots at each without one (docs/benchmarks.md,
/// "Queues at the emitters").
const AUTO_QUEUE: u32 = 8;

/// `--keep-clear auto`'s radius, for `committed` and `rotation` under a queue bound: on I-10's
/// first 2,000 steps 6, 10, 15 and 22 finished 47,836, 51,056, 50,977 and 50,751 tasks,
/// against 42,877 without (docs/benchmarks.md, "Keeping the emitters clear").
const AUTO_KEEP_CLEAR: u16 = 10;

/// Robots a free cell below which `epibt` weighs the traffic more
/// ([`AUTO_EPIBT_SPARSE_TRAFFIC`]) and every robot's gain more alike
/// ([`AUTO_EPIBT_SPARSE_POWER`]), and from which stalled robots wait longer before they go
/// first ([`AUTO_EPIBT_DENSE_STALL`]) and 2024's scheduler weighs the approach
/// ([`AUTO_APPROACH`]).
const AUTO_EPIBT_SPARSE_DENSITY: f64 = 0.6;

/// `--power auto` below [`AUTO_EPIBT_SPARSE_DENSITY`], where weighing robots nearly alike
/// finished far more than squares; from there squares stay (docs/benchmarks.md, "Enhanced
/// PIBT weighed by the crowd").
const AUTO_EPIBT_SPARSE_POWER: f64 = 0.5;

/// `--stall-steps auto` from [`AUTO_EPIBT_SPARSE_DENSITY`]: the nearest robots go first for
/// longer, which finished far more on I-07, I-08, RANDOM-04 and RANDOM-05; below, the
/// default's 5 stay (docs/benchmarks.md, "Enhanced PIBT weighed by the crowd").
const AUTO_EPIBT_DENSE_STALL: u32 = 10;

/// `--depth auto` below [`AUTO_EPIBT_SPARSE_DENSITY`]: robots planning 5 steps ahead wait
/// less (RANDOM-03: in 18.8 % of their actions against 25.6 % over 3 steps) and finished more
/// on I-05 and RANDOM-03 (docs/benchmarks.md, "Operations of 4 and 5 steps").
const AUTO_EPIBT_SPARSE_DEPTH: usize = 5;

/// `--depth auto` from [`AUTO_EPIBT_SPARSE_DENSITY`], where choices over 5 steps cost more
/// than a step's time (I-07, 600 robots: 954 ms a step in the mean) and 4 steps finished
/// more than 3 on RANDOM-04, RANDOM-05 and I-08.
const AUTO_EPIBT_DENSE_DEPTH: usize = 4;

/// `--traffic auto`'s stall and contraflow weights for `epibt` below
/// [`AUTO_EPIBT_SPARSE_DENSITY`]: I-05 (400 robots, 0.49 a free cell) finished 6,776 and
/// 6,858 tasks with them (seeds 0 and 1) against 6,400 and 6,343 with 8, RANDOM-03 1,798
/// against 1,782. From 0.6 the weights of 8 stay: I-07 5,409 against 5,358 with 48
/// (docs/benchmarks.md, "Enhanced PIBT with traffic").
const AUTO_EPIBT_SPARSE_TRAFFIC: f32 = 32.0;

/// Robots a free cell from [`AUTO_EPIBT_SPARSE_DENSITY`] up to which `--traffic auto`
/// weighs contraflow more for `epibt` ([`AUTO_EPIBT_CONTRA`]).
const AUTO_EPIBT_CONTRA_DENSITY: f64 = 0.8;

/// `--traffic auto`'s contraflow weight for `epibt` from [`AUTO_EPIBT_SPARSE_DENSITY`] to
/// [`AUTO_EPIBT_CONTRA_DENSITY`], its stall weight staying 8: robots keep to lanes. It paid
/// on I-07 on both seeds; denser it did not on the whole (docs/benchmarks.md, "Enhanced PIBT
/// weighed by the crowd").
const AUTO_EPIBT_CONTRA: f32 = 32.0;

/// `--approach auto` from [`AUTO_EPIBT_SPARSE_DENSITY`] and for committed steps: robots then
/// take tasks that begin near them, which finished more on RANDOM-04, RANDOM-05 and
/// SORTATION; on RANDOM-03 (0.49) it finished fewer (docs/benchmarks.md, "The approach
/// weighed in a dense crowd").
const AUTO_APPROACH: u64 = 5;

/// What `--traffic auto` prices moves by for a planner at `density` robots a free cell:
/// the traffic (8,8,25,100) for `window`, `operations` and `epibt` on a small map where no
/// robot parks, for `epibt` below [`AUTO_EPIBT_CONTRA_DENSITY`] its contraflow weighed
/// more, and below [`AUTO_EPIBT_SPARSE_DENSITY`] its stalls too (`epibt`:
/// I-07 5,409 tasks with it against 5,142, both with [`AUTO_EPIBT_HIGHWAYS`]). With parked
/// robots the window planner finished fewer (I-07, 451 of 600 working: 4,233 tasks without,
/// 3,273 with); on the densest small maps committed steps finished no more with it (I-08,
/// RANDOM-04, RANDOM-05); on larger maps, making every table again each period costs more
/// than a step's time.
fn auto_traffic(planner: &str, small: bool, parks: bool, density: f64) -> Option<TrafficConfig> {
    let on = small && !parks && matches!(planner, "window" | "operations" | "epibt");
    let d = TrafficConfig::default();
    match planner {
        "epibt" if density < AUTO_EPIBT_SPARSE_DENSITY => on.then_some(TrafficConfig {
            stall: AUTO_EPIBT_SPARSE_TRAFFIC,
            contra: AUTO_EPIBT_SPARSE_TRAFFIC,
            ..d
        }),
        "epibt" if density < AUTO_EPIBT_CONTRA_DENSITY => on.then_some(TrafficConfig {
            contra: AUTO_EPIBT_CONTRA,
            ..d
        }),
        _ => on.then_some(d),
    }
}

/// `--traffic`: `auto` (what [`auto_traffic`] says), `off`, or its weights and spans.
fn traffic(s: &str, auto: Option<TrafficConfig>) -> Result<Option<TrafficConfig>, String> {
    match s {
        "off" => return Ok(None),
        "auto" => return Ok(auto),
        _ => {}
    }
    let bad = || format!("--traffic: {s} is neither auto, off nor STALL,CONTRA[,PERIOD[,HORIZON]]");
    let parts: Vec<f64> = s
        .split(',')
        .map(|p| p.trim().parse::<f64>().map_err(|_| bad()))
        .collect::<Result<_, _>>()?;
    // Weights up to a thousand halves of a move; spans of whole steps, at least one.
    let weight = |w: f64| (0.0..=1000.0).contains(&w);
    let span = |p: &f64| p.fract() == 0.0 && (1.0..=1e6).contains(p);
    let fits = (2..=4).contains(&parts.len())
        && parts[..2].iter().all(|&w| weight(w))
        && parts[2..].iter().all(span);
    if !fits {
        return Err(bad());
    }
    let d = TrafficConfig::default();
    Ok(Some(TrafficConfig {
        stall: parts[0] as f32,
        contra: parts[1] as f32,
        period: parts.get(2).map_or(d.period, |&p| p as u64),
        horizon: parts.get(3).map_or(d.horizon, |&h| h as f32),
    }))
}

/// A map small enough for `auto`'s window planner: cells and robots.
const SMALL_MAP_CELLS: usize = 4096;
const SMALL_MAP_ROBOTS: usize = 1000;

/// `--keep-clear`'s radius for `planner` under the queue bound `queue` (see
/// [`LifelongArgs::keep_clear`]): `None` when off or without a bound.
fn keep_clear(arg: &str, planner: &str, queue: Option<u32>) -> Result<Option<u16>, String> {
    let radius = match arg {
        "off" => None,
        "auto" => matches!(planner, "committed" | "rotation").then_some(AUTO_KEEP_CLEAR),
        n => Some(
            n.parse::<u16>()
                .ok()
                .filter(|r| (1..=1000).contains(r))
                .ok_or_else(|| {
                    format!("--keep-clear: {n} is neither auto, off nor a number from 1 to 1000")
                })?,
        ),
    };
    Ok(radius.filter(|_| queue.is_some()))
}

/// `--queue`'s bound: `None` for no bound.
fn queue(arg: &str) -> Result<Option<u32>, String> {
    match arg {
        "auto" => Ok(Some(AUTO_QUEUE)),
        "none" => Ok(None),
        n => n
            .parse::<u32>()
            .ok()
            .filter(|&q| q >= 1)
            .map(Some)
            .ok_or_else(|| format!("--queue: {n} is neither auto, none nor a number from 1")),
    }
}

/// `--lns-work`'s bound on a map that is `small` or not.
fn lns_work(arg: &str, small: bool) -> Result<u64, String> {
    match arg {
        "auto" if small => Ok(DEFAULT_WINDOW_WORK),
        "auto" => Ok(AUTO_LARGE_WINDOW_WORK),
        n => n
            .parse::<u64>()
            .map_err(|_| format!("--lns-work: {n} is neither auto nor a number")),
    }
}

/// What `auto` and the flags choose for one problem (see [`LifelongArgs`]).
pub(super) struct Choice<'a> {
    /// The planner's name, `auto` resolved.
    pub(super) planner: &'a str,
    /// Traffic rules' extra cost against the way, in halves of a move, and the ring road.
    pub(super) highways: u16,
    pub(super) rim: Option<Rim>,
    /// Robots that only block, if any.
    pub(super) parking: Option<Parking>,
    /// Moves priced by the traffic the robots make, if on.
    pub(super) traffic: Option<TrafficConfig>,
    /// `epibt`'s exponent of a robot's power, and the steps a stalled robot waits to go first.
    pub(super) power: f64,
    pub(super) stall_steps: u32,
    /// `epibt`'s timesteps an operation spans.
    pub(super) depth: usize,
    /// 2024's matching scheduler: the weight of a robot's way to a task's first errand.
    pub(super) approach: u64,
    /// The robots that may head for one goal at once, if bounded, and the radius around a
    /// goal whose queue is full that robots without a goal walk out of, if kept clear.
    pub(super) queue: Option<u32>,
    pub(super) keep_clear: Option<u16>,
    /// Whether the map is small, and the window's A\* expansions a step.
    pub(super) small: bool,
    pub(super) work: u64,
}

/// Resolves every `auto` of `args` for `team` robots on `grid`, from the map's size, its
/// share of open ground and its robots a free cell; checks the other values.
pub(super) fn choose<'a>(
    args: &'a LifelongArgs,
    grid: &Grid,
    team: usize,
) -> Result<Choice<'a>, String> {
    let free = (0..grid.len()).filter(|&c| grid.weight(c) != 0).count();
    let density = team as f64 / free.max(1) as f64;
    let small = grid.len() <= SMALL_MAP_CELLS && team <= SMALL_MAP_ROBOTS;
    // Paris and brc202d: mostly open ground, where the window finishes most (with parked
    // robots on crowded brc202d); the warehouses' aisles and the densest crowds take
    // committed steps.
    let open = !small && open_share(grid, free) >= AUTO_OPEN_GROUND_SHARE;
    let planner = match args.planner.as_str() {
        "auto" if small && density >= AUTO_EPIBT_DENSITY => "epibt",
        "auto" if (small || open) && density < AUTO_WINDOW_DENSITY => "window",
        "auto" => "committed",
        p => p,
    };
    let highways = highways(&args.highways, planner, (small, open), density)?;
    let working = if small {
        let window = planner == "window";
        let parks = window && (AUTO_SMALL_PARKING_DENSITY..AUTO_WINDOW_DENSITY).contains(&density);
        parks.then_some(AUTO_SMALL_WORKING_DENSITY)
    } else {
        (open && density >= AUTO_OPEN_PARKING_DENSITY).then_some(AUTO_WORKING_DENSITY)
    };
    // `--park` is auto, open or off-trunk (clap refuses the rest).
    let off_trunk = match args.park.as_str() {
        "open" => false,
        "off-trunk" => true,
        _ => !small,
    };
    let parking = parking(&args.active, working, free, (args.seed, off_trunk))?;
    let auto = auto_traffic(planner, small, parking.is_some(), density);
    let queue = queue(&args.queue)?;
    Ok(Choice {
        planner,
        highways,
        rim: rim(&args.rim)?,
        parking,
        traffic: traffic(&args.traffic, auto)?,
        power: power(&args.power, density)?,
        stall_steps: stall_steps(&args.stall_steps, density)?,
        depth: depth(&args.depth, density)?,
        approach: approach(&args.approach, planner, density)?,
        queue,
        keep_clear: keep_clear(&args.keep_clear, planner, queue)?,
        small,
        work: lns_work(&args.lns_work, small)?,
    })
}

/// `--highways`' extra cost for `planner` on a map that is `small`, or mostly `open`
/// ground, at `density` robots a free cell (see [`LifelongArgs::highways`]).
fn highways(
    arg: &str,
    planner: &str,
    (small, open): (bool, bool),
    density: f64,
) -> Result<u16, String> {
    let auto = match planner {
        "epibt" => AUTO_EPIBT_HIGHWAYS,
        "committed" if small => AUTO_SMALL_COMMITTED_HIGHWAYS,
        "committed" => AUTO_COMMITTED_HIGHWAYS,
        _ if open && density < AUTO_LIGHT_HIGHWAY_DENSITY => AUTO_LIGHT_HIGHWAYS,
        _ if open && density < AUTO_OPEN_PARKING_DENSITY => AUTO_OPEN_HIGHWAYS,
        _ if !small || density >= AUTO_HIGHWAY_DENSITY => AUTO_HIGHWAYS,
        _ => 0,
    };
    auto_or("--highways", arg, auto, 0..=1000)
}

/// `arg` as a number within `range`, or `auto`'s value for `auto`; an error names `flag`.
fn auto_or<T>(flag: &str, arg: &str, auto: T, range: RangeInclusive<T>) -> Result<T, String>
where
    T: FromStr + PartialOrd + Display,
{
    if arg == "auto" {
        return Ok(auto);
    }
    let (lo, hi) = (range.start(), range.end());
    (arg.parse::<T>().ok())
        .filter(|v| range.contains(v))
        .ok_or_else(|| format!("{flag}: {arg} is neither auto nor a number from {lo} to {hi}"))
}

/// `sparse` below [`AUTO_EPIBT_SPARSE_DENSITY`] robots a free cell, `dense` from there.
fn by_density<T>(density: f64, sparse: T, dense: T) -> T {
    if density < AUTO_EPIBT_SPARSE_DENSITY {
        sparse
    } else {
        dense
    }
}

/// `--power`'s exponent at `density` robots a free cell (see [`LifelongArgs::power`]).
fn power(arg: &str, density: f64) -> Result<f64, String> {
    let auto = by_density(density, AUTO_EPIBT_SPARSE_POWER, DEFAULT_POWER);
    auto_or("--power", arg, auto, 0.0..=8.0)
}

/// `--stall-steps`' count at `density` robots a free cell (see [`LifelongArgs::stall_steps`]).
fn stall_steps(arg: &str, density: f64) -> Result<u32, String> {
    let auto = by_density(density, STALL_STEPS, AUTO_EPIBT_DENSE_STALL);
    auto_or("--stall-steps", arg, auto, 1..=1000)
}

/// `--depth`'s timesteps at `density` robots a free cell (see [`LifelongArgs::depth`]).
fn depth(arg: &str, density: f64) -> Result<usize, String> {
    let auto = by_density(density, AUTO_EPIBT_SPARSE_DEPTH, AUTO_EPIBT_DENSE_DEPTH);
    auto_or("--depth", arg, auto, 3..=5)
}

/// `--approach`'s weight for `planner` at `density` robots a free cell (see
/// [`LifelongArgs::approach`]).
fn approach(arg: &str, planner: &str, density: f64) -> Result<u64, String> {
    let auto = match planner {
        "committed" => AUTO_APPROACH,
        _ => by_density(density, 1, AUTO_APPROACH),
    };
    auto_or("--approach", arg, auto, 1..=100)
}

/// The parking `--active` asks for (see [`LifelongArgs::active`]) on a map with `free`
/// passable cells, where `auto` lets `working` robots a free cell work, if set; its draw's
/// seed, and whether robots on the trunk work (`--park off-trunk`).
fn parking(
    active: &str,
    working: Option<f64>,
    free: usize,
    (seed, off_trunk): (u64, bool),
) -> Result<Option<Parking>, String> {
    let working =
        match (active, working) {
            ("auto", Some(share)) => (share * free as f64).ceil() as usize,
            ("auto" | "all", _) => return Ok(None),
            (n, _) => n.parse::<usize>().ok().filter(|&a| a > 0).ok_or_else(|| {
                format!("--active: {n} is neither auto, all nor a number of robots")
            })?,
        };
    Ok(Some(Parking {
        active: working,
        seed,
        off_trunk,
    }))
}

/// The share of `grid`'s `free` passable cells whose four neighbours are all passable.
fn open_share(grid: &gridwalk_core::grid::Grid, free: usize) -> f64 {
    let (w, len) = (grid.width(), grid.len() as u32);
    let passable = |c: u32| grid.weight(c as usize) != 0;
    let open = (0..len)
        .filter(|&c| passable(c))
        .filter(|&c| (0..4).all(|f| ahead(c, f, w, len).is_some_and(passable)))
        .count();
    open as f64 / free.max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use gridwalk_core::grid::{Grid, Pos, Terrain};

    #[test]
    fn auto_parks_only_where_told_and_counts_are_checked() {
        let working = |active: &str, share| {
            parking(active, share, 1000, (3, true)).map(|p| p.map(|p| p.active))
        };
        assert_eq!(working("auto", None), Ok(None));
        assert_eq!(working("auto", Some(0.05)), Ok(Some(50)));
        assert_eq!(working("all", Some(0.05)), Ok(None));
        assert_eq!(working("7", None), Ok(Some(7)));
        for bad in ["0", "-1", "half", ""] {
            let e = working(bad, None).unwrap_err();
            assert!(e.contains("--active"), "{bad}: {e}");
        }
    }

    #[test]
    fn crowd_settings_are_checked_and_auto_follows_the_density() {
        assert_eq!(power("auto", 0.49), Ok(AUTO_EPIBT_SPARSE_POWER));
        assert_eq!(stall_steps("auto", 0.49), Ok(STALL_STEPS));
        for dense in [0.6, 0.98] {
            assert_eq!(power("auto", dense), Ok(DEFAULT_POWER));
            assert_eq!(stall_steps("auto", dense), Ok(AUTO_EPIBT_DENSE_STALL));
        }
        assert_eq!(power("0", 0.98), Ok(0.0));
        assert_eq!(power("1.5", 0.49), Ok(1.5));
        assert_eq!(stall_steps("1", 0.98), Ok(1));
        let refused = |e: String, flag: &str, bad: &str| {
            assert!(e.contains(flag) && e.contains(bad), "{bad}: {e}");
        };
        for bad in ["", "x", "-1", "8.5", "NaN", "inf"] {
            refused(power(bad, 0.5).unwrap_err(), "--power", bad);
        }
        for bad in ["", "x", "0", "-1", "2.5", "1001"] {
            refused(stall_steps(bad, 0.5).unwrap_err(), "--stall-steps", bad);
        }
        assert_eq!(approach("auto", "epibt", 0.49), Ok(1));
        assert_eq!(approach("auto", "window", 0.24), Ok(1));
        assert_eq!(approach("auto", "epibt", 0.6), Ok(AUTO_APPROACH));
        assert_eq!(approach("auto", "committed", 0.18), Ok(AUTO_APPROACH));
        assert_eq!(approach("3", "epibt", 0.98), Ok(3));
        for bad in ["", "x", "0", "-1", "2.5", "101"] {
            refused(approach(bad, "epibt", 0.5).unwrap_err(), "--approach", bad);
        }
        assert_eq!(depth("auto", 0.49), Ok(AUTO_EPIBT_SPARSE_DEPTH));
        assert_eq!(depth("auto", 0.6), Ok(AUTO_EPIBT_DENSE_DEPTH));
        assert_eq!(depth("3", 0.49), Ok(3));
        for bad in ["", "x", "2", "6", "4.5", "-4"] {
            refused(depth(bad, 0.5).unwrap_err(), "--depth", bad);
        }
    }

    #[test]
    fn cells_are_kept_clear_for_the_planners_over_cells_under_a_bound() {
        let bound = Some(AUTO_QUEUE);
        for planner in ["committed", "rotation"] {
            assert_eq!(
                keep_clear("auto", planner, bound),
                Ok(Some(AUTO_KEEP_CLEAR))
            );
            assert_eq!(keep_clear("auto", planner, None), Ok(None));
        }
        for planner in ["epibt", "window", "operations"] {
            assert_eq!(keep_clear("auto", planner, bound), Ok(None));
        }
        assert_eq!(keep_clear("off", "committed", bound), Ok(None));
        assert_eq!(keep_clear("3", "committed", Some(2)), Ok(Some(3)));
        assert_eq!(
            keep_clear("3", "committed", None),
            Ok(None),
            "nothing to keep clear"
        );
        for bad in ["", "x", "0", "-1", "2.5", "1001", "none"] {
            let e = keep_clear(bad, "committed", bound).unwrap_err();
            assert!(e.contains("--keep-clear") && e.contains(bad), "{bad}: {e}");
        }
        assert_eq!(queue("auto"), Ok(Some(AUTO_QUEUE)));
        assert_eq!(queue("none"), Ok(None));
        assert!(queue("0").unwrap_err().contains("--queue"));
    }

    #[test]
    fn traffic_values_are_checked_and_auto_follows_the_map() {
        let d = TrafficConfig::default();
        let on = auto_traffic("window", true, false, 0.5);
        assert_eq!(on, Some(d));
        assert_eq!(traffic("auto", on), Ok(Some(d)));
        assert_eq!(traffic("auto", None), Ok(None));
        assert_eq!(traffic("off", on), Ok(None));
        // Off with parked robots and on large maps; for `epibt` weighed more where sparser.
        assert_eq!(auto_traffic("window", true, true, 0.5), None);
        assert_eq!(auto_traffic("operations", false, false, 0.5), None);
        assert_eq!(auto_traffic("committed", true, false, 0.5), None);
        assert_eq!(auto_traffic("epibt", true, false, 0.85), Some(d));
        let lanes = auto_traffic("epibt", true, false, 0.73).unwrap();
        assert_eq!((lanes.stall, lanes.contra), (d.stall, 32.0));
        assert_eq!((lanes.period, lanes.horizon), (d.period, d.horizon));
        let sparse = auto_traffic("epibt", true, false, 0.5).unwrap();
        assert_eq!((sparse.stall, sparse.contra), (32.0, 32.0));
        assert_eq!((sparse.period, sparse.horizon), (d.period, d.horizon));
        let t = traffic("4,2.5", None).unwrap().unwrap();
        assert_eq!(
            (t.stall, t.contra, t.period, t.horizon),
            (4.0, 2.5, d.period, d.horizon)
        );
        let t = traffic("0,1,10,50", on).unwrap().unwrap();
        assert_eq!(
            (t.stall, t.contra, t.period, t.horizon),
            (0.0, 1.0, 10, 50.0)
        );
        for bad in [
            "",
            "on",
            "8",
            "8,x",
            "8,-1",
            "1,2,3,4,5",
            "inf,1",
            "8,8,0,0",
        ] {
            let e = traffic(bad, on).unwrap_err();
            assert!(e.contains("--traffic") && e.contains(bad), "{bad}: {e}");
        }
    }

    #[test]
    fn open_ground_is_cells_with_four_free_neighbours() {
        // 4 × 3, all free: only the two middle cells of the middle row are open.
        let mut grid = Grid::new(4, 3).unwrap();
        assert_eq!(open_share(&grid, 12), 2.0 / 12.0);
        // A wall above one of them leaves the other; one below that leaves none.
        grid.set(Pos::new(1, 0), Terrain::Wall).unwrap();
        assert_eq!(open_share(&grid, 11), 1.0 / 11.0);
        grid.set(Pos::new(2, 2), Terrain::Wall).unwrap();
        assert_eq!(open_share(&grid, 10), 0.0);
    }
}
