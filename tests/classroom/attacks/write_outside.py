# Writes everywhere it can: over the teacher's source, into another student's folder, /tmp, home.
# %% double
import os
for path in [TEACHER_SOURCE, OTHER_SUBMISSION, "/tmp/" + MARKER, os.path.expanduser("~/../" + MARKER),
             "/" + MARKER, "/work/" + MARKER]:
    try:
        with open(path, "w") as f:
            f.write("{}")
        print("WROTE", path)
    except OSError as error:
        print("cannot write", path, type(error).__name__)

def double(x):
    return 2 * x
