"""Flink's own `protobuf` format (flink-protobuf 2.2.0 from Maven Central) hosted through JPype,
for .proto files compiled at test time: the oracle the accelerated protobuf format must match.

`compile_protos` runs protoc (com.google.protobuf:protoc, the version flink-protobuf is built
with) on the given .proto files: Java sources compiled with javac against protobuf-java, plus the
FileDescriptorSet (`--include_imports`) the sidecar receives. Everything is cached under
`.cache/protobuf-oracle/<hash of the inputs>/`. Flink's format, protobuf-java and the compiled
classes are loaded by one URLClassLoader over the running Flink JVM (see flink_oracle), since
flink-protobuf generates and compiles its converters against the message classes it can see.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import zipfile
from dataclasses import dataclass
from pathlib import Path

from accelerator.testing import flink_oracle, locations
from accelerator.testing.flink_oracle import Decoded, _exception_text, _kafka_row, to_internal

FLINK_PROTOBUF = ("org.apache.flink", "flink-protobuf", "2.2.0")
#: flink-protobuf 2.2.0 depends on protobuf-java 4.32.1; protoc of the same release writes its gencode.
PROTOBUF_JAVA = ("com.google.protobuf", "protobuf-java", "4.32.1")
PROTOC = ("com.google.protobuf", "protoc", "4.32.1")
PREFIX = "protobuf."


def _m2() -> Path:
    return Path(os.environ.get("MAVEN_REPOSITORY", Path.home() / ".m2" / "repository"))


def _artifact(coords: tuple[str, str, str], classifier: str = "", ext: str = "jar") -> Path:
    """The artifact in the local Maven repository, fetched with `mvn dependency:get` if missing."""
    group, name, version = coords
    file = f"{name}-{version}" + (f"-{classifier}" if classifier else "") + f".{ext}"
    path = _m2() / group.replace(".", "/") / name / version / file
    if not path.exists():
        spec = f"{group}:{name}:{version}:{ext}" + (f":{classifier}" if classifier else "")
        subprocess.run(["mvn", "-B", "-q", "dependency:get", f"-Dartifact={spec}", "-Dtransitive=false"],
                       check=True)
    return path


@dataclass(frozen=True)
class CompiledProtos:
    """protoc's output for some .proto files: compiled Java classes and the descriptor set."""

    classes: Path
    descriptor_set: bytes


def compile_protos(proto_dir: Path, files: list[str], release: str = PROTOC[2]) -> CompiledProtos:
    """Compile `files` (relative to `proto_dir`) with protoc and protobuf-java `release` once per content;
    reuse the cached result."""
    protoc_coords, runtime_coords = (*PROTOC[:2], release), (*PROTOBUF_JAVA[:2], release)
    digest = hashlib.sha256(release.encode())
    for name in sorted(files):
        digest.update(name.encode() + b"\0" + (proto_dir / name).read_bytes())
    out = locations.cache_dir() / "protobuf-oracle" / digest.hexdigest()[:16]
    done = out / ".done"
    if not done.exists():
        if out.exists():
            shutil.rmtree(out)
        (out / "java").mkdir(parents=True)
        (out / "classes").mkdir()
        protoc = _artifact(protoc_coords, "linux-x86_64", "exe")
        protoc.chmod(0o755)
        # protoc from Maven comes without the well-known types; protobuf-java carries their .proto files.
        with zipfile.ZipFile(_artifact(runtime_coords)) as jar:
            jar.extractall(out / "include", [n for n in jar.namelist() if n.endswith(".proto")])
        subprocess.run([str(protoc), f"--proto_path={proto_dir}", f"--proto_path={out / 'include'}",
                        f"--java_out={out / 'java'}",
                        f"--descriptor_set_out={out / 'descriptors.pb'}", "--include_imports", *files],
                       check=True)
        sources = [str(p) for p in (out / "java").rglob("*.java")]
        subprocess.run(["javac", "-nowarn", "-encoding", "UTF-8", "-d", str(out / "classes"),
                        "-cp", str(_artifact(runtime_coords)), *sources], check=True)
        done.touch()
    return CompiledProtos(out / "classes", (out / "descriptors.pb").read_bytes())


