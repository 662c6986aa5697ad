"""The engine's packages import only downwards, and no module imports itself back.

Read from the sources (every import statement, also those inside functions), so
that a new import that breaks the layering fails here, not in a start-up that
got slower or a circle that works by the luck of import order.
"""

import ast
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parent.parent / "engine"
# Bottom first. A module may import its own layer and the ones below it.
LAYERS = (
    ("rules", "colors"),  # colors: the public colours, plain Python
    ("io",),
    ("game",),
    ("pgn",),
    ("search",),
    ("protocol",),
    ("rl",),
    ("web",),
    ("__main__", "svg", "perft_cli"),  # the command lines
)
RANK = {name: rank for rank, names in enumerate(LAYERS) for name in names}


def module_name(path):
    parts = path.relative_to(ENGINE).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path):
    """The engine modules a file imports, as names under engine ('' for the package)."""
    module = module_name(path)
    parts = module.split(".") if module else []
    package = parts if path.name == "__init__.py" else parts[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1] if node.level > 1 else package
                target = ".".join(base + ([node.module] if node.module else []))
            elif node.module and (node.module == "engine" or node.module.startswith("engine.")):
                target = node.module[len("engine."):] if node.module != "engine" else ""
            else:
                continue
            # `from . import x` may name a module of that package.
            for alias in node.names:
                child = f"{target}.{alias.name}" if target else alias.name
                found.add(child if (ENGINE / (child.replace(".", "/") + ".py")).exists() else target)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("engine."):
                    found.add(alias.name[len("engine."):])
    found.discard(module)
    return found


SOURCES = {module_name(path): path for path in sorted(ENGINE.rglob("*.py"))}
GRAPH = {module: imports(path) for module, path in SOURCES.items()}


def layer(module):
    return RANK[module.split(".")[0]]


@pytest.mark.parametrize("module", sorted(m for m in SOURCES if m), ids=str)
def test_imports_go_only_downwards(module):
    upward = {target for target in GRAPH[module] if target and layer(target) > layer(module)}
    assert not upward, f"engine.{module} imports a higher layer: {sorted(upward)}"


def test_the_package_itself_imports_only_the_table_of_bugs():
    """engine/__init__.py runs before the banner: no numpy, no numba (its public
    names load lazily, through importlib)."""
    assert GRAPH[""] == {"rules.bugs"}
    assert GRAPH["rules.bugs"] == set(), "the table of bugs is plain Python"


def test_no_module_imports_itself_back():
    """No circle: a depth-first walk of the import graph finds no back edge."""
    state = {}

    def visit(module, path):
        state[module] = "open"
        for target in sorted(GRAPH.get(module, ())):
            if target and target not in SOURCES:
                target = target.rsplit(".", 1)[0]
            if state.get(target) == "open":
                pytest.fail("an import circle: " + " -> ".join(path + [target]))
            if target in SOURCES and target not in state:
                visit(target, path + [target])
        state[module] = "done"

    for module in sorted(SOURCES):
        if module not in state:
            visit(module, [module])


def test_every_module_is_in_a_layer():
    assert {module.split(".")[0] for module in SOURCES if module} <= set(RANK)
