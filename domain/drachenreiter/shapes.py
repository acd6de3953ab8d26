"""Dragon bases and trajectory templates as shapely polygons (vectorised).

A base is a hexagon whose two points lie on its long axis: the front point
ahead, the rear point behind (README: "Dragons stand on hexagonal bases with a
front and a rear point"). A template is a bar of ``TEMPLATE_WIDTH`` laid from a
dragon's front point along a direction. Poses are ``(x, y, heading°)`` of the
base's centre.
"""

from __future__ import annotations

import math

import numpy as np
import shapely

from domain.drachenreiter.dimensions import BASE_LENGTH, BASE_WIDTH, TEMPLATE_WIDTH

_HALF = BASE_LENGTH / 2
_HEX = np.array(
    [
        (_HALF, 0.0),
        (_HALF / 2, BASE_WIDTH / 2),
        (-_HALF / 2, BASE_WIDTH / 2),
        (-_HALF, 0.0),
        (-_HALF / 2, -BASE_WIDTH / 2),
        (_HALF / 2, -BASE_WIDTH / 2),
        (_HALF, 0.0),
    ]
)

PRECISION = 6
"""Stored coordinates and angles are rounded to 1e-6, so events are stable through JSON."""


def fix(value: float) -> float:
    """A float rounded to the stored precision (and never ``-0.0``)."""
    return round(float(value), PRECISION) + 0.0


def whole(angle: float) -> bool:
    """Whether ``angle`` is a whole number of degrees (``rulebook.RESOLUTION``)."""
    return math.isfinite(angle) and angle == round(angle)


def norm(angle: float) -> float:
    """An angle brought into ``(-180, 180]`` and rounded."""
    a = math.fmod(angle, 360.0)
    if a <= -180.0:
        a += 360.0
    elif a > 180.0:
        a -= 360.0
    return fix(a)


def front_point(x: float, y: float, heading: float) -> tuple[float, float]:
    h = math.radians(heading)
    return x + _HALF * math.cos(h), y + _HALF * math.sin(h)


def rear_point(x: float, y: float, heading: float) -> tuple[float, float]:
    h = math.radians(heading)
    return x - _HALF * math.cos(h), y - _HALF * math.sin(h)


def centre_behind(rx: float, ry: float, heading: float) -> tuple[float, float]:
    """The centre of a base whose rear point is ``(rx, ry)``."""
    h = math.radians(heading)
    return rx + _HALF * math.cos(h), ry + _HALF * math.sin(h)


def bases(xs: np.ndarray, ys: np.ndarray, headings: np.ndarray) -> np.ndarray:
    """Base hexagons for arrays of centres and headings (degrees)."""
    h = np.radians(np.asarray(headings, dtype=float))[:, None]
    c, s = np.cos(h), np.sin(h)
    px = np.asarray(xs, dtype=float)[:, None] + _HEX[:, 0] * c - _HEX[:, 1] * s
    py = np.asarray(ys, dtype=float)[:, None] + _HEX[:, 0] * s + _HEX[:, 1] * c
    hexagons: np.ndarray = shapely.polygons(np.stack([px, py], axis=-1))  # (shapely has no type hints)
    return hexagons


def base(x: float, y: float, heading: float) -> shapely.Polygon:
    return bases(np.array([x]), np.array([y]), np.array([heading]))[0]


def templates(fx: np.ndarray, fy: np.ndarray, directions: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Template bars from front points along directions (degrees), of the given lengths."""
    d = np.radians(np.asarray(directions, dtype=float))
    c, s = np.cos(d), np.sin(d)
    w = TEMPLATE_WIDTH / 2
    lengths = np.asarray(lengths, dtype=float)
    fx, fy = np.asarray(fx, dtype=float), np.asarray(fy, dtype=float)
    corners = [(0.0, w), (lengths, w), (lengths, -w), (0.0, -w), (0.0, w)]
    px = np.stack([fx + a * c - b * s for a, b in corners], axis=-1)
    py = np.stack([fy + a * s + b * c for a, b in corners], axis=-1)
    bars: np.ndarray = shapely.polygons(np.stack([px, py], axis=-1))  # (shapely has no type hints)
    return bars


def template(fx: float, fy: float, direction: float, length: float) -> shapely.Polygon:
    return templates(np.array([fx]), np.array([fy]), np.array([direction]), np.array([length]))[0]
