//! Roads, cities, cloisters and fields, kept up to date tile by tile: a union-find over the
//! segments of the placed tiles. Each feature's root carries what scoring needs (its tiles, its
//! pennants, its edges still open), so placing a tile touches only the features it joins and
//! scoring a feature reads its root; nothing walks the board.
//!
//! Union by size keeps every tree shallow (depth at most log₂ of the segments), so `find` needs
//! no path compression and works on a shared state. The members of each feature form a ring
//! (`next`), joined in constant time on every union, so a feature's segments can be listed
//! without looking at any other.

use super::tiles::FeatureKind;

/// A segment of a placed tile, numbered in placement order.
pub type Node = u16;

/// A set of placed tiles by their placement index (0 for the start tile). A game places at most
/// 88 tiles.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TileSet(#[serde(with = "crate::wide")] u128);

impl TileSet {
    pub fn of(tile: u8) -> Self {
        TileSet(1 << tile)
    }

    pub fn insert(&mut self, tile: u8) {
        self.0 |= 1 << tile;
    }

    pub fn contains(self, tile: u8) -> bool {
        self.0 & (1 << tile) != 0
    }

    pub fn union(self, other: TileSet) -> TileSet {
        TileSet(self.0 | other.0)
    }

    pub fn len(self) -> u32 {
        self.0.count_ones()
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The tiles, lowest placement index first.
    pub fn iter(self) -> impl Iterator<Item = u8> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let i = bits.trailing_zeros();
            bits &= bits - 1;
            Some(i as u8)
        })
    }
}

/// What a feature's root knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Feature {
    pub kind: FeatureKind,
    /// Segments in the feature (for union by size).
    pub size: u16,
    /// The distinct tiles the feature lies on.
    pub tiles: TileSet,
    pub pennants: u8,
    /// Roads and cities: edges not yet met by a neighbouring tile. 0 = completed.
    pub open: u16,
}

