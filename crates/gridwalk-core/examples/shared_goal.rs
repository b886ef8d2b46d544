//! Two agents share one D* Lite search toward a goal; a wall drops across their way and the
//! planner repairs. Prints the map with both paths before and after, and the work each took.
//!
//! `cargo run --release -p gridwalk-core --example shared_goal`

use gridwalk_core::cost::to_f64;
use gridwalk_core::search::dstar_lite::DStarLite;
use gridwalk_core::{Connectivity, GoalPlanner, Grid, Heuristic, Pos, Terrain};

const MAP: [&str; 9] = [
    "........................",
    "........................",
    "........#...............",
    "........#...............",
    "........#...............",
    "........#...............",
    "........#...............",
    "........................",
    "........................",
];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut grid = Grid::new(MAP[0].len() as u32, MAP.len() as u32)?;
    for (y, row) in MAP.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            if c == '#' {
                grid.set(Pos::new(x as u32, y as u32), Terrain::Wall)?;
            }
        }
    }
    let conn = Connectivity::Eight;
    let goal = Pos::new(22, 4);
    let agents = [Pos::new(1, 1), Pos::new(2, 7)];
    let starts: Vec<usize> = agents
        .iter()
        .map(|&a| grid.index(a))
        .collect::<Result<_, _>>()?;

    // One planner serves both agents: it searches backward from the goal.
    let mut planner = DStarLite::new(&grid, goal, conn, Heuristic::Octile)?;
    planner.set_starts(&grid, &starts);
    let first = planner.compute(&grid);
    println!(
        "Planned once for both agents: {} cells expanded.",
        first.expanded
    );
    show(&grid, &planner, &starts, goal);

    // A wall drops across both paths, leaving a gap at the bottom.
    let mut changed = Vec::new();
    for y in 0..8 {
        let p = Pos::new(15, y);
        grid.set(p, Terrain::Wall)?;
        changed.push(grid.index(p)?);
    }
    planner.cells_changed(&grid, &changed);
    let repair = planner.compute(&grid);
    println!(
        "\nA wall at x = 15: the repair expanded {} cells ({} queue operations).",
        repair.expanded,
        repair.queue_ops()
    );
    show(&grid, &planner, &starts, goal);
    Ok(())
}

/// Prints the map with each agent's path (`1`, `2`), the goal `G` and walls `#`.
fn show(grid: &Grid, planner: &DStarLite, starts: &[usize], goal: Pos) {
    let mut rows: Vec<Vec<char>> = MAP.iter().map(|r| r.chars().collect()).collect();
    for i in 0..grid.len() {
        if grid.weight(i) == 0 {
            let p = grid.pos(i);
            rows[p.y as usize][p.x as usize] = '#';
        }
    }
    for (n, &s) in starts.iter().enumerate() {
        let mark = char::from_digit(n as u32 + 1, 10).unwrap_or('*');
        match planner.path(grid, s) {
            Some(path) => {
                for p in &path.cells {
                    rows[p.y as usize][p.x as usize] = mark;
                }
                println!(
                    "agent {}: {} moves, cost {:.3}",
                    n + 1,
                    path.moves(),
                    to_f64(path.cost)
                );
            }
            None => println!("agent {}: no path", n + 1),
        }
    }
    rows[goal.y as usize][goal.x as usize] = 'G';
    for r in rows {
        println!("  {}", r.into_iter().collect::<String>());
    }
}
