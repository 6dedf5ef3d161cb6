"""The stock distribution's parts come from PyPI as wheels (2.x) or, for the 1.20 line's
apache-flink-libraries, as a source distribution holding the same files under deps/."""

from __future__ import annotations

import io
import tarfile
import zipfile

from accelerator.testing import distribution


def _sdist(path, files: dict[str, bytes]):
    with tarfile.open(path, "w:gz") as archive:
        for name, data in files.items():
            info = tarfile.TarInfo(f"apache-flink-libraries-1.20.3/{name}")
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return path


def test_a_source_distribution_is_found_and_laid_out_like_the_wheel(tmp_path):
    packages = tmp_path / "packages"
    packages.mkdir()
    sdist = _sdist(packages / "apache-flink-libraries-1.20.3.tar.gz", {
        "deps/lib/flink-dist-1.20.3.jar": b"dist", "deps/opt/flink-python-1.20.3.jar": b"python",
        "deps/bin/bash-java-utils.jar": b"utils", "deps/plugins/metrics-jmx/flink-metrics-jmx-1.20.3.jar": b"jmx",
        "setup.py": b"", "pyflink/version.py": b"", "PKG-INFO": b""})
    with zipfile.ZipFile(packages / "apache_flink-1.20.3-cp311-cp311-manylinux1_x86_64.whl", "w") as wheel:
        wheel.writestr("pyflink/bin/config.sh", "#!/usr/bin/env bash\n")
        wheel.writestr("pyflink/conf/config.yaml", "jobmanager: {}\n")
        wheel.writestr("pyflink/datastream/__init__.py", "")

    found = [distribution.find_package(packages, f"{name}==1.20.3") for name in distribution.WHEELS]
    assert found[1] == sdist and found[0].suffix == ".whl"
    root = tmp_path / "flink"
    for package in found:
        distribution.extract_package(package, root)
    files = {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}
    assert files == {"lib/flink-dist-1.20.3.jar": b"dist", "opt/flink-python-1.20.3.jar": b"python",
                     "bin/bash-java-utils.jar": b"utils", "plugins/metrics-jmx/flink-metrics-jmx-1.20.3.jar": b"jmx",
                     "bin/config.sh": b"#!/usr/bin/env bash\n", "conf/config.yaml": b"jobmanager: {}\n"}
