//! Frames: a server message serialised once and shared by every subscriber that gets the
//! same bytes. The table's view builds them; this is the door for the server's own messages.

pub use crate::core::Frame;
pub use crate::core::view::{error, error_unread, frame};
