"""Predict, then run: the "Check yourself" cells of the notebooks.

A check is two cells. The learner's cell is visible and starts unanswered::

    my_answer = ...  # your prediction: a node's name, as a string

The next cell runs the experiment and calls :func:`check`. Its source is
collapsed in JupyterLab (cell metadata ``jupyter.source_hidden``) and behind a
toggle in the book (the ``hide-input`` tag), because it holds the answer. A
collapsed cell still shows its first line in JupyterLab, so that line is a comment::

    # Checks your prediction against the engine. The answer is in this cell: open it only after predicting.
    check(my_answer, engine=q.grad_fn.next_functions[0][0].name(), answer="MulBackward0",
          why="`q` is `exp(w * b)`: its one input is the product, whose node is `MulBackward0`.")

What the learner sees below it:

* no prediction yet (``...``): "Predict first", and the answer folded away in a
  ``<details>`` element that opens only when asked;
* a prediction: "Right" or "Not quite", what the engine gave, and why.

Whatever the prediction, ``check`` compares the notebook's ``answer`` with what
the engine computed (``engine``) and raises :class:`AnswerKeyError` when they
disagree, so running the notebook under nbval checks every answer key against
minigrad, deterministically, with every prediction left unanswered.

>>> check(..., engine=4, answer=4, why="two plus two")
Predict first: write your prediction in the cell above (replace the ...), run it, then run this cell.
>>> check(4, engine=4, answer=4, why="two plus two")
Right: 4. Why: two plus two
>>> check(5, engine=4, answer=4, why="two plus two")
Not quite: you predicted 5; the engine gives 4. Why: two plus two
>>> check(..., engine=5, answer=4, why="")
Traceback (most recent call last):
    ...
viz.check.AnswerKeyError: the notebook's answer 4 is not what the engine computed, 5
"""

import html
import math
import re

__all__ = ["check", "AnswerKeyError", "Feedback"]

UNANSWERED = ...


class AnswerKeyError(AssertionError):
    """The answer written in a notebook does not match what the engine computed."""


def _is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _plain(value):
    """Tensors, NumPy arrays and NumPy scalars as plain Python values; tuples stay tuples."""
    if hasattr(value, "tolist") and not isinstance(value, (list, tuple)):
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        return type(value)(_plain(v) for v in value) if isinstance(value, tuple) else [_plain(v) for v in value]
    return value


def same(a, b, tol=1e-6):
    """Whether two answers agree: numbers within ``tol``, sequences element by element
    (a list and a tuple are the same answer), ``None``, booleans and strings exactly.

    >>> same((2, 3), [2, 3]), same(0.78641, 0.7864, tol=1e-4), same(1, True), same("a ", "a")
    (True, True, False, True)
    """
    a, b = _plain(a), _plain(b)
    if a is None or b is None:
        return a is b
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if _is_number(a) and _is_number(b):
        return math.isclose(a, b, rel_tol=0.0, abs_tol=tol) or a == b
    if isinstance(a, str) and isinstance(b, str):
        return a.strip() == b.strip()
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same(x, y, tol) for x, y in zip(a, b))
    return False


def _show(value):
    value = _plain(value)
    if isinstance(value, float):
        return f"{value:.4f}".rstrip("0").rstrip(".") if value != int(value) else f"{value:.1f}"
    if isinstance(value, (list, tuple)):
        inner = ", ".join(_show(v) for v in value)
        return f"({inner}{',' if len(value) == 1 else ''})" if isinstance(value, tuple) else f"[{inner}]"
    return repr(value)


_CODE = re.compile(r"`([^`]+)`")
_BOLD = re.compile(r"\*\*([^*]+)\*\*")


def _html(text):
    """Escapes ``text`` and turns its `code` and **bold** spans into HTML."""
    text = html.escape(text, quote=False)
    text = _CODE.sub(r"<code>\1</code>", text)
    return _BOLD.sub(r"<b>\1</b>", text)


def _plain_text(text):
    return _BOLD.sub(r"\1", text)


