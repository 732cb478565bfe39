//! What several integration tests share: scratch folders, running `arbiter` and python scripts, and the path of
//! the misbehaving test engine (`tests/engines/faulty_engine.rs`,
//! built as the `faulty-engine` example).

use std::path::{Path, PathBuf};
use std::process::Command;

/// The `faulty-engine` example beside the `arbiter` binary, built first (in the same profile) if this test
/// target was built alone.
pub fn faulty_engine() -> PathBuf {
    let arbiter = Path::new(env!("CARGO_BIN_EXE_arbiter"));
    let profile_dir = arbiter.parent().expect("the binary is in a profile folder");
    let path = profile_dir.join("examples").join("faulty-engine");
    if !path.exists() {
        let mut cargo = Command::new(env!("CARGO"));
        cargo.args(["build", "--example", "faulty-engine"]).current_dir(env!("CARGO_MANIFEST_DIR"));
        if profile_dir.file_name().is_some_and(|n| n == "release") {
            cargo.arg("--release");
        }
        let status = cargo.status().expect("run cargo to build the faulty engine");
        assert!(status.success(), "cargo build --example faulty-engine failed");
    }
    path
}

/// A fresh, empty folder `name` under `target/tmp/GROUP` for one test.
pub fn scratch_in(group: &str, name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(group).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create the scratch folder");
    dir
}

/// Bytes of a process's output as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs the `arbiter` binary with `args`.
pub fn arbiter(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_arbiter")).args(args).output().expect("run the arbiter binary")
}

/// Runs a python script of the test set and returns its stdout; fails (never skips) when python3 or
/// python-chess is missing or the script fails.
pub fn python(args: &[&str]) -> String {
    let out = Command::new("python3").args(args).output().expect("python3 must be installed (README's test command)");
    assert!(out.status.success(), "python3 {args:?}:\n{}{}", text(&out.stdout), text(&out.stderr));
    text(&out.stdout)
}
