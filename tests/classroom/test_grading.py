"""Handing out and grading nbgrader notebooks with ``python -m classroom`` (no nbgrader here).

Small source notebooks are built in each test, so every expectation can be checked by hand:
the student version loses the solutions and hidden tests and keeps the metadata; the source
scores full marks; the student version as handed out scores nothing and does not crash the
grader; one wrong answer fails only its own tests; a test cell the student deleted or edited
is put back; a cell that runs forever is stopped and reported; malformed metadata is caught.
Then every ``assignments/*.ipynb`` gets the same check: well-formed, full marks for the
source, nothing for the released version.
"""

import json
from pathlib import Path

import nbformat
import pytest

from classroom import grading
from classroom import nbgrader_format as nbf
from classroom.__main__ import main

ROOT = Path(__file__).resolve().parents[2]
ASSIGNMENTS = sorted((ROOT / "assignments").glob("*.ipynb"))

DOUBLE = "def double(x):\n    ### BEGIN SOLUTION\n    return 2 * x\n    ### END SOLUTION"
DOUBLE_TESTS = ("assert double(2) == 4, 'double(2) should be 4'\nprint('double(2) is 4: good')\n"
                "### BEGIN HIDDEN TESTS\nassert double(-3) == -6, 'double(-3) should be -6'\n### END HIDDEN TESTS")
SQUARE = "def square(x):\n    ### BEGIN SOLUTION\n    return x * x\n    ### END SOLUTION"
SQUARE_TESTS = "assert square(3) == 9\n### BEGIN HIDDEN TESTS\nassert square(-2) == 4\n### END HIDDEN TESTS"


def make_source():
    """Two answers with their tests (2 + 3 points), a read-only helper, a written answer."""
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [
        nbformat.v4.new_markdown_cell("# Assignment 0\nWrite `double` and `square`."),
        nbf.readonly_cell("OFFSET = 0  # used by the tests", "setup", cell_type="code"),
        nbf.answer_cell(DOUBLE, "double"),
        nbf.autograder_tests_cell(DOUBLE_TESTS, "double_tests", 2),
        nbf.answer_cell(SQUARE, "square"),
        nbf.autograder_tests_cell(SQUARE_TESTS, "square_tests", 3),
        nbf.written_answer_cell("Why?\n\n### BEGIN SOLUTION\nBecause.\n### END SOLUTION", "why", 1),
    ]
    return nb


def by_id(nb):
    return {nbf.grade_id(c): c for c in nb.cells if nbf.grade_id(c)}


def fill(student, **answers):
    """The student notebook with some answer cells' text replaced."""
    cells = by_id(student)
    for gid, code in answers.items():
        cells[gid].source = code
    return student


def results(report):
    return {t.grade_id: (t.points, t.status) for t in report.tests}


# --- release -------------------------------------------------------------------------------


def test_release_strips_solutions_and_hidden_tests_and_keeps_metadata():
    source = make_source()
    before = nbformat.writes(source)
    student = nbf.student_version(source)
    cells = by_id(student)
    assert cells["double"].source == "def double(x):\n    # YOUR CODE HERE\n    raise NotImplementedError()"
    assert cells["double_tests"].source == ("assert double(2) == 4, 'double(2) should be 4'\n"
                                            "print('double(2) is 4: good')")
    assert cells["square_tests"].source == "assert square(3) == 9"
    assert cells["why"].source == "Why?\n\nYOUR ANSWER HERE"
    assert cells["setup"].source == "OFFSET = 0  # used by the tests"
    for gid, cell in cells.items():
        assert cell.metadata["nbgrader"] == by_id(source)[gid].metadata["nbgrader"]
    # Locked the way nbgrader's LockCells does: tests and read-only cells cannot be edited.
    assert cells["double_tests"].metadata["editable"] is False
    assert cells["setup"].metadata["deletable"] is False
    assert cells["double"].metadata["deletable"] is False and "editable" not in cells["double"].metadata
    assert student.metadata["kernelspec"]["name"] == "python3"
    assert nbformat.writes(source) == before  # the source is untouched
    nbformat.validate(student)


def test_release_clears_outputs_and_removes_every_solution_word():
    source = make_source()
    by_id(source)["double_tests"].outputs = [nbformat.v4.new_output("stream", name="stdout", text="old\n")]
    text = nbformat.writes(nbf.student_version(source))
    for word in ("BEGIN SOLUTION", "END SOLUTION", "HIDDEN TESTS", "return 2 * x", "square(-2)", "Because", "old\\n"):
        assert word not in text


