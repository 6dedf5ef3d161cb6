"""The sidecar runs nothing from message content: no module of the code that touches message bytes
(the sidecar, the formats, the plans) evaluates code, unpickles, or starts programs. A static
check, so a change that adds one fails here and has to argue its case."""

from __future__ import annotations

import ast
from pathlib import Path

import accelerator

PACKAGES = ("sidecar", "formats", "plans")
FORBIDDEN_BUILTINS = {"eval", "exec", "compile", "__import__", "execfile", "input"}
FORBIDDEN_MODULES = {"pickle", "cPickle", "_pickle", "marshal", "shelve", "dill", "cloudpickle", "subprocess",
                     "pty", "code", "codeop", "runpy"}
FORBIDDEN_ATTRIBUTES = {("os", "system"), ("os", "popen"), ("os", "execv"), ("os", "execve"), ("os", "execvp"),
                        ("os", "spawnv"), ("os", "posix_spawn"), ("yaml", "load"), ("yaml", "unsafe_load"),
                        ("pa", "PyExtensionType"), ("pyarrow", "PyExtensionType")}


def offences(source: str, filename: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        where = f"{filename}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in FORBIDDEN_BUILTINS:
            found.append(f"{where}: calls {node.func.id}()")
        elif isinstance(node, ast.Import):
            found += [f"{where}: imports {a.name}" for a in node.names if a.name.split(".")[0] in FORBIDDEN_MODULES]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in FORBIDDEN_MODULES:
            found.append(f"{where}: imports from {node.module}")
        elif (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
              and (node.value.id, node.attr) in FORBIDDEN_ATTRIBUTES):
            found.append(f"{where}: uses {node.value.id}.{node.attr}")
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr == "import_module" and not all(isinstance(a, ast.Constant) for a in node.args)):
            found.append(f"{where}: imports a module whose name is computed at run time")
    return found


def test_no_module_that_handles_messages_can_run_code_from_them():
    root = Path(accelerator.__file__).parent
    files = [f for package in PACKAGES for f in sorted((root / package).rglob("*.py"))]
    assert len(files) > 10, files
    found = [o for f in files for o in offences(f.read_text(encoding="utf-8"), str(f.relative_to(root.parent)))]
    assert found == []


def test_the_check_finds_each_kind_of_offence():
    source = ("import pickle\nfrom subprocess import run\nimport importlib, os, yaml\n"
              "eval(x)\nos.system(x)\nyaml.load(x)\nimportlib.import_module(name)\nimportlib.import_module('ok')\n"
              "re.compile('fine')\n")
    assert sorted(o.split(": ", 1)[1] for o in offences(source, "f.py")) == [
        "calls eval()", "imports a module whose name is computed at run time", "imports from subprocess",
        "imports pickle", "uses os.system", "uses yaml.load"]
