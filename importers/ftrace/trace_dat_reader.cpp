#include "importers/ftrace/trace_dat_reader.h"

#include <sched.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cerrno>
#include <iterator>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <event-parse.h>
#include <fmt/format.h>

#include "core/model/error.h"
#include "importers/common/line_cursor.h"
#include "importers/common/record_time_bound.h"

// libtracecmd's reading API. Its header (trace-cmd.h) pulls in tracefs.h, which does not compile
// as C++, so the functions used here are declared as the library exports them.
extern "C" {
struct tracecmd_input;
enum { TRACECMD_FL_LOAD_NO_PLUGINS = 1 << 0, TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS = 1 << 1 };
struct tracecmd_input* tracecmd_open_fd(int fd, int flags);
void tracecmd_close(struct tracecmd_input* handle);
struct tep_handle* tracecmd_get_tep(struct tracecmd_input* handle);
int tracecmd_iterate_events(struct tracecmd_input* handle, cpu_set_t* cpus, int cpu_size,
                            int (*callback)(struct tracecmd_input* handle, struct tep_record*,
                                            int, void*),
                            void* callback_data);
void tracecmd_set_loglevel(enum tep_loglevel level);
int tracecmd_cpus(struct tracecmd_input* handle);
struct tep_record* tracecmd_read_data(struct tracecmd_input* handle, int cpu);
void tracecmd_record_ref(struct tep_record* record);
void tracecmd_free_record(struct tep_record* record);
}

namespace importers::ftrace {
namespace {

constexpr char kMagic[] = "\x17\x08\x44tracing";
constexpr uint16_t kOptionDate = 1;
constexpr uint16_t kOptionTraceClock = 4;
constexpr uint16_t kOptionOffset = 7;
constexpr uint16_t kOptionTimeShift = 12;
// Options that only describe the capture (CPU statistics, uname, hooks, the tracer's version,
// process maps, trace id, guests). fencescope reads the uname itself and needs none of the rest
// applied; libtracecmd 3.1 reads them as strings it never checks (strdup of a uname with no NUL,
// found by fuzz_trace_dat: a heap-buffer-overflow; `buf[size - 1]` of an empty CPU statistics
// option; a hook it fails to parse, then dereferences), so it is never shown them.
constexpr uint16_t kOptionsOnlyDescribing[] = {2, 5, 6, 9, 10, 11, 13};
constexpr uint16_t kOptionUname = 5;
constexpr uint16_t kOptionCpuCount = 8;
constexpr uint16_t kOptionRenamed = 0x7ffe;  // an id libtracecmd does not know: skipped by size

// Walks the length-prefixed sections of a version 6 header.
class HeaderWalk {
 public:
  HeaderWalk(std::string_view bytes, const std::string& label) : m_bytes(bytes), m_label(label) {}

  size_t pos() const { return m_pos; }
  void Need(uint64_t count, std::string_view what) {
    if (count > m_bytes.size() || m_pos > m_bytes.size() - count) {
      throw core::Error(fmt::format(
          "{}: truncated trace-cmd .dat: {} needs {} bytes at byte offset {}, but the file ends "
          "at byte {}",
          m_label, what, count, m_pos, m_bytes.size()));
    }
  }
  uint64_t Number(int size, std::string_view what) {
    Need(static_cast<uint64_t>(size), what);
    uint64_t v = 0;
    for (int i = 0; i < size; ++i) {
      const auto byte = static_cast<uint8_t>(m_bytes[m_pos + (m_big ? i : size - 1 - i)]);
      v = (v << 8) | byte;
    }
    m_pos += static_cast<size_t>(size);
    return v;
  }
  std::string_view String(std::string_view what) {
    const size_t end = m_bytes.find('\0', m_pos);
    if (end == std::string_view::npos) Need(m_bytes.size() - m_pos + 1, what);
    std::string_view s = m_bytes.substr(m_pos, end - m_pos);
    m_pos = end + 1;
    return s;
  }
  std::string_view Take(uint64_t count, std::string_view what) {
    Need(count, what);
    std::string_view s = m_bytes.substr(m_pos, count);
    m_pos += count;
    return s;
  }
  void Expect(std::string_view tag, std::string_view what) {
    std::string_view got = Take(tag.size(), what);
    if (got != tag) {
      throw core::Error(fmt::format("{}: damaged trace-cmd .dat: expected the {} tag at byte "
                                    "offset {}",
                                    m_label, what, m_pos - tag.size()));
    }
  }
  void set_big_endian(bool big) { m_big = big; }

