# ctlcc.references - the one bibliography every citation in ctlcc uses
"""Bibliography of the papers ctlcc reproduces, cited by key.

Every docstring, figure title, warning and ``data/`` source column names a
paper through this module (``cite("stpd", "eq. (4.17)")``), so a reader sees
authors, title and year and never an internal file name.

Examples
--------
>>> from ctlcc.references import cite, short
>>> short("primo")
'Chatté, Ducourthial & Niculescu (2006)'
>>> cite("cbraa", "eq. (4)")
'Ait-Hellal, Yamamoto & Leduc (1998), eq. (4)'
"""

from dataclasses import dataclass

__all__ = ["Reference", "REFERENCES", "reference", "short", "cite", "full"]


@dataclass(frozen=True)
class Reference:
    """One bibliography entry.

    Attributes
    ----------
    key : str
        Short key used throughout ctlcc (the protocol's name).
    authors : tuple of str
        Authors as printed, family name last.
    title : str
    venue : str
        Journal, proceedings or institution.
    year : int
    note : str
        How the entry was established where the copy ctlcc worked from is
        incomplete (e.g. no title page); empty otherwise.
    """

    key: str
    authors: tuple
    title: str
    venue: str
    year: int
    note: str = ""

    @property
    def short(self):
        """'Family (year)', 'A & B (year)' or 'A, B & C (year)'."""
        names = [a.split()[-1] for a in self.authors]
        if len(names) == 1:
            who = names[0]
        else:
            who = ", ".join(names[:-1]) + " & " + names[-1]
        return f"{who} ({self.year})"

    @property
    def full(self):
        """Authors, title, venue, year: one line for a reference list."""
        return f"{', '.join(self.authors)}. {self.title}. {self.venue}, {self.year}."


#: The five papers, by key, then the background literature the cross-checks
#: use.  Venues and years are to be checked against the published versions
#: (issue 15); keys are stable.
REFERENCES = {
    "stpd": Reference(
        key="stpd",
        authors=("W. Xu",),
        title="Self-tuning PD control based TCP congestion control (ST-PD TCP)",
        venue="PhD thesis",
        year=2002,
        note=("The copy ctlcc worked from has no title page; authorship and year are "
              "those of the companion article W. Xu, A. G. Qureshi, K. W. Sarkies, "
              "'Novel TCP congestion control scheme and its performance evaluation', "
              "IEE Proc.-Commun. 149(4):217-222, 2002, whose abstract is the thesis's."),
    ),
    "primo": Reference(
        key="primo",
        authors=("Fabien Chatté", "Bertrand Ducourthial", "Silviu-Iulian Niculescu"),
        title="A study of a simple preventive transport protocol",
        venue="Annals of Telecommunications 61(1-2):72-91",
        year=2006,
    ),
    "sttp": Reference(
        key="sttp",
        authors=("R. Wade", "M. Kara", "P. M. Dew"),
        title="Modelling and simulation of STTP, a proactive transport protocol",
        venue="School of Computer Studies, University of Leeds",
        year=2000,
        note="Year and venue from the paper's own context (late-1990s references); to be confirmed.",
    ),
    "iftp": Reference(
        key="iftp",
        authors=("Hala ElAarag", "Mostafa Bassiouni"),
        title="An Internet friendly transport protocol for continuous media over best effort networks",
        venue="International Journal of Communication Systems (Wiley)",
        year=2002,
    ),
    "cbraa": Reference(
        key="cbraa",
        authors=("Omar Ait-Hellal", "Lidia Yamamoto", "Guy Leduc"),
        title="Cycle-based TCP-friendly algorithm",
        venue="Université de Liège, Research Unit in Networking",
        year=1998,
        note="Year and venue from the paper's own context; to be confirmed.",
    ),
    # Background literature: models the cross-checks compare the simulator
    # against (claims of these papers appear in the claims ledger too).
    "mathis": Reference(
        key="mathis",
        authors=("Matthew Mathis", "Jeffrey Semke", "Jamshid Mahdavi", "Teunis Ott"),
        title="The macroscopic behavior of the TCP congestion avoidance algorithm",
        venue="ACM SIGCOMM Computer Communication Review 27(3):67-82",
        year=1997,
    ),
    "pftk": Reference(
        key="pftk",
        authors=("Jitendra Padhye", "Victor Firoiu", "Don Towsley", "Jim Kurose"),
        title="Modeling TCP throughput: a simple model and its empirical validation",
        venue="Proc. ACM SIGCOMM",
        year=1998,
    ),
    "hollot": Reference(
        key="hollot",
        authors=("C. V. Hollot", "Vishal Misra", "Don Towsley", "Wei-Bo Gong"),
        title="A control theoretic analysis of RED",
        venue="Proc. IEEE INFOCOM",
        year=2001,
    ),
}


def reference(key):
    """The :class:`Reference` of *key*.

    Parameters
    ----------
    key : str
        One of ``REFERENCES``.

    Raises
    ------
    ValueError
        *key* is not a known paper; the message lists the valid keys.
    """
    try:
        return REFERENCES[key]
    except (KeyError, TypeError):
        raise ValueError(
            f"paper must be one of {sorted(REFERENCES)}, got {key!r}") from None


def short(key):
    """Short author-year form of paper *key*, e.g. 'Wade, Kara & Dew (2000)'."""
    return reference(key).short


def cite(key, location=""):
    """Author-year citation with an optional location ('eq. (4.17)')."""
    ref = reference(key)
    return f"{ref.short}, {location}" if location else ref.short


def full(key):
    """Full reference line of paper *key*."""
    return reference(key).full
