"""Hand ends that wait for the coordination, for tests of what the coordination does with them."""

from __future__ import annotations

from dataclasses import replace

from tourney.services.ports import Store


def hold_for_the_coordination(store: Store, tid: str, table: str) -> None:
    """The dealing orders name ``table``: its next hand end goes to the coordination instead of the table dealing
    its next hand itself (``services/dealer.py``), as when a break or the final table's redraw waits for it."""
    found = store.dealing.get(tid)
    assert found is not None, f"{tid} published no dealing orders: it never dealt"
    uow = store.unit_of_work()
    uow.save(replace(found, orders=replace(found.orders, report=found.orders.report | {table})))
    uow.commit()
