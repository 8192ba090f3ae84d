"""Grading a submitted notebook offline: the teacher's tests, run on the student's answers.

The steps, the way nbgrader's ``autograde`` does them, with no nbgrader install:

1. :func:`assemble` starts from the submission and puts the source's version back into every
   locked cell (test cells with their hidden tests, read-only cells), matching cells by
   ``grade_id``. A test cell the student deleted is put back after the cell it followed in the
   source; a student's own extra cells stay where they are.
2. :func:`execute` runs the result top to bottom in a fresh kernel with ``nbclient``, going on
   after errors, stopping a cell that runs longer than the timeout. The kernel runs in a
   sandbox of its own (``sandbox.py``); the grader's integrity cells run around the teacher's
   cells (``integrity.py``), and test cells run without history.
3. :func:`score_cell` scores each test cell by nbgrader's rule: an error, or anything written
   to stderr, scores 0; a number as the cell's result is partial credit; otherwise full points.
   The kernel's own reply counts too: an error whose traceback was hidden still fails.
4. A submission that changed the grading machinery is flagged for review and scores 0; what
   goes back to the student shows the test cells as released, with hidden test lines cut out.

:func:`grade` does all four and returns a :class:`Report` (``str(report)`` is the feedback a
student reads; ``report.to_dict()`` is the same as data).
"""

import atexit
import copy
import json
import re
import tempfile
import textwrap
import uuid
from dataclasses import asdict, dataclass, field
from pathlib import Path

import nbformat

from . import integrity, kernels, sandbox as sandboxing
from . import nbgrader_format as nbf

DEFAULT_TIMEOUT = 60  # seconds per cell; nbgrader's default is 30
FEEDBACK_LINES = 40  # how much of a test's printed output goes into the report
TIMEOUT_ENAME = "CellTimeoutError"
STARTUP_ATTEMPTS = 3  # a kernel that dies before running anything is started again
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


@dataclass
class TestResult:
    """The result of one test cell.

    Attributes:
        grade_id: the test cell's ``grade_id``.
        cell: the cell's number in the graded notebook, counting from 1.
        points: the points scored.
        max_points: the points the cell is worth.
        status: ``"passed"``, ``"partial"``, ``"failed"``, ``"timeout"`` or ``"not run"``.
        message: why it failed, in plain words ("" when it passed).
        feedback: what the test printed (for example a ``classroom.check_graph`` report).
        pictures: how many pictures the test drew (they are in the graded notebook).
    """

    __test__ = False  # a result, not a pytest test class

    grade_id: str
    cell: int
    points: float
    max_points: float
    status: str
    message: str = ""
    feedback: str = ""
    pictures: int = 0


