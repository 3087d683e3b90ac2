//! The browser client: static files embedded in the binary (no CDN, no separate web server).
//! `STUD_WEB_DIR=web` serves them from a directory instead, for working on them without
//! rebuilding.
//!
//! Every file of `web/` is served at its path (`web/app.js` at `/app.js`, `web/ui/seat.js` at
//! `/ui/seat.js`; `index.html` also at `/`), so the page can be split into ES modules. The
//! files are listed in [`FILES`]: a test fails when `web/` has a file the list lacks (or the
//! list one `web/` lacks), so adding a module is adding one line here.

use axum::Router;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

/// Every file of `web/`, by its path there, embedded.
const FILES: &[(&str, &[u8])] = &[
    ("actions.js", include_bytes!("../../../../web/actions.js")),
    ("app.js", include_bytes!("../../../../web/app.js")),
    ("chat.js", include_bytes!("../../../../web/chat.js")),
    ("dom.js", include_bytes!("../../../../web/dom.js")),
    ("format.js", include_bytes!("../../../../web/format.js")),
    ("history.js", include_bytes!("../../../../web/history.js")),
    ("i18n.js", include_bytes!("../../../../web/i18n.js")),
    ("index.html", include_bytes!("../../../../web/index.html")),
    ("lobby.js", include_bytes!("../../../../web/lobby.js")),
    ("model.js", include_bytes!("../../../../web/model.js")),
    ("net.js", include_bytes!("../../../../web/net.js")),
    ("protocol.js", include_bytes!("../../../../web/protocol.js")),
    ("state.js", include_bytes!("../../../../web/state.js")),
    ("status.js", include_bytes!("../../../../web/status.js")),
    ("style.css", include_bytes!("../../../../web/style.css")),
    ("table.js", include_bytes!("../../../../web/table.js")),
    ("tournament.js", include_bytes!("../../../../web/tournament.js")),
];

/// The content type of a file, by its extension.
fn content_type(name: &str) -> &'static str {
    match name.rsplit_once('.').map(|(_, ext)| ext) {
        Some("html") => "text/html; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("json" | "map") => "application/json",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("ico") => "image/x-icon",
        Some("woff2") => "font/woff2",
        Some("txt" | "md") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// The page's routes.
pub fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    let mut router = Router::new();
    for &(name, body) in FILES {
        router = router.route(&format!("/{name}"), get(move || async move { file(name, body) }));
        if name == "index.html" {
            router = router.route("/", get(move || async move { file(name, body) }));
        }
    }
    router
}

fn file(name: &'static str, embedded: &'static [u8]) -> Response {
    let body = match std::env::var("STUD_WEB_DIR") {
        // Only the listed names are read from the directory (nothing else, nothing above it).
        Ok(dir) => match std::fs::read(std::path::Path::new(&dir).join(name)) {
            Ok(bytes) => bytes,
            Err(_) => return (StatusCode::NOT_FOUND, "not found").into_response(),
        },
        Err(_) => embedded.to_vec(),
    };
    ([(header::CONTENT_TYPE, content_type(name)), (header::CACHE_CONTROL, "no-cache")], body).into_response()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    /// The files under `dir`, by their path relative to `root`, `/`-separated.
    fn walk(root: &std::path::Path, dir: &std::path::Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                let rel = path.strip_prefix(root).unwrap();
                out.push(rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/"));
            }
        }
    }

    #[test]
    fn every_file_of_the_web_folder_is_embedded_and_served() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web");
        let mut on_disk = Vec::new();
        walk(&root, &root, &mut on_disk);
        on_disk.retain(|n| !n.starts_with('.') && !n.contains("/."));
        on_disk.sort();
        let mut listed: Vec<String> = FILES.iter().map(|(n, _)| (*n).to_owned()).collect();
        listed.sort();
        assert_eq!(listed, on_disk, "web/ and web.rs's FILES differ: list every file of web/ there");
        for (name, body) in FILES {
            assert_eq!(std::fs::read(root.join(name)).unwrap(), *body, "{name} is embedded as it is on disk");
            assert_ne!(content_type(name), "application/octet-stream", "{name}: give its kind a content type");
        }
    }
}
