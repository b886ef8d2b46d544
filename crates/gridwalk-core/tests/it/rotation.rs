//! Robots that turn (LoRR's `MAPF_T`): every joint step of [`RotationStep`] passes a checker
//! written here from LoRR's rules, committed steps too, each carried out within three
//! timesteps; the (cell, facing) tables equal a Dijkstra over the state graph; a chain of
//! 10,000 pushes moves without overflowing the stack; a sparse crowd arrives.

use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap};

use gridwalk_core::crowd::{Action, NONE, RotationStep, StepError};
use gridwalk_core::mapf::{ROTATION_UNREACHABLE, RotationTables};
use gridwalk_core::rng::{Draw, SeedableRng, SplitMix64};
use gridwalk_core::{Grid, Pos, Terrain};
use proptest::prelude::*;

/// A `w × h` map with walls where `walls` says (row-major).
fn map(w: u32, h: u32, walls: &[bool]) -> Grid {
    let mut grid = Grid::new(w, h).unwrap();
    for (i, &wall) in walls.iter().enumerate().take((w * h) as usize) {
        if wall {
            grid.set(Pos::new(i as u32 % w, i as u32 / w), Terrain::Wall)
                .unwrap();
        }
    }
    grid
}

/// LoRR's step, on its own: the (row, col) one step from `loc` facing `o`, as signed numbers.
fn forward(w: u32, loc: u32, o: u8) -> (i64, i64) {
    let (r, c) = ((loc / w) as i64, (loc % w) as i64);
    match o {
        0 => (r, c + 1),
        1 => (r + 1, c),
        2 => (r, c - 1),
        _ => (r - 1, c),
    }
}

/// Checks one joint step as LoRR's `is_valid` does, and returns the states after it.
fn check_step(
    grid: &Grid,
    before: &[(u32, u8)],
    actions: &[Action],
) -> Result<Vec<(u32, u8)>, TestCaseError> {
    prop_assert_eq!(actions.len(), before.len(), "one action a robot");
    let (w, h) = (grid.width() as i64, grid.height() as i64);
    let mut after = Vec::with_capacity(before.len());
    for (&(loc, o), &a) in before.iter().zip(actions) {
        let next = match a {
            Action::Forward => {
                let (r, c) = forward(grid.width(), loc, o);
                prop_assert!(r >= 0 && r < h && c >= 0 && c < w, "{loc} off the map");
                let to = (r * w + c) as u32;
                prop_assert!(
                    grid.is_passable(Pos::new(c as u32, r as u32)),
                    "{loc} into a wall"
                );
                (to, o)
            }
            Action::Clockwise => (loc, (o + 1) % 4),
            Action::CounterClockwise => (loc, (o + 3) % 4),
            Action::Wait => (loc, o),
        };
        after.push(next);
    }
    let cells: BTreeSet<u32> = after.iter().map(|s| s.0).collect();
    prop_assert_eq!(cells.len(), after.len(), "a vertex conflict");
    let moves: BTreeSet<(u32, u32)> = before
        .iter()
        .zip(&after)
        .filter(|(b, a)| b.0 != a.0)
        .map(|(b, a)| (b.0, a.0))
        .collect();
    for &(from, to) in &moves {
        prop_assert!(!moves.contains(&(to, from)), "a swap {from} <-> {to}");
    }
    Ok(after)
}

/// The fewest actions from `(cell, facing)` to a state on `goal`: Dijkstra forward over the
/// state graph, each action costing one.
fn dijkstra(grid: &Grid, start: (u32, u8), goal: u32) -> Option<u32> {
    let w = grid.width();
    let mut best = vec![u32::MAX; grid.len() * 4];
    let mut heap = BinaryHeap::new();
    let key = |s: (u32, u8)| s.0 as usize * 4 + s.1 as usize;
    best[key(start)] = 0;
    heap.push(Reverse((0u32, start)));
    while let Some(Reverse((d, s))) = heap.pop() {
        if s.0 == goal {
            return Some(d);
        }
        if d > best[key(s)] {
            continue;
        }
        let mut next = vec![(s.0, (s.1 + 1) % 4), (s.0, (s.1 + 3) % 4)];
        let (r, c) = forward(w, s.0, s.1);
        if r >= 0 && r < grid.height() as i64 && c >= 0 && c < w as i64 {
            let p = Pos::new(c as u32, r as u32);
            if grid.is_passable(p) {
                next.push(((r as u32) * w + c as u32, s.1));
            }
        }
        for t in next {
            if d + 1 < best[key(t)] {
                best[key(t)] = d + 1;
                heap.push(Reverse((d + 1, t)));
            }
        }
    }
    None
}

