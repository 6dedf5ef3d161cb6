"""`accelerator install-jar --flink-home DIR` on folders laid out like Flink distributions (and unlike them)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from accelerator import FLINK_VERSION, __version__, cli, flink_lines, install

JAR = flink_lines.JAR_2
JAR_120 = flink_lines.JAR_120
RELEASES_2 = "2.2.0, 2.2.1, 2.3.0"
RELEASES_120 = "1.20.0, 1.20.1, 1.20.2, 1.20.3, 1.20.4, 1.20.5"


def built(name: str) -> bytes:
    """The bytes of this release's jar `name`, as the package carries it (the checkout's build here)."""
    (jar,) = [j for j in install.packaged_jars() if j.name == name]
    return jar.read_bytes()


def distribution(root: Path, version: str = FLINK_VERSION) -> Path:
    """The parts of a Flink distribution install-jar looks at: bin/config.sh and lib/flink-dist-<version>.jar."""
    (root / "bin").mkdir(parents=True)
    (root / "bin" / "config.sh").write_text("#!/usr/bin/env bash\n")
    (root / "lib").mkdir()
    (root / "lib" / f"flink-dist-{version}.jar").write_bytes(b"PK")
    (root / "lib" / "flink-json-2.2.1.jar").write_bytes(b"PK")
    return root


def install_jar(flink_home: Path, capsys) -> tuple[int, str, str]:
    code = cli.main(["install-jar", "--flink-home", str(flink_home)])
    out, err = capsys.readouterr()
    return code, out, err


def test_places_the_packaged_jar_and_prints_the_interpreter_to_set(tmp_path, capsys):
    home = distribution(tmp_path / "flink")
    code, out, err = install_jar(home, capsys)
    assert (code, err) == (0, "")
    assert (home / "lib" / JAR).read_bytes() == built(JAR)
    assert f"installed {home / 'lib' / JAR}" in out
    assert f"  accelerator.python.executable: {sys.executable}\n" in out
    assert "  accelerator.enabled: true\n" in out


def test_replaces_an_older_release_and_keeps_other_jars(tmp_path, capsys):
    home = distribution(tmp_path / "flink")
    lib = home / "lib"
    (lib / "flink-accelerator-0.0.9.jar").write_bytes(b"old")
    (lib / "flink-accelerator-compat-messages.jar").write_bytes(b"a user's jar")
    (lib / JAR).write_bytes(b"a stale copy of this release")
    code, out, _ = install_jar(home, capsys)
    assert code == 0
    assert sorted(p.name for p in lib.iterdir()) == sorted(
        [f"flink-dist-{FLINK_VERSION}.jar", "flink-json-2.2.1.jar", "flink-accelerator-compat-messages.jar", JAR])
    assert (lib / JAR).read_bytes() == built(JAR)
    assert f"removed {lib / 'flink-accelerator-0.0.9.jar'}" in out


@pytest.mark.parametrize(("version", "jar"), [("2.2.0", JAR), ("2.2.1", JAR), ("2.3.0", JAR),
                                              ("1.20.0", JAR_120), ("1.20.3", JAR_120), ("1.20.5", JAR_120)])
def test_installs_the_jar_of_the_distributions_flink_line(tmp_path, capsys, version, jar):
    home = distribution(tmp_path / "flink", version=version)
    code, out, err = install_jar(home, capsys)
    assert (code, err) == (0, "")
    assert [p.name for p in (home / "lib").iterdir() if p.name.startswith("flink-accelerator")] == [jar]
    assert (home / "lib" / jar).read_bytes() == built(jar)
    assert version in install.supported_flink_versions(home / "lib" / jar)


@pytest.mark.parametrize(("version", "stale", "jar"), [("1.20.3", JAR, JAR_120), ("2.2.1", JAR_120, JAR)])
def test_replaces_the_other_lines_jar(tmp_path, capsys, version, stale, jar):
    """A distribution moved to the other Flink line (or given the wrong jar by hand) ends with the right one only."""
    home = distribution(tmp_path / "flink", version=version)
    (home / "lib" / stale).write_bytes(built(stale))
    code, out, _ = install_jar(home, capsys)
    assert code == 0
    assert [p.name for p in (home / "lib").iterdir() if p.name.startswith("flink-accelerator")] == [jar]
    assert f"removed {home / 'lib' / stale}" in out


@pytest.mark.parametrize("version", ["2.3.1", "2.1.1", "1.19.3", "1.20-SNAPSHOT"])
def test_refuses_another_flink_version_and_changes_nothing(tmp_path, capsys, version):
    home = distribution(tmp_path / "flink", version=version)
    (home / "lib" / "flink-accelerator-0.0.9.jar").write_bytes(b"old")
    code, out, err = install_jar(home, capsys)
    assert code == 2 and out == ""
    assert (f"{home} is Flink {version}; flink-accelerator {__version__} supports Flink {RELEASES_2} ({JAR});"
            f" {RELEASES_120} ({JAR_120}) only") in err, err
    assert sorted(p.name for p in (home / "lib").iterdir()) == [
        "flink-accelerator-0.0.9.jar", f"flink-dist-{version}.jar", "flink-json-2.2.1.jar"]


@pytest.mark.parametrize("layout", ["empty", "no_dist_jar", "lib_only"])
def test_refuses_a_folder_that_is_no_flink_distribution(tmp_path, capsys, layout):
    home = tmp_path / "flink"
    if layout == "no_dist_jar":
        distribution(home)
        (home / "lib" / f"flink-dist-{FLINK_VERSION}.jar").unlink()
    elif layout == "lib_only":
        (home / "lib").mkdir(parents=True)
        (home / "lib" / f"flink-dist-{FLINK_VERSION}.jar").write_bytes(b"PK")
    else:
        home.mkdir()
    code, out, err = install_jar(home, capsys)
    assert code == 2 and out == ""
    assert f"accelerator install-jar: {home} is not a Flink distribution" in err, err
    assert not list(home.rglob("flink-accelerator-*.jar"))
