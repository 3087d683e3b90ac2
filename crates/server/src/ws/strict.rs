//! JSON as the protocol reads it: like `serde_json::Value`, except that an object with the
//! same key twice is an error (serde_json keeps the last, so two readers of one frame could
//! disagree about what it says).

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

/// Parses `text`, refusing duplicate keys at any depth.
///
/// # Errors
/// Not JSON, or an object repeats a key.
pub fn parse(text: &str) -> Result<Value, serde_json::Error> {
    serde_json::from_str::<Strict>(text).map(|Strict(v)| v)
}

struct Strict(Value);

impl<'de> Deserialize<'de> for Strict {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Strict, D::Error> {
        d.deserialize_any(StrictVisitor).map(Strict)
    }
}

struct StrictVisitor;

impl<'de> Visitor<'de> for StrictVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(Strict(v)) = seq.next_element()? {
            items.push(v);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if object.contains_key(&key) {
                return Err(de::Error::custom(format_args!("duplicate key {key:?}")));
            }
            let Strict(value) = map.next_value()?;
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duplicate_keys_are_refused_at_any_depth_and_the_rest_is_serde_json() {
        for text in [
            r#"{"type":"ping","nonce":1,"nonce":2}"#,
            r#"{"type":"act","action":{"kind":"bet","kind":"fold"}}"#,
            r#"[{"a":1},{"b":[{"c":1,"c":1}]}]"#,
        ] {
            let e = parse(text).unwrap_err().to_string();
            assert!(e.contains("duplicate key"), "{text}: {e}");
        }
        for text in [
            r#"{"type":"ping","nonce":1,"request_id":null,"x":[1,-2,3.5,true,"s",{}],"y":{"nonce":2}}"#,
            "[]",
            "\"\\u00e9\"",
            "18446744073709551615",
        ] {
            assert_eq!(parse(text).unwrap(), serde_json::from_str::<Value>(text).unwrap(), "{text}");
        }
        assert!(parse("{not json").is_err());
        // serde_json's depth limit still applies.
        assert!(parse(&"[".repeat(10_000)).is_err());
    }
}
