//! Reflection of the core's types that the components hold, for inspectors: `gridwalk-core`
//! has no Bevy, so each type it lends a component ([`Pos`], [`AgentStatus`], [`OnArrival`],
//! [`Facing`])
//! is reflected here through a remote wrapper that mirrors it field for field, and the
//! components name the wrapper on their fields (`#[reflect(remote = ...)]`). A component's
//! fields read by path as its own would: `GridPos`'s `"0.x"`, `AgentState`'s variant.

use bevy::reflect::reflect_remote;
use gridwalk_core::sim::{AgentStatus, OnArrival};
use gridwalk_core::{Facing, Pos};

/// [`Pos`] as reflection sees it: its column and row.
#[reflect_remote(Pos)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PosReflect {
    /// Column, from 0 at the left.
    pub x: u32,
    /// Row, from 0 at the top.
    pub y: u32,
}

/// An optional cell, as [`NextCell`](crate::NextCell) holds it.
pub type MaybePos = Option<Pos>;

/// [`MaybePos`] as reflection sees it.
#[reflect_remote(MaybePos)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MaybePosReflect {
    /// No cell.
    None,
    /// A cell.
    Some(#[reflect(remote = PosReflect)] Pos),
}

/// [`AgentStatus`] as reflection sees it, variant for variant.
#[reflect_remote(AgentStatus)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AgentStatusReflect {
    /// It has a path and moves along it.
    Walking,
    /// It stands on its goal.
    Arrived,
    /// Its goal is unreachable; it waits until a path opens.
    NoPath,
    /// Its plan is not ready (the planning budget ran out).
    Planning,
    /// Crowd mode: another agent stands on its goal.
    Waiting,
    /// Crowd mode: it has not come closer to its goal for a while.
    Stuck,
}

/// [`Facing`] as reflection sees it, variant for variant.
#[reflect_remote(Facing)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FacingReflect {
    /// Toward growing x.
    East,
    /// Toward growing y (down the map).
    South,
    /// Toward x = 0.
    West,
    /// Toward y = 0 (up the map).
    North,
}

/// [`OnArrival`] as reflection sees it, variant for variant.
#[reflect_remote(OnArrival)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnArrivalReflect {
    /// It stays there.
    Stay,
    /// It walks to a new random goal it can reach.
    Wander,
    /// It walks back to its start, then to its goal again, and so on.
    Patrol,
}
