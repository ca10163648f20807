#include "importers/ftrace/atrace_marker.h"

#include <charconv>
#include <string>

namespace importers::ftrace {
namespace {

std::optional<int64_t> Integer(std::string_view s) {
  int64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

std::optional<double> Real(std::string_view s) {
  if (s.empty() || s.size() > 64) return std::nullopt;
  const std::string copy(s);
  char* end = nullptr;
  const double v = std::strtod(copy.c_str(), &end);
  if (end != copy.c_str() + copy.size()) return std::nullopt;
  return v;
}

}  // namespace

std::optional<AtraceMarker> ParseAtraceMarker(std::string_view text) {
  if (text.empty()) return std::nullopt;
  AtraceMarker m;
  m.type = text[0];
  if (m.type != 'B' && m.type != 'E' && m.type != 'C' && m.type != 'S' && m.type != 'F') {
    return std::nullopt;
  }
  if (text.size() == 1) {
    if (m.type == 'E') return m;
    return std::nullopt;
  }
  if (text[1] != '|') return std::nullopt;
  std::string_view rest = text.substr(2);
  const size_t bar = rest.find('|');
  const auto pid = Integer(rest.substr(0, bar));
  if (!pid) return std::nullopt;
  m.pid = static_cast<int32_t>(*pid);
  if (bar == std::string_view::npos) {
    if (m.type == 'E') return m;
    return std::nullopt;
  }
  rest = rest.substr(bar + 1);
  if (m.type == 'B' || m.type == 'E') {
    m.name = rest;
    return m.type == 'E' || !rest.empty() ? std::optional(m) : std::nullopt;
  }
  // C, S, F: name|number (the name may itself hold '|': the number is after the last one).
  const size_t last = rest.rfind('|');
  if (last == std::string_view::npos || last == 0) return std::nullopt;
  m.name = rest.substr(0, last);
  const std::string_view number = rest.substr(last + 1);
  if (m.type == 'C') {
    const auto value = Real(number);
    if (!value) return std::nullopt;
    m.value = *value;
  } else {
    const auto cookie = Integer(number);
    if (!cookie) return std::nullopt;
    m.cookie = *cookie;
  }
  return m;
}

}  // namespace importers::ftrace