/// PIBT's priorities: steps since a robot last stood on its goal, ties by a fixed fraction.
fn order(prio: &[f64]) -> Vec<u32> {
    let mut order: Vec<u32> = (0..prio.len() as u32).collect();
    order.sort_by(|&a, &b| prio[b as usize].total_cmp(&prio[a as usize]));
    order
}

/// Plays `steps` steps of robots from `states` to `goals`, checking each; the states after
/// each step.
fn play(
    grid: &Grid,
    mut states: Vec<(u32, u8)>,
    goals: &[u32],
    steps: usize,
    seed: u64,
) -> Result<Vec<Vec<(u32, u8)>>, TestCaseError> {
    let mut rng = SplitMix64::seed_from_u64(seed);
    let mut tables = RotationTables::new(grid);
    let mut rule = RotationStep::new(grid);
    let mut prio: Vec<f64> = goals.iter().map(|_| rng.unit()).collect();
    let mut seen = Vec::new();
    for _ in 0..steps {
        let guidance = tables.guidance(goals).unwrap();
        let order = order(&prio);
        let actions = rule
            .step(grid, &states, &order, &guidance, &mut rng)
            .unwrap()
            .to_vec();
        states = check_step(grid, &states, &actions)?;
        for (a, p) in prio.iter_mut().enumerate() {
            *p = if states[a].0 == goals[a] {
                p.fract()
            } else {
                *p + 1.0
            };
        }
        seen.push(states.clone());
    }
    Ok(seen)
}

/// Plays `steps` timesteps of committed steps, each robot's next cell fed back as its target
/// until it stands on it; a robot on its target is decided again at once (`together` false)
/// or only once every robot is on its own (`together`). Checks each step, and that no robot
/// is on its way to a target for more than three timesteps; the states after each step.
fn play_committed(
    grid: &Grid,
    mut states: Vec<(u32, u8)>,
    goals: &[u32],
    steps: usize,
    seed: u64,
    together: bool,
) -> Result<Vec<Vec<(u32, u8)>>, TestCaseError> {
    let mut rng = SplitMix64::seed_from_u64(seed);
    let mut tables = RotationTables::new(grid);
    let mut rule = RotationStep::new(grid);
    let order: Vec<u32> = (0..goals.len() as u32).collect();
    let mut targets = vec![NONE; goals.len()];
    let mut on_way = vec![0u32; goals.len()];
    let mut seen = Vec::new();
    for _ in 0..steps {
        let all_there = states.iter().zip(&targets).all(|(s, &t)| s.0 == t);
        for (s, t) in states.iter().zip(&mut targets) {
            if (together && all_there) || (!together && s.0 == *t) {
                *t = NONE;
            }
        }
        let guidance = tables.guidance(goals).unwrap();
        let actions = rule
            .step_committed(grid, &states, &order, &targets, &guidance, &mut rng)
            .unwrap()
            .to_vec();
        targets = rule.next_cells().to_vec();
        states = check_step(grid, &states, &actions)?;
        for (a, (s, &t)) in states.iter().zip(&targets).enumerate() {
            on_way[a] = if s.0 == t { 0 } else { on_way[a] + 1 };
            prop_assert!(on_way[a] < 3, "robot {} short of {} for 3 steps", a, t);
        }
        seen.push(states.clone());
    }
    Ok(seen)
}

/// A small map, robots on distinct free cells with any facing, and goals on free cells.
fn crowd() -> impl Strategy<Value = (Grid, Vec<(u32, u8)>, Vec<u32>, u64)> {
    (2u32..9, 1u32..9)
        .prop_flat_map(|(w, h)| {
            (
                Just((w, h)),
                prop::collection::vec(prop::bool::weighted(0.25), (w * h) as usize),
                any::<u64>(),
            )
        })
        .prop_filter_map("no free cell", |((w, h), walls, seed)| {
            let grid = map(w, h, &walls);
            let mut free: Vec<u32> = (0..grid.len() as u32)
                .filter(|&c| grid.weight(c as usize) != 0)
                .collect();
            if free.is_empty() {
                return None;
            }
            let mut rng = SplitMix64::seed_from_u64(seed);
            rng.shuffle(&mut free);
            let n = 1 + rng.below(free.len());
            let states = free[..n].iter().map(|&c| (c, rng.below(4) as u8)).collect();
            let goals = (0..n).map(|_| free[rng.below(free.len())]).collect();
            Some((grid, states, goals, seed))
        })
}

