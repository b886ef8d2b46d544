//! Paths, their legality check, and the descent that turns a cost-to-goal field into a path.

use serde::{Deserialize, Serialize};

use crate::cost::{Cost, INFINITY, add};
use crate::grid::{Connectivity, Grid, Pos};

/// A path from its first cell to its last, with its total cost.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Path {
    /// The cells visited, start first, goal last. Never empty.
    pub cells: Vec<Pos>,
    /// The sum of the move costs.
    pub cost: Cost,
}

/// Why a path is not a legal path on a grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathError {
    /// The path has no cells.
    Empty,
    /// A cell is off the grid or a wall.
    Blocked(Pos),
    /// Two consecutive cells are not one legal move apart.
    IllegalMove(Pos, Pos),
    /// The stored cost differs from the sum of the moves.
    WrongCost {
        /// What the path claims.
        claimed: Cost,
        /// The sum of its moves.
        actual: Cost,
    },
}

impl Path {
    /// Number of moves.
    pub fn moves(&self) -> usize {
        self.cells.len().saturating_sub(1)
    }

    /// Checks every cell and move against `grid`, and the cost against the moves' sum.
    pub fn validate(&self, grid: &Grid, conn: Connectivity) -> Result<(), PathError> {
        let first = *self.cells.first().ok_or(PathError::Empty)?;
        if !grid.is_passable(first) {
            return Err(PathError::Blocked(first));
        }
        let mut actual = 0;
        for w in self.cells.windows(2) {
            if !grid.is_passable(w[1]) {
                return Err(PathError::Blocked(w[1]));
            }
            let (a, b) = (grid.index(w[0]).unwrap(), grid.index(w[1]).unwrap());
            let c = grid
                .move_cost(a, b, conn)
                .ok_or(PathError::IllegalMove(w[0], w[1]))?;
            actual += c;
        }
        if actual != self.cost {
            return Err(PathError::WrongCost {
                claimed: self.cost,
                actual,
            });
        }
        Ok(())
    }
}

/// The best move out of `cell` when `value(n)` is the cost from `n` to the goal: the
/// neighbour minimising `move cost + value`, first in neighbour order on ties. Returns the
/// neighbour and that sum, or `None` when every neighbour is unreachable.
#[inline]
pub fn best_move(
    grid: &Grid,
    conn: Connectivity,
    cell: usize,
    value: impl Fn(usize) -> Cost,
) -> Option<(usize, Cost)> {
    let mut best: Option<(usize, Cost)> = None;
    grid.for_each_neighbor(cell, conn, |n, c| {
        let v = value(n);
        if v == INFINITY {
            return;
        }
        let total = add(c, v);
        if best.is_none_or(|(_, b)| total < b) {
            best = Some((n, total));
        }
    });
    best
}

/// Follows [`best_move`] from `from` to `goal`. Every step must strictly lower `value`, so
/// the walk can never oscillate; if it would, or if it runs out of moves, the answer is `None`.
pub fn descend(
    grid: &Grid,
    conn: Connectivity,
    from: usize,
    goal: usize,
    value: impl Fn(usize) -> Cost,
) -> Option<Path> {
    let mut cells = vec![grid.pos(from)];
    let mut cost = 0;
    let mut at = from;
    let mut here = value(from);
    if here == INFINITY {
        return None;
    }
    while at != goal {
        let (next, _) = best_move(grid, conn, at, &value)?;
        let v = value(next);
        if v >= here {
            return None;
        }
        cost += grid.move_cost(at, next, conn)?;
        cells.push(grid.pos(next));
        at = next;
        here = v;
    }
    Some(Path { cells, cost })
}
