"""nbgrader's notebook format: cell metadata, marked regions, and the student version.

An assignment is written once, as a *source* notebook with the solutions in it, in the format
nbgrader 0.9 uses (cell metadata schema 3), so a teacher can hand it to nbgrader unchanged or
use ``python -m classroom``. Each special cell carries ``metadata["nbgrader"]``:

==================  =====  ========  ======  =================================================
kind of cell        grade  solution  locked  what happens to it
==================  =====  ========  ======  =================================================
answer              no     yes       no      its ``### BEGIN SOLUTION`` region becomes a stub
test ("autograder   yes    no        yes     runs against the student's code; scores
tests")                                      ``points`` if it raises nothing
read-only           no     no        yes     restored from the source before grading
manual answer       yes    yes       no      graded by a person (markdown or code)
task                no     no        yes     ``task: true``, a markdown task graded by a person
==================  =====  ========  ======  =================================================

Regions are marked by comment lines: ``### BEGIN SOLUTION`` / ``### END SOLUTION`` (replaced
by ``# YOUR CODE HERE`` and ``raise NotImplementedError()`` in code, ``YOUR ANSWER HERE`` in
markdown) and ``### BEGIN HIDDEN TESTS`` / ``### END HIDDEN TESTS`` in test cells (removed
from the student version, put back when grading). The rules below are nbgrader's own
(``nbgrader/nbgraderformat/v3.py``, ``preprocessors/clearsolutions.py``, ``clearhiddentests.py``
and ``lockcells.py``), so a notebook that passes :func:`validate` also passes nbgrader.
"""

import copy
import numbers
import re
from dataclasses import dataclass

import nbformat

SCHEMA_VERSION = 3
BEGIN_SOLUTION, END_SOLUTION = "BEGIN SOLUTION", "END SOLUTION"
BEGIN_HIDDEN_TESTS, END_HIDDEN_TESTS = "BEGIN HIDDEN TESTS", "END HIDDEN TESTS"
CODE_STUB = "# YOUR CODE HERE\nraise NotImplementedError()"
TEXT_STUB = "YOUR ANSWER HERE"
# The keys nbgrader's schema allows (it refuses any other); checksum and cell_type are
# written by nbgrader into the student version only.
KEYS = {"schema_version", "grade", "locked", "solution", "task", "grade_id", "points", "checksum", "cell_type"}
GRADE_ID = re.compile(r"^[a-zA-Z0-9_\-]+$")


class FormatError(ValueError):
    """A source notebook that is not well-formed nbgrader: ``problems`` lists every reason."""

    def __init__(self, problems, what="the notebook"):
        self.problems = list(problems)
        lines = [f"{what} is not a well-formed nbgrader notebook:"] + [f"  {p}" for p in self.problems]
        super().__init__("\n".join(lines))


@dataclass(frozen=True)
class Problem:
    """One thing :func:`validate` found.

    Attributes:
        level: ``"error"`` (release and grading refuse the notebook) or ``"warning"``.
        cell: the cell's number, counting from 1 as a person would, or None for the notebook.
        grade_id: the cell's ``grade_id`` when it has one.
        message: what is wrong and how to fix it, in plain words.
    """

    level: str
    cell: int | None
    grade_id: str | None
    message: str

    def __str__(self):
        where = ""
        if self.cell is not None:
            where = f"cell {self.cell}" + (f" ({self.grade_id!r})" if self.grade_id else "") + ": "
        return f"{self.level}: {where}{self.message}"


# --- reading a cell's metadata -----------------------------------------------------------


def meta(cell):
    """The cell's ``nbgrader`` metadata, or an empty dict when it has none."""
    value = cell.get("metadata", {}).get("nbgrader")
    return value if isinstance(value, dict) else {}


def grade_id(cell):
    """The cell's ``grade_id``, or None."""
    return meta(cell).get("grade_id") or None


def is_grade(cell):
    """True for a cell that earns points (a test cell or a manually graded answer)."""
    return bool(meta(cell).get("grade", False))


def is_solution(cell):
    """True for a cell the student writes in."""
    return bool(meta(cell).get("solution", False))


def is_task(cell):
    """True for a markdown task graded by a person."""
    return bool(meta(cell).get("task", False))


