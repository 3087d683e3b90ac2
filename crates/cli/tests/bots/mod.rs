//! What the crash and cluster tests' bots do at a prompt (shared by both test binaries).

use stud_engine::Action;
use stud_proto::ClientMsg;
use uuid::Uuid;

/// A bot's answer among `legal`: a bet or raise when `bet`, else a fold or muck when `fold`,
/// else check, call, bring-in or show, else the first legal action.
pub fn choose(legal: &[Action], bet: bool, fold: bool) -> Action {
    let first = if bet {
        legal.iter().copied().find(|a| a.to().is_some())
    } else if fold {
        legal.iter().copied().find(|a| *a == Action::Fold || *a == Action::Muck)
    } else {
        None
    };
    first
        .or_else(|| {
            [Action::Check, Action::Call, Action::BringIn, Action::Show].into_iter().find(|a| legal.contains(a))
        })
        .unwrap_or(legal[0])
}

/// The `act` for prompt `seq` of a hand. The key names the prompt: a retry after a restart or
/// a failover is the same request.
pub fn act(table_id: Uuid, hand_id: Uuid, seq: u64, action: Action) -> ClientMsg {
    ClientMsg::Act { request_id: None, table_id, hand_id, seq, idempotency_key: format!("{hand_id}-{seq}"), action }
}
