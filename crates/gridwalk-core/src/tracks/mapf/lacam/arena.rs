//! LaCAM's high-level nodes and where they live. A node is a configuration (one cell per
//! agent), how it was reached, the PIBT priorities its successors are generated with and the
//! agents' order by them, and the queue of constraints still to try from it. The arena keeps
//! every node's configuration, priorities and order in three flat arrays of n entries per node,
//! and finds a configuration's node by hash ([`Table`]), so that a known configuration is
//! never kept twice. It reports the bytes it takes from the sizes of its types.

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
            table: Table::new(),
        }
    }

    /// The bytes one node of `n` agents takes: its cell, priority and place in the order per
    /// agent, the node itself, its hash entry, and the root constraint in its queue.
    pub(super) fn node_bytes(n: usize) -> usize {
        let per_agent = size_of::<u32>() + size_of::<f32>() + size_of::<u32>();
        n * per_agent + size_of::<Node>() + Table::ENTRY_BYTES + size_of::<u32>()
    }

    /// The bytes the arena takes now (nodes' queues beyond their root constraint are counted
    /// with the constraints).
    pub(super) fn bytes(&self) -> usize {
        self.nodes.len() * Arena::node_bytes(self.n)
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
        self.push(NONE, 0, config, goals)
    }

    /// Adds `config`, reached from `parent`, with PIBT's priorities updated from the parent's:
    /// an agent on its goal keeps only the fraction, any other gains one.
    pub(super) fn push_child(&mut self, parent: u32, config: &[u32], goals: &[u32]) -> u32 {
        let base = parent as usize * self.n;
        for i in 0..self.n {
            let p = self.prios[base + i];
            let on = config[i] == goals[i];
            self.prios.push(if on { p - p.floor() } else { p + 1.0 });
        }
        let depth = self.nodes[parent as usize].depth + 1;
        self.push(parent, depth, config, goals)
    }

    /// Adds a node whose priorities were just pushed.
    fn push(&mut self, parent: u32, depth: u32, config: &[u32], goals: &[u32]) -> u32 {
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
            low: VecDeque::from([Constraints::ROOT]),
        });
        self.table.insert(hash(config), id);
        id
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
