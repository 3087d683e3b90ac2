//! The browser client: static files embedded in the binary (no CDN, no separate web server).
//! `STUD_WEB_DIR=web` serves them from a directory instead, for working on them without
//! rebuilding.
//!
//! Every file of `web/` is served at its path (`web/app.js` at `/app.js`, `web/ui/seat.js` at
//! `/ui/seat.js`; `index.html` also at `/`, `admin.html`, the operator console, also at `/admin`), so the page can be split into ES modules. The
//! files are listed in [`FILES`]: a test fails when `web/` has a file the list lacks (or the
//! list one `web/` lacks), so adding a module is adding one line here.

use axum::Router;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

/// Every file of `web/`, by its path there, embedded.
const FILES: &[(&str, &[u8])] = &[
    ("actions.js", include_bytes!("../../../../web/actions.js")),
    ("admin.css", include_bytes!("../../../../web/admin.css")),
    ("admin.html", include_bytes!("../../../../web/admin.html")),
    ("admin.js", include_bytes!("../../../../web/admin.js")),
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

/// A file as it is sent: its bytes, gzipped too when that saves bytes, and its ETag.
struct Prepared {
    name: &'static str,
    body: Vec<u8>,
    /// made at the first request that takes gzip: compressing every file at start took tens of
    /// milliseconds of a restart, before the listener opens
    gzip: std::sync::OnceLock<Option<Vec<u8>>>,
    etag: String,
}

impl Prepared {
    fn new(name: &'static str, body: Vec<u8>) -> Prepared {
        use sha2::Digest as _;
        let digest = sha2::Sha256::digest(&body);
        let etag = format!("\"{}\"", digest.iter().take(12).map(|b| format!("{b:02x}")).collect::<String>());
        Prepared { name, body, gzip: std::sync::OnceLock::new(), etag }
    }

    /// The answer to a GET with these request headers: 304 when the client holds this
    /// version (`If-None-Match`), else the file, gzipped when the client takes gzip.
    fn answer(&self, request: &HeaderMap) -> Response {
        let headers = [
            (header::CONTENT_TYPE, content_type(self.name)),
            // Asked again each time, answered 304 while unchanged: a new release is seen at once.
            (header::CACHE_CONTROL, "no-cache"),
            (header::VARY, "accept-encoding"),
        ];
        let etag = [(header::ETAG, self.etag.clone())];
        if request.get_all(header::IF_NONE_MATCH).iter().any(|v| matches_etag(v.as_bytes(), &self.etag)) {
            return (StatusCode::NOT_MODIFIED, headers, etag).into_response();
        }
        let gzip = || self.gzip.get_or_init(|| gzipped(&self.body).filter(|z| z.len() + 64 < self.body.len()));
        match takes_gzip(request).then(gzip) {
            Some(Some(z)) => (headers, etag, [(header::CONTENT_ENCODING, "gzip")], z.clone()).into_response(),
            _ => (headers, etag, self.body.clone()).into_response(),
        }
    }
}

fn gzipped(body: &[u8]) -> Option<Vec<u8>> {
    use std::io::Write as _;
    let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    z.write_all(body).ok()?;
    z.finish().ok()
}

/// Whether an `If-None-Match` value names `etag` (or is `*`); weak tags compare too (RFC 9110
/// 13.1.2 uses the weak comparison).
fn matches_etag(value: &[u8], etag: &str) -> bool {
    let Ok(value) = std::str::from_utf8(value) else { return false };
    value.split(',').map(str::trim).any(|t| t == "*" || t.trim_start_matches("W/") == etag)
}

/// Whether `Accept-Encoding` lists gzip (or `*`) with a weight above 0.
fn takes_gzip(request: &HeaderMap) -> bool {
    let codings = request.get_all(header::ACCEPT_ENCODING).iter().filter_map(|v| v.to_str().ok());
    codings.flat_map(|v| v.split(',')).any(|coding| {
        let mut parts = coding.split(';').map(str::trim);
        let name = parts.next().unwrap_or("");
        let weight = parts
            .filter_map(|p| p.strip_prefix("q=").or_else(|| p.strip_prefix("Q=")))
            .find_map(|q| q.trim().parse::<f32>().ok())
            .unwrap_or(1.0);
        (name.eq_ignore_ascii_case("gzip") || name == "*") && weight > 0.0
    })
}

/// The page's routes. The embedded files are prepared once: their ETag at start, their gzip at
/// the first request that takes it.
pub fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    let mut router = Router::new();
    for &(name, body) in FILES {
        let prepared = std::sync::Arc::new(Prepared::new(name, body.to_vec()));
        let serve = move |request: HeaderMap| {
            let prepared = prepared.clone();
            async move { file(&prepared, &request) }
        };
        router = router.route(&format!("/{name}"), get(serve.clone()));
        match name {
            "index.html" => router = router.route("/", get(serve)),
            // The operator console (issue 30): its own page, signed in with an operator key.
            "admin.html" => router = router.route("/admin", get(serve)),
            _ => {}
        }
    }
    router
}

