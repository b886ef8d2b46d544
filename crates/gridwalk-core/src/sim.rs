//! Agents, goals and ticks (in progress).
