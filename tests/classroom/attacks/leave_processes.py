# Starts processes meant to outlive the grading: a child, and a daemon in a session of its own.
# %% double
import os, subprocess, time
subprocess.Popen(["sleep", SLEEP_MARKER])
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execvp("sleep", ["sleep", SLEEP_MARKER])
    os._exit(0)
time.sleep(0.2)

def double(x):
    return 2 * x
