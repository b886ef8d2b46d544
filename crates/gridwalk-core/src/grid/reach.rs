//! Who can reach whom on the grid: breadth-first [`Flood`]s that keep their buffers, the
//! connected [`Components`] kept up to date across edits, and [`ring_connected`], the local
//! test that tells whether a new wall may have cut the map. The simulation's wander and its
//! pockets stand on them.

use super::{Connectivity, Grid, Pos};

/// The cells reachable from `from` by legal moves, `from` included, in search order.
/// Empty when `from` is off the map or a wall.
pub fn reachable(grid: &Grid, from: Pos, conn: Connectivity) -> Vec<usize> {
    let Ok(start) = grid.index(from) else {
        return Vec::new();
    };
    let mut flood = Flood::default();
    flood.nth(grid, start, conn, usize::MAX);
    flood.order
}

/// Breadth-first floods over legal moves that keep their buffers: a generation stamp per cell
/// marks what this flood reached, so a flood costs only the cells it reaches.
#[derive(Clone, Debug, Default)]
pub struct Flood {
    stamp: Vec<u32>,
    generation: u32,
    order: Vec<usize>,
}

impl Flood {
    /// Starts a new flood from `from` (which must be passable).
    fn begin(&mut self, grid: &Grid, from: usize) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 || self.stamp.len() != grid.len() {
            self.stamp = vec![0; grid.len()];
            self.generation = 1;
        }
        self.order.clear();
        self.order.push(from);
        self.stamp[from] = self.generation;
    }

    /// Floods from `from` until `stop(reached so far)` holds after a cell's neighbours are
    /// added, or nothing is left. Returns whether it ran out of cells.
    fn run(
        &mut self,
        grid: &Grid,
        from: usize,
        conn: Connectivity,
        mut stop: impl FnMut(usize) -> bool,
    ) -> bool {
        if grid.weight(from) == 0 {
            self.order.clear();
            return true;
        }
        self.begin(grid, from);
        let mut at = 0;
        while at < self.order.len() {
            if stop(self.order.len()) {
                return false;
            }
            self.reach_around(grid, self.order[at], conn);
            at += 1;
        }
        true
    }

    /// Adds the neighbours of `u` this flood has not reached to its order.
    #[inline]
    fn reach_around(&mut self, grid: &Grid, u: usize, conn: Connectivity) {
        let (stamp, generation, order) = (&mut self.stamp, self.generation, &mut self.order);
        grid.for_each_neighbor(u, conn, |n, _| {
            if stamp[n] != generation {
                stamp[n] = generation;
                order.push(n);
            }
        });
    }

    /// The `n`th cell reached from `from` in the order of [`reachable`] (0 is `from`), found
    /// without flooding further than that cell's discovery; `None` when fewer are reachable.
    pub fn nth(&mut self, grid: &Grid, from: usize, conn: Connectivity, n: usize) -> Option<usize> {
        self.run(grid, from, conn, |len| len > n);
        self.order.get(n).copied()
    }

    /// The cells reachable from `from`, if at most `limit`: a bounded flood, which proves a
    /// pocket closed when it runs out of cells in time.
    pub fn within(
        &mut self,
        grid: &Grid,
        from: usize,
        conn: Connectivity,
        limit: usize,
    ) -> Option<&[usize]> {
        let closed = self.run(grid, from, conn, |len| len > limit);
        (closed && self.order.len() <= limit).then_some(&self.order[..])
    }

    /// The first cell reached from `from`, in the order of [`reachable`], for which `accept`
    /// holds: the nearest by moves. `None` when no reachable cell is accepted, or `from` is
    /// a wall.
    pub fn nearest(
        &mut self,
        grid: &Grid,
        from: usize,
        conn: Connectivity,
        mut accept: impl FnMut(usize) -> bool,
    ) -> Option<usize> {
        if grid.weight(from) == 0 {
            return None;
        }
        self.begin(grid, from);
        let mut at = 0;
        while let Some(&u) = self.order.get(at) {
            if accept(u) {
                return Some(u);
            }
            self.reach_around(grid, u, conn);
            at += 1;
        }
        None
    }

    /// Whether the last flood reached `cell`.
    pub fn reached(&self, cell: usize) -> bool {
        self.stamp.get(cell) == Some(&self.generation)
    }
}

