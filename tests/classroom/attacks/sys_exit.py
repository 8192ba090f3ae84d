# Exits in the middle of an answer cell.
# %% double
import sys

def double(x):
    return 2 * x

sys.exit()
