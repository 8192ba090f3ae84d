# Assignment 4 with predict_freed ignoring inputs=: as if every node ran.

# %% predict_freed
def predict_freed(loss, inputs=None):
    freed = {}
    for node in all_nodes(loss):
        names = held_tensors(node)
        if names:
            freed[node] = names
    return freed
