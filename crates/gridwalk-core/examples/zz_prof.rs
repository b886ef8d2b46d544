use gridwalk_core::sim::{AgentStatus, SimConfig, Simulation};
use gridwalk_core::{Grid, Pos, Terrain};
fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .map_or(10_000, |a| a.parse().unwrap());
    let mut s = 0x1234_5678_9abc_def1u64;
    let mut rnd = move |m: u64| {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s % m
    };
    let mut grid = Grid::new(110, 100).unwrap();
    for i in 0..grid.len() {
        if rnd(100) < 20 {
            grid.set(grid.pos(i), Terrain::Wall).unwrap();
        }
    }
    let open: Vec<Pos> = (0..grid.len())
        .filter(|&i| grid.weight(i) != 0)
        .map(|i| grid.pos(i))
        .collect();
    let goals: Vec<Pos> = (0..10)
        .map(|_| open[rnd(open.len() as u64) as usize])
        .collect();
    let mut sim = Simulation::new(grid.clone(), SimConfig::default());
    for i in 0..n {
        let _ = sim.add_agent(open[rnd(open.len() as u64) as usize], goals[i % 10]);
    }
    sim.replan();
    let t = std::time::Instant::now();
    for _ in 0..300 {
        let arrived: Vec<(u32, Pos)> = sim
            .agents()
            .filter(|a| a.status == AgentStatus::Arrived)
            .map(|a| (a.id, a.goal))
            .collect();
        for (id, g) in arrived {
            let i = goals.iter().position(|&x| x == g).unwrap_or(0);
            let _ = sim.set_goal(id, goals[(i + 1) % 10]);
        }
        let edits: Vec<(Pos, Terrain)> = (0..5)
            .map(|_| {
                (
                    grid.pos(rnd(grid.len() as u64) as usize),
                    if rnd(2) == 0 {
                        Terrain::Wall
                    } else {
                        Terrain::FREE
                    },
                )
            })
            .collect();
        sim.tick(&edits);
    }
    eprintln!(
        "{n} agents: {:.2} ms/tick, expanded {}",
        t.elapsed().as_secs_f64() * 1e3 / 300.0,
        sim.total_stats().search.expanded
    );
}