 private:
  std::string_view m_bytes;
  const std::string& m_label;
  size_t m_pos = 0;
  bool m_big = false;
};

struct OptionPatch {
  size_t id_offset = 0;  // where the id (u16) of an option libtracecmd is not to see is
};

void ParseTgids(std::string_view text, std::unordered_map<int32_t, int32_t>& out) {
  LineCursor lines(text);
  std::string_view line;
  while (lines.Next(line)) {
    int32_t pid = 0, tgid = 0;
    if (std::sscanf(std::string(line).c_str(), "%d %d", &pid, &tgid) == 2) out[pid] = tgid;
  }
}

// The error for a file that ends inside (or before) CPU `cpu`'s ring-buffer data: where, in
// bytes into that CPU's data and in its pages (the unit the kernel fills and the reader reads).
std::string CutCpuData(const std::string& label, uint64_t cpu, uint64_t offset, uint64_t size,
                       uint64_t page_size, uint64_t file_size) {
  const uint64_t pages = page_size ? (size + page_size - 1) / page_size : 0;
  if (file_size <= offset) {
    return fmt::format(
        "{}: truncated trace-cmd .dat: the file ends at byte {}, before CPU {}'s ring-buffer "
        "data (byte offset {} to {}, {} pages of {} bytes) begins",
        label, file_size, cpu, offset, offset + size, pages, page_size);
  }
  const uint64_t into = file_size - offset;
  return fmt::format(
      "{}: truncated trace-cmd .dat: the file ends at byte {}, {} bytes into CPU {}'s "
      "ring-buffer data (byte offset {} to {}): inside its page {} of {} ({}-byte pages)",
      label, file_size, into, cpu, offset, offset + size,
      page_size ? into / page_size + 1 : 0, pages, page_size);
}

struct CpuData {
  uint64_t cpu = 0;
  std::string_view bytes;  // that CPU's ring-buffer pages
  uint64_t offset = 0;     // where they start in the file
};
// The unsigned number of `size` bytes at `at` of `bytes`, in the file's byte order.
uint64_t NumberAt(std::string_view bytes, size_t at, size_t size, bool big_endian) {
  uint64_t v = 0;
  for (size_t i = 0; i < size; ++i) {
    v = (v << 8) | static_cast<uint8_t>(bytes[at + (big_endian ? i : size - 1 - i)]);
  }
  return v;
}

struct PageLayout {
  uint64_t page_size = 0;
  uint64_t long_size = 0;
  bool big_endian = false;
};

// Each ring-buffer page starts with a header: u64 timestamp, then the `commit` word (a long)
// whose low 27 bits are the bytes of events written in the page (the kernel's ring buffer keeps
// flags in the high bits). A page claiming more than it can hold is damaged; libtracecmd would
// read past it, so it is refused here, naming the CPU, the page and the byte offset.
void CheckPages(const CpuData& data, const PageLayout& layout, const std::string& label) {
  const uint64_t header = 8 + layout.long_size;
  if (layout.page_size <= header) return;  // the long size is 4 or 8 (WalkVersion6)
  const uint64_t pages = data.bytes.size() / layout.page_size;
  for (uint64_t page = 0; page < pages; ++page) {
    const size_t at = static_cast<size_t>(page * layout.page_size + 8);
    const uint64_t commit = NumberAt(data.bytes, at, layout.long_size, layout.big_endian);
    const uint64_t used = commit & ((uint64_t{1} << 27) - 1);
    if (used > layout.page_size - header) {
      throw core::Error(fmt::format(
          "{}: damaged trace-cmd .dat: CPU {}'s ring-buffer page {} of {} (byte offset {}, {} "
          "bytes into that CPU's data) says it holds {} bytes of events, more than a {}-byte "
          "page can",
          label, data.cpu, page + 1, pages, data.offset + page * layout.page_size,
          page * layout.page_size, used, layout.page_size));
    }
  }
}

// The printk formats section: lines `ADDRESS : "FORMAT"`, which libtraceevent
// (tep_parse_printk_formats, 1.7) splits at the first ':' past any leading ones and reads from
// two bytes after it, then strips the quotes and a trailing \n by looking at the format's last
// three bytes: a line with no ':', nothing after it, or a format of fewer than 3 bytes makes it
// read outside its buffer (found by fuzz_trace_dat). Such a line is refused here, naming it.
// The library reads the section as text up to its first NUL; empty lines are skipped.
void CheckPrintkFormats(std::string_view text, size_t offset, const std::string& label) {
  text = text.substr(0, text.find('\0'));
  size_t start = 0;
  uint64_t number = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    const size_t line_at = start;
    start = end + 1;
    if (line.empty()) continue;
    ++number;
    const size_t first = line.find_first_not_of(':');
    const size_t colon = first == std::string_view::npos ? first : line.find(':', first);
    std::string_view format;
    if (colon != std::string_view::npos && line.size() > colon + 1) {
      format = line.substr(colon + 2);
      if (!format.empty() && format.front() == '"') format.remove_prefix(1);
    }
    if (colon == std::string_view::npos || line.size() <= colon + 1 || format.size() < 3) {
      throw core::Error(fmt::format(
          "{}: damaged trace-cmd .dat: printk format line {} (byte offset {}) is not "
          "'ADDRESS : \"FORMAT\"'",
          label, number, offset + line_at));
    }
  }
}

// The header_page format: the lines `\tfield: TYPE NAME;\toffset:N;\tsize:N;[\tsigned:N;]` of the
// fields timestamp, commit, overwrite (optional) and data, in that order, as libtraceevent
// parses them. A header_page it cannot parse makes tracecmd_open_fd fail, and libtracecmd 3.1
// then crashes closing its half-read handle (found by fuzz_trace_dat: a NULL read in
// tracecmd_close, for an offset with no ';', a type of other characters, or a type of two words:
// libtraceevent reads the type as one token, then expects the name): such a format is refused
// first.
// The words of `text` between spaces.
size_t WordCount(std::string_view text) {
  size_t words = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    words += text[i] != ' ' && (i == 0 || text[i - 1] == ' ');
  }
  return words;
}

void CheckHeaderPage(std::string_view text, size_t offset, const std::string& label) {
  auto is_number = [](std::string_view v) {
    return !v.empty() && v.find_first_not_of("0123456789") == std::string_view::npos;
  };
  constexpr std::string_view kWordChars =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_ ";
  const std::string_view kFields[] = {"timestamp", "commit", "overwrite", "data"};
  size_t next_field = 0;
  size_t start = 0;
  int number = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    const size_t line_at = start;
    start = end + 1;
    ++number;
    if (line.empty()) continue;
    bool good = line.substr(0, 7) == "\tfield:";
    size_t pos = line.find(';');
    good = good && pos != std::string_view::npos;
    if (good) {
      // TYPE NAME: words; NAME the next field expected (overwrite may be left out).
      const std::string_view declaration = line.substr(7, pos - 7);
      const size_t name_at = declaration.find_last_of(' ');
      const std::string_view name =
          name_at == std::string_view::npos ? declaration : declaration.substr(name_at + 1);
      if (next_field == 2 && name != kFields[2]) next_field = 3;
      good = declaration.find_first_not_of(kWordChars) == std::string_view::npos &&
             WordCount(declaration) == 2 && next_field < std::size(kFields) &&
             name == kFields[next_field];
      ++next_field;
    }
    for (std::string_view key : {"\toffset:", "\tsize:", "\tsigned:"}) {
      if (!good || pos + 1 == line.size()) break;
      if (line.substr(pos + 1, key.size()) != key) {
        good = key == "\tsigned:";  // signed may be left out
        break;
      }
      const size_t value_at = pos + 1 + key.size();
      pos = line.find(';', value_at);
      good = pos != std::string_view::npos && is_number(line.substr(value_at, pos - value_at));
    }
    // libtracecmd 3.1 reads page timestamps as 8 bytes only; with another size it refuses the
    // first page and crashes closing the file (found by fuzz_trace_dat: size:4).
    if (good && next_field == 1) {
      const size_t size_at = line.find("\tsize:") + 6;
      const std::string_view size = line.substr(size_at, line.find(';', size_at) - size_at);
      if (size != "8") {
        throw core::Error(fmt::format(
            "{}: damaged trace-cmd .dat: header_page's timestamp (byte offset {}) is {} bytes, "
            "not 8",
            label, offset + line_at + size_at, size));
      }
    }
    if (!good || pos + 1 != line.size()) {
      throw core::Error(fmt::format(
          "{}: damaged trace-cmd .dat: header_page format line {} (byte offset {}) is not "
          "'field: TYPE NAME; offset:N; size:N; signed:N;' of timestamp, commit, overwrite "
          "(optional) or data, in that order",
          label, number, offset + line_at));
    }
  }
  if (next_field < std::size(kFields)) {
    throw core::Error(fmt::format(
        "{}: damaged trace-cmd .dat: the header_page format (byte offset {}) has no field {}",
        label, offset, kFields[next_field == 2 ? 3 : next_field]));
  }
}

