"""The five assignments grade what they should, and their feedback names the right node.

Each source notebook in ``assignments/`` is graded the way a teacher grades a submission
(``classroom.grading.grade``, what ``python -m classroom grade`` runs): released with
``student_version``, filled in, then run in a fresh kernel with the source's locked cells and
hidden tests put back.

* filled in with the source's own solutions, it scores full marks;
* handed in as released (every answer still ``raise NotImplementedError()``), it scores nothing,
  so no test passes without the student's code;
* filled in with one deliberately wrong answer from ``wrong_solutions/`` (a wrong sign, a missing
  broadcast reduction, gradients overwritten instead of added, ...), exactly the tests of that
  answer fail, and their messages name the node (``SquareBackward``, ``ExpBackward0``, ...) and
  say what was expected and what was got; where a test draws the graph, the drawn node marked
  as failed is that node.
"""

import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import nbformat
import pytest
import viz.dot

from classroom import grading
from classroom import nbgrader_format as nbf

ROOT = Path(__file__).resolve().parents[2]
ASSIGNMENTS = ROOT / "assignments"
WRONG = Path(__file__).resolve().parent / "wrong_solutions"
NAMES = [
    "01_first_backward_rule",
    "02_broadcasting_adjoint",
    "03_topological_order",
    "04_graph_freeing",
    "05_training_loop",
]
IMPORTS = "import numpy as np, minigrad, viz, classroom"
FAILED_FILL = viz.dot.STYLE["state:failed"][0]["fillcolor"]  # viz.dot's fill for a node marked "failed"


def source(name):
    return nbformat.read(str(ASSIGNMENTS / f"{name}.ipynb"), as_version=4)


def wrong_answers(path):
    """``{grade_id: code}`` from a file of ``# %% <grade_id>`` sections."""
    answers, current = {}, None
    for line in path.read_text().splitlines():
        marker = re.match(r"^# %% (\S+)\s*$", line)
        if marker:
            current = marker.group(1)
            answers[current] = []
        elif current is not None:
            answers[current].append(line)
    return {gid: "\n".join(lines).strip("\n") for gid, lines in answers.items()}


def submission(src, answers=None):
    """The released notebook, filled in with the source's solutions except ``answers``.

    With ``answers=None`` it is handed in as released: every answer cell is still the stub.
    """
    student = nbf.student_version(src)
    if answers is None:
        return student
    solutions = {nbf.grade_id(c): c.source for c in src.cells if nbf.is_solution(c)}
    unknown = set(answers) - set(solutions)
    assert not unknown, f"no answer cells {sorted(unknown)} in this assignment"
    for cell in student.cells:
        gid = nbf.grade_id(cell)
        if gid in solutions:
            cell.source = answers.get(gid, solutions[gid])
    return student


def grade(src, sub, tmp_path):
    report, graded = grading.grade(src, sub, cwd=tmp_path, timeout=120)
    return report, {t.grade_id: t for t in report.tests}, graded


@pytest.fixture(autouse=True)
def _offline_data(tmp_path, monkeypatch):
    # load_digits() reads the copy inside the scikit-learn wheel; its data home must not be ~.
    monkeypatch.setenv("SCIKIT_LEARN_DATA", str(tmp_path / "scikit_learn_data"))
    monkeypatch.setenv("MPLBACKEND", "Agg")


# --- the sources -----------------------------------------------------------------------------


def test_there_are_five_assignments_in_order():
    assert sorted(p.stem for p in ASSIGNMENTS.glob("[0-9][0-9]_*.ipynb")) == NAMES


