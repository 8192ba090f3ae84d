"""Comparing minigrad with PyTorch: the rules for errors' wording and graphs' shapes in one place.

minigrad's message is PyTorch's (with ``torch.`` read as ``minigrad.``), optionally
followed by a plain-language hint after ``HINT``. A graph is compared as the nested names
of its nodes (``graph_names``).
"""

import pytest

import minigrad

HINT = "\n\nIn plain words: "


def pytorch_part(message):
    """A message without minigrad's plain-language hint: the part that is PyTorch's wording."""
    return str(message).split(HINT)[0]


def graph_names(node, geometry=False):
    """The graph below ``node`` as ``(name, (children...))``, None for a missing edge.

    ``geometry``: add an ``AsStridedBackward0``'s saved size, stride and storage offset.
    """
    if node is None:
        return None
    name = node.name().replace("torch::autograd::", "")
    if geometry and name == "AsStridedBackward0":
        name += f"{tuple(node._saved_size)}{tuple(node._saved_stride)}+{node._saved_storage_offset}"
    return (name, tuple(graph_names(child, geometry) for child, _ in node.next_functions))


def in_minigrad_words(text):
    """PyTorch's message as minigrad must word it: torch. read as minigrad."""
    return text.replace("torch.", "minigrad.")


def assert_same_error(run, torch, expect_hint):
    """``run(lib)`` raises the same exception type under both, and minigrad's first paragraph is torch's."""
    with pytest.raises(Exception) as expected:
        run(torch)
    with pytest.raises(type(expected.value)) as got:
        run(minigrad)
    message = str(got.value)
    assert message.split(HINT)[0] == in_minigrad_words(str(expected.value))
    if expect_hint:
        assert HINT in message and message.split(HINT)[1].strip()


def expression_outcome(lib, expression, requires_grad, grad_mode, shapes, warnings_seen=False):
    """What a learner sees of ``expression`` (Python, over tensors named in ``shapes``, random
    numbers seeded alike) run with ``lib``: each result's values, shape, ``requires_grad``,
    ``grad_fn`` name and whether it is a view, or the exception's type and PyTorch's wording.

    ``warnings_seen``: also the warnings it gave (their text, without PyTorch's C++ origin);
    otherwise they are silenced.
    """
    import warnings

    import numpy as np

    rng = np.random.default_rng(0)
    env = {name: lib.tensor(rng.standard_normal(shape).astype(np.float32), requires_grad=requires_grad)
           for name, shape in shapes.items()}
    env["lib"] = lib
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always" if warnings_seen else "ignore")
        try:
            with lib.set_grad_enabled(grad_mode):
                out = eval(expression, {}, env)
            # (values as text: a nan then equals a nan)
            outcome = "value", [(str(np.asarray(t.tolist()).round(5).tolist()), tuple(t.shape), t.requires_grad,
                                 t.grad_fn is None, None if t.grad_fn is None else t.grad_fn.name(), t._base is not None)
                                for t in (out if isinstance(out, tuple) else (out,))]
        except Exception as error:  # noqa: BLE001 (the type is what is compared)
            outcome = "error", type(error).__name__, in_minigrad_words(pytorch_part(error))
    seen = [in_minigrad_words(str(w.message).split(" (Triggered internally")[0]) for w in caught]
    return (outcome, seen) if warnings_seen else outcome
