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
'Ait-Hellal, Yamamoto & Leduc (1999), eq. (4)'
>>> cite("pftk", "eq. (31)")
'Padhye et al. (1998), eq. (31)'
>>> short("rfc5348")
'RFC 5348 (2008)'
"""

from dataclasses import dataclass

from .errors import ParameterError

__all__ = ["Reference", "REFERENCES", "PAPERS", "reference", "short", "cite", "full",
           "bibtex"]


#: BibTeX entry types a :class:`Reference` may have.
KINDS = ("article", "inproceedings", "phdthesis", "techreport", "incollection", "misc")


@dataclass(frozen=True)
class Reference:
    """One bibliography entry.

    Attributes
    ----------
    key : str
        Short key used throughout ctlcc (the protocol's name for the five
        papers ctlcc reproduces, the model's usual name or ``rfcNNNN`` otherwise).
    authors : tuple of str
        Authors as printed, family name last.
    title : str
        Title as published.
    venue : str
        Journal (with volume, issue and pages), proceedings, institution or
        series.
    year : int
        Year of publication.
    kind : str
        BibTeX entry type: ``article``, ``inproceedings``, ``phdthesis``,
        ``techreport``, ``incollection`` or ``misc``.
    doi : str
        DOI without the ``https://doi.org/`` prefix, '' where none exists or
        none could be established.
    url : str
        Stable address where the text can be read, '' if none.
    label : str
        Short form used instead of 'Family (year)' (RFCs: 'RFC 5348').
    note : str
        How the entry was established where the copy ctlcc worked from is
        incomplete (e.g. no title page); empty otherwise.
    """

    key: str
    authors: tuple
    title: str
    venue: str
    year: int
    kind: str = "article"
    doi: str = ""
    url: str = ""
    label: str = ""
    note: str = ""

    def __post_init__(self):
        for name in ("key", "title", "venue"):
            _check_text(name, getattr(self, name), empty=False)
        for name in ("doi", "url", "label", "note"):
            _check_text(name, getattr(self, name))
        if not (isinstance(self.authors, tuple) and self.authors
                and all(isinstance(a, str) and a for a in self.authors)):
            raise ParameterError(
                f"authors must be a non-empty tuple of names (str), got {self.authors!r:.80}")
        if isinstance(self.year, bool) or not isinstance(self.year, int) or self.year < 1:
            raise ParameterError(f"year must be an integer >= 1, got {self.year!r:.80}")
        if not (isinstance(self.kind, str) and self.kind in KINDS):
            raise ParameterError(f"kind must be one of {', '.join(map(repr, KINDS))}; "
                                 f"got {self.kind!r:.80}")

    @property
    def short(self) -> str:
        """'Family (year)', 'A & B (year)', 'A, B & C (year)' or 'A et al. (year)'."""
        if self.label:
            return f"{self.label} ({self.year})"
        names = [a.split()[-1] for a in self.authors]
        if len(names) == 1:
            who = names[0]
        elif len(names) <= 3:
            who = ", ".join(names[:-1]) + " & " + names[-1]
        else:
            who = names[0] + " et al."
        return f"{who} ({self.year})"

    @property
    def full(self) -> str:
        """Authors, title, venue, year and DOI: one line for a reference list."""
        line = f"{', '.join(self.authors)}. {self.title}. {self.venue}, {self.year}."
        if self.doi:
            line += f" doi:{self.doi}"
        elif self.url:
            line += f" {self.url}"
        return line


def _check_text(name, value, empty=True):
    if not isinstance(value, str) or not (empty or value):
        what = "a string" if empty else "a non-empty string"
        raise ParameterError(f"{name} must be {what}, got {value!r:.80}")


def _ref(key, authors, title, venue, year, **kw):
    return key, Reference(key=key, authors=tuple(authors), title=title, venue=venue,
                          year=year, **kw)


#: Every work ctlcc cites, by key.  The first five are the papers ctlcc
#: reproduces (:data:`PAPERS`); the others are the models and standards it
#: builds on.  Venues, pages and DOIs were checked against publisher and
#: library records (IEEE Xplore, IET, Springer/HAL, RFC Editor) in 2026; where
#: a field could not be established the entry's ``note`` says so.
REFERENCES = dict([
    _ref("stpd", ["W. Xu"],
         "Self-tuning PD control based TCP congestion control (ST-PD TCP)",
         "Thesis (institution and degree not printed in the copy used)", 2002, kind="phdthesis",
         note=("The copy ctlcc worked from has no title page, so its author, institution, "
               "degree and year are not printed in it (the text calls itself 'the thesis'; "
               "the BibTeX type phdthesis is an assumption), and the title here is descriptive, built from "
               "the abstract's own words ('a novel Self-Tuning Proportional and Derivative "
               "control based TCP (ST-PD TCP) congestion control scheme'). The attribution is to the companion article "
               "W. Xu, A. G. Qureshi, K. W. Sarkies, 'Novel TCP congestion control scheme and "
               "its performance evaluation', IEE Proc.-Commun. 149(4):217-222, 2002, "
               "doi:10.1049/ip-com:20020508 (CSIRO Telecommunications & Industrial Physics), "
               "whose abstract describes the same ST-PD scheme (PD window law, fuzzy tuning "
               "on the bandwidth-delay product); the thesis does not cite the article. The thesis cites nothing later than 2001; "
               "the year 2002 is the article's. Cite the article alongside the thesis.")),
    _ref("stpd_article", ["W. Xu", "A. G. Qureshi", "K. W. Sarkies"],
         "Novel TCP congestion control scheme and its performance evaluation",
         "IEE Proceedings - Communications 149(4):217-222", 2002,
         doi="10.1049/ip-com:20020508"),
    _ref("primo", ["Fabien Chatté", "Bertrand Ducourthial", "Silviu-Iulian Niculescu"],
         "A study of a simple preventive transport protocol",
         "Annals of Telecommunications 61(1):72-91", 2006,
         doi="10.1007/BF03219969", url="https://hal.science/hal-01322799"),
    _ref("sttp", ["R. Wade", "M. Kara", "P. M. Dew"],
         "Modelling and simulation of STTP, a proactive transport protocol",
         "Proc. IEEE International Conference on Networks (ICON 2000), pp. 485ff.",
         2000, kind="inproceedings", doi="10.1109/ICON.2000.875838",
         note="Last page not established (IEEE Xplore lists first page 485)."),
    _ref("iftp", ["Hala ElAarag", "Mostafa Bassiouni"],
         "An Internet friendly transport protocol for continuous media over best effort networks",
         "International Journal of Communication Systems (Wiley)", 2002,
         note=("Year from the article's copyright line (received 3 November 2001, accepted "
               "14 October 2002); volume, issue, pages and DOI could not be established.")),
    _ref("cbraa", ["Omar Ait-Hellal", "Lidia Yamamoto", "Guy Leduc"],
         "Cycle-based TCP-friendly algorithm",
         "Proc. IEEE Global Telecommunications Conference (GLOBECOM '99), Rio de Janeiro",
         1999, kind="inproceedings", doi="10.1109/GLOCOM.1999.830172",
         url="http://www.run.montefiore.ulg.ac.be/Publications/Paper/Abstracts/index.php?runRef=RUN-PP99-06",
         note="Also Université de Liège, Research Unit in Networking, preprint RUN-PP99-06."),
    # -- models and standards ctlcc builds on ---------------------------------
    _ref("mathis", ["Matthew Mathis", "Jeffrey Semke", "Jamshid Mahdavi", "Teunis Ott"],
         "The macroscopic behavior of the TCP congestion avoidance algorithm",
         "ACM SIGCOMM Computer Communication Review 27(3):67-82", 1997,
         doi="10.1145/263932.264023"),
    _ref("mahdavi_floyd", ["Jamshid Mahdavi", "Sally Floyd"],
         "TCP-friendly unicast rate-based flow control",
         "Technical note sent to the end2end-interest mailing list", 1997, kind="misc",
         url="https://www.psc.edu/networking/papers/tcp_friendly.html"),
    _ref("pftk", ["Jitendra Padhye", "Victor Firoiu", "Don Towsley", "Jim Kurose"],
         "Modeling TCP throughput: a simple model and its empirical validation",
         "Proc. ACM SIGCOMM '98, pp. 303-314", 1998, kind="inproceedings",
         doi="10.1145/285237.285291"),
    _ref("rfc5348", ["S. Floyd", "M. Handley", "J. Padhye", "J. Widmer"],
         "TCP Friendly Rate Control (TFRC): Protocol Specification",
         "IETF RFC 5348", 2008, kind="misc", doi="10.17487/RFC5348", label="RFC 5348"),
    _ref("rfc5681", ["M. Allman", "V. Paxson", "E. Blanton"],
         "TCP Congestion Control", "IETF RFC 5681", 2009, kind="misc",
         doi="10.17487/RFC5681", label="RFC 5681"),
    _ref("rfc6582", ["T. Henderson", "S. Floyd", "A. Gurtov", "Y. Nishida"],
         "The NewReno Modification to TCP's Fast Recovery Algorithm",
         "IETF RFC 6582", 2012, kind="misc", doi="10.17487/RFC6582", label="RFC 6582"),
    _ref("rfc6675", ["E. Blanton", "M. Allman", "L. Wang", "I. Jarvinen", "M. Kojo", "Y. Nishida"],
         "A Conservative Loss Recovery Algorithm Based on Selective Acknowledgment (SACK) for TCP",
         "IETF RFC 6675", 2012, kind="misc", doi="10.17487/RFC6675", label="RFC 6675"),
    _ref("rfc6298", ["V. Paxson", "M. Allman", "J. Chu", "M. Sargent"],
         "Computing TCP's Retransmission Timer", "IETF RFC 6298", 2011, kind="misc",
         doi="10.17487/RFC6298", label="RFC 6298"),
    _ref("rfc3042", ["M. Allman", "H. Balakrishnan", "S. Floyd"],
         "Enhancing TCP's Loss Recovery Using Limited Transmit", "IETF RFC 3042", 2001,
         kind="misc", doi="10.17487/RFC3042", label="RFC 3042"),
    _ref("rfc6937", ["M. Mathis", "N. Dukkipati", "Y. Cheng"],
         "Proportional Rate Reduction for TCP", "IETF RFC 6937", 2013, kind="misc",
         doi="10.17487/RFC6937", label="RFC 6937"),
    _ref("rfc7323", ["D. Borman", "B. Braden", "V. Jacobson", "R. Scheffenegger"],
         "TCP Extensions for High Performance", "IETF RFC 7323", 2014, kind="misc",
         doi="10.17487/RFC7323", label="RFC 7323"),
    _ref("hollot", ["C. V. Hollot", "Vishal Misra", "Don Towsley", "Wei-Bo Gong"],
         "A control theoretic analysis of RED",
         "Proc. IEEE INFOCOM 2001, vol. 3, pp. 1510-1519", 2001, kind="inproceedings",
         doi="10.1109/INFCOM.2001.916647"),
    _ref("hollot_pi", ["C. V. Hollot", "Vishal Misra", "Don Towsley", "Wei-Bo Gong"],
         "Analysis and design of controllers for AQM routers supporting TCP flows",
         "IEEE Transactions on Automatic Control 47(6):945-959", 2002,
         doi="10.1109/TAC.2002.1008360"),
    _ref("red", ["Sally Floyd", "Van Jacobson"],
         "Random early detection gateways for congestion avoidance",
         "IEEE/ACM Transactions on Networking 1(4):397-413", 1993,
         doi="10.1109/90.251892"),
    _ref("rfc9438", ["L. Xu", "S. Ha", "I. Rhee", "V. Goel", "L. Eggert"],
         "CUBIC for Fast and Long-Distance Networks", "IETF RFC 9438", 2023, kind="misc",
         doi="10.17487/RFC9438", label="RFC 9438"),
    _ref("mgt", ["Vishal Misra", "Wei-Bo Gong", "Don Towsley"],
         "Fluid-based analysis of a network of AQM routers supporting TCP flows "
         "with an application to RED",
         "Proc. ACM SIGCOMM 2000, pp. 151-160", 2000, kind="inproceedings",
         doi="10.1145/347059.347421"),
    _ref("vegas", ["Lawrence S. Brakmo", "Larry L. Peterson"],
         "TCP Vegas: end to end congestion avoidance on a global Internet",
         "IEEE Journal on Selected Areas in Communications 13(8):1465-1480", 1995,
         doi="10.1109/49.464716"),
    _ref("jain", ["Raj Jain", "Dah-Ming Chiu", "William R. Hawe"],
         "A quantitative measure of fairness and discrimination for resource "
         "allocation in shared computer systems",
         "Digital Equipment Corporation, Technical Report DEC-TR-301", 1984,
         kind="techreport", url="https://arxiv.org/abs/cs/9809099"),
    _ref("ns3", ["George F. Riley", "Thomas R. Henderson"],
         "The ns-3 network simulator",
         "Modeling and Tools for Network Simulation (Springer), pp. 15-34", 2010,
         kind="incollection", doi="10.1007/978-3-642-12331-3_2"),
])

#: Keys of the five papers whose claims ctlcc reproduces.
PAPERS = ("stpd", "primo", "sttp", "iftp", "cbraa")


def reference(key: str) -> Reference:
    """The :class:`Reference` of *key*.

    Parameters
    ----------
    key : str
        One of ``REFERENCES``.

    Returns
    -------
    Reference
        The entry.

    Raises
    ------
    ValueError
        *key* is not a known work; the message lists the valid keys.
    """
    try:
        return REFERENCES[key]
    except (KeyError, TypeError):
        raise ParameterError(
            f"key must be one of {sorted(REFERENCES)}, got {key!r:.80}") from None


def short(key: str) -> str:
    """Short author-year form of work *key*, e.g. 'Wade, Kara & Dew (2000)'."""
    return reference(key).short


def cite(key: str, location: str = "") -> str:
    """Author-year citation with an optional location ('eq. (4.17)').

    The same string names the paper in docstrings, figure titles, warnings
    and the ``source`` column of ``data/*.csv``.
    """
    ref = reference(key)
    _check_text("location", location)
    return f"{ref.short}, {location}" if location else ref.short


def full(key: str) -> str:
    """Full reference line of work *key*."""
    return reference(key).full


def bibtex(key: str) -> str:
    """BibTeX entry of work *key*.

    Examples
    --------
    >>> print(bibtex("rfc5348").splitlines()[0])
    @misc{rfc5348,
    """
    ref = reference(key)
    venue_field = {"article": "journal", "inproceedings": "booktitle",
                   "incollection": "booktitle", "phdthesis": "school",
                   "techreport": "institution"}.get(ref.kind, "howpublished")
    fields = [("author", " and ".join(ref.authors)), ("title", "{" + ref.title + "}"),
              (venue_field, ref.venue), ("year", str(ref.year))]
    if ref.doi:
        fields.append(("doi", ref.doi))
    if ref.url:
        fields.append(("url", ref.url))
    if ref.note:
        fields.append(("note", ref.note))
    body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields)
    return f"@{ref.kind}{{{ref.key},\n{body}\n}}"
