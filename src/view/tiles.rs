//! The grid as one texture: one texel per tile, drawn by one sprite with nearest sampling.
//!
//! The texture is rewritten only when a tick or a rebuild changed the grid, or when the edits
//! waiting for the next tick changed. Then the grid's weights are compared with those drawn,
//! block by block (a few hundred microseconds on a 1024×1024 map), and only the cells that
//! differ are set, so only their chunks are uploaded. Edits not yet applied show in a lighter
//! shade of what they will become.

use bevy::prelude::*;
use gridwalk_core::{Grid, Pos, Terrain};

use super::grid_texture::GridTexture;
use crate::schedule::FrameSystems;
use crate::sim::GridSim;
use crate::theme::palette::{preview_color, terrain_color};
use crate::ui_state::EditPreview;

/// The tile texture, and what it was drawn from: the grid's weights and the previewed cells.
#[derive(Resource)]
pub struct TileTexture {
    tex: GridTexture,
    weights: Vec<u8>,
    previewed: Vec<usize>,
}

/// The colour of a cell of weight `w` (0 is a wall).
fn weight_color(w: u8) -> [u8; 4] {
    terrain_color(if w == 0 {
        Terrain::Wall
    } else {
        Terrain::Weight(w)
    })
}

/// The texel colours of `grid` with `preview` over it, row 0 first.
pub fn texels(grid: &Grid, preview: &EditPreview) -> Vec<[u8; 4]> {
    let mut out: Vec<[u8; 4]> = grid.weights().iter().map(|&w| weight_color(w)).collect();
    for (&p, &t) in &preview.cells {
        if let Ok(i) = grid.index(p) {
            out[i] = preview_color(t);
        }
    }
    out
}

/// The tiles feature.
pub fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_tiles)
        .add_systems(Update, redraw_tiles.in_set(FrameSystems::View));
}

fn spawn_tiles(mut commands: Commands, mut images: ResMut<Assets<Image>>, state: Res<GridSim>) {
    let grid = state.sim().grid();
    let size = (grid.width(), grid.height());
    let fill = terrain_color(Terrain::FREE);
    let tex = GridTexture::spawn(&mut commands, &mut images, size, fill, 0.0);
    // No weights drawn yet: the first update draws every cell.
    commands.insert_resource(TileTexture {
        tex,
        weights: Vec::new(),
        previewed: Vec::new(),
    });
}

/// Cells compared at once when looking for changed weights: equal blocks are skipped with one
/// slice comparison.
const BLOCK: usize = 256;

impl TileTexture {
    /// Draws the cells whose weight differs from what was drawn, then the preview over them.
    fn update(&mut self, grid: &Grid, preview: &EditPreview) {
        let now = grid.weights();
        if self.weights.len() != now.len() {
            self.weights = now.to_vec();
            self.previewed.clear();
            self.tex.set_all(&texels(grid, &EditPreview::default()));
        }
        let blocks = now.chunks(BLOCK).zip(self.weights.chunks_mut(BLOCK));
        for (b, (new, old)) in blocks.enumerate() {
            if new == old {
                continue;
            }
            for (k, (&n, o)) in new.iter().zip(old.iter_mut()).enumerate() {
                if n != *o {
                    *o = n;
                    self.tex.set(b * BLOCK + k, weight_color(n));
                }
            }
        }
        for i in std::mem::take(&mut self.previewed) {
            self.tex.set(i, weight_color(now[i]));
        }
        for (&p, &t) in &preview.cells {
            if let Ok(i) = grid.index(p) {
                self.tex.set(i, preview_color(t));
                self.previewed.push(i);
            }
        }
    }
}

/// Redraws the cells that changed since the last drawing, and uploads only their chunks.
fn redraw_tiles(
    mut commands: Commands,
    state: Res<GridSim>,
    preview: Res<EditPreview>,
    tex: Option<ResMut<TileTexture>>,
    mut images: ResMut<Assets<Image>>,
    mut seen: Local<Option<(u64, u64)>>,
) {
    let Some(mut tex) = tex else {
        return;
    };
    let now = (state.ticks(), state.epoch());
    if *seen == Some(now) && !preview.is_changed() {
        return;
    }
    *seen = Some(now);
    let grid = state.sim().grid();
    let tex = &mut *tex;
    if tex
        .tex
        .resize(&mut commands, &mut images, (grid.width(), grid.height()))
    {
        tex.weights.clear();
        tex.previewed.clear();
    }
    tex.update(grid, &preview);
    tex.tex.flush(&mut images);
}

/// The terrain shown at `pos`, for tests: what the texture says the cell is.
pub fn shown(tex: &TileTexture, grid: &Grid, pos: Pos) -> Option<[u8; 4]> {
    tex.tex.drawn().get(grid.index(pos).ok()?).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terrains_are_told_apart() {
        let mut all = vec![terrain_color(Terrain::Wall)];
        all.extend((1..=9).map(|w| terrain_color(Terrain::Weight(w))));
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
                let d: i32 = (0..3).map(|k| (a[k] as i32 - b[k] as i32).abs()).sum();
                assert!(d >= 30, "{a:?} vs {b:?}");
            }
        }
        assert_ne!(preview_color(Terrain::Wall), terrain_color(Terrain::Wall));
    }
}
