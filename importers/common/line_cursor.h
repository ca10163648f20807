// Walks a text one line at a time, for the line-oriented inputs (ftrace text, the tgid table of a
// trace.dat) that would otherwise each repeat the same find-the-newline loop.
#pragma once

#include <string_view>

namespace importers {

class LineCursor {
 public:
  explicit LineCursor(std::string_view text) : m_text(text) {}

  // The next line, without its '\n' (the last line may have none); false once the text is used
  // up. A text that ends with '\n' has no empty line after it.
  bool Next(std::string_view& line) {
    if (m_pos >= m_text.size()) return false;
    size_t end = m_text.find('\n', m_pos);
    if (end == std::string_view::npos) end = m_text.size();
    line = m_text.substr(m_pos, end - m_pos);
    m_pos = end + 1;
    return true;
  }

 private:
  std::string_view m_text;
  size_t m_pos = 0;
};

}  // namespace importers
