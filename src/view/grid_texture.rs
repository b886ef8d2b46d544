//! One texel per cell: the image and the grid-sized sprite that the tiles and the overlay
//! both draw into, made, resized and rewritten by the same code.

use bevy::asset::RenderAssetUsages;
use bevy::image::ImageSampler;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};

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

/// A one-texel-per-cell texture on a grid-sized sprite, remembering what it shows so that
/// only changed texels are written.
pub struct GridTexture {
    /// The image.
    pub image: Handle<Image>,
    /// The sprite showing it.
    pub sprite: Entity,
    size: (u32, u32),
    fill: [u8; 4],
    drawn: Vec<[u8; 4]>,
}

impl GridTexture {
    /// Spawns a sprite one world unit per cell at depth `z`, showing a `w`×`h` image of
    /// `fill`.
    pub fn spawn(
        commands: &mut Commands,
        images: &mut Assets<Image>,
        (w, h): (u32, u32),
        fill: [u8; 4],
        z: f32,
    ) -> GridTexture {
        let image = images.add(new_image(w, h, fill));
        let sprite = Sprite {
            image: image.clone(),
            custom_size: Some(Vec2::new(w as f32, h as f32)),
            ..default()
        };
        let sprite = commands
            .spawn((sprite, Transform::from_xyz(0.0, 0.0, z)))
            .id();
        GridTexture {
            image,
            sprite,
            size: (w, h),
            fill,
            drawn: vec![fill; (w * h) as usize],
        }
    }

    /// The texels as last drawn, row 0 first.
    pub fn drawn(&self) -> &[[u8; 4]] {
        &self.drawn
    }

    /// Shows `want`, one colour per cell of a `size` grid, row 0 first. A new size gets a new
    /// image; otherwise only the texels that differ are written. Returns whether any were.
    pub fn show(
        &mut self,
        images: &mut Assets<Image>,
        sprites: &mut Query<&mut Sprite>,
        size: (u32, u32),
        want: Vec<[u8; 4]>,
    ) -> bool {
        if self.size != size {
            self.image = images.add(new_image(size.0, size.1, self.fill));
            if let Ok(mut s) = sprites.get_mut(self.sprite) {
                s.image = self.image.clone();
                s.custom_size = Some(Vec2::new(size.0 as f32, size.1 as f32));
            }
            self.size = size;
            self.drawn = vec![self.fill; want.len()];
        }
        if self.drawn == want {
            return false;
        }
        let Some(mut image) = images.get_mut(&self.image) else {
            return false;
        };
        let Some(data) = image.data.as_mut() else {
            return false;
        };
        if data.len() != want.len() * 4 || self.drawn.len() != want.len() {
            return false;
        }
        for (i, (c, old)) in want.iter().zip(&self.drawn).enumerate() {
            if c != old {
                data[i * 4..i * 4 + 4].copy_from_slice(c);
            }
        }
        self.drawn = want;
        true
    }
}
