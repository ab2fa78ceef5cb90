//! Malformed input is an error that names the field, never a silent default; and a server
//! can tell a frame that is not JSON, an unknown `t` and a bad known request apart.

use orion_protocol::{parse_reply, parse_request, Code, Message, Request, RequestId};

fn refused(text: &str) -> (Code, String, Option<RequestId>) {
    let e = parse_request(text).expect_err(text);
    (e.code, e.message, e.id)
}

#[test]
fn request_errors_have_the_codes_of_the_protocol() {
    assert_eq!(refused("{").0, Code::BadJson);
    assert_eq!(refused("[1]").0, Code::BadJson);
    assert_eq!(refused(r#"{"t":"dance","id":1}"#).0, Code::UnknownType);
    assert_eq!(refused(r#"{"t":7}"#).0, Code::BadRequest);
    assert_eq!(refused(r#"{"room":"r"}"#).0, Code::BadRequest);
    let (code, _, id) = refused(r#"{"t":"ping","id":[1]}"#);
    assert_eq!((code, id), (Code::BadRequest, None));
    let (code, message, id) = refused(r#"{"t":"click","id":7,"room":"r"}"#);
    assert_eq!(code, Code::BadRequest);
    assert_eq!(id, Some(RequestId::from(7)));
    assert_eq!(message, "click: missing field `click`");
    let ok = parse_request(r#"{"t":"ping","id":"a"}"#).unwrap();
    assert_eq!(ok.request, Request::Ping);
    assert_eq!(ok.id, Some(RequestId::from("a")));
}

#[test]
fn a_field_of_the_wrong_type_is_named() {
    let (_, message, _) = refused(r#"{"t":"click","room":"r","click":"C4R","piece":5}"#);
    assert!(message.contains("`piece`"), "{message}");
    let (_, message, _) = refused(r#"{"t":"resume","room":"r","since":"x"}"#);
    assert!(message.contains("`since`"), "{message}");
    let (_, message, _) = refused(r#"{"t":"create","game":"orion","options":{"clicks":"x"}}"#);
    assert!(message.contains("`options.clicks`"), "{message}");
    let (_, message, _) = refused(r#"{"t":"join","room":"r","seat":"X"}"#);
    assert!(message.contains("`seat`"), "{message}");
    // null is "not given" where a field is optional.
    assert!(parse_request(r#"{"t":"hello","name":"a","version":1,"token":null}"#).is_ok());
}

#[test]
fn a_malformed_message_names_its_field_and_absent_is_not_null() {
    let e = parse_reply(
        r#"{"t":"event","room":"r","seq":1,"ev":{"kind":"claim","seat":"S","ok":"yes"}}"#,
    )
    .unwrap_err();
    assert_eq!(e.field.as_deref(), Some("ev.ok"), "{e}");
    assert!(e.to_string().contains("ev.ok"), "{e}");
    // `from` is always sent, null when the piece came from the hand.
    let e = parse_reply(
        r#"{"t":"event","room":"r","seq":1,"ev":{"kind":"place","seat":"S","slot":"C2n","piece":"R1","position":""}}"#,
    )
    .unwrap_err();
    assert!(e.to_string().contains("missing field `from`"), "{e}");
    let e = parse_reply(
        r#"{"t":"event","room":"r","seq":1,"ev":{"kind":"turn","seat":"S","round":1}}"#,
    )
    .unwrap_err();
    assert!(e.to_string().contains("missing field `clicks`"), "{e}");
    let e = parse_reply(r#"{"t":"error","code":"oops","message":"m"}"#).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("code"), "{e}");
    let e = parse_reply(r#"{"t":"joined","room":"r","seat":"nobody"}"#).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("seat"), "{e}");
    assert!(parse_reply("not json").is_err());
    // A server may add fields: they are ignored.
    let m = parse_reply(r#"{"t":"pong","re":1,"later":true}"#).unwrap();
    assert_eq!(m.message, Message::Pong);
}