fn file(embedded: &Prepared, request: &HeaderMap) -> Response {
    match std::env::var("STUD_WEB_DIR") {
        // Only the listed names are read from the directory (nothing else, nothing above it).
        Ok(dir) => match std::fs::read(std::path::Path::new(&dir).join(embedded.name)) {
            Ok(bytes) => Prepared::new(embedded.name, bytes).answer(request),
            Err(_) => (StatusCode::NOT_FOUND, "not found").into_response(),
        },
        Err(_) => embedded.answer(request),
    }
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

    fn request(pairs: &[(header::HeaderName, &str)]) -> HeaderMap {
        pairs.iter().map(|(k, v)| (k.clone(), v.parse().unwrap())).collect()
    }

    async fn bytes(r: Response) -> Vec<u8> {
        axum::body::to_bytes(r.into_body(), usize::MAX).await.unwrap().to_vec()
    }

    /// Lighthouse counted 121 KiB to save on the page's files (issue 31): they go gzipped to a
    /// client that takes gzip, and a client holding the current version gets 304.
    #[tokio::test]
    async fn files_go_gzipped_with_an_etag_and_a_known_version_is_not_sent_again() {
        use std::io::Read as _;
        let (name, body) = FILES.iter().find(|(n, _)| *n == "table.js").unwrap();
        let file = Prepared::new(name, body.to_vec());
        let plain = file.answer(&HeaderMap::new());
        assert_eq!(plain.status(), StatusCode::OK);
        assert!(plain.headers().get(header::CONTENT_ENCODING).is_none());
        let etag = plain.headers()[header::ETAG].to_str().unwrap().to_owned();
        assert_eq!(bytes(plain).await, *body);

        let zipped = file.answer(&request(&[(header::ACCEPT_ENCODING, "gzip, deflate, br, zstd")]));
        assert_eq!(zipped.headers()[header::CONTENT_ENCODING], "gzip");
        assert_eq!(zipped.headers()[header::VARY], "accept-encoding");
        assert_eq!(zipped.headers()[header::ETAG].to_str().unwrap(), etag);
        let z = bytes(zipped).await;
        assert!(z.len() * 3 < body.len(), "gzip: {} of {} bytes", z.len(), body.len());
        let mut unzipped = Vec::new();
        flate2::read::GzDecoder::new(&z[..]).read_to_end(&mut unzipped).unwrap();
        assert_eq!(unzipped, *body);

        for refused in ["gzip;q=0", "gzip; q=0.0, br", "identity", "br", ""] {
            let r = file.answer(&request(&[(header::ACCEPT_ENCODING, refused)]));
            assert!(r.headers().get(header::CONTENT_ENCODING).is_none(), "{refused}");
        }
        let again = file.answer(&request(&[(header::IF_NONE_MATCH, &etag), (header::ACCEPT_ENCODING, "gzip")]));
        assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
        assert!(bytes(again).await.is_empty());
        let weak = file.answer(&request(&[(header::IF_NONE_MATCH, &format!("\"x\", W/{etag}"))]));
        assert_eq!(weak.status(), StatusCode::NOT_MODIFIED);
        let other = file.answer(&request(&[(header::IF_NONE_MATCH, "\"0123\"")]));
        assert_eq!(other.status(), StatusCode::OK);
        // Another version of the file has another tag.
        assert_ne!(Prepared::new(name, b"changed".to_vec()).etag, etag);
    }
}
