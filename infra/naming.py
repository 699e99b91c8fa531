"""Names: the template's logical IDs are readable and stable (``FunctionStartTasks``)."""

from __future__ import annotations


def logical_id(name: str) -> str:
    """``start_tasks`` -> ``StartTasks``; ``$connect`` -> ``Connect``.

    >>> logical_id("recovery_tasks"), logical_id("$default")
    ('RecoveryTasks', 'Default')
    """
    return "".join(part[:1].upper() + part[1:] for part in name.replace("$", "").replace("-", "_").split("_"))
