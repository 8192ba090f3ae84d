"""The feedback page a student opens works offline: the math is drawn in, nothing is fetched.

nbconvert's page loads require.js, MathJax and mermaid from CDNs, so offline a student saw the
math as raw TeX. ``grading.write_html`` draws each formula as an SVG image (with its TeX as the
alt text) and drops every script that would fetch from the network.
"""

import re
from pathlib import Path

import nbformat
import pytest

from classroom import grading
from classroom.offline_html import render_math, to_html

ASSIGNMENTS = sorted((Path(__file__).resolve().parents[2] / "assignments").glob("*.ipynb"))


def formulas(nb):
    """The TeX formulas in the markdown cells, found the plain way: between pairs of $$, then of $."""
    found = []
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            continue
        text = re.sub(r"`[^`]*`", "", cell.source)
        blocks = text.split("$$")
        found += blocks[1::2]
        for outside in blocks[0::2]:
            found += outside.split("$")[1::2]
    return found


@pytest.mark.parametrize("path", ASSIGNMENTS, ids=[p.stem for p in ASSIGNMENTS])
def test_every_formula_is_drawn_and_nothing_comes_from_the_network(path):
    nb = nbformat.read(str(path), as_version=4)
    page, unrendered = to_html(nb)
    assert unrendered == 0
    assert page.count('class="math"') == len(formulas(nb))
    assert not re.search(r"<script\b[^>]*\bsrc=[\"']?https?:", page, re.I)
    assert not re.search(r"<link\b[^>]*\bhref=[\"']?https?:", page, re.I)
    assert "cdnjs" not in page and "cdn.jsdelivr" not in page and "unpkg.com" not in page


def test_a_formula_becomes_an_svg_image_with_its_tex_as_alt_text_and_code_is_left_alone():
    counter = [0]
    out = render_math(r"Here $y = x^2$ and `cost = $5` and $$\frac{dy}{dx} = 2x$$", counter)
    assert counter == [0]
    assert out.count('src="data:image/svg+xml;base64,') == 2
    assert 'alt="y = x^2"' in out and r'alt="\frac{dy}{dx} = 2x"' in out
    assert "`cost = $5`" in out  # a dollar inside code is not math


def test_tex_that_cannot_be_drawn_stays_readable_and_is_counted():
    counter = [0]
    out = render_math(r"$\begin{matrix} a \end{matrix}$", counter)
    assert counter == [1]
    assert out == r"<code>\begin{matrix} a \end{matrix}</code>"


def test_write_html_writes_the_offline_page(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell(r"# Grade\n$\sigma(x) = \frac{1}{1 + e^{-x}}$")]
    grading.write_html(nb, tmp_path / "page.html")
    page = (tmp_path / "page.html").read_text()
    assert page.count('class="math"') == 1 and "cdnjs" not in page
