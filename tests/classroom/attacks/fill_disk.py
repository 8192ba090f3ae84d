# Writes one file far larger than the sandbox allows (the default limit is 64 MB; this is 200 MB).
# %% double
def double(x):
    return 2 * x

with open("big.bin", "wb") as f:
    for _ in range(200):
        f.write(b"x" * (1 << 20))
