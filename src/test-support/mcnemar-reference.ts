/**
 * McNemar's sample size in Python, for tests that check a plan against scipy: Connor's asymptotic n,
 * the exact power by brute force and the smallest n scanned from 1 (no shared code with waver).
 * Needs `math`, `numpy as np` and scipy's `norm` and `binom` imported before it.
 */
export const MCNEMAR_REFERENCE_PY = `
def connor(p10, p01, alpha=0.05, power=0.8, sides=2):
    za, zb = norm.ppf(1 - alpha / sides), norm.ppf(power)
    psi, d = p10 + p01, p10 - p01
    return math.ceil((za * math.sqrt(psi) + zb * math.sqrt(psi - d * d)) ** 2 / d ** 2 - 1e-9)
crit = {}
def k_of(m, alpha, sides):
    if (m, alpha, sides) not in crit:
        ok = np.nonzero((2 if sides == 2 else 1) * binom.cdf(np.arange(m + 1), m, 0.5) < alpha)[0]
        crit[(m, alpha, sides)] = int(ok[-1]) if len(ok) else -1
    return crit[(m, alpha, sides)]
def exact_power(n, p10, p01, alpha, sides):
    hi, lo = max(p10, p01), min(p10, p01)
    psi = hi + lo
    ks = np.array([k_of(m, alpha, sides) for m in range(n + 1)])
    ms = np.arange(n + 1)
    return float(np.sum(np.where(ks >= 0, binom.pmf(ms, n, psi) * binom.cdf(ks, ms, lo / psi), 0)))
def exact_n(p10, p01, alpha=0.05, power=0.8, sides=2):
    for n in range(1, 5000):
        if exact_power(n, p10, p01, alpha, sides) >= power: return n
`;
