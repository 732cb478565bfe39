//! What several integration tests share: the path of the misbehaving test engine (`tests/engines/faulty_engine.rs`,
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