# --- grading ------------------------------------------------------------------------------


def test_the_source_scores_full_marks():
    report, graded = grading.grade(make_source(), make_source())
    assert results(report) == {"double_tests": (2, "passed"), "square_tests": (3, "passed")}
    assert (report.score, report.max_score) == (5, 5)
    assert report.manual == [("why", 1.0)]
    assert report.notes == []
    assert report.tests[0].feedback == "double(2) is 4: good"
    assert "score: 5/5" in str(report)
    assert "to grade by hand: why (1 point)" in str(report)


def test_the_student_version_scores_zero_without_crashing():
    source = make_source()
    report, graded = grading.grade(source, nbf.student_version(source))
    assert results(report) == {"double_tests": (0, "failed"), "square_tests": (0, "failed")}
    assert report.score == 0 and report.max_score == 5
    message = report.tests[0].message
    assert message.startswith("NotImplementedError")
    assert "`double()` still says `raise NotImplementedError()`" in message
    # every cell ran, also after the errors
    assert all(c.execution_count is not None for c in graded.cells if c.cell_type == "code")


def test_a_wrong_answer_fails_only_its_own_tests_and_hidden_tests_count():
    source = make_source()
    # Right on the visible test (2), wrong on the hidden one (-3).
    student = fill(nbf.student_version(source), double="def double(x):\n    return abs(2 * x)",
                   square="def square(x):\n    return x ** 2")
    report, _ = grading.grade(source, student)
    assert results(report) == {"double_tests": (0, "failed"), "square_tests": (3, "passed")}
    failed = report.tests[0]
    assert failed.message == "AssertionError: double(-3) should be -6"
    assert failed.feedback == "double(2) is 4: good"  # printed before the hidden test failed
    text = str(report)
    assert "FAILED" in text and "double_tests" in text and "score: 3/5" in text


def test_an_assert_without_message_shows_the_line():
    source = make_source()
    student = fill(nbf.student_version(source), double="def double(x):\n    return 2 * x",
                   square="def square(x):\n    return x + x")
    report, _ = grading.grade(source, student)
    square = report.tests[1]
    assert square.status == "failed"
    assert square.message == "AssertionError\nat: assert square(3) == 9"


def test_a_deleted_or_edited_test_cell_still_runs_the_teachers_test():
    source = make_source()
    student = fill(nbf.student_version(source), double="def double(x):\n    return 0",
                   square="def square(x):\n    return x * x")
    cells = by_id(student)
    cells["double_tests"].source = "pass  # my tests always pass"
    cells["double_tests"].metadata["nbgrader"]["points"] = 100  # no use either
    student.cells.remove(cells["square_tests"])
    # A copy of a test cell under another name counts for nothing.
    fake = nbf.autograder_tests_cell("pass", "bonus", 50)
    student.cells.append(fake)
    report, graded = grading.grade(source, student)
    assert results(report) == {"double_tests": (0, "failed"), "square_tests": (3, "passed")}
    assert report.max_score == 5
    # the deleted test was put back right after the answer it tests
    order = [nbf.grade_id(c) for c in graded.cells if nbf.grade_id(c)]
    assert order == ["setup", "double", "double_tests", "square", "square_tests", "why"]
    notes = "\n".join(report.notes)
    assert "'double_tests') is the teacher's: its original text was put back" in notes
    assert "no cell 'square_tests': the teacher's version was put back" in notes
    assert "not in the source: 'bonus'" in notes


def test_a_deleted_answer_cell_comes_back_as_the_stub():
    source = make_source()
    student = fill(nbf.student_version(source), square="def square(x):\n    return x * x")
    student.cells.remove(by_id(student)["double"])
    report, _ = grading.grade(source, student)
    assert results(report) == {"double_tests": (0, "failed"), "square_tests": (3, "passed")}
    assert any("no cell 'double'" in n and "stub" in n for n in report.notes)


def test_a_cell_that_runs_forever_is_stopped_and_the_rest_still_runs():
    source = make_source()
    student = fill(nbf.student_version(source),
                   double="def double(x):\n    while True:\n        pass",
                   square="def square(x):\n    return x * x")
    report, _ = grading.grade(source, student, timeout=2)
    assert results(report) == {"double_tests": (0, "timeout"), "square_tests": (3, "passed")}
    assert report.tests[0].message.startswith("stopped after 2 s")
    assert "TIMEOUT" in str(report)


