"""``python -m classroom``: hand out and grade nbgrader assignments, with no nbgrader install.

Commands (``python -m classroom COMMAND --help`` for each)::

    validate SOURCE.ipynb ...                   check that source notebooks are well-formed nbgrader
    release SOURCE.ipynb [-o OUT.ipynb]         write the student version (default release/NAME.ipynb)
    release-all SOURCES/ [-o OUT/]              the same for every notebook in a folder
    grade SOURCE.ipynb SUBMISSION.ipynb         run the teacher's tests on a submission, print the report
    grade-all SOURCES/ SUBMISSIONS/             grade SUBMISSIONS/<student>/.../NAME.ipynb for every
                                                source NAME.ipynb; a table, --csv, --feedback

The exit status is 0 when the command did its job (whatever the scores), 1 when a notebook is
malformed, missing or unreadable (with a one-line reason).

Every submission runs in a sandbox of its own (``classroom/sandbox.py``); a layer this machine
lacks is named in each report, ``--no-sandbox`` turns it off, and with
``MINIGRAD_REQUIRE_SANDBOX=1`` a missing layer is an error.
"""

import argparse
import csv
import json
import os
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

try:
    import nbformat

    from . import grading
    from . import nbgrader_format as nbf
    from . import sandbox
except ImportError as exc:  # the core install has NumPy only
    raise SystemExit(f"python -m classroom needs Jupyter's notebook tools ({exc.name} is missing): "
                     "in minigrad's folder, pip install '.[classroom]' (or ./run setup)") from None


def _notebook_file(path, what):
    """``path`` if it is a readable file; otherwise stops with a one-line reason (exit status 1)."""
    path = Path(path)
    if path.is_dir():
        raise SystemExit(f"error: {what} {path} is a folder; expected a notebook file")
    if not path.is_file():
        raise SystemExit(f"error: {what} {path} does not exist")
    try:
        with open(path, "rb"):
            pass
    except OSError as exc:
        raise SystemExit(f"error: {what} {path} cannot be read ({exc.strerror})") from None
    return path


def _read(path, what):
    """The notebook at ``path``, or a one-line reason why not (exit status 1)."""
    path = _notebook_file(path, what)
    try:
        return grading.read(path)
    except Exception as exc:
        raise SystemExit(f"error: {what} {path} is not a readable notebook ({type(exc).__name__})") from None


def _sources(path):
    """The source notebooks: the file itself, or the folder's ``*.ipynb`` in name order."""
    path = Path(path)
    if path.is_dir():
        found = sorted(p for p in path.glob("*.ipynb") if not p.name.startswith("."))
        if not found:
            raise SystemExit(f"error: no .ipynb files in {path}")
        return found
    if not path.is_file():
        raise SystemExit(f"error: {path} does not exist")
    return [path]


def _summary(nb):
    tests = [c for c in nb.cells if nbf.is_test(c)]
    total = sum(nbf.points(c) for c in tests)
    manual = sum(nbf.points(c) for c in nb.cells if nbf.is_manual(c))
    extra = f", {grading._num(manual)} more to grade by hand" if manual else ""
    return f"{len(tests)} test cell{'' if len(tests) == 1 else 's'}, {grading._points(total)}{extra}"


def cmd_validate(args):
    bad = 0
    for path in args.sources:
        nb = _read(path, "the source")
        problems = nbf.validate(nb)
        errors = [p for p in problems if p.level == "error"]
        bad += bool(errors)
        print(f"{path}: " + (f"{len(errors)} error(s)" if errors else f"ok ({_summary(nb)})"))
        for problem in problems:
            print(f"  {problem}")
    return 1 if bad else 0


def _release(source, out):
    nb = _read(source, "the source")
    try:
        student = nbf.student_version(nb)
    except nbf.FormatError as exc:
        print(f"{source}: not released\n" + "\n".join(f"  {p}" for p in exc.problems), file=sys.stderr)
        return False
    out.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(student, str(out))
    print(f"{source} -> {out}  ({_summary(nb)})")
    return True


def cmd_release(args):
    source = Path(args.source)
    out = Path(args.output) if args.output else Path("release") / source.name
    if out.resolve() == source.resolve():
        raise SystemExit("error: the student version would overwrite the source; choose another -o")
    return 0 if _release(source, out) else 1


