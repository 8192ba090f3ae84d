"""``pip install '.[classroom]'`` is enough to grade: the extra covers what grading imports.

A teacher who only grades installs the ``classroom`` extra, not the notebooks' JupyterLab and
book tools. These tests read the extra from pyproject.toml and check it against the imports of
``classroom/*.py`` and of the assignments' code cells, so a new import cannot slip past it; and
they check what ``python -m classroom`` says when the notebook tools are missing.
"""

import ast
import importlib.metadata
import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OURS = {"minigrad", "viz", "classroom"}


def _extra(name, project):
    """The distributions an extra brings in, following ``minigrad[...]`` references."""
    names = set()
    for requirement in project["optional-dependencies"][name]:
        distribution = re.match(r"[A-Za-z0-9_.-]+", requirement).group(0)
        if distribution == "minigrad":
            for inner in re.search(r"\[(.*)\]", requirement).group(1).split(","):
                names |= _extra(inner.strip(), project)
        else:
            names.add(_normal(distribution))
    return names


def _normal(distribution):
    return re.sub(r"[-_.]+", "-", distribution).lower()


def _imports(source):
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            yield node.module.split(".")[0]


def _third_party_imports():
    modules = set()
    for path in sorted((ROOT / "classroom").glob("*.py")):
        modules |= set(_imports(path.read_text()))
    for path in sorted((ROOT / "assignments").glob("*.ipynb")):
        for cell in json.loads(path.read_text())["cells"]:
            if cell["cell_type"] == "code":
                # IPython's magics and shell lines are not Python
                code = "\n".join(line for line in "".join(cell["source"]).splitlines() if not line.lstrip()[:1] in "%!")
                modules |= set(_imports(code))
    return {m for m in modules if m not in sys.stdlib_module_names and m not in OURS}


def test_the_classroom_extra_covers_every_import_of_grading_and_the_assignments():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    provided = _extra("classroom", project) | {_normal(d) for d in project["dependencies"]}
    provided = {re.match(r"[a-z0-9-]+", d).group(0) for d in provided}
    distributions = importlib.metadata.packages_distributions()
    imports = _third_party_imports()
    assert {"nbformat", "nbclient", "numpy", "sklearn"} <= imports  # the scan sees what we know is there
    missing = {m: distributions.get(m) for m in imports
               if not {_normal(d) for d in distributions.get(m, [m])} & provided}
    assert missing == {}, f"imported but not in the classroom extra: {missing}"


def test_the_classroom_extra_has_the_kernel_the_grader_launches():
    grader = (ROOT / "classroom" / "kernels.py").read_text()
    assert "ipykernel_launcher" in grader
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert "ipykernel" in _extra("classroom", project)


def test_without_the_notebook_tools_python_m_classroom_says_what_to_install():
    hide_nbformat = ("import sys, runpy; sys.modules['nbformat'] = None; "
                     "sys.argv = ['classroom', '--help']; runpy.run_module('classroom', run_name='__main__')")
    done = subprocess.run([sys.executable, "-c", hide_nbformat], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert "nbformat is missing" in done.stderr
    assert "pip install '.[classroom]'" in done.stderr