// An event format (`name:`, `ID:`, `format:` with `\tfield:DECL;\toffset:N;...` lines, then
// `print fmt:`) that libtraceevent 1.7's tep_parse_event crashes on instead of refusing (each found
// by fuzz_trace_dat) is refused here, naming the format and its byte offset: a byte that is not
// text (the kernel writes formats in ASCII; `char[` followed by such a byte instead of `]` made
// a NULL read), a `REC->NAME` of the print format naming no field of the format (a NULL read
// inside __print_flags).
// libtraceevent 1.7 evaluates an operator of two constants while it parses a print format
// (consolidate_op_arg), with no check of a divisor: "2 / 0", or "__get_str % timeline" (a word
// reads as 0), stops the program with SIGFPE (found by fuzz_trace_dat). A '/' or '%' outside the
// quoted text whose two operands are neither a record field (REC->...) nor a function call, and
// whose divisor is not a nonzero number, is refused through `refuse(offset in print, why)`.
template <class Refuse>
void CheckConstantDivisions(std::string_view print, Refuse&& refuse) {
  auto is_word = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '.';
  };
  auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n'; };
  // The operand after `at`: a parenthesised group, or a word (a number, a name, REC->field).
  auto right_of = [&](size_t at) {
    size_t b = at;
    while (b < print.size() && (space(print[b]) || print[b] == '-' || print[b] == '+' ||
                                print[b] == '!' || print[b] == '~')) {
      ++b;
    }
    size_t e = b;
    if (e < print.size() && print[e] == '(') {
      for (int depth = 0; e < print.size(); ++e) {
        depth += print[e] == '(' ? 1 : print[e] == ')' ? -1 : 0;
        if (depth == 0) break;
      }
      return print.substr(b, std::min(e + 1, print.size()) - b);
    }
    while (e < print.size() && (is_word(print[e]) || print.substr(e, 2) == "->")) {
      e += print.substr(e, 2) == "->" ? 2 : 1;
    }
    if (e < print.size() && print[e] == '(') return std::string_view("f()");  // a call
    return print.substr(b, e - b);
  };
  // The operand ending before `at`: a parenthesised group (with the name of a call before it),
  // or a word.
  auto left_of = [&](size_t at) {
    size_t e = at;
    while (e > 0 && space(print[e - 1])) --e;
    size_t b = e;
    if (b > 0 && print[b - 1] == ')') {
      int depth = 0;
      while (b > 0) {
        --b;
        depth += print[b] == ')' ? 1 : print[b] == '(' ? -1 : 0;
        if (depth == 0) break;
      }
      if (b > 0 && is_word(print[b - 1])) return std::string_view("f()");  // a call
      return print.substr(b, e - b);
    }
    while (b > 0 && (is_word(print[b - 1]) || (b > 1 && print.substr(b - 2, 2) == "->"))) {
      b -= (b > 1 && print.substr(b - 2, 2) == "->") ? 2 : 1;
    }
    return print.substr(b, e - b);
  };
  auto nonzero_number = [](std::string_view t) {
    if (t.empty() || t[0] < '0' || t[0] > '9') return false;
    uint64_t v = 0;
    const bool hex = t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
    const auto [end, ec] = std::from_chars(t.data() + (hex ? 2 : 0), t.data() + t.size(), v,
                                           hex ? 16 : 10);
    (void)end;
    return ec == std::errc() && v != 0;
  };
  bool quoted = false;
  char quote = 0;
  for (size_t i = print.find(':') + 1; i < print.size(); ++i) {
    const char c = print[i];
    if (quoted) {
      if (c == '\\') ++i;
      else if (c == quote) quoted = false;
      continue;
    }
    if (c == '"' || c == '\'') {
      quoted = true;
      quote = c;
      continue;
    }
    if (c != '/' && c != '%') continue;
    const std::string_view left = left_of(i), right = right_of(i + 1);
    auto variable = [](std::string_view t) {
      return t.find("REC->") != std::string_view::npos || t == "f()";
    };
    if (variable(left) || variable(right) || nonzero_number(right)) continue;
    refuse(i, fmt::format("the print format computes '{} {} {}', a constant {} the library "
                          "evaluates when it reads the format, with nothing to stop a 0 divisor",
                          left, c, right, c == '/' ? "division" : "remainder"));
  }
}

