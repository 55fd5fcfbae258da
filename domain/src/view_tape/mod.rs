//! A view written flat for undo's judgement: what `serde_json::to_value` of the view would
//! hold, as one array of nodes and one buffer of bytes instead of a tree of allocated maps,
//! strings and vectors. Building a view's `serde_json::Value` (a Mauerbauer view is 22 KB of
//! JSON) allocated every field name and every string; a tape costs two growing buffers.
//!
//! It means what the value means: two tapes are equal exactly when the two values are (an
//! object's fields in any order, an integer whatever its Rust type, a float as `f64`, so
//! `-0.0 == 0.0`, a float that is not finite as `null`), and a path of field names and
//! indices leads to the same part in both. The view's top-level `type` (the view's schema
//! name, the same in every view of a kind) is left out.

use serde::ser::{self, Serialize};

use writer::Writer;

mod writer;

/// One node, as a tape holds it packed into a word: an object or array (how many children, and
/// how many nodes its subtree has), a field name (before its value) or a scalar (its bytes: a
/// tag and the value). Nothing in it says where it is, so two subtrees written alike are equal
/// words wherever they are (see [`Part::written_alike`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Node {
    kind: Kind,
    /// Object, array: the number of fields or elements. Key, scalar: how many bytes it has.
    a: u32,
    /// Object, array: how many nodes its subtree has, itself included. Key, scalar: 0.
    b: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
enum Kind {
    Object = 0,
    Array = 1,
    Key = 2,
    Scalar = 3,
}

/// `a` and `b` of a packed node take 31 bits each, the kind the top two: a view of two
/// billion nodes or bytes is far beyond any game's (they are kilobytes). Every `a` and `b` is
/// at most the tape's count of nodes or bytes, so [`Tape::write`] checks those once.
const FIELD: u64 = (1 << 31) - 1;

impl Node {
    #[inline]
    fn pack(self) -> u64 {
        (self.kind as u64) << 62 | u64::from(self.a) << 31 | u64::from(self.b)
    }

    #[inline]
    fn unpack(word: u64) -> Node {
        Node {
            kind: match word >> 62 {
                0 => Kind::Object,
                1 => Kind::Array,
                2 => Kind::Key,
                _ => Kind::Scalar,
            },
            a: (word >> 31 & FIELD) as u32,
            b: (word & FIELD) as u32,
        }
    }
}

/// A view written flat. `Tape::root` is the whole view.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tape {
    /// The nodes in the order written (a parent before its children), packed.
    nodes: Vec<u64>,
    /// Where each node's bytes start in `bytes` (an object's or array's: its first child's).
    /// Kept beside the nodes, not in them, so that a subtree's nodes do not depend on where
    /// it is; its bytes are one span, from its first node's start to the next node's.
    starts: Vec<u32>,
    bytes: Vec<u8>,
}

/// A part of a tape: a node and what it holds.
#[derive(Clone, Copy, Debug)]
pub struct Part<'t> {
    tape: &'t Tape,
    at: usize,
}

/// One step into a view: a field (its name, borrowed from the tape walked) or an index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step<'t> {
    Field(&'t [u8]),
    Index(usize),
}

/// Why a value cannot be written as a tape: only what `serde_json` refuses too (a map key that
/// is no string, number, bool or char).
#[derive(Debug)]
pub struct TapeError(String);

impl std::fmt::Display for TapeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TapeError {}

impl ser::Error for TapeError {
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        TapeError(msg.to_string())
    }
}

// The scalars' tags: each scalar's bytes are its tag and then its value, so that equal bytes
// are equal values and nothing else is.
const NULL: u8 = b'n';
const TRUE: u8 = b't';
const FALSE: u8 = b'f';
const INTEGER: u8 = b'i';
const FLOAT: u8 = b'd';
const STRING: u8 = b's';

impl Tape {
    /// The view `value` written flat, its top-level `type` left out.
    pub fn of<T: Serialize + ?Sized>(value: &T) -> Result<Tape, TapeError> {
        let mut tape = Tape::default();
        tape.write(value)?;
        Ok(tape)
    }

