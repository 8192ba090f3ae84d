# A loop that ignores the interrupt the grader sends at the timeout.
# %% double
import signal
signal.signal(signal.SIGINT, signal.SIG_IGN)
while True:
    pass
