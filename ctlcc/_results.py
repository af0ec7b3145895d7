# ctlcc._results - the tuple protocol shared by ctlcc's result dataclasses
"""Result objects that unpack like a tuple also index and have a length.

python-control's ``TimeResponseData`` unpacks as ``t, y = response``; ctlcc's
results do the same and, so that ``response[0]`` and ``len(response)`` agree
with the unpacking, also index.  A result class lists the fields it unpacks
to in ``_unpack``.

Examples
--------
>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Pair(Unpackable):
...     _unpack = ("time", "value")
...     time: float
...     value: float
...     note: str = ""
>>> t, y = Pair(1.0, 2.0)
>>> Pair(1.0, 2.0)[1], len(Pair(1.0, 2.0))
(2.0, 2)
"""

__all__ = ["Unpackable"]


class Unpackable:
    """Mixin: iterate, index and measure a result as the tuple ``_unpack`` names."""

    _unpack: tuple = ()

    def _as_tuple(self) -> tuple:
        return tuple(getattr(self, name) for name in self._unpack)

    def __iter__(self):
        return iter(self._as_tuple())

    def __getitem__(self, index):
        return self._as_tuple()[index]

    def __len__(self) -> int:
        return len(self._unpack)