@dataclass
class Report:
    """The grade of one submission.

    Attributes:
        source: the source notebook's path (or name).
        submission: the submission's path (or name).
        tests: one :class:`TestResult` per test cell, in notebook order.
        manual: ``(grade_id, max_points)`` of the cells a person grades.
        notes: other things the student or teacher should know (errors in answer cells,
            test cells put back, a kernel that died, a sandbox layer missing).
        flags: why the submission must be reviewed by a person (the grading machinery was
            changed, the code exited, ...); a flagged submission scores 0 until then.
    """

    source: str
    submission: str
    tests: list = field(default_factory=list)
    manual: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    flags: list = field(default_factory=list)

    @property
    def earned(self):
        """Points the test cells gave, flagged or not."""
        return sum(t.points for t in self.tests)

    @property
    def score(self):
        """Points scored in the test cells; 0 while the submission is flagged for review."""
        return 0.0 if self.flags else self.earned

    @property
    def max_score(self):
        """Points the test cells are worth."""
        return sum(t.max_points for t in self.tests)

    def to_dict(self):
        """The report as plain data (what ``--json`` prints)."""
        return {
            "source": self.source,
            "submission": self.submission,
            "score": self.score,
            "max_score": self.max_score,
            "tests": [asdict(t) for t in self.tests],
            "manual": [{"grade_id": g, "max_points": p} for g, p in self.manual],
            "notes": list(self.notes),
            "flagged": list(self.flags),
        }

    def __str__(self):
        lines = [f"{self.submission}  (graded against {self.source})", ""]
        for t in self.tests:
            label = {"passed": "passed", "partial": "partial"}.get(t.status, t.status.upper())
            lines.append(f"  {label:<8} {_num(t.points) + '/' + _num(t.max_points):>7}  {t.grade_id}")
            if t.message:
                lines.extend(_wrapped(t.message, "           "))
            if t.feedback:
                lines.append("           the test printed:")
                lines.extend("           | " + line for line in t.feedback.splitlines())
            if t.pictures:
                lines.append(f"           (the test drew {t.pictures} picture{'s' if t.pictures > 1 else ''}: "
                             "see the graded notebook, under the test)")
        if self.manual:
            lines.append("")
            lines.append("  to grade by hand: " + ", ".join(f"{g} ({_points(p)})" for g, p in self.manual))
        if self.notes:
            lines.append("")
            lines.append("  notes:")
            for note in self.notes:
                lines.extend(_wrapped(note, "    ", first="  - "))
        if self.flags:
            lines.append("")
            lines.append(f"  FLAGGED FOR REVIEW (the tests gave {_num(self.earned)}; no marks until a person "
                         "has looked):")
            for flag in self.flags:
                lines.extend(_wrapped(flag, "    ", first="  - "))
        lines.append("")
        lines.append(f"  score: {_num(self.score)}/{_num(self.max_score)}" + (" (flagged)" if self.flags else ""))
        return "\n".join(lines)


def _wrapped(text, indent, first=None, width=100):
    """Lines of ``text`` wrapped to ``width``, each indented (the first by ``first`` if given)."""
    out = []
    for line in text.splitlines() or [""]:
        out.extend(textwrap.wrap(line, width, initial_indent=indent, subsequent_indent=indent,
                                 break_on_hyphens=False, break_long_words=False) or [indent])
    if first is not None:
        out[0] = first + out[0][len(indent):]
    return out


def _num(x):
    """Points for people: 2 rather than 2.0, 1.5 as it is."""
    return f"{x:g}"


def _points(x):
    return f"{_num(x)} point" + ("" if x == 1 else "s")


# --- 1. the notebook to run ------------------------------------------------------------


def _new_id(taken):
    while True:
        cid = uuid.uuid4().hex[:8]
        if cid not in taken:
            taken.add(cid)
            return cid


