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
    /// Where `id` is, or would go. Ids are handed out one by one, so an item stands `id -
    /// first id` places from the first unless one below it has gone: that place is tried
    /// first, then a binary search.
    fn find(&self, id: u32) -> Result<usize, usize> {
        let first = self.agents.first().map_or(id, |a| a.id());
        let place = id.wrapping_sub(first) as usize;
        match self.agents.get(place) {
            Some(a) if id >= first && a.id() == id => Ok(place),
            _ => self.agents.binary_search_by_key(&id, |a| a.id()),
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    impl HasId for u32 {
        fn id(&self) -> u32 {
            *self
        }
    }

    #[test]
    fn an_item_is_found_at_its_place_and_past_a_removal() {
        let mut slab: Slab<u32, ()> = Slab::default();
        for id in 3..9 {
            slab.insert(id, ());
        }
        let searched = |slab: &Slab<u32, ()>, id: u32| slab.agents.binary_search(&id);
        let check = |slab: &Slab<u32, ()>| {
            for id in 0..12 {
                assert_eq!(slab.find(id), searched(slab, id), "id {id}");
            }
        };
        check(&slab);
        // Removals below an item move it down its place; the first one moves every place.
        for gone in [5, 3] {
            slab.remove(&gone).unwrap();
            check(&slab);
        }
        assert_eq!(slab.get(&8), Some(&8));
        assert_eq!(slab.get(&5), None);
    }
}
