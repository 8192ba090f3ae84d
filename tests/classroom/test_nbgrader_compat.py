"""nbgrader itself accepts our assignment notebooks, and scores them as ``python -m classroom`` does.

nbgrader 0.9.6 lives in its own virtual environment, ``.venv-nbgrader/`` (git-ignored), so it
cannot change the project's Jupyter versions. The first run builds it (about a minute: pip
installs nbgrader, and minigrad's runtime dependencies for the kernel; minigrad itself comes
from the work tree through ``PYTHONPATH``); later runs reuse it until the requirements change.
If pip cannot install nbgrader here (no registry), the test skips and says why.

The test is a teacher's whole nbgrader course: ``nbgrader_config.py``, every
``assignments/*.ipynb`` (or, with none, a small notebook built here) as ``source/a1/``,
``nbgrader generate_assignment``, three submissions, ``nbgrader autograde`` and
``nbgrader generate_feedback``. Then, from nbgrader's gradebook:

* student ``full``, nbgrader's release filled in with the solutions: full marks;
* student ``blank``, nbgrader's release as handed out: zero;
* student ``ours``, *our* release (``classroom.nbgrader_format.student_version``) filled in:
  full marks, so a class can be handed out with one tool and graded with the other;
* every test cell of every notebook gets the same score from nbgrader's autograde as from
  ``classroom.grading.grade``, and nbgrader's release has the same cell text as ours.
"""

import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import nbformat
import pytest

from classroom import grading
from classroom import nbgrader_format as nbf
from classroom.kernels import socket_options

pytestmark = pytest.mark.nbgrader

ROOT = Path(__file__).resolve().parents[2]
VENV = ROOT / ".venv-nbgrader"
NBGRADER = "nbgrader==0.9.6"
INSTALL_TIMEOUT_S = 900
RUN_TIMEOUT_S = 900