def is_locked(cell):
    """True when grading puts the source's version of the cell back (nbgrader's ``is_locked``).

    Grade cells that are not solutions are locked whatever their ``locked`` flag says.
    """
    if is_solution(cell):
        return False
    return is_grade(cell) or bool(meta(cell).get("locked", False))


def is_test(cell):
    """True for an autograded test cell: a code grade cell that is not a solution."""
    return cell.get("cell_type") == "code" and is_grade(cell) and not is_solution(cell)


def is_manual(cell):
    """True for a cell a person grades: a grade cell that is also a solution, or a task."""
    return (is_grade(cell) and is_solution(cell)) or is_task(cell)


def points(cell):
    """The points a grade or task cell is worth (0 for other cells)."""
    value = meta(cell).get("points", 0)
    return float(value) if isinstance(value, numbers.Real) and not isinstance(value, bool) else 0.0


# --- building cells (for authoring assignments in Python and for tests) ------------------


def _cell(cell_type, source, gid, *, grade, solution, locked, points_=None, task=False):
    new = nbformat.v4.new_code_cell if cell_type == "code" else nbformat.v4.new_markdown_cell
    cell = new(source)
    data = {"grade": grade, "grade_id": gid, "locked": locked, "schema_version": SCHEMA_VERSION,
            "solution": solution, "task": task}
    if points_ is not None:
        data["points"] = points_
    cell.metadata["nbgrader"] = data
    return cell


def answer_cell(source, gid):
    """A code cell the student completes; mark the solution with a ``### BEGIN SOLUTION`` region.

    >>> cell = answer_cell("def f(x):\\n    ### BEGIN SOLUTION\\n    return 2 * x\\n    ### END SOLUTION", "f")
    >>> is_solution(cell), is_locked(cell)
    (True, False)
    """
    return _cell("code", source, gid, grade=False, solution=True, locked=False)


def autograder_tests_cell(source, gid, points_):
    """A locked code cell that scores ``points_`` when it runs without an error."""
    return _cell("code", source, gid, grade=True, solution=False, locked=True, points_=points_)


def readonly_cell(source, gid, cell_type="markdown"):
    """A locked cell (instructions, helpers) that grading restores from the source."""
    return _cell(cell_type, source, gid, grade=False, solution=False, locked=True)


def written_answer_cell(source, gid, points_):
    """A markdown answer graded by a person (nbgrader's "manually graded answer")."""
    return _cell("markdown", source, gid, grade=True, solution=True, locked=False, points_=points_)


# --- regions -----------------------------------------------------------------------------


def _regions(source, begin, end):
    """Yields ``(line, state)`` for each line: "begin", "end", "inside" or "outside".

    Raises:
        ValueError: a region opened inside another, or one that never closes (nbgrader's rule).
    """
    inside = False
    for line in source.split("\n"):
        if begin in line:
            if inside:
                raise ValueError(f"a second '### {begin}' before '### {end}' (regions cannot nest)")
            inside = True
            yield line, "begin"
        elif end in line:
            # nbgrader ignores an END without a BEGIN; so do we, but validate() reports it.
            inside = False
            yield line, "end"
        else:
            yield line, "inside" if inside else "outside"
    if inside:
        raise ValueError(f"'### {begin}' has no '### {end}' after it")


def has_region(source, begin, end):
    """True if the source holds at least one ``begin`` ... ``end`` region.

    >>> has_region("x = 1\\n### BEGIN SOLUTION\\nx = 2\\n### END SOLUTION", BEGIN_SOLUTION, END_SOLUTION)
    True
    """
    return any(state == "begin" for _, state in _regions(source, begin, end))


def replace_regions(source, begin, end, stub=None):
    """Replaces each marked region (delimiter lines included) by ``stub``, indented like it.

    Args:
        source: the cell's text.
        begin: the begin delimiter, e.g. ``BEGIN_SOLUTION`` (found anywhere in a line).
        end: the end delimiter.
        stub: the replacement text, or None to remove the region.

    Returns:
        ``(new_source, replaced)``: the text and whether any region was found.

    Raises:
        ValueError: a nested or unclosed region.

    >>> print(replace_regions("def f(x):\\n    ### BEGIN SOLUTION\\n    return 2 * x\\n    ### END SOLUTION",
    ...                       BEGIN_SOLUTION, END_SOLUTION, CODE_STUB)[0])
    def f(x):
        # YOUR CODE HERE
        raise NotImplementedError()
    """
    lines, replaced = [], False
    for line, state in _regions(source, begin, end):
        if state == "begin":
            replaced = True
            if stub is not None:
                indent = re.match(r"\s*", line).group(0)
                lines.extend(indent + s for s in stub.split("\n"))
        elif state == "outside":
            lines.append(line)
    return "\n".join(lines), replaced