def assemble(source, submission):
    """The notebook to grade: the submission with the source's locked cells put back.

    Args:
        source: the teacher's source notebook (solutions and hidden tests in it).
        submission: the student's notebook (a released version, filled in).

    Returns:
        ``(nb, notes)``: a new notebook, and notes on what had to be repaired.

    Rules, by ``grade_id``:

    * a locked cell of the source (test, read-only) gets the source's text, type and
      metadata, whatever the student did to it;
    * a solution cell keeps the student's text and gets the source's type and metadata;
    * a source cell missing from the submission is put back after the nearest earlier source
      cell that is there (solution cells come back as the stub, so they score nothing);
    * nbgrader metadata on a cell whose ``grade_id`` the source does not have, or on a second
      copy of a cell, is removed, so such a cell can neither score nor be mistaken for a test.
    """
    nb = copy.deepcopy(submission)
    notes = []
    by_id = {nbf.grade_id(c): c for c in source.cells if nbf.grade_id(c)}
    seen = set()
    for number, cell in enumerate(nb.cells, start=1):
        gid = nbf.grade_id(cell)
        if not gid:
            cell.get("metadata", {}).pop("nbgrader", None)  # e.g. a malformed copy
            continue
        if gid not in by_id or gid in seen:
            why = "a second copy of" if gid in seen else "not in the source:"
            notes.append(f"cell {number} is {why} {gid!r}; it ran, but counts for nothing")
            del cell.metadata["nbgrader"]
            continue
        seen.add(gid)
        teacher = by_id[gid]
        if cell.cell_type != teacher.cell_type:
            notes.append(f"cell {number} ({gid!r}) was changed from {teacher.cell_type} to "
                         f"{cell.cell_type}; it was changed back")
            cell.cell_type = teacher.cell_type
        if nbf.is_locked(teacher):
            if cell.source not in (teacher.source, nbf.student_cell(teacher).source):
                notes.append(f"cell {number} ({gid!r}) is the teacher's: its original text was put back")
            cell.source = teacher.source
        cell.metadata["nbgrader"] = copy.deepcopy(teacher.metadata["nbgrader"])
        _fit_type(cell)
    # Put back what is missing, after the nearest earlier source cell that is there.
    position = {nbf.grade_id(c): i for i, c in enumerate(nb.cells) if nbf.grade_id(c)}
    anchor = -1  # index in nb.cells after which the next missing cell goes
    for cell in source.cells:
        gid = nbf.grade_id(cell)
        if not gid:
            continue
        if gid in position:
            anchor = position[gid]
            continue
        back = nbf.student_cell(cell) if nbf.is_solution(cell) else copy.deepcopy(cell)
        nb.cells.insert(anchor + 1, back)
        notes.append(f"the submission has no cell {gid!r}: the teacher's version was put back"
                     + (" (as the empty stub)" if nbf.is_solution(cell) else ""))
        position = {nbf.grade_id(c): i for i, c in enumerate(nb.cells) if nbf.grade_id(c)}
        anchor = position[gid]
    # nbformat 4.5 wants unique cell ids; a notebook saved by an older Jupyter has none.
    nb.nbformat, nb.nbformat_minor = 4, max(nb.get("nbformat_minor", 0), 5)
    taken = set()
    for cell in nb.cells:
        cid = cell.get("id")
        if not cid or cid in taken:
            cell["id"] = _new_id(taken)
        taken.add(cell["id"])
    return nb, notes


def _fit_type(cell):
    """Gives a cell the fields its (possibly restored) type needs."""
    if cell.cell_type == "code":
        cell.setdefault("outputs", [])
        cell.setdefault("execution_count", None)
    else:
        cell.pop("outputs", None)
        cell.pop("execution_count", None)


# --- 2. running it ---------------------------------------------------------------------

TOTAL_TIMEOUT = 900  # seconds a whole notebook may run
MAX_OUTPUT = 8 << 20  # bytes of output a notebook may produce (the rest is dropped)
GRACE = 5  # seconds a kernel gets to stop after an interrupt before it is killed
GUARD = "minigrad_guard"  # metadata key of the cells the grader adds (see integrity.py)
GUARD_TIMEOUT = 120  # seconds the grader's own cells may take, whatever the students' timeout


class Run:
    """What happened while a notebook ran (filled in by :func:`execute`).

    Attributes:
        timed_out: indices of the cells stopped by the per-cell timeout.
        died: why the kernel ended early (the cells after that did not run), or None.
        replies: ``{cell index: execute_reply content}``: status, ename, evalue.
        output_cut: True when output past ``max_output`` was dropped.
    """

    def __init__(self):
        self.timed_out, self.died, self.replies, self.output_cut = set(), None, {}, False


def _client_class():
    from nbclient import NotebookClient
    from nbclient.exceptions import DeadKernelError
    from nbformat.v4 import new_output

    class GradingClient(NotebookClient):
        """nbclient's, with the grader's limits: kill a kernel that ignores an interrupt or runs past
        the notebook's total time, cap the output, and run some cells without history."""

        run, deadline, max_output, output_bytes = None, None, MAX_OUTPUT, 0

        async def async_execute_cell(self, cell, cell_index, execution_count=None, store_history=True):
            if cell.metadata.get(GUARD, {}).get("no_history"):
                store_history = False
            return await super().async_execute_cell(cell, cell_index, execution_count, store_history)

        async def _async_handle_timeout(self, timeout, cell=None):
            from time import monotonic

            if self.deadline is not None and monotonic() >= self.deadline - 0.5:
                why = (f"the notebook ran longer than {self.total_timeout} s in total; the grader stopped it "
                       "there, and the cells after that did not run")
                return await self._kill(why)
            reply = await super()._async_handle_timeout(timeout, cell)
            try:  # the interrupted cell's own reply shows that the kernel listened
                await self.kc.shell_channel.get_msg(timeout=GRACE)
            except Exception:
                return await self._kill(f"a cell ran longer than {timeout} s and did not stop when interrupted; "
                                        "the grader killed the kernel, and the cells after it did not run")
            return reply

        async def _kill(self, why):
            self.run.died = why
            await self.km.provisioner.kill()  # the sandbox's processes all end with it
            raise DeadKernelError(why)

        def output(self, outs, msg, display_id, cell_index):
            size = len(json.dumps(msg.get("content", {})))
            if msg["msg_type"] != "error":
                self.output_bytes += size
                if self.output_bytes > self.max_output:
                    if not self.run.output_cut:
                        self.run.output_cut = True
                        outs.append(new_output("stream", name="stdout", text=(
                            f"\n[the grader dropped the output from here on: more than "
                            f"{self.max_output >> 20} MB]\n")))
                    return None
            return super().output(outs, msg, display_id, cell_index)

    return GradingClient


