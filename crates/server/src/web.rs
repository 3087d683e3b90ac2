//! The browser client: static files embedded in the binary (no CDN, no separate web server).
//! `STUD_WEB_DIR=web` serves them from a directory instead, for working on them without
//! rebuilding.

use axum::Router;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

const FILES: [(&str, &str, &str); 3] = [
    ("/", "text/html; charset=utf-8", include_str!("../../../web/index.html")),
    ("/app.js", "text/javascript; charset=utf-8", include_str!("../../../web/app.js")),
    ("/style.css", "text/css; charset=utf-8", include_str!("../../../web/style.css")),
];

/// The page's routes.
pub fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    let mut router = Router::new();
    for (path, kind, body) in FILES {
        router = router.route(path, get(move || async move { file(path, kind, body) }));
    }
    router
}

fn file(path: &'static str, kind: &'static str, embedded: &'static str) -> Response {
    let body = match std::env::var("STUD_WEB_DIR") {
        Ok(dir) => {
            let name = if path == "/" { "index.html" } else { path.trim_start_matches('/') };
            match std::fs::read_to_string(std::path::Path::new(&dir).join(name)) {
                Ok(text) => text,
                Err(_) => return (StatusCode::NOT_FOUND, "not found").into_response(),
            }
        }
        Err(_) => embedded.to_owned(),
    };
    ([(header::CONTENT_TYPE, kind), (header::CACHE_CONTROL, "no-cache")], body).into_response()
}