def kernel_requirements():
    """What the assignments' kernel imports besides minigrad: its dependencies, viz's, scikit-learn."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    sklearn = [r for r in extras.get("notebooks", []) if r.startswith("scikit-learn")]
    return [NBGRADER, *project["dependencies"], *extras.get("viz", []), *sklearn]


def nbgrader_python():
    """The Python of ``.venv-nbgrader``, built or updated when its requirements changed.

    Returns:
        The path of the venv's ``python``.

    Skips the test (with pip's last lines) when the install fails, e.g. with no registry.
    """
    requirements = kernel_requirements()
    want = hashlib.sha256("\n".join(requirements).encode()).hexdigest()
    python = VENV / "bin" / "python"
    stamp = VENV / ".requirements-sha256"
    VENV.mkdir(exist_ok=True)
    with open(VENV / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # two test runs at once build it once
        if stamp.is_file() and stamp.read_text() == want and python.exists():
            return python
        log = VENV / "install.log"
        try:
            subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True, capture_output=True,
                           timeout=INSTALL_TIMEOUT_S)
            with open(log, "w") as out:
                subprocess.run([str(python), "-m", "pip", "install", "--disable-pip-version-check", *requirements],
                               check=True, stdout=out, stderr=subprocess.STDOUT, timeout=INSTALL_TIMEOUT_S)
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as exc:
            tail = log.read_text().strip().splitlines()[-3:] if log.exists() else []
            pytest.skip(f"cannot install {NBGRADER} into {VENV.name} ({exc}); pip said: {' | '.join(tail)}")
        stamp.write_text(want)
    return python


def sources():
    """``{name: notebook}``: the repository's assignments, or a small one when there are none."""
    paths = sorted((ROOT / "assignments").glob("*.ipynb"))
    if paths:
        return {p.name: grading.read(p) for p in paths}
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [
        nbformat.v4.new_markdown_cell("# Double it"),
        nbf.answer_cell("def double(x):\n    ### BEGIN SOLUTION\n    return 2 * x\n    ### END SOLUTION", "double"),
        nbf.autograder_tests_cell("assert double(2) == 4\n### BEGIN HIDDEN TESTS\nassert double(-1) == -2\n"
                                  "### END HIDDEN TESTS", "double_tests", 2),
    ]
    return {"synthetic.ipynb": nb}


def filled(student, source):
    """``student`` with every solution cell's text taken from ``source`` (a student who solved it all)."""
    answers = {nbf.grade_id(c): c.source for c in source.cells if nbf.is_solution(c)}
    for cell in student.cells:
        if nbf.is_solution(cell):
            cell.source = answers[nbf.grade_id(cell)]
    return student


GRADEBOOK_SCRIPT = """
import json
from nbgrader.api import Gradebook
out = {}
with Gradebook("sqlite:///gradebook.db") as gb:
    for student in ("full", "blank", "ours"):
        for nb in gb.find_submission("a1", student).notebooks:
            out[f"{student}/{nb.name}"] = {
                "score": nb.score, "max_score": nb.max_score,
                "cells": {g.name: g.auto_score for g in nb.grades},
            }
print(json.dumps(out))
"""


def test_nbgrader_generates_autogrades_and_agrees_with_classroom(tmp_path):
    python = nbgrader_python()
    course = tmp_path / "course"
    notebooks = sources()
    (course / "source" / "a1").mkdir(parents=True)
    for name, nb in notebooks.items():
        nbformat.write(nb, str(course / "source" / "a1" / name))
    (course / "nbgrader_config.py").write_text(
        "c = get_config()\n"
        "c.CourseDirectory.course_id = 'minigrad'\n"
        f"c.CourseDirectory.root = {str(course)!r}\n"
        "c.Execute.timeout = 300\n"
        # Unix sockets, not TCP ports another test worker could take first (classroom/kernels.py).
        + "".join(f"c.KernelManager.{key} = {value!r}\n" for key, value in socket_options().items())
    )
    env = {
        **os.environ,
        "PATH": f"{python.parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "PYTHONPATH": str(ROOT),  # minigrad, viz and classroom from the work tree
        "JUPYTER_CONFIG_DIR": str(tmp_path / "jupyter-config"),  # no user config leaks in
        "JUPYTER_DATA_DIR": str(tmp_path / "jupyter-data"),
        "SCIKIT_LEARN_DATA": str(tmp_path / "sklearn-data"),
    }
    env.pop("VIRTUAL_ENV", None)

    def nbgrader(*args):
        done = subprocess.run([str(python.parent / "nbgrader"), *args], cwd=course, env=env,
                              capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
        assert done.returncode == 0, f"nbgrader {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}"
        assert "[ERROR]" not in done.stderr, done.stderr
        return done

    nbgrader("generate_assignment", "a1", "--force")
    for name, source in notebooks.items():
        release = grading.read(course / "release" / "a1" / name)
        ours = nbf.student_version(source)
        # the same student version, cell for cell (nbgrader adds checksums to the metadata)
        assert [c.source for c in release.cells] == [c.source for c in ours.cells], name
        for student, nb in (("full", filled(release, source)), ("blank", grading.read(course / "release" / "a1" / name)),
                            ("ours", filled(ours, source))):
            folder = course / "submitted" / student / "a1"
            folder.mkdir(parents=True, exist_ok=True)
            nbformat.write(nb, str(folder / name))

    nbgrader("autograde", "a1", "--force")
    nbgrader("generate_feedback", "a1", "--force")
    done = subprocess.run([str(python), "-c", GRADEBOOK_SCRIPT], cwd=course, env=env, capture_output=True,
                          text=True, timeout=RUN_TIMEOUT_S, check=True)
    grades = json.loads(done.stdout)

    for name, source in notebooks.items():
        stem = Path(name).stem
        max_score = sum(nbf.points(c) for c in source.cells if nbf.is_test(c))
        assert max_score > 0
        assert grades[f"full/{stem}"]["score"] == grades[f"full/{stem}"]["max_score"] == max_score, grades
        assert grades[f"ours/{stem}"]["score"] == max_score, grades
        assert grades[f"blank/{stem}"]["score"] == 0, grades
        assert (course / "feedback" / "full" / "a1" / f"{stem}.html").is_file()
        # Our grader, on the very notebooks nbgrader graded, gives each test cell the same score.
        for student in ("full", "blank"):
            report, _ = grading.grade(source, course / "submitted" / student / "a1" / name, timeout=300)
            ours = {t.grade_id: t.points for t in report.tests}
            theirs = {g: s for g, s in grades[f"{student}/{stem}"]["cells"].items() if g in ours}
            assert theirs == ours, (student, name)
    shutil.rmtree(course / "autograded", ignore_errors=True)
