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
