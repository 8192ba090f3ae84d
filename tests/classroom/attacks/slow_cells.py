# Every answer just under the per-cell timeout: the notebook's total time is what stops it.
# %% double
import time
time.sleep(2.5)

def double(x):
    return 2 * x
# %% square
time.sleep(2.5)

def square(x):
    return x * x