def test_an_error_in_an_answer_cell_is_a_note():
    source = make_source()
    student = fill(nbf.student_version(source), double="def double(x) return 2 * x",
                   square="def square(x):\n    return x * x")
    report, _ = grading.grade(source, student)
    assert results(report)["double_tests"] == (0, "failed")
    assert any(n.startswith("cell 3 (your answer 'double') raised SyntaxError") for n in report.notes)


def test_a_kernel_that_dies_is_reported_and_later_tests_score_nothing():
    source = make_source()
    student = fill(nbf.student_version(source), double="import os\nos._exit(1)",
                   square="def square(x):\n    return x * x")
    report, _ = grading.grade(source, student)
    assert results(report) == {"double_tests": (0, "not run"), "square_tests": (0, "not run")}
    assert any("the kernel died" in n for n in report.notes)


def test_a_file_that_is_not_a_notebook_scores_zero_with_a_note(tmp_path):
    path = tmp_path / "broken.ipynb"
    path.write_text("{ this is not json")
    report, _ = grading.grade(make_source(), path)
    assert results(report) == {"double_tests": (0, "not run"), "square_tests": (0, "not run")}
    assert report.notes[0].startswith("the submission could not be read as a notebook")


def test_nbgraders_rules_stderr_fails_and_a_number_is_partial_credit():
    source = make_source()
    tests = by_id(source)
    tests["double_tests"].source = "import sys\nprint('careful', file=sys.stderr)"
    tests["square_tests"].source = "1.5  # the test's own partial score"
    report, _ = grading.grade(source, source)
    assert results(report) == {"double_tests": (0, "failed"), "square_tests": (1.5, "partial")}
    assert report.tests[0].message == "wrote to stderr (nbgrader counts that as a failure): careful"


def test_a_test_that_draws_is_counted_as_a_picture():
    source = make_source()
    by_id(source)["double_tests"].source = (
        "from IPython.display import SVG, display\n"
        "display(SVG('<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"4\" height=\"4\"></svg>'))")
    report, graded = grading.grade(source, source)
    assert report.tests[0].pictures == 1
    assert "(the test drew 1 picture: see the graded notebook, under the test)" in str(report)


# --- validation ------------------------------------------------------------------------------


def problems_of(edit):
    nb = make_source()
    edit(by_id(nb), nb)
    return [str(p) for p in nbf.validate(nb) if p.level == "error"]


@pytest.mark.parametrize("edit, expected", [
    (lambda c, nb: c["square_tests"].metadata["nbgrader"].update(grade_id="double_tests"),
     "cell 6 ('double_tests'): grade_id 'double_tests' is used by cell 4 too"),
    (lambda c, nb: c["square_tests"].metadata["nbgrader"].pop("points"),
     "cell 6 ('square_tests'): is graded but has no points"),
    (lambda c, nb: c["square_tests"].metadata["nbgrader"].update(points="3"),
     "points must be a number >= 0, not '3'"),
    (lambda c, nb: c["square"].metadata["nbgrader"].update(schema_version=1),
     "cell 5 ('square'): nbgrader schema_version is 1"),
    (lambda c, nb: c["square"].metadata["nbgrader"].update(solution="yes"),
     "metadata nbgrader.solution must be true or false, not 'yes'"),
    (lambda c, nb: c["square"].metadata["nbgrader"].update(grade_id="square one"),
     "grade_id 'square one' may only use letters, digits, '_' and '-'"),
    (lambda c, nb: c["square"].metadata["nbgrader"].pop("grade_id"),
     "cell 5: has no grade_id"),
    (lambda c, nb: c["square"].metadata["nbgrader"].update(extra=1),
     "unknown nbgrader metadata keys ['extra']"),
    (lambda c, nb: c["square"].update(source="def square(x):\n    return x * x"),
     "is a solution cell without a '### BEGIN SOLUTION' ... '### END SOLUTION' region"),
    (lambda c, nb: c["square"].update(source="### BEGIN SOLUTION\nx = 1"),
     "'### BEGIN SOLUTION' has no '### END SOLUTION' after it"),
    (lambda c, nb: c["square"].update(source="### BEGIN SOLUTION\n### BEGIN SOLUTION\n### END SOLUTION"),
     "a second '### BEGIN SOLUTION' before '### END SOLUTION'"),
    (lambda c, nb: c["setup"].update(source="### BEGIN SOLUTION\nOFFSET = 0\n### END SOLUTION"),
     "cell 2 ('setup'): has a '### BEGIN SOLUTION' region but is not a solution cell"),
    (lambda c, nb: c["setup"].update(source="### BEGIN HIDDEN TESTS\nassert True\n### END HIDDEN TESTS"),
     "has a '### BEGIN HIDDEN TESTS' region but is not a graded test cell"),
    (lambda c, nb: c["why"].metadata["nbgrader"].update(solution=False),
     "a graded markdown cell must also be a solution cell"),
    (lambda c, nb: nb.cells[0].metadata.update(nbgrader="yes"),
     "cell 1: metadata 'nbgrader' must be a dict, not str"),
])
def test_validate_catches_malformed_notebooks(edit, expected):
    errors = problems_of(edit)
    assert any(expected in e for e in errors), errors


