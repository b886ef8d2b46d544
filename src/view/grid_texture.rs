//! One texel per cell: the images and sprites that the tiles and the overlay both draw into,
//! made, resized and rewritten by the same code.
//!
//! The grid is cut into square chunks of [`CHUNK`] cells, one image and sprite each, so an
//! edit re-uploads one small image, not the whole map (a 1024×1024 map is 4 MB of texels; a
//! chunk is 256 KB). Writers set texels in a CPU copy ([`GridTexture::set`]); only the chunks
//! they changed are copied into their images, once a frame ([`GridTexture::flush`]).

use bevy::asset::RenderAssetUsages;
use bevy::image::ImageSampler;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};

/// The side of a chunk, in cells.
pub const CHUNK: u32 = 256;

/// A `w`×`h` image filled with `fill`, sampled nearest so cells stay crisp.
pub fn new_image(w: u32, h: u32, fill: [u8; 4]) -> Image {
    let mut image = Image::new_fill(
        Extent3d {
            width: w,
            height: h,
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        &fill,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::MAIN_WORLD | RenderAssetUsages::RENDER_WORLD,
    );
    image.sampler = ImageSampler::nearest();
    image
}

/// The cells of chunk (`cx`, `cy`) of a `w`×`h` grid: its first column and row, and its size.
fn chunk_rect((w, h): (u32, u32), cx: u32, cy: u32) -> (u32, u32, u32, u32) {
    let (x0, y0) = (cx * CHUNK, cy * CHUNK);
    (x0, y0, CHUNK.min(w - x0), CHUNK.min(h - y0))
}

/// How many chunks across and down a `w`×`h` grid has.
fn chunks_across((w, h): (u32, u32)) -> (u32, u32) {
    (w.div_ceil(CHUNK), h.div_ceil(CHUNK))
}

/// A one-texel-per-cell texture on grid-sized sprites (one per chunk), remembering what it
/// shows so that only changed texels, and only their chunks, are written.
pub struct GridTexture {
    /// Each chunk's image and the sprite showing it, row by row.
    chunks: Vec<(Handle<Image>, Entity)>,
    size: (u32, u32),
    fill: [u8; 4],
    z: f32,
    drawn: Vec<[u8; 4]>,
    dirty: Vec<bool>,
    any_dirty: bool,
}

impl GridTexture {
    /// Spawns sprites one world unit per cell at depth `z`, centred on the origin, showing a
    /// `w`×`h` grid of `fill`.
    pub fn spawn(
        commands: &mut Commands,
        images: &mut Assets<Image>,
        size: (u32, u32),
        fill: [u8; 4],
        z: f32,
    ) -> GridTexture {
        let mut tex = GridTexture {
            chunks: Vec::new(),
            size: (0, 0),
            fill,
            z,
            drawn: Vec::new(),
            dirty: Vec::new(),
            any_dirty: false,
        };
        tex.resize(commands, images, size);
        tex
    }

    /// Makes the texture show a `size` grid of its fill, with new chunks, unless it has that
    /// size already. Returns whether it changed.
    pub fn resize(
        &mut self,
        commands: &mut Commands,
        images: &mut Assets<Image>,
        size: (u32, u32),
    ) -> bool {
        if self.size == size {
            return false;
        }
        for (image, sprite) in self.chunks.drain(..) {
            images.remove(&image);
            commands.entity(sprite).despawn();
        }
        let (across, down) = chunks_across(size);
        for cy in 0..down {
            for cx in 0..across {
                let (x0, y0, cw, ch) = chunk_rect(size, cx, cy);
                let image = images.add(new_image(cw, ch, self.fill));
                let centre = Vec2::new(
                    x0 as f32 + cw as f32 / 2.0 - size.0 as f32 / 2.0,
                    size.1 as f32 / 2.0 - y0 as f32 - ch as f32 / 2.0,
                );
                let sprite = Sprite {
                    image: image.clone(),
                    custom_size: Some(Vec2::new(cw as f32, ch as f32)),
                    ..default()
                };
                let at = Transform::from_translation(centre.extend(self.z));
                self.chunks.push((image, commands.spawn((sprite, at)).id()));
            }
        }
        self.size = size;
        self.drawn = vec![self.fill; size.0 as usize * size.1 as usize];
        self.dirty = vec![false; self.chunks.len()];
        self.any_dirty = false;
        true
    }

    /// The texels as last set, row 0 first.
    pub fn drawn(&self) -> &[[u8; 4]] {
        &self.drawn
    }

    /// How many chunks the texture has.
    pub fn chunk_count(&self) -> usize {
        self.chunks.len()
    }

    /// Sets cell `i`'s texel; its chunk is uploaded at the next [`GridTexture::flush`] if it
    /// changed. Cells outside the grid are ignored.
    pub fn set(&mut self, i: usize, color: [u8; 4]) {
        let Some(t) = self.drawn.get_mut(i) else {
            return;
        };
        if *t == color {
            return;
        }
        *t = color;
        let w = self.size.0 as usize;
        let (x, y) = ((i % w) as u32, (i / w) as u32);
        let across = chunks_across(self.size).0;
        self.dirty[((y / CHUNK) * across + x / CHUNK) as usize] = true;
        self.any_dirty = true;
    }

    /// Sets every texel to `want` (row 0 first, one per cell; another length is ignored),
    /// comparing a chunk's row at a time.
    pub fn set_all(&mut self, want: &[[u8; 4]]) {
        if want.len() != self.drawn.len() || want == self.drawn.as_slice() {
            return;
        }
        let (w, h) = (self.size.0 as usize, self.size.1 as usize);
        let across = chunks_across(self.size).0 as usize;
        let c = CHUNK as usize;
        for y in 0..h {
            for cx in 0..across {
                let from = y * w + cx * c;
                let to = from + c.min(w - cx * c);
                if want[from..to] != self.drawn[from..to] {
                    self.drawn[from..to].copy_from_slice(&want[from..to]);
                    self.dirty[(y / c) * across + cx] = true;
                    self.any_dirty = true;
                }
            }
        }
    }

    /// Copies the changed chunks into their images. Returns how many were written.
    pub fn flush(&mut self, images: &mut Assets<Image>) -> usize {
        if !self.any_dirty {
            return 0;
        }
        self.any_dirty = false;
        let (w, across) = (self.size.0 as usize, chunks_across(self.size).0);
        let mut written = 0;
        for (k, dirty) in self.dirty.iter_mut().enumerate() {
            if !std::mem::take(dirty) {
                continue;
            }
            let (x0, y0, cw, ch) = chunk_rect(self.size, k as u32 % across, k as u32 / across);
            let Some(mut image) = images.get_mut(&self.chunks[k].0) else {
                continue;
            };
            let Some(data) = image.data.as_mut() else {
                continue;
            };
            let (x0, y0, cw) = (x0 as usize, y0 as usize, cw as usize);
            for row in 0..ch as usize {
                let from = (y0 + row) * w + x0;
                let src = self.drawn[from..from + cw].as_flattened();
                data[row * cw * 4..(row + 1) * cw * 4].copy_from_slice(src);
            }
            written += 1;
        }
        written
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_cover_the_grid_exactly() {
        for size in [(1, 1), (20, 20), (256, 256), (257, 1000), (1024, 1024)] {
            let (across, down) = chunks_across(size);
            let mut area = 0;
            for cy in 0..down {
                for cx in 0..across {
                    let (x0, y0, cw, ch) = chunk_rect(size, cx, cy);
                    assert!(cw > 0 && ch > 0 && x0 + cw <= size.0 && y0 + ch <= size.1);
                    area += cw as u64 * ch as u64;
                }
            }
            assert_eq!(area, size.0 as u64 * size.1 as u64, "{size:?}");
        }
    }

    #[test]
    fn only_the_chunks_of_changed_cells_are_written() {
        let mut world = World::new();
        let mut images = Assets::<Image>::default();
        let mut tex =
            GridTexture::spawn(&mut world.commands(), &mut images, (600, 300), [0; 4], 0.0);
        world.flush();
        assert_eq!(tex.chunk_count(), 3 * 2);
        assert_eq!(tex.flush(&mut images), 0);
        // The last cell is in the last chunk, (88 × 44 cells), at its last texel.
        tex.set(299 * 600 + 599, [1, 2, 3, 4]);
        tex.set(5, [9; 4]);
        tex.set(6, [0; 4]); // unchanged: no write
        assert_eq!(tex.flush(&mut images), 2);
        assert_eq!(tex.flush(&mut images), 0);
        let last = images.get(&tex.chunks[5].0).unwrap();
        let data = last.data.as_ref().unwrap();
        assert_eq!(data.len(), 88 * 44 * 4);
        assert_eq!(data[data.len() - 4..], [1, 2, 3, 4]);
        let first = images.get(&tex.chunks[0].0).unwrap();
        assert_eq!(first.data.as_ref().unwrap()[20..24], [9; 4]);
        // Setting everything to what is shown writes nothing; one change writes one chunk.
        let mut all = tex.drawn().to_vec();
        tex.set_all(&all);
        assert_eq!(tex.flush(&mut images), 0);
        all[300 * 300] = [7; 4];
        tex.set_all(&all);
        assert_eq!(tex.flush(&mut images), 1);
        assert_eq!(tex.drawn(), all.as_slice());
        // A new size: new chunks, all of the fill.
        assert!(tex.resize(&mut world.commands(), &mut images, (20, 20)));
        assert!(!tex.resize(&mut world.commands(), &mut images, (20, 20)));
        world.flush();
        assert_eq!(tex.chunk_count(), 1);
        assert!(tex.drawn().iter().all(|&c| c == [0; 4]));
    }
}
