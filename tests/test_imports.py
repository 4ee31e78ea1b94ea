"""The package imports in one direction: no module imports the package root, and no two import each other.

Every import counts, including those inside functions (imported on first
use, for start-up): a lazy import that closes a circle still makes a module
depend on one that depends on it. Imports under ``if TYPE_CHECKING:`` never
run and do not count.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "llvmplug"
MODULES = {path.stem for path in PACKAGE.glob("*.py")}


def _runs(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    """Whether an import node runs (is not under ``if TYPE_CHECKING:``)."""
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            return False
    return True


def imports_of(module: str) -> tuple[set[str], list[str]]:
    """(the package's modules ``module`` imports, the names it imports from the package root)."""
    tree = ast.parse((PACKAGE / f"{module}.py").read_text())
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    modules: set[str] = set()
    from_root: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and _runs(node, parents):
            if node.level == 1 or node.module == "llvmplug" or (node.module or "").startswith("llvmplug."):
                within = node.module if node.level == 1 else (node.module or "").partition(".")[2]
                if within:
                    modules.add(within.split(".")[0])
                    continue
                for alias in node.names:  # `from . import x`: a module of the package, or a name of the root
                    (modules.add(alias.name) if alias.name in MODULES else from_root.append(alias.name))
        elif isinstance(node, ast.Import) and _runs(node, parents):
            for alias in node.names:
                if alias.name.startswith("llvmplug."):
                    modules.add(alias.name.split(".")[1])
                elif alias.name == "llvmplug":
                    from_root.append("llvmplug")
    return modules - {"__init__"}, from_root


GRAPH = {module: imports_of(module)[0] for module in MODULES}


def test_no_module_imports_the_package_root():
    found = {module: imports_of(module)[1] for module in MODULES - {"__init__"}}
    assert {module: names for module, names in found.items() if names} == {}


def test_the_package_has_no_import_cycle():
    cycles = []
    state: dict[str, str] = {}  # "open" while on the current path, "done" after

    def visit(module: str, path: list[str]) -> None:
        state[module] = "open"
        for target in sorted(GRAPH.get(module, ())):
            if state.get(target) == "open":
                cycles.append(
                    " -> ".join(path[path.index(target) :] + [module, target])
                    if target in path
                    else f"{module} -> {target}"
                )
            elif target not in state:
                visit(target, [*path, module])
        state[module] = "done"

    for module in sorted(GRAPH):
        if module not in state:
            visit(module, [])
    assert cycles == []


def test_the_graph_sees_the_imports():
    # Not vacuous: the walk finds the edges every reader knows are there,
    # lazy ones included.
    assert {"_backend_local", "_args", "_store", "_cached"} <= GRAPH["plugin"]
    assert "_backend_process" in GRAPH["plugin"]  # imported inside Plugin.__init__
    assert "plugin" in GRAPH["_default"] and "_default" in GRAPH["cache"]


# Standard-library modules that cost a fresh process a noticeable part of its
# way to its first object on a slow interpreter (issue 27: typing about 3 ms,
# dataclasses with inspect and ast about 5, shutil with bz2 and lzma about 1):
# the package and the command import them on first use, or not at all.
HEAVY = ("typing", "dataclasses", "inspect", "ast", "json", "shutil", "tempfile")


def _imported_by(code: str) -> set[str]:
    """The HEAVY modules a fresh interpreter holds after running ``code``, beyond those it starts with."""
    import subprocess
    import sys
    import tempfile

    probe = f"import sys\nbefore = set(sys.modules)\n{code}\nprint(' '.join(sorted(set(sys.modules) - before)))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=tempfile.gettempdir())
    assert done.returncode == 0, done.stderr
    return set(done.stdout.split()) & set(HEAVY)


def test_a_fresh_import_leaves_the_heavy_modules_out():
    assert _imported_by("import llvmplug") == set()


def test_the_command_leaves_the_heavy_modules_out(tmp_path):
    # What the command does before its guard forks, and the compile the child then makes.
    module = tmp_path / "empty.ll"
    module.write_text("; nothing\n")
    code = (
        "import llvmplug, llvmplug.cli\n"
        f"llvmplug.cli._parse(['compile', {str(module)!r}, '-O2'])\n"
        f"llvmplug.Plugin().compile(open({str(module)!r}).read(), flags='-O2')"
    )
    assert _imported_by(code) == set()