    /// [`Tape::of`] into this tape, in place of what it held: its buffers are used again.
    pub fn write<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), TapeError> {
        self.nodes.clear();
        self.starts.clear();
        self.bytes.clear();
        value.serialize(&mut Writer::new(self))?;
        // Checked here, once, rather than at every node: no count in a node exceeds these.
        assert!(
            self.nodes.len() as u64 <= FIELD && self.bytes.len() as u64 <= FIELD,
            "a view too large for a tape"
        );
        Ok(())
    }

    /// Empty, with room for as much as `other` holds.
    pub fn with_capacity_of(other: &Tape) -> Tape {
        Tape {
            nodes: Vec::with_capacity(other.nodes.len()),
            starts: Vec::with_capacity(other.starts.len()),
            bytes: Vec::with_capacity(other.bytes.len()),
        }
    }

    /// The bytes this tape holds: its nodes, where their bytes start, and its buffer.
    pub fn size(&self) -> usize {
        self.nodes.len() * std::mem::size_of::<u64>()
            + self.starts.len() * std::mem::size_of::<u32>()
            + self.bytes.len()
    }

    pub fn root(&self) -> Part<'_> {
        Part { tape: self, at: 0 }
    }

    /// How many nodes this tape holds: one past the largest [`Part::index`].
    pub fn nodes(&self) -> usize {
        self.nodes.len()
    }

    /// A key's or scalar's node, for the bytes written since `start`.
    #[inline]
    fn leaf(&mut self, kind: Kind, start: usize) {
        let a = (self.bytes.len() - start) as u32;
        self.nodes.push(Node { kind, a, b: 0 }.pack());
        self.starts.push(start as u32);
    }

    #[inline]
    fn scalar(&mut self, tag: u8, value: &[u8]) {
        let start = self.bytes.len();
        self.bytes.push(tag);
        self.bytes.extend_from_slice(value);
        self.leaf(Kind::Scalar, start);
    }

    #[inline]
    fn key(&mut self, name: &[u8]) {
        let start = self.bytes.len();
        self.bytes.extend_from_slice(name);
        self.leaf(Kind::Key, start);
    }

    /// An object or array, its counts given when it is closed.
    #[inline]
    fn open(&mut self, kind: Kind) -> usize {
        self.nodes.push(Node { kind, a: 0, b: 0 }.pack());
        self.starts.push(self.bytes.len() as u32);
        self.nodes.len() - 1
    }

    #[inline]
    fn close(&mut self, at: usize, children: u32) {
        let kind = Node::unpack(self.nodes[at]).kind;
        let b = (self.nodes.len() - at) as u32;
        self.nodes[at] = Node {
            kind,
            a: children,
            b,
        }
        .pack();
    }

    /// Where the bytes of the node at `at` start (`bytes.len()` past the last node).
    #[inline]
    fn start(&self, at: usize) -> usize {
        self.starts
            .get(at)
            .map_or(self.bytes.len(), |&start| start as usize)
    }
}

impl<'t> Part<'t> {
    /// Where this part is in its tape: two parts of one tape are one part exactly when their
    /// indices are equal.
    pub fn index(&self) -> usize {
        self.at
    }

    #[inline]
    fn node(&self) -> Node {
        Node::unpack(self.tape.nodes[self.at])
    }