class Feedback:
    """What a check shows: text for the console and nbval, HTML for JupyterLab and the book."""

    STYLE = {  # verdict -> (border colour, background)
        "unanswered": ("#8a8a8a", "#f4f4f4"),
        "right": ("#2e7d32", "#e8f5e9"),
        "wrong": ("#c62828", "#fdecea"),
    }

    def __init__(self, verdict, prediction, engine, answer, why, hint=None):
        self.verdict, self.prediction, self.engine, self.answer = verdict, prediction, engine, answer
        self.why, self.hint = why, hint

    @property
    def right(self):
        return self.verdict == "right"

    def _headline(self):
        if self.verdict == "unanswered":
            return "Predict first: write your prediction in the cell above (replace the ...), run it, then run this cell."
        if self.verdict == "right":
            return f"Right: {_show(self.engine)}."
        return f"Not quite: you predicted {_show(self.prediction)}; the engine gives {_show(self.engine)}."

    def __repr__(self):
        if self.verdict == "unanswered":
            return self._headline()
        parts = [self._headline()]
        if self.hint:
            parts.append(_plain_text(self.hint))
        if self.why:
            parts.append("Why: " + _plain_text(self.why))
        return " ".join(parts)

    def _repr_html_(self):
        border, background = self.STYLE[self.verdict]
        box = (f'<div class="minigrad-check minigrad-check-{self.verdict}" style="border-left: 4px solid {border}; '
               f'background: {background}; color: #1a1a1a; padding: 0.5em 0.8em; margin: 0.2em 0;">')
        word, rest = self._headline().split(": ", 1)
        rest = html.escape(rest, quote=False)
        if self.verdict == "unanswered":
            answer = (f"<p style=\"margin: 0.4em 0 0 0;\">The answer: <code>{html.escape(_show(self.answer))}</code>"
                      f" (what the engine computes when you run this cell).</p>")
            why = f"<p style=\"margin: 0.4em 0 0 0;\">{_html(self.why)}</p>" if self.why else ""
            return (f"{box}<b>{word}:</b> {rest}"
                    f"<details style=\"margin-top: 0.4em;\"><summary>Show the answer (after you have predicted)</summary>"
                    f"{answer}{why}</details></div>")
        hint = f"<p style=\"margin: 0.4em 0 0 0;\">{_html(self.hint)}</p>" if self.hint else ""
        why = f"<p style=\"margin: 0.4em 0 0 0;\"><b>Why.</b> {_html(self.why)}</p>" if self.why else ""
        return f"{box}<b>{word}:</b> {rest}{hint}{why}</div>"


def check(prediction, *, engine, answer, why="", tol=1e-6, hints=None):
    """Compares a learner's prediction with what the engine computed, and says why.

    Args:
        prediction: the learner's value; ``...`` (Ellipsis) means "not predicted yet".
        engine: what running the code gave (a number, string, bool, None, a tensor,
            or a tuple of these for a question with several parts).
        answer: the answer the notebook states. It must agree with ``engine``.
        why: the explanation, shown after a prediction (`code` and **bold** spans allowed).
        tol: how far apart two numbers may be and still agree (answers by hand
            to 4 decimals use 1e-4).
        hints: optional ``{wrong prediction: message}`` for the usual wrong answers.

    Returns:
        Feedback, shown by Jupyter (HTML, with a plain-text twin for nbval).

    Raises:
        AnswerKeyError: ``answer`` and ``engine`` disagree: the notebook is wrong.
    """
    if not same(answer, engine, tol):
        raise AnswerKeyError(f"the notebook's answer {_show(answer)} is not what the engine computed, {_show(engine)}")
    if prediction is UNANSWERED or (isinstance(prediction, tuple) and any(p is UNANSWERED for p in prediction)):
        return Feedback("unanswered", prediction, engine, answer, why)
    if same(prediction, engine, tol):
        return Feedback("right", prediction, engine, answer, why)
    hint = next((message for wrong, message in (hints or {}).items() if same(prediction, wrong, tol)), None)
    return Feedback("wrong", prediction, engine, answer, why, hint)
