"""The documents stay on reportlab's public API: a reportlab release may change anything private,
and the documents must not break with it.

The scan reads documents/*.py and reports:
- an attribute with a leading underscore read off anything but our own `self` or `cls`
  (`canvas._doc`, `font._assignments`, ...);
- a private name imported from reportlab (`from reportlab... import _x`);
- an rl_config value assigned anywhere but in the one documented place, set once
  (`fonts.prepare_reportlab`);
- hand-written PDF operators (`canvas.addLiteral`).
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

from reportlab.lib import rl_accel

import documents.printing

DOCUMENTS = Path(documents.printing.__file__).resolve().parent
# The one place that sets a reportlab setting (once per process): module, function.
RL_CONFIG_PLACE = ("fonts.py", "prepare_reportlab")


def private_uses(source: str, filename: str) -> list[str]:
    """What in `source` reaches past reportlab's public API, one line each."""
    found = []
    tree = ast.parse(source)
    functions = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for inner in ast.walk(node):
                functions.setdefault(id(inner), node.name)
    for node in ast.walk(tree):
        line = f"{filename}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Attribute):
            private = node.attr.startswith("_") and not node.attr.startswith("__")
            own = isinstance(node.value, ast.Name) and node.value.id in {"self", "cls"}
            if private and not own:
                found.append(f"{line}: private attribute .{node.attr}")
            if node.attr == "addLiteral":
                found.append(f"{line}: hand-written PDF operators (addLiteral)")
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("reportlab"):
            for alias in node.names:
                if alias.name.startswith("_") or any(
                    part.startswith("_") for part in (node.module or "").split(".")
                ):
                    found.append(f"{line}: private import {node.module}.{alias.name}")
        elif isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if (
                    isinstance(target, ast.Attribute)
                    and isinstance(target.value, ast.Name)
                    and target.value.id == "rl_config"
                ):
                    place = (filename, functions.get(id(node)))
                    if place != RL_CONFIG_PLACE:
                        found.append(f"{line}: rl_config.{target.attr} set outside {place}")
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "setattr"
            and node.args
            and isinstance(node.args[0], ast.Name)
            and node.args[0].id == "rl_config"
        ):
            found.append(f"{line}: rl_config set through setattr")
    return found


def rl_config_assignments(source: str) -> int:
    return sum(
        1
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Attribute)
        and isinstance(target.value, ast.Name)
        and target.value.id == "rl_config"
    )


class TestTheScan:
    """The scan itself finds each kind of private use it is there to refuse."""

    def test_it_finds_a_private_attribute_of_a_reportlab_object(self):
        source = "def f(canvas):\n    return canvas._doc\n"
        assert private_uses(source, "layout.py") == ["layout.py:2: private attribute ._doc"]

    def test_it_leaves_our_own_private_attributes_alone(self):
        source = "class Pen:\n    def f(self):\n        return self._text\n"
        assert private_uses(source, "layout.py") == []

    def test_it_finds_an_rl_config_toggle_outside_the_one_place(self):
        source = "def close():\n    rl_config.useA85 = 0\n"
        assert private_uses(source, "layout.py") == [
            "layout.py:2: rl_config.useA85 set outside ('layout.py', 'close')"
        ]
        assert private_uses(source.replace("close", "prepare_reportlab"), "fonts.py") == []

    def test_it_finds_hand_written_operators_and_private_imports(self):
        source = (
            "from reportlab.lib.rl_accel import _py_funcs\n"
            "def f(canvas):\n    canvas.addLiteral('BT ET')\n"
        )
        assert len(private_uses(source, "layout.py")) == 2


class TestDocumentsSource:
    def test_nothing_in_the_documents_touches_a_private_reportlab_name(self):
        found = []
        for path in sorted(DOCUMENTS.glob("*.py")):
            found += private_uses(path.read_text(encoding="utf-8"), path.name)
        assert found == []

    def test_reportlab_is_set_in_one_place_once(self):
        counts = {
            path.name: rl_config_assignments(path.read_text(encoding="utf-8"))
            for path in DOCUMENTS.glob("*.py")
        }
        assert {name: count for name, count in counts.items() if count} == {"fonts.py": 1}


class TestAccelerator:
    def test_reportlab_uses_its_c_accelerator(self):
        """rl_accel (pyproject.toml) is installed and reportlab picked it up: its functions are
        built-ins, not the pure-Python fallbacks (three times slower documents)."""
        for name in ("fp_str", "escapePDF", "instanceStringWidthTTF", "calcChecksum"):
            assert inspect.isbuiltin(getattr(rl_accel, name)), name
