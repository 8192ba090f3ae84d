# Asks for more memory than the sandbox allows (the test gives it 1 GB; this is 2 GB).
# %% double
def double(x):
    return 2 * x

hog = np.ones(1 << 28)
