//! The map frame: the camera that shows the map, how it fits beside the panel, and the pure
//! coordinate maps between the world and the grid (with the stroke rasteriser).
//!
//! The map is drawn with one world unit per tile, centred on the origin, row 0 at the top:
//! tile (x, y) covers world x ∈ [x − W/2, x + 1 − W/2) and world y ∈ (H/2 − y − 1, H/2 − y].
//! These functions are the whole cursor → tile story once the camera has turned the cursor
//! into a world point, so tests check them without a window.
//!
//! [`MapView`] is what the camera shows: a scale and a centre, fitted to the map until the
//! player zooms or pans. Zoom, pan and fit are pure functions of the view and the [`Frame`]
//! (map, window and panel sizes), and [`screen_to_world`] is the camera's own mapping, tested
//! against Bevy's orthographic projection.

use bevy::math::{IVec2, Vec2};
use bevy::prelude::{Component, Resource};
use gridwalk_core::Pos;

/// How much one wheel notch zooms.
pub const ZOOM_STEP: f32 = 1.25;
/// The fewest cells across the free part of the window when zoomed in all the way.
pub const MIN_CELLS_ACROSS: f32 = 8.0;

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

/// Where the map is seen from: the sizes every view function needs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Frame {
    /// The map's size in tiles (world units).
    pub map: Vec2,
    /// The window's size in logical pixels.
    pub window: Vec2,
    /// The width of the panel on the window's left, in logical pixels.
    pub left: f32,
}

/// What the map camera shows: its scale (world units per logical pixel) and the world point
/// at the window's centre. While `fitted`, it follows [`fit`] through resizes and new maps.
#[derive(Resource, Debug, Clone, Copy, PartialEq)]
pub struct MapView {
    /// World units per logical pixel; always finite and positive.
    pub scale: f32,
    /// The world point at the window's centre (the camera's position).
    pub center: Vec2,
    /// Whether the view shows the whole map, following the window.
    pub fitted: bool,
}

impl Default for MapView {
    fn default() -> Self {
        MapView {
            scale: 1.0,
            center: Vec2::ZERO,
            fitted: true,
        }
    }
}

/// The panel's width on the window's left: the right edge of the first UI rectangle.
pub fn panel_left(ui: &[bevy::math::Rect]) -> f32 {
    ui.first().map_or(0.0, |r| r.max.x.max(0.0))
}

/// The offset of a window point from the window's centre in pixels, y up.
fn from_centre(screen: Vec2, window: Vec2) -> Vec2 {
    Vec2::new(screen.x - window.x / 2.0, window.y / 2.0 - screen.y)
}

/// The world point under window point `screen` (logical pixels, y down from the top left):
/// the mapping of an orthographic camera at `view.center` with scale `view.scale`.
pub fn screen_to_world(view: &MapView, window: Vec2, screen: Vec2) -> Vec2 {
    view.center + from_centre(screen, window) * view.scale
}

/// The window point (logical pixels) where world point `world` is drawn.
pub fn world_to_screen(view: &MapView, window: Vec2, world: Vec2) -> Vec2 {
    let d = (world - view.center) / view.scale;
    Vec2::new(d.x + window.x / 2.0, window.y / 2.0 - d.y)
}

/// The scales a view may take: from a few cells across the free part of the window (the
/// smallest) to the whole map fitted (the largest).
pub fn scale_limits(frame: &Frame) -> (f32, f32) {
    let (fitted, _) = fit(frame.map, frame.window, frame.left);
    let free = (frame.window.x - frame.left).max(frame.window.y).max(1.0);
    let closest = (MIN_CELLS_ACROSS / free).max(1e-4);
    (closest.min(fitted), fitted)
}

/// The fitted view of `frame`.
pub fn fitted(frame: &Frame) -> MapView {
    let (scale, center) = fit(frame.map, frame.window, frame.left);
    MapView {
        scale,
        center,
        fitted: true,
    }
}

/// `view` made valid for `frame`: fitted if it follows the fit or is zoomed out to it, else
/// its scale within [`scale_limits`] and its centre such that the middle of the free part of
/// the window stays over the map.
pub fn clamp_view(view: MapView, frame: &Frame) -> MapView {
    let (lo, hi) = scale_limits(frame);
    if view.fitted || !view.scale.is_finite() || view.scale >= hi * 0.999 {
        return fitted(frame);
    }
    let scale = view.scale.clamp(lo, hi);
    let shift = Vec2::new(frame.left / 2.0 * scale, 0.0);
    let half = frame.map / 2.0;
    let mid = (view.center + shift).clamp(-half, half);
    let center = if mid.is_finite() {
        mid - shift
    } else {
        Vec2::ZERO
    };
    MapView {
        scale,
        center,
        fitted: false,
    }
}

/// `view` zoomed by `notches` wheel notches (positive: in) around window point `screen`: the
/// world point under it stays under it, unless a limit stops the zoom.
pub fn zoom_at(view: MapView, frame: &Frame, screen: Vec2, notches: f32) -> MapView {
    if !notches.is_finite() || notches == 0.0 || !screen.is_finite() {
        return view;
    }
    let (lo, hi) = scale_limits(frame);
    let scale = (view.scale * ZOOM_STEP.powf(-notches)).clamp(lo, hi);
    let anchor = screen_to_world(&view, frame.window, screen);
    let center = anchor - from_centre(screen, frame.window) * scale;
    clamp_view(
        MapView {
            scale,
            center,
            fitted: false,
        },
        frame,
    )
}