def cmd_release_all(args):
    out_dir = Path(args.output)
    ok = True
    for source in _sources(args.sources):
        if (out_dir / source.name).resolve() == source.resolve():
            raise SystemExit("error: the student versions would overwrite the sources; choose another -o")
        ok &= _release(source, out_dir / source.name)
    return 0 if ok else 1


def _grade_one(source, submission, args, name=None):
    limits = sandbox.Limits(memory_mb=args.memory) if args.memory else None
    try:
        return grading.grade(source, submission, timeout=args.timeout, kernel_name=args.kernel,
                             submission_name=name, sandbox=not args.no_sandbox, limits=limits,
                             total_timeout=args.total_timeout)
    except nbf.FormatError as exc:
        raise SystemExit(f"error: {exc}") from None
    except sandbox.SandboxUnavailable as exc:
        raise SystemExit(f"error: {exc}") from None


def cmd_grade(args):
    _read(args.source, "the source")
    _notebook_file(args.submission, "the submission")
    report, graded = _grade_one(args.source, args.submission, args)
    if args.output:
        nbformat.write(grading.feedback_notebook(report, graded), args.output)
    print(json.dumps(report.to_dict(), indent=2) if args.json else report)
    return 0


def _find_submission(student_dir, name):
    """The student's notebook called ``name``, anywhere under their folder (nbgrader's layout too)."""
    found = sorted(p for p in student_dir.rglob(name) if ".ipynb_checkpoints" not in p.parts)
    return found[0] if found else None


def cmd_grade_all(args):
    sources = _sources(args.sources)
    root = Path(args.submissions)
    if not root.is_dir():
        raise SystemExit(f"error: {root} is not a folder of student folders")
    students = sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith("."))
    if not students:
        raise SystemExit(f"error: no student folders in {root} (expected {root}/<student>/<notebook>.ipynb)")
    for source in sources:
        _read(source, "the source")
    jobs = []  # (student, source, submission or None)
    for student in students:
        for source in sources:
            jobs.append((student, source, _find_submission(student, source.name)))

    def run(job):
        student, source, submission = job
        if submission is None:
            print(f"{student.name}: no {source.name}", file=sys.stderr)
            return None
        print(f"{student.name}: grading {submission}", file=sys.stderr)
        return _grade_one(source, submission, args, name=f"{student.name}/{source.name}")

    # Each grading is a kernel of its own (a process, in its own sandbox): threads only wait on them.
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = list(pool.map(run, jobs))
    rows, reports, by_student = [], [], {}
    for (student, source, _), result in zip(jobs, results):
        by_student.setdefault(student, []).append((source, result))
    for student in students:
        row = {"student": student.name}
        total = maximum = 0.0
        for source, result in by_student[student]:
            max_points = sum(nbf.points(c) for c in grading.read(source).cells if nbf.is_test(c))
            maximum += max_points
            if result is None:
                row[source.stem] = f"missing/{grading._num(max_points)}"
                continue
            report, graded = result
            reports.append({"student": student.name, **report.to_dict()})
            total += report.score
            row[source.stem] = (f"{grading._num(report.score)}/{grading._num(report.max_score)}"
                                + (" FLAGGED" if report.flags else ""))
            if args.feedback:
                folder = Path(args.feedback) / student.name
                folder.mkdir(parents=True, exist_ok=True)
                (folder / f"{source.stem}.txt").write_text(f"{report}\n")
                back = grading.feedback_notebook(report, graded)
                nbformat.write(back, str(folder / source.name))
                grading.write_html(back, folder / f"{source.stem}.html")
        row["total"] = f"{grading._num(total)}/{grading._num(maximum)}"
        rows.append(row)
    columns = ["student"] + [s.stem for s in sources] + ["total"]
    if args.json:
        print(json.dumps(reports, indent=2))
    else:
        widths = [max(len(c), *(len(r[c]) for r in rows)) for c in columns]
        for line in [dict(zip(columns, columns))] + rows:
            print("  ".join(line[c].ljust(w) for c, w in zip(columns, widths)).rstrip())
    if args.csv:
        with open(args.csv, "w", newline="") as fh:
            writer = csv.DictWriter(fh, fieldnames=columns)
            writer.writeheader()
            writer.writerows(rows)
    if args.feedback:
        print(f"feedback: {args.feedback}/<student>/<notebook>.txt (the report), .ipynb and .html (the "
              "graded notebook with the report on top)", file=sys.stderr)
    return 0


