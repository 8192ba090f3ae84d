"""The notebooks' "Check yourself" cells: predict first, then run (viz/check.py).

* Every question is a pair of cells: the learner's prediction cell, unanswered
  (every ``my_...`` name is assigned ``...``), then a check cell that calls
  ``check(my_..., engine=..., answer=..., why=...)``, collapsed in JupyterLab
  (``jupyter.source_hidden``; a collapsed cell still shows its first line, so that line is a
  comment) and behind a toggle in the book (``hide-input``).
* The saved output of a check cell shows no answer outside its folded ``<details>``.
* Running a notebook with predictions written in gives "Right" for a right one and
  "Not quite" for a wrong one (two notebooks, run for real).

That every answer agrees with the engine is checked by nbval itself: ``check``
raises when a notebook's ``answer=`` differs from what the engine computed.
"""

import ast
import json
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((REPO / "notebooks").glob("[0-9][0-9]_*.ipynb"))


def _cells(path):
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def _source(cell):
    return "".join(cell["source"])


def _check_call(cell):
    """The ``check(...)`` call of a check cell, or None."""
    for node in ast.walk(ast.parse(_source(cell))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "check":
            return node
    return None


def _predictions(cell):
    """The ``my_...`` names a cell assigns, with the value nodes assigned to them."""
    found = {}
    for node in ast.walk(ast.parse(_source(cell))):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                names = target.elts if isinstance(target, ast.Tuple) else [target]
                values = node.value.elts if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple) \
                    else [node.value] * len(names)
                for name, value in zip(names, values):
                    if isinstance(name, ast.Name) and name.id.startswith("my_"):
                        found[name.id] = value
    return found


def _questions(path):
    """(prediction cell, check cell) pairs, in order."""
    cells = [c for c in _cells(path) if c["cell_type"] == "code"]
    return [(cells[i - 1], cell) for i, cell in enumerate(cells) if _check_call(cell) is not None]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_question_starts_unanswered_and_hides_its_answer(path):
    questions = _questions(path)
    assert questions, f"{path.name}: no check(...) cell"
    problems = []
    for number, (predict, checked) in enumerate(questions, start=1):
        where = f"{path.name}, question {number}"
        guesses = _predictions(predict)
        if not guesses:
            problems.append(f"{where}: the cell before check(...) assigns no my_... prediction")
        for name, value in guesses.items():
            if not (isinstance(value, ast.Constant) and value.value is Ellipsis):
                problems.append(f"{where}: {name} is answered before the learner predicts: {ast.unparse(value)}")
        call = _check_call(checked)
        keywords = {k.arg: k.value for k in call.keywords}
        first = ast.unparse(call.args[0]) if call.args else ""
        if not set(re.findall(r"my_\w+", first)) or set(re.findall(r"my_\w+", first)) != set(guesses):
            problems.append(f"{where}: check() is given {first!r}, the cell above predicts {sorted(guesses)}")
        for needed in ("engine", "answer", "why"):
            if needed not in keywords:
                problems.append(f"{where}: check() has no {needed}=")
        first_line = _source(checked).split("\n", 1)[0]
        if not first_line.startswith("#") or "answer=" in first_line:
            problems.append(f"{where}: the check cell's first line, which JupyterLab shows when the cell is "
                            f"collapsed, must be a comment: {first_line!r}")
        meta = checked["metadata"]
        if not meta.get("jupyter", {}).get("source_hidden"):
            problems.append(f"{where}: the check cell is not collapsed in JupyterLab (jupyter.source_hidden)")
        if "hide-input" not in meta.get("tags", []):
            problems.append(f"{where}: the check cell has no hide-input tag (a toggle in the book)")
        # What the notebook shows before anyone predicted: no answer outside the folded details.
        outputs = [o for o in checked.get("outputs", []) if "data" in o]
        if len(outputs) != 1:
            problems.append(f"{where}: the check cell should show one feedback, it has {len(outputs)} outputs")
            continue
        text = "".join(outputs[0]["data"].get("text/plain", ""))
        html = "".join(outputs[0]["data"].get("text/html", ""))
        if not text.startswith("Predict first"):
            problems.append(f"{where}: the saved feedback is not the unanswered one: {text[:80]!r}")
        folded = re.sub(r"<details.*?</details>", "", html, flags=re.S)
        shown = re.sub(r"<[^>]+>", "", folded).strip()
        if "<details" not in html or shown != text.strip():
            problems.append(f"{where}: the saved HTML shows more than 'Predict first' outside its details: {shown!r}")
    assert not problems, "\n".join(problems)


