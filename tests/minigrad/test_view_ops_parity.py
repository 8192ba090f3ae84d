"""View ops on tensors of every rank, as PyTorch gives them: values, shapes, graph, errors, warnings.

Each expression runs on minigrad and on PyTorch from the same numbers, on a leaf that requires
grad (in grad mode and under no_grad) and on one that does not; what a learner can see must be
the same: the result, its ``requires_grad``, its ``grad_fn``'s name, whether it is a view, or
the exception's type and PyTorch's wording.
"""

import subprocess
import sys
import pytest

import minigrad
from torch_parity import expression_outcome

EXPRESSIONS = [
    "x1.T", "x3.T", "x0.T", "x2.T", "x1.mT", "x2.mT", "x3.mT", "x0.mT", "x0.t()", "x1.t()", "x2.t()", "x3.t()",
    "x2.transpose(0, -1)", "x3.transpose(-1, -3)", "x3.transpose(0, 3)", "x0.transpose(0, 0)", "x0.transpose(-1, 0)",
    "x0.transpose(0, 1)", "x1.transpose(0, 0)",
    "x2.reshape(-1)", "x2.reshape(3, -1)", "x2.reshape((2, 3))", "x2.reshape([6])", "x2.view(6)", "x2.view(-1, 2)",
    "x2.t().view(6)", "x2.t().reshape(6)", "x2.reshape(4, -1)", "x2.reshape(-1, -1)",
    "x3.permute(2, 0, 1)", "x3.permute(0, 0, 1)", "x3.permute(-1, 0, 1)", "x3.permute((2, 1, 0))", "x3.permute(0, 1)",
    "x3.permute(0, 5, 1)", "x3.permute(0, -4, 1)", "x1.permute(0)", "x1.permute(1)",
    "x2.unsqueeze(0)", "x2.unsqueeze(-1)", "x2.unsqueeze(3)", "x2.unsqueeze(-4)", "x0.unsqueeze(0)",
    "x2.unsqueeze(0).squeeze()", "x2.squeeze(0)", "x2.squeeze(-1)", "x2.squeeze(5)", "x0.squeeze()", "x0.squeeze(0)",
    "x1.expand(3, 3)", "x1.expand(2, -1)", "x1.expand(-1, 3)", "x1.expand(2, -1, 3)", "x1.expand(4)", "x1.expand(2)",
    "x0.expand(2, 2)", "x2[:1].expand(4, 3)", "x2.expand(2, 2, 3)", "x2.expand(3)", "x2.expand_as(x3)",
    "x1[1]", "x1[-1]", "x1[3]", "x1[-4]", "x1[1:]", "x1[::2]", "x2[1]", "x2[1:, 1]", "x2[..., 1]", "x2[1][2]",
    "x0[0]", "x0[0:1]", "x0[...]", "x0[None]", "x0[True]", "x0[False]", "x1[True]", "x1[False]", "x2[1.0]",
    "x2.flatten()", "x3.flatten(1)", "x0.flatten()", "x3.flatten(2, 0)",
    "x2.narrow(1, 1, 2)", "x2.unbind(1)", "x2.split(1)", "x2.chunk(2, 1)", "x2.swapaxes(0, 1)",
]


SHAPES = {"x0": (), "x1": (3,), "x2": (2, 3), "x3": (2, 3, 4)}


@pytest.mark.parametrize("requires_grad, grad_mode", [(True, True), (True, False), (False, True)],
                         ids=["recorded", "no_grad", "plain"])
@pytest.mark.parametrize("expression", EXPRESSIONS)
def test_a_view_op_gives_what_pytorch_gives(expression, requires_grad, grad_mode, torch):
    assert expression_outcome(minigrad, expression, requires_grad, grad_mode, SHAPES) == \
        expression_outcome(torch, expression, requires_grad, grad_mode, SHAPES)  # (.T's warnings: below)


_WARNINGS_SCRIPT = """
import warnings, {lib} as lib
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    x0, x1, x2, x3 = lib.tensor(1.0), lib.ones(3), lib.ones(2, 3), lib.ones(2, 3, 4)
    x1.T; x3.T; x0.T; x0.T; x2.T; x0.mT; x0.mT; x2.mT
for w in caught:
    print(w.category.__name__, w.filename == "<string>", w.lineno, str(w.message).replace("torch.", "minigrad."))
"""


def test_the_deprecation_warnings_of_t_and_mt_come_once_a_process_at_the_users_line():
    def warned(lib):
        run = subprocess.run([sys.executable, "-c", _WARNINGS_SCRIPT.format(lib=lib)], capture_output=True,
                             text=True, check=True)
        return [line.split(" (Triggered internally")[0] for line in run.stdout.splitlines()]

    mine, theirs = warned("minigrad"), warned("torch")
    assert mine == theirs
    assert len(mine) == 3  # .T of a vector (once for every rank but 2), .T of a 0-d tensor, .mT of one
    user_line = next(n for n, line in enumerate(_WARNINGS_SCRIPT.splitlines(), 1) if line.strip().startswith("x1.T"))
    assert all(line.startswith(f"UserWarning True {user_line} ") for line in mine)
