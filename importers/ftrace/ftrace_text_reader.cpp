#include "importers/ftrace/ftrace_text_reader.h"

#include <cstdint>
#include <cstring>

#include "importers/common/line_cursor.h"

namespace importers::ftrace {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r'; }

std::string_view Trim(std::string_view s) {
  while (!s.empty() && IsSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && (IsSpace(s.back()) || s.back() == '\n')) s.remove_suffix(1);
  return s;
}

bool ParseInt(std::string_view s, int32_t& out) {
  if (s.empty() || s.size() > 10) return false;
  int64_t v = 0;
  for (char c : s) {
    if (!IsDigit(c)) return false;
    v = v * 10 + (c - '0');
  }
  out = static_cast<int32_t>(v);
  return true;
}

// "630659.115986" (6 or 9 decimals, or any count up to 9) -> ns.
bool ParseSeconds(std::string_view s, int64_t& ns) {
  const size_t dot = s.find('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 >= s.size()) return false;
  int64_t seconds = 0;
  for (size_t i = 0; i < dot; ++i) {
    if (!IsDigit(s[i]) || i > 12) return false;
    seconds = seconds * 10 + (s[i] - '0');
  }
  int64_t fraction = 0;
  size_t digits = 0;
  for (size_t i = dot + 1; i < s.size(); ++i) {
    if (!IsDigit(s[i]) || digits >= 9) return false;
    fraction = fraction * 10 + (s[i] - '0');
    ++digits;
  }
  for (; digits < 9; ++digits) fraction *= 10;
  // Beyond about 292 years of seconds the ns do not fit in 64 bits: not a timestamp.
  if (seconds > (INT64_MAX - fraction) / 1'000'000'000) return false;
  ns = seconds * 1'000'000'000 + fraction;
  return true;
}

// "comm:pid" at the end of `s` (comm may itself hold ':').
bool SplitCommPid(std::string_view s, std::string_view& comm, std::string_view& pid) {
  s = Trim(s);
  const size_t colon = s.rfind(':');
  if (colon == std::string_view::npos) return false;
  comm = s.substr(0, colon);
  pid = s.substr(colon + 1);
  int32_t unused;
  return ParseInt(pid, unused);
}

// trace-cmd's sched plugin prints sched_switch as
//   prev_comm:prev_pid [prio] S ==> next_comm:next_pid [prio]
// and sched_wakeup as comm:pid [prio] ... ; the kernel prints key=value pairs instead.
void AddSchedPluginFields(FtraceEvent& e) {
  if (e.name == "sched_switch" && !e.Text("prev_pid")) {
    const size_t arrow = e.details.find(" ==> ");
    if (arrow == std::string_view::npos) return;
    std::string_view left = e.details.substr(0, arrow);
    std::string_view right = e.details.substr(arrow + 5);
    const size_t lb = left.find(" [");
    const size_t rb = right.find(" [");
    std::string_view prev = lb == std::string_view::npos ? left : left.substr(0, lb);
    std::string_view next = rb == std::string_view::npos ? right : right.substr(0, rb);
    std::string_view state;
    if (lb != std::string_view::npos) {
      const size_t close = left.find("] ", lb);
      if (close != std::string_view::npos) state = Trim(left.substr(close + 2));
    }
    std::string_view comm, pid;
    if (SplitCommPid(prev, comm, pid)) {
      e.fields.push_back({"prev_comm", comm});
      e.fields.push_back({"prev_pid", pid});
    }
    if (!state.empty()) e.fields.push_back({"prev_state", state});
    if (SplitCommPid(next, comm, pid)) {
      e.fields.push_back({"next_comm", comm});
      e.fields.push_back({"next_pid", pid});
    }
  } else if ((e.name == "sched_wakeup" || e.name == "sched_waking" ||
              e.name == "sched_wakeup_new") &&
             !e.Text("pid")) {
    std::string_view head = e.details;
    const size_t lb = head.find(" [");
    if (lb != std::string_view::npos) head = head.substr(0, lb);
    std::string_view comm, pid;
    if (SplitCommPid(head, comm, pid)) {
      e.fields.push_back({"comm", comm});
      e.fields.push_back({"pid", pid});
    }
  }
}

bool IsPrintEvent(std::string_view name) {
  return name == "print" || name == "tracing_mark_write" || name == "0";
}

// print details are "IP: text" (trace-cmd, kernel `print` with the ip shown) or the text.
std::string_view PrintText(std::string_view details) {
  const size_t colon = details.find(": ");
  if (colon != std::string_view::npos && colon > 0 && colon <= 18) {
    std::string_view ip = details.substr(0, colon);
    if (ip.substr(0, 2) == "0x") ip.remove_prefix(2);
    bool hex = !ip.empty();
    for (char c : ip) {
      if (!(IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) hex = false;
    }
    if (hex) return Trim(details.substr(colon + 2));
  }
  return Trim(details);
}

}  // namespace

std::optional<uint64_t> ParseFtraceNumber(std::string_view t) {
  if (t.empty()) return std::nullopt;
  bool negative = false;
  if (t[0] == '-') {
    negative = true;
    t.remove_prefix(1);
  }
  bool hex = false;
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
    hex = true;
    t.remove_prefix(2);
  }
  if (t.empty() || t.size() > 20) return std::nullopt;
  if (!hex) {
    for (char c : t) {
      if (!IsDigit(c)) {
        hex = true;
        break;
      }
    }
  }
  uint64_t v = 0;
  for (char c : t) {
    int d;
    if (IsDigit(c)) {
      d = c - '0';
    } else if (hex && c >= 'a' && c <= 'f') {
      d = c - 'a' + 10;
    } else if (hex && c >= 'A' && c <= 'F') {
      d = c - 'A' + 10;
    } else {
      return std::nullopt;
    }
    v = hex ? (v << 4) | static_cast<uint64_t>(d) : v * 10 + static_cast<uint64_t>(d);
  }
  return negative ? ~v + 1 : v;
}

std::optional<uint64_t> FtraceEvent::Number(std::string_view field) const {
  auto t = Text(field);
  if (!t) return std::nullopt;
  return ParseFtraceNumber(*t);
}

void SplitDetails(std::string_view d, std::vector<FtraceField>& fields) {
  size_t pos = 0;
  while (true) {
    const size_t eq = d.find('=', pos);
    if (eq == std::string_view::npos) break;
    size_t start = eq;
    while (start > pos) {
      const char c = d[start - 1];
      if (!(IsDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
            c == '-' || c == '.')) {
        break;
      }
      --start;
    }
    size_t end = eq + 1;
    while (end < d.size() && d[end] != ',' && d[end] != ' ') ++end;
    if (start < eq) fields.push_back({d.substr(start, eq - start), d.substr(eq + 1, end - eq - 1)});
    pos = end;
  }
}

bool ParseFtraceLine(std::string_view line, FtraceEvent& e, bool with_fields) {
  // The CPU field: the first "[ddd]" preceded by a space.
  size_t lb = std::string_view::npos;
  for (size_t i = line.find('['); i != std::string_view::npos; i = line.find('[', i + 1)) {
    size_t j = i + 1;
    while (j < line.size() && IsDigit(line[j])) ++j;
    if (j > i + 1 && j < line.size() && line[j] == ']' && i > 0 && IsSpace(line[i - 1])) {
      lb = i;
      break;
    }
  }
  if (lb == std::string_view::npos) return false;
  const size_t rb = line.find(']', lb);
  if (!ParseInt(line.substr(lb + 1, rb - lb - 1), e.cpu)) return false;
  std::string_view left = Trim(line.substr(0, lb));
  e.tgid = -1;
  if (!left.empty() && left.back() == ')') {
    const size_t open = left.rfind('(');
    if (open == std::string_view::npos) return false;
    std::string_view tgid = Trim(left.substr(open + 1, left.size() - open - 2));
    int32_t value;
    if (ParseInt(tgid, value)) e.tgid = value;
    left = Trim(left.substr(0, open));
  }
  const size_t dash = left.rfind('-');
  if (dash == std::string_view::npos || !ParseInt(left.substr(dash + 1), e.pid)) return false;
  e.comm = Trim(left.substr(0, dash));
  if (e.comm == "<...>") e.comm = {};
  // Optional flags, then "SECONDS.FRACTION:".
  std::string_view rest = line.substr(rb + 1);
  bool have_ts = false;
  for (int token = 0; token < 2 && !have_ts; ++token) {
    while (!rest.empty() && IsSpace(rest.front())) rest.remove_prefix(1);
    size_t end = 0;
    while (end < rest.size() && !IsSpace(rest[end])) ++end;
    std::string_view word = rest.substr(0, end);
    rest.remove_prefix(end);
    if (!word.empty() && word.back() == ':' && IsDigit(word.front())) {
      if (!ParseSeconds(word.substr(0, word.size() - 1), e.ts_ns)) return false;
      have_ts = true;
    } else if (word.size() < 4 || word.size() > 6 || IsDigit(word.front())) {
      return false;  // not a flags field
    }
  }
  if (!have_ts) return false;
  while (!rest.empty() && IsSpace(rest.front())) rest.remove_prefix(1);
  const size_t colon = rest.find(':');
  if (colon == std::string_view::npos || colon == 0) return false;
  e.name = rest.substr(0, colon);
  for (char c : e.name) {
    if (IsSpace(c)) return false;
  }
  e.details = Trim(rest.substr(colon + 1));
  e.fields.clear();
  if (!with_fields) return true;
  if (IsPrintEvent(e.name)) {
    e.details = PrintText(e.details);
    return true;
  }
  SplitDetails(e.details, e.fields);
  AddSchedPluginFields(e);
  return true;
}

std::string_view CleanFtraceLine(std::string_view line) {
  line = Trim(line);
  if (line.size() >= 3 && line.substr(line.size() - 3) == "\\n\\") {
    line = Trim(line.substr(0, line.size() - 3));
  }
  return line;
}

bool LooksLikeFtraceText(std::string_view prefix) {
  FtraceEvent e;
  int lines = 0;
  size_t pos = 0;
  while (pos < prefix.size() && lines < 32) {
    size_t end = prefix.find('\n', pos);
    if (end == std::string_view::npos) end = prefix.size();
    std::string_view line = CleanFtraceLine(prefix.substr(pos, end - pos));
    pos = end + 1;
    if (line.empty()) continue;
    ++lines;
    if (line.substr(0, 9) == "# tracer:" || line.substr(0, 6) == "TRACE:") return true;
    if (line.substr(0, 5) == "cpus=" && line.size() > 5 && IsDigit(line[5])) return true;
    if (line.front() == '#') continue;
    if (end < prefix.size() || pos >= prefix.size()) {
      if (ParseFtraceLine(line, e)) return true;
    }
    return false;
  }
  return false;
}

TextScanCounts ScanFtraceText(std::string_view text,
                              const std::function<void(const FtraceEvent&)>& on_event,
                              const std::function<void(uint64_t, std::string_view)>& on_bad_line,
                              bool with_fields) {
  TextScanCounts counts;
  FtraceEvent e;
  e.fields.reserve(16);
  int64_t last_ts = INT64_MIN;
  LineCursor lines(text);
  std::string_view line;
  uint64_t number = 0;
  while (lines.Next(line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    std::string_view trimmed = CleanFtraceLine(line);
    if (trimmed.empty()) continue;
    if (trimmed.front() == '#') {
      for (std::string_view key : {std::string_view("# clock_type="), std::string_view("# trace_clock=")}) {
        if (trimmed.substr(0, key.size()) == key) counts.clock = Trim(trimmed.substr(key.size()));
      }
      continue;
    }
    if (trimmed.substr(0, 5) == "cpus=" || trimmed == "TRACE:" ||
        trimmed.substr(0, 8) == "version " || trimmed.substr(0, 8) == "CPU 0 is" ||
        (trimmed.substr(0, 4) == "CPU " && trimmed.find(" is empty") != std::string_view::npos)) {
      continue;
    }
    ++counts.lines;
    e.place = number;
    if (!ParseFtraceLine(trimmed, e, with_fields)) {
      ++counts.bad_lines;
      if (!counts.first_bad_line) counts.first_bad_line = number;
      on_bad_line(number, trimmed);
      continue;
    }
    if (e.ts_ns < last_ts) counts.sorted = false;
    last_ts = e.ts_ns;
    ++counts.events;
    on_event(e);
  }
  return counts;
}

}  // namespace importers::ftrace
