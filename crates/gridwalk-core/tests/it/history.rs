//! Explain mode's history of computes: kept per planner, and within a memory budget across all
//! planners, the oldest forgotten first.

use gridwalk_core::sim::{SimConfig, Simulation};
use gridwalk_core::world::OnArrival;
use gridwalk_core::{Grid, Pos, Terrain};

/// A 60×40 open map, 60 wandering agents with goals of their own, and a wall dropped each tick
/// across the middle column (lifted again two ticks later), so every tick repairs something.
fn busy_world() -> Simulation {
    let grid = Grid::new(60, 40).unwrap();
    let mut sim = Simulation::new(grid, SimConfig::default());
    sim.set_seed(3);
    for i in 0..60u32 {
        let start = Pos::new(i % 10, (i * 7) % 40);
        let goal = Pos::new(50 + i % 10, (i * 13) % 40);
        sim.add_agent_with(start, goal, OnArrival::Wander).unwrap();
    }
    sim
}

fn tick_with_door(sim: &mut Simulation, t: u32) {
    let y = 5 + (t * 3) % 30;
    let edits = [
        (Pos::new(30, y), Terrain::Wall),
        (Pos::new(30, 5 + ((t + 28) * 3) % 30), Terrain::FREE),
    ];
    sim.tick(&edits);
}

/// What the kept computes hold, counted from the records themselves.
fn held(sim: &Simulation) -> usize {
    sim.agents()
        .filter_map(|a| sim.history(a.id).map(|h| (a.goal, h)))
        .collect::<std::collections::BTreeMap<_, _>>()
        .values()
        .flat_map(|h| h.iter())
        .map(|r| {
            std::mem::size_of_val(r)
                + r.trace.initial_open.capacity() * 4
                + r.trace.steps.capacity() * std::mem::size_of_val(&r.trace.steps[0])
        })
        .sum()
}

#[test]
fn history_stays_within_its_budget_and_keeps_the_newest() {
    let mut unbounded = busy_world();
    unbounded.set_history(32);
    unbounded.replan();
    let mut bounded = busy_world();
    bounded.set_history(32);
    let budget = 256 * 1024;
    bounded.set_history_budget(budget);
    bounded.replan();
    for t in 0..60 {
        tick_with_door(&mut unbounded, t);
        tick_with_door(&mut bounded, t);
        assert!(
            bounded.history_bytes() <= budget,
            "tick {t}: {} bytes kept, budget {budget}",
            bounded.history_bytes()
        );
        assert_eq!(
            bounded.history_bytes(),
            held(&bounded),
            "tick {t}: accounting"
        );
        assert_eq!(
            unbounded.history_bytes(),
            held(&unbounded),
            "tick {t}: accounting"
        );
    }
    assert!(
        unbounded.history_bytes() > 2 * budget,
        "the world must need more than the budget for this test to mean anything ({} bytes)",
        unbounded.history_bytes()
    );
    // The same world either way; the bounded one keeps a suffix of each planner's computes,
    // and the newest compute of this tick survives.
    let now = bounded.tick_count() - 1;
    let mut newest_kept = false;
    for a in bounded.agents() {
        let (Some(b), Some(u)) = (bounded.history(a.id), unbounded.history(a.id)) else {
            continue;
        };
        assert!(b.len() <= u.len());
        let ticks = |h: &std::collections::VecDeque<_>| -> Vec<u64> {
            h.iter()
                .map(|r: &gridwalk_core::sim::ComputeRecord| r.tick)
                .collect()
        };
        let (tb, tu) = (ticks(b), ticks(u));
        assert_eq!(
            tb[..],
            tu[tu.len() - tb.len()..],
            "agent {}: not the newest",
            a.id
        );
        newest_kept |= tb.last() == Some(&now);
    }
    assert!(newest_kept, "no compute of the last tick was kept");
}
