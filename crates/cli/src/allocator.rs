//! The binary's memory allocator: mimalloc, and the one call into it that gives freed
//! memory back.
//!
//! mimalloc, not the system's malloc: it gives freed pages back to the system (glibc's keeps
//! them in its per-thread arenas). But a block freed by another thread than the one that
//! allocated it only goes on that page's list of remote frees, and the owning thread takes
//! those back when it next collects: a tokio worker that created sessions and then idles keeps
//! their pages, and with them the RSS, after another worker's sweep dropped them. So each
//! runtime worker, when it goes idle (`on_thread_park`) and at most every
//! [`COLLECT_EVERY`], asks mimalloc to collect its own pages (`mi_collect(true)`).
//! BENCHMARKS.md ("Sessions created and abandoned") has the figures.
//!
//! This module is the workspace's only `unsafe` code (the lint is `forbid` everywhere else):
//! the declaration of one mimalloc function and its call.

use std::cell::Cell;
use std::time::{Duration, Instant};

/// Only this binary picks the allocator; the libraries leave the choice to whoever links them.
#[cfg(not(feature = "dhat-heap"))]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// A heap-profiling build (`--features dhat-heap`): every allocation goes through dhat, which
/// writes `dhat-heap.json` (each allocation site's bytes at the heap's peak, among others)
/// when [`profile`]'s guard is dropped at the end of `main`.
#[cfg(feature = "dhat-heap")]
#[global_allocator]
static ALLOCATOR: dhat::Alloc = dhat::Alloc;

/// Starts the heap profile of a `dhat-heap` build; nothing otherwise.
#[cfg(feature = "dhat-heap")]
pub fn profile() -> Option<dhat::Profiler> {
    Some(dhat::Profiler::new_heap())
}

/// Starts the heap profile of a `dhat-heap` build; nothing otherwise.
#[cfg(not(feature = "dhat-heap"))]
pub fn profile() -> Option<()> {
    None
}

/// How often an idle worker collects at most.
pub const COLLECT_EVERY: Duration = Duration::from_secs(5);

thread_local! {
    static LAST_COLLECT: Cell<Option<Instant>> = const { Cell::new(None) };
}

#[cfg(not(feature = "dhat-heap"))]
#[allow(unsafe_code)]
mod ffi {
    unsafe extern "C" {
        /// mimalloc's `void mi_collect(bool force)`: collects the calling thread's pages
        /// (their remote frees included) and returns what is free to the system. Linked from
        /// the mimalloc library the `mimalloc` crate builds (`libmimalloc-sys`).
        pub safe fn mi_collect(force: bool);
    }
}

/// For `tokio::runtime::Builder::on_thread_park`: collects this thread's freed memory if it
/// has not done so for [`COLLECT_EVERY`].
pub fn collect_when_idle() {
    let now = Instant::now();
    let due = LAST_COLLECT.with(|last| match last.get() {
        Some(at) if now.duration_since(at) < COLLECT_EVERY => false,
        _ => {
            last.set(Some(now));
            true
        }
    });
    if due {
        collect();
    }
}

#[cfg(not(feature = "dhat-heap"))]
fn collect() {
    ffi::mi_collect(true);
}

/// A `dhat-heap` build does not link mimalloc: nothing to collect.
#[cfg(feature = "dhat-heap")]
fn collect() {}
