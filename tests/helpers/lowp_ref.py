"""Independent references for the device API's narrow floating types and
rounding modes, in exact rational arithmetic (fractions.Fraction), from the
docs' definitions: binary formats (half, bf16, fp8 e4m3fn/e5m2, fp4
e2m1/e1m2) rounded in the six modes _rn _rz _rd _ru _rna _ro, and HiFloat8
(decoded from its dot-field description, rounded on its value grid)."""
import bisect
import math
import struct
from fractions import Fraction as Fr

# name: (mantissa bits, exponent bits, bias, has_inf, has_nan)
FORMATS = {
    "f16": (10, 5, 15, True, True),
    "bf16": (7, 8, 127, True, True),
    "e4m3": (3, 4, 7, False, True),
    "e5m2": (2, 5, 15, True, True),
    "e2m1": (1, 2, 1, False, False),
    "e1m2": (2, 1, 1, False, False),
    "f32": (23, 8, 127, True, True),
}
MODES = ("rn", "rz", "rd", "ru", "rna", "ro")


def decode(bits, name):
    """Bits of a binary format -> float (nan, +-inf, or the exact value)."""
    mb, eb, bias, inf, nan = FORMATS[name]
    n = 1 + eb + mb
    s = -1 if (bits >> (n - 1)) & 1 else 1
    e = (bits >> mb) & ((1 << eb) - 1)
    m = bits & ((1 << mb) - 1)
    if inf and e == (1 << eb) - 1:
        return s * math.inf if m == 0 else math.nan
    if name == "e4m3" and e == 15 and m == 7:
        return math.nan
    if e == 0:
        return s * float(Fr(m, 1 << mb) * Fr(2) ** (1 - bias))
    return s * float((1 + Fr(m, 1 << mb)) * Fr(2) ** (e - bias))


def max_finite(name):
    mb, eb, bias, inf, nan = FORMATS[name]
    if name == "e4m3":
        return Fr(448)
    top = (1 << eb) - (2 if inf else 1)
    return (2 - Fr(1, 1 << mb)) * Fr(2) ** (top - bias)


def floor_log2(x):
    """floor(log2(x)) of a positive Fraction."""
    k = x.numerator.bit_length() - x.denominator.bit_length()
    while Fr(2) ** k > x:
        k -= 1
    while Fr(2) ** (k + 1) <= x:
        k += 1
    return k


def round_mag(a, neg, quantum, mode):
    """|x| = a rounded to a multiple of quantum in mode (sign neg)."""
    n = a / quantum
    lo = math.floor(n)
    rem = n - lo
    if rem == 0:
        return lo * quantum
    if mode == "rz":
        k = lo
    elif mode == "ru":
        k = lo if neg else lo + 1
    elif mode == "rd":
        k = lo + 1 if neg else lo
    elif mode == "rna":
        k = lo + 1 if rem >= Fr(1, 2) else lo
    elif mode == "rn":
        k = lo + 1 if rem > Fr(1, 2) or (rem == Fr(1, 2) and lo % 2) else lo
    elif mode == "ro":
        k = lo if lo % 2 else lo + 1
    else:
        raise ValueError(mode)
    return k * quantum


def to_format(x, name, mode, sat):
    """A float (or int) rounded into format `name`: the float value of the
    result.  Overflow: inf (e4m3: nan; fp4: max) unless sat, then +-max;
    NaN: nan unless sat (or fp4), then 0."""
    mb, eb, bias, inf, nan = FORMATS[name]
    if isinstance(x, float) and math.isnan(x):
        return 0.0 if sat or not nan else math.nan
    neg = math.copysign(1.0, x) < 0
    sgn = -1.0 if neg else 1.0
    mx = max_finite(name)
    over = (lambda: sgn * float(mx)) if sat or not (inf or nan) else \
        (lambda: sgn * math.inf if inf else math.nan)
    if isinstance(x, float) and math.isinf(x):
        return over()
    a = abs(Fr(x))
    if a == 0:
        return sgn * 0.0
    emin = 1 - bias
    e = max(floor_log2(a), emin)
    r = round_mag(a, neg, Fr(2) ** (e - mb), mode)
    if r > mx:
        return over()
    return sgn * float(r)


