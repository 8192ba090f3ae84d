"""Submissions that attack the grader: each is blocked or flagged, and harms nobody else.

Each file in ``attacks/`` is a submission (``# %% <grade_id>`` sections replace the answer
cells of a small assignment with a read-only checking helper and hidden tests; ``# %% extra``
adds a cell of the student's own). Words in capitals in a file (``TEACHER_SOURCE``, ...) are
replaced by the real paths of this test's class before grading.

All attacks are graded once, side by side (four at a time: each is a kernel in its own sandbox),
and each test below reads one outcome: flagged for review with the reason, or blocked (the
file not read, the process gone, the grader alive), never marks for a wrong answer.
"""

import os
import tempfile
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import nbformat
import pytest

from classroom import grading, integrity, sandbox
from classroom import nbgrader_format as nbf
from classroom.__main__ import main
from test_assignments_feedback import wrong_answers as sections  # the same "# %% <grade_id>" files

# Without the sandbox these submissions would do what they try (kill processes, delete files):
# they run only where it is complete, and where it is required (CI) its absence is an error.
pytestmark = pytest.mark.skipif(not sandbox.probe().complete and not sandbox.required(),
                                reason="the sandbox is incomplete here: " + "; ".join(sandbox.probe().why_not))

ATTACKS = Path(__file__).resolve().parent / "attacks"
ASSIGNMENT_1 = Path(__file__).resolve().parents[2] / "assignments" / "01_first_backward_rule.ipynb"
MARKER = f"mg-attack-{uuid.uuid4().hex[:10]}"  # a name no other file on this machine has
SLEEP_MARKER = f"{hash(MARKER) % 1000 + 1000}.{os.getpid()}"  # `sleep 1234.5678`: findable in /proc

HIDDEN_DOUBLE = ('check(double(-3), -6, "double(-3)")\n'
                 "x = minigrad.tensor([1.0, 2.0], requires_grad=True)\n"
                 "double(x).sum().backward()\n"
                 'assert np.allclose(x.grad.numpy(), [2.0, 2.0]), "the gradient of double should be 2"')


def make_source():
    """double (2 points) and square (3 points), checked by a read-only helper, with hidden tests."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell("# Assignment A\nWrite `double` and `square`."),
        nbf.readonly_cell("import numpy as np, minigrad", "imports", cell_type="code"),
        nbf.readonly_cell('def check(got, expected, what):\n'
                          '    assert np.allclose(got, expected), f"{what} should be {expected}, not {got}"',
                          "helpers", cell_type="code"),
        nbf.answer_cell("def double(x):\n    ### BEGIN SOLUTION\n    return 2 * x\n    ### END SOLUTION", "double"),
        nbf.autograder_tests_cell('check(double(2), 4, "double(2)")\n### BEGIN HIDDEN TESTS\n'
                                  f"{HIDDEN_DOUBLE}\n### END HIDDEN TESTS", "double_tests", 2),
        nbf.answer_cell("def square(x):\n    ### BEGIN SOLUTION\n    return x * x\n    ### END SOLUTION", "square"),
        nbf.autograder_tests_cell('check(square(3), 9, "square(3)")\n### BEGIN HIDDEN TESTS\n'
                                  'check(square(-2.5), 6.25, "square(-2.5)")\n### END HIDDEN TESTS',
                                  "square_tests", 3),
    ]
    return nb


def fill(source, answers, places):
    """The released notebook with the source's solutions, except ``answers`` (paths put in)."""
    student = nbf.student_version(source)
    solutions = {nbf.grade_id(c): c.source for c in source.cells if nbf.is_solution(c)}
    for cell in student.cells:
        gid = nbf.grade_id(cell)
        if gid in solutions:
            cell.source = answers.get(gid, solutions[gid])
    if "extra" in answers:
        student.cells.append(nbformat.v4.new_code_cell(answers["extra"]))
    for cell in student.cells:
        for word, value in sorted(places.items(), key=lambda item: -len(item[0])):  # SLEEP_MARKER first
            cell.source = cell.source.replace(word, repr(value))
    return student