// libtraceevent 1.7 dereferences NULL when the second value of a conditional (`c ? a : b`) of a
// print format is followed by anything but an operator, a ',' or a ')': `: "R"# REC->...`, or
// `{`, `;`, `.`, `[`, `@` there (found by fuzz_trace_dat). Such a format is refused through
// `refuse(offset in print, why)`; what may follow is checked after a quoted text, a
// parenthesised group, or a word (a number, a name, REC->field, a call with its arguments).
// It does the same when that second value applies `->` to anything but the word REC
// (`: longREC->next_comm`, `: foo -> bar`, `: REC->a->b`, `: "x"->b`; found by fuzz_trace_dat),
// refused here too; `->` inside a group or a call's arguments is left alone, as the library
// reads those without a crash.
template <class Refuse>
void CheckConditionalEnds(std::string_view print, Refuse&& refuse) {
  auto is_word = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  };
  auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n'; };
  // Past the quoted text opened at `at` (or the end of the print format).
  auto past_quote = [&](size_t at) {
    for (size_t i = at + 1; i < print.size(); ++i) {
      if (print[i] == '\\') ++i;
      else if (print[i] == '"') return i + 1;
    }
    return print.size();
  };
  // Past the parenthesised group opened at `at`, quoted text inside it skipped.
  auto past_parens = [&](size_t at) {
    int depth = 0;
    for (size_t i = at; i < print.size(); ++i) {
      if (print[i] == '"') {
        i = past_quote(i) - 1;
        continue;
      }
      depth += print[i] == '(' ? 1 : print[i] == ')' ? -1 : 0;
      if (depth == 0) return i + 1;
    }
    return print.size();
  };
  // Past the value starting at `e`: quoted text, a group (a cast before a value included), or
  // a word with its call's arguments.
  auto past_value = [&](size_t e) {
    for (int casts = 0; casts < 8; ++casts) {
      while (e < print.size() && (space(print[e]) || print[e] == '-' || print[e] == '!' ||
                                  print[e] == '~' || print[e] == '*' || print[e] == '&')) {
        ++e;
      }
      if (e >= print.size()) return e;
      if (print[e] == '"') return past_quote(e);
      if (print[e] == '(') {
        e = past_parens(e);
        size_t next = e;
        while (next < print.size() && space(print[next])) ++next;
        if (next < print.size() && (is_word(print[next]) || print[next] == '(' ||
                                    print[next] == '"')) {
          e = next;  // a cast: its value follows
          continue;
        }
        return e;
      }
      while (e < print.size() && (is_word(print[e]) || print.substr(e, 2) == "->")) {
        e += print.substr(e, 2) == "->" ? 2 : 1;
      }
      if (e < print.size() && print[e] == '(') e = past_parens(e);  // a call's arguments
      return e;
    }
    return e;
  };
  // The first '->' of the value in [b, e) (outside quotes and groups) that is not REC's own
  // (`REC->field`); npos when there is none.
  auto arrow_not_of_rec = [&](size_t b, size_t e) {
    for (size_t k = b; k < e; ++k) {
      if (print[k] == '"') {
        k = past_quote(k) - 1;
      } else if (print[k] == '(') {
        k = past_parens(k) - 1;
      } else if (print.substr(k, 2) == "->") {
        size_t word = k;
        while (word > b && is_word(print[word - 1])) --word;
        const bool of_rec = print.substr(word, k - word) == "REC" &&
                            (word < 2 || print.substr(word - 2, 2) != "->");
        if (!of_rec && word < k) return k;  // `->bar` with nothing before it reads as a name
        ++k;
      }
    }
    return std::string_view::npos;
  };
  for (size_t i = print.find(':') + 1; i < print.size(); ++i) {
    if (print[i] == '"') {
      i = past_quote(i) - 1;
      continue;
    }
    if (print[i] != ':') continue;
    size_t e = past_value(i + 1);
    size_t arrow = arrow_not_of_rec(i + 1, e);
    while (e < print.size() && space(print[e])) ++e;
    if (arrow == std::string_view::npos && print.substr(e, 2) == "->") arrow = e;  // `"x"->b`
    if (arrow != std::string_view::npos) {
      refuse(arrow,
             "the second value of a conditional ('? :') applies '->' to something other "
             "than REC");
    }
    if (e >= print.size() || print[e] == ',' || print[e] == ')' ||
        std::string_view("+-*/%&|^<>=!?:").find(print[e]) != std::string_view::npos) {
      continue;
    }
    refuse(e, fmt::format("the second value of a conditional ('? :') is followed by '{}', not "
                          "an operator, ',' or ')'",
                          print[e]));
  }
}

void CheckEventFormat(std::string_view text, size_t offset, const std::string& label) {
  std::string_view name = "(unnamed)";
  if (text.starts_with("name: ")) {
    name = text.substr(6, text.find('\n') == std::string_view::npos ? std::string_view::npos
                                                                      : text.find('\n') - 6);
  }
  auto refuse = [&](size_t at, const std::string& why) {
    throw core::Error(fmt::format(
        "{}: damaged trace-cmd .dat: event format '{}' (byte offset {}): {} at byte offset {}",
        label, name, offset, why, offset + at));
  };
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c != '\t' && c != '\n' && (c < 0x20 || c > 0x7e)) {
      refuse(i, fmt::format("a byte 0x{:02x}, not text", c));
    }
  }
  auto is_word = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  };
  std::vector<std::string_view> fields;
  size_t print_at = std::string_view::npos;
  for (size_t start = 0; start < text.size();) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    if (line.starts_with("\tfield:")) {
      std::string_view decl = line.substr(7);
      // A declaration ends at its ';' on its line, its brackets closed there: libtraceevent 1.7
      // reads an open '[' on through the next lines' tokens and dereferences NULL (found by
      // fuzz_trace_dat: `char prev_comm[16ftrace_event ...` with no `]` nor `;`).
      if (decl.find(';') == std::string_view::npos) {
        refuse(start + 7, "a field declaration with no ';' on its line");
      }
      decl = decl.substr(0, decl.find(';'));
      int open = 0;
      for (const char c : decl) {
        open += c == '[' ? 1 : c == ']' ? -1 : 0;
        if (open < 0 || open > 1) break;
      }
      if (open != 0) refuse(start + 7, "a field declaration whose brackets do not close");
      // The field's name: the last word before any array bracket ("char comm[16]"), or after
      // the type's brackets of a dynamic field ("__data_loc char[] name").
      std::string_view head = decl.substr(0, decl.find('['));
      if (decl.starts_with("__data_loc") || decl.starts_with("__rel_loc")) {
        head = decl.substr(decl.rfind(']') == std::string_view::npos ? 0 : decl.rfind(']') + 1);
      }
      while (!head.empty() && !is_word(head.back())) head.remove_suffix(1);
      size_t word = head.size();
      while (word > 0 && is_word(head[word - 1])) --word;
      fields.push_back(head.substr(word));
    } else if (line.starts_with("print fmt:")) {
      print_at = start;
    }
    start = end + 1;
  }
  if (print_at == std::string_view::npos) return;
  const std::string_view print = text.substr(print_at);
  for (size_t at = print.find("REC->"); at != std::string_view::npos;
       at = print.find("REC->", at + 5)) {
    size_t end = at + 5;
    while (end < print.size() && is_word(print[end])) ++end;
    const std::string_view field = print.substr(at + 5, end - at - 5);
    if (std::find(fields.begin(), fields.end(), field) == fields.end()) {
      refuse(print_at + at, fmt::format("the print format names REC->{}, no field of it", field));
    }
  }
  CheckConstantDivisions(print, [&](size_t at, const std::string& why) { refuse(print_at + at, why); });
  CheckConditionalEnds(print, [&](size_t at, const std::string& why) { refuse(print_at + at, why); });
}

// Where each CPU's ring-buffer pages lie in a version 6 file (OnRecord bounds each record by
// its page with it).
struct CpuPages {
  uint64_t page_size = 0;
  bool big_endian = false;
  std::vector<std::pair<uint64_t, uint64_t>> data;  // per CPU: byte offset, size
};