proptest! {
    #![proptest_config(crate::common::proptest_cases(200))]

    /// No step puts a robot off the map or on a wall, two robots on a cell, or two robots
    /// through each other, however dense the crowd and wherever the goals (shared ones too).
    #[test]
    fn every_step_is_valid((grid, states, goals, seed) in crowd()) {
        play(&grid, states, &goals, 40, seed)?;
    }

    /// Committed steps are as valid, and each next cell is reached within three timesteps
    /// (two turns and a move), whoever waits behind whom, whether robots are decided again
    /// together or each on its own.
    #[test]
    fn committed_steps_are_valid_and_carried_out((grid, states, goals, seed) in crowd()) {
        play_committed(&grid, states.clone(), &goals, 40, seed, true)?;
        play_committed(&grid, states, &goals, 40, seed, false)?;
    }

    /// A table's value at every state is the fewest actions Dijkstra finds.
    #[test]
    fn tables_are_exact((grid, _states, goals, _seed) in crowd()) {
        let mut tables = RotationTables::new(&grid);
        let goal = goals[0];
        for cell in 0..grid.len() as u32 {
            for facing in 0..4u8 {
                let got = tables.distance(goal, cell, facing).unwrap();
                let want = if grid.weight(cell as usize) == 0 {
                    None
                } else {
                    dijkstra(&grid, (cell, facing), goal)
                };
                match want {
                    Some(d) => prop_assert_eq!(got as u32, d, "({}, {})", cell, facing),
                    None => prop_assert_eq!(got, ROTATION_UNREACHABLE, "({}, {})", cell, facing),
                }
            }
        }
    }
}

/// A train of 10,000 robots facing east in a corridor, the last in line first in priority:
/// its push runs down the whole train, which moves forward as one.
#[test]
fn a_chain_of_ten_thousand_moves_as_one() {
    let n = 10_000u32;
    let grid = Grid::new(n + 2, 1).unwrap();
    let states: Vec<(u32, u8)> = (0..n).map(|a| (a, 0)).collect();
    let goals = vec![n + 1; n as usize];
    let mut tables = RotationTables::new(&grid);
    let guidance = tables.guidance(&goals).unwrap();
    let mut rule = RotationStep::new(&grid);
    let mut rng = SplitMix64::seed_from_u64(3);
    let order: Vec<u32> = (0..n).collect();
    let actions = rule
        .step(&grid, &states, &order, &guidance, &mut rng)
        .unwrap();
    assert!(actions.iter().all(|&a| a == Action::Forward));
}

/// A robot in the way of a pusher, facing the pusher, turns aside while the pusher waits,
/// then steps aside and the pusher follows it.
#[test]
fn a_pushed_robot_turns_then_steps_aside() {
    let grid = Grid::new(5, 3).unwrap();
    let cell = |x: u32, y: u32| y * 5 + x;
    // Robot 0 at (1, 1) faces east, heading for (4, 1); robot 1 stands on its goal (2, 1)
    // facing west, toward robot 0.
    let goals = [cell(4, 1), cell(2, 1)];
    let mut states = vec![(cell(1, 1), 0u8), (cell(2, 1), 2u8)];
    let mut tables = RotationTables::new(&grid);
    let mut rule = RotationStep::new(&grid);
    let mut rng = SplitMix64::seed_from_u64(5);
    let mut step = |states: &[(u32, u8)]| {
        let guidance = tables.guidance(&goals).unwrap();
        rule.step(&grid, states, &[0, 1], &guidance, &mut rng)
            .unwrap()
            .to_vec()
    };
    let first = step(&states);
    assert_eq!(first[0], Action::Wait, "the pusher waits for the turn");
    assert!(matches!(
        first[1],
        Action::Clockwise | Action::CounterClockwise
    ));
    states = check_step(&grid, &states, &first).unwrap();
    let second = step(&states);
    assert_eq!(
        second,
        [Action::Forward, Action::Forward],
        "it steps aside, followed"
    );
    states = check_step(&grid, &states, &second).unwrap();
    assert_eq!(states[0].0, cell(2, 1));
    assert_ne!(states[1].0, cell(2, 1));
}

/// A robot facing away from its goal turns toward it, then walks there.
#[test]
fn a_robot_turns_then_walks() {
    let grid = Grid::new(5, 1).unwrap();
    let mut tables = RotationTables::new(&grid);
    let goals = [4];
    let mut rule = RotationStep::new(&grid);
    let mut rng = SplitMix64::seed_from_u64(1);
    let mut state = vec![(0u32, 2u8)];
    let mut taken = Vec::new();
    while state[0].0 != 4 && taken.len() < 10 {
        let guidance = tables.guidance(&goals).unwrap();
        let a = rule.step(&grid, &state, &[0], &guidance, &mut rng).unwrap()[0];
        state[0] = a.apply(&grid, state[0]).unwrap();
        taken.push(a.letter());
    }
    assert_eq!(taken.len(), 6, "two turns and four moves: {taken:?}");
    assert_eq!(&taken[2..], ['F'; 4]);
}