# Per attack: the grading's options (defaults: timeout 30 s, the default limits).
OPTIONS = {
    "ignore_interrupt": {"timeout": 2},
    "slow_cells": {"timeout": 3, "total_timeout": 4},
    "memory_hog": {"limits": sandbox.Limits(memory_mb=1536)},
    "fork_bomb": {"limits": sandbox.Limits(processes=48)},
    "output_flood": {"max_output": 1 << 20},
}
NAMES = sorted(p.stem for p in ATTACKS.glob("*.py"))


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """A teacher's folder and a class; every attack graded (in parallel) against the teacher's source."""
    root = tmp_path_factory.mktemp("attacks")
    teacher = root / "teacher"
    teacher.mkdir()
    source_path = teacher / "a.ipynb"
    nbformat.write(make_source(), str(source_path))
    other = root / "submissions" / "another_student" / "a.ipynb"
    other.parent.mkdir(parents=True)
    nbformat.write(fill(make_source(), {}, {}), str(other))
    places = {"TEACHER_SOURCE": str(source_path), "OTHER_SUBMISSION": str(other), "MARKER": MARKER,
              "SUBMISSIONS_ROOT": str(root / "submissions"), "TEACHER_FOLDER": str(teacher),
              "SLEEP_MARKER": SLEEP_MARKER, "REPO_ASSIGNMENTS": str(ASSIGNMENT_1.parent)}
    before = {p: p.read_bytes() for p in (source_path, other)}
    scratch = root / "scratch"  # the sandboxes' temporary folders go here: all must be gone after
    scratch.mkdir()

    def one(name):
        folder = root / "submissions" / name
        folder.mkdir()
        path = folder / "a.ipynb"
        answers = {} if name == "honest" else sections(ATTACKS / f"{name}.py")
        nbformat.write(fill(make_source(), answers, places), str(path))
        started = time.monotonic()
        report, graded = grading.grade(source_path, path, **{"timeout": 30, **OPTIONS.get(name, {})})
        return report, graded, time.monotonic() - started

    saved, tempfile.tempdir = tempfile.tempdir, str(scratch)
    try:
        with ThreadPoolExecutor(max_workers=4) as pool:
            outcomes = dict(zip(NAMES + ["honest"], pool.map(one, NAMES + ["honest"])))
    finally:
        tempfile.tempdir = saved
    yield {"outcomes": outcomes, "before": before, "scratch": scratch, "source": source_path, "other": other}
    for path in (Path("/tmp") / MARKER, Path("/") / MARKER, Path("/work") / MARKER):
        path.unlink(missing_ok=True)  # only there if an attack got out (then a test below failed)


def outcome(world, name):
    return world["outcomes"][name]


def everything_shown(report, graded):
    """All the text a student gets back: the report and the graded notebook."""
    return str(report) + nbformat.writes(graded)


def test_the_sandbox_is_on_in_ci():
    layers = sandbox.probe()
    if sandbox.required():
        assert layers.complete, layers.why_not
    elif not layers.complete:
        pytest.skip("sandbox incomplete on this machine: " + "; ".join(layers.why_not))


def test_the_honest_control_scores_full_marks_and_is_not_flagged(world):
    report, _, _ = outcome(world, "honest")
    assert report.flags == [] and report.notes == [], str(report)
    assert report.score == report.max_score == 5


# --- integrity: changes to the grading machinery are flagged, never scored ----------------------

FLAGGED = {
    "replace_helper": "the teacher's 'check' was replaced",
    "patch_numpy": "numpy: allclose replaced",
    "patch_minigrad": "Tensor: backward replaced",
    "input_transformer": "installs an IPython input transformer",
    "hide_tracebacks": "showtraceback",
    "custom_exception_handler": "custom exception handlers changed",
    "replace_builtin": "builtins changed: all",
    "sys_exit": "the code called exit()",
    "replace_exit": "sys.exit changed",
    "remove_guard": "integrity check did not report",
    "forge_verdict": "numpy: allclose replaced",
    "leak_hidden_tests": "reads the kernel's current request",
}


@pytest.mark.parametrize("name, reason", sorted(FLAGGED.items()))
def test_tampering_is_flagged_with_its_reason_and_scores_nothing(world, name, reason):
    report, _, _ = outcome(world, name)
    assert any(reason in flag for flag in report.flags), str(report)
    assert report.score == 0
    assert "FLAGGED FOR REVIEW" in str(report) and "score: 0/5 (flagged)" in str(report)


def test_a_test_whose_traceback_is_hidden_still_fails(world):
    report, _, _ = outcome(world, "hide_tracebacks")
    double = report.tests[0]  # the answer cell hid tracebacks and defined no double
    assert (double.grade_id, double.status, double.points) == ("double_tests", "failed", 0), str(report)
    assert double.message == ("NameError: name 'double' is not defined "
                              "(the kernel reported this error, but no traceback was shown)")


