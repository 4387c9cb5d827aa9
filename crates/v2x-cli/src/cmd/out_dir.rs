//! The results folder of a command (`--out`), checked before any work: a path that is a
//! file, lies under a file, or cannot be written fails at once, not after a long run.

use anyhow::{anyhow, bail, Context};
use std::path::Path;

/// Creates `dir` if needed and checks that a file can be written in it.
pub fn prepare(dir: &Path) -> anyhow::Result<()> {
    if dir.exists() && !dir.is_dir() {
        bail!("--out {}: is a file, not a folder", dir.display());
    }
    std::fs::create_dir_all(dir).with_context(|| format!("--out {}: cannot create the folder", dir.display()))?;
    let probe = dir.join(format!(".v2x-write-check-{}", std::process::id()));
    std::fs::write(&probe, b"").map_err(|e| anyhow!("--out {}: not writable: {e}", dir.display()))?;
    // The probe is ours; a failure to remove it leaves an empty file, nothing else.
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_or_a_path_below_a_file_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("f");
        std::fs::write(&file, b"x").unwrap();
        assert!(prepare(&file).unwrap_err().to_string().contains("is a file"));
        assert!(prepare(&file.join("sub")).is_err());
        let fresh = tmp.path().join("a/b");
        prepare(&fresh).unwrap();
        assert!(fresh.is_dir() && std::fs::read_dir(&fresh).unwrap().next().is_none());
    }
}
