"""viz.check: the predict-then-run helper of the notebooks' "Check yourself" cells."""

import re

import pytest

import minigrad
from viz.check import AnswerKeyError, check, same

WHY = "`exp` has one input, the product."


def _outside_details(html):
    return re.sub(r"<details.*?</details>", "", html, flags=re.S)


def test_unanswered_shows_no_answer_until_asked():
    feedback = check(..., engine="MulBackward0", answer="MulBackward0", why=WHY)
    assert feedback.verdict == "unanswered"
    assert "MulBackward0" not in repr(feedback) and "product" not in repr(feedback)
    html = feedback._repr_html_()
    assert "MulBackward0" not in _outside_details(html) and "product" not in _outside_details(html)
    details = re.search(r"<details.*?</details>", html, flags=re.S)[0]
    assert "MulBackward0" in details and "<code>exp</code> has one input" in details
    assert " open" not in details.split(">")[0], "the answer must start folded"


def test_a_tuple_with_any_part_unanswered_is_unanswered():
    assert check((3, ...), engine=(3, 1), answer=(3, 1)).verdict == "unanswered"


def test_right_says_why():
    feedback = check("MulBackward0", engine="MulBackward0", answer="MulBackward0", why=WHY)
    assert feedback.right
    assert repr(feedback).startswith("Right: 'MulBackward0'.") and "Why: `exp` has one input" in repr(feedback)
    assert "minigrad-check-right" in feedback._repr_html_()


def test_wrong_says_what_the_engine_gave_and_why():
    feedback = check("AddBackward0", engine="MulBackward0", answer="MulBackward0", why=WHY)
    assert not feedback.right
    assert repr(feedback).startswith("Not quite: you predicted 'AddBackward0'; the engine gives 'MulBackward0'.")
    assert "Why:" in repr(feedback) and "minigrad-check-wrong" in feedback._repr_html_()


def test_a_hint_for_a_common_wrong_answer():
    feedback = check(6.0, engine=3.0, answer=3.0, hints={6.0: "That is the gradient without detach()."})
    assert "That is the gradient without detach()." in repr(feedback)
    other = check(5.0, engine=3.0, answer=3.0, hints={6.0: "That is the gradient without detach()."})
    assert "detach" not in repr(other)


def test_the_answer_key_is_checked_against_the_engine_whatever_the_prediction():
    for prediction in (..., 2, 3):
        with pytest.raises(AnswerKeyError, match="answer 2 is not what the engine computed, 3"):
            check(prediction, engine=3, answer=2)


def test_tensors_shapes_and_numbers_compare_as_a_learner_means_them():
    x = minigrad.tensor([4.0, 1.0, -6.0])
    assert check([4, 1, -6], engine=x, answer=[4.0, 1.0, -6.0]).right
    assert check((2, 3), engine=tuple(minigrad.ones(2, 3).shape), answer=(2, 3)).right
    assert check([2, 3], engine=(2, 3), answer=(2, 3)).right
    assert check(0.7864, engine=0.786448, answer=0.7864, tol=1e-4).right
    assert not check(0.79, engine=0.786448, answer=0.7864, tol=1e-4).right


def test_booleans_none_and_strings_are_exact():
    assert not same(1, True) and not same(0, False) and not same(0, None)
    assert same(None, None) and same(False, False)
    assert not check(1, engine=True, answer=True).right
    assert not check("MulBackward", engine="MulBackward0", answer="MulBackward0").right
    assert check(" MulBackward0", engine="MulBackward0", answer="MulBackward0").right


def test_html_escapes_what_it_shows():
    feedback = check("<b>", engine="x", answer="x", why="a < b")
    html = feedback._repr_html_()
    assert "you predicted '&lt;b&gt;'" in html and "&amp;" not in html and "a &lt; b" in html
