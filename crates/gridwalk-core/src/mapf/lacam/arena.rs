//! LaCAM's high-level nodes and where they live. A node is a configuration (one cell per
//! agent), how it was reached, the PIBT priorities its successors are generated with and the
//! agents' order by them, and the queue of constraints still to try from it. The arena keeps
//! every node's configuration, priorities and order in three flat arrays of n entries per node,
//! and finds a configuration's node by hash ([`Table`]), so that a known configuration is
//! never kept twice. It reports the bytes it takes from the sizes of its types.
//!
//! For LaCAM\* it also keeps each node's cost from the root `g` (the sum over its transitions
//! of the agents not staying on their goals, lacam3's edge cost), its estimate `h` (the sum of
//! the agents' distances), and the transitions known between nodes, along which
//! [`rewire`](Arena::rewire) passes on a cheaper way to a node.

use std::collections::VecDeque;
use std::mem::size_of;

use super::constraint::Constraints;
use crate::crowd::NONE;

/// A high-level node; its configuration, priorities and order are the arena's at its id.
pub(super) struct Node {
    /// The node it was first reached from ([`NONE`] for the root).
    pub parent: u32,
    /// Timesteps from the root along parents.
    pub depth: u32,
    /// Agents on their goals.
    pub at_goal: u32,
    /// The cost of the cheapest known way from the root (along parents).
    pub g: u64,
    /// The sum of the agents' distances to their goals.
    pub h: u64,
    /// Constraint nodes (ids in [`Constraints`]) still to try, breadth first.
    pub low: VecDeque<u32>,
}

/// Every high-level node of a search, by id (the root is 0).
pub(super) struct Arena {
    n: usize,
    configs: Vec<u32>,
    prios: Vec<f32>,
    orders: Vec<u32>,
    nodes: Vec<Node>,
    /// Per node, the nodes a transition is known to (LaCAM\*'s neighbours).
    neighbors: Vec<Vec<u32>>,
    /// Transitions in `neighbors`.
    edges: usize,
    table: Table,
}

impl Arena {
    /// The arena of a search of `n` agents.
    pub(super) fn new(n: usize) -> Arena {
        Arena {
            n,
            configs: Vec::new(),
            prios: Vec::new(),
            orders: Vec::new(),
            nodes: Vec::new(),
            neighbors: Vec::new(),
            edges: 0,
            table: Table::new(),
        }
    }

    /// The bytes one node of `n` agents takes: its cell, priority and place in the order per
    /// agent, the node itself, its hash entry, and the root constraint in its queue.
    pub(super) fn node_bytes(n: usize) -> usize {
        let per_agent = size_of::<u32>() + size_of::<f32>() + size_of::<u32>();
        n * per_agent
            + size_of::<Node>()
            + size_of::<Vec<u32>>()
            + Table::ENTRY_BYTES
            + size_of::<u32>()
    }

    /// The bytes the arena takes now (nodes' queues beyond their root constraint are counted
    /// with the constraints).
    pub(super) fn bytes(&self) -> usize {
        self.nodes.len() * Arena::node_bytes(self.n) + self.edges * size_of::<u32>()
    }

    /// How many nodes there are.
    pub(super) fn len(&self) -> usize {
        self.nodes.len()
    }

    pub(super) fn node(&self, id: u32) -> &Node {
        &self.nodes[id as usize]
    }

    pub(super) fn node_mut(&mut self, id: u32) -> &mut Node {
        &mut self.nodes[id as usize]
    }

    /// Node `id`'s configuration.
    pub(super) fn config(&self, id: u32) -> &[u32] {
        let i = id as usize * self.n;
        &self.configs[i..i + self.n]
    }

    /// Node `id`'s agents by priority, highest first.
    pub(super) fn order(&self, id: u32) -> &[u32] {
        let i = id as usize * self.n;
        &self.orders[i..i + self.n]
    }

    /// The node of `config`, if it is known.
    pub(super) fn find(&self, config: &[u32]) -> Option<u32> {
        self.table.find(hash(config), config, &self.configs, self.n)
    }

    /// Adds the root: `config` with PIBT's first priorities, the agents' distances to their
    /// goals over n (`dist`), farthest first.
    pub(super) fn push_root(&mut self, config: &[u32], goals: &[u32], dist: &[u32]) -> u32 {
        let n = self.n as f32;
        self.prios.extend(dist.iter().map(|&d| d as f32 / n));
        let h = dist.iter().map(|&d| d as u64).sum();
        self.push(NONE, (0, 0, h), config, goals)
    }

    /// Adds `config`, reached from `parent`, with PIBT's priorities updated from the parent's:
    /// an agent on its goal keeps only the fraction, any other gains one. `h` is the sum of the
    /// agents' distances in `config`.
    pub(super) fn push_child(&mut self, parent: u32, config: &[u32], goals: &[u32], h: u64) -> u32 {
        let base = parent as usize * self.n;
        for i in 0..self.n {
            let p = self.prios[base + i];
            let on = config[i] == goals[i];
            self.prios.push(if on { p - p.floor() } else { p + 1.0 });
        }
        let depth = self.nodes[parent as usize].depth + 1;
        let g = self.nodes[parent as usize].g + self.cost(self.config(parent), config, goals);
        let id = self.push(parent, (depth, g, h), config, goals);
        self.link(parent, id);
        self.link(id, parent);
        id
    }