/// `view` dragged by `delta` logical pixels: the map follows the pointer.
pub fn pan_by(view: MapView, frame: &Frame, delta: Vec2) -> MapView {
    if !delta.is_finite() {
        return view;
    }
    let center = view.center - Vec2::new(delta.x, -delta.y) * view.scale;
    clamp_view(
        MapView {
            center,
            fitted: false,
            ..view
        },
        frame,
    )
}

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

    fn frame() -> Frame {
        Frame {
            map: Vec2::new(110.0, 100.0),
            window: Vec2::new(1400.0, 900.0),
            left: 300.0,
        }
    }

    #[test]
    fn zooming_keeps_the_cell_under_the_cursor() {
        let f = frame();
        let (w, h) = (110, 100);
        let mut view = fitted(&f);
        for screen in [
            Vec2::new(850.0, 450.0),
            Vec2::new(420.0, 30.0),
            Vec2::new(1390.0, 880.0),
            Vec2::new(700.3, 211.7),
        ] {
            view = fitted(&f);
            for notches in [1.0, 2.0, 0.5, 3.0, 1.0] {
                let before = screen_to_world(&view, f.window, screen);
                let next = zoom_at(view, &f, screen, notches);
                let after = screen_to_world(&next, f.window, screen);
                assert!(next.scale < view.scale, "{notches} notches zoom in");
                assert!((before - after).length() < 1e-3 * view.scale.max(1e-3));
                let cell = |p| world_to_tile(p, w, h);
                assert_eq!(cell(before), cell(after), "at {screen}");
                view = next;
            }
        }
        // All the way in: a few cells across, never zero; all the way out: the fit again.
        let (lo, hi) = scale_limits(&f);
        let deep = zoom_at(view, &f, Vec2::new(800.0, 400.0), 1e6);
        assert_eq!(deep.scale, lo);
        assert!(lo > 0.0 && (1100.0 * lo - MIN_CELLS_ACROSS).abs() < 1e-3);
        let out = zoom_at(deep, &f, Vec2::new(800.0, 400.0), -1e6);
        assert_eq!(out, fitted(&f));
        assert_eq!(out.scale, hi);
        // Nothing the wheel sends makes the view invalid.
        for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 0.0] {
            let v = zoom_at(deep, &f, Vec2::new(800.0, 400.0), bad);
            assert!(v.scale.is_finite() && v.scale > 0.0 && v.center.is_finite());
        }
        let v = zoom_at(deep, &f, Vec2::NAN, 1.0);
        assert!(v.scale.is_finite() && v.center.is_finite());
    }

    #[test]
    fn fit_shows_the_whole_map_and_panning_stays_on_it() {
        let f = frame();
        let v = fitted(&f);
        // Every corner of the map is on screen, right of the panel.
        for corner in [Vec2::new(-55.0, 50.0), Vec2::new(55.0, -50.0)] {
            let s = world_to_screen(&v, f.window, corner);
            assert!(s.x >= f.left && s.x <= f.window.x && s.y >= 0.0 && s.y <= f.window.y);
        }
        assert_eq!(clamp_view(v, &f), v);
        // Zoomed in, a pan follows the pointer...
        let z = zoom_at(v, &f, Vec2::new(850.0, 450.0), 4.0);
        let p = pan_by(z, &f, Vec2::new(30.0, -20.0));
        let moved = world_to_screen(&p, f.window, screen_to_world(&z, f.window, Vec2::ZERO));
        assert!((moved - Vec2::new(30.0, -20.0)).length() < 1e-2, "{moved}");
        // ...but a huge one stops with the middle of the free area on the map's edge.
        let far = pan_by(z, &f, Vec2::new(1e9, -1e9));
        let mid = screen_to_world(&far, f.window, Vec2::new(850.0, 450.0));
        assert!((mid - Vec2::new(-55.0, -50.0)).length() < 1e-2, "{mid}");
        assert!(!far.fitted && far.scale == z.scale);
        // Degenerate windows and maps still give a finite, positive scale.
        for (map, window) in [(Vec2::ONE, Vec2::ZERO), (Vec2::new(8192.0, 1.0), Vec2::ONE)] {
            let f = Frame {
                map,
                window,
                left: 300.0,
            };
            let (lo, hi) = scale_limits(&f);
            assert!(lo > 0.0 && lo <= hi && hi.is_finite());
            let v = zoom_at(fitted(&f), &f, Vec2::ZERO, 3.0);
            assert!(v.scale > 0.0 && v.scale.is_finite() && v.center.is_finite());
        }
    }

    #[test]
    fn screen_to_world_is_the_camera_projection() {
        use bevy::camera::{CameraProjection, OrthographicProjection};
        use bevy::math::Vec4;
        use bevy::transform::components::Transform;
        let window = Vec2::new(1400.0, 900.0);
        let view = MapView {
            scale: 0.037,
            center: Vec2::new(-12.5, 7.25),
            fitted: false,
        };
        let mut ortho = OrthographicProjection::default_2d();
        ortho.scale = view.scale;
        ortho.update(window.x, window.y);
        let clip_from_world = ortho.get_clip_from_view()
            * Transform::from_translation(view.center.extend(0.0))
                .to_matrix()
                .inverse();
        let world_from_clip = clip_from_world.inverse();
        for screen in [Vec2::ZERO, Vec2::new(700.0, 450.0), Vec2::new(1399.0, 13.0)] {
            let ndc = Vec2::new(
                2.0 * screen.x / window.x - 1.0,
                1.0 - 2.0 * screen.y / window.y,
            );
            let w: Vec4 = world_from_clip * ndc.extend(0.0).extend(1.0);
            let bevy = (w.truncate() / w.w).truncate();
            let ours = screen_to_world(&view, window, screen);
            assert!((bevy - ours).length() < 1e-3, "{screen}: {bevy} vs {ours}");
            let back = world_to_screen(&view, window, ours);
            assert!((back - screen).length() < 1e-2);
        }
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
