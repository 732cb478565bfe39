//! Run-time choice of the code path for the CPU the binary runs on.
//!
//! `cargo build --release` targets generic x86-64 (SSE2: no `popcnt`, no BMI), which leaves a fifth of perft's
//! speed and a tenth of the search's on the table against `-C target-cpu=native`; a native binary, though, cannot
//! be copied to the older nodes of a cluster. So the hot functions (move generation, make and unmake, attack
//! sets, perft, the search's `negamax` and `qsearch`, the evaluation) are compiled twice by `versions!`: for
//! the target's baseline and for x86-64-v3 (AVX2, BMI1, BMI2, FMA, LZCNT, MOVBE, POPCNT: Intel Haswell and AMD
//! Excavator onwards). `dispatch!` calls the copy of the process's [`path`].
//!
//! The two copies are the same source, so they count the same nodes and search the same trees: only the
//! instructions differ. `ARBITER_CPU=generic` forces the generic path (the tests run both on any machine);
//! `arbiter --version` and `arbiter bench` say which path runs (docs/benchmarks.md, "Code paths").
//!
//! Each copy is a function with the original's arguments (so the optimiser keeps what it knows of them: a
//! `&mut` aliases nothing else) whose body is the original's `#[inline(always)]` body; a recursive function
//! calls its own copy, by the name `versions!` binds, and pays no dispatch per node.

use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

/// The code path this process runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Path {
    /// Generic code for the build's target.
    Generic,
    /// x86-64-v3 code.
    X86_64V3,
}

/// What `ARBITER_CPU` may say.
pub const ENV: &str = "ARBITER_CPU";

impl Path {
    /// The path's name, as `--version` and `bench` print it.
    pub fn name(self) -> &'static str {
        match self {
            Path::Generic => "generic",
            Path::X86_64V3 => "x86-64-v3",
        }
    }

    /// The path's features, for `--version`.
    pub fn features(self) -> &'static str {
        match self {
            Path::Generic if cfg!(target_arch = "x86_64") => "sse2",
            Path::Generic => "the target's baseline",
            Path::X86_64V3 => "avx2 bmi1 bmi2 fma lzcnt movbe popcnt",
        }
    }

    /// The path for this CPU and a value of `ARBITER_CPU`: `None`, empty or `auto` detects the best path,
    /// `generic` forces the generic one, `x86-64-v3` asks for v3 and fails where the CPU lacks a feature.
    pub fn detect(setting: Option<&str>) -> Result<Path, String> {
        let best = best_path();
        match setting.map(str::trim).unwrap_or("") {
            "" | "auto" => Ok(best),
            "generic" => Ok(Path::Generic),
            "x86-64-v3" if best == Path::X86_64V3 => Ok(best),
            "x86-64-v3" => {
                Err(format!("{ENV}=x86-64-v3: this CPU lacks a feature of x86-64-v3 ({})", Path::X86_64V3.features()))
            }
            other => Err(format!("{ENV}={other:?}: expected auto, generic or x86-64-v3")),
        }
    }
}

#[cfg(target_arch = "x86_64")]
fn best_path() -> Path {
    let v3 = is_x86_feature_detected!("avx2")
        && is_x86_feature_detected!("bmi1")
        && is_x86_feature_detected!("bmi2")
        && is_x86_feature_detected!("fma")
        && is_x86_feature_detected!("lzcnt")
        && is_x86_feature_detected!("movbe")
        && is_x86_feature_detected!("popcnt");
    if v3 { Path::X86_64V3 } else { Path::Generic }
}

#[cfg(not(target_arch = "x86_64"))]
fn best_path() -> Path {
    Path::Generic
}

/// The chosen path: 0 before the first use, else 1 + the `Path` (one relaxed load per dispatch).
static PATH: AtomicU8 = AtomicU8::new(0);

fn store(p: Path) -> Path {
    PATH.store(1 + p as u8, Relaxed);
    p
}

