# Assignment 4 with an explanation that lists every node of the graph, and no saved tensor.

# %% explain_second_backward
def explain_second_backward(loss):
    if not predict_freed(loss):
        return None
    names = sorted(node.name() for node in all_nodes(loss))
    return ("A second backward fails because the graph of " + ", ".join(names)
            + " was freed. Use retain_graph=True.")