def execute(nb, *, timeout=DEFAULT_TIMEOUT, cwd=None, kernel_name=None, sandbox=None,
            total_timeout=TOTAL_TIMEOUT, max_output=MAX_OUTPUT):
    """Runs every code cell of ``nb`` in place, in a fresh kernel, going on after errors.

    Args:
        nb: the notebook; outputs are replaced by the new ones.
        timeout: seconds one cell may run; then it is interrupted and the next cell runs. A cell
            that does not stop within a few seconds of the interrupt ends the run.
        cwd: the kernel's working folder (the submission's, so relative paths work).
        kernel_name: a Jupyter kernel's name, or None for the Python running the grader.
        sandbox: a :class:`classroom.sandbox.Sandbox` to start the kernel in (then ``cwd`` and
            ``kernel_name`` are not used), or None.
        total_timeout: seconds the whole notebook may run.
        max_output: bytes of output kept (errors are always kept).

    Returns:
        A :class:`Run`.
    """
    from time import monotonic

    from nbclient.exceptions import DeadKernelError

    run = Run()

    def after_cell(cell, cell_index, execute_reply):
        content = (execute_reply or {}).get("content", {})
        run.replies[cell_index] = {k: content.get(k) for k in ("status", "ename", "evalue")}
        if content.get("ename") == TIMEOUT_ENAME:
            run.timed_out.add(cell_index)

    started = []  # the kernel answered and the first cell may run

    def on_start(notebook):
        started.append(True)
        client.deadline = monotonic() + total_timeout

    def cell_timeout(cell):
        # The grader's own cells get at least GUARD_TIMEOUT (the prologue imports minigrad and NumPy).
        own = max(timeout, GUARD_TIMEOUT) if GUARD in cell.metadata and not cell.metadata[GUARD].get("test") else timeout
        left = (client.deadline - monotonic()) if client.deadline else own
        return max(1, int(min(own, left) + 0.999))

    folder = str(sandbox.folder) if sandbox else str(cwd or Path.cwd())
    for attempt in range(1, STARTUP_ATTEMPTS + 1):
        for cell in nb.cells:
            if cell.cell_type == "code":
                cell.outputs, cell.execution_count = [], None
        km = sandbox.kernel_manager() if sandbox else kernels.kernel_manager(kernel_name)
        client = _client_class()(
            nb, km=km, timeout=timeout, timeout_func=cell_timeout, allow_errors=True,
            interrupt_on_timeout=True, startup_timeout=120, on_notebook_start=on_start,
            error_on_timeout={"ename": TIMEOUT_ENAME, "evalue": f"ran longer than {timeout} s", "traceback": []},
            on_cell_executed=after_cell, resources={"metadata": {"path": folder}},
        )
        client.run, client.max_output, client.total_timeout = run, max_output, total_timeout
        with tempfile.TemporaryFile("w+") as log:
            try:
                # The kernel's own log (ipykernel's startup warnings) goes to a file, not the report;
                # cleanup_kc: shut the kernel down afterwards although the client did not create it.
                client.execute(cleanup_kc=True, stderr=log, stdout=log)
            except RuntimeError as exc:  # DeadKernelError, or jupyter_client's "Kernel died before ..."
                if started and isinstance(exc, DeadKernelError):
                    run.died = run.died or ("the kernel died while running the notebook (too much memory or CPU "
                                            "time, or the code exited Python?); the cells after that did not run"
                                            + _tail(log))
                    return run
                if started:
                    raise
                # nbclient already shut this kernel down but left its exit-time cleanup registered.
                atexit.unregister(client._cleanup_kernel)
                # It died before running anything (nothing of the student's ran): start a new one.
                if attempt == STARTUP_ATTEMPTS:
                    raise RuntimeError(f"the kernel did not start in {STARTUP_ATTEMPTS} attempts; "
                                       f"the last one: {exc}{_tail(log)}") from exc
                continue
        return run


