//! The lobby: every table's handle and the line the lobby shows of it.

use std::collections::HashMap;
use std::sync::{PoisonError, RwLock};

use stud_proto::TableSummary;
use uuid::Uuid;

use crate::table::TableHandle;

/// The tables and what the lobby shows of them.
#[derive(Default)]
pub struct Lobby {
    tables: RwLock<Vec<(Uuid, TableHandle)>>,
    summaries: RwLock<HashMap<Uuid, TableSummary>>,
}

impl Lobby {
    /// Adds a table.
    pub fn add(&self, id: Uuid, handle: TableHandle, summary: TableSummary) {
        self.tables.write().unwrap_or_else(PoisonError::into_inner).push((id, handle));
        self.publish(summary);
    }

    /// The table's handle.
    pub fn get(&self, id: Uuid) -> Option<TableHandle> {
        self.tables
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
            .find(|(t, _)| *t == id)
            .map(|(_, h)| h.clone())
    }

    /// Takes a closed table out.
    pub fn remove(&self, id: Uuid) {
        self.tables.write().unwrap_or_else(PoisonError::into_inner).retain(|(t, _)| *t != id);
        self.summaries.write().unwrap_or_else(PoisonError::into_inner).remove(&id);
    }

    /// A table's name.
    pub fn name(&self, id: Uuid) -> Option<String> {
        self.summaries.read().unwrap_or_else(PoisonError::into_inner).get(&id).map(|s| s.name.clone())
    }

    /// Every table handle, in lobby order.
    pub fn handles(&self) -> Vec<TableHandle> {
        self.tables.read().unwrap_or_else(PoisonError::into_inner).iter().map(|(_, h)| h.clone()).collect()
    }

    /// Replaces a table's lobby line.
    pub fn publish(&self, summary: TableSummary) {
        self.summaries.write().unwrap_or_else(PoisonError::into_inner).insert(summary.id, summary);
    }

    /// The public lobby, in table order (private tables are not in it).
    pub fn public(&self) -> Vec<TableSummary> {
        self.list().into_iter().filter(|t| !t.private).collect()
    }

    /// A table's lobby line.
    pub fn summary(&self, id: Uuid) -> Option<TableSummary> {
        self.summaries.read().unwrap_or_else(PoisonError::into_inner).get(&id).cloned()
    }

    /// Every table, private ones included, in table order.
    pub fn list(&self) -> Vec<TableSummary> {
        let summaries = self.summaries.read().unwrap_or_else(PoisonError::into_inner);
        self.tables
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
            .filter_map(|(id, _)| summaries.get(id).cloned())
            .collect()
    }
}
