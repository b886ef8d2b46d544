//! Agent separation: agents that stand on one cell are spread to the nearest free cells. Crowd
//! mode needs one agent a cell; the simulation separates its agents with [`separate`] when
//! crowd mode comes on with agents sharing cells, and a caller that places a crowd (the game's
//! rebuild, its `--agents` start) separates the starts with it before adding them.

use crate::grid::{Connectivity, Flood, Grid, Pos};

/// Spreads `cells` so that no two share a cell: every cell after the first of its kind (in the
/// order given) moves to the nearest passable cell that none of `cells` holds (breadth first
/// over `conn`'s moves, so in the same component: an agent starting there keeps its goal in
/// reach). A cell off `grid`, on a wall, or with no free cell in reach stays. Returns how many
/// cells moved.
///
/// ```
/// use gridwalk_core::sim::separate;
/// use gridwalk_core::{Connectivity, Grid, Pos};
///
/// let grid = Grid::new(5, 5).unwrap();
/// let mut starts = [Pos::new(2, 2), Pos::new(2, 2), Pos::new(2, 3)];
/// assert_eq!(separate(&grid, Connectivity::Four, starts.iter_mut()), 1);
/// assert_eq!(starts[0], Pos::new(2, 2), "the first keeps its cell");
/// assert_eq!(starts[2], Pos::new(2, 3), "so does a cell nobody shares");
/// assert_eq!(starts[1], Pos::new(2, 1), "the nearest cell none holds");
/// ```
pub fn separate<'a>(
    grid: &Grid,
    conn: Connectivity,
    cells: impl IntoIterator<Item = &'a mut Pos>,
) -> usize {
    let mut cells: Vec<&mut Pos> = cells.into_iter().collect();
    // How many stand on each cell, and whether the first of a cell was seen.
    let mut count = vec![0u32; grid.len()];
    for c in cells.iter().filter_map(|p| grid.index(**p).ok()) {
        count[c] += 1;
    }
    let mut kept = vec![false; grid.len()];
    let mut flood = Flood::default();
    let mut moved = 0;
    for pos in &mut cells {
        let Ok(c) = grid.index(**pos) else {
            continue;
        };
        if !std::mem::replace(&mut kept[c], true) {
            continue;
        }
        let Some(u) = flood.nearest(grid, c, conn, |u| count[u] == 0) else {
            continue;
        };
        count[c] -= 1;
        count[u] += 1;
        kept[u] = true;
        **pos = grid.pos(u);
        moved += 1;
    }
    moved
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Terrain;

    /// Whether `cells` are distinct.
    fn distinct(cells: &[Pos]) -> bool {
        let mut sorted: Vec<_> = cells.iter().map(|p| (p.x, p.y)).collect();
        sorted.sort_unstable();
        sorted.windows(2).all(|w| w[0] != w[1])
    }

    #[test]
    fn a_crowd_on_one_cell_spreads_breadth_first_and_keeps_its_component() {
        let mut grid = Grid::new(7, 5).unwrap();
        // A wall column: the right part is another component.
        for y in 0..5 {
            grid.set(Pos::new(3, y), Terrain::Wall).unwrap();
        }
        let at = Pos::new(1, 2);
        let mut cells = vec![at; 9];
        cells.push(Pos::new(0, 0)); // taken already: nobody may move onto it
        assert_eq!(separate(&grid, Connectivity::Eight, cells.iter_mut()), 8);
        assert!(distinct(&cells), "{cells:?}");
        assert_eq!(cells[0], at);
        assert!(cells.iter().all(|p| p.x < 3), "none crosses the wall");
        // Breadth first: the 8 neighbours of (1, 2) are 8 cells, one of them (0, 0)'s row;
        // every moved cell is within two moves.
        assert!(
            cells
                .iter()
                .all(|p| p.x.abs_diff(1) <= 2 && p.y.abs_diff(2) <= 2)
        );
    }

    #[test]
    fn cells_with_no_room_off_the_map_or_on_walls_stay() {
        let mut grid = Grid::new(2, 1).unwrap();
        let mut cells = vec![Pos::new(0, 0); 3];
        cells.push(Pos::new(9, 9));
        assert_eq!(separate(&grid, Connectivity::Four, cells.iter_mut()), 1);
        assert_eq!(cells[1], Pos::new(1, 0));
        assert_eq!((cells[2], cells[3]), (Pos::new(0, 0), Pos::new(9, 9)));
        grid.set(Pos::new(1, 0), Terrain::Wall).unwrap();
        let mut on_wall = [Pos::new(1, 0); 2];
        assert_eq!(separate(&grid, Connectivity::Four, on_wall.iter_mut()), 0);
    }
}