def _tail(log):
    """The last lines the kernel printed, as ``": ..."``, or ``""``."""
    log.seek(0)
    tail = " ".join(log.read().strip().splitlines()[-3:])
    return f": {tail}" if tail else ""


# --- 3. scoring --------------------------------------------------------------------------

PLAIN = {
    "NotImplementedError": "not done yet: an answer cell still says `raise NotImplementedError()`",
    "NameError": "a name the test needs is not defined: did the cell that defines it run without errors?",
    "SyntaxError": "Python cannot read this code (a typo, a missing bracket or colon?)",
    "IndentationError": "the indentation is off",
    "KeyboardInterrupt": "the cell was interrupted",
}


FRAME = re.compile(r"^(?:Cell In\[\d+\], line \d+|File .*:\d+), in (\S+?)(?:\(|$)", re.M)


def _plain_text(output):
    """The text of an output as a person reads it (no terminal colours)."""
    if output.output_type == "stream":
        return output.text
    if output.output_type == "error":
        return "\n".join(ANSI.sub("", line) for line in output.traceback)
    return output.get("data", {}).get("text/plain", "")


def _timeout_message(timeout):
    return f"stopped after {timeout} s: the cell ran too long (an endless loop, or far too much work?)"


def explain_error(output, timeout=None):
    """The last line of an error, then a plain-words reading of it and the line that raised it.

    Args:
        output: an ``error`` output of a cell.
        timeout: the timeout in seconds, for the message of a cell that was stopped.

    Returns:
        Text of one to three lines.
    """
    if output.ename == TIMEOUT_ENAME or (timeout and output.ename == "KeyboardInterrupt"):
        return _timeout_message(timeout)
    last = f"{output.ename}: {output.evalue}" if output.evalue else output.ename
    text = _plain_text(output)
    # The innermost frame: IPython heads it "Cell In[3], line 2, in f(x)" or "File ...:12, in f(x)"
    # and marks the line that raised with an arrow.
    functions = FRAME.findall(text)
    arrows = [ln for ln in text.splitlines() if ln.lstrip().startswith("---->")]
    code = re.sub(r"^\s*---->\s*\d*\s?", "", arrows[-1]).strip() if arrows else ""
    where = f" (in {functions[-1]})" if functions and functions[-1] != "<module>" else ""
    lines = [last]
    if output.ename == "NotImplementedError" and where:
        lines.append(f"not done yet: `{functions[-1]}()` still says `raise NotImplementedError()`")
    elif output.ename in PLAIN:
        lines.append(PLAIN[output.ename])
    elif code and (not output.evalue or where):
        lines.append(f"at: {code}{where}")
    return "\n".join(lines)