    /// A key's or scalar's bytes.
    fn bytes(&self) -> &'t [u8] {
        let start = self.tape.start(self.at);
        &self.tape.bytes[start..start + self.node().a as usize]
    }

    /// The index one past this part's subtree.
    #[inline]
    fn end(&self) -> usize {
        let n = self.node();
        match n.kind {
            Kind::Object | Kind::Array => self.at + n.b as usize,
            Kind::Key | Kind::Scalar => self.at + 1,
        }
    }

    /// An object's fields, in the order written.
    fn fields(self) -> impl Iterator<Item = (&'t [u8], Part<'t>)> {
        let tape = self.tape;
        let count = if self.node().kind == Kind::Object {
            self.node().a as usize
        } else {
            0
        };
        let mut next = self.at + 1;
        (0..count).map(move |_| {
            let key = Part { tape, at: next };
            let value = Part { tape, at: next + 1 };
            next = value.end();
            (key.bytes(), value)
        })
    }

    /// An array's elements.
    fn elements(self) -> impl Iterator<Item = Part<'t>> {
        let tape = self.tape;
        let count = if self.node().kind == Kind::Array {
            self.node().a as usize
        } else {
            0
        };
        let mut next = self.at + 1;
        (0..count).map(move |_| {
            let element = Part { tape, at: next };
            next = element.end();
            element
        })
    }

    fn field(self, name: &[u8]) -> Option<Part<'t>> {
        self.fields().find(|(key, _)| *key == name).map(|(_, v)| v)
    }

    /// The part at `path` below this one, if there is one.
    pub fn at(self, path: &[Step]) -> Option<Part<'t>> {
        path.iter().try_fold(self, |part, step| match *step {
            Step::Field(name) => part.field(name),
            Step::Index(i) => part.elements().nth(i),
        })
    }

    /// Whether `hit` holds at one of the paths where `self` and `other` differ, as deep as
    /// they share a shape: below two objects, each field either lacks; below two arrays of one
    /// length, each index; elsewhere, the path itself where the two are not equal. `along` are
    /// parts of other tapes at the same path as `self` (say, the same view after a command):
    /// they are walked down with it, so that `hit` gets them at each difference without a
    /// lookup from the root. `path` leads to `self`; it is as it was when this returns. The
    /// walk stops at the first hit and allocates nothing but the path's steps.
    ///
    /// `barren` says of two objects or arrays (`self`'s and `other`'s parts at one path, and the
    /// parts along) that `hit` holds at none of the differences below them: the walk does not
    /// enter them. A judgement that only looks at what changed says so where nothing did (one
    /// `memcmp` of the subtrees, where the walk would visit every difference below).
    pub fn any_difference<const N: usize>(
        self,
        other: Part<'t>,
        along: [Option<Part<'t>>; N],
        path: &mut Vec<Step<'t>>,
        barren: &impl Fn(Part<'t>, Part<'t>, &[Option<Part<'t>>; N]) -> bool,
        hit: &mut impl FnMut(&Hit<'_, 't, N>) -> bool,
    ) -> bool {
        let mut at = |path: &mut Vec<Step<'t>>,
                      step: Step<'t>,
                      mine: Option<Part<'t>>,
                      theirs: Option<Part<'t>>,
                      along: [Option<Part<'t>>; N]| {
            path.push(step);
            let found = match (mine, theirs) {
                (Some(a), Some(b)) => a.any_difference(b, along, path, barren, hit),
                _ => hit(&Hit {
                    path,
                    mine,
                    theirs,
                    along,
                }),
            };
            path.pop();
            found
        };
        let (x, y) = (self.node(), other.node());
        match (x.kind, y.kind) {
            (Kind::Object, Kind::Object) | (Kind::Array, Kind::Array)
                if self.written_alike(other) || barren(self, other, &along) =>
            {
                false
            }
            (Kind::Object, Kind::Object) => {
                // Two views of one game mostly have the same fields in the same order: each
                // field is then found beside its twin, and looked up only where they part.
                let mut twins = other.fields();
                let mut aligned = x.a == y.a;
                let mut companions = along.map(Companion::fields);
                for (key, p) in self.fields() {
                    let q = match twins.next() {
                        Some((k, q)) if aligned && k == key => Some(q),
                        _ => {
                            aligned = false;
                            other.field(key)
                        }
                    };
                    let beside = std::array::from_fn(|i| companions[i].field(key));
                    if at(path, Step::Field(key), Some(p), q, beside) {
                        return true;
                    }
                }
                !aligned
                    && other
                        .fields()
                        .filter(|(key, _)| self.field(key).is_none())
                        .any(|(key, q)| {
                            let beside = along.map(|part| part.and_then(|part| part.field(key)));
                            at(path, Step::Field(key), None, Some(q), beside)
                        })
            }
            (Kind::Array, Kind::Array) if x.a == y.a => {
                let mut companions = along.map(Companion::elements);
                self.elements()
                    .zip(other.elements())
                    .enumerate()
                    .any(|(i, (p, q))| {
                        let beside = std::array::from_fn(|j| companions[j].element());
                        at(path, Step::Index(i), Some(p), Some(q), beside)
                    })
            }
            _ => {
                !self.same(other)
                    && hit(&Hit {
                        path,
                        mine: Some(self),
                        theirs: Some(other),
                        along,
                    })
            }
        }
    }

    /// The bytes of this part's subtree (written in the nodes' order: from its first node's
    /// start to the start of the node after it).
    fn subtree_bytes(&self) -> &'t [u8] {
        &self.tape.bytes[self.tape.start(self.at)..self.tape.start(self.end())]
    }

    /// Whether the two parts were written alike: the same nodes (kinds, counts, lengths) in
    /// the same order and the same bytes (then they are the same value; the converse need not
    /// hold, fields may come in another order). Two views of one game share most of their
    /// subtrees, and this compares one with two `memcmp`s: a node holds nothing of where it
    /// is, so equal subtrees are equal words anywhere in either tape.
    pub fn written_alike(self, other: Part<'_>) -> bool {
        let (end, other_end) = (self.end(), other.end());
        self.tape.nodes[self.at..end] == other.tape.nodes[other.at..other_end]
            && self.subtree_bytes() == other.subtree_bytes()
    }

    /// Whether the two parts are equal values.
    pub fn same(self, other: Part<'_>) -> bool {
        let (x, y) = (self.node(), other.node());
        let containers = |k| matches!(k, Kind::Object | Kind::Array);
        if containers(x.kind) && containers(y.kind) && self.written_alike(other) {
            return true;
        }
        match (x.kind, y.kind) {
            (Kind::Scalar, Kind::Scalar) => self.bytes() == other.bytes(),
            (Kind::Array, Kind::Array) => {
                x.a == y.a
                    && self
                        .elements()
                        .zip(other.elements())
                        .all(|(p, q)| p.same(q))
            }
            (Kind::Object, Kind::Object) => {
                if x.a != y.a {
                    return false;
                }
                let mut twins = other.fields();
                let mut aligned = true;
                self.fields().all(|(key, p)| {
                    let q = match twins.next() {
                        Some((k, q)) if aligned && k == key => Some(q),
                        _ => {
                            aligned = false;
                            other.field(key)
                        }
                    };
                    q.is_some_and(|q| p.same(q))
                })
            }
            _ => false,
        }
    }
}

/// Whether two optional parts are equal (both missing, or equal values).
pub fn same(a: Option<Part<'_>>, b: Option<Part<'_>>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => a.same(b),
        (None, None) => true,
        _ => false,
    }
}