// Checks a version 6 file's sections and reads its options; returns the offsets of option ids
// to rename in the copy handed to libtracecmd, and fills `pages`.
std::vector<OptionPatch> WalkVersion6(std::string_view bytes, const std::string& label,
                                      TraceDatInfo& info, CpuPages& pages) {
  HeaderWalk w(bytes, label);
  w.Take(10, "magic");
  w.String("version");
  const uint64_t endian = w.Number(1, "endianness byte");
  w.set_big_endian(endian != 0);
  const uint64_t long_size = w.Number(1, "long size");
  // A kernel's long is 4 or 8 bytes. With another size the ring-buffer pages cannot be checked,
  // and libtracecmd 3.1 crashes closing a file whose first page it then refuses (found by
  // fuzz_trace_dat: long size 0).
  if (long_size != 4 && long_size != 8) {
    throw core::Error(fmt::format(
        "{}: damaged trace-cmd .dat: long size {} (byte offset {}) is not 4 or 8", label,
        long_size, w.pos() - 1));
  }
  const uint64_t page_size = w.Number(4, "page size");
  pages.page_size = page_size;
  pages.big_endian = endian != 0;
  // A ring-buffer page is a power of two (the kernel's page, or a sub-buffer of a few pages);
  // libtracecmd 3.1 crashes closing a file whose page size it then refuses (found by
  // fuzz_trace_dat: 2,035,712 bytes).
  if (page_size < 1024 || page_size > (64u << 20) || (page_size & (page_size - 1)) != 0) {
    throw core::Error(fmt::format(
        "{}: damaged trace-cmd .dat: page size {} at byte offset {} is not a power of two "
        "between 1 KB and 64 MB",
        label, page_size, w.pos() - 4));
  }
  w.Expect(std::string_view("header_page\0", 12), "header_page");
  const uint64_t header_page_size = w.Number(8, "header_page size");
  const size_t header_page_at = w.pos();
  CheckHeaderPage(w.Take(header_page_size, "header_page format"), header_page_at, label);
  w.Expect(std::string_view("header_event\0", 13), "header_event");
  w.Take(w.Number(8, "header_event size"), "header_event format");
  const uint64_t ftrace_formats = w.Number(4, "ftrace format count");
  for (uint64_t i = 0; i < ftrace_formats; ++i) {
    const uint64_t size = w.Number(8, "ftrace format size");
    const size_t at = w.pos();
    CheckEventFormat(w.Take(size, "ftrace format"), at, label);
  }
  const uint64_t systems = w.Number(4, "event system count");
  for (uint64_t s = 0; s < systems; ++s) {
    w.String("event system name");
    const uint64_t count = w.Number(4, "event format count");
    for (uint64_t i = 0; i < count; ++i) {
      const uint64_t size = w.Number(8, "event format size");
      const size_t at = w.pos();
      CheckEventFormat(w.Take(size, "event format"), at, label);
    }
  }
  w.Take(w.Number(4, "kallsyms size"), "kallsyms");
  const uint64_t printk_size = w.Number(4, "printk formats size");
  const size_t printk_at = w.pos();
  CheckPrintkFormats(w.Take(printk_size, "printk formats"), printk_at, label);
  w.Take(w.Number(8, "saved cmdlines size"), "saved cmdlines");
  const uint64_t cpus = w.Number(4, "CPU count");
  info.cpus = static_cast<int>(cpus);
  std::vector<OptionPatch> patches;
  std::string_view section = w.Take(10, "section tag");
  if (section == std::string_view("options  \0", 10)) {
    while (true) {
      const size_t id_offset = w.pos();
      const auto id = static_cast<uint16_t>(w.Number(2, "option id"));
      if (id == 0) break;
      const uint64_t size = w.Number(4, "option size");
      std::string_view data = w.Take(size, fmt::format("option {}", id));
      if (id == kOptionTraceClock) {
        // "[local] global counter ...": the clock in brackets, or the whole text.
        const size_t open = data.find('['), close = data.find(']');
        std::string_view clock = data;
        if (open != std::string_view::npos && close != std::string_view::npos && close > open) {
          clock = data.substr(open + 1, close - open - 1);
        }
        while (!clock.empty() && (clock.back() == '\0' || clock.back() == '\n')) {
          clock.remove_suffix(1);
        }
        info.clock = std::string(clock);
        // The library is never shown the clock option (fencescope reads the clock itself, and
        // the records' timestamps do not depend on it). With it, libtracecmd 3.1 reads the
        // clock's text after the CPU table and allocates the size it reads there (found by
        // fuzz_trace_dat: 0x7ffdcd180cf7 bytes), sizes a buffer from memory it never set when
        // the option is empty (the gpuvis capture has one; a 2^55-byte malloc), and keeps only
        // the last of the clocks it parses (the option's and the text's), leaking the other.
        patches.push_back({id_offset});
      } else if (id == kOptionUname) {
        info.uname = std::string(data.substr(0, data.find('\0')));
        patches.push_back({id_offset});
      } else if (std::find(std::begin(kOptionsOnlyDescribing), std::end(kOptionsOnlyDescribing),
                           id) != std::end(kOptionsOnlyDescribing)) {
        patches.push_back({id_offset});
      } else if ((id == kOptionDate || id == kOptionOffset) &&
                 data.find('\0') == std::string_view::npos) {
        // A number as text ("0x..."), read with strtoll, which reads on past an unterminated one.
        throw core::Error(fmt::format(
            "{}: damaged trace-cmd .dat: option {} ({}, byte offset {}) is not a NUL-terminated "
            "text",
            label, id, id == kOptionDate ? "date" : "offset", id_offset));
      } else if (id == kOptionTimeShift && size >= 16) {
        // Session id (8), flags (4), a CPU count, then per CPU a count N and 3 x N 8-byte
        // values. libtracecmd 3.1 allocates what the counts say before it reads them (found by
        // fuzz_trace_dat: 26 GB for a clock text read as this option): they must fit the option.
        auto u32 = [&](uint64_t at) { return NumberAt(data, at, 4, endian != 0); };
        const uint64_t cpus_shifted = u32(12);
        uint64_t at = 16;
        for (uint64_t cpu = 0; cpu < cpus_shifted && at <= size; ++cpu) {
          if (size - at < 4) {
            at = size + 1;
            break;
          }
          const uint64_t count = u32(at);
          at += 4;
          if (count > (size - at) / 24) {
            at = size + 1;
            break;
          }
          at += count * 24;
        }
        if (at > size) {
          throw core::Error(fmt::format(
              "{}: damaged trace-cmd .dat: option 12 (time shift, byte offset {}) claims more "
              "CPUs or offsets than its {} bytes hold",
              label, id_offset, size));
        }
      } else if (id == kOptionCpuCount && size > 8) {
        info.tgid_table_option = true;
        ParseTgids(data, info.tgids);
        patches.push_back({id_offset});
      } else if (id == kOptionCpuCount) {
        // libtracecmd takes the CPU count from this option and reads that many CPU data
        // entries; a count that is not the header's makes it read past them and crash
        // closing the file it then refuses (found by fuzz_trace_dat: 56,322 CPUs).
        const uint64_t count = size == 4 ? NumberAt(data, 0, 4, endian != 0) : 0;
        if (size != 4 || count != cpus) {
          throw core::Error(fmt::format(
              "{}: damaged trace-cmd .dat: option 8 (CPU count, byte offset {}) {} while the "
              "header says {} CPUs",
              label, id_offset,
              size != 4 ? fmt::format("is {} bytes, not 4", size) : fmt::format("says {}", count),
              cpus));
        }
      }
    }
    section = w.Take(10, "section tag");
  }
  if (section == std::string_view("flyrecord\0", 10)) {
    for (uint64_t cpu = 0; cpu < cpus; ++cpu) {
      const uint64_t offset = w.Number(8, "CPU data offset");
      const uint64_t size = w.Number(8, "CPU data size");
      if (offset > bytes.size() || size > bytes.size() - offset) {
        throw core::Error(CutCpuData(label, cpu, offset, size, page_size, bytes.size()));
      }
      // trace-cmd writes whole pages; libtracecmd 3.1 maps a page past a shorter CPU's data
      // and crashes closing the file it then refuses (found by fuzz_trace_dat).
      if (size % page_size != 0) {
        throw core::Error(fmt::format(
            "{}: damaged trace-cmd .dat: CPU {}'s data (byte offset {}, {} bytes) is not a "
            "whole number of {}-byte pages",
            label, cpu, offset, size, page_size));
      }
      // trace-cmd writes each CPU's data from a page boundary, and libtracecmd 3.1 maps it from
      // there: where an earlier CPU's data could be mapped and a later one's not (an offset off
      // the boundary), it refuses the file and leaks what it set up for the earlier CPUs
      // (found by fuzz_trace_dat: each such input made libFuzzer scan the heap for leaks).
      if (size > 0 && offset % page_size != 0) {
        throw core::Error(fmt::format(
            "{}: damaged trace-cmd .dat: CPU {}'s data (byte offset {}, {} bytes) does not start "
            "at a {}-byte page boundary",
            label, cpu, offset, size, page_size));
      }
      // trace-cmd writes the CPU data after this table; data said to start before the table's
      // entry for it lies over the file's own headers, which libtracecmd 3.1 then reads as ring
      // buffer pages, fails, and crashes closing the file (found by fuzz_trace_dat: CPU 0's
      // data at byte 12,288, inside the options section).
      if (size > 0 && offset < w.pos()) {
        throw core::Error(fmt::format(
            "{}: damaged trace-cmd .dat: CPU {}'s data (byte offset {}, {} bytes) starts before "
            "the end of the CPU table (byte offset {}), over the file's headers",
            label, cpu, offset, size, w.pos()));
      }
      const CpuData data{cpu, bytes.substr(offset, size), offset};
      CheckPages(data, {page_size, long_size, endian != 0}, label);
      pages.data.emplace_back(offset, size);
    }
  } else if (section == std::string_view("latency  \0", 10)) {
    // The latency tracer's text instead of per-CPU records: libtracecmd 3.1 iterates such a
    // file over CPU data it never read (found by fuzz_trace_dat: a crash in
    // tracecmd_peek_data, after a calloc sized by the CPU count).
    throw core::Error(fmt::format(
        "{}: a trace-cmd .dat of the latency format (section at byte offset {}): it holds the "
        "latency tracer's text, not per-CPU event records; record with events (flyrecord)",
        label, w.pos() - 10));
  } else {
    throw core::Error(fmt::format(
        "{}: damaged trace-cmd .dat: no flyrecord or latency section at byte offset {}", label,
        w.pos() - 10));
  }
  return patches;
}

