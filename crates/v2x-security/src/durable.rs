//! Writes that lose nothing already stored, for the PKI directory and the receiver state.
//!
//! * [`replace`]: the new content goes to a temporary file in the same directory, which is
//!   flushed to disk (`fsync`) and renamed over the target; the directory is flushed too. A
//!   full disk, an I/O error or a crash at any point leaves either the old file or the new
//!   one, never a mix or a truncated file (at worst a stray temporary file, which
//!   [`is_temporary`] recognises and `v2x pki check` reports).
//! * [`create_new`]: the same, but the temporary file is hard-linked to the target, which
//!   fails when the target exists: a key or certificate is never overwritten.
//! * [`DirLock`]: an advisory `flock` on `DIR/.lock`, so that two processes never change
//!   one directory at once; the second is refused with a clear error.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Who may read a file that is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Owner read/write only (0600): private keys, receiver state.
    OwnerOnly,
    /// World-readable (0644): certificates, CRLs, configuration.
    Public,
}

impl Access {
    fn mode(self) -> u32 {
        match self {
            Access::OwnerOnly => 0o600,
            Access::Public => 0o644,
        }
    }
}

/// The part of a temporary file's name that marks it as one: `.NAME.tmp-PID-N`.
const TEMP_MARK: &str = ".tmp-";

/// The name of the lock file [`DirLock`] holds in a directory.
pub const LOCK_FILE: &str = ".lock";

/// Whether a file name is one of our temporary files (left behind by an interrupted write).
pub fn is_temporary(name: &str) -> bool {
    name.starts_with('.') && name.contains(TEMP_MARK)
}

fn temporary_path(target: &Path) -> io::Result<PathBuf> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let name = target
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "file name is not UTF-8"))?;
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    Ok(target.with_file_name(format!(".{name}{TEMP_MARK}{}-{n}", std::process::id())))
}

fn parent(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Flushes a directory, so that a rename or link in it survives a crash.
pub fn sync_dir(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}

/// Writes `bytes` to a fresh temporary file beside `target` with `write` and flushes it.
/// On failure the temporary file is removed and the error returned.
fn write_temporary(
    target: &Path,
    bytes: &[u8],
    access: Access,
    write: impl FnOnce(&mut File, &[u8]) -> io::Result<()>,
) -> io::Result<PathBuf> {
    let tmp = temporary_path(target)?;
    let result = (|| {
        let mut f = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(access.mode())
            .open(&tmp)?;
        write(&mut f, bytes)?;
        f.sync_all()
    })();
    match result {
        Ok(()) => Ok(tmp),
        Err(e) => {
            let _ = fs::remove_file(&tmp);
            Err(e)
        }
    }
}

/// Replaces `target` (or creates it) with `bytes`, atomically and durably.
pub fn replace(target: &Path, bytes: &[u8], access: Access) -> io::Result<()> {
    replace_with(target, bytes, access, |f, b| f.write_all(b))
}

/// [`replace`] with the write itself given (the seam the tests use to make it fail).
fn replace_with(
    target: &Path,
    bytes: &[u8],
    access: Access,
    write: impl FnOnce(&mut File, &[u8]) -> io::Result<()>,
) -> io::Result<()> {
    let tmp = write_temporary(target, bytes, access, write)?;
    if let Err(e) = fs::rename(&tmp, target) {
        let _ = fs::remove_file(&tmp);
        return Err(e);
    }
    sync_dir(parent(target))
}

/// Creates `target` with `bytes`, durably; fails with [`io::ErrorKind::AlreadyExists`] when
/// it exists (nothing is overwritten, even by a concurrent writer).
pub fn create_new(target: &Path, bytes: &[u8], access: Access) -> io::Result<()> {
    create_new_with(target, bytes, access, |f, b| f.write_all(b))
}

fn create_new_with(
    target: &Path,
    bytes: &[u8],
    access: Access,
    write: impl FnOnce(&mut File, &[u8]) -> io::Result<()>,
) -> io::Result<()> {
    if fs::symlink_metadata(target).is_ok() {
        return Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            format!("{} exists", target.display()),
        ));
    }
    let tmp = write_temporary(target, bytes, access, write)?;
    // link(2) refuses an existing target: the no-overwrite check and the creation are one
    // step. The temporary name goes afterwards either way.
    let linked = fs::hard_link(&tmp, target);
    let _ = fs::remove_file(&tmp);
    linked?;
    sync_dir(parent(target))
}

/// Creates a directory and its missing parents, flushing each parent that gained an entry.
pub fn create_dir_all(dir: &Path) -> io::Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    if let Some(p) = dir.parent().filter(|p| !p.as_os_str().is_empty()) {
        create_dir_all(p)?;
    }
    match fs::create_dir(dir) {
        Ok(()) => sync_dir(parent(dir)),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists && dir.is_dir() => Ok(()),
        Err(e) => Err(e),
    }
}

/// An exclusive advisory lock on a directory (`DIR/.lock`), released when dropped.
#[derive(Debug)]
pub struct DirLock {
    file: File,
    path: PathBuf,
}

