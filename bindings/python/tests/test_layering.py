"""The package is layered as httpx's, with no import cycle: models and errors know nothing of the
FFI, the FFI layer knows the models, the clients sit on top, and every module imports on its own."""
from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import courier

PACKAGE = Path(courier.__file__).resolve().parent
MODULES = sorted(path.stem for path in PACKAGE.glob("*.py"))

#: Bottom to top. A module imports from its own layer and the layers below it, except the models'.
LAYERS: list[tuple[str, set[str]]] = [
    ("the FFI's basics, which know nothing of the models",
     {"_courier_cffi", "_lib", "_handles", "_interrupt", "_trust"}),
    ("the models and errors, which know nothing of the FFI",
     {"_errors", "_models", "_cookie_jar", "_option_types"}),
    ("the FFI that knows the models",
     {"_calls", "_native", "_builtins", "_exchange", "_cookies", "_options"}),
    ("what every client shares", {"_registry", "_pump"}),
    ("the clients", {"_core", "_sending", "_streaming", "_client", "httpx"}),
    ("the package's face", {"__init__"}),
]
MODELS = LAYERS[1][1]
FFI = LAYERS[0][1] | LAYERS[2][1]


def layer_of(module: str) -> int:
    for index, (_, modules) in enumerate(LAYERS):
        if module in modules:
            return index
    raise AssertionError(f"{module}.py is in no layer: add it to LAYERS in {Path(__file__).name}")


def is_type_checking_block(node: ast.stmt) -> bool:
    return isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"


def sibling_imports(node: ast.AST) -> list[str]:
    """The package's modules an import statement names: `from .x import …`, `from . import x`."""
    if isinstance(node, ast.ImportFrom) and node.level == 1:
        return [node.module] if node.module else [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("courier."):
        return [node.module.split(".")[1]]  # type: ignore[union-attr]
    if isinstance(node, ast.Import):
        return [alias.name.split(".")[1] for alias in node.names if alias.name.startswith("courier.")]
    return []


def parse(module: str) -> ast.Module:
    return ast.parse((PACKAGE / f"{module}.py").read_text(), filename=f"{module}.py")


def top_level_imports(module: str, *, type_checking: bool) -> set[str]:
    """The siblings `module` imports at its top level (with `type_checking`, also under TYPE_CHECKING)."""
    imported: set[str] = set()
    for statement in parse(module).body:
        if is_type_checking_block(statement):
            if type_checking:
                for node in statement.body:  # type: ignore[attr-defined]
                    imported.update(sibling_imports(node))
        else:
            imported.update(sibling_imports(statement))
    return imported


def python(code: str, module: str) -> subprocess.CompletedProcess[str]:
    """Runs `code`, which imports `module`, in a fresh interpreter with this one's environment."""
    if module == "httpx":
        pytest.importorskip("httpx")  # courier.httpx is the transport for it, an optional dependency
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("module", MODULES)
def test_each_module_imports_cleanly_in_a_fresh_interpreter(module: str) -> None:
    result = python("import courier" if module == "__init__" else f"import courier.{module}", module)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("module", [module for module in MODULES if module != "__init__"])
def test_each_module_imports_first_without_the_package_importing_the_others(module: str) -> None:
    # `import courier.x` runs courier/__init__.py first, which imports every module in its own
    # order; an empty package in its place makes `x` the first module to load, so a cycle through
    # `x` fails here as it would for whoever imports `x` first.
    result = python(f"""
        import importlib, sys, types
        package = types.ModuleType("courier")
        package.__path__ = [{str(PACKAGE)!r}]
        sys.modules["courier"] = package
        importlib.import_module("courier.{module}")
        print(" ".join(sorted(name[len("courier."):] for name in sys.modules if name.startswith("courier."))))
    """, module)
    assert result.returncode == 0, result.stderr
    if module in MODELS:
        loaded = set(result.stdout.split())
        assert not loaded & FFI, f"importing {module} loaded the FFI's {sorted(loaded & FFI)}"


def test_the_layers_place_every_module_and_name_no_other() -> None:
    for module in MODULES:
        layer_of(module)
    listed = set().union(*(modules for _, modules in LAYERS))
    assert listed <= set(MODULES), f"LAYERS names modules that do not exist: {sorted(listed - set(MODULES))}"


def test_no_module_imports_from_a_layer_above_its_own() -> None:
    upward = [f"{module} ({LAYERS[layer_of(module)][0]}) imports {imported} ({LAYERS[layer_of(imported)][0]})"
              for module in MODULES for imported in sorted(top_level_imports(module, type_checking=True))
              if layer_of(imported) > layer_of(module)]
    assert not upward, "\n".join(upward)


def test_models_and_errors_import_nothing_from_the_ffi() -> None:
    for module in sorted(MODELS):
        imported = top_level_imports(module, type_checking=True)
        assert imported <= MODELS, f"{module} imports {sorted(imported - MODELS)}, outside the models and errors"
        for node in ast.walk(parse(module)):
            assert not (set(sibling_imports(node)) - MODELS), \
                f"{module}.py line {node.lineno} imports {sibling_imports(node)}"  # type: ignore[attr-defined]


def test_siblings_are_imported_only_at_the_top_of_a_module_never_inside_a_function() -> None:
    # An import inside a function is how an import cycle hides: the layering above is checked on
    # the top-level imports, so there must be no others.
    hidden = []
    for module in MODULES:
        tree = parse(module)
        allowed = {id(statement) for statement in tree.body}
        allowed |= {id(node) for statement in tree.body if is_type_checking_block(statement)
                    for node in statement.body}  # type: ignore[attr-defined]
        hidden += [f"{module}.py line {node.lineno} imports {sibling_imports(node)}"  # type: ignore[attr-defined]
                   for node in ast.walk(tree) if sibling_imports(node) and id(node) not in allowed]
    assert not hidden, "\n".join(hidden)


def test_the_modules_import_each_other_without_a_cycle() -> None:
    graph = {module: top_level_imports(module, type_checking=False) for module in MODULES}
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> None:
        if module in path:
            raise AssertionError("import cycle: " + " -> ".join(path[path.index(module):] + [module]))
        if module in done:
            return
        for imported in sorted(graph.get(module, ())):
            visit(imported, path + [module])
        done.add(module)

    for module in MODULES:
        visit(module, [])
