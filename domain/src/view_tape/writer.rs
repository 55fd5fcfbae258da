//! Writing a value into a tape: a `serde::Serializer` that builds what
//! `serde_json::value::Serializer` would, flat.

use serde::ser::{self, Serialize};

use super::{Kind, Tape, TapeError, FALSE, FLOAT, INTEGER, NULL, STRING, TRUE};

/// Writes a value into a tape as `serde_json::value::Serializer` would build it.
pub(super) struct Writer<'a> {
    tape: &'a mut Tape,
    /// How many objects and arrays are open: the view's own fields are at depth 1.
    depth: u32,
}

/// An open object or array.
pub(super) struct Open<'w, 'a> {
    writer: &'w mut Writer<'a>,
    at: usize,
    children: u32,
    /// Open for an enum's variant: `{ "Variant": … }` closes around it too.
    variant: Option<usize>,
    /// The next map value belongs to a left-out top-level `type` field.
    skip_value: bool,
}

impl<'a> Writer<'a> {
    pub(super) fn new(tape: &'a mut Tape) -> Self {
        Writer { tape, depth: 0 }
    }

    fn open<'w>(
        &'w mut self,
        kind: Kind,
        variant: Option<&'static str>,
    ) -> Result<Open<'w, 'a>, TapeError> {
        let variant = variant.map(|name| {
            let at = self.tape.open(Kind::Object);
            self.tape.key(name.as_bytes());
            at
        });
        let at = self.tape.open(kind);
        self.depth += 1;
        Ok(Open {
            writer: self,
            at,
            children: 0,
            variant,
            skip_value: false,
        })
    }

    fn integer(&mut self, v: impl itoa_like::Decimal) -> Result<(), TapeError> {
        let mut buffer = [0u8; 40];
        let digits = v.write(&mut buffer);
        self.tape.scalar(INTEGER, digits);
        Ok(())
    }

    fn float(&mut self, v: f64) -> Result<(), TapeError> {
        if v.is_finite() {
            // `+ 0.0` makes `-0.0` into `0.0`: the two are equal as `f64`, as in a value.
            self.tape.scalar(FLOAT, &(v + 0.0).to_bits().to_le_bytes());
        } else {
            self.tape.scalar(NULL, &[]);
        }
        Ok(())
    }
}

impl Open<'_, '_> {
    fn field<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> Result<(), TapeError> {
        if self.writer.depth == 1 && key == "type" {
            return Ok(());
        }
        self.writer.tape.key(key.as_bytes());
        self.element(value)
    }

    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), TapeError> {
        value.serialize(&mut *self.writer)?;
        self.children += 1;
        Ok(())
    }

    /// Closes a variant's parts: the variant's name opened a level of its own.
    fn close_variant(self) -> Result<(), TapeError> {
        self.writer.depth -= 1;
        self.close()
    }

    fn close(self) -> Result<(), TapeError> {
        self.writer.depth -= 1;
        self.writer.tape.close(self.at, self.children);
        if let Some(at) = self.variant {
            self.writer.tape.close(at, 1);
        }
        Ok(())
    }
}

/// Decimal digits of the integers, without a crate for it. Every integer a view holds fits in
/// 64 bits with its sign apart (`serialize_i128` and `serialize_u128` narrow theirs first), and
/// dividing a `u64` by ten is a multiplication where an `i128`'s was a call into the runtime:
/// writing the tapes' integers through `i128` cost about 30,000 instructions per
/// Burgbaumeister command.
mod itoa_like {
    pub trait Decimal: Copy {
        /// Writes the number's decimal digits at the end of `buffer`; returns them.
        fn write(self, buffer: &mut [u8; 40]) -> &[u8];
    }

    macro_rules! signed {
        ($($t:ty),*) => {$(
            impl Decimal for $t {
                fn write(self, buffer: &mut [u8; 40]) -> &[u8] {
                    digits(self < 0, i64::from(self).unsigned_abs(), buffer)
                }
            }
        )*};
    }

    macro_rules! unsigned {
        ($($t:ty),*) => {$(
            impl Decimal for $t {
                fn write(self, buffer: &mut [u8; 40]) -> &[u8] {
                    digits(false, u64::from(self), buffer)
                }
            }
        )*};
    }

    signed!(i8, i16, i32, i64);
    unsigned!(u8, u16, u32, u64);

    /// Only a map's key can be wider than 64 bits (a view's values are narrowed first); such
    /// a key is rare enough for `to_string`.
    impl Decimal for u128 {
        fn write(self, buffer: &mut [u8; 40]) -> &[u8] {
            match u64::try_from(self) {
                Ok(n) => digits(false, n, buffer),
                Err(_) => {
                    let text = self.to_string();
                    let at = buffer.len() - text.len();
                    buffer[at..].copy_from_slice(text.as_bytes());
                    &buffer[at..]
                }
            }
        }
    }

