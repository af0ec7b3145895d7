# ctlcc.analysis.fuzzy_surface - where ST-PD's fuzzy-tuned loop is stable
"""Gain schedules and stability surfaces of ST-PD's fuzzy-tuned loop.

The fuzzy supervisor (:class:`ctlcc.laws.stpd_fuzzy.FuzzySupervisor`)
schedules kp(BDP), kd(BDP); the ST-PD loop (:mod:`ctlcc.analysis.stpd`,
Xu (2002), §4.3.2) turns a gain pair and a round trip of
m slots into closed-loop poles.  Over a (BDP, m) grid this gives the
spectral radius rho of the fuzzy-tuned loop: stable where rho < 1, with
stability margin 1 - rho.

BDP and m are not independent: with one slot = one packet time at the
bottleneck (capacity 1 packet/slot), a round trip of RTT seconds is
m = RTT * C slots and the bandwidth-RTT product is RTT * C packets, so a
given link sits on the *physically consistent diagonal* m = round(BDP)
(the one-packet reference queue adds at most one slot).  The rest of the
grid answers "what if the supervisor misjudged the BDP".

What the surfaces show (per-slot model, default supervisor): the thesis's
rule assignment (kp inverse, kd direct) keeps the loop stable on the
diagonal only for small BDPs; its scenarios (BDP 9, 31, 94) are unstable
with any gains averaging to the §4.3.3 values, because a stable per-slot
loop needs kd below about 1.6/m.  :func:`compare_rule_assignments` and
:func:`tune_breakpoints` quantify this.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import ArrayLike
from scipy import optimize

from .._validation import check_choice, check_interval, check_positive, check_positive_int
from ..errors import ParameterError
from ..laws.stpd_fuzzy import DIRECT_RULES, GAINS, INVERSE_RULES, TERMS, FuzzySupervisor
from . import stpd as _stpd

__all__ = [
    "GainSurface",
    "RuleAssignmentComparison",
    "TuningResult",
    "RULE_ASSIGNMENTS",
    "gain_surface",
    "diagonal_m",
    "compare_rule_assignments",
    "best_radius",
    "tune_breakpoints",
]

#: Rule-base assignments compared by :func:`compare_rule_assignments`.
RULE_ASSIGNMENTS = {
    "thesis (kp inverse, kd direct)": {"kp": dict(INVERSE_RULES), "kd": dict(DIRECT_RULES)},
    "swapped (kp direct, kd inverse)": {"kp": dict(DIRECT_RULES), "kd": dict(INVERSE_RULES)},
    "both inverse": {"kp": dict(INVERSE_RULES), "kd": dict(INVERSE_RULES)},
}

_TUNE = ("input", "output", "both")
_AIM_INSIDE = 0.02
_PER = ("slot", "round_trip")


@dataclass(frozen=True)
class GainSurface:
    """Gain schedule and spectral radius of the fuzzy-tuned ST-PD loop.

    Attributes
    ----------
    bdp : ndarray, shape (nb,)
        Perceived BDP grid. [packets]
    m : ndarray of int, shape (nm,)
        Round-trip grid. [slots]
    kp, kd : ndarray, shape (nb,)
        Scheduled gains. [1]
    spectral_radius : ndarray, shape (nm, nb)
        Largest closed-loop pole magnitude at (m[i], bdp[j]). [1]
    diagonal_m : ndarray of int, shape (nb,)
        m = max(1, round(BDP)), the physically consistent round trip. [slots]
    diagonal_radius : ndarray, shape (nb,)
        Spectral radius on that diagonal. [1]
    model : str
        ST-PD loop model.
    calibration : str
        The supervisor's calibration label.
    """

    bdp: np.ndarray
    m: np.ndarray
    kp: np.ndarray
    kd: np.ndarray
    spectral_radius: np.ndarray
    diagonal_m: np.ndarray
    diagonal_radius: np.ndarray
    model: str
    calibration: str

    @property
    def stable(self):
        """Boolean mask, shape (nm, nb): rho < 1."""
        return self.spectral_radius < 1.0

    @property
    def margin(self):
        """Stability margin 1 - rho (negative where unstable). [1]"""
        return 1.0 - self.spectral_radius

    @property
    def diagonal_stable(self):
        """Boolean mask on the diagonal, shape (nb,)."""
        return self.diagonal_radius < 1.0

    def largest_stable_bdp(self):
        """Largest grid BDP up to which the diagonal is stable throughout.

        Returns
        -------
        float or None
            None if the first grid point is already unstable. [packets]
        """
        order = np.argsort(self.bdp)
        stable = self.diagonal_stable[order]
        if not stable[0]:
            return None
        first_bad = np.argmin(stable) if not stable.all() else len(stable)
        return float(self.bdp[order][first_bad - 1])


@dataclass(frozen=True)
class RuleAssignmentComparison:
    """Spectral radius on the diagonal m = BDP per rule-base assignment.

    Attributes
    ----------
    bdp : ndarray, shape (nb,)
        [packets]
    m : ndarray of int, shape (nb,)
        [slots]
    radius : dict
        Assignment name -> spectral radius along the diagonal, shape (nb,).
    gains : dict
        Assignment name -> (kp, kd) arrays.
    """

    bdp: np.ndarray
    m: np.ndarray
    radius: dict
    gains: dict


@dataclass(frozen=True)
class TuningResult:
    """Breakpoints fitted by :func:`tune_breakpoints`, with before/after.

    Attributes
    ----------
    before, after : FuzzySupervisor
    bdp : ndarray
        BDP grid the target was evaluated on (the diagonal m = BDP). [packets]
    m : ndarray of int
        [slots]
    radius_before, radius_after : ndarray
        Spectral radius along the grid. [1]
    contraction_before, contraction_after : ndarray
        Decay factor of the slowest mode per slot (rho) or per round trip
        (rho**m), as *per* chose. [1]
    target : float
        Required upper bound on the contraction. [1]
    per : str
        "slot" or "round_trip".
    tune : str
        Which breakpoints were fitted: "input", "output" or "both".
    met : bool
        True if the target holds at every grid point after tuning.
    objective_before, objective_after : float
        The minimised objective (see :func:`tune_breakpoints`).
    message : str
        The optimiser's message.
    nfev : int
        Objective evaluations.
    """

    before: FuzzySupervisor
    after: FuzzySupervisor
    bdp: np.ndarray
    m: np.ndarray
    radius_before: np.ndarray
    radius_after: np.ndarray
    contraction_before: np.ndarray
    contraction_after: np.ndarray
    target: float
    per: str
    tune: str
    met: bool
    objective_before: float
    objective_after: float
    message: str
    nfev: int

    def settling_round_trips(self, which="after", tolerance=0.02):
        """Settling time of the slowest mode in round trips.

        ``ln(tolerance) / (m ln rho)``; infinite where rho >= 1.

        Parameters
        ----------
        which : {"before", "after"}
        tolerance : float
            Fraction of the initial amplitude left, in (0, 1). [1]

        Returns
        -------
        ndarray
            [round trips]
        """
        check_choice("which", which, ("before", "after"))
        check_interval("tolerance", tolerance, 0.0, 1.0)
        radius = self.radius_before if which == "before" else self.radius_after
        with np.errstate(divide="ignore"):
            out = np.log(tolerance) / (self.m * np.log(radius))
        return np.where(radius < 1.0, out, np.inf)


def diagonal_m(bdp):
    """Round trip on the physically consistent diagonal, m = round(BDP).

    Parameters
    ----------
    bdp : float or array_like
        Bandwidth-RTT product, > 0. [packets]

    Returns
    -------
    ndarray of int
        max(1, round(BDP)). [slots]

    Examples
    --------
    >>> diagonal_m([0.4, 3.0, 9.4, 94.0]).tolist()
    [1, 3, 9, 94]
    """
    bdp = check_positive("bdp", np.asarray(bdp, dtype=float))
    return np.maximum(1, np.rint(bdp)).astype(int)


def gain_surface(bdp: ArrayLike, m: ArrayLike, supervisor: FuzzySupervisor | None = None,
                 model: str = "per_slot") -> GainSurface:
    """Gain schedule and closed-loop spectral radius over a (BDP, m) grid.

    Parameters
    ----------
    bdp : array_like, 1-d
        Perceived BDP grid, inside the supervisor's universe. [packets]
    m : array_like of int, 1-d
        Round-trip grid, each >= 1. [slots]
    supervisor : FuzzySupervisor, optional
        Default: ``FuzzySupervisor()``.
    model : str, optional
        ST-PD loop model (:data:`ctlcc.analysis.stpd.MODELS`).

    Returns
    -------
    GainSurface

    References
    ----------
    Xu (2002), §3.4.3.2 (schedule), eqs. (4.1)-(4.11)
    (loop).

    Examples
    --------
    BDP 31 fires only M, whose maxima are the calibration pair; at m = 3
    that is the loop of §4.3.3 (spectral radius 0.904):

    >>> s = gain_surface([3.0, 9.0, 31.0], [3, 9])
    >>> s.spectral_radius.round(3).tolist()
    [[1.005, 0.914, 0.904], [1.094, 1.09, 1.094]]
    >>> s.diagonal_radius.round(3).tolist(), s.largest_stable_bdp()
    ([1.005, 1.09, 1.068], None)
    """
    supervisor = FuzzySupervisor() if supervisor is None else supervisor
    bdp = np.atleast_1d(np.asarray(bdp, dtype=float))
    if bdp.ndim != 1 or bdp.size == 0:
        raise ParameterError(f"bdp must be a non-empty 1-d grid, got shape {bdp.shape}")
    m_values = _check_m_grid(m)
    kp, kd = supervisor.gains(bdp)
    grid_kp = np.broadcast_to(kp, (m_values.size, bdp.size))
    grid_kd = np.broadcast_to(kd, (m_values.size, bdp.size))
    grid_m = np.broadcast_to(m_values[:, None], grid_kp.shape)
    radius = _spectral_radius(grid_kp, grid_kd, grid_m, model)
    diag = diagonal_m(bdp)
    return GainSurface(
        bdp=bdp, m=m_values, kp=kp, kd=kd, spectral_radius=radius,
        diagonal_m=diag, diagonal_radius=_spectral_radius(kp, kd, diag, model),
        model=model, calibration=supervisor.config.calibration,
    )


def compare_rule_assignments(bdp, supervisor=None, assignments=None, model="per_slot"):
    """Spectral radius on the diagonal m = BDP for several rule assignments.

    The output terms of *supervisor* are kept; only which rule base drives
    which gain changes.

    Parameters
    ----------
    bdp : array_like, 1-d
        BDP grid. [packets]
    supervisor : FuzzySupervisor, optional
    assignments : dict, optional
        Name -> rules mapping; default :data:`RULE_ASSIGNMENTS`.
    model : str, optional

    Returns
    -------
    RuleAssignmentComparison

    Examples
    --------
    >>> c = compare_rule_assignments([3.0, 9.0])
    >>> {k: v.round(3).tolist() for k, v in c.radius.items()}  # doctest: +NORMALIZE_WHITESPACE
    {'thesis (kp inverse, kd direct)': [1.005, 1.09],
     'swapped (kp direct, kd inverse)': [1.006, 1.103],
     'both inverse': [1.04, 1.119]}
    """
    supervisor = FuzzySupervisor() if supervisor is None else supervisor
    assignments = RULE_ASSIGNMENTS if assignments is None else assignments
    bdp = np.atleast_1d(np.asarray(bdp, dtype=float))
    m = diagonal_m(bdp)
    radius, gains = {}, {}
    for name, rules in assignments.items():
        variant = supervisor.with_config(rules=rules)
        kp, kd = variant.gains(bdp)
        gains[name] = (kp, kd)
        radius[name] = _spectral_radius(kp, kd, m, model)
    return RuleAssignmentComparison(bdp=bdp, m=m, radius=radius, gains=gains)


def best_radius(m, model="per_slot"):
    """Smallest spectral radius any (kp, kd) achieves at round trip m.

    A lower bound for every gain schedule on the diagonal: no supervisor
    can make the loop settle faster than this.  Found by Nelder-Mead on
    (log kp, log kd) from a grid start.

    Parameters
    ----------
    m : int or array_like of int
        Round trip. [slots]
    model : str, optional

    Returns
    -------
    radius : ndarray
        [1]
    kp, kd : ndarray
        The minimising gains. [1]

    Examples
    --------
    >>> radius, kp, kd = best_radius([3, 9])
    >>> radius.round(3).tolist()
    [0.789, 0.933]
    """
    m_values = np.atleast_1d(np.asarray(m))
    out = np.empty((3, m_values.size))
    for i, mi in enumerate(m_values):
        mi = check_positive_int("m", int(mi) if float(mi).is_integer() else mi)
        kd_grid = np.geomspace(0.05, 3.0, 12) / mi
        kp_grid = np.geomspace(1e-3, 1.0, 12) / mi**2
        kpg, kdg = np.meshgrid(kp_grid, kd_grid)
        coarse = _spectral_radius(kpg, kdg, np.full(kpg.shape, mi), model)
        j = np.unravel_index(np.argmin(coarse), coarse.shape)
        start = np.log([kpg[j], kdg[j]])

        def objective(log_gains, mi=mi):
            kp, kd = np.exp(log_gains)
            return float(_spectral_radius(np.array([kp]), np.array([kd]), np.array([mi]), model)[0])

        result = optimize.minimize(objective, start, method="Nelder-Mead",
                                   options={"xatol": 1e-5, "fatol": 1e-8, "maxiter": 400})
        out[:, i] = (result.fun, *np.exp(result.x))
    return out[0], out[1], out[2]


def tune_breakpoints(supervisor: FuzzySupervisor | None = None,
                     bdp_range: tuple[float, float] = (3.0, 94.0), target: float = 0.9,
                     per: str = "round_trip", tune: str = "input", n_points: int = 16,
                     model: str = "per_slot", maxiter: int = 400, penalty: float = 100.0,
                     restarts: int = 1) -> TuningResult:
    """Fit the membership breakpoints to a settling target on the diagonal.

    Target: over ``n_points`` log-spaced BDPs in *bdp_range*, each on its
    physically consistent round trip m = round(BDP), the slowest closed-loop
    mode must shrink by at least the factor *target* per slot
    (``rho <= target``, ``per="slot"``) or per round trip
    (``rho**m <= target``, ``per="round_trip"``), and, subject to that,
    settle as fast as possible.  Minimised with Nelder-Mead::

        J = mean(c) + penalty * max(0, max(c) - 0.98 target),   c = rho or rho**m

    (the penalty aims 2 % inside the target: Nelder-Mead stalls on the
    penalty's kink, which then lies inside the feasible set); ``met``
    checks the target itself.

    The parameters keep the configuration valid by construction: the input
    peaks are placed by positive gaps on a log-BDP scale inside the
    universe, the output maxima by a positive first value and positive
    ratios (strictly increasing); the rule bases are never changed.

    Parameters
    ----------
    supervisor : FuzzySupervisor, optional
        Starting point (default ``FuzzySupervisor()``).
    bdp_range : (float, float), optional
        BDPs the target must hold over, inside the universe. [packets]
    target : float, optional
        Required contraction, in (0, 1). [1]
    per : {"round_trip", "slot"}, optional
        Contraction per round trip (rho**m; the physically comparable
        choice, since rho itself must tend to 1 as m grows) or per slot.
    tune : {"input", "output", "both"}, optional
        Fit the BDP membership peaks, the output maxima, or both.
    n_points : int, optional
        Grid size. [1]
    model : str, optional
        ST-PD loop model.
    maxiter : int, optional
        Nelder-Mead iterations per run.
    penalty : float, optional
        Weight of the target violation, > 0. [1]
    restarts : int, optional
        Nelder-Mead runs, each restarted from the previous best point (a
        fresh simplex escapes the collapsed one), >= 1.

    Returns
    -------
    TuningResult

    References
    ----------
    Xu (2002), §3.4.3.1 ("Ziegler-Nichols ... and hand
    tuning" of the gain ranges), §3.4.3.2.

    Examples
    --------
    Per round trip, the default supervisor's slowest mode shrinks by these
    factors on BDP 1...4; fitting the input breakpoints speeds it up:

    >>> r = tune_breakpoints(bdp_range=(1.0, 4.0), target=0.9, n_points=6, maxiter=60)
    >>> r.contraction_before.round(2).tolist()
    [0.94, 0.94, 0.93, 0.93, 1.01, 1.14]
    >>> r.contraction_after.round(2).tolist(), r.met
    ([0.94, 0.88, 0.73, 0.72, 0.76, 0.98], False)
    """
    supervisor = FuzzySupervisor() if supervisor is None else supervisor
    check_choice("tune", tune, _TUNE)
    check_choice("per", per, _PER)
    check_interval("target", target, 0.0, 1.0)
    check_positive("penalty", penalty)
    n_points = check_positive_int("n_points", n_points)
    maxiter = check_positive_int("maxiter", maxiter)
    restarts = check_positive_int("restarts", restarts)
    low, high = _check_pair_inside("bdp_range", bdp_range, supervisor.config.bdp_universe)
    bdp = np.geomspace(low, high, n_points) if n_points > 1 else np.array([low])
    m = diagonal_m(bdp)
    config = supervisor.config

    def contraction(sup):
        kp, kd = sup.gains(bdp)
        radius = _spectral_radius(kp, kd, m, model)
        return radius, (radius if per == "slot" else radius ** m)

    def objective_of(c):
        return float(np.mean(c) + penalty * np.sum(np.maximum(0.0, c - aim) ** 2))

    # Nelder-Mead stalls on the kink of the penalty; aiming slightly inside
    # the target puts that kink inside the feasible set.
    aim = target * (1.0 - _AIM_INSIDE)
    x0 = _encode(config, tune)

    def objective(x):
        try:
            sup = FuzzySupervisor(_decode(x, config, tune))
        except ParameterError:
            return 1e6
        return objective_of(contraction(sup)[1])

    best, best_value, nfev = x0, objective(x0), 1
    for _ in range(restarts):
        result = optimize.minimize(objective, best, method="Nelder-Mead",
                                   options={"maxiter": maxiter, "xatol": 1e-4, "fatol": 1e-7,
                                            "adaptive": True})
        nfev += result.nfev
        if result.fun <= best_value:
            best, best_value = result.x, result.fun
    after = FuzzySupervisor(_decode(best, config, tune, calibration=f"tuned ({tune})"))
    radius_before, c_before = contraction(supervisor)
    radius_after, c_after = contraction(after)
    return TuningResult(
        before=supervisor, after=after, bdp=bdp, m=m,
        radius_before=radius_before, radius_after=radius_after,
        contraction_before=c_before, contraction_after=c_after,
        target=float(target), per=per, tune=tune, met=bool(np.all(c_after <= target)),
        objective_before=objective_of(c_before), objective_after=objective_of(c_after),
        message=str(result.message), nfev=int(nfev),
    )


def _check_m_grid(m):
    values = np.atleast_1d(np.asarray(m))
    if values.ndim != 1 or values.size == 0:
        raise ParameterError(f"m must be a non-empty 1-d grid of integers, got shape {values.shape}")
    return np.array([check_positive_int("m", v.item()) for v in values], dtype=int)


def _check_pair_inside(name, pair, universe):
    try:
        low, high = (float(v) for v in pair)
    except (TypeError, ValueError) as err:
        raise ParameterError(f"{name} must be a pair (low, high), got {pair!r}") from err
    u0, u1 = universe
    if not (u0 <= low <= high <= u1):
        raise ParameterError(
            f"{name} must satisfy {u0:g} <= low <= high <= {u1:g} (the BDP universe), "
            f"got ({low:g}, {high:g})")
    return low, high


def _encode(config, tune):
    parts = []
    if tune in ("input", "both"):
        u0, u1 = np.log(config.bdp_universe)
        points = np.concatenate(([u0], np.log(config.bdp_peaks), [u1]))
        gaps = np.maximum(np.diff(points), 1e-9 * (u1 - u0))
        parts.append(np.log(gaps))
    if tune in ("output", "both"):
        for gain in GAINS:
            y = np.asarray(config.output_maxima[gain])
            first = max(y[0], 1e-12)
            parts.append(np.concatenate(([np.log(first)], np.log(np.diff(y) / y[:-1]))))
    return np.concatenate(parts)


def _decode(x, config, tune, calibration=None):
    x = np.asarray(x, dtype=float)
    changes, i = {}, 0
    if tune in ("input", "both"):
        u0, u1 = np.log(config.bdp_universe)
        gaps = np.exp(x[i:i + len(TERMS) + 1])
        i += len(TERMS) + 1
        positions = u0 + (u1 - u0) * np.cumsum(gaps)[:-1] / gaps.sum()
        lo, hi = config.bdp_universe
        changes["bdp_peaks"] = tuple(float(v) for v in np.clip(np.exp(positions), lo, hi))
    if tune in ("output", "both"):
        maxima, universe = {}, {}
        for gain in GAINS:
            first, ratios = x[i], x[i + 1:i + len(TERMS)]
            i += len(TERMS)
            y = np.exp(first) * np.cumprod(np.concatenate(([1.0], 1.0 + np.exp(ratios))))
            maxima[gain] = tuple(float(v) for v in y)
            low, high = config.output_universe[gain]
            universe[gain] = (min(low, maxima[gain][0]), max(high, maxima[gain][-1]))
        changes["output_maxima"] = maxima
        changes["output_universe"] = universe
    if calibration is not None:
        changes["calibration"] = calibration
    return replace(config, **changes)


def _spectral_radius(kp, kd, m, model="per_slot"):
    """Spectral radius of ST-PD's loop, elementwise over broadcast kp, kd, m.

    Groups the points by round trip m and hands each group to the
    vectorised core :func:`ctlcc.analysis.stpd.spectral_radius` (batched
    eigenvalues of the characteristic polynomial derived from the law).
    """
    kp, kd, m = np.broadcast_arrays(np.asarray(kp, float), np.asarray(kd, float), np.asarray(m))
    out = np.empty(kp.shape)
    for mi in np.unique(m):
        mask = m == mi
        out[mask] = _stpd.spectral_radius(kp[mask], kd[mask], int(mi), model=model)
    return out
    for mi in np.unique(m):
        mask = m == mi
        mi = int(mi)
        degree = mi + 1
        coefficients = np.zeros((int(mask.sum()), degree + 1))
        coefficients[:, :3] = (1.0, -2.0, 1.0)
        coefficients[:, -2] += kp[mask] + kd[mask]
        coefficients[:, -1] += -kd[mask]
        companion = np.zeros((coefficients.shape[0], degree, degree))
        companion[:, 0, :] = -coefficients[:, 1:]
        companion[:, np.arange(1, degree), np.arange(degree - 1)] = 1.0
        out[mask] = np.abs(np.linalg.eigvals(companion)).max(axis=1)
    return out