/// The path this process runs: chosen once, from `ARBITER_CPU` and the CPU. An invalid `ARBITER_CPU` is
/// refused by [`init`] at start-up; a library user who skips `init` gets the detected path for it.
#[inline(always)]
pub fn path() -> Path {
    match PATH.load(Relaxed) {
        1 => Path::Generic,
        2 => Path::X86_64V3,
        _ => first_use(),
    }
}

#[cold]
#[inline(never)]
fn first_use() -> Path {
    store(from_env().unwrap_or_else(|_| best_path()))
}

/// The path `ARBITER_CPU` and this CPU give.
fn from_env() -> Result<Path, String> {
    Path::detect(std::env::var(ENV).ok().as_deref())
}

/// Chooses the path from `ARBITER_CPU` at start-up; an error names the variable and its value.
pub fn init() -> Result<Path, String> {
    from_env().map(store)
}

/// Defines a hot function's two copies: `$v3`, compiled for x86-64-v3 (on x86-64 only), and `$generic`, for
/// the target's baseline. Both run `$body` (best an `#[inline(always)]` function's call, so that the source is
/// written once); inside it, the name after `as` is the copy itself, for recursion without a dispatch.
macro_rules! versions {
    ($($(#[$m:meta])* fn $v3:ident, $generic:ident $(<$($g:ident: $b:path),*>)? ($($a:ident: $t:ty),*) -> $r:ty
        $(as $rec:ident)? $body:block)*) => {$(
        $(#[$m])*
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx,avx2,bmi1,bmi2,fma,lzcnt,movbe,popcnt")]
        fn $v3 $(<$($g: $b),*>)? ($($a: $t),*) -> $r {
            $(#[allow(unused_imports)] use $v3 as $rec;)?
            $body
        }
        $(#[$m])*
        #[inline(never)]
        fn $generic $(<$($g: $b),*>)? ($($a: $t),*) -> $r {
            $(#[allow(unused_imports)] use $generic as $rec;)?
            $body
        }
    )*};
}

/// Calls the copy of a function that `versions!` defined for this process's [`path`] (x86-64-v3 where the CPU
/// has it, else generic).
macro_rules! dispatch {
    ($v3:path, $generic:path, ($($a:expr),*)) => {{
        #[cfg(target_arch = "x86_64")]
        let chosen = if $crate::cpu::path() == $crate::cpu::Path::X86_64V3 {
            // SAFETY: `$v3` needs the features of x86-64-v3, and the path is `X86_64V3` only where
            // `Path::detect` found each of them on this CPU with `is_x86_feature_detected!`.
            unsafe { $v3($($a),*) }
        } else {
            $generic($($a),*)
        };
        #[cfg(not(target_arch = "x86_64"))]
        let chosen = $generic($($a),*);
        chosen
    }};
}

pub(crate) use {dispatch, versions};

#[cfg(test)]
mod tests {
    use super::*;

    versions! {
        fn ones_v3, ones_generic (n: u64) -> u64 as ones {
            if n == 0 { 0 } else { u64::from(n.count_ones()) + ones(n - 1) }
        }
    }

    fn ones_dispatched(n: u64) -> u64 {
        dispatch!(ones_v3, ones_generic, (n))
    }

    #[test]
    fn both_paths_agree() {
        assert_eq!(ones_dispatched(1000), ones_generic(1000));
        assert_eq!(ones_generic(4), 1 + 1 + 2 + 1);
    }

    #[test]
    fn settings() {
        assert_eq!(Path::detect(Some("generic")), Ok(Path::Generic));
        assert_eq!(Path::detect(None), Ok(best_path()));
        assert_eq!(Path::detect(Some("auto")), Ok(best_path()));
        let bad = Path::detect(Some("avx9")).unwrap_err();
        assert!(bad.contains("ARBITER_CPU=\"avx9\""), "{bad}");
    }
}
