"""An append-only log that clones share: a game's history.

A state and its clones hold :class:`Log` objects over one list. Each log knows
its own length; appending to the longest one extends the shared list in place,
and the first append to a log that others have outgrown copies its own prefix.
So :meth:`Log.clone` costs nothing, whatever the length of the game, and no log
ever sees another's later entries.
"""

from __future__ import annotations

from itertools import islice
from typing import Any, Iterable, Iterator, overload


class Log:
    """A sequence of history entries (actions, chance events, reveals).

    Reads like a list (``len``, indexing, slicing, iteration, ``==`` with a list);
    the only change it allows is :meth:`append`.
    """

    __slots__ = ("_items", "_n")

    def __init__(self, items: Iterable[Any] = ()) -> None:
        self._items: list[Any] = list(items)
        self._n = len(self._items)

    def clone(self) -> "Log":
        """A log with the same entries, sharing their storage (O(1))."""
        c = Log.__new__(Log)
        c._items = self._items
        c._n = self._n
        return c

    def append(self, entry: Any) -> None:
        if len(self._items) != self._n:
            self._items = self._items[:self._n]
        self._items.append(entry)
        self._n += 1

    def __len__(self) -> int:
        return self._n

    def since(self, start: int) -> list[Any]:
        """The entries from index ``start`` (0 <= start <= len) on: ``log[start:]``, faster."""
        return self._items[start:self._n]

    @overload
    def __getitem__(self, i: int) -> Any: ...

    @overload
    def __getitem__(self, i: slice) -> list[Any]: ...

    def __getitem__(self, i: int | slice) -> Any:
        if isinstance(i, slice):
            start, stop, step = i.indices(self._n)
            if step == 1:
                return self._items[start:stop]        # the common case, at C speed
            items = self._items
            return [items[j] for j in range(start, stop, step)]
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError("history index out of range")
        return self._items[i]

    def __iter__(self) -> Iterator[Any]:
        return islice(self._items, self._n)        # (its own entries only; a C loop)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Log):
            other = other._items[:other._n]
        return isinstance(other, list) and self._items[:self._n] == other

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Log({self._items[:self._n]!r})"