    fn digits(negative: bool, mut n: u64, buffer: &mut [u8; 40]) -> &[u8] {
        let mut i = buffer.len();
        loop {
            i -= 1;
            buffer[i] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        if negative {
            i -= 1;
            buffer[i] = b'-';
        }
        &buffer[i..]
    }
}

impl<'w, 'a> ser::Serializer for &'w mut Writer<'a> {
    type Ok = ();
    type Error = TapeError;
    type SerializeSeq = Open<'w, 'a>;
    type SerializeTuple = Open<'w, 'a>;
    type SerializeTupleStruct = Open<'w, 'a>;
    type SerializeTupleVariant = Open<'w, 'a>;
    type SerializeMap = Open<'w, 'a>;
    type SerializeStruct = Open<'w, 'a>;
    type SerializeStructVariant = Open<'w, 'a>;

    fn serialize_bool(self, v: bool) -> Result<(), TapeError> {
        self.tape.scalar(if v { TRUE } else { FALSE }, &[]);
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result<(), TapeError> {
        self.integer(v)
    }
    fn serialize_i16(self, v: i16) -> Result<(), TapeError> {
        self.integer(v)
    }
    fn serialize_i32(self, v: i32) -> Result<(), TapeError> {
        self.integer(v)
    }
    fn serialize_i64(self, v: i64) -> Result<(), TapeError> {
        self.integer(v)
    }
    fn serialize_i128(self, v: i128) -> Result<(), TapeError> {
        match i64::try_from(v) {
            Ok(v) => self.integer(v),
            Err(_) => match u64::try_from(v) {
                Ok(v) => self.integer(v),
                Err(_) => Err(ser::Error::custom("number out of range")),
            },
        }
    }
    fn serialize_u8(self, v: u8) -> Result<(), TapeError> {
        self.integer(v)
    }
    fn serialize_u16(self, v: u16) -> Result<(), TapeError> {
        self.integer(v)
    }
    fn serialize_u32(self, v: u32) -> Result<(), TapeError> {
        self.integer(v)
    }
    fn serialize_u64(self, v: u64) -> Result<(), TapeError> {
        self.integer(v)
    }
    fn serialize_u128(self, v: u128) -> Result<(), TapeError> {
        match u64::try_from(v) {
            Ok(v) => self.integer(v),
            Err(_) => Err(ser::Error::custom("number out of range")),
        }
    }
    fn serialize_f32(self, v: f32) -> Result<(), TapeError> {
        self.float(f64::from(v))
    }
    fn serialize_f64(self, v: f64) -> Result<(), TapeError> {
        self.float(v)
    }
    fn serialize_char(self, v: char) -> Result<(), TapeError> {
        self.tape
            .scalar(STRING, v.encode_utf8(&mut [0u8; 4]).as_bytes());
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Result<(), TapeError> {
        self.tape.scalar(STRING, v.as_bytes());
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), TapeError> {
        let mut seq = self.open(Kind::Array, None)?;
        for byte in v {
            seq.element(byte)?;
        }
        seq.close()
    }
    fn serialize_none(self) -> Result<(), TapeError> {
        self.serialize_unit()
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), TapeError> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), TapeError> {
        self.tape.scalar(NULL, &[]);
        Ok(())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), TapeError> {
        self.serialize_unit()
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), TapeError> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), TapeError> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), TapeError> {
        let at = self.tape.open(Kind::Object);
        self.tape.key(variant.as_bytes());
        self.depth += 1;
        value.serialize(&mut *self)?;
        self.depth -= 1;
        self.tape.close(at, 1);
        Ok(())
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Open<'w, 'a>, TapeError> {
        self.open(Kind::Array, None)
    }
    fn serialize_tuple(self, _len: usize) -> Result<Open<'w, 'a>, TapeError> {
        self.open(Kind::Array, None)
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Open<'w, 'a>, TapeError> {
        self.open(Kind::Array, None)
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Open<'w, 'a>, TapeError> {
        self.depth += 1;
        self.open(Kind::Array, Some(variant))
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Open<'w, 'a>, TapeError> {
        self.open(Kind::Object, None)
    }
    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Open<'w, 'a>, TapeError> {
        self.open(Kind::Object, None)
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Open<'w, 'a>, TapeError> {
        self.depth += 1;
        self.open(Kind::Object, Some(variant))
    }
}

/// The serde traits of an array's or an object's parts, alike but for their names: each part is
/// written as an element (`element`) or a keyed field (`field`); a variant's parts close the
/// level its variant name opened too (`close_variant`).
macro_rules! parts {
    ($trait:ident, $part:ident($($key:ident: $key_type:ty)?) => $write:ident, $end:ident) => {
        impl ser::$trait for Open<'_, '_> {
            type Ok = ();
            type Error = TapeError;
            fn $part<T: Serialize + ?Sized>(
                &mut self,
                $($key: $key_type,)?
                value: &T,
            ) -> Result<(), TapeError> {
                self.$write($($key,)? value)
            }
            fn end(self) -> Result<(), TapeError> {
                self.$end()
            }
        }
    };
}

parts!(SerializeSeq, serialize_element() => element, close);
parts!(SerializeTuple, serialize_element() => element, close);
parts!(SerializeTupleStruct, serialize_field() => element, close);
parts!(SerializeTupleVariant, serialize_field() => element, close_variant);
parts!(SerializeStruct, serialize_field(key: &'static str) => field, close);
parts!(SerializeStructVariant, serialize_field(key: &'static str) => field, close_variant);

impl ser::SerializeMap for Open<'_, '_> {
    type Ok = ();
    type Error = TapeError;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), TapeError> {
        let tape = &mut *self.writer.tape;
        let start = tape.bytes.len();
        key.serialize(KeyWriter(&mut tape.bytes))?;
        if self.writer.depth == 1 && &tape.bytes[start..] == b"type" {
            tape.bytes.truncate(start);
            self.skip_value = true;
        } else {
            tape.leaf(Kind::Key, start);
        }
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), TapeError> {
        if std::mem::take(&mut self.skip_value) {
            return Ok(());
        }
        self.element(value)
    }
    fn end(self) -> Result<(), TapeError> {
        self.close()
    }
}

/// Writes a map's key as `serde_json` makes it a string.
struct KeyWriter<'b>(&'b mut Vec<u8>);

impl KeyWriter<'_> {
    fn integer(self, v: impl itoa_like::Decimal) -> Result<(), TapeError> {
        let mut buffer = [0u8; 40];
        self.0.extend_from_slice(v.write(&mut buffer));
        Ok(())
    }
}

fn key_must_be_a_string() -> TapeError {
    TapeError("key must be a string".into())
}

impl ser::Serializer for KeyWriter<'_> {
    type Ok = ();
    type Error = TapeError;
    type SerializeSeq = ser::Impossible<(), TapeError>;
    type SerializeTuple = ser::Impossible<(), TapeError>;
    type SerializeTupleStruct = ser::Impossible<(), TapeError>;
    type SerializeTupleVariant = ser::Impossible<(), TapeError>;
    type SerializeMap = ser::Impossible<(), TapeError>;
    type SerializeStruct = ser::Impossible<(), TapeError>;
    type SerializeStructVariant = ser::Impossible<(), TapeError>;

    fn serialize_bool(self, v: bool) -> Result<(), TapeError> {
        self.0.extend_from_slice(if v { b"true" } else { b"false" });
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result<(), TapeError> {
        self.integer(v)
    }
    fn serialize_i16(self, v: i16) -> Result<(), TapeError> {
        self.integer(v)
    }
    fn serialize_i32(self, v: i32) -> Result<(), TapeError> {
        self.integer(v)
    }
    fn serialize_i64(self, v: i64) -> Result<(), TapeError> {
        self.integer(v)
    }
    fn serialize_u8(self, v: u8) -> Result<(), TapeError> {
        self.integer(v)
    }
    fn serialize_u16(self, v: u16) -> Result<(), TapeError> {
        self.integer(v)
    }
    fn serialize_u32(self, v: u32) -> Result<(), TapeError> {
        self.integer(v)
    }
    fn serialize_u64(self, v: u64) -> Result<(), TapeError> {
        self.integer(v)
    }
    fn serialize_u128(self, v: u128) -> Result<(), TapeError> {
        self.integer(v)
    }
    fn serialize_f32(self, v: f32) -> Result<(), TapeError> {
        self.serialize_f64(f64::from(v))
    }
    fn serialize_f64(self, v: f64) -> Result<(), TapeError> {
        // Never a key in a view; written so that equal keys stay equal.
        if !v.is_finite() {
            return Err(TapeError("float key must be finite".into()));
        }
        self.0.extend_from_slice(v.to_string().as_bytes());
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result<(), TapeError> {
        self.0
            .extend_from_slice(v.encode_utf8(&mut [0u8; 4]).as_bytes());
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Result<(), TapeError> {
        self.0.extend_from_slice(v.as_bytes());
        Ok(())
    }
    fn serialize_bytes(self, _v: &[u8]) -> Result<(), TapeError> {
        Err(key_must_be_a_string())
    }
    fn serialize_none(self) -> Result<(), TapeError> {
        Err(key_must_be_a_string())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, _value: &T) -> Result<(), TapeError> {
        Err(key_must_be_a_string())
    }
    fn serialize_unit(self) -> Result<(), TapeError> {
        Err(key_must_be_a_string())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), TapeError> {
        Err(key_must_be_a_string())
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), TapeError> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), TapeError> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<(), TapeError> {
        Err(key_must_be_a_string())
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq, TapeError> {
        Err(key_must_be_a_string())
    }
    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple, TapeError> {
        Err(key_must_be_a_string())
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleStruct, TapeError> {
        Err(key_must_be_a_string())
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant, TapeError> {
        Err(key_must_be_a_string())
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap, TapeError> {
        Err(key_must_be_a_string())
    }
    fn serialize_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStruct, TapeError> {
        Err(key_must_be_a_string())
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant, TapeError> {
        Err(key_must_be_a_string())
    }
}
