//! Hand evaluators (placeholder, being written).
