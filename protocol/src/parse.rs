//! Reading a frame: text to a typed request or message, with errors that say which field was
//! wrong. serde's own message for a field of the wrong type does not name the field (inside
//! a `t`-tagged enum it cannot), so on failure, and only then, the field is found by taking
//! fields out one at a time until the error goes away or turns into "missing field".

use crate::code::Code;
use crate::message::Reply;
use crate::request::{Envelope, Request, RequestId};
use serde::de::DeserializeOwned;
use serde_json::Value;

/// Longest `t` shown back in an `unknown_type` error.
const MAX_SHOWN: usize = 64;
/// Fields tried per object, and objects deep, when looking for the wrong field: a bound on
/// the work a malformed frame can cause (each try deserializes the whole frame again).
const BLAME_FIELDS: usize = 32;
const BLAME_DEPTH: usize = 3;
/// The fields that say which variant an object is.
const TAGS: [&str; 2] = ["t", "kind"];

/// A frame that is not a well-formed message of the protocol.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.describe())]
pub struct ParseError {
    /// The wrong field, as a dotted path from the top (`ev.hit`), when one could be named.
    pub field: Option<String>,
    /// What serde said.
    pub message: String,
}

impl ParseError {
    fn describe(&self) -> String {
        match &self.field {
            Some(f) => format!("field `{f}`: {}", self.message),
            None => self.message.clone(),
        }
    }
}

/// A request that cannot be handled: the code and words of its `error`, and the `id` to put
/// in its `re` when it could be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{code}: {message}")]
pub struct RequestError {
    /// The request's id, if it had a readable one.
    pub id: Option<RequestId>,
    /// `bad_json`, `bad_request` or `unknown_type`.
    pub code: Code,
    /// What was wrong, in words.
    pub message: String,
}

/// Reads one text frame from a client.
pub fn parse_request(text: &str) -> Result<Envelope, RequestError> {
    // The well-formed request, read straight from the text (no `Value` in between: every
    // click passes here). Anything it does not take goes the slow way below, which accepts
    // the same requests and names what is wrong with the others.
    if let Ok(request) = serde_json::from_str::<Request>(text) {
        if let Some(id) = fast_id(text) {
            return Ok(Envelope { id, request });
        }
    }
    read_request(text)
}

/// Reads a request through a `Value`: slower, but it can say what is wrong.
fn read_request(text: &str) -> Result<Envelope, RequestError> {
    let fail = |id: &Option<RequestId>, code, message: String| RequestError {
        id: id.clone(),
        code,
        message,
    };
    let value: Value = serde_json::from_str(text)
        .map_err(|e| fail(&None, Code::BadJson, format!("not JSON: {e}")))?;
    let Value::Object(map) = &value else {
        return Err(fail(
            &None,
            Code::BadJson,
            "a request is a JSON object".into(),
        ));
    };
    let id = match map.get("id") {
        None => None,
        Some(v) => Some(serde_json::from_value::<RequestId>(v.clone()).map_err(|_| {
            fail(
                &None,
                Code::BadRequest,
                "id must be a string or a number".into(),
            )
        })?),
    };
    let t = match map.get("t") {
        Some(Value::String(t)) => t,
        Some(_) => return Err(fail(&id, Code::BadRequest, "t must be a string".into())),
        None => return Err(fail(&id, Code::BadRequest, "missing field `t`".into())),
    };
    if !Request::TYPES.contains(&t.as_str()) {
        let shown: String = t.chars().take(MAX_SHOWN).collect();
        return Err(fail(
            &id,
            Code::UnknownType,
            format!("unknown request type \"{shown}\""),
        ));
    }
    from_value::<Envelope>(&value).map_err(|e| fail(&id, Code::BadRequest, format!("{t}: {e}")))
}

/// The `id` of a frame already read as a request: `Some(None)` when it has none, `None` when
/// it is not a string or a number (or appears twice), so that the slow path says why.
fn fast_id(text: &str) -> Option<Option<RequestId>> {
    #[derive(serde::Deserialize)]
    struct IdOnly {
        /// The request id; every other field is skipped. Present means a real id: `null`
        /// is refused like any other id that is not a string or a number.
        #[serde(default, deserialize_with = "present")]
        id: Option<RequestId>,
    }
    fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<RequestId>, D::Error> {
        <RequestId as serde::Deserialize>::deserialize(d).map(Some)
    }
    serde_json::from_str::<IdOnly>(text).ok().map(|f| f.id)
}

