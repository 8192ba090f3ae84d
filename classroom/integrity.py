"""Is the grading machinery intact? And do hidden tests stay hidden?

A test cell runs in the same Python as the student's code, so code that ran before it can change
what it checks: replace a checking helper, patch minigrad or NumPy, install an IPython input
transformer that rewrites the tests, hide tracebacks so a failing test looks like a passing one,
replace ``sys.exit`` or a builtin. We cannot prevent that from inside the process; we detect it
and flag the submission for review instead of giving it marks. The steps:

1. Before any student cell, :func:`prologue` runs (in the kernel, without history). It imports
   the packages the tests use and keeps pristine references: every function, class and method
   of ``minigrad``, ``viz``, ``classroom`` and ``numpy`` (by identity and code object), the
   builtins, ``sys`` hooks, and IPython's input transformers, AST transformers, traceback
   display, custom exception handlers and event callbacks.
2. After each teacher cell (read-only or test), :func:`guard` records the functions, classes and
   modules that cell defined (the checking helpers), found by reading the cell's code here.
3. Before each test cell and at the end, :func:`guard` compares everything with step 1 and 2 and
   prints a verdict signed with a key only the prologue knows (HMAC), so a student cell cannot
   print a fake one; a missing or unsigned verdict is itself a finding.
4. The grader also reads the reply the kernel sends after each cell: a cell whose reply is an
   error but which shows no traceback had its traceback hidden.
5. :func:`static_findings` reads the student's cells for names only tampering needs
   (``input_transformers``, ``set_custom_exc``, ``__code__``, ...): also a reason to review.

Hidden tests: test cells run without history (``In``/``_ih`` never hold them), and their code is
dropped from ``linecache`` afterwards; whatever still reaches an output is cut out by
:func:`redact` before anything goes back to the student (:func:`hidden_lines` lists what to cut).

NB: step 1-3 raise the bar; they do not make the kernel trustworthy. Code written against this
very module can still read the key from the guard's closure. Such code can only change its own
student's score (the sandbox keeps it from everything else), and step 5 flags the names it needs.
"""

import ast
import hashlib
import hmac
import json
import re
import secrets
import threading

from . import nbgrader_format as nbf

MARK = "\x1b[8m@@minigrad-guard@@"  # how a verdict line starts (hidden text in a terminal)
WATCHED = ("minigrad", "viz", "classroom", "numpy")

