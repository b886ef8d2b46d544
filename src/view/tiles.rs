//! The grid as one texture: one texel per tile, drawn by one sprite with nearest sampling.
//!
//! The texture is rewritten only when a tick or a rebuild changed the grid, or when the edits
//! waiting for the next tick changed; then only the texels that differ are written. Edits not
//! yet applied show in a lighter shade of what they will become.

use bevy::prelude::*;
use gridwalk_core::{Grid, Pos, Terrain};

use super::grid_texture::GridTexture;
use crate::schedule::FrameSystems;
use crate::sim::SimState;
use crate::theme::palette::{preview_color, terrain_color};
use crate::ui_state::EditPreview;

/// The tile texture.
#[derive(Resource)]
pub struct TileTexture(GridTexture);

/// The texel colours of `grid` with `preview` over it, row 0 first.
pub fn texels(grid: &Grid, preview: &EditPreview) -> Vec<[u8; 4]> {
    let mut out: Vec<[u8; 4]> = (0..grid.len())
        .map(|i| {
            let w = grid.weight(i);
            terrain_color(if w == 0 {
                Terrain::Wall
            } else {
                Terrain::Weight(w)
            })
        })
        .collect();
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

fn spawn_tiles(mut commands: Commands, mut images: ResMut<Assets<Image>>, state: Res<SimState>) {
    let grid = state.sim().grid();
    let size = (grid.width(), grid.height());
    let fill = terrain_color(Terrain::FREE);
    let tex = GridTexture::spawn(&mut commands, &mut images, size, fill, 0.0);
    commands.insert_resource(TileTexture(tex));
}

/// Rewrites the texels that changed since the last drawing.
fn redraw_tiles(
    state: Res<SimState>,
    preview: Res<EditPreview>,
    tex: Option<ResMut<TileTexture>>,
    mut images: ResMut<Assets<Image>>,
    mut sprites: Query<&mut Sprite>,
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
    let size = (grid.width(), grid.height());
    tex.0
        .show(&mut images, &mut sprites, size, texels(grid, &preview));
}

/// The terrain shown at `pos`, for tests: what the texture says the cell is.
pub fn shown(tex: &TileTexture, grid: &Grid, pos: Pos) -> Option<[u8; 4]> {
    tex.0.drawn().get(grid.index(pos).ok()?).copied()
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
