// Parsing of the small frame expressions scenario steps use for fence values and slots.
#include "core/sim/frame_expr.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <string>

#include "core/model/error.h"

namespace core::sim {
namespace {

struct Cursor {
  std::string_view text;
  size_t pos = 0;
  void SkipSpace() {
    while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos]))) ++pos;
  }
  bool AtEnd() {
    SkipSpace();
    return pos >= text.size();
  }
  bool Eat(char c) {
    SkipSpace();
    if (pos < text.size() && text[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  }
  // The digits at pos, which may be more than kMaxMagnitude (the caller says so).
  bool Number(int64_t* out) {
    SkipSpace();
    size_t start = pos;
    int64_t v = 0;
    while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos]))) {
      v = std::min<int64_t>(v * 10 + (text[pos] - '0'), kMaxMagnitude + 1);
      ++pos;
    }
    *out = v;
    return pos > start;
  }
  // Numbers, and the sums of the terms, stay within +-10^12 (fence values and slots far beyond
  // any trace), so that Eval's per_frame * frame + constant cannot overflow for any frame count
  // up to millions.
  static constexpr int64_t kMaxMagnitude = 1'000'000'000'000;
};

}  // namespace

// Grammar: term (('+' | '-') term)* ['%' number], term = number | 'i' | number '*' 'i'.
FrameExpr ParseFrameExpr(std::string_view text, const std::string& where) {
  auto fail = [&](const std::string& why) -> FrameExpr {
    throw core::Error(where + ": '" + std::string(text) + "' is not a frame expression (" + why +
                      "; use forms like \"i - 3\", \"2*i + 1\", \"i % 3\", \"7\")");
  };
  FrameExpr expr;
  Cursor c{text};
  int sign = 1;
  bool first = true;
  while (true) {
    if (!first) {
      if (c.Eat('+')) sign = 1;
      else if (c.Eat('-')) sign = -1;
      else break;
    } else if (c.Eat('-')) {
      sign = -1;
    }
    first = false;
    int64_t number = 0;
    if (c.Eat('i')) {
      expr.per_frame += sign;
    } else if (c.Number(&number)) {
      if (c.Eat('*')) {
        if (!c.Eat('i')) return fail("expected 'i' after '*'");
        expr.per_frame += sign * number;
      } else {
        expr.constant += sign * number;
      }
    } else {
      return fail("expected a number or 'i'");
    }
    if (std::abs(expr.per_frame) > Cursor::kMaxMagnitude ||
        std::abs(expr.constant) > Cursor::kMaxMagnitude) {
      return fail("a number or sum beyond 10^12");
    }
  }
  if (c.Eat('%')) {
    if (!c.Number(&expr.modulo) || expr.modulo <= 0) return fail("expected a positive modulus");
    if (expr.modulo > Cursor::kMaxMagnitude) return fail("a modulus beyond 10^12");
  }
  if (!c.AtEnd()) return fail("unexpected text at offset " + std::to_string(c.pos));
  return expr;
}

}  // namespace core::sim