@pytest.mark.parametrize("name", NAMES)
def test_source_is_a_well_formed_nbgrader_notebook(name):
    nb = source(name)
    assert [str(p) for p in nbf.validate(nb)] == []
    first = nb.cells[0]
    assert first.cell_type == "markdown" and first.source.startswith("# ")
    total = sum(nbf.points(c) for c in nb.cells if nbf.is_test(c))
    assert f"**Total: {total:g} points**" in first.source
    assert nbf.is_locked(first) and not nbf.is_grade(first)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code[0].source == IMPORTS and nbf.is_locked(code[0]) and not nbf.is_grade(code[0])
    # A template, not a record of a run: no outputs are stored.
    assert all(not c.outputs and c.execution_count is None for c in code)
    answers = [c for c in nb.cells if nbf.is_solution(c)]
    tests = [c for c in nb.cells if nbf.is_test(c)]
    assert answers and tests
    assert all("### BEGIN SOLUTION" in c.source for c in answers)
    assert all(c.metadata["nbgrader"]["schema_version"] == 3 for c in nb.cells if nbf.meta(c))
    assert any("### BEGIN HIDDEN TESTS" in c.source for c in tests)
    # Tests must assert something the student can read: every test cell has an assertion or
    # calls a helper or checker that asserts.
    assert all("assert" in c.source or "check_" in c.source or "compare_" in c.source for c in tests)


# --- grading the sources ------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_the_solutions_score_full_marks(name, tmp_path):
    src = source(name)
    report, tests, _ = grade(src, submission(src, {}), tmp_path)
    assert report.max_score == 10
    failed = {gid: t.message for gid, t in tests.items() if t.status != "passed"}
    assert failed == {}, str(report)
    assert report.score == report.max_score
    assert report.notes == [], str(report)


@pytest.mark.parametrize("name", NAMES)
def test_the_released_notebook_scores_nothing(name, tmp_path):
    src = source(name)
    report, tests, _ = grade(src, submission(src), tmp_path)
    passed = [gid for gid, t in tests.items() if t.points > 0]
    assert passed == [], f"these tests pass with no answer written: {passed}"


# --- grading deliberately wrong answers ------------------------------------------------------------