impl Feature {
    /// A road or city with no open edge. (A cloister's completion is its neighbours' count;
    /// fields never complete.)
    pub fn closed(&self) -> bool {
        matches!(self.kind, FeatureKind::Road | FeatureKind::City) && self.open == 0
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
struct Link {
    parent: Node,
    next: Node,
    tile: u8,
    segment: u8,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Features {
    links: Vec<Link>,
    /// Meaningful at roots only.
    data: Vec<Feature>,
}

impl Features {
    /// A new one-segment feature on placed tile `tile`.
    pub fn add(
        &mut self,
        tile: u8,
        segment: u8,
        kind: FeatureKind,
        open: u16,
        pennant: bool,
    ) -> Node {
        let node = self.links.len() as Node;
        self.links.push(Link {
            parent: node,
            next: node,
            tile,
            segment,
        });
        self.data.push(Feature {
            kind,
            size: 1,
            tiles: TileSet::of(tile),
            pennants: u8::from(pennant),
            open,
        });
        node
    }

    pub fn len(&self) -> usize {
        self.links.len()
    }

    pub fn is_empty(&self) -> bool {
        self.links.is_empty()
    }

    /// The root of `node`'s feature: its identity while no tile joins it to another.
    pub fn find(&self, mut node: Node) -> Node {
        while self.links[node as usize].parent != node {
            node = self.links[node as usize].parent;
        }
        node
    }

    /// The feature `node` belongs to.
    pub fn get(&self, node: Node) -> &Feature {
        &self.data[self.find(node) as usize]
    }

    /// The placed tile and segment of `node`.
    pub fn place_of(&self, node: Node) -> (u8, u8) {
        let link = self.links[node as usize];
        (link.tile, link.segment)
    }

    pub fn same(&self, a: Node, b: Node) -> bool {
        self.find(a) == self.find(b)
    }

    /// Two road or city segments meet across an edge: one feature, two edges fewer open (the
    /// same feature may meet itself, closing a loop).
    pub fn connect_edge(&mut self, a: Node, b: Node) {
        let root = self.join(a, b);
        let open = &mut self.data[root as usize].open;
        *open = open.saturating_sub(2);
    }

    /// Two segments become one feature (fields meeting across a half-edge).
    pub fn join(&mut self, a: Node, b: Node) -> Node {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra == rb {
            return ra;
        }
        let (big, small) = if self.data[rb as usize].size > self.data[ra as usize].size {
            (rb, ra)
        } else {
            (ra, rb)
        };
        self.links[small as usize].parent = big;
        // Splice the two rings.
        let next_big = self.links[big as usize].next;
        self.links[big as usize].next = self.links[small as usize].next;
        self.links[small as usize].next = next_big;
        let absorbed = self.data[small as usize];
        let root = &mut self.data[big as usize];
        root.size += absorbed.size;
        root.tiles = root.tiles.union(absorbed.tiles);
        root.pennants += absorbed.pennants;
        root.open += absorbed.open;
        big
    }

    /// Every segment of `node`'s feature, `node` first.
    pub fn members(&self, node: Node) -> impl Iterator<Item = Node> + '_ {
        let mut current = Some(node);
        std::iter::from_fn(move || {
            let this = current?;
            let next = self.links[this as usize].next;
            current = (next != node).then_some(next);
            Some(this)
        })
    }

    /// Every feature once, by its root, in the order of their first segments' placement.
    pub fn roots(&self) -> impl Iterator<Item = Node> + '_ {
        (0..self.links.len() as Node).filter(|&n| self.links[n as usize].parent == n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn road(f: &mut Features, tile: u8, open: u16) -> Node {
        f.add(tile, 0, FeatureKind::Road, open, false)
    }

    #[test]
    fn joined_segments_share_their_tiles_pennants_and_open_edges() {
        let mut f = Features::default();
        let a = f.add(0, 0, FeatureKind::City, 1, true);
        let b = f.add(1, 0, FeatureKind::City, 2, false);
        let c = f.add(2, 0, FeatureKind::City, 1, true);
        f.connect_edge(a, b);
        assert_eq!(f.get(a).open, 1);
        assert!(!f.get(b).closed());
        f.connect_edge(b, c);
        let city = f.get(c);
        assert_eq!((city.open, city.pennants, city.tiles.len()), (0, 2, 3));
        assert!(city.closed());
        assert!(f.same(a, c));
        let mut members: Vec<Node> = f.members(b).collect();
        members.sort();
        assert_eq!(members, vec![a, b, c]);
        assert_eq!(f.roots().count(), 1);
    }

    #[test]
    fn two_segments_of_one_tile_count_the_tile_once() {
        let mut f = Features::default();
        let a = f.add(0, 0, FeatureKind::Road, 1, false);
        let b = f.add(0, 1, FeatureKind::Road, 1, false);
        let c = road(&mut f, 1, 2);
        f.connect_edge(a, c);
        f.connect_edge(c, b);
        assert_eq!(f.get(a).tiles.len(), 2);
        assert_eq!(f.get(a).size, 3);
        assert!(f.get(a).closed());
    }

    #[test]
    fn a_feature_meeting_itself_closes_a_loop() {
        let mut f = Features::default();
        let nodes: Vec<Node> = (0..4).map(|t| road(&mut f, t, 2)).collect();
        for i in 0..4 {
            f.connect_edge(nodes[i], nodes[(i + 1) % 4]);
        }
        assert!(f.get(nodes[0]).closed());
        assert_eq!(f.members(nodes[2]).count(), 4);
    }

    #[test]
    fn trees_stay_shallow() {
        let mut f = Features::default();
        let nodes: Vec<Node> = (0..64).map(|t| road(&mut f, t, 2)).collect();
        for i in 1..64 {
            f.connect_edge(nodes[i - 1], nodes[i]);
        }
        let depth = |mut n: Node| {
            let mut d = 0;
            while f.links[n as usize].parent != n {
                n = f.links[n as usize].parent;
                d += 1;
            }
            d
        };
        assert!(nodes.iter().all(|&n| depth(n) <= 6));
    }

    #[test]
    fn tile_sets_list_their_tiles_in_order() {
        let mut s = TileSet::of(87);
        s.insert(3);
        s.insert(40);
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![3, 40, 87]);
        assert_eq!(s.len(), 3);
        assert!(s.contains(40) && !s.contains(41));
        assert!(TileSet::default().is_empty());
    }
}
