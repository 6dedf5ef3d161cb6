"""The pieces `make setup` provides, checked where they are used."""

import os
import re
import subprocess
import sys
import zipfile

import yaml

import accelerator
from accelerator.testing import distribution, locations


def test_cli_reports_its_version():
    out = subprocess.run([sys.executable, "-m", "accelerator", "--version"], capture_output=True,
                         text=True, check=True).stdout
    assert out.strip() == f"flink-accelerator {accelerator.__version__} (Flink {accelerator.FLINK_VERSION})"


def test_jar_version_matches_python_package():
    pom = (locations.REPO_ROOT / "java-shim" / "pom.xml").read_text()
    assert re.search(r"<artifactId>flink-accelerator</artifactId>\s*(<!--.*?-->\s*)?<version>([^<]+)</version>",
                     pom, re.S).group(2) == accelerator.__version__
    with zipfile.ZipFile(locations.shim_jar()) as jar:
        properties = jar.read("flink-accelerator.properties").decode()
    assert f"version={accelerator.__version__}" in properties
    assert f"flink.version={accelerator.FLINK_VERSION}" in properties


def test_shim_jar_relocates_everything_it_bundles():
    with zipfile.ZipFile(locations.shim_jar()) as jar:
        classes = [n for n in jar.namelist() if n.endswith(".class")]
    # The one intended exception: the shim's stand-in for Flink's PlannerModule (the planner hook).
    hook = re.compile(r"org/apache/flink/table/planner/loader/PlannerModule(\$[\w$]+)?\.class")
    stray = [n for n in classes if not n.startswith("org/flinkaccelerator/") and not hook.fullmatch(n)]
    assert classes and not stray, stray[:10]


def test_flink_distribution_is_laid_out_like_the_official_tarball():
    home = locations.flink_home()
    for folder in ("bin", "conf", "lib", "opt", "log", "plugins"):
        assert (home / folder).is_dir() and not (home / folder).is_symlink(), folder
    for script in ("start-cluster.sh", "stop-cluster.sh", "sql-client.sh", "flink", "config.sh"):
        assert os.access(home / "bin" / script, os.X_OK), script
    assert (home / "bin" / "bash-java-utils.jar").is_file()
    lib = {p.name for p in (home / "lib").iterdir()}
    v = locations.flink_version()
    assert {f"flink-dist-{v}.jar", f"flink-table-planner-loader-{v}.jar", f"flink-json-{v}.jar",
            "flink-sql-connector-kafka-5.0.0-2.2.jar"} <= lib
    # What a user adds for the avro and protobuf formats, and the compatibility cases' message classes
    # (flink-protobuf has x.y.0 releases only: 2.2.0 serves 2.2.1).
    protobuf_format = f"flink-protobuf-{v.rsplit('.', 1)[0]}.0.jar"
    assert {f"flink-avro-{v}.jar", protobuf_format, "protobuf-java-4.32.1.jar", distribution.MESSAGES_JAR} <= lib
    with zipfile.ZipFile(home / "lib" / distribution.MESSAGES_JAR) as jar:
        assert {"acc/compat/Bid.class", "acc/compat/OrdersProto$Order.class"} <= set(jar.namelist())
    assert (home / "opt" / f"flink-sql-gateway-{v}.jar").is_file()
    config = yaml.safe_load((home / "conf" / "config.yaml").read_text())
    assert config["jobmanager"]["rpc"]["address"] == "localhost"  # the stock file, unmodified