impl Drop for DirLock {
    fn drop(&mut self) {
        // Unlock explicitly rather than by closing: a child process forked meanwhile (by
        // another thread) shares the open file until it execs, and would keep the lock.
        let _ = rustix::fs::flock(&self.file, rustix::fs::FlockOperation::Unlock);
    }
}

/// Why a directory lock could not be taken.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    #[error("{} is held by another process (another v2x command is changing this directory); try again when it has finished", path.display())]
    Held { path: PathBuf },
    #[error("{}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
}

impl DirLock {
    /// Takes the lock of `dir` without waiting.
    pub fn acquire(dir: &Path) -> Result<DirLock, LockError> {
        let path = dir.join(LOCK_FILE);
        let io = |source| LockError::Io {
            path: path.clone(),
            source,
        };
        // O_NOFOLLOW: a `.lock` planted as a symlink must not make us create or lock (and
        // so hold open for writing) a file elsewhere; it fails with ELOOP instead.
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .mode(0o644)
            .custom_flags(rustix::fs::OFlags::NOFOLLOW.bits() as i32)
            .open(&path)
            .map_err(io)?;
        match rustix::fs::flock(&file, rustix::fs::FlockOperation::NonBlockingLockExclusive) {
            Ok(()) => Ok(DirLock { file, path }),
            Err(e) if e == rustix::io::Errno::WOULDBLOCK => Err(LockError::Held { path }),
            Err(e) => Err(io(e.into())),
        }
    }

    /// Takes the lock of `dir`, waiting up to `patience` for another holder to finish (for
    /// short changes made on the side, e.g. credentials created on first use).
    pub fn acquire_within(dir: &Path, patience: std::time::Duration) -> Result<DirLock, LockError> {
        let deadline = std::time::Instant::now() + patience;
        loop {
            match DirLock::acquire(dir) {
                Err(LockError::Held { .. }) if std::time::Instant::now() < deadline => {
                    std::thread::sleep(std::time::Duration::from_millis(20));
                }
                other => return other,
            }
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    /// A write that stops half-way with "no space left on device".
    fn disk_full(f: &mut File, b: &[u8]) -> io::Result<()> {
        f.write_all(&b[..b.len() / 2])?;
        Err(io::Error::from_raw_os_error(28))
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn a_failed_replace_leaves_the_old_file_and_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let crl = dir.path().join("crl.oer");
        replace(&crl, b"old CRL, every revocation", Access::Public).unwrap();
        let err = replace_with(&crl, b"new CRL, one more revocation", Access::Public, disk_full).unwrap_err();
        assert_eq!(err.raw_os_error(), Some(28));
        assert_eq!(fs::read(&crl).unwrap(), b"old CRL, every revocation");
        assert_eq!(names(dir.path()), ["crl.oer"]);
        replace(&crl, b"new", Access::Public).unwrap();
        assert_eq!(fs::read(&crl).unwrap(), b"new");
    }

    #[test]
    fn create_new_never_overwrites_and_sets_the_mode() {
        let dir = tempfile::tempdir().unwrap();
        let key = dir.path().join("key.pem");
        create_new(&key, b"first", Access::OwnerOnly).unwrap();
        let e = create_new(&key, b"second", Access::OwnerOnly).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::AlreadyExists);
        assert_eq!(fs::read(&key).unwrap(), b"first");
        assert_eq!(fs::metadata(&key).unwrap().permissions().mode() & 0o777, 0o600);
        let e = create_new_with(&dir.path().join("b.pem"), b"xx", Access::OwnerOnly, disk_full).unwrap_err();
        assert_eq!(e.raw_os_error(), Some(28));
        assert_eq!(names(dir.path()), ["key.pem"], "nothing half-written, no temporary");
        // A temporary file left by a crash is recognised by its name.
        assert!(is_temporary(
            temporary_path(&key).unwrap().file_name().unwrap().to_str().unwrap()
        ));
        assert!(!is_temporary("key.pem") && !is_temporary(LOCK_FILE));
    }

    /// Issue 27, item 7: on 726a8c9 the lock followed a symlink (and created its target).
    #[test]
    fn a_symlinked_lock_file_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let elsewhere = dir.path().join("elsewhere");
        std::os::unix::fs::symlink(&elsewhere, dir.path().join(LOCK_FILE)).unwrap();
        assert!(matches!(DirLock::acquire(dir.path()), Err(LockError::Io { .. })));
        assert!(!elsewhere.exists());
    }

    #[test]
    fn a_held_lock_is_refused_until_released() {
        let dir = tempfile::tempdir().unwrap();
        let a = DirLock::acquire(dir.path()).unwrap();
        // flock locks belong to the open file: a second open, as another process would do,
        // is refused.
        assert!(matches!(DirLock::acquire(dir.path()), Err(LockError::Held { .. })));
        drop(a);
        DirLock::acquire(dir.path()).unwrap();
        create_dir_all(&dir.path().join("a/b/c")).unwrap();
        assert!(dir.path().join("a/b/c").is_dir());
    }
}
