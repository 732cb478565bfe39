//! Shards that share one SPRT decision (`--shard I/N` with `--sprt`): shards played at once stop together when
//! the combined LLR crosses a bound (`RUN/decision.toml`), a shard started after the decision plays nothing,
//! `arbiter merge` reports the decision, and `arbiter status` reads the run as it stands.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const ARBITER: &str = env!("CARGO_BIN_EXE_arbiter");

fn dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("shared-sprt-tests").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create the test folder");
    dir
}

fn text(out: &Output) -> String {
    format!("stdout:\n{}\nstderr:\n{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

/// The command of shard `i` of `n` of the run in `run` (seed against nomob: the SPRT decides within a few
/// hundred games at 300 nodes).
fn shard(run: &Path, i: u32, n: u32) -> Command {
    let mut command = Command::new(ARBITER);
    command.args(["match", "--engine", "name=seed", "--engine", "name=nomob", "--nodes", "300", "--games", "4000"]);
    command.args(["--sprt", "elo0=0,elo1=10", "--concurrency", "1", "--shard", &format!("{i}/{n}"), "--out"]);
    command.arg(run.join(format!("shard-{i}")));
    command
}

/// Games recorded in a shard's folder.
fn games(shard: &Path) -> usize {
    std::fs::read_to_string(shard.join("games.csv")).map_or(0, |t| t.lines().count().saturating_sub(1))
}

#[test]
fn shards_played_at_once_stop_together_and_merge_gives_their_decision() {
    let run = dir("together").join("run");
    // The three shards play at once.
    let children: Vec<_> = (1..=3)
        .map(|i| {
            let mut command = shard(&run, i, 3);
            command.stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::piped());
            command.spawn().expect("start a shard")
        })
        .collect();
    for child in children {
        let out = child.wait_with_output().expect("wait for a shard");
        assert_eq!(out.status.code(), Some(0), "{}", text(&out));
        assert!(String::from_utf8_lossy(&out.stderr).contains("SPRT (all shards): H1 accepted"), "{}", text(&out));
    }
    let decision = std::fs::read_to_string(run.join("decision.toml")).expect("decision.toml written");
    assert!(decision.contains("decision = \"H1 accepted\""), "{decision}");
    for i in 1..=3 {
        let shard_dir = run.join(format!("shard-{i}"));
        let played = games(&shard_dir);
        assert!(played > 0 && played < 2 * 667, "shard {i} played {played} games: some, and fewer than its part");
        let log = std::fs::read_to_string(shard_dir.join("match.log")).unwrap_or_default();
        let summary = std::fs::read_to_string(shard_dir.join("summary.txt")).unwrap();
        assert!(summary.contains("H1 accepted by the run's shards together"), "{summary}\n{log}");
    }
    let merged =
        Command::new(ARBITER).arg("merge").args((1..=3).map(|i| run.join(format!("shard-{i}")))).output().unwrap();
    assert_eq!(merged.status.code(), Some(0), "{}", text(&merged));
    let summary = String::from_utf8_lossy(&merged.stdout);
    assert!(summary.contains("decision    H1 accepted"), "{}", text(&merged));
    let status = Command::new(ARBITER).args(["status"]).arg(&run).output().unwrap();
    assert_eq!(status.status.code(), Some(0), "{}", text(&status));
    let shown = String::from_utf8_lossy(&status.stdout);
    assert!(shown.contains("decision    H1 accepted after"), "{shown}");
    assert!(shown.contains("shard-3") && shown.contains("not playing"), "{shown}");
}

#[test]
fn a_shard_started_after_the_decision_plays_nothing() {
    let run = dir("late").join("run");
    // Shard 1 alone: its pairs are all the run has, and they decide.
    let first = shard(&run, 1, 2).output().unwrap();
    assert_eq!(first.status.code(), Some(0), "{}", text(&first));
    assert!(run.join("decision.toml").exists(), "{}", text(&first));
    let status = Command::new(ARBITER).arg("status").arg(&run).output().unwrap();
    assert!(String::from_utf8_lossy(&status.stdout).contains("no folder holds shard(s) 2/2 yet"), "{}", text(&status));
    let late = shard(&run, 2, 2).output().unwrap();
    assert_eq!(late.status.code(), Some(0), "{}", text(&late));
    assert!(String::from_utf8_lossy(&late.stderr).contains("the run's SPRT already decided"), "{}", text(&late));
    assert_eq!(games(&run.join("shard-2")), 0);
    // So does a resume of a shard after it.
    let resumed = Command::new(ARBITER).args(["match", "--resume"]).arg(run.join("shard-1")).output().unwrap();
    assert_eq!(resumed.status.code(), Some(0), "{}", text(&resumed));
    assert!(String::from_utf8_lossy(&resumed.stderr).contains("the run's SPRT already decided"), "{}", text(&resumed));
    let merged = Command::new(ARBITER).arg("merge").arg(run.join("shard-1")).arg(run.join("shard-2")).output().unwrap();
    assert_eq!(merged.status.code(), Some(0), "{}", text(&merged));
    assert!(String::from_utf8_lossy(&merged.stdout).contains("decision    H1 accepted"), "{}", text(&merged));
}

#[test]
fn status_reads_an_unsharded_run_and_refuses_a_folder_without_one() {
    let d = dir("status");
    let out = d.join("run");
    let played = Command::new(ARBITER)
        .args(["match", "--engine", "name=seed", "--engine", "name=nomob", "--nodes", "300", "--games", "6", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(played.status.code(), Some(0), "{}", text(&played));
    let status = Command::new(ARBITER).arg("status").arg(&out).output().unwrap();
    assert_eq!(status.status.code(), Some(0), "{}", text(&status));
    assert!(String::from_utf8_lossy(&status.stdout).contains("combined    6 games"), "{}", text(&status));
    let empty = Command::new(ARBITER).arg("status").arg(&d).output().unwrap();
    assert_eq!(empty.status.code(), Some(2), "{}", text(&empty));
    assert!(String::from_utf8_lossy(&empty.stderr).contains("no run here"), "{}", text(&empty));
}

/// Hostile folders: a garbage `decision.toml` is ignored with one warning and the shards still stop at the
/// bound; an edited decision is refused by merge; a copied shard folder is counted once, with a warning.
#[test]
fn damaged_decisions_and_copied_shards_are_not_trusted() {
    let run = dir("hostile").join("run");
    std::fs::create_dir_all(&run).unwrap();
    std::fs::write(run.join("decision.toml"), "garbage!!! [[").unwrap();
    let alone = shard(&run, 1, 2).output().unwrap();
    assert_eq!(alone.status.code(), Some(0), "{}", text(&alone));
    let stderr = String::from_utf8_lossy(&alone.stderr);
    assert_eq!(stderr.matches("it is ignored").count(), 1, "one warning: {stderr}");
    assert!(stderr.contains("SPRT (all shards): H1 accepted"), "still stops at the bound: {stderr}");
    assert!(games(&run.join("shard-1")) < 2 * 1000, "stopped before its part ended");
    // A decision that does not hold together is refused by merge (exit 2).
    std::fs::remove_file(run.join("decision.toml")).unwrap();
    let second = shard(&run, 2, 2).output().unwrap();
    assert_eq!(second.status.code(), Some(0), "{}", text(&second));
    let written = std::fs::read_to_string(run.join("decision.toml")).expect("the second shard decided");
    std::fs::write(run.join("decision.toml"), written.replace("decision = \"H1 accepted\"", "decision = \"maybe\""))
        .unwrap();
    let merged = Command::new(ARBITER)
        .arg("merge")
        .arg(run.join("shard-1"))
        .arg(run.join("shard-2"))
        .arg("--out")
        .arg(run.join("m"))
        .output()
        .unwrap();
    assert_eq!(merged.status.code(), Some(2), "{}", text(&merged));
    assert!(String::from_utf8_lossy(&merged.stderr).contains("is neither"), "{}", text(&merged));
    std::fs::write(run.join("decision.toml"), &written).unwrap();
    // A copy of a shard's folder under another name is left out, with a warning.
    let copy = run.join("shard-1-copy");
    std::fs::create_dir_all(&copy).unwrap();
    for file in ["run.toml", "games.csv"] {
        std::fs::copy(run.join("shard-1").join(file), copy.join(file)).unwrap();
    }
    let status = Command::new(ARBITER).arg("status").arg(&run).output().unwrap();
    assert_eq!(status.status.code(), Some(0), "{}", text(&status));
    let shown = String::from_utf8_lossy(&status.stdout);
    assert!(shown.contains("which") && shown.contains("holds already: left out"), "{shown}");
    let counted = games(&run.join("shard-1")) + games(&run.join("shard-2"));
    assert!(shown.contains(&format!("combined    {counted} games")), "{shown}");
}