/// A difference found by [`Part::any_difference`]: where, the two parts there (either may be
/// missing) and the parts walked along at the same path.
pub struct Hit<'p, 't, const N: usize> {
    pub path: &'p [Step<'t>],
    pub mine: Option<Part<'t>>,
    pub theirs: Option<Part<'t>>,
    pub along: [Option<Part<'t>>; N],
}

/// A part walked along with another: its children taken in order while they match the other's
/// steps, looked up once they part (or nothing, where it is not an object or array).
struct Companion<'t> {
    part: Option<Part<'t>>,
    next: usize,
    left: u32,
    aligned: bool,
}

impl<'t> Companion<'t> {
    fn of(part: Option<Part<'t>>, kind: Kind) -> Self {
        let part = part.filter(|p| p.node().kind == kind);
        Companion {
            part,
            next: part.map_or(0, |p| p.at + 1),
            left: part.map_or(0, |p| p.node().a),
            aligned: true,
        }
    }

    fn fields(part: Option<Part<'t>>) -> Self {
        Self::of(part, Kind::Object)
    }

    fn elements(part: Option<Part<'t>>) -> Self {
        Self::of(part, Kind::Array)
    }

    /// The field `key` of an object walked field by field.
    fn field(&mut self, key: &[u8]) -> Option<Part<'t>> {
        let part = self.part?;
        if self.aligned && self.left > 0 {
            let name = Part {
                tape: part.tape,
                at: self.next,
            };
            if name.bytes() == key {
                let value = Part {
                    tape: part.tape,
                    at: self.next + 1,
                };
                self.next = value.end();
                self.left -= 1;
                return Some(value);
            }
        }
        self.aligned = false;
        part.field(key)
    }

    /// The next element of an array walked element by element.
    fn element(&mut self) -> Option<Part<'t>> {
        let part = self.part?;
        if self.left == 0 {
            return None;
        }
        let element = Part {
            tape: part.tape,
            at: self.next,
        };
        self.next = element.end();
        self.left -= 1;
        Some(element)
    }
}

#[cfg(test)]
mod tests;