def score_cell(cell, max_points, *, timed_out=False, timeout=None, reply=None):
    """Scores one executed test cell by nbgrader's rule (``nbgrader.utils.determine_grade``).

    An error output, or any text on stderr, scores 0; otherwise the first result that reads as
    a number in [0, max_points] is partial credit; otherwise the cell scores ``max_points``.
    NB: a number above ``max_points`` also scores ``max_points`` here; nbgrader stops with an
    error instead.

    Args:
        cell: the executed code cell.
        max_points: what the cell is worth.
        timed_out: whether the cell was stopped by the timeout.
        timeout: the timeout in seconds (for the message).
        reply: the kernel's reply to the cell (``status``, ``ename``, ``evalue``), if known: a
            cell whose reply is an error fails even when no traceback was shown.

    Returns:
        ``(points, status, message)``.
    """
    if timed_out:
        return 0.0, "timeout", _timeout_message(timeout)
    if reply and reply.get("status") == "error" and not any(o.output_type == "error" for o in cell.outputs):
        what = f"{reply.get('ename')}: {reply.get('evalue')}" if reply.get("evalue") else str(reply.get("ename"))
        return 0.0, "failed", f"{what} (the kernel reported this error, but no traceback was shown)"
    for output in cell.outputs:
        if output.output_type == "error":
            return 0.0, "failed", explain_error(output)
        if output.output_type == "stream" and output.name == "stderr":
            text = output.text.strip().splitlines()
            return 0.0, "failed", ("wrote to stderr (nbgrader counts that as a failure): "
                                   + (text[-1] if text else ""))
        if output.output_type == "execute_result":
            value = output.get("data", {}).get("text/plain", "")
            try:
                partial = float(value)
            except ValueError:
                return max_points, "passed", ""
            if 0 <= partial <= max_points:
                status = "passed" if partial == max_points else "partial"
                return partial, status, "" if status == "passed" else f"partial credit: the test gave {value}"
            return max_points, "passed", ""
    return max_points, "passed", ""


def _feedback(cell):
    """What a test cell printed to stdout (trimmed), and how many pictures it showed."""
    text = "".join(o.text for o in cell.outputs if o.output_type == "stream" and o.name == "stdout")
    for o in cell.outputs:
        if o.output_type == "display_data" and "text/plain" in o.get("data", {}) and len(o.data) == 1:
            text += o.data["text/plain"] + "\n"
    lines = text.rstrip().splitlines()
    if len(lines) > FEEDBACK_LINES:
        lines = lines[:FEEDBACK_LINES] + [f"... ({len(lines) - FEEDBACK_LINES} more lines in the graded notebook)"]
    pictures = sum(1 for o in cell.outputs if o.output_type in ("display_data", "execute_result")
                   and any(k.startswith("image/") for k in o.get("data", {})))
    return "\n".join(lines), pictures


def feedback_notebook(report, graded):
    """The graded notebook with the report in a first markdown cell: what a student gets back.

    ``graded`` is what :func:`grade` returns: its test cells show only their visible part, and
    hidden test lines are cut from every output (nbgrader's feedback shows them in full).
    """
    nb = copy.deepcopy(graded)
    fence = "````"  # four: a report quoting ``` cannot close it
    cell = nbformat.v4.new_markdown_cell(
        f"# Grade: {_num(report.score)}/{_num(report.max_score)}\n\n{fence}text\n{report}\n{fence}")
    cell["id"] = _new_id({c.get("id") for c in nb.cells})
    nb.cells.insert(0, cell)
    return nb


def write_html(nb, path):
    """Writes a notebook as one HTML page that needs no network (math drawn in; see offline_html.py)."""
    from .offline_html import to_html

    body, _ = to_html(nb)
    Path(path).write_text(body, encoding="utf-8")


def read(path):
    """Reads a notebook as nbformat version 4."""
    return nbformat.read(str(path), as_version=4)


def _read_source(source, name):
    try:
        return read(source)
    except FileNotFoundError:
        raise nbf.FormatError([f"{name} does not exist"], "the source") from None
    except IsADirectoryError:
        raise nbf.FormatError([f"{name} is a folder, not a notebook"], "the source") from None
    except Exception as exc:
        raise nbf.FormatError([f"{name} cannot be read as a notebook ({type(exc).__name__}: {exc})"],
                              "the source") from None


def _cell_label(cell, number):
    """How a note names a cell: its grade id, else its first line of code."""
    gid = nbf.grade_id(cell)
    if gid:
        return f"cell {number} ({'your answer ' if nbf.is_solution(cell) else ''}{gid!r})"
    first = next((ln.strip() for ln in cell.source.splitlines() if ln.strip()), "")
    return f"cell {number} (`{first[:60]}{'...' if len(first) > 60 else ''}`)"