/// Whether removing cell `c` (already a wall on `grid`) leaves the passable cells of its 3×3
/// block for which `keep` holds connected to each other by moves inside the block. If so, no
/// two cells of the map were connected only through `c`: every move that `c` took away (into
/// or out of it, or a diagonal past its corner) joined two cells of that block.
pub fn ring_connected(
    grid: &Grid,
    c: usize,
    conn: Connectivity,
    mut keep: impl FnMut(usize) -> bool,
) -> bool {
    let mut ring = [0usize; 8];
    let mut n = 0;
    for v in grid.affected_by(c) {
        if v != c && grid.weight(v) != 0 && keep(v) {
            ring[n] = v;
            n += 1;
        }
    }
    if n <= 1 {
        return true;
    }
    // A flood inside the block from its first cell, as a bit set over `ring`.
    let mut reached = 1u32;
    let mut stack = [0usize; 8];
    let mut top = 1;
    stack[0] = 0;
    while top > 0 {
        top -= 1;
        let u = ring[stack[top]];
        grid.for_each_neighbor(u, conn, |v, _| {
            if let Some(k) = ring[..n].iter().position(|&r| r == v)
                && reached & (1 << k) == 0
            {
                reached |= 1 << k;
                stack[top] = k;
                top += 1;
            }
        });
    }
    reached.count_ones() as usize == n
}

/// The connected components of the passable cells and their sizes, kept up to date as cells
/// change and labelled again only when a change may have split or joined two of them: wander
/// needs the size of an agent's component on every arrival.
#[derive(Clone, Debug, Default)]
pub struct Components {
    label: Vec<u32>,
    size: Vec<u32>,
    conn: Option<Connectivity>,
    stack: Vec<usize>,
}

/// [`Components`]' label of a wall.
const NO_LABEL: u32 = u32::MAX;

impl Components {
    /// Number of cells reachable from `cell` (itself included; 0 for a wall), the length of
    /// [`reachable`] from it.
    pub fn size_at(&mut self, grid: &Grid, cell: usize, conn: Connectivity) -> usize {
        if self.conn != Some(conn) || self.label.len() != grid.len() {
            self.relabel(grid, conn);
        }
        match self.label[cell] {
            NO_LABEL => 0,
            l => self.size[l as usize] as usize,
        }
    }

    /// Whether cells `a` and `b` are both passable and reach each other by legal moves.
    pub fn connected(&mut self, grid: &Grid, a: usize, b: usize, conn: Connectivity) -> bool {
        if self.conn != Some(conn) || self.label.len() != grid.len() {
            self.relabel(grid, conn);
        }
        self.label[a] != NO_LABEL && self.label[a] == self.label[b]
    }

    /// Whether some component has at most `n` cells (a pocket's flood can only prove those).
    pub fn any_at_most(&mut self, grid: &Grid, n: usize, conn: Connectivity) -> bool {
        if self.conn != Some(conn) || self.label.len() != grid.len() {
            self.relabel(grid, conn);
        }
        self.size.iter().any(|&s| s > 0 && s as usize <= n)
    }

    /// Forgets everything: the next query labels the map again.
    pub fn invalidate(&mut self) {
        self.conn = None;
    }

