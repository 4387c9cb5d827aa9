//! What machine this is (recorded with every result and profile).

use crate::result::HostInfo;

fn read_trimmed(path: &str) -> Option<String> {
    std::fs::read_to_string(path)
        .ok()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
}

fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name") || l.starts_with("Model") || l.starts_with("Hardware"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string())
}

pub fn info() -> HostInfo {
    HostInfo {
        hostname: read_trimmed("/etc/hostname")
            .or_else(|| read_trimmed("/proc/sys/kernel/hostname"))
            .unwrap_or_else(|| "unknown".into()),
        cpu: cpu_model(),
        cores: crate::pool::available_cores(),
        os: format!(
            "{} {}",
            std::env::consts::OS,
            read_trimmed("/proc/sys/kernel/osrelease").unwrap_or_default()
        )
        .trim()
        .to_string(),
        openssl: openssl::version::version().to_string(),
    }
}

/// UTC now, RFC 3339.
pub fn now_rfc3339() -> String {
    time::OffsetDateTime::now_utc()
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_else(|_| "unknown".into())
}
