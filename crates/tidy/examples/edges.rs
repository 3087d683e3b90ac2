//! Prints a crate's module edges (`from -> to  file:line`), for drawing or grepping.
//! `cargo run -p stud-tidy --example edges -- crates/server/src`
fn main() {
    let Some(dir) = std::env::args().nth(1) else {
        eprintln!("usage: edges SRC_DIR");
        std::process::exit(2);
    };
    match stud_tidy::edges(std::path::Path::new(&dir)) {
        Ok(edges) => {
            for e in edges {
                println!("{} -> {}  {}:{}  {}", e.from, e.to, e.file.display(), e.line, e.path);
            }
        }
        Err(errors) => {
            for e in errors {
                eprintln!("{e}");
            }
            std::process::exit(1);
        }
    }
}