struct ReadContext {
  const std::function<void(const FtraceEvent&)>* on_event;
  TraceDatInfo* info;
  const std::string* label;
  uint64_t max_records = 0;  // what the file's bytes can hold: 4 bytes a record at least
  FtraceEvent event;
  std::vector<std::string> numbers;  // text of numeric fields of the current record
  std::exception_ptr failure;        // what on_event threw; the iteration stopped there
  std::unordered_map<int, unsigned long long> last_offset;  // per CPU
  std::string_view bytes;             // the whole file
  const CpuPages* pages = nullptr;    // version 6: where each CPU's pages are
};

// Stops the iteration at a damaged record: the import fails with `why` once libtracecmd has
// returned. Returns false (the record is not read).
bool StopReading(ReadContext& ctx, const std::string& why) {
  ctx.failure = std::make_exception_ptr(
      core::Error(fmt::format("{}: damaged trace-cmd .dat: {}", *ctx.label, why)));
  return false;
}

// A record whose length runs past the end of its ring-buffer page makes every read of its
// fields (libtraceevent's and fencescope's) read past the page libtracecmd mapped (found by
// fuzz_trace_dat: a read past the mapping in the field scan). The record's header is read from
// the file: 4 bytes, or 8 when its type_len is 0 (the length in the next word), then its data.
bool RecordInItsPage(ReadContext& ctx, const tep_record* record) {
  const CpuPages* pages = ctx.pages;
  if (!pages || pages->page_size == 0) return true;
  std::string why;
  const auto cpu = static_cast<size_t>(record->cpu);
  const uint64_t at = record->offset;
  if (record->cpu < 0 || cpu >= pages->data.size()) {
    why = fmt::format("a record of CPU {}, which the file has no data for", record->cpu);
  } else if (const auto [start, size] = pages->data[cpu];
             at < start || at + 4 > start + size || at + 4 > ctx.bytes.size()) {
    why = fmt::format("CPU {}'s record at byte offset {} is outside its data", record->cpu, at);
  } else {
    const uint64_t page_end = start + ((at - start) / pages->page_size + 1) * pages->page_size;
    const uint64_t word = NumberAt(ctx.bytes, at, 4, pages->big_endian);
    const uint64_t type_len = pages->big_endian ? word >> 27 : word & 31;
    const uint64_t header = type_len == 0 ? 8 : 4;
    if (record->size < 0 || at + header + static_cast<uint64_t>(record->size) > page_end) {
      why = fmt::format("CPU {}'s record at byte offset {} claims {} bytes, past the end of its "
                        "ring-buffer page at byte offset {}",
                        record->cpu, at, record->size, page_end);
    }
  }
  return why.empty() || StopReading(ctx, why);
}