    /// Adds a node whose priorities were just pushed.
    fn push(
        &mut self,
        parent: u32,
        (depth, g, h): (u32, u64, u64),
        config: &[u32],
        goals: &[u32],
    ) -> u32 {
        let id = self.nodes.len() as u32;
        let at_goal = config.iter().zip(goals).filter(|(c, g)| c == g).count() as u32;
        self.configs.extend_from_slice(config);
        let prios = &self.prios[id as usize * self.n..];
        let mut order: Vec<u32> = (0..self.n as u32).collect();
        order.sort_by(|&a, &b| {
            prios[b as usize]
                .total_cmp(&prios[a as usize])
                .then(a.cmp(&b))
        });
        self.orders.extend(order);
        self.nodes.push(Node {
            parent,
            depth,
            at_goal,
            g,
            h,
            low: VecDeque::from([Constraints::ROOT]),
        });
        self.neighbors.push(Vec::new());
        self.table.insert(hash(config), id);
        id
    }

    /// The cost of a transition from `a` to `b`: the agents not staying on their goals.
    fn cost(&self, a: &[u32], b: &[u32], goals: &[u32]) -> u64 {
        a.iter()
            .zip(b)
            .zip(goals)
            .filter(|((x, y), g)| x != g || y != g)
            .count() as u64
    }

    /// Records a transition from node `a` to node `b` (once).
    pub(super) fn link(&mut self, a: u32, b: u32) {
        let out = &mut self.neighbors[a as usize];
        if !out.contains(&b) {
            out.push(b);
            self.edges += 1;
        }
    }

    /// Passes on from node `from` every cheaper way the known transitions give (Dijkstra's
    /// relaxation with a queue, as lacam3's rewrite): a node reached more cheaply takes the
    /// new parent and cost, and `improved` hears of it.
    pub(super) fn rewire(
        &mut self,
        from: u32,
        goals: &[u32],
        mut improved: impl FnMut(u32, &Node),
    ) {
        let mut queue = std::collections::VecDeque::from([from]);
        while let Some(a) = queue.pop_front() {
            for k in 0..self.neighbors[a as usize].len() {
                let b = self.neighbors[a as usize][k];
                let g = self.nodes[a as usize].g + self.cost(self.config(a), self.config(b), goals);
                if g < self.nodes[b as usize].g {
                    let node = &mut self.nodes[b as usize];
                    node.g = g;
                    node.parent = a;
                    improved(b, node);
                    queue.push_back(b);
                }
            }
        }
    }

    /// Recomputes every node's cheapest cost from the root over all known transitions (until
    /// the first solution the parents are the order of discovery; LaCAM\* starts from here).
    pub(super) fn rewire_all(&mut self, goals: &[u32]) {
        for node in &mut self.nodes[1..] {
            node.g = u64::MAX;
        }
        self.rewire(0, goals, |_, _| {});
    }
}

/// A configuration's hash: a multiply-and-rotate mix of each cell.
fn hash(config: &[u32]) -> u64 {
    let mut h = 0x9E37_79B9_7F4A_7C15u64;
    for &c in config {
        h = (h ^ c as u64)
            .wrapping_mul(0xBF58_476D_1CE4_E5B9)
            .rotate_left(27);
    }
    h ^ (h >> 31)
}

/// The kept configurations by hash: open addressing over node ids, at most half full.
struct Table {
    slots: Vec<u32>,
    hashes: Vec<u64>,
    len: usize,
}

impl Table {
    /// The most bytes one entry takes: its hash, and up to four slots (the table doubles when
    /// half full).
    const ENTRY_BYTES: usize = size_of::<u64>() + 4 * size_of::<u32>();

    fn new() -> Table {
        Table {
            slots: vec![NONE; 1024],
            hashes: Vec::new(),
            len: 0,
        }
    }

    fn find(&self, key: u64, config: &[u32], configs: &[u32], n: usize) -> Option<u32> {
        let mask = self.slots.len() - 1;
        let mut s = key as usize & mask;
        loop {
            let id = self.slots[s];
            if id == NONE {
                return None;
            }
            let i = id as usize;
            if self.hashes[i] == key && configs[i * n..(i + 1) * n] == *config {
                return Some(id);
            }
            s = (s + 1) & mask;
        }
    }

    /// Adds node `id` (the next id) under `key`.
    fn insert(&mut self, key: u64, id: u32) {
        debug_assert_eq!(id as usize, self.hashes.len());
        self.hashes.push(key);
        self.len += 1;
        if self.len * 2 > self.slots.len() {
            let bigger = self.slots.len() * 2;
            self.slots = vec![NONE; bigger];
            for i in 0..self.hashes.len() {
                self.place(self.hashes[i], i as u32);
            }
        } else {
            self.place(key, id);
        }
    }

    /// Puts node `id` in the first free slot from its hash's.
    fn place(&mut self, key: u64, id: u32) {
        let mask = self.slots.len() - 1;
        let mut s = key as usize & mask;
        while self.slots[s] != NONE {
            s = (s + 1) & mask;
        }
        self.slots[s] = id;
    }
}
