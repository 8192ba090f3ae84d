# Swallows every exception with IPython's custom exception hook, and answers nothing.
# %% double
get_ipython().set_custom_exc((BaseException,), lambda shell, etype, value, tb, tb_offset=None: None)