def test_hiding_tracebacks_in_a_real_assignment_earns_nothing(tmp_path):
    source = grading.read(ASSIGNMENT_1)
    student = nbf.student_version(source)
    first = next(c for c in student.cells if nbf.is_solution(c))
    first.source = "get_ipython().showtraceback = lambda *args, **kwargs: None"
    report, _ = grading.grade(source, student, cwd=tmp_path, timeout=120)
    assert report.earned == 0 and report.score == 0, str(report)
    assert any("showtraceback" in flag for flag in report.flags)


# --- hidden tests stay hidden -------------------------------------------------------------------


@pytest.mark.parametrize("name", ["leak_hidden_tests", "leak_history", "read_teacher_source"])
def test_no_hidden_test_line_reaches_the_student(world, name):
    report, graded, _ = outcome(world, name)
    shown = everything_shown(report, graded)
    hidden = integrity.hidden_lines(make_source())
    assert hidden  # the check below checks something
    for line in hidden:
        assert line not in shown and repr(line)[1:-1] not in shown, line
    assert "BEGIN HIDDEN TESTS" not in shown


def test_the_kernel_keeps_no_history_of_the_tests(world):
    # The last cell prints In and _ih: had they held a test's code, it would have been cut out
    # (and replaced by the redaction's words) instead of being absent.
    report, graded, _ = outcome(world, "leak_history")
    last = graded.cells[-1]
    text = "".join(o.get("text", "") for o in last.outputs)
    assert "def square(x)" in text  # the history is there, with the student's own cells
    assert "[a hidden test]" not in text and "check(square(3)" not in text


def test_the_feedback_notebook_shows_only_the_visible_tests(world):
    report, graded, _ = outcome(world, "honest")
    back = nbformat.writes(grading.feedback_notebook(report, graded))
    assert 'check(double(2), 4, \\"double(2)\\")' in back
    for line in integrity.hidden_lines(make_source()):
        assert line not in back


# --- isolation: nothing outside the submission's own folder -------------------------------------


def test_the_teachers_source_cannot_be_read(world):
    report, graded, _ = outcome(world, "read_teacher_source")
    text = "".join(o.get("text", "") for c in graded.cells for o in c.get("outputs", []))
    assert f"cannot read {world['source']} FileNotFoundError" in text
    assert f"READ {world['source']}" not in text
    assert "READ /home/student/a.ipynb" in text  # its own copy is there, and nothing else
    assert text.count("READ ") == 1, text
    assert "cannot list the repository's assignments FileNotFoundError" in text  # minigrad's own sources


def test_nothing_is_written_outside_the_submissions_folder(world):
    report, graded, _ = outcome(world, "write_outside")
    text = "".join(o.get("text", "") for c in graded.cells for o in c.get("outputs", []))
    assert text.count("cannot write") == 5, text  # all but its private /tmp
    assert world["source"].read_bytes() == world["before"][world["source"]]
    assert world["other"].read_bytes() == world["before"][world["other"]]
    for path in (Path("/tmp") / MARKER, Path("/") / MARKER, Path("/work") / MARKER):
        assert not path.exists()


def test_deleting_other_submissions_and_the_sources_fails(world):
    assert world["source"].read_bytes() == world["before"][world["source"]]
    assert world["other"].read_bytes() == world["before"][world["other"]]
    report, _, _ = outcome(world, "delete_others")
    assert report.score == report.max_score  # it did answer correctly; it just reached nothing


def test_no_network(world):
    report, _, _ = outcome(world, "network")
    assert any("Network is unreachable" in note for note in report.notes), str(report)


# --- processes and limits -------------------------------------------------------------------------


def _sleepers():
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if SLEEP_MARKER.encode() in Path(f"/proc/{pid}/cmdline").read_bytes():
                found.append(int(pid))
        except OSError:
            pass
    return found


def test_no_process_outlives_its_grading(world):
    report, _, _ = outcome(world, "leave_processes")
    assert report.score == report.max_score, str(report)  # the attack ran to the end
    assert _sleepers() == []


def test_the_grader_survives_being_killed_and_cleans_up(world):
    report, graded, _ = outcome(world, "kill_grader")
    text = "".join(o.get("text", "") for c in graded.cells for o in c.get("outputs", []))
    assert "cannot kill 1 PermissionError" in text  # its parent is the sandbox's own init
    assert report.score == report.max_score, str(report)  # nothing it could reach was killed
    # Every sandbox's folders are gone, those of the kernels that were killed too.
    assert list(world["scratch"].iterdir()) == []


def test_a_loop_that_ignores_the_interrupt_is_killed_at_once(world):
    report, _, _ = outcome(world, "ignore_interrupt")
    assert any("did not stop when interrupted" in note for note in report.notes), str(report)
    # The kernel was killed there: the later cells did not each wait out a timeout of their own.
    assert [t.status for t in report.tests] == ["not run", "not run"]