def student_cell(cell):
    """The student's version of one cell (a copy): solutions stubbed, hidden tests removed.

    Outputs are cleared, and cells are locked against editing or deletion in Jupyter the way
    nbgrader's ``LockCells`` does it.
    """
    cell = copy.deepcopy(cell)
    stub = CODE_STUB if cell.cell_type == "code" else TEXT_STUB
    cell.source, replaced = replace_regions(cell.source, BEGIN_SOLUTION, END_SOLUTION, stub)
    if is_solution(cell) and not replaced:
        cell.source = stub  # nbgrader's rule: a solution cell without a region is all solution
    cell.source, _ = replace_regions(cell.source, BEGIN_HIDDEN_TESTS, END_HIDDEN_TESTS)
    if cell.cell_type == "code":
        cell.outputs, cell.execution_count = [], None
    if is_solution(cell):
        cell.metadata["deletable"] = False
    elif is_grade(cell) or is_locked(cell):
        cell.metadata["deletable"] = False
        cell.metadata["editable"] = False
    return cell


def student_version(nb):
    """The notebook to hand out: a copy of ``nb`` with every cell made by :func:`student_cell`.

    Args:
        nb: the source notebook (an ``nbformat`` NotebookNode, version 4).

    Returns:
        A new notebook; ``nb`` is not changed. The nbgrader metadata stays, so nbgrader (and
        ``python -m classroom grade``) can match the student's cells to the source's.

    Raises:
        FormatError: the source has errors (see :func:`validate`).
    """
    check(nb)
    out = copy.deepcopy(nb)
    out.cells = [student_cell(cell) for cell in nb.cells]
    out.metadata.pop("celltoolbar", None)  # the nbgrader toolbar is for the teacher
    return out


# --- validation --------------------------------------------------------------------------


def _is_number(value):
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def _check_cell(cell, number):
    """Problems of one cell on its own (nbgrader's schema and rules, then the regions)."""
    found = []
    data = cell.get("metadata", {}).get("nbgrader")
    gid = data.get("grade_id") if isinstance(data, dict) else None
    gid = gid if isinstance(gid, str) else None

    def add(message, level="error"):
        found.append(Problem(level, number, gid, message))

    if data is not None and not isinstance(data, dict):
        add(f"metadata 'nbgrader' must be a dict, not {type(data).__name__}")
        data = None
    kind = cell.get("cell_type")
    if data is not None:
        version = data.get("schema_version")
        if version != SCHEMA_VERSION:
            add(f"nbgrader schema_version is {version!r}; this notebook format is version {SCHEMA_VERSION} "
                "(nbgrader 0.9): set it to 3, or open and save the notebook with nbgrader's toolbar")
        for key in ("grade", "solution", "locked"):
            if not isinstance(data.get(key), bool):
                add(f"metadata nbgrader.{key} must be true or false, not {data.get(key)!r}")
        if "task" in data and not isinstance(data["task"], bool):
            add(f"metadata nbgrader.task must be true or false, not {data['task']!r}")
        extra = sorted(set(data) - KEYS)
        if extra:
            add(f"unknown nbgrader metadata keys {extra} (nbgrader's schema allows only {sorted(KEYS)})")
        if "checksum" in data:
            add("has an nbgrader checksum: this looks like a released (student) notebook, not the source "
                "with the solutions", "warning")
        flagged = any(data.get(k) is True for k in ("grade", "solution", "locked", "task"))
        if flagged:
            if not isinstance(data.get("grade_id"), str) or not data.get("grade_id"):
                add("has no grade_id: every graded, solution, locked or task cell needs a unique name")
            elif not GRADE_ID.match(data["grade_id"]):
                add(f"grade_id {data['grade_id']!r} may only use letters, digits, '_' and '-'")
        if data.get("grade") is True or data.get("task") is True:
            if "points" not in data:
                add("is graded but has no points: set metadata nbgrader.points")
            elif not _is_number(data["points"]) or data["points"] < 0:
                add(f"points must be a number >= 0, not {data['points']!r}")
            elif data["points"] == 0:
                add("is graded but worth 0 points", "warning")
        elif "points" in data and data.get("grade") is False:
            add("has points but grade is false: the points count for nothing", "warning")
        if data.get("task") is True:
            if kind != "markdown":
                add("task cells have to be markdown (nbgrader's rule)")
        elif kind == "markdown" and data.get("grade") is True and data.get("solution") is not True:
            add("a graded markdown cell must also be a solution cell (nbgrader's rule)")
        elif kind == "markdown" and data.get("solution") is True and data.get("grade") is not True:
            add("a markdown solution cell must also be graded, with points (nbgrader's rule)")
    source = cell.get("source", "")
    source = "".join(source) if isinstance(source, list) else source
    for begin, end in ((BEGIN_SOLUTION, END_SOLUTION), (BEGIN_HIDDEN_TESTS, END_HIDDEN_TESTS)):
        try:
            states = [state for _, state in _regions(source, begin, end)]
        except ValueError as exc:
            add(str(exc))
            continue
        depth = 0
        for state in states:
            if state == "begin":
                depth = 1
            elif state == "end":
                if depth == 0:
                    add(f"'### {end}' has no '### {begin}' before it")
                depth = 0
    solution = data is not None and data.get("solution") is True
    grade = data is not None and data.get("grade") is True
    if BEGIN_SOLUTION in source and not solution:
        add("has a '### BEGIN SOLUTION' region but is not a solution cell: the solution would be handed "
            "out (set nbgrader.solution to true)")
    if solution and BEGIN_SOLUTION not in source:
        if kind == "code":
            add("is a solution cell without a '### BEGIN SOLUTION' ... '### END SOLUTION' region: the "
                "whole cell would be replaced by the stub (mark the part the student writes)")
        else:
            add("has no '### BEGIN SOLUTION' region: the whole cell is replaced by "
                f"'{TEXT_STUB}' in the student version", "warning")
    if BEGIN_HIDDEN_TESTS in source and not grade:
        add("has a '### BEGIN HIDDEN TESTS' region but is not a graded test cell: the tests would never "
            "count (set nbgrader.grade to true, with points)")
    return found