    /// Cell `c` of `grid` changed; `was_passable` says what it was.
    pub fn changed(&mut self, grid: &Grid, c: usize, was_passable: bool) {
        let Some(conn) = self.conn else {
            return;
        };
        let now = grid.weight(c) != 0;
        if now == was_passable {
            return;
        }
        if now {
            // Every move it opens (a diagonal past it included) joins cells it now reaches.
            let mut joined = NO_LABEL;
            let mut many = false;
            grid.for_each_neighbor(c, conn, |v, _| {
                let l = self.label[v];
                if joined == NO_LABEL {
                    joined = l;
                } else if l != joined {
                    many = true;
                }
            });
            if many {
                return self.invalidate();
            }
            if joined == NO_LABEL {
                joined = self.size.len() as u32;
                self.size.push(0);
            }
            self.label[c] = joined;
            self.size[joined as usize] += 1;
        } else {
            let l = std::mem::replace(&mut self.label[c], NO_LABEL);
            self.size[l as usize] -= 1;
            if !ring_connected(grid, c, conn, |v| self.label[v] == l) {
                self.invalidate();
            }
        }
    }

    fn relabel(&mut self, grid: &Grid, conn: Connectivity) {
        self.conn = Some(conn);
        self.label.clear();
        self.size.clear();
        // A map without walls is one component (every cell reaches its four neighbours): the
        // known map of unknown terrain starts so, once per navigation.
        if grid.wall_count() == 0 {
            self.label.resize(grid.len(), 0);
            self.size.push(grid.len() as u32);
            return;
        }
        self.label.resize(grid.len(), NO_LABEL);
        for s in 0..grid.len() {
            if grid.weight(s) == 0 || self.label[s] != NO_LABEL {
                continue;
            }
            let l = self.size.len() as u32;
            self.size.push(1);
            self.label[s] = l;
            self.stack.push(s);
            while let Some(u) = self.stack.pop() {
                grid.for_each_neighbor(u, conn, |v, _| {
                    if self.label[v] == NO_LABEL {
                        self.label[v] = l;
                        self.size[l as usize] += 1;
                        self.stack.push(v);
                    }
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{Draw, SeedableRng, SplitMix64};

    #[test]
    fn reachable_stops_at_walls() {
        let mut g = Grid::new(5, 1).unwrap();
        g.set(Pos::new(2, 0), crate::grid::Terrain::Wall).unwrap();
        let r = reachable(&g, Pos::new(0, 0), Connectivity::Eight);
        assert_eq!(r, vec![0, 1]);
        assert!(reachable(&g, Pos::new(2, 0), Connectivity::Eight).is_empty());
        assert!(reachable(&g, Pos::new(9, 0), Connectivity::Eight).is_empty());
    }

    #[test]
    fn floods_and_components_agree_with_reachable() {
        let conn = Connectivity::Eight;
        let mut g = Grid::new(9, 7).unwrap();
        let mut comps = Components::default();
        let mut flood = Flood::default();
        let mut rng = SplitMix64::seed_from_u64(3);
        for round in 0..400 {
            let c = rng.below(g.len());
            let was = g.weight(c) != 0;
            let t = if rng.below(3) == 0 {
                crate::grid::Terrain::FREE
            } else {
                crate::grid::Terrain::Wall
            };
            g.set(g.pos(c), t).unwrap();
            comps.changed(&g, c, was);
            for cell in 0..g.len() {
                let all = reachable(&g, g.pos(cell), conn);
                assert_eq!(comps.size_at(&g, cell, conn), all.len(), "round {round}");
                let other = rng.below(g.len());
                let joined = all.contains(&other);
                assert_eq!(
                    comps.connected(&g, cell, other, conn),
                    joined,
                    "round {round}"
                );
                let n = rng.below(all.len() + 1);
                assert_eq!(flood.nth(&g, cell, conn, n), all.get(n).copied());
                let small = flood.within(&g, cell, conn, 10).map(<[usize]>::to_vec);
                assert_eq!(small, (all.len() <= 10).then(|| all.clone()));
                let wanted: Vec<bool> = (0..g.len()).map(|_| rng.below(4) == 0).collect();
                let near = flood.nearest(&g, cell, conn, |u| wanted[u]);
                assert_eq!(near, all.iter().copied().find(|&u| wanted[u]));
            }
        }
    }
}
