//! Items with ids in one dense vector ordered by id: the simulation's agents, so that its
//! per-tick loops walk contiguous memory and a lookup by id is a binary search. Ids only
//! grow, so appending keeps the order. Beside each item, at the same place in a second
//! vector, a small record of the fields those loops read most, so that they can walk it
//! alone.

/// Something stored by its id.
pub(crate) trait HasId {
    /// Its id.
    fn id(&self) -> u32;
}

/// Items by id, densely stored, each with its hot record.
#[derive(Clone, Debug)]
pub(crate) struct Slab<T, H> {
    agents: Vec<T>,
    hot: Vec<H>,
}

impl<T, H> Default for Slab<T, H> {
    fn default() -> Self {
        Slab {
            agents: Vec::new(),
            hot: Vec::new(),
        }
    }
}

impl<T: HasId, H> Slab<T, H> {
    fn find(&self, id: u32) -> Result<usize, usize> {
        self.agents.binary_search_by_key(&id, |a| a.id())
    }

    /// Adds `agent` and its hot record; an id above every id held (ids are handed out in
    /// order) is appended.
    pub fn insert(&mut self, agent: T, hot: H) {
        match self.agents.last() {
            Some(last) if last.id() >= agent.id() => match self.find(agent.id()) {
                Ok(i) => {
                    self.agents[i] = agent;
                    self.hot[i] = hot;
                }
                Err(i) => {
                    self.agents.insert(i, agent);
                    self.hot.insert(i, hot);
                }
            },
            _ => {
                self.agents.push(agent);
                self.hot.push(hot);
            }
        }
    }

    pub fn get(&self, id: &u32) -> Option<&T> {
        self.find(*id).ok().map(|i| &self.agents[i])
    }

    pub fn get_mut(&mut self, id: &u32) -> Option<&mut T> {
        self.find(*id).ok().map(|i| &mut self.agents[i])
    }

    /// The item and its hot record.
    pub fn get_both(&self, id: &u32) -> Option<(&T, &H)> {
        self.find(*id).ok().map(|i| (&self.agents[i], &self.hot[i]))
    }

    /// The item and its hot record, to change.
    pub fn get_both_mut(&mut self, id: &u32) -> Option<(&mut T, &mut H)> {
        self.find(*id)
            .ok()
            .map(|i| (&mut self.agents[i], &mut self.hot[i]))
    }

    pub fn remove(&mut self, id: &u32) -> Option<(T, H)> {
        self.find(*id)
            .ok()
            .map(|i| (self.agents.remove(i), self.hot.remove(i)))
    }

    pub fn values(&self) -> std::slice::Iter<'_, T> {
        self.agents.iter()
    }

    /// The hot records, in the items' order.
    pub fn hot(&self) -> &[H] {
        &self.hot
    }

    /// The items and their hot records in id order, to be reached by their place.
    pub fn as_mut_slices(&mut self) -> (&mut [T], &mut [H]) {
        (&mut self.agents, &mut self.hot)
    }

    pub fn keys(&self) -> impl Iterator<Item = u32> + '_ {
        self.agents.iter().map(|a| a.id())
    }

    pub fn len(&self) -> usize {
        self.agents.len()
    }

    pub fn clear(&mut self) {
        self.agents.clear();
        self.hot.clear();
    }
}