# (wrong answer file, assignment, {failing test: words its message must contain},
#  the node the test's picture must mark as failed (or None), tests that must still pass)
CASES = [
    ("01_square_wrong_sign", "01_first_backward_rule",
     {"test_square_backward": ["SquareBackward", "input 0", "expected [-3.0, 1.0, 4.0]", "got [3.0, -1.0, -4.0]"],
      "test_together": ["SquareBackward", "expected", "got"]},
     "SquareBackward",
     ["test_square_forward", "test_sigmoid_forward", "test_sigmoid_backward"]),
    ("02_missing_broadcast_reduction", "02_broadcasting_adjoint",
     {"test_broadcast_mul_shapes": ["BroadcastMulBackward", "input 1 (b)", "shape (3, 4)", "shape (4,)",
                                    "sum_to_shape"],
      "test_broadcast_mul_gradients": ["BroadcastMulBackward", "input 1", "shape (3, 4)", "shape (4,)"]},
     "BroadcastMulBackward",
     ["test_sum_to_shape"]),
    ("03_overwrite_instead_of_accumulate", "03_topological_order",
     {"test_run_backward": ["`x.grad` should be", "ExpBackward0", "(the node that makes `h`)", "2 places",
                            "SinBackward0", "CosBackward0", "add them up"],
      "test_run_backward_more": ["[3.0, 5.0]"]},
     "ExpBackward0",
     ["test_topological_order", "test_topological_order_hard"]),
    ("03_breadth_first_order", "03_topological_order",
     {"test_topological_order_hard": ["ExpBackward0 is at position", "SinBackward0", "sends it a gradient"]},
     None,
     ["test_topological_order"]),
    ("03_recursive_order", "03_topological_order",
     {"test_topological_order_hard": ["recursion limit", "10,000"]},
     None,
     ["test_topological_order", "test_run_backward"]),
    ("04_declared_not_held", "04_graph_freeing",
     {"test_held_tensors": ["MulBackward0", "c = x * 2.0", "_saved_other", "('self', 'other')"]},
     None,
     []),
    ("04_ignores_inputs", "04_graph_freeing",
     {"test_predict_freed_inputs": ["MulBackward0 (the node that makes `h`)", "TanhBackward0 (the node that makes `t`)",
                                    "the engine freed nothing there"]},
     None,
     ["test_held_tensors", "test_predict_freed", "test_explain_second_backward"]),
    ("05_no_zero_grad", "05_training_loop",
     {"test_train_clears_gradients": ["At step 2", "2.0 times", "zero_grad"]},
     None,
     ["test_sgd_step", "test_zero_grad", "test_accuracy"]),
    # Assignment 1: the chain rule's factor, a backward that is not differentiable, sigmoid's slope.
    ("01_square_ignores_grad", "01_first_backward_rule",
     {"test_square_backward": ["SquareBackward", "input 0", "expected", "got"],
      "test_together": ["SquareBackward"]},
     "SquareBackward",
     ["test_square_forward", "test_sigmoid_forward", "test_sigmoid_backward"]),
    ("01_square_backward_in_numpy", "01_first_backward_rule",
     {"test_square_backward": ["Square's backward is not differentiable", "create_graph=True", "NumPy"]},
     None,
     ["test_square_forward", "test_sigmoid_forward", "test_sigmoid_backward", "test_together"]),
    ("01_sigmoid_forgets_one_minus", "01_first_backward_rule",
     {"test_sigmoid_backward": ["SigmoidBackward", "expected", "got"], "test_together": ["SigmoidBackward"]},
     "SigmoidBackward",
     ["test_square_forward", "test_square_backward", "test_sigmoid_forward"]),
    ("01_sigmoid_derivative_of_input", "01_first_backward_rule",
     {"test_sigmoid_backward": ["SigmoidBackward", "expected", "got"], "test_together": ["SigmoidBackward"]},
     "SigmoidBackward",
     ["test_square_forward", "test_square_backward", "test_sigmoid_forward"]),
    # Assignment 2: the adjoint of broadcasting, half done or averaged; the product rule's factors.
    ("02_sum_without_keepdim", "02_broadcasting_adjoint",
     {"test_sum_to_shape": ["sum_to_shape(grad of shape (2, 3), (1, 3)) should have shape (1, 3)",
                            "yours has shape (3,)"],
      "test_broadcast_mul_shapes": ["BroadcastMulBackward"]},
     None,
     []),
    ("02_leading_axes_only", "02_broadcasting_adjoint",
     {"test_sum_to_shape": ["should have shape (1, 3)", "yours has shape (2, 3)"],
      "test_broadcast_mul_shapes": ["BroadcastMulBackward"]},
     None,
     []),
    ("02_mean_instead_of_sum", "02_broadcasting_adjoint",
     {"test_sum_to_shape": ["should be [3.0, 5.0, 7.0]", "yours gave [1.5, 2.5, 3.5]"],
      "test_broadcast_mul_gradients": ["BroadcastMulBackward"]},
     "BroadcastMulBackward",
     ["test_broadcast_mul_shapes"]),
    ("02_swapped_factors", "02_broadcasting_adjoint",
     {"test_broadcast_mul_gradients": ["BroadcastMulBackward", "expected", "got"]},
     "BroadcastMulBackward",
     ["test_sum_to_shape", "test_broadcast_mul_shapes"]),
    # Assignment 3: recursion behind a raised limit; one gradient tensor stored in two leaves.
    ("03_recursion_limit_raised", "03_topological_order",
     {"test_topological_order_hard": ["Python calls deep on a chain of 300 nodes", "recursion"]},
     None,
     ["test_topological_order", "test_run_backward", "test_run_backward_more"]),
    ("03_aliased_leaf_grad", "03_topological_order",
     {"test_run_backward": ["x.grad and w.grad are the same tensor object", "AddBackward0", "grad.clone()"]},
     None,
     ["test_topological_order", "test_topological_order_hard", "test_run_backward_more"]),
    # Assignment 4: an explanation without the saved tensors; freed tensors still "held"; one node only.
    ("04_explain_lists_every_node", "04_graph_freeing",
     {"test_explain_second_backward": ["lost its _saved_", "does not name that saved tensor"]},
     None,
     ["test_held_tensors", "test_predict_freed", "test_predict_freed_inputs"]),
    ("04_held_ignores_release", "04_graph_freeing",
     {"test_held_tensors": ["has been released and holds nothing"],
      "test_predict_freed": ["a new prediction", "should be empty"]},
     None,
     ["test_predict_freed_inputs", "test_explain_second_backward"]),
    ("04_predict_root_only", "04_graph_freeing",
     {"test_predict_freed": ["TanhBackward0 (the node that makes `t`)", "the engine freed _saved_result",
                             "you predicted nothing"],
      "test_predict_freed_inputs": ["the engine freed", "you predicted nothing"],
      "test_explain_second_backward": ["a second backward fails", "should return a sentence"]},
     None,
     ["test_held_tensors"]),
    # Assignment 5: zero_grad once per epoch; an update that changes nothing; no batches; a count.
    ("05_zero_grad_per_epoch", "05_training_loop",
     {"test_train_clears_gradients": ["With 3 batches per epoch", "zero_grad", "not once per epoch"]},
     None,
     ["test_sgd_step", "test_zero_grad", "test_accuracy"]),
    ("05_sgd_rebinds_the_name", "05_training_loop",
     {"test_sgd_step": ["[0.95, 2.1]", "yours gave [1.0, 2.0]"], "test_train_loss_falls": ["The loss should fall"]},
     None,
     ["test_zero_grad", "test_train_clears_gradients", "test_accuracy"]),
    ("05_full_batch", "05_training_loop",
     {"test_train_loss_falls": ["in batches of 64", "it returned list of length 2"],
      "test_train_clears_gradients": ["should run backward 6 times", "got 2 gradients"]},
     None,
     ["test_sgd_step", "test_zero_grad", "test_accuracy"]),
    ("05_accuracy_counts", "05_training_loop",
     {"test_accuracy": ["accuracy 2/3", "yours gave 2.0"]},
     None,
     ["test_sgd_step", "test_zero_grad", "test_train_loss_falls", "test_train_clears_gradients"]),
]


