// The simulator's random numbers: std::mt19937_64 (its output sequence is fixed by the C++
// standard) with the distributions written out here, because the std:: distributions may differ
// between standard library versions and the same scenario + seed must give the same trace
// everywhere.
#pragma once

#include <cstdint>
#include <random>

namespace core::sim {

class SimRandom {
 public:
  explicit SimRandom(uint64_t seed) : m_engine(seed) {}

  // Uniform in [0, 1) with 53 random bits.
  double Unit() { return static_cast<double>(m_engine() >> 11) * (1.0 / 9007199254740992.0); }
  // Uniform in [-1, 1).
  double Symmetric() { return Unit() * 2.0 - 1.0; }
  // true with probability `p` (p <= 0: never draws, so adding an unused option keeps traces).
  bool Chance(double p) { return p > 0 && Unit() < p; }
  // Uniform integer in [lo, hi] (hi >= lo), by rejection so there is no modulo bias.
  int64_t Between(int64_t lo, int64_t hi) {
    const uint64_t span = static_cast<uint64_t>(hi - lo) + 1;
    if (span == 0) return static_cast<int64_t>(m_engine());
    const uint64_t limit = UINT64_MAX - UINT64_MAX % span;
    uint64_t x;
    do {
      x = m_engine();
    } while (x >= limit);
    return lo + static_cast<int64_t>(x % span);
  }
  // `base` scaled by a factor uniform in [1 - jitter, 1 + jitter], never below 1 ns.
  int64_t Jittered(int64_t base, double jitter) {
    if (jitter <= 0 || base <= 0) return base;
    const double scaled = static_cast<double>(base) * (1.0 + jitter * Symmetric());
    return scaled < 1.0 ? 1 : static_cast<int64_t>(scaled);
  }

 private:
  std::mt19937_64 m_engine;
};

}  // namespace core::sim
