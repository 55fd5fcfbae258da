//! A tape means what the `serde_json` value means: equal exactly when the values are, and
//! a path leads to the same part in both.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::{json, Value};

use super::*;
use crate::contract::{Ctx, Viewer};
use crate::registry;
use crate::rng::GameRng;
use crate::testing::viewers;

fn tape(value: &impl Serialize) -> Tape {
    Tape::of(value).unwrap()
}

/// The two values' tapes are equal exactly when the values are (checked both ways).
#[track_caller]
fn agree(a: &impl Serialize, b: &impl Serialize) {
    let (va, vb) = (
        serde_json::to_value(a).unwrap(),
        serde_json::to_value(b).unwrap(),
    );
    let (ta, tb) = (tape(a), tape(b));
    assert_eq!(ta.root().same(tb.root()), va == vb, "{va} against {vb}");
    assert_eq!(tb.root().same(ta.root()), va == vb, "{vb} against {va}");
}

/// Integers of every width, at their bounds, are written as their decimal digits: as a map's
/// key they agree with the key written out by `to_string`, and as a value with the same number
/// of another type, and with no other number.
#[test]
fn integers_of_every_width_are_their_digits() {
    macro_rules! check {
        ($($t:ty),*) => {$(
            for n in [<$t>::MIN, <$t>::MAX, 0 as $t, 1 as $t, 9 as $t, 10 as $t, 99 as $t, 100 as $t] {
                agree(&BTreeMap::from([(n, 1)]), &BTreeMap::from([(n.to_string(), 1)]));
                agree(&n, &json!(n));
                agree(&Some(n), &json!(n));
                if n != <$t>::MAX {
                    agree(&n, &json!(n + 1));
                }
            }
        )*};
    }
    check!(i8, i16, i32, i64, u8, u16, u32, u64);
    agree(
        &BTreeMap::from([(u128::MAX, 1)]),
        &BTreeMap::from([(u128::MAX.to_string(), 1)]),
    );
    agree(
        &BTreeMap::from([(7u128, 1)]),
        &BTreeMap::from([("7".to_string(), 1)]),
    );
    agree(&-5i8, &-5i64);
    agree(&-5i8, &5u8);
}

#[derive(Serialize)]
struct Plain {
    a: u8,
    b: Vec<i64>,
    c: Option<String>,
}

#[derive(Serialize)]
struct Reordered {
    c: Option<String>,
    b: Vec<u32>,
    a: i32,
}

#[derive(Serialize)]
enum Shape {
    Unit,
    Newtype(u8),
    Tuple(u8, bool),
    Struct { x: f64 },
}

#[test]
fn equal_exactly_when_the_values_are() {
    let plain = Plain {
        a: 1,
        b: vec![2, -3],
        c: None,
    };
    // The same fields in another order and other integer types: equal.
    agree(
        &plain,
        &Reordered {
            c: None,
            b: vec![2, 3],
            a: 1,
        },
    );
    agree(
        &plain,
        &Plain {
            a: 1,
            b: vec![2, -3],
            c: None,
        },
    );
    agree(&plain, &json!({"a": 1, "b": [2, -3], "c": null}));
    agree(&plain, &json!({"a": 1, "b": [2, -3], "c": ""}));
    agree(&plain, &json!({"a": 1, "b": [2, -3]}));
    agree(&plain, &json!({"a": 1, "b": [2, -3], "c": null, "d": 0}));
    agree(&plain, &json!({"a": 1.0, "b": [2, -3], "c": null}));
    agree(&json!([1, 2]), &json!([1, 2, 3]));
    agree(&json!([1, [2]]), &json!([1, [2.0]]));
    agree(&json!("1"), &json!(1));
    agree(&json!(true), &json!("true"));
    agree(&json!(null), &json!(false));
    agree(&json!({}), &json!([]));
    agree(&0.0f64, &-0.0f64);
    agree(&0.5f32, &0.5f64);
    agree(&f64::NAN, &Value::Null);
    agree(&f64::INFINITY, &Value::Null);
    agree(&u64::MAX, &-1i64);
    agree(&i64::MIN, &i64::MIN);
    agree(&'x', &"x");
    let shapes = [
        Shape::Unit,
        Shape::Newtype(1),
        Shape::Newtype(2),
        Shape::Tuple(1, true),
        Shape::Tuple(1, false),
        Shape::Struct { x: 1.5 },
        Shape::Struct { x: 2.5 },
    ];
    for a in &shapes {
        for b in &shapes {
            agree(a, b);
        }
        agree(a, &json!("Unit"));
        agree(a, &json!({"Newtype": 1}));
        agree(a, &json!({"Struct": {"x": 1.5}}));
    }
    // Maps keyed by numbers: their keys are strings, as in JSON.
    let numbered: BTreeMap<u8, &str> = [(1, "a"), (20, "b")].into();
    agree(&numbered, &json!({"1": "a", "20": "b"}));
    agree(&numbered, &json!({"1": "a", "2": "b"}));
}

