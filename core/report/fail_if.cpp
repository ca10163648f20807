#include "core/report/fail_if.h"

#include <cctype>
#include <cstdlib>

#include <fmt/format.h>

#include "core/model/error.h"

namespace core::report {
namespace {

std::string KnownKeys(const Json& at) {
  std::string out;
  if (at.type() == Json::Type::kObject) {
    for (const auto& [key, value] : at.members()) out += (out.empty() ? "" : ", ") + key;
  } else if (at.type() == Json::Type::kArray) {
    out = fmt::format("an array of {} (use [index] or [\"name\"])", at.size());
  } else {
    out = "none (a value)";
  }
  return out;
}

// Walks `path`; on failure returns nullptr and sets `error`.
const Json* Walk(const Json& root, const std::string& path, std::string* error) {
  const Json* at = &root;
  size_t i = 0;
  auto fail = [&](const std::string& what) -> const Json* {
    if (error) *error = what;
    return nullptr;
  };
  while (i < path.size()) {
    if (path[i] == '.') {
      ++i;
      continue;
    }
    if (path[i] == '[') {
      size_t close = path.find(']', i);
      if (close == std::string::npos) return fail(fmt::format("missing ']' in key '{}'", path));
      std::string inside = path.substr(i + 1, close - i - 1);
      i = close + 1;
      if (at->type() != Json::Type::kArray) {
        return fail(fmt::format("key '{}': '{}' is not an array", path, inside));
      }
      if (!inside.empty() && (inside.front() == '"' || inside.front() == '\'')) {
        std::string name = inside.substr(1, inside.size() >= 2 ? inside.size() - 2 : 0);
        const Json* found = nullptr;
        for (const Json& item : at->items()) {
          const Json* n = item.Find("name");
          if (n && n->String() == name) found = &item;
        }
        if (!found) return fail(fmt::format("unknown key '{}': no element named \"{}\"", path, name));
        at = found;
      } else {
        char* end = nullptr;
        long index = std::strtol(inside.c_str(), &end, 10);
        if (end == inside.c_str() || *end != '\0' || index < 0 ||
            static_cast<size_t>(index) >= at->size()) {
          return fail(fmt::format("unknown key '{}': index [{}] out of range (size {})", path,
                                  inside, at->size()));
        }
        at = &at->items()[static_cast<size_t>(index)];
      }
      continue;
    }
    size_t end = i;
    while (end < path.size() && path[end] != '.' && path[end] != '[') ++end;
    std::string name = path.substr(i, end - i);
    i = end;
    const Json* next = at->type() == Json::Type::kObject ? at->Find(name) : nullptr;
    if (!next) {
      return fail(fmt::format("unknown key '{}': no '{}' here; known keys: {}", path, name,
                              KnownKeys(*at)));
    }
    at = next;
  }
  return at;
}

class Parser {
 public:
  Parser(const Json& report, const std::string& text) : m_report(report), m_text(text) {}

  double Parse() {
    double v = Or();
    Skip();
    if (m_pos != m_text.size()) Fail("unexpected text");
    return v;
  }

 private:
  [[noreturn]] void Fail(const std::string& what) const {
    throw core::Error(fmt::format("--fail-if: {} at column {} of \"{}\"", what, m_pos + 1, m_text));
  }
  // Each '(', '!' and unary '-' parses what follows one level deeper; an expression nested
  // deeper than any gate needs is refused before it exhausts the stack (found by
  // fuzz_fail_if: 7,800 '(').
  static constexpr int kMaxDepth = 200;
  struct Deeper {
    explicit Deeper(Parser& p) : parser(p) {
      if (++parser.m_depth > kMaxDepth) {
        parser.Fail(fmt::format("the expression is nested deeper than {} levels", kMaxDepth));
      }
    }
    ~Deeper() { --parser.m_depth; }
    Parser& parser;
  };
  void Skip() {
    while (m_pos < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[m_pos]))) ++m_pos;
  }
  bool Accept(const char* token) {
    Skip();
    size_t n = std::char_traits<char>::length(token);
    if (m_text.compare(m_pos, n, token) != 0) return false;
    // '=' alone, '<' vs '<=', '!' vs '!=' are told apart by trying the longer tokens first
    m_pos += n;
    return true;
  }
  double Or() {
    double v = And();
    while (Accept("||")) {
      double r = And();
      v = (v != 0 || r != 0) ? 1 : 0;
    }
    return v;
  }
  double And() {
    double v = Unary();
    while (Accept("&&")) {
      double r = Unary();
      v = (v != 0 && r != 0) ? 1 : 0;
    }
    return v;
  }
  double Unary() {
    Skip();
    if (m_pos < m_text.size() && m_text[m_pos] == '!' &&
        (m_pos + 1 >= m_text.size() || m_text[m_pos + 1] != '=')) {
      Deeper deeper(*this);
      ++m_pos;
      return Unary() == 0 ? 1 : 0;
    }
    return Compare();
  }
  double Compare() {
    double a = Sum();
    if (Accept(">=")) return a >= Sum();
    if (Accept("<=")) return a <= Sum();
    if (Accept("==")) return a == Sum();
    if (Accept("!=")) return a != Sum();
    if (Accept(">")) return a > Sum();
    if (Accept("<")) return a < Sum();
    return a;
  }
  double Sum() {
    double v = Product();
    for (;;) {
      if (Accept("+")) v += Product();
      else if (Accept("-")) v -= Product();
      else return v;
    }
  }
  double Product() {
    double v = Primary();
    for (;;) {
      if (Accept("*")) {
        v *= Primary();
      } else if (Accept("/")) {
        double d = Primary();
        v = d == 0 ? 0 : v / d;
      } else {
        return v;
      }
    }
  }
  double Primary() {
    Skip();
    if (m_pos >= m_text.size()) Fail("expected a number or a key");
    char c = m_text[m_pos];
    if (c == '(') {
      Deeper deeper(*this);
      ++m_pos;
      double v = Or();
      if (!Accept(")")) Fail("expected ')'");
      return v;
    }
    if (c == '-') {
      Deeper deeper(*this);
      ++m_pos;
      return -Primary();
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
      char* end = nullptr;
      double v = std::strtod(m_text.c_str() + m_pos, &end);
      m_pos = static_cast<size_t>(end - m_text.c_str());
      return v;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') return Key();
    Fail(fmt::format("unexpected '{}'", c));
  }
  double Key() {
    size_t start = m_pos;
    while (m_pos < m_text.size()) {
      char c = m_text[m_pos];
      if (c == '[') {
        size_t close = m_text.find(']', m_pos);
        if (close == std::string::npos) Fail("missing ']'");
        m_pos = close + 1;
      } else if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.') {
        ++m_pos;
      } else {
        break;
      }
    }
    std::string path = m_text.substr(start, m_pos - start);
    std::string error;
    const Json* value = Walk(m_report, path, &error);
    if (!value) {
      m_pos = start;
      Fail(error);
    }
    if (!value->IsNumber()) {
      m_pos = start;
      Fail(fmt::format("key '{}' is not a number", path));
    }
    return value->Number();
  }

  const Json& m_report;
  const std::string& m_text;
  size_t m_pos = 0;
  int m_depth = 0;  // how deep Deeper has gone
};

}  // namespace

const Json* FindPath(const Json& root, const std::string& path) { return Walk(root, path, nullptr); }

bool EvaluateFailIf(const Json& report, const std::string& expression) {
  return Parser(report, expression).Parse() != 0;
}

}  // namespace core::report
