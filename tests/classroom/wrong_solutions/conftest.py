"""The files here are deliberately wrong answers to the assignments, not tests or modules.

``tests/classroom/test_assignments_feedback.py`` pastes each ``# %% <grade_id>`` section into the
answer cell of that ``grade_id`` and grades the notebook. pytest must not import them (with
``--doctest-modules`` it would try): their code needs the notebook's imports.
"""

collect_ignore_glob = ["*.py"]
