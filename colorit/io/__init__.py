"""Files and formats: reading boards and answers (CSV, game IDs of Simon Tatham's Flood,
the community's benchmark sets), writing them whole or not at all, and the checks that
keep an output from ever replacing an input.
"""
