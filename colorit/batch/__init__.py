"""Batches of boards: ``colorit bench`` and what it is made of, one module per idea.

- ``solving``: one board's result (``BoardResult``), ``solve_one``, the ``Runner``
  protocol (every runner warms itself before any board's clock starts), ``InProcess``,
  ``solve_boards`` (answers in input order whatever runs them) and the stop flag;
- ``local``: the runner of this machine's processes, ``ProcessPool``;
- ``dask_connection``, ``dask_client`` and ``dask_worker``: the runner on a Dask
  cluster: reaching the scheduler and checking its workers, the client side
  (``DaskRunner``, chunk sizes, failures) and what runs on the workers;
- ``journal``: every answer on disk as it comes (``--solutions OUT`` keeps
  ``OUT.journal``), read back by ``--resume``;
- ``results``: a campaign's per-board record (``--results FILE.jsonl``): passes with growing
  limits keep each board's best answer and bound;
- ``planner``: a whole-run budget (``--budget``) spent in passes where it pays;
- ``report``: known lengths, the summary, the per-board records and the printed report;
- ``inputs``: a run's options checked together, its sets read, and what a resumed run kept;
- ``session``: one ``colorit bench`` run from its inputs to its written outputs, the
  runner picked;
- ``passes``: the run's solving, one pass at ``--time-limit`` or a budget's passes, each
  chunk's results journaled and merged into the campaign as they come;
- ``outputs``: what the run writes and prints (answers, journal, JSON, report) and the
  data of its plot, which the command line draws.

Nothing here imports Dask unless a cluster is asked for, nor anything above this layer
(``render``, ``web``, ``cli``).
"""