#[test]
fn the_views_own_type_is_left_out_as_the_value_overwrites_it() {
    // `DynGame::view` puts the schema's name at `type`, over any `type` of the view itself:
    // the same in every view, it is never a difference, so the tape leaves it out; a `type`
    // deeper down is the view's own.
    let a = tape(&json!({"type": "A", "x": {"type": 1}}));
    let b = tape(&json!({"type": "B", "x": {"type": 1}}));
    assert!(a.root().same(b.root()));
    let c = tape(&json!({"x": {"type": 2}}));
    assert!(!a.root().same(c.root()));
}

#[test]
fn a_path_leads_to_the_same_part_as_in_the_value() {
    let value = json!({"a": [10, {"b": "x"}], "c": {"d": [true]}});
    let tape = tape(&value);
    let step = |s: &'static str| Step::Field(s.as_bytes());
    let cases: [(&[Step], Value); 5] = [
        (&[step("a"), Step::Index(1), step("b")], json!("x")),
        (&[step("a"), Step::Index(0)], json!(10)),
        (&[step("c"), step("d")], json!([true])),
        (&[step("c")], json!({"d": [true]})),
        (&[], value.clone()),
    ];
    for (path, expected) in cases {
        let part = tape.root().at(path).unwrap();
        let expected = Tape::of(&expected).unwrap();
        assert!(part.same(expected.root()), "{path:?}");
    }
    assert!(tape.root().at(&[step("a"), Step::Index(2)]).is_none());
    assert!(tape.root().at(&[step("z")]).is_none());
    assert!(tape.root().at(&[step("a"), step("b")]).is_none());
}

#[test]
fn the_differences_are_the_values_differences_with_the_parts_walked_along() {
    let a = tape(&json!({"a": 1, "b": [1, 2], "c": [1], "d": {"e": 1}}));
    let b = tape(&json!({"a": 1, "b": [1, 3], "c": [1, 2], "f": 0}));
    // Walked along: another tape whose shape differs from both on the way down.
    let c = tape(&json!({"b": [0, "two"], "c": {"x": 1}, "d": {"e": 1}, "z": 1}));
    let mut found = Vec::new();
    let mut path = Vec::new();
    let any = a.root().any_difference(
        b.root(),
        [Some(c.root())],
        &mut path,
        &nowhere_barren,
        &mut |at| {
            let json = |part: Option<Part>| {
                part.map(|part| {
                    let mut text = Vec::new();
                    write(part, &mut text);
                    String::from_utf8(text).unwrap()
                })
            };
            found.push((
                at.path.to_vec(),
                json(at.mine),
                json(at.theirs),
                json(at.along[0]),
            ));
            false
        },
    );
    assert!(!any);
    assert!(path.is_empty());
    let f = |s: &'static str| Step::Field(s.as_bytes());
    let some = |s: &str| Some(s.to_string());
    assert_eq!(
        found,
        vec![
            (
                vec![f("b"), Step::Index(1)],
                some("2"),
                some("3"),
                some("\"two\"")
            ),
            (vec![f("c")], some("[1]"), some("[1,2]"), some("{x:1}")),
            (vec![f("d")], some("{e:1}"), None, some("{e:1}")),
            (vec![f("f")], None, some("0"), None),
        ]
    );
    // A hit ends the walk at once.
    let mut hits = 0;
    assert!(a
        .root()
        .any_difference(b.root(), [], &mut path, &nowhere_barren, &mut |_| {
            hits += 1;
            true
        }));
    assert_eq!(hits, 1);
    assert!(path.is_empty());
}

fn nowhere_barren<const N: usize>(_: Part, _: Part, _: &[Option<Part>; N]) -> bool {
    false
}

#[test]
fn a_walk_does_not_enter_what_is_said_to_be_barren_and_finds_the_rest() {
    let a = tape(&json!({"kept": {"x": 1, "y": [1, 2]}, "moved": {"x": 1}, "n": 1}));
    let b = tape(&json!({"kept": {"x": 2, "y": [1, 3]}, "moved": {"x": 2}, "n": 2}));
    // Along: `kept` is as in `a`, `moved` is not.
    let c = tape(&json!({"kept": {"x": 1, "y": [1, 2]}, "moved": {"x": 5}, "n": 1}));
    let asked = std::cell::RefCell::new(Vec::new());
    let mut found = Vec::new();
    let mut path = Vec::new();
    let barren = |mine: Part, _: Part, along: &[Option<Part>; 1]| {
        along[0].is_some_and(|then| then.written_alike(mine))
    };
    let any = a.root().any_difference(
        b.root(),
        [Some(c.root())],
        &mut path,
        &|mine, theirs, along| {
            asked.borrow_mut().push(barren(mine, theirs, along));
            barren(mine, theirs, along)
        },
        &mut |at| {
            found.push(at.path.to_vec());
            false
        },
    );
    assert!(!any);
    let f = |s: &'static str| Step::Field(s.as_bytes());
    // The root and `moved` are entered; `kept` is not, though its fields differ; `n` is a
    // scalar, judged by `hit` as before.
    assert_eq!(found, vec![vec![f("moved"), f("x")], vec![f("n")]]);
    assert_eq!(asked.into_inner(), vec![false, true, false]);
}

