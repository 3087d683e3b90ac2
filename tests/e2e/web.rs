//! The browser client's files are served from the binary and load nothing from elsewhere.
//! (The page itself is tested in a real Chromium: tests/browser.)

use stud_client::http;

use crate::spawn_app;

#[tokio::test]
async fn the_page_and_its_files_are_served_and_self_contained() {
    let (server, addr) = spawn_app(|_| {}).await;
    let (status, html) = http(&addr, "GET", "/", None).await.unwrap();
    assert_eq!(status, 200);
    assert!(html.contains("/app.js") && html.contains("/style.css"), "{html}");
    for path in ["/app.js", "/style.css"] {
        let (status, body) = http(&addr, "GET", path, None).await.unwrap();
        assert_eq!(status, 200, "{path}");
        assert!(body.len() > 100, "{path} is too small to be the client");
    }
    for path in ["/", "/app.js", "/style.css"] {
        let (_, body) = http(&addr, "GET", path, None).await.unwrap();
        let far_refs = [
            "src=\"http",
            "src='http",
            "href=\"http",
            "href='http",
            "url(http",
            "url(\"http",
            "from \"http",
            "from 'http",
            "fetch(\"http",
            "fetch('http",
            "src=\"//",
            "href=\"//",
        ];
        for far in far_refs {
            assert!(!body.contains(far), "{path} refers to {far}: nothing outside the server may be loaded");
        }
    }
    server.shutdown().await;
}

/// Every ES module the pages import (followed from their entry modules, `app.js` for the
/// players' page and `admin.js` for the operator console, as the browser does) is served, as
/// JavaScript, and loads nothing from elsewhere.
#[tokio::test]
async fn every_module_the_page_imports_is_served() {
    let (server, addr) = spawn_app(|_| {}).await;
    let mut todo = vec!["/app.js".to_owned(), "/admin.js".to_owned()];
    let mut seen = std::collections::BTreeSet::new();
    while let Some(path) = todo.pop() {
        if !seen.insert(path.clone()) {
            continue;
        }
        let (status, body) = http(&addr, "GET", &path, None).await.unwrap();
        assert_eq!(status, 200, "{path} is imported but not served");
        for line in body.lines().filter(|l| l.starts_with("import ")) {
            let from = line.rsplit_once(" from ").map(|(_, f)| f.trim().trim_end_matches(';').trim_matches('\''));
            let Some(module) = from.and_then(|f| f.strip_prefix("./")) else {
                panic!("{path}: an import from outside the page: {line}")
            };
            todo.push(format!("/{module}"));
        }
    }
    // Every module of web/ is reached: none is dead, and none is loaded another way.
    let web = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../web");
    let modules: Vec<String> = std::fs::read_dir(&web)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|name| name.ends_with(".js"))
        .map(|name| format!("/{name}"))
        .collect();
    assert!(modules.len() >= 10, "{modules:?}");
    for module in &modules {
        assert!(seen.contains(module), "{module} is not reached from app.js or admin.js: {seen:?}");
    }
    server.shutdown().await;
}