def test_validate_accepts_the_source_and_refuses_to_release_a_broken_one(tmp_path, capsys):
    assert nbf.validate(make_source()) == []
    nb = make_source()
    by_id(nb)["square_tests"].metadata["nbgrader"].pop("points")
    path = tmp_path / "broken.ipynb"
    nbformat.write(nb, str(path))
    assert main(["validate", str(path)]) == 1
    assert "is graded but has no points" in capsys.readouterr().out
    assert main(["release", str(path), "-o", str(tmp_path / "out.ipynb")]) == 1
    assert not (tmp_path / "out.ipynb").exists()
    with pytest.raises(nbf.FormatError, match="is graded but has no points"):
        grading.grade(nb, nb)


# --- the command line -----------------------------------------------------------------------


def test_the_command_line_releases_and_grades_a_class(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "source").mkdir()
    nbformat.write(make_source(), "source/a0.ipynb")
    assert main(["release-all", "source"]) == 0
    released = nbformat.read("release/a0.ipynb", as_version=4)
    assert "BEGIN SOLUTION" not in nbformat.writes(released)
    # ana hands in the solution, bob the empty notebook (in nbgrader's folder layout), cid nothing
    for student, nb in (("ana", make_source()), ("bob/a0", released), ("cid", None)):
        (tmp_path / "submitted" / student).mkdir(parents=True)
        if nb is not None:
            nbformat.write(nb, f"submitted/{student}/a0.ipynb")
    capsys.readouterr()
    assert main(["grade-all", "source", "submitted", "--csv", "grades.csv", "--feedback", "feedback"]) == 0
    table = capsys.readouterr().out.splitlines()
    assert table == ["student  a0         total", "ana      5/5        5/5", "bob      0/5        0/5",
                     "cid      missing/5  0/5"]
    assert (tmp_path / "grades.csv").read_text().splitlines()[1] == "ana,5/5,5/5"
    assert "score: 0/5" in (tmp_path / "feedback" / "bob" / "a0.txt").read_text()
    back = nbformat.read("feedback/bob/a0.ipynb", as_version=4)  # the graded notebook, report on top
    assert back.cells[0].source.startswith("# Grade: 0/5\n")
    assert back.cells[4].outputs[0].ename == "NotImplementedError"
    assert "Grade: 0/5" in (tmp_path / "feedback" / "bob" / "a0.html").read_text()
    assert main(["grade", "source/a0.ipynb", "submitted/ana/a0.ipynb", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["score"], data["max_score"]) == (5, 5)
    assert [t["grade_id"] for t in data["tests"]] == ["double_tests", "square_tests"]


# --- the assignments in this repository -------------------------------------------------------


@pytest.mark.parametrize("path", ASSIGNMENTS, ids=[p.stem for p in ASSIGNMENTS])
def test_each_assignment_is_valid_scores_full_marks_and_its_release_scores_zero(path):
    source = grading.read(path)
    assert [str(p) for p in nbf.validate(source)] == []
    assert any(nbf.is_test(c) for c in source.cells)
    report, _ = grading.grade(source, source, submission_name=path.name, timeout=300)
    assert report.score == report.max_score > 0, str(report)
    assert report.notes == [], str(report)
    student = nbf.student_version(source)
    assert "### BEGIN SOLUTION" not in nbformat.writes(student)
    report, _ = grading.grade(source, student, submission_name=f"released {path.name}", timeout=300)
    assert report.score == 0, str(report)
    assert all(t.status == "failed" and t.message for t in report.tests), str(report)
