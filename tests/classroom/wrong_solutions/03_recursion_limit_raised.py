# Assignment 3 with a recursive depth-first order and Python's recursion limit raised, so the chain
# of 10,000 nodes no longer raises RecursionError: still recursion (one call per node).

# %% topological_order
import sys

sys.setrecursionlimit(100_000)


def topological_order(root):
    post, seen = [], set()

    def visit(node):
        seen.add(node)
        for child, _ in node.next_functions:
            if child is not None and child not in seen:
                visit(child)
        post.append(node)

    visit(root)
    return post[::-1]
