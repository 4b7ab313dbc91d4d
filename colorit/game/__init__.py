"""The game model: the board and its rules, the region graph every solver works on, the
bitsets it is kept in, and the two ways of playing on it (``play_bits`` on bitset rows,
``play_lists`` on adjacency lists for boards too big for bitsets).

Nothing here knows about files, solvers or the command line.
"""
