# ctlcc.laws.stpd_fuzzy - ST-PD's fuzzy supervisor: BDP -> (kp, kd) gain schedule
"""ST-PD TCP's fuzzy-logic supervisor (Xu (2002), §3.4.3.2).

The supervisor reads the perceived bandwidth-RTT product (BDP, in packets),
fuzzifies it into five terms ES, S, M, L, EL and infers the PD gains of
eq. (3.5)/(4.1) from two rule bases with centre-of-maximum (CoM)
defuzzification::

    kp:  ES -> EL,  S -> L,  M -> M,  L -> S,  EL -> ES   (inverse)
    kd:  ES -> ES,  S -> S,  M -> M,  L -> L,  EL -> EL   (direct)

Which rule base governs which gain
----------------------------------
The OCR garbles the subscripts of both headings ("The rule base for lç is",
"... for K, is").  Three readings agree on *inverse -> kp, direct -> kd*:

1. The text.  Every time §3.4 names the two gains it names kp first
   ("the gains Kp and Kd of the underlying PD controller", "gains Kp and Kd
   ... for TCP connections with different bandwidth-RTT products", "Figure
   3.5(a) and (b) show defuzzification functions for Kp and Kd"); the
   inverse rule base is printed first.  The glyph of the second heading's
   gain ("r¿", "K,") is the one used for Kd in "the gains Ko and r¿".
2. Control reasoning.  The BDP in packets is the round trip in bottleneck
   slots, m ~ BDP (:mod:`ctlcc.analysis.plant`), and a longer loop delay
   costs phase: the proportional gain that keeps
   ``z**(m-1) (z-1)**2 + (kp+kd) z - kd`` inside the unit circle falls
   roughly like 1/m**2, while the best-damped ratio kd/kp *grows* with m
   (more phase lead is needed).  The inverse base on kp and the direct base
   on kd make kp fall and kd/kp rise with the BDP; the other assignment makes
   kp grow with the delay, which is destabilising.
3. The loop analysis.  :func:`ctlcc.analysis.fuzzy_surface.compare_rule_assignments`
   evaluates the spectral radius along the physically consistent diagonal
   m = BDP for both assignments: the thesis's assignment is stable wherever
   the swapped one is, over a longer BDP range, and has the lower radius at
   the §4.3.3 link (BDP 3) and at the scenarios 9 and 94 (at 31 both fire
   M -> M and coincide).

The same analysis also shows what the text does not say: in the per-slot
model of §4.3.2 the stable kd *also* falls with m (about kd < 1.6/m), so the
direct kd rule base helps only by raising kd/kp and in absolute terms works
against stability; gains averaging to the §4.3.3 values cannot be stable at
the scenarios' m = BDP.  See :mod:`ctlcc.analysis.fuzzy_surface` and
``README.md`` ("Findings").

Membership functions
--------------------
The thesis's Figures 3.4 and 3.5 (membership and defuzzification functions)
were lost in the OCR, so the shapes are a documented, parameterised default
(:func:`default_config`, mirrored in ``data/stpd_fuzzy_default.toml``):

* input: a strong (Ruspini) partition of the BDP universe by five peaks
  c_ES < c_S < c_M < c_L < c_EL: shoulders ES = trapezoid(u0, u0, c_ES, c_S)
  and EL = trapezoid(c_L, c_EL, u1, u1), triangles S, M, L between
  neighbouring peaks.  Memberships sum to one everywhere in the universe.
  Default peaks 3, 9, 31, 94, 300 packets: 3 is the link of the §4.3.3
  numerical example (16 ms at 1.5 Mb/s, 1000-byte packets: m = 3); 9, 31
  and 94 are the BDPs of the simulation scenarios of §3.5.1 (Fig. 3.7),
  §4.4.1 (Fig. 4.7) and §4.4 (GEO satellite, Fig. 4.18), so each scenario
  fires exactly one rule (S, M and L respectively); 300 continues the
  roughly x3.2 spacing.
* outputs: five terms per gain described by their maxima (all CoM needs),
  drawn as a Ruspini partition of triangles.  Default: an equally spaced
  ladder, maxima = g * (1/3, 2/3, 1, 4/3, 5/3), so the mean over the S, M
  and L terms (the three scenarios) is exactly g.

Calibration (§4.3.3 prints "averaged" gains kp = 0.368, kd = 0.033):
``calibration="poles"`` (default) uses g_kp = 0.033, g_kd = 0.368, the pair
that reproduces the four poles printed in §4.3.3 (the printed pair gives an
unstable m = 3 loop, see ``data/thesis_stpd_numerical_example.csv``);
``calibration="printed"`` uses the printed pair as it stands.

Defuzzification
---------------
Centre of maximum, as defined: ``g = sum_i w_i y_i / sum_i w_i`` where y_i
is the maximum of output term i and w_i its activation (the largest firing
strength of the rules concluding term i).  scikit-fuzzy (0.5) offers
'centroid', 'bisector', 'mom', 'som' and 'lom' (``skfuzzy.defuzz``); none is
CoM: 'mom'/'som'/'lom' keep only the most activated term's maximum, and
'centroid' of the min-clipped consequents (skfuzzy.control's Mamdani
implication) weighs a term by the clipped area ``w (2 - w)`` rather than by
``w`` (e.g. 4.636 instead of CoM 4.667 for activations 1/3, 2/3 on maxima
4, 5).  So both engines take the activations from scikit-fuzzy and apply
CoM on top:

* ``engine="membership"`` (default): ``skfuzzy.trimf``/``skfuzzy.trapmf`` on
  the whole BDP array, then CoM as one matrix product.  Vectorised.
* ``engine="control"``: the rules in ``skfuzzy.control`` syntax
  (``Rule(bdp['ES'], kp['EL'])``) run by a ``ControlSystemSimulation`` per
  sample; the activations are read from the consequent terms.  It is kept
  as the reference the fast engine is tested against (equal to 1e-12 on
  hundreds of random BDPs) and timed in ``benchmarks/bench_fuzzy.py``.

Out-of-universe input
---------------------
scikit-fuzzy silently clips inputs to the universe.  Here BDP <= 0, NaN or
inf always raise :class:`ctlcc.errors.ParameterError`; a positive BDP
outside the universe [u0, u1] raises as well when
``out_of_universe="raise"`` (default), or, with ``"saturate"``, is
evaluated at the nearest universe edge -- which, since ES and EL are
shoulders, is the same as extending the shoulders to 0 and infinity: the
gains are held at their ES/EL values.
"""