def _with_guards(nb, guard):
    """The notebook to run: ``nb`` with the grader's integrity cells around the teacher's cells.

    Returns:
        ``(run_nb, nonces)``: the new notebook and ``{index in run_nb: nonce}`` of the checks.
    """
    def guard_cell(code, no_history=True):
        cell = nbformat.v4.new_code_cell(code)
        cell.metadata[GUARD] = {"no_history": no_history}
        return cell

    cells, nonces = [guard_cell(guard.prologue())], {}

    def check():
        code, nonce = guard.cell(check=True)
        nonces[len(cells)] = nonce
        cells.append(guard_cell(code))

    for cell in nb.cells:
        teacher_code = cell.cell_type == "code" and nbf.is_locked(cell)
        if nbf.is_test(cell):
            check()
            cell.metadata[GUARD] = {"no_history": True, "test": True}  # hidden tests: never in In/_ih
        cells.append(cell)
        if teacher_code:
            code, _ = guard.cell(names=integrity.defined_names(cell.source),
                                 digest=integrity.digest(cell.source) if nbf.is_test(cell) else None)
            cells.append(guard_cell(code))
    check()
    run_nb = copy.copy(nb)
    run_nb.cells = cells
    return run_nb, nonces


def _student_facing(nb, hidden):
    """The graded notebook as a student may see it: test cells as released, hidden lines cut out."""
    for cell in nb.cells:
        if nbf.is_test(cell):
            cell.source = nbf.student_cell(cell).source.rstrip("\n") + "\n# (hidden tests ran here)"
        for output in cell.get("outputs", []):
            if "text" in output:
                output.text = integrity.redact(output.text, hidden)
            if output.get("output_type") == "error":
                output.evalue = integrity.redact(output.evalue, hidden)
                output.traceback = [integrity.redact(t, hidden) for t in output.traceback]
            for mime, value in output.get("data", {}).items():
                if mime.startswith("text/") and isinstance(value, str):
                    output.data[mime] = integrity.redact(value, hidden)
    return nb