def test_the_notebooks_total_time_is_capped(world):
    report, _, _ = outcome(world, "slow_cells")
    assert any("longer than 4 s in total" in note for note in report.notes), str(report)
    assert report.tests[-1].status == "not run"


def test_memory_is_capped(world):
    report, _, _ = outcome(world, "memory_hog")
    assert any("MemoryError" in note for note in report.notes), str(report)
    assert report.score == report.max_score  # the kernel lived on: later cells ran


def test_processes_are_capped(world):
    report, _, _ = outcome(world, "fork_bomb")
    assert any("BlockingIOError" in note or "Resource temporarily unavailable" in note
               for note in report.notes), str(report)
    assert report.score == report.max_score


def test_file_size_is_capped(world):
    report, _, _ = outcome(world, "fill_disk")
    assert any("File too large" in note for note in report.notes), str(report)
    assert report.score == report.max_score  # the kernel lived on


def test_output_is_capped(world):
    report, graded, _ = outcome(world, "output_flood")
    assert any("printed more than 1 MB" in note for note in report.notes), str(report)
    assert len(nbformat.writes(graded)) < 2 << 20


# --- a class at once ------------------------------------------------------------------------------


def test_grade_all_ten_at_once_with_attackers_among_them(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("source").mkdir()
    nbformat.write(make_source(), "source/a.ipynb")
    source_bytes = Path("source/a.ipynb").read_bytes()
    places = {"TEACHER_SOURCE": str(tmp_path / "source" / "a.ipynb"), "SUBMISSIONS_ROOT": str(tmp_path / "class"),
              "TEACHER_FOLDER": str(tmp_path / "source"), "OTHER_SUBMISSION": str(tmp_path / "class/s1/a.ipynb"),
              "MARKER": MARKER, "SLEEP_MARKER": SLEEP_MARKER}
    students = {f"s{i}": {} for i in range(7)}
    students.update({"x_delete": sections(ATTACKS / "delete_others.py"),
                     "x_kill": sections(ATTACKS / "kill_grader.py"),
                     "x_write": sections(ATTACKS / "write_outside.py")})
    for name, answers in students.items():
        Path("class", name).mkdir(parents=True)
        nbformat.write(fill(make_source(), answers, places), f"class/{name}/a.ipynb")
    before = {p: p.read_bytes() for p in Path("class").rglob("*.ipynb")}
    capsys.readouterr()
    assert main(["grade-all", "source", "class", "--jobs", "10", "--csv", "grades.csv"]) == 0
    table = [line.split() for line in capsys.readouterr().out.splitlines()]
    assert table == [["student", "a", "total"]] + [[name, "5/5", "5/5"] for name in students]
    assert {p: p.read_bytes() for p in Path("class").rglob("*.ipynb")} == before
    assert Path("source/a.ipynb").read_bytes() == source_bytes


# --- the command line's one-line reasons ------------------------------------------------------------


@pytest.mark.parametrize("args, reason", [
    (["grade", "SOURCE", "missing.ipynb"], "error: the submission missing.ipynb does not exist"),
    (["grade", "SOURCE", "."], "error: the submission . is a folder; expected a notebook file"),
    (["grade", "nothere.ipynb", "SOURCE"], "error: the source nothere.ipynb does not exist"),
    (["validate", "."], "error: the source . is a folder; expected a notebook file"),
    (["validate", "nothere.ipynb"], "error: the source nothere.ipynb does not exist"),
    (["grade", "SOURCE", "garbage.ipynb"], None),
])
def test_a_missing_or_wrong_path_exits_1_with_one_line(args, reason, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    nbformat.write(make_source(), "SOURCE")
    Path("garbage.ipynb").write_text("{ not json")
    status = main(args)
    err = capsys.readouterr().err.strip()
    if reason is None:  # an unreadable submission still gets its report (zero points, a note)
        assert status == 0
        return
    assert status == 1
    assert err == reason


def test_a_note_names_a_cell_by_its_grade_id_or_first_line(world, tmp_path):
    report, _, _ = outcome(world, "network")
    assert any(note.startswith("cell 4 (your answer 'double') raised OSError") for note in report.notes), report.notes
    student = fill(make_source(), {"extra": "\n# my own check\nassert double(2) == 5, 'hm'"}, {})
    report, _ = grading.grade(make_source(), student, cwd=tmp_path)
    assert report.notes == ["cell 8 (`# my own check`) raised AssertionError: hm"]