/// A part written back as compact text (field names unquoted), for the assertions above.
fn write(part: Part, out: &mut Vec<u8>) {
    match part.node().kind {
        Kind::Scalar => match part.bytes()[0] {
            STRING => {
                out.push(b'"');
                out.extend_from_slice(&part.bytes()[1..]);
                out.push(b'"');
            }
            INTEGER => out.extend_from_slice(&part.bytes()[1..]),
            other => out.push(other),
        },
        Kind::Array => {
            out.push(b'[');
            for (i, element) in part.elements().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write(element, out);
            }
            out.push(b']');
        }
        Kind::Object => {
            out.push(b'{');
            for (i, (key, value)) in part.fields().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                out.extend_from_slice(key);
                out.push(b':');
                write(value, out);
            }
            out.push(b'}');
        }
        Kind::Key => unreachable!("a key is read with its field"),
    }
}

/// On every kind's views through random play, a tape is equal to another exactly when the
/// view's value is: the same views undo's judgement compares.
#[test]
fn every_kinds_views_compare_as_their_values() {
    for game in registry::all() {
        let info = game.info();
        let seats = info.min_seats;
        let options = game.validate_options(&Value::Null, seats).unwrap();
        let mut picker = GameRng::from_seed(7);
        let log = game.setup(&options, seats, &mut Ctx::new(7, 0)).unwrap();
        let mut state = game.replay(&log).unwrap();
        let mut previous: Vec<(Value, Tape)> = Vec::new();
        let mut reused = Tape::default();
        for step in 0..60 {
            let status = game.status(&state);
            if status.finished || status.to_act.is_empty() {
                break;
            }
            let now: Vec<(Value, Tape)> = viewers(seats)
                .into_iter()
                .map(|v| {
                    let mut tape = Tape::default();
                    game.view_tape(&state, v, &mut tape);
                    // Written again over another view, a tape holds this one only.
                    game.view_tape(&state, v, &mut reused);
                    assert_eq!(reused, tape);
                    game.view_tape(&state, Viewer::Everyone, &mut reused);
                    (game.view(&state, v), tape)
                })
                .collect();
            for (va, ta) in now.iter().chain(&previous) {
                for (vb, tb) in now.iter().chain(&previous) {
                    assert_eq!(ta.root().same(tb.root()), va == vb, "{}", info.kind);
                }
            }
            previous = now;
            let seat = status.to_act[picker.index(status.to_act.len())];
            let legal = game.legal_commands(&state, seat);
            let command = &legal[picker.index(legal.len())];
            let events = game
                .decide(&state, seat, command, &mut Ctx::new(step, 0))
                .unwrap();
            for event in &events {
                game.evolve(&mut state, event).unwrap();
            }
        }
    }
}

#[test]
fn parts_written_alike_are_found_alike_wherever_they_are_and_only_then() {
    // The same subtree at other places in two tapes.
    let a = tape(&json!({"x": [1, {"y": 2}], "z": 0}));
    let b = tape(&json!({"w": [5, 6], "x": [1, {"y": 2}]}));
    fn x(t: &Tape) -> Part<'_> {
        t.root().at(&[Step::Field(b"x")]).unwrap()
    }
    assert!(x(&a).written_alike(x(&b)));
    assert!(x(&a).same(x(&b)));
    // The same bytes in the same number of nodes, cut elsewhere: not alike, not the same.
    let c = tape(&json!(["a1", "bsc"]));
    let d = tape(&json!(["a1sb", "c"]));
    assert_eq!(c.bytes, d.bytes);
    assert_eq!(c.nodes.len(), d.nodes.len());
    assert!(!c.root().written_alike(d.root()));
    assert!(!c.root().same(d.root()));
    // Equal but written in another order: not alike, still the same.
    let e = tape(&Reordered {
        c: None,
        b: vec![2],
        a: 1,
    });
    let f = tape(&Plain {
        a: 1,
        b: vec![2],
        c: None,
    });
    assert!(!e.root().written_alike(f.root()));
    assert!(e.root().same(f.root()));
    // Empty containers.
    assert!(tape(&json!([]))
        .root()
        .written_alike(tape(&json!([])).root()));
    assert!(!tape(&json!([])).root().same(tape(&json!({})).root()));
}

#[test]
fn a_packed_node_is_the_node() {
    for kind in [Kind::Object, Kind::Array, Kind::Key, Kind::Scalar] {
        for (a, b) in [
            (0, 0),
            (1, 2),
            (FIELD as u32, 0),
            (0, FIELD as u32),
            (FIELD as u32, FIELD as u32),
        ] {
            let node = Node { kind, a, b };
            assert_eq!(Node::unpack(node.pack()), node);
        }
    }
}
