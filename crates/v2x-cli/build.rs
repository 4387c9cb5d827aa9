//! Records the commit the binary is built from (`V2X_COMMIT`, shown in every report's
//! provenance): `git rev-parse --short=12 HEAD`, with `+changes` when the working tree
//! differs from it, or `unknown` outside a git checkout. Re-runs when HEAD or the index moves.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let o = Command::new("git").args(args).output().ok()?;
    o.status
        .success()
        .then(|| String::from_utf8_lossy(&o.stdout).trim().to_string())
}

fn main() {
    let commit = match git(&["rev-parse", "--short=12", "HEAD"]) {
        Some(c) if !c.is_empty() => {
            let dirty = git(&["status", "--porcelain", "--untracked-files=no"]).is_some_and(|s| !s.is_empty());
            if dirty {
                format!("{c}+changes")
            } else {
                c
            }
        }
        _ => "unknown".into(),
    };
    println!("cargo:rustc-env=V2X_COMMIT={commit}");
    if let Some(dir) = git(&["rev-parse", "--absolute-git-dir"]) {
        println!("cargo:rerun-if-changed={dir}/HEAD");
        println!("cargo:rerun-if-changed={dir}/index");
        if let Some(reference) = git(&["symbolic-ref", "-q", "HEAD"]) {
            if let Some(common) = git(&["rev-parse", "--path-format=absolute", "--git-common-dir"]) {
                println!("cargo:rerun-if-changed={common}/{reference}");
            }
        }
    }
    println!("cargo:rerun-if-changed=build.rs");
}