def _right_and_wrong(path):
    """The notebook with odd questions predicted right and even ones wrong; the expected verdicts."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    expected = []
    for number, (predict, checked) in enumerate(_questions(path), start=1):
        answer = ast.literal_eval(next(k.value for k in _check_call(checked).keywords if k.arg == "answer"))
        right = number % 2 == 1
        value = answer if right else _wrong(answer)
        names = list(_predictions(predict))
        target = code[code.index(predict)]
        lines = _source(target).split("\n")
        assign = next(i for i, line in enumerate(lines) if line.startswith(", ".join(names)))
        lines[assign] = f"{', '.join(names)} = {value!r}"
        target["source"] = "\n".join(lines)
        expected.append((checked["id"], "Right:" if right else "Not quite:"))
    return nb, expected


def _wrong(answer):
    if answer is None:
        return 0
    if isinstance(answer, bool):
        return not answer
    if isinstance(answer, (int, float)):
        return answer + 7
    if isinstance(answer, str):
        return answer + "x"
    return type(answer)([_wrong(answer[0]), *answer[1:]])


@pytest.mark.parametrize("name", ["01_tensors_and_the_graph", "12_inplace_and_versions"])
def test_a_prediction_gets_right_or_not_quite_when_run(name, tmp_path):
    import nbclient
    import nbformat

    path = REPO / "notebooks" / f"{name}.ipynb"
    nb, expected = _right_and_wrong(path)
    notebook = nbformat.reads(json.dumps(nb), as_version=4)
    nbclient.NotebookClient(notebook, timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}}).execute()
    shown = {c["id"]: "".join(o["data"]["text/plain"]) for c in notebook.cells if c["cell_type"] == "code"
             for o in c.get("outputs", []) if "data" in o and "text/plain" in o["data"]}
    for ident, verdict in expected:
        assert shown[ident].startswith(verdict), f"{name}, cell {ident}: {shown[ident]!r}"
        assert "Why:" in shown[ident], f"{name}, cell {ident}: no explanation in {shown[ident]!r}"


# What PyTorch does not have, and where the notebooks must say so (the nearest PyTorch tool with it).
MINIGRAD_ONLY = re.compile(r"\bviz\.\w+|iter_backward|graph\.observe")
BADGE = "**minigrad only**"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_minigrad_only_tools_are_marked_before_their_first_use(path):
    cells = _cells(path)
    for index, cell in enumerate(cells):
        if cell["cell_type"] != "code" or _check_call(cell) is not None:
            continue
        used = MINIGRAD_ONLY.findall(re.sub(r"^(import|from) .*$", "", _source(cell), flags=re.M))
        if used:
            notes = [_source(c) for c in cells[:index] if c["cell_type"] == "markdown" and BADGE in _source(c)]
            assert notes, f"{path.name}: cell {index} uses {sorted(set(used))} with no '{BADGE}' note before it"
            assert any("PyTorch" in note.split(BADGE, 1)[1] for note in notes), "the note names no PyTorch equivalent"
            return


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_notebook_links_the_glossary_and_the_figure_and_ends_with_its_mistakes(path):
    cells = _cells(path)
    opening = _source(cells[0])
    for page in ("glossary.md", "the_engine_at_a_glance.md"):
        assert f"({page})" in opening, f"{path.name}: the first cell does not link {page}"
        assert (path.parent / page).is_file(), f"{page} is not next to the notebooks"
    last = _source(cells[-1])
    assert cells[-1]["cell_type"] == "markdown" and last.startswith("## Common mistakes"), (
        f"{path.name}: the last cell is not a '## Common mistakes' recap")
    assert last.count("\n- ") >= 3, f"{path.name}: the recap has fewer than three mistakes"