def parser():
    """The command line (``python -m classroom --help``)."""
    top = argparse.ArgumentParser(prog="python -m classroom",
                                  description="Hand out and grade nbgrader assignments, with no nbgrader install.",
                                  epilog="Each command has its own --help.")
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("validate", help="check that source notebooks are well-formed nbgrader")
    p.add_argument("sources", nargs="+", metavar="SOURCE.ipynb")
    p.set_defaults(run=cmd_validate)

    p = sub.add_parser("release", help="write the student version of a source notebook")
    p.add_argument("source", metavar="SOURCE.ipynb")
    p.add_argument("-o", "--output", metavar="OUT.ipynb", help="where to write it (default: release/NAME.ipynb)")
    p.set_defaults(run=cmd_release)

    p = sub.add_parser("release-all", help="write the student version of every notebook in a folder")
    p.add_argument("sources", metavar="SOURCES", help="a folder of source notebooks (or one notebook)")
    p.add_argument("-o", "--output", metavar="OUT", default="release", help="the folder to write to (default: release)")
    p.set_defaults(run=cmd_release_all)

    for name, helptext in (("grade", "grade one submitted notebook"),
                           ("grade-all", "grade every student's notebooks in a folder")):
        p = sub.add_parser(name, help=helptext)
        if name == "grade":
            p.add_argument("source", metavar="SOURCE.ipynb", help="the teacher's notebook, with solutions")
            p.add_argument("submission", metavar="SUBMISSION.ipynb", help="the student's notebook")
            p.add_argument("-o", "--output", metavar="GRADED.ipynb",
                           help="also save the graded notebook, with the report on top and what the tests "
                                "printed and drew")
            p.set_defaults(run=cmd_grade)
        else:
            p.add_argument("sources", metavar="SOURCES", help="a folder of source notebooks (or one notebook)")
            p.add_argument("submissions", metavar="SUBMISSIONS",
                           help="a folder with one folder per student, holding their notebooks")
            p.add_argument("--csv", metavar="FILE", help="also write the table of scores as CSV")
            p.add_argument("--feedback", metavar="DIR",
                           help="write each report (.txt) and graded notebook (.ipynb, .html) to DIR/<student>/")
            p.set_defaults(run=cmd_grade_all)
        p.add_argument("--timeout", type=int, default=grading.DEFAULT_TIMEOUT, metavar="S",
                       help=f"seconds one cell may run (default {grading.DEFAULT_TIMEOUT})")
        p.add_argument("--json", action="store_true", help="print the report as JSON")
        p.add_argument("--kernel", metavar="NAME", default=None,
                       help="a Jupyter kernel to run the notebooks in (default: this Python, sandboxed; "
                            "a named kernel is not sandboxed)")
        p.add_argument("--total-timeout", type=int, default=grading.TOTAL_TIMEOUT, metavar="S",
                       help=f"seconds a whole notebook may run (default {grading.TOTAL_TIMEOUT})")
        p.add_argument("--memory", type=int, default=None, metavar="MB",
                       help=f"memory a submission may use (default {sandbox.Limits().memory_mb})")
        p.add_argument("--no-sandbox", action="store_true",
                       help="run the students' code with your rights (each report says so)")
        if name == "grade-all":
            p.add_argument("--jobs", type=int, default=min(4, os.cpu_count() or 1), metavar="N",
                           help="notebooks graded at once (default: up to 4, one per core)")
    return top


def main(argv=None):
    """Runs the command line; returns the exit status."""
    args = parser().parse_args(argv)
    try:
        return args.run(args)
    except SystemExit as stop:  # our one-line reasons: print them, exit status 1
        if isinstance(stop.code, str):
            print(stop.code, file=sys.stderr)
            return 1
        raise


if __name__ == "__main__":
    sys.exit(main())
