//! A guest's or a player's login: [`Session`], the one value every layer passes to say who is
//! asking. Its token is a secret (`Debug` leaves it out); logging out cancels it.

use uuid::Uuid;

/// A guest login: one token, one player, one session. `Debug` leaves the token out.
pub struct Session {
    /// bearer token (secret)
    pub token: String,
    /// the player
    pub player_id: Uuid,
    /// this session (LAST HAND is per session)
    pub session_id: Uuid,
    /// display name
    pub name: String,
    /// cancelled when the session is logged out ([`App::end_session`]): its sockets close
    ended: tokio_util::sync::CancellationToken,
}

impl Session {
    /// A session (not yet ended).
    pub fn new(token: String, player_id: Uuid, session_id: Uuid, name: String) -> Session {
        Session { token, player_id, session_id, name, ended: tokio_util::sync::CancellationToken::new() }
    }

    /// Resolves when the session is logged out (at once if it is already).
    pub async fn ended(&self) {
        self.ended.cancelled().await;
    }

    /// Logs the session out: its sockets close ([`Session::ended`] resolves).
    pub(crate) fn end(&self) {
        self.ended.cancel();
    }

    /// Whether the session has been logged out.
    pub fn is_ended(&self) -> bool {
        self.ended.is_cancelled()
    }
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("token", &"<redacted>")
            .field("player_id", &self.player_id)
            .field("session_id", &self.session_id)
            .field("name", &self.name)
            .field("ended", &self.is_ended())
            .finish()
    }
}
