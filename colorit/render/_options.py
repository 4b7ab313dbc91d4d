"""Option checks shared by the renderers: one wording for every picture and the terminal."""

from __future__ import annotations

import math
import numbers

from ..errors import ColoritError
from ..limits import whole_number
from ..palette import LABEL_KINDS


def check_labels(labels: object) -> str:
    """``labels`` as one of ``none``, ``numbers``, ``symbols``."""
    if not isinstance(labels, str) or labels not in LABEL_KINDS:
        raise ColoritError(f"labels must be one of {', '.join(LABEL_KINDS)}, got {labels!r}")
    return labels


def whole(value: object, what: str, minimum: int, maximum: int | None = None) -> int:
    """``value`` as an int in ``minimum .. maximum``; ``1.5``, ``"3"`` and ``True`` are refused."""
    return whole_number(value, what, minimum, maximum)


def seconds(value: object, what: str, maximum: float) -> float:
    """``value`` as a finite number of seconds in ``0 .. maximum``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ColoritError(f"{what} must be a number of seconds, got {value!r}")
    number = float(value)
    if not math.isfinite(number) or number < 0 or number > maximum:
        raise ColoritError(f"{what} must be between 0 and {maximum:g} seconds, got {value!r}")
    return number
