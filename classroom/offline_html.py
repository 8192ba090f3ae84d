"""A graded notebook as one HTML page that needs no network: math drawn in, no CDN scripts.

nbconvert's page loads require.js, MathJax and mermaid from CDNs; offline, a student sees the
math as raw TeX. So, before converting, every ``$...$`` and ``$$...$$`` in a markdown cell is
drawn as an SVG image by matplotlib's mathtext (a TeX subset that covers the assignments), with
the TeX kept as the image's alt text; after converting, every script that would fetch from the
network is removed. A formula mathtext cannot draw stays as TeX in a ``<code>`` and is counted in
``unrendered`` (the tests keep it at zero for the assignments).
"""

import base64
import copy
import html
import io
import re

MATH = re.compile(r"\$\$(.+?)\$\$|\$([^$\n]+?)\$", re.S)
CODE = re.compile(r"(```.*?```|`[^`\n]*`)", re.S)  # code is never math
REMOTE_SCRIPT = re.compile(r"<script\b[^>]*\bsrc=[\"']https?://[^>]*>\s*</script>", re.S | re.I)
INLINE_REMOTE = re.compile(r"<script\b[^>]*>(?:(?!</script>).)*?https?://cdn(?:(?!</script>).)*?</script>", re.S | re.I)
MATHJAX_CONFIG = re.compile(r"<script\b[^>]*>(?:(?!</script>).)*?MathJax(?:(?!</script>).)*?</script>", re.S | re.I)
# TeX that mathtext spells differently, or sizes it does not have.
TEX = [(r"\texttt", r"\mathtt"), (r"\bigl", ""), (r"\bigr", ""), (r"\Bigl", ""), (r"\Bigr", ""), ("\n", " ")]


def _svg(tex, display):
    """The formula as a base64 SVG, or None where mathtext cannot draw it."""
    from matplotlib import mathtext
    from matplotlib.font_manager import FontProperties

    for old, new in TEX:
        tex = tex.replace(old, new)
    buffer = io.BytesIO()
    try:
        mathtext.math_to_image(f"${tex.strip()}$", buffer, prop=FontProperties(size=13 if display else 11),
                               format="svg")
    except Exception:  # ValueError for TeX it does not know
        return None
    return base64.b64encode(buffer.getvalue()).decode()


def render_math(markdown, counter):
    """``markdown`` with each formula replaced by an ``<img>`` of it (``counter[0]`` counts failures)."""
    def one(match):
        display = match.group(1) is not None
        tex = match.group(1) if display else match.group(2)
        data = _svg(tex, display)
        if data is None:
            counter[0] += 1
            return f"<code>{html.escape(tex)}</code>"
        img = (f'<img class="math" alt="{html.escape(tex, quote=True)}" style="vertical-align: middle" '
               f'src="data:image/svg+xml;base64,{data}">')
        return f'\n<div style="text-align: center">{img}</div>\n' if display else img

    parts = CODE.split(markdown)
    return "".join(part if i % 2 else MATH.sub(one, part) for i, part in enumerate(parts))


def to_html(nb):
    """``(page, unrendered)``: the notebook as one self-contained HTML page, and how many formulas
    could not be drawn."""
    from nbconvert import HTMLExporter

    nb = copy.deepcopy(nb)
    counter = [0]
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            cell.source = render_math(cell.source, counter)
    body, _ = HTMLExporter().from_notebook_node(nb)
    for pattern in (REMOTE_SCRIPT, INLINE_REMOTE, MATHJAX_CONFIG):
        body = pattern.sub("", body)
    return body, counter[0]
