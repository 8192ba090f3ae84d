# Assignment 4 with held_tensors counting a saved tensor the engine has freed as still held
# (reading a freed one raises; this catches that and keeps the name).

# %% held_tensors
def held_tensors(node):
    held = []
    for name in node.saved_tensor_names:
        try:
            if getattr(node, "_saved_" + name) is not None:
                held.append(name)
        except RuntimeError:
            held.append(name)
    return tuple(held)