from __future__ import annotations

import json
import math
import warnings
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType

import numpy as np
from numpy.typing import ArrayLike
import skfuzzy

from .._validation import (check_choice, check_finite, check_instance, check_interval,
                          check_positive)
from ..errors import ParameterError

__all__ = [
    "TERMS",
    "GAINS",
    "INVERSE_RULES",
    "DIRECT_RULES",
    "THESIS_RULES",
    "SCENARIO_BDPS",
    "EXAMPLE_BDP",
    "CALIBRATIONS",
    "FuzzyConfig",
    "FuzzySupervisor",
    "default_config",
]

#: Linguistic terms, smallest first: extremely small ... extremely large.
TERMS = ("ES", "S", "M", "L", "EL")
#: The gains the supervisor schedules, in the order of eq. (3.5).
GAINS = ("kp", "kd")
#: §3.4.3.2, first rule base: ES -> EL, S -> L, M -> M, L -> S, EL -> ES.
INVERSE_RULES = MappingProxyType(dict(zip(TERMS, reversed(TERMS))))
#: §3.4.3.2, second rule base: ES -> ES, ..., EL -> EL.
DIRECT_RULES = MappingProxyType(dict(zip(TERMS, TERMS)))
#: The thesis's assignment as read here: inverse -> kp, direct -> kd.
THESIS_RULES = MappingProxyType({"kp": INVERSE_RULES, "kd": DIRECT_RULES})
#: BDPs of the thesis's simulation scenarios (§3.5.1, §4.4.1, §4.4 GEO);
#: ``data/thesis_stpd_scenarios.csv``. [packets]
SCENARIO_BDPS = (9.0, 31.0, 94.0)
#: BDP of the §4.3.3 numerical example link (m = 3). [packets]
EXAMPLE_BDP = 3.0
#: Averaged (kp, kd) of §4.3.3 per calibration: the pair reproducing the
#: printed poles ("poles") or the pair as printed ("printed").
CALIBRATIONS = MappingProxyType({"poles": (0.033, 0.368), "printed": (0.368, 0.033)})