/// Forty robots on a 16 × 16 map with pillars (each free cell on a loop, no corridor),
/// distinct goals: every one stands on its goal within 300 steps, for several draws.
#[test]
fn a_sparse_crowd_arrives() {
    let w = 16;
    let walls: Vec<bool> = (0..w * w)
        .map(|i| i % w % 4 == 1 && i / w % 4 == 1)
        .collect();
    let grid = map(w, w, &walls);
    for seed in 0..4 {
        let mut free: Vec<u32> = (0..grid.len() as u32)
            .filter(|&c| grid.weight(c as usize) != 0)
            .collect();
        let mut rng = SplitMix64::seed_from_u64(seed);
        rng.shuffle(&mut free);
        let n = 40;
        let states: Vec<(u32, u8)> = free[..n].iter().map(|&c| (c, 0)).collect();
        rng.shuffle(&mut free);
        let goals = free[..n].to_vec();
        let seen = play(&grid, states, &goals, 300, seed).unwrap();
        let off = |s: &Vec<(u32, u8)>| s.iter().zip(&goals).filter(|(s, g)| s.0 != **g).count();
        let arrived = seen.iter().any(|s| off(s) == 0);
        assert!(
            arrived,
            "seed {seed}: {} robots off their goals at the end",
            off(&seen[299])
        );
    }
}

/// Targets that cannot hold are refused, naming what is wrong, and the step can be made
/// again afterwards: a target two cells away, on a wall, shared, or traded; too few.
#[test]
fn committed_targets_that_cannot_hold_are_refused() {
    let walls: Vec<bool> = (0..8).map(|i| i == 7).collect();
    let grid = map(4, 2, &walls);
    let states = [(0u32, 0u8), (1, 0)];
    let mut tables = RotationTables::new(&grid);
    let goals = [3, 2];
    let mut rule = RotationStep::new(&grid);
    let mut rng = SplitMix64::seed_from_u64(2);
    let cases: [(&[u32], &str); 5] = [
        (&[2, NONE], "not a passable cell beside"),
        (&[NONE, 7], "not a passable cell beside"),
        (&[1, 1], "two robots have target 1"),
        (&[1, 0], "would trade cells"),
        (&[NONE], "1 targets for 2 robots"),
    ];
    for (targets, words) in cases {
        let guidance = tables.guidance(&goals).unwrap();
        let got = rule.step_committed(&grid, &states, &[0, 1], targets, &guidance, &mut rng);
        match got {
            Err(StepError::BadInput(e)) => assert!(e.contains(words), "{targets:?}: {e}"),
            other => panic!("{targets:?}: {other:?}"),
        }
    }
    let guidance = tables.guidance(&goals).unwrap();
    let fine = rule.step_committed(&grid, &states, &[0, 1], &[1, 2], &guidance, &mut rng);
    assert_eq!(
        fine.unwrap(),
        [Action::Forward, Action::Forward],
        "a train moves"
    );
}

/// Guidance where cells `a` and `b` are the goal's equals and every other state is far,
/// and a move out of `from` facing `dear` costs `price` actions.
struct Priced {
    a: u32,
    b: u32,
    from: u32,
    dear: u8,
    price: u64,
}

impl gridwalk_core::crowd::RotationGuidance for Priced {
    fn cost(&self, _agent: usize, cell: u32, _facing: u8) -> u64 {
        if cell == self.a || cell == self.b {
            0
        } else {
            100
        }
    }

    fn forward(&self, _agent: usize, cell: u32, facing: u8) -> u64 {
        if cell == self.from && facing == self.dear {
            self.price
        } else {
            1
        }
    }
}

#[test]
fn a_dear_move_loses_to_an_equal_cheap_one() {
    // A robot in the middle of a 3×3 room facing north: the cells west and east of it are
    // equally near its goal, but the move out toward one of them is dear (a traffic rule's
    // wrong way). Whatever the draw, it turns toward the other.
    let grid = map(3, 3, &[false; 9]);
    let mut rule = RotationStep::new(&grid);
    for seed in 0..16 {
        let mut rng = SplitMix64::seed_from_u64(seed);
        for (dear, want) in [(0, Action::CounterClockwise), (2, Action::Clockwise)] {
            let guidance = Priced {
                a: 3,
                b: 5,
                from: 4,
                dear,
                price: 10,
            };
            let act = rule
                .step(&grid, &[(4, 3)], &[0], &guidance, &mut rng)
                .unwrap()[0];
            assert_eq!(act, want, "seed {seed}, the move facing {dear} dear");
        }
    }
}
