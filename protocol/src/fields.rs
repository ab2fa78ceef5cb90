//! Serde helpers for the three ways a field can be present: required but nullable
//! (`"clicks": null` is meaningful and always sent), optional and nullable (absent, null and a
//! value are three different things), and the request id (a string or a number).

use serde::{Deserialize, Deserializer};

/// For `#[serde(deserialize_with = "fields::required")]` on an `Option`: the field must be
/// present (missing is an error), but may be `null`. Plain `Option` fields would read a
/// missing field as `None` and hide the mistake.
pub(crate) fn required<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(deserializer)
}

/// For `#[serde(default, skip_serializing_if = "Option::is_none", deserialize_with =
/// "fields::tristate")]` on an `Option<Option<T>>`: absent is `None`, `null` is `Some(None)`.
pub(crate) fn tristate<'de, D, T>(deserializer: D) -> Result<Option<Option<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(deserializer).map(Some)
}

/// For `#[serde(default, skip_serializing_if = "fields::is_false")]`: a flag sent only when set.
pub(crate) fn is_false(b: &bool) -> bool {
    !*b
}
