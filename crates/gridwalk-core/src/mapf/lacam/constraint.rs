//! LaCAM's low-level search: the constraints a high-level node tries, one at a time, when it
//! asks PIBT for a successor. A constraint node fixes one agent's next cell on top of its
//! parent's; the root fixes nothing. A high-level node keeps a queue of them and grows it
//! breadth first ([`Constraints::branch`]): the children of a node fix the next agent in the
//! high-level node's order, one child per move (stay or a neighbour), in a random order.

use std::mem::size_of;

use crate::crowd::NONE;
use crate::grid::{Connectivity, Grid};
use crate::rng::{Draw, SplitMix64};

/// A low-level (constraint) node: agent `who` must move to `cell`, on top of its parent's
/// constraints; `depth` constraints in all.
#[derive(Clone, Copy)]
struct Low {
    parent: u32,
    who: u32,
    cell: u32,
    depth: u32,
}

/// Every constraint node of a search, by id; id 0 is the root, shared by all high-level nodes.
pub(super) struct Constraints {
    lows: Vec<Low>,
}

impl Constraints {
    /// The bytes one constraint node takes: itself, and its id in a high-level node's queue.
    pub(super) const BYTES: usize = size_of::<Low>() + size_of::<u32>();

    /// The id of the root, the empty set of constraints.
    pub(super) const ROOT: u32 = 0;

    pub(super) fn new() -> Constraints {
        Constraints {
            lows: vec![Low {
                parent: NONE,
                who: NONE,
                cell: NONE,
                depth: 0,
            }],
        }
    }

    /// The bytes the constraint nodes take (the root's queue entries are the arena's).
    pub(super) fn bytes(&self) -> usize {
        (self.lows.len() - 1) * Constraints::BYTES
    }

    /// How many agents constraint `c` fixes.
    pub(super) fn depth(&self, c: u32) -> usize {
        self.lows[c as usize].depth as usize
    }

    /// The children of `c` for a high-level node whose configuration is `config` and whose
    /// order is `order`: the next agent in the order, fixed to each of its moves, shuffled.
    /// Calls `push` with each child's id. `c` must fix fewer
    /// agents than there are.
    pub(super) fn branch(
        &mut self,
        c: u32,
        (grid, conn): (&Grid, Connectivity),
        (config, order): (&[u32], &[u32]),
        rng: &mut SplitMix64,
        mut push: impl FnMut(u32),
    ) {
        let depth = self.lows[c as usize].depth;
        let who = order[depth as usize];
        let here = config[who as usize];
        let mut cells = [here; 9];
        let mut k = 1;
        grid.for_each_neighbor(here as usize, conn, |m, _| {
            cells[k] = m as u32;
            k += 1;
        });
        rng.shuffle(&mut cells[..k]);
        for &cell in &cells[..k] {
            push(self.lows.len() as u32);
            self.lows.push(Low {
                parent: c,
                who,
                cell,
                depth: depth + 1,
            });
        }
    }

    /// Writes the cells `c` fixes into `fixed` (indexed by agent).
    pub(super) fn apply(&self, c: u32, fixed: &mut [Option<u32>]) {
        self.walk(c, |l| fixed[l.who as usize] = Some(l.cell));
    }

    /// Undoes [`apply`](Self::apply): the agents `c` fixes back to `None`.
    pub(super) fn clear(&self, c: u32, fixed: &mut [Option<u32>]) {
        self.walk(c, |l| fixed[l.who as usize] = None);
    }

    /// Calls `f` on each constraint of `c`, from `c` up to (not including) the root.
    fn walk(&self, c: u32, mut f: impl FnMut(&Low)) {
        let mut at = c;
        while self.lows[at as usize].depth > 0 {
            let l = &self.lows[at as usize];
            f(l);
            at = l.parent;
        }
    }
}