def validate(nb):
    """Checks that a source notebook is well-formed nbgrader; returns every problem found.

    Checks the notebook against nbformat, then each cell's nbgrader metadata against
    nbgrader's schema and rules (schema version 3, booleans, a unique and valid ``grade_id``,
    points on graded cells, markdown and task rules), then the regions (closed, not nested,
    solution regions only in solution cells and each code solution cell has one, hidden tests
    only in graded cells).

    Args:
        nb: the notebook (an ``nbformat`` NotebookNode, version 4).

    Returns:
        A list of :class:`Problem`; those at level ``"error"`` make release and grading refuse.

    >>> nb = nbformat.v4.new_notebook(cells=[autograder_tests_cell("assert True", "t1", 1), autograder_tests_cell("pass", "t1", 1)])
    >>> [str(p) for p in validate(nb)]
    ["error: cell 2 ('t1'): grade_id 't1' is used by cell 1 too: grade_ids must be unique"]
    """
    found = []
    try:
        nbformat.validate(nb)
    except nbformat.ValidationError as exc:
        found.append(Problem("error", None, None, f"not a valid Jupyter notebook: {exc.message}"))
    first_use = {}
    graded = 0
    for number, cell in enumerate(nb.get("cells", []), start=1):
        found.extend(_check_cell(cell, number))
        gid = meta(cell).get("grade_id")
        flagged = any(meta(cell).get(k) is True for k in ("grade", "solution", "locked", "task"))
        if flagged and isinstance(gid, str) and gid:
            if gid in first_use:
                found.append(Problem("error", number, gid,
                                     f"grade_id {gid!r} is used by cell {first_use[gid]} too: grade_ids must be unique"))
            else:
                first_use[gid] = number
        graded += is_grade(cell) or is_task(cell)
    if not graded:
        found.append(Problem("warning", None, None, "no cell is graded: mark test cells with grade: true and points"))
    return found


def check(nb, what="the notebook"):
    """Raises :class:`FormatError` if :func:`validate` finds an error; returns the warnings."""
    problems = validate(nb)
    errors = [p for p in problems if p.level == "error"]
    if errors:
        raise FormatError(errors, what)
    return problems