def _marked_nodes(svg):
    """The text of every drawn graph node in the 'failed' state (viz gives it that class and fill)."""
    marked = []
    for classes, group in re.findall(r'<g id="[^"]*" class="(node[^"]*)">(.*?)</g>', svg, flags=re.S):
        if "failed" in classes.split() and f'fill="{FAILED_FILL}"' in group:
            marked.append(" ".join(re.findall(r"<text[^>]*>([^<]*)</text>", group)))
    return marked


@pytest.fixture(scope="module")
def wrong_gradings(tmp_path_factory):
    """Every wrong answer graded once, three at a time (each a kernel of its own)."""
    scratch = tmp_path_factory.mktemp("wrong")

    def one(case):
        wrong, name = case[0], case[1]
        src = source(name)
        return wrong, grade(src, submission(src, wrong_answers(WRONG / f"{wrong}.py")), scratch)

    with ThreadPoolExecutor(max_workers=3) as pool:
        return dict(pool.map(one, CASES))


def test_every_assignment_has_five_plausible_wrong_answers_each_a_case():
    files = sorted(p.stem for p in WRONG.glob("*.py"))
    assert files == sorted(c[0] for c in CASES)  # every file is graded, every case has its file
    for name in NAMES:
        assert sum(c[1] == name for c in CASES) >= 5, name


@pytest.mark.parametrize("wrong, name, failing, marked, passing", CASES, ids=[c[0] for c in CASES])
def test_a_wrong_answer_is_caught_with_the_right_node_named(wrong, name, failing, marked, passing, wrong_gradings):
    report, tests, graded = wrong_gradings[wrong]
    assert report.flags == [], str(report)  # a wrong answer, not a cheat
    for gid, words in failing.items():
        result = tests[gid]
        assert result.status == "failed" and result.points == 0, str(report)
        assert result.message.startswith("AssertionError: "), result.message
        for word in words:
            assert word in result.message, f"{gid}: {word!r} not in {result.message!r}"
    for gid in passing:
        assert tests[gid].status == "passed", str(report)
    assert report.score < report.max_score
    if marked is None:
        return
    # The test drew the graph with the wrong node marked (a node built by the student's code).
    pictures = []
    for cell in graded.cells:
        if nbf.grade_id(cell) in failing:
            pictures += [o.data["image/svg+xml"] for o in cell.outputs
                         if o.output_type == "display_data" and "image/svg+xml" in o.get("data", {})]
    assert pictures, "the failing test drew no picture"
    for svg in pictures:
        nodes = _marked_nodes(svg)
        assert len(nodes) == 1 and marked in nodes[0], nodes
