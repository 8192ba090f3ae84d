"""``python -m classroom grade-all`` grades several notebooks at once (up to four by default), in
threads, so cells are parsed in several threads at once. On CPython 3.11 two concurrent
``ast.parse`` calls can fail with "SystemError: AST constructor recursion depth mismatch"; the
grader must not."""

import sys
import threading
from pathlib import Path

from classroom import integrity

# A cell of the size a student's answer or a grader's helper reaches.
CELL = (Path(integrity.__file__).parent / "grading.py").read_text()


class _FinalizerThatRunsCode:
    """Garbage whose finalizer runs bytecode, so a thread switch can happen in the middle of a parse
    (the garbage collector runs while ast.parse builds its nodes)."""

    def __del__(self):
        total = 0
        for i in range(200):
            total += i


def _drop_cyclic_garbage(count):
    for _ in range(count):
        a, b = _FinalizerThatRunsCode(), _FinalizerThatRunsCode()
        a.other, b.other = b, a


def test_cells_parsed_in_four_threads_at_once_give_the_names_of_one_thread():
    expected = integrity.defined_names(CELL)
    assert {"grade", "Report"} <= expected  # the cell is really parsed
    failures, results = [], []

    def grade_many():
        for _ in range(25):
            _drop_cyclic_garbage(50)
            try:
                results.append(integrity.defined_names(CELL))
            except Exception as error:  # noqa: BLE001 - every failure is the finding
                failures.append(repr(error))

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as the interpreter can
    try:
        threads = [threading.Thread(target=grade_many) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert failures == [], failures[:3]
    assert len(results) == 100 and all(names == expected for names in results)