// libtracecmd 3.1 reads a CPU's records at increasing byte offsets; on some damaged pages it
// returns the same ones again without end (found by fuzz_trace_dat: an import that never
// ended). A record at or before the last one of its CPU, or more records than the file's
// bytes can hold, stops the read with an error naming the place.
bool RecordAdvances(ReadContext& ctx, const tep_record* record) {
  auto [last, first] = ctx.last_offset.try_emplace(record->cpu, record->offset);
  std::string why;
  if (!first && record->offset <= last->second) {
    why = fmt::format("libtracecmd read CPU {}'s record at byte offset {} after the one at byte "
                      "offset {}: a ring-buffer page there is damaged",
                      record->cpu, record->offset, last->second);
  } else if (ctx.info->records > ctx.max_records) {
    why = fmt::format("more records than its {} bytes can hold (CPU {}, byte offset {}): a "
                      "ring-buffer page is damaged",
                      ctx.max_records * 4, record->cpu, record->offset);
  }
  last->second = record->offset;
  return why.empty() || StopReading(ctx, why);
}

// The latest record time taken (record_time_bound.h): a damaged page's time can be any 64-bit
// number, and the mapper subtracts record times (a slice's length; found by fuzz_trace_dat: a
// page time past 2^63 read as negative, then a signed overflow).
constexpr uint64_t kMaxRecordNs = static_cast<uint64_t>(importers::kLatestRecordNs);

bool RecordTimeFits(ReadContext& ctx, const tep_record* record) {
  return record->ts <= kMaxRecordNs ||
         StopReading(ctx, fmt::format("CPU {}'s record at byte offset {} has the time {} ns, past "
                                      "3e18 (the year 2065 on an epoch clock): its ring-buffer "
                                      "page's time is damaged",
                                      record->cpu, record->offset, record->ts));
}

std::string_view FieldString(const tep_format_field* f, const tep_record* r, tep_handle* tep) {
  const char* data = static_cast<const char*>(r->data);
  size_t offset = static_cast<size_t>(f->offset);
  size_t length = static_cast<size_t>(f->size);
  if (f->flags & TEP_FIELD_IS_DYNAMIC) {
    const uint64_t loc = tep_read_number(tep, data + offset, f->size);
    offset = loc & 0xffff;
    length = (loc >> 16) & 0xffff;
    if (f->flags & TEP_FIELD_IS_RELATIVE) offset += static_cast<size_t>(f->offset + f->size);
  } else if (length == 0) {
    length = r->size > static_cast<int>(offset) ? static_cast<size_t>(r->size) - offset : 0;
  }
  if (offset > static_cast<size_t>(r->size)) return {};
  length = std::min(length, static_cast<size_t>(r->size) - offset);
  std::string_view s(data + offset, length);
  const size_t nul = s.find('\0');
  if (nul != std::string_view::npos) s = s.substr(0, nul);
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.remove_suffix(1);
  return s;
}

int OnRecord(tracecmd_input* handle, tep_record* record, int /*cpu*/, void* data) {
  auto& ctx = *static_cast<ReadContext*>(data);
  if (ctx.failure) return -1;
  tep_handle* tep = tracecmd_get_tep(handle);
  ++ctx.info->records;
  if (!RecordAdvances(ctx, record) || !RecordInItsPage(ctx, record) ||
      !RecordTimeFits(ctx, record)) {
    return -1;
  }
  tep_event* event = tep_find_event_by_record(tep, record);
  if (!event) {
    ++ctx.info->unknown_event_records;
    return 0;
  }
  FtraceEvent& e = ctx.event;
  e.ts_ns = static_cast<int64_t>(record->ts);
  e.cpu = record->cpu;
  e.pid = tep_data_pid(tep, record);
  auto tgid = ctx.info->tgids.find(e.pid);
  e.tgid = tgid != ctx.info->tgids.end() ? tgid->second : -1;
  const char* comm = tep_data_comm_from_pid(tep, e.pid);
  e.comm = comm && std::strcmp(comm, "<...>") != 0 ? std::string_view(comm) : std::string_view();
  e.name = event->name;
  e.details = {};
  e.place = record->offset;
  e.fields.clear();
  size_t n = 0;
  for (tep_format_field* f = event->format.fields; f; f = f->next) ++n;
  if (ctx.numbers.size() < n) ctx.numbers.resize(n);
  size_t i = 0;
  for (tep_format_field* f = event->format.fields; f; f = f->next, ++i) {
    std::string_view text;
    if (f->flags & (TEP_FIELD_IS_STRING | TEP_FIELD_IS_DYNAMIC)) {
      text = FieldString(f, record, tep);
    } else if (f->flags & TEP_FIELD_IS_ARRAY) {
      continue;
    } else {
      if (f->offset + f->size > record->size) continue;
      uint64_t v = tep_read_number(tep, static_cast<const char*>(record->data) + f->offset, f->size);
      if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size > 0 && f->size < 8) {  // sign-extend
        const int shift = 64 - 8 * f->size;
        ctx.numbers[i] = std::to_string(static_cast<int64_t>(v << shift) >> shift);
      } else if (f->flags & TEP_FIELD_IS_SIGNED) {
        ctx.numbers[i] = std::to_string(static_cast<int64_t>(v));
      } else {
        ctx.numbers[i] = std::to_string(v);
      }
      text = ctx.numbers[i];
    }
    e.fields.push_back({f->name, text});
  }
  if (e.name == "print") {
    if (auto buf = e.Text("buf")) e.details = *buf;
  }
  // An exception must not unwind through libtracecmd (C, which then leaks the records it
  // holds): -1 stops the iteration and it is thrown again once the library has returned.
  try {
    (*ctx.on_event)(e);
  } catch (...) {
    ctx.failure = std::current_exception();
    return -1;
  }
  return 0;
}

// libtracecmd 3.1 maps the file's ring-buffer pages and leaves the last mapping of each CPU in
// place after tracecmd_close (its page bookkeeping is freed, the mapping is not). Each would
// keep its memory file, the whole trace, alive for the life of the process: they are unmapped
// here once the library is done, found in /proc/self/maps by the memory file's inode.
void UnmapLeftMappings(dev_t device, ino_t inode) {
  std::FILE* maps = std::fopen("/proc/self/maps", "re");
  if (!maps) return;
  std::vector<std::pair<uintptr_t, uintptr_t>> left;
  // Only a line holding the inode's digits is parsed: the others (hundreds under a sanitizer)
  // cost a fgets each, not a sscanf.
  char inode_text[32];
  std::snprintf(inode_text, sizeof inode_text, " %lu", static_cast<unsigned long>(inode));
  char line[512];
  while (std::fgets(line, sizeof line, maps)) {
    unsigned long start = 0, end = 0, offset = 0, ino = 0;
    unsigned major = 0, minor = 0;
    char perms[8];
    if (std::strstr(line, inode_text) != nullptr &&
        std::sscanf(line, "%lx-%lx %7s %lx %x:%x %lu", &start, &end, perms, &offset, &major, &minor,
                    &ino) == 7 &&
        ino == inode && makedev(major, minor) == device) {
      left.emplace_back(start, end);
    }
    // A line longer than the buffer (a long path) continues in the next reads: skip its rest.
    while (std::strchr(line, '\n') == nullptr && std::fgets(line, sizeof line, maps)) {
    }
  }
  std::fclose(maps);
  for (const auto& [start, end] : left) ::munmap(reinterpret_cast<void*>(start), end - start);
}

