//! `#[serde(with = "crate::wide")]` for `u128` bit sets in states: JSON numbers stop at 64 bits
//! (serde_json refuses larger ones), so they are stored as decimal strings in snapshots.

use serde::{Deserialize, Deserializer, Serializer};

pub fn serialize<S: Serializer>(value: &u128, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&value.to_string())
}

pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u128, D::Error> {
    let text = String::deserialize(deserializer)?;
    text.parse().map_err(serde::de::Error::custom)
}
