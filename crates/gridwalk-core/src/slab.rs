//! The simulation's agents in one dense vector ordered by id: the per-tick loops walk
//! contiguous memory, and a lookup by id is a binary search. Ids only grow, so appending
//! keeps the order.

use crate::sim::{Agent, AgentId};

/// Agents by id, densely stored.
#[derive(Clone, Debug, Default)]
pub(crate) struct AgentSlab {
    agents: Vec<Agent>,
}

impl AgentSlab {
    fn find(&self, id: AgentId) -> Result<usize, usize> {
        self.agents.binary_search_by_key(&id, |a| a.id)
    }

    /// Adds `agent`, whose id must exceed every id held (ids are handed out in order).
    pub fn insert(&mut self, agent: Agent) {
        match self.agents.last() {
            Some(last) if last.id >= agent.id => match self.find(agent.id) {
                Ok(i) => self.agents[i] = agent,
                Err(i) => self.agents.insert(i, agent),
            },
            _ => self.agents.push(agent),
        }
    }

    pub fn get(&self, id: &AgentId) -> Option<&Agent> {
        self.find(*id).ok().map(|i| &self.agents[i])
    }

    pub fn get_mut(&mut self, id: &AgentId) -> Option<&mut Agent> {
        self.find(*id).ok().map(|i| &mut self.agents[i])
    }

    pub fn remove(&mut self, id: &AgentId) -> Option<Agent> {
        self.find(*id).ok().map(|i| self.agents.remove(i))
    }

    pub fn values(&self) -> std::slice::Iter<'_, Agent> {
        self.agents.iter()
    }

    pub fn values_mut(&mut self) -> std::slice::IterMut<'_, Agent> {
        self.agents.iter_mut()
    }

    pub fn keys(&self) -> impl Iterator<Item = &AgentId> {
        self.agents.iter().map(|a| &a.id)
    }

    pub fn len(&self) -> usize {
        self.agents.len()
    }

    pub fn clear(&mut self) {
        self.agents.clear();
    }
}