def round_int(x, mode):
    """A float rounded to an integer in mode (no range check)."""
    if mode == "ro":
        raise ValueError(mode)
    neg = x < 0
    r = round_mag(abs(Fr(x)), neg, Fr(1), mode)
    return -r if neg else r


def sat_int(v, bits, signed):
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    return max(lo, min(hi, v))


def float_to_int(x, mode, bits, signed):
    """The docs' float -> integer conversion: rounded, saturated, NaN -> 0."""
    if math.isnan(x):
        return 0
    if math.isinf(x):
        return sat_int(-(1 << 70) if x < 0 else (1 << 70), bits, signed)
    return sat_int(int(round_int(x, mode)), bits, signed)


# ---- HiFloat8 ----

def hif8_decode(b):
    """HiFloat8 bits -> float, from the dot-field layout: D in {11, 10, 01,
    001, 0001} gives 4/3/2/1/0 exponent bits (sign-magnitude, implicit
    leading 1) and 1/2/3/3/3 mantissa bits; D = 0000 is 2^(M-23); 0x80 NaN,
    0x6F/0xEF inf."""
    s = -1.0 if b & 0x80 else 1.0
    r = b & 0x7F
    if b == 0x80:
        return math.nan
    if r == 0x6F:
        return s * math.inf
    tail = format(r, "07b")
    for prefix, ebits in (("11", 4), ("10", 3), ("01", 2), ("001", 1), ("0001", 0)):
        if tail.startswith(prefix):
            rest = tail[len(prefix):]
            e_field, m_field = rest[:ebits], rest[ebits:]
            if ebits:
                mag = int("1" + e_field[1:], 2)
                ev = -mag if e_field[0] == "1" else mag
            else:
                ev = 0
            m = Fr(int(m_field, 2), 1 << len(m_field))
            return s * float((1 + m) * Fr(2) ** ev)
    m = int(tail[4:], 2)
    return s * float(Fr(2) ** (m - 23)) if m else s * 0.0


HIF8_POS = sorted({hif8_decode(b) for b in range(0x80) if b != 0x6F})  # finite, >= 0
HIF8_INF_AT = 1.5 * 2 ** 15  # the value the inf code would have
_HIF8_GRID = [Fr(v) for v in HIF8_POS] + [Fr(HIF8_INF_AT), Fr(2) ** 16]


def _mbits_at(ev):
    a = abs(ev)
    return 3 if a <= 3 else 2 if a <= 7 else 1


def to_hif8(x, mode, sat, thr=None, w=None):
    """x (float) into HiFloat8 in mode "rna" or "rh": the float value.  For
    "rh", thr and w are the docs' hybrid threshold and its width: round up
    when the first w bits of (|x| - lo) / (hi - lo) are >= thr."""
    if math.isnan(x):
        return 0.0 if sat else math.nan
    sgn = -1.0 if x < 0 else 1.0
    big = sgn * 32768.0 if sat else sgn * math.inf
    if math.isinf(x):
        return big
    a = abs(Fr(x))
    if a == 0 or a < Fr(2) ** -23:
        return 0.0
    ev = floor_log2(a)
    if ev > 15:
        return big
    i = bisect.bisect_right(_HIF8_GRID, a)
    lo, hi = _HIF8_GRID[i - 1], _HIF8_GRID[i]
    if a == lo:
        r = lo
    else:
        frac = (a - lo) / (hi - lo)
        if ev >= -15 and abs(ev) <= 3 or mode == "rna":
            up = frac >= Fr(1, 2)
        else:
            up = math.floor(frac * (1 << w)) >= thr
        r = hi if up else lo
    if r >= Fr(HIF8_INF_AT):
        return big
    return 0.0 if r == 0 else sgn * float(r)


def hif8_thr_f32(x):
    return struct.unpack("<I", struct.pack("<f", x))[0] & 0x3FFF


def hif8_thr_f16(bits):
    return ((int(bits) & 1) << 1) | 1
