# Corpus (syntax): indentation that is ambiguous between tabs and spaces: the first
# body line is indented with 8 spaces, the second with one tab (TabError, exit 3).
import pypto.language as pl


def helper(x):
        y = x + 1
	return y
