"""The grader's kernels: they start side by side, and one that dies at start is started again.

A kernel that dies before running anything (a TCP port taken by another program in the moment
between jupyter_client choosing it and the kernel binding it) must not cost a student marks.
These tests use a kernelspec of their own whose program exits at once a given number of times
before it becomes a real kernel, so the start-up failure happens every time, not by chance.
"""

import json
import os
import sys
import textwrap
from concurrent.futures import ThreadPoolExecutor

import nbformat
import pytest

from classroom import grading, kernels
from classroom import nbgrader_format as nbf

FLAKY_LAUNCHER = textwrap.dedent("""
    import os, sys
    counter, failures, connection_file = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    with open(counter, "a") as f:
        f.write("x")
    if os.path.getsize(counter) <= failures:
        print("flaky kernel: exiting before it binds its sockets", file=sys.stderr)
        sys.exit(3)
    sys.argv = ["ipykernel_launcher", "-f", connection_file]
    from ipykernel import kernelapp
    kernelapp.launch_new_instance()
""")


def make_source():
    """One answer and its test, worth 2 points."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbf.answer_cell("def double(x):\n    ### BEGIN SOLUTION\n    return 2 * x\n    ### END SOLUTION", "double"),
        nbf.autograder_tests_cell("assert double(2) == 4", "double_tests", 2),
    ]
    return nb


@pytest.fixture
def flaky_kernel(tmp_path, monkeypatch):
    """``make(failures)``: the name of a kernel that exits ``failures`` times before it starts."""
    launcher = tmp_path / "flaky_launcher.py"
    launcher.write_text(FLAKY_LAUNCHER)
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path / "share"))

    def make(failures):
        name = f"flaky{failures}"
        spec = tmp_path / "share" / "kernels" / name
        spec.mkdir(parents=True)
        counter = tmp_path / f"{name}.count"
        argv = [sys.executable, str(launcher), str(counter), str(failures), "{connection_file}"]
        (spec / "kernel.json").write_text(json.dumps({"argv": argv, "display_name": name, "language": "python"}))
        return name, counter

    return make


def test_a_kernel_that_dies_at_start_is_started_again_and_the_grade_is_whole(flaky_kernel):
    name, counter = flaky_kernel(grading.STARTUP_ATTEMPTS - 1)
    source = make_source()
    report, _ = grading.grade(source, source, kernel_name=name)
    assert counter.read_text() == "x" * grading.STARTUP_ATTEMPTS
    assert report.score == report.max_score == 2
    # A kernel of its own cannot be sandboxed (its program may live anywhere): the report says so.
    assert report.notes == ["NOT SANDBOXED: a named Jupyter kernel (--kernel) cannot be sandboxed; the "
                            "submission's code ran with this user's rights"]


def test_a_kernel_that_never_starts_says_so_with_what_it_printed(flaky_kernel):
    name, counter = flaky_kernel(grading.STARTUP_ATTEMPTS)
    with pytest.raises(RuntimeError, match=f"did not start in {grading.STARTUP_ATTEMPTS} attempts") as info:
        grading.grade(make_source(), make_source(), kernel_name=name)
    assert "flaky kernel: exiting before it binds its sockets" in str(info.value)
    assert counter.read_text() == "x" * grading.STARTUP_ATTEMPTS


def test_a_kernel_that_dies_while_running_a_cell_is_not_started_again(flaky_kernel):
    name, counter = flaky_kernel(0)
    source = make_source()
    student = nbf.student_version(source)
    next(c for c in student.cells if nbf.grade_id(c) == "double").source = "import os\nos._exit(1)"
    report, _ = grading.grade(source, student, kernel_name=name)
    assert counter.read_text() == "x"  # the student's code ran once; it is not run again
    assert [(t.grade_id, t.points, t.status) for t in report.tests] == [("double_tests", 0.0, "not run")]


@pytest.mark.skipif(os.name == "nt", reason="Windows kernels keep TCP")
def test_kernels_use_unix_sockets_in_a_private_folder_each():
    first, second = kernels.socket_options(), kernels.socket_options()
    assert first["transport"] == second["transport"] == "ipc"
    assert os.path.dirname(first["ip"]) == os.path.dirname(second["ip"]) and first["ip"] != second["ip"]
    assert oct(os.stat(os.path.dirname(first["ip"])).st_mode & 0o777) == oct(0o700)  # no one else's


def test_six_notebooks_graded_at_once_all_get_full_marks():
    source = make_source()
    with ThreadPoolExecutor(6) as pool:
        reports = list(pool.map(lambda _: grading.grade(source, source)[0], range(6)))
    assert [(r.score, r.max_score, r.notes) for r in reports] == [(2, 2, [])] * 6
