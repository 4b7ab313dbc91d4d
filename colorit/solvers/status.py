"""How a slice of a search kernel ends: one vocabulary for every search.

Searches run as kernels that do a bounded amount of work and return one of these, so the
Python loop around them can check the deadline, stop requests and memory between
slices, and pick up where the kernel left off (its state lives in arrays it was given).
"""

#: Nothing is left to search: the incumbent is optimal.
EXHAUSTED = 0
#: The work budget is spent; call again to go on.
SLICE_DONE = 1
#: A shorter answer was found (kept in the kernel's arrays); read it, then call again.
IMPROVED = 2
#: (A*) The node store is full: grow it within the memory cap, or stop.
NEED_NODES = 3
#: (A*) The seen-state table is too full: grow it within the memory cap, or stop.
NEED_TABLE = 4
#: (beam) The pass is complete: no state left, or no level left that could beat the answer.
PASS_DONE = 5
