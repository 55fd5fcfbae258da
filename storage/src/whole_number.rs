//! Integer fields that also take a JSON number written with a zero fraction (`720.0`): JSON
//! Schema's `integer` allows it, so a client generated from the spec may send it. Used by the
//! request bodies of the API and by the storage types that are bodies themselves.

/// A required integer field that also takes a JSON number written with a zero fraction (see
/// [`whole_number`]).
pub fn whole<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: TryFrom<i64>,
{
    use serde::de::Error;
    whole_number(deserializer)?.ok_or_else(|| D::Error::custom("a whole number is required"))
}

/// An optional integer field that also takes a JSON number written with a zero fraction
/// (`720.0`): JSON Schema's `integer` allows it, so a client generated from the spec may send it.
pub fn whole_number<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: TryFrom<i64>,
{
    use serde::de::Error;
    use serde::Deserialize;
    let Some(number) = Option::<serde_json::Number>::deserialize(deserializer)? else {
        return Ok(None);
    };
    let whole = number.as_i64().or_else(|| {
        number
            .as_f64()
            .filter(|f| f.fract() == 0.0 && f.abs() < 9.0e15)
            .map(|f| f as i64)
    });
    whole
        .and_then(|n| T::try_from(n).ok())
        .map(Some)
        .ok_or_else(|| D::Error::custom(format!("{number} is not a whole number in range")))
}
