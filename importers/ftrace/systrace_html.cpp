#include "importers/ftrace/systrace_html.h"

#include <algorithm>
#include <cctype>

#include "importers/ftrace/ftrace_text_reader.h"

namespace importers::ftrace {
namespace {

// Where `needle` (lower case) occurs in `text` from `from` on, ignoring case; npos when nowhere.
size_t FindNoCase(std::string_view text, std::string_view needle, size_t from = 0) {
  auto same = [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) == static_cast<unsigned char>(b);
  };
  if (from > text.size()) return std::string_view::npos;
  auto it = std::search(text.begin() + static_cast<std::ptrdiff_t>(from), text.end(),
                        needle.begin(), needle.end(), same);
  return it == text.end() ? std::string_view::npos : static_cast<size_t>(it - text.begin());
}

uint64_t LineAt(std::string_view text, size_t pos) {
  return 1 + static_cast<uint64_t>(std::count(text.begin(), text.begin() + pos, '\n'));
}

// The body of a JavaScript string literal starting after its opening quote at `pos`, unescaped
// (a backslash before a line break continues the line).
std::string JsString(std::string_view s, size_t pos, char quote) {
  std::string out;
  for (size_t i = pos; i < s.size() && s[i] != quote; ++i) {
    if (s[i] != '\\' || i + 1 >= s.size()) {
      out += s[i];
      continue;
    }
    const char c = s[++i];
    switch (c) {
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case 'r': break;
      case '\n': break;  // line continuation
      default: out += c;  // \\ \" \' \/
    }
  }
  return out;
}

// Keeps `text` as the page's ftrace text when it is the first, else counts it.
void Take(SystraceData& out, std::string text, uint64_t line) {
  if (out.text_line) {
    ++out.other_blocks;
    return;
  }
  out.ftrace_text = std::move(text);
  out.text_line = line;
}

}  // namespace

bool LooksLikeHtml(std::string_view prefix) {
  size_t i = 0;
  if (prefix.substr(0, 3) == "\xEF\xBB\xBF") i = 3;
  while (i < prefix.size() && std::isspace(static_cast<unsigned char>(prefix[i]))) ++i;
  const std::string_view head = prefix.substr(i, 14);
  return FindNoCase(head, "<!doctype html") == 0 || FindNoCase(head, "<html") == 0;
}

SystraceData ExtractSystraceData(std::string_view html) {
  SystraceData out;
  for (size_t pos = FindNoCase(html, "<script"); pos != std::string_view::npos;
       pos = FindNoCase(html, "<script", pos + 7)) {
    const size_t tag_end = html.find('>', pos);
    if (tag_end == std::string_view::npos) break;
    if (FindNoCase(html.substr(pos, tag_end - pos), "trace-data") == std::string_view::npos) {
      continue;
    }
    const size_t close = FindNoCase(html, "</script>", tag_end);
    std::string_view body = html.substr(
        tag_end + 1, (close == std::string_view::npos ? html.size() : close) - tag_end - 1);
    size_t skip = 0;
    while (skip < body.size() && std::isspace(static_cast<unsigned char>(body[skip]))) ++skip;
    body.remove_prefix(skip);
    if (!body.empty() && (body[0] == '{' || body[0] == '[')) {
      ++out.json_blocks;
    } else if (LooksLikeFtraceText(body.substr(0, 4096))) {
      Take(out, std::string(body), LineAt(html, tag_end + 1 + skip));
    } else {
      ++out.other_blocks;
    }
  }
  // Older pages: var linuxPerfData = "...";
  const size_t var = html.find("linuxPerfData");
  if (var != std::string_view::npos) {
    const size_t quote = html.find_first_of("\"'", var);
    if (quote != std::string_view::npos) {
      std::string text = JsString(html, quote + 1, html[quote]);
      if (LooksLikeFtraceText(std::string_view(text).substr(0, 4096))) {
        Take(out, std::move(text), LineAt(html, quote));
      }
    }
  }
  return out;
}

}  // namespace importers::ftrace
