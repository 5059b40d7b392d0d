# Programs the DSL's parser must reject: not valid Python on purpose.
def broken(:
    pass
