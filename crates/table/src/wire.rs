//! Frames: a server message serialised once and shared by every subscriber that gets the
//! same bytes.

use std::sync::Arc;

use stud_proto::{ErrorCode, RequestId, ServerMsg};

/// A serialized server message.
pub type Frame = Arc<str>;

/// Serializes a message once.
pub fn frame(msg: &ServerMsg) -> Frame {
    match serde_json::to_string(msg) {
        Ok(s) => s.into(),
        // Serializing our own types cannot fail; if it ever did, say so instead of panicking.
        Err(e) => format!(r#"{{"type":"error","request_id":null,"code":"internal","message":"{e}"}}"#).into(),
    }
}

/// An error frame.
pub fn error(request_id: RequestId, code: ErrorCode, message: impl Into<String>) -> Frame {
    frame(&ServerMsg::Error { request_id, code, message: message.into(), unread: false })
}

/// An error frame for a frame whose `request_id` could not be read (`unread: true`).
pub fn error_unread(code: ErrorCode, message: impl Into<String>) -> Frame {
    frame(&ServerMsg::Error { request_id: None, code, message: message.into(), unread: true })
}
