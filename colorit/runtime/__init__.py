"""The process a command runs in: the clock its time limit counts from, the signal
guard that turns Ctrl-C or SIGTERM into "write the best answer", and the warm-up that
loads the solvers' kernels before any clock starts. Batch runs, the web server and the
command line all stand on it.
"""
