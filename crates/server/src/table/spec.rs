//! A [`TableSpec`] as the server makes, stores and reads it back ([`SpecExt`]).

use stud_engine::{Chips, TableConfig};
use stud_proto::TableSettings;
use stud_store::StoredTable;
use uuid::Uuid;

pub use stud_table::TableSpec;

/// What `tables.settings` holds.
#[derive(serde::Serialize, serde::Deserialize)]
struct StoredSettings {
    settings: TableSettings,
    invite_code: Option<String>,
    paused: bool,
    /// a tournament's table (opened again in tournament mode even without a journal)
    #[serde(default)]
    tournament: Option<Uuid>,
}

/// A [`TableSpec`] as the server makes and stores it.
pub trait SpecExt: Sized {
    /// A public table with the server's configured clock.
    fn public_with(
        id: Uuid,
        name: String,
        config: TableConfig,
        buy_in: (Chips, Chips),
        server: &crate::config::Config,
    ) -> Self;
    /// As stored.
    fn stored(&self, created_at_ms: u64, closed: bool) -> StoredTable;
    /// From the store (a row without settings is a public table, with the server's clock).
    fn from_stored(t: &StoredTable, server: &crate::config::Config) -> Self;
}

impl SpecExt for TableSpec {
    fn public_with(
        id: Uuid,
        name: String,
        config: TableConfig,
        buy_in: (Chips, Chips),
        server: &crate::config::Config,
    ) -> TableSpec {
        TableSpec::public(id, name, config, buy_in, (server.action_timeout_ms, server.time_bank_ms))
    }

    fn stored(&self, created_at_ms: u64, closed: bool) -> StoredTable {
        let settings = StoredSettings {
            settings: self.settings(),
            invite_code: self.invite_code.clone(),
            paused: self.paused,
            tournament: self.tournament,
        };
        StoredTable {
            id: self.id,
            name: self.name.clone(),
            config: self.config,
            min_buy_in: self.min_buy_in,
            max_buy_in: self.max_buy_in,
            created_at_ms,
            closed,
            settings: serde_json::to_string(&settings).unwrap_or_default(),
        }
    }

    fn from_stored(t: &StoredTable, server: &crate::config::Config) -> TableSpec {
        let basics = || TableSpec::public_with(t.id, t.name.clone(), t.config, (t.min_buy_in, t.max_buy_in), server);
        match serde_json::from_str::<StoredSettings>(&t.settings) {
            Ok(s) => match TableSpec::from_settings(t.id, &s.settings) {
                Ok(spec) => {
                    TableSpec { invite_code: s.invite_code, paused: s.paused, tournament: s.tournament, ..spec }
                }
                Err(e) => {
                    tracing::warn!(table = %t.id, error = %e, "stored settings are invalid; opening with the basics");
                    basics()
                }
            },
            Err(_) => basics(),
        }
    }
}
