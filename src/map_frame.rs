//! The map frame: the camera that shows the map, how it fits beside the panel, and the pure
//! coordinate maps between the world and the grid (with the stroke rasteriser).
//!
//! The map is drawn with one world unit per tile, centred on the origin, row 0 at the top:
//! tile (x, y) covers world x ∈ [x − W/2, x + 1 − W/2) and world y ∈ (H/2 − y − 1, H/2 − y].
//! These functions are the whole cursor → tile story once the camera has turned the cursor
//! into a world point, so tests check them without a window.

use bevy::math::{IVec2, Vec2};
use bevy::prelude::Component;
use gridwalk_core::Pos;

/// The camera that shows the map.
#[derive(Component, Debug, Default)]
pub struct MapCamera;

/// The camera scale (world units per logical pixel) and position that show a `map` of tiles
/// whole, centred in the window minus a panel of `left` logical pixels on the left, with a
/// small margin. Pure, so it is tested without a window.
pub fn fit(map: Vec2, window: Vec2, left: f32) -> (f32, Vec2) {
    let free = Vec2::new((window.x - left).max(1.0), window.y.max(1.0));
    let margin = 1.04;
    let scale = (map.x / free.x).max(map.y / free.y).max(1e-4) * margin;
    // The map's centre (the world origin) must appear at the free area's centre, which is
    // left/2 pixels right of the window's centre.
    (scale, Vec2::new(-left / 2.0 * scale, 0.0))
}

/// Keeps the map fitted to the free part of the window.
/// The cell under a world point, unclamped: it may lie off the map (negative or too large).
/// Strokes use it so a line that leaves the map and comes back has no gap at the border.
pub fn world_to_cell(world: Vec2, width: u32, height: u32) -> IVec2 {
    let x = (world.x + width as f32 / 2.0).floor();
    let y = (height as f32 / 2.0 - world.y).floor();
    IVec2::new(
        x.clamp(i32::MIN as f32, i32::MAX as f32) as i32,
        y.clamp(i32::MIN as f32, i32::MAX as f32) as i32,
    )
}

/// The tile under a world point, or `None` off the map.
pub fn world_to_tile(world: Vec2, width: u32, height: u32) -> Option<Pos> {
    if !world.is_finite() {
        return None;
    }
    cell_to_tile(world_to_cell(world, width, height), width, height)
}

/// The tile of an unclamped cell, or `None` off the map.
pub fn cell_to_tile(cell: IVec2, width: u32, height: u32) -> Option<Pos> {
    (cell.x >= 0 && cell.y >= 0 && (cell.x as u32) < width && (cell.y as u32) < height)
        .then(|| Pos::new(cell.x as u32, cell.y as u32))
}

/// The world point at the centre of tile `pos`.
pub fn tile_center(pos: Pos, width: u32, height: u32) -> Vec2 {
    Vec2::new(
        pos.x as f32 + 0.5 - width as f32 / 2.0,
        height as f32 / 2.0 - pos.y as f32 - 0.5,
    )
}

/// Every cell on the line from `a` to `b`, both included, with no gaps: Bresenham's line,
/// so consecutive cells touch by a side or a corner. At most `limit` cells are returned, so a
/// wild cursor jump cannot make a huge line.
pub fn line_cells(a: IVec2, b: IVec2, limit: usize) -> Vec<IVec2> {
    let (mut x, mut y) = (a.x as i64, a.y as i64);
    let (x1, y1) = (b.x as i64, b.y as i64);
    let dx = (x1 - x).abs();
    let dy = -(y1 - y).abs();
    let sx = if x < x1 { 1 } else { -1 };
    let sy = if y < y1 { 1 } else { -1 };
    let mut err = dx + dy;
    let mut out = Vec::new();
    loop {
        out.push(IVec2::new(x as i32, y as i32));
        if (x == x1 && y == y1) || out.len() >= limit {
            break;
        }
        let e2 = 2 * err;
        if e2 >= dy {
            err += dy;
            x += sx;
        }
        if e2 <= dx {
            err += dx;
            y += sy;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tile_centres_map_back_to_their_tile() {
        for (w, h) in [(110, 100), (1, 1), (7, 3)] {
            for y in 0..h {
                for x in 0..w {
                    let p = Pos::new(x, y);
                    assert_eq!(world_to_tile(tile_center(p, w, h), w, h), Some(p));
                }
            }
        }
    }

    #[test]
    fn corners_and_outside() {
        // The top-left corner of a 110×100 map is at (-55, 50).
        assert_eq!(
            world_to_tile(Vec2::new(-54.99, 49.99), 110, 100),
            Some(Pos::new(0, 0))
        );
        assert_eq!(world_to_tile(Vec2::new(-55.01, 0.0), 110, 100), None);
        assert_eq!(world_to_tile(Vec2::new(0.0, 50.01), 110, 100), None);
        assert_eq!(
            world_to_tile(Vec2::new(54.99, -49.99), 110, 100),
            Some(Pos::new(109, 99))
        );
        assert_eq!(world_to_tile(Vec2::new(55.0, 0.0), 110, 100), None);
        assert_eq!(world_to_tile(Vec2::NAN, 110, 100), None);
        assert_eq!(world_to_tile(Vec2::splat(1e30), 110, 100), None);
        assert_eq!(world_to_cell(Vec2::new(-56.5, 0.0), 110, 100).x, -2);
    }

    #[test]
    fn lines_have_no_gaps() {
        for (a, b) in [
            (IVec2::new(0, 0), IVec2::new(17, 5)),
            (IVec2::new(3, 9), IVec2::new(-4, -20)),
            (IVec2::new(5, 5), IVec2::new(5, 5)),
            (IVec2::new(0, 0), IVec2::new(0, -7)),
        ] {
            let cells = line_cells(a, b, 10_000);
            assert_eq!(cells.first(), Some(&a));
            assert_eq!(cells.last(), Some(&b));
            let steps = (b - a).abs().max_element() as usize;
            assert_eq!(cells.len(), steps + 1);
            for w in cells.windows(2) {
                let d = (w[1] - w[0]).abs();
                assert!(
                    d.max_element() == 1,
                    "{a} → {b}: gap between {} and {}",
                    w[0],
                    w[1]
                );
            }
        }
        assert_eq!(
            line_cells(IVec2::ZERO, IVec2::new(1_000_000, 0), 50).len(),
            50
        );
    }

    #[test]
    fn the_map_fits_beside_the_panel() {
        let (scale, at) = fit(Vec2::new(110.0, 100.0), Vec2::new(1400.0, 900.0), 300.0);
        // Height limits: 100 tiles in 900 px.
        assert!((scale - 100.0 / 900.0 * 1.04).abs() < 1e-6);
        // The map's left edge lands right of the panel.
        let left_edge_px = 700.0 + (-55.0 - at.x) / scale;
        assert!(left_edge_px > 300.0, "{left_edge_px}");
        let right_edge_px = 700.0 + (55.0 - at.x) / scale;
        assert!(right_edge_px < 1400.0);
        // A narrow window: width limits.
        let (s2, _) = fit(Vec2::new(110.0, 100.0), Vec2::new(500.0, 900.0), 300.0);
        assert!((s2 - 110.0 / 200.0 * 1.04).abs() < 1e-6);
        // Degenerate sizes do not divide by zero.
        let (s3, _) = fit(Vec2::new(110.0, 100.0), Vec2::ZERO, 300.0);
        assert!(s3.is_finite());
    }
}
