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