_loaders: dict[Path, object] = {}


def _loader(classes: Path):
    """One class loader per compiled set: flink-protobuf, protobuf-java and the message classes."""
    if classes not in _loaders:
        j = flink_oracle.java()
        jp = j.jpype
        urls = [jp.JClass("java.io.File")(str(p)).toURI().toURL()
                for p in (_artifact(FLINK_PROTOBUF), _artifact(PROTOBUF_JAVA), classes)]
        URL = jp.JClass("java.net.URL")
        _loaders[classes] = jp.JClass("java.net.URLClassLoader")(jp.JArray(URL)(urls), j.loader)
    return _loaders[classes]


class _WithLoader:
    """Runs Flink's protobuf code with the compiled classes as the thread's context class loader
    (flink-protobuf looks the message class up there)."""

    def __init__(self, loader):
        self.loader = loader

    def __enter__(self):
        thread = flink_oracle.java().jpype.JClass("java.lang.Thread").currentThread()
        self.previous = thread.getContextClassLoader()
        thread.setContextClassLoader(self.loader)

    def __exit__(self, *exc):
        flink_oracle.java().jpype.JClass("java.lang.Thread").currentThread().setContextClassLoader(self.previous)


def _factory(loader):
    j = flink_oracle.java()
    cls = j.jpype.JClass("java.lang.Class").forName("org.apache.flink.formats.protobuf.PbFormatFactory", True, loader)
    return cls.getDeclaredConstructor().newInstance()


class ProtobufSerializer:
    """Flink's `protobuf` encoder (PbRowDataSerializationSchema from PbFormatFactory)."""

    def __init__(self, compiled: CompiledProtos, row_type: str, options: dict[str, str]):
        j = flink_oracle.java()
        self._loader = _loader(compiled.classes)
        self._type = _kafka_row(row_type)
        data_type = j.TypeConversions.fromLogicalToDataType(self._type)
        with _WithLoader(self._loader):
            encoding = _factory(self._loader).createEncodingFormat(
                None, flink_oracle._format_config(options, PREFIX))
            self._schema = encoding.createRuntimeEncoder(None, data_type)
            self._schema.open(None)

    def serialize(self, rows: list[tuple]) -> list[bytes | str]:
        """The bytes Flink writes for each row, or the text of the exception it throws."""
        j = flink_oracle.java()
        flink_oracle.HANDLED["protobuf"] += len(rows)
        out = []
        with _WithLoader(self._loader):
            for row in rows:
                try:
                    out.append(bytes(self._schema.serialize(to_internal(self._type, row))))
                except j.jpype.JException as e:
                    out.append(_exception_text(e))
        return out


class ProtobufDeserializer:
    """Flink's `protobuf` decoder (PbRowDataDeserializationSchema from PbFormatFactory)."""

    def __init__(self, compiled: CompiledProtos, row_type: str, options: dict[str, str]):
        j = flink_oracle.java()
        self._loader = _loader(compiled.classes)
        self._type = _kafka_row(row_type)
        data_type = j.TypeConversions.fromLogicalToDataType(self._type)
        with _WithLoader(self._loader):
            decoding = _factory(self._loader).createDecodingFormat(
                None, flink_oracle._format_config(options, PREFIX))
            self._schema = decoding.createRuntimeDecoder(j.source_context, data_type)
            self._schema.open(None)

    def deserialize(self, messages: list[bytes | None]) -> list[Decoded]:
        flink_oracle.HANDLED["protobuf"] += len(messages)
        with _WithLoader(self._loader):
            return flink_oracle.deserialize_each(self._schema, self._type, messages)
