//! UCI conformance of `arbiter uci`, checked by python-chess (`tests/uci_conformance.py`).

use std::process::Command;

#[test]
fn python_chess_conformance() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/uci_conformance.py");
    let output = Command::new("python3")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_arbiter"))
        .output()
        .expect("python3 must be installed to run the UCI conformance test");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.code() != Some(3),
        "python-chess is missing: run `pip install chess`, then `cargo test --test uci` (see README)\n{stderr}"
    );
    assert!(output.status.success(), "UCI conformance failed\nstdout:\n{stdout}\nstderr:\n{stderr}");
    assert!(stdout.contains("uci conformance: ok"), "{stdout}");
}
