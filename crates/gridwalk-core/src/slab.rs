//! Items with ids in one dense vector ordered by id: the simulation's agents, so that its
//! per-tick loops walk contiguous memory and a lookup by id is a binary search. Ids only
//! grow, so appending keeps the order.

/// Something stored by its id.
pub(crate) trait HasId {
    /// Its id.
    fn id(&self) -> u32;
}

/// Items by id, densely stored.
#[derive(Clone, Debug)]
pub(crate) struct Slab<T> {
    agents: Vec<T>,
}

impl<T> Default for Slab<T> {
    fn default() -> Self {
        Slab { agents: Vec::new() }
    }
}

impl<T: HasId> Slab<T> {
    fn find(&self, id: u32) -> Result<usize, usize> {
        self.agents.binary_search_by_key(&id, |a| a.id())
    }

    /// Adds `agent`; an id above every id held (ids are handed out in order) is appended.
    pub fn insert(&mut self, agent: T) {
        match self.agents.last() {
            Some(last) if last.id() >= agent.id() => match self.find(agent.id()) {
                Ok(i) => self.agents[i] = agent,
                Err(i) => self.agents.insert(i, agent),
            },
            _ => self.agents.push(agent),
        }
    }

    pub fn get(&self, id: &u32) -> Option<&T> {
        self.find(*id).ok().map(|i| &self.agents[i])
    }

    pub fn get_mut(&mut self, id: &u32) -> Option<&mut T> {
        self.find(*id).ok().map(|i| &mut self.agents[i])
    }

    pub fn remove(&mut self, id: &u32) -> Option<T> {
        self.find(*id).ok().map(|i| self.agents.remove(i))
    }

    pub fn values(&self) -> std::slice::Iter<'_, T> {
        self.agents.iter()
    }

    pub fn values_mut(&mut self) -> std::slice::IterMut<'_, T> {
        self.agents.iter_mut()
    }

    /// The items in id order, to be reached by their place.
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        &mut self.agents
    }

    pub fn keys(&self) -> impl Iterator<Item = u32> + '_ {
        self.agents.iter().map(|a| a.id())
    }

    pub fn len(&self) -> usize {
        self.agents.len()
    }

    pub fn clear(&mut self) {
        self.agents.clear();
    }
}