// libtracecmd 3.1's tracecmd_iterate_events, stopped early by its callback, keeps the record it
// last peeked on each CPU: it drops its reference while the record is still locked as the CPU's
// next one, so nothing frees it (neither tracecmd_close nor a plain tracecmd_free_record: its
// count is already 0). Taking each such record (tracecmd_read_data unlocks it) and giving it the
// reference it lost frees it, its page's too. Without this each damaged .dat leaked 128 bytes a
// CPU, and libFuzzer, seeing an input leak, scanned the whole heap for leaks after each of them
// (three quarters of fuzz_trace_dat's time).
void FreeRecordsLeftPeeked(tracecmd_input* input) {
  const int cpus = tracecmd_cpus(input);
  for (int cpu = 0; cpu < cpus; ++cpu) {
    tep_record* record = tracecmd_read_data(input, cpu);
    if (!record) continue;
    if (record->ref_count == 0) tracecmd_record_ref(record);  // the reference it lost
    tracecmd_free_record(record);
  }
}

struct Handle {
  tracecmd_input* input = nullptr;
  dev_t device = 0;
  ino_t inode = 0;
  ~Handle() {
    if (!input) return;
    tracecmd_close(input);  // closes the memory file too
    UnmapLeftMappings(device, inode);
  }
};

}  // namespace

bool LooksLikeTraceDat(std::string_view prefix) {
  return prefix.size() >= 10 && std::memcmp(prefix.data(), kMagic, 10) == 0;
}

TraceDatInfo ReadTraceDat(std::string_view bytes, const std::string& label,
                          const std::function<void(const FtraceEvent&)>& on_event,
                          const std::function<void(const TraceDatInfo&)>& on_header) {
  TraceDatInfo info;
  if (!LooksLikeTraceDat(bytes)) {
    throw core::Error(fmt::format("{}: not a trace-cmd .dat file (no 17 08 44 'tracing' magic "
                                  "at byte offset 0)",
                                  label));
  }
  {
    const size_t end = bytes.find('\0', 10);
    if (end == std::string_view::npos || end > 16) {
      throw core::Error(fmt::format("{}: truncated trace-cmd .dat: no version string at byte "
                                    "offset 10",
                                    label));
    }
    info.version = std::string(bytes.substr(10, end - 10));
  }
  // libtracecmd 3.1 reads versions up to 7, an older number as a version 6 layout, with none of
  // the checks below (found by fuzz_trace_dat: a version "4" file whose header_page claims
  // 2^63 bytes, allocated as claimed). trace-cmd has written version 6 since 2010 and 7 on
  // request; other numbers are refused.
  if (info.version != "6" && info.version != "7") {
    throw core::Error(fmt::format(
        "{}: trace-cmd .dat of version '{}' (byte offset 10): fencescope reads versions 6 and 7",
        label, info.version));
  }
  std::vector<OptionPatch> patches;
  CpuPages pages;
  if (info.version == "6") patches = WalkVersion6(bytes, label, info, pages);

  const int fd = memfd_create("fencescope-trace.dat", MFD_CLOEXEC);
  if (fd < 0) {
    throw core::Error(fmt::format("{}: cannot create a memory file for libtracecmd: {}", label,
                                  std::strerror(errno)));
  }
  size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n <= 0) {
      ::close(fd);
      throw core::Error(fmt::format("{}: cannot fill a memory file for libtracecmd: {}", label,
                                    std::strerror(errno)));
    }
    written += static_cast<size_t>(n);
  }
  for (const OptionPatch& patch : patches) {
    // The id is little- or big-endian like the file; 0x7ffe reads the same both ways only
    // when written per the file's order.
    unsigned char id[2];
    const bool big = bytes[10 + info.version.size() + 1] != 0;
    id[big ? 0 : 1] = kOptionRenamed >> 8;
    id[big ? 1 : 0] = kOptionRenamed & 0xff;
    if (::pwrite(fd, id, 2, static_cast<off_t>(patch.id_offset)) != 2) {
      ::close(fd);
      throw core::Error(fmt::format("{}: cannot patch the memory file for libtracecmd", label));
    }
  }
  ::lseek(fd, 0, SEEK_SET);
  tracecmd_set_loglevel(TEP_LOG_NONE);
  Handle handle;
  struct stat file {};
  if (::fstat(fd, &file) == 0) {
    handle.device = file.st_dev;
    handle.inode = file.st_ino;
  }
  handle.input = tracecmd_open_fd(fd, TRACECMD_FL_LOAD_NO_PLUGINS |
                                          TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
  if (!handle.input) {
    ::close(fd);
    UnmapLeftMappings(handle.device, handle.inode);  // pages it mapped before it gave up
    throw core::Error(fmt::format(
        "{}: libtracecmd could not read this trace-cmd .dat (version {}): its headers, event "
        "formats or CPU data are damaged or of an unsupported layout",
        label, info.version));
  }
  if (info.cpus == 0) info.cpus = tracecmd_cpus(handle.input);
  if (on_header) on_header(info);
  ReadContext ctx{&on_event, &info, &label, bytes.size() / 4 + 1, {}, {}, {}, {}, bytes, &pages};
  ctx.event.fields.reserve(16);
  const int iterated = tracecmd_iterate_events(handle.input, nullptr, 0, OnRecord, &ctx);
  if (ctx.failure) {
    FreeRecordsLeftPeeked(handle.input);
    std::rethrow_exception(ctx.failure);
  }
  if (iterated < 0) {
    throw core::Error(fmt::format(
        "{}: libtracecmd failed while reading the CPU buffers after {} records{}", label,
        info.records,
        info.records ? fmt::format(" (the last one read: CPU {}, byte offset {})", ctx.event.cpu,
                                   ctx.event.place)
                     : std::string()));
  }
  return info;
}

}  // namespace importers::ftrace