PROLOGUE = r'''
def _mg_install(key):
    import builtins, gc, hashlib, hmac, json, linecache, sys, types
    import numpy, minigrad, viz, classroom  # the packages the tests use

    ip = get_ipython()
    out = sys.stdout

    def functions_of(obj):
        """{name: (object id, code id)} for the functions and methods an object (module, class) holds."""
        found = {}
        for name, value in list(vars(obj).items()):
            raw = value.__func__ if isinstance(value, (staticmethod, classmethod)) else value
            if isinstance(raw, property):
                raw = raw.fget
            if not (callable(raw) or isinstance(value, types.ModuleType)):
                continue  # data (a flag, a counter) may change as the library runs
            code = getattr(raw, "__code__", None)
            found[name] = (id(value), id(code) if code is not None else None)
        return found

    def module_state():
        state = {}
        for name, module in list(sys.modules.items()):
            if not isinstance(module, types.ModuleType) or name.split(".")[0] not in %(watched)r:
                continue
            state[name] = functions_of(module)
            for attr, value in list(vars(module).items()):
                if isinstance(value, type) and getattr(value, "__module__", "") == name:
                    state[f"{name}.{attr}"] = functions_of(value)
        return state

    def ours(callback):
        """Callbacks Jupyter's own packages add as they load (matplotlib's inline backend)."""
        module = getattr(getattr(callback, "__func__", callback), "__module__", "") or ""
        return module.split(".")[0] in ("matplotlib", "matplotlib_inline", "ipykernel", "IPython", "ipywidgets")

    def hooks():
        return {
            "input transformers (cleanup)": list(ip.input_transformers_cleanup),
            "input transformers": list(ip.input_transformers_post),
            "input transformer manager": ip.input_transformer_manager,
            "AST transformers": list(ip.ast_transformers),
            "custom exception handlers": ip.custom_exceptions,
            "IPython's traceback display (showtraceback)": ip.showtraceback,
            "IPython's showsyntaxerror": ip.showsyntaxerror,
            "IPython's run_cell": ip.run_cell,
            "IPython's run_code": ip.run_code,
            "IPython's transform_cell": ip.transform_cell,
            "IPython's InteractiveShell.showtraceback": type(ip).showtraceback,
            "IPython's InteractiveShell.run_code": type(ip).run_code,
            "IPython's InteractiveShell.run_cell": type(ip).run_cell,
            "IPython's InteractiveShell.run_ast_nodes": type(ip).run_ast_nodes,
            "IPython's compile": ip.compile,
            "IPython's event callbacks": {k: [f for f in v if not ours(f)] for k, v in ip.events.callbacks.items()},
            "sys.exit": sys.exit, "sys.excepthook": sys.excepthook, "sys.displayhook": sys.displayhook,
            "sys.stdout": sys.stdout, "sys.stderr": sys.stderr, "sys.settrace": sys.gettrace(),
            "sys.setprofile": sys.getprofile(), "builtins.exit": getattr(builtins, "exit", None),
            "builtins.quit": getattr(builtins, "quit", None),
        }

    def same(a, b):
        if isinstance(a, dict) and isinstance(b, dict):
            return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
        if isinstance(a, list) and isinstance(b, list):
            return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
        if isinstance(a, types.MethodType) and isinstance(b, types.MethodType):
            return a.__func__ is b.__func__ and a.__self__ is b.__self__
        return a is b

    pristine_modules = module_state()
    pristine_builtins = dict(vars(builtins))
    pristine_hooks = hooks()
    teacher = {}  # name -> (object, code) of what teacher cells defined
    keep = []  # keeps recorded objects alive, so their ids stay theirs

    def record(names):
        for name in names:
            value = ip.user_ns.get(name)
            if isinstance(value, (types.FunctionType, type, types.ModuleType)):
                teacher[name] = (value, getattr(value, "__code__", None))
                keep.append(value)

    def findings():
        problems = []
        now = module_state()
        for module, names in pristine_modules.items():
            changed = sorted(n for n, ref in names.items() if now.get(module, {}).get(n) != ref)
            if changed:
                problems.append(f"{module}: {', '.join(changed[:5])} replaced or changed")
        bad = sorted(n for n, v in pristine_builtins.items()
                     if vars(builtins).get(n, None) is not v and n not in ("input", "_"))  # ipykernel's own
        if bad:
            problems.append(f"builtins changed: {', '.join(bad[:5])}")
        for what, value in hooks().items():
            if not same(value, pristine_hooks[what]):
                problems.append(f"{what} changed")
        for name, (value, code) in teacher.items():
            current = ip.user_ns.get(name)
            if current is not value or getattr(current, "__code__", None) is not code:
                problems.append(f"the teacher's {name!r} was replaced or changed")
        return problems

    def forget(digest):
        """Drops a test cell's code from linecache (where tracebacks read it) by its hash."""
        for name, entry in list(linecache.cache.items()):
            lines = entry[2] if isinstance(entry, tuple) and len(entry) > 2 else None
            if lines and hashlib.sha256("".join(lines).encode()).hexdigest() == digest:
                del linecache.cache[name]

    def guard(nonce, names=(), check=False, digest=None):
        if digest:
            forget(digest)
        record(names)
        if check:
            text = json.dumps(findings())
            sign = hmac.new(key, (nonce + text).encode(), "sha256").hexdigest()
            out.write(f"\n%(mark)s{nonce}:{sign}:{text}\n")
            out.flush()

    return guard


_mg_guard = _mg_install(bytes.fromhex(%(key)r))
del _mg_install
'''


class Guard:
    """The grader's side of the integrity check for one grading: the key and the cells it adds."""

    def __init__(self):
        self.key = secrets.token_bytes(32)
        self._count = 0

    def prologue(self):
        """The code of the first cell to run, before any of the student's."""
        return PROLOGUE % {"watched": WATCHED, "key": self.key.hex(), "mark": MARK}

    def cell(self, names=(), check=False, digest=None):
        """``(code, nonce)`` of a guard cell: record ``names``, check if asked, forget a test's code."""
        self._count += 1
        nonce = f"{self._count}-{secrets.token_hex(8)}"
        code = f"_mg_guard({nonce!r}, {sorted(names)!r}, check={check!r}, digest={digest!r})"
        return code, nonce

    def verdict(self, outputs, nonce):
        """The findings a guard cell reported, or a list with one finding if it did not report properly."""
        text = "".join(o.get("text", "") for o in outputs if o.get("output_type") == "stream")
        found = re.search(re.escape(MARK + nonce) + r":([0-9a-f]{64}):(.*)", text)
        if not found:
            return ["the grader's integrity check did not report (its output was hidden, redirected or "
                    "the check was removed)"]
        sign, body = found.groups()
        expected = hmac.new(self.key, (nonce + body).encode(), "sha256").hexdigest()
        if not hmac.compare_digest(sign, expected):
            return ["the grader's integrity check reported a forged verdict"]
        return json.loads(body)


