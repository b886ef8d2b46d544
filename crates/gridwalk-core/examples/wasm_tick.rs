//! The core's tick, timed the same way natively and in WebAssembly: the compare bench's
//! shared-goals workload (110×100 map, 20 % walls, seed 11; agents over 10 goals; 5 random
//! cells toggled per tick; arrived agents head for the next goal). `scripts/web-bench.sh`
//! builds it for the host and for `wasm32-wasip1`, runs both (the wasm in node) and prints
//! `wasm_vs_native_tick`, the ratio of the median ticks.
//!
//! `cargo run --release -p gridwalk-core --example wasm_tick -- [TICKS] [AGENTS]` prints one
//! JSON line: the median and mean tick in µs, and a checksum of the work done (cells
//! expanded and where the agents end), which must be equal on both sides: the same ticks.

use std::time::{Duration, Instant};

use gridwalk_core::grid::reachable;
use gridwalk_core::rng::{Draw, SeedableRng, SplitMix64};
use gridwalk_core::sim::{AgentStatus, SimConfig, Simulation};
use gridwalk_core::{Algorithm, Connectivity, Grid, Heuristic, Pos, Terrain};

const CONN: Connectivity = Connectivity::Eight;

fn arg(i: usize, default: usize) -> usize {
    std::env::args()
        .nth(i)
        .and_then(|a| a.parse().ok())
        .unwrap_or(default)
}

/// Agents on their goal head for the next goal of the list that is open.
fn retarget_arrived(sim: &mut Simulation, goals: &[Pos]) {
    let done: Vec<_> = sim
        .agents()
        .filter(|a| a.status == AgentStatus::Arrived)
        .map(|a| (a.id, goals.iter().position(|&g| g == a.goal).unwrap_or(0)))
        .collect();
    for (id, at) in done {
        let next = (1..=goals.len()).map(|k| goals[(at + k) % goals.len()]);
        let _ = next.into_iter().find(|&g| sim.set_goal(id, g).is_ok());
    }
}

fn main() {
    let ticks = arg(1, 300).clamp(1, 100_000);
    let agents = arg(2, 1000).clamp(1, 10_000);
    let mut rng = SplitMix64::seed_from_u64(11);
    let grid = Grid::random(110, 100, 0.2, &mut rng).expect("valid size");
    // The open ground: the cells reachable from the first free cell of a large component.
    let mut open = Vec::new();
    for i in 0..grid.len() {
        if grid.is_passable(grid.pos(i)) {
            let reach = reachable(&grid, grid.pos(i), CONN);
            if reach.len() * 2 > grid.len() / 2 {
                open = reach.into_iter().map(|c| grid.pos(c)).collect();
                break;
            }
        }
    }
    assert!(!open.is_empty(), "the map has open ground");
    let pick = |rng: &mut SplitMix64| open[rng.below(open.len())];
    let goals: Vec<Pos> = (0..10).map(|_| pick(&mut rng)).collect();
    let mut sim = Simulation::new(
        grid.clone(),
        SimConfig {
            algorithm: Algorithm::DStarLite,
            connectivity: CONN,
            heuristic: Heuristic::Octile,
            measure_baseline: false,
            crowd: false,
            rotation: false,
        },
    );
    // Starts for 10,000 agents are drawn whatever AGENTS is, as the bench draws them, so the
    // edits that follow are the same for every size.
    let starts: Vec<Pos> = (0..10_000).map(|_| pick(&mut rng)).collect();
    for (i, &start) in starts.iter().take(agents).enumerate() {
        sim.add_agent(start, goals[i % goals.len()])
            .expect("agents on open ground");
    }
    sim.replan();
    let mut times = Vec::with_capacity(ticks);
    for _ in 0..ticks {
        // Five random cells toggled, drawn before the goals change, as the bench draws them.
        let edits: Vec<(Pos, Terrain)> = (0..5)
            .map(|_| {
                let cell = grid.pos(rng.below(grid.len()));
                (
                    cell,
                    [Terrain::FREE, Terrain::Wall][usize::from(rng.chance(0.5))],
                )
            })
            .collect();
        retarget_arrived(&mut sim, &goals);
        let started = Instant::now();
        sim.tick(&edits);
        times.push(started.elapsed());
    }
    let total: Duration = times.iter().sum();
    times.sort_unstable();
    let cells: u64 = sim
        .agents()
        .map(|a| u64::from(a.pos.x) * 131 + u64::from(a.pos.y))
        .fold(0, |h, c| h.wrapping_mul(1_000_003).wrapping_add(c));
    println!(
        "{{\"arch\":\"{}\",\"ticks\":{ticks},\"agents\":{agents},\"median_us\":{:.1},\"mean_us\":{:.1},\"expanded\":{},\"cells\":{cells}}}",
        std::env::consts::ARCH,
        times[times.len() / 2].as_secs_f64() * 1e6,
        total.as_secs_f64() * 1e6 / ticks as f64,
        sim.total_stats().search.expanded,
    );
}
