//! `[medium] kind = "netns"`: one Linux network namespace per station, each with a veth
//! pair into a bridge of the root namespace, so that every station has its own network
//! stack, address and interface (as the lab's separate machines on one switch). Needs root
//! and iproute2's `ip`; [`Namespaces::create`] says why not otherwise, and the orchestrator
//! falls back to loopback.
//!
//! Names carry the orchestrator's pid (`v2xtb<PID>-<i>` namespaces, `vt<PID>h<i>` host
//! veths, `vt<PID>br` bridge): concurrent runs do not meet, and namespaces left by a run
//! that was killed outright are removed by the next run ([`sweep_stale`]). The bridge has
//! no address: the stations' 10.77.0.0/16 is not routed from the root namespace.

use std::net::Ipv4Addr;
use std::process::Command;

/// The stations' namespaces, veths and bridge; removed on drop (normal end, error, Ctrl-C).
#[derive(Debug)]
pub struct Namespaces {
    tag: u32,
    /// (station, namespace, address), in creation order.
    stations: Vec<(String, String, Ipv4Addr)>,
    bridge_made: bool,
}

/// Prefix of every namespace the testbed makes.
const NS_PREFIX: &str = "v2xtb";

/// Why the namespaces of a run could not be made.
#[derive(Debug, thiserror::Error)]
pub enum NetnsError {
    #[error("network namespaces need root")]
    NotRoot,
    #[error("network namespaces need iproute2's `ip`, which is not installed")]
    NoIp,
    #[error("at most 60000 stations in namespaces")]
    TooMany,
    #[error("running `ip`: {0}")]
    Run(#[from] std::io::Error),
    #[error("`ip {args}` failed: {stderr}")]
    Failed { args: String, stderr: String },
}

fn ip(args: &[&str]) -> Result<(), NetnsError> {
    let o = Command::new("ip").args(args).output()?;
    if o.status.success() {
        Ok(())
    } else {
        Err(NetnsError::Failed {
            args: args.join(" "),
            stderr: String::from_utf8_lossy(&o.stderr).trim().to_string(),
        })
    }
}

/// Why namespaces cannot be made here (not root, no `ip`), or nothing.
pub fn unavailable() -> Option<NetnsError> {
    if effective_uid() != Some(0) {
        return Some(NetnsError::NotRoot);
    }
    match Command::new("ip").arg("-V").output() {
        Ok(o) if o.status.success() => None,
        _ => Some(NetnsError::NoIp),
    }
}

/// The effective user id (`/proc/self/status`, second field of `Uid:`).
fn effective_uid() -> Option<u32> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("Uid:"))?;
    line.split_whitespace().nth(2)?.parse().ok()
}

/// The testbed's namespaces now present (`ip netns list`).
pub fn list() -> Vec<String> {
    let Ok(o) = Command::new("ip").args(["netns", "list"]).output() else {
        return Vec::new();
    };
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|n| n.starts_with(NS_PREFIX))
        .map(String::from)
        .collect()
}

/// Removes the namespaces, veths and bridges of runs whose orchestrator is gone.
pub fn sweep_stale() {
    let alive = |pid: u32| std::path::Path::new(&format!("/proc/{pid}")).exists();
    let mut dead: Vec<u32> = list()
        .iter()
        .filter_map(|n| n.strip_prefix(NS_PREFIX)?.split('-').next()?.parse().ok())
        .filter(|&pid| !alive(pid))
        .collect();
    dead.sort_unstable();
    dead.dedup();
    for tag in dead {
        let stale = list()
            .into_iter()
            .filter(|n| n.starts_with(&format!("{NS_PREFIX}{tag}-")))
            .collect::<Vec<_>>();
        for ns in &stale {
            if let Some(i) = ns.rsplit('-').next() {
                let _ = ip(&["link", "del", &format!("vt{tag}h{i}")]);
            }
            let _ = ip(&["netns", "del", ns]);
        }
        let _ = ip(&["link", "del", &format!("vt{tag}br")]);
    }
}

impl Namespaces {
    /// One namespace per station of `names`, tagged with this process's pid.
    pub fn create(names: &[String]) -> Result<Namespaces, NetnsError> {
        if let Some(why) = unavailable() {
            return Err(why);
        }
        if names.len() > 60_000 {
            return Err(NetnsError::TooMany);
        }
        sweep_stale();
        let tag = std::process::id();
        let mut me = Namespaces {
            tag,
            stations: Vec::new(),
            bridge_made: false,
        };
        let bridge = me.bridge();
        ip(&["link", "add", &bridge, "type", "bridge"])?;
        me.bridge_made = true;
        ip(&["link", "set", &bridge, "up"])?;
        for (i, name) in names.iter().enumerate() {
            let ns = format!("{NS_PREFIX}{tag}-{i}");
            let addr = Ipv4Addr::new(10, 77, (i / 250) as u8, (i % 250 + 1) as u8);
            ip(&["netns", "add", &ns])?;
            me.stations.push((name.clone(), ns.clone(), addr));
            let (host, peer) = (format!("vt{tag}h{i}"), format!("vt{tag}p{i}"));
            ip(&["link", "add", &host, "type", "veth", "peer", "name", &peer])?;
            ip(&["link", "set", &peer, "netns", &ns])?;
            ip(&["link", "set", &host, "master", &bridge])?;
            ip(&["link", "set", &host, "up"])?;
            ip(&["-n", &ns, "link", "set", &peer, "name", "eth0"])?;
            ip(&["-n", &ns, "addr", "add", &format!("{addr}/16"), "dev", "eth0"])?;
            ip(&["-n", &ns, "link", "set", "eth0", "up"])?;
            ip(&["-n", &ns, "link", "set", "lo", "up"])?;
        }
        Ok(me)
    }

    fn bridge(&self) -> String {
        format!("vt{}br", self.tag)
    }

    /// The station's address in its namespace.
    pub fn address(&self, station: &str) -> Option<Ipv4Addr> {
        self.stations.iter().find(|s| s.0 == station).map(|s| s.2)
    }

    /// The station's namespace.
    pub fn namespace(&self, station: &str) -> Option<&str> {
        self.stations.iter().find(|s| s.0 == station).map(|s| s.1.as_str())
    }

    /// The namespaces, in creation order.
    pub fn names(&self) -> Vec<String> {
        self.stations.iter().map(|s| s.1.clone()).collect()
    }
}

impl Drop for Namespaces {
    fn drop(&mut self) {
        // The host veth first: deleting one end removes the pair at once (a namespace's
        // own interfaces go only when the kernel gets round to it).
        for (i, (_, ns, _)) in self.stations.iter().enumerate() {
            let _ = ip(&["link", "del", &format!("vt{}h{i}", self.tag)]);
            let _ = ip(&["netns", "del", ns]);
        }
        if self.bridge_made {
            let _ = ip(&["link", "del", &self.bridge()]);
        }
    }
}
