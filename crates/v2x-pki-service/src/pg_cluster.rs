//! A throwaway PostgreSQL server for tests and the benchmark: a new cluster (`initdb`) in a
//! temporary directory, started with `pg_ctl` on a free loopback port, run as the `postgres`
//! user when we are root (PostgreSQL refuses to run as root), stopped and removed on drop.
//! Found through `pg_config --bindir` or `/usr/lib/postgresql/*/bin` (Debian's `postgresql`
//! package; `make setup` installs it).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A running throwaway cluster.
pub struct PgCluster {
    bin: PathBuf,
    dir: tempfile::TempDir,
    as_postgres: bool,
    pub port: u16,
    /// `postgres://postgres@127.0.0.1:PORT/v2xpki`.
    pub url: String,
}

/// Why no cluster could be started (tests print it and skip; the benchmark stops).
#[derive(Debug, thiserror::Error)]
pub enum PgError {
    #[error("PostgreSQL is not installed (no initdb in pg_config --bindir or /usr/lib/postgresql/*/bin; `make setup` installs it)")]
    NotInstalled,
    #[error("{0}")]
    Failed(String),
}

fn bindir() -> Option<PathBuf> {
    if let Ok(o) = Command::new("pg_config").arg("--bindir").output() {
        let p = PathBuf::from(String::from_utf8_lossy(&o.stdout).trim());
        if p.join("initdb").exists() {
            return Some(p);
        }
    }
    let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path().join("bin")))
        .filter(|b| b.join("initdb").exists())
        .collect();
    versions.sort();
    versions.pop()
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

impl PgCluster {
    /// Creates and starts a cluster.
    pub fn start() -> Result<PgCluster, PgError> {
        let bin = bindir().ok_or(PgError::NotInstalled)?;
        let as_postgres = is_root();
        let dir = tempfile::Builder::new()
            .prefix("v2x-pg-")
            .tempdir()
            .map_err(|e| PgError::Failed(format!("temporary directory: {e}")))?;
        if as_postgres {
            let ok = Command::new("chown")
                .args(["-R", "postgres:postgres"])
                .arg(dir.path())
                .status()
                .map_err(|e| PgError::Failed(format!("chown: {e}")))?;
            if !ok.success() {
                return Err(PgError::Failed(
                    "chown to the postgres user failed (is there one?)".into(),
                ));
            }
        }
        let port = {
            let l = std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| PgError::Failed(e.to_string()))?;
            l.local_addr().map_err(|e| PgError::Failed(e.to_string()))?.port()
        };
        let cluster = PgCluster {
            url: format!("postgres://postgres@127.0.0.1:{port}/v2xpki"),
            bin,
            dir,
            as_postgres,
            port,
        };
        let data = cluster.data();
        cluster.run(
            "initdb",
            &["-D", &data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"],
        )?;
        cluster.pg_ctl_start()?;
        cluster.run(
            "createdb",
            &["-h", "127.0.0.1", "-p", &port.to_string(), "-U", "postgres", "v2xpki"],
        )?;
        Ok(cluster)
    }

    fn data(&self) -> String {
        self.dir.path().join("data").display().to_string()
    }

    fn run(&self, tool: &str, args: &[&str]) -> Result<Output, PgError> {
        let exe = self.bin.join(tool);
        let mut cmd = if self.as_postgres {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(&exe);
            c
        } else {
            Command::new(&exe)
        };
        let o = cmd
            .args(args)
            .current_dir(self.dir.path())
            .output()
            .map_err(|e| PgError::Failed(format!("{}: {e}", exe.display())))?;
        if !o.status.success() {
            return Err(PgError::Failed(format!(
                "{tool} {}: {}{}",
                args.join(" "),
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            )));
        }
        Ok(o)
    }

    /// Starts (or restarts) the server.
    pub fn pg_ctl_start(&self) -> Result<(), PgError> {
        let opts = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c max_connections=100",
            self.port,
            self.dir.path().display()
        );
        let log = self.dir.path().join("server.log").display().to_string();
        self.run("pg_ctl", &["start", "-w", "-D", &self.data(), "-l", &log, "-o", &opts])?;
        Ok(())
    }

    /// Stops the server at once (`immediate`: as a crash would; for the dead-database tests).
    pub fn kill(&self) -> Result<(), PgError> {
        self.run("pg_ctl", &["stop", "-m", "immediate", "-D", &self.data()])?;
        Ok(())
    }

    /// The postmaster's process id (its tree is the server's CPU).
    pub fn postmaster_pid(&self) -> Option<u32> {
        let s = std::fs::read_to_string(Path::new(&self.data()).join("postmaster.pid")).ok()?;
        s.lines().next()?.trim().parse().ok()
    }
}

impl Drop for PgCluster {
    fn drop(&mut self) {
        let _ = self.run("pg_ctl", &["stop", "-m", "fast", "-D", &self.data()]);
    }
}