def grade(source, submission, *, timeout=DEFAULT_TIMEOUT, cwd=None, kernel_name=None,
          source_name=None, submission_name=None, sandbox=True, limits=None,
          total_timeout=TOTAL_TIMEOUT, max_output=MAX_OUTPUT):
    """Grades a submission against its source.

    Args:
        source: the source notebook, or its path.
        submission: the student's notebook, or its path.
        timeout: seconds one cell may run.
        cwd: the kernel's working folder without the sandbox (default: the submission's folder).
        kernel_name: a Jupyter kernel's name, or None for the Python running the grader (a
            named kernel cannot be sandboxed: the report says so).
        source_name: how the report names the source (default: its path).
        submission_name: how the report names the submission (default: its path).
        sandbox: run the kernel in a :class:`classroom.sandbox.Sandbox` (the default); False
            runs it with the grader's rights, and the report says so.
        limits: the sandbox's :class:`classroom.sandbox.Limits`.
        total_timeout: seconds the whole notebook may run.
        max_output: bytes of output kept.

    Returns:
        ``(report, graded)``: the :class:`Report` and the executed notebook as the student may
        see it (what the tests printed and drew, the hidden tests left out).

    A submission that cannot be read as a notebook scores 0, with a note saying why.

    Raises:
        FormatError: the source is not a well-formed nbgrader notebook, or cannot be read.
        SandboxUnavailable: ``MINIGRAD_REQUIRE_SANDBOX`` is set and a sandbox layer is missing.
    """
    if isinstance(source, (str, Path)):
        source_name = source_name or str(source)
        source = _read_source(source, source_name)
    nbf.check(source, f"the source {source_name or ''}".strip())
    unreadable, raw, filename = None, None, "submission.ipynb"
    if isinstance(submission, (str, Path)):
        submission_name = submission_name or str(submission)
        cwd = cwd or Path(submission).resolve().parent
        filename = Path(submission).name
        try:
            raw = Path(submission).read_bytes()
            submission = nbformat.reads(raw.decode("utf-8"), as_version=4)
        except Exception as exc:  # not JSON, not a notebook: the student still gets a report
            unreadable = f"the submission could not be read as a notebook ({type(exc).__name__}: {exc})"
    else:
        raw = nbformat.writes(submission).encode()
    report = Report(source=source_name or "source", submission=submission_name or "submission")
    if unreadable:
        report.notes.append(unreadable)
        report.tests = [TestResult(nbf.grade_id(c), i + 1, 0.0, nbf.points(c), "not run", "the notebook could not be read")
                        for i, c in enumerate(source.cells) if nbf.is_test(c)]
        return report, nbf.student_version(source)
    nb, report.notes = assemble(source, submission)
    for number, cell in enumerate(nb.cells, start=1):
        if cell.cell_type == "code" and not nbf.is_locked(cell):
            for why in integrity.static_findings(cell.source):
                report.flags.append(f"{_cell_label(cell, number)} {why}")
    guard = integrity.Guard()
    run_nb, nonces = _with_guards(nb, guard)
    use_sandbox = sandbox and kernel_name is None
    why_off = ("a named Jupyter kernel (--kernel) cannot be sandboxed" if kernel_name is not None
               else "the sandbox was turned off (--no-sandbox)")
    with sandboxing.Sandbox(filename, raw, limits=limits, enabled=use_sandbox, why_off=why_off) as box:
        report.notes += box.warnings
        run = execute(run_nb, timeout=timeout, cwd=cwd, kernel_name=kernel_name, sandbox=box if use_sandbox else None,
                      total_timeout=total_timeout, max_output=max_output)
    # The verdicts of the integrity checks that ran; then the grader's cells go.
    seen = set()
    for index, nonce in nonces.items():
        cell = run_nb.cells[index]
        if cell.execution_count is None and not cell.outputs:
            continue  # the kernel died before it
        for finding in guard.verdict(cell.outputs, nonce):
            if finding not in seen:
                seen.add(finding)
                report.flags.append(f"the grading machinery was changed: {finding}")
    replies = {}
    kept = []
    for index, cell in enumerate(run_nb.cells):
        if GUARD in cell.metadata and not cell.metadata[GUARD].get("test"):
            continue
        cell.metadata.pop(GUARD, None)
        replies[len(kept)] = run.replies.get(index)
        if index in run.timed_out:
            replies[len(kept)] = {"status": "timeout"}
        kept.append(cell)
    nb.cells = kept
    hidden = integrity.hidden_lines(source)
    for index, cell in enumerate(nb.cells):
        number, gid = index + 1, nbf.grade_id(cell)
        reply = replies.get(index) or {}
        timed_out = reply.get("status") == "timeout"
        if reply.get("ename") == "SystemExit" or any(o.get("ename") == "SystemExit" for o in cell.get("outputs", [])):
            report.flags.append(f"{_cell_label(cell, number)}: the code called exit() (SystemExit)")
        if nbf.is_test(cell):
            max_points = nbf.points(cell)
            if run.died and cell.execution_count is None and not cell.outputs:
                report.tests.append(TestResult(gid, number, 0.0, max_points, "not run", "the kernel died before this cell"))
                continue
            got, status, message = score_cell(cell, max_points, timed_out=timed_out, timeout=timeout, reply=reply)
            feedback, pictures = _feedback(cell)
            report.tests.append(TestResult(gid, number, got, max_points, status, integrity.redact(message, hidden),
                                           integrity.redact(feedback, hidden), pictures))
        elif nbf.is_manual(cell):
            report.manual.append((gid, nbf.points(cell)))
        elif cell.cell_type == "code":
            errors = [o for o in cell.outputs if o.output_type == "error"]
            if errors:
                first = explain_error(errors[0], timeout if timed_out else None).splitlines()
                report.notes.append(f"{_cell_label(cell, number)} raised " + integrity.redact(" / ".join(first), hidden))
    if run.died:
        report.notes.append(run.died)
    if run.output_cut:
        report.notes.append(f"the notebook printed more than {max_output >> 20} MB; the rest was dropped")
    return report, _student_facing(nb, hidden)