_LADDER = (1 / 3, 2 / 3, 1.0, 4 / 3, 5 / 3)
_OUT_OF_UNIVERSE = ("raise", "saturate")
_ENGINES = ("membership", "control")


@dataclass(frozen=True)
class FuzzyConfig:
    """Membership functions and rule bases of the fuzzy supervisor.

    Attributes
    ----------
    bdp_universe : tuple of float
        (u0, u1), the BDP universe, 0 < u0 < u1. [packets]
    bdp_peaks : tuple of float
        Peaks of ES, S, M, L, EL, strictly increasing, inside the universe;
        they are the breakpoints of the strong partition. [packets]
    output_universe : mapping
        Gain name -> (low, high), 0 <= low < high. [1]
    output_maxima : mapping
        Gain name -> maxima of its ES..EL output terms, strictly increasing,
        inside its universe. [1]
    rules : mapping
        Gain name -> {antecedent term: consequent term}; every input term
        must have exactly one rule.
    out_of_universe : {"raise", "saturate"}
        What to do with a positive BDP outside ``bdp_universe``.
    calibration : str, optional
        Label of where the output maxima came from: ``"poles"`` or ``"printed"``
        (the pairs of :data:`CALIBRATIONS`), ``"custom"`` (other maxima, e.g. read
        from a file) or ``"tuned (...)"`` (set by
        :func:`ctlcc.analysis.tune_breakpoints`); any other label is refused.
        Default: read from the maxima ("poles", "printed" or "custom").
    """

    bdp_universe: tuple = (1.0, 1000.0)
    bdp_peaks: tuple = (3.0, 9.0, 31.0, 94.0, 300.0)
    output_universe: dict = field(default_factory=lambda: {"kp": (0.0, 0.066), "kd": (0.0, 0.736)})
    output_maxima: dict = field(default_factory=lambda: {
        "kp": _ladder(0.033), "kd": _ladder(0.368)})
    rules: dict = field(default_factory=lambda: {g: dict(r) for g, r in THESIS_RULES.items()})
    out_of_universe: str = "raise"
    calibration: str = None

    def __post_init__(self):
        universe = _check_pair("bdp_universe", self.bdp_universe)
        if universe[0] <= 0:
            raise ParameterError(f"bdp_universe must start above 0 packets, got {universe[0]!r}")
        peaks = _check_ladder("bdp_peaks", self.bdp_peaks, universe)
        check_instance("output_universe", self.output_universe, (dict, MappingProxyType))
        check_instance("output_maxima", self.output_maxima, (dict, MappingProxyType))
        if self.calibration is not None:
            _check_calibration(self.calibration)
        out_universe, out_maxima = {}, {}
        for gain in GAINS:
            if gain not in self.output_universe or gain not in self.output_maxima:
                raise ParameterError(
                    f"output_universe and output_maxima need an entry for each of "
                    f"{', '.join(GAINS)}; got {sorted(self.output_universe)} and "
                    f"{sorted(self.output_maxima)}")
            pair = _check_pair(f"output_universe[{gain!r}]", self.output_universe[gain])
            if pair[0] < 0:
                raise ParameterError(
                    f"output_universe[{gain!r}] must start at >= 0 (gains are >= 0), got {pair[0]!r}")
            out_universe[gain] = pair
            out_maxima[gain] = _check_ladder(f"output_maxima[{gain!r}]", self.output_maxima[gain], pair)
        object.__setattr__(self, "bdp_universe", universe)
        object.__setattr__(self, "bdp_peaks", peaks)
        object.__setattr__(self, "output_universe", MappingProxyType(out_universe))
        object.__setattr__(self, "output_maxima", MappingProxyType(out_maxima))
        object.__setattr__(self, "rules", MappingProxyType(_check_rules(self.rules)))
        check_choice("out_of_universe", self.out_of_universe, _OUT_OF_UNIVERSE)
        middle = tuple(out_maxima[g][len(TERMS) // 2] for g in GAINS)
        if self.calibration is None:
            label = next((name for name, pair in CALIBRATIONS.items() if all(
                math.isclose(a, b, rel_tol=1e-9) for a, b in zip(middle, pair))), "custom")
            object.__setattr__(self, "calibration", label)

    def to_dict(self):
        """Plain-dict form (the layout of the TOML/JSON file)."""
        return {
            "calibration": self.calibration,
            "out_of_universe": self.out_of_universe,
            "bdp": {"universe": list(self.bdp_universe), "peaks": list(self.bdp_peaks)},
            **{gain: {"universe": list(self.output_universe[gain]),
                      "maxima": list(self.output_maxima[gain]),
                      "rules": dict(self.rules[gain])} for gain in GAINS},
        }

    @classmethod
    def from_dict(cls, data):
        """Build from the layout written by :meth:`to_dict`."""
        return cls._from_dict(data, "data")

    @classmethod
    def _from_dict(cls, data, name):
        from collections.abc import Mapping

        check_instance(name, data, Mapping)
        unknown = sorted(str(k) for k in data if k not in _CONFIG_KEYS)
        if unknown:
            raise ParameterError(
                f"{name} has unknown key(s), got {unknown}; allowed: {', '.join(_CONFIG_KEYS)}")
        try:
            bdp = data["bdp"]
            return cls(
                bdp_universe=tuple(bdp["universe"]),
                bdp_peaks=tuple(bdp["peaks"]),
                output_universe={g: tuple(data[g]["universe"]) for g in GAINS},
                output_maxima={g: tuple(data[g]["maxima"]) for g in GAINS},
                rules={g: dict(data[g].get("rules", {})) for g in GAINS},
                out_of_universe=data.get("out_of_universe", "raise"),
                calibration=data.get("calibration", "custom"),
            )
        except (KeyError, TypeError) as err:
            raise ParameterError(
                f"{name} (a fuzzy supervisor config) is missing or misshapes {err}; expected "
                f"tables 'bdp' (universe, peaks) and, for each of {', '.join(GAINS)}, "
                f"(universe, maxima, rules); got keys {sorted(map(str, data))}") from err


class FuzzySupervisor:
    """ST-PD's fuzzy supervisor: perceived BDP -> PD gains (kp, kd).

    Parameters
    ----------
    config : FuzzyConfig, dict or None, optional
        Membership functions and rule bases; a dict in the layout of
        ``data/stpd_fuzzy_default.toml``; None for :func:`default_config`.

    Notes
    -----
    The object is immutable and holds no simulation state: :meth:`gains`
    is a pure function of the BDP.  See the module docstring for the rule
    bases, the membership functions and CoM defuzzification.

    References
    ----------
    Xu (2002), §3.4.3.2 (rule bases, CoM), §4.3.3
    (averaged gains).

    Examples
    --------
    The scenarios of the thesis sit on the S, M and L peaks, so each fires
    one rule; their gains average to the calibration pair:

    >>> sup = FuzzySupervisor()
    >>> kp, kd = sup.gains(np.array(SCENARIO_BDPS))
    >>> kp.round(4).tolist(), kd.round(4).tolist()
    ([0.044, 0.033, 0.022], [0.2453, 0.368, 0.4907])
    >>> round(float(kp.mean()), 6), round(float(kd.mean()), 6)
    (0.033, 0.368)

    Between two peaks two rules fire and CoM interpolates linearly:

    >>> [round(g, 4) for g in sup.gains(20.0)]
    [0.0385, 0.3067]
    """

    def __init__(self, config=None):
        if config is None:
            config = default_config()
        elif isinstance(config, dict):
            config = FuzzyConfig._from_dict(config, "config")
        elif not isinstance(config, FuzzyConfig):
            raise ParameterError(
                f"config must be a FuzzyConfig, a dict or None, got {type(config).__name__} "
                f"{config!r:.60}")
        self._config = config
        self._maxima = {g: np.asarray(config.output_maxima[g]) for g in GAINS}
        # consequent maximum of each antecedent term's rule, per gain
        self._rule_maxima = {
            g: np.array([self._maxima[g][TERMS.index(config.rules[g][t])] for t in TERMS])
            for g in GAINS}

    @property
    def config(self):
        """The :class:`FuzzyConfig` this supervisor runs."""
        return self._config

    @classmethod
    def from_file(cls, path):
        """Load a supervisor from a TOML (``.toml``) or JSON file.

        Parameters
        ----------
        path : str or pathlib.Path
            File in the layout of ``data/stpd_fuzzy_default.toml``.

        Returns
        -------
        FuzzySupervisor
        """
        check_instance("path", path, (str, Path))
        path = Path(path)
        text = path.read_bytes()
        try:
            if path.suffix.lower() == ".json":
                data = json.loads(text)
            else:
                data = _toml_loads(text.decode("utf-8"))
        except (ValueError, UnicodeDecodeError) as err:
            raise ParameterError(
                f"path {str(path)!r} is not a valid fuzzy supervisor config: got {err}") from err
        return cls(FuzzyConfig.from_dict(data))

    def with_config(self, **changes):
        """A new supervisor with some config fields replaced."""
        return FuzzySupervisor(replace(self._config, **changes))

    def memberships(self, bdp):
        """Membership of *bdp* in ES, S, M, L, EL.

        Parameters
        ----------
        bdp : float or array_like
            Perceived bandwidth-RTT product. [packets]

        Returns
        -------
        ndarray
            Shape ``(5,) + shape(bdp)``, rows in :data:`TERMS` order; each
            column sums to one.
        """
        x = self._prepare(bdp)
        return _memberships(x.ravel(), self._config).reshape((len(TERMS),) + x.shape)

    def output_memberships(self, gain, values):
        """Membership of gain *values* in the output terms ES..EL.

        The output terms are drawn as a strong partition of triangles with
        the configured maxima (CoM itself uses only the maxima).

        Parameters
        ----------
        gain : {"kp", "kd"}
        values : array_like
            Gain values inside the output universe. [1]

        Returns
        -------
        ndarray
            Shape ``(5,) + shape(values)``.
        """
        check_choice("gain", gain, GAINS)
        low, high = self._config.output_universe[gain]
        y = np.asarray(check_interval("values", values, low, high, closed="both"), dtype=float)
        shapes = _output_shapes(self._config.output_maxima[gain], (low, high))
        return np.stack([_evaluate_shape(y.ravel(), shape) for shape in shapes]).reshape((5,) + y.shape)

    def gains(self, bdp: ArrayLike, engine: str = "membership") -> tuple:
        """PD gains (kp, kd) scheduled for the perceived BDP.

        Parameters
        ----------
        bdp : float or array_like
            Perceived bandwidth-RTT product, > 0 and finite. [packets]
        engine : {"membership", "control"}, optional
            "membership": vectorised skfuzzy membership functions + CoM;
            "control": a skfuzzy.control ControlSystemSimulation per value
            (slow reference).

        Returns
        -------
        kp, kd : float or ndarray
            Gains of eq. (4.1), same shape as *bdp*. [1]

        Raises
        ------
        ParameterError
            BDP <= 0 or not finite; BDP outside the universe when
            ``out_of_universe="raise"``; unknown engine.

        Examples
        --------
        >>> sup = FuzzySupervisor()
        >>> sup.gains([3.0, 300.0])[0].round(4).tolist()   # ES -> EL, EL -> ES
        [0.055, 0.011]
        """
        check_choice("engine", engine, _ENGINES)
        x = self._prepare(bdp)
        flat = x.ravel()
        if engine == "membership":
            weights = _memberships(flat, self._config)
            out = [self._rule_maxima[g] @ weights for g in GAINS]
        else:
            out = _control_engine_gains(flat, self._config)
        out = [values.reshape(x.shape) for values in out]
        if np.ndim(bdp) == 0 and not isinstance(bdp, np.ndarray):
            return float(out[0]), float(out[1])
        return out[0], out[1]

    def schedule(self, tolerance=1e-12):
        """The gain schedule as a piecewise-linear table (what the packet sender runs).

        With a strong partition of the BDP and centre-of-maximum
        defuzzification, each gain is a weighted mean of two rule maxima
        with weights linear in the BDP, so it is linear between consecutive
        peaks when every input term has its own consequent; this returns
        the universe edges and the peaks as breakpoints and checks the
        linearity on 64 points per segment against :meth:`gains`.  When a
        rule base sends two input terms to one output term (CoM then takes
        the larger activation, which bends the curve), the table falls back
        to 4097 points spaced geometrically over the universe, and its
        largest deviation from :meth:`gains` is below 1e-4 of the gain's
        range for the shipped shapes.

        Outside the universe the table is held at its end values
        (``numpy.interp``): the packet sender *saturates* the perceived BDP
        at the universe's edges, whatever ``out_of_universe`` says, because
        a sender cannot stop on a BDP estimate of, say, 0.98 packets.

        Parameters
        ----------
        tolerance : float, optional
            Largest allowed deviation of the breakpoint table from
            :meth:`gains`. [1]

        Returns
        -------
        bdp, kp, kd : ndarray
            Breakpoints [packets] and the gains there [1].

        Examples
        --------
        >>> x, kp, kd = FuzzySupervisor().schedule()
        >>> x.tolist()
        [1.0, 3.0, 9.0, 31.0, 94.0, 300.0, 1000.0]
        >>> round(float(np.interp(20.0, x, kp)), 4)
        0.0385
        """
        tolerance = check_positive("tolerance", tolerance, scalar=True)
        low, high = self._config.bdp_universe
        x = np.array([low, *self._config.bdp_peaks, high])
        x = np.unique(x)
        sat = FuzzySupervisor(replace(self._config, out_of_universe="saturate"))
        kp, kd = sat.gains(x)
        probe = np.concatenate([np.linspace(a, b, 64) for a, b in zip(x[:-1], x[1:])])
        pkp, pkd = sat.gains(probe)
        if max(np.max(np.abs(np.interp(probe, x, kp) - pkp)),
               np.max(np.abs(np.interp(probe, x, kd) - pkd))) > tolerance:
            x = np.geomspace(low, high, 4097)
            kp, kd = sat.gains(x)
        return x, np.asarray(kp, dtype=float), np.asarray(kd, dtype=float)

    def surface(self, bdp, m, model="per_slot"):
        """Gain schedule and closed-loop spectral radius over (BDP, m).

        Shorthand for :func:`ctlcc.analysis.fuzzy_surface.gain_surface`.

        Parameters
        ----------
        bdp : array_like
            Perceived BDP grid. [packets]
        m : array_like of int
            Round-trip grid. [slots]
        model : str, optional
            ST-PD loop model, see :mod:`ctlcc.analysis.stpd`.

        Returns
        -------
        ctlcc.analysis.fuzzy_surface.GainSurface
        """
        from ..analysis.fuzzy_surface import gain_surface

        return gain_surface(bdp, m, supervisor=self, model=model)

    def __repr__(self):
        c = self._config
        return (f"FuzzySupervisor(calibration={c.calibration!r}, bdp_peaks={c.bdp_peaks}, "
                f"out_of_universe={c.out_of_universe!r})")

    def _prepare(self, bdp):
        x = np.array(check_positive("bdp", check_finite("bdp", bdp)), dtype=float, ndmin=0)
        low, high = self._config.bdp_universe
        outside = (x < low) | (x > high)
        if np.any(outside):
            if self._config.out_of_universe == "raise":
                bad = x[outside].ravel()
                shown = ", ".join(f"{v:g}" for v in bad[:5]) + (" ..." if bad.size > 5 else "")
                raise ParameterError(
                    f"bdp must be in the supervisor's universe [{low:g}, {high:g}] packets, "
                    f"got {shown}; use out_of_universe='saturate' to hold the ES/EL gains")
            x = np.minimum(np.maximum(x, low), high)  # documented saturation
        return x


def _check_calibration(calibration):
    """The calibration label: 'poles', 'printed', 'custom' or 'tuned (...)'."""
    check_instance("calibration", calibration, str)
    if calibration not in (*CALIBRATIONS, "custom") and not (
            calibration.startswith("tuned (") and calibration.endswith(")")):
        raise ParameterError(
            f"calibration must be one of {', '.join(map(repr, (*CALIBRATIONS, 'custom')))} "
            f"or 'tuned (...)' (a tune_breakpoints result); got {calibration!r}")
    return calibration


def default_config(calibration="poles", out_of_universe="raise"):
    """The documented default supervisor configuration.

    Parameters
    ----------
    calibration : {"poles", "printed"}, optional
        Which averaged (kp, kd) of §4.3.3 the output ladders are centred
        on: "poles" (0.033, 0.368), which reproduces the printed poles, or
        "printed" (0.368, 0.033), the pair as printed.
    out_of_universe : {"raise", "saturate"}, optional
        Handling of a positive BDP outside [1, 1000] packets.

    Returns
    -------
    FuzzyConfig

    Examples
    --------
    >>> default_config("printed").output_maxima["kp"][2]
    0.368
    """
    check_choice("calibration", calibration, tuple(CALIBRATIONS))
    kp, kd = CALIBRATIONS[calibration]
    return FuzzyConfig(
        bdp_universe=(1.0, 1000.0),
        bdp_peaks=(EXAMPLE_BDP,) + SCENARIO_BDPS + (300.0,),
        output_universe={"kp": (0.0, 2 * kp), "kd": (0.0, 2 * kd)},
        output_maxima={"kp": _ladder(kp), "kd": _ladder(kd)},
        rules={g: dict(r) for g, r in THESIS_RULES.items()},
        out_of_universe=out_of_universe,
        calibration=calibration,
    )


def _ladder(centre):
    """Equally spaced output maxima centre * (1/3, ..., 5/3), to 12 digits."""
    return tuple(float(f"{centre * f:.12g}") for f in _LADDER)


def _check_pair(name, value):
    try:
        low, high = (float(v) for v in value)
    except (TypeError, ValueError) as err:
        raise ParameterError(f"{name} must be a pair (low, high), got {value!r}") from err
    check_finite(name, [low, high])
    if not low < high:
        raise ParameterError(f"{name} must satisfy low < high, got ({low:g}, {high:g})")
    return (low, high)


def _check_ladder(name, value, universe):
    try:
        values = tuple(float(v) for v in value)
    except (TypeError, ValueError) as err:
        raise ParameterError(f"{name} must be {len(TERMS)} numbers, got {value!r}") from err
    if len(values) != len(TERMS):
        raise ParameterError(
            f"{name} must have one value per term {', '.join(TERMS)} ({len(TERMS)}), "
            f"got {len(values)}")
    check_finite(name, values)
    if not all(a < b for a, b in zip(values, values[1:])):
        raise ParameterError(
            f"{name} must be strictly increasing (ES < S < M < L < EL), got {list(values)}")
    low, high = universe
    if values[0] < low or values[-1] > high:
        raise ParameterError(
            f"{name} must lie inside the universe [{low:g}, {high:g}], got {list(values)}")
    return values


def _check_rules(rules):
    if not isinstance(rules, (dict, MappingProxyType)):
        raise ParameterError(f"rules must be a mapping gain -> rule base, got {type(rules).__name__}")
    unknown = [g for g in rules if g not in GAINS]
    if unknown:
        raise ParameterError(
            f"rules: unknown gain(s), got {unknown}; available: {', '.join(GAINS)}")
    checked = {}
    for gain in GAINS:
        base = rules.get(gain)
        if not base:
            raise ParameterError(
                f"rule base for {gain} is empty: give one rule per BDP term "
                f"{', '.join(TERMS)} (e.g. the thesis's {dict(THESIS_RULES[gain])})")
        bad = [(a, c) for a, c in base.items() if a not in TERMS or c not in TERMS]
        if bad:
            raise ParameterError(
                f"rule base for {gain}: unknown term(s) in {bad}; available: {', '.join(TERMS)}")
        missing = [t for t in TERMS if t not in base]
        if missing:
            raise ParameterError(
                f"rule base for {gain} leaves BDP term(s) {missing} without a rule, so the "
                f"gain would be undefined where only they fire; give one rule per term")
        checked[gain] = MappingProxyType({t: base[t] for t in TERMS})
    return checked


def _input_shapes(config):
    """skfuzzy membership-function parameters of ES..EL, in TERMS order."""
    u0, u1 = config.bdp_universe
    c = config.bdp_peaks
    return (
        ("trapmf", (u0, u0, c[0], c[1])),
        ("trimf", (c[0], c[1], c[2])),
        ("trimf", (c[1], c[2], c[3])),
        ("trimf", (c[2], c[3], c[4])),
        ("trapmf", (c[3], c[4], u1, u1)),
    )


def _output_shapes(maxima, universe):
    """Triangles (Ruspini partition) drawing output terms with these maxima."""
    low, high = universe
    y = maxima
    feet = (low,) + tuple(y) + (high,)
    return tuple(("trimf", (feet[i], feet[i + 1], feet[i + 2])) for i in range(len(y)))


def _evaluate_shape(x, shape):
    kind, params = shape
    function = skfuzzy.trimf if kind == "trimf" else skfuzzy.trapmf
    return function(np.asarray(x, dtype=float), np.asarray(params, dtype=float))


def _memberships(x, config):
    """(5, N) memberships of the 1-d array *x* (already inside the universe)."""
    return np.stack([_evaluate_shape(x, shape) for shape in _input_shapes(config)])


def _control_engine_gains(x, config):
    """Gains by skfuzzy.control, one ControlSystemSimulation run per value."""
    from skfuzzy import control as ctrl

    u0, u1 = config.bdp_universe
    # The antecedent universe holds every breakpoint, so skfuzzy's linear
    # interpolation of the membership functions on it is exact.
    universe = np.union1d(np.linspace(u0, u1, 201), (u0, u1) + config.bdp_peaks)
    bdp = ctrl.Antecedent(universe, "bdp")
    for term, shape in zip(TERMS, _input_shapes(config)):
        bdp[term] = _evaluate_shape(universe, shape)
    consequents, rules = {}, []
    for gain in GAINS:
        low, high = config.output_universe[gain]
        maxima = config.output_maxima[gain]
        grid = np.union1d(np.linspace(low, high, 101), (low, high) + maxima)
        consequent = ctrl.Consequent(grid, gain, defuzzify_method="centroid")
        for term, shape in zip(TERMS, _output_shapes(maxima, (low, high))):
            consequent[term] = _evaluate_shape(grid, shape)
        consequents[gain] = consequent
        rules += [ctrl.Rule(bdp[a], consequent[c], label=f"{gain}:{a}->{c}")
                  for a, c in config.rules[gain].items()]
    # clip_to_bounds=False: the caller has already handled the universe.
    simulation = ctrl.ControlSystemSimulation(ctrl.ControlSystem(rules), clip_to_bounds=False,
                                              flush_after_run=len(x) + 1)
    out = {gain: np.empty(len(x)) for gain in GAINS}
    maxima = {gain: np.asarray(config.output_maxima[gain]) for gain in GAINS}
    for i, value in enumerate(x):
        simulation.input["bdp"] = float(value)
        with warnings.catch_warnings():
            # skfuzzy 0.5 calls np.maximum(a, b, out) positionally (NumPy 2
            # deprecation) while building the centroid output we do not use.
            warnings.filterwarnings("ignore", category=DeprecationWarning, module="skfuzzy")
            simulation.compute()
        for gain in GAINS:
            terms = consequents[gain].terms
            activation = np.array([_activation(terms[t].membership_value[simulation]) for t in TERMS])
            out[gain][i] = activation @ maxima[gain] / activation.sum()  # CoM
    return out["kp"], out["kd"]


def _activation(value):
    return 0.0 if value is None else float(value)


#: Top-level keys of the TOML/JSON layout (:meth:`FuzzyConfig.to_dict`).
_CONFIG_KEYS = ("calibration", "out_of_universe", "bdp", "kp", "kd")


def _toml_loads(text):
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ParameterError(f"fuzzy supervisor config is not valid TOML: {err}") from err