/// Reads just the `id` of a frame that will not be handled (over the rate limit), so its
/// error can still carry `re`.
pub fn peek_id(text: &str) -> Option<RequestId> {
    #[derive(serde::Deserialize)]
    struct IdOnly {
        /// The request id; every other field is skipped.
        #[serde(default)]
        id: Option<Value>,
    }
    let id = serde_json::from_str::<IdOnly>(text).ok()?.id?;
    serde_json::from_value(id).ok()
}

/// Reads one text frame from the server.
pub fn parse_reply(text: &str) -> Result<Reply<'static>, ParseError> {
    let value: Value = serde_json::from_str(text).map_err(|e| ParseError {
        field: None,
        message: format!("not JSON: {e}"),
    })?;
    from_value(&value)
}

/// Reads a typed value from JSON, naming the wrong field on failure.
pub fn from_value<T: DeserializeOwned>(value: &Value) -> Result<T, ParseError> {
    let attempt = |v: &Value| T::deserialize(v).map_err(|e| e.to_string());
    attempt(value).map_err(|message| {
        // "missing field `room`" names it already.
        let field = if message.starts_with("missing field") {
            None
        } else {
            blame(value, &[], &message, &|v| attempt(v).err(), 0)
        };
        ParseError { field, message }
    })
}

/// The path below `at` of the field whose removal makes `error` go away (or turn into
/// "missing field" for that field).
fn blame(
    root: &Value,
    at: &[&str],
    error: &str,
    attempt: &dyn Fn(&Value) -> Option<String>,
    depth: usize,
) -> Option<String> {
    if depth >= BLAME_DEPTH {
        return None;
    }
    let Some(Value::Object(here)) = walk(root, at) else {
        return None;
    };
    // The tags are not blamed: without one nothing else can be read.
    let keys = here.keys().filter(|k| !TAGS.contains(&k.as_str()));
    for key in keys.take(BLAME_FIELDS) {
        let mut without = root.clone();
        if let Some(Value::Object(m)) = walk_mut(&mut without, at) {
            m.remove(key);
        }
        let culprit = match attempt(&without) {
            None => true,
            Some(e) => e != error && e.starts_with(&format!("missing field `{key}`")),
        };
        if culprit {
            let mut path: Vec<&str> = at.to_vec();
            path.push(key);
            let deeper = blame(root, &path, error, attempt, depth + 1);
            return deeper.or_else(|| Some(path.join(".")));
        }
    }
    None
}

fn walk<'v>(v: &'v Value, path: &[&str]) -> Option<&'v Value> {
    path.iter().try_fold(v, |v, k| v.get(k))
}

fn walk_mut<'v>(v: &'v mut Value, path: &[&str]) -> Option<&'v mut Value> {
    path.iter().try_fold(v, |v, k| v.get_mut(k))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The quick way and the slow way give the same answer, request or error, for
    /// well-formed and malformed frames alike.
    #[test]
    fn the_fast_path_reads_what_the_slow_path_reads() {
        let frames = [
            r#"{"t":"click","room":"r1","click":"C4R","id":7}"#,
            r#"{"id":"a","t":"click","room":"r1","click":"C4R"}"#,
            r#"{"t":"click","room":"r1","click":"C4R"}"#,
            r#"{"t":"click","room":"r1","click":"C4R","id":null}"#,
            r#"{"t":"click","room":"r1","click":"C4R","id":{"x":1}}"#,
            r#"{"t":"click","room":"r1","click":"C4R","id":1,"id":2}"#,
            r#"{"t":"click","t":"roll","room":"r1","click":"C4R"}"#,
            r#"{"t":"click","room":"r1","click":"C4R","extra":[1,2]}"#,
            r#"{"t":"click","room":"r1","id":3}"#,
            r#"{"t":"click","room":5,"click":"C4R","id":3}"#,
            r#"{"t":"fly","id":3}"#,
            r#"{"t":"ping","id":1.5}"#,
            r#"{"t":"ping"}"#,
            r#"{"t":"hello","name":"ann","version":1,"token":null}"#,
            r#"[1,2]"#,
            r#"not json"#,
        ];
        for frame in frames {
            assert_eq!(parse_request(frame), read_request(frame), "{frame}");
        }
        assert!(parse_request(frames[3]).is_err(), "a null id is refused");
        assert_eq!(
            parse_request(frames[0]).map(|e| e.id),
            Ok(Some(RequestId::from(7)))
        );
    }
}
