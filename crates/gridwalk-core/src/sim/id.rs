//! How agents are named: their identifier.

/// An agent's identifier, unique within a simulation, in order of creation.
pub type AgentId = u32;