# CPython 3.11 keeps the depth counter that checks ast.parse's result in one place for all threads.
# Two threads parsing at once (``grade-all`` grades several notebooks in threads) can then fail with
# "SystemError: AST constructor recursion depth mismatch", so parses take turns.
_PARSING = threading.Lock()


def defined_names(code):
    """The names a cell's top level defines (functions, classes, imports, assignments)."""
    try:
        with _PARSING:
            tree = ast.parse(code)
    except SyntaxError:
        return set()
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                names.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
    return names


def digest(code):
    """The hash the guard uses to find a cell's code in ``linecache``."""
    return hashlib.sha256(code.encode()).hexdigest()


# --- reading the student's code -------------------------------------------------------------

SUSPICIOUS = {
    "input_transformers": "installs an IPython input transformer",
    "ast_transformers": "installs an IPython AST transformer",
    "set_custom_exc": "replaces IPython's exception handling",
    "showtraceback": "touches IPython's traceback display",
    "custom_exceptions": "replaces IPython's exception handling",
    "InteractiveShell": "reaches into IPython's shell",
    "events.register": "registers an IPython event callback",
    "__code__": "rewrites a function's code object",
    "__closure__": "reads a function's closure",
    "gc.get_objects": "searches every object in memory",
    "gc.get_referrers": "searches every object in memory",
    "sys.settrace": "installs a tracer",
    "sys.setprofile": "installs a profiler",
    "settrace(": "installs a tracer",
    "sys.modules": "changes loaded modules",
    "builtins": "changes Python's builtins",
    "__builtins__": "changes Python's builtins",
    "_getframe": "reads the caller's frame (the tests' code)",
    "f_back": "reads the caller's frame (the tests' code)",
    "linecache": "reads cached source code (the tests')",
    "get_parent": "reads the kernel's current request (the tests' code)",
    "history_manager": "reads the kernel's history (the tests' code)",
    "_mg_guard": "touches the grader's integrity check",
    "ctypes": "uses ctypes",
}
ASSIGN_TO_WATCHED = re.compile(r"^\s*(?:minigrad|np|numpy|viz|classroom|sys|os)(?:\.\w+)+\s*=(?!=)", re.M)


def static_findings(code):
    """Reasons to review a student's cell, from its text alone (each a short sentence)."""
    found = []
    for word, why in SUSPICIOUS.items():
        if word in code and why not in found:
            found.append(why)
    if ASSIGN_TO_WATCHED.search(code):
        found.append("assigns to an attribute of minigrad, NumPy, viz, classroom, sys or os")
    return found


# --- keeping hidden tests hidden ----------------------------------------------------------------


def hidden_lines(source):
    """The lines of the source's hidden test regions worth cutting out (long enough to be specific)."""
    lines = set()
    for cell in source.cells:
        if not nbf.is_test(cell):
            continue
        visible = set(nbf.student_cell(cell).source.splitlines())
        inside = False
        for line in cell.source.splitlines():
            if nbf.BEGIN_HIDDEN_TESTS in line or nbf.END_HIDDEN_TESTS in line:
                inside = nbf.BEGIN_HIDDEN_TESTS in line
                lines.add(line.strip())  # the markers too: they say where hidden tests are
            elif inside and len(line.strip()) >= 12 and line not in visible:
                lines.add(line.strip())
    return sorted(lines, key=len, reverse=True)


def redact(text, lines, replacement="[a hidden test]"):
    """``text`` with every hidden line cut out (also as it appears inside a quoted string)."""
    if not text or not lines:
        return text
    for line in lines:
        for form in (line, repr(line)[1:-1], json.dumps(line)[1:-1]):
            if form in text:
                text = text.replace(form, replacement)
    return text
