# Forks until it cannot (each child sleeps, so they pile up).
# %% double
import os, time

def double(x):
    return 2 * x

children = []
for _ in range(1000):
    pid = os.fork()
    if pid == 0:
        time.sleep(60)
        os._exit(0)
    children.append(pid)
