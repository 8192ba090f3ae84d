"""The sandbox's layers: what this machine has, and what a report says when one is missing.

The attacks in test_attacks.py show what the complete sandbox blocks; here, the sandbox is
taken apart: turned off, or with a layer missing (``probe`` replaced), the grading still works
and each report says what is missing; where the sandbox is required, grading refuses instead.
"""

import os
import sys

import nbformat
import pytest

from classroom import grading, sandbox
from classroom import nbgrader_format as nbf


def make_source():
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbf.answer_cell("def double(x):\n    ### BEGIN SOLUTION\n    return 2 * x\n    ### END SOLUTION", "double"),
        nbf.autograder_tests_cell("assert double(2) == 4", "double_tests", 2),
    ]
    return nb


def missing_bwrap():
    return sandbox.Layers(bwrap=None, separate_user=False, prlimit=None,
                          why_not=("bubblewrap is not installed (test)", "prlimit is missing (test)"))


def test_turned_off_the_grading_works_and_the_report_says_so(monkeypatch):
    report, _ = grading.grade(make_source(), make_source(), sandbox=False)
    assert report.score == 2
    assert report.notes == ["NOT SANDBOXED: the sandbox was turned off (--no-sandbox); the submission's code ran "
                            "with this user's rights"]


def test_a_missing_layer_is_named_in_every_report(monkeypatch):
    monkeypatch.delenv(sandbox.REQUIRE_ENV, raising=False)
    monkeypatch.setenv("CI", "false")
    monkeypatch.setattr(sandbox, "probe", missing_bwrap)
    report, _ = grading.grade(make_source(), make_source())
    assert report.score == 2
    assert report.notes == ["sandbox incomplete: bubblewrap is not installed (test)",
                            "sandbox incomplete: prlimit is missing (test)"]


@pytest.mark.parametrize("env", [{sandbox.REQUIRE_ENV: "1"}, {"CI": "true"}])
def test_where_the_sandbox_is_required_a_missing_layer_stops_grading(env, monkeypatch):
    monkeypatch.delenv(sandbox.REQUIRE_ENV, raising=False)
    monkeypatch.setenv("CI", "false")
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setattr(sandbox, "probe", missing_bwrap)
    with pytest.raises(sandbox.SandboxUnavailable, match="bubblewrap is not installed"):
        grading.grade(make_source(), make_source())


@pytest.mark.skipif(not sandbox.probe().bwrap, reason="bubblewrap is not available here")
def test_inside_only_its_own_folder_and_minigrads_packages_are_there():
    import json
    import subprocess

    import classroom

    repo = os.path.dirname(os.path.dirname(os.path.abspath(classroom.__file__)))
    code = ("import json, os, minigrad, viz, classroom\n"
            f"print(json.dumps([os.getcwd(), sorted(os.listdir('.')), sorted(os.listdir({repo!r}))]))")
    with sandbox.Sandbox("a.ipynb", "{}") as box:
        out = subprocess.run(box.argv([sys.executable, "-c", code]), cwd=box.folder, capture_output=True,
                             text=True, timeout=120)
        folder = box.folder
    assert out.returncode == 0, out.stderr
    cwd, here, in_repo = json.loads(out.stdout)
    assert (cwd, here) == (sandbox.HOME, ["a.ipynb"])
    # Of the repository, only what the kernel imports (and the venv, where it lives there).
    assert set(in_repo) <= {"minigrad", "viz", "classroom", ".venv"}, in_repo
    assert {"minigrad", "classroom"} <= set(in_repo)
    assert not folder.exists()  # deleted on leaving
