//! One texel per cell: the image and the grid-sized sprite that the tiles and the overlay
//! both draw into, made and resized by the same code.

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

/// Spawns a sprite one world unit per cell at depth `z` showing a new `w`×`h` image of
/// `fill`; returns the image and the sprite.
pub fn spawn(
    commands: &mut Commands,
    images: &mut Assets<Image>,
    (w, h): (u32, u32),
    fill: [u8; 4],
    z: f32,
) -> (Handle<Image>, Entity) {
    let image = images.add(new_image(w, h, fill));
    let sprite = commands
        .spawn((
            Sprite {
                image: image.clone(),
                custom_size: Some(Vec2::new(w as f32, h as f32)),
                ..default()
            },
            Transform::from_xyz(0.0, 0.0, z),
        ))
        .id();
    (image, sprite)
}

/// Gives `sprite` a new `w`×`h` image of `fill` (the map changed size); returns it.
pub fn resize(
    images: &mut Assets<Image>,
    sprites: &mut Query<&mut Sprite>,
    sprite: Entity,
    (w, h): (u32, u32),
    fill: [u8; 4],
) -> Handle<Image> {
    let handle = images.add(new_image(w, h, fill));
    if let Ok(mut s) = sprites.get_mut(sprite) {
        s.image = handle.clone();
        s.custom_size = Some(Vec2::new(w as f32, h as f32));
    }
    handle
}
